"""What the table left unsaid but a ruling may turn on: a melee, the player's last card.

A table describing a dispute easily leaves out two facts that can reverse the answer:
whether a melee is on (Last One: the upcard may be the card that starts one, or the
last card of a run, and then anyone but its aggressor may answer out of turn), and
whether the card played is the player's last (going out changes what a play needs).
When the form leaves one unsaid, :func:`ways` gives the question the other way too;
the page asks the core both and, where the answers differ, shows each with the words
that decide it, and one tap to say which holds.

Which rank starts a melee is the game's (its effects); which card goes on from
another is the engine's (:func:`~scorekeeper.core.engine.facts.next_in_run`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorekeeper.core.cards import Rank
from scorekeeper.core.engine.facts import next_in_run
from scorekeeper.core.engine.question import Held, Question
from scorekeeper.core.engine.wording import article
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.build import melee_between
from scorekeeper.web.check.forms import Asked, CheckForm

__all__ = ["Way", "ways"]


@dataclass(frozen=True)
class Way:
    """One unsaid fact: ``words`` describe it holding ("the 4♥ was just played …");
    ``question`` is the question with it holding (the question as asked is the other
    way). ``field`` and ``values`` say it in the form, ``says`` on the page's buttons:
    (holds, does not)."""

    field: str
    values: tuple[str, str]
    says: tuple[str, str]
    words: str
    question: Question


def ways(form: CheckForm, asked: Asked) -> list[Way]:
    """The unsaid facts that could change the answer to a one-play question."""
    if asked.sequence:
        return []
    found = [_melee(form, asked), _last_card(form, asked)]
    return [way for way in found if way is not None]


def _melee(form: CheckForm, asked: Asked) -> Way | None:
    """A game with a melee, a plain turn, an upcard that starts one (or is a later
    card of a run, with the card played going on from it): a melee may be on."""
    question = asked.question
    situation, sheet = question.situation, question.sheet
    if form.melee_said() is not None or situation is None or question.players < 2:
        return None
    if situation.pending_draw or situation.drawn:
        return None
    up, card = question.upcard, question.events[0][0].card
    starts, wrap = _starting(sheet), bool(sheet.options.get("melee_wrap", False))
    if up.rank is None or card is None or up.rank not in _in_runs(starts, wrap):
        return None
    # A starting card just played starts a melee; a later card of a run is one only as
    # the last card of the run, which matters when the card played (a joker may stand
    # for anything) could go on with it: the next rank up of its suit.
    if up.rank not in starts and not (card.is_joker or card is next_in_run(up, wrap)):
        return None
    melee = replace(situation, melee=melee_between(asked.who, question.players))
    name = (question.names or ())[asked.who]
    start = " or ".join(article(rank.label) for rank in sorted(starts))
    words = (f"the {up.pretty} was just played into a melee ({start} starts one, the next "
             f"card up of the suit goes on) by someone other than {name}, and nobody has "
             "drawn since")
    return Way("melee", ("1", "no"), ("A melee is on", "No melee"), words,
               replace(question, situation=melee))


def _last_card(form: CheckForm, asked: Asked) -> Way | None:
    """The played card may be the player's last, unless the form says how many they
    hold (their own hand, one for everyone, or a card drawn this turn)."""
    question, who = asked.question, asked.who
    if form.last.value is not None or who in asked.held_seats:
        return None
    card = question.events[0][0].card
    if form.held.value == 1 or form.drawn.value or card is None:
        return None
    name = (question.names or ())[who]
    return Way("last", ("yes", "no"), ("It is the last card", "Not the last card"),
               f"the {card.pretty} is {name}'s last card", question.holding(who, Held((card,))))


def _starting(sheet: Sheet) -> frozenset[Rank]:
    """The ranks that start a melee under this sheet (none in a game without one)."""
    effects = sheet.game_info.effects_under(sheet.options)
    return frozenset(rank for rank, effect in effects.items() if effect == "melee")


def _in_runs(starts: frozenset[Rank], wrap: bool) -> set[Rank]:
    """The ranks a melee's run can stand on: a starting rank, then each next rank up
    (around past the K where the run ``wrap``s)."""
    found: set[Rank] = set()
    for rank in starts:
        step: Rank | None = rank
        while step is not None and step not in found:
            found.add(step)
            step = step.next_up(wrap)
    return found
