"""Player statistics: each seat's figures in one match, and the player page's figures.

Nothing here touches the database. :func:`seat_figures` turns one match's stored hands
into per-seat figures; :mod:`scorekeeper.store.records` rewrites them with every change
to the hands (same transaction) and :mod:`scorekeeper.store.statistics` adds them up
for the player page, so the page never replays a group's hands. The reference
definitions over whole matches are kept as a test oracle (``tests/stats_oracle.py``);
tests hold the two equal. Totals after each hand are the running sums of the stored
points; Countdown counts start at the sheet's ``start_count`` and drop by one for each
hand a player went out.

Definitions (also shown on the player page):

- *hands played*: hands dealt while the player was still in the match;
- *caught holding an 8 / a joker*: hands played in which the player did not go out
  and still held at least one 8 (any suit) / joker when the hand ended;
- *usual fall*: the median hand number (the lower one of an even count) in which
  the player was eliminated in Last One;
- *best comeback*: in a match the player won, the largest deficit to the leader the
  player faced after any hand — points behind the lowest total in Last One, behind
  the highest in Crazy Eights, counts behind the lowest count in Countdown.

>>> hands = [HandRow(1, ("5H", ""), (0, 5)), HandRow(0, ("", "8S KH"), (60, 0))]
>>> ann = seat_figures("crazy-eights", 2, hands, winners=(0,))[0]
>>> ann.went_out, ann.caught_eight, ann.deficit, ann.deficit_hand
(1, 0, 5, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scorekeeper.core.games import GAMES, Game

__all__ = ["Comeback", "GameStats", "HandRow", "HeadToHead", "PlayerStats", "SeatFigures",
           "seat_figures"]


@dataclass(frozen=True, slots=True)
class HandRow:
    """A stored hand: who went out (None: blocked), each seat's cards as canonical
    text (``"8S KH"``) and each seat's points."""

    out: int | None
    cards: tuple[str, ...]
    points: tuple[int, ...]


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


@dataclass(frozen=True)
class Comeback:
    """The deficit overcome, in which match and after which hand."""

    deficit: int
    match_id: int
    hand: int


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


def _totals_after(game: str, hands: Sequence[HandRow], seats: int, start: int
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


def _falls(game: str, totals_after: Sequence[Sequence[int]], winners: Sequence[int],
           threshold: int | None) -> dict[int, int]:
    """The hand in which each seat (never a winner) fell (:meth:`Game.falls`)."""
    info = GAMES[game]
    fallen: dict[int, int] = {}
    for number, totals in enumerate(totals_after, start=1):
        for seat in info.falls(totals, threshold, fallen, winners):
            fallen[seat] = number
    return fallen


def _comebacks(game: str, totals_after: Sequence[Sequence[int]], fallen: dict[int, int],
               seats: int) -> list[tuple[int, int]]:
    """Each seat's largest deficit to the leader still in the match after any hand, and
    the first hand it stood at that deficit ((0, 0) if never behind)."""
    info = GAMES[game]
    lead = info.leader
    if fallen:
        leads = [lead([t for s, t in enumerate(totals) if fallen.get(s, number) >= number])
                 for number, totals in enumerate(totals_after, start=1)]
    else:
        leads = list(map(lead, totals_after))
    pairs = list(zip(totals_after, leads, strict=True))
    comebacks = []
    for seat in range(seats):
        behind = [info.behind(totals[seat], best) for totals, best in pairs]
        deficit = max(behind, default=0)
        comebacks.append((deficit, behind.index(deficit) + 1) if deficit > 0 else (0, 0))
    return comebacks


def _holds(cards: str, token: str) -> bool:
    """Whether canonical card text holds a card with that rank prefix (``8``, ``JK``)."""
    if token not in cards:  # most hands: no such token can be in the text
        return False
    tokens = cards.split()
    if token == "JK":
        return "JK" in tokens
    return any([c[:-1] == token for c in tokens])


def _one_seat(seat: int, hands: Sequence[HandRow], fell: int | None,
              comeback: tuple[int, int]) -> SeatFigures:
    played = hands[:fell] if fell is not None else hands
    caught = [h.cards[seat] for h in played if h.out != seat]
    return SeatFigures(seat, len(played), sum([h.points[seat] for h in played]),
                       len(played) - len(caught),
                       sum([_holds(c, "8") for c in caught if "8" in c]),
                       sum([_holds(c, "JK") for c in caught if "JK" in c]),
                       fell, *comeback)


def seat_figures(game: str, seats: int, hands: Sequence[HandRow], winners: Sequence[int] = (),
                 start: int = 0, threshold: int | None = None,
                 totals_after: Sequence[Sequence[int]] | None = None) -> list[SeatFigures]:
    """Every seat's figures in one match of ``seats`` seats, from its hands in order.

    ``winners`` are the winning seats as stored (a winner never falls); ``start`` is
    Countdown's starting count and ``threshold`` Last One's. ``totals_after``, the
    totals after each hand, may be passed by a caller that has them already (the
    replay's ``Standings.progress``); they are otherwise added up from the hands.
    """
    if totals_after is None:
        totals_after = _totals_after(game, hands, seats, start)
    fallen = _falls(game, totals_after, winners, threshold) if threshold is not None else {}
    comebacks = _comebacks(game, totals_after, fallen, seats)
    return [_one_seat(seat, hands, fallen.get(seat), comebacks[seat]) for seat in range(seats)]
