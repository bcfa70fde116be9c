"""Places in a finished match (the rules reference "Places"): every seat ranked, 1 first.

The scoreboard, the match record, the exports and the ratings all read places from
here, so they can never disagree. Equal standing shares a place and the next place is
skipped (competition ranking: two 2nds, then a 4th). Each game's end rule becomes one
sort key per seat, smaller is better; a seat's place is one more than the number of
seats whose key is smaller.

>>> from scorekeeper.core.scoring import HandResult, standings
>>> from scorekeeper.core.sheets import Sheet
>>> sheet = Sheet.make("countdown", {"start_count": 1})
>>> places(sheet, standings(sheet, ["Ann", "Ben", "Cy"], 0, [HandResult.of(1, [[], [], []])]))
(2, 1, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper.core.scoring import Standings, card_points
from scorekeeper.core.sheets import Sheet

__all__ = ["needs_hands", "places"]

Key = tuple[int, ...]


def places(sheet: Sheet, table: Standings) -> tuple[int, ...] | None:
    """Each seat's place in a finished match, in seat order; None while it is not over.

    Crazy Eights played as one hand ranks the losers by the points they held, so it
    needs that hand's score: standings from :func:`~scorekeeper.core.scoring.standings`
    carry it, those from a stored position (``standings_at``) do not and raise
    ``ValueError`` here (see :func:`needs_hands`).
    """
    if not table.over:
        return None
    return _ranks(_KEYS[_rule(sheet, len(table.totals))](sheet, table))


def needs_hands(sheet: Sheet, seats: int) -> bool:
    """Whether :func:`places` reads the hands' scores (not only the totals) for a
    match of ``seats`` seats under ``sheet``: a match to a target played as one hand."""
    return _rule(sheet, seats) == "one-hand"


def _rule(sheet: Sheet, seats: int) -> str:
    """The end rule places follow: the game's kind of end (:attr:`Game.end`), or
    ``"one-hand"`` for a match to a target that is played as one hand."""
    end = sheet.game_info.end
    if end == "target" and sheet.target_for(seats) is None:
        return "one-hand"
    return end


def _ranks(keys: Sequence[Key]) -> tuple[int, ...]:
    """Competition ranks of the keys (smaller is better)."""
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def _last_left(sheet: Sheet, table: Standings) -> list[Key]:
    """The last player left (or the lowest total when all fell together) first; then
    the later a seat was eliminated the better, and in the same hand the lower total."""
    after_last = table.played + 1
    return [(0,) if seat in table.winners
            else (1, -table.eliminated.get(seat, after_last), total)
            for seat, total in enumerate(table.totals)]


def _to_target(sheet: Sheet, table: Standings) -> list[Key]:
    """The winner(s) first, then by total, highest first."""
    return [(0,) if seat in table.winners else (1, -total)
            for seat, total in enumerate(table.totals)]


def _one_hand(sheet: Sheet, table: Standings) -> list[Key]:
    """Who went out (or the jam rule's winner) first, then by points held, fewest first."""
    if not table.hands:
        raise ValueError("places in a one-hand match need that hand's score: "
                         "replay the hands, not a stored position")
    held = table.hands[-1].held
    return [(0,) if seat in table.winners
            else (1, sum(card_points(sheet.game, card) for card in held[seat]))
            for seat in range(len(table.totals))]


def _by_count(sheet: Sheet, table: Standings) -> list[Key]:
    """By count, lowest first (the winner's is 0)."""
    return [(count,) for count in table.totals]


_KEYS: dict[str, Callable[[Sheet, Standings], list[Key]]] = {
    "threshold": _last_left, "target": _to_target, "one-hand": _one_hand, "count": _by_count}
