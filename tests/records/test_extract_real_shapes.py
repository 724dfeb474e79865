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


def test_text_printed_after_a_progress_bar_on_its_line_is_a_line_of_its_own() -> None:
    bar = "Loading pipeline components...:  20%|██████████▍                 | 1/5 [00:00<00:02,  1.74it/s]"
    cleaned = clean_paste(f"{bar}An error occurred while trying to fetch C:\\m\\vae: Error no file named x.bin\n")
    assert cleaned.split("\n")[:2] == [
        bar,
        "An error occurred while trying to fetch C:\\m\\vae: Error no file named x.bin",
    ]
    assert clean_paste(cleaned) == cleaned
    assert (
        clean_paste("100%|██████████| 3/3 [00:01<00:00,  2.1it/s] done")
        == "100%|██████████| 3/3 [00:01<00:00,  2.1it/s] done"
    )


def test_a_progress_bar_is_no_part_of_a_fragment() -> None:
    bar = "Loading checkpoint shards:  50%|█████     | 1/2 [00:03<00:03,  3.10s/it]"
    text = (
        f"{bar}\nthe checkpoint shards could not be loaded from the directory given\n"
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.11/site-packages/transformers/modeling_utils.py", line 10, in from_pretrained\n'
    )
    fragments = [f.message for f in extract(text).fragments]
    assert "the checkpoint shards could not be loaded from the directory given" in fragments
    assert not any("%|" in m for m in fragments)


def test_comfyui_s_exception_line_before_a_cut_off_traceback_gives_the_message_alone() -> None:
    message = "Error no file named diffusion_pytorch_model.bin found in directory E:\\ComfyUI\\models\\vae."
    text = (
        "Loading pipeline components...:  20%|██▍         | 1/5 [00:00<00:02,  1.72it/s]\n"
        f"!!! Exception during processing !!! {message}\nTraceback (most recent call last):\n"
    )
    assert extract(text).fragments[0].message == message


def test_comfyui_s_older_heading_introduces_the_message_on_the_next_lines() -> None:
    message = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    text = (
        f"Error occurred when executing KSampler:\n\n{message}\n\n"
        '  File "/x/ComfyUI/execution.py", line 151, in recursive_execute\n'
        "    output_data = get_output_data(obj, input_data_all)\n"
    )
    assert message in [f.message for f in extract(text).fragments]


def test_an_empty_last_line_leaves_the_quoted_raise_statement_as_its_fragment() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/env/lib/python3.13/site-packages/torch/utils/data/dataset.py", line 59, in __getitem__\n'
        '    raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")\n'
        "NotImplementedError:\n"
    )
    extraction = extract(text)
    assert extraction.primary is not None and extraction.primary.error_class == "NotImplementedError"
    fragment = extraction.fragments[0]
    assert (fragment.error_class, fragment.message) == (
        "NotImplementedError",
        "Subclasses of Dataset should implement __getitem__.",
    )
    assert fragment.frames == extraction.primary.frames


def test_a_last_line_in_bold_is_the_exception_line_without_the_markers() -> None:
    text = (
        '  File "/env/lib/python3.10/site-packages/transformers/modeling_utils.py", line 1265, in _check\n'
        "    raise ValueError(\n"
        "**ValueError: The current architecture does not support Flash Attention 2.0.** Please open an issue"
    )
    error = extract(text).primary
    assert error is not None and error.kind == "traceback" and error.error_class == "ValueError"
    assert error.message == "The current architecture does not support Flash Attention 2.0. Please open an issue"
    assert error.raising_frame is not None and error.raising_frame.line == 1265


@pytest.mark.parametrize(
    ("line", "error_class", "message"),
    [
        ("OSError('Error no file named model.bin found in directory C:\\\\Users\\\\me')", "OSError",
         "Error no file named model.bin found in directory C:\\Users\\me"),
        ('error: ValueError("Cannot handle batch sizes > 1 if no padding token is defined.")', "ValueError",
         "Cannot handle batch sizes > 1 if no padding token is defined."),
        ("KeyError(\"llama\")", "KeyError", "'llama'"),  # Python prints a KeyError's key as its repr
        ("requests.exceptions.HTTPError('401 Client Error: Unauthorized for url: x')", "requests.exceptions.HTTPError",
         "401 Client Error: Unauthorized for url: x"),
    ],
)  # fmt: skip
def test_an_exception_printed_as_its_repr_is_read_as_class_and_message(
    line: str, error_class: str, message: str
) -> None:
    error = extract(line).primary
    assert error is not None and (error.error_class, error.message) == (error_class, message)


@pytest.mark.parametrize(
    "line",
    ["print(ValueError('x is bad'))", "ValueError('x') was raised twice", "errors = [ValueError('one')]", "wrap('x')"],
)
def test_a_repr_inside_code_or_prose_is_no_exception_line(line: str) -> None:
    error = extract(line).primary
    assert error is None or error.kind != "exception_line"


def test_an_exception_line_glued_after_its_raise_statement_is_read() -> None:
    text = (
        "raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\") "
        "AttributeError: 'SentenceTransformer' object has no attribute 'model_body'"
    )
    error = extract(text).primary
    assert error is not None and error.error_class == "AttributeError"
    assert error.message == "'SentenceTransformer' object has no attribute 'model_body'"
    assert extract('raise ValueError("a (b) c")').primary is None  # a raise statement alone is code


def test_a_log_line_with_tags_before_its_timestamp_is_a_log_record() -> None:
    text = (
        "[PROC-0][2024-04-02 16:44:30,465][experiment][ERROR] - Blockwise quantization only supports 16/32-bit floats"
    )
    error = extract(text).primary
    assert error is not None and error.kind == "log"
    assert error.message == "Blockwise quantization only supports 16/32-bit floats"


