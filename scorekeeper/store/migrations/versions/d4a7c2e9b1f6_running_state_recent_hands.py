"""running state keeps the last ten hands: the scoreboard's table without a query

Revision ID: d4a7c2e9b1f6
Revises: b7d2e4f6a813
Create Date: 2026-12-01 07:00:00

The scoreboard lists a match's last ten hands. The records now keep them in
the match's running state (``match.running_json``, key ``recent``: one
``[number, dealer, out, [points…]]`` per hand, oldest first), moved on by every save
and rebuilt by every replay. Here every stored state gets them from its match's hands.
No column changes; the JSON is written as the records write it (sorted keys, no
spaces), so a state filled here equals the state a replay gives. A state left without
them (NULL) is rebuilt by the records when next read.
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "d4a7c2e9b1f6"
down_revision = "b7d2e4f6a813"
branch_labels = None
depends_on = None

BATCH = 500
KEPT = 10  # as scorekeeper.store.projection.running_state.KEPT when this was written


def _dumps(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def upgrade():
    conn = op.get_bind()
    last = 0
    while True:
        matches = conn.execute(sa.text(
            "SELECT id, running_json FROM match WHERE id > :last "
            "AND running_json IS NOT NULL ORDER BY id LIMIT :n"),
            {"last": last, "n": BATCH}).all()
        if not matches:
            return
        recent = _recent(conn, [m[0] for m in matches])
        for match_id, text in matches:
            data = json.loads(text)
            data["recent"] = recent.get(match_id, [])
            conn.execute(sa.text("UPDATE match SET running_json = :state WHERE id = :id"),
                         {"state": _dumps(data), "id": match_id})
        last = matches[-1][0]


def _recent(conn, ids: list[int]) -> dict[int, list]:
    """The last hands of each match, as the state keeps them."""
    rows = conn.execute(sa.text(
        "SELECT h.match_id, h.number, h.dealer, h.out_seat, e.seat, e.points "
        "FROM hand h JOIN match m ON m.id = h.match_id JOIN hand_entry e ON e.hand_id = h.id "
        "WHERE h.match_id IN :ids AND h.number > m.hand_count - :kept "
        "ORDER BY h.match_id, h.number, e.seat")
        .bindparams(sa.bindparam("ids", expanding=True)), {"ids": ids, "kept": KEPT})
    hands: dict[int, dict[int, list]] = {}
    for match_id, number, dealer, out, _seat, points in rows:
        hand = hands.setdefault(match_id, {}).setdefault(number, [number, dealer, out, []])
        hand[3].append(points)  # in seat order
    return {match_id: list(by_number.values()) for match_id, by_number in hands.items()}


def downgrade():
    conn = op.get_bind()
    for match_id, text in conn.execute(sa.text(
            "SELECT id, running_json FROM match WHERE running_json IS NOT NULL")).all():
        data = json.loads(text)
        if data.pop("recent", None) is not None:
            conn.execute(sa.text("UPDATE match SET running_json = :state WHERE id = :id"),
                         {"state": _dumps(data), "id": match_id})
