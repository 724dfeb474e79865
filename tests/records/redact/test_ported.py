"""detect-secrets' detectors ported to RE2 (records/redact/_ported.py): what each finds, and what it leaves."""

from __future__ import annotations

import base64
import json
import random
import string

import pytest

from records.redact import PERSONAL_KINDS, marker, redact
from records.redact._ported import (
    DETECT_SECRETS,
    _formally_valid_jwt,
    _keyword_bare,
    _not_example,
    _public_address,
    _slack,
)

_RNG = random.Random(20261202)
_LOWER = string.ascii_lowercase + string.digits


def _r(alphabet: str, n: int) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _b64(value: dict[str, object]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


JWT_UNSIGNED = f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64({'sub': '1234567890', 'name': 'Ada'})}"

# (what, the line as pasted, the secret that must vanish, the kind it is reported as)
FOUND = [
    ("artifactory api key", f"X-JFrog-Art-Api: AKC{_r(_LOWER, 40)}", None, "artifactory_api_key"),
    ("artifactory password", f'password="AP6{_r(_LOWER, 20)}"', None, "artifactory_api_key"),
    ("aws id of regular letters", "key=AKIAZZZZZZZZZZZZZZZZ", "AKIAZZZZZZZZZZZZZZZZ", "aws_access_key"),
    ("cloudant url", f"https://acct:{_r('0123456789abcdef', 64)}@acct.cloudant.com", None, "cloudant_key"),
    ("cloudant label", f"cloudant_pw='{'abcd1234' * 8}'", "abcd1234" * 8, "cloudant_key"),
    ("softlayer flag", f"--softlayer-api-key {'abcd1234' * 8}", "abcd1234" * 8, "softlayer_key"),
    ("ibm cos hmac", f'cos_secret_key = "{_r("0123456789abcdef", 48)}"', None, "ibm_cos_hmac"),
    ("public address", "ConnectionError: 203.0.113.7:8443 timed out", "203.0.113.7:8443", "ip_address"),
    ("unsigned jwt", f"Authorization failed for {JWT_UNSIGNED}", JWT_UNSIGNED, "jwt"),
    ("mailchimp", f"mc = {_r('0123456789abcdef', 32)}-us14", None, "mailchimp_api_key"),
    ("npmrc uuid", "//registry.npmjs.org/:_authToken=346a14f2-a672-4668-a892-956a462ab56e", None, "npm_token"),
    ("slack with numeric parts", "xoxa-511111111-31111111111-e039d02840a0b9379c", None, "slack_token"),
    ("square oauth secret", f"sq0csp-{_r(string.ascii_letters + string.digits, 43)}", None, "square_oauth_secret"),
    ("twilio", f"SK{_r(_LOWER, 32)}", None, "twilio_api_key"),
    ("aws secret near its label", f'aws_key = "{_r(string.ascii_letters, 40)}"', None, "aws_secret_key"),
    ("reversed comparison", 'if ("m{{h}o)p${e]nob(ody" == my_password) {', "m{{h}o)p${e]nob(ody", "generic_secret"),
    ("c++ constructor", 'std::string secret("m{{h}o)p${e]nob");', "m{{h}o)p${e]nob", "generic_secret"),
    ("objective-c", 'password = @"m{{h}o)p${e]nob(ody";', "m{{h}o)p${e]nob(ody", "generic_secret"),
    ("c array", 'char secrete[25] = "m{{h}o)p${e]nob(ody";', "m{{h}o)p${e]nob(ody", "generic_secret"),
    ("bare value with brackets", "db_pass = m{{h}o)p${e]nob(ody[finds", "m{{h}o)p${e]nob(ody[finds", "generic_secret"),
    ("escaped json quotes", '{"cfg": "password = \\"value with spaces\\""}', "value with spaces", "generic_secret"),
]


@pytest.mark.parametrize(("what", "line", "secret", "kind"), FOUND, ids=[case[0] for case in FOUND])
def test_each_ported_detector_finds_its_format(what: str, line: str, secret: str | None, kind: str) -> None:
    result = redact(f"Traceback (most recent call last):\nRuntimeError: {line}\n")
    wanted = secret if secret is not None else line.rsplit(" ", 1)[-1].split("=", 1)[-1].strip("\"'")
    assert wanted not in result.text
    assert marker(kind) in result.text


