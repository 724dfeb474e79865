"""How well triage groups: the real-paste set's unmatched errors plus seeded synthetic variants.

Run: ``python -m benchmarks.bench_triage_grouping [VARIANTS] [--seed N] [--all] [--show]``.

The pastes are the labelled real pastes of ``tests/data/real/`` that the shipped records leave
unmatched (``--all``: every one triage keeps, matched or not), and ``VARIANTS`` (default 1,000)
synthetic variants of them: other values, paths and numbers, the user's own frames around the
library's, ``[rankN]:`` prefixes, a wrapper error after it (datasets' ``DatasetGenerationError``,
torchrun's ``ChildFailedError``), or a final line turned into a traceback; then another install
(conda, venv, Colab's dist-packages, Windows, pyenv), other line numbers, and pasted as people do
on Discord (fenced, fenced as Python, quoted with ``>``, inline code, a line of chat before or
after). Each goes through ``observe`` and ``TriageRepository.log`` into a fresh database, as the
bot logs it.

"The same error" is the same label: class, template and file for transformers pastes; library,
class and a hand-labelled message shape for the others (``FOREIGN_SHAPES``). A paste that does not
show the file that raised it (a bare final line of a check copied into several model files) cannot
tell the copies apart, so it may be grouped with any of them (``Paste.accept``, as the evaluation
set's ``accept`` does for matching); the ``strict`` and ``cause`` scorings are printed beside it.
Reported:

- groups formed, and labels (distinct errors);
- over-merges: pastes in a group led by a label they do not accept (and groups holding such
  pastes); a group is led by the label the most of its pastes accept;
- splits: pastes outside the home of every label they accept, a label's home being the group
  with most of the pastes that surely show it (and errors with split pastes).
Targets: both rates at most 2%.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchmarks.evalset import real_cases, shipped_records
from records.extraction import extract
from records.matching import IndexEntry, Matcher, MatchIndex
from records.triage import Observation, PasteOrigin, TriageLimits, observe
from storage.database import Database
from storage.triage import TriageRepository

TARGET = 2.0
LIMITS = TriageLimits(samples_per_group=5, user_daily_pastes=10**9, user_daily_groups=10**9)
NOW = "2026-12-01T12:00:00.000Z"
SITE = "/opt/conda/envs/train/lib/python3.11/site-packages"

# Message shapes of the foreign pastes (errors of other libraries), labelled by hand: one name per
# error, shared by the pastes that show the same error in other words or with other values.
FOREIGN_SHAPES = {
    "rf-001": "no config file", "rf-002": "repo id chars", "rf-003": "repo id form",
    "rf-004": "8-bit other device", "rf-054": "8-bit other device", "rf-005": "8-bit multiple devices",
    "rf-006": "flash dtype", "rf-007": "cannot import name", "rf-032": "cannot import name",
    "rf-033": "cannot import name", "rf-063": "cannot import name", "rf-064": "cannot import name",
    "rf-008": "name not defined", "rf-009": "module has no attribute", "rf-010": "cuda error oom",
    "rf-011": "child failed", "rf-012": "max seq len kv cache", "rf-014": "compute capability below",
    "rf-015": "same device", "rf-016": "same device", "rf-017": "target modules not found",
    "rf-019": "caught in replica", "rf-020": "too many values to unpack", "rf-021": "untagged enum",
    "rf-062": "untagged enum", "rf-022": "bf16 compute capability", "rf-023": "bf16 compute capability",
    "rf-024": "object has no attribute", "rf-044": "object has no attribute", "rf-045": "object has no attribute",
    "rf-056": "object has no attribute", "rf-057": "object has no attribute", "rf-026": "processor not found",
    "rf-029": "architectures not supported", "rf-030": "architectures not supported",
    "rf-031": "architectures not supported", "rf-034": "exllama cpu disk", "rf-035": "exllama cpu disk",
    "rf-036": "exllama cpu disk", "rf-039": "state dict size mismatch", "rf-040": "meta tensor",
    "rf-041": "meta tensor", "rf-042": "unscale fp16", "rf-043": "unscale fp16",
    "rf-046": "unsloth not supported", "rf-047": "unsloth not supported", "rf-049": "sfttrainer arguments",
    "rf-050": "packing dataset", "rf-051": "probability tensor", "rf-052": "probability tensor",
    "rf-053": "probability tensor", "rf-059": "vllm model config", "rf-060": "vllm tokenizer",
    "rf-061": "unexpected keyword", "rf-065": "images tokens", "rf-067": "video tokens",
    "rf-068": "unsloth model not supported",
}  # fmt: skip

_QUOTED = re.compile(r"'([A-Za-z_][\w.-]{1,40})'")
_NUMBER = re.compile(r"(?<![\w.])\d{2,6}(?![\w.])")
_HOME = re.compile(r"/(?:home|Users|root)/[\w.-]+")
NAMES = ["llama", "qwen2", "mistral", "phi3", "gemma", "bert", "t5", "whisper", "clip", "vit", "opt", "bloom"]
ORGS = ["meta-llama", "Qwen", "mistralai", "google", "microsoft", "openai", "TheBloke", "my-org"]
USERS = ["alice", "bob", "carol", "dmitri", "eve", "farah", "gus", "hana", "ivan", "jo"]


@dataclass(frozen=True, slots=True)
class Paste:
    """One paste and the error it shows (its label)."""

    id: str
    text: str
    label: str
    frame: str | None = None  # a library frame (path, function) the error is raised in, when known
    cause: str = ""  # the label with copies of one check in several files as one error
    # The labels this paste may be grouped with: its own when it shows the file that raised it;
    # every file's copy of the check when it does not (a bare final line cannot tell them apart).
    accept: frozenset[str] = frozenset()
    file: str = ""  # the library file that raises it (transformers pastes), '' when unknown


# Python 3 prints these classes as OSError: a paste of either is the same error.
ALIASES = {"EnvironmentError": "OSError", "IOError": "OSError"}


# Pastes whose library field names who imported, not what failed: the error is Python's
# "cannot import name X from 'transformers'" whoever runs the import.
FOREIGN_LIBRARY = {"rf-032": "python"}


def label_of(case: dict[str, Any], *, by_cause: bool = False) -> str | None:
    """Return the ground-truth label of a real paste, or None when it has none.

    ``by_cause``: copies of one check in several files (the same template) are one error, as the
    matcher folds them; otherwise the file is part of the label.
    """
    if "template" in case:
        cls = ALIASES.get(case["errorClass"], case["errorClass"])
        return f"{cls} | {case['template']}" + ("" if by_cause else f" | {case['filePath']}")
    shape = FOREIGN_SHAPES.get(case["id"])
    library = FOREIGN_LIBRARY.get(case["id"], case["library"])
    return f"{library} | {case['errorClass']} | {shape}" if shape else None


def library_frame(case: dict[str, Any]) -> str | None:
    """Return the installed path and function of the line that raises a transformers paste's error."""
    path = case.get("filePath")
    if not path or not path.startswith("src/transformers/") or not case.get("function"):
        return None
    return f'{SITE}/transformers/{path.removeprefix("src/transformers/")}", line 999, in {case["function"]}'