def test_a_quoted_error_that_announces_more_takes_the_indented_lines_after_it() -> None:
    text = (
        "actual error: RuntimeError: Error(s) in loading state_dict for DTNet:\n"
        '\tMissing key(s) in state_dict: "projection.0.weight".\n'
        '\tUnexpected key(s) in state_dict: "module.projection.0.weight".\n'
        "any idea what is wrong?"
    )
    error = extract(text).primary
    assert error is not None and (error.kind, error.error_class) == ("inline", "RuntimeError")
    assert error.message == (
        "Error(s) in loading state_dict for DTNet:\n"
        'Missing key(s) in state_dict: "projection.0.weight".\n'
        'Unexpected key(s) in state_dict: "module.projection.0.weight".'
    )
    unindented = extract("it fails with RuntimeError: Error(s) in loading state_dict for DTNet:\nany idea?").primary
    assert unindented is not None and unindented.message == "Error(s) in loading state_dict for DTNet:"


def test_pytorch_s_c10_log_lines_are_error_records_without_their_tags() -> None:
    text = (
        "[rank0]:[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=7753, OpType=ALLREDUCE) ran for 600061 milliseconds before timing out.\n"
        "[rank0]:[I1206 18:44:12.715588844 ProcessGroupNCCL.cpp:1664] [PG 1 Rank 0] dumping the flight recorder"
    )
    errors = extract(text).errors
    assert [(e.kind, e.message[:44]) for e in errors] == [("log", "Watchdog caught collective operation timeout")]


def test_a_class_glued_after_another_script_and_a_colon_is_read() -> None:
    error = extract(
        "GLM4支持FlashAttention2，但是报错:RuntimeError: FlashAttention only support fp16 and bf16 data type"
    ).primary
    assert error is not None and (error.error_class, error.kind) == ("RuntimeError", "inline")
    assert error.message == "FlashAttention only support fp16 and bf16 data type"


def test_torch_s_original_traceback_inside_a_reraised_message_names_no_class() -> None:
    text = (
        "ValueError: Caught ValueError in replica 1 on device 1.\n"
        "Original Traceback (most recent call last):\n"
        '  File "/env/lib/python3.8/site-packages/torch/nn/parallel/parallel_apply.py", line 64, in _worker\n'
        "    output = module(*input, **kwargs)\n"
    )
    error = extract(text).primary
    assert error is not None and error.error_class == "ValueError"
    assert error.message == "Caught ValueError in replica 1 on device 1."


def test_a_message_after_a_chinese_phrase_for_error_and_a_colon_is_a_fragment() -> None:
    text = "输入视频的时候程序报错(trans_infer_gradio.py))：Image features and image tokens do not match: tokens"
    messages = [e.message for e in extract(text).errors]
    assert messages[0] == "Image features and image tokens do not match: tokens"


def test_a_rich_log_record_reads_its_time_alone_drops_its_location_and_takes_its_wrapped_lines() -> None:
    text = (
        "14:06:55.204 ERROR    We couldn't connect to 'https://huggingface.co' to load this file,   model_manager.py:172\n"
        "couldn't find it in the cached files and it looks like openai/clip is not the\n"
        "path to a directory containing a file named config.json.\n"
        "\n"
        "what should I do?"
    )
    error = extract(text).primary
    assert error is not None and error.kind == "log"
    assert error.message == (
        "We couldn't connect to 'https://huggingface.co' to load this file,\n"
        "couldn't find it in the cached files and it looks like openai/clip is not the\n"
        "path to a directory containing a file named config.json."
    )


def test_a_log_record_stops_at_the_next_record_and_at_chat() -> None:
    text = "2024-05-01 10:00:00,001 ERROR Token is invalid for this repository\n2024-05-01 10:00:01,002 INFO retrying\n"
    (error,) = extract(text).errors
    assert error.message == "Token is invalid for this repository"
    chat = extract("2024-05-01 10:00:00 ERROR Token is invalid for this repository\nI don't know why.").primary
    assert chat is not None and chat.message == "Token is invalid for this repository"


def test_a_log_record_that_opens_data_leaves_its_lines_to_be_read() -> None:
    text = (
        "ERROR:torch.distributed.elastic.multiprocessing.errors.error_handler:{\n"
        '  "message": {\n'
        '    "message": "RendezvousConnectionError: The connection to the C10d store has failed.",\n'
    )
    errors = extract(text).errors
    assert any(e.error_class == "RendezvousConnectionError" for e in errors)


def test_rank_prefixed_lines_glued_into_one_are_read_apart() -> None:
    # An issue title (hiyouga/LlamaFactory#8048): torchrun's output with its newlines lost.
    glued = (
        "[rank2]: max_cache_length = past_key_values.get_max_length() [rank2]: ^^^^^^^^^^^^^^ "
        "[rank2]: AttributeError: 'DynamicCache' object has no attribute 'get_max_length'. Did you mean:"
    )
    error = extract(glued).primary
    assert error is not None
    assert error.error_class == "AttributeError"
    assert error.message.startswith("'DynamicCache' object has no attribute 'get_max_length'")
    # A rank prefix quoted in the middle of a line that opens with none is left alone.
    quoted = "RuntimeError: see the log line [rank0]: Watchdog caught collective operation timeout"
    kept = extract(quoted).primary
    assert kept is not None and kept.message.endswith("[rank0]: Watchdog caught collective operation timeout")
