"""What the projection speaks: a match's derived state, a change to it, a group's
states, and the shape of a derived figure (see :mod:`.projection`).

Plain values only: the projection's entry points build them from the core's results,
each figure turns them into its rows. Nothing here touches the database.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import lru_cache
from typing import Any, Protocol

from sqlalchemy.engine import Connection

from scorekeeper.core.hand_records import HandMarks, hand_records
from scorekeeper.core.places import places
from scorekeeper.core.scoring import HandResult, MatchTally, Standings, tally_of
from scorekeeper.core.sheets import Sheet
from scorekeeper.core.stats import SEAT_FIGURE_NAMES as FIGURE_COLUMNS
from scorekeeper.core.stats import SeatFigures as Figures
from scorekeeper.core.stats import seat_figures
from scorekeeper.store.models import utcnow
from scorekeeper.store.projection import running_state

__all__ = ["FIGURE_COLUMNS", "ROW_COLUMNS", "Change", "Figure", "GroupState", "Kept",
           "MatchState", "Replayed", "Row", "after_step", "replay_of", "replayed_figures",
           "sheet_limits", "state_of", "stored_sheet"]

Row = Mapping[Any, Any]  # a derived row: its columns by name
# The match row's derived columns, the listing's (see :mod:`.match_columns`).
ROW_COLUMNS = ("hand_count", "status", "finished_at", "running_json")


@dataclass(frozen=True)
class MatchState:
    """Everything derived for one match from its hands: the listing columns, the
    winning seats, the running state and each seat's ``seat_figures`` values.

    ``players`` are the seated players' ids in seat order; ``created_at`` orders a
    group's matches for figures that depend on order (ratings).

    ``places`` (:func:`scorekeeper.core.places.places`, None until finished),
    ``hand_marks`` (each seat's best and worst hand,
    :func:`scorekeeper.core.hand_records.hand_records`) and ``scored`` (each hand's
    dealer and every seat's points, in order from hand ``scored_from``) come with a full
    replay (:func:`replay_of`, then :func:`state_of`: what ``verify`` and ``rebuild``
    recompute from); a state moved on by one hand has no places or marks (the ratings'
    writer reads the stored facts instead) and that one hand's score."""

    match_id: int
    game: str
    players: tuple[int, ...]
    hand_count: int
    status: str
    finished_at: datetime | None
    winners: tuple[int, ...]
    running: running_state.Running
    created_at: datetime | None = None
    places: tuple[int, ...] | None = None
    hand_marks: tuple[HandMarks, ...] = ()
    scored: tuple[tuple[int, tuple[int, ...]], ...] = ()
    scored_from: int = 1  # the number of the first hand in ``scored``

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def running_json(self) -> str:
        return running_state.to_text(self.running)

    def row_columns(self) -> dict[str, Any]:
        """The match row's derived columns."""
        return {name: getattr(self, name) for name in ROW_COLUMNS}

    def seat_rows(self) -> list[dict[str, Any]]:
        """Each seat's ``seat_figures`` row."""
        over, winners = self.finished, self.winners
        return [{"match_id": self.match_id, "seat": f.seat, "player_id": self.players[f.seat],
                 "game": self.game, "finished": over, "won": over and f.seat in winners,
                 **dict(zip(FIGURE_COLUMNS, running_state.FIGURES_OF(f), strict=True))}
                for f in self.running.figures]


def _finish(over: bool, finished_before: datetime | None) -> datetime | None:
    """When a match finished: kept from before if it was finished already (or given by
    an import), now if these hands just finished it, none while it is played."""
    if not over:
        return None
    return finished_before or utcnow()


@dataclass(frozen=True)
class Replayed:
    """What a full replay of one match's hands derives, as plain values and before the
    match has an id or seated players: each hand's dealer, who went out and its points,
    how the match ended (its final ``position``), each seat's figures (their values in
    :data:`FIGURE_COLUMNS` order), places and each seat's best and worst hand (as
    ``(best, worst)`` pairs).

    The writer takes a new match's hands in this form. An import's validation makes it
    for every match of the file and keeps them all until the write: as tuples of plain
    values the cycle collector stops tracking them, where the replay's per-hand scores
    (and the running state's figures and last hands, made from these values by
    :meth:`running` when the match is written) would be walked by every full collection
    the validation's allocations set off."""

    dealers: tuple[int, ...]
    outs: tuple[int | None, ...]
    points: tuple[tuple[int, ...], ...]
    position: MatchTally
    figures: tuple[tuple[Any, ...], ...]
    places: tuple[int, ...] | None
    marks: tuple[tuple[int, int], ...]

    def running(self) -> running_state.Running:
        """The running state the replay ends in."""
        return running_state.Running(
            self.position,
            tuple(Figures(seat, *values) for seat, values in enumerate(self.figures)),
            running_state.recent_of(self.dealers, self.outs, self.points))


def replay_of(game: str, sheet_json: str, table: Standings) -> Replayed:
    """What the full replay ``table`` of a match's hands derives, from the hands as it
    scored them."""
    seats, hands = len(table.totals), table.hands
    figures = replayed_figures(game, sheet_json, seats, hands, table)
    marks = tuple((m.best, m.worst) for m in hand_records(game, seats, hands,
                                                          sheet_limits(sheet_json)[0]))
    return Replayed(table.dealers, tuple([hand.out for hand in hands]),
                    tuple([hand.points for hand in hands]),
                    tally_of(table), tuple(running_state.FIGURES_OF(f) for f in figures),
                    places(stored_sheet(sheet_json), table), marks)


def state_of(match_id: int, game: str, players: Sequence[int], done: Replayed,
             finished_before: datetime | None = None, created_at: datetime | None = None
             ) -> MatchState:
    """A match's state from what a full replay of its hands derived (``done``)."""
    over = done.position.over
    return MatchState(match_id, game, tuple(players), done.position.played,
                      "finished" if over else "active", _finish(over, finished_before),
                      done.position.winners, done.running(), created_at, done.places,
                      tuple(HandMarks(*pair) for pair in done.marks),
                      tuple(zip(done.dealers, done.points, strict=True)))


def after_step(before: MatchState, state: running_state.Running, table: Standings,
               dealer: int, points: Sequence[int]) -> MatchState:
    """A match's state after one more hand: the running state moved on by it
    (``state``), the standings there (``table``), and that hand's dealer and points as
    the core scored them."""
    return replace(before, hand_count=table.played,
                   status="finished" if table.over else "active",
                   finished_at=_finish(table.over, before.finished_at),
                   winners=tuple(table.winners), running=state, places=None, hand_marks=(),
                   scored=((dealer, tuple(points)),), scored_from=table.played)


@lru_cache(maxsize=256)
def stored_sheet(sheet_json: str) -> Sheet:
    """A match's stored rule sheet, parsed and validated once per text and process (a
    Sheet is immutable; a rebuild or an import reads thousands of matches under a few
    sheets). The one cache of parsed sheets: the writer, the readers and the
    projection all ask it."""
    return Sheet.from_json(sheet_json)


@lru_cache(maxsize=256)
def sheet_limits(sheet_json: str) -> tuple[int, int | None]:
    """Countdown's starting count and Last One's threshold in a stored sheet (read once
    per sheet text: an import writes thousands of matches under a few sheets)."""
    options = json.loads(sheet_json).get("options", {})
    return options.get("start_count", 0), options.get("threshold")


def replayed_figures(game: str, sheet_json: str, seats: int, hands: Sequence[HandResult],
                     table: Standings) -> list[Figures]:
    """Every seat's figures from a match's scored hands and the full replay of them
    (``table``), whose totals after each hand they reuse instead of adding them up
    again."""
    start, threshold = sheet_limits(sheet_json)
    progress = table.progress if len(table.progress) == len(hands) else None
    return seat_figures(game, seats, hands, table.winners, start, threshold, progress)


@dataclass(frozen=True)
class Change:
    """One match's derived state before a write (``None``: the match is new) and after.

    The hands numbered past the match's count before are the ones the write adds: the
    writer has inserted their facts, and their dealer and points are written by the
    projection (:mod:`.hand_scores`), in the same transaction."""

    before: MatchState | None
    after: MatchState

    @property
    def added(self) -> range:
        """The numbers of the hands this change adds (none for an edit or a deleted
        hand, one for a recorded hand, every hand of a new match)."""
        return range((0 if self.before is None else self.before.hand_count) + 1,
                     self.after.hand_count + 1)

    def scored(self, number: int) -> tuple[int, tuple[int, ...]]:
        """Hand ``number``'s dealer and points after the change."""
        return self.after.scored[number - self.after.scored_from]


@dataclass(frozen=True)
class GroupState:
    """Every match of a group as its stored hands determine it, oldest first (what a
    figure's tables are recomputed from)."""

    group_id: int
    matches: tuple[MatchState, ...]
    players: tuple[int, ...]  # every player of the group, hidden ones too
    seasons: tuple[tuple[int, date, date], ...] = ()  # named: id, first and last day


@dataclass(frozen=True)
class Kept:
    """One table of derived rows (or a table's derived columns) as a figure keeps it.

    ``key`` names the columns that pick a row out, ``columns`` the derived ones
    compared; ``stored`` reads the group's rows, ``expected`` computes them from a
    :class:`GroupState`, ``replace`` writes a group's rows as computed. Rows whose
    compared columns are all zero or false count as absent (a sum back at nothing).
    """

    table: str
    key: tuple[str, ...]
    columns: tuple[str, ...]
    stored: Callable[[Connection, int], Iterable[Row]]
    expected: Callable[[GroupState], Iterable[Row]]
    replace: Callable[[Connection, GroupState, list[Row]], None]
    sums: bool = False  # a row of zeros is the same as no row


class Figure(Protocol):
    """A derived figure: its tables, and how it follows the writer's changes."""

    @property
    def tables(self) -> tuple[Kept, ...]: ...

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        """Write what ``changes`` change of this figure, in the writer's transaction."""


