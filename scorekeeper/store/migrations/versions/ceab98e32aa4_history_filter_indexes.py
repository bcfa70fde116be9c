"""history filter indexes: a group's matches by game or status, newest first

Revision ID: ceab98e32aa4
Revises: ae4c1f162640
Create Date: 2026-11-29 11:39:56.534649
"""

from alembic import op

revision = "ceab98e32aa4"
down_revision = "ae4c1f162640"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_match_group_game_created", "match", ["group_id", "game", "created_at"])
    op.create_index("ix_match_group_status_created", "match",
                    ["group_id", "status", "created_at"])


def downgrade():
    op.drop_index("ix_match_group_status_created", table_name="match")
    op.drop_index("ix_match_group_game_created", table_name="match")
