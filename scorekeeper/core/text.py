"""Text and small values typed by people: names, colours, whole numbers, messages.

Every name and free-text field, from the pages (their WTForms fields call these), the
API and an import alike, goes through :func:`clean_text`, so one rule decides which
text is accepted. Bad input is an :class:`InputError` whose ``field`` names the input
(a form field, a JSON key), so its message can be shown beside it.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal

from scorekeeper.core.errors import InputError

_SPACES = re.compile(r"\s+")
COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2")


def sentence(text: object) -> str:
    """A message as a sentence: first letter upper case, a full stop at the end."""
    words = str(text).strip()
    words = words[:1].upper() + words[1:]
    return words if words.endswith((".", "!", "?")) else words + "."


# Characters no name or note needs and that hide or disguise text: controls (NUL,
# escape…), format characters (zero-width spaces and joiners, bidi overrides and
# isolates, the byte-order mark, soft hyphens), surrogates, and unassigned code points.
_REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character",
            "Cs": "a broken character (a lone surrogate)", "Cn": "an unassigned character"}


def _code(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def clean_text(text: str | None, field: str, limit: int, *, empty: bool = False,
               lines: bool = False, what: str = "it") -> str:
    """Text safe to store and show: NFC-normalised, trimmed, 0/1 to ``limit`` characters.

    Control and format characters, lone surrogates and unassigned code points are
    refused with a :class:`InputError` naming the character, so a name cannot hide a
    NUL (which PostgreSQL refuses), a zero-width space or a right-to-left override.
    Without ``lines`` every run of white space becomes one space; with it, line breaks
    and tabs are kept (free text such as a ruling's question). ``what`` names the text
    in the message for one that is too long ("Keep the name to 40 characters…").

    >>> clean_text("  E\u0301mile  ", "name", 40)
    'Émile'
    >>> clean_text("Ann\u202e", "name", 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    scorekeeper.core.errors.InputError: Remove U+202E RIGHT-TO-LEFT OVERRIDE: it is an ...
    >>> clean_name("x" * 10_000)
    Traceback (most recent call last):
    scorekeeper.core.errors.InputError: Keep the name to 40 characters or fewer.
    """
    raw = text or ""
    if any("\ud800" <= char <= "\udfff" for char in raw):  # before normalising: it can't
        raise InputError("Remove the broken character (a lone surrogate).", field)
    value = unicodedata.normalize("NFC", raw)
    value = value.strip() if lines else _SPACES.sub(" ", value).strip()
    for char in value:
        kind = unicodedata.category(char)
        if kind in _REFUSED and not (lines and char in "\t\n\r"):
            raise InputError(f"Remove {_code(char)}: it is {_REFUSED[kind]}.", field)
    if not value and not empty:
        raise InputError("Enter some text.", field)
    if len(value) > limit:
        raise InputError(f"Keep {what} to {limit} characters or fewer.", field)
    return value


def name_key(name: str) -> str:
    """What makes two names the same: case-folded NFC, so Émile, ÉMILE and E+◌́mile clash.

    >>> name_key("ÉMILE") == name_key("e\u0301mile")
    True
    """
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def clean_name(text: str | None, field: str = "name", limit: int = 40) -> str:
    """A trimmed, single-spaced name of 1 to ``limit`` characters, else :class:`InputError`.

    The text passes :func:`clean_text` (NFC, no control or invisible characters).
    """
    name = clean_text(text, field, limit, empty=True, what="the name")
    if not name:
        raise InputError("Enter a name.", field)
    return name


def clean_colour(text: str | None, field: str = "colour") -> str:
    """A ``#rrggbb`` colour, lower case, else :class:`InputError`."""
    colour = (text or "").strip()
    if not COLOUR.match(colour):
        raise InputError("Pick a colour like #1f77b4.", field)
    return colour.lower()


def clean_int(text: str | None, field: str, low: int | None = None,
              high: int | None = None) -> int:
    """A whole number within bounds, else :class:`InputError` naming the field."""
    value = (text or "").strip()
    if not re.fullmatch(r"-?\d{1,9}", value):
        raise InputError(f"Enter a whole number, not {value!r}.", field)
    number = int(value)
    if low is not None and number < low:
        raise InputError(f"Must be at least {low}.", field)
    if high is not None and number > high:
        raise InputError(f"Must be at most {high}.", field)
    return number


def json_number(text: str) -> int | float:
    """A JSON number written with a fraction or an exponent, for ``json.loads``'s
    ``parse_float``: the integer it equals when it is whole (``867.0``, ``1e3``), as
    JSON Schema's ``integer`` reads it, else the float. Whole numbers are kept to 18
    digits, so a huge exponent never becomes a huge integer.

    >>> json_number("867.0"), json_number("1e3"), json_number("1.5"), json_number("1e400")
    (867, 1000, 1.5, inf)
    """
    number = Decimal(text)
    if number.is_finite() and number.adjusted() < 18 and number == number.to_integral_value():
        return int(number)
    return float(text)


def next_colour(used: list[str]) -> str:
    """The first palette colour not yet used in the group (cycling when all are)."""
    for colour in PALETTE:
        if colour not in used:
            return colour
    return PALETTE[len(used) % len(PALETTE)]
