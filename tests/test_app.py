"""The app factory: configuration sources, the persisted secret key, error pages."""

from __future__ import annotations

import stat

import pytest
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.store.extensions import db
from scorekeeper.store.models import Group


@pytest.fixture
def instance(tmp_path, monkeypatch):
    """An empty instance folder named by the environment, other variables cleared."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    return folder


def test_defaults_live_in_the_instance_folder(instance):
    app = create_app()
    assert app.instance_path == str(instance.resolve())
    assert instance.is_dir()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'scorekeeper.db'}"
    assert not app.testing


def test_instance_config_file(instance):
    instance.mkdir()
    (instance / "config.py").write_text(
        "SQLALCHEMY_DATABASE_URI = 'sqlite:///from-instance.db'\nSECRET_KEY = 'from-file'\n"
        "MEMBERSHIP_MAX_AGE = 60\n")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///from-instance.db"
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["MEMBERSHIP_MAX_AGE"] == 60
    assert not (instance / "secret_key").exists()


def test_environment_beats_the_instance_file(instance, monkeypatch):
    instance.mkdir()
    (instance / "config.py").write_text("SECRET_KEY = 'from-file'\n")
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "sqlite:///from-env.db")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///from-env.db"
    assert app.config["SECRET_KEY"] == "from-env"


def test_test_config_beats_the_environment(instance, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    app = create_app({"SECRET_KEY": "from-test", "TESTING": True})
    assert app.config["SECRET_KEY"] == "from-test"
    assert app.testing


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db:5432/sk", "postgresql+psycopg://u:p@db:5432/sk"),
        ("postgresql://u@db/sk", "postgresql+psycopg://u@db/sk"),
        ("postgresql+psycopg://u@db/sk", "postgresql+psycopg://u@db/sk"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url_schemes(instance, monkeypatch, given, used):
    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", given)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "shared by every host")
    assert create_app().config["SQLALCHEMY_DATABASE_URI"] == used


def test_secret_key_is_generated_persisted_and_reused(instance):
    first = create_app().config["SECRET_KEY"]
    stored = instance / "secret_key"
    assert stored.read_text().strip() == first
    assert len(first) >= 32
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600  # readable by the owner only
    assert create_app().config["SECRET_KEY"] == first  # the second start reuses it


def test_secret_key_is_not_a_constant(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    keys = set()
    for name in ("one", "two"):
        monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / name))
        keys.add(create_app().config["SECRET_KEY"])
    assert len(keys) == 2


def test_empty_secret_key_file_is_replaced(instance):
    instance.mkdir()
    (instance / "secret_key").write_text("")
    key = create_app().config["SECRET_KEY"]
    assert key
    assert create_app().config["SECRET_KEY"] == key


# ---------------------------------------------------------------- error pages


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/", "/api/v1/score/x"])
def test_api_404_is_json(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.is_json
    assert response.get_json()["error"]["status"] == 404


def test_api_405_is_json_with_allow(client):
    response = client.delete("/api/v1/score")
    assert response.status_code == 405
    assert response.get_json()["error"]["status"] == 405
    assert "POST" in response.headers["Allow"]


def test_friendly_404_page(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "404" in page and "Back to the start" in page


def _add_failing_routes(app):
    def explode():
        db.session.add(Group(name="half-written"))
        db.session.flush()  # the row is in the transaction when the error strikes
        raise RuntimeError("boom")

    app.add_url_rule("/test-only/explode", "test_explode", explode)
    app.add_url_rule("/api/v1/test-only/explode", "test_api_explode", explode)


def _groups(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Group))


def test_500_rolls_back_and_shows_the_friendly_page(app):
    _add_failing_routes(app)
    response = app.test_client().get("/test-only/explode")
    assert response.status_code == 500
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "nothing was saved" in page and "boom" not in page
    assert _groups(app) == 0


def test_500_under_the_api_is_json(app):
    _add_failing_routes(app)
    response = app.test_client().get("/api/v1/test-only/explode")
    assert response.status_code == 500
    assert response.get_json()["error"]["status"] == 500
    assert _groups(app) == 0


def test_workers_starting_together_share_one_key(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from scorekeeper.config import _persisted_secret

    path = tmp_path / "secret_key"
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: _persisted_secret(path), range(32)))
    assert {key for key, _ in answers} == {path.read_text()}
    assert sum(made for _, made in answers) == 1  # one worker made it, the rest read it
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary left


def test_a_database_server_without_a_secret_key_refuses_to_start(instance, monkeypatch):
    """Each host would make its own key, and forms posted to another host would fail:
    start-up refuses, naming the setting, and writes no key file."""
    from scorekeeper.config import MissingSecretError

    monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", "postgresql://u@db/sk")
    with pytest.raises(MissingSecretError, match="SCOREKEEPER_SECRET_KEY"):
        create_app()
    assert not (instance / "secret_key").exists()
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "shared by every host")
    assert create_app().config["SECRET_KEY"] == "shared by every host"
