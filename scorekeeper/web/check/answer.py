"""The play checker's answer: the form judged by the core, read for the page.

:func:`answer` reads the form and runs the replay exactly as the replay API does;
:func:`verdict_of` picks the step the big answer shows and how the page answers it
(:func:`kind_of`); :func:`assumptions` notes what was taken as said; :func:`branches`
asks the question again each way the table left unsaid (:mod:`.unsaid`) and keeps the
ways whose answer differs, so the page says which way each answer goes instead of
guessing; :func:`suit_keys` are the links that name the suit of a play that needs one.
Everything is read from the steps' fields (``legal``, ``needs_suit``, ``assumed``, the
seats of passes taken as said), never from their words, which are for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from werkzeug.datastructures import MultiDict

from scorekeeper.core.cards import Suit
from scorekeeper.core.engine.replay import run
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.build import ask
from scorekeeper.web.check.forms import CheckForm, check_form
from scorekeeper.web.check.unsaid import Way, ways

__all__ = ["Branch", "answer", "assumptions", "branches", "kind_of", "suit_keys",
           "verdict_of"]


@dataclass(frozen=True)
class Branch:
    """An answer that turns on an unsaid fact (``way``): the verdict when it holds and
    when it does not, and the links that say which (the same question, the fact said)."""

    way: Way
    holds: dict[str, Any]
    otherwise: dict[str, Any]
    holds_url: str
    otherwise_url: str


def answer(args: MultiDict[str, str], sheet: Sheet | None, names: list[str] | None
           ) -> tuple[CheckForm, dict[str, Any] | None]:
    """Read the form and judge it: (the form, the replay result). The errors, the
    replay's too, are on the form's fields."""
    form = check_form(args, sheet, names)
    question = ask(form)
    if question is None:
        return form, None
    try:
        return form, run(question.request)
    except InputError as exc:
        form.refuse(exc)
        return form, None


def verdict_of(result: dict[str, Any], single: bool = True) -> dict[str, Any]:
    """The one step the big answer shows: the last line (the play in dispute), unless
    an earlier line was illegal (the replay stops there); with its ``index`` and how
    the page answers it (``kind``, :func:`kind_of`; ``single``: a one-play question)."""
    steps = result["steps"]
    index = result["first_illegal"]
    if index is None:
        index = len(steps) - 1
    step = steps[index]
    return step | {"index": index, "kind": kind_of(step, single)}


def kind_of(step: dict[str, Any], single: bool = True) -> str:
    """How the page answers a step: ``legal``, ``illegal`` or ``unsure`` (legal None).
    A one-play question whose play is refused only for want of a named suit
    (``needs_suit``) is answered ``legal``: the table asked whether the card may be
    played, and it may, with the suit its player names (:func:`suit_keys`)."""
    if step["legal"] or (single and step["needs_suit"]):
        return "legal"
    return "illegal" if step["legal"] is False else "unsure"


def assumptions(result: dict[str, Any], lines: list[str], names: list[str]) -> list[str]:
    """Notes for the lines before the headline that could not be judged ("assuming
    Seat 1 could not play", from the step's ``assumed`` seats) and for passes left
    unsaid, in line order."""
    notes: list[str] = []
    last = verdict_of(result)["index"]
    for i, step in enumerate(result["steps"][:last + 1]):
        where = f"Line {i + 1} ({lines[i]})" if i < len(lines) else f"Line {i + 1}"
        for seat in step.get("implied_seats", ()):
            notes.append(f"{where}: the pass by {names[seat]} was taken as said")
        for seat in step.get("moved_on_seats", ()):
            notes.append(f"{where}: nothing else was left, so the pass by {names[seat]} was "
                         "taken and the turn moved on")
        if i == last or step["legal"] is not None:
            continue
        if step["assumed"]:
            seats = " and ".join(names[seat] for seat in step["assumed"])
            notes.append(f"{where}: assuming {seats} could not play")
        else:
            notes.append(f"{where}: assuming it was allowed ({step['reason']})")
    return notes


def suit_keys(form: CheckForm, verdict: dict[str, Any], args: MultiDict[str, str]
              ) -> list[tuple[Suit, str]]:
    """For a one-play question answered legal once a suit is named: the same question
    with each suit named (``csuit``), as (suit, link); else none."""
    question = form.question
    if question is None or question.sequence or verdict["legal"] or not verdict["needs_suit"]:
        return []
    return [(s, _saying(args, "csuit", s.value)) for s in Suit]


def branches(form: CheckForm, result: dict[str, Any], args: MultiDict[str, str]
             ) -> list[Branch]:
    """Each unsaid fact whose answer differs from the question as asked."""
    question = form.question
    if question is None or not result["steps"]:
        return []
    asked = verdict_of(result)
    found = []
    for way in ways(form, question):
        try:
            other = run(way.request)
        except InputError:  # that way cannot be: nothing to tell apart
            continue
        if not other["steps"] or verdict_of(other)["kind"] == asked["kind"]:
            continue
        holds, not_holds = way.values
        found.append(Branch(way, verdict_of(other), asked,
                            _saying(args, way.field, holds), _saying(args, way.field, not_holds)))
    return found


def _saying(args: MultiDict[str, str], name: str, value: str) -> str:
    """The link to the same question with ``name`` said as ``value``, at the answer."""
    pairs = [(k, v) for k, v in args.items(multi=True) if k != name] + [(name, value)]
    return "?" + urlencode(pairs) + "#answer"
