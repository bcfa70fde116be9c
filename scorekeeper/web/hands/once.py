"""The hand form's idempotency key: a form sent twice stores its hand once.

Every new-hand form carries a fresh key in a hidden field (made when the page is
rendered, so it works without JavaScript). A second send of the same form (a double
tap, a resend after a dropped connection, the back button) finds the hand stored the
first time and gets the same result: the scoreboard with the same message.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping

from scorekeeper.store.idempotency import (
    KEY_FIELD,
    Answered,
    clean_key,
    earlier_answer,
    request_digest,
)
from scorekeeper.store.match_views import MatchView

__all__ = ["KEY_FIELD", "already_recorded", "form_key", "new_key"]

# Fields that do not describe the hand: a refreshed CSRF token is the same hand.
_NOT_CONTENT = {"csrf_token", KEY_FIELD}


def new_key() -> str:
    """A fresh key for a form about to be shown."""
    return str(uuid.uuid4())


def form_key(form: Mapping[str, str]) -> tuple[str | None, str | None]:
    """The form's key and a digest of its hand fields; :class:`InputError` if malformed."""
    key = clean_key(form.get(KEY_FIELD))
    if key is None:
        return None, None
    return key, request_digest({k: v for k, v in form.items() if k not in _NOT_CONTENT})


def already_recorded(match: MatchView, form: Mapping[str, str]) -> Answered | None:
    """The hand this very form already stored, else None; :class:`KeyReuseError` when its
    key was used for a different hand (a form reused after the back button)."""
    return earlier_answer(match, *form_key(form))
