"""Per-player running totals (tables ``player_totals``, ``player_falls``,
``player_rivals``): the ``seat_figures`` rows added up per player, so the player page
reads a few rows whatever the number of matches.

Whoever changes ``seat_figures`` hands :func:`apply` each changed seat's row before and
after the change (``None`` before: a new match), in the same transaction; the difference
is added to the totals, so a save costs O(seats), not O(matches):

* :func:`scorekeeper.store.figures.rewrite` (every record, edit and delete, which also
  finish and reopen matches);
* the bulk import (:mod:`scorekeeper.store.transfer`);
* rows inserted through the ORM (a new match, :func:`records.build_match`), counted by
  the ``after_flush`` listener below, once their ids are known.

Sums and counts are differences. The best comeback is a maximum, which a difference
cannot lower: a better candidate replaces it in the same statement, and when the match
that held it changes (only a match that had a winner can hold it), it is looked up
again in ``seat_figures`` (one index range, ``LIMIT 1``). The migration and the tests
recompute all three tables from ``seat_figures`` and compare.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

from sqlalchemy import and_, case, event, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from scorekeeper.store.models import PlayerFalls, PlayerRivals, PlayerTotals, SeatFigures

__all__ = ["SUMMED", "apply"]

T = PlayerTotals
SUMMED = ("played", "won", "unfinished", "hands", "points", "went_out", "caught_eight",
          "caught_joker")
BEST = ("best_deficit", "best_match_id", "best_hand")
Row = Mapping[str, Any]  # a seat_figures row: its columns by name


def _sums(row: Row | None) -> tuple[int, ...]:
    """What one seat's row adds to its player's totals in its game."""
    if row is None:
        return (0,) * len(SUMMED)
    finished = bool(row["finished"])
    return (int(finished), int(bool(row["won"])), int(not finished), row["hands"],
            row["points"], row["went_out"], row["caught_eight"], row["caught_joker"])


def _pairs(rows: list[Row]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """Head to head: what a match adds for each ordered pair of its players."""
    if not rows or not rows[0]["finished"]:
        return {}
    return {(a["player_id"], b["player_id"]): (1, int(bool(a["won"])), int(bool(b["won"])))
            for a in rows for b in rows if a is not b}


def _better(a: tuple[int, int, int], b: tuple[int, int, int] | None) -> bool:
    """Whether comeback ``a`` beats ``b``: a larger deficit, the earlier match on a tie."""
    return b is None or (a[0], -a[1]) > (b[0], -b[1])


class _Delta:
    """The differences to write, summed per key before anything is sent."""

    def __init__(self) -> None:
        self.sums: dict[tuple[int, str], list[int]] = {}
        self.best: dict[tuple[int, str], tuple[int, int, int]] = {}
        self.falls: dict[tuple[int, str, int], int] = defaultdict(int)
        self.rivals: dict[tuple[int, int], list[int]] = {}
        self.recheck: set[tuple[int, str, int]] = set()  # player, game, match

    def seat(self, old: Row | None, new: Row) -> None:
        key = (new["player_id"], new["game"])
        change = _sums(new) if old is None else [
            a - b for a, b in zip(_sums(new), _sums(old), strict=True)]
        sums = self.sums.get(key)
        self.sums[key] = (list(change) if sums is None
                          else [a + b for a, b in zip(sums, change, strict=True)])
        if new["won"]:
            candidate = (new["deficit"], new["match_id"], new["deficit_hand"])
            if _better(candidate, self.best.get(key)):
                self.best[key] = candidate
        if old is not None and old["won"]:
            self.recheck.add((*key, new["match_id"]))
        fell = None if old is None else old["fell"]
        if fell != new["fell"]:
            if fell is not None:
                self.falls[(*key, fell)] -= 1
            if new["fell"] is not None:
                self.falls[(*key, new["fell"])] += 1

    def match(self, old: list[Row], new: list[Row]) -> None:
        before, after = _pairs(old), _pairs(new)
        if before == after:  # the usual save: the match neither finished nor reopened
            return
        for pairs, sign in ((after, 1), (before, -1)):
            for pair, (together, wins, theirs) in pairs.items():
                counts = self.rivals.setdefault(pair, [0, 0, 0])
                counts[0] += sign * together
                counts[1] += sign * wins
                counts[2] += sign * theirs


def apply(connection: Connection, changes: Iterable[tuple[Row | None, Row]]) -> None:
    """Add the difference between seats' old and new ``seat_figures`` rows (each with
    ``match_id``, ``player_id`` and ``game``; old ``None`` for a new match) to the
    totals. A few statements whatever the number of rows; keys are written in sorted
    order, so two transactions touching the same players lock them in the same order."""
    delta = _Delta()
    by_match: dict[int, tuple[list[Row], list[Row]]] = {}
    for old, new in changes:
        delta.seat(old, new)
        olds, news = by_match.setdefault(new["match_id"], ([], []))
        if old is not None:
            olds.append(old)
        news.append(new)
    for olds, news in by_match.values():
        delta.match(olds, news)
    _write(connection, delta)


def _upsert(connection: Connection, model: type, keys: tuple[str, ...],
            rows: list[dict[str, Any]], kept: tuple[str, ...] = ()) -> None:
    """INSERT each row, or add its counts to the row already there (one executemany).

    Columns named in ``kept`` are the best comeback's: replaced only by a better one."""
    if rows:
        connection.execute(_upsert_statement(connection.dialect.name, model, keys,
                                             tuple(rows[0]), kept), rows)


