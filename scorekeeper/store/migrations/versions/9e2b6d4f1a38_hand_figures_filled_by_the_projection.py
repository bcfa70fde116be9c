"""a hand's dealer and its entries' points may be NULL within a write

Revision ID: 9e2b6d4f1a38
Revises: 7c1f5a9e3b20
Create Date: 2026-12-06 10:40:00

The writer inserts a new hand's facts (its row, each seat's cards) and the projection
then fills in the derived ``hand.dealer`` and ``hand_entry.points`` in the same
transaction: between the two statements they are NULL, never a made-up value. Every
stored row already has both, so nothing is converted either way.
"""

import sqlalchemy as sa
from alembic import op

revision = "9e2b6d4f1a38"
down_revision = "7c1f5a9e3b20"
branch_labels = None
depends_on = None


def _nullable(allowed: bool) -> None:
    with op.batch_alter_table("hand") as batch_op:
        batch_op.alter_column("dealer", existing_type=sa.Integer(), nullable=allowed)
    with op.batch_alter_table("hand_entry") as batch_op:
        batch_op.alter_column("points", existing_type=sa.Integer(), nullable=allowed)


def upgrade():
    _nullable(True)


def downgrade():
    _nullable(False)