def real_pastes(only_unmatched: bool) -> list[Paste]:
    """Return the labelled real pastes that triage keeps (only those no shipped record answers)."""
    cases = [c for c in real_cases("transformers") + real_cases("foreign") if label_of(c)]
    matcher = (
        Matcher(MatchIndex.build(IndexEntry.from_record(r) for r in shipped_records())) if only_unmatched else None
    )
    kept = []
    for case in cases:
        if matcher is not None and matcher.match(case["text"]).status != "unmatched":
            continue
        if isinstance(observe(case["text"]), Observation):
            label, cause = label_of(case) or "", label_of(case, by_cause=True) or ""
            file = case.get("filePath", "").removeprefix("src/") if "template" in case else ""
            kept.append(Paste(case["id"], case["text"], label, library_frame(case), cause, file=file))
    copies: dict[str, set[str]] = defaultdict(set)
    for paste in kept:
        copies[paste.cause].add(paste.label)
    return [with_accept(paste, copies) for paste in kept]


def with_accept(paste: Paste, copies: dict[str, set[str]]) -> Paste:
    """Return the paste with the labels it may be grouped with (see ``Paste.accept``)."""
    shown = not paste.file or paste.file in shown_files(paste.text)
    accept = frozenset({paste.label} if shown else copies.get(paste.cause, set()) | {paste.label})
    return replace(paste, accept=accept)


