"""What a message says the user should do: its imperative sentences, install lines, removed APIs."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from records.mining._template import Placeholder, split_template

MAX_ADVICE = 2
MAX_SENTENCE_CHARS = 260
_IMPERATIVE = re.compile(
    r"^(?:if\s+[^,]{1,120},\s*)?(?:please\s+|you\s+(?:should|can|need\s+to|must|may\s+want\s+to|might\s+want\s+to)"
    r"(?:\s+probably|\s+instead|\s+also)?\s+|make\s+sure|ensure|try|consider|either\s+|instead,?\s+|otherwise,?\s+|"
    r"to\s+fix\s+this,?\s+)?"
    r"(?:use|set|pass|install|upgrade|update|downgrade|specify|provide|call|remove|add|run|make\s+sure|ensure|activate|"
    r"check|select|load|change|define|enable|disable|switch|convert|reinstall|initiali[sz]e|rename|choose|"
    r"do\s+not|don't|avoid|set\s+up|login|log\s+in|launch|reduce|increase|lower|raise)\b",
    re.IGNORECASE,
)
_PIP = re.compile(
    r"`?(pip3?\s+install\s+(?:-[-\w]+\s+)*[\"']?[\w\[\].,<>=!~-]+[\"']?(?:\s+[\w\[\].<>=!~-]+)*?)`?(?=[\s`'\".,)]|$)"
)
_REMOVED = re.compile(
    r"`?(?P<name>[\w.]+\(?\)?)`?[^.]{0,60}?\b(?:was|has\s+been|is|were|have\s+been)\s+removed\s+in\s+"
    r"(?:transformers\s+)?v?(?:ersion\s+)?(?P<version>\d+(?:\.\d+)*)",
    re.IGNORECASE,
)
_IDENTIFIER = re.compile(r"`([^`]+)`|\b([A-Za-z_]\w*(?:\.\w+)+|[a-z]\w*_\w+|[A-Z]\w*[a-z]\w*[A-Z]\w*)\b")


@dataclass(frozen=True)
class MessageFacts:
    """What a message's literal text offers: advice sentences, an install line, a removed API."""

    literal: str
    advice: tuple[str, ...]  # imperative sentences that name an identifier
    vague_advice: tuple[str, ...]  # imperative sentences that name none (quoted only beside the check)
    pip: str | None
    removed: tuple[str, str] | None  # (name, version it was removed in)
    code: str | None  # a line of code the message itself suggests, in backticks
    dynamic_share: float
    outdated: bool = False  # the message says the installed transformers may be too old
    code_steps: tuple[str, ...] = ()  # "by setting `x=True`": the setting the message asks for, as a step
    requires: tuple[str, str] | None = None  # ("torch", "2.8") from "requires `torch>=2.8`"


@functools.lru_cache(maxsize=4096)
def read_message(template: str) -> MessageFacts:
    """Return the facts of a message template (placeholders are run-time values and never quoted)."""
    parts = split_template(template)
    literal = readable_literal(template)
    words = sum(len(p.split()) for p in parts if isinstance(p, str))
    holes = sum(1 for p in parts if isinstance(p, Placeholder))
    dynamic = holes / (holes + words) if holes else 0.0
    pip = _pip_line(literal) if "pip" in literal else None
    removed = _removed(literal) if "removed" in literal else None
    code = _suggested_code(literal) if "`" in literal else None
    advice, vague = _advice(literal), _advice(literal, named=False)
    outdated = bool(_OUTDATED.search(literal)) and pip is None
    steps = _code_steps(literal, advice) if "`" in literal else ()
    requires = _requirement(literal) if pip is None and ">=" in literal else None
    return MessageFacts(
        literal.replace("\ue000", "..."), advice, vague, pip, removed, code, dynamic, outdated, steps, requires
    )


# ``name=value`` in backticks right after a verb that asks for it ("by setting", "please pass", "requires").
_ASKED_SETTING = re.compile(
    r"(?P<verb>\bset(?:ting)?|\bpass(?:ing)?|\buse|\busing|\brequires?|\bonly\s+supports?|\bneeds?)"
    r"\s+(?:the\s+(?:argument|parameter|flag|option)\s+)?`(?P<code>[A-Za-z_][\w.]*\s*=\s*[^`=\s][^`\n]{0,60})`"
)
_NEGATION = re.compile(r"\b(?:not|cannot|can't|don't|doesn't|never|no|without|got|passed|found)\b", re.IGNORECASE)
_VERB_STEP = {"pass": "Pass", "passing": "Pass", "use": "Use", "using": "Use"}


