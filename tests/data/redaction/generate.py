"""Regenerate the redaction corpus: ``python tests/data/redaction/generate.py``.

Writes ``positives.jsonl`` (text, kind, secret: the secret must vanish and be reported as that kind)
and ``lookalikes.jsonl`` (text, why: must come out unchanged). Output is deterministic (fixed seed),
so a diff after regenerating means the generator changed.

Every generated credential is fake: random characters around the word FAKE (or fake), so none can be
a live token; GitHub tokens would also fail their built-in checksum.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from pathlib import Path

SEED = 20240611
HERE = Path(__file__).resolve().parent
ALNUM = string.ascii_letters + string.digits
B64URL = ALNUM + "-_"
UPPER_DIGITS = string.ascii_uppercase + string.digits


def _pick(rng: random.Random, alphabet: str, n: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _fake(rng: random.Random, alphabet: str, n: int, word: str = "FAKE") -> str:
    """Return n characters of alphabet with the word inside and at least one digit."""
    body = _pick(rng, alphabet, n - len(word) - 1) + rng.choice(string.digits)
    cut = rng.randrange(len(body))
    return body[:cut] + word + body[cut:]


def _openai_marked(body: str) -> str:
    """Return a key body with OpenAI's marker after its word FAKE (no more random draws: the rest stays)."""
    return body.replace("FAKE", "FAKET3BlbkFJ", 1)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# One generator per credential kind; some kinds have several shapes.
