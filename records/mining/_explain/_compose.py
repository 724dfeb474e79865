"""Write what a raise means, when it happens, how to fix it and an example fix, from its facts.

Every sentence is built from the guard (read by :mod:`._conditions`), the names in it, the function
and class around the raise, their docstrings and the message. A shape the generator cannot read
gives no text for that field; the reason is kept in :attr:`Explanation.skipped`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from records.mining._explain._conditions import (
    All,
    Any,
    Atom,
    Cond,
    atom_fields,
    atoms,
    is_flag,
    negate,
    read_condition,
    say,
    say_atom,
    variant,
)
from records.mining._explain._except import explain_except
from records.mining._explain._facts import SiteFacts, display
from records.mining._explain._internal import guard_names, internal_step, traced_step
from records.mining._explain._message import MessageFacts, identifiers, read_message, requirement_advice
from records.mining._explain._values import (
    convert_example,
    multiple_example,
    range_example,
    relation_example,
    token_id_example,
)

MAX_CONDITION_WORDS = 320
MAX_SOLUTIONS = 5
MAX_TYPED = 3
MAX_PARAM_DOCS = 3
_PIP_NAMES = {
    "sklearn": "scikit-learn", "vision": "Pillow", "pil": "Pillow", "cv2": "opencv-python", "bs4": "beautifulsoup4",
    "flash_attn": "flash-attn", "yaml": "pyyaml", "speech": "torchaudio", "tf": "tensorflow", "g2p_en": "g2p-en",
    "torchvision": "torchvision", "torchaudio": "torchaudio", "pytesseract": "pytesseract",
    "flash_attn_3": "flash-attn-3", "kernels": "kernels", "mistral_common": "mistral-common", "torchao": "torchao",
    "auto_round": "auto-round", "compressed_tensors": "compressed-tensors", "optimum_quanto": "optimum-quanto",
    "gptqmodel": "gptqmodel", "quanto": "optimum-quanto", "peft": "peft", "openvino": "openvino",
    "huggingface_hub": "huggingface-hub", "torchcodec": "torchcodec", "flash_attn_2": "flash-attn", "hqq": "hqq",
    "fbgemm_gpu": "fbgemm-gpu", "num2words": "num2words",
}  # fmt: skip
# Single-word ``is_<x>_available`` checks that are about hardware or a feature, not a package to install.
_NOT_PACKAGES = frozenset({
    "cuda", "mps", "xpu", "npu", "tpu", "hpu", "mlu", "musa", "sdpa", "offline", "fp8", "tf32", "bf16", "fp16",
    "gpu", "cpu", "sagemaker", "training", "remote", "kenlm", "torchdynamo", "ninja", "apex",
})  # fmt: skip
_INVERSE_WORDS = {"<": "older than", "<=": "at most", ">": "newer than", ">=": "at least", "==": "exactly", "!=": "not"}
_PLACEHOLDER = re.compile(r"\{[^{}\s]+\}")


@dataclass
class Explanation:
    """Generated text for one record's fields; an absent field is None (or empty), never a guess."""

    documentation: str | None = None
    trigger_scenarios: str | None = None
    solutions: list[str] = field(default_factory=list)
    example_fix: str | None = None
    skipped: list[str] = field(default_factory=list)


def explain(facts: SiteFacts) -> Explanation:
    """Return the explanation of one raise site."""
    message = read_message(facts.template)
    out = Explanation()
    violation, context, reason = _violation(facts)
    handled = explain_except(facts, facts.handler, _where(facts), _via(facts), _package) if facts.handler else None
    if reason and not (violation is None and handled is not None):
        out.skipped.append(reason)
    if violation is not None:
        out.documentation = _meaning(facts, violation)
        out.trigger_scenarios = _when(facts, violation, context)
    elif facts.unconditional:
        out.documentation, out.trigger_scenarios = _always(facts)
    typed = _typed_solutions(facts, violation) if violation is not None else []
    if violation is None and handled is not None:
        out.documentation, out.trigger_scenarios, typed = handled.meaning, handled.when, handled.steps
    if facts.unconditional and facts.error_class == "NotImplementedError" and facts.function is not None:
        owner = f" in your subclass of `{facts.class_name}`" if facts.class_name else ""
        typed.append(f"Use a class that implements `{facts.function.name}()`, or implement it{owner}.")
    elif facts.unconditional and facts.function is not None and not facts.function.name.startswith("_"):
        # A public method whose whole body is a raise: the class switches off what its parent offers.
        owner = f"{facts.class_name}." if facts.class_name else ""
        typed.append(f"Do not call `{owner}{facts.function.name}()`: it always raises `{facts.error_class}` here.")
    names = frozenset(
        [*facts.params, *facts.init_fields, *(a.subject for a in atoms(violation))] if violation else facts.params
    )
    requirement = requirement_advice(facts.template, names)
    advice = [*_message_solutions(message, typed), *([requirement] if requirement else [])]
    checked = _checked_names(facts, violation)
    if checked and not typed:
        advice += [f"{sentence.rstrip('.')} (the check is on {checked})." for sentence in message.vague_advice]
    computed = _computed_solution(facts, violation) if violation is not None and not typed else []
    out.solutions = _dedupe([*typed[:MAX_TYPED], *advice, *computed])[:MAX_SOLUTIONS]
    if not out.solutions and violation is not None:
        out.solutions = _internal_solution(facts)
    out.example_fix = _example(facts, violation, message) or (handled.example if handled else None)
    if out.example_fix and out.example_fix.startswith("pip "):
        out.solutions, out.example_fix = _point_to_install(out.solutions, out.example_fix)
        out.solutions = _dedupe(out.solutions)
    if out.documentation is not None:
        out.documentation = _with_docs(out.documentation, facts, violation)
    return out


