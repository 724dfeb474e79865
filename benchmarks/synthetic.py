"""Synthetic record sets for benchmarks: templates derived from real ones, varied to be distinct."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

SUBJECTS = [
    "assisted generation", "beam search", "the tokenizer", "the attention mask", "gradient checkpointing",
    "the static cache", "the pipeline", "the feature extractor", "quantization", "the trainer",
    "the data collator", "the processor", "sliding window attention", "the chat template", "the optimizer",
    "model parallelism", "the image processor", "flash attention", "the scheduler", "the logits processor",
]  # fmt: skip
VERBS = [
    "is not supported with", "requires", "cannot be combined with", "expected", "failed for",
    "must be set when using", "is incompatible with", "does not accept", "was given an invalid",
]  # fmt: skip
OBJECTS = [
    "stateful models, such as {model}", "a cache", "`use_cache=True`", "{num} tokens but got {got}",
    "{dtype} weights", "batch size {batch}", "the `{arg}` argument", "device {device}",
    "input of shape {shape}", "models loaded in 8-bit", "the {framework} backend",
]  # fmt: skip
CLASSES = [
    "ValueError",
    "TypeError",
    "RuntimeError",
    "NotImplementedError",
    "KeyError",
    "OSError",
    "ImportError",
]
AREAS = [
    "generation",
    "tokenization",
    "trainer",
    "pipelines",
    "models/llama",
    "models/bert",
    "utils",
    "integrations",
]
WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "theta",
    "kappa",
    "lambda",
    "sigma",
    "omega",
    "vector",
    "tensor",
    "layer",
    "head",
    "block",
    "shard",
    "rank",
    "token",
    "vocab",
    "merge",
    "split",
    "pad",
    "trim",
    "batch",
    "epoch",
    "step",
    "warmup",
    "decay",
    "clip",
    "norm",
    "scale",
    "shift",
]


def template(i: int, rng: random.Random) -> str:
    """Return a distinct error template: a real-looking sentence plus two rare words tied to ``i``."""
    subject, verb, obj = rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS)
    tag = f"{WORDS[i % len(WORDS)]}{i // len(WORDS) % 977}"
    detail = f"{WORDS[(i * 7) % len(WORDS)]}_{i:x}"
    return f"{subject} {verb} {obj} ({tag} mode, see {detail})"


def to_pattern(text: str) -> str:
    """Turn a ``{placeholder}`` template into a lazy-group regex anchored on its literal parts."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "{":
            end = text.find("}", i)
            out.append("(.+?)")
            i = end + 1
        else:
            out.append("\\" + text[i] if not text[i].isalnum() and text[i] not in " _" else text[i])
            i += 1
    return "".join(out)


def synthetic_records(count: int, seed: int = 7) -> Iterator[dict[str, Any]]:
    """Yield ``count`` distinct record dicts in wire form."""
    rng = random.Random(seed)
    for i in range(count):
        message = template(i, rng)
        area = rng.choice(AREAS)
        line = rng.randint(10, 5000)
        yield {
            "id": f"syn{i:08d}",
            "repo": "example/transformers",
            "slug": f"synthetic-{i}",
            "errorMessage": message,
            "messagePattern": to_pattern(message),
            "errorClass": rng.choice(CLASSES),
            "errorType": "validation",
            "severity": "error",
            "filePath": f"src/transformers/{area}/module_{i % 400}.py",
            "lineNumber": line,
            "sourceCode": f'    if condition_{i}:\n        raise ValueError(f"{message}")\n',
            "sourceCodeStart": line - 1,
            "sourceCodeEnd": line + 1,
            "githubUrl": f"https://github.com/example/transformers/blob/abc123/src/transformers/{area}/m.py#L{line}",
            "triggerScenarios": f"if condition_{i}",
            "solutions": ["Check the arguments.", "Upgrade the library."],
            "tags": [area.split("/")[0]],
            "schemaVersion": 2,
            "origin": "mined",
            "libraryVersion": "9.9.9",
        }
