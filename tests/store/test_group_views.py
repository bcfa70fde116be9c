"""What the store answers the pages, the API and the commands about a group: frozen
views, never its mapped rows, and writes that keep nothing when refused."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from sqlalchemy import text

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.store import groups, seasons
from scorekeeper.store.extensions import db
from scorekeeper.store.groups import GroupPlayer, GroupView, NewPlayer
from scorekeeper.store.models import MAX_ID, Match, Player

EIGHTS = {"game": "crazy-eights", "options": {}}


@pytest.fixture
def home(app):
    """A group with Cy, Ann (hidden) and Bob, in the app's context: its view."""
    with app.app_context():
        group = groups.create_group("Home")
        for name in ("Cy", "Ann", "Bob"):
            groups.save_player(group, name)
        groups.toggle_hidden(groups.group_players(group)[0])  # Ann
        yield group


def count(model) -> int:
    return db.session.scalar(db.select(db.func.count()).select_from(model))


def test_a_group_and_its_players_come_as_frozen_views(home):
    assert groups.group_by_id(home.id) == home
    assert groups.group_by_invite(home.invite_token) == home
    assert groups.group_by_id(MAX_ID + 1) is None and groups.group_by_invite("") is None
    players = groups.group_players(home)
    assert [(p.name, p.hidden) for p in players] == [("Ann", True), ("Bob", False),
                                                       ("Cy", False)]
    assert all(isinstance(p, GroupPlayer) for p in players)
    with pytest.raises(dataclasses.FrozenInstanceError):
        players[0].name = "Zed"  # type: ignore[misc]
    assert groups.group_player(home, players[1].id) == players[1]
    assert groups.group_player(GroupView(home.id + 1, "x", "y"), players[1].id) is None
    assert groups.groups_by_ids([home.id, MAX_ID + 1, home.id + 99]) == [home]


def test_the_writes_answer_what_is_now_stored(home):
    ann, bob, _ = groups.group_players(home)
    assert groups.toggle_hidden(ann).hidden is False
    renamed = groups.edit_player(home, bob, "Bobby", "#123456")
    assert (renamed.name, renamed.colour) == ("Bobby", "#123456")
    assert groups.group_player(home, bob.id) == renamed
    rotated = groups.rotate_invite(home)
    assert rotated.invite_token != home.invite_token
    assert groups.group_by_invite(home.invite_token) is None
    assert groups.group_by_invite(rotated.invite_token) == rotated


def test_a_refused_new_match_keeps_no_new_player(home):
    """The page adds the new names and starts the match in one go: a refusal (here
    one player too few for the game's table) leaves the group as it was."""
    cy = groups.group_players(home)[2]
    with pytest.raises(InputError) as refused:
        groups.start_match(home, Sheet.from_dict(EIGHTS), [cy], 0)
    assert refused.value.field == "players"
    with pytest.raises(InputError) as taken:
        groups.start_match(home, Sheet.from_dict(EIGHTS),
                           [cy, NewPlayer("Dee", "new-0"), NewPlayer("bob", "new-1")], 0)
    assert taken.value.field == "new-1"
    assert [p.name for p in groups.group_players(home)] == ["Ann", "Bob", "Cy"]
    assert count(Match) == 0


def test_a_new_match_seats_views_and_new_names(home):
    ann, bob, cy = groups.group_players(home)
    match = groups.start_match(home, Sheet.from_dict(EIGHTS),
                               [cy, NewPlayer("Dee", "new-0"), ann], 1)
    assert [seat.player.name for seat in match.seats] == ["Cy", "Dee", "Ann"]
    assert match.first_dealer == 1
    assert [p.name for p in groups.group_players(home)] == ["Ann", "Bob", "Cy", "Dee"]
    with pytest.raises(InputError, match="only one seat"):
        groups.start_match(home, Sheet.from_dict(EIGHTS), [bob, bob], 0)


def test_a_player_deleted_meanwhile_starts_nothing(home):
    """Another phone deleted a player after this request read the group's players:
    the same 409 as when the database's foreign key catches it."""
    ann, bob, _ = groups.group_players(home)
    with db.engine.begin() as other:
        other.execute(text("DELETE FROM player WHERE id = :id"), {"id": ann.id})
    with pytest.raises(ConflictError, match="just deleted") as refused:
        groups.start_match(home, Sheet.from_dict(EIGHTS), [ann, bob], 0)
    assert refused.value.field == "players" and count(Match) == 0
    with pytest.raises(ConflictError, match="just deleted"):
        groups.toggle_hidden(ann)
    assert count(Player) == 2


def test_seasons_come_as_views_and_a_refusal_keeps_nothing(home):
    winter = seasons.add_season(home, "Winter", date(2026, 1, 1), date(2026, 3, 31))
    assert seasons.group_seasons(home) == [winter]
    assert seasons.group_season(home, winter.id) == winter
    assert seasons.group_season(GroupView(home.id + 1, "x", "y"), winter.id) is None
    assert seasons.group_season(home, MAX_ID + 1) is None
    with pytest.raises(InputError, match="already a season"):
        seasons.add_season(home, "winter", date(2027, 1, 1), date(2027, 1, 2))
    seasons.delete_season(home, winter)
    assert seasons.group_seasons(home) == []