# --- the condition under which the error is raised ---------------------------------------------


def _violation(facts: SiteFacts) -> tuple[Cond | None, Cond | None, str | None]:
    """Return the innermost guard (as when-raised), the outer guards, and why nothing was read."""
    if not facts.guards:
        if facts.in_except is not None:
            return None, None, "raise in an except block with no condition"
        return None, None, None if facts.unconditional else "no guard"
    read: list[Cond] = []
    for guard in facts.guards:
        cond = read_condition(guard.test, _namer(facts), facts.constants.get)
        if cond is None:
            if not read:
                return None, None, "condition with side effects"
            break
        read.append(cond if guard.holds else negate(cond))
    merged = _merge_elif_chain(read)
    inner, outer = merged[0], merged[1:]
    if len(say(inner)) > MAX_CONDITION_WORDS:
        return None, None, "condition too long to say"
    if "{" in say(inner):
        return None, None, "condition holds an f-string or a literal dict"
    context = All(tuple(outer)) if len(outer) > 1 else outer[0] if outer else None
    if context is not None and len(say(context)) > MAX_CONDITION_WORDS:
        context = None
    return inner, context, None


def _merge_elif_chain(conds: list[Cond]) -> list[Cond]:
    """Fold ``if x == a ... elif x == b ... else: raise`` into one ``x is not one of a, b`` atom."""
    values: list[str] = []
    subject = None
    for cond in conds:
        if not (isinstance(cond, Atom) and cond.kind == "compare" and cond.op == "!=" and cond.constant is not None):
            break
        if subject not in (None, cond.subject):
            break
        subject = cond.subject
        values.append(cond.other)
    if subject is None or len(values) < 2:
        return conds
    member = Atom("member", subject, negated=True, values=tuple(reversed(values)))
    return [member, *conds[len(values) :]]


def _namer(facts: SiteFacts) -> Callable[[ast.expr], str]:
    role = _variable(facts.class_name) if facts.class_name else None
    known_role = role in {"tokenizer", "processor", "config", "trainer", "args", "pipe"}

    def name(node: ast.expr) -> str:
        text = ast.unparse(node)
        if isinstance(node, ast.Name) and text in facts.aliases:
            return facts.aliases[text]  # ``x = kwargs.get("x")``: the check is on the argument ``x``
        head, _, rest = text.partition(".")
        if head == "self" and rest in facts.config_attributes:
            return facts.config_attributes[rest]  # ``self.x = config.x`` in ``__init__``: the user sets ``config.x``
        if head == "self" and rest in facts.init_fields:
            return rest
        if (
            head == "self"
            and rest
            and not rest.startswith("_")
            and (known_role or (role == "model" and rest.startswith("config.")))
        ):
            return f"{role}.{rest}"  # ``self.config.pad_token_id`` in a model is ``model.config.pad_token_id``
        if text.startswith("self.config."):
            return text.removeprefix("self.")
        return text if len(text) <= 80 else text[:77] + "..."

    return name


# --- what it means and when it happens ----------------------------------------------------------


def _where(facts: SiteFacts) -> str:
    if facts.entry is not None:
        return f"`{facts.entry.display}`"
    if facts.function is not None:
        owner = f"{facts.class_name}." if facts.class_name else ""
        return f"`{owner}{facts.function.name}()`"
    return "This module"


def _meaning(facts: SiteFacts, v: Cond) -> str:
    """Return the what-it-means sentence for the shape of the condition."""
    where = _where(facts)
    given = [a for a in _top(v) if a.kind == "none" and a.negated]
    missing = [a for a in _top(v) if a.kind == "none" and not a.negated]
    if isinstance(v, All) and len(given) >= 2:
        return f"{where} accepts only one of {_names(given, 'and')}; here both were given."
    groups = _exclusive_groups(v)
    if groups is not None:
        return f"{where} accepts {_say_groups(groups)}, not both; here both were given."
    if isinstance(v, All) and len(missing) >= 2 and len(missing) == len(v.parts):
        return f"{where} needs at least one of {_names(missing, 'or')}; here none was given."
    if isinstance(v, Atom):
        sentence = _atom_meaning(where, v, facts)
        if sentence:
            return sentence
    return f"{where} requires that {say(negate(v))}; otherwise it raises `{facts.error_class}`."


_MEANING = {
    "none+": "{where} needs {s}, but it is None.",
    "none-": "{where} does not accept {s} here: it must be left unset (None).",
    "flag-": "{where} works only with {s} enabled; here it is False.",
    "flag+": "{where} does not work with {s} enabled; here it is True.",
    "member-": "{where} accepts only these values for {s}: {values}.",
    "member+": "{where} does not accept {s} = {values_or}.",
    "compare_ne_const": "{where} supports only {s} = {other}.",
    "compare_eq_const": "{where} does not support {s} = {other}.",
    "compare_const": "{where} refuses {s} {op} {other}: it must be {inverse} {other}.",
    "compare_var": "{where} requires {s} {inverse} {other}.",
    "exactly_one+": "{where} needs exactly one of {s} and {other}: one of them, not both and not neither.",
    "multiple-": "{where} needs {s} to be a multiple of {other}.",
    "instance-": "{where} expects {s} to be a {types}.",
    "available-": "{where} needs the `{package}` package{minimum}, which is not installed.",
    "version": "{where} needs `{subject}` {inverse_vwords} {version}; the installed one is not.",
}


