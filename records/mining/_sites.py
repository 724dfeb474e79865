"""Find the ``raise`` sites of one module and turn those with a literal message into records."""

from __future__ import annotations

import ast
import hashlib
import re
from collections import Counter
from dataclasses import dataclass, field

import re2

from records.mining._context import ModuleContext
from records.mining._explain import Explanation, ModuleIndex, explain_raise
from records.mining._messages import is_literal_message, message_parts
from records.mining._report import SkippedRaise
from records.mining._template import (
    Part,
    has_literal_text,
    literal_words,
    template_pattern,
    template_text,
)
from records.model import CURRENT_SCHEMA_VERSION, MINED, Record

CONTEXT_LINES = 8
SLUG_WORDS = 7
SLUG_MAX_CHARS = 60
MESSAGE_KEYWORDS = ("message", "msg", "detail")
_ERROR_TYPES = {
    "ValueError": "validation",
    "TypeError": "validation",
    "AssertionError": "validation",
    "ImportError": "import",
    "ModuleNotFoundError": "import",
    "OSError": "io",
    "FileNotFoundError": "io",
    "IOError": "io",
    "KeyError": "lookup",
    "IndexError": "lookup",
    "AttributeError": "lookup",
    "NotImplementedError": "unsupported",
    "RuntimeError": "runtime",
}
# File-name prefixes that say what kind of module a file is, in the order they are tried.
_FILE_KIND_TAGS = (
    ("tokenization", "tokenization"),
    ("modeling", "modeling"),
    ("configuration", "configuration"),
    ("image_processing", "image-processing"),
    ("video_processing", "video-processing"),
    ("feature_extraction", "feature-extraction"),
    ("processing", "processing"),
    ("convert", "conversion"),
    ("training_args", "training-args"),
    ("trainer", "trainer"),
    ("pipeline", "pipelines"),
    ("quantizer", "quantization"),
    ("modular", "modular"),
)


@dataclass(frozen=True)
class MineSettings:
    """Where the mined source comes from: the repository, the ref its links pin, the release."""

    repo: str
    ref: str
    library_version: str | None = None


@dataclass(frozen=True)
class SourceFile:
    """One module to mine: its path in the repository, its path for tags, and its text."""

    file_path: str
    tag_path: str
    text: str


@dataclass
class FileOutcome:
    """What mining one file gave."""

    records: list[Record] = field(default_factory=list)
    skipped_raises: list[SkippedRaise] = field(default_factory=list)
    raise_statements: int = 0
    literal_style_raises: int = 0
    literal_style_emitted: int = 0
    explain_skips: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class _Site:
    node: ast.Raise
    error_class: str
    parts: list[Part]


def mine_module(tree: ast.Module, source: SourceFile, settings: MineSettings) -> FileOutcome:
    """Return the records and skips for every ``raise`` in one parsed module."""
    if "raise" not in source.text:  # a keyword: a module without the word has no raise statement
        return FileOutcome()
    context = ModuleContext(tree, source.text)
    index = ModuleIndex(tree, context.parents, context.calls)
    outcome = FileOutcome(raise_statements=len(context.raises))
    occurrences: Counter[tuple[str, str]] = Counter()
    for node in context.raises:
        literal = is_literal_style(node)
        outcome.literal_style_raises += literal
        site = _classify(node, context)
        if isinstance(site, str):
            outcome.skipped_raises.append(SkippedRaise(source.file_path, node.lineno, site))
            continue
        template = template_text(site.parts)
        occurrences[site.error_class, template] += 1
        explanation = explain_raise(
            node, index, error_class=site.error_class, template=template, comment=context.documentation(node)
        )
        outcome.explain_skips.update(explanation.skipped)
        record = _build_record(
            site, context, source, settings, occurrences[site.error_class, template], explanation=explanation
        )
        outcome.records.append(record)
        outcome.literal_style_emitted += literal
    return outcome


def is_literal_style(node: ast.Raise) -> bool:
    """Tell whether a raise is ``raise C(<literal-style message>, ...)`` with ``C`` a class name."""
    call = _constructor_call(node.exc)
    if call is None or not call.args or not _looks_like_class(call.func):
        return False
    return is_literal_message(call.args[0])


def _classify(node: ast.Raise, context: ModuleContext) -> _Site | str:
    """Return the site of a raise worth a record, or the reason it is skipped."""
    call = _constructor_call(node.exc)
    if call is None:
        return _reason_without_call(node.exc)
    error_class = context.class_name(call.func, node)
    if error_class is None:
        return "exception built by a function call"
    argument = _message_argument(call)
    if argument is None:
        return "no message"
    parts = message_parts(argument, lambda name: context.resolve_name(name, node))
    if not has_literal_text(parts):
        return "message built at run time"
    if not _pattern_compiles(parts):
        return "pattern rejected by re2"
    return _Site(node, error_class, parts)