def shown_files(text: str) -> set[str]:
    """Return the installed library files the frames of a paste show (``transformers/x/y.py``)."""
    extraction = extract(text)
    frames = [f for e in (*extraction.errors, *extraction.fragments) for f in e.frames]
    return {f.package_path for f in frames if f.library and f.package_path}


def variant(rng: random.Random, paste: Paste, n: int) -> Paste:
    """Return a seeded variant of a paste: other values, frames, prefixes or wrappers, same error."""
    text = _other_values(rng, paste.text)
    extraction = extract(text)
    primary = extraction.primary
    if primary is not None and primary.error_class and not primary.frames and rng.random() < 0.5:
        text = _as_traceback(rng, primary.error_class, primary.message, paste.frame)
    elif "Traceback (most recent call last)" in text and rng.random() < 0.5:
        text = text.replace(
            "Traceback (most recent call last):\n", "Traceback (most recent call last):\n" + _user_frames(rng), 1
        )
    roll = rng.random()
    if roll < 0.15:
        text = _wrapped(rng, text)
    elif roll < 0.3:
        rank = rng.randrange(8)
        text = "\n".join(f"[rank{rank}]: {line}" for line in text.splitlines())
    text = _quoted(rng, _other_install(rng, text))
    shown = not paste.file or paste.file in shown_files(text)
    accept = frozenset({paste.label}) if shown else paste.accept
    return replace(paste, id=f"{paste.id}~v{n}", text=text, accept=accept)


# Where people's libraries are installed: conda, a venv, Colab, a Windows user's Miniconda, pyenv.
INSTALLS = [
    "/opt/conda/envs/train/lib/python3.11/site-packages",
    "/home/{user}/.venv/lib/python3.10/site-packages",
    "/usr/local/lib/python3.10/dist-packages",
    "C:\\Users\\{user}\\miniconda3\\envs\\llm\\Lib\\site-packages",
    "/Users/{user}/.pyenv/versions/3.12.4/lib/python3.12/site-packages",
]
_INSTALL = re.compile(r'(?<=File ")[^"\n]*?[\\/](?:site|dist)-packages(?=[\\/])')
_LINE_NO = re.compile(r'(?<=", line )\d+')
CHAT = ["getting this error:", "any idea what's wrong?", "help pls", "after updating I get", "same here:"]


def _other_install(rng: random.Random, text: str) -> str:
    """Move the paste's libraries to another install, and give its frames other line numbers."""
    root = rng.choice(INSTALLS).format(user=rng.choice(USERS))
    text = _INSTALL.sub(lambda _: root, text)
    if root.startswith("C:"):
        text = re.sub(r'(?<=File ")[^"\n]*', lambda m: m.group().replace("/", "\\"), text)
    return _LINE_NO.sub(lambda _: str(rng.randrange(1, 5000)), text)


def _quoted(rng: random.Random, text: str) -> str:
    """Paste it as people do on Discord: fenced, fenced as Python, quoted, inline, with a line of chat."""
    roll = rng.random()
    if "```" not in text and roll < 0.3:
        text = f"```{rng.choice(['', 'py', 'python', 'text'])}\n{text.strip()}\n```"
    elif roll < 0.4:
        text = "\n".join(f"> {line}" for line in text.splitlines())
    elif roll < 0.5 and "\n" not in text.strip() and "`" not in text:
        text = f"`{text.strip()}`"
    if rng.random() < 0.2:
        text = f"{rng.choice(CHAT)}\n{text}" if rng.random() < 0.5 else f"{text}\n{rng.choice(CHAT)}"
    return text


def _other_values(rng: random.Random, text: str) -> str:
    text = _HOME.sub(lambda _: f"/home/{rng.choice(USERS)}{rng.randrange(100)}", text)
    text = _NUMBER.sub(lambda m: str(rng.randrange(10 ** (len(m.group()) - 1), 10 ** len(m.group()))), text)
    return _QUOTED.sub(lambda m: f"'{_value_like(rng, m.group(1))}'", text)