def _atom_meaning(where: str, a: Atom, facts: SiteFacts) -> str | None:
    key = variant(a)
    if key == "available-" and not _installable(a.subject):
        return None
    template = _MEANING.get(key)
    return template.format(where=where, package=_pip_name(a.subject), **atom_fields(a)) if template else None


def _via(facts: SiteFacts) -> str:
    if facts.entry is not None and facts.entry.via:
        return " (through " + ", ".join(f"`{h}`" for h in facts.entry.via) + ")"
    return ""


def _when(facts: SiteFacts, v: Cond, context: Cond | None) -> str:
    where = _where(facts)
    text = f"When you call {where}{_via(facts)} and {say(v)}."
    if context is not None:
        text = text[:-1] + f", in the branch where {say(context)}."
    params = _parameters(facts, v)
    if params:
        text += " Parameters involved: " + ", ".join(f"`{p}`" for p in params) + "."
    return text


def _always(facts: SiteFacts) -> tuple[str | None, str | None]:
    function = facts.function
    if function is None:
        return None, None
    name = f"{facts.class_name}.{function.name}()" if facts.class_name else f"{function.name}()"
    if facts.error_class == "NotImplementedError":
        owner = f" in `{facts.class_name}`" if facts.class_name else ""
        meaning = f"`{name}` is not implemented{owner}: calling it always raises `NotImplementedError`."
    else:
        meaning = f"`{name}` cannot be used in this version: its body only raises `{facts.error_class}`."
    return meaning, f"On every call to `{name}`: the raise is the first statement of the function."


def _parameters(facts: SiteFacts, v: Cond) -> list[str]:
    """Return the arguments and config fields a condition reads, in order."""
    found: list[str] = []
    for name in (n for atom in atoms(v) for n in (atom.subject, atom.other if atom.kind == "exactly_one" else "")):
        known = name in facts.params or name in facts.init_fields or name.startswith(("config.", "generation_config."))
        if known and name not in found:
            found.append(name)
    return found


def _with_docs(text: str, facts: SiteFacts, v: Cond | None) -> str:
    """Add the comment that explains the check (if one does) and the parameters' own documentation."""
    if facts.comment and v is not None and _explains(facts.comment, v):
        text += f" The source says: “{facts.comment.rstrip('.')}.”"
    lines = []
    for name in (_parameters(facts, v) if v is not None else [])[:MAX_PARAM_DOCS]:
        doc = facts.param_docs.get(name.rsplit(".", 1)[-1])
        if doc and not re.search(r"\{[A-Za-z_]", doc):
            lines.append(f"`{name}`: {doc}")
    return "\n\n".join([text, *lines])


_RESTATING = re.compile(
    r"^(test|check|checks|checking|verify|make sure|ensure|raise|error|todo|fixme|note|we cannot)\b", re.I
)


def _explains(comment: str, v: Cond) -> bool:
    """Tell whether a comment explains the check: it names something the condition tests, and says why."""
    if _RESTATING.match(comment) or len(comment.split()) < 6:
        return False
    words = {w.lower() for w in re.findall(r"[A-Za-z0-9]+", comment)}
    parts = (p.lower() for atom in atoms(v) for p in re.findall(r"[A-Za-z0-9]+", atom.subject))
    tested = {p for p in parts if len(p) > 3 and p not in {"self", "config", "none", "true", "false"}}
    return bool(words & tested) and bool(
        re.search(r"\b(because|since|so that|otherwise|as |would|cannot|can't|needs?|requires?|only)\b", comment)
    )


# --- solutions ------------------------------------------------------------------------------------


def _top(v: Cond) -> list[Atom]:
    parts = v.parts if isinstance(v, All | Any) else (v,)
    return [p for p in parts if isinstance(p, Atom)]


def _exclusive_groups(v: Cond) -> list[list[str]] | None:
    """Read ``(a is not None or b is not None) and c is not None``: groups of arguments given together.

    Each part of the ``and`` is one argument given, or an ``or`` of several (any of them given); the
    error is that two groups were given at once. None when the condition has another shape.
    """
    if not isinstance(v, All) or len(v.parts) != 2:
        return None
    groups: list[list[str]] = []
    for part in v.parts:
        members = list(part.parts) if isinstance(part, Any) else [part]
        if not all(isinstance(m, Atom) and m.kind == "none" and m.negated for m in members):
            return None
        groups.append([m.subject for m in members if isinstance(m, Atom)])
    if all(len(g) == 1 for g in groups):
        return None  # ``a is not None and b is not None``: said by the plain "only one of" sentence
    if any("." in name for group in groups for name in group):
        return None  # ``self.optimizer``: an attribute set from an argument of another name, not one to pass
    return groups


def _say_groups(groups: list[list[str]]) -> str:
    """Return ```a` / `b` or `c``` for groups of arguments (``/`` between the arguments of one group)."""
    return " or ".join(" / ".join(f"`{name}`" for name in group) for group in groups)


def _names(found: list[Atom], joiner: str) -> str:
    names = [f"`{a.subject}`" for a in found]
    return ", ".join(names[:-1]) + f" {joiner} {names[-1]}"


