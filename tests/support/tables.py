"""A joined group with one Last One match of so many players and (empty) hands, for
the tests that count statements or time saves at different sizes."""

from __future__ import annotations

from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import LO, Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import build_match

NAMES = ("Ann", "Bob", "Cat", "Dev", "Eli", "Fay")


def table(app, client, players: int, hands: int) -> tuple[int, int, str]:
    """A joined group with a Last One match of ``players`` and ``hands`` empty hands:
    the group's id, the match's and the invite token."""
    with app.app_context():
        group = Group(name=f"T{players}x{hands}")
        seated = [Player(group=group, name=n) for n in NAMES[:players]]
        db.session.add_all([group, *seated])
        db.session.commit()
        blank = HandResult.of(0, [[] for _ in seated])
        match = build_match(group, Sheet.make(LO, {}), seated, 0, [blank] * hands)
        db.session.commit()
        ids = group.id, match.id, group.invite_token
    assert client.get(f"/join/{ids[2]}").status_code == 302
    return ids
