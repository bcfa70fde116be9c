"""Group access for the JSON API: ``Authorization: Bearer <group invite token>``.

No header (or not a Bearer one) is a 401 asking for the token; a token that opens no
group is a 404, like a wrong invite link, so a stranger learns nothing. Ids from a
client are range-checked here before any query: PostgreSQL's ``integer`` is 32-bit.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, g, request

from scorekeeper.api.common import error_response
from scorekeeper.core.errors import InputError, NotFoundError
from scorekeeper.extensions import limiter, limits_off
from scorekeeper.store.groups import MAX_ID, GroupView, group_by_invite

SECURITY_SCHEMES: dict[str, Any] = {
    "groupToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "The group's invite token (the last part of its invite link).",
    }
}
SECURITY: list[dict[str, list[str]]] = [{"groupToken": []}]


class MissingTokenError(InputError):
    """No bearer token at all: 401, so a client knows to send one (a wrong one is a 404)."""

    status = 401


def bearer_group() -> GroupView:
    """The group the request's bearer token opens: 401 without a token, 404 if wrong.

    Wrong tokens are counted per client address (see :data:`guard_tokens`); past the
    limit every bearer request from that address is a 429 with ``Retry-After`` until
    the window moves on, so guessing tokens is slow as well as hopeless.
    """
    return token_group(bearer_token())


def bearer_token() -> str:
    """The request's bearer token (401 if none)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        _count_failure()
        raise MissingTokenError("send the group's invite token as "
                                "'Authorization: Bearer <token>'", "authorization")
    return token.strip()


def token_group(token: str) -> GroupView:
    """The group a bearer token opens, else 404 (and the failure counted)."""
    group = group_by_invite(token)
    if group is None:
        _count_failure()
        raise NotFoundError("no group here opens with that token", "authorization")
    return group


_FAILED = "scorekeeper_bearer_failed"


def _count_failure() -> None:
    """Mark this request as a wrong token: the limit below deducts it when answered."""
    setattr(g, _FAILED, True)


def _was_failure(_response: Response) -> bool:
    return bool(g.get(_FAILED))


# One count of wrong tokens per client address, shared by every endpoint that takes a
# token (the API's __init__ applies it to their blueprints). Flask-Limiter checks it
# before the view runs and deducts only the requests marked above, so a right token
# costs nothing; its own switches and storage fallback apply.
guard_tokens = limiter.shared_limit(
    lambda: current_app.config["RATELIMIT_BEARER_FAILURES"], scope="bearer-failures",
    deduct_when=_was_failure, exempt_when=limits_off,
    error_message="too many wrong tokens from this address; try again later")


def id_in_range(value: Any, field: str, status: int = 400) -> int:
    """A client's id or number as a positive 32-bit integer, else :class:`InputError`."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ID:
        message = f"{field} must be a whole number from 1 to {MAX_ID}, not {value!r}"
        if status == NotFoundError.status:
            raise NotFoundError(f"no such {field} here", field)
        raise InputError(message, field)
    return value


def id_param(name: str, description: str) -> dict[str, Any]:
    """An OpenAPI path parameter for a positive 32-bit id."""
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID}}


AUTH_RESPONSES: dict[str, Any] = {
    "401": error_response("No 'Authorization: Bearer <invite token>' header"),
    "404": error_response("The token opens no group, or the resource is not in the group"),
    "429": error_response("Too many wrong tokens from this address: wait Retry-After "
                          "seconds"),
}
