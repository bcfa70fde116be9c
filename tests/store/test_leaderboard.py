"""The leaderboard's records: each held by the highest figure, the earlier match on a
tie, as :func:`~scorekeeper.store.projection.player_totals.record_rank` orders every
record (the comebacks kept by the projection too). No database: the records are
picked from the board's rows as read."""

from __future__ import annotations

import pytest

from scorekeeper.core.stats import record_rank
from scorekeeper.store import leaderboard

C8 = "crazy-eights"


def row(player: int, wins: int = 0, streak: tuple[int, int | None] = (0, None),
        comeback: tuple[int, int | None] = (0, None), best: tuple[int, int | None] = (0, None),
        worst: tuple[int, int | None] = (0, None)) -> tuple:
    """A board row as the leaderboard's query reads it (rating columns left at 0)."""
    return (player, f"P{player}", "#000000", 0, 0, 5, wins, *streak, *comeback, *best, *worst)


def held(rows: list[tuple]) -> dict[str, tuple[int, int, int | None]]:
    """Each record: (its holder, the figure, its match)."""
    return {r.kind: (r.player_id, r.value, r.match_id) for r in leaderboard._records(C8, rows)}


@pytest.mark.parametrize(("rows", "kind", "holder"), [
    # the highest figure, whichever match it came from
    ([row(1, comeback=(20, 3)), row(2, comeback=(30, 9))], "biggest-comeback", (2, 30, 9)),
    # a tie: the earlier match
    ([row(1, best=(40, 9)), row(2, best=(40, 3))], "best-hand", (2, 40, 3)),
    ([row(1, streak=(3, 2)), row(2, streak=(3, 7))], "longest-streak", (1, 3, 2)),
    ([row(1, worst=(50, 8)), row(2, worst=(50, 8)), row(3, worst=(50, 4))], "worst-hand",
     (3, 50, 4)),
    # most wins spans many matches: a tie goes to the row the board lists first
    ([row(1, wins=4), row(2, wins=4)], "most-wins", (1, 4, None)),
])
def test_a_record_goes_to_the_highest_figure_and_the_earlier_match(rows, kind, holder):
    assert held(rows)[kind] == holder


def test_nobody_holds_a_record_at_zero():
    assert held([row(1), row(2)]) == {}


def test_the_leaderboard_ranks_records_by_the_one_ordering(monkeypatch):
    """Told to rank the lowest figure first, the board follows: it states no ordering
    of its own."""
    rows = [row(1, comeback=(20, 3), best=(40, 9)), row(2, comeback=(30, 9), best=(10, 3))]
    assert record_rank(30, 9) < record_rank(20, 3)
    monkeypatch.setattr(leaderboard, "record_rank", lambda figure, match: (figure, match))
    assert held(rows)["biggest-comeback"] == (1, 20, 3)
    assert held(rows)["best-hand"] == (2, 10, 3)
