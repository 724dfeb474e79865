"""Tests for ``records.extraction``: from arbitrary chat text to every error occurrence in it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from records.extraction import MAX_PASTE_CHARS, ExtractedError, Extraction, Frame, clean_paste, extract

PASTES = Path(__file__).resolve().parents[1] / "data" / "pastes"
STATEFUL = "assisted generation is not supported with stateful models, such as MambaForCausalLM"


def paste(name: str) -> str:
    """Read a paste fixture."""
    return (PASTES / name).read_text(encoding="utf-8")


def primary(text: str) -> ExtractedError:
    """Extract ``text`` and return its primary error, which must exist."""
    found = extract(text).primary
    assert found is not None
    return found


# --- Whole pastes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """What the primary error of a paste fixture must look like."""

    file: str
    kind: str
    error_class: str | None
    message: str  # the primary message starts with this
    raising: tuple[str, int | None, str | None] | None  # package_path (or path), line, function
    frames: int
    errors: int
    libraries: tuple[str, ...] = ()


PASTE_CASES = [
    Case(
        "cpython_stateful.txt",
        "traceback",
        "ValueError",
        STATEFUL,
        ("transformers/generation/utils.py", 1581, "generate"),
        frames=3,
        errors=1,
        libraries=("torch", "transformers"),
    ),
    Case(
        "chained_context.txt",
        "traceback",
        "requests.exceptions.JSONDecodeError",
        "Expecting value: line 1 column 1 (char 0)",
        ("requests/models.py", 978, "json"),
        frames=2,
        errors=2,
        libraries=("requests",),
    ),
    Case(
        "chained_cause_gated.txt",
        "traceback",
        "OSError",
        "You are trying to access a gated repo.\nMake sure to have access to it at",
        ("transformers/utils/hub.py", 421, "cached_file"),
        frames=3,
        errors=3,
        libraries=("huggingface_hub", "requests", "transformers"),
    ),
    Case(
        "multiline_state_dict.txt",
        "traceback",
        "RuntimeError",
        'Error(s) in loading state_dict for ResNet:\nMissing key(s) in state_dict: "fc.weight", "fc.bias".\n'
        'Unexpected key(s) in state_dict: "head.weight", "head.bias".',
        ("torch/nn/modules/module.py", 2215, "load_state_dict"),
        frames=2,
        errors=1,
        libraries=("torch",),
    ),
    Case(
        "colab_requires_backends.txt",
        "traceback",
        "ImportError",
        "AutoModelForCausalLM requires the PyTorch library but it was not found in your environment.",
        ("transformers/utils/import_utils.py", 1639, "requires_backends"),
        frames=3,
        errors=1,
        libraries=("transformers",),
    ),
    Case(
        "ipython_ansi.txt",
        "traceback",
        "ValueError",
        STATEFUL,
        ("transformers/generation/utils.py", 1581, "GenerationMixin.generate"),
        frames=3,
        errors=1,
        libraries=("torch", "transformers"),
    ),
    Case(
        "ipython_lost_escapes.txt",
        "traceback",
        "ValueError",
        STATEFUL,
        ("transformers/generation/utils.py", 1581, "GenerationMixin.generate"),
        frames=3,
        errors=1,
        libraries=("torch", "transformers"),
    ),
    Case(
        "ipython7_pandas.txt",
        "traceback",
        "KeyError",
        "'label'",
        ("pandas/core/indexes/base.py", 3363, "get_loc"),
        frames=3,
        errors=1,
        libraries=("pandas",),
    ),
    Case(
        "ipython_cut_off.txt",
        "traceback",
        "OutOfMemoryError",
        "",
        ("torch/nn/modules/module.py", 1553, "Module._wrapped_call_impl"),
        frames=2,
        errors=1,
        libraries=("torch",),
    ),
    Case(
        "pytest_long.txt",
        "pytest",
        "ValueError",
        STATEFUL,
        ("transformers/generation/utils.py", 1581, "generate"),
        frames=3,
        errors=1,
        libraries=("torch", "transformers"),
    ),
    Case(
        "pytest_short.txt",
        "pytest",
        "AssertionError",
        "assert 2 == 3\n+  where 2 = len(",
        ("tests/test_tok.py", 15, "test_batch"),
        frames=1,
        errors=2,
        libraries=("transformers",),
    ),
    Case(
        "pytest_collection.txt",
        "pytest",
        "ModuleNotFoundError",
        "No module named 'transformers'",
        ("tests/test_pipeline.py", 3, "<module>"),
        frames=2,
        errors=1,
    ),
    Case(
        "torchrun_ranks.txt",
        "traceback",
        "torch.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 1.96 GiB. GPU 0 has",
        ("torch/nn/modules/module.py", 1553, "_wrapped_call_impl"),
        frames=3,
        errors=3,
        libraries=("torch", "transformers"),
    ),
    Case(
        "logging_exception.txt",
        "traceback",
        "ValueError",
        "The following `model_kwargs` are not used by the model: ['token_type_ids'] (note: typos in the "
        "generate arguments will also show up in this list)",
        ("transformers/generation/utils.py", 1622, "_validate_model_kwargs"),
        frames=3,
        errors=1,
        libraries=("transformers",),
    ),
    Case(
        "log_lines.txt",
        "log",
        "RuntimeError",
        "PytorchStreamReader failed reading zip archive: failed finding central directory",
        None,
        frames=0,
        errors=1,
    ),
    Case(
        "windows_tokenizer.txt",
        "traceback",
        "ValueError",
        "Cannot instantiate this tokenizer from a slow version.",
        ("transformers/models/llama/tokenization_llama_fast.py", 124, "__init__"),
        frames=4,
        errors=1,
        libraries=("transformers",),
    ),
    Case(
        "discord_quoted_fence.txt",
        "traceback",
        "ModuleNotFoundError",
        "No module named 'transformers'",
        ("/home/u/run.py", 3, "<module>"),
        frames=1,
        errors=1,
    ),
    Case(
        "cut_off.txt",
        "traceback",
        None,
        "",
        ("transformers/generation/utils.py", 1581, "generate"),
        frames=2,
        errors=1,
        libraries=("transformers",),
    ),
    Case(
        "syntax_error.txt",
        "traceback",
        "SyntaxError",
        "invalid syntax. Perhaps you forgot a comma?",
        ("/home/jo/train.py", 14, None),
        frames=1,
        errors=1,
    ),
    Case(
        "keyboard_interrupt.txt",
        "traceback",
        "KeyboardInterrupt",
        "",
        ("torch/_tensor.py", 521, "backward"),
        frames=2,
        errors=1,
        libraries=("torch",),
    ),
    Case(
        "warning_then_error.txt",
        "traceback",
        "ValueError",
        "Cannot use chat template functions because tokenizer.chat_template is not set",
        ("transformers/tokenization_utils_base.py", 1964, "get_chat_template"),
        frames=3,
        errors=2,
        libraries=("transformers",),
    ),
    Case("env_dump_and_error.txt", "exception_line", "ValueError", STATEFUL, None, frames=0, errors=1),
    Case(
        "accelerate_launch.txt",
        "traceback",
        "ImportError",
        "Using `bitsandbytes` 4-bit quantization requires the latest version of bitsandbytes",
        ("transformers/quantizers/quantizer_bnb_4bit.py", 85, "validate_environment"),
        frames=3,
        errors=2,
        libraries=("accelerate", "transformers"),
    ),
    Case(
        "rich_traceback.txt",
        "traceback",
        "TypeError",
        "forward() missing 1 required positional argument: 'labels'",
        ("/app/train.py", 17, "run"),
        frames=2,
        errors=1,
    ),
]


@pytest.mark.parametrize("case", PASTE_CASES, ids=lambda case: case.file)
def test_paste_fixture(case: Case) -> None:
    result = extract(paste(case.file))
    error = result.primary
    assert result.is_error
    assert error is not None
    assert result.errors[0] is error
    assert (error.kind, error.error_class) == (case.kind, case.error_class)
    assert error.message.startswith(case.message)
    assert "\x1b" not in error.message
    assert (len(error.frames), len(result.errors)) == (case.frames, case.errors)
    assert result.libraries == case.libraries
    if case.raising is None:
        assert error.raising_frame is None
    else:
        frame = error.raising_frame
        assert frame is not None
        where, line, function = case.raising
        assert (frame.package_path or frame.path, frame.line, frame.function) == (where, line, function)


def test_every_fixture_is_in_the_table_or_read_elsewhere() -> None:
    tabled = {case.file for case in PASTE_CASES} | {"pip_show.txt"}
    assert {path.name for path in PASTES.glob("*.txt")} == tabled


def test_chained_exceptions_keep_every_link_with_the_last_as_primary() -> None:
    result = extract(paste("chained_cause_gated.txt"))
    classes = [error.error_class for error in result.errors]
    assert classes == ["OSError", "requests.exceptions.HTTPError", "huggingface_hub.errors.GatedRepoError"]
    gated = result.errors[2]
    # The blank line inside huggingface_hub's message belongs to it: a chained traceback follows.
    assert "\n\nCannot access gated repo for url" in gated.message
    assert [frame.function for frame in result.errors[1].frames] == [
        "hf_raise_for_status",
        "raise_for_status",
    ]


def test_raise_lines_in_code_excerpts_are_not_exception_lines() -> None:
    result = extract(paste("chained_context.txt"))
    assert [error.error_class for error in result.errors] == [
        "requests.exceptions.JSONDecodeError",
        "json.decoder.JSONDecodeError",
    ]
    assert all("raise " not in error.message for error in result.errors)


def test_ipython_frames_and_cell() -> None:
    error = primary(paste("ipython_ansi.txt"))
    cell, contextlib, utils = error.frames
    assert cell == Frame("Cell In[3]", 5, None)
    assert contextlib.path == "~/miniconda3/lib/python3.11/site-packages/torch/utils/_contextlib.py"
    assert contextlib.function == "context_decorator.<locals>.decorate_context"
    assert (utils.line, utils.library) == (1581, "transformers")


def test_old_ipython_takes_line_numbers_from_arrows() -> None:
    error = primary(paste("ipython7_pandas.txt"))
    assert (error.frames[0].path, error.frames[0].line) == ("<ipython-input-7-4f2e1c9b8a3d>", 3)
    assert [frame.line for frame in error.frames] == [3, 3458, 3363]


def test_windows_paths_and_crlf() -> None:
    text = paste("windows_tokenizer.txt").replace("\n", "\r\n")
    error = primary(text)
    assert error.frames[0].path == "C:/Users/me/Projects/chat/main.py"
    raising = error.raising_frame
    assert raising is not None
    assert raising.path.startswith("C:/Users/me/AppData/Local/Programs/Python/Python311/Lib/site-packages/")
    assert "\r" not in error.message


def test_torchrun_ranks_are_read_as_separate_tracebacks() -> None:
    result = extract(paste("torchrun_ranks.txt"))
    classes = [error.error_class for error in result.errors]
    assert classes.count("torch.OutOfMemoryError") == 2
    assert "torch.distributed.elastic.multiprocessing.errors.ChildFailedError" in classes
    # Each rank's frames stay together even though the lines were interleaved.
    for error in result.errors[:2]:
        assert [frame.function for frame in error.frames] == ["<module>", "train", "_wrapped_call_impl"]


def test_launcher_wrappers_are_not_primary() -> None:
    result = extract(paste("accelerate_launch.txt"))
    assert [error.error_class for error in result.errors] == ["ImportError", "subprocess.CalledProcessError"]


def test_pytest_summary_lines_fold_into_their_failure() -> None:
    result = extract(paste("pytest_short.txt"))
    assert [error.error_class for error in result.errors] == ["AssertionError", "OSError"]
    assert all(error.frames for error in result.errors)


def test_pytest_long_style_names_functions_from_the_excerpt() -> None:
    error = primary(paste("pytest_long.txt"))
    assert [frame.function for frame in error.frames] == [
        "test_assisted_generation",
        "decorate_context",
        "generate",
    ]


def test_a_warning_is_kept_but_the_error_is_primary() -> None:
    result = extract(paste("warning_then_error.txt"))
    warning = result.errors[1]
    assert (warning.kind, warning.error_class) == ("exception_line", "FutureWarning")
    assert warning.frames[0].package_path == "transformers/tokenization_utils_base.py"


FORMAT_CASES = [
    pytest.param(
        "  + Exception Group Traceback (most recent call last):\n"
        '  |   File "/tmp/eg.py", line 3, in <module>\n'
        '  |     raise ExceptionGroup("many", [ValueError("a"), KeyError("b")])\n'
        "  | ExceptionGroup: many (2 sub-exceptions)\n"
        "  +-+---------------- 1 ----------------\n"
        "    | ValueError: a\n"
        "    +---------------- 2 ----------------\n"
        "    | Traceback (most recent call last):\n"
        '    |   File "/tmp/eg.py", line 9, in g\n'
        '    |     d["b"]\n'
        "    | KeyError: 'b'\n"
        "    +------------------------------------\n",
        ["KeyError", "ExceptionGroup", "ValueError"],
        Frame("/tmp/eg.py", 9, "g"),
        id="exception-group",
    ),
    pytest.param(
        "C:\\Users\\me\\proj\\tests\\test_x.py:12: in test_a\n    f()\nE   ValueError: bad\n",
        ["ValueError"],
        Frame("C:/Users/me/proj/tests/test_x.py", 12, "test_a"),
        id="pytest-windows",
    ),
    pytest.param(
        ">>> torch.zeros(2).cuda()\nTraceback (most recent call last):\n"
        '  File "<stdin>", line 1, in <module>\n'
        '  File "/usr/lib/python3/dist-packages/torch/cuda/__init__.py", line 310, in _lazy_init\n'
        '    raise AssertionError("Torch not compiled with CUDA enabled")\n'
        "AssertionError: Torch not compiled with CUDA enabled\n>>>",
        ["AssertionError"],
        Frame(
            "/usr/lib/python3/dist-packages/torch/cuda/__init__.py",
            310,
            "_lazy_init",
            "torch/cuda/__init__.py",
            "torch",
        ),
        id="repl",
    ),
    pytest.param(
        "---------------------------------------------------------------------------\n"
        "NameError                                 Traceback (most recent call last)\n"
        "Input In [4], in <cell line: 2>()\n"
        "      1 import numpy as np\n"
        "----> 2 x = np.arange(10) + y\n\n"
        "NameError: name 'y' is not defined",
        ["NameError"],
        Frame("Input In [4]", 2, None),
        id="ipython-input-in",
    ),
    pytest.param(
        "Traceback (most recent call last):\n"
        'File "train.py", line 3, in <module>\n'
        "main()\n"
        "ValueError: indentation lost in the copy",
        ["ValueError"],
        Frame("train.py", 3, "<module>"),
        id="lost-indentation",
    ),
    pytest.param(
        "Traceback (most recent call last):\n"
        '  File "a.py", line 1, in <module>\n'
        "    f()\n"
        "KeyError: 'x'\n"
        "Traceback (most recent call last):\n"
        '  File "b.py", line 2, in <module>\n'
        "    g()\n"
        "TypeError: g() takes 0 positional arguments but 1 was given\n",
        ["TypeError", "KeyError"],
        Frame("b.py", 2, "<module>"),
        id="two-runs-last-wins",
    ),
]


@pytest.mark.parametrize(("text", "classes", "raising"), FORMAT_CASES)
def test_format(text: str, classes: list[str], raising: Frame) -> None:
    result = extract(text)
    assert [error.error_class for error in result.errors] == classes
    assert result.errors[0].raising_frame == raising


def test_logger_exception_line_is_left_to_its_traceback() -> None:
    result = extract(paste("logging_exception.txt"))
    assert [error.kind for error in result.errors] == ["traceback"]
    assert "Retrying" not in result.errors[0].message


# --- Single lines and short messages ---------------------------------------------------------------

LINE_CASES = [
    pytest.param(f"ValueError: {STATEFUL}", "exception_line", "ValueError", STATEFUL, id="plain"),
    pytest.param(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity "
        "of 15.77 GiB of which 4.12 MiB is free.",
        "exception_line",
        "torch.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 15.77 GiB of which "
        "4.12 MiB is free.",
        id="torch-oom",
    ),
    pytest.param(
        "ModuleNotFoundError: No module named 'flash_attn'",
        "exception_line",
        "ModuleNotFoundError",
        "No module named 'flash_attn'",
        id="module-not-found",
    ),
    pytest.param("KeyError: 'input_ids'", "exception_line", "KeyError", "'input_ids'", id="key-error"),
    pytest.param("StopIteration", "exception_line", "StopIteration", "", id="bare-stop-iteration"),
    pytest.param("SystemExit: 2", "exception_line", "SystemExit", "2", id="system-exit"),
    pytest.param("KeyboardInterrupt", "exception_line", "KeyboardInterrupt", "", id="keyboard-interrupt"),
    pytest.param("MemoryError", "exception_line", "MemoryError", "", id="bare-error-class"),
    pytest.param(
        "huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error.",
        "exception_line",
        "huggingface_hub.errors.RepositoryNotFoundError",
        "404 Client Error.",
        id="dotted",
    ),
    pytest.param(
        "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 7.45 GiB for an array",
        "exception_line",
        "numpy.core._exceptions._ArrayMemoryError",
        "Unable to allocate 7.45 GiB for an array",
        id="private-class",
    ),
    pytest.param(
        "PluginLoadException: entry point 'x' failed", "exception_line", "PluginLoadException", None, id="exc"
    ),
    pytest.param(
        "UserWarning: The given NumPy array is not writable",
        "exception_line",
        "UserWarning",
        "The given NumPy array is not writable",
        id="warning",
    ),
    pytest.param(
        "`RuntimeError: Expected all tensors to be on the same device`",
        "exception_line",
        "RuntimeError",
        "Expected all tensors to be on the same device",
        id="whole-line-inline-code",
    ),
    pytest.param(
        f"I keep getting `ValueError: {STATEFUL}` when I pass assistant_model, any idea?",
        "inline",
        "ValueError",
        STATEFUL,
        id="inline-code-in-sentence",
    ),
    pytest.param(
        "after upgrading to 4.57 I get KeyError: 'mamba'",
        "inline",
        "KeyError",
        "'mamba'",
        id="unquoted-in-sentence",
    ),
    pytest.param(
        'the error says "ValueError: Tokenizer class LlamaTokenizer does not exist or is not currently '
        'imported." and nothing else',
        "inline",
        "ValueError",
        "Tokenizer class LlamaTokenizer does not exist or is not currently imported.",
        id="double-quoted-in-sentence",
    ),
    pytest.param(
        "ERROR:root:ValueError: pad_token_id must be set",
        "log",
        "ValueError",
        "pad_token_id must be set",
        id="log-basic-config",
    ),
    pytest.param(
        "2024-05-01 12:00:00,123 - ERROR - CUDA error: device-side assert triggered",
        "log",
        None,
        "CUDA error: device-side assert triggered",
        id="log-timestamp",
    ),
    pytest.param(
        "2024-05-01 12:00:00.123 | ERROR    | __main__:main:12 - TypeError: 'NoneType' object is not iterable",
        "log",
        "TypeError",
        "'NoneType' object is not iterable",
        id="log-loguru",
    ),
    pytest.param(
        "[rank0]: ValueError: Expected input batch_size (32) to match target batch_size (16).",
        "exception_line",
        "ValueError",
        "Expected input batch_size (32) to match target batch_size (16).",
        id="rank-prefix",
    ),
    pytest.param(
        "/usr/lib/python3/dist-packages/requests/__init__.py:87: RequestsDependencyWarning: "
        "urllib3 (2.2.1) or chardet (5.2.0) doesn't match a supported version!",
        "exception_line",
        "RequestsDependencyWarning",
        "urllib3 (2.2.1) or chardet (5.2.0) doesn't match a supported version!",
        id="warnings-module-line",
    ),
    pytest.param(
        "FAILED tests/test_gen.py::test_stream - TypeError: 'generator' object is not subscriptable",
        "pytest",
        "TypeError",
        "'generator' object is not subscriptable",
        id="pytest-summary",
    ),
    pytest.param(
        "E   ValueError: pad_token_id must be set\nE       when batching\n\ntests/test_x.py:4: ValueError",
        "pytest",
        "ValueError",
        "pad_token_id must be set\nwhen batching",
        id="pytest-e-continuation",
    ),
    pytest.param(
        "ValueError: Input contains NaN\n    at column 3\nhow do I fix this?",
        "exception_line",
        "ValueError",
        "Input contains NaN\nat column 3",
        id="continuation-then-question",
    ),
    pytest.param(
        "ImportError: \nAutoModel requires the PyTorch library but it was not found in your environment.\n"
        "Please note that you may need to restart your runtime after installation.\n\nany idea?",
        "exception_line",
        "ImportError",
        "AutoModel requires the PyTorch library but it was not found in your environment.\n"
        "Please note that you may need to restart your runtime after installation.",
        id="message-on-next-lines",
    ),
    pytest.param(
        "RuntimeError: decompose_prefill_decode expected at least 2 calls to\n"
        "LlavaForConditionalGeneration.forward() during generate(max_new_tokens=2), but captured 0.",
        "exception_line",
        "RuntimeError",
        "decompose_prefill_decode expected at least 2 calls to\n"
        "LlavaForConditionalGeneration.forward() during generate(max_new_tokens=2), but captured 0.",
        id="terminal-wrapped",
    ),
]


@pytest.mark.parametrize(("text", "kind", "error_class", "message"), LINE_CASES)
def test_line(text: str, kind: str, error_class: str, message: str | None) -> None:
    result = extract(text)
    error = result.primary
    assert result.is_error
    assert error is not None
    assert (error.kind, error.error_class) == (kind, error_class)
    if message is not None:
        assert error.message == message


CANDIDATE_CASES = [
    pytest.param(f"```\n{STATEFUL}\n```", STATEFUL, id="fenced-message"),
    pytest.param(
        "getting this error: Expected all tensors to be on the same device, but found at least two devices",
        "Expected all tensors to be on the same device, but found at least two devices",
        id="after-error-colon",
    ),
    pytest.param(
        "anyone seen this?\nthe error:\nassisted decoding requires a cache",
        "assisted decoding requires a cache",
        id="next-line",
    ),
    pytest.param("assisted decoding requires a cache", "assisted decoding requires a cache", id="bare-message"),
    pytest.param(
        "why do I get `assisted decoding requires a cache` with a draft model?",
        "assisted decoding requires a cache",
        id="inline-code-phrase",
    ),
]


@pytest.mark.parametrize(("text", "message"), CANDIDATE_CASES)
def test_classless_message_is_a_candidate(text: str, message: str) -> None:
    result = extract(text)
    assert not result.is_error
    assert result.primary is not None
    assert (result.primary.kind, result.primary.error_class, result.primary.message) == (
        "candidate",
        None,
        message,
    )


def test_raising_frame_is_the_innermost() -> None:
    frames = (Frame("a.py", 1, "outer"), Frame("b.py", 2, "inner"))
    assert ExtractedError("ValueError", "x", frames, "traceback").raising_frame == frames[-1]
    assert ExtractedError("ValueError", "x", (), "exception_line").raising_frame is None


@pytest.mark.parametrize(
    ("path", "package_path", "library"),
    [
        (
            "/home/u/.venv/lib/python3.11/site-packages/transformers/trainer.py",
            "transformers/trainer.py",
            "transformers",
        ),
        ("~/miniconda3/envs/llm/lib/python3.10/site-packages/torch/_tensor.py", "torch/_tensor.py", "torch"),
        ("/usr/local/lib/python3.10/dist-packages/accelerate/state.py", "accelerate/state.py", "accelerate"),
        ("C:\\Python311\\Lib\\site-packages\\six.py", "six.py", "six"),
        ("/usr/lib/python3.11/json/decoder.py", None, None),
        ("<frozen importlib._bootstrap>", None, None),
    ],
)
def test_library_hints_from_paths(path: str, package_path: str | None, library: str | None) -> None:
    frame = primary(f'Traceback (most recent call last):\n  File "{path}", line 3, in f\n    g()\nKeyError: 1').frames[
        0
    ]
    assert (frame.path, frame.package_path, frame.library) == (path.replace("\\", "/"), package_path, library)


# --- Versions -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("transformers version: 4.57.6", {"transformers": "4.57.6"}),
        (
            "pip freeze | grep trans\ntransformers==4.57.6\ntorch==2.8.0+cu128",
            {"transformers": "4.57.6", "torch": "2.8.0+cu128"},
        ),
        (
            "- `transformers` version: 4.57.6\n- PyTorch version (GPU?): 2.5.1+cu121 (True)",
            {"transformers": "4.57.6", "torch": "2.5.1+cu121"},
        ),
        ("Name: transformers\nVersion: 4.57.6", {"transformers": "4.57.6"}),
        ("my version: 4.57.6", {}),
        ("- DeepSpeed version: not installed", {}),
        ("if x==1: pass", {}),
    ],
)
def test_versions(text: str, expected: dict[str, str]) -> None:
    assert extract(text).versions == expected


def test_versions_from_env_dump_and_pip_show() -> None:
    env = extract(paste("env_dump_and_error.txt")).versions
    assert env == {
        "transformers": "4.57.6",
        "python": "3.11.9",
        "huggingface_hub": "0.36.0",
        "safetensors": "0.6.2",
        "accelerate": "1.10.1",
        "torch": "2.8.0+cu128",
    }
    shown = extract(paste("pip_show.txt"))
    assert shown.versions == {"transformers": "4.57.6", "torch": "2.8.0"}
    assert not shown.is_error


# --- Ordinary chat --------------------------------------------------------------------------------

CHAT = [
    "how do I fix the error in my model?",
    "error handling is hard",
    "anyone know why my loss goes to nan after a few hundred steps?",
    "https://github.com/huggingface/transformers/issues/31884",
    "check the docs: https://huggingface.co/docs/transformers/main/en/generation_strategies#speculative-decoding",
    "I got an error when loading the model but it's fine now",
    "the error went away after I updated accelerate",
    "What's the difference between ValueError and TypeError?",
    "should I raise ValueError or TypeError when the config is wrong?",
    "ValueError vs TypeError: which one do you raise for a bad dtype?",
    "you can catch KeyError: it's raised when the key is missing",
    "```py\ndef load(path):\n    if not path.exists():\n"
    '        raise FileNotFoundError(f"{path} does not exist")\n'
    "    return torch.load(path)\n```",
    '```python\nclass ConfigError(ValueError):\n    """Raised when the config is invalid."""\n```',
    '```py\ntry:\n    model.generate(**inputs)\nexcept ValueError as e:\n    print(f"ValueError: {e}")\n```',
    '```py\ndef check(x):\n    """Check x.\n\n    Raises:\n        ValueError: If x is negative.\n    """\n'
    '    if x < 0:\n        raise ValueError("x must be >= 0")\n```',
    'logger.error("KeyError: %s", key)',
    '`raise ValueError("bad shape")` is what I have on line 12',
    "thanks, that fixed it!",
    "has anyone benchmarked flash attention 2 vs sdpa on an A100?",
    "is there a way to stream tokens with generate()?",
    "model.generate(**inputs, max_new_tokens=50)",
    "`model.generate(**inputs, max_new_tokens=50)` works but it's slow",
    "my traceback is too long to paste, one sec",
    "Exceptions in Python are just classes, you can subclass them",
    "the docs say to set `pad_token_id` to silence the warning",
    "Error rates went down after fine-tuning, nice",
    "lol the error message was literally just 'killed'",
    "try `pip install -U transformers accelerate`",
    'what does `device_map="auto"` do exactly?',
    "which python version are you on?",
    "I'm on transformers 4.57.6 and torch 2.8",
    "DM me if you need help with the tokenizer",
    "rule of thumb: never catch bare Exception",
    "Warning signs your learning rate is too high: loss spikes, NaNs",
    "TIL `KeyboardInterrupt` isn't a subclass of Exception",
    "Note: the 8-bit optimizer needs bitsandbytes",
    "PSA: transformers 4.57 dropped support for python 3.8",
    "```\n$ python train.py --epochs 3\n```",
    '```json\n{"model_type": "mamba", "vocab_size": 50280}\n```',
    "here's my config.yaml:\n```yaml\nlr: 3e-4\nepochs: 3\nbatch_size: 8\n```",
    "> how do I fix the error in my model?\nsame question here",
    "The exception is raised in `generate()` I think",
    "why would `AutoModel.from_pretrained` hang forever?",
    "The loss function raises no errors, but the output is garbage",
    "Does anyone have a working example of assisted generation with Mamba?",
    "pip freeze says transformers==4.57.6",
    "ok so I changed `torch_dtype` to `bfloat16` and it works",
    "See https://docs.python.org/3/library/exceptions.html#ValueError for the hierarchy",
    "ERRORS and WARNINGS are both shown in the log panel",
    "class MyError(Exception): pass",
    "`except Exception:` swallows everything, be careful",
    "CUDA is available but training is still on CPU, any idea?",
    "def forward(self, x: Tensor) -> Tensor:",
    'assert isinstance(x, torch.Tensor), "ValueError: expected a tensor"',
    'if __name__ == "__main__":\n    main()',
    "```py\nfrom transformers import AutoModelForCausalLM\n\nmodel = AutoModelForCausalLM.from_pretrained(\n"
    '    "state-spaces/mamba-130m-hf", torch_dtype=torch.float16\n)\n```',
    "what's the best way to handle OOM errors during eval?",
    "is it normal for the tokenizer to warn about `clean_up_tokenization_spaces`?",
    "I'll open an issue on GitHub if nobody knows",
    "**Question**: how do you pick `num_assistant_tokens`?",
    "so the error is gone but now generation is super slow",
    "raise NotImplementedError  # TODO: support batching",
]


def test_enough_chat_lines() -> None:
    assert len(CHAT) >= 50


@pytest.mark.parametrize("text", CHAT)
def test_chat_is_not_an_error(text: str) -> None:
    result = extract(text)
    assert not result.is_error
    assert all(error.kind == "candidate" for error in result.errors)


# --- clean_paste ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\x1b[0;31mValueError\x1b[0m: bad", "ValueError: bad"),
        ("[0;31mValueError[0m: bad", "ValueError: bad"),
        ("\x1b]8;;https://pytorch.org\x1b\\docs\x1b]8;;\x1b\\ here", "docs here"),
        ("Value\u200bError: bad\u200f\u202e", "ValueError: bad"),
        ("\ufeffKeyError:\u00a0'x'", "KeyError: 'x'"),
        ("a\r\nb\rc", "a\nb\nc"),
        ("```py\nprint(1)\n```", "\nprint(1)\n\n"),
        ("```ValueError: x```", "\nValueError: x\n"),
        ("> quoted\n>>> block quoted\n>\nplain > not a quote", "quoted\nblock quoted\n\nplain > not a quote"),
        (">     indented code", "    indented code"),
        (
            "use `model.generate()` and `pip install -U transformers`",
            "use `model.generate()` and pip install -U transformers",
        ),
    ],
)
def test_clean_paste(text: str, expected: str) -> None:
    assert clean_paste(text) == expected


# --- Size caps and adversarial input --------------------------------------------------------------


def test_long_paste_keeps_its_tail() -> None:
    text = "x" * (MAX_PASTE_CHARS + 5_000) + "\nValueError: the end"
    result = extract(text)
    assert result.truncated
    assert result.primary == ExtractedError("ValueError", "the end", (), "exception_line")


def test_many_lines_keep_the_last() -> None:
    text = "chatter\n" * 10_000 + paste("cpython_stateful.txt")
    result = extract(text)
    assert result.truncated
    assert primary(text).message == STATEFUL


def test_short_paste_is_not_truncated() -> None:
    assert not extract(paste("cpython_stateful.txt")).truncated


@cache  # built once, when the first of its tests runs (building them at collection cost every worker 0.6 s)
def _adversarial() -> dict[str, str]:
    """Return 100 KB pastes built to stress the parser."""
    size = 100_000
    rng = random.Random(7)
    frame = '  File "/x/site-packages/lib/m.py", line 1, in f\n    f()\n'
    return {
        "one-huge-line": "a" * size,
        "newlines": "\n" * size,
        "error-colons": ("Error: " * 15_000)[:size],
        "exception-lines": ("ValueError: x\n" * 8_000)[:size],
        "file-fragments": ('File "' * 20_000)[:size],
        "file-lines": ('  File "\n' * 12_000)[:size],
        "deep-frames": ("Traceback (most recent call last):\n" + frame * 2_000)[:size],
        "pytest-e-lines": ("E   ValueError: x\n" * 6_000)[:size],
        "rank-prefixes": ("[rank0]: KeyError: 1\n" * 5_000)[:size],
        "nested-colour-codes": "[" * 33_000 + "0m" * 33_000,
        "backticks": "`" * size,
        "random-bytes": rng.randbytes(size).decode("utf-8", errors="replace"),
        "random-ascii": "".join(rng.choice("`[]0;m> \n:.\"'EFile raise") for _ in range(size)),
    }


ADVERSARIAL = (
    "one-huge-line", "newlines", "error-colons", "exception-lines", "file-fragments", "file-lines", "deep-frames",
    "pytest-e-lines", "rank-prefixes", "nested-colour-codes", "backticks", "random-bytes", "random-ascii",
)  # fmt: skip


def test_the_adversarial_pastes_are_the_ones_listed() -> None:
    assert tuple(_adversarial()) == ADVERSARIAL
    assert all(len(text) >= 60_000 for text in _adversarial().values())


@pytest.mark.parametrize("name", ADVERSARIAL)
def test_adversarial_pastes_complete(name: str) -> None:
    text = _adversarial()[name]
    result = extract(text)
    assert isinstance(result, Extraction)
    assert len(result.errors) <= 50
    assert all(len(error.message) <= 4_000 for error in result.errors)
    cleaned = clean_paste(text)
    assert clean_paste(cleaned) == cleaned


# --- Properties -----------------------------------------------------------------------------------

MARKUP = st.text(alphabet="`[]0;1m> \n\r\t\x1b\u200b\u202eaE:py", max_size=200)
FRAGMENTS = st.lists(
    st.sampled_from(
        [
            "Traceback (most recent call last):\n",
            '  File "/x/site-packages/lib/m.py", line 3, in f\n',
            "    raise ValueError(\n",
            "ValueError: boom\n",
            "During handling of the above exception, another exception occurred:\n",
            "E   KeyError: 1\n",
            "tests/t.py:3: in t\n",
            "Cell In[2], line 1\n",
            "---> 1 f()\n",
            "[rank0]: ",
            "ERROR:root:",
            "```py\n",
            "> ",
            "`",
            "\n",
            "\x1b[0;31m",
        ]
    ),
    max_size=30,
).map("".join)


@given(st.text())
def test_clean_paste_is_idempotent(text: str) -> None:
    once = clean_paste(text)
    assert clean_paste(once) == once


@given(MARKUP)
def test_clean_paste_is_idempotent_on_markup(text: str) -> None:
    once = clean_paste(text)
    assert clean_paste(once) == once


@given(st.one_of(st.text(), MARKUP, FRAGMENTS))
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_extract_never_raises(text: str) -> None:
    result = extract(text)
    assert result.is_error == any(error.kind != "candidate" for error in result.errors)
    assert result.primary is None or result.errors[0] is result.primary


CLASS_NAMES = st.from_regex(r"([a-z_]{1,8}\.){0,2}[A-Z][a-z]{1,8}(Error|Exception|Warning)", fullmatch=True)
MESSAGES = st.from_regex(r"[A-Za-z0-9'][A-Za-z0-9 .,'-]{0,60}[A-Za-z0-9.']", fullmatch=True)


@given(CLASS_NAMES, MESSAGES)
def test_rendered_exception_line_round_trips(error_class: str, message: str) -> None:
    error = primary(f"{error_class}: {message}")
    assert (error.error_class, error.message) == (error_class, message)


# --- Messages kept whole, quoted errors, fragments (issue 10) --------------------------------------

FRAME = '  File "/venv/lib/python3.11/site-packages/transformers/models/auto/auto_factory.py", line 566, in f\n'
WHOLE_CASES = [
    pytest.param(
        "ValueError: Unrecognized configuration class X for this kind of AutoModel: Auto.\nModel type should be one of A, B.",
        "Unrecognized configuration class X for this kind of AutoModel: Auto.\nModel type should be one of A, B.",
        id="lone-line-continues-after-a-sentence-end",
    ),
    pytest.param(
        "ValueError: the widget is broken.\nI tried everything, any idea?",
        "the widget is broken.",
        id="lone-line-stops-at-chat",
    ),
    pytest.param(
        f"Traceback (most recent call last):\n{FRAME}RuntimeError: first paragraph.\n\n- second: item\n\nNote: third.",
        "first paragraph.\n\n- second: item\n\nNote: third.",
        id="traceback-message-keeps-its-blank-lines",
    ),
    pytest.param(
        f"Traceback (most recent call last):\n{FRAME}RuntimeError: the message.\n\nhow do I fix this?",
        "the message.",
        id="traceback-message-stops-at-a-chat-paragraph",
    ),
    pytest.param(
        "I got ValueError: Please select a token to use as `pad_token` or add one via `add_special_tokens`",
        "Please select a token to use as `pad_token` or add one via `add_special_tokens`",
        id="inline-error-keeps-its-inline-code",
    ),
    pytest.param(
        "微调报错：ValueError: the save and eval strategy must match",
        "the save and eval strategy must match",
        id="glued-to-other-script",
    ),
    pytest.param(
        "**OSError: name/model does not appear to have a file named config.json**",
        "name/model does not appear to have a file named config.json",
        id="bold",
    ),
    pytest.param(
        "it reports error : ValueError : Unable to create tensor, you should pad",
        "Unable to create tensor, you should pad",
        id="space-before-the-colon",
    ),
    pytest.param(
        "python web_demo.py ImportError: This modeling file requires packages",
        "This modeling file requires packages",
        id="after-a-shell-command",
    ),
]


@pytest.mark.parametrize(("text", "message"), WHOLE_CASES)
def test_messages_are_kept_whole(text: str, message: str) -> None:
    assert primary(text).message == message


def test_a_cut_off_traceback_takes_the_error_quoted_after_it() -> None:
    text = f"```\n{FRAME}    raise ValueError(\n```\n`ValueError: text input must be of type `str` (single example)`"
    result = extract(text)
    assert len(result.errors) == 1
    error = result.errors[0]
    assert (error.kind, error.error_class) == ("traceback", "ValueError")
    assert error.message.startswith("text input must be of type `str`")
    assert error.raising_frame is not None and error.raising_frame.line == 566


def test_a_message_before_a_cut_off_traceback_is_a_fragment_with_its_frames() -> None:
    text = f"text input must be of type str, got a list of dicts instead\n\nTraceback (most recent call last):\n{FRAME}"
    result = extract(text)
    assert result.primary is not None and result.primary.message == ""
    assert any(f.message.startswith("text input must be") and f.frames for f in result.fragments)


def test_a_message_before_a_traceback_cut_at_its_header_is_a_fragment() -> None:
    # bitsandbytes logs its error, then the traceback starts; the paste ends at its header.
    text = (
        "[bitsandbytes.cextension|ERROR]bitsandbytes library load error: Configured CUDA binary not found at "
        "/usr/lib/libbitsandbytes_cuda131.so\nTraceback (most recent call last):"
    )
    result = extract(text)
    assert result.primary is not None and result.primary.message == ""
    assert any("Configured CUDA binary not found at" in f.message for f in result.fragments)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[Bug]: The checkpoint you are trying to load has model type `x`",
            "The checkpoint you are trying to load has model type `x`",
        ),
        (
            "- **Exception Message:** Unrecognized configuration class X\nModel type should be one of A",
            "Unrecognized configuration class X\nModel type should be one of A",
        ),
        (
            '{"error":"Error no file named model.safetensors found in directory /app/m."}',
            "Error no file named model.safetensors found in directory /app/m.",
        ),
        (
            "However, I get this message:\nDue to a serious issue, we now require users to upgrade torch",
            "Due to a serious issue, we now require users to upgrade torch",
        ),
        (
            "When i run it, some thing was wrong:\ntext input must of type `str` (single example)",
            "text input must of type `str` (single example)",
        ),
    ],
)
def test_classless_messages_in_prose_are_candidates(text: str, message: str) -> None:
    result = extract(text)
    assert not result.is_error
    assert message in [error.message for error in result.errors]


def test_a_cut_off_traceback_quoting_its_raise_statement_gives_its_class_and_text() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/transformers/models/qwen2/modeling_qwen2.py", line 965, in forward\n'
        '    raise ValueError("Cannot handle batch sizes > 1 if no padding token is defined.")\n'
    )
    result = extract(text)
    assert result.primary is not None and result.primary.message == ""
    fragment = result.fragments[0]
    assert (fragment.error_class, fragment.message) == (
        "ValueError",
        "Cannot handle batch sizes > 1 if no padding token is defined.",
    )
    assert fragment.raising_frame is not None and fragment.raising_frame.line == 965