def _code_steps(literal: str, advice: tuple[str, ...]) -> tuple[str, ...]:
    """Return the settings a message asks for (``by setting `config.add_cross_attention=True```) as steps.

    A setting after a negation in the same clause ("you cannot pass `x=True`") is the fault, not the
    fix, and is skipped; so is one already quoted in the message's own advice.
    """
    found: list[str] = []
    for sentence in sentences(literal):
        for match in _ASKED_SETTING.finditer(sentence):
            code = match.group("code").strip()
            before = re.split(r"[,;:]|\bbut\b|\bor\b", sentence[: match.start()])[-1]
            if "\ue000" in code or _NEGATION.search(before) or "==" in code or code.count("(") != code.count(")"):
                continue
            if any(code in line for line in advice) or code.startswith(("pip", "http")):
                continue
            step = f"{_VERB_STEP.get(match.group('verb').lower(), 'Set')} `{code}`, as the message says."
            if step not in found:
                found.append(step)
    return tuple(found[:MAX_ADVICE])


_KNOWN_PACKAGES = frozenset({
    "torch", "accelerate", "transformers", "safetensors", "tokenizers", "datasets", "huggingface_hub", "numpy",
    "bitsandbytes", "peft", "deepspeed", "optimum", "torchvision", "torchaudio", "flash_attn", "kernels", "torchao",
    "timm", "sentencepiece", "protobuf", "librosa", "av", "decord", "pillow", "scipy", "jinja2", "triton",
})  # fmt: skip
_REQUIRES_VERSION = re.compile(r"`?\b(?P<package>[A-Za-z][\w-]*)\s*>=\s*v?(?P<version>\d+(?:\.\d+)*)`?")


def _requirement(literal: str) -> tuple[str, str] | None:
    """Return the package and minimum version a message names (``requires `torch>=2.8```), if known."""
    for match in _REQUIRES_VERSION.finditer(literal):
        package = match.group("package").lower().replace("-", "_")
        if package in _KNOWN_PACKAGES and "\ue000" not in match.group(0):
            return match.group("package"), match.group("version")
    return None


_OUTDATED = re.compile(
    r"(?:version\s+of\s+transformers\s+is\s+(?:out\s+of\s+date|outdated|too\s+old)|"
    r"(?:upgrade|update)\s+(?:your\s+)?transformers\b|newer\s+version\s+of\s+transformers)",
    re.IGNORECASE,
)


_SIMPLE_EXPR = re.compile(r"^[A-Za-z_][\w.]*(?:\[-?\d+\])?$")


def readable_literal(template: str) -> str:
    """Return a template's text with each simple placeholder named in backticks (``{x.y}`` -> `` `x.y` ``).

    A placeholder that is not a plain name (a call, a comprehension) becomes a private marker, so no
    sentence holding it is quoted.
    """
    pieces = []
    for part in split_template(template):
        if isinstance(part, str):
            pieces.append(part)
        else:
            expr = part.expr.strip()
            simple = _SIMPLE_EXPR.match(expr) and len(expr) <= 40 and not expr.startswith("self.__")
            pieces.append(f"`{expr.removeprefix('self.')}`" if simple else "\ue000")
    return re.sub(r"(['\"])(`[^`]+`)\1", r"\2", "".join(pieces))  # '{path}' -> `path`, not '`path`'


def sentences(text: str) -> list[str]:
    """Split text into sentences (at ``. ``, ``! ``, ``? ``, new lines and ``; ``)."""
    pieces = re.split(
        r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?;])\s+|\n+|,\s+(?=(?:please|you\s+(?:should|can|need|must))\b)", text
    )
    return [p.strip() for p in pieces if p.strip()]


def _advice(literal: str, named: bool = True) -> tuple[str, ...]:
    found: list[str] = []
    for sentence in sentences(literal):
        if "\ue000" in sentence or len(sentence) > MAX_SENTENCE_CHARS:
            continue  # a run-time value inside: the sentence cannot be quoted as it will read
        if not _IMPERATIVE.match(sentence):
            continue
        if bool(identifiers(sentence)) != named:
            continue  # advice that names nothing ("Please check your inputs.") is only quoted beside the check
        text = sentence[0].upper() + sentence[1:]
        found.append(text if text.endswith((".", "!", "?", ")", "`")) else text + ".")
    return tuple(found[:MAX_ADVICE])


