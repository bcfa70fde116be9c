"""The benchmark commands run and print figures; bad arguments are one line and exit 2.

A smoke run of each, so the benchmarks (not collected as tests themselves) do not rot."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tests.bench import playout, versus
from tests.bench.__main__ import bench
from tests.bench.engine import run_bench
from tests.bench.spectators import bench_spectators
from tests.support.cluster import ROOT


@pytest.mark.parametrize(("args", "words"), [
    (["engine", "--players", "9"], "Last One is for 2 to 6 players; 9 is too many"),
    (["engine", "--game", "crazy-eights", "--players", "1"], "needs at least 2 players"),
    (["engine", "--players", "x"], "'x' is not a valid integer"),
    (["engine", "--games", "0"], "--games"),
    (["engine", "--against", "chess"], "'chess' is not 'openspiel'"),
    (["engine", "--against", "openspiel", "--baseline", "/nowhere"], "--baseline: '/nowhere'"),
    (["cluster", "--phones", "0"], "--phones"),
    (["cluster", "--server", "apache"], "'apache' is not one of"),
    (["replay", "--events", "5001"], "--events"),
])
def test_a_bad_argument_is_one_line_and_exit_2(args, words):
    result = CliRunner().invoke(bench, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], lines


def test_spectators_watch_scorekeeper_serve_on_sqlite(capsys):
    """A few seconds of the spectators' rounds against ``scorekeeper serve`` and the bare
    app on it (they need no PostgreSQL, Redis or nginx): hands recorded, polls timed,
    none failed, every unchanged poll a 304."""
    bench_spectators([("after", ROOT)], spectators=3, every=0.5, hand_every=1.0, seconds=2,
                     rounds=1, workers=1, server="serve", pollers=2, unchanged_seconds=1)
    out = capsys.readouterr().out
    assert "on scorekeeper serve" in out and "own script asks every: after 3 s" in out
    for label in ("after", "bare Flask"):
        row = next(line for line in out.splitlines() if line.startswith(f"| {label} |"))
        cells = [cell.strip() for cell in row.strip("| ").split(" | ")]
        assert int(cells[2]) >= 3 and cells[7] == "0", row  # polls, failures
        assert "not 304" not in cells[9] and int(cells[11].replace(",", "")) > 0, row
    after = next(line for line in out.splitlines() if line.startswith("| after |"))
    assert int(after.split(" | ")[1]) >= 1, after  # hands


def test_serve_spectators_alone_need_no_cluster_parts(monkeypatch):
    monkeypatch.setattr("tests.bench.cluster.missing_parts", lambda: ["nginx"])
    result = CliRunner().invoke(bench, ["cluster", "--spectators-only", "--server", "serve",
                                        "--spectators", "0"])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(bench, ["cluster", "--spectators-only"])
    assert result.exit_code == 1 and "needs nginx" in result.output


def test_engine_bench_prints_json():
    result = CliRunner().invoke(bench, ["engine", "--game", "countdown", "--players", "3",
                                       "--games", "3", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] == 3 and figures["moves"] > 0


def test_engine_bench_reports_every_field() -> None:
    r = run_bench("last-one", 3, 20, seed=5)
    assert set(r) == {"game", "players", "games", "moves", "seconds", "games_per_second",
                      "moves_per_second"}
    assert r["games"] == 20 and r["moves"] > 20


def test_play_first_policy_plays_when_it_can():
    import random

    from scorekeeper.core.engine import parse_position

    g = parse_position("c8 | up 4H | turn 1 | hands 8S,KH/4S,5C,9D")
    moves = g.legal_moves()
    assert {playout.play_first(moves, random.Random(i)).kind for i in range(20)} == {"play"}


def test_play_first_draws_no_random_number_for_a_single_move():
    import random

    rng = random.Random(1)
    state = rng.getstate()
    only = versus.HandInPlay.deal(versus.Sheet.make("last-one"), 2, rng=5).legal_moves()[:1]
    assert playout.play_first(only, rng) is only[0] and rng.getstate() == state


def test_a_baseline_checkout_plays_the_same_hands_as_this_one():
    here = versus.HERE
    sheet = versus.Sheet.make("crazy-eights", versus.sheet_options("crazy-eights"))
    ours = playout.play(versus.HandInPlay, sheet, 2, playout.streams(3, 4))
    assert versus.checkout_games(here, "crazy-eights", 2, 4, 3)[1] == ours


def test_versus_runs_ours_alone_and_tabulates():
    row = versus.compare("crazy-eights", 3, 2, 1, seed=0, pyspiel=None)
    assert row["ours_games_per_second"] > 0 and "games_ratio" not in row
    assert "| crazy-eights | 3 |" in versus.table([row])


def test_versus_against_openspiel_when_installed():
    pyspiel = versus.load_pyspiel()
    if pyspiel is None:
        pytest.skip("OpenSpiel (pip install open-spiel) is not installed")
    row = versus.compare("crazy-eights", 4, 2, 1, seed=0, pyspiel=pyspiel)
    assert row["openspiel_games_per_second"] > 0 and row["games_ratio"] > 0


def test_versus_times_a_baseline_checkout():
    row = versus.compare("last-one", 3, 2, 1, seed=0, pyspiel=None,
                         baseline=versus.HERE)  # this checkout as its own baseline
    assert row["before_games_per_second"] > 0 and row["speedup"] > 0
    assert row["after_games_per_second"] > 0
    assert "| Before games/s | After games/s | Speed-up |" in versus.table([row])


@pytest.mark.parametrize(("players", "uniform"), [(2, True), (4, True), (7, False)])
def test_a_uniform_pick_of_openspiels_chance_outcomes_is_the_same_draw_with_one_deck(
        players, uniform):
    import random

    pyspiel = versus.load_pyspiel()
    if pyspiel is None:
        pytest.skip("OpenSpiel (pip install open-spiel) is not installed")
    game, rng, odds = versus.openspiel_game(pyspiel, players), random.Random(players), set()
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sorted(a for a, _ in outcomes) == sorted(state.legal_actions())
                odds.add(len({round(p * len(outcomes), 9) for _, p in outcomes}) == 1)
            state.apply_action(rng.choice(state.legal_actions()))
    assert odds == ({True} if uniform else {True, False})  # two decks: copies weigh
    row = versus.compare("crazy-eights", players, 2, 1, seed=0, pyspiel=pyspiel)
    assert ("uniform_games_ratio" in row) is uniform
    assert ("uniform chance" in versus.table([row])) is uniform


def test_versus_times_by_cpu_unless_asked_for_the_wall_clock():
    assert versus.compare("countdown", 3, 2, 1, seed=0, pyspiel=None)["clock"] == "cpu"
    row = versus.compare("countdown", 3, 2, 1, seed=0, pyspiel=None, clock="wall")
    assert row["clock"] == "wall" and row["ours_games_per_second"] > 0


def test_an_unknown_clock_is_one_line_and_exit_2():
    result = CliRunner().invoke(bench, ["engine", "--against", "openspiel", "--clock", "sun"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        line for line in result.output.strip().splitlines() if "'sun' is not one of" in line]


@pytest.mark.parametrize(("args", "words"), [
    (["import", "--hands", "0"], "--hands"),
    (["import", "--hands", "many"], "'many'"),
    (["import", "--seed", "x"], "--seed"),
])
def test_import_bench_bad_argument_is_one_line_and_exit_2(args, words):
    result = CliRunner().invoke(bench, args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and words in lines[0], lines


def test_import_bench_prints_validation_write_and_rate(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))  # the bench sets it
    result = CliRunner().invoke(bench, ["import", "--hands", "30", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "hands in" in result.output and "validation" in result.output
    assert "write" in result.output and "hands/s" in result.output
    hands = int(result.output.split()[0])
    assert 30 <= hands < 30 + 13  # whole matches of at most 12 hands


def test_web_bench_runs_every_request_it_prints(monkeypatch, tmp_path):
    """A smoke run: each timed request must succeed (a save the app refuses stops the bench)."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))
    result = CliRunner().invoke(bench, ["web", "--matches", "10", "--repeat", "3"])
    assert result.exit_code == 0, result.output
    assert "| POST a hand, JSON API (hand 1) |" in result.output
    assert "| player statistics at 10 matches |" in result.output
    assert "| CPU ms | CPU vs bare |" in result.output


def test_history_bench_times_each_page_at_both_sizes(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))  # the bench sets it
    result = CliRunner().invoke(bench, ["history", "--matches", "11"])
    assert result.exit_code == 0, result.output
    for size in (10, 11):
        for page in ("history", "history, one player", "match record", "player page"):
            assert f"{size:>7} matches  {page:<20}" in result.output, (size, page)


def test_replay_bench_times_the_core_and_the_route(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path))  # the bench sets it
    result = CliRunner().invoke(bench, ["replay", "--events", "300", "--repeat", "2"])
    assert result.exit_code == 0, result.output
    for row in ("| core (300 events) |", "| route (300 events) |", "| bare route |"):
        assert row in result.output


def test_the_replay_benchs_log_is_one_long_legal_hand():
    from scorekeeper.core.engine.replay import run
    from tests.bench.replay import long_request

    request = long_request(2000, seed=0)
    answer = run(request)
    assert answer["ok"] and len(answer["steps"]) == len(request["events"]) == 2000
    assert not answer["state"]["over"]
    assert {kind for event in request["events"] for kind in event} >= {"player", "play", "draw"}
