"""Recall and false positives of ``redact`` on the scanner corpus, per kind, and p99 on 16 KB pastes.

Run: ``python -m benchmarks.eval_redact [RUNS]`` (``make eval-redact``). Targets: recall ≥ 97% on each
corpus (every kind ≥ 90%), false positives ≤ 2%, p99 ≤ 5 ms for a 16 KB paste.

Every fixture of ``tests/data/redaction/scanners/`` is embedded in five contexts (a traceback line, an
environment dump, JSON, a URL query and a log line). A secret counts as found in a context when its text,
as that context spells it, is gone from the output; a look-alike counts as a false positive in a context
when a finding overlaps the fixture (e-mail addresses and home directories aside, which no fixture labels).
gitleaks' and detect-secrets' fixtures tune the rules (tracebot runs gitleaks' table and detectors ported from
detect-secrets); Nosey Parker's rule examples are the independent check, never looked at to write a rule.
"""

from __future__ import annotations

import base64
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from benchmarks.bench_redact import main as bench_main
from records.redact import redact

# The fixtures label no e-mail address or home directory, which are hidden as personal data wherever they
# are; every other finding over a look-alike counts against the redactor (a public address included).
UNLABELLED_KINDS = frozenset({"email", "home_user"})
CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "redaction" / "scanners"
SETS = {
    "gitleaks (tuning)": "gitleaks.jsonl",
    "detect-secrets (tuning)": "detect_secrets.jsonl",
    "noseyparker (independent)": "noseyparker.jsonl",
}


@dataclass(frozen=True, slots=True)
class Fixture:
    """One decoded corpus line."""

    kind: str
    source: str
    label: str
    text: str
    secret: str | None


def load(name: str) -> list[Fixture]:
    """Return the decoded fixtures of one corpus file."""
    rows = []
    with (CORPUS / name).open(encoding="utf-8") as handle:
        for line in handle:
            row = json.loads(line)
            secret = row.get("secret_b64")
            rows.append(
                Fixture(
                    row["kind"],
                    row["source"],
                    row["label"],
                    base64.b64decode(row["b64"]).decode("utf-8", "surrogatepass"),
                    base64.b64decode(secret).decode("utf-8", "surrogatepass") if secret else None,
                )
            )
    return rows


def _json(value: str) -> str:
    return json.dumps(value)[1:-1]


def _url(value: str) -> str:
    return quote(value, safe=":/=-_.~@$!*'(),;+")


# Each context: how it spells the fixture, and the text around it ({} is the fixture so spelled).
CONTEXTS: dict[str, tuple[Callable[[str], str], str]] = {
    "traceback": (
        str,
        'Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n'
        "    client.connect()\nRuntimeError: connection refused with {}\n",
    ),
    "env": (str, "PATH=/usr/local/bin:/usr/bin\nLANG=C.UTF-8\n{}\nPYTHONUNBUFFERED=1\n"),
    "json": (_json, '{{"service": "api", "config": "{}", "retries": 3}}'),
    "url": (_url, "requests.exceptions.HTTPError: 401 for url: https://api.example.com/v1/items?q={}&page=2"),
    "log": (str, "2026-12-01 11:20:03,114 ERROR worker[4411]: request failed: {} (retry 2/5)\n"),
}


def embed(fixture: Fixture, context: str) -> tuple[str, int, int, str | None]:
    """Return the text of a fixture in a context, the fixture's span in it, and the secret as spelled there."""
    spell, template = CONTEXTS[context]
    before = template.index("{}") - template[: template.index("{}")].count("{{")
    body = spell(fixture.text)
    text = template.format(body)
    return text, before, before + len(body), spell(fixture.secret) if fixture.secret else None


