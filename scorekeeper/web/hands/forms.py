"""The hand form (WTForms): who went out (or blocked), each player's cards, the deal size.

Built per table by :func:`hand_form`: one :class:`CardsField` per seat still playing
(named ``seat-<n>``; none in Countdown, which scores only who went out). Each field's
validator is the core: card text is parsed by :func:`~scorekeeper.core.cards.parse_cards`
and a changed deal size is judged by :func:`~scorekeeper.core.deal.deal_problem`. Deck
and sheet checks (a card twice, jokers, the player who went out holding cards, a seat
left empty) are the one writer's (:mod:`scorekeeper.store.records`); its error is put
back on the field it names with :meth:`HandForm.refuse`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Field, IntegerField, RadioField, StringField
from wtforms.validators import InputRequired, NumberRange, StopValidation

from scorekeeper.core.cards import (
    Card,
    CardError,
    format_cards,
    parse_cards,
)
from scorekeeper.core.deal import HAND_SIZE, NINE, deal_problem
from scorekeeper.core.scoring import hands_carry_cards
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.match_views import HandView

BLOCKED = "none"
LOST_NUMBER = "This form lost its hand number; reload the page."
SEAT = "seat-"  # a seat's cards field on the page is named this and its seat number


class CardsField(StringField):
    """One seat's cards as typed or tapped; the core's parser is its validator and the
    parsed cards are kept in ``cards``."""

    cards: list[Card]

    def pre_validate(self, form: Any) -> None:
        self.cards = []
        text = self.data or ""
        if len(text) > 500:
            raise StopValidation("That is far more cards than a hand can hold.")
        try:
            self.cards = parse_cards(text)
        except CardError as exc:
            raise StopValidation(str(exc)) from None


class OutField(RadioField):
    """Who went out: a seat still playing, or ``none`` (blocked / jammed)."""

    def pre_validate(self, form: Any) -> None:
        if self.data not in {value for value, _ in self.choices}:
            raise StopValidation("Choose who went out, or that nobody could (blocked).")


class DealSizeField(StringField):
    """Last One's deal size for this hand, when the table changed it (4 to 9 cards);
    empty or the sheet's own size means unchanged. ``size`` is the number or None."""

    size: int | None = None

    def pre_validate(self, form: Any) -> None:
        self.size = None
        text = (self.data or "").strip()
        by_size = form.sheet.game_info.deal == "hand_size"
        if not by_size or not text or text == str(form.sheet["hand_size"]):
            return
        low, high = HAND_SIZE.minimum, HAND_SIZE.maximum
        if not (text.isascii() and text.isdigit() and HAND_SIZE.allows(int(text))):
            raise StopValidation(f"Cards dealt this hand: {low} to {high}. {text[:20]!r} is "
                                 f"not a whole number from {low} to {high}.")
        self.size = int(text)
        problem = deal_problem(form.sheet, sum(form.in_play), self.size,
                               bool(form.agree_nine.data), "tick the box")
        if problem:
            raise StopValidation(problem)


