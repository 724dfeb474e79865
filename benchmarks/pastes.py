"""Turn a record into pastes people would write: placeholders filled, wrapped in real-world formats.

Shared by the evaluation set and the speed benchmarks. Deterministic for a given random generator.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from records.matching.template import parse_template

_PLACEHOLDER = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")

MODELS = ["LlamaForCausalLM", "MambaForCausalLM", "BertModel", "GPT2LMHeadModel", "WhisperForConditionalGeneration"]
KEYS = ["'attention_mask'", "'input_ids'", "'past_key_values'", "'pixel_values'", "'labels'"]
PATHS = ["/home/user/models/llama-3/config.json", "./checkpoints/run-12/tokenizer.json", "C:\\models\\bert\\vocab.txt"]


def fill_value(expression: str, rng: random.Random) -> str:
    """Return a realistic value for a ``{placeholder}`` judged by its expression text."""
    expr = expression.strip("{}").lower()
    rules: list[tuple[tuple[str, ...], Callable[[], str]]] = [
        (("shape", "size("), lambda: f"torch.Size([{rng.randint(1, 8)}, {rng.randint(2, 512)}, 64])"),
        (("__name__", "class", "model", "arch"), lambda: rng.choice(MODELS)),
        (("path", "file", "dir", "url"), lambda: rng.choice(PATHS)),
        (("dtype",), lambda: rng.choice(["torch.float16", "torch.bfloat16", "torch.int8"])),
        (("device",), lambda: rng.choice(["cuda:0", "cpu", "mps"])),
        (("len(", "num", "count", "idx", "index", "step", "batch", "dim", "max_", "min_"), lambda: str(rng.randint(0, 4096))),
        (("key", "name", "arg", "param"), lambda: rng.choice(KEYS)),
        (("type(",), lambda: rng.choice(["<class 'int'>", "<class 'list'>", "NoneType"])),
    ]  # fmt: skip
    for needles, make in rules:
        if any(n in expr for n in needles):
            return make()
    return rng.choice(["foo", "12", "True", "'auto'", "None", "[1, 2, 3]", "bar_baz"])


def render_message(template: str, rng: random.Random) -> str:
    """Fill every placeholder of a template with a value, as the f-string would (``{{`` prints ``{``)."""
    holes = [m.group(0) for m in _PLACEHOLDER.finditer(template.replace("{{", "").replace("}}", ""))]
    segments = parse_template(template).segments
    values = [fill_value(hole, rng) for hole in holes] + [""] * len(segments)
    return "".join(segment + values[i] for i, segment in enumerate(segments[:-1])) + segments[-1]


def site_path(file_path: str | None, style: str = "venv") -> str:
    """Return where a repository file sits once installed (``src/`` dropped, under site-packages)."""
    inner = (file_path or "mylib/core.py").removeprefix("src/")
    prefixes = {
        "venv": "/home/user/project/.venv/lib/python3.11/site-packages/",
        "conda": "/opt/conda/envs/ml/lib/python3.10/site-packages/",
        "ipython": "~/miniconda3/lib/python3.11/site-packages/",
        "windows": "C:\\Users\\me\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages\\",
    }
    prefix = prefixes[style]
    return prefix + (inner.replace("/", "\\") if style == "windows" else inner)


def traceback(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """A plain Python traceback with a user frame and the raising library frame."""
    lib = site_path(file_path, rng.choice(["venv", "conda"]))
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/project/train.py", line 42, in <module>\n'
        "    outputs = model.generate(**inputs)\n"
        f'  File "{lib}", line {line or 10}, in generate\n'
        f"    raise {cls}(\n"
        f"{cls}: {message}"
    )


def ipython(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """Jupyter output with ANSI colours, arrows and Cell markers."""
    lib = site_path(file_path, "ipython")
    return (
        "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m\n"
        f"\x1b[0;31m{cls}\x1b[0m                                Traceback (most recent call last)\n"
        "Cell \x1b[0;32mIn[3], line 5\x1b[0m\n"
        "\x1b[0;32m----> 5\x1b[0m out \x1b[38;5;241m=\x1b[39m model\x1b[38;5;241m.\x1b[39mgenerate(\x1b[38;5;241m**\x1b[39minputs)\n\n"
        f"File \x1b[0;32m{lib}:{line or 10}\x1b[0m, in \x1b[0;36mGenerationMixin.generate\x1b[0;34m(self, **kwargs)\x1b[0m\n"
        f"\x1b[0;32m---> {line or 10}\x1b[0m     \x1b[38;5;28;01mraise\x1b[39;00m {cls}(msg)\n\n"
        f"\x1b[0;31m{cls}\x1b[0m: {message}"
    )  # fmt: skip


def pytest_output(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """Render pytest's failure output with E-prefixed lines."""
    lib = site_path(file_path, "venv")
    lines = message.split("\n")
    body = f"E   {cls}: {lines[0]}" + "".join(f"\nE   {rest}" for rest in lines[1:])
    return f"    def test_generate():\n>       model.generate(**inputs)\n\n{lib}:{line or 10}: in generate\n{body}\n\n{lib}:{line or 10}: {cls}"


def logged(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """A torchrun log: every line prefixed with a rank and the traceback behind an ERROR line."""
    text = traceback(cls, message, file_path, line, rng)
    prefix = rng.choice(["[rank0]: ", "[rank1]:", ""])
    head = "2024-05-01 12:00:00,123 - ERROR - training failed\n"
    return head + "\n".join(prefix + ln for ln in text.split("\n"))


def fenced(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """A Discord message: a question and the traceback in a ```py fence."""
    ask = rng.choice(["help, this keeps happening:", "anyone seen this before?", "getting this after upgrading"])
    return f"{ask}\n```py\n{traceback(cls, message, file_path, line, rng)}\n```\nany idea?"


def windows(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """A Windows traceback with backslash paths and CRLF line ends."""
    lib = site_path(file_path, "windows")
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\me\\project\\run.py", line 7, in <module>\n'
        "    main()\n"
        f'  File "{lib}", line {line or 10}, in forward\n'
        f"    raise {cls}(msg)\n"
        f"{cls}: {message}"
    )
    return text.replace("\n", "\r\n")


def inline(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """The error quoted inside a sentence."""
    return f"I keep getting `{cls}: {' '.join(message.split())}` when I run my script, what am I doing wrong?"


def final_line(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """Only the last line, with the module-qualified class."""
    return f"transformers.{cls}: {message}" if rng.random() < 0.3 else f"{cls}: {message}"


def chained(cls: str, message: str, file_path: str | None, line: int | None, rng: random.Random) -> str:
    """Another exception first, then ours 'during handling' of it."""
    first = 'Traceback (most recent call last):\n  File "/app/x.py", line 3, in <module>\n    d["k"]\nKeyError: \'k\'\n'
    return (
        first
        + "\nDuring handling of the above exception, another exception occurred:\n\n"
        + traceback(cls, message, file_path, line, rng)
    )


FORMATS: dict[str, Callable[[str, str, str | None, int | None, random.Random], str]] = {
    "traceback": traceback,
    "ipython": ipython,
    "pytest": pytest_output,
    "logged": logged,
    "fenced": fenced,
    "windows": windows,
    "inline": inline,
    "final_line": final_line,
    "chained": chained,
}
