"""Worst-case time of hostile input (``python -m benchmarks.bench_hostile``).

The speed bounds that unit tests must not assert (a shared 2-core machine makes any wall-clock bound
fail by chance) live here: adversarial stored patterns against 100 KB pastes through the matcher and
the pattern evidence, redaction of 200 KB of repeated secret prefixes, and triage of a 5 MB log. Each
figure is the best of five runs (we measure the engine, not the scheduler), printed beside its target.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial

from records.matching import IndexEntry, Matcher, MatchIndex
from records.matching.patterns import pattern_evidence
from records.redact import redact
from records.triage import observe
from tests.records.matching.test_patterns import ADVERSARIAL_PATTERNS, HOSTILE_PASTES

REPEATS = 5
REDACT_FRAGMENTS = ["hf_", "eyJ", "@", "-----BEGIN PRIVATE KEY-----", "a:b@", "/home/"]


def best_ms(action: Callable[[], object]) -> float:
    """Return the fastest of REPEATS runs of ``action``, in milliseconds."""
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def worst_pattern_ms() -> float:
    """Worst case of the adversarial patterns on the hostile pastes, matcher and evidence alike."""
    entries = [
        IndexEntry(id=f"evil{i}", error_message=f"evil failed template number{i} words", message_pattern=pattern)
        for i, pattern in enumerate(ADVERSARIAL_PATTERNS)
    ]
    matcher = Matcher(MatchIndex.build(entries))
    worst = 0.0
    for paste in HOSTILE_PASTES:
        bait = paste + " evil failed template number3 words"  # make the hostile records candidates
        worst = max(worst, best_ms(partial(matcher.match, bait)))
        for pattern in ADVERSARIAL_PATTERNS:
            worst = max(worst, best_ms(partial(pattern_evidence, pattern, paste)))
    return worst


def worst_redact_ms() -> float:
    """Worst case of redacting 200 KB made of one secret prefix repeated."""
    texts = [fragment * (200_000 // len(fragment)) for fragment in REDACT_FRAGMENTS]
    return max(best_ms(partial(redact, text)) for text in texts)


def huge_triage_ms() -> float:
    """Time to observe a 5.4 MB log paste for triage (cut, clean, redact, fingerprint)."""
    noise = "INFO loading shard 12 of 99 from /data/x.bin\n" * 120_000
    text = noise + 'Traceback (most recent call last):\n  File "x.py", line 1, in f\nPermissionError: denied'
    return best_ms(lambda: observe(text, paste_chars=8_000, sample_chars=1_500))


def hostile_pastes() -> dict[str, str]:
    """Pastes of every hostile shape issue 16 names, as they would reach the engine."""
    chained = "\n\nDuring handling of the above exception, another exception occurred:\n\n".join(
        f'Traceback (most recent call last):\n  File "x.py", line {n}, in f\nValueError: step {n} failed'
        for n in range(3000)
    )
    return {
        "1 MB on one line": "ValueError: " + "x" * 1_000_000,
        "100k lines": "INFO step ok\n" * 100_000,
        "binary": bytes(range(256)).decode("latin-1") * 4000,
        "ANSI bomb": "\x1b[31m\x1b[1m" * 50_000 + "ValueError: boom",
        "3,000 chained tracebacks": chained,
        "lone surrogates": "ValueError: bad \ud800 value " * 10_000,
    }


def worst_engine_paste_ms() -> tuple[float, str]:
    """Worst hostile paste through the matcher over the shipped records (what ask and the bot run)."""
    from benchmarks.evalset import shipped_records  # noqa: PLC0415 - loads the shipped data only here
    from records.text import clean_text  # noqa: PLC0415
    from records.triage import MAX_INPUT_CHARS  # noqa: PLC0415

    matcher = Matcher(MatchIndex.build([IndexEntry.from_record(r) for r in shipped_records()]))
    timings = {
        name: best_ms(partial(matcher.match, clean_text(text, MAX_INPUT_CHARS)))
        for name, text in hostile_pastes().items()
    }
    worst = max(timings, key=lambda name: timings[name])
    return timings[worst], worst


def main() -> int:
    """Print each worst case beside its target; exit 1 when one is missed."""
    engine_ms, engine_worst = worst_engine_paste_ms()
    rows = [
        (f"hostile paste, shipped records ({engine_worst})", engine_ms, 50.0),
        ("adversarial patterns, 100 KB pastes", worst_pattern_ms(), 50.0),
        ("redaction, 200 KB of secret prefixes", worst_redact_ms(), 2000.0),
        ("triage of a 5.4 MB log paste", huge_triage_ms(), 5000.0),
    ]
    missed = 0
    for name, ms, target in rows:
        ok = ms <= target
        missed += not ok
        print(f"{name:<40} {ms:9.2f} ms  (target <= {target:.0f} ms) {'ok' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
