"""The pages' CSRF token: Flask-WTF's, signed once per session instead of per request.

Flask-WTF keeps a random token in the session and, for every request that renders a
form, signs it anew (``generate_csrf``: a serializer, an HMAC and base64 — the costliest
single step of rendering the scoreboard). This app sets ``WTF_CSRF_TIME_LIMIT = None``
(a form left open at the table stays good), so a signed token never expires: the one
signed for a session is remembered and given to Flask-WTF as this request's token
(``g.csrf_token``, where Flask-WTF keeps it). Every POST is still checked by
Flask-WTF as before. With a time limit configured, tokens are signed per request.
"""

from __future__ import annotations

from functools import lru_cache

from flask import current_app, g, session
from flask_wtf.csrf import generate_csrf
from itsdangerous import URLSafeTimedSerializer

__all__ = ["csrf_token"]

SALT = "wtf-csrf-token"  # Flask-WTF's, for the tokens it signs and checks


def csrf_token() -> str:
    """This session's signed CSRF token (the templates' ``csrf_token()``)."""
    config = current_app.config
    field = config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    raw = session.get(field)
    if field not in g and isinstance(raw, str) and config.get("WTF_CSRF_TIME_LIMIT",
                                                                3600) is None:
        setattr(g, field, _signed(config.get("WTF_CSRF_SECRET_KEY") or current_app.secret_key,
                                  raw))
    return generate_csrf()


@lru_cache(maxsize=1024)
def _signed(secret: str, raw: str) -> str:
    return URLSafeTimedSerializer(secret, salt=SALT).dumps(raw)
