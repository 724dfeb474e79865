"""One answer per cause: the same check raised in many files folds into one answer.

transformers copies its checks into every model file: 444 files raise "You must specify exactly one
of input_ids or inputs_embeds". A paste with no frame in one of them, and no model class that names
one, cannot tell them apart, and five of them sorted by id say nothing. They fold into one answer,
located at the file that stands best for the others: a shared module over a per-model copy, a
generated file over the ``modular_*.py`` source it is generated from, PyTorch over a TensorFlow or
Flax copy. A frame in one of the files, or a model class the paste names (``GPT2ForSequenceClassification``,
``LlamaConfig``), picks that file instead.

Libraries copy each other's checks too: diffusers and trl carry transformers' ``dynamic_module_utils``
and ``utils/versions.py``. A paste that shows no frame in any of the copies is answered by the library
it names (``transformers>=4.41.2``, ``from diffusers import``, a frame of the library elsewhere), else
by the first of ``LIBRARY_PREFERENCE``, and the others fold into that answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from records.matching.align import squash
from records.matching.evidence import library_of_repo, short_class
from records.matching.template import cause_text, parse_template

# The model class names a paste prints, or a function that reads them when first needed (``fold``).
ModelNames = frozenset[str] | Callable[[], frozenset[str]]
# CamelCase names as pastes print model, config and tokenizer classes; capped, since a paste can be long.
_CLASS_NAME_RE = re.compile(r"\b[A-Z][A-Za-z0-9]{2,80}")
MAX_NAMES = 2_000
_PER_MODEL = "/models/"
# transformers first: the library of the community this bot serves, and where the copies come from.
LIBRARY_PREFERENCE = (
    "transformers", "huggingface_hub", "accelerate", "peft", "datasets", "torch", "tokenizers",
    "safetensors", "trl", "sentence_transformers", "bitsandbytes", "diffusers",
)  # fmt: skip
_ALTERNATION = "|".join(LIBRARY_PREFERENCE)
# A library named as code names it: a module path, a requirement, an import (not "datasets" in prose).
_NAMED_LIBRARY_RE = re.compile(rf"(?<![\w.-])({_ALTERNATION})(?=[./=<>!~])|\b(?:import|from) ({_ALTERNATION})\b")
_SECONDARY_BACKENDS = ("tf_", "flax_")
_BACKEND_MODULES = frozenset({"paddle.py", "flax.py", "tensorflow.py", "mlx.py", "numpy.py"})


@dataclass(frozen=True, slots=True)
class Site:
    """One raise site's answer, with what the folding needs to know about it."""

    index: int  # the answer's position in the matcher's list
    file_path: str | None
    error_class: str | None
    error_message: str
    rank: float
    framed: bool  # a frame of the paste is in this file
    repo: str | None = None
    newest: tuple[tuple[int, int], ...] = ()  # ``version_key`` of the newest release raising it here

    @property
    def cause(self) -> tuple[str | None, str | None, str]:
        """The library, class and literal text: what makes two raise sites the same check.

        The same words raised by two libraries are two causes, each with its own explanation.
        """
        return self.repo, short_class(self.error_class), cause_text(self.error_message)


@lru_cache(maxsize=65_536)
def squashed_literal(message: str) -> str:
    """Return a template's literal text squashed (``records.matching.align.squash``), cached."""
    return squash(parse_template(message).literal)


def named_models(text: str) -> frozenset[str]:
    """Return the class names a paste prints, squashed ('GPT2ForSequenceClassification' -> 'gpt2for...')."""
    names = (match.group(0) for match, _ in zip(_CLASS_NAME_RE.finditer(text), range(MAX_NAMES), strict=False))
    return frozenset(name.lower() for name in names)  # letters and digits only: squashed, they are lower-cased


def model_dir(file_path: str | None) -> str | None:
    """Return the squashed model directory of a per-model file ('models/xlm_roberta/...' -> 'xlmroberta')."""
    if not file_path or _PER_MODEL not in file_path:
        return None
    return squash(file_path.split(_PER_MODEL, 1)[1].split("/", 1)[0]) or None


def is_other_backend(file_path: str | None) -> bool:
    """Tell whether a file is another framework's copy of a PyTorch file.

    Their names say so: ``modeling_tf_bert.py``, ``generation/flax_utils.py``, ``modeling_flax_utils.py``
    (transformers 4.x), and safetensors' ``paddle.py``, ``flax.py``, ``tensorflow.py``, ``mlx.py`` and
    ``numpy.py`` beside its ``torch.py``.
    """
    name = (file_path or "").rpartition("/")[2]
    return name.startswith(_SECONDARY_BACKENDS) or "_tf_" in name or "_flax_" in name or name in _BACKEND_MODULES


def representative_key(
    site: Site, latest: tuple[tuple[int, int], ...] = ()
) -> tuple[bool, bool, bool, bool, int, float, str]:
    """Order sites of one cause: shared, still raised, generated, PyTorch, the more central module, rank, path.

    A module nearer the package root (``trainer.py``) is used by more code than one deeper down
    (``integrations/deepspeed.py``), so a paste without a frame more likely comes from it. A shared
    module that stopped raising the check before ``latest`` (the newest release of the cause) ranks
    after one that still raises it: the check moved (transformers 4.x raised the quantization checks in
    ``modeling_utils.py``, later releases in ``quantizers/``) and the newer file is where it lives now.
    """
    path = site.file_path or ""
    per_model, modular, other_backend, depth = _path_key(path)
    older = not per_model and bool(site.newest) and site.newest < latest
    return per_model, older, modular, other_backend, depth, -site.rank, path


