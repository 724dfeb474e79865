"""A tokenizer module, for path tags."""


def load(vocab_file: str | None) -> str:
    """Load a vocabulary."""
    if vocab_file is None:
        raise OSError("the LLaMA tokenizer needs a vocab_file")
    return vocab_file
