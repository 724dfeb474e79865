"""Tests for records.fingerprint: same error, same key; different error, different key."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from records.extraction import Frame
from records.fingerprint import KEY_VERSION, fingerprint, mask_message, normalize_text

HF_A = "hf_FAKEaBcDeFgHiJkLmNoPqRsTuVwXyZ0123"
HF_B = "hf_FAKEzYxWvUtSrQpOnMlKjIhGfEdCbA9876"

SAME = [
    (
        "ValueError",
        "invalid literal for int() with base 10: 'abc'",
        "ValueError",
        "invalid literal for int() with base 10: 'x 1'",
    ),
    (
        "torch.cuda.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity)",
        "torch.cuda.OutOfMemoryError",
        "CUDA out of memory. Tried to allocate 1.50 GiB (GPU 3; 79.15 GiB total capacity)",
    ),
    (
        "RuntimeError",
        "The size of tensor a (128) must match the size of tensor b (64) at non-singleton dimension 1",
        "RuntimeError",
        "The size of tensor a (3) must match the size of tensor b (5) at non-singleton dimension 0",
    ),
    ("KeyError", "'input_ids'", "KeyError", "'attention_mask'"),
    ("ModuleNotFoundError", "No module named 'torch'", "ModuleNotFoundError", "No module named 'numpy.core'"),
    (
        "FileNotFoundError",
        "[Errno 2] No such file or directory: '/home/alice/data/train.csv'",
        "FileNotFoundError",
        "[Errno 2] No such file or directory: 'C:\\\\Users\\\\bob\\\\x.json'",
    ),
    ("OSError", "cannot read /home/alice/proj/a.bin", "OSError", "cannot read /Users/bob/models/b.bin"),
    ("OSError", r"cannot read C:\Users\alice\a.bin", "OSError", r"cannot read C:\Users\John Smith\b.bin"),
    ("HfHubHTTPError", f"Invalid token {HF_A}", "HfHubHTTPError", f"Invalid token {HF_B}"),
    (
        "HTTPError",
        "404 Client Error for url: https://huggingface.co/api/models/a/b",
        "HTTPError",
        "404 Client Error for url: https://huggingface.co/api/models/c/d?revision=main",
    ),
    (
        "HTTPError",
        "request 123e4567-e89b-12d3-a456-426614174000 failed",
        "HTTPError",
        "request 00000000-0000-4000-8000-000000000000 failed",
    ),
    ("TypeError", "<object at 0x7f3a2b1c4d50> is bad", "TypeError", "<object at 0x10b2c> is bad"),
    ("VаlueError", "bad value", "ValueError", "bad value"),  # Cyrillic а in the class name
    ("Value\u200bError", "bad value", "ValueError", "bad value"),
    ("ValueError", "bad\u202e value", "ValueError", "bad value"),
    ("ＶａｌｕｅＥｒｒｏｒ", "bad value", "ValueError", "bad value"),
    (
        "huggingface_hub.utils._errors.RepositoryNotFoundError",
        "404 Client Error",
        "huggingface_hub.errors.RepositoryNotFoundError",
        "404 Client Error",
    ),
    ("ValueError", "bad   value\n  here", "ValueError", "bad value here"),
    ("RuntimeError", "got torch.Size([2, 3])", "RuntimeError", "got torch.Size([4, 5, 6])"),
    ("ValueError", "no account for alice@example.com", "ValueError", "no account for bob@example.org"),
    ("GitError", "reference is not a tree: 3f5a9c2e4b1d", "GitError", "reference is not a tree: deadbeef77"),
    ("RuntimeError", "tensor on cuda:0", "RuntimeError", "tensor on cuda:1"),
    ("SyntaxError", "invalid syntax (line 12)", "SyntaxError", "invalid syntax (line 340)"),
    ("RuntimeError", "Expected tensоr", "RuntimeError", "Expected tensor"),  # Cyrillic о in a word
    ("ΟSError", "x", "OSError", "x"),  # Greek capital omicron
    ("ValueError", "shape (2, 3, 4) vs (None, 128)", "ValueError", "shape (1, 1, 1) vs (None, 64)"),
]

DIFFERENT = [
    ("ValueError", "bad value", "TypeError", "bad value"),
    ("KeyError", "'x'", "IndexError", "'x'"),
    ("RuntimeError", "CUDA out of memory", "RuntimeError", "MPS backend out of memory"),
    ("ImportError", "No module named 'x'", "ImportError", "cannot import name 'x' from 'y'"),
    ("TypeError", "expected str, got int", "TypeError", "expected int, got str"),
    ("RuntimeError", "expected Float but found Half", "RuntimeError", "expected Half but found Float"),
    ("ConnectionError", "refused", "TimeoutError", "refused"),
    ("ValueError", "", "ValueError", "bad value"),
    (None, "bad value", "ValueError", "bad value"),
    ("ZeroDivisionError", "division by zero", "ZeroDivisionError", "integer division or modulo by zero"),
    ("IndexError", "list index out of range", "IndexError", "tuple index out of range"),
    ("HTTPError", "Repository Not Found", "HTTPError", "Revision Not Found"),
    (
        "TypeError",
        "f() got an unexpected keyword argument 'x'",
        "TypeError",
        "f() missing 1 required argument",
    ),
    ("TypeError", "must be real number, not str", "TypeError", "must be str, not int"),
    ("OSError", "[Errno 13] Permission denied: 'a'", "OSError", "[Errno 2] No such file or directory: 'a'"),
    ("OSError", "[Errno 2] x", "FileNotFoundError", "[Errno 2] x"),
    ("RuntimeError", "CUDA error: device-side assert", "RuntimeError", "CUDA error: illegal memory access"),
    ("RuntimeError", "tensors on the same device", "RuntimeError", "tensors of the same dtype"),
    ("ValueError", f"bad token {HF_A}", "ValueError", "bad token sk-FAKEproj1234567890abcdefgh"),
    ("ValueError", "Ошибка", "ValueError", "Oшибкa"),  # a Russian word is not folded to Latin
    ("AttributeError", "has no attribute <q>", "AttributeError", "has no attribute"),
    ("ValueError", "size 3", "ValueError", "size"),
    ("valueerror", "x", "ValueError", "x"),
]


@pytest.mark.parametrize(("cls_a", "msg_a", "cls_b", "msg_b"), SAME)
def test_same_error_gets_the_same_key(cls_a: str, msg_a: str, cls_b: str, msg_b: str) -> None:
    assert fingerprint(cls_a, msg_a).key == fingerprint(cls_b, msg_b).key


@pytest.mark.parametrize(("cls_a", "msg_a", "cls_b", "msg_b"), DIFFERENT)
def test_different_errors_get_different_keys(cls_a: str | None, msg_a: str, cls_b: str, msg_b: str) -> None:
    assert fingerprint(cls_a, msg_a).key != fingerprint(cls_b, msg_b).key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Value\u200bError", "ValueError"),
        ("\ufeffa\u2060b\u200c\u200dc", "abc"),
        ("a\u200eb\u202ac\u2066d\u2069", "abcd"),
        ("ＶａｌｕｅＥｒｒｏｒ", "ValueError"),
        ("VаlueError", "ValueError"),
        ("ΚeyΕrror", "KeyError"),
        ("Ошибка сети", "Ошибка сети"),
        ("  a \t b\n\nc  ", "a b c"),
        ("e\u0301", "é"),
    ],
)
def test_normalize_text(text: str, expected: str) -> None:
    assert normalize_text(text) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("allocate 20.00 MiB on GPU 3", "allocate <size> on GPU <n>"),
        ("a 512B block of 3 bytes", "a <size> block of <size>"),
        ("at 0x7f3a2b1c4d50 and deadbeefcafe", "at <hex> and <hex>"),
        ("No module named 'torch'", "No module named '<name>'"),
        ('key "a b" and `c`', 'key "<value>" and `<name>`'),
        ("Can't load tokenizer for 'openai/clip-vit'", "Can't load tokenizer for '<repo>'"),
        ("can't find 'x' in the model's 'y'", "can't find '<name>' in the model's '<name>'"),
        ("'it's fine'", "'<value>'"),
        ("not found: './my model/x.bin'", "not found: '<path>'"),
        ("got '12' and '3.5'", "got '<n>' and '<n>'"),
        ("see 'https://hf.co/x'", "see '<url>'"),
        ("class <class 'transformers.models.llama.LlamaConfig'>", "class <class '<name>'>"),
        ("<function f at 0x7f00> vs <a.B object at 0x1f>", "<repr> vs <repr>"),
        ("failed (Request ID: Root=1-65a2b3c4-12;abc)", "failed (Request ID: <id>)"),
        ("run wandb_20240101_abcdef1234xyz done", "run <id> done"),
        ("MODEL_TYPE_TO_PEFT_MODEL_MAPPING missing", "MODEL_TYPE_TO_PEFT_MODEL_MAPPING missing"),
        ("read /home/alice/x.py now", "read <path> now"),
        (r"read C:\Users\bob\x.py now", "read <path> now"),
        ("read ./data/x.csv", "read <path>"),
        ("torch.Size([2, 3]) and (2, 3, 4)", "torch.Size(<shape>) and <shape>"),
        ("id 123e4567-e89b-12d3-a456-426614174000", "id <uuid>"),
        ("see https://hf.co/x?y=1 now", "see <url> now"),
        (
            "token [REDACTED:huggingface_token] at /home/<user>/a/b",
            "token [REDACTED:huggingface_token] at <path>",
        ),
        ("float16 vs float32 on cuda:0", "float16 vs float32 on <device>"),
        ("found cuda:0 and cpu!", "found <device> and <device>!"),
        ("Target modules ['q_proj', 'v_proj'] not found", "Target modules <list> not found"),
        ("Your Tesla V100-SXM2-32GB GPU", "Your <gpu> GPU"),
        ("Unsloth: microsoft/Phi-3-mini-4k not supported", "Unsloth: <repo> not supported"),
        ("modules on cpu/disk", "modules on <device>/disk"),
        (
            "it looks like bert-base-uncased is not a file named config.json",
            "it looks like <repo> is not a file named <path>",
        ),
        ("non-singleton device-side", "non-singleton device-side"),
        ("and/or", "and/or"),
        ("", ""),
    ],
)
def test_mask_message(message: str, expected: str) -> None:
    assert mask_message(message) == expected


def test_fingerprint_parts() -> None:
    result = fingerprint("requests.exceptions.ConnectionError", "Max retries exceeded with url: /x (port 443)")
    assert result.error_class == "ConnectionError"
    assert result.masked == "Max retries exceeded with url: /x (port <n>)"
    assert len(result.key) == 20
    assert int(result.key, 16) >= 0
    assert result.frame == "" and result.loose_key == result.key
    assert KEY_VERSION == "fp3"  # changing normalising or masking needs a new version


@pytest.mark.parametrize(
    ("error_class", "message", "title"),
    [
        ("KeyError", "'mllama'", "KeyError: '<key>'"),
        ("KeyError", "'foo' not found in token map", "KeyError: '<key>' not found in token map"),
        ("KeyError", "0", "KeyError: <n>"),
        ("OSError", "Can't load config for 'gpt2'", "OSError: Can't load config for '<name>'"),
        (None, "bad value 3", "bad value <n>"),
    ],
)
def test_titles_read_as_the_error_does(error_class: str | None, message: str, title: str) -> None:
    assert fingerprint(error_class, message).title == title


def frames(*places: tuple[str, str | None]) -> tuple[Frame, ...]:
    found = []
    for n, (path, library) in enumerate(places):
        package = path.split("site-packages/", 1)[1] if library else None
        found.append(Frame(path=path, line=10 + n, function=f"f{n}", package_path=package, library=library))
    return tuple(found)


LIB = "/venv/lib/python3.11/site-packages/transformers/models/auto/configuration_auto.py"
OTHER_LIB = "/venv/lib/python3.11/site-packages/transformers/tokenization_utils_base.py"


def test_the_innermost_library_frame_is_part_of_the_key_not_the_users_frames() -> None:
    plain = fingerprint("KeyError", "'mllama'")
    mine = fingerprint("KeyError", "'qwen2'", frames(("/home/a/run.py", None), (LIB, "transformers")))
    theirs = fingerprint(
        "KeyError", "'llava'", frames(("/srv/b/train.py", None), (LIB, "transformers"), ("/srv/b/cb.py", None))
    )
    elsewhere = fingerprint("KeyError", "'mllama'", frames((OTHER_LIB, "transformers")))
    assert mine.key == theirs.key and mine.frame == "transformers/models/auto/configuration_auto.py:f1"
    assert mine.key != elsewhere.key != plain.key
    assert mine.loose_key == elsewhere.loose_key == plain.key  # a bare final line still finds its group


def test_quoted_values_of_any_kind_fill_the_same_slot() -> None:
    kinds = ["'gpt2'", "'openai/clip-vit'", "'./my-model'", "'C:\\models\\x'"]
    keys = {fingerprint("OSError", f"Can't load tokenizer for {k}. Check it.").key for k in kinds}
    assert len(keys) == 1


def test_unknown_class_is_empty() -> None:
    assert fingerprint(None, "x").error_class == ""
    assert fingerprint("", "x").key == fingerprint(None, "x").key


def test_secrets_never_reach_the_masked_message() -> None:
    masked = fingerprint("ValueError", f"bad token {HF_A} for alice@example.com").masked
    assert HF_A not in masked
    assert "alice" not in masked


_FRAGMENTS = [
    "'", '"', "`", "/", "\\", "\\\\", "C:", "~", ".", "..", "0x", "0", "7", "12.5", "ab", "ff", "-", ",", " ",
    "(", ")", "[", "]", "<", ">", "<n>", "<user>", "://", "https", "a@b.com", "\n", "\u200b", "а", "\u0301",
    "None", "_", ":", "=", "[REDACTED:jwt]", "deadbeef", "e89b-12d3", "\ud800",
]  # fmt: skip
texts = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=3)), max_size=30).map("".join),
)


@given(texts)
def test_masking_is_idempotent(text: str) -> None:
    once = mask_message(text)
    assert mask_message(once) == once


@given(texts)
def test_normalizing_is_idempotent(text: str) -> None:
    once = normalize_text(text)
    assert normalize_text(once) == once


@given(st.text(max_size=20), texts, st.integers(min_value=0, max_value=20))
def test_invisible_characters_do_not_change_the_key(cls: str, message: str, at: int) -> None:
    disguised = cls[:at] + "\u200b" + cls[at:]
    assert fingerprint(disguised, message).key == fingerprint(cls, message).key
