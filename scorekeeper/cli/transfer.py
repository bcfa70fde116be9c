"""Command line for match history: ``export`` and ``import``.

``scorekeeper export --group 1 [--match 7] [--format json|csv] [-o file]`` writes a
group (or one match) the way the pages' download links do; ``scorekeeper import
--group 2 file.json`` reads it back, all or nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from flask.cli import with_appcontext

from scorekeeper.store.groups import GroupView, group_by_id
from scorekeeper.store.transfer import (
    TransferError,
    export_document,
    import_document,
    load_matches,
    parse_json,
    to_csv,
)


def _group(group_id: int) -> GroupView:
    group = group_by_id(group_id)
    if group is None:
        raise click.ClickException(f"there is no group {group_id}")
    return group


@click.command("export")
@click.option("--group", "group_id", required=True, type=int, help="The group's id.")
@click.option("--match", "match_id", type=int, help="Export only this match.")
@click.option("--format", "fmt", default="json", show_default=True,
              type=click.Choice(["json", "csv"]))
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write to this file instead of standard output.")
@with_appcontext
def export_command(group_id: int, match_id: int | None, fmt: str, output: str | None) -> None:
    """Export a group's matches (or one match) as JSON or CSV."""
    group = _group(group_id)
    matches = load_matches(group, match_id)
    if match_id is not None and not matches:
        raise click.ClickException(f"group {group_id} has no match {match_id}")
    text = (json.dumps(export_document(group, matches, whole=match_id is None),
                       ensure_ascii=False, indent=1)
            if fmt == "json" else to_csv(matches))
    if output:
        Path(output).write_text(text, encoding="utf-8", newline="")
        click.echo(f"Wrote {len(matches)} match(es) to {output}", err=True)
    else:
        sys.stdout.write(text)


@click.command("import")
@click.option("--group", "group_id", required=True, type=int, help="The target group's id.")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(group_id: int, file) -> None:
    """Import a JSON export into a group: every match or, on any problem, none."""
    group = _group(group_id)
    try:
        report = import_document(group, parse_json(file.read()))
    except TransferError as exc:
        for problem in exc.problems:
            click.echo(f"  {problem}", err=True)
        raise click.ClickException("nothing was imported") from None
    created = ", ".join(report.players_created) or "none"
    click.echo(f"Imported {report.matches} match(es), {report.hands} hand(s); "
               f"new players: {created}")
