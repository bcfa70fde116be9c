"""The play checker's answer: the form's question judged by the engine, read for the page.

:func:`answer` reads the form and has the engine answer its question, exactly as the
replay API does; :func:`verdict_of` picks the step the big answer shows and how the
page answers it (:func:`kind_of`); :func:`assumptions` notes what was taken as said;
:func:`branches` asks the question again each way the table left unsaid (:mod:`.unsaid`)
and keeps the ways whose answer differs, so the page says which way each answer goes
instead of guessing; :func:`suit_keys` are the links that name the suit of a play that
needs one. Everything is read from the engine's :class:`Verdict` fields (``legal``,
``needs_suit``, ``assumed``) and the seats of passes taken as said, never from its
words, which are for people.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from werkzeug.datastructures import MultiDict

from scorekeeper.core.cards import Suit
from scorekeeper.core.engine import replay
from scorekeeper.core.engine.moves import Verdict
from scorekeeper.core.engine.question import Answer
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.build import ask
from scorekeeper.web.check.forms import CheckForm, check_form
from scorekeeper.web.check.unsaid import Way, ways

__all__ = ["Branch", "Shown", "answer", "assumptions", "branches", "kind_of", "suit_keys",
           "verdict_of"]


@dataclass(frozen=True)
class Shown:
    """The step an answer shows: its verdict and rule's address, which event it
    judged (``index``) and how the page answers it (``kind``, :func:`kind_of`)."""

    verdict: Verdict
    rule_url: str
    index: int
    kind: str


@dataclass(frozen=True)
class Branch:
    """An answer that turns on an unsaid fact (``way``): the verdict when it holds and
    when it does not, and the links that say which (the same question, the fact said)."""

    way: Way
    holds: Shown
    otherwise: Shown
    holds_url: str
    otherwise_url: str


def answer(args: MultiDict[str, str], sheet: Sheet | None, names: list[str] | None
           ) -> tuple[CheckForm, Answer | None]:
    """Read the form and judge it: (the form, the engine's answer). The errors, the
    engine's too, are on the form's fields."""
    form = check_form(args, sheet, names)
    asked = ask(form)
    if asked is None:
        return form, None
    try:
        return form, replay.answer(asked.question)
    except InputError as exc:
        form.refuse(exc)
        return form, None


def verdict_of(result: Answer, single: bool = True) -> Shown:
    """The one step the big answer shows: the last one (the play in dispute), unless
    an earlier one was illegal (the replay stops there); ``single``: a one-play
    question."""
    index = len(result.steps) - 1 if result.first_illegal is None else result.first_illegal
    step = result.steps[index]
    return Shown(step.verdict, step.rule_url, index, kind_of(step.verdict, single))


def kind_of(verdict: Verdict, single: bool = True) -> str:
    """How the page answers a verdict: ``legal``, ``illegal`` or ``unsure`` (legal
    None). A one-play question whose play is refused only for want of a named suit
    (``needs_suit``) is answered ``legal``: the table asked whether the card may be
    played, and it may, with the suit its player names (:func:`suit_keys`)."""
    if verdict.legal or (single and verdict.needs_suit):
        return "legal"
    return "illegal" if verdict.legal is False else "unsure"


def assumptions(result: Answer, lines: tuple[str, ...], names: tuple[str, ...]) -> list[str]:
    """Notes for the steps up to the one shown: passes taken as said, and (before it)
    what a step that could not be judged assumed ("assuming Seat 1 could not play"),
    in line order."""
    notes: list[str] = []
    last = verdict_of(result).index
    for i, step in enumerate(result.steps[:last + 1]):
        where = f"Line {i + 1} ({lines[i]})" if i < len(lines) else f"Line {i + 1}"
        notes += [f"{where}: the pass by {names[seat]} was taken as said"
                  for seat in step.implied]
        notes += [f"{where}: nothing else was left, so the pass by {names[seat]} was taken "
                  "and the turn moved on" for seat in step.moved_on]
        verdict = step.verdict
        if i == last or verdict.legal is not None:
            continue
        if verdict.assumed:
            seats = " and ".join(names[seat] for seat in verdict.assumed)
            notes.append(f"{where}: assuming {seats} could not play")
        else:
            notes.append(f"{where}: assuming it was allowed ({verdict.reason})")
    return notes


def suit_keys(form: CheckForm, shown: Shown, args: MultiDict[str, str]
              ) -> list[tuple[Suit, str]]:
    """For a one-play question answered legal once a suit is named: the same question
    with each suit named (``csuit``), as (suit, link); else none."""
    asked, verdict = form.asked, shown.verdict
    if asked is None or asked.sequence or verdict.legal or not verdict.needs_suit:
        return []
    return [(s, _saying(args, "csuit", s.value)) for s in Suit]


def branches(form: CheckForm, result: Answer, args: MultiDict[str, str]) -> list[Branch]:
    """Each unsaid fact whose answer differs from the question as asked."""
    asked = form.asked
    if asked is None or not result.steps:
        return []
    shown = verdict_of(result)
    found = []
    for way in ways(form, asked):
        try:
            other = replay.answer(way.question)
        except InputError:  # that way cannot be: nothing to tell apart
            continue
        if not other.steps or verdict_of(other).kind == shown.kind:
            continue
        holds, not_holds = way.values
        found.append(Branch(way, verdict_of(other), shown,
                            _saying(args, way.field, holds), _saying(args, way.field, not_holds)))
    return found


def _saying(args: MultiDict[str, str], name: str, value: str) -> str:
    """The link to the same question with ``name`` said as ``value``, at the answer."""
    pairs = [(k, v) for k, v in args.items(multi=True) if k != name] + [(name, value)]
    return "?" + urlencode(pairs) + "#answer"
