"""Command line: ``scorekeeper serve`` (``serve.py``, its certificates in
``certificates.py``), export and import, and the database helpers
(``db verify`` and ``db rebuild`` beside Flask-Migrate's ``db upgrade``).

:func:`register` adds them to the app's command line; the ``scorekeeper`` command
(:func:`scorekeeper.main`) is Flask's command line bound to the app factory, so they
and every ``flask`` command (``db upgrade``, ``db check``, …) work under it.
"""

from __future__ import annotations

import sys

import click
from flask import Flask, current_app
from flask.cli import with_appcontext


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
    from scorekeeper.cli.serve import serve
    from scorekeeper.cli.transfer import export_command, import_command

    for command in (serve, export_command, import_command, check_names, secret_key_group):
        app.cli.add_command(command)
    for command in (verify_command, rebuild_command):  # beside Flask-Migrate's upgrade
        database.add_command(command)
