"""hand idempotency key, request digest and stored reply

Revision ID: 5d1e0b7a9c21
Revises: 5b1e0c7d9a21
Create Date: 2026-12-01 00:40:00.000000
"""

import sqlalchemy as sa
from alembic import op


revision = '5d1e0b7a9c21'
down_revision = '5b1e0c7d9a21'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column('request_digest', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('reply_json', sa.Text(), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f('uq_hand_match_id_idempotency_key'), ['match_id', 'idempotency_key'])


def downgrade():
    with op.batch_alter_table('hand', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_hand_match_id_idempotency_key'), type_='unique')
        batch_op.drop_column('reply_json')
        batch_op.drop_column('request_digest')
        batch_op.drop_column('idempotency_key')
