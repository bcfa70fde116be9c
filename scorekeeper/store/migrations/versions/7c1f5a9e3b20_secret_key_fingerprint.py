"""secret key fingerprint: the one row that tells every host which key they share

Revision ID: 7c1f5a9e3b20
Revises: c3e8a5f1d2b7
Create Date: 2026-12-01 23:50:00

Empty at first: the first host to start stores its key's fingerprint
(``scorekeeper/store/keys.py``).
"""

import sqlalchemy as sa
from alembic import op

revision = "7c1f5a9e3b20"
down_revision = "c3e8a5f1d2b7"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "secret_key_fingerprint",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_secret_key_fingerprint_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_secret_key_fingerprint")),
    )


def downgrade():
    op.drop_table("secret_key_fingerprint")
