"""Ratings: openskill's Plackett–Luce model folded over a chain of finished matches.

A *chain* is one group's matches of one game in one scope (all time, a year, a month,
a named season: :func:`scorekeeper.core.ratings.scopes_of`), in the order they
finished (finish time, then id: the same order on every host and database). Each
match rates its seats by their places (:func:`scorekeeper.core.places.places`, ties
sharing a rank, which is exactly what the model's ``ranks`` take). Only μ and σ are
kept, as floats; the same chain gives the same ratings wherever it is folded.

This module computes; :mod:`scorekeeper.store.projection.rating_chains` reads and writes the rows
(``rating`` and ``rating_step``) in the transaction of the change to the match.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from openskill.models import PlackettLuce

from scorekeeper.core.ratings import shown
from scorekeeper.store.projection.player_totals import record_rank

__all__ = ["MODEL", "Finished", "SeatResult", "State", "Step", "fold", "new_state", "order_key",
           "rate_match", "recount", "walk"]

MODEL = PlackettLuce()  # the package's defaults: μ 25, σ 25/3, β 25/6, τ 25/300


def order_key(finished_at: datetime, match_id: int) -> tuple[datetime, int]:
    """Where a match stands in its chains: by finish time (as naive UTC, which both
    databases hand back alike), then by id."""
    if finished_at.tzinfo is not None:
        finished_at = finished_at.astimezone(UTC).replace(tzinfo=None)
    return finished_at, match_id


@dataclass(frozen=True)
class SeatResult:
    """What a finished match counts for one seat: the place taken, whether it won,
    the deficit it came back from (its seat figures' ``deficit``, counted when it won)
    and its best and worst hand (:func:`scorekeeper.core.hand_records.hand_records`)."""

    player_id: int
    seat: int
    place: int
    won: bool
    deficit: int
    best_hand: int
    worst_hand: int


@dataclass(frozen=True)
class Finished:
    """A finished match as its chains see it."""

    match_id: int
    finished_at: datetime
    seats: tuple[SeatResult, ...]

    @property
    def key(self) -> tuple[datetime, int]:
        """Its place in the chain."""
        return order_key(self.finished_at, self.match_id)


@dataclass(frozen=True)
class State:
    """A player's standing in a chain after their last match in it: the model's μ and
    σ, the shown rating and its last change, and the counts behind the records."""

    mu: float
    sigma: float
    shown: int
    change: int = 0
    matches: int = 0
    wins: int = 0
    streak: int = 0
    best_streak: int = 0
    best_streak_match_id: int | None = None
    best_deficit: int | None = None
    best_deficit_match_id: int | None = None
    best_hand: int | None = None
    best_hand_match_id: int | None = None
    worst_hand: int | None = None
    worst_hand_match_id: int | None = None
    last_match_id: int = 0
    last_finished_at: datetime | None = None


def new_state() -> State:
    """A player before their first match in a chain."""
    mu, sigma = MODEL.mu, MODEL.sigma
    return State(mu, sigma, shown(mu, sigma))


@dataclass(frozen=True)
class Step:
    """One seat's rating after one match: the result it came from and the state after."""

    match: Finished
    result: SeatResult
    after: State


def _counted(state: State, match: Finished, result: SeatResult, mu: float, sigma: float
             ) -> State:
    """The state after the match: the new μ and σ, and the counts moved on."""
    rating = shown(mu, sigma)
    streak = state.streak + 1 if result.won else 0
    longer = streak > state.best_streak
    comeback = result.won and (state.best_deficit is None or record_rank(
        result.deficit, match.match_id) < record_rank(state.best_deficit,
                                                      state.best_deficit_match_id))
    best = state.best_hand is None or result.best_hand > state.best_hand
    worst = state.worst_hand is None or result.worst_hand > state.worst_hand
    # Every field is given: built directly, at a third of what dataclasses.replace
    # costs (a group rated again builds one per seat per match in every scope).
    return State(
        mu=mu, sigma=sigma, shown=rating, change=rating - state.shown,
        matches=state.matches + 1, wins=state.wins + result.won, streak=streak,
        best_streak=streak if longer else state.best_streak,
        best_streak_match_id=match.match_id if longer else state.best_streak_match_id,
        best_deficit=result.deficit if comeback else state.best_deficit,
        best_deficit_match_id=match.match_id if comeback else state.best_deficit_match_id,
        best_hand=result.best_hand if best else state.best_hand,
        best_hand_match_id=match.match_id if best else state.best_hand_match_id,
        worst_hand=result.worst_hand if worst else state.worst_hand,
        worst_hand_match_id=match.match_id if worst else state.worst_hand_match_id,
        last_match_id=match.match_id, last_finished_at=match.finished_at)


def rate_match(states: Mapping[int, State], match: Finished) -> list[Step]:
    """Every seat's step through one match, from its players' states before it
    (a player missing from ``states`` starts new). The ranks given to the model are
    the places, one player a team: lower is better and equal places tie."""
    before = [states.get(r.player_id) or new_state() for r in match.seats]
    rated = _rated(tuple((s.mu, s.sigma) for s in before),
                   tuple(float(r.place) for r in match.seats))
    return [Step(match, result, _counted(state, match, result, mu, sigma))
            for result, state, (mu, sigma) in zip(match.seats, before, rated, strict=True)]


@lru_cache(maxsize=1 << 14)
def _rated(before: tuple[tuple[float, float], ...], ranks: tuple[float, ...]
           ) -> tuple[tuple[float, float], ...]:
    """Every seat's μ and σ after a match, from theirs before it and their places: the
    model's one call, a pure function of these floats, so asked once per distinct
    input. Rating a group again repeats inputs often: a chain's scopes hold the same
    matches while a group's history lies within one month or year (the all-time, year
    and month chains then fold alike), and every player starts from the same prior;
    each model call costs openskill two rating objects per seat and a deep copy."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]
    return tuple((team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(ranks)))


def fold(matches: Iterable[Finished], states: dict[int, State] | None = None
         ) -> tuple[dict[int, State], list[Step]]:
    """Fold a chain's matches (in chain order) over the players' states (new when not
    given): the states after the last, and every step on the way."""
    states = {} if states is None else states
    return states, list(walk(matches, states))


def walk(matches: Iterable[Finished], states: dict[int, State]) -> Iterator[Step]:
    """:func:`fold` one step at a time, ``states`` moved on in place: a caller that
    turns each step into a row at once keeps no chain's steps alive (a group rated
    again makes one per seat per match in every scope)."""
    for match in matches:
        done = rate_match(states, match)
        for step in done:
            states[step.result.player_id] = step.after
        yield from done


def recount(states: dict[int, State], match: Finished,
            rated: Mapping[int, tuple[float, float]]) -> None:
    """Move the states on through a match already rated (stored steps: each player's
    μ and σ after it in ``rated``) without rating it again: how a replay from a changed
    match starts from the steps before it."""
    for result in match.seats:
        state = states.get(result.player_id) or new_state()
        mu, sigma = rated[result.player_id]
        states[result.player_id] = _counted(state, match, result, mu, sigma)
