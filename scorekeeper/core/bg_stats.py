"""A finished match as a play for BG Stats, the board-game logging app, and the link
that hands it over.

BG Stats takes a play from another app as url-encoded JSON on a link
(``https://app.bgstatsapp.com/createPlay.html?data=…``; its page "Push plays to BG
Stats from other apps or websites" is the reference for the fields). Opening the link
on a phone with the app shows its import dialog; nothing is sent anywhere else, so the
link works offline like any other. Built here alone, from what the store already
knows of the match (:class:`PlayedMatch`): no second copy of places or totals.

What goes in is only what BG Stats needs to file the play: the game, the rules in a
few words, when and how long, and each player's name as the group typed it, their
place, whether they won and their total. No token and no address of the group.

>>> from datetime import datetime
>>> from scorekeeper.core.sheets import Sheet
>>> seats = (PlayedSeat("Ann", "a1", 1, 12, True, False),
...          PlayedSeat("Ben", "b2", 2, 250, False, True))
>>> game = play(PlayedMatch(Sheet.make("last-one"), "m1", datetime(2026, 12, 1, 20, 0),
...                         datetime(2026, 12, 1, 20, 41), seats))["game"]
>>> game["highestWins"], game["noPoints"]
(False, False)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from scorekeeper.core.sheets import Sheet

__all__ = ["CREATE_PLAY_URL", "SOURCE_NAME", "PlayedMatch", "PlayedSeat", "link", "play"]

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Scorekeeper"  # the app that hands the play over, as BG Stats shows it

# No game carries a ``bggId`` (no BoardGameGeek id for these games could be checked, and
# an unchecked one could file the plays under another game): BG Stats matches by name.


@dataclass(frozen=True)
class PlayedSeat:
    """One seat of a finished match as BG Stats hears of it."""

    name: str  # as the group typed it
    player_uid: str  # the player's stable public id, so BG Stats knows them next time
    place: int  # the match's place (the rules reference "Places"); ties share one
    total: int  # points, or Countdown's count
    winner: bool
    started: bool  # played first in the match's first hand


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match: its sheet, stable id, start and finish, and seats in order."""

    sheet: Sheet
    uid: str
    started: datetime
    finished: datetime | None
    seats: Sequence[PlayedSeat]


def _utc(moment: datetime) -> datetime:
    """The moment in UTC (a stored time without a zone is UTC already).

    BG Stats' page gives ``playDate`` as ``YYYY-MM-DD HH:MM:SS`` and names no zone, so
    the play goes in UTC, the one clock the server keeps (the README says so)."""
    return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)


def _player(seat: PlayedSeat, points: bool) -> dict[str, Any]:
    player: dict[str, Any] = {"name": seat.name, "sourcePlayerId": seat.player_uid,
                              "rank": seat.place, "winner": seat.winner,
                              "startPlayer": seat.started}
    if points:
        player["score"] = seat.total
    return player


def play(match: PlayedMatch) -> dict[str, Any]:
    """The play as BG Stats' JSON: the game (``sourceGameId`` is the game's key, the
    same for every match of it), the match's uid as ``sourcePlayId``, ``playDate`` its
    start in UTC, ``durationMin`` start to finish, ``board`` the sheet in a few words,
    and the players in seat order."""
    # How BG Stats is to read the totals: the highest wins where the lowest does not
    # lead (whoever goes out scores); a game of counts has no points.
    info = match.sheet.game_info
    highest_wins, no_points = not info.low_leads, not info.carries_cards
    started = _utc(match.started)
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": match.uid,
        "game": {"name": match.sheet.game_info.name, "sourceGameId": match.sheet.game,
                 "highestWins": highest_wins, "noPoints": no_points},
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "board": match.sheet.summary(),
        "players": [_player(seat, not no_points) for seat in match.seats],
    }
    if match.finished is not None:
        minutes = (_utc(match.finished) - started).total_seconds() / 60
        data["durationMin"] = max(0, round(minutes))
    return data


def link(data: Mapping[str, Any]) -> str:
    """The link that opens BG Stats' import of the play: its JSON, url-encoded whole.

    >>> link({"sourceName": "Scorekeeper"})
    'https://app.bgstatsapp.com/createPlay.html?data=%7B%22sourceName%22%3A%22Scorekeeper%22%7D'
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(text, safe='')}"
