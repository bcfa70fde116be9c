"""WTForms pieces the pages share: fields whose validators ask the core.

A field's validator calls a core cleaning function (``clean_name``, ``clean_colour``,
a whole number in range...); the core's :class:`InputError` becomes the field's error
and its result the field's data, so a page and the API refuse the same input with
the same words. Errors render from ``field.errors`` (``macros.html``: ``wt_error``,
one message per field, so its id stays unique).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import Field, Form, StringField
from wtforms.validators import StopValidation

from scorekeeper.core.errors import InputError
from scorekeeper.core.text import clean_colour, clean_name

__all__ = ["ColourField", "NameField", "WholeListField", "asks_core", "attach", "whole"]


def asks_core(clean: Callable[[Any], Any]) -> Callable[[Form, Field], None]:
    """A validator running ``clean`` on the field's data: its result becomes the data,
    its :class:`InputError` the field's (only) error."""

    def check(form: Form, field: Field) -> None:
        try:
            field.data = clean(field.data)
        except InputError as exc:
            field.errors[:] = []
            raise StopValidation(exc.message) from None

    return check


def attach(form: FlaskForm, exc: InputError, default: str) -> None:
    """Show an error the core or the store raised after validation on its field (or
    on ``default`` when the form has no field by that name)."""
    field = form._fields.get(exc.field or "") or form[default]
    field.errors = [*field.errors, exc.message]


def whole(text: str | None, field: str, low: int | None = None, high: int | None = None
          ) -> int:
    """A whole number of at most three digits within bounds, else :class:`InputError`."""
    raw = (text or "").strip()
    if not raw.isdigit() or len(raw) > 3:
        raise InputError(f"{field.replace('_', ' ')} must be a whole number, not {text!r}",
                         field)
    number = int(raw)
    if (low is not None and number < low) or (high is not None and number > high):
        raise InputError(f"{field.replace('_', ' ')} must be from {low} to {high}", field)
    return number


class NameField(StringField):
    """A person's or a group's name, cleaned by the core (trimmed, 1 to ``limit``)."""

    def __init__(self, label: str | None = None, limit: int = 40, **kwargs: Any) -> None:
        check = asks_core(lambda text: clean_name(text, self.name, limit))
        super().__init__(label, validators=[check], **kwargs)


class ColourField(StringField):
    """A ``#rrggbb`` colour, checked by the core; when not ``required`` a blank one is
    None (the store then picks the group's next colour)."""

    def __init__(self, label: str | None = None, required: bool = True, **kwargs: Any
                 ) -> None:
        def check(text: str | None) -> str | None:
            return clean_colour(text, self.name) if required or (text or "").strip() else None

        super().__init__(label, validators=[asks_core(check)], **kwargs)


class WholeListField(Field):
    """Every value sent under one name (``count=8&count=7``) as text, blanks dropped;
    the form's own validation turns them into numbers with the core's words."""

    data: list[Any]  # the texts sent; numbers once the form's validator has read them

    def process_formdata(self, valuelist: Sequence[str]) -> None:
        self.data = [v for v in valuelist if v.strip()]

    def _value(self) -> str:
        return ",".join(self.data or [])
