"""The players' totals oracle: the three tables the records keep (``player_totals``,
``player_falls``, ``player_rivals``), read back, and the same summed straight from the
group's ``seat_figures`` rows."""

from __future__ import annotations

from collections import Counter
from typing import Any

from scorekeeper.store.extensions import db
from scorekeeper.store.models import (
    Group,
    Player,
    PlayerFalls,
    PlayerRivals,
    PlayerTotals,
    SeatFigureRow,
)
from scorekeeper.store.projection.player_totals import SUMMED

BEST = ("best_deficit", "best_match_id", "best_hand")
Tables = tuple[dict[Any, tuple], dict[Any, int], dict[Any, tuple]]


def _players(group: Group) -> list[int]:
    return list(db.session.scalars(db.select(Player.id).where(Player.group_id == group.id)))


def kept(group: Group) -> Tables:
    """The three tables' rows for the group's players (rows that count nothing left out:
    a reopened match can leave a fall or a rivalry at zero)."""
    ids, T, F, R = _players(group), PlayerTotals, PlayerFalls, PlayerRivals
    totals = {(p, g): tuple(rest) for p, g, *rest in db.session.execute(
        db.select(T.player_id, T.game, *(getattr(T, n) for n in (*SUMMED, *BEST)))
        .where(T.player_id.in_(ids)))}
    falls = {(p, g, h): n for p, g, h, n in db.session.execute(
        db.select(F.player_id, F.game, F.hand, F.times).where(F.player_id.in_(ids))) if n}
    rivals = {(p, o): (t, w, x) for p, o, t, w, x in db.session.execute(
        db.select(R.player_id, R.opponent_id, R.together, R.wins, R.their_wins)
        .where(R.player_id.in_(ids))) if (t, w, x) != (0, 0, 0)}
    return totals, falls, rivals


def recomputed(group: Group) -> Tables:
    """The same tables summed straight from the group's ``seat_figures`` rows."""
    columns = [c for c in SeatFigureRow.__table__.c]
    rows = [dict(zip((c.key for c in columns), r, strict=True)) for r in db.session.execute(
        db.select(*columns).where(SeatFigureRow.player_id.in_(_players(group))))]
    totals: dict[Any, list] = {}
    best: dict[Any, tuple] = {}
    falls: Counter = Counter()
    by_match: dict[int, list[dict]] = {}
    for r in rows:
        key = (r["player_id"], r["game"])
        sums = totals.setdefault(key, [0] * len(SUMMED))
        values = (r["finished"], r["won"], not r["finished"], r["hands"], r["points"],
                  r["went_out"], r["caught_eight"], r["caught_joker"])
        for i, value in enumerate(values):
            sums[i] += int(value)
        if r["won"] and (key not in best or (r["deficit"], -r["match_id"])
                         > (best[key][0], -best[key][1])):
            best[key] = (r["deficit"], r["match_id"], r["deficit_hand"])
        if r["fell"] is not None:
            falls[(*key, r["fell"])] += 1
        by_match.setdefault(r["match_id"], []).append(r)
    rivals: Counter = Counter()
    for seats in by_match.values():
        for me in seats:
            for them in seats:
                if me is not them and me["finished"]:
                    pair = (me["player_id"], them["player_id"])
                    rivals[pair, 0] += 1
                    rivals[pair, 1] += int(me["won"])
                    rivals[pair, 2] += int(them["won"])
    pairs = {pair for pair, _ in rivals}
    return ({key: (*sums, *best.get(key, (None, None, None))) for key, sums in totals.items()},
            dict(falls), {p: tuple(rivals[p, i] for i in range(3)) for p in pairs})


def assert_totals(group: Group) -> None:
    assert kept(group) == recomputed(group)