LEFT = [
    ("aws documented example", "aws_access_key: AKIAIOSFODNN7EXAMPLE"),
    ("aws filled with X", "key = AKIAXXXXXXXXXXXXXXXX"),
    ("aws inside a word", "TODAYINASIAASACKOFRICEFELLOVER"),
    ("private address", "connect to 192.168.1.20:5432 failed"),
    ("loopback and unspecified", "Running on http://127.0.0.1:7860 and http://0.0.0.0:7860"),
    ("pinned version with four parts", "nvidia-cudnn-cu12==8.9.2.26"),
    ("slack cut short", "xoxb-12345-abcd234"),
    ("jwt-like text that is no json", "eyJhbasdGciOiJIUaddasd.eyJzdWIiOiIxMjM0NTY3OD"),
    ("dotted name", "secret_key = settings.SECRET_KEY"),
    ("call", "api_key = get_secret('x')"),
    ("template", "password: ${DB_PASSWORD}"),
    ("prose after a label", "ValueError: Invalid password: must hold 8 characters"),
    ("mysql's note", "Access denied for user 'root'@'localhost' (using password: YES)"),
]


@pytest.mark.parametrize(("what", "line"), LEFT, ids=[case[0] for case in LEFT])
def test_look_alikes_are_left_alone(what: str, line: str) -> None:
    result = redact(line)
    assert [f.kind for f in result.findings if f.kind not in PERSONAL_KINDS - {"ip_address"}] == []


def test_a_long_env_dump_line_of_letters_and_digits_is_ours_not_a_ported_candidate() -> None:
    # Folded case-insensitively, a class of non-ASCII letters holds 'k' and 's' (the Kelvin sign, the long
    # s); the bare keyword rule keeps its value case-sensitive, so a token of letters and digits (ours to
    # find) is no match of it, however many 's' it holds.
    bare = next(r for r in DETECT_SECRETS if r.accept is _keyword_bare)
    assert list(bare.pattern.spans("SERVICE_0_API_KEY=qQQ0lojnTiGnsAZLarj2YXZU\n")) == []
    assert list(bare.pattern.spans("SERVICE_0_API_KEY=m{{h}o)p$[e]nob\n"))


def test_public_addresses_are_personal_data_not_a_leaked_credential() -> None:
    result = redact("requests.exceptions.ConnectTimeout: 198.51.100.23 did not answer")
    assert [f.kind for f in result.findings] == ["ip_address"]
    assert not result.has_live_secret


@pytest.mark.parametrize(
    ("value", "public"),
    [("8.8.8.8", True), ("203.0.113.7:443", True), ("10.1.2.3", False), ("172.16.0.1", False),
     ("169.254.1.1", False), ("127.0.0.1:80", False), ("0.0.0.0", False)],
)  # fmt: skip
def test_public_address(value: str, public: bool) -> None:
    assert _public_address(value) is public


def test_formally_valid_jwt() -> None:
    assert _formally_valid_jwt(JWT_UNSIGNED)
    assert _formally_valid_jwt(JWT_UNSIGNED + ".c2lnbmF0dXJl")
    assert not _formally_valid_jwt("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ.eyJzdWIiOiIxMjM0In0")  # header cut
    assert not _formally_valid_jwt("eyJabc.eyJd")  # a length no base64 has


@pytest.mark.parametrize(
    ("value", "accepted"),
    [("xoxa-1-2-e039d02840a0b9379c", True), ("xoxp-1-initial", False), ("xoxb-12345-abcd234", False)],
)
def test_slack(value: str, accepted: bool) -> None:
    assert _slack(value) is accepted


@pytest.mark.parametrize(
    ("value", "accepted"),
    [("AKIAZZZZZZZZZZZZZZZZ", True), ("AKCxxxxxxxxxx", True), ("AKIAXXXXXXXXXXXXXXXX", False),
     ("AKIAIOSFODNN7EXAMPLE", False)],
)  # fmt: skip
def test_not_example(value: str, accepted: bool) -> None:
    assert _not_example(value) is accepted


@pytest.mark.parametrize(
    ("value", "accepted"),
    [("m{{h}o)p${e]nob", True), ("s3cr3t;pass", True), ("real_key", False), ("${link}", False),
     ("os.environ[KEY]", False), ("get_key()", False), ("a{b}", False)],
)  # fmt: skip
def test_keyword_bare(value: str, accepted: bool) -> None:
    assert _keyword_bare(value) is accepted