TOKENS: dict[str, list[Callable[[random.Random], str]]] = {
    "huggingface_token": [lambda r: "hf_" + _fake(r, ALNUM, 34)],
    "openai_key": [
        lambda r: "sk-" + _fake(r, ALNUM, 48),
        # OpenAI's project and service-account keys carry its marker, 'OpenAI' in base64.
        lambda r: "sk-proj-" + _openai_marked(_fake(r, B64URL, 120)),
        lambda r: "sk-svcacct-" + _openai_marked(_fake(r, B64URL, 60)),
    ],
    "anthropic_key": [lambda r: "sk-ant-api03-" + _fake(r, B64URL, 93) + "AA"],
    "github_token": [
        lambda r: r.choice(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + _fake(r, ALNUM, 36),
        lambda r: "github_pat_" + _fake(r, ALNUM, 22) + "_" + _fake(r, ALNUM, 59),
    ],
    "aws_access_key": [lambda r: r.choice(["AKIA", "ASIA"]) + _fake(r, UPPER_DIGITS, 16)],
    "google_api_key": [lambda r: "AIza" + _fake(r, B64URL, 35)],
    "slack_token": [
        lambda r: (
            f"xox{r.choice('bpa')}-{_pick(r, string.digits, 12)}-{_pick(r, string.digits, 13)}-" + _fake(r, ALNUM, 24)
        ),
        lambda r: f"xapp-1-A{_pick(r, UPPER_DIGITS, 10)}-{_pick(r, string.digits, 13)}-" + _fake(r, ALNUM, 64),
    ],
    "discord_token": [
        lambda r: (
            _b64url(str(r.randrange(10**17, 10**19)).encode())
            + "."
            + _pick(r, B64URL, 6)
            + "."
            + _fake(r, B64URL, r.choice([27, 38]))
        )
    ],
    "jwt": [
        lambda r: (
            _b64url(b'{"alg":"HS256","typ":"JWT"}')
            + "."
            + _b64url(json.dumps({"sub": _pick(r, string.digits, 8), "fake": True}).encode())
            + "."
            + _fake(r, B64URL, 43)
        )
    ],
    "stripe_key": [lambda r: r.choice(["sk_live_", "rk_live_", "sk_test_"]) + _fake(r, ALNUM, 24)],
    "gitlab_token": [lambda r: "glpat-" + _fake(r, B64URL, 20)],
    "npm_token": [lambda r: "npm_" + _fake(r, ALNUM, 36)],
    "pypi_token": [lambda r: "pypi-AgEIcHlwaS5vcmc" + _fake(r, B64URL, 70)],
    "replicate_token": [lambda r: "r8_" + _fake(r, ALNUM, 37)],
    "groq_key": [lambda r: "gsk_" + _fake(r, ALNUM, 52)],
}

# Where a pasted token turns up; {s} is the token.
TOKEN_CONTEXTS = {
    "traceback": (
        'Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n'
        "    client.login()\nPermissionError: 401 Unauthorized for credential {s}\n"
    ),
    "url": "requests.exceptions.HTTPError: 403 for url: https://api.example.com/v1/models?key={s}&page=2",
    "dotenv": "# .env\nDEBUG=1\nSERVICE_CREDENTIAL={s}\nPORT=8000",
    "json": '{{"name": "demo", "credential": "{s}", "retries": 3}}',
    "repr": "Config(endpoint='https://api.example.com', credential='{s}', timeout=30)",
    "bearer": "> GET /v1/me HTTP/1.1\n> Authorization: Bearer {s}\n< HTTP/1.1 401 Unauthorized",
    "log": "2024-05-01 12:00:03,114 INFO client: using credential {s} for upload",
    "quoted": 'ValueError: the credential "{s}" was rejected by the server',
    "line_start": "{s}\n^ this is what I put in the settings",
    "line_end": "here is what I tried, the credential is {s}",
}

PRIVATE_KEY_HEADERS = ["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"]


def _pem(r: random.Random, header: str, complete: bool = True, newline: str = "\n") -> tuple[str, str]:
    lines = [_fake(r, ALNUM + "+/", 64) for _ in range(r.randint(2, 4))]
    end = f"{newline}-----END {header}-----" if complete else ""
    return f"-----BEGIN {header}-----{newline}" + newline.join(lines) + end, lines[0]


def _private_keys(r: random.Random) -> list[tuple[str, str]]:
    out = []
    for header in PRIVATE_KEY_HEADERS:
        pem, line = _pem(r, header)
        out.append((f"I pasted my key by mistake:\n{pem}\nthen got ValueError", line))
        pem, line = _pem(r, header, complete=False)
        out.append((f"ValueError: Could not deserialize key data:\n{pem}", line))
        pem, line = _pem(r, header, newline="\\n")
        out.append(('{"type": "service_account", "private_key": "' + pem + '\\n", "id": 1}', line))
    pem, line = _pem(r, "ENCRYPTED PRIVATE KEY")
    out.append((f"key = {pem!r}", line))
    pem, line = _pem(r, "PGP PRIVATE KEY BLOCK")
    out.append((pem, line))
    return out


def _name(r: random.Random) -> str:
    return r.choice(["jdoe", "msmith", "akumar", "lchen", "fake"]) + _pick(r, string.digits, 4)


def _personal(r: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for template in [
        'Traceback (most recent call last):\n  File "/home/{u}/proj/train.py", line 4, in <module>',
        '  File "/Users/{u}/Library/Python/3.11/lib/python/site-packages/torch/nn/modules/module.py"',
        'File "C:\\Users\\{u}\\AppData\\Local\\Programs\\Python\\Python311\\lib\\site.py", line 3',
        "OSError: [Errno 2] No such file or directory: 'C:\\\\Users\\\\{u}\\\\Desktop\\\\data.csv'",
        "FileNotFoundError: C:/Users/{u}/Documents/model.bin",
        "sys.path = ['/home/{u}/.local/lib/python3.11/site-packages']",
        '{{"cwd": "/home/{u}", "python": "3.11"}}',
        "export PATH=/Users/{u}/bin:$PATH",
    ]:
        u = _name(r)
        out.append((template.format(u=u), "home_user", u))
    for template in [
        "2024-05-01 WARNING auth: login failed for {e}",
        '{{"author": "{e}", "ok": false}}',
        "ValueError: invalid recipient '{e}'",
        "{e} wrote: it crashes on import",
        "please contact {e}",
        "User(name='x', email={e!r})",
        "see mailto:{e} for access",
        "smtplib.SMTPRecipientsRefused: {{'{e}': (550, b'no such user')}}",
    ]:
        e = f"{_name(r)}.{r.choice(['dev', 'ml', 'x'])}@{r.choice(['example.com', 'mail.example.org'])}"
        out.append((template.format(e=e), "email", e))
    return out


def _labelled(r: random.Random) -> list[tuple[str, str, str]]:
    out = []
    for template in [
        "AWS_SECRET_ACCESS_KEY={s}",
        "aws_secret_access_key = {s}",
        '{{"AccessKeyId": "AKIA-redacted", "SecretAccessKey": "{s}"}}',
        "botocore creds: {{'aws_secret_access_key': '{s}', 'region': 'eu-west-1'}}",
    ]:
        s = _fake(r, ALNUM + "+/", 40)
        out.append((template.format(s=s), "aws_secret_key", s))
    for template in [
        "DATABASE_URL=postgres://app:{p}@db.internal:5432/prod",
        "sqlalchemy.exc.OperationalError: could not connect to mysql://root:{p}@10.0.0.5/app",
        "redis.exceptions.ConnectionError: redis://:{p}@cache:6379/0 refused",
        "git clone https://oauth2:{p}@gitlab.example.com/team/repo.git",
        '{{"broker": "amqp://guest:{p}@rabbit:5672//"}}',
        "Settings(url='https://svc:{p}@api.example.com/v1')",
    ]:
        p = _fake(r, ALNUM, 16, "fake")
        out.append((template.format(p=p), "url_credentials", p))
    for template in [
        "API_KEY={s}",
        '{{"password": "{s}"}}',
        "GET /download?token={s}&file=a.bin",
        "connect(host='db', password='{s}')",
        "2024-05-01 DEBUG settings: client_secret: {s}",
        "MY_SERVICE_API_KEY = {s}",
    ]:
        s = _fake(r, ALNUM, 24, "fake")
        out.append((template.format(s=s), "generic_secret", s))
    for template in [
        "curl -H 'Authorization: Bearer {s}' https://api.example.com",
        '{{"headers": {{"Authorization": "Bearer {s}"}}}}',
        "Authorization: Basic {s}",
    ]:
        s = _fake(r, ALNUM, 32, "fake")
        out.append((template.format(s=s), "bearer_token", s))
    for template in [
        "https://discord.com/api/webhooks/{i}/{s}",
        "requests.post('https://discordapp.com/api/webhooks/{i}/{s}', json=payload)",
    ]:
        i, s = _pick(r, string.digits, 18), _fake(r, B64URL, 68)
        out.append((template.format(i=i, s=s), "discord_webhook", s))
    s = f"T{_pick(r, UPPER_DIGITS, 8)}/B{_pick(r, UPPER_DIGITS, 8)}/{_fake(r, ALNUM, 24)}"
    out.append((f"SLACK_WEBHOOK=https://hooks.slack.com/services/{s}", "slack_webhook", s))
    return out


def build_positives() -> list[dict[str, str]]:
    """Return every true positive of the corpus, in a fixed order."""
    r = random.Random(SEED)
    rows = []
    for kind, makers in TOKENS.items():
        for index, (context, template) in enumerate(TOKEN_CONTEXTS.items()):
            secret = makers[index % len(makers)](r)
            rows.append({"text": template.format(s=secret), "kind": kind, "secret": secret, "context": context})
    for text, secret in _private_keys(r):
        rows.append({"text": text, "kind": "private_key", "secret": secret, "context": "pem"})
    for text, kind, secret in _personal(r) + _labelled(r):
        rows.append({"text": text, "kind": kind, "secret": secret, "context": "labelled"})
    return rows


def build_lookalikes() -> list[dict[str, str]]:
    """Return texts that resemble secrets or personal data but must be left alone."""
    r = random.Random(SEED + 1)
    sha, digest = _pick(r, "0123456789abcdef", 40), _pick(r, "0123456789abcdef", 64)
    rows = [
        (f"commit {sha}\nAuthor: CI", "git SHA"),
        (f"fatal: reference is not a tree: {sha[:7]}", "short git SHA"),
        ("request id 123e4567-e89b-12d3-a456-426614174000 failed", "UUID"),
        (f"pulling sha256:{digest}", "image digest"),
        ("from huggingface_hub import hf_hub_download, hf_hub_url", "hf_ function names"),
        ('hf_hub_download(repo_id="meta-llama/Llama-3-8B", filename="config.json")', "model id"),
        ("pip install scikit-learn  # the sk-learn package is deprecated; import sklearn", "sk-learn"),
        ("task-8f14e45fceea167a5a36dedd4bea2543 finished with exit code 1", "task id"),
        ("OSError: mistralai/Mistral-7B-v0.1 is not a local folder", "model id"),
        ("<img src='data:image/png;base64,iVBORw0KGgo='>", "short base64 image"),
        ("Files are kept under /home/ on Linux and /Users/ on macOS.", "home without a user"),
        ("RuntimeError: shape torch.Size([16, 3, 224, 224]) is invalid for input of size 512", "shape"),
        ("<function forward at 0x7f3a2b1c4d50>", "hex address"),
        ("ghp_count = 0\nhf_token_path = get_token_path()", "identifiers"),
        ("torch==2.1.0+cu121 transformers==4.41.2 numpy 1.26.4", "versions"),
        ("AWS access key ids start with AKIA and are twenty characters long", "AKIA in prose"),
        ("connect(password=None, token=True, secret=False)", "empty assignments"),
        ("generate(max_new_tokens=512, num_tokens=2048, token_type_ids=ids)", "token-ish names"),
        ("401: Bearer token missing from the request", "bearer in prose"),
        ("ssh: connect to host user@localhost port 22: Connection refused", "address without a domain"),
        ("git@github.com: Permission denied (publickey).", "ssh remote"),
        ("FileNotFoundError: static/icon@2x.png", "retina asset name"),
        ("@dataclass(frozen=True)\nclass Point:", "decorator"),
        (
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n",
            "certificate",
        ),
        (
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n",
            "public key",
        ),
        ("ValueError: expected -----BEGIN PRIVATE KEY----- header", "bare header in prose"),
        ("header eyJhbGciOiJIUzI1NiJ9 has no payload", "lone JWT header"),
        ("disk-usage is high; a risk-free retry is fine", "sk- inside words"),
        ("the x-api-key header is required", "api key in prose"),
        ("ConnectionError: http://localhost:8080/health refused", "URL with a port"),
        ("C:\\Program Files\\Python311\\python.exe -m pip", "Windows path without a user"),
        ("model.layers.0.self_attn.q_proj.weight is missing", "dotted names"),
        ("xoxo-gossip-girl-fan-club is my channel", "xox in a word"),
        ("Authorization: Bearer <your token here>", "placeholder"),
        ('api_key = os.environ["OPENAI_API_KEY"]', "environment lookup"),
        ("model = AutoModel.from_pretrained(name, token=hf_token)", "token from a variable"),
        ("publishable key pk_live_51HFakeFakeFakeFake is fine in a browser", "Stripe publishable key"),
        ("user id 123456789012345678 is not in the guild", "Discord id alone"),
        ("ASIA-PACIFIC region is not available", "ASIA in prose"),
        ("y = x@self.weight.T", "matrix product"),
        ("installed torch@2.1.0 from the cache", "version with @"),
        ("password: str = Field(min_length=8)", "type annotation"),
    ]
    return [{"text": text, "why": why} for text, why in rows]


def _write(path: Path, rows: list[dict[str, str]]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")


def main() -> None:
    """Write both corpus files next to this script."""
    _write(HERE / "positives.jsonl", build_positives())
    _write(HERE / "lookalikes.jsonl", build_lookalikes())


if __name__ == "__main__":
    main()
