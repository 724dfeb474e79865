"""Every raise form the miner turns into a record, and the ones it skips."""

import textwrap

from pkg import errors
from pkg import errors as errs
from pkg.errors import CacheError as MissingCacheError

UNSUPPORTED_MESSAGE = "this operation is not supported"
SHADOWED = "a module constant that a parameter shadows"


class GenerationMixin:
    """Generation checks."""

    _is_stateful = False

    def validate(self, generation_mode: str, num_return_sequences: int) -> None:
        """Check the generation mode."""
        if generation_mode == "assisted":
            checked = True
            if num_return_sequences > 1:
                raise ValueError(
                    f"num_return_sequences has to be 1 when doing assisted generate, but is {num_return_sequences}."
                )
            if self._is_stateful and checked:
                # In assisted generation we need the ability to confirm tokens,
                # which is not possible with stateful models.
                raise ValueError(
                    f"assisted generation is not supported with stateful models, such as {self.__class__.__name__}"
                )

    def percent(self, hidden: int, heads: int) -> None:
        """Percent formatting, with a tuple and with a dict."""
        if hidden % heads:
            raise ValueError("The hidden size (%d) is not a multiple of heads (%r)" % (hidden, heads))  # noqa: UP031
        if hidden < 0:
            raise ValueError("hidden is %(value)s, 100%% wrong" % {"value": hidden})  # noqa: UP031

    def formatted(self, name: str, size: int) -> None:
        """``str.format`` with positional and keyword fields, and ``+`` concatenation."""
        if size < 0:
            raise ValueError("{} has a negative size {size:>5}".format(name, size=size))  # noqa: UP032
        if size == 0:
            raise TypeError("Empty input for " + name + ": pass at least one item")


def variable_message(path: str, strict: bool) -> None:
    """A message held in a variable, with an optional tail appended under a condition."""
    if not path:
        message = f"No file at {path!r}."
        if strict:
            message += " Strict mode is on."
        raise FileNotFoundError(message)


def constants_and_aliases(kind: str, cache: object) -> None:
    """Module constants, aliased classes and dotted classes."""
    if kind == "unsupported":
        raise NotImplementedError(UNSUPPORTED_MESSAGE)
    if kind == "alias":
        raise MissingCacheError(f"cache {cache} is missing")
    if kind == "dotted":
        raise errors.ConfigError("the configuration is wrong")
    if kind == "module-alias":
        raise errs.StrictConfigError("strict configuration is wrong")


def chained(mapping: dict[str, int], key: str) -> int:
    """A raise from a caught exception, and one rebuilding the caught class."""
    try:
        return mapping[key]
    except KeyError as error:
        raise KeyError(f"unknown key {key}; known keys are {sorted(mapping)}") from error
    except ModuleNotFoundError as error:
        raise error.__class__("You need to install the optional dependency") from error


def texts(width: int) -> None:
    """Dedented, multi-line and brace-holding messages."""
    if width == 1:
        raise ValueError(
            textwrap.dedent(
                """\
                The width must be even.
                Pass an even width."""
            )
        )
    if width == 2:
        raise ValueError(f"sizes must be in {{2, 4, 8}}, got {width}\nsee the docs")
    if width == 3:
        raise ValueError("repeated message")
    if width == 4:
        raise ValueError("repeated message")


def skipped(error: Exception, factory: type[Exception], shadowed: str, SHADOWED: str) -> None:  # noqa: N803
    """Raises that give no record."""
    if error is None:
        raise  # noqa: PLE0704
    if factory is None:
        raise error
    if shadowed:
        raise ValueError
    if factory:
        raise factory("built by a factory")
    if shadowed == "x":
        raise ValueError(f"{error}")
    if shadowed == "y":
        raise ValueError(SHADOWED)
