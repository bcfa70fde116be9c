"""What the table left unsaid but a ruling may turn on: a melee, the player's last card.

A table describing a dispute easily leaves out two facts that can reverse the answer:
whether a melee is on (Last One: an upcard from 4 up may be the last card of a run,
and then anyone but its aggressor may answer out of turn), and whether the card played
is the player's last (going out changes what a play needs). When the form leaves one
unsaid, :func:`ways` gives the question the other way too; the page asks the core
both and, where the answers differ, shows each with the words that decide it, and
one tap to say which holds.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from scorekeeper.core.cards import Card, Rank, parse_card
from scorekeeper.core.engine.facts import next_in_run
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.build import melee_between
from scorekeeper.web.check.forms import CheckForm, Question

__all__ = ["Way", "ways"]


@dataclass(frozen=True)
class Way:
    """One unsaid fact: ``words`` describe it holding ("the 4♥ was just played …");
    ``request`` is the question with it holding (the question as asked is the other
    way). ``field`` and ``values`` say it in the form, ``says`` on the page's buttons:
    (holds, does not)."""

    field: str
    values: tuple[str, str]
    says: tuple[str, str]
    words: str
    request: dict[str, Any]


def ways(form: CheckForm, question: Question) -> list[Way]:
    """The unsaid facts that could change the answer to a one-play question."""
    if question.sequence:
        return []
    found = [_melee(form, question), _last_card(form, question)]
    return [way for way in found if way is not None]


def _melee(form: CheckForm, question: Question) -> Way | None:
    """Last One, a plain turn, an upcard 4 (or higher, with the card played going on
    from it): a melee may be on."""
    request, situation = question.request, question.request["situation"]
    if not question.sheet.game_info.has_melee or form.melee_said() is not None or situation is None:
        return None
    if situation.get("pending_draw") or situation.get("drawn") or request["players"] < 2:
        return None
    up, card = parse_card(request["upcard"]), parse_card(request["events"][0]["play"])
    if up.rank is None or up.rank < Rank.FOUR:
        return None
    # A 4 just played starts a melee; a higher upcard is one only as the last card of a
    # run, which matters when the card played could go on with it.
    if up.rank > Rank.FOUR and not _goes_on(up, card, question.sheet):
        return None
    other = copy.deepcopy(request)
    other["situation"]["melee"] = melee_between(question.who, request["players"])
    name = request["names"][question.who]
    words = (f"the {up.pretty} was just played into a melee (a 4 starts one, the next card "
             f"up of the suit goes on) by someone other than {name}, and nobody has drawn "
             "since")
    return Way("melee", ("1", "no"), ("A melee is on", "No melee"), words, other)


def _last_card(form: CheckForm, question: Question) -> Way | None:
    """The played card may be the player's last, unless the form says how many they
    hold (their own hand, one for everyone, or a card drawn this turn)."""
    request, who = question.request, question.who
    if form.last.value is not None or who in question.held_seats:
        return None
    if form.held.value == 1 or form.drawn.value:
        return None
    other = copy.deepcopy(request)
    card = request["events"][0]["play"]
    other["hands"][who] = [card]
    name = request["names"][who]
    return Way("last", ("yes", "no"), ("It is the last card", "Not the last card"),
               f"the {parse_card(card).pretty} is {name}'s last card", other)


def _goes_on(up: Card, card: Card, sheet: Sheet) -> bool:
    """Whether ``card`` (a joker may stand for anything) is the next card up of a run
    ending in ``up``: same suit, one rank higher (K → A where the run wraps)."""
    if card.is_joker:
        return True
    assert up.rank is not None
    return card is next_in_run(up, bool(sheet["melee_wrap"]))