_REQUIREMENT = re.compile(
    r"^(?:expected\s+)?(?P<subject>`[^`]+`|[A-Za-z_][\w.]*(?:\(\))?)\s+"
    r"(?:must|should|has\s+to|have\s+to|needs\s+to|need\s+to|is\s+expected\s+to|to)\s+(?P<rest>[^\ue000]+)$",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r",?\s+(?:but|got|instead|while|whereas|received|found)\b|\s*\((?:got|but|found)\b|[:;]")


def requirement_advice(template: str, names: frozenset[str]) -> str | None:
    """Turn the message's own requirement ("`x` must be positive, but got ...") into a step.

    The subject must be an identifier: in backticks, dotted, snake_case or CamelCase, or a plain word
    that is one of ``names`` (the guard's and the signature's names).
    """
    literal = readable_literal(template)
    for sentence in sentences(literal):
        clause = _CLAUSE_END.split(sentence, maxsplit=1)[0].strip().rstrip(".")
        match = _REQUIREMENT.match(clause)
        if match is None or "\ue000" in clause or len(clause) > 200:
            continue
        subject = match.group("subject")
        bare = subject.strip("`")
        if bare.lower() in _COMMON_WORDS or len(bare) < 2:
            continue
        if not (subject.startswith("`") or identifiers(bare) or bare in names):
            continue
        rest = _conjugate(match.group("rest").strip())
        if rest is None:
            continue
        shown = subject if subject.startswith("`") else f"`{bare}`"
        return f"Make sure {shown} {rest}."
    return None


def _conjugate(rest: str) -> str | None:
    first, _, tail = rest.partition(" ")
    lower = first.lower()
    if lower == "be":
        return f"is {tail}".strip()
    if lower == "not":
        second, _, after = tail.partition(" ")
        return f"is not {after}".strip() if second == "be" else f"does not {tail}".strip()
    if lower == "have":
        return f"has {tail}".strip()
    if not lower.isalpha() or len(lower) < 3:
        return None
    verb = lower + ("es" if lower.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{verb} {tail}".strip()


_COMMON_WORDS = frozenset({"none", "true", "false", "self", "e.g", "i.e", "etc", "pip", "install"})


def identifiers(text: str) -> list[str]:
    """Return the identifiers a text names: backticked spans, dotted names, snake_case and CamelCase words.

    ``None``, ``self``, ``e.g.`` and the like name nothing and are left out.
    """
    found = [a or b for a, b in _IDENTIFIER.findall(text)]
    return [name for name in found if name.strip().lower().rstrip(".") not in _COMMON_WORDS and len(name.strip()) > 1]


_CODE_SPAN = re.compile(r"`([^`\n]{6,160})`")
_CODE_SHAPE = re.compile(r"^[A-Za-z_][\w.]*(?:\s*=\s*\S.*|\(.*\))$")


def _suggested_code(literal: str) -> str | None:
    """Return the code the message suggests (``tokenizer.pad_token = tokenizer.eos_token``), if any."""
    for sentence in sentences(literal):
        if not _IMPERATIVE.match(sentence) and not re.search(
            r"\b(e\.g\.|for example|example:|such as|via|with|use|using)", sentence
        ):
            continue
        for span in _CODE_SPAN.findall(sentence):
            code = span.strip().strip("()") if span.strip().startswith("(") else span.strip()
            code = re.sub(r"\s+e\.g\.?$", "", code)
            if "\ue000" in code or not _CODE_SHAPE.match(code) or code.startswith(("pip ", "http")):
                continue
            if "==" in code or code.count("(") != code.count(")"):
                continue
            return f"# as the message suggests\n{code}"
    return None


def _pip_line(literal: str) -> str | None:
    for match in _PIP.finditer(literal):
        line = match.group(1).strip().strip("`'\"").rstrip(".,")
        if "\ue000" not in line and len(line.split()) >= 3:
            return re.sub(r"\s+", " ", line)
    return None


def _removed(literal: str) -> tuple[str, str] | None:
    match = _REMOVED.search(literal)
    if match is None or "\ue000" in match.group(0):
        return None
    return match.group("name"), match.group("version")
