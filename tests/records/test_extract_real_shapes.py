"""Shapes of real pastes extraction must read (issue 10), each written for the test."""

from __future__ import annotations

import pytest

from records.extraction import clean_paste, extract


def test_a_markdown_link_the_chat_window_made_becomes_its_url() -> None:
    text = "OSError: Can't load config for 'x'. If you were trying to load it from '[Models](https://huggingface.co/models)'"
    error = extract(text).primary
    assert error is not None and "'https://huggingface.co/models'" in error.message
    assert clean_paste("[https://a.org](https://b.org)") == "[https://a.org](https://b.org)"  # a URL title stays
    assert clean_paste(clean_paste("see [the docs](https://a.org/x)")) == "see https://a.org/x"


def test_a_frame_line_copied_without_its_file_opening_is_a_frame() -> None:
    text = (
        "it raised the error below\n"
        '/lib/python3.11/site-packages/transformers/models/llava/modeling_llava.py", line 412, in forward\n'
        "    raise ValueError(\n"
        "ValueError: Image features and image tokens do not match: tokens: 0, features 576\n"
    )
    error = extract(text).primary
    assert error is not None and error.error_class == "ValueError"
    frame = error.raising_frame
    assert frame is not None and frame.line == 412
    assert frame.package_path == "transformers/models/llava/modeling_llava.py"


def test_an_error_quoted_in_brackets_is_read_without_them() -> None:
    text = "Calling Trainer() fails.\n[ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`]"
    error = extract(text).primary
    assert error is not None and error.error_class == "ImportError"
    assert error.message == "Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`"


def test_a_message_printed_before_a_chain_whose_last_traceback_is_cut_off_is_its_fragment() -> None:
    text = (
        "!!! Exception during processing !!! It looks like the config file at 'C:\\m\\preprocessor_config.json' "
        "is not a valid JSON file.\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\py\\Lib\\site-packages\\transformers\\image_processing_base.py", line 371, in get_dict\n'
        "    data = json.loads(text)\n"
        '  File "C:\\py\\Lib\\json\\decoder.py", line 355, in raw_decode\n'
        '    raise JSONDecodeError("Expecting value", s, err.value) from None\n'
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
        "During handling of the above exception, another exception occurred:\n"
        "Traceback (most recent call last):\n"
        '  File "C:\\ComfyUI\\execution.py", line'
    )
    extraction = extract(text)
    assert extraction.primary is not None and extraction.primary.error_class == "json.decoder.JSONDecodeError"
    fragments = [f.message for f in extraction.fragments]
    assert any(m.endswith("is not a valid JSON file.") and "Traceback" not in m for m in fragments)
    # Without frames of its own, the cut-off error borrows those of the error it was raised handling.
    assert all(f.frames == extraction.primary.frames for f in extraction.fragments)


def test_a_message_logged_again_and_again_is_one_candidate_each_time() -> None:
    line = (
        "Error generating from LLM: Input length of input_ids is {n}, but `max_length` is set to 20. This can lead to"
    )
    tail = "unexpected behavior. You should consider increasing `max_length`."
    text = "\n".join(f"{line.format(n=n)}\n{tail}" for n in (1601, 1612, 1633))
    messages = [e.message for e in extract(text).errors]
    assert messages[0] == f"{line.format(n=1601)}\n{tail}"
    assert all(m.count("Error generating") == 1 for m in messages)


def test_a_rich_traceback_cut_off_reads_the_raise_at_its_marked_line() -> None:
    text = (
        "│ /opt/conda/lib/python3.10/site-packages/transformers/pipelines/base.py:1184 in check_task        │\n"
        "│                                                                                                  │\n"
        "│   1182 │   │   │   raise KeyError(f\"Invalid translation task {task}, use 'XX_to_YY'             │\n"
        "│   1183 │   │                                                                                     │\n"
        "│ ❱ 1184 │   │   raise KeyError(                                                                   │\n"
        "│   1185 │   │   │   f\"Unknown task {task}, available tasks are {self.get_supported_tasks() + ['t  │\n"
        "│   1186 │   │   )                                                                                 │\n"
    )
    fragments = extract(text).fragments
    assert fragments and fragments[0].error_class == "KeyError"
    assert fragments[0].message.startswith("Unknown task {task}, available tasks are")


