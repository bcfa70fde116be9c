"""A group's export always imports back, whatever the group holds: finished and
unfinished matches of every game, edited hands, a last hand deleted, rulings saved on
the hand in progress (one past the last hand, or past a deleted one), seasons, players
never seated and hidden ones. Into the same group it changes nothing (every match is
already there); into a new group it gives the very same export (lossless).

Property-based: hypothesis picks what the group holds, a few examples per backend (the
suite runs on two cores)."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.core.errors import InputError
from scorekeeper.store.extensions import db
from scorekeeper.store.groups import add_player, toggle_hidden
from scorekeeper.store.match_views import match_hands
from scorekeeper.store.models import Group, Match, Player, Ruling, Season
from scorekeeper.store.reading import hand_results
from scorekeeper.store.records import delete_last_hand, edit_hand
from scorekeeper.store.rulings import save_ruling
from scorekeeper.store.seasons import add_season
from scorekeeper.store.transfer import export_document, import_document, load_matches, parse_json
from tests.support.documents import random_document

pytestmark = pytest.mark.usefixtures("ctx")

# What the group holds besides its matches, and what is done to each match.
CHANGES = st.fixed_dictionaries({
    "seed": st.integers(0, 2**16),
    "matches": st.integers(0, 4),
    "per_match": st.lists(st.sampled_from(["ruling", "edit", "delete", "delete+ruling"]),
                          max_size=4),
    "season": st.booleans(),
    "unseated": st.booleans(),
    "hidden": st.booleans(),
})


def _edit(match) -> None:
    """Edit the match's first hand: one seat holding two or more cards drops one (the
    edit may be refused by the rules; then nothing changes)."""
    hands = match_hands(match)
    if not hands:
        return
    first = hand_results(match, hands)[0]
    held = [list(cards) for cards in first.held]
    seat = next((s for s, cards in enumerate(held) if len(cards) > 1), None)
    if seat is None:
        return
    held[seat].pop()
    try:
        edit_hand(match, 1, first.out, held, first.hand_size)
    except InputError:
        db.session.rollback()


def _change(match, what: str) -> None:
    if what.startswith("delete") and match.hand_count:
        match = delete_last_hand(match).match
    if what.endswith("ruling"):
        save_ruling(match, "May Cat play 5♥ now?", None, "cannot tell", "lo-melee",
                    json.dumps({"play": "5H"}))
    if what == "edit":
        _edit(match)


def _fill(group: Group, changes: dict) -> None:
    rng = random.Random(changes["seed"])
    import_document(group, random_document(rng, changes["matches"]))
    for record, what in zip(load_matches(group), changes["per_match"], strict=False):
        _change(record.match, what)
    if changes["season"]:
        add_season(group, "Winter", date(2026, 1, 1), date(2026, 3, 31))
    if changes["unseated"]:
        add_player(group, "Zoë", "#17becf")
        db.session.commit()
    if changes["hidden"] and group.players:
        toggle_hidden(group.players[0])


def _backup(group: Group) -> dict:
    """The group's export as a file holds it, without what differs by group or moment."""
    doc = json.loads(json.dumps(export_document(group, load_matches(group))))
    del doc["exported_at"], doc["group"]
    for match in doc["matches"]:
        del match["id"]
    return doc


def _rows() -> dict[str, int]:
    return {t.__name__: db.session.scalar(db.select(db.func.count()).select_from(t))
            for t in (Match, Player, Ruling, Season)}


@settings(max_examples=4, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(changes=CHANGES)
def test_a_group_export_imports_back(app, changes):
    group = Group(name="Source")
    db.session.add(group)
    db.session.commit()
    _fill(group, changes)
    backup = _backup(group)
    text = json.dumps(export_document(group, load_matches(group)))

    before = _rows()
    again = import_document(group, parse_json(text))
    assert (again.matches, again.players_created) == (0, ())
    assert again.already_imported == len(backup["matches"])
    assert _rows() == before and _backup(group) == backup

    target = Group(name="Target")
    db.session.add(target)
    db.session.commit()
    report = import_document(target, parse_json(text))
    assert report.matches == len(backup["matches"])
    assert _backup(target) == backup
