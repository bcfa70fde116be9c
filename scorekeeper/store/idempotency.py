"""Idempotency keys on new hands: a hand sent twice is stored once.

A phone that queued a hand while offline may send it again when it cannot tell whether
the first attempt arrived (the connection dropped before the answer). Each attempt
carries the same client-made key (the ``Idempotency-Key`` header of the IETF HTTP
draft, or the hand form's hidden field). The key is kept on the hand, unique per match,
with a digest of the request it came with: the same key with the same request finds
the stored hand (and its stored reply); the same key with another request is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from scorekeeper.core.errors import InputError
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView
from scorekeeper.store.models import Hand

__all__ = ["KEY_FIELD", "Answered", "KeyReuseError", "clean_key", "earlier_answer",
           "request_digest"]

KEY_FIELD = "idempotency_key"
KEY_MAX = 80


class KeyReuseError(InputError):
    """The key was already used for a different hand (422: nothing was stored)."""

    status = 422


def clean_key(raw: str | None, field: str = KEY_FIELD) -> str | None:
    """The key as sent (surrounding quotes of a structured-field string removed), or
    None when there is none; too long or not printable ASCII is an :class:`InputError`."""
    if raw is None:
        return None
    key = raw.strip()
    if len(key) > KEY_MAX or not all(" " < ch <= "~" for ch in key):
        raise InputError(f"{field} must be 1 to {KEY_MAX} printable characters without "
                         "spaces (a UUID is a good key)", field)
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    return key or None


def request_digest(payload: Mapping[str, object]) -> str:
    """A fingerprint of the request's content, independent of key order and spacing."""
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class Answered:
    """A hand already stored under a key: where it is and the answer kept with it."""

    match_id: int
    number: int
    reply_json: str | None


def earlier_answer(match: MatchView, key: str | None, digest: str | None) -> Answered | None:
    """The hand already stored under ``key`` for this request, or None if the key is
    new; :class:`KeyReuseError` if the key came with a different request before."""
    if key is None:
        return None
    hand = db.session.execute(
        db.select(Hand.number, Hand.request_digest, Hand.reply_json)
        .where(Hand.match_id == match.id, Hand.idempotency_key == key)).first()
    if hand is None:
        return None
    if hand.request_digest != digest:
        raise KeyReuseError(f"this idempotency key was already used for hand {hand.number} "
                            "with different cards or players; nothing was stored. "
                            "Send a new key for a new hand", KEY_FIELD)
    return Answered(match.id, hand.number, hand.reply_json)