def test_a_vs_code_notebook_traceback_keeps_the_files_its_line_links_name() -> None:
    site = "/home/u/.venv/lib/python3.12/site-packages/transformers"
    text = (
        f"File ~/.venv/lib/python3.12/site-packages/transformers/processing_utils.py:990, in load(cls, name)\n"
        f"    [988](https://vscode-remote+ssh.vscode-cdn.net{site}/processing_utils.py:988)     else:\n"
        "...\n"
        f"    [410](https://vscode-remote+ssh.vscode-cdn.net{site}/models/auto/feature_auto.py:410)     "
        'f"`feature_type` key in its {FEATURE_NAME} of {CONFIG_NAME}, or one of the following "\n'
        f"    [411](https://vscode-remote+ssh.vscode-cdn.net{site}/models/auto/feature_auto.py:411)     "
        'f"`model_type` keys in its {CONFIG_NAME}"\n'
        "    [412](https://vscode-remote+ssh.vscode-cdn.net/home/u/.ven"
    )
    extraction = extract(text)
    frames = extraction.primary.frames if extraction.primary else ()
    assert [(f.package_path, f.line) for f in frames] == [
        ("transformers/processing_utils.py", 990),
        ("transformers/models/auto/feature_auto.py", 410),
    ]
    assert extraction.fragments[0].message == (
        "`feature_type` key in its {FEATURE_NAME} of {CONFIG_NAME}, or one of the following  "
        "`model_type` keys in its {CONFIG_NAME}"
    )


def test_a_notebook_copied_as_html_reads_the_raise_at_its_arrow_with_escapes() -> None:
    path = "file:///srv/env/lib/python3.12/site-packages/transformers/models/auto/configuration_auto.py"
    text = (
        f"   <a href='{path}?line=1112'>1113</a>         config_class = MAPPING[config_dict[\"model_type\"]]\n"
        f"-> <a href='{path}?line=1113'>1114</a>         raise ValueError(\n"
        f"   <a href='{path}?line=1114'>1115</a>             f\"The checkpoint has model type `{{kind}}` \"\n"
        f"   <a href='{path}?line=1115'>1116</a>             \"which is unknown.\\n\\nUpdate Transformers.\"\n"
    )
    extraction = extract(text)
    fragment = extraction.fragments[0]
    assert fragment.error_class == "ValueError"
    assert fragment.message == "The checkpoint has model type `{kind}`  which is unknown.\n\nUpdate Transformers."
    assert fragment.frames[0].package_path == "transformers/models/auto/configuration_auto.py"


def test_a_traceback_s_last_line_wrapped_in_backticks_is_its_exception_line() -> None:
    text = (
        "Traceback (most recent call last):\n"
        ' File "/env/lib/python3.6/site-packages/transformers/tokenization_utils_base.py", line 2430, in __call__\n'
        '  ` "text input must of type `str` (single example), "`\n'
        "`ValueError: text input must of type `str` (single example), `List[str]` (batch of examples).`"
    )
    error = extract(text).primary
    assert error is not None and error.kind == "traceback" and error.error_class == "ValueError"
    assert error.message == "text input must of type `str` (single example), `List[str]` (batch of examples)."
    frame = error.raising_frame
    assert frame is not None and frame.line == 2430


def test_a_backticked_line_that_is_no_exception_line_stays_out_of_the_traceback() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/transformers/trainer.py", line 10, in train\n'
        "`the training stopped here, see above`"
    )
    error = extract(text).primary
    assert error is None or error.error_class is None


@pytest.mark.parametrize(
    "line",
    [
        '(janus) C:\\Users\\me\\anaconda3\\Janus>python -c "from transformers import AutoModelForCausalLM"',
        "(TTS) lco@lco2:~/Programming/LLM/DeepSeek$ python Janus-Pro-1B.py",
        "base) ubuntu@VM-48-6-ubuntu:~  modelz-llm -m decapoda-research/llama-7b-hf",  # its "(" not copied
        "2023-10-18 23:55:43,181 - 5543 - INFO - model.py:32 - loading model and embedding",
        "config, kwargs = AutoConfig.from_pretrained(",
    ],
)
def test_prompts_progress_logs_and_tuple_assignments_are_no_message_fragments(line: str) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/transformers/models/auto/auto_factory.py", line 526, in f\n'
        f"{line}\n\n{line}"
    )
    assert all(line not in fragment.message for fragment in extract(text).fragments)


def test_an_error_logged_after_a_timestamp_is_still_a_fragment() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/transformers/trainer.py", line 10, in train\n'
        "\nit says:\n\nthe model weights could not be loaded from the checkpoint directory given"
    )
    assert any("could not be loaded" in fragment.message for fragment in extract(text).fragments)
