"""Rebuild the scanner corpus and the scanner rule table from fetched snapshots of gitleaks and detect-secrets.

Run: ``python -m benchmarks.redaction_corpus GITLEAKS_GIT_DIR DETECT_SECRETS_GIT_DIR [MS_MASKER_WHEEL]`` (bare
git directories, for instance from ``git clone --bare``; the wheel from ``pip download --pre --no-deps
microsoft-security-utilities-secret-masker``), and ``python -m benchmarks.redaction_corpus noseyparker
NOSEYPARKER_GIT_DIR`` for the independent check. Writes:

- ``tests/data/redaction/scanners/gitleaks.jsonl``: the true positives (``tps``) and false positives (``fps``)
  of every rule in gitleaks' ``cmd/generate/config/rules/*.go``;
- ``tests/data/redaction/scanners/detect_secrets.jsonl``: the cases of detect-secrets' ``tests/plugins/*_test.py``;
- ``tests/data/redaction/scanners/noseyparker.jsonl``: the ``examples`` and ``negative_examples`` of every rule
  in Nosey Parker's ``crates/noseyparker/data/default/builtin/rules/*.yml``;
- ``records/redact/_gitleaks_rules.py``: gitleaks' rule table as JSON in a module (so it ships in the wheel) (``config/gitleaks.toml``: regexes, keywords,
  entropy, allowlists), which tracebot runs on RE2;
- ``records/redact/_ms_rules.py``: the precisely classified keys of Microsoft's secret masker (Azure's
  identifiable keys, SAS signatures), when its wheel is given.

Each corpus line is ``{"kind", "source", "label": "secret"|"lookalike", "b64", "secret_b64"}``: the fixture text
and, for a secret, the part that must vanish, both base64 so that no push-time scanner takes the file for a
leak. Neither project's code is copied or run: the Go and Python sources are read as text, their string
literals evaluated by a small interpreter here, and the random secrets that gitleaks makes from a regex
(``secrets.NewSecret``) are made by a seeded generator of our own, so the output is the same on every run.
"""

from __future__ import annotations

import ast
import base64
import json
import random
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from re import _parser as sre_parse  # type: ignore[attr-defined]  # private, not in typeshed
from typing import Any

import re2

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "redaction" / "scanners"
RULES_OUT = ROOT / "records" / "redact" / "_gitleaks_rules.py"
SEED = 20261201


def _git_show(git_dir: str, path: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"HEAD:{path}"], check=True, capture_output=True, text=True
    ).stdout


def _git_ls(git_dir: str, path: str) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "--name-only", "HEAD", path + "/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return sorted(out.split())


