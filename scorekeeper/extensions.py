"""The app-level extensions: CSRF protection and the rate limiter, set up beside the
factory (pages and the API both use them; the store knows nothing of requests).

Rate limits go through Flask-Limiter alone, so its own switches hold:
``RATELIMIT_ENABLED = False`` turns every limit off, ``RATELIMIT_SWALLOW_ERRORS`` and
``RATELIMIT_IN_MEMORY_FALLBACK_ENABLED`` (both on by default here) keep a request from
ever failing because the counters' storage did. When that storage (Redis, say) stops
answering, each process counts in its own memory until it answers again — limits are
then per process, not shared by the hosts — and Flask-Limiter logs the switch once.
A storage whose client library is missing is logged at start-up and replaced by
memory, so the host still starts; the readiness check reports both cases.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, current_app, request
from flask.logging import default_handler
from flask_limiter import Limiter
from flask_wtf import CSRFProtect
from limits.errors import ConfigurationError

__all__ = ["client_address", "csrf", "init_limiter", "limiter", "limits_off", "storage_problem"]

csrf = CSRFProtect()


def client_address() -> str:
    """Who a rate limit counts: the client's address (the proxy's view of it when
    ``SCOREKEEPER_PROXIES`` says how many proxies to trust)."""
    return request.remote_addr or "unknown"


def limits_off() -> bool:
    """Whether this app's rate limits are switched off (``RATE_LIMITS`` false, in tests).

    Read per request from the app's own configuration: the limiter object is shared by
    every app the process builds, and only its storage is set from the latest one.
    """
    return not current_app.config.get("RATE_LIMITS", True)


limiter = Limiter(key_func=client_address, default_limits_exempt_when=limits_off)

# A storage server that does not answer must not hold a request for long: it is asked
# with short timeouts and no retries (the in-memory fallback takes over at once).
REDIS_OPTIONS: dict[str, Any] = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
_PROBLEM = "scorekeeper.ratelimit_problem"


def init_limiter(app: Flask) -> None:
    """Bind the limiter to ``app``; a storage it cannot use is logged and replaced by
    this process's memory instead of stopping the host."""
    _show_limiter_log()
    uri = str(app.config.get("RATELIMIT_STORAGE_URI") or "memory://")
    if uri.split(":", 1)[0] in ("redis", "rediss", "redis+unix"):
        options = app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {})
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {**REDIS_OPTIONS, **_no_retries(), **options}
    app.extensions[_PROBLEM] = None
    try:
        limiter.init_app(app)
    except ConfigurationError as exc:
        problem = (f"the rate-limit storage {_shown(uri)} cannot be used ({exc}); limits are "
                   "counted in each process's memory instead. For redis:// install the "
                   "client: pip install 'scorekeeper[redis]'")
        app.logger.error("%s", problem)
        app.extensions[_PROBLEM] = problem
        app.config["RATELIMIT_STORAGE_URI"] = "memory://"
        app.config.pop("RATELIMIT_STORAGE_OPTIONS", None)
        limiter.init_app(app)


def storage_problem(app: Flask) -> str | None:
    """Why the rate limits are not shared by every host, or None when they are (or
    need not be: ``memory://`` configured on purpose, one process)."""
    configured = app.extensions.get(_PROBLEM)
    if configured:
        return str(configured)
    if not limiter.enabled or not app.config.get("RATE_LIMITS", True):
        return None
    if not limiter.storage.check():
        uri = _shown(str(app.config.get("RATELIMIT_STORAGE_URI")))
        return (f"the rate-limit storage {uri} does not answer; each process counts "
                "limits in its own memory until it does")
    return None


def _shown(uri: str) -> str:
    """A storage URI without its password, fit for a log or a health answer."""
    scheme, sep, rest = uri.partition("://")
    if "@" in rest:
        rest = "***@" + rest.rsplit("@", 1)[1]
    return scheme + sep + rest


def _no_retries() -> dict[str, Any]:
    """redis-py retries a failed command with back-off (seconds in all); here a failure
    should reach Flask-Limiter at once, so it can count in memory."""
    try:
        from redis.backoff import NoBackoff
        from redis.retry import Retry
    except ImportError:  # no client: init_limiter says so when the limiter refuses it
        return {}
    return {"retry": Retry(NoBackoff(), 0)}


class _UnlessRootLogs(logging.Handler):
    """Flask's own stderr handler, used only while the root logger has no handler (when
    the host configures logging, Flask-Limiter's messages propagate there instead, once)."""

    def emit(self, record: logging.LogRecord) -> None:
        if not logging.getLogger().handlers:
            default_handler.handle(record)


_LIMITER_LOG = _UnlessRootLogs()


def _show_limiter_log() -> None:
    """Flask-Limiter's own messages (storage lost, storage recovered) reach the host's
    log: its logger has only a null handler, so they would otherwise be dropped."""
    log = logging.getLogger("flask-limiter")
    if _LIMITER_LOG not in log.handlers:
        log.addHandler(_LIMITER_LOG)
    if log.level == logging.NOTSET:
        log.setLevel(logging.INFO)
