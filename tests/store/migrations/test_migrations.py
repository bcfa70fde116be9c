"""Migrations build the schema on a fresh SQLite file and a fresh PostgreSQL database,
and the models match them (the ``flask db check`` guard fails when they drift)."""

from __future__ import annotations

import itertools

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Integer, MetaData, inspect, text

from scorekeeper.store.extensions import db
from tests.support.figures import assert_figures_match, imported, stored

_numbers = itertools.count()


def _head(app) -> str:
    config = app.extensions["migrate"].migrate.get_config()
    return ScriptDirectory.from_config(config).get_current_head()


def _diffs(metadata: MetaData) -> list:
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(context, metadata)


def test_upgrade_creates_the_schema(fresh_app):
    result = fresh_app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with fresh_app.app_context():
        tables = set(inspect(db.engine).get_table_names())
        assert set(db.metadata.tables) | {"alembic_version"} <= tables
        assert {"group", "player", "match", "seat", "hand", "hand_entry", "ruling"} <= tables
        version = db.session.scalar(text("SELECT version_num FROM alembic_version"))
        assert version == _head(fresh_app)


def test_models_match_the_migrations(fresh_app):
    with fresh_app.app_context():
        flask_migrate.upgrade()
        assert _diffs(db.metadata) == []
        flask_migrate.check()  # exits 1 on drift; returning means no drift
    result = fresh_app.test_cli_runner().invoke(args=["db", "check"])
    assert result.exit_code == 0, result.output


def test_the_check_fails_when_models_drift(fresh_app):
    with fresh_app.app_context():
        flask_migrate.upgrade()
        drifted = MetaData(naming_convention=db.metadata.naming_convention)
        for table in db.metadata.sorted_tables:
            table.to_metadata(drifted)
        drifted.tables["player"].append_column(Column("nickname", Integer))
        diffs = _diffs(drifted)
        assert [d[0] for d in diffs] == ["add_column"]
        assert diffs[0][3].name == "nickname"


def test_the_check_fails_when_the_database_drifts(fresh_app):
    with fresh_app.app_context():
        flask_migrate.upgrade()
        with db.engine.begin() as conn:
            conn.execute(text("DROP INDEX ix_match_status"))
        assert _diffs(db.metadata)
        with pytest.raises(SystemExit) as info:
            flask_migrate.check()
        assert info.value.code == 1


def test_downgrade_to_base_and_back(fresh_app):
    with fresh_app.app_context():
        flask_migrate.upgrade()
        flask_migrate.downgrade(revision="base")
        assert set(inspect(db.engine).get_table_names()) <= {"alembic_version"}
        flask_migrate.upgrade()
        assert _diffs(db.metadata) == []


def test_winners_text_becomes_seat_flags_and_back(fresh_app):
    """The winners migration converts stored rows: ``"0 2"`` on a match becomes the
    ``winner`` flag on seats 0 and 2, and the downgrade writes the text back."""
    rows = [
        "INSERT INTO \"group\" (id, name, invite_token, created_at) "
        "VALUES (1, 'G', 't', '2026-01-01')",
        *(f"INSERT INTO player (id, group_id, name, colour, hidden, created_at) "
          f"VALUES ({p}, 1, 'P{p}', '#000000', false, '2026-01-01')" for p in (1, 2, 3)),
        *(f"INSERT INTO match (id, group_id, game, sheet_json, first_dealer, view_token, "
          f"created_at, status, winners, hand_count, version) VALUES ({m}, 1, 'last-one', "
          f"'{{}}', 0, 'v{m}', '2026-01-01', '{status}', '{won}', 3, 1)"
          for m, status, won in ((1, "finished", "0 2"), (2, "active", ""))),
        *(f"INSERT INTO seat (id, match_id, position, player_id) VALUES ({m * 10 + s}, {m}, "
          f"{s}, {s + 1})" for m in (1, 2) for s in range(3)),
    ]
    flags = "SELECT match_id, position FROM seat WHERE winner ORDER BY match_id, position"
    with fresh_app.app_context():
        flask_migrate.upgrade(revision="ceab98e32aa4")
        with db.engine.begin() as conn:
            for row in rows:
                conn.execute(text(row))
        flask_migrate.upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(text(flags)).all() == [(1, 0), (1, 2)]
        flask_migrate.downgrade(revision="ceab98e32aa4")
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT id, winners FROM match ORDER BY id")).all() == [
                (1, "0 2"), (2, "")]


def test_the_seat_figures_migration_backfills_existing_matches(fresh_app):
    """Matches stored before the figures existed get them from their hands."""

    with fresh_app.app_context():
        flask_migrate.upgrade()
        group = imported(5)
        before = stored(group)
        assert before
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="ceab98e32aa4")
        flask_migrate.upgrade()
        db.session.remove()
        group = db.session.get(type(group), group.id)
        assert stored(group) == before
        assert_figures_match(group)


def test_the_running_state_migration_backfills_existing_matches(fresh_app):
    """Matches stored before the running state existed get the state a replay gives."""
    from scorekeeper.store.models import Group, Match
    from tests.support.derived import assert_derived_rows_match_hands

    with fresh_app.app_context():
        flask_migrate.upgrade()
        group = imported(5)
        before = dict(db.session.execute(db.select(Match.id, Match.running_json)
                                         .where(Match.group_id == group.id)).all())
        assert before and all(before.values())
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="e7a3c91f4b28")
        flask_migrate.upgrade()
        db.session.remove()
        after = dict(db.session.execute(db.select(Match.id, Match.running_json)).all())
        assert after == before
        assert db.session.get_one(Group, group.id).matches
        assert_derived_rows_match_hands(group.id)


