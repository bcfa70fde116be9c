"""What decides a live poll: a match's version, found the way its link finds it.

A page that watches a match asks every few seconds whether it changed, and almost
every answer is "no" (a 304). Reading the whole match for that (its sheet, running
state, group, seats and players: :mod:`scorekeeper.store.match_views`) was a third of such
a poll; these read only the match's id and version, and for a member's poll the
group's invite token that the membership check compares. One small statement each,
on a connection of its own (no ORM session), on PostgreSQL outside a transaction: a
poll that is a 304 reads nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import Flask, current_app
from sqlalchemy import Dialect, Engine, Row, Select, bindparam, create_engine, select
from sqlalchemy.exc import DBAPIError

from scorekeeper.store.extensions import db
from scorekeeper.store.models import MAX_ID, MAX_TOKEN, Group, Match

__all__ = ["Version", "init_app", "member_version", "watched_version"]


@dataclass(frozen=True)
class Version:
    """A match's id and version, and the invite token of its group (what a member's
    cookie must name)."""

    match_id: int
    version: int
    invite_token: str


@lru_cache(maxsize=1)
def _statements() -> tuple[Select[int, int, str], Select[int, int, str]]:
    """The two look-ups, built once: by group and match id, and by view token."""
    m, g = Match.__table__, Group.__table__
    columns = select(m.c.id, m.c.version, g.c.invite_token).join(g, g.c.id == m.c.group_id)
    return (columns.where(m.c.id == bindparam("match"), m.c.group_id == bindparam("group")),
            columns.where(m.c.view_token == bindparam("token")))


# The poll's own engine on a database server, beside the app's (made by init_app). A
# row read once needs no transaction: on PostgreSQL a BEGIN and a ROLLBACK are a round
# trip each, so its connections are in autocommit. Nor is each tested as it leaves the
# pool (the app's engine sends a ping, one more round trip): the statement is its own
# test. A connection the server dropped fails it with a disconnect, SQLAlchemy then
# throws away every connection the pool held when it failed, and the read is sent once
# more on a new one (SQLAlchemy's "optimistic" disconnect handling); the poll is
# answered as if nothing had happened. With the ping and the transaction this read cost
# 280-340 µs of PostgreSQL's CPU and 420-540 µs of the app's, 60-90 and 300-400 without
# the transaction (2,000 reads in one process, 2026-12-06). SQLite's file has no round
# trip to save: the app's engine reads it.
# The read goes through the driver's own cursor (one statement, two columns of plain
# types: nothing for SQLAlchemy to convert); only when that fails is it made again
# through SQLAlchemy, whose errors the app's outage handling knows. Through SQLAlchemy
# the read took 190-200 µs of the app's CPU on PostgreSQL, through the driver 55-70
# (2,000 reads in one process, 2026-12-06); a whole unchanged poll 550 and 420 µs on
# PostgreSQL, 200 and 125 on SQLite.
_ENGINE = "scorekeeper.versions"


def init_app(app: Flask) -> None:
    """On a database server, the poll's own engine: the app's database URI and engine
    options (its connect and statement timeouts), in autocommit, without the ping. (Not
    a Flask-SQLAlchemy bind: a bind's name would reach every app's ``create_all``.)"""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if not uri.startswith("sqlite"):
        app.extensions[_ENGINE] = create_engine(
            uri, **{**app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {}), "pool_pre_ping": False,
                    "isolation_level": "AUTOCOMMIT",
                    "pool_reset_on_return": None})  # autocommit: no transaction to end


def _read(statement: Select[int, int, str], values: dict[str, Any]) -> Version | None:
    engine = current_app.extensions.get(_ENGINE) or db.engine
    try:
        row = _first_through_the_driver(engine, statement, values)
    except engine.dialect.loaded_dbapi.Error:
        try:  # SQLAlchemy's own path: its errors, and its disconnect handling
            row = _first(engine, statement, values)
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            row = _first(engine, statement, values)  # on a new connection
    return None if row is None else Version(*row)


@lru_cache(maxsize=8)
def _driver_statement(statement: Select[int, int, str], dialect: Dialect
                      ) -> tuple[str, tuple[str, ...] | None]:
    """The statement as the driver takes it, and its values' names in order when the
    driver takes them by position (SQLite's ``?``)."""
    compiled = statement.compile(dialect=dialect)
    return str(compiled), (tuple(compiled.positiontup or ()) if dialect.positional else None)


def _first_through_the_driver(engine: Engine, statement: Select[int, int, str],
                              values: dict[str, Any]) -> Any:
    """The row, read with the driver's cursor on a pooled connection: what SQLAlchemy's
    execution adds around it (its events, result and row objects) was as much again as
    the read itself. A connection whose statement fails is thrown away."""
    sql, order = _driver_statement(statement, engine.dialect)
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, values if order is None else tuple(values[n] for n in order))
        row = cursor.fetchone()
        cursor.close()
    except BaseException:
        connection.invalidate()
        raise
    finally:
        connection.close()
    return row


def _first(engine: Engine, statement: Select[int, int, str], values: dict[str, Any]
           ) -> Row[int, int, str] | None:
    with engine.connect() as connection:
        return connection.execute(statement, values).first()


def member_version(group_id: int, match_id: int) -> Version | None:
    """The version of the match with this id in this group, or None. The caller still
    checks that the phone may see the group."""
    if not (0 < group_id <= MAX_ID and 0 < match_id <= MAX_ID):
        return None
    return _read(_statements()[0], {"group": group_id, "match": match_id})


def watched_version(token: str) -> Version | None:
    """The version of the match a spectator's view link points at, or None."""
    if not 0 < len(token) <= MAX_TOKEN:
        return None
    return _read(_statements()[1], {"token": token})