def _reason_without_call(exc: ast.expr | None) -> str:
    """Return why a raise that calls no constructor gives no record."""
    if exc is None:
        return "bare re-raise"
    if isinstance(exc, ast.Name | ast.Attribute):
        return "no message" if _looks_like_class(exc) else "raise of a variable"
    return "exception chosen at run time"


def _constructor_call(exc: ast.expr | None) -> ast.Call | None:
    """Return the constructor call of a raised exception (``.with_traceback(tb)`` looked through)."""
    if not isinstance(exc, ast.Call):
        return None
    func = exc.func
    if isinstance(func, ast.Attribute) and func.attr == "with_traceback" and isinstance(func.value, ast.Call):
        return func.value
    return exc


def _looks_like_class(node: ast.expr) -> bool:
    """Tell whether a name or dotted name ends in a capitalised part (a class, not a variable)."""
    last = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return last[:1].isupper()


def _message_argument(call: ast.Call) -> ast.expr | None:
    """Return the message argument: the first positional one, else a ``message=``-like keyword."""
    if call.args:
        first = call.args[0]
        return None if isinstance(first, ast.Starred) else first
    return next((kw.value for kw in call.keywords if kw.arg in MESSAGE_KEYWORDS), None)


def _pattern_compiles(parts: list[Part]) -> bool:
    """Tell whether the message pattern compiles with google-re2 and the text is valid UTF-8."""
    try:
        template_text(parts).encode("utf-8")
        re2.compile(template_pattern(parts))
    except (UnicodeEncodeError, re2.error):
        return False
    return True


def _build_record(
    site: _Site,
    context: ModuleContext,
    source: SourceFile,
    settings: MineSettings,
    occurrence: int,
    *,
    explanation: Explanation,
) -> Record:
    node = site.node
    template = template_text(site.parts)
    end_line = node.end_lineno or node.lineno
    start = max(1, node.lineno - CONTEXT_LINES)
    end = min(len(context.lines), max(end_line, node.lineno + CONTEXT_LINES))
    function, class_ = context.enclosing(node)
    return Record(
        id=record_id(settings, source.file_path, site.error_class, template, occurrence),
        repo=settings.repo,
        slug=slugify(site.parts, site.error_class),
        error_message=template,
        message_pattern=template_pattern(site.parts),
        error_type=error_type(context.base_names(site.error_class)),
        error_class=site.error_class,
        severity="error",
        file_path=source.file_path,
        line_number=node.lineno,
        source_code=context.source_window(start, end),
        source_code_start=start,
        source_code_end=end,
        github_url=f"https://github.com/{settings.repo}/blob/{settings.ref}/{source.file_path}#L{start}-L{end}",
        documentation=explanation.documentation,
        trigger_scenarios=explanation.trigger_scenarios or context.trigger_scenarios(node),
        solutions=explanation.solutions,
        example_fix=explanation.example_fix,
        generated=generated_fields(explanation),
        tags=path_tags(source.tag_path),
        analyzed_sha=settings.ref,
        schema_version=CURRENT_SCHEMA_VERSION,
        origin=MINED,
        library_version=settings.library_version,
        enclosing_function=function,
        enclosing_class=class_,
    )


def generated_fields(explanation: Explanation) -> list[str]:
    """Return the wire names of the record fields whose text the explainer generated."""
    named = [
        ("documentation", explanation.documentation),
        ("triggerScenarios", explanation.trigger_scenarios),
        ("solutions", explanation.solutions),
        ("exampleFix", explanation.example_fix),
    ]
    return [name for name, value in named if value]


def record_id(settings: MineSettings, file_path: str, error_class: str, template: str, occurrence: int) -> str:
    """Return the deterministic id of a mined site (16 hex characters of a SHA-256)."""
    key = "\x1f".join([settings.repo, settings.ref, file_path, error_class, template, str(occurrence)])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def slugify(parts: list[Part], error_class: str) -> str:
    """Return a readable slug from the first literal words of a message (at most 60 characters)."""
    words = re.findall(r"[a-z0-9]+", literal_words(parts).lower())[:SLUG_WORDS]
    if not words:
        words = re.findall(r"[a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", error_class).lower())
    slug = ""
    for word in words:
        candidate = f"{slug}-{word}" if slug else word
        if len(candidate) > SLUG_MAX_CHARS:
            break
        slug = candidate
    return slug or (words[0][:SLUG_MAX_CHARS] if words else "error")


def error_type(class_chain: list[str]) -> str:
    """Return the error type of a class, given it and its known bases (nearest first)."""
    return next((_ERROR_TYPES[name] for name in class_chain if name in _ERROR_TYPES), "other")


def path_tags(tag_path: str) -> list[str]:
    """Return tags for a module path inside its package (directories, then the kind of file)."""
    *directories, filename = tag_path.split("/")
    stem = filename.removesuffix(".py")
    tags = [d.replace("_", "-") for d in directories if d and not d.startswith(".")]
    tags += [tag for prefix, tag in _FILE_KIND_TAGS if stem.startswith(prefix)][:1]
    return list(dict.fromkeys(tags))
