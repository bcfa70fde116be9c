"""One secret key for every host: checked as each host starts, and by ``/readyz``.

A host whose key differs from the one the database knows (``store/keys.py`` keeps its
fingerprint) refuses to start with :class:`SecretKeyMismatch`, whose message says what
to do. A host that cannot check as it starts (the database does not answer, or is not
upgraded yet) starts, and ``/readyz`` checks again each time it is asked; a difference
found then is logged, and the host answers every request but ``/healthz`` with a 503
until it is restarted with the right key (see ``health.py``).

Commands (``scorekeeper db upgrade``, ``export``, ``secret-key adopt``…) are not
checked as the app is built: they sign nothing, and the operator must be able to run
``secret-key adopt`` and the migrations whatever the key. ``scorekeeper serve`` checks
after its upgrade, like a server. With SQLite and no configured key, the instance makes
a key once (``instance/secret_key``); if that file was lost and made anew, the old key
is gone for good, so the new one is adopted (and that is logged) instead of refused.
"""

from __future__ import annotations

import os

from flask import Flask
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.store import keys, transaction

_STATE = "scorekeeper.secret_key"  # app.extensions: why the key is not right, or None
MADE_NOW = "SECRET_KEY_MADE_NOW"  # set by config when the instance key was just created


class SecretKeyMismatch(RuntimeError):
    """Start-up refused: this host's secret key is not the one the other hosts use."""


# What a host with the wrong key says, and what the operator can do about it.
MISMATCH = ("this host's secret key differs from the one the database was first used "
            "with (its fingerprint is stored there), so its cookies and forms would fail "
            "on every other host. Give every host the same SCOREKEEPER_SECRET_KEY; to "
            "change the key on purpose, set the new one everywhere and run "
            "'scorekeeper secret-key adopt' once")


def check_key(app: Flask) -> str | None:
    """Compare the app's key with the stored fingerprint (storing it on the first start).

    Returns why the key is not known to be right, or None when it is; remembers a
    difference, which :func:`problem` then reports without asking the database.
    """
    try:
        with app.app_context():
            verdict = keys.settle(app.config["SECRET_KEY"])
            if verdict == "differs" and app.config.get(MADE_NOW):
                app.logger.warning("the instance's secret key was made anew (the old "
                                   "instance/secret_key is gone): adopting it; phones "
                                   "open their groups' invite links again")
                keys.adopt(app.config["SECRET_KEY"])
                verdict = "same"
    except SQLAlchemyError as exc:
        return f"not checked yet: the database does not answer ({type(exc).__name__})"
    if verdict == "no table":
        return "not checked yet: the database is not upgraded (scorekeeper db upgrade)"
    if verdict == "differs":
        if app.extensions.get(_STATE) is None:
            app.logger.error("refusing to serve: %s", MISMATCH)
        app.extensions[_STATE] = MISMATCH
        return MISMATCH
    app.extensions[_STATE] = None
    return None


def problem(app: Flask) -> str | None:
    """The key difference found so far, if any (no database query)."""
    found = app.extensions.get(_STATE)
    return str(found) if found else None


def check_at_start(app: Flask, *, command: bool = False) -> None:
    """Refuse to start a host whose key differs; leave commands alone unless ``command``
    (``serve``) asks. Flask's command line sets ``FLASK_RUN_FROM_CLI``."""
    if os.environ.get("FLASK_RUN_FROM_CLI") and not command:
        return
    found = check_key(app)
    with app.app_context():
        # No connection may outlive the check in the pool: gunicorn --preload builds the
        # app in the master and forks, and workers sharing one socket to the database
        # would garble each other's conversations.
        transaction.drop_connections()
    if problem(app):
        raise SecretKeyMismatch(f"Scorekeeper will not start: {problem(app)}.")
    if found:
        app.logger.warning("secret key %s; /readyz checks again", found)
