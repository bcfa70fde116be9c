"""best and worst hands: each rating step keeps the seat's best and worst hand of the
match, each rating row the best and worst of the player's matches (with their
matches), in place of the one "top hand"; every group's ratings rated again

Revision ID: a9c4e2b7d1f3
Revises: f3b9d1c7a5e2
Create Date: 2026-12-01 18:00:00

The leaderboard's hand records are a best and a worst hand per game
(``scorekeeper.core.hand_records`` defines them). Here the columns change and every
group's rating rows and steps are written again by the function ``db rebuild`` uses
(which is also the backfill of the ratings revision before this one). Going back
restores each step's ``top_hand`` (the most points the seat's line took in one hand)
from the stored hand entries; the rating rows' ``top_hand`` is left empty there, for
that revision's ``db rebuild`` to fill.
"""

import sqlalchemy as sa
from alembic import op

from scorekeeper.store import projection

revision = "a9c4e2b7d1f3"
down_revision = "f3b9d1c7a5e2"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("rating_step") as batch:
        batch.add_column(sa.Column("best_hand", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("worst_hand", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.drop_column("top_hand")
    with op.batch_alter_table("rating_step") as batch:
        batch.alter_column("best_hand", server_default=None)
        batch.alter_column("worst_hand", server_default=None)
    with op.batch_alter_table("rating") as batch:
        for name in ("best_hand", "best_hand_match_id", "worst_hand", "worst_hand_match_id"):
            batch.add_column(sa.Column(name, sa.Integer(), nullable=True))
        batch.drop_column("top_hand")
        batch.drop_column("top_hand_match_id")
    conn = op.get_bind()
    for (group_id,) in conn.execute(sa.text('SELECT id FROM "group" ORDER BY id')).all():
        projection.rerate(conn, group_id)


# The most points each seat's line took in one hand of each match: what top_hand held.
_TOP = """SELECT h.match_id AS match_id, e.seat AS seat, MAX(e.points) AS top
          FROM hand_entry e JOIN hand h ON h.id = e.hand_id GROUP BY h.match_id, e.seat"""


def downgrade():
    with op.batch_alter_table("rating_step") as batch:
        batch.add_column(sa.Column("top_hand", sa.Integer(), nullable=False,
                                   server_default="0"))
        batch.drop_column("best_hand")
        batch.drop_column("worst_hand")
    with op.batch_alter_table("rating_step") as batch:
        batch.alter_column("top_hand", server_default=None)
    with op.batch_alter_table("rating") as batch:
        batch.add_column(sa.Column("top_hand", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("top_hand_match_id", sa.Integer(), nullable=True))
        for name in ("best_hand", "best_hand_match_id", "worst_hand", "worst_hand_match_id"):
            batch.drop_column(name)
    op.execute(f"""UPDATE rating_step SET top_hand = COALESCE((SELECT t.top FROM ({_TOP}) t
                   WHERE t.match_id = rating_step.match_id AND t.seat = rating_step.seat), 0)""")
