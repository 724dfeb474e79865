"""Time ``redact`` on 16 KB pastes: realistic tracebacks and hostile fragment floods.

Run: ``python -m benchmarks.bench_redact [RUNS]`` (default 1,000 per paste). Target: p99 ≤ 5 ms.
Each paste is redacted RUNS times; the per-call latency is reported as p50/p99/max in ms of wall time,
and p99 of the thread's CPU time, which a shared machine's other work does not inflate.

The heap built before the samples (the rules, and in ``eval_redact`` the whole corpus) is frozen first,
as ``tracebot run`` freezes its loaded index: otherwise the cyclic collector's full passes over it,
every hundred-odd calls, cost about 3 ms each and land on whichever sample triggers them, which
measures this process's heap rather than ``redact``.
"""

from __future__ import annotations

import gc
import random
import statistics
import string
import sys
import time
from collections.abc import Callable

from records.redact import redact

SIZE = 16 * 1024
ALNUM = string.ascii_letters + string.digits


def _fill(pattern: Callable[[int], str]) -> str:
    pieces: list[str] = []
    total = 0
    index = 0
    while total < SIZE:
        piece = pattern(index)
        pieces.append(piece)
        total += len(piece)
        index += 1
    return "".join(pieces)[:SIZE]


def _traceback(rng: random.Random) -> Callable[[int], str]:
    """Return a maker of traceback frames with a token, path or address now and then."""

    def frame(index: int) -> str:
        user = rng.choice(["alice", "bob", "jdoe"])
        line = (
            f'  File "/home/{user}/proj/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py", '
            f"line {rng.randint(1, 2000)}, in _call_impl\n    return forward_call(*args, **kwargs)\n"
        )
        extras = [
            f"HF_TOKEN=hf_FAKE{''.join(rng.choices(ALNUM, k=30))}\n",
            f"contact {user}.dev@example.com\n",
            f"url: https://{user}:FAKEpw{rng.randint(0, 999)}@db.example.com/x\n",
            f'  File "C:\\Users\\{user}\\AppData\\x.py", line 3\nRuntimeError: shape (2, 3)\n',
        ]
        return line + (rng.choice(extras) if index % 5 == 0 else "")

    return frame


_SINK = [
    "hf_FAKEaBcDeFgHiJkLmNoPqRsTuVwXyZ0123 ", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.FAKEsig ", "a@b.co ",
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY----- ",
    "https://u:FAKE1@h/ ", "token=FAKE123 ", "/home/alice/ ", "C:\\Users\\bob\\ ",
    "Bearer FAKE0123456789abcdef ", "AKIAFAKE0123456789AB ", "sk-learn ", "xoxb-1-FAKE1 ",
    "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.FAKEFAKEFAKEFAKEFAKEFAKE12 ",
]  # fmt: skip


def _env_dump(rng: random.Random) -> Callable[[int], str]:
    """Return a maker of environment lines with a random 24-character key, as in a pasted ``env``."""
    return lambda index: f"SERVICE_{index}_API_KEY={''.join(rng.choices(ALNUM, k=24))}\n"


def pastes() -> dict[str, str]:
    """Return the 16 KB pastes to time, by name."""
    rng = random.Random(7)
    return {
        "traceback": _fill(_traceback(rng)),
        "hf_ flood": _fill(lambda _: "hf_"),
        "hf_ near-miss": _fill(lambda i: "hf_" + "a" * 29 + " "),
        "eyJ flood": _fill(lambda _: "eyJ"),
        "eyJ dotted": _fill(lambda _: "eyJhbGciOi."),
        "@ flood": _fill(lambda _: "@"),
        "a@ flood": _fill(lambda _: "a@b."),
        "BEGIN flood": _fill(lambda _: "-----BEGIN"),
        "BEGIN key flood": _fill(lambda _: "-----BEGIN PRIVATE KEY-----"),
        # A header alone on its line, a line after it, never closed: each one is redacted.
        "PEM openings": _fill(lambda _: "-----BEGIN PRIVATE KEY-----\nx\n"),
        "url flood": _fill(lambda _: "https://u:"),
        "token= flood": _fill(lambda _: "token="),
        "home flood": _fill(lambda _: "/home/"),
        "unicode": _fill(lambda _: "Ошибка: файл "),
        # Percent escapes are decoded and the text scanned once more: one escape every 3 bytes, alone, in
        # runs that spell UTF-8 characters, and in labelled values.
        "%XX flood": _fill(lambda _: "a%41"),
        "%-UTF-8 flood": _fill(lambda _: "%C2%A8"),
        "%-labelled flood": _fill(lambda i: f"password=%C2%A8x{i}&"),
        # Every hint present, so no rule is skipped, and a real finding every few bytes.
        "kitchen sink": _fill(lambda i: _SINK[i % len(_SINK)]),
        "real hf tokens": _fill(lambda i: f"hf_FAKE{i:030d} "),
        "real emails": _fill(lambda i: f"user{i}@example.com, "),
        # ~366 labelled keys, each a candidate of both generic rules (ours and gitleaks') with its checks.
        "env dump": _fill(_env_dump(random.Random(13))),
    }


def _time(text: str, runs: int) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    redact(text)  # compile the rules once, outside the samples
    gc.collect()
    gc.freeze()
    for _ in range(runs):
        began, began_cpu = time.perf_counter(), time.thread_time()
        redact(text)
        wall.append((time.perf_counter() - began) * 1000)
        cpu.append((time.thread_time() - began_cpu) * 1000)
    return sorted(wall), sorted(cpu)


def _p99(samples: list[float]) -> float:
    return samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main(runs: int = 1000) -> dict[str, dict[str, float]]:
    """Time every paste, print a table and return the figures."""
    figures = {}
    print(f"redact on {SIZE // 1024} KB pastes, {runs} runs each (ms)")
    print(f"{'paste':<18}{'p50':>8}{'p99':>8}{'max':>8}{'cpu p99':>9}")
    for name, text in pastes().items():
        samples, cpu = _time(text, runs)
        p50, p99 = statistics.median(samples), _p99(samples)
        figures[name] = {"p50": p50, "p99": p99, "max": samples[-1], "cpu_p99": _p99(cpu)}
        print(f"{name:<18}{p50:>8.2f}{p99:>8.2f}{samples[-1]:>8.2f}{_p99(cpu):>9.2f}")
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
