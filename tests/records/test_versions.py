"""Ordering library versions: numbers compare as numbers, pre-releases before their release."""

from __future__ import annotations

import pytest

from records.versions import version_key


def test_versions_sort_by_number_not_by_text() -> None:
    shuffled = ["5.24.0", "4.57.6", "5.0.0", "4.9.1", "10.0.0"]
    assert sorted(shuffled, key=version_key) == ["4.9.1", "4.57.6", "5.0.0", "5.24.0", "10.0.0"]


def test_pre_releases_come_before_their_release_in_stage_order() -> None:
    shuffled = ["5.0.0", "5.0.0rc1", "5.0.0b2", "5.0.0a1", "5.0.0.dev3", "4.57.6"]
    assert sorted(shuffled, key=version_key) == ["4.57.6", "5.0.0.dev3", "5.0.0a1", "5.0.0b2", "5.0.0rc1", "5.0.0"]


@pytest.mark.parametrize(("left", "right"), [("v5.1", "5.1"), ("5.0.0RC1", "5.0.0rc1"), ("5.0.0beta2", "5.0.0b2")])
def test_spellings_of_one_version_sort_alike(left: str, right: str) -> None:
    assert version_key(left) == version_key(right)


def test_no_version_sorts_before_every_version() -> None:
    assert version_key(None) == version_key("") == ()
    assert sorted(["0.0.1", None, "1.0"], key=version_key) == [None, "0.0.1", "1.0"]
