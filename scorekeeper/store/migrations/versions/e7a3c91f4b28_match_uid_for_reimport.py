"""match uid: a stable id carried by exports, unique per group, so a re-import is
recognised instead of duplicating every match

Revision ID: e7a3c91f4b28
Revises: 5d1e0b7a9c21
Create Date: 2026-12-01 00:40:00
"""

import uuid

import sqlalchemy as sa
from alembic import op

revision = "e7a3c91f4b28"
down_revision = "5d1e0b7a9c21"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
    match = sa.table("match", sa.column("id", sa.Integer), sa.column("uid", sa.String))
    connection = op.get_bind()
    for (match_id,) in connection.execute(sa.select(match.c.id)).all():
        connection.execute(match.update().where(match.c.id == match_id)
                           .values(uid=uuid.uuid4().hex))
    with op.batch_alter_table("match") as batch:
        batch.alter_column("uid", existing_type=sa.String(length=32), nullable=False)
        batch.create_unique_constraint("uq_match_group_id_uid", ["group_id", "uid"])


def downgrade():
    with op.batch_alter_table("match") as batch:
        batch.drop_constraint("uq_match_group_id_uid", type_="unique")
        batch.drop_column("uid")
