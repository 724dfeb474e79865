"""Count the instructions of ``redact`` per call with callgrind: a figure a shared, busy machine does not move.

Run: ``python -m benchmarks.instructions [RUNS] [PASTE ...]`` (default 3 runs of each paste of
``benchmarks.bench_redact``; needs valgrind). Wall-clock timings of two versions of the code, taken in turn
on this 2-core VM, differ by up to a fifth on the same code; instruction counts are exact, so they compare
versions (run it in each checkout) where timings cannot.

The pastes are redacted inside ``functools.reduce``, and callgrind counts only there
(``--toggle-collect=functools_reduce``, one dump per paste): start-up, imports and compiling the rules
are left out, as is one warm-up call per paste.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_redact import pastes

_CHILD = "--counted"  # the mode this module runs in under valgrind


def _redact_counted(runs: int, names: list[str]) -> None:
    """Redact each paste ``runs`` times inside one functools.reduce (what callgrind counts)."""
    from records.redact import redact  # noqa: PLC0415  # imported here, so the parent need not compile the rules

    texts = pastes()
    for name in names:
        text = texts[name]
        redact(text)  # the first call compiles what the text needs; it is not counted
        functools.reduce(lambda _, __: redact(text), range(runs), None)


def callgrind_total(dump: Path) -> int:
    """Return the instruction count of one callgrind dump."""
    for line in dump.read_text(encoding="utf-8").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise ValueError(f"{dump}: no summary line in the callgrind dump")


def count(runs: int, names: list[str]) -> dict[str, float]:
    """Return the instructions per call, in millions, of each paste (run under valgrind in a child)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=functools_reduce",
            "--dump-after=functools_reduce", f"--callgrind-out-file={out}",
            sys.executable, "-m", "benchmarks.instructions", _CHILD, str(runs), *names,
        ]  # fmt: skip
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
        # One dump per reduce, callgrind.out.<n> in the order they were written (callgrind.out holds the rest).
        dumps = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        if len(dumps) != len(names):
            raise RuntimeError(f"expected {len(names)} callgrind dumps, found {len(dumps)}")
        return {name: callgrind_total(dump) / runs / 1e6 for name, dump in zip(names, dumps, strict=True)}


def main(argv: list[str]) -> int:
    """Print the instructions per call of each paste; return 2 when valgrind is missing."""
    if argv[:1] == [_CHILD]:
        _redact_counted(int(argv[1]), argv[2:])
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    runs = int(argv[0]) if argv and argv[0].isdigit() else 3
    names = [a for a in argv if not a.isdigit()] or list(pastes())
    unknown = sorted(set(names) - set(pastes()))
    if unknown:
        print(f"unknown pastes: {', '.join(unknown)} (known: {', '.join(pastes())})", file=sys.stderr)
        return 2
    print(f"redact, callgrind instructions per call ({runs} calls of each paste, after one warm-up)")
    for name, millions in count(runs, names).items():
        print(f"{name:<18}{millions:>9.2f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