def _typed_solutions(facts: SiteFacts, v: Cond) -> list[str]:
    given = [a for a in _top(v) if a.kind == "none" and a.negated]
    missing = [a for a in _top(v) if a.kind == "none" and not a.negated]
    found: list[str] = []
    if isinstance(v, All) and len(given) >= 2:
        found.append(f"Pass only one of {_names(given, 'and')} to {_where(facts)}; drop the others.")
        return found
    if isinstance(v, All) and len(missing) >= 2:
        found.append(f"Pass at least one of {_names(missing, 'or')} to {_where(facts)}.")
        return found
    groups = _exclusive_groups(v)
    if groups is not None:
        found.append(f"Pass either {_say_groups(groups)} to {_where(facts)}, not both.")
        return found
    for atom in _top(v):
        if isinstance(v, All) and atom.kind == "none" and atom.negated:
            continue  # ``x is not None and <check of x>``: being given is the precondition, not the fault
        step = (
            _atom_solution(atom, facts)
            or _derived_solution(atom, facts)
            or _listed_solution(atom, facts)
            or _path_solution(atom, facts)
            or _range_solution(atom, facts)
            or _size_solution(atom, facts)
        )
        if step and step not in found:
            found.append(step)
    return found


def _computed_solution(facts: SiteFacts, v: Cond) -> list[str]:
    """Return the step for a guard on computed values: what they come from, or that they are internal."""
    names = guard_names(facts)
    function = _function_display(facts)
    if not names or function is None:
        return []
    call = function if facts.entry is None or facts.entry.function is facts.function else (
        f"{function} (reached from {_where(facts)})"
    )  # fmt: skip
    where = {"call": call, **({"init": f"`{facts.class_name}(...)`"} if facts.class_name else {})}
    step = traced_step(facts, v, names, where)
    return [step] if step else []


def _internal_solution(facts: SiteFacts) -> list[str]:
    """Return the last-resort step for a readable guard on the library's own values (nothing else to say)."""
    names = guard_names(facts)
    function = _function_display(facts)
    step = internal_step(facts, names, function) if names and function else None
    return [step] if step else []


def _function_display(facts: SiteFacts) -> str | None:
    """Return the function the raise is in, as a user would write the call (a constructor as ``Class(...)``)."""
    function = facts.function
    if function is None:
        return None
    if function.name in {"__init__", "__post_init__"} and facts.class_name:
        return f"`{facts.class_name}(...)`"
    owner = f"{facts.class_name}." if facts.class_name else ""
    return f"`{owner}{function.name}()`"


_NAME = re.compile(r"(?<![\w.'\"])[A-Za-z_]\w*")


def _derived_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for a check on a value derived from one argument (``image.ndim``, ``len(x)``).

    The user cannot set ``image.ndim`` itself, but passes ``image``: the step says which argument to
    change and the condition it must meet. Checks on two arguments, or on none, give no step.
    """
    if a.kind in {"available", "version", "hasattr"} or len(say_atom(a)) > 160:
        return None
    text = a.subject + " " + (a.other if a.kind == "compare" else "")
    if a.kind == "code" and re.search(r"\bis\b|[=<>!]=|[<>]|\bnot\b|\band\b|\bor\b", text):
        return None  # ``x is False`` read as code: said as "... is false" it would read badly
    roots = {m.group(0) for m in _NAME.finditer(text) if not text[m.end() :].startswith("(")}
    roots -= {"self", "cls", "True", "False", "None"}
    passed = [r for r in roots if r in facts.params and len(r) > 1 and r not in {"kwargs", "args"}]
    others = [r for r in roots if r not in passed and not r.isupper()]
    if len(passed) != 1 or others:
        return None  # the check also reads local values: changing the argument may not be the fix
    if a.subject == passed[0] and a.kind not in {"instance", "code", "contains", "member"}:
        return None
    return f"Change the `{passed[0]}` you pass so that {say_atom(a.invert())}."


# A collection the check found non-empty, by what its name says its entries are; the message lists them.
_LISTED = (
    (re.compile(r"unused|unknown|unexpected|extra|remaining|unrecognized|not_used"),
     "Remove or rename the names the message lists (`{name}`): {where} does not use them; check their spelling."),
    (re.compile(r"invalid|unsupported|bad|incompatible|wrong|mismatch"),
     "Replace or drop the entries the message lists (`{name}`): {where} does not support them."),
    (re.compile(r"missing|not_found|absent"), "Provide the entries the message lists (`{name}`): {where} needs them."),
)  # fmt: skip


_NONEMPTY = frozenset({(">", "0"), (">=", "1"), ("!=", "0")})


def _listed_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for a check that a list of offending names is empty (``if unused_keys: raise``).

    The message shows the list (a placeholder reads it), so the step points at it and says, from the
    list's name, what to do with its entries: remove unknown ones, replace invalid ones, provide missing ones.
    """
    sized = a.kind == "compare" and a.subject.startswith("len(") and (a.op, a.other) in _NONEMPTY
    nonempty = sized or (a.kind == "truthy" and not a.negated and not is_flag(a.subject))
    if not nonempty:
        return None
    name = a.subject[4:-1] if a.subject.startswith("len(") else a.subject
    if not re.fullmatch(r"[a-z_]\w*", name) or not re.search(r"\{[^{}]*\b" + re.escape(name) + r"\b", facts.template):
        return None  # a dotted or computed value, or a list the message does not show
    if "package" in name or "module" in name:
        if re.search(r"missing|not_found|absent", name):
            return f"Install the packages the message lists (`{name}`): `pip install` followed by their names."
        return None
    for pattern, template in _LISTED:
        if pattern.search(name):
            return template.format(name=name, where=_where(facts))
    return None


_PATH_CHECKS = {
    ("isfile", True): "Pass a directory, not a file, as `{name}`.",
    ("isfile", False): "Pass the path of an existing file as `{name}` (check the path for typos).",
    ("isdir", True): "Pass the path of a file, not a directory, as `{name}`.",
    ("isdir", False): "Pass the path of an existing directory as `{name}` (check the path for typos).",
    ("exists", False): "Pass a path that exists as `{name}` (check the path for typos).",
}


