"""Time ``extract`` on a typical traceback and on 100 KB adversarial pastes.

Run: ``.venv/bin/python benchmarks/bench_extract.py``. Prints the median time of a typical paste, and
the median and worst of several runs for each adversarial paste; not a test, since timings vary by
machine (and the worst run mostly measures what else the machine was doing).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from records.extraction import clean_paste, extract

TYPICAL = """Traceback (most recent call last):
  File "/home/a/spec.py", line 12, in <module>
    out = model.generate(**inputs, assistant_model=draft)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/home/a/.venv/lib/python3.11/site-packages/torch/utils/_contextlib.py", line 116, in decorate_context
    return func(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^^^
  File "/home/a/.venv/lib/python3.11/site-packages/transformers/generation/utils.py", line 1581, in generate
    raise ValueError(
ValueError: assisted generation is not supported with stateful models, such as MambaForCausalLM
"""

SIZE = 100_000
RUNS = 21


def _random_text(seed: int) -> str:
    """Return random bytes decoded as UTF-8 with replacement characters."""
    rng = random.Random(seed)
    return rng.randbytes(SIZE).decode("utf-8", errors="replace")[:SIZE]


def adversarial() -> dict[str, str]:
    """Return the adversarial pastes, each about 100 KB."""
    frame = '  File "/x/site-packages/lib/m.py", line 1, in f\n    f()\n'
    return {
        "one huge line": "a" * SIZE,
        "100k newlines": "\n" * SIZE,
        "short lines": "a\n" * (SIZE // 2),
        "'Error: ' * N": ("Error: " * (SIZE // 7))[:SIZE],
        "'ValueError: ' * N": ("ValueError: " * (SIZE // 12))[:SIZE],
        "ValueError lines": ("ValueError: x\n" * (SIZE // 14))[:SIZE],
        "'File \"' * N": ('File "' * (SIZE // 6))[:SIZE],
        "'  File \"' lines": ('  File "\n' * (SIZE // 9))[:SIZE],
        "frames": ("Traceback (most recent call last):\n" + frame * (SIZE // len(frame)))[:SIZE],
        "E lines": ("E   ValueError: x\n" * (SIZE // 18))[:SIZE],
        "pytest locations": ("a.py:1: in f\n" * (SIZE // 13))[:SIZE],
        "rank prefixes": ("[rank0]: ValueError: x\n" * (SIZE // 23))[:SIZE],
        "log lines": ("2024-05-01 12:00:00,123 - ERROR - boom\n" * (SIZE // 39))[:SIZE],
        "backticks": ("`ValueError: x` " * (SIZE // 16))[:SIZE],
        "nested colour codes": "[" * (SIZE // 3) + "0m" * (SIZE // 3),
        "ANSI soup": ("\x1b[0;31m\x1b]8;;x\x1b\\" * (SIZE // 16))[:SIZE],
        "fences": ("```py\n" * (SIZE // 6))[:SIZE],
        "quotes": ("> > > " * (SIZE // 6))[:SIZE],
        "version words": ("version: 1.0 " * (SIZE // 13))[:SIZE],
        "random bytes 1": _random_text(1),
        "random bytes 2": _random_text(2),
    }


def _time(func: Callable[[str], object], text: str, runs: int) -> list[float]:
    """Return the wall times of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func(text)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    """Print the timings."""
    typical = _time(extract, TYPICAL, 2000)
    print(f"typical traceback ({len(TYPICAL)} chars): median {statistics.median(typical):.3f} ms")
    print(f"{'adversarial paste':>22}  extract median / max   clean_paste median / max  (ms, {RUNS} runs)")
    worst_name, worst = "", 0.0
    for name, text in adversarial().items():
        extract_ms = _time(extract, text, RUNS)
        clean_ms = _time(clean_paste, text, RUNS)
        print(
            f"{name:>22}  {statistics.median(extract_ms):6.2f} / {max(extract_ms):6.2f}"
            f"          {statistics.median(clean_ms):6.2f} / {max(clean_ms):6.2f}"
        )
        if statistics.median(extract_ms) > worst:
            worst_name, worst = name, statistics.median(extract_ms)
    print(f"worst median: {worst_name} {worst:.2f} ms")


if __name__ == "__main__":
    main()