@lru_cache(maxsize=32)
def _upsert_statement(dialect_name: str, model: type, keys: tuple[str, ...],
                      names: tuple[str, ...], kept: tuple[str, ...]) -> Any:
    """The statement of :func:`_upsert`, built once per table and dialect (building it
    cost more than running it on every save)."""
    table = model.__table__  # type: ignore[attr-defined]
    dialect = postgresql if dialect_name == "postgresql" else sqlite
    statement = dialect.insert(table)
    new = statement.excluded
    values = {name: table.c[name] + new[name]
              for name in names if name not in keys and name not in kept}
    if kept:
        better = and_(new.best_deficit.is_not(None),
                      or_(T.best_deficit.is_(None), new.best_deficit > T.best_deficit,
                          and_(new.best_deficit == T.best_deficit,
                               new.best_match_id < T.best_match_id)))
        values |= {name: case((better, new[name]), else_=table.c[name]) for name in kept}
    return statement.on_conflict_do_update(index_elements=list(keys), set_=values)


def _write(connection: Connection, delta: _Delta) -> None:
    totals = []
    for key in sorted(delta.sums.keys() | delta.best.keys()):
        sums = delta.sums.get(key, [0] * len(SUMMED))
        best = delta.best.get(key)
        if not any(sums) and best is None:
            continue
        totals.append({"player_id": key[0], "game": key[1], **dict(zip(SUMMED, sums,
                                                                       strict=True)),
                       **dict(zip(BEST, best or (None, None, None), strict=True))})
    _upsert(connection, T, ("player_id", "game"), totals, BEST)
    _upsert(connection, PlayerFalls, ("player_id", "game", "hand"),
            [{"player_id": p, "game": g, "hand": h, "times": n}
             for (p, g, h), n in sorted(delta.falls.items()) if n])
    _upsert(connection, PlayerRivals, ("player_id", "opponent_id"),
            [{"player_id": p, "opponent_id": o, "together": c[0], "wins": c[1],
              "their_wins": c[2]} for (p, o), c in sorted(delta.rivals.items()) if any(c)])
    _recheck(connection, delta.recheck)


def _recheck(connection: Connection, keys: set[tuple[int, str, int]]) -> None:
    """Look the best comeback up again where the changed match held it."""
    by_match: dict[tuple[str, int], list[int]] = defaultdict(list)
    for player, game, match in keys:
        by_match[game, match].append(player)
    F = SeatFigures
    for (game, match), players in sorted(by_match.items()):
        held = connection.scalars(select(T.player_id).where(
            T.game == game, T.best_match_id == match, T.player_id.in_(sorted(players)))).all()
        for player in held:
            best = connection.execute(
                select(F.deficit, F.match_id, F.deficit_hand)
                .where(F.player_id == player, F.game == game, F.won)
                .order_by(F.deficit.desc(), F.match_id).limit(1)).first()
            connection.execute(update(T).where(T.player_id == player, T.game == game)
                               .values(dict(zip(BEST, best or (None, None, None),
                                                strict=True))))


def _row(figures: SeatFigures) -> dict[str, Any]:
    return {c.key: getattr(figures, c.key) for c in SeatFigures.__table__.c}


@event.listens_for(Session, "after_flush")
def _count_new_figures(session: Session, _context: Any) -> None:
    """Rows of a new match inserted through the ORM (:func:`figures.rows_for`) join
    their players' totals in the flush that wrote them (ids are known by now)."""
    new = [_row(o) for o in session.new if isinstance(o, SeatFigures)]
    if new:
        apply(session.connection(), [(None, row) for row in new])
