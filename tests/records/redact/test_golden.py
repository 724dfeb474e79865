"""redact's output on the benchmark's 16 KB pastes, pinned: speed work on the scanners must not change it.

Each paste (and the same paste with one non-ASCII character, which takes RE2's str path) is stored as its
count of findings per kind and digests of the findings and of the redacted text. After a deliberate
change of the rules, rewrite the file with ``python -m tests.records.redact.test_golden`` and say why in
the commit.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import pytest

from benchmarks.bench_redact import pastes
from records.redact import redact

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "redaction" / "golden_pastes.json"


@cache
def _texts() -> dict[str, str]:
    texts = pastes()
    return texts | {f"{name} + é": text[:-1] + "é" for name, text in texts.items()}


def _summary(text: str) -> dict[str, object]:
    result = redact(text)
    kinds: dict[str, int] = {}
    for finding in result.findings:
        kinds[finding.kind] = kinds.get(finding.kind, 0) + 1
    spans = json.dumps([[f.kind, f.start, f.end] for f in result.findings])
    return {
        "kinds": dict(sorted(kinds.items())),
        "findings_sha256": hashlib.sha256(spans.encode()).hexdigest(),
        "text_sha256": hashlib.sha256(result.text.encode("utf-8", "surrogatepass")).hexdigest(),
    }


@cache
def _golden() -> dict[str, dict[str, object]]:
    loaded: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return loaded


def test_every_paste_is_pinned() -> None:
    assert sorted(_golden()) == sorted(_texts())


@pytest.mark.parametrize("name", sorted(_texts()))
def test_redaction_of_a_paste_is_unchanged(name: str) -> None:
    assert _summary(_texts()[name]) == _golden()[name]


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps({n: _summary(t) for n, t in sorted(_texts().items())}, indent=1) + "\n", "utf-8")