def _value_like(rng: random.Random, value: str) -> str:
    if "/" in value:
        return f"{rng.choice(ORGS)}/{rng.choice(NAMES)}-{rng.randrange(1, 70)}b"
    if value.islower() and value.replace("_", "").isalpha():
        return rng.choice(NAMES) + rng.choice(["", "_v2", "_moe", "_vl"])
    return value  # class names and code stay: they are part of what the error says


def _user_frames(rng: random.Random) -> str:
    user = rng.choice(USERS)
    frames = []
    for _ in range(rng.randrange(1, 4)):
        name = rng.choice(["train", "main", "infer", "app", "finetune", "run_sft"])
        frames.append(
            f'  File "/home/{user}/project/{name}.py", line {rng.randrange(1, 900)}, in {name}\n    {name}()\n'
        )
    return "".join(frames)


def _as_traceback(rng: random.Random, error_class: str, message: str, frame: str | None) -> str:
    frame = frame and frame.replace(", line 999,", f", line {rng.randrange(1, 5000)},")
    library = f'  File "{frame}\n    raise {error_class}(msg)\n' if frame else ""
    return f"Traceback (most recent call last):\n{_user_frames(rng)}{library}{error_class}: {message}\n"


def _wrapped(rng: random.Random, text: str) -> str:
    if rng.random() < 0.5:
        return (
            f"{text}\n\nThe above exception was the direct cause of the following exception:\n\n"
            f"Traceback (most recent call last):\n{_user_frames(rng)}"
            f'  File "{SITE}/datasets/builder.py", line 1627, in _prepare_split_single\n'
            '    raise DatasetGenerationError("An error occurred while generating the dataset") from e\n'
            "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n"
        )
    host, pid = f"node-{rng.randrange(99)}", rng.randrange(1000, 99999)
    return (
        f"{text}\nTraceback (most recent call last):\n"
        f'  File "{SITE}/torch/distributed/launcher/api.py", line 263, in launch_agent\n'
        "    raise ChildFailedError(\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
        "============================================================\ntrain.py FAILED\n"
        f"Root Cause (first observed failure):\n[0]:\n  time      : 2026-11-15_05:50:46\n  host      : {host}\n"
        f"  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: {pid})\n"
    )


async def group_all(pastes: list[Paste]) -> dict[str, int]:
    """Log every paste into a fresh database as the bot does; return paste id -> group id."""
    groups: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "grouping.db")
        try:
            repo = TriageRepository(db)
            for n, paste in enumerate(pastes):
                found = observe(paste.text)
                if not isinstance(found, Observation):
                    continue
                logged = await repo.log(found, PasteOrigin(channel_id=1, author_id=n, guild_id=1), LIMITS, NOW)
                if logged.group is not None:
                    groups[paste.id] = logged.group.id
        finally:
            await db.close()
    return groups


@dataclass(frozen=True, slots=True)
class Figure:
    """The grouping figure of one set of pastes."""

    pastes: int
    labels: int
    groups: int
    over_merged_pastes: int
    over_merged_groups: int
    split_pastes: int
    split_labels: int

    def lines(self, name: str) -> list[str]:
        """Return the figure as report lines."""
        over = 100 * self.over_merged_pastes / max(1, self.pastes)
        split = 100 * self.split_pastes / max(1, self.pastes)
        return [
            f"{name}: {self.pastes} pastes of {self.labels} errors -> {self.groups} groups",
            f"  over-merges: {over:.2f}% of pastes ({self.over_merged_pastes}) in a group led by another error; "
            f"{self.over_merged_groups} groups hold two errors or more  [target <= {TARGET:.0f}%: "
            f"{'ok' if over <= TARGET else 'MISSED'}]",
            f"  splits:      {split:.2f}% of pastes ({self.split_pastes}) outside their error's largest group; "
            f"{self.split_labels} errors in two groups or more  [target <= {TARGET:.0f}%: "
            f"{'ok' if split <= TARGET else 'MISSED'}]",
        ]


Scoring = str  # "file": a file's copy is its own error where the paste shows it; "strict", "cause"
SCORINGS = {
    "file": "by class, template and file, where the paste shows the file (a bare line: any file's copy)",
    "strict": "by class, template and file even where the paste cannot show it (informational)",
    "cause": "by cause: a check copied into several files is one error (informational)",
}


