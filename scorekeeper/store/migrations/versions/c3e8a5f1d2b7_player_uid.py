"""player uid: a stable public id for each player, through renames, which a play
handed to BG Stats carries so the app knows the same person next time

Revision ID: c3e8a5f1d2b7
Revises: a9c4e2b7d1f3
Create Date: 2026-12-01 23:55:00
"""

import uuid

import sqlalchemy as sa
from alembic import op

revision = "c3e8a5f1d2b7"
down_revision = "a9c4e2b7d1f3"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
    player = sa.table("player", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    connection = op.get_bind()
    for (player_id,) in connection.execute(sa.select(player.c.id)).all():
        connection.execute(player.update().where(player.c.id == player_id)
                           .values(uid=uuid.uuid4().hex))
    with op.batch_alter_table("player") as batch:
        batch.alter_column("uid", existing_type=sa.String(length=32), nullable=False)


def downgrade():
    with op.batch_alter_table("player") as batch:
        batch.drop_column("uid")