def test_the_player_totals_migration_backfills_from_the_seat_figures(fresh_app):
    """Groups stored before the totals existed get them summed from their seat figures,
    including matches edited, reopened and finished since their import."""
    from scorekeeper.store.records import delete_last_hand
    from scorekeeper.store.transfer import load_matches
    from tests.support.derived import assert_derived_rows_match_hands, stored_rows

    with fresh_app.app_context():
        flask_migrate.upgrade()
        group = imported(9)
        for record in load_matches(group)[:5]:
            delete_last_hand(record.match, record.hands)
        db.session.commit()
        before = stored_rows(group.id)
        assert before["player_totals"] and before["player_falls"] and before["player_rivals"]
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="b8d2f4a61c37")
        with db.engine.connect() as conn:
            assert "player_totals" not in inspect(conn).get_table_names()
        flask_migrate.upgrade()
        db.session.remove()
        assert stored_rows(group.id) == before
        assert_derived_rows_match_hands(group.id)


def test_the_recent_hands_migration_fills_every_running_state(fresh_app):
    """States stored before they kept the last hands get them from the hands, as a
    replay would give them; going back takes them out again."""
    from scorekeeper.store.models import Group, Match
    from tests.support.derived import assert_derived_rows_match_hands

    with fresh_app.app_context():
        flask_migrate.upgrade()
        group = imported(7)
        before = dict(db.session.execute(db.select(Match.id, Match.running_json)
                                         .where(Match.group_id == group.id)).all())
        assert all('"recent":' in state for state in before.values())
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="b7d2e4f6a813")
        with db.engine.connect() as conn:
            states = conn.execute(text("SELECT running_json FROM match")).scalars().all()
        assert states and not any('"recent":' in state for state in states)
        flask_migrate.upgrade()
        db.session.remove()
        after = dict(db.session.execute(db.select(Match.id, Match.running_json)).all())
        assert after == before
        assert db.session.get_one(Group, group.id).matches
        assert_derived_rows_match_hands(group.id)


def test_concurrent_upgrades_on_an_empty_database_all_succeed(fresh_app, tmp_path):
    """Three hosts starting at once each run the upgrade: the upgrade lock makes them
    take turns, and the later ones find nothing left to do."""
    import os
    import subprocess

    from tests.support.serve import SCOREKEEPER, STARTED

    url = fresh_app.config["SQLALCHEMY_DATABASE_URI"]
    runs = []
    for host in range(3):
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        env |= {"SCOREKEEPER_DATABASE_URL": url, "SCOREKEEPER_SECRET_KEY": "shared",
                "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / f"host{host}")}
        runs.append(subprocess.Popen([str(SCOREKEEPER), "db", "upgrade"], env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True))
    outputs = [run.communicate(timeout=2 * STARTED)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], "\n".join(outputs)
    with fresh_app.app_context():
        assert db.session.scalar(text("SELECT version_num FROM alembic_version")) == \
            _head(fresh_app)
        assert db.session.scalar(text("SELECT count(*) FROM alembic_version")) == 1
        assert _diffs(db.metadata) == []


def test_the_hand_records_migration_rates_every_group_again(fresh_app):
    """Ratings stored with the one top hand get the best and worst hands from the
    hands; going back gives each step its top hand (the most points in one hand)."""
    from tests.support.derived import assert_derived_rows_match_hands, stored_rows

    with fresh_app.app_context():
        flask_migrate.upgrade()
        group = imported(6)
        before = stored_rows(group.id)
        assert any(dict(row)["worst_hand"] for row in before["rating"])
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="f3b9d1c7a5e2")
        with db.engine.connect() as conn:
            steps = conn.execute(text(
                "SELECT s.top_hand, (SELECT MAX(e.points) FROM hand_entry e JOIN hand h "
                "ON h.id = e.hand_id WHERE h.match_id = s.match_id AND e.seat = s.seat) "
                "FROM rating_step s")).all()
        assert steps and all(kept == (most or 0) for kept, most in steps)
        assert any(kept for kept, _ in steps)
        flask_migrate.upgrade()
        db.session.remove()
        assert stored_rows(group.id) == before
        assert_derived_rows_match_hands(group.id)


def test_the_hands_keep_their_dealers_and_points_across_the_nullable_migration(fresh_app):
    """The revision that lets a hand's dealer and its entries' points be NULL within a
    write converts nothing: the stored figures are the same after a downgrade (where
    they are required again) and an upgrade, and every hand still has them."""
    from tests.support.derived import assert_derived_rows_match_hands

    figures = ("SELECT h.match_id, h.number, h.dealer, e.seat, e.points FROM hand h "
               "JOIN hand_entry e ON e.hand_id = h.id ORDER BY 1, 2, 4")
    with fresh_app.app_context():
        flask_migrate.upgrade()
        group_id = imported(6).id
        before = db.session.execute(text(figures)).all()
        assert before and all(row.dealer is not None and row.points is not None
                              for row in before)
        db.session.remove()  # no open transaction may hold a lock on the tables
        flask_migrate.downgrade(revision="7c1f5a9e3b20")
        with db.engine.connect() as conn:
            columns = {c["name"]: c["nullable"] for c in inspect(conn).get_columns("hand")}
            assert columns["dealer"] is False
            assert conn.execute(text(figures)).all() == before
        flask_migrate.upgrade()
        db.session.remove()
        assert db.session.execute(text(figures)).all() == before
        assert_derived_rows_match_hands(group_id)
