"""The ratings as one of the projection's derived figures (:mod:`.projection`).

``project`` follows the writer: every change to a match that is finished, or was,
moves the ratings on (:func:`.rating_chains.match_changed`: the usual finishing hand
rates its players from their rows; an edit of a past match replays its chains from
there); many matches written at once (an import) rate the group's chains again.

``tables`` are what ``db verify`` and ``db rebuild`` recompute: the rating steps and
the rating rows, from a full replay of the group's hands (each finished match's
places, comeback and best and worst hands, in its :class:`~.states.MatchState`) and its named
seasons, compared column by column with what is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from scorekeeper.core.ratings import Finished, SeatResult, State
from scorekeeper.store.models import Match, Rating, RatingStep
from scorekeeper.store.projection.rating_chains import (
    chains_of,
    match_changed,
    rated,
    rerate_group,
    write_rows,
)
from scorekeeper.store.projection.states import Change, GroupState, Kept, MatchState, Row

__all__ = ["RATINGS"]

BULK = 8  # more finished matches than this in one write: rate their groups again at once

STEP_COLUMNS = ("group_id", "game", "finished_at", "seat", "place", "won", "deficit",
                "best_hand", "worst_hand", "mu", "sigma", "shown", "change")
# A rating row: its group and a player's State after their last match in the chain.
RATING_COLUMNS = ("group_id", *(f.name for f in fields(State)))


def _counts(change: Change) -> bool:
    """Whether a change can move a rating: the match is finished now or was before."""
    return change.after.finished or (change.before is not None and change.before.finished)


def _finished(state: MatchState) -> Finished | None:
    """A match of a full replay as its chains count it (None: not finished)."""
    if state.places is None or state.finished_at is None:
        return None
    return Finished(state.match_id, state.finished_at, tuple(
        SeatResult(player, seat, state.places[seat], seat in state.winners,
                   state.running.figures[seat].deficit, state.hand_marks[seat].best,
                   state.hand_marks[seat].worst)
        for seat, player in enumerate(state.players)))


Rated = tuple[list[dict[str, Any]], list[dict[str, Any]]]
# The last group folded and its rows: verify and rebuild read both tables of one
# GroupState in a row, and folding a large group twice would double their time. One
# assignment replaces it, so a thread reading it sees one pair or the other, never a mix.
_last: tuple[GroupState | None, Rated] = (None, ([], []))


def _expected(group: GroupState) -> Rated:
    """The rating steps' and rating rows of a group recomputed from its full replay."""
    global _last
    held, rows = _last
    if held is group:
        return rows

    def finished() -> Iterator[tuple[str, Finished]]:
        for state in group.matches:
            found = _finished(state)
            if found is not None:
                yield state.game, found

    rows = rated(chains_of(group.group_id, finished(), group.seasons))
    _last = (group, rows)
    return rows


def _stored(model: type) -> Any:
    def read(connection: Connection, group_id: int) -> Iterable[Row]:
        table = model.__table__  # type: ignore[attr-defined]
        return connection.execute(select(table).where(table.c.group_id == group_id)
                                  ).mappings()
    return read


def _replace_steps(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    connection.execute(delete(RatingStep).where(RatingStep.group_id == group.group_id))
    write_rows(connection, [dict(r) for r in rows], [])


def _replace_ratings(connection: Connection, group: GroupState, rows: list[Row]) -> None:
    connection.execute(delete(Rating).where(Rating.group_id == group.group_id))
    write_rows(connection, [], [dict(r) for r in rows])


class Ratings:
    """Every player's rating per game and scope, and every finished match's steps."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        moved = [change.after.match_id for change in changes if _counts(change)]
        if len(moved) <= BULK:
            for match_id in moved:
                match_changed(connection, match_id)
            return
        groups = connection.scalars(select(Match.group_id).where(Match.id.in_(moved))
                                    .distinct()).all()
        # The changed matches as their full replay counts them (None: moved on by one
        # hand, not worked out): they are not read back; the others' hands are not read.
        known = {change.after.match_id: _finished(change.after) for change in changes}
        for group_id in sorted(groups):
            rerate_group(connection, group_id, known)

    @property
    def tables(self) -> tuple[Kept, ...]:
        return (Kept("rating_step", ("match_id", "scope", "player_id"), STEP_COLUMNS,
                     _stored(RatingStep), lambda group: _expected(group)[0], _replace_steps),
                Kept("rating", ("player_id", "game", "scope"), RATING_COLUMNS,
                     _stored(Rating), lambda group: _expected(group)[1], _replace_ratings))


RATINGS = Ratings()
