"""Helpers for the web tests: start a group, add players, start a match, record hands."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group, Player
from scorekeeper.store.records import build_match
from tests.support.parsed import Page, text

LO = "last-one"

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
    page = Page(client.get(f"/groups/{gid}/players"))
    ids = {text(link.select_one(".who")): int(str(link["href"]).rsplit("/", 1)[1])
           for link in page.all(f'a[href^="/groups/{gid}/players/"]') if link.select_one(".who")}
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
    """The error messages on a page, by field name, shown or in a part of the form
    still hidden (:meth:`Page.errors`)."""
    return Page(page).errors(include_hidden=True)


def seated_group(name: str, players: int) -> tuple[Group, list[Player]]:
    """A group called ``name`` with the first ``players`` of :data:`NAMES`, committed."""
    group = Group(name=name)
    seated = [Player(group=group, name=n) for n in NAMES[:players]]
    db.session.add_all([group, *seated])
    db.session.commit()
    return group, seated


def blank_match(group: Group, players: list[Player], hands: int) -> int:
    """A Last One match of ``players`` with ``hands`` empty hands (nobody nears the
    threshold), committed; its id."""
    blank = HandResult.of(0, [[] for _ in players])
    match = build_match(group, Sheet.make(LO, {}), players, 0, [blank] * hands)
    db.session.commit()
    return match.id


def joined_match(app: Flask, client: FlaskClient, players: int, hands: int) -> tuple[int, int, str]:
    """A joined group with a Last One match of ``players`` and ``hands`` empty hands."""
    with app.app_context():
        group, seated = seated_group(f"T{players}x{hands}", players)
        ids = group.id, blank_match(group, seated, hands), group.invite_token
    assert client.get(f"/join/{ids[2]}").status_code == 302
    return ids


@dataclass(frozen=True)
class MatchesByLength:
    """A group (its id and invite) and the ids of its matches by number of hands."""

    group_id: int
    token: str
    matches: dict[int, list[int]]


def matches_by_length(app: Flask, copies: int) -> MatchesByLength:
    """A group of four with ``copies`` matches each of 0, 10 and 499 hands and one of
    500 hands: the benchmarks' table, where every timed save records the next hand of a
    match of its own as it was built (no undo between repeats)."""
    with app.app_context():
        group, seated = seated_group("Bench table", 4)
        matches = {n: [blank_match(group, seated, n) for _ in range(copies)]
                   for n in (0, 10, 499)}
        matches[500] = [blank_match(group, seated, 500)]
        return MatchesByLength(group.id, group.invite_token, matches)
