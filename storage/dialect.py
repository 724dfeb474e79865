"""What differs between the SQL of SQLite and of PostgreSQL, in one place.

The repositories write SQL both engines accept (``INSERT ... ON CONFLICT``, ``RETURNING``, ``?``
placeholders) and ask the dialect for the few expressions that differ: JSON access, the two-argument
``max``/``min``, a case-insensitive ``LIKE``. PostgreSQL's driver numbers its placeholders (``$1``):
:meth:`Dialect.prepare` rewrites ``?`` and ``:name`` once per statement text (cached).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

Params = Sequence[Any] | Mapping[str, Any]

# A quoted string, a quoted identifier, a comment, a cast (::), or a placeholder: the first four are
# kept as they are, so a '?' or ':x' inside them is not taken for a parameter.
_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|::|\?|:([A-Za-z_][A-Za-z0-9_]*)""")


@dataclass(frozen=True, slots=True)
class Dialect:
    """One SQL engine's spelling of the expressions that differ."""

    name: Literal["sqlite", "postgresql"]

    @property
    def numbered(self) -> bool:
        """Whether the driver wants ``$1`` placeholders (asyncpg) rather than ``?`` (sqlite3)."""
        return self.name == "postgresql"

    def prepare(self, sql: str, params: Params = ()) -> tuple[str, Params]:
        """Return the statement and its parameters as this engine's driver takes them."""
        if not self.numbered:
            return sql, params  # sqlite3 takes both forms itself
        text, names = _numbered(sql)
        if names is None:
            if isinstance(params, Mapping):
                raise ValueError(f"named parameters given to a statement with '?' placeholders: {sql[:80]!r}")
            return text, params
        if not isinstance(params, Mapping):
            raise ValueError(f"positional parameters given to a statement with named placeholders: {sql[:80]!r}")
        return text, [params[name] for name in names]

    def greatest(self, left: str, right: str) -> str:
        """Return the larger of two values (SQLite's two-argument ``max``)."""
        return f"max({left}, {right})" if self.name == "sqlite" else f"greatest({left}, {right})"

    def least(self, left: str, right: str) -> str:
        """Return the smaller of two values (SQLite's two-argument ``min``)."""
        return f"min({left}, {right})" if self.name == "sqlite" else f"least({left}, {right})"

    def json_member(self, column: str, key: str) -> str:
        """Return the JSON text of ``key`` in the JSON object stored as text in ``column`` (NULL when absent)."""
        _check_key(key)
        if self.name == "sqlite":
            return f"json_extract({column}, '$.{key}')"
        return f"(({column})::json -> '{key}')::text"

    def json_array_length(self, column: str, key: str) -> str:
        """How many items the array at ``key`` holds (NULL when ``key`` is absent or not an array)."""
        _check_key(key)
        if self.name == "sqlite":
            return f"json_array_length({column}, '$.{key}')"
        member = f"(({column})::json -> '{key}')"
        return f"(CASE json_typeof({member}) WHEN 'array' THEN json_array_length({member}) END)"

    def json_pairs(self, first: str, second: str) -> str:
        """Return an aggregate: the JSON array of ``[first, second]`` of every row, as text."""
        if self.name == "sqlite":
            return f"json_group_array(json_array({first}, {second}))"
        return f"coalesce(json_agg(json_build_array({first}, {second}))::text, '[]')"

    @property
    def schema_stamp(self) -> str:
        """Return an expression naming the schema: its migration version, and on SQLite its change counter."""
        if self.name == "sqlite":
            return (
                "((SELECT user_version FROM pragma_user_version) || '.' || "
                "(SELECT schema_version FROM pragma_schema_version))"
            )
        return "((SELECT version FROM tracebot_schema) || '.pg')"

    @property
    def unlimited(self) -> str:
        """Return the ``LIMIT`` that sets no limit (SQLite needs one before an ``OFFSET``)."""
        return "-1" if self.name == "sqlite" else "ALL"

    @property
    def like(self) -> str:
        """Return the operator matching a ``LIKE`` pattern without regard to ASCII case (SQLite's ``LIKE``)."""
        return "LIKE" if self.name == "sqlite" else "ILIKE"


SQLITE = Dialect("sqlite")
POSTGRESQL = Dialect("postgresql")


@lru_cache(maxsize=1024)
def _numbered(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """Rewrite placeholders as ``$1``...; return the names in order when they were ``:name``."""
    names: list[str] = []
    positional = 0
    order: dict[str, int] = {}

    def replace(match: re.Match[str]) -> str:
        nonlocal positional
        text = match[0]
        if text == "?":
            positional += 1
            return f"${positional}"
        if match[1] is None:
            return text
        if match[1] not in order:
            names.append(match[1])
            order[match[1]] = len(names)
        return f"${order[match[1]]}"

    text = _TOKEN.sub(replace, sql)
    if positional and names:
        raise ValueError(f"a statement mixes '?' and named placeholders: {sql[:80]!r}")
    return text, tuple(names) if names else None


def _check_key(key: str) -> None:
    if not key.isidentifier():
        raise ValueError(f"not a JSON key this dialect writes: {key!r}")
