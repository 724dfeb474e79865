"""Classes of pastes that showed one error in two groups: each pair must get one key.

Each test is one way people paste (markdown, terminals, wrappers, launchers), checked through
``observe`` as the bot reads a paste, so that cleaning, unwrapping and masking are all exercised.
"""

from __future__ import annotations

from records.fingerprint import fingerprint
from records.triage import Observation, observe

SITE = "/opt/conda/lib/python3.11/site-packages"
HUB = f'  File "{SITE}/transformers/utils/hub.py", line 405, in cached_file\n    raise EnvironmentError(\n'
GATED = (
    "OSError: You are trying to access a gated repo.\nMake sure to request access at "
    "https://huggingface.co/meta-llama/Llama-2-7b and pass a token having permission to this repo either by "
    "logging in with `huggingface-cli login` or by passing `token=<your_token>`."
)
COMFY = (
    "Error occurred when executing ella_t5_embeds:\n\n"
    "T5Tokenizer requires the SentencePiece library but it was not found in your environment.\n\n"
    'File "E:\\ComfyUI\\execution.py", line 151, in recursive_execute\n'
    "output_data, output_ui = get_output_data(obj, input_data_all)\n"
    'File "E:\\ComfyUI\\custom_nodes\\ELLA\\nodes.py", line 322, in process\n'
    "t5_encoder = T5TextEmbedder(pretrained_path=t5_path).to(device, dtype=dtype)\n"
)
TORCHRUN = (
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/torch/distributed/launcher/api.py", line 263, in launch_agent\n'
    "    raise ChildFailedError(\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "============================================================\ntrain.py FAILED\n"
    "Root Cause (first observed failure):\n[0]:\n  time      : 2026-11-15_05:50:46\n  host      : node-7\n"
    "  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 4242)\n"
)
DATASETS = (
    "\nThe above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    f'  File "{SITE}/datasets/builder.py", line 1627, in _prepare_split_single\n'
    '    raise DatasetGenerationError("An error occurred while generating the dataset") from e\n'
    "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n"
)
CUT = (  # a traceback cut off before its final line
    "Traceback (most recent call last):\n"
    '  File "/home/ann/app.py", line 3, in <module>\n    tok = AutoTokenizer.from_pretrained(name)\n'
    f'  File "{SITE}/transformers/models/auto/tokenization_auto.py", line 748, in from_pretrained\n'
    "    raise ValueError(\n"
)


def key(text: str) -> str:
    found = observe(text)
    assert isinstance(found, Observation), found
    return found.key


def observed(text: str) -> Observation:
    found = observe(text)
    assert isinstance(found, Observation), found
    return found


def test_python_backtick_quotes_read_alike_fenced_inline_or_wrapped_by_a_terminal() -> None:
    # Fenced, a paste keeps the backticks; unfenced, a terminal wrapped the line inside a quote.
    fenced = f"Getting this error:\n```\nTraceback (most recent call last):\n{HUB}{GATED}\n```"
    wrapped = f"Traceback (most recent call last):\n{HUB}" + GATED.replace(
        "huggingface-cli login", "huggingface-cli\nlogin"
    )
    assert key(fenced) == key(wrapped) == key(f"Traceback (most recent call last):\n{HUB}{GATED}")
    # A phrase in backticks reads as its words; an identifier in backticks is a value.
    assert (
        fingerprint("OSError", "run `pip install x` first").key == fingerprint("OSError", "run pip install x first").key
    )
    assert "`<value>`" in observed(wrapped).masked


def test_a_dunder_that_markdown_made_bold_is_the_same_frame() -> None:
    def paste(function: str) -> str:
        return (
            "Traceback (most recent call last):\n"
            f'  File "{SITE}/transformers/models/auto/configuration_auto.py", line 695, in {function}\n'
            "    raise KeyError(key)\nKeyError: 'llava_qwen'\n"
        )

    assert key(paste("__getitem__")) == key(paste("getitem"))
    # What maintainers read keeps the name as pasted.
    assert observed(paste("__getitem__")).frame.endswith(":__getitem__")
    assert key(paste("__getitem__")) != key(paste("get"))


def test_an_error_line_in_markdown_bold_is_the_final_line() -> None:
    plain = CUT + "ValueError: The current architecture does not support Flash Attention 2.0. Please open an issue"
    bold = CUT + "**ValueError: The current architecture does not support Flash Attention 2.0.** Please open an issue"
    ranked = "\n".join(f"[rank1]: {line}" for line in bold.splitlines())
    assert observed(bold).error_class == "ValueError"
    assert key(bold) == key(plain) == key(ranked)
    assert observed("def f(**kwargs):\n    pass\n" + plain).key == key(plain)  # '**' elsewhere is code


def test_a_shell_prompt_after_a_cut_traceback_is_not_the_message() -> None:
    prompted = CUT + "(base) ubuntu@VM-48-6-ubuntu:~$ modelz-llm -m decapoda-research/llama-7b-hf\n"
    lost_paren = CUT + "base) ubuntu@VM-48-6-ubuntu:~  modelz-llm -m decapoda-research/llama-7b-hf\n"
    assert key(prompted) == key(lost_paren) == key(CUT)
    assert observed(prompted).masked == ""


def test_a_wrapper_after_what_was_told_groups_by_what_was_told() -> None:
    told = key(COMFY)
    assert "SentencePiece library" in observed(COMFY).masked
    # torchrun's report after it: the report's lines take the wrapper's class but are not the error.
    assert key(COMFY + TORCHRUN) == told
    # A dataset script's chained DatasetGenerationError after it.
    assert key(COMFY + DATASETS) == told
    # ComfyUI's own line, behind torchrun's rank prefixes.
    ranked = "\n".join(f"[rank2]: {line}" for line in ("!!! Exception during processing !!! boom at step 3", CUT))
    assert observed(ranked).masked == observed("!!! Exception during processing !!! boom at step 3\n" + CUT).masked


def test_a_log_line_before_torchrun_report_is_the_error() -> None:
    log_line = (
        "[2026-11-15 05:50:40,123] [ERROR] [axolotl.load_model:324] [PID:6348] [RANK:0] Found modules on "
        "cpu/disk. Using Exllama backend requires all the modules to be on GPU.\n"
    )
    assert key(log_line + TORCHRUN) == key(log_line)
    # torchrun's report alone is still one group, by the script that failed.
    assert observed(TORCHRUN).masked == "train.py FAILED"


def test_the_sentence_joining_a_chain_is_not_a_message() -> None:
    assert key(CUT + DATASETS) == key(CUT)


def test_an_error_pasted_as_inline_code_reads_as_without_it() -> None:
    plain = "ValueError: Unrecognized model in ./my-model. Should have a `model_type` key in its config.json"
    assert key(f"`{plain}`") == key(plain)
    assert not observed(f"`{plain}`").masked.endswith("`")
