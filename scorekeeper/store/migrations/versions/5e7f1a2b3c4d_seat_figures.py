"""seat figures: each seat's statistics per match, backfilled from the stored hands

Revision ID: 5e7f1a2b3c4d
Revises: ceab98e32aa4
Create Date: 2026-12-01 00:50:00

The player page adds up these rows instead of replaying every hand of the group.
Existing matches get their rows here, computed by the same pure function the records
use for every later change (:func:`scorekeeper.core.stats.seat_figures`), a batch of
matches at a time. It hands the core each stored hand as
:func:`scorekeeper.core.scoring.stored_hand` makes it from the stored facts (who went
out, each seat's cards and points), never naming a class of the core's, whose fields
may change after this revision.
"""

import json

import sqlalchemy as sa
from alembic import op

from scorekeeper.core.scoring import stored_hand
from scorekeeper.core.stats import seat_figures

revision = "5e7f1a2b3c4d"
down_revision = "ceab98e32aa4"
branch_labels = None
depends_on = None

BATCH = 500


def upgrade():
    op.create_table(
        "seat_figures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Integer(), nullable=False),
        sa.Column("caught_eight", sa.Integer(), nullable=False),
        sa.Column("caught_joker", sa.Integer(), nullable=False),
        sa.Column("fell", sa.Integer(), nullable=True),
        sa.Column("deficit", sa.Integer(), nullable=False),
        sa.Column("deficit_hand", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"],
                                name=op.f("fk_seat_figures_match_id_match")),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_seat_figures_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_figures")),
        sa.UniqueConstraint("match_id", "seat", name=op.f("uq_seat_figures_match_id_seat")),
    )
    op.create_index("ix_seat_figures_player_game", "seat_figures", ["player_id", "game"])
    backfill(op.get_bind())


def downgrade():
    op.drop_index("ix_seat_figures_player_game", table_name="seat_figures")
    op.drop_table("seat_figures")


def _hands(conn, ids, games, seats_of):
    """Each match's hands, scored as stored, in hand order."""
    hands = {m: {} for m in ids}
    for match_id, number, out, seat, cards, points in conn.execute(sa.text(
            "SELECT h.match_id, h.number, h.out_seat, e.seat, e.cards, e.points "
            "FROM hand h JOIN hand_entry e ON e.hand_id = h.id "
            "WHERE h.match_id IN :ids ORDER BY h.match_id, h.number, e.seat"
    ).bindparams(sa.bindparam("ids", expanding=True)), {"ids": ids}):
        row = hands[match_id].setdefault(number, (out, [""] * seats_of[match_id],
                                                  [0] * seats_of[match_id]))
        row[1][seat], row[2][seat] = cards, points
    return {m: [stored_hand(games[m], out, c, p) for out, c, p in rows.values()]
            for m, rows in hands.items()}


def _insert(conn, matches, seats, hands):
    rows = []
    for match_id, game, sheet_json, status, winners in matches:
        options = json.loads(sheet_json).get("options", {})
        won_seats = tuple(int(s) for s in winners.split())
        finished = status == "finished"
        for f in seat_figures(game, len(seats[match_id]), hands[match_id], won_seats,
                              options.get("start_count", 0), options.get("threshold")):
            rows.append({"match_id": match_id, "seat": f.seat,
                         "player_id": seats[match_id][f.seat], "game": game,
                         "finished": finished, "won": finished and f.seat in won_seats,
                         "hands": f.hands, "points": f.points, "went_out": f.went_out,
                         "caught_eight": f.caught_eight, "caught_joker": f.caught_joker,
                         "fell": f.fell, "deficit": f.deficit,
                         "deficit_hand": f.deficit_hand})
    if rows:
        table = sa.table("seat_figures", *(sa.column(name) for name in rows[0]))
        conn.execute(table.insert(), rows)


def backfill(conn):
    """Write the rows of every match that has none, a batch of matches at a time."""
    last = 0
    while True:
        matches = conn.execute(sa.text(
            "SELECT id, game, sheet_json, status, winners FROM match WHERE id > :last "
            "AND id NOT IN (SELECT match_id FROM seat_figures) ORDER BY id LIMIT :n"),
            {"last": last, "n": BATCH}).all()
        if not matches:
            return
        ids = [m[0] for m in matches]
        seats = {m: [] for m in ids}
        for match_id, player_id in conn.execute(sa.text(
                "SELECT match_id, player_id FROM seat WHERE match_id IN :ids "
                "ORDER BY match_id, position").bindparams(
                    sa.bindparam("ids", expanding=True)), {"ids": ids}):
            seats[match_id].append(player_id)
        games = {m[0]: m[1] for m in matches}
        _insert(conn, matches, seats,
                _hands(conn, ids, games, {m: len(s) for m, s in seats.items()}))
        last = ids[-1]