def disputed(fixture: Fixture, secrets: frozenset[str]) -> bool:
    """Tell whether a look-alike holds a value its own corpus labels a secret elsewhere.

    detect-secrets tests each plugin on its own: a GitHub token is a negative of the GitLab plugin, and the
    keyword plugin's secret value is a negative in the file types where it wants quotes. A redactor that
    sees no file type and runs every rule cannot leave both alone.
    """
    return fixture.label != "secret" and any(secret in fixture.text for secret in secrets)


def evaluate(fixtures: list[Fixture]) -> dict[str, dict[str, int]]:
    """Return per kind: secrets found/total and look-alikes altered/total, over every context.

    ``disputed`` and ``altered_disputed`` count the look-alike embeddings that ``disputed`` tells.
    """
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    secrets = frozenset(f.secret for f in fixtures if f.label == "secret" and f.secret)
    for fixture in fixtures:
        contested = disputed(fixture, secrets)
        for context in CONTEXTS:
            text, start, end, secret = embed(fixture, context)
            result = redact(text)
            row = counts[fixture.kind]
            if fixture.label == "secret":
                assert secret is not None
                row["secrets"] += 1
                row["found"] += secret not in result.text
            else:
                row["lookalikes"] += 1
                altered = any(
                    f.kind not in UNLABELLED_KINDS and f.start < end and f.end > start for f in result.findings
                )
                row["altered"] += altered
                row["disputed"] += contested
                row["altered_disputed"] += altered and contested
    return counts


def report(name: str, counts: dict[str, dict[str, int]]) -> dict[str, float]:
    """Print the per-kind table of one corpus and return its totals."""
    secrets = sum(c["secrets"] for c in counts.values())
    found = sum(c["found"] for c in counts.values())
    lookalikes = sum(c["lookalikes"] for c in counts.values())
    altered = sum(c["altered"] for c in counts.values())
    print(f"\n{name}: {len(counts)} kinds, {secrets} secret and {lookalikes} look-alike embeddings")
    print(f"{'kind':<44}{'recall':>14}{'false pos.':>14}")
    for kind, c in sorted(counts.items()):
        recall = f"{c['found']}/{c['secrets']}" if c["secrets"] else "-"
        false = f"{c['altered']}/{c['lookalikes']}" if c["lookalikes"] else "-"
        flag = " <" if (c["secrets"] and c["found"] < 0.9 * c["secrets"]) or c["altered"] else ""
        print(f"{kind:<44}{recall:>14}{false:>14}{flag}")
    clear = lookalikes - sum(c["disputed"] for c in counts.values())
    altered_clear = altered - sum(c["altered_disputed"] for c in counts.values())
    totals = {
        "recall": found / secrets if secrets else 1.0,
        "false_positives": altered / lookalikes if lookalikes else 0.0,
        "undisputed_false_positives": altered_clear / clear if clear else 0.0,
        "kinds_under_90": sum(1 for c in counts.values() if c["secrets"] and c["found"] < 0.9 * c["secrets"]),
    }
    print(
        f"TOTAL {name}: recall {totals['recall']:.1%} ({found}/{secrets}), kinds under 90%: "
        f"{totals['kinds_under_90']}, false positives {totals['false_positives']:.1%} ({altered}/{lookalikes}); "
        f"on the look-alikes holding no value the corpus labels a secret "
        f"{totals['undisputed_false_positives']:.1%} ({altered_clear}/{clear})"
    )
    return totals


def main(runs: int = 300) -> dict[str, dict[str, float]]:
    """Evaluate both corpora and time the 16 KB pastes."""
    figures = {name: report(name, evaluate(load(path))) for name, path in SETS.items()}
    print()
    timing = bench_main(runs)
    for clock in ("p99", "cpu_p99"):
        name, worst = max(timing.items(), key=lambda item: item[1][clock])
        print(f"worst {clock} over the 16 KB pastes: {worst[clock]:.2f} ms ({name}; target 5 ms)")
    print(f"traceback paste: p99 {timing['traceback']['p99']:.2f} ms, cpu p99 {timing['traceback']['cpu_p99']:.2f} ms")
    return figures


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
