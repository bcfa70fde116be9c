"""The driver's executemany of a compiled Core statement: rows go in as given, and
parameters named in another order than the statement takes them are refused."""

from __future__ import annotations

import pytest
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    Text,
    bindparam,
    create_engine,
    insert,
    select,
    update,
)

from scorekeeper.store.many_rows import execute_many

_metadata = MetaData()
_rows = Table("rows", _metadata, Column("id", Integer, primary_key=True),
              Column("name", Text), Column("score", Integer))
_add = insert(_rows).values(id=bindparam("id"), name=bindparam("name"))
_score = update(_rows).where(_rows.c.id == bindparam("at")).values(score=bindparam("value"))


def test_rows_are_written_and_updated_as_given():
    engine = create_engine("sqlite://")
    _metadata.create_all(engine)
    with engine.begin() as connection:
        execute_many(connection, _add, ("id", "name"), [(1, "Ann"), (2, "Bo"), (3, "Cy")])
        execute_many(connection, _score, ("value", "at"), [(7, 1), (None, 2), (-3, 3)])
        execute_many(connection, _score, ("value", "at"), [])
        assert connection.execute(select(_rows).order_by(_rows.c.id)).all() == [
            (1, "Ann", 7), (2, "Bo", None), (3, "Cy", -3)]


def test_names_in_another_order_are_refused_before_anything_runs():
    engine = create_engine("sqlite://")
    _metadata.create_all(engine)
    with engine.begin() as connection, pytest.raises(ValueError, match="takes"):
        execute_many(connection, _score, ("at", "value"), [(1, 7)])