def _path_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for ``os.path.isfile(x)`` / ``isdir`` / ``exists`` on an argument the user passes."""
    node = a.node
    if a.kind != "code" or not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return None
    func = ast.unparse(node.func)
    check = func.removeprefix("os.path.")
    argument = node.args[0]
    if func == check or not isinstance(argument, ast.Name):
        return None
    name = facts.aliases.get(argument.id, argument.id)
    if name not in facts.params:
        return None
    template = _PATH_CHECKS.get((check, not a.negated))
    return template.format(name=name) if template else None


def _range_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for a failed chained bound, ``lo <= x < hi`` on a value the user sets."""
    node = a.node
    if a.kind != "code" or not a.negated or not isinstance(node, ast.Compare) or len(node.ops) != 2:
        return None
    if not all(isinstance(op, ast.Lt | ast.LtE) for op in node.ops):
        return None
    middle = node.comparators[0]
    name = _namer(facts)(middle) if _is_plain(middle) else None
    if name is None or not _settable(name, facts):
        return None
    low, high = (ast.unparse(n) for n in (node.left, node.comparators[1]))
    signs = ["<" if isinstance(op, ast.Lt) else "<=" for op in node.ops]
    return f"Set `{name}` to a value with `{low}` {signs[0]} `{name}` {signs[1]} `{high}`."


_SIZE_READ = re.compile(r"^(?P<root>[a-z_]\w*)\.(?:size\(\)|shape|ndim|dim\(\))(?:\[-?\d+\])?$")


