"""Helpers for the web tests: start a group, add players, start a match, record hands."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import LO, Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import build_match

NAMES = ("Ann", "Bob", "Cat", "Dev", "Eli", "Fay")


def start_group(client: FlaskClient, name: str = "Thursday") -> int:
    """Start a group on this client's 'phone'; returns its id."""
    response = client.post("/groups", data={"name": name})
    assert response.status_code == 302, response.text
    return int(re.search(r"/groups/(\d+)", response.location).group(1))


def add_players(client: FlaskClient, gid: int, *names: str) -> list[int]:
    """Add players by name; returns their ids in the same order."""
    for name in names:
        assert client.post(f"/groups/{gid}/players", data={"name": name}).status_code == 302
    page = client.get(f"/groups/{gid}/players").text
    ids = dict((n, int(i)) for i, n in re.findall(
        r'/players/(\d+)"><span class="who"><svg class="dot".*?</svg>([^<]+)<', page))
    return [ids[n] for n in names]


def start_match(client: FlaskClient, gid: int, pids: list[int], game: str = "last-one",
                first_dealer: int = 1, **options: str) -> int:
    """Start a match seating ``pids`` clockwise in that order; returns the match id."""
    data = {"game": game, "first_dealer": str(first_dealer)}
    data |= {f"order-p{pid}": str(i + 1) for i, pid in enumerate(pids)}
    data |= {f"opt-{k}": v for k, v in options.items()}
    response = client.post(f"/groups/{gid}/matches/new", data=data)
    assert response.status_code == 302, response.text
    return int(response.location.rsplit("/", 1)[1])


def record(client: FlaskClient, gid: int, mid: int, number: int, out: int | str,
           *held: str, **extra: str):
    """POST a hand: ``held[i]`` is seat i's card text."""
    data = {"number": str(number), "out": str(out)}
    data |= {f"seat-{i}": text for i, text in enumerate(held)}
    data |= extra
    return client.post(f"/groups/{gid}/matches/{mid}/hands/new", data=data)


def field_errors(page: str) -> dict[str, str]:
    """The error messages on a page, by field name."""
    found = re.findall(r'class="field-error" id="([\w-]+)-error"[^>]*>([^<]*)<', page)
    return {name: html.unescape(message) for name, message in found}


def joined_match(app: Flask, client: FlaskClient, players: int, hands: int) -> tuple[int, int, str]:
    """A joined group with a Last One match of ``players`` and ``hands`` empty hands."""
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
