"""Reading a message: which attachments are read, mentions stripped, the text composed."""

from __future__ import annotations

import pytest

from bot.exts.answers._reading import compose, pick_attachments, readable_attachment, strip_mentions

CAP = 1000


@pytest.mark.parametrize(
    ("name", "size", "readable"),
    [
        ("message.txt", 10, True),
        ("train.LOG", 10, True),
        ("script.py", CAP, True),
        ("message.txt", CAP + 1, False),
        ("message.txt", 0, False),
        ("screenshot.png", 10, False),
        ("notes.txt.exe", 10, False),
    ],
)
def test_readable_attachment(name: str, size: int, readable: bool) -> None:
    assert readable_attachment(name, size, CAP) is readable


def test_pick_attachments_takes_at_most_three_readable_files() -> None:
    files = [("a.png", 5), ("a.txt", 5), ("b.log", 5), ("big.txt", CAP * 2), ("c.py", 5), ("d.txt", 5)]
    assert pick_attachments(files, CAP) == [1, 2, 4]


def test_mentions_and_compose() -> None:
    assert strip_mentions("<@99> <@!99> KeyError <@12>", 99) == "KeyError <@12>"
    assert compose("msg", ["", "file text", "  "]) == "msg\n\nfile text"
