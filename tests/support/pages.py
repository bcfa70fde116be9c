"""Every page a person can open, on a seeded group: the page sweeps of the browser
tests (phone sizes, axe, control sizes) walk the same list."""

from __future__ import annotations

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import create_match, record_hand


def seed(app) -> dict[str, object]:
    """A group of four with a Last One match two hands in (Dee fell in hand 2), a
    finished Crazy Eights match and a Countdown match; returns the ids and tokens the
    page list needs."""
    with app.app_context():
        group = Group(name="Kitchen table")
        group.players = [Player(name=n, colour=c) for n, c in
                         (("Ann", "#1f77b4"), ("Ben", "#d62728"), ("Cy", "#2ca02c"),
                          ("Dee", "#9467bd"))]
        db.session.add(group)
        db.session.commit()
        ann, ben, cy, dee = group.players
        lo = create_match(group, Sheet.make("last-one", {"threshold": 60}),
                          [ann, ben, cy, dee], 0)
        lo = record_hand(lo, 1, 0, [[], parse_cards("8s 8h"), parse_cards("2c 3c"),
                                    parse_cards("8d 8c")]).match
        lo = record_hand(lo, 2, 2, [parse_cards("kd qd"), parse_cards("4d 4c"), [],
                                    parse_cards("9h 2h")]).match  # Dee reaches 61: out
        c8 = create_match(group, Sheet.make("crazy-eights", {"target": 50}), [ann, dee], 1)
        c8 = record_hand(c8, 1, 1, [parse_cards("8c ac"), []]).match
        cd = create_match(group, Sheet.make("countdown"), [ben, cy, dee], 0)
        return {"gid": group.id, "invite": group.invite_token, "lo": lo.id, "c8": c8.id,
                "cd": cd.id, "view": lo.view_token, "pid": ann.id}


def pages(ids: dict[str, object]) -> list[str]:
    """Every page a person can open (paths), as a member of the seeded group."""
    g = f"/groups/{ids['gid']}"
    lo = f"{g}/matches/{ids['lo']}"
    return [
        "/", g, f"{g}/players", f"{g}/players/{ids['pid']}", f"{g}/matches/new",
        f"{g}/matches/new?game=crazy-eights", lo, f"{lo}/hands/new", f"{lo}/hands/1",
        f"{g}/matches/{ids['c8']}", f"{g}/matches/{ids['cd']}/hands/new", f"{lo}/record",
        f"{lo}/check", f"{g}/history", f"{g}/players/{ids['pid']}/stats", f"{g}/import",
        f"/view/{ids['view']}", "/rules", "/rules/last-one", "/rules/crazy-eights",
        "/rules/card", "/deal", "/check", "/nowhere",
    ]
