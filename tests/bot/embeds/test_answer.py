"""The answer embed, checked through ``embed.to_dict()``: content, variants and Discord's limits."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.embeds import ambiguous_embed, answer_embed, headline, search_embed, source_excerpt
from bot.render.text import record_text
from records.model import Record
from tests.bot.samples import CURATED, MINED, PASTED, assert_within_limits, fields_of, match


def test_curated_answer_has_every_section_and_the_confidence() -> None:
    data = answer_embed(CURATED, match(CURATED.id), pasted=PASTED).to_dict()
    assert data["title"] == "ValueError: " + PASTED
    assert data["description"].startswith("**What it means**\nModels flagged")
    fields = {f["name"]: f["value"] for f in data["fields"]}
    assert list(fields) == ["How to fix", "Example fix", "When it happens", "Raised at", "Versions that raise it"]
    assert fields["How to fix"] == "1. Remove `assistant_model`.\n2. Use a non-stateful model."
    assert fields["Example fix"] == "```py\nout = model.generate(**inputs)\n```"
    assert fields["When it happens"].startswith("**Trigger:**") and "Speculative decoding." in fields["When it happens"]
    assert fields["Raised at"] == (
        "`src/transformers/generation/utils.py:1581`\nMessage: `" + CURATED.error_message + "`"
    )
    assert fields["Versions that raise it"] == "4.57.6, 5.24.0"
    assert data["footer"]["text"] == f"record {CURATED.id} · match confidence 97% · curated"


def test_without_the_paste_the_title_shows_placeholders_as_an_ellipsis() -> None:
    assert (
        answer_embed(CURATED).title
        == "ValueError: assisted generation is not supported with stateful models, such as …"
    )
    other = answer_embed(CURATED, pasted="a message of some other error").title
    assert other == "ValueError: assisted generation is not supported with stateful models, such as …"


def test_mined_answer_shows_condition_comment_and_source() -> None:
    data = answer_embed(MINED).to_dict()
    assert data["title"] == "ValueError: QianfanOCR does not support video input. Got {'videos': …}"
    assert "description" not in data  # no explanation of its own
    fields = {f["name"]: f["value"] for f in data["fields"]}
    assert list(fields) == ["When it happens", "Raised at", "Source", "Versions that raise it"]
    assert (
        fields["When it happens"]
        == "Raised when `if videos is not None`\n> \\# videos are not supported by this processor"  # not a heading
    )
    assert ">102          raise ValueError('no video')" in fields["Source"]
    assert fields["Raised at"].startswith("`src/transformers/models/qianfan_ocr/processing_qianfan_ocr.py:102`")
    assert (
        "in `QianfanOCRProcessor.validate_inputs`\nMessage: `QianfanOCR does not support video input. Got {'videos': {n}}`"
        in fields["Raised at"]
    )
    assert fields["Versions that raise it"] == "5.24.0"
    assert data["footer"]["text"] == f"record {MINED.id} · mined from source"
    assert data["color"] != answer_embed(CURATED).to_dict()["color"]


def test_a_mined_record_with_generated_text_reads_like_a_curated_one() -> None:
    record = MINED.model_copy(
        update={
            "documentation": "The processor takes images only.",
            "solutions": ["Drop `videos=`.", "Use a video processor."],
            "example_fix": "processor(images=frames)",
            "generated": ["documentation", "solutions", "exampleFix"],
        }
    )
    data = answer_embed(record, match(record.id, versions=("5.24.0",))).to_dict()
    assert data["description"] == "**What it means**\nThe processor takes images only."
    names = [f["name"] for f in data["fields"]]
    assert names == ["How to fix", "Example fix", "When it happens", "Raised at", "Source", "Versions that raise it"]
    assert fields_of(answer_embed(record))["When it happens"] == "Raised when `if videos is not None`"
    assert data["footer"]["text"].endswith("· mined from source · explanation generated from the source")
    partly = record.model_copy(update={"generated": ["solutions"]})
    assert (answer_embed(partly).footer.text or "").endswith("· generated from the source: solutions")


def test_a_message_only_older_releases_raise_says_so_in_the_versions_field() -> None:
    fields = fields_of(answer_embed(MINED, match(MINED.id, versions=("4.57.6",)), shipped=("5.24.0", "4.57.6")))
    assert fields["Versions that raise it"].startswith("4.57.6\nNot raised as is by 5.24.0, which is newer:")
    located = match(MINED.id, versions=("4.57.6",), line_versions=("4.57.6",))
    fields = fields_of(answer_embed(MINED, located))
    assert fields["Versions that raise it"] == "4.57.6\nYour traceback matches 4.57.6 (its raising line)."


def test_the_versions_field_names_the_library() -> None:
    record = MINED.model_copy(update={"repo": "huggingface/transformers"})
    assert fields_of(answer_embed(record, match(MINED.id)))["Versions that raise it"] == "transformers 4.57.6, 5.24.0"


def test_a_curated_record_no_shipped_version_raises_says_so() -> None:
    record = CURATED.model_copy(update={"analyzed_sha": "a597f97485"})
    fields = fields_of(answer_embed(record, match(record.id, versions=()), shipped=("5.24.0", "4.57.6")))
    assert fields["Versions"] == "Not raised by 5.24.0 or 4.57.6; this record was written for `a597f97485`."
    assert "Versions" not in fields_of(answer_embed(record, match(record.id, versions=())))  # nothing shipped
    assert "Versions" not in fields_of(answer_embed(record, None, shipped=("5.24.0",)))  # no paste, no claim


def test_source_excerpt_windows_around_the_raising_line() -> None:
    lines = "\n".join(f"line {n}" for n in range(1, 41))
    record = Record(id="x", error_message="m", source_code=lines, source_code_start=1, line_number=20)
    excerpt = source_excerpt(record)
    assert excerpt is not None
    shown = excerpt.splitlines()
    assert shown[0] == " 14  line 14" and shown[6] == ">20  line 20" and shown[-1] == " 24  line 24"
    assert source_excerpt(Record(id="x", error_message="m")) is None
    outside = Record(id="x", error_message="m", source_code=lines, line_number=3631)
    assert source_excerpt(outside) is None  # a window of other code would mislead


def test_headline_is_one_line_with_placeholders_shown_as_an_ellipsis() -> None:
    assert headline(None, "\n\nfirst\nsecond") == "Error: first second"
    assert headline("E", "") == "E: (no message)"
    assert headline("E", "missing {name} in {{config}}") == "E: missing … in {config}"
    assert headline("E", "missing {name}", pasted="missing 'lr'") == "E: missing 'lr'"


huge_text = st.text(min_size=0, max_size=285).map(lambda s: s * 700)  # up to 199,500 characters (the cap)
huge_list = st.lists(st.text(max_size=50).map(lambda s: s * 100), max_size=200)


@st.composite
def records(draw: st.DrawFn) -> Record:
    """Draw records of any size, curated or mined."""
    return Record(
        id=draw(st.from_regex(r"[A-Za-z0-9_.:-]{1,128}", fullmatch=True)),
        error_message=draw(huge_text.filter(bool)) or "m",
        error_class=draw(st.none() | st.text(max_size=500)),
        documentation=draw(st.none() | huge_text),
        solutions=draw(huge_list),
        example_fix=draw(st.none() | huge_text),
        trigger_scenarios=draw(st.none() | huge_text),
        common_situations=draw(st.none() | huge_text),
        source_code=draw(st.none() | huge_text),
        source_code_start=draw(st.none() | st.integers(0, 10**6)),
        line_number=draw(st.none() | st.integers(0, 10**6)),
        file_path=draw(st.none() | huge_text),
        library_version=draw(st.none() | st.text(max_size=2000)),
        enclosing_class=draw(st.none() | st.text(max_size=3000)),
        enclosing_function=draw(st.none() | st.text(max_size=3000)),
        origin=draw(st.sampled_from([None, "curated", "mined"])),
        github_url=draw(st.none() | huge_text),
        message_pattern=draw(st.none() | huge_text),
        generated=draw(st.lists(st.sampled_from(["documentation", "solutions", "exampleFix", "triggerScenarios"]))),
    )


# Each example renders five embeds from megabyte-long fields: 30 of them, not the profile's 100.
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(
    record=records(),
    versions=st.lists(st.text(max_size=40), max_size=300),
    score=st.floats(0, 100),
    pasted=st.none() | huge_text,
)
def test_any_record_fits_discord_limits(record: Record, versions: list[str], score: float, pasted: str | None) -> None:
    found = match(record.id, score, versions=tuple(versions), error_message=record.error_message)
    for embed in (
        answer_embed(record, found, note="n" * 5000, pasted=pasted, shipped=versions),
        answer_embed(record, match(record.id, score, versions=()), pasted=pasted, shipped=versions),
        answer_embed(record),
    ):
        assert_within_limits(embed)
        assert "\n" not in (embed.title or "")
    assert_within_limits(ambiguous_embed([found] * 30, pasted=pasted))
    assert_within_limits(search_embed(record.error_message, [found] * 5, start=1, page_number=1, pages=1, total=5))


def test_generated_when_and_meaning_read_as_prose_in_the_embed_and_the_text() -> None:
    record = MINED.model_copy(
        update={
            "documentation": "`QianfanOCRProcessor(...)` does not accept `videos` here: it must be left unset (None).",
            "trigger_scenarios": "When you call `QianfanOCRProcessor.__call__()` and `videos` is set.",
            "generated": ["documentation", "triggerScenarios"],
        }
    )
    embed = answer_embed(record).to_dict()
    when = fields_of(answer_embed(record))["When it happens"]
    assert when == "**Trigger:** When you call `QianfanOCRProcessor.__call__()` and `videos` is set."
    assert embed["description"].startswith("**What it means**\n`QianfanOCRProcessor(...)` does not accept")
    text = record_text(record)
    assert "Trigger: When you call `QianfanOCRProcessor.__call__()` and `videos` is set." in text
    assert "What it means\n  `QianfanOCRProcessor(...)`" in text
    assert "Raised when" not in text + when
    assert "Comment beside the raise" not in text


def test_the_versions_that_do_not_raise_it_name_the_library_too() -> None:
    # Several libraries ship now: "1.15.0" alone would not say whose release it is.
    curated = CURATED.model_copy(update={"repo": "huggingface/accelerate"})
    fields = fields_of(answer_embed(curated, match(curated.id, versions=()), shipped=("1.15.0", "1.10.1")))
    assert fields["Versions"] == "Not raised by accelerate 1.15.0 or 1.10.1."
    mined = MINED.model_copy(update={"repo": "huggingface/transformers"})
    fields = fields_of(answer_embed(mined, match(mined.id, versions=("4.57.6",)), shipped=("5.24.0", "4.57.6")))
    assert fields["Versions that raise it"].startswith("transformers 4.57.6\nNot raised as is by transformers 5.24.0,")
