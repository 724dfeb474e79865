"""Build the labelled evaluation set from the shipped records (``python -m benchmarks.evalset``).

Writes ``tests/data/eval/generated.jsonl``: pastes generated from records (placeholders filled with
realistic values, wrapped in the formats people paste), each labelled with the record it must get.
A paste with no frames cannot tell apart records whose message is the same text raised in different
files, so such a paste accepts any of them (``accept``): the reply shows the right explanation either
way. Hand-written cases live beside it in ``hard.jsonl``, ``chat.jsonl`` and ``foreign.jsonl``; real pastes
labelled by hand in ``tests/data/real/`` and errors raised by running each version in ``tests/data/raised/``.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from benchmarks.pastes import FORMATS, render_message
from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.template import parse_template
from records.model import Record
from records.reader import LoadedRecord, expand_paths, read_file

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "records" / "data"
EVAL_DIR = ROOT / "tests" / "data" / "eval"
REAL_DIR = ROOT / "tests" / "data" / "real"
RAISED_DIR = ROOT / "tests" / "data" / "raised"
FRAMELESS = {"inline", "final_line"}


def shipped_records() -> list[Record]:
    """Read every shipped record file (seeds and mined sets); a new list of the records read once."""
    return list(_shipped_records())


@contextmanager
def _untraced() -> Iterator[None]:
    """Lift a line tracer (coverage's, in ``make test``) for a load of the whole shipped set.

    Reading and indexing ~13k records is data loading, not code under test (the reader and the index
    have their own unit tests); traced, it takes several times as long in every test worker.
    """
    tracer = sys.gettrace()
    sys.settrace(None)
    try:
        yield
    finally:
        sys.settrace(tracer)


@cache
def _shipped_records() -> tuple[Record, ...]:
    # Read once per process: reading and validating the ~13k records takes seconds, and the tests and
    # evaluations ask for them many times (records are frozen, so sharing them is safe).
    with _untraced():
        return tuple(record for path in expand_paths(DATA) for record in _read_shipped(path))


def _read_shipped(path: Path) -> list[Record]:
    """Read one shipped file: the mined sets with pydantic's JSON parser, the rest with the reader.

    The mined sets are the project's own files of bare records (checked when ``make records`` wrote
    them, and by ``tracebot records import`` in the tests); pydantic parses them in under half the
    reader's time (its limits on depth, digits and unknown fields are for files people hand us), and
    every test process reads them.
    """
    if path.name.endswith(".jsonl.gz"):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return [Record.model_validate_json(line) for line in handle if line.strip()]
    return [item.record for item in read_file(path) if isinstance(item, LoadedRecord)]


@cache
def shipped_matcher() -> Matcher:
    """Return one matcher over the shipped records, built once per process (read-only: do not change it)."""
    records = _shipped_records()
    with _untraced():
        return Matcher(MatchIndex.build(IndexEntry.from_record(r) for r in records))


def read_jsonl(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Read the cases of several JSON Lines files, in file order; missing files give nothing."""
    cases: list[dict[str, Any]] = []
    for path in paths:
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            cases.extend(json.loads(line) for line in lines if line.strip())
    return cases


def real_cases(kind: str) -> list[dict[str, Any]]:
    """Read a labelled set of real pastes: ``transformers`` (every labeller's file), ``foreign`` or ``chat``."""
    pattern = "transformers-*.jsonl" if kind == "transformers" else f"{kind}.jsonl"
    return read_jsonl(sorted(REAL_DIR.glob(pattern)))


def raised_cases() -> list[dict[str, Any]]:
    """Read the pastes of errors raised by running each shipped transformers version."""
    return read_jsonl(sorted(RAISED_DIR.glob("transformers-*.jsonl")))


def _literal_key(record: Record) -> str:
    return "\x00".join(s.strip() for s in parse_template(record.error_message).segments)


def generate(records: list[Record], count: int, seed: int = 20261129) -> list[dict[str, object]]:
    """Return ``count`` labelled pastes drawn from ``records``."""
    rng = random.Random(seed)
    same_text: dict[str, list[str]] = defaultdict(list)
    for record in records:
        same_text[_literal_key(record)].append(record.id)
    usable = [r for r in records if parse_template(r.error_message).literal_chars >= 12]
    chosen = rng.sample(usable, min(count, len(usable)))
    pastes: list[dict[str, object]] = []
    for number, record in enumerate(chosen):
        kind = rng.choice(sorted(FORMATS))
        message = render_message(record.error_message, rng)
        text = FORMATS[kind](record.error_class or "Exception", message, record.file_path, record.line_number, rng)
        accept = same_text[_literal_key(record)] if kind in FRAMELESS else [record.id]
        pastes.append({"id": f"gen-{number:04d}", "kind": kind, "text": text, "expect": record.id, "accept": accept})
    return pastes


def main() -> None:
    """Regenerate ``generated.jsonl`` (count from argv, default 400)."""
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    pastes = generate(shipped_records(), count)
    EVAL_DIR.mkdir(parents=True, exist_ok=True)
    out = EVAL_DIR / "generated.jsonl"
    out.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pastes), encoding="utf-8")
    print(f"wrote {len(pastes)} pastes to {out}")


if __name__ == "__main__":
    main()