def _size_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for a size check on an argument: ``attention_mask.size() != (bsz, 1, q, k)``."""
    node = a.node
    if a.kind != "code" or not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return None
    wrong = isinstance(node.ops[0], ast.NotEq) and not a.negated  # ``!=`` is true when it raises
    wrong = wrong or (isinstance(node.ops[0], ast.Eq) and a.negated)  # ``==`` is false when it raises
    left, right = ast.unparse(node.left), ast.unparse(node.comparators[0])
    match = _SIZE_READ.match(left)
    if not wrong or match is None or len(right) > 80:
        return None
    root = match.group("root")
    if facts.aliases.get(root, root) not in facts.params or root in {"self", "kwargs"}:
        return None  # a size computed inside the function: not something the user passes
    return f"Pass `{root}` with `{left}` equal to `{right}`."


def _is_plain(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _settable(subject: str, facts: SiteFacts) -> bool:
    """Tell whether a user sets ``subject``: an argument, a constructor field or a config attribute."""
    if re.fullmatch(r"(?:self\.|model\.)?(?:generation_)?config\.\w+", subject):
        return True
    if re.fullmatch(r"(?:tokenizer|processor|args)\.[a-z]\w*", subject):
        return True  # a public attribute of the object the user built
    name = subject[4:-1] if subject.startswith("len(") and subject.endswith(")") else subject
    return name in facts.params or name in facts.init_fields


# Steps per shape: (when the user passes the value to a call, otherwise).
_SOLUTION = {
    "none+": ("Pass {s} to {setter}; it must not be None.", "Set {s}; it is None when this check runs."),
    "none-": ("Leave {s} unset (None) when calling {setter}.", "Leave {s} unset (None) here."),
    "flag-": ("Pass `{last}=True` to {setter}{trust}.", "Set {s} to True{trust}."),
    "flag+": ("Pass `{last}=False` to {setter}.", "Set {s} to False."),
    "truthy-": ("Give a non-empty {s} to {setter}.", "Give a non-empty {s}."),
    "truthy+": ("Do not pass {s} to {setter} here (leave it empty or None).", "Leave {s} empty or None here."),
    "member-": ("Set {s} to one of {values}.",) * 2,
    "member+": ("Set {s} to a value other than {values}.",) * 2,
    "member_ref-": ("Set {s} to a value listed in {other}.",) * 2,
    "compare_ne_const": ("Set {s} to {other}.",) * 2,
    "compare_eq_const": ("Set {s} to a value other than {other}.",) * 2,
    "compare_const": ("Set {s} to a value {inverse} {other}.", "{verb} {s} to a value {inverse} {other}."),
    "instance-": ("Pass {s} as a {types}.",) * 2,
    "multiple-": ("Set {s} to a multiple of {other}.",) * 2,
}
_SIZES = re.compile(r"len\(|shape|size|num_|dim|length|count")


def _atom_solution(a: Atom, facts: SiteFacts) -> str | None:
    if a.kind in {"available", "version"}:
        return _package_solution(a)
    if len(a.subject) < 2:
        return None  # ``p``, ``e``: a loop or exception variable, nothing a user can name
    fields = atom_fields(a)
    if a.kind == "exactly_one" and not a.negated:
        return "Pass exactly one of {s} and {other} to {where}.".format(where=_where(facts), **fields)
    key = variant(a)
    if key == "compare_var":
        return _relation_solution(a, facts)
    templates = _SOLUTION.get(key)
    if templates is None or not _settable(a.subject, facts):
        return None  # a local value: the user cannot set it, and a step about it would mislead
    setter = _setter(a.subject, facts)
    trust = " (only for a repository whose code you trust)" if "trust_remote_code" in a.subject else ""
    verb = "Make" if "(" in a.subject else "Set"
    template = templates[0] if setter else templates[1]
    text = template.format(setter=setter, trust=trust, verb=verb, **fields)
    if a.subject.startswith("len("):  # a length is not set but made: "Make `len(x)` equal to `1`."
        text = re.sub(r"^Set ", "Make ", text).replace(" to a value ", " ").replace(" to one of ", " one of ")
        text = text.replace("` to `", "` equal to `")
    return text


def _relation_solution(a: Atom, facts: SiteFacts) -> str | None:
    """Return the step for ``x op y`` (two values): set the one the user passes, or match the sizes."""
    fields = atom_fields(a)
    if a.subject == a.other:
        return None  # ``x != self.x``: an argument against the attribute of the same name, shown alike
    mirror = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
    if _settable(a.subject, facts):
        verb, link = ("Make", "") if "(" in a.subject else ("Set", " to a value")
        return "{verb} {s}{link} {inverse} {other}.".format(verb=verb, link=link, **fields)
    plain_subject = re.fullmatch(r"(?!self\.)[\w.]+|len\((?!self\.)[\w.]+\)", a.subject) is not None
    if re.fullmatch(r"[\w.]+|len\([\w.]+\)", a.other) and _settable(a.other, facts) and plain_subject:
        # ``x != config.n`` with ``x`` read from the input: the config field is the side the user sets;
        # against a product of attributes (``self.head_dim * self.num_heads``) it is not, so no step.
        if fields["inverse"] == "==":
            return f"Make {fields['other']} equal to {fields['s']}."
        verb = "Make" if "(" in a.other else "Set"
        return f"{verb} {fields['other']} {mirror[fields['inverse']]} {fields['s']}."
    sized = fields["inverse"] in {"==", "!="} and _SIZES.search(a.subject) and _SIZES.search(a.other)
    return "Make {s} {inverse} {other}.".format(**fields) if sized else None


def _package_solution(a: Atom) -> str | None:
    if a.kind == "available" and a.negated and _installable(a.subject):
        package = _pip_name(a.subject)
        checked = "" if package == a.subject else f" (the check is `is_{a.subject}_available()`)"
        return f"Install `{package}`{checked}: `{_install_line(a)}`."
    if a.kind == "version":
        return _version_solution(a)
    return None


def _version_solution(a: Atom) -> str:
    package = _pip_name(a.subject)
    if a.op in {"<", "<="}:
        bound, wanted = (">=", f"{a.version} or newer") if a.op == "<" else (">", f"a version newer than {a.version}")
        return f'Upgrade `{package}` to {wanted}: `pip install -U "{package}{bound}{a.version}"`.'
    bound = "<" if a.op == ">=" else "<="
    return f'Install an older `{package}`: `pip install "{package}{bound}{a.version}"`.'


def _message_solutions(message: MessageFacts, typed: list[str]) -> list[str]:
    found: list[str] = []
    if message.removed is not None:
        name, version = message.removed
        found.append(
            f'To keep using `{name}`, install a release before {version}: `pip install "transformers<{version}"`.'
        )
    if message.pip and not any(message.pip in t for t in typed):
        package = message.pip.split()[-1].strip("\"'")
        found.append(f"Install `{package}`: `{message.pip}`.")
    found.extend(message.advice)
    found.extend(message.code_steps)
    if message.requires is not None and not any("pip install" in t for t in typed):
        package, version = message.requires
        found.append(f'Upgrade `{package}` to {version} or newer (the message requires it): '
                     f'`{_requires_line(message.requires)}`.')  # fmt: skip
    if message.outdated:
        found.append("Upgrade `transformers` (the message says your version may be out of date): "
                     "`pip install -U transformers`.")  # fmt: skip
    return found


def _point_to_install(solutions: list[str], command: str) -> tuple[list[str], str | None]:
    """Keep an install command in one place: the example fix, with the step pointing to it.

    When no step names the package in the typed form, the step keeps the command and the example
    fix is dropped instead (a section must not repeat another).
    """
    shown = f": `{command}`."
    typed = ("Install `", "Upgrade `", "Install an older `")
    pointed = [
        s.replace(shown, " (the command is in the example fix).") if s.startswith(typed) else s for s in solutions
    ]
    if pointed != solutions:
        return [s for s in pointed if "pip install" not in s], command
    flat = re.sub(r"\W+", " ", command.lower()).strip()
    if any(flat in re.sub(r"\W+", " ", s.lower()) for s in solutions):
        return solutions, None
    return solutions, command


def _checked_names(facts: SiteFacts, v: Cond | None) -> str | None:
    """Return the names the failing check tests, in backticks, when they are plain names."""
    if v is None:
        return None
    names = list(dict.fromkeys(a.subject for a in _top(v) if re.fullmatch(r"[A-Za-z_][\w.]+", a.subject)))
    return ", ".join(f"`{n}`" for n in names[:3]) or None


def _dedupe(items: list[str]) -> list[str]:
    """Drop steps that repeat an earlier one (the same words, or contained in it) or hold a placeholder."""
    seen: list[str] = []
    kept = []
    for item in items:
        key = re.sub(r"\W+", " ", item.lower()).strip()
        if any(key in other or other in key for other in seen) or _PLACEHOLDER.search(item):
            continue
        seen.append(key)
        kept.append(item)
    return kept


def _installable(subject: str) -> bool:
    return subject in _PIP_NAMES or ("_" not in subject and subject not in _NOT_PACKAGES)


def _package(module: str) -> str | None:
    return _pip_name(module) if _installable(module) else None


def _pip_name(subject: str) -> str:
    return _PIP_NAMES.get(subject, subject.replace("_", "-"))


def _install_line(a: Atom) -> str:
    package = _pip_name(a.subject)
    return f'pip install "{package}>={a.version}"' if a.version else f"pip install {package}"


# --- example fix -----------------------------------------------------------------------------------


_ATTRIBUTE = re.compile(r"(?:model\.)?(?:generation_)?config\.\w+|(?:tokenizer|processor|args)\.[a-z]\w*")


def _target(subject: str, facts: SiteFacts) -> str | None:
    """Return the call a user passes ``subject`` to (``model.generate()``, ``LlamaConfig(...)``), if any."""
    entry = facts.entry
    if "." in subject or entry is None:
        return None
    function = entry.function
    names = {a.arg for a in [*function.args.args, *function.args.kwonlyargs]} if function is not None else set()
    if subject in names or (entry.display.endswith("(...)") and subject in facts.init_fields):
        return entry.display
    if subject in facts.init_fields and facts.class_name:
        return f"{facts.class_name}(...)"  # a constructor argument, checked later by a method
    return _own_call(subject, facts)


def _own_call(subject: str, facts: SiteFacts) -> str | None:
    """Return the public function the raise is in, when ``subject`` is its argument (the entry point takes no such)."""
    function = facts.function
    if function is None or (function.name.startswith("_") and function.name not in {"__init__", "__call__"}):
        return None
    if subject not in {a.arg for a in [*function.args.args, *function.args.kwonlyargs]}:
        return None
    return display(function, facts.class_node)


def _setter(subject: str, facts: SiteFacts) -> str | None:
    """Return the call a user passes ``subject`` to, in backticks, if it is an argument of one."""
    target = _target(subject, facts)
    return f"`{target}`" if target else None


def _shown(subject: str, facts: SiteFacts) -> bool:
    """Tell whether an example can show ``subject`` being set: a call argument or a public attribute."""
    return _setter(subject, facts) is not None or _ATTRIBUTE.fullmatch(subject) is not None


def _call(facts: SiteFacts, argument: str) -> str | None:
    """Return the line that passes ``argument`` (``name=value``): a call, or an assignment for an attribute."""
    name, _, value = argument.partition("=")
    if _ATTRIBUTE.fullmatch(name):
        return f"{name} = {value}"
    display = _target(name, facts) if name else None
    display = display or (facts.entry.display if facts.entry else None)
    if display is None:
        return None
    if display.endswith("(...)"):
        return display.replace("(...)", f"(..., {argument})")
    owner, _, method = display.rpartition(".")
    if method in {"__call__()", "forward()"}:
        return f"{_variable(owner)}(..., {argument})"
    if owner and not owner[:1].isupper():
        return f"{owner}.{method[:-2]}(..., {argument})"  # already a variable (``model.generate()``)
    return f"{_variable(owner)}.{method[:-2]}(..., {argument})" if owner else f"{display[:-2]}(..., {argument})"


def _variable(class_name: str) -> str:
    for word, variable in (("Tokenizer", "tokenizer"), ("Processor", "processor"), ("Config", "config"),
                           ("Trainer", "trainer"), ("Pipeline", "pipe"), ("Arguments", "args")):  # fmt: skip
        if word in class_name:
            return variable
    return (
        "model"
        if re.search(
            r"Model|For[A-Z]|Mixin|PreTrained|Decoder|Encoder|Embeddings|Attention|Layer|Block|MLP", class_name
        )
        else re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()
    )


def _example(facts: SiteFacts, v: Cond | None, message: MessageFacts) -> str | None:
    if v is not None:
        found = _shape_example(facts, v)
        if found:
            return found
        for atom in _top(v):
            if atom.kind == "available" and atom.negated and _installable(atom.subject):
                return _install_line(atom)
            if atom.kind == "version":
                return _version_solution(atom).split(": ", 1)[1].strip("`.")
    return _message_example(facts, message) or (_part_example(facts, v) if isinstance(v, All) else None)


def _message_example(facts: SiteFacts, message: MessageFacts) -> str | None:
    """Return the example fix the message itself gives: its install line or code, a setting it asks for."""
    if message.pip or message.code:
        return message.pip or message.code
    if message.requires is not None:
        return _requires_line(message.requires)
    return _asked_example(facts, message) or ("pip install -U transformers" if message.outdated else None)


def _requires_line(requires: tuple[str, str]) -> str:
    package, version = requires
    return f'pip install -U "{_pip_name(package)}>={version}"'


def _asked_example(facts: SiteFacts, message: MessageFacts) -> str | None:
    """Return the setting the message asks for as code: an attribute set, or an argument of the entry point."""
    for step in message.code_steps:
        code = step.split("`")[1]
        name, _, value = (part.strip() for part in code.partition("="))
        if "." in name and _ATTRIBUTE.fullmatch(name):
            return f"# after: as the message says\n{name} = {value}"
        if step.startswith("Pass ") and "." not in name and _setter(name, facts):
            call = _call(facts, f"{name}={value}")
            return f"# after: as the message says\n{call}" if call else None
    return None


def _shape_example(facts: SiteFacts, v: Cond) -> str | None:
    given = [a for a in _top(v) if a.kind == "none" and a.negated]
    if isinstance(v, All) and len(given) >= 2 and all(_setter(a.subject, facts) for a in given):
        before = _call(facts, ", ".join(f"{a.subject}={a.subject}" for a in given))
        after = _call(facts, f"{given[0].subject}={given[0].subject}")
        return _before_after(before, after, after_note="only one of them")
    groups = _exclusive_groups(v)
    if groups is not None and all(_setter(name, facts) for group in groups for name in group):
        first, second = groups[0][0], groups[1][0]
        before = _call(facts, f"{first}={first}, {second}={second}")
        return _before_after(before, _call(facts, f"{first}={first}"), before_note="both given",
                             after_note="only one of them")  # fmt: skip
    if isinstance(v, Any):
        parts = [p for p in v.parts if isinstance(p, Atom)]
        if len(parts) == len(v.parts) and parts and _shown(parts[0].subject, facts):
            return range_example(parts, lambda settings: _render(facts, settings))
    return _atom_example(facts, v) if isinstance(v, Atom) else None


def _part_example(facts: SiteFacts, v: All) -> str | None:
    """Return the example for one part of an ``and`` (raised only when every part holds, so one false part fixes it).

    Tried after the message's own example: the message knows which part is the fault.
    """
    parts = [p for p in v.parts if isinstance(p, Atom) and not _precondition(p)]
    return next((e for e in (_atom_example(facts, p) for p in parts) if e), None)


def _precondition(a: Atom) -> bool:
    """Tell whether a part of an ``and`` only says a feature is in use (``x is not None``, ``n > 0``)."""
    return (a.kind == "none" and a.negated) or (a.kind == "compare" and (a.op, a.other) in {(">", "0"), ("!=", "0")})


def _atom_example(facts: SiteFacts, v: Atom) -> str | None:
    if not _shown(v.subject, facts):
        return None
    builder = _EXAMPLES.get(variant(v))
    return builder(facts, v) if builder else None


def _render(facts: SiteFacts, settings: list[tuple[str, str]]) -> str | None:
    """Return code that makes the settings: attribute assignments, or one call taking them all as arguments."""
    if all(_ATTRIBUTE.fullmatch(name) for name, _value in settings):
        return "\n".join(f"{name} = {value}" for name, value in settings)
    targets = {_target(name, facts) for name, _value in settings}
    if len(targets) != 1 or None in targets:
        return None
    return _call(facts, ", ".join(f"{name}={value}" for name, value in settings))


def _multiple_example(facts: SiteFacts, v: Atom) -> str | None:
    return multiple_example(v, lambda settings: _render(facts, settings), lambda name: _shown(name, facts))


def _convert_example(facts: SiteFacts, v: Atom) -> str | None:
    return convert_example(v, lambda settings: _render(facts, settings)) if _setter(v.subject, facts) else None


def _relation_example(facts: SiteFacts, v: Atom) -> str | None:
    fields = bool(_ATTRIBUTE.fullmatch(v.subject) and _ATTRIBUTE.fullmatch(v.other))
    if not fields and not (_setter(v.subject, facts) and _setter(v.other, facts)):
        return None  # an argument set from a value the user may not hold
    return relation_example(v, lambda settings: _render(facts, settings), fields=fields)


def _before_after(before: str | None, after: str | None, *, before_note: str = "", after_note: str = "") -> str | None:
    if before is None or after is None:
        return None
    head = f"# before: {before_note}" if before_note else "# before"
    tail = f"# after: {after_note}" if after_note else "# after"
    return f"{head}\n{before}\n\n{tail}\n{after}"


def _exactly_one_example(facts: SiteFacts, v: Atom) -> str | None:
    if not (_setter(v.subject, facts) and _setter(v.other, facts)):
        return None
    before = _call(facts, f"{v.subject}={v.subject}, {v.other}={v.other}")
    return _before_after(before, _call(facts, f"{v.subject}={v.subject}"), before_note="both given",
                         after_note="exactly one")  # fmt: skip


def _flag_example(facts: SiteFacts, v: Atom) -> str | None:
    return _before_after(_call(facts, f"{v.subject}={not v.negated}"), _call(facts, f"{v.subject}={v.negated}"))


def _none_example(facts: SiteFacts, v: Atom) -> str | None:
    if _setter(v.subject, facts) is None:
        return token_id_example(v) if not v.negated else None  # an attribute: its value is rarely known
    present, absent = _call(facts, f"{v.subject}={v.subject}"), _call(facts, "")
    absent = absent.replace("(..., )", "(...)") if absent else None
    return _before_after(present, absent) if v.negated else _before_after(absent, present)


def _only_value_example(facts: SiteFacts, v: Atom) -> str | None:
    after = _call(facts, f"{v.subject}={v.other}")
    return f"# after: the only supported value\n{after}" if after else None


def _boundary_example(facts: SiteFacts, v: Atom) -> str | None:
    if not isinstance(v.constant, int | float) or isinstance(v.constant, bool):
        return None
    values = _boundary(v.op, v.constant)
    if values is None:
        return None
    before, after = _call(facts, f"{v.subject}={values[0]}"), _call(facts, f"{v.subject}={values[1]}")
    return _before_after(before, after, before_note=f"{v.subject} {v.op} {v.other}")


def _member_example(facts: SiteFacts, v: Atom) -> str | None:
    after = _call(facts, f"{v.subject}={v.values[0]}")
    return f"# after: one of the accepted values\n{after}" if after else None


_EXAMPLES = {
    "exactly_one+": _exactly_one_example,
    "flag+": _flag_example,
    "flag-": _flag_example,
    "none+": _none_example,
    "none-": _none_example,
    "compare_ne_const": _only_value_example,
    "compare_const": _boundary_example,
    "member-": _member_example,
    "multiple-": _multiple_example,
    "instance-": _convert_example,
    "compare_var": _relation_example,
}


def _boundary(op: str, constant: float) -> tuple[float, float] | None:
    """Return a value that fails the check and one that passes it, next to the constant."""
    if op == "<=":
        return constant, constant + 1
    if op == "<":
        return constant - 1, constant
    if op == ">":
        return constant + 1, constant
    if op == ">=" and constant >= 1:
        return constant, constant - 1
    return None


def text_fields(explanation: Explanation) -> list[str]:
    """Return every generated text of an explanation (for checks)."""
    texts = [explanation.documentation, explanation.trigger_scenarios, explanation.example_fix]
    return [t for t in texts if t] + explanation.solutions


__all__ = ["Explanation", "explain", "identifiers", "text_fields"]
