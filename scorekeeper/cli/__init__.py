"""Command line: ``scorekeeper serve``, export and import, and the database helpers
(``db verify`` and ``db rebuild`` beside Flask-Migrate's ``db upgrade``).

:func:`register` adds them to the app's command line; the ``scorekeeper`` command
(:func:`scorekeeper.main`) is Flask's command line bound to the app factory, so they
and every ``flask`` command (``db upgrade``, ``db check``, …) work under it.
"""

from __future__ import annotations

import contextlib
import socket
import sys

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorekeeper import secret_key


def upgrade_database() -> None:
    """Create or upgrade the database to the newest migration, and remember that an
    SQLite file was made (``store/database_file.py``: a lost one is then named, not
    replaced by an empty one).

    The migration run holds the database's upgrade lock (``store/upgrade_lock.py``), so
    hosts started together take turns and the later ones find nothing to do."""
    from flask_migrate import upgrade

    from scorekeeper.store import database_file

    upgrade()
    database_file.mark_created(current_app.config["SQLALCHEMY_DATABASE_URI"])


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def print_qr(url: str) -> None:
    """Show the address as a QR code in the terminal, for phones to scan."""
    import segno

    with contextlib.suppress(UnicodeEncodeError, OSError):  # a terminal that can't draw it
        segno.make(url, error="m").terminal(compact=True)


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--threads", default=8, show_default=True, type=int, help="Worker threads.")
@with_appcontext
def serve(host: str, port: int, threads: int) -> None:
    """Upgrade the database and serve the app with a production WSGI server.

    With ``SCOREKEEPER_PUBLIC_URL`` set the address shown (and its QR code) is that URL;
    ``SCOREKEEPER_PROXIES`` = N makes the app trust N proxies' forwarded headers (see
    ``scorekeeper/web/security.py``); without it waitress drops them. Waitress buffers a
    body before the app sees it, so it is told the largest body the app accepts and
    refuses bigger ones itself.
    """
    from waitress import serve as waitress_serve

    from scorekeeper.store.database_file import start_fault

    fault = start_fault(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if fault:  # one sentence naming the file and what is wrong, no traceback
        raise click.ClickException(f"Scorekeeper will not start: {fault}.")
    upgrade_database()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    secret_key.check_at_start(app, command=True)  # like a server: refuses a wrong key
    url = app.config.get("PUBLIC_URL") or ""
    if url:
        click.echo(f"Scorekeeper is running at {url}/ (port {port} here).")
    else:
        shown = lan_address() if host in ("0.0.0.0", "::") else host
        url = f"http://{shown}:{port}"
        click.echo(f"Scorekeeper is running. Open {url}/ on a phone on the same network.")
    print_qr(url + "/")
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI']}")
    if app.config.get("PROXIES"):
        click.echo(f"Trusting the forwarded headers of {app.config['PROXIES']} proxy(ies).")
    sys.stdout.flush()
    # Waitress drops X-Forwarded-* headers unless told otherwise; with trusted proxies
    # they reach ProxyFix, the one place that reads them (under gunicorn too).
    waitress_serve(app, host=host, port=port, threads=threads, ident="scorekeeper",
                   max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                   clear_untrusted_proxy_headers=not app.config.get("PROXIES"))


@click.command("check-names")
@with_appcontext
def check_names() -> None:
    """List stored names that today's text rules refuse or that clash (exit 1 if any)."""
    from scorekeeper.store.groups import name_problems

    problems = name_problems()
    for problem in problems:
        click.echo(problem)
    click.echo(f"{len(problems)} name problem(s).")
    if problems:
        sys.exit(1)


@click.group("secret-key")
def secret_key_group() -> None:
    """The secret key every host shares (its fingerprint is kept in the database)."""


@secret_key_group.command("adopt")
@with_appcontext
def adopt_secret_key() -> None:
    """Make this host's key (SCOREKEEPER_SECRET_KEY) the one every host must use.

    To change the key on purpose: set the new key on every host, run this once, and
    restart the hosts; a host still holding the old key then refuses to serve. Every
    phone opens its groups' invite links again (their cookies were signed by the old key).
    """
    from scorekeeper.store.keys import adopt

    adopt(current_app.config["SECRET_KEY"])
    click.echo("This key is now the one every host must use; restart the hosts with it.")


def register(app: Flask) -> None:
    """Add the commands to ``app.cli``: ``flask --app scorekeeper serve`` works too, and
    the ``scorekeeper`` group finds them through the app."""
    from flask_migrate.cli import db as database

    from scorekeeper.cli.derived import rebuild_command, verify_command
    from scorekeeper.cli.transfer import export_command, import_command

    for command in (serve, export_command, import_command, check_names, secret_key_group):
        app.cli.add_command(command)
    for command in (verify_command, rebuild_command):  # beside Flask-Migrate's upgrade
        database.add_command(command)
