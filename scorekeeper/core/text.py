"""Small helpers for the HTML forms: clean text input, collect errors per field.

The pages use plain forms (CSRF via ``{{ csrf_token() }}``) because their fields depend
on the game and the table; these helpers keep the parsing in views short.
"""

from __future__ import annotations

import re

from scorekeeper.core.errors import InputError

_SPACES = re.compile(r"\s+")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2")


# Bad input in one form field is an InputError whose ``field`` is the input's name;
# ``FieldError`` is its old name here, kept for callers not yet moved.
FieldError = InputError


def sentence(text: object) -> str:
    """A message as a sentence: first letter upper case, a full stop at the end."""
    words = str(text).strip()
    words = words[:1].upper() + words[1:]
    return words if words.endswith((".", "!", "?")) else words + "."


def clean_name(text: str | None, field: str = "name", limit: int = 40) -> str:
    """A trimmed, single-spaced name of 1 to ``limit`` characters, else :class:`FieldError`."""
    name = _SPACES.sub(" ", text or "").strip()
    if not name:
        raise FieldError("Enter a name.", field)
    if len(name) > limit:
        raise FieldError(f"Keep the name to {limit} characters or fewer.", field)
    return name


def clean_colour(text: str | None, field: str = "colour") -> str:
    """A ``#rrggbb`` colour, lower case, else :class:`FieldError`."""
    colour = (text or "").strip()
    if not COLOUR.match(colour):
        raise FieldError("Pick a colour like #1f77b4.", field)
    return colour.lower()


def clean_int(text: str | None, field: str, low: int | None = None,
              high: int | None = None) -> int:
    """A whole number within bounds, else :class:`FieldError` naming the field."""
    value = (text or "").strip()
    if not re.fullmatch(r"-?\d{1,9}", value):
        raise FieldError(f"Enter a whole number, not {value!r}.", field)
    number = int(value)
    if low is not None and number < low:
        raise FieldError(f"Must be at least {low}.", field)
    if high is not None and number > high:
        raise FieldError(f"Must be at most {high}.", field)
    return number


def next_colour(used: list[str]) -> str:
    """The first palette colour not yet used in the group (cycling when all are)."""
    for colour in PALETTE:
        if colour not in used:
            return colour
    return PALETTE[len(used) % len(PALETTE)]
