"""storage/dialect.py: placeholders numbered for asyncpg, and the expressions that differ, run on both engines."""

from __future__ import annotations

import json

import pytest

from storage.database import Database
from storage.dialect import POSTGRESQL, SQLITE


def test_question_marks_are_numbered_in_order() -> None:
    sql, params = POSTGRESQL.prepare("SELECT a FROM t WHERE b = ? AND c IN (?, ?)", (1, 2, 3))
    assert sql == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)" and params == (1, 2, 3)


def test_named_placeholders_become_numbers_and_a_repeated_name_one_number() -> None:
    sql, params = POSTGRESQL.prepare("INSERT INTO t VALUES (:low, :high, :low)", {"high": 9, "low": 1})
    assert sql == "INSERT INTO t VALUES ($1, $2, $1)" and params == [1, 9]


def test_quoted_text_comments_and_casts_are_not_placeholders() -> None:
    text = "SELECT '?', ':x', \"a?\", x::text, y -- why?\nFROM t WHERE z = ?"
    sql, _ = POSTGRESQL.prepare(text, (1,))
    assert sql == "SELECT '?', ':x', \"a?\", x::text, y -- why?\nFROM t WHERE z = $1"


def test_sqlite_keeps_the_statement_and_parameters_as_given() -> None:
    assert SQLITE.prepare("SELECT ?", (1,)) == ("SELECT ?", (1,))


@pytest.mark.parametrize(
    ("sql", "params", "message"),
    [
        ("SELECT ? , :x", {"x": 1}, "mixes '\\?' and named placeholders"),
        ("SELECT ?", {"x": 1}, "named parameters given to a statement with '\\?' placeholders"),
        ("SELECT :x", (1,), "positional parameters given to a statement with named placeholders"),
    ],
)
def test_parameters_of_the_wrong_form_are_refused_by_name(sql: str, params: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        POSTGRESQL.prepare(sql, params)  # type: ignore[arg-type]  # the wrong forms on purpose


def test_a_json_key_that_is_not_a_plain_name_is_refused() -> None:
    with pytest.raises(ValueError, match="not a JSON key"):
        SQLITE.json_member("data", "a'; DROP TABLE records; --")


async def test_the_expressions_that_differ_give_the_same_values_on_both_engines(db: Database) -> None:
    d = db.dialect
    values = ('{"versions": [{"v": 1}, {"v": 2}]}', '{"versions": [1, 2, 3]}', "{}", '{"versions": 3}')
    row = await db.fetch_one(
        f"SELECT {d.greatest('2', '5')} AS big, {d.least('2', '5')} AS small, "
        f"{d.json_member('a', 'versions')} AS member, {d.json_array_length('b', 'versions')} AS n, "
        f"{d.json_array_length('c', 'versions')} AS none, {d.json_array_length('e', 'versions')} AS scalar, "
        f"'ABC' {d.like} 'a%' AS folded FROM (SELECT CAST(? AS TEXT) AS a, CAST(? AS TEXT) AS b, "
        "CAST(? AS TEXT) AS c, CAST(? AS TEXT) AS e) AS t",
        values,
    )
    assert row is not None
    assert (int(row["big"]), int(row["small"]), int(row["n"])) == (5, 2, 3)
    assert json.loads(row["member"]) == [{"v": 1}, {"v": 2}]
    assert row["none"] is None and bool(row["folded"])
    # A scalar where an array belongs: SQLite counts 0, PostgreSQL says nothing (both mean "no releases").
    assert not row["scalar"]


async def test_json_pairs_aggregates_rows_and_no_rows_alike(db: Database) -> None:
    d = db.dialect
    rows = "SELECT 'a' AS x, '1' AS y UNION ALL SELECT 'b', '2'"
    found = await db.fetch_one(f"SELECT {d.json_pairs('x', 'y')} AS pairs FROM ({rows}) AS t")
    empty = await db.fetch_one(f"SELECT {d.json_pairs('x', 'y')} AS pairs FROM ({rows}) AS t WHERE x = 'z'")
    assert found is not None and json.loads(found["pairs"]) == [["a", "1"], ["b", "2"]]
    assert empty is not None and json.loads(empty["pairs"]) == []
