"""Ratings: how a rating is worked out, shown and scoped; the rules every other module
asks (the store keeps the rows, the pages write them out).

**The model.** openskill's Plackett–Luce folded over a *chain* of finished matches:
one group's matches of one game in one scope, in the order they finished (finish time,
then id: the same order on every host and database, :func:`order_key`). Each match
rates its seats by their places (:func:`scorekeeper.core.places.places`, ties sharing a
rank, which is exactly what the model's ``ranks`` take). Only μ and σ are kept, as
floats; the same chain gives the same ratings wherever it is folded. With them a
player's :class:`State` keeps the counts behind the leaderboard's records (wins, the
longest streak, the best comeback, the best and worst hand).
:mod:`scorekeeper.store.projection.rating_chains` reads and writes the rows (``rating``
and ``rating_step``) in the transaction of the change to the match.

**Shown.** A rating is shown as a friendly whole number from its conservative estimate
(μ − 3σ): a new player (μ 25, σ 25/3, estimate 0) is shown :data:`START`, each point
of the estimate is worth :data:`SCALE`, and nobody is shown below zero. A player is
*provisional* until :data:`PROVISIONAL` rated matches.

**Scopes.** Ratings run in scopes, each its own chain starting fresh: all time, each
calendar year, each calendar month and each named season of the group. A match counts
in every scope its finishing day falls in.

>>> shown(25.0, 25 / 3), shown(30.0, 3.0), shown(-40.0, 8.0)
(1000, 1840, 0)
>>> scopes_of(date(2026, 12, 1), [(7, date(2026, 11, 1), date(2027, 1, 31))])
('all', 'y2026', 'm2026-12', 's7')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from functools import lru_cache

from openskill.models import PlackettLuce

from scorekeeper.core.stats import beats_comeback

__all__ = ["ALL", "MODEL", "PROVISIONAL", "SCALE", "START", "Finished", "Period", "SeatResult",
           "State", "Step", "arrow", "board_places", "fold", "is_provisional", "month_scope",
           "new_state", "order_key", "periods", "rate_match", "recount", "scopes_of",
           "season_scope", "shown", "walk", "year_scope"]

START = 1000  # what a new player is shown
SCALE = 40  # shown points per point of μ − 3σ
PROVISIONAL = 5  # rated matches before a rating is no longer provisional
ALL = "all"


def shown(mu: float, sigma: float) -> int:
    """The rating as shown: ``START + SCALE × (μ − 3σ)``, rounded, never below zero."""
    return max(0, round(START + SCALE * (mu - 3 * sigma)))


def is_provisional(matches: int) -> bool:
    """Whether a rating from that many rated matches is still provisional."""
    return matches < PROVISIONAL


def board_places(ratings: Sequence[int]) -> list[int]:
    """The leaderboard's places of shown ratings sorted high to low: equal ratings share
    one, and the next after them skips as many (competition places).

    >>> board_places([1200, 1100, 1100, 1000])
    [1, 2, 2, 4]
    """
    return [1 + next(i for i, r in enumerate(ratings) if r == rating) for rating in ratings]


def arrow(change: int) -> str:
    """A change as the leaderboard shows it: ``▲ 12``, ``▼ 3`` or ``–`` (none).

    >>> arrow(12), arrow(-3), arrow(0)
    ('▲ 12', '▼ 3', '–')
    """
    if change > 0:
        return f"▲ {change:,}"
    if change < 0:
        return f"▼ {-change:,}"
    return "–"


def year_scope(day: date) -> str:
    """The scope of the calendar year of ``day``."""
    return f"y{day.year}"


def month_scope(day: date) -> str:
    """The scope of the calendar month of ``day``."""
    return f"m{day.year}-{day.month:02d}"


def season_scope(season_id: int) -> str:
    """The scope of a named season."""
    return f"s{season_id}"


def scopes_of(day: date, seasons: Iterable[tuple[int, date, date]]) -> tuple[str, ...]:
    """Every scope a match finished on ``day`` counts in; ``seasons`` are the group's
    named seasons as (id, first day, last day), both days included."""
    named = sorted(season_id for season_id, first, last in seasons if first <= day <= last)
    return (ALL, year_scope(day), month_scope(day), *map(season_scope, named))


@dataclass(frozen=True)
class Period:
    """A choice of the season picker: its value in a link, its label and its scope;
    ``first`` and ``last`` bound the days it covers (None: unbounded)."""

    value: str
    label: str
    scope: str
    first: date | None = None
    last: date | None = None


def periods(today: date, seasons: Sequence[tuple[int, str, date, date]]) -> tuple[Period, ...]:
    """The picker's choices: all time, this year, this month, then the named seasons
    (id, name, first day, last day), the latest first."""
    year_start = date(today.year, 1, 1)
    month_start = date(today.year, today.month, 1)
    month_end = (date(today.year + 1, 1, 1) if today.month == 12
                 else date(today.year, today.month + 1, 1))
    fixed = (Period(ALL, "All time", ALL),
             Period("year", f"This year ({today.year})", year_scope(today), year_start,
                    date(today.year, 12, 31)),
             Period("month", f"This month ({today:%B %Y})", month_scope(today), month_start,
                    date.fromordinal(month_end.toordinal() - 1)))
    named = sorted(seasons, key=lambda s: (s[2], s[0]), reverse=True)
    return fixed + tuple(Period(str(season_id), name, season_scope(season_id), first, last)
                         for season_id, name, first, last in named)


# --- the model folded over a chain ------------------------------------------------------

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
    comeback = beats_comeback(result.won, result.deficit, match.match_id, state.best_deficit,
                              state.best_deficit_match_id)
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
