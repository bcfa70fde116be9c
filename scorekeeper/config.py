"""Configuration: defaults, the instance folder, environment variables.

Order (later wins): built-in defaults, ``instance/config.py``, environment variables,
``test_config``. With SQLite (one machine) the secret key is generated once and kept in
the instance folder, so cookies survive restarts and no key is ever a constant in the
code. With a database server the app may run on several hosts, and a key made by each
host would make every form posted to another host fail: there a key must be given
(``SCOREKEEPER_SECRET_KEY``, the same on every host), and start-up refuses without one.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

from scorekeeper.secret_key import MADE_NOW
from scorekeeper.store.timeouts import DEFAULTS as TIMEOUT_DEFAULTS
from scorekeeper.store.timeouts import engine_options

ENV_PREFIX = "SCOREKEEPER_"


def instance_path() -> str | None:
    """The instance folder named by ``SCOREKEEPER_INSTANCE_PATH``, if any."""
    path = os.environ.get(ENV_PREFIX + "INSTANCE_PATH")
    return str(Path(path).resolve()) if path else None


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Load every configuration source into ``app.config``."""
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + str(Path(app.instance_path) / "scorekeeper.db"),
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_SAMESITE="Lax",
        MEMBERSHIP_COOKIE="scorekeeper_groups",
        MEMBERSHIP_MAX_AGE=60 * 60 * 24 * 365 * 5,
        JSON_SORT_KEYS=False,
        **LIMIT_DEFAULTS,
        **TIMEOUT_DEFAULTS,
    )
    app.config.from_pyfile("config.py", silent=True)
    env = {
        "DATABASE_URL": "SQLALCHEMY_DATABASE_URI",
        "SECRET_KEY": "SECRET_KEY",
        "PUBLIC_URL": "PUBLIC_URL",
        "TRUSTED_HOSTS": "TRUSTED_HOSTS",
        "PROXIES": "PROXIES",
        "RATELIMIT_STORAGE": "RATELIMIT_STORAGE_URI",
        "RATE_LIMITS": "RATE_LIMITS",
    }
    for name, key in env.items():
        value = os.environ.get(ENV_PREFIX + name)
        if value:
            app.config[key] = value
    if test_config:
        app.config.update(test_config)
    _settle_open_internet(app.config)
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if uri.startswith("postgres://"):  # the old scheme some hosts still hand out
        app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://" + uri[len("postgres://"):]
    elif uri.startswith("postgresql://"):
        app.config["SQLALCHEMY_DATABASE_URI"] = "postgresql+psycopg://" + uri[len("postgresql://"):]
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # A database server may drop a pooled connection (a restart, an idle timeout):
        # test each one as it leaves the pool. A SQLite file has no server to lose, and
        # the test is one more statement in every request.
        options = app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", {})
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, **options}
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql+psycopg"):
        # Bounded waits: connecting, each statement, each lock (store/timeouts.py).
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(app.config)
    if not app.config.get("SECRET_KEY"):
        if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
            raise MissingSecretError(NO_SHARED_SECRET)
        app.config["SECRET_KEY"], app.config[MADE_NOW] = _persisted_secret(
            Path(app.instance_path) / "secret_key")


NO_SHARED_SECRET = (
    "SCOREKEEPER_SECRET_KEY is not set. With a database server the app may run on several "
    "hosts, and each would otherwise make its own key (forms posted to another host would "
    "fail). Set SCOREKEEPER_SECRET_KEY to the same long random value on every host, e.g. "
    "the output of: python3 -c 'import secrets; print(secrets.token_urlsafe(48))'")


class MissingSecretError(RuntimeError):
    """Start-up refused: a database server but no configured secret key."""


# Limits for the open internet (see the README's "Security" section). Bodies over the
# limit are refused with a 413 before they are read; an import may be larger than
# other requests, but small enough that writing it holds the database briefly.
LIMIT_DEFAULTS: dict[str, Any] = {
    "REQUEST_MAX_BYTES": 64 * 1024,  # JSON bodies and page forms
    "IMPORT_MAX_BYTES": 1024 * 1024,  # an export file (the upload form adds 64 KiB)
    "REPLAY_MAX_BYTES": 512 * 1024,  # a replay: up to 5,000 events of about 40 bytes
    "JSON_MAX_DEPTH": 32,  # arrays and objects inside each other
    "PUBLIC_URL": "",  # e.g. https://cards.example.org: links and QR codes use it
    "TRUSTED_HOSTS": None,  # Host headers accepted; from PUBLIC_URL when that is set
    "PROXIES": 0,  # how many proxies in front set X-Forwarded-For/-Proto/-Host
    "RATE_LIMITS": True,  # False (SCOREKEEPER_RATE_LIMITS=off) turns them all off: tests
    "RATELIMIT_STORAGE_URI": "memory://",  # or redis://host:6379 (pip install '.[redis]')
    "RATELIMIT_HEADERS_ENABLED": True,  # 429s carry Retry-After
    # Flask-Limiter's own switches, set for every app (its one limiter object would
    # otherwise keep the first app's choice): a storage that fails never fails a
    # request; each process counts in memory until the storage answers again.
    "RATELIMIT_ENABLED": True,
    "RATELIMIT_SWALLOW_ERRORS": True,
    "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
    "RATELIMIT_GROUPS": "10 per hour",  # new groups per client address
    "RATELIMIT_JOINS": "30 per minute",  # invite links opened per client address
    "RATELIMIT_BEARER_FAILURES": "20 per minute",  # wrong API tokens per client address
}


def _settle_open_internet(config: dict[str, Any]) -> None:
    """Turn the limit settings' environment text into values Flask and its extensions use."""
    config["PROXIES"] = int(config["PROXIES"] or 0)
    enabled = config["RATE_LIMITS"]
    config["RATE_LIMITS"] = (enabled if isinstance(enabled, bool)
                             else str(enabled).lower() not in ("0", "false", "no", "off"))
    public = str(config["PUBLIC_URL"] or "").rstrip("/")
    config["PUBLIC_URL"] = public
    hosts = config["TRUSTED_HOSTS"]
    if isinstance(hosts, str):
        hosts = [h.strip() for h in hosts.split(",") if h.strip()]
    if not hosts and public:
        hosts = [urlsplit(public).hostname or ""]
    config["TRUSTED_HOSTS"] = hosts or None
    # The largest body any request may send; each request gets its own, smaller limit.
    config["MAX_CONTENT_LENGTH"] = config["IMPORT_MAX_BYTES"] + 64 * 1024


def _persisted_secret(path: Path) -> tuple[str, bool]:
    """Read the instance's secret key, creating it (readable by the owner only) once;
    and whether this call made it.

    The key is written to a private temporary file and then linked into place, so
    another worker never reads a half-written (empty) key; an empty file left by a
    crash is replaced rather than used.
    """
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key, False
    made = True
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(secrets.token_urlsafe(48))
    try:
        os.link(tmp, path)  # atomic; fails if another worker got there first
    except FileExistsError:
        made = not path.read_text().strip()
        if made:  # an empty file left by a crash: replace it
            os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_text().strip(), made
