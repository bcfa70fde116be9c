"""Player statistics: each seat's figures in one match, and the player page's figures.

Nothing here touches the database. :func:`advance_figures` moves each seat's figures
on by one hand, and :func:`seat_figures` folds that one step over a match's stored
hands: a save moves the kept figures on by its new hand (a save of hand 500 costs what
hand 1 does), a replay folds them all, and both are the same step. The projection
rewrites them with every change to the hands (same transaction) and
:mod:`scorekeeper.store.statistics` adds them up for the player page, so the page never
replays a group's hands. The reference definitions over whole matches are kept as a
test oracle (``tests/support/stats_oracle.py``); tests hold the two equal. Totals
after each hand are the running sums of the stored points; Countdown counts start at
the sheet's ``start_count`` and drop by one for each hand a player went out.

Definitions (also shown on the player page):

- *hands played*: hands dealt while the player was still in the match;
- *caught holding an 8 / a joker*: hands played in which the player did not go out
  and still held at least one 8 (any suit) / joker when the hand ended;
- *usual fall*: the median hand number (the lower one of an even count) in which
  the player was eliminated in Last One;
- *best comeback*: in a match the player won, the largest deficit to the leader the
  player faced after any hand — points behind the lowest total in Last One, behind
  the highest in Crazy Eights, counts behind the lowest count in Countdown; of two
  such, the larger, and the earlier match on a tie (:func:`record_rank`, the order of
  every record).

A hand is the core's scored :class:`~scorekeeper.core.scoring.HandResult` (a hand read
back from the store is one too: :func:`~scorekeeper.core.scoring.stored_hand`):

>>> from scorekeeper.core.scoring import stored_hand
>>> hands = [stored_hand("crazy-eights", 1, ("5H", ""), (0, 5)),
...          stored_hand("crazy-eights", 0, ("", "8S KH"), (60, 0))]
>>> ann = seat_figures("crazy-eights", 2, hands, winners=(0,))[0]
>>> ann.went_out, ann.caught_eight, ann.deficit, ann.deficit_hand
(1, 0, 5, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.core.cards import ALL_CARDS, JOKER, Rank
from scorekeeper.core.games import GAMES, Game
from scorekeeper.core.scoring import HandResult

__all__ = ["SEAT_FIGURE_NAMES", "Comeback", "GameStats", "HeadToHead", "PlayerStats",
           "SeatFigures", "advance_figures", "beats_comeback", "best_comeback", "record_rank",
           "seat_figures", "start_figures"]


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One seat's figures in one match: hands played (up to its fall), points, times
    out, times caught with an 8 / a joker, the hand it fell in (Last One), and its
    largest deficit to the leader with the first hand it stood at that deficit."""

    seat: int
    hands: int = 0
    points: int = 0
    went_out: int = 0
    caught_eight: int = 0
    caught_joker: int = 0
    fell: int | None = None
    deficit: int = 0
    deficit_hand: int = 0


# The figures of a seat that move with each hand, in the order they are stored.
SEAT_FIGURE_NAMES = ("hands", "points", "went_out", "caught_eight", "caught_joker", "fell",
                     "deficit", "deficit_hand")


@dataclass(frozen=True)
class Comeback:
    """The deficit overcome, in which match and after which hand."""

    deficit: int
    match_id: int
    hand: int


def record_rank(figure: Any, match_id: Any) -> tuple[Any, Any]:
    """The one ordering of records: the highest figure first, the earlier match (the
    lower id) on a tie; the smaller rank is the better record ("the biggest comeback"
    is the largest deficit won from). It takes numbers and SQL columns alike (a
    negation and a pair), so the player totals, a season's figures, the ratings'
    counts and the leaderboard's records all order by it, in Python or in SQL."""
    return -figure, match_id


def beats_comeback(won: bool, deficit: int, match_id: int, best_deficit: int | None,
                   best_match_id: int | None) -> bool:
    """Whether a seat's match (whether it won, its deficit, the match) beats the best
    comeback held so far (``best_deficit`` None: none yet): only a match won counts.

    >>> beats_comeback(True, 30, 9, 20, 3), beats_comeback(True, 20, 5, 20, 3)
    (True, False)
    >>> beats_comeback(False, 90, 1, None, None)
    False
    """
    return won and (best_deficit is None or record_rank(deficit, match_id)
                    < record_rank(best_deficit, best_match_id))


def best_comeback(comebacks: Iterable[Comeback]) -> Comeback | None:
    """The best of comebacks (each from a match won), None of none."""
    best: Comeback | None = None
    for found in comebacks:
        if best is None or beats_comeback(True, found.deficit, found.match_id, best.deficit,
                                          best.match_id):
            best = found
    return best


