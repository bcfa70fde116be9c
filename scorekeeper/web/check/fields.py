"""The play checker's field kinds: each validator asks the core about its own text.

A field keeps the text as sent (so the page shows what was typed, and shared links
read back unchanged) and puts the core's reading in ``value``: a card by
:func:`~scorekeeper.core.cards.parse_card`, a suit by :meth:`Suit.parse`, a count or
a seat as a bounded whole number, a seat's hand by :func:`parse_cards` (as the engine's
:class:`~scorekeeper.core.engine.question.Held`). The core's error becomes the field's
error. Checks that need several fields (a seat past the
table size, the deal against a described situation) are :mod:`.build`'s.
"""

from __future__ import annotations

from typing import Any

from wtforms import StringField
from wtforms.validators import StopValidation

from scorekeeper.core.cards import Card, CardError, Suit, parse_card, parse_cards
from scorekeeper.core.engine.question import Held
from scorekeeper.core.sheets import Option

HAND_MOST = 30  # the most cards a count may say a seat holds or drew


class CheckField(StringField):
    """Text as sent (stripped in ``text``); ``value`` is the core's reading, None when
    the field is empty."""

    value: Any = None

    @property
    def text(self) -> str:
        """The text sent, stripped ("" when not sent)."""
        return (self.data or "").strip()

    def pre_validate(self, form: Any) -> None:
        self.value = None
        if self.text:
            try:
                self.value = self.read(self.text, form)
            except CardError as exc:
                raise StopValidation(str(exc)) from None

    def read(self, text: str, form: Any) -> Any:
        """The core's reading of non-empty text (raise StopValidation or CardError)."""
        return text


class CardField(CheckField):
    """One card (``4h``, ``jk``), the core's :class:`Card`."""

    def read(self, text: str, form: Any) -> Card:
        return parse_card(text[:40])


class SuitField(CheckField):
    """A suit (``D``, ``diamonds``), the core's :class:`Suit`."""

    def read(self, text: str, form: Any) -> Suit:
        return Suit.parse(text[:20])


class NumberField(CheckField):
    """A whole number from ``low`` to ``high``; ``default`` when empty. Seats are
    checked again against the table size once it is known (:mod:`.build`)."""

    def __init__(self, label: str | None = None, low: int = 0, high: int = 99,
                 default_value: int = 0, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.low, self.high, self.default_value = low, high, default_value

    def pre_validate(self, form: Any) -> None:
        super().pre_validate(form)
        if self.value is None:
            self.value = self.default_value

    def read(self, text: str, form: Any) -> int:
        if not text.isdigit() or not self.low <= int(text) <= self.high:
            raise StopValidation(f"Pick a number from {self.low} to {self.high}, "
                                 f"not {text[:20]!r}.")
        return int(text)


class HoldField(CheckField):
    """One seat's own hand: cards (``8s kh``), a count (``6``), or both (``8s kh +3``);
    its value is what the seat holds (:class:`Held`)."""

    def read(self, text: str, form: Any) -> Held:
        words = text.replace(",", " ").split()
        counts = [w for w in words if w.lstrip("+").isdigit()]  # a card always has a suit
        if len(counts) > 1 or (counts and int(counts[0].lstrip("+")) > HAND_MOST):
            raise StopValidation("Write the cards (8s kh), a count (6), or both (8s kh +3).")
        cards = tuple(parse_cards(" ".join(w for w in words if w not in counts)[:400]))
        unknown = int(counts[0].lstrip("+")) if counts else 0
        if not cards and not unknown:
            raise StopValidation("A seat still in the hand holds at least one card.")
        return Held(cards, unknown)


class SeatField(CheckField):
    """A seat numbered from 1, at most the table size (``form.seat_count``); None
    when empty (the caller knows the default seat)."""

    def read(self, text: str, form: Any) -> int:
        high = form.seat_count
        if not text.isdigit() or not 1 <= int(text) <= high:
            raise StopValidation(f"Pick a number from 1 to {high}, not {text[:20]!r}.")
        return int(text)


class YesNoField(CheckField):
    """A question the table answers yes or no (or leaves unsaid: None)."""

    def read(self, text: str, form: Any) -> str:
        if text.lower() not in ("yes", "no"):
            raise StopValidation(f"Say yes or no, not {text[:20]!r}.")
        return text.lower()


class OptionField(StringField):
    """One house rule (``opt-<key>``) as sent; the sheet reads all of them together
    (the option's own check, :meth:`Option.validate`), and a refusal lands here."""

    def __init__(self, option: Option, **kwargs: Any) -> None:
        super().__init__(option.label, **kwargs)
        self.option = option


def field_text(field: StringField, default: str = "") -> str:
    """The text to show in a field: as sent, else ``default`` (the usual value)."""
    return field.data if field.raw_data else default
