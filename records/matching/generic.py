"""Messages that Python, PyTorch and NumPy raise themselves, word for word.

A library that raises ``IndexError("list index out of range")`` cannot be told apart from Python's own
error by its text: only a frame inside the library can say it was the library. Such templates count
as weak text evidence unless a frame agrees (see ``records.matching.matcher``), except in the records
of the repository that prints the phrase itself (the curated PyTorch records of PyTorch's messages):
for them the text is the evidence, and no Python frame of theirs could agree.
"""

from __future__ import annotations

from functools import lru_cache

from records.matching.template import Template

PYTHON_PHRASES = (
    "list index out of range",
    "tuple index out of range",
    "string index out of range",
    "division by zero",
    "object has no attribute",
    "object is not subscriptable",
    "object is not callable",
    "object is not iterable",
    "unhashable type",
    "no module named",
    "cannot import name",
    "too many values to unpack",
    "not enough values to unpack",
    "invalid literal for int() with base",
    "could not convert string to float",
    "maximum recursion depth exceeded",
    "unsupported operand type(s) for",
    "must be str, not",
    "can only concatenate",
    "missing 1 required positional argument",
    "required positional argument",
    "got an unexpected keyword argument",
    "positional arguments but",
    "takes no arguments",
    "has no attribute",
    "unexpected keyword argument",
    "expected str, bytes or os.pathlike object",
    "no such file or directory",
    "permission denied",
    "is not defined",
    "object of type",
    "is not json serializable",
    "list indices must be integers or slices",
    "string indices must be integers",
    "i/o operation on closed file",
    "dictionary changed size during iteration",
    "generator already executing",
    "math domain error",
)
PYTORCH_PHRASES = (
    "cuda out of memory",
    "expected all tensors to be on the same device",
    "mat1 and mat2 shapes cannot be multiplied",
    "error(s) in loading state_dict for",
    "the size of tensor a",
    "must match the size of tensor b",
    "does not require grad and does not have a grad_fn",
    "trying to backward through the graph a second time",
    "device-side assert triggered",
    "expected scalar type",
    "index out of range in self",
)
NUMPY_PHRASES = (
    "operands could not be broadcast together",
    "is out of bounds for axis",
    "cannot reshape array of size",
    "the truth value of an array with more than one element is ambiguous",
    "setting an array element with a sequence",
)
# Each phrase with the repository that prints it (None: Python itself, of which no record is).
PHRASE_OWNERS: tuple[tuple[str, str | None], ...] = (
    *((phrase, None) for phrase in PYTHON_PHRASES),
    *((phrase, "pytorch/pytorch") for phrase in PYTORCH_PHRASES),
    *((phrase, "numpy/numpy") for phrase in NUMPY_PHRASES),
)
# The phrase must be most of the template's literal text: "object has no attribute" inside a long,
# specific sentence is not generic.
GENERIC_SHARE = 0.6
# What generic_owners returns for a template that is no generic phrase.
NOT_GENERIC: frozenset[str | None] = frozenset()


def is_generic(template: Template, repo: str | None = None) -> bool:
    """Whether a template is mostly a message Python or a common library raises on its own.

    repo: that of the record asked about; a template is not generic in the records of the repository that
    prints its phrase.
    """
    return generic_in(generic_owners(template), repo)


def generic_in(owners: frozenset[str | None], repo: str | None) -> bool:
    """Tell whether a template whose generic phrases ``owners`` print is generic in ``repo``'s records."""
    return bool(owners) and (repo is None or repo not in owners)


# No phrase is longer: a literal text so long that the longest phrase is not most of it is no generic phrase.
_LONGEST_PHRASE = max(len(phrase) for phrase, _ in PHRASE_OWNERS)


@lru_cache(maxsize=65_536)
def generic_owners(template: Template) -> frozenset[str | None]:
    """Return the repositories printing the generic phrases the template mostly is (None for Python's own)."""
    literal = " ".join(template.literal.lower().split())
    if not literal or GENERIC_SHARE * len(literal) > _LONGEST_PHRASE:
        return NOT_GENERIC
    return frozenset(
        owner for phrase, owner in PHRASE_OWNERS if phrase in literal and len(phrase) >= GENERIC_SHARE * len(literal)
    )