@dataclass
class GameStats:
    """One player's figures in one game (or over all games, ``game == "all"``).
    ``falls`` holds the hands of the player's eliminations, in ascending order."""

    game: str
    played: int = 0
    won: int = 0
    hands: int = 0
    went_out: int = 0
    points: int = 0
    caught_eight: int = 0
    caught_joker: int = 0
    falls: list[int] = field(default_factory=list)
    best_comeback: Comeback | None = None

    @property
    def win_rate(self) -> float | None:
        """Won / finished matches played, or None before any."""
        return self.won / self.played if self.played else None

    @property
    def info(self) -> Game | None:
        """The game's definition (None over all games): which figures it has."""
        return GAMES.get(self.game)

    @property
    def average_points(self) -> float | None:
        """Points per hand played, or None before any (Countdown scores no points)."""
        info = GAMES.get(self.game)  # None over all games
        scored = info is None or info.scoring != "count"
        return self.points / self.hands if self.hands and scored else None

    @property
    def eliminated(self) -> int:
        """How many times the player was eliminated."""
        return len(self.falls)

    @property
    def usual_fall(self) -> int | None:
        """The median hand of elimination (the lower middle of an even count)."""
        ordered = sorted(self.falls)
        return ordered[(len(ordered) - 1) // 2] if ordered else None


@dataclass
class PlayerStats:
    """A player's figures over all matches, and per game."""

    player_id: int
    played: int = 0
    won: int = 0
    unfinished: int = 0
    games: dict[str, GameStats] = field(default_factory=dict)

    @property
    def win_rate(self) -> float | None:
        """Won / finished matches played, or None before any."""
        return self.won / self.played if self.played else None


@dataclass(frozen=True)
class HeadToHead:
    """Finished matches two players both sat in, and who of them won how many."""

    opponent_id: int
    together: int
    wins: int
    their_wins: int


def _totals_after(game: str, hands: Sequence[HandResult], seats: int, start: int
                  ) -> list[Sequence[int]]:
    """Totals (Countdown: counts) after each hand."""
    counts = GAMES[game].scoring == "count"
    totals: Sequence[int] = [start if counts else 0] * seats
    rows: list[Sequence[int]] = []
    for hand in hands:
        if counts:
            totals = list(totals)
            if hand.out is not None:
                totals[hand.out] -= 1
        else:
            totals = [t + p for t, p in zip(totals, hand.points, strict=True)]
        rows.append(totals)
    return rows


# The eights of every suit: a hand held one when it is not disjoint from them (cards are
# interned, so the test is a set lookup per card, in C).
_EIGHTS = frozenset(c for c in ALL_CARDS if c.rank is Rank.EIGHT)


def start_figures(seats: int) -> tuple[SeatFigures, ...]:
    """Every seat's figures before the first hand."""
    return tuple(SeatFigures(seat) for seat in range(seats))


class _SeatTally:
    """One seat's figures while a hand moves them on (a frozen :class:`SeatFigures`
    built per seat per hand cost a replay twice what the step itself does)."""

    __slots__ = SEAT_FIGURE_NAMES
    hands: int
    points: int
    went_out: int
    caught_eight: int
    caught_joker: int
    fell: int | None
    deficit: int
    deficit_hand: int

    def __init__(self, figures: SeatFigures) -> None:
        for name in SEAT_FIGURE_NAMES:
            setattr(self, name, getattr(figures, name))

    def figures(self, seat: int) -> SeatFigures:
        """The seat's figures as kept: frozen again."""
        return SeatFigures(seat, *(getattr(self, name) for name in SEAT_FIGURE_NAMES))


def _step(info: Game, tallies: Sequence[_SeatTally], fallen: dict[int, int], number: int,
          hand: HandResult, totals: Sequence[int], winners: Sequence[int],
          threshold: int | None) -> None:
    """Move every seat's tallies and the falls (seat → hand) on by hand ``number``, in
    place: the one step of the seat figures."""
    for seat in info.falls(totals, threshold, fallen, winners):
        fallen[seat] = number
    # The leader among the seats still in the match (one falling in this hand counts).
    lead = info.leader([t for seat, t in enumerate(totals) if fallen.get(seat, number) >= number]
                       if fallen else totals)
    behind, out, points, held = info.behind, hand.out, hand.points, hand.held
    for seat, tally in enumerate(tallies):
        fell = tally.fell = fallen.get(seat)
        deficit = behind(totals[seat], lead)
        if deficit > tally.deficit:  # the first hand at the largest deficit is kept
            tally.deficit, tally.deficit_hand = deficit, number
        if fell is None or number <= fell:  # a hand played (up to and including the fall)
            tally.hands += 1
            tally.points += points[seat]
            if out == seat:
                tally.went_out += 1
            elif cards := held[seat]:
                tally.caught_eight += not _EIGHTS.isdisjoint(cards)
                tally.caught_joker += JOKER in cards


def advance_figures(game: str, figures: Sequence[SeatFigures], number: int, hand: HandResult,
                    totals: Sequence[int], winners: Sequence[int],
                    threshold: int | None = None) -> tuple[SeatFigures, ...]:
    """Every seat's figures after hand ``number`` (``hand``, scored), from theirs before it, the
    totals after it and the match's winners (none until the hand that ends it): how a
    save moves the kept figures on by its new hand. ``threshold`` is Last One's."""
    tallies = [_SeatTally(f) for f in figures]
    fallen = {f.seat: f.fell for f in figures if f.fell is not None}
    _step(GAMES[game], tallies, fallen, number, hand, totals, winners, threshold)
    return tuple(tally.figures(seat) for seat, tally in enumerate(tallies))


def seat_figures(game: str, seats: int, hands: Sequence[HandResult], winners: Sequence[int] = (),
                 start: int = 0, threshold: int | None = None,
                 totals_after: Sequence[Sequence[int]] | None = None) -> list[SeatFigures]:
    """Every seat's figures in one match of ``seats`` seats, from its scored hands in order:
    the step :func:`advance_figures` takes, folded over them from :func:`start_figures`.

    ``winners`` are the winning seats as stored (a winner never falls); ``start`` is
    Countdown's starting count and ``threshold`` Last One's. ``totals_after``, the
    totals after each hand, may be passed by a caller that has them already (the
    replay's ``Standings.progress``); they are otherwise added up from the hands.
    """
    if totals_after is None:
        totals_after = _totals_after(game, hands, seats, start)
    info = GAMES[game]
    tallies = [_SeatTally(f) for f in start_figures(seats)]
    fallen: dict[int, int] = {}
    for number, (hand, totals) in enumerate(zip(hands, totals_after, strict=True), start=1):
        _step(info, tallies, fallen, number, hand, totals, winners, threshold)
    return [tally.figures(seat) for seat, tally in enumerate(tallies)]
