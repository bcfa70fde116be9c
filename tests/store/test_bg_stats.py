"""A finished match handed to BG Stats, from the store: real matches of the three games
recorded hand by hand, and the play the store builds from their places, totals,
winners, first player, uids and times; the migration that gives players their uid."""

from __future__ import annotations

import json
import re
from datetime import UTC
from urllib.parse import unquote

import flask_migrate
import pytest
from sqlalchemy import text

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.places import places
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.bg_stats import bg_stats_play
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import match_hands, member_match
from scorekeeper.store.models import Group, Match, Player
from scorekeeper.store.places import seat_places
from scorekeeper.store.reading import current_standings, match_sheet, match_standings
from scorekeeper.store.records import create_match, record_hand

LO, C8, CD = "last-one", "crazy-eights", "countdown"
NAMES = ("Ann", "Ben", "Cy", "Di")

MATCHES = [
    # game, options, first dealer, hands (who went out, each seat's cards) -> places, winners
    pytest.param(LO, {"threshold": 50}, 3, [
        (0, ("", "8s 8h", "8c 8d", "kh qh jh 10h 10s")),  # Ben, Cy, Di fall on 50 together
    ], (1, 2, 2, 2), (0,), id="last-one-fallen-together"),
    pytest.param(C8, {"match_end": "first-to-target", "target": 50}, 0, [
        (0, ("", "10c 10d", "5c 5d", "5h 5s")),
        (1, ("2c", "", "8c", "jh")),  # Ben 62; Ann 40; Cy, Di 0
    ], (2, 1, 3, 3), (1,), id="crazy-eights-to-a-target"),
    pytest.param(C8, {"match_end": "one-hand", "jam_scoring": "full"}, 1, [
        (None, ("3c", "3d", "9h", "kh qh")),  # jammed: Ann and Ben level lowest
    ], (1, 1, 3, 4), (0, 1), id="crazy-eights-one-hand-shared-win"),
    pytest.param(CD, {"start_count": 1}, 2, [
        (1, ("", "", "", "")),
    ], (2, 1, 2, 2), (1,), id="countdown"),
]


def _finished(game: str, options: dict, dealer: int, hands: list):
    group = Group(name="Table")
    group.players = [Player(name=n) for n in NAMES]
    db.session.add(group)
    db.session.commit()
    match = create_match(group, Sheet.make(game, options), list(group.players), dealer)
    for number, (out, held) in enumerate(hands, start=1):
        match = record_hand(match, number, out, [parse_cards(h) for h in held]).match
    return match


def _play_of(match):
    table = current_standings(match)
    return bg_stats_play(match, table, seat_places(match, match_sheet(match), table))


@pytest.mark.usefixtures("ctx")
@pytest.mark.parametrize(("game", "options", "dealer", "hands", "ranks", "winners"), MATCHES)
def test_the_play_follows_the_stored_match(game, options, dealer, hands, ranks, winners):
    match = _finished(game, options, dealer, hands)
    table = match_standings(match, match_hands(match))
    assert places(match_sheet(match), table) == ranks  # the core's places, replayed
    played = _play_of(match)
    assert played is not None
    data = played.data
    row = db.session.get(Match, match.id)
    assert data["sourcePlayId"] == row.uid
    started = row.created_at.astimezone(UTC) if row.created_at.tzinfo else row.created_at
    assert data["playDate"] == started.strftime("%Y-%m-%d %H:%M:%S")  # UTC
    assert data["durationMin"] == 0  # recorded in the same instant it started
    assert data["board"] == match_sheet(match).summary()
    players = data["players"]
    assert [p["name"] for p in players] == list(NAMES)
    assert [p["rank"] for p in players] == list(ranks)
    assert [p["winner"] for p in players] == [s in winners for s in range(4)]
    assert [p["startPlayer"] for p in players] == [s == (dealer + 1) % 4 for s in range(4)]
    uids = {p.name: p.uid for p in row.group.players}
    assert [p["sourcePlayerId"] for p in players] == [uids[n] for n in NAMES]
    if game == CD:
        assert data["game"]["noPoints"] and all("score" not in p for p in players)
    else:
        assert [p["score"] for p in players] == list(table.totals)
    assert json.loads(unquote(played.link.split("?data=", 1)[1])) == data


@pytest.mark.usefixtures("ctx")
def test_a_match_being_played_has_no_play():
    match = _finished(LO, {}, 0, [(0, ("", "8s", "kh", "2c"))])
    assert _play_of(match) is None


@pytest.mark.usefixtures("ctx")
def test_the_play_carries_no_token_and_no_address():
    match = _finished(*MATCHES[0].values[:4])
    row = db.session.get(Match, match.id)
    played = _play_of(match)
    for secret in (row.group.invite_token, row.view_token):
        assert secret not in played.link and secret not in json.dumps(played.data)
    assert "/groups/" not in unquote(played.link) and "/view/" not in unquote(played.link)


@pytest.mark.usefixtures("ctx")
def test_a_renamed_player_keeps_their_uid():
    match = _finished(*MATCHES[0].values[:4])
    before_player = _play_of(match).data["players"][1]
    before = before_player["sourcePlayerId"]
    player = db.session.scalar(db.select(Player).where(Player.name == "Ben"))
    player.name = "Benjamin"
    db.session.commit()
    after = _play_of(member_match(match.group_id, match.id))
    assert re.fullmatch(r"[0-9a-f]{32}", before)
    assert after.data["players"][1] == {**before_player, "name": "Benjamin"}


def test_the_migration_gives_existing_players_their_uids(fresh_app):
    with fresh_app.app_context():
        flask_migrate.upgrade(revision="a9c4e2b7d1f3")
        with db.engine.begin() as conn:
            conn.execute(text('INSERT INTO "group" (id, name, invite_token, created_at) '
                              "VALUES (1, 'G', 't', CURRENT_TIMESTAMP)"))
            for i, name in enumerate(NAMES, start=1):
                conn.execute(text("INSERT INTO player (id, group_id, name, colour, hidden, "
                                  f"created_at) VALUES ({i}, 1, '{name}', '#000000', false, "
                                  "CURRENT_TIMESTAMP)"))
        flask_migrate.upgrade()
        with db.engine.connect() as conn:
            uids = conn.execute(text("SELECT uid FROM player ORDER BY id")).scalars().all()
        assert len(set(uids)) == 4 and all(re.fullmatch(r"[0-9a-f]{32}", u) for u in uids)
        flask_migrate.downgrade(revision="a9c4e2b7d1f3")
        flask_migrate.upgrade()
