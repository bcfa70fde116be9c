"""Per-player running totals (tables ``player_totals``, ``player_falls``,
``player_rivals``), as a derived figure: the ``seat_figures`` rows added up per player,
so the player page reads a few rows whatever the number of matches.

With the writer's changes (each seat's row before, ``None`` for a new match, and
after) :mod:`.projection` adds the difference to the totals in the same transaction,
so a save costs O(seats), not O(matches). Sums and counts are differences. The best
comeback is a maximum, which a difference cannot lower: a better candidate replaces it
in the same statement, and when the match that held it changes (only a match that had
a winner can hold it), it is looked up again in ``seat_figures``
(:func:`ranked_comebacks`), which is why this figure comes after :mod:`.seat_rows`. Rebuilt and
verified, the same sums are taken over every seat row of the group at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    Subquery,
    and_,
    case,
    cast,
    delete,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from scorekeeper.core.stats import beats_comeback, record_rank
from scorekeeper.store.models import Player, PlayerFalls, PlayerRivals, PlayerTotals, SeatFigureRow
from scorekeeper.store.projection.states import Change, GroupState, Kept

__all__ = ["ADDED", "BEST_FIRST", "SUMMED", "TOTALS", "ranked_comebacks", "summed_in_sql"]

T = PlayerTotals
# What one seat's row adds to each total: the seat_figures column (a flag counts 1 when
# set), or for "unfinished" the flag's absence. The one definition of the sums, read
# here by the projection and in SQL by a season's figures (:func:`summed_in_sql`).
ADDED: tuple[tuple[str, str, bool], ...] = (
    ("played", "finished", True), ("won", "won", True), ("unfinished", "finished", False),
    ("hands", "hands", True), ("points", "points", True), ("went_out", "went_out", True),
    ("caught_eight", "caught_eight", True), ("caught_joker", "caught_joker", True))
SUMMED = tuple(total for total, _, _ in ADDED)
BEST = ("best_deficit", "best_match_id", "best_hand")


F = SeatFigureRow
# The best comeback first, as SQL orders seat rows (the core's one order of records).
BEST_FIRST = record_rank(F.deficit, F.match_id)
Row = Mapping[Any, Any]  # a seat_figures row: its columns by name


def _sums(row: Row | None) -> tuple[int, ...]:
    """What one seat's row adds to its player's totals in its game."""
    if row is None:
        return (0,) * len(SUMMED)
    return tuple(int(row[column]) if present else int(not row[column])
                 for _, column, present in ADDED)


def summed_in_sql(names: Iterable[str]) -> list[Any]:
    """The totals named, as SQL sums over ``seat_figures`` rows (zero over no rows)."""
    sources = {total: (column, present) for total, column, present in ADDED}
    sums = []
    for name in names:
        column, present = sources[name]
        value = cast(getattr(SeatFigureRow, column), Integer)
        sums.append(func.coalesce(func.sum(value if present else 1 - value), 0))
    return sums


def _pairs(rows: list[Row]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """Head to head: what a match adds for each ordered pair of its players."""
    if not rows or not rows[0]["finished"]:
        return {}
    return {(a["player_id"], b["player_id"]): (1, int(bool(a["won"])), int(bool(b["won"])))
            for a in rows for b in rows if a is not b}


def ranked_comebacks(seats: Select[Any]) -> Subquery:
    """The comebacks among the seat rows ``seats`` selects (rows of matches won, as the
    core's :func:`~scorekeeper.core.stats.beats_comeback` counts them), each with its
    ``rank`` per player and game: 1 is the best (:data:`BEST_FIRST`). The one statement
    of the best comeback in SQL: a changed match's totals and a season's figures ask it.
    """
    return (seats.where(F.won)
            .add_columns(F.player_id, F.game, F.deficit, F.match_id, F.deficit_hand,
                         func.row_number().over(partition_by=(F.player_id, F.game),
                                                order_by=BEST_FIRST).label("rank"))
            .subquery())


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
        held = self.best.get(key)
        if beats_comeback(bool(new["won"]), new["deficit"], new["match_id"],
                          *(held[:2] if held else (None, None))):
            self.best[key] = (new["deficit"], new["match_id"], new["deficit_hand"])
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
                      or_(T.best_deficit.is_(None),
                          tuple_(*record_rank(new.best_deficit, new.best_match_id))
                          < tuple_(*record_rank(T.best_deficit, T.best_match_id))))
        values |= {name: case((better, new[name]), else_=table.c[name]) for name in kept}
    return statement.on_conflict_do_update(index_elements=list(keys), set_=values)


def _rows(delta: _Delta) -> tuple[list[dict[str, Any]], list[dict[str, Any]],
                                  list[dict[str, Any]]]:
    """The differences as rows of the three tables, in key order (so two transactions
    touching the same players lock them in the same order)."""
    totals = []
    for key in sorted(delta.sums.keys() | delta.best.keys()):
        sums = delta.sums.get(key, [0] * len(SUMMED))
        best = delta.best.get(key)
        if not any(sums) and best is None:
            continue
        totals.append({"player_id": key[0], "game": key[1], **dict(zip(SUMMED, sums,
                                                                       strict=True)),
                       **dict(zip(BEST, best or (None, None, None), strict=True))})
    falls = [{"player_id": p, "game": g, "hand": h, "times": n}
             for (p, g, h), n in sorted(delta.falls.items()) if n]
    rivals = [{"player_id": p, "opponent_id": o, "together": c[0], "wins": c[1],
               "their_wins": c[2]} for (p, o), c in sorted(delta.rivals.items()) if any(c)]
    return totals, falls, rivals


def _write(connection: Connection, delta: _Delta) -> None:
    totals, falls, rivals = _rows(delta)
    _upsert(connection, T, ("player_id", "game"), totals, BEST)
    _upsert(connection, PlayerFalls, ("player_id", "game", "hand"), falls)
    _upsert(connection, PlayerRivals, ("player_id", "opponent_id"), rivals)
    _recheck(connection, delta.recheck)


def _recheck(connection: Connection, keys: set[tuple[int, str, int]]) -> None:
    """Look the best comeback up again where the changed match held it."""
    by_match: dict[tuple[str, int], list[int]] = defaultdict(list)
    for player, game, match in keys:
        by_match[game, match].append(player)
    for (game, match), players in sorted(by_match.items()):
        held = connection.scalars(select(T.player_id).where(
            T.game == game, T.best_match_id == match, T.player_id.in_(sorted(players)))).all()
        for player in held:
            ranked = ranked_comebacks(select().select_from(F).where(F.player_id == player,
                                                                    F.game == game))
            best = connection.execute(
                select(ranked.c.deficit, ranked.c.match_id, ranked.c.deficit_hand)
                .where(ranked.c.rank == 1)).first()
            connection.execute(update(T).where(T.player_id == player, T.game == game)
                               .values(dict(zip(BEST, best or (None, None, None),
                                                strict=True))))


def _delta(changes: Iterable[tuple[Row | None, Row]]) -> _Delta:
    """The differences ``changes`` (each seat's row before and after) make, summed."""
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
    return delta


def _seat_changes(changes: Sequence[Change]) -> list[tuple[Row | None, Row]]:
    pairs: list[tuple[Row | None, Row]] = []
    for change in changes:
        after = change.after.seat_rows()
        if change.before is None:
            pairs += [(None, row) for row in after]
        else:
            pairs += list(zip(change.before.seat_rows(), after, strict=True))
    return pairs


def _from_scratch(group: GroupState) -> tuple[list[dict[str, Any]], ...]:
    """The three tables' rows for a group, summed over every seat row it has."""
    return _rows(_delta((None, row) for match in group.matches for row in match.seat_rows()))


class Totals:
    """The players' sums of their ``seat_figures`` rows."""

    def project(self, connection: Connection, changes: Sequence[Change]) -> None:
        _write(connection, _delta(_seat_changes(changes)))

    @property
    def tables(self) -> tuple[Kept, ...]:
        return tuple(_kept(model, key, i) for i, (model, key) in enumerate(_TABLES))


_TABLES: tuple[tuple[Any, tuple[str, ...]], ...] = (
    (T, ("player_id", "game")),
    (PlayerFalls, ("player_id", "game", "hand")),
    (PlayerRivals, ("player_id", "opponent_id")))


def _kept(model: Any, key: tuple[str, ...], index: int) -> Kept:
    """How one of the three tables is read, recomputed and replaced for a group."""
    table = model.__table__
    columns = tuple(c.name for c in table.c if c.name not in key)

    def stored(connection: Connection, group_id: int) -> Iterable[Row]:
        return connection.execute(select(table).where(table.c.player_id.in_(
            _players(group_id)))).mappings()

    def expected(group: GroupState) -> Iterable[Row]:
        return _from_scratch(group)[index]

    def replace(connection: Connection, group: GroupState, rows: list[Row]) -> None:
        connection.execute(delete(table).where(table.c.player_id.in_(
            _players(group.group_id))))
        if rows:
            connection.execute(insert(table), rows)

    return Kept(table.name, key, columns, stored, expected, replace, sums=True)


def _players(group_id: int) -> Any:
    """The group's players (a subquery)."""
    return select(Player.id).where(Player.group_id == group_id).scalar_subquery()


TOTALS = Totals()