def _git_head(git_dir: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


# --- a seeded generator of strings matching a regex (stands in for gitleaks' reggen) -------------

_ANY = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_CATEGORIES = {
    sre_parse.CATEGORY_DIGIT: "0123456789",
    sre_parse.CATEGORY_WORD: _ANY + "_",
    sre_parse.CATEGORY_SPACE: " ",
    sre_parse.CATEGORY_NOT_DIGIT: "abcdefXYZ",
    sre_parse.CATEGORY_NOT_WORD: "-.",
    sre_parse.CATEGORY_NOT_SPACE: _ANY,
}


def _charset(items: list[tuple[Any, Any]]) -> str:
    chars: list[str] = []
    negate = False
    for op, arg in items:
        if op is sre_parse.NEGATE:
            negate = True
        elif op is sre_parse.LITERAL:
            chars.append(chr(arg))
        elif op is sre_parse.RANGE:
            chars.extend(chr(c) for c in range(arg[0], arg[1] + 1))
        elif op is sre_parse.CATEGORY:
            chars.extend(_CATEGORIES.get(arg, _ANY))
    if negate:
        return "".join(c for c in _ANY if c not in chars) or "x"
    return "".join(chars) or "x"


def _emit(tree: Any, rng: random.Random) -> str:
    out: list[str] = []
    for op, arg in tree:
        if op is sre_parse.LITERAL:
            out.append(chr(arg))
        elif op is sre_parse.NOT_LITERAL:
            out.append(rng.choice([c for c in _ANY if ord(c) != arg]))
        elif op is sre_parse.ANY:
            out.append(rng.choice(_ANY))
        elif op is sre_parse.IN:
            out.append(rng.choice(_charset(arg)))
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            low, high, sub = arg
            high = low + 10 if high is sre_parse.MAXREPEAT else high
            out.extend(_emit(sub, rng) for _ in range(rng.randint(low, high)))
        elif op is sre_parse.SUBPATTERN:
            out.append(_emit(arg[-1], rng))
        elif op is sre_parse.BRANCH:
            out.append(_emit(rng.choice(arg[1]), rng))
    return "".join(out)


def random_match(regex: str, rng: random.Random) -> str:
    """Return a random string matching regex (Go syntax, as far as Python's parser reads it)."""
    regex = regex.replace(r"\z", r"\Z")
    regex = regex[4:] if regex.startswith("(?i)") else regex
    return _emit(sre_parse.parse(regex.replace("(?i)", "")), rng)


# --- a small interpreter for the Go expressions that build gitleaks' fixtures ----------------------


@dataclass(frozen=True)
class Sample:
    """A bare secret that gitleaks wraps in its sample assignments (GenerateSampleSecret[s])."""

    identifier: str
    secret: str


# Some of the assignments gitleaks' GenerateSampleSecrets writes around a secret; one is picked per sample.
_SAMPLE_FORMS = (
    '{i}_api_token = "{s}"',
    "{i}Token={s}",
    "{i}_token: '{s}'",
    '{i}Token := "{s}"',
    '  "{i}Token" => "{s}"',
    '{I}_TOKEN ?= "{s}"',
    'System.setProperty("{I}_TOKEN", "{s}")',
    '{{"config.ini": "{I}_TOKEN={s}\\nBACKUP_ENABLED=true"}}',
)


class Random(str):
    """A string built from a random secret (secrets.NewSecret): such false positives test a rule's bounds."""

    __slots__ = ()


def _join(left: str, right: str) -> str:
    joined = left + right
    return Random(joined) if isinstance(left, Random) or isinstance(right, Random) else joined


class Unknown:
    """A value the interpreter cannot compute; fixtures built from it are left out."""


UNKNOWN = Unknown()
_TOKEN = re.compile(
    r"(?P<raw>`[^`]*`)|(?P<str>\"(?:\\.|[^\"\\\n])*\")|(?P<char>'(?:\\.|[^'\\])*')|(?P<comment>//[^\n]*|/\*.*?\*/)"
    r"|(?P<nl>\n)|(?P<ws>[ \t\r]+)|(?P<num>\d+)|(?P<id>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\.\.\.|:=|\+=|==|!=|&&|\|\||[-+*/%&|^!<>=(){}\[\],;:.])",
    re.S,
)
_GO_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a", "b": "\b", "f": "\f"}


def _go_string(literal: str) -> str:
    if literal.startswith("`"):
        return literal[1:-1].replace("\r", "")
    body = literal[1:-1]

    def escape(m: re.Match[str]) -> str:
        code = m.group(1)
        if code[0] in "xuU":
            return chr(int(code[1:], 16))
        return _GO_ESCAPES.get(code, code)

    return re.sub(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", escape, body)


def _tokens(source: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(source):
        kind = m.lastgroup or ""
        if kind in ("ws", "comment"):
            continue
        out.append((kind, m.group()))
    return out


_GENERATORS = {
    "utils.Numeric": "[0-9]{%s}",
    "utils.Hex": "[a-f0-9]{%s}",
    "utils.AlphaNumeric": "[a-z0-9]{%s}",
    "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
    "utils.AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
    "utils.AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}",
}


@dataclass
class _Interp:
    tokens: list[tuple[str, str]]
    rng: random.Random
    env: dict[str, Any] = field(default_factory=dict)
    pos: int = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        index = self.pos + offset
        return self.tokens[index] if index < len(self.tokens) else ("eof", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.pos += 1
        return token

    def skip_nl(self) -> None:
        while self.peek()[0] == "nl":
            self.pos += 1

    def skip_balanced(self) -> None:
        depth = 0
        while self.peek()[0] != "eof":
            kind, text = self.take()
            if text in "({[" and kind == "op":
                depth += 1
            elif text in ")}]" and kind == "op":
                depth -= 1
                if depth <= 0:
                    return

    def args(self) -> list[Any]:
        """Parse a parenthesised argument list (the '(' already taken)."""
        values: list[Any] = []
        self.skip_nl()
        while self.peek()[1] != ")":
            value = self.expr()
            if self.peek()[1] == "...":
                self.take()
                values.extend(value if isinstance(value, list) else [UNKNOWN])
            else:
                values.append(value)
            self.skip_nl()
            if self.peek()[1] == ",":
                self.take()
                self.skip_nl()
            elif self.peek()[1] != ")":
                self.skip_to_close(")")
                return [UNKNOWN]
        self.take()
        return values

    def skip_to_close(self, close: str) -> None:
        depth = 0
        while self.peek()[0] != "eof":
            _, text = self.take()
            if text in "({[":
                depth += 1
            elif text in ")}]":
                if depth == 0:
                    return
                depth -= 1

    def list_literal(self) -> list[Any]:
        values: list[Any] = []
        self.skip_nl()
        while self.peek()[1] != "}":
            values.append(self.expr())
            self.skip_nl()
            if self.peek()[1] == ",":
                self.take()
                self.skip_nl()
            elif self.peek()[1] != "}":
                self.skip_to_close("}")
                return [*values, UNKNOWN]
        self.take()
        return values

    def expr(self) -> Any:
        value = self.primary()
        while self.peek()[1] == "+":
            self.take()
            self.skip_nl()
            right = self.primary()
            value = _join(value, right) if isinstance(value, str) and isinstance(right, str) else UNKNOWN
        return value

    def primary(self) -> Any:
        kind, text = self.take()
        if kind in ("raw", "str"):
            return _go_string(text)
        if kind == "num":
            return int(text)
        if text == "(":
            value = self.expr()
            self.skip_to_close(")")
            return value
        if text == "[":
            # []string{...} or []byte(...) and friends
            self.take()  # ']'
            _, type_name = self.take()
            if self.peek()[1] == "{" and type_name == "string":
                self.take()
                return self.list_literal()
            if self.peek()[1] == "(":
                self.take()
                values = self.args()
                return values[0] if type_name == "byte" and values else UNKNOWN
            self.skip_balanced()
            return UNKNOWN
        if kind == "id":
            name = text
            while self.peek()[1] == "." and self.peek(1)[0] == "id":
                self.take()
                name += "." + self.take()[1]
            if self.peek()[1] == "(":
                self.take()
                return self.call(name, self.args())
            if self.peek()[1] == "{":
                self.skip_balanced()
                return UNKNOWN
            if name in ("true", "false"):
                return name == "true"
            return self.env.get(name, UNKNOWN)
        if text == "&":
            self.primary()
            return UNKNOWN
        return UNKNOWN

    def call(self, name: str, args: list[Any]) -> Any:
        if any(a is UNKNOWN for a in args):
            return UNKNOWN
        if name in _GENERATORS:
            return _GENERATORS[name] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "secrets.NewSecret":
            try:
                return Random(random_match(args[0], self.rng))
            except Exception:
                return UNKNOWN
        if name in ("utils.GenerateSampleSecrets", "utils.GenerateSampleSecret"):
            sample = Sample(args[0], args[1]) if isinstance(args[0], str) and isinstance(args[1], str) else UNKNOWN
            return [sample] if name.endswith("s") else sample
        if name == "fmt.Sprintf" and all(isinstance(a, str | int) for a in args):
            out = re.sub(r"%[sdvq]", "{}", args[0].replace("{", "{{").replace("}", "}}")).format(*args[1:])
            return Random(out) if any(isinstance(a, Random) for a in args) else out
        if name == "append" and isinstance(args[0], list):
            return [*args[0], *args[1:]]
        if name == "strings.Repeat":
            return args[0] * args[1]
        if name in ("strings.ToUpper", "strings.ToLower"):
            return args[0].upper() if name.endswith("Upper") else args[0].lower()
        if name == "string" and isinstance(args[0], str):
            return args[0]
        if name == "strings.Join":
            return args[1].join(args[0])
        return UNKNOWN

    def run(self) -> None:
        """Evaluate the assignment statements of a function body; skip everything else."""
        while self.peek()[0] != "eof":
            self.skip_nl()
            if self.peek()[1] == "var" and self.peek(1)[1] == "(":
                self.pos += 2
                continue
            if (self.peek()[0] == "id" and self.peek(1)[1] in (":=", "=")) or (
                self.peek()[1] == "var" and self.peek(2)[1] == "="
            ):
                if self.peek()[1] == "var":
                    self.take()
                name = self.take()[1]
                self.take()
                self.env[name] = self.expr()
                continue
            self.statement_skip()

    def statement_skip(self) -> None:
        depth = 0
        while self.peek()[0] != "eof":
            kind, text = self.take()
            if kind == "op" and text in "({[":
                depth += 1
            elif kind == "op" and text in ")}]":
                depth -= 1
            elif kind == "nl" and depth <= 0:
                return


def _functions(source: str) -> Iterator[str]:
    for chunk in re.split(r"\nfunc ", source)[1:]:
        yield chunk[chunk.find("{\n") + 1 :]


@dataclass(frozen=True)
class Row:
    """One labelled corpus line before encoding."""

    kind: str
    source: str
    label: str
    text: str
    secret: str | None

    def encode(self) -> dict[str, str]:
        """Return the JSON form, text and secret in base64."""
        row = {"kind": self.kind, "source": self.source, "label": self.label, "b64": _b64(self.text)}
        if self.secret is not None:
            row["secret_b64"] = _b64(self.secret)
        return row


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8", "surrogatepass")).decode()


_SEPARATORS = re.compile(r"""[\s"'`=:,;()<>\[\]{}]+""")


# A line that labels one value ('X-JFrog-Art-Api: AKC...', '//registry.npmjs.org/:_authToken=npm_...'):
# the value is the secret, however long its label (the longest run was the header's name, the registry).
_LABELLED = re.compile(r"""^\s*[^\s=]*[A-Za-z][\w-]*["']?\s*(?:=>|:=|[:=])\s*["'`]?([^\s"'`/][^\s"'`]*)["'`;,]*\s*$""")


def guess_secret(text: str) -> str:
    """Guess the secret in a fixture line: a private key from its BEGIN line, a labelled value, else the longest run."""
    if "PRIVATE KEY" in text:
        return text[text.find("-----BEGIN") :].strip() if "-----BEGIN" in text else text.strip()
    labelled = _LABELLED.match(text)
    if labelled:
        return labelled.group(1)
    return max(_SEPARATORS.split(text), key=len)


def _label(rule: dict[str, Any] | None, text: str) -> str | None:
    """Return the secret gitleaks' own rule finds in a true positive, None when it finds nothing."""
    if rule is None or "regex" not in rule:
        return None
    match = re2.search(rule["regex"], text)
    if match is None:
        return None
    group = rule.get("secretGroup", 0)
    if group:
        return str(match.group(group))
    for index in range(1, (match.re.groups or 0) + 1):
        if match.group(index):
            return str(match.group(index))
    return str(match.group(0))


def _sample_text(sample: Sample, rule: dict[str, Any] | None, rng: random.Random, label: str) -> str:
    """Return the bare secret when gitleaks' rule finds it alone, else the secret in one of gitleaks' assignments."""
    keywords = rule.get("keywords", []) if rule else []
    alone = any(k in sample.secret.lower() for k in keywords)
    if label == "secret" and alone and _label(rule, sample.secret) == sample.secret:
        return sample.secret
    form = rng.choice(_SAMPLE_FORMS)
    return form.format(i=sample.identifier, I=sample.identifier.upper(), s=sample.secret)


def gitleaks_rows(git_dir: str, rules: dict[str, dict[str, Any]]) -> tuple[list[Row], int]:
    """Return the fixtures of every gitleaks rule and the number of true positives left out."""
    rows: list[Row] = []
    dropped = 0
    randoms = 0
    for path in _git_ls(git_dir, "cmd/generate/config/rules"):
        if not path.endswith(".go"):
            continue
        source = "gitleaks:" + path.removeprefix("cmd/generate/config/")
        for body in _functions(_git_show(git_dir, path)):
            rule_id = re.search(r'RuleID:\s*"([^"]+)"', body)
            if rule_id is None:
                continue
            kind = rule_id.group(1)
            interp = _Interp(_tokens(body), random.Random(f"{SEED}:{kind}"))
            interp.run()
            for label, name in (("secret", "tps"), ("lookalike", "fps")):
                values = interp.env.get(name)
                for value in values if isinstance(values, list) else []:
                    if label == "lookalike" and isinstance(getattr(value, "secret", value), Random):
                        randoms += 1  # a random value that a vendor rule's bounds reject
                        continue
                    secret: str | None
                    if isinstance(value, Sample):
                        text, secret = _sample_text(value, rules.get(kind), interp.rng, label), value.secret
                    elif isinstance(value, str):
                        text, secret = value, (_label(rules.get(kind), value) if label == "secret" else None)
                    else:
                        dropped += label == "secret"
                        continue
                    if label == "secret" and not secret:
                        dropped += 1
                        continue
                    rows.append(Row(kind, source, label, text, secret))
    print(f"gitleaks false positives left out (built from a random secret, testing a rule's bounds): {randoms}")
    return _dedupe(rows), dropped


def _dedupe(rows: list[Row]) -> list[Row]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for row in rows:
        key = (row.kind, row.label, row.text)
        if key not in seen:
            seen.add(key)
            out.append(row)
    return out


# --- detect-secrets: pytest parameter tables, read with ast -------------------------------------


def _py_eval(node: ast.AST, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)
    if isinstance(node, ast.Tuple | ast.List):
        return [_py_eval(e, env) for e in node.elts]
    if isinstance(node, ast.JoinedStr):
        parts = [_py_eval(v.value if isinstance(v, ast.FormattedValue) else v, env) for v in node.values]
        return "".join(map(str, parts)) if all(isinstance(p, str | int) for p in parts) else UNKNOWN
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult | ast.Mod):
        left, right = _py_eval(node.left, env), _py_eval(node.right, env)
        try:
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Mult):
                return left * right
            return left % right
        except TypeError:
            return UNKNOWN
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _py_eval(node.func.value, env)
        args = [_py_eval(a, env) for a in node.args]
        kwargs = {k.arg: _py_eval(k.value, env) for k in node.keywords if k.arg}
        if isinstance(base, str) and all(not isinstance(a, Unknown) for a in [*args, *kwargs.values()]):
            try:
                return base.format(*args, **kwargs)
            except (IndexError, KeyError, ValueError):
                return UNKNOWN
    return UNKNOWN


def _case(value: Any, negative_test: bool) -> tuple[str, str | None] | None:
    """Turn one parameter tuple into (label, expected secret or None), or None when unusable."""
    items = value if isinstance(value, list) else [value]
    strings = [v for v in items if isinstance(v, str)]
    if not strings:
        return None
    flags = [v for v in items[1:] if isinstance(v, bool) or v is None]
    expected = strings[1] if len(strings) > 1 else None
    if flags:
        positive = bool(flags[0])
    elif len(items) > 1 and expected is None and isinstance(items[1], int) and not isinstance(items[1], bool):
        positive = items[1] > 0
    else:
        positive = not negative_test
    if expected is not None and not positive:
        positive = True
    return ("secret" if positive else "lookalike"), expected


def detect_secrets_rows(git_dir: str) -> list[Row]:
    """Return the cases of detect-secrets' plugin tests."""
    rows: list[Row] = []
    for path in _git_ls(git_dir, "tests/plugins"):
        if not path.endswith("_test.py") or path.endswith("base_test.py"):
            continue
        kind = Path(path).name.removesuffix("_test.py")
        source = "detect-secrets:" + path
        tree = ast.parse(_git_show(git_dir, path))
        env: dict[str, Any] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                env[node.targets[0].id] = _py_eval(node.value, env)
        cases: list[tuple[Any, bool]] = []
        for walked in ast.walk(tree):
            if isinstance(walked, ast.FunctionDef):
                negative = any(w in walked.name for w in ("not", "false", "negative", "no_", "ignore", "invalid"))
                for deco in walked.decorator_list:
                    if isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "parametrize":
                        table = _py_eval(deco.args[1], env) if len(deco.args) > 1 else UNKNOWN
                        if isinstance(table, list):
                            cases.extend((entry, negative) for entry in table)
        for name, value in env.items():
            if name.endswith("TEST_CASES") and isinstance(value, list):
                cases.extend((entry, False) for entry in value)
        for entry, negative in cases:
            case = _case(entry, negative)
            if case is None:
                continue
            label, expected = case
            text = entry[0] if isinstance(entry, list) and isinstance(entry[0], str) else entry
            if not isinstance(text, str) or not text.strip() or len(text) > 4000 or "{secret}" in text:
                continue
            secret = (expected or guess_secret(text)) if label == "secret" else None
            if secret is not None and secret not in text:
                secret = guess_secret(text)
            rows.append(Row(kind, source, label, text, secret))
    return _dedupe(rows)


# --- Nosey Parker: each rule's examples and negative examples (the independent check) ----------

NOSEYPARKER_RULES = "crates/noseyparker/data/default/builtin/rules"


def unverbose(pattern: str) -> str:
    """Return a Rust regex written in verbose mode ``(?x)`` without it, for RE2, which has no such mode.

    Outside a character class, unescaped whitespace is dropped, ``#`` starts a comment to the line's end and
    ``(?# ... )`` is a comment too (Nosey Parker's patterns are written for Hyperscan, which knows both).
    """
    body = pattern.strip()
    flags = re.match(r"\(\?([a-z]*x[a-z]*)\)", body)
    if flags is None:
        return body
    rest = flags.group(1).replace("x", "")
    out: list[str] = [f"(?{rest})"] if rest else []
    in_class = False
    index = flags.end()
    while index < len(body):
        char = body[index]
        if not in_class and body.startswith("(?#", index):
            index = body.index(")", index) + 1
            continue
        if char == "\\":
            out.append(body[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if body[index + 1 : index + 2] == "]" or body[index + 1 : index + 3] == "^]":
                # A ']' first in a class is a member, not its end.
                step = 2 if body[index + 1] == "]" else 3
                out.append(body[index : index + step])
                index += step
                continue
        elif char.isspace():
            index += 1
            continue
        elif char == "#":
            end = body.find("\n", index)
            index = len(body) if end < 0 else end
            continue
        out.append(char)
        index += 1
    return "".join(out)


def _np_secret(match: Any) -> str:
    """Return the secret of a rule's match: its second group when it has two or more, else its first.

    Nosey Parker captures a user name or key id before the secret (``postgres://(user):(pass)@(host)``,
    ``(AKIA...) ... (secret)``), and a rule of one group captures the secret.
    """
    groups = [match.group(i) for i in range(1, (match.re.groups or 0) + 1)]
    if len(groups) >= 2 and groups[1]:
        return str(groups[1])
    return str(next((group for group in groups if group), match.group(0)))


def noseyparker_rows(git_dir: str) -> tuple[list[Row], dict[str, int]]:
    """Return Nosey Parker's rule examples as secrets and its negative examples as look-alikes.

    The secret of an example is what the rule's own pattern captures in it. A negative example of one rule
    that another rule matches (a Slack user token among the negatives of the bot-token rule) is left out:
    only what the whole rule set leaves alone is a look-alike.
    """
    import yaml  # noqa: PLC0415  (the corpus tooling's own dependency, in the test extras)

    rules: list[tuple[str, str, Any, list[str], list[str]]] = []
    left_out = {"patterns RE2 cannot compile": 0, "examples their rule does not match": 0,
                "negative examples another rule matches": 0}  # fmt: skip
    for path in _git_ls(git_dir, NOSEYPARKER_RULES):
        if not path.endswith(".yml"):
            continue
        for rule in yaml.safe_load(_git_show(git_dir, path)).get("rules", []):
            try:
                pattern = re2.compile(unverbose(rule["pattern"]))
            except re2.error:
                left_out["patterns RE2 cannot compile"] += 1
                continue
            source = f"noseyparker:{path}"
            rules.append((rule["id"], source, pattern, rule.get("examples") or [], rule.get("negative_examples") or []))
    rows: list[Row] = []
    for rule_id, source, pattern, examples, negatives in rules:
        for text in examples:
            match = pattern.search(text)
            if match is None:
                left_out["examples their rule does not match"] += 1
                continue
            rows.append(Row(rule_id, source, "secret", text, _np_secret(match)))
        for text in negatives:
            if any(other.search(text) for _, _, other, _, _ in rules):
                left_out["negative examples another rule matches"] += 1
                continue
            rows.append(Row(rule_id, source, "lookalike", text, None))
    return _dedupe(rows), left_out


def main_noseyparker(git_dir: str) -> None:
    """Write the Nosey Parker corpus file."""
    rows, left_out = noseyparker_rows(git_dir)
    _write(OUT / "noseyparker.jsonl", rows)
    secrets = sum(r.label == "secret" for r in rows)
    print(f"noseyparker: {secrets} secrets, {len(rows) - secrets} look-alikes, {len({r.kind for r in rows})} kinds")
    for what, count in left_out.items():
        print(f"noseyparker {what}, left out: {count}")


# --- the rule table -----------------------------------------------------------------------------


def rule_table(toml_text: str, commit: str, license_text: str) -> dict[str, Any]:
    """Return gitleaks' rules in the form records.redact reads: only what applies to text without a path."""
    config = tomllib.loads(toml_text)
    rules = []
    for rule in config["rules"]:
        if "regex" not in rule or "path" in rule:
            continue
        allowlists = []
        for allow in rule.get("allowlists", []):
            if allow.get("paths") or allow.get("commits"):
                continue  # needs a file path or a commit, which a paste has not
            allowlists.append(
                {k: allow[k] for k in ("regexes", "stopwords", "regexTarget", "condition") if allow.get(k)}
            )
        entry: dict[str, Any] = {"id": rule["id"], "regex": rule["regex"], "keywords": rule["keywords"]}
        for key in ("entropy", "secretGroup"):
            if key in rule:
                entry[key] = rule[key]
        if allowlists:
            entry["allowlists"] = allowlists
        rules.append(entry)
    glob = config["allowlist"]
    return {
        "source": f"https://github.com/gitleaks/gitleaks/blob/{commit}/config/gitleaks.toml",
        "license": license_text,
        "allowlist": {"regexes": glob.get("regexes", []), "stopwords": glob.get("stopwords", [])},
        "rules": rules,
    }


_RULES_MODULE = '''# ruff: noqa: E501
"""gitleaks' default rules (regex, keywords, entropy, allowlists), generated by benchmarks/redaction_corpus.py.

Data, not code: ``config/gitleaks.toml`` of gitleaks (MIT licence, reproduced in the table) reduced to what
applies to a paste without a file path. Do not edit by hand; rebuild from a newer snapshot instead.
"""

RULES_JSON = r"""
{json}
"""
'''


MS_RULES_OUT = ROOT / "records" / "redact" / "_ms_rules.py"
# Microsoft's precisely classified keys carry a fixed signature (the keywords); these three have none but
# a label of their own. Patterns without either (AdoLegacyPat: any 52 base32 letters) are left out.
_MS_KEYWORDS = {
    "SEC101/104": ["accountkey"],
    "SEC101/106": ["accountkey", "storagekey"],
    "SEC101/060": ["sig=", "dsas_secret="],
}


def ms_rule_table(wheel: str) -> dict[str, Any]:
    """Return the precisely classified patterns of Microsoft's secret masker (and its SAS rule) as a table."""
    with zipfile.ZipFile(wheel) as archive:
        names = {Path(n).name: n for n in archive.namelist()}
        license_name = next(n for n in archive.namelist() if n.endswith("LICENSE") or n.endswith("License.txt"))
        license_text = archive.read(license_name).decode()
        precise = json.loads(archive.read(names["PreciselyClassifiedSecurityKeys.json"]))
        loose = json.loads(archive.read(names["UnclassifiedPotentialSecurityKeys.json"]))
    chosen = precise + [p for p in loose if p["Id"] == "SEC101/060"]
    rules = []
    for pattern in chosen:
        keywords = [k.lower() for k in pattern.get("Signatures") or []] or _MS_KEYWORDS.get(pattern["Id"])
        if not keywords:
            continue
        compiled = re2.compile(pattern["Pattern"])
        rules.append(
            {
                "id": re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", pattern["Name"]).lower(),
                "ms_id": pattern["Id"],
                "regex": pattern["Pattern"],
                "keywords": keywords,
                "secretGroup": compiled.groupindex.get("refine", 0),
            }
        )
    return {
        "source": f"microsoft-security-utilities-secret-masker ({Path(wheel).name})",
        "license": license_text,
        "allowlist": {"regexes": [], "stopwords": []},
        "rules": rules,
    }


def _write(path: Path, rows: list[Row]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row.encode(), sort_keys=True) + "\n")


def main(gitleaks_dir: str, detect_secrets_dir: str, ms_wheel: str | None = None) -> None:
    """Write the two corpus files and the rule tables."""
    if ms_wheel:
        ms_table = ms_rule_table(ms_wheel)
        MS_RULES_OUT.write_text(
            _RULES_MODULE.replace("gitleaks' default rules", "Microsoft's secret masker rules")
            .replace("``config/gitleaks.toml`` of gitleaks (MIT licence", "its precisely classified keys (MIT licence")
            .format(json=json.dumps(ms_table, indent=1, sort_keys=True)),
            encoding="utf-8",
        )
        print(f"rule table: {len(ms_table['rules'])} rules -> {MS_RULES_OUT.relative_to(ROOT)}")
    table = rule_table(
        _git_show(gitleaks_dir, "config/gitleaks.toml"), _git_head(gitleaks_dir), _git_show(gitleaks_dir, "LICENSE")
    )
    by_id = {rule["id"]: rule for rule in tomllib.loads(_git_show(gitleaks_dir, "config/gitleaks.toml"))["rules"]}
    RULES_OUT.write_text(_RULES_MODULE.format(json=json.dumps(table, indent=1, sort_keys=True)), encoding="utf-8")
    gl_rows, dropped = gitleaks_rows(gitleaks_dir, by_id)
    # A false positive of one gitleaks rule may be a true positive of another (an Anthropic key among the
    # fps of the admin-key rule): only what the whole rule set leaves alone is a look-alike.
    from records.redact import _scanner  # noqa: PLC0415  (reads the table written above)

    flagged = [r for r in gl_rows if r.label == "lookalike" and any(_scanner.scan(r.text, microsoft=False))]
    gl_rows = [r for r in gl_rows if r not in flagged]
    ds_rows = detect_secrets_rows(detect_secrets_dir)
    _write(OUT / "gitleaks.jsonl", gl_rows)
    _write(OUT / "detect_secrets.jsonl", ds_rows)
    for name, rows in (("gitleaks", gl_rows), ("detect-secrets", ds_rows)):
        secrets = sum(r.label == "secret" for r in rows)
        print(f"{name}: {secrets} secrets, {len(rows) - secrets} look-alikes, {len({r.kind for r in rows})} kinds")
    print(f"gitleaks false positives left out (another gitleaks rule flags them): {len(flagged)}")
    print(f"gitleaks true positives left out (not computable or not found by their own rule): {dropped}")
    print(f"rule table: {len(table['rules'])} rules -> {RULES_OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["noseyparker"]:
        main_noseyparker(sys.argv[2])
    else:
        main(*sys.argv[1:4])
