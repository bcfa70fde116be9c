"""The reference definitions of the player statistics, over whole matches: a test oracle.

Production never replays a group's matches: :func:`scorekeeper.core.stats.seat_figures`
keeps each seat's figures per match (rewritten with the hands, by the records), and the
player page adds those rows up in SQL. These functions define every figure directly on
plain :class:`MatchRow` values (stored hands with their cards and points, each the core's
scored :class:`~scorekeeper.core.scoring.HandResult`), the slow and obvious way, and the
tests hold the two equal. Only the hand and the result containers come from the package.
Definitions as on the player page; a player's falls are kept in hand order.

>>> from functools import partial
>>> from scorekeeper.core.scoring import stored_hand
>>> c8 = partial(stored_hand, "crazy-eights")
>>> ann_wins = MatchRow(1, "crazy-eights", (1, 2), (0,), True,
...                     (c8(1, ("5H", ""), (0, 5)), c8(0, ("", "8S KH"), (60, 0))))
>>> s = player_stats(1, [ann_wins]); s.won, s.games["crazy-eights"].best_comeback.deficit
(1, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorekeeper.core.cards import Card, Rank
from scorekeeper.core.scoring import HandResult
from scorekeeper.core.stats import Comeback, GameStats, HeadToHead, PlayerStats

LO, CD = "last-one", "countdown"

__all__ = ["MatchRow", "comeback", "eliminations", "head_to_head", "player_stats", "progress"]


@dataclass(frozen=True)
class MatchRow:
    """A stored match: its game, player id per seat, winning seats, whether finished,
    the hands, Countdown's starting count and Last One's threshold."""

    id: int
    game: str
    players: tuple[int, ...]
    winners: tuple[int, ...]
    finished: bool
    hands: tuple[HandResult, ...]
    start: int = 0
    threshold: int | None = None


def progress(match: MatchRow) -> list[tuple[int, ...]]:
    """Totals (Countdown: counts) after each hand.

    >>> from scorekeeper.core.scoring import stored_hand
    >>> progress(MatchRow(1, "countdown", (1, 2), (), False,
    ...                   (stored_hand(CD, 0, ("", "5H"), (0, 0)),), start=8))
    [(7, 8)]
    """
    totals = [match.start if match.game == CD else 0] * len(match.players)
    rows = []
    for hand in match.hands:
        if match.game == CD:
            if hand.out is not None:
                totals[hand.out] -= 1
        else:
            totals = [t + p for t, p in zip(totals, hand.points, strict=True)]
        rows.append(tuple(totals))
    return rows


def eliminations(match: MatchRow) -> dict[int, int]:
    """Last One: ``{seat: hand number}`` for each seat that reached the threshold.

    A winner who reached it together with everyone else (lowest total) is not out.
    """
    return _fallen(match, progress(match))


def _fallen(match: MatchRow, totals_after: list[tuple[int, ...]]) -> dict[int, int]:
    if match.game != LO or match.threshold is None:
        return {}
    fallen: dict[int, int] = {}
    for number, totals in enumerate(totals_after, start=1):
        for seat, total in enumerate(totals):
            if (total >= match.threshold and seat not in fallen
                    and seat not in match.winners):
                fallen[seat] = number
    return fallen


def _deficits(match: MatchRow, seat: int) -> Iterable[tuple[int, int]]:
    """(hand number, deficit to the leader) after each hand, for one seat."""
    totals_after = progress(match)
    fallen = _fallen(match, totals_after)
    for number, totals in enumerate(totals_after, start=1):
        alive = ([t for s, t in enumerate(totals) if fallen.get(s, number) >= number]
                 if fallen else totals)
        if match.game in (LO, CD):
            yield number, totals[seat] - min(alive)
        else:
            yield number, max(alive) - totals[seat]


def comeback(match: MatchRow, seat: int) -> Comeback:
    """The largest deficit to the leader the seat faced in the match (0 if never behind).

    >>> from scorekeeper.core.scoring import stored_hand
    >>> m = MatchRow(7, "last-one", (1, 2), (0,), True,
    ...              (stored_hand(LO, 1, ("9H 9S", ""), (18, 0)),
    ...               stored_hand(LO, 0, ("", "8S KH"), (0, 35))))
    >>> comeback(m, 0)
    Comeback(deficit=18, match_id=7, hand=1)
    """
    best = Comeback(0, match.id, 0)
    for number, deficit in _deficits(match, seat):
        if deficit > best.deficit:
            best = Comeback(deficit, match.id, number)
    return best


def _holds_eight(cards: Sequence[Card]) -> bool:
    return any(c.rank == Rank.EIGHT for c in cards)


def _holds_joker(cards: Sequence[Card]) -> bool:
    return any(c.rank is None and c.suit is None for c in cards)


def _count_hands(stats: GameStats, match: MatchRow, seat: int) -> None:
    fell = eliminations(match).get(seat)
    if fell is not None:
        stats.falls.append(fell)
    for number, hand in enumerate(match.hands, start=1):
        if fell is not None and number > fell:
            break
        stats.hands += 1
        stats.points += hand.points[seat]
        if hand.out == seat:
            stats.went_out += 1
            continue
        stats.caught_eight += _holds_eight(hand.held[seat])
        stats.caught_joker += _holds_joker(hand.held[seat])


def _add(stats: GameStats, match: MatchRow, seat: int) -> None:
    won = match.finished and seat in match.winners
    stats.played += match.finished
    stats.won += won
    _count_hands(stats, match, seat)
    if won:
        best = comeback(match, seat)
        if stats.best_comeback is None or best.deficit > stats.best_comeback.deficit:
            stats.best_comeback = best


def player_stats(player_id: int, matches: Iterable[MatchRow]) -> PlayerStats:
    """Figures for one player over the matches (others' matches are ignored).

    Win rates count finished matches only; hands and cards count every match.
    """
    result = PlayerStats(player_id)
    overall = GameStats("all")
    for match in matches:
        if player_id not in match.players:
            continue
        seat = match.players.index(player_id)
        per_game = result.games.setdefault(match.game, GameStats(match.game))
        for stats in (per_game, overall):
            _add(stats, match, seat)
        result.unfinished += not match.finished
    result.played, result.won = overall.played, overall.won
    for stats in (*result.games.values(), overall):
        stats.falls.sort()
    result.games = dict(sorted(result.games.items()))
    result.games["all"] = overall
    return result


def head_to_head(player_id: int, matches: Iterable[MatchRow]) -> list[HeadToHead]:
    """For every opponent: finished matches together, this player's wins, theirs.

    Shared wins count for both. Opponents with the most matches together come first.

    >>> m = MatchRow(1, "crazy-eights", (1, 2, 3), (1,), True, ())
    >>> head_to_head(2, [m])[0]
    HeadToHead(opponent_id=1, together=1, wins=1, their_wins=0)
    """
    table: dict[int, list[int]] = {}
    for match in matches:
        if not match.finished or player_id not in match.players:
            continue
        mine = match.players.index(player_id) in match.winners
        for seat, other in enumerate(match.players):
            if other == player_id:
                continue
            row = table.setdefault(other, [0, 0, 0])
            row[0] += 1
            row[1] += mine
            row[2] += seat in match.winners
    rows = [HeadToHead(o, *counts) for o, counts in table.items()]
    return sorted(rows, key=lambda r: (-r.together, r.opponent_id))

