"""One small family of errors, shared by every layer and both front doors.

* :class:`InputError` — bad input; ``field`` names where it came from (a form field, a
  request field such as ``hands[1]`` or ``sheet.options.threshold``), so a page shows
  the message on that field and the API answers 400 naming it.
* :class:`ConflictError` — the input was fine but the stored state moved on (another
  phone recorded that hand first): 409.
* :class:`SameHandError` — a new hand that looks like hand ``hand`` already recorded
  (:mod:`scorekeeper.core.same_hand`): 409 with the code ``same_as_hand``.
* :class:`NotFoundError` — nothing here by that id or token: 404.

The core's own errors (a bad card, an impossible deal, an illegal setup) are
:class:`InputError` subclasses, so no layer has to catch one and re-raise it under
another name.

>>> err = InputError("Enter a name.", "name")
>>> err.status, err.field, str(err)
(400, 'name', 'Enter a name.')
"""

from __future__ import annotations


class InputError(ValueError):
    """Bad input; ``message`` says what is wrong, ``field`` where (or None)."""

    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class ConflictError(InputError):
    """Valid input that clashes with what is stored now (someone else changed it)."""

    status = 409


class NotFoundError(InputError):
    """No such thing here: a wrong id, token or link."""

    status = 404


class SameHandError(ConflictError):
    """The new hand looks like hand ``hand`` already in the match: nothing was stored;
    sent again with the request's confirmation, it is recorded.

    >>> err = SameHandError(11)
    >>> err.status, err.code, err.hand
    (409, 'same_as_hand', 11)
    """

    code = "same_as_hand"

    def __init__(self, hand: int) -> None:
        super().__init__(f"these are the cards of hand {hand}, already recorded: the same "
                         "player went out and everyone holds the same cards; nothing was "
                         "stored", "number")
        self.hand = hand
