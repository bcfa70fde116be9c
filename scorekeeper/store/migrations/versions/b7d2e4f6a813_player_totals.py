"""player totals: each player's seat figures summed per game, their falls per hand and
head to head per opponent, backfilled from seat_figures

Revision ID: b7d2e4f6a813
Revises: b8d2f4a61c37
Create Date: 2026-12-01 03:30:00

The player page reads these few rows instead of adding up one row per match; the
records keep them with every later change (``scorekeeper.store.projection.player_totals``). Existing
groups get them here, computed in the database from ``seat_figures`` by the same
definitions: sums and counts grouped per player, the best comeback as each player's
won match with the largest deficit (the earliest on a tie).
"""

import sqlalchemy as sa
from alembic import op

revision = "b7d2e4f6a813"
down_revision = "b8d2f4a61c37"
branch_labels = None
depends_on = None


def _counts(*names):
    return [sa.Column(name, sa.Integer(), nullable=False) for name in names]


def upgrade():
    op.create_table(
        "player_totals",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        *_counts("played", "won", "unfinished", "hands", "points", "went_out",
                 "caught_eight", "caught_joker"),
        sa.Column("best_deficit", sa.Integer(), nullable=True),
        sa.Column("best_match_id", sa.Integer(), nullable=True),
        sa.Column("best_hand", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_player_totals_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", name=op.f("pk_player_totals")),
    )
    op.create_table(
        "player_falls",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        *_counts("times"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_player_falls_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", "hand", name=op.f("pk_player_falls")),
    )
    op.create_table(
        "player_rivals",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        *_counts("together", "wins", "their_wins"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_player_rivals_player_id_player")),
        sa.ForeignKeyConstraint(["opponent_id"], ["player.id"],
                                name=op.f("fk_player_rivals_opponent_id_player")),
        sa.PrimaryKeyConstraint("player_id", "opponent_id", name=op.f("pk_player_rivals")),
    )
    op.create_index("ix_seat_figures_best", "seat_figures",
                    ["player_id", "game", "won", "deficit", "match_id"])
    backfill(op.get_bind())


def downgrade():
    op.drop_index("ix_seat_figures_best", table_name="seat_figures")
    op.drop_table("player_rivals")
    op.drop_table("player_falls")
    op.drop_table("player_totals")


def _yes(column):
    return f"SUM(CASE WHEN {column} THEN 1 ELSE 0 END)"


def backfill(conn):
    """Every player's totals, falls and rivals from seat_figures (a few statements)."""
    conn.execute(sa.text(
        "INSERT INTO player_totals (player_id, game, played, won, unfinished, hands, points, "
        "went_out, caught_eight, caught_joker) "
        f"SELECT player_id, game, {_yes('finished')}, {_yes('won')}, {_yes('NOT finished')}, "
        "SUM(hands), SUM(points), SUM(went_out), SUM(caught_eight), SUM(caught_joker) "
        "FROM seat_figures GROUP BY player_id, game"))
    best = conn.execute(sa.text(
        "SELECT player_id, game, deficit, match_id, deficit_hand FROM ("
        " SELECT player_id, game, deficit, match_id, deficit_hand, ROW_NUMBER() OVER ("
        "  PARTITION BY player_id, game ORDER BY deficit DESC, match_id) AS rank"
        " FROM seat_figures WHERE won) AS ranked WHERE rank = 1")).all()
    if best:
        conn.execute(sa.text(
            "UPDATE player_totals SET best_deficit = :deficit, best_match_id = :match, "
            "best_hand = :hand WHERE player_id = :player AND game = :game"),
            [{"player": p, "game": g, "deficit": d, "match": m, "hand": h}
             for p, g, d, m, h in best])
    conn.execute(sa.text(
        "INSERT INTO player_falls (player_id, game, hand, times) "
        "SELECT player_id, game, fell, COUNT(*) FROM seat_figures WHERE fell IS NOT NULL "
        "GROUP BY player_id, game, fell"))
    conn.execute(sa.text(
        "INSERT INTO player_rivals (player_id, opponent_id, together, wins, their_wins) "
        f"SELECT me.player_id, them.player_id, COUNT(*), {_yes('me.won')}, "
        f"{_yes('them.won')} FROM seat_figures me JOIN seat_figures them "
        "ON them.match_id = me.match_id AND them.player_id <> me.player_id "
        "WHERE me.finished GROUP BY me.player_id, them.player_id"))
