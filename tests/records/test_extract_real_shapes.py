"""Shapes of real pastes extraction must read (issue 10), each written for the test."""

from __future__ import annotations

from records.extract import clean_paste, extract


def test_a_markdown_link_the_chat_window_made_becomes_its_url() -> None:
    text = "OSError: Can't load config for 'x'. If you were trying to load it from '[Models](https://huggingface.co/models)'"
    error = extract(text).primary
    assert error is not None and "'https://huggingface.co/models'" in error.message
    assert clean_paste("[https://a.org](https://b.org)") == "[https://a.org](https://b.org)"  # a URL title stays
    assert clean_paste(clean_paste("see [the docs](https://a.org/x)")) == "see https://a.org/x"


def test_a_frame_line_copied_without_its_file_opening_is_a_frame() -> None:
    text = (
        "it raised the error below\n"
        '/lib/python3.11/site-packages/transformers/models/llava/modeling_llava.py", line 412, in forward\n'
        "    raise ValueError(\n"
        "ValueError: Image features and image tokens do not match: tokens: 0, features 576\n"
    )
    error = extract(text).primary
    assert error is not None and error.error_class == "ValueError"
    frame = error.raising_frame
    assert frame is not None and frame.line == 412
    assert frame.package_path == "transformers/models/llava/modeling_llava.py"


def test_an_error_quoted_in_brackets_is_read_without_them() -> None:
    text = "Calling Trainer() fails.\n[ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`]"
    error = extract(text).primary
    assert error is not None and error.error_class == "ImportError"
    assert error.message == "Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`"
