"""The autocomplete choices of ``/error``."""

from __future__ import annotations

from bot.exts.lookup._choices import id_choices
from storage.models import RecordSummary


def summary(record_id: str, message: str = "m") -> RecordSummary:
    """Return a record summary for tests."""
    return RecordSummary(
        id=record_id, slug=None, repo=None, error_class="ValueError", error_message=message,
        file_path=None, line_number=None, origin="curated", library_version=None,
    )  # fmt: skip


def test_choices_put_the_exact_id_first_and_fit_discord() -> None:
    summaries = [summary(f"abc{i}", "x" * 500) for i in range(40)] + [summary("abc"), summary("y" * 101)]
    choices = id_choices(summaries, "abc")
    assert choices[0][1] == "abc" and len(choices) == 25
    assert all(len(name) <= 100 and len(value) <= 100 for name, value in choices)
    assert choices[1][0].startswith("abc0 · ValueError: xxx")