@lru_cache(maxsize=65_536)
def _path_key(path: str) -> tuple[bool, bool, bool, int]:
    """Return what ``representative_key`` reads of a file's path (cached: asked for every copy of a check)."""
    return _PER_MODEL in path, "/modular_" in path, is_other_backend(path), path.count("/")


def named_libraries(text: str) -> frozenset[str]:
    """Return the libraries of ``LIBRARY_PREFERENCE`` a paste names as code does (``diffusers.utils``)."""
    if not any(library in text for library in LIBRARY_PREFERENCE):
        return frozenset()  # a substring search is a fraction of the pattern's, which needs a name to match
    return frozenset(a or b for a, b in _NAMED_LIBRARY_RE.findall(text))


def fold(
    sites: Iterable[Site],
    names: ModelNames,
    libraries: frozenset[str] = frozenset(),
    margin: float | None = None,
) -> list[tuple[Site, tuple[Site, ...]]]:
    """Return one (answer, folded others) per cause, unless frames or named models pick files.

    ``names``: the model class names the paste prints (``named_models``), or a function that reads
    them when a fold first needs them (only copies no frame picks are told apart by them).

    Then the same check of several libraries folds into the answer of the one ``libraries`` (those
    the paste names) holds, else of the first in ``LIBRARY_PREFERENCE``, unless a frame is in one.
    With a ``margin``, only the libraries whose answer ranks within it of the best one are chosen
    among: evidence beyond a tie picks the library (a PyTorch phrase is generic text in the copies
    of other libraries, not in PyTorch's own records).
    """
    return _across_libraries(_per_cause(sites, names if callable(names) else lambda: names), libraries, margin)


def _per_cause(sites: Iterable[Site], names: Callable[[], frozenset[str]]) -> list[tuple[Site, tuple[Site, ...]]]:
    by_cause: dict[tuple[str | None, str | None, str], list[Site]] = {}
    for site in sites:
        by_cause.setdefault(site.cause, []).append(site)
    result: list[tuple[Site, tuple[Site, ...]]] = []
    for members in by_cause.values():
        if len({m.file_path for m in members}) == 1:
            result.extend((m, ()) for m in members)
            continue
        picked = [m for m in members if m.framed] or _named(members, names())
        if picked:
            result.extend((m, ()) for m in picked)
            continue
        latest = max(m.newest for m in members)
        best = min(members, key=lambda m: representative_key(m, latest))
        result.append((best, tuple(m for m in members if m is not best)))
    return result


def _across_libraries(
    folded: list[tuple[Site, tuple[Site, ...]]], libraries: frozenset[str], margin: float | None = None
) -> list[tuple[Site, tuple[Site, ...]]]:
    by_check: dict[tuple[str | None, str], list[tuple[Site, tuple[Site, ...]]]] = {}
    for pair in folded:
        by_check.setdefault(pair[0].cause[1:], []).append(pair)
    result: list[tuple[Site, tuple[Site, ...]]] = []
    for pairs in by_check.values():
        repos = {site.repo for site, _ in pairs}
        if len(repos) == 1 or None in repos or any(site.framed for site, _ in pairs):
            result.extend(pairs)  # one library, a curated record of no repository, or a frame that picks
            continue
        top = max(site.rank for site, _ in pairs)
        close = [pair for pair in pairs if margin is None or top - pair[0].rank < margin]
        best, kept = min(close, key=lambda pair: _library_order(pair[0], libraries))
        others = [*kept, *(site for pair in pairs if pair[0] is not best for site in (pair[0], *pair[1]))]
        result.append((best, tuple(others)))
    return result


def _library_order(
    site: Site, libraries: frozenset[str]
) -> tuple[tuple[bool, int], tuple[bool, bool, bool, bool, int, float, str]]:
    return library_preference(site.repo, libraries), representative_key(site)


def library_preference(repo: str | None, libraries: frozenset[str]) -> tuple[bool, int]:
    """Order answers of one check by library: one in ``libraries`` first, then ``LIBRARY_PREFERENCE``'s order."""
    library = library_of_repo(repo) if repo else None
    order = LIBRARY_PREFERENCE.index(library) if library in LIBRARY_PREFERENCE else len(LIBRARY_PREFERENCE)
    return library not in libraries, order


def _named(members: Sequence[Site], names: frozenset[str]) -> list[Site]:
    """Return the sites in the model directory a named class belongs to (the longest name that fits)."""
    if not names:
        return []
    fits: list[tuple[int, Site]] = []
    for site in members:
        directory = model_dir(site.file_path)
        if directory and any(name.startswith(directory) for name in names):
            fits.append((len(directory), site))
    if not fits:
        return []
    longest = max(size for size, _ in fits)
    chosen = [site for size, site in fits if size == longest]
    return [min(chosen, key=representative_key)]


def fold_reason(others: Sequence[Site], repo: str | None = None) -> str:
    """Say that an answer (of ``repo``) stands for the same check in other files, of other libraries too."""
    files = {o.file_path for o in others if o.file_path}
    where = "model files" if all(_PER_MODEL in f for f in files) else "files"
    reason = f"raised in {len(files) + 1} {where}, the same check; shown at the one that stands for them"
    elsewhere = sorted({library_of_repo(o.repo) or o.repo for o in others if o.repo and o.repo != repo})
    return f"{reason} (also raised by {', '.join(elsewhere)})" if elsewhere else reason
