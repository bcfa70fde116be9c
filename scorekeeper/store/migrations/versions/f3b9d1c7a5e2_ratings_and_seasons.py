"""ratings and seasons: each player's rating per game and scope, every finished match's
rating steps, and the seasons a group names

Revision ID: f3b9d1c7a5e2
Revises: d4a7c2e9b1f6
Create Date: 2026-12-01 15:00:00

The leaderboard reads these rows instead of replaying a group's matches; the records
keep them with every later change to a finished match (``scorekeeper.store.projection.rating_chains``).
Existing groups get them from the same function ``db rebuild`` uses, in the latest
revision that changes these tables (a9c4e2b7d1f3, the best and worst hands): that
function writes the columns of the newest models, which do not exist yet here.
"""

import sqlalchemy as sa
from alembic import op

revision = "f3b9d1c7a5e2"
down_revision = "d4a7c2e9b1f6"
branch_labels = None
depends_on = None


def _ints(*names, nullable=False):
    return [sa.Column(name, sa.Integer(), nullable=nullable) for name in names]


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["group.id"],
                                name=op.f("fk_season_group_id_group")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
        sa.UniqueConstraint("group_id", "name", name=op.f("uq_season_group_id_name")),
    )
    op.create_index(op.f("ix_season_group_id"), "season", ["group_id"])
    op.create_table(
        "rating",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("scope", sa.String(length=12), nullable=False),
        *_ints("group_id"),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        *_ints("shown", "change", "matches", "wins", "streak", "best_streak"),
        *_ints("best_streak_match_id", "best_deficit", "best_deficit_match_id", "top_hand",
               "top_hand_match_id", nullable=True),
        *_ints("last_match_id"),
        sa.Column("last_finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["group.id"],
                                name=op.f("fk_rating_group_id_group")),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_rating_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", "scope", name=op.f("pk_rating")),
    )
    op.create_index("ix_rating_board", "rating", ["group_id", "game", "scope"])
    op.create_table(
        "rating_step",
        *_ints("match_id"),
        sa.Column("scope", sa.String(length=12), nullable=False),
        *_ints("player_id", "group_id"),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        *_ints("seat", "place"),
        sa.Column("won", sa.Boolean(), nullable=False),
        *_ints("deficit", "top_hand"),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        *_ints("shown", "change"),
        sa.ForeignKeyConstraint(["group_id"], ["group.id"],
                                name=op.f("fk_rating_step_group_id_group")),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"],
                                name=op.f("fk_rating_step_match_id_match")),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_rating_step_player_id_player")),
        sa.PrimaryKeyConstraint("match_id", "scope", "player_id", name=op.f("pk_rating_step")),
    )
    op.create_index("ix_rating_step_chain", "rating_step",
                    ["group_id", "game", "scope", "finished_at", "match_id"])
    op.create_index("ix_rating_step_player", "rating_step",
                    ["player_id", "game", "scope", "finished_at"])


def downgrade():
    op.drop_index("ix_rating_step_player", table_name="rating_step")
    op.drop_index("ix_rating_step_chain", table_name="rating_step")
    op.drop_table("rating_step")
    op.drop_index("ix_rating_board", table_name="rating")
    op.drop_table("rating")
    op.drop_index(op.f("ix_season_group_id"), table_name="season")
    op.drop_table("season")
