"""Build the "errors raised for real" evaluation set: tracebacks of transformers raising them.

    python -m benchmarks.raised                       # both versions
    python -m benchmarks.raised --versions 5.24.0     # only some
    python -m benchmarks.raised --only generate-max-new-tokens-zero --out-dir /tmp/raised

For each transformers version, a throw-away virtual environment (``.venv-raised/<version>``, which
ignores itself in git) gets a CPU build of torch, that transformers and the few small dependencies
the scenarios need; ``benchmarks/raised/scenarios.py`` then runs in it offline
(``HF_HUB_OFFLINE=1``), builds tiny models, tokenizers and configurations locally and triggers each
scenario the way a user would. The tracebacks are written to ``tests/data/raised/transformers-<version>.jsonl``,
one JSON object a line, sorted by id.

Every recorded raise site is checked against the installed source (the line is a ``raise`` or
inside a raise statement spanning a few lines) and compared with the shipped record set
``records/data/transformers-<version>.jsonl.gz`` (same file, line within 3).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = Path(__file__).resolve().with_name("scenarios.py")
VERSIONS = ("5.24.0", "4.57.6")
# The CPU wheel of torch lies on this machine's disk: never ask for an unpinned torch (that would
# download a multi-GB CUDA build).
TORCH = "torch==2.13.0"
# accelerate is what TrainingArguments and Trainer need; the dependencies whose code shows in the
# tracebacks are pinned to the versions the data was recorded with, so that a rerun gives the same bytes.
PINS = {
    "5.24.0": ("accelerate==1.15.0", "huggingface_hub==2.4.0", "tokenizers==0.23.3", "safetensors==0.8.0"),
    "4.57.6": ("accelerate==1.15.0", "huggingface_hub==0.36.2", "tokenizers==0.22.2", "safetensors==0.8.0"),
}
COMMON = ("numpy==2.4.6", "Jinja2==3.1.6")
NEAR = 3


def requirements(version: str) -> list[str]:
    return [TORCH, f"transformers=={version}", *PINS.get(version, ("accelerate",)), *COMMON]


def ensure_venv(root: Path, version: str) -> Path:
    """The venv for one version, created and installed unless an earlier run left it complete."""
    venv = root / version
    python = venv / "bin" / "python"
    marker = venv / ".installed"
    wanted = "\n".join(requirements(version))
    if python.exists() and marker.exists() and marker.read_text() == wanted:
        return python
    root.mkdir(parents=True, exist_ok=True)
    (root / ".gitignore").write_text("*\n")
    print(f"== creating {venv} ({', '.join(requirements(version))})", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *requirements(version)],
        capture_output=True,
        text=True,
        check=False,
    )
    # This machine's pip configuration names local indexes that lack some packages: pip says so
    # once per package, which is noise.
    noise = "is ignored: it is neither a file nor a directory"
    sys.stderr.write("".join(line for line in done.stderr.splitlines(keepends=True) if noise not in line))
    if done.returncode != 0:
        raise SystemExit(f"pip install failed for transformers {version}")
    marker.write_text(wanted)
    return python


def run_scenarios(python: Path, out: Path, only: list[str] | None) -> dict[str, Any]:
    env = dict(os.environ)
    env.update(
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_DATASETS_OFFLINE="1",
        HF_HUB_DISABLE_TELEMETRY="1",
        TOKENIZERS_PARALLELISM="false",
        PYTHONHASHSEED="0",
        CUDA_VISIBLE_DEVICES="",
        OMP_NUM_THREADS="1",
        TRANSFORMERS_VERBOSITY="error",
    )
    with tempfile.TemporaryDirectory(prefix="raised-home-") as home:
        # A fresh, empty Hugging Face cache: nothing can be found there, nothing is downloaded.
        env["HF_HOME"] = home
        cmd = [str(python), str(SCENARIOS), "--out", str(out)]
        if only:
            cmd += ["--only", *only]
        done = subprocess.run(
            cmd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=home, check=False
        )
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"scenarios.py failed with exit status {done.returncode}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def is_raise_site(source: list[str], line: int) -> bool:
    """True when line (1-based) is a raise (or assert) statement or inside one spanning a few lines."""
    if not 1 <= line <= len(source):
        return False
    for start in range(line, max(0, line - 12), -1):
        text = source[start - 1].strip()
        if text.startswith(("raise", "assert")):
            return start == line or _statement_spans(source, start, line)
        if start != line and (text.endswith(":") or not text):
            return False
    return False


def _statement_spans(source: list[str], start: int, line: int) -> bool:
    """Whether the statement starting at start runs (by open brackets) at least to line."""
    depth = 0
    for number in range(start, line):
        for char in source[number - 1].split("#", 1)[0]:
            depth += char in "([{"
            depth -= char in ")]}"
        if depth <= 0 and not source[number - 1].rstrip().endswith("\\"):
            return False
    return True


def shipped_sites(version: str) -> dict[str, list[tuple[int, str]]]:
    sites: dict[str, list[tuple[int, str]]] = {}
    path = ROOT / "records" / "data" / f"transformers-{version}.jsonl.gz"
    if not path.exists():
        return sites
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            sites.setdefault(record["filePath"], []).append((record["lineNumber"], record["errorClass"]))
    return sites


def check(version: str, rows: list[dict[str, Any]], package_dir: Path) -> dict[str, Any]:
    """Verify each raise site against the installed source and compare it with the shipped records.

    A case whose last frame is inside transformers but whose line is no raise statement was raised
    implicitly there (a builtin's KeyError, a Rust extension's error): it is set to
    ``raisedByTransformers: false`` like the errors raised outside transformers.
    """
    shipped = shipped_sites(version)
    sources: dict[str, list[str]] = {}
    implicit: list[str] = []
    on_record: list[str] = []
    off_record: list[str] = []
    same_class = 0
    sites: set[tuple[str, int]] = set()
    record_sites: set[tuple[str, int]] = set()
    for row in rows:
        if not row["raisedByTransformers"]:
            continue
        rel = row["filePath"].removeprefix("src/transformers/")
        if rel not in sources:
            sources[rel] = (package_dir / rel).read_text(encoding="utf-8").splitlines()
        if not is_raise_site(sources[rel], row["lineNumber"]):
            row["raisedByTransformers"] = False
            implicit.append(f"{row['scenario']}: {row['errorClass']} at {row['filePath']}:{row['lineNumber']}")
            continue
        site = (row["filePath"], row["lineNumber"])
        sites.add(site)
        near = [(n, cls) for n, cls in shipped.get(row["filePath"], []) if abs(n - row["lineNumber"]) <= NEAR]
        if near:
            on_record.append(row["scenario"])
            record_sites.add(site)
            same_class += any(cls == row["errorClass"] for _, cls in near)
        else:
            off_record.append(f"{row['scenario']}: {row['filePath']}:{row['lineNumber']}")
    ours = sum(row["raisedByTransformers"] for row in rows)
    return {
        "cases": len(rows),
        "raisedByTransformers": ours,
        "implicit": implicit,
        "foreign": len(rows) - ours - len(implicit),
        "distinctSites": len(sites),
        "casesOnShippedRecord": len(on_record),
        "casesOnShippedRecordSameClass": same_class,
        "distinctSitesOnShippedRecord": len(record_sites),
        "casesOffRecord": off_record,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.raised", description=__doc__.splitlines()[0])
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS), help="transformers versions")
    parser.add_argument("--venv-root", type=Path, default=ROOT / ".venv-raised", help="where the venvs live")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "tests" / "data" / "raised", help="output folder")
    parser.add_argument("--only", nargs="+", help="run only these scenarios (for debugging)")
    parser.add_argument("--verbose", action="store_true", help="list the cases off the shipped records")
    args = parser.parse_args(argv)

    args.out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for version in args.versions:
        started = time.monotonic()
        python = ensure_venv(args.venv_root, version)
        installed = time.monotonic()
        out = args.out_dir / f"transformers-{version}.jsonl"
        with tempfile.TemporaryDirectory(prefix="raised-out-") as tmp:
            raw = Path(tmp) / "raw.jsonl"
            summary = run_scenarios(python, raw, args.only)
            rows = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines()]
        rows.sort(key=lambda row: row["id"])
        report = check(version, rows, Path(summary["packageDir"]))
        with out.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        finished = time.monotonic()
        print(f"== transformers {version}: {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
        print(f"   scenarios run: {len(rows) + len(summary['silent'])}, raised: {report['cases']}")
        print(
            f"   raised by a raise statement of transformers: {report['raisedByTransformers']}, "
            f"implicitly inside transformers: {len(report['implicit'])}, outside transformers: {report['foreign']}"
        )
        print(f"   distinct raise sites (checked against the installed source): {report['distinctSites']}")
        print(
            f"   on a shipped record's site (same file, line within {NEAR}): {report['casesOnShippedRecord']} cases "
            f"({report['casesOnShippedRecordSameClass']} with the same class), "
            f"{report['distinctSitesOnShippedRecord']} distinct sites"
        )
        print(f"   time: {installed - started:.0f}s install, {finished - installed:.0f}s scenarios")
        if summary["silent"]:
            print(f"   did not raise ({len(summary['silent'])}): {', '.join(summary['silent'])}")
        if args.verbose:
            for title, items in (
                ("raised implicitly", report["implicit"]),
                ("off the shipped records", report["casesOffRecord"]),
            ):
                print(f"   {title} ({len(items)}):")
                for item in items:
                    print(f"     {item}")
        if report["distinctSites"] < 100 and not args.only:
            print(f"   FEWER THAN 100 distinct raise sites for {version}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
