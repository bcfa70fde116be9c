"""winners as a flag on each seat instead of a "0 2" string on the match

Revision ID: 5b1e0c7d9a21
Revises: 5e7f1a2b3c4d
Create Date: 2026-12-01 00:45:00.000000

Existing rows are converted: each seat listed in its match's ``winners`` text gets
``winner = true``; the downgrade writes the text back from the flags.
"""

import sqlalchemy as sa
from alembic import op


revision = '5b1e0c7d9a21'
down_revision = '5e7f1a2b3c4d'
branch_labels = None
depends_on = None

_match = sa.table('match', sa.column('id', sa.Integer), sa.column('winners', sa.String))
_seat = sa.table('seat', sa.column('match_id', sa.Integer), sa.column('position', sa.Integer),
                 sa.column('winner', sa.Boolean))


def upgrade():
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('winner', sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    bind = op.get_bind()
    rows = bind.execute(sa.select(_match.c.id, _match.c.winners)
                        .where(_match.c.winners != '')).all()
    for match_id, text in rows:
        positions = [int(s) for s in text.split()]
        bind.execute(_seat.update()
                     .where(_seat.c.match_id == match_id, _seat.c.position.in_(positions))
                     .values(winner=True))
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_column('winners')


def downgrade():
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('winners', sa.String(length=200), server_default='',
                                      nullable=False))
    bind = op.get_bind()
    won: dict[int, list[int]] = {}
    for match_id, position in bind.execute(
            sa.select(_seat.c.match_id, _seat.c.position).where(_seat.c.winner)
            .order_by(_seat.c.match_id, _seat.c.position)):
        won.setdefault(match_id, []).append(position)
    for match_id, positions in won.items():
        bind.execute(_match.update().where(_match.c.id == match_id)
                     .values(winners=' '.join(str(p) for p in positions)))
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('winner')
