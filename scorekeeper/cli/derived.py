"""``scorekeeper db verify`` and ``scorekeeper db rebuild``: are the derived figures
what the hands give, and if not, put them right (see :mod:`scorekeeper.store.upkeep`).

Both sit in the ``db`` group that Flask-Migrate provides, beside ``upgrade``, and both
are safe on a live database while the app serves.
"""

from __future__ import annotations

import sys

import click
from flask.cli import with_appcontext

from scorekeeper.store.transaction import database
from scorekeeper.store.upkeep import group_ids, rebuild_groups, verify_groups

__all__ = ["rebuild_command", "verify_command"]


def _groups(group: int | None) -> list[int]:
    known = group_ids(database())
    if group is None:
        return known
    if group not in known:
        raise click.BadParameter(f"there is no group {group}", param_hint="--group")
    return [group]


@click.command("verify")
@click.option("--group", type=int, default=None, help="Check this group only.")
@with_appcontext
def verify_command(group: int | None) -> None:
    """Recompute every derived row from the hands and list each difference
    (group, match, table, column, stored vs recomputed); exit 1 if there is any."""
    groups = _groups(group)
    differences = verify_groups(database(), groups)
    for difference in differences:
        click.echo(str(difference))
    click.echo(f"{len(differences)} difference(s) in {len(groups)} group(s).")
    if differences:
        sys.exit(1)


@click.command("rebuild")
@click.option("--group", type=int, default=None, help="Rebuild this group only.")
@with_appcontext
def rebuild_command(group: int | None) -> None:
    """Rewrite every derived row from the hands, one transaction per group."""
    groups = _groups(group)
    wrong = rebuild_groups(database(), groups)
    for group_id, count in wrong.items():
        if count:
            click.echo(f"group {group_id}: {count} value(s) put right")
    click.echo(f"Rebuilt {len(groups)} group(s); {sum(wrong.values())} value(s) were wrong.")