class HandForm(FlaskForm):
    """The fields every table has; :func:`hand_form` adds a cards field per seat."""

    class Meta:
        csrf = False  # CSRFProtect checks every POST of the app already

    number = IntegerField(validators=[InputRequired(LOST_NUMBER),
                                      NumberRange(1, 10_000, LOST_NUMBER)])
    out = OutField(choices=[], validate_choice=False)
    hand_size = DealSizeField()
    agree_nine = BooleanField(false_values=("", "false", "no", "0"))
    # The answer to the writer's same-hand question: record it even so (see same.html).
    same_as_confirmed = BooleanField(false_values=("", "false", "no", "0"))

    sheet: Sheet
    in_play: tuple[bool, ...]
    _sent: Any = None  # the raw form data, to spot seats that are not on the form

    def seat_field(self, seat: int) -> CardsField | None:
        """The cards field of a seat (None for a seat out of the match, or Countdown)."""
        return self._fields.get(f"seat_{seat}")

    @property
    def out_seat(self) -> int | None:
        """The seat that went out, or None when blocked/jammed."""
        return None if self.out.data == BLOCKED else int(self.out.data)

    def held(self) -> list[list[Card]]:
        """Each seat's parsed cards, empty for seats without a field."""
        return [list(f.cards) if (f := self.seat_field(s)) is not None else []
                for s in range(len(self.in_play))]

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """The fields, then cards sent for seats that are not at the table (or out)."""
        valid = super().validate(extra_validators)
        seats = {seat_name(s) for s in range(len(self.in_play))}
        for key, text in (self._sent or {}).items():
            if not key.startswith(SEAT) or not str(text).strip():
                continue
            if key not in seats:
                self.form_errors.append(f"There is no player {key!r} at this table.")
            elif self.seat_field(int(key[len(SEAT):])) is None and hands_carry_cards(self.sheet):
                self.form_errors.append(f"Seat {int(key[len(SEAT):]) + 1} is out of the match and "
                                        "holds no cards.")
        return valid and not self.form_errors

    def refuse(self, path: str | None, message: str) -> None:
        """Put an error from the store or the core on the field its path names (see
        :func:`field_name`); the form's own error when no field here answers to it."""
        name = field_name(path)
        target = next((f for f in self if f.name == name), None)
        if target is None:
            self.form_errors.append(message)
        else:
            target.errors = [*target.errors, message]

    @property
    def has_errors(self) -> bool:
        """Whether anything is to be fixed (field or form errors)."""
        return bool(self.form_errors) or any(f.errors for f in self)


def seat_name(seat: int) -> str:
    """The name of a seat's cards field on the page (what the browser sends)."""
    return f"{SEAT}{seat}"


def field_name(path: str | None) -> str:
    """The form field an input's path names, the one place the two meet: a seat's cards
    (``held.<n>``, the core's and the API's path) are that seat's cards field; every
    other path (``out``, ``hand_size``, ``number``) is the field of that name. The
    cards as a whole (``held``) and no path at all have no field of their own.

    >>> field_name("held.2"), field_name("out"), field_name(None)
    ('seat-2', 'out', 'held')
    """
    path = path or "held"
    where, _, seat = path.partition(".")
    return seat_name(int(seat)) if where == "held" and seat.isdigit() else path


def hand_form(sheet: Sheet, names: Sequence[str], in_play: Sequence[bool],
              formdata: Any = None, data: Mapping[str, Any] | None = None) -> HandForm:
    """The form for a table: a cards field for each seat still playing, named
    ``seat-<n>`` (no card fields in Countdown); ``out`` offers those seats and blocked."""
    fields: dict[str, Field] = {}
    if hands_carry_cards(sheet):
        fields = {f"seat_{s}": CardsField(names[s], name=seat_name(s))
                  for s, playing in enumerate(in_play) if playing}
    form_class = type("TableHandForm", (HandForm,), fields)
    form = form_class(formdata=formdata, data=data)
    form.sheet, form.in_play = sheet, tuple(in_play)
    form._sent = formdata
    form.out.choices = [(str(s), names[s]) for s, p in enumerate(in_play) if p] + [
        (BLOCKED, "blocked")]
    return form


def edit_data(sent: Any, number: int) -> MultiDict:
    """A sent edit form as the form reads it: the hand's number is the page's (its
    address), whatever number the form carried."""
    data = MultiDict(sent)
    data["number"] = str(number)
    return data


def form_values(hand: HandView) -> dict[str, Any]:
    """A stored hand as form data, to edit it."""
    values: dict[str, Any] = {
        "number": hand.number,
        "out": BLOCKED if hand.out_seat is None else str(hand.out_seat),
        "hand_size": "" if hand.hand_size is None else str(hand.hand_size),
        "agree_nine": hand.hand_size == NINE,  # it was agreed when the hand was recorded
    }
    for entry in hand.entries:
        values[f"seat_{entry.seat}"] = format_cards(parse_cards(entry.cards))
    return values

