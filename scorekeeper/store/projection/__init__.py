"""The one projection: every figure kept in the database that a match's hands determine.

A match's hands are the facts; what the pages read quickly is derived from them by the
core (:func:`~scorekeeper.core.scoring.standings`, the running state, each seat's
:func:`~scorekeeper.core.stats.seat_figures`) and kept in these figures, each a
:class:`~.states.Figure` listed in :data:`DERIVED_FIGURES`:

* :data:`.hand_scores.HAND_SCORES` — each hand's ``dealer`` and each entry's
  ``points``: the writer inserts a new hand's facts and this figure fills in both, in
  the same transaction (see :mod:`.hand_scores`); a replay's moved values are mended;
* :data:`.match_columns.MATCH_COLUMNS` — the match's listing columns (``hand_count``,
  ``status``, ``finished_at``), its running state (``running_json``) and each seat's
  ``winner``;
* :data:`.seat_rows.SEAT_FIGURES` — ``seat_figures``, one row per seat per match;
* :data:`.player_totals.TOTALS` — ``player_totals``, ``player_falls`` and
  ``player_rivals``, those rows summed per player;
* :data:`.rating_figure.RATINGS` — ``rating`` and ``rating_step``, each player's
  rating per game and scope from the finished matches in finish order (it reads the
  listing, seat figures and points written before it; the model is
  :mod:`scorekeeper.core.ratings`, its chains of rows :mod:`.rating_chains`).

The entry points, and nothing else works out or writes a derived figure:

* :func:`next_hand`, :func:`rewritten` and :func:`replayed` — the writer
  (:mod:`scorekeeper.store.records`) hands over the facts of a change (a match's
  stored state, its sheet, its seated names, its hands as entered) and gets back what
  they derive, read and written nowhere yet: a new hand scored from the stored running
  state, every hand replayed after an edit or a deleted hand, a new match's hands
  replayed. The core scores; a hand it cannot score raises its
  :class:`~scorekeeper.core.scoring.ScoringError`.
* :func:`project` — the writer calls it in the transaction of every change to a
  match's hands, with each :class:`~.states.Change` worked out above (a new match's:
  its state after the replay, before ``None``), the new hands' facts already
  inserted; each figure writes the difference.
* :func:`reseason` — a group's named seasons changed (one added, moved or deleted, in
  the caller's transaction): their rating chains are worked out again.
* :func:`rerate` — every rating chain of a group worked out again from its stored
  matches (the migration that added the ratings).
* :func:`rebuild` — recomputes every derived row of a group from its stored hands and
  rewrites them (``scorekeeper db rebuild``).
* :func:`verify` — recomputes the same rows and lists each :class:`Difference` from
  what is stored (``scorekeeper db verify``).

How a new derived figure (ratings, say) plugs in: write a module of this package with
one :class:`~.states.Figure` — its ``tables`` (one :class:`~.states.Kept` per table: the
key and compared columns, how to read the group's stored rows, how to compute them
from a :class:`~.states.GroupState` — every match's state, oldest first — and how to
replace a group's rows) and its ``project(connection, changes)``, which writes what the
writer's :class:`~.states.Change` list changes, in the writer's transaction. Then add
it to :data:`DERIVED_FIGURES`, after the figures it reads. :func:`rebuild`,
:func:`verify`, the CLI, the tests that corrupt every derived table and the watch on
who writes derived values (``tests/support/derived_writes.py``) find it there; the
writer needs no change.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from scorekeeper.core.scoring import HandResult, standings, standings_at
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.projection import rating_chains, running_state
from scorekeeper.store.projection.hand_scores import HAND_SCORES
from scorekeeper.store.projection.match_columns import MATCH_COLUMNS
from scorekeeper.store.projection.player_totals import TOTALS
from scorekeeper.store.projection.rating_figure import RATINGS
from scorekeeper.store.projection.recomputed import group_state
from scorekeeper.store.projection.seat_rows import SEAT_FIGURES
from scorekeeper.store.projection.states import (
    Change,
    Figure,
    GroupState,
    Kept,
    MatchState,
    Replayed,
    Row,
    after_step,
    replay_of,
    state_of,
    stored_sheet,
)

__all__ = ["DERIVED_FIGURES", "Difference", "next_hand", "project", "rebuild", "recompute",
           "replayed", "rerate", "reseason", "rewritten", "verify"]

# Every derived figure, in writing order: a figure may read what those before it wrote.
DERIVED_FIGURES: list[Figure] = [HAND_SCORES, MATCH_COLUMNS, SEAT_FIGURES, TOTALS, RATINGS]


@dataclass(frozen=True)
class Difference:
    """One derived value that is not what the hands give."""

    group: int
    match: int | None  # None: a player's row, not one match's
    table: str
    key: tuple[Any, ...]
    column: str
    stored: Any
    recomputed: Any

    def __str__(self) -> str:
        where = f"match {self.match}" if self.match is not None else "-"
        key = ", ".join(str(k) for k in self.key)
        return (f"group {self.group}, {where}, {self.table} ({key}), {self.column}: "
                f"stored {self.stored!r}, recomputed {self.recomputed!r}")


def next_hand(before: MatchState, sheet: Sheet, names: Sequence[str], result: HandResult
              ) -> Change:
    """The change one more hand (``result``, as entered) makes to a match whose stored
    state is ``before``: the hand scored by the core from the stored running state, its
    dealer and points (:meth:`~.states.Change.scored`), the standings and every seat's
    figures moved on by it. Nothing is read: the same few values at hand 500 as at 1."""
    state, score, dealer = running_state.advance(sheet, names, before.running, result)
    table = standings_at(sheet, names, state.position)
    return Change(before, after_step(before, state, table, dealer, score.points))


def replayed(sheet_json: str, names: Sequence[str], first_dealer: int,
             results: Sequence[HandResult]) -> Replayed:
    """What a full replay of a match's hands derives (every hand's dealer and points,
    the standings, every seat's figures, places and best and worst hands), before the
    match has an id: a new match's hands, or a match's hands rewritten."""
    sheet = stored_sheet(sheet_json)
    table = standings(sheet, names, first_dealer, results)
    return replay_of(sheet.game, sheet_json, table)


def rewritten(before: MatchState, sheet_json: str, names: Sequence[str], first_dealer: int,
              results: Sequence[HandResult]) -> Change:
    """The change a match's hands rewritten (``results``: every hand, one of them edited
    or the last one gone) make to a match whose stored state is ``before``: every hand
    replayed. A finished match keeps when it finished if it still is."""
    done = replayed(sheet_json, names, first_dealer, results)
    return Change(before, state_of(before.match_id, before.game, before.players, done,
                                   before.finished_at if before.finished else None))


def project(connection: Connection, changes: Sequence[Change]) -> None:
    """Write every figure's part of ``changes``: the one entry point of the writer,
    called in the same transaction as the change to the hands."""
    if changes:
        for figure in DERIVED_FIGURES:
            figure.project(connection, changes)


def reseason(connection: Connection, group_id: int) -> None:
    """Work out the group's named seasons' ratings again after a season was added,
    changed or deleted (in the caller's transaction, the season's row written)."""
    rating_chains.reseason(connection, group_id)


def rerate(connection: Connection, group_id: int) -> int:
    """Rate every chain of the group again from its stored matches; returns how many
    steps were written."""
    return rating_chains.rerate_group(connection, group_id)


def recompute(connection: Connection, group_id: int) -> GroupState:
    """Every match of the group replayed from its stored hands (read on ``connection``,
    in its transaction: one consistent snapshot)."""
    return group_state(connection, group_id)


def _index(kept: Kept, rows: Iterable[Row]) -> dict[tuple[Any, ...], Row]:
    found = {}
    for row in rows:
        if kept.sums and not any(row[c] for c in kept.columns):
            continue
        found[tuple(row[k] for k in kept.key)] = row
    return found


def _compare(group_id: int, kept: Kept, stored: Iterable[Row], expected: Iterable[Row]
             ) -> list[Difference]:
    """Each column where a stored row and its recomputed one differ; a row missing on
    either side is reported column by column with ``None`` on that side."""
    have, want = _index(kept, stored), _index(kept, expected)
    found = []
    for key in sorted(have.keys() | want.keys(), key=repr):
        a, b = have.get(key), want.get(key)
        row = a if a is not None else b
        assert row is not None
        match = row.get("match_id")
        for column in kept.columns:
            left = None if a is None else _plain(a[column])
            right = None if b is None else _plain(b[column])
            if left != right:
                found.append(Difference(group_id, match, kept.table, key, column, left, right))
    return found


def _plain(value: Any) -> Any:
    """A value as compared: SQLite hands back flags as 0/1 and times without a zone."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


def verify(connection: Connection, group_id: int) -> list[Difference]:
    """Every difference between the group's stored derived rows and what its hands
    give (read in ``connection``'s transaction, so a save committed meanwhile is seen
    wholly or not at all)."""
    state = recompute(connection, group_id)
    found = []
    for figure in DERIVED_FIGURES:
        for kept in figure.tables:
            found += _compare(group_id, kept, kept.stored(connection, group_id),
                              kept.expected(state))
    return found


def rebuild(connection: Connection, group_id: int) -> int:
    """Rewrite every derived row of the group from its stored hands (in
    ``connection``'s transaction); returns how many values were wrong before."""
    state = recompute(connection, group_id)
    wrong = 0
    for figure in DERIVED_FIGURES:
        for kept in figure.tables:
            expected = list(kept.expected(state))
            wrong += len(_compare(group_id, kept, kept.stored(connection, group_id), expected))
            kept.replace(connection, state, expected)
    return wrong


