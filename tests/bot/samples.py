"""Records, matches and checks shared by the tests of the embeds, views and renderers."""

from __future__ import annotations

from typing import Any

import discord

from records.matching import Match
from records.model import Record

CURATED = Record(
    id="4d5eb924124591f3",
    error_class="ValueError",
    error_message="assisted generation is not supported with stateful models, such as {self.__class__.__name__}",
    documentation="Models flagged `_is_stateful` keep irreversible state.",
    solutions=["Remove `assistant_model`.", "Use a non-stateful model."],
    example_fix="out = model.generate(**inputs)",
    trigger_scenarios="`model.generate(..., assistant_model=a)` on a stateful model",
    common_situations="Speculative decoding.",
    file_path="src/transformers/generation/utils.py",
    line_number=1581,
    github_url="https://github.com/huggingface/transformers/blob/abc/src/transformers/generation/utils.py#L1581",
)
MINED = Record(
    id="766d0cc8a49549b7",
    origin="mined",
    error_class="ValueError",
    error_message="QianfanOCR does not support video input. Got {{'videos': {n}}}",
    trigger_scenarios="if videos is not None",
    documentation="# videos are not supported by this processor",
    source_code="def f(videos=None):\n    if videos is not None:\n        raise ValueError('no video')\n    return 1\n",
    source_code_start=100,
    line_number=102,
    file_path="src/transformers/models/qianfan_ocr/processing_qianfan_ocr.py",
    library_version="5.24.0",
    enclosing_class="QianfanOCRProcessor",
    enclosing_function="validate_inputs",
)


def match(record_id: str = "r1", score: float = 97.4, **extra: Any) -> Match:
    """Return a match for tests."""
    fields: dict[str, Any] = {
        "id": record_id,
        "score": score,
        "error_class": "KeyError",
        "error_message": "missing key {name}",
        "file_path": "src/lib/core.py",
        "line_number": 10,
        "location_id": record_id,
        "versions": ("4.57.6", "5.24.0"),
        "why": ("pattern matches",),
    }
    return Match(**(fields | extra))


def assert_within_limits(embed: discord.Embed) -> None:
    """Check every limit Discord enforces on an embed."""
    data = embed.to_dict()
    assert len(data.get("title", "")) <= 256
    assert len(data.get("description", "")) <= 4096
    assert len(data.get("fields", [])) <= 25
    for field in data.get("fields", []):
        assert 0 < len(field["name"]) <= 256 and 0 < len(field["value"]) <= 1024
    assert len(data.get("footer", {}).get("text", "")) <= 2048
    assert len(embed) <= 6000


PASTED = "assisted generation is not supported with stateful models, such as MambaForCausalLM"


def fields_of(embed: discord.Embed) -> dict[str, str]:
    """Return an embed's fields by name."""
    return {f["name"]: f["value"] for f in embed.to_dict().get("fields", [])}
