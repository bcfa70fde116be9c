"""What decides a live poll: a match's version, found the way its link finds it.

A page that watches a match asks every few seconds whether it changed, and almost
every answer is "no" (a 304). Reading the whole match for that (its sheet, running
state, group, seats and players: :mod:`scorekeeper.store.boards`) was a third of such
a poll; these read only the match's id and version, and for a member's poll the
group's invite token that the membership check compares. One small statement each,
on a connection of its own (no ORM session), on PostgreSQL outside a transaction: a
poll that is a 304 reads nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select

from scorekeeper.store.extensions import db
from scorekeeper.store.models import MAX_ID, MAX_TOKEN, Group, Match

__all__ = ["Version", "member_version", "watched_version"]


@dataclass(frozen=True)
class Version:
    """A match's id and version, and the invite token of its group (what a member's
    cookie must name)."""

    match_id: int
    version: int
    invite_token: str


@lru_cache(maxsize=1)
def _statements() -> tuple[Any, Any]:
    """The two look-ups, built once: by group and match id, and by view token."""
    m, g = Match.__table__, Group.__table__
    columns = select(m.c.id, m.c.version, g.c.invite_token).join(g, g.c.id == m.c.group_id)
    return (columns.where(m.c.id == bindparam("match"), m.c.group_id == bindparam("group")),
            columns.where(m.c.view_token == bindparam("token")))


# A row read once needs no transaction. On PostgreSQL one is a BEGIN and a ROLLBACK more,
# each a round trip: this read cost 280-340 µs of PostgreSQL's CPU and 420-540 µs of the
# app's with them, 60-90 and 300-400 without (2,000 reads in one process, 2026-12-06).
# SQLite's file has no round trip to save, and switching its isolation level cost 60 µs
# more than it saved.
_OUTSIDE_A_TRANSACTION = {"postgresql": {"isolation_level": "AUTOCOMMIT"}}


def _read(statement: Any, values: dict[str, Any]) -> Version | None:
    with db.engine.connect() as connection:
        options = _OUTSIDE_A_TRANSACTION.get(connection.dialect.name)
        if options:
            connection.execution_options(**options)
        row = connection.execute(statement, values).first()
    return None if row is None else Version(*row)


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
