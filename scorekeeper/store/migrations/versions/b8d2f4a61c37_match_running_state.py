"""match running state: where each match stands after its last hand, backfilled

Revision ID: b8d2f4a61c37
Revises: e7a3c91f4b28
Create Date: 2026-12-01 04:00:00

A save of the next hand moves this state on by one hand instead of replaying the whole
match. Existing matches get it here from a replay of their stored hands
and their stored seat figures, a batch of matches at a time, by the same functions
the records use (:mod:`scorekeeper.store.projection.running_state`). A row whose hands do not replay
(none should) is left NULL, which the records treat as "replay it".
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult, standings
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.projection.running_state import of_replay, to_text

revision = "b8d2f4a61c37"
down_revision = "e7a3c91f4b28"
branch_labels = None
depends_on = None

BATCH = 500
_FIGURES = ("seat", "hands", "points", "went_out", "caught_eight", "caught_joker", "fell",
            "deficit", "deficit_hand")


def upgrade():
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("running_json", sa.Text(), nullable=True))
    backfill(op.get_bind())


def downgrade():
    with op.batch_alter_table("match") as batch:
        batch.drop_column("running_json")


def _in(sql: str):
    return sa.text(sql).bindparams(sa.bindparam("ids", expanding=True))


def _results(conn, ids, seats):
    """Each match's hands as scoring input, in order."""
    hands = {m: {} for m in ids}
    for match_id, number, out, size, seat, cards in conn.execute(_in(
            "SELECT h.match_id, h.number, h.out_seat, h.hand_size, e.seat, e.cards "
            "FROM hand h JOIN hand_entry e ON e.hand_id = h.id "
            "WHERE h.match_id IN :ids ORDER BY h.match_id, h.number, e.seat"), {"ids": ids}):
        held = hands[match_id].setdefault(number, (out, size, [[] for _ in seats[match_id]]))
        held[2][seat] = parse_cards(cards)
    return {m: [HandResult.of(out, held, size) for out, size, held in rows.values()]
            for m, rows in hands.items()}


def backfill(conn):
    """Write the state of every match that has none."""
    last = 0
    while True:
        matches = conn.execute(sa.text(
            "SELECT id, sheet_json, first_dealer FROM match WHERE id > :last "
            "AND running_json IS NULL ORDER BY id LIMIT :n"),
            {"last": last, "n": BATCH}).all()
        if not matches:
            return
        ids = [m[0] for m in matches]
        seats = {m: [] for m in ids}
        for match_id, name in conn.execute(_in(
                "SELECT s.match_id, p.name FROM seat s JOIN player p ON p.id = s.player_id "
                "WHERE s.match_id IN :ids ORDER BY s.match_id, s.position"), {"ids": ids}):
            seats[match_id].append(name)
        figures = {m: [] for m in ids}
        for row in conn.execute(_in(
                f"SELECT match_id, {', '.join(_FIGURES)} FROM seat_figures "
                "WHERE match_id IN :ids ORDER BY match_id, seat"), {"ids": ids}):
            figures[row[0]].append(dict(zip(_FIGURES, row[1:], strict=True)))
        results = _results(conn, ids, seats)
        for match_id, sheet_json, first_dealer in matches:
            try:
                table = standings(Sheet.from_json(sheet_json), seats[match_id], first_dealer,
                                  results[match_id])
            except InputError:  # a row that does not replay stays NULL: the records
                continue        # replay it when it is next read (see records.running_state)
            conn.execute(sa.text("UPDATE match SET running_json = :state WHERE id = :id"),
                         {"state": to_text(of_replay(table, figures[match_id])),
                          "id": match_id})
        last = ids[-1]
