"""Text and small values typed by people: names, colours, whole numbers, messages.

Every name and free-text field, from the pages (their WTForms fields call these), the
API and an import alike, goes through :func:`clean_text`, so one rule decides which
text is accepted. Bad input is an :class:`InputError` whose ``field`` names the input
(a form field, a JSON key), so its message can be shown beside it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from decimal import Decimal
from typing import Any

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


# Characters that change how the character before them looks, or not at all: the
# combining grapheme joiner and the variation selectors. "Ann" followed by one of them
# shows as "Ann" and is another name. An emoji's own presentation selectors (U+FE0E
# text, U+FE0F emoji) after a symbol, and the zero-width joiner between two emoji
# (family, flag and profession sequences), are how emoji are written, so they stay.
_VARIATION = re.compile("[\u034f\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_PRESENTATION = "\ufe0e\ufe0f"
_ZWJ, _KEYCAP = "\u200d", "\u20e3"
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _emoji_part(value: str, at: int) -> bool:
    """Whether the character at ``at`` (a presentation selector or a zero-width joiner)
    is part of an emoji: a selector after a symbol (or a keycap's digit), a joiner
    between two symbols (past the first one's selector and skin tone)."""
    char, before = value[at], value[:at].rstrip(_PRESENTATION)
    if char in _PRESENTATION:
        base = value[at - 1] if at else ""
        keycap = base in "0123456789#*" and value[at + 1:at + 2] == _KEYCAP
        return keycap or (bool(base) and unicodedata.category(base) == "So")
    if before and ord(before[-1]) in _SKIN_TONES:
        before = before[:-1]
    after = value[at + 1:at + 2]
    return (bool(before) and unicodedata.category(before[-1]) == "So"
            and bool(after) and unicodedata.category(after) == "So")


def _hidden(value: str, lines: bool) -> tuple[str, str] | None:
    """The first character of ``value`` that hides or disguises text, and why."""
    for at, char in enumerate(value):
        kind = unicodedata.category(char)
        if (char == _ZWJ or char in _PRESENTATION) and _emoji_part(value, at):
            continue
        if kind in _REFUSED and not (lines and char in "\t\n\r"):
            return char, _REFUSED[kind]
        if _VARIATION.match(char):
            return char, ("an invisible variation character (it makes a look-alike of "
                          "the letter before it)")
    return None


def char_name(char: str) -> str:
    """A character as a message names it: ``U+0430 CYRILLIC SMALL LETTER A``."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def clean_text(text: str | None, field: str, limit: int, *, empty: bool = False,
               lines: bool = False, what: str = "it") -> str:
    """Text safe to store and show: NFC-normalised, trimmed, 0/1 to ``limit`` characters.

    Control and format characters, lone surrogates, unassigned code points and the
    invisible variation characters (:data:`_VARIATION`; an emoji's own are kept) are
    refused with a :class:`InputError` naming the character, so a name cannot hide a
    NUL (which PostgreSQL refuses), a zero-width space, a right-to-left override or a
    variation selector that makes "Ann" another name.
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
    hidden = _hidden(value, lines)
    if hidden is not None:
        raise InputError(f"Remove {char_name(hidden[0])}: it is {hidden[1]}.", field)
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


class DuplicateKeyError(ValueError):
    """A JSON object that names one key twice: which value was meant is unknown."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict, refusing a key given twice (``json`` would
    keep the last value silently)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKeyError(key)
        found[key] = value
    return found


def read_json(raw: bytes | str) -> Any:
    """JSON text as the API and an import read it: every object's keys named once
    (:class:`DuplicateKeyError`, a :class:`ValueError`, otherwise), and a whole
    number written with a fraction read as the integer (:func:`json_number`).

    >>> read_json('{"out": 1, "held": [867.0]}')
    {'out': 1, 'held': [867]}
    >>> read_json('{"out": 1, "out": 2}')
    Traceback (most recent call last):
    scorekeeper.core.text.DuplicateKeyError: the key 'out' appears twice in one object
    """
    return json.loads(raw, parse_float=json_number, object_pairs_hook=_unique_keys)


def next_colour(used: list[str]) -> str:
    """The first palette colour not yet used in the group (cycling when all are)."""
    for colour in PALETTE:
        if colour not in used:
            return colour
    return PALETTE[len(used) % len(PALETTE)]