def _labels(paste: Paste, scoring: Scoring) -> tuple[str, frozenset[str]]:
    """Return a paste's own label and the labels it may be grouped with, under a scoring."""
    if scoring == "cause":
        return paste.cause, frozenset({paste.cause})
    if scoring == "strict":
        return paste.label, frozenset({paste.label})
    return paste.label, paste.accept or frozenset({paste.label})


def figure(pastes: list[Paste], groups: dict[str, int], scoring: Scoring = "file") -> tuple[Figure, list[str]]:
    """Score the grouping against the labels; also return the over-merges and splits, for --show.

    A group is led by the label the most of its pastes accept; a paste that does not accept it is
    over-merged. An error's home is the group holding most of the pastes that show it for sure (its
    own label only); a paste in none of the homes of the labels it accepts is split.
    """
    members: dict[int, list[tuple[str, frozenset[str]]]] = defaultdict(list)
    for paste in pastes:
        if paste.id in groups:
            members[groups[paste.id]].append(_labels(paste, scoring))
    leaders = {group: _leader(found) for group, found in members.items()}
    sure: dict[str, Counter[int]] = defaultdict(Counter)
    anyway: dict[str, Counter[int]] = defaultdict(Counter)
    for group, found in members.items():
        for label, accept in found:
            (sure if accept == {label} else anyway)[label][group] += 1
    homes = {label: (sure.get(label) or spread).most_common(1)[0][0] for label, spread in {**anyway, **sure}.items()}
    notes: list[str] = []
    over_groups: set[int] = set()
    split_labels: Counter[str] = Counter()
    over = split = 0
    for group, found in members.items():
        for label, accept in found:
            if leaders[group] not in accept:
                over += 1
                over_groups.add(group)
            if group not in {homes[a] for a in accept if a in homes}:
                split += 1
                split_labels[label] += 1
    for group in sorted(over_groups):
        notes.append(f"over-merge group {group}: {dict(Counter(label for label, _ in members[group]))}")
    for label in split_labels:
        spread = Counter(g for g, found in members.items() for own, _ in found if own == label)
        notes.append(f"split {label[:120]!r}: {dict(spread)}")
    result = Figure(
        pastes=sum(len(found) for found in members.values()),
        labels=len(homes),
        groups=len(members),
        over_merged_pastes=over,
        over_merged_groups=len(over_groups),
        split_pastes=split,
        split_labels=len(split_labels),
    )
    return result, notes


def _leader(found: list[tuple[str, frozenset[str]]]) -> str:
    """Return the label the most pastes of a group accept (ties: the most pastes' own, then by name)."""
    accepted = Counter(label for _, accept in found for label in accept)
    own = Counter(label for label, _ in found)
    return max(accepted, key=lambda label: (accepted[label], own[label], label))


def main() -> None:
    """Print the grouping figure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="?", type=int, default=1_000, help="synthetic variants (default 1000)")
    parser.add_argument("--seed", type=int, default=13, help="random seed of the variants")
    parser.add_argument("--all", action="store_true", help="every real paste triage keeps, not only unmatched")
    parser.add_argument("--show", action="store_true", help="list the over-merged groups and split errors")
    args = parser.parse_args()
    real = real_pastes(only_unmatched=not args.all)
    rng = random.Random(args.seed)
    synthetic = [variant(rng, rng.choice(real), n) for n in range(args.variants)]
    everything = real + synthetic
    scope = "every kept real paste" if args.all else "real unmatched"
    real_groups, all_groups = asyncio.run(group_all(real)), asyncio.run(group_all(everything))
    notes: list[str] = []
    for scoring, labels in SCORINGS.items():
        print(f"-- labels {labels}")
        real_figure, _ = figure(real, real_groups, scoring)
        all_figure, found = figure(everything, all_groups, scoring)
        notes = notes or found
        print("\n".join(real_figure.lines(f"{scope} (alone)")))
        print("\n".join(all_figure.lines(f"{scope} + {args.variants} synthetic variants (seed {args.seed})")))
    if args.show:
        print("\n".join(notes))


if __name__ == "__main__":
    main()
