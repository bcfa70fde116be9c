"""The derived rows (listing columns, running state, winners, seat figures, player
totals) are always what the stored hands give, as ``scorekeeper db verify`` checks it:
after any sequence of writes, with a corrupted row named and then repaired by ``db
rebuild``, and while another thread records hands (both databases)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

import pytest
from sqlalchemy import select, update

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import GAMES, Sheet
from scorekeeper.store import projection
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView, match_hand
from scorekeeper.store.models import (
    Group,
    Hand,
    HandEntry,
    Match,
    Player,
    PlayerFalls,
    PlayerRivals,
    PlayerTotals,
    Rating,
    RatingStep,
    Seat,
    SeatFigureRow,
)
from scorekeeper.store.projection import DERIVED_FIGURES
from scorekeeper.store.projection.states import state_of
from scorekeeper.store.reading import current_standings, match_sheet
from scorekeeper.store.records import create_match, delete_last_hand, edit_hand, record_hand
from scorekeeper.store.transfer import import_document
from tests.support.derived import assert_derived_rows_match_hands, differences
from tests.support.documents import random_document, random_match
from tests.support.figures import match_views
from tests.support.views import match_view

LOW = parse_cards("2C 2D 2H 2S 3C 3D 3H")
EIGHTS = parse_cards("8C 8D 8H 8S")


def next_hand(match: MatchView, rng: random.Random) -> tuple[int, list[list]]:
    """A complete next hand: someone still in goes out, everyone else still in holds a
    low card (an eight now and then, so some are caught with one)."""
    in_play = current_standings(match).in_play
    out = rng.choice([s for s, playing in enumerate(in_play) if playing])
    return out, [[EIGHTS[s] if s < len(EIGHTS) and rng.random() < 0.2 else LOW[s]]
                 if playing and s != out else [] for s, playing in enumerate(in_play)]


def edited(match: MatchView, rng: random.Random) -> None:
    """Edit a random hand: the same hand with low cards, or blocked (nobody out)."""
    number = rng.randint(1, match.hand_count)
    hand = match_hand(match, number)
    assert hand is not None
    held = [[] for _ in match.seats]
    for entry in hand.entries:
        held[entry.seat] = parse_cards(entry.cards)
    out = hand.out_seat
    if rng.random() < 0.5:
        held = [[LOW[s]] if cards or s == out else [] for s, cards in enumerate(held)]
        out = None
    match = edit_hand(match, number, out, held, hand.hand_size).match


def new_match(group: Group, rng: random.Random) -> None:
    players = rng.sample(list(group.players), rng.randint(2, min(5, len(group.players))))
    create_match(group, Sheet.make(rng.choice(list(GAMES)), {}), players, 0)


def rematch(group: Group, match: MatchView) -> None:
    players = [db.session.get_one(Player, seat.player.id) for seat in match.seats]
    create_match(group, match_sheet(match), players, (match.first_dealer + 1) % len(players))


def one_write(group: Group, rng: random.Random) -> str | None:
    """One random write to the group; its name, or None when it did not apply."""
    match = rng.choice(match_views(group))
    action = rng.choice(["record"] * 4 + ["edit", "delete", "import", "new", "rematch"])
    if action == "record" and match.status == "active":  # alike or not, each hand is meant
        match = record_hand(match, match.hand_count + 1, *next_hand(match, rng),
                            same_as_confirmed=True).match
    elif action == "edit" and match.hand_count:
        edited(match, rng)
    elif action == "delete" and match.hand_count:
        match = delete_last_hand(match).match
    elif action == "import":
        import_document(group, random_document(rng, 2))
    elif action == "new":
        new_match(group, rng)
    elif action == "rematch":
        rematch(group, match)
    else:
        return None
    return action


# Seed 1 does every kind of write (asserted below); 2 and 3 where the slow tests run.
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow),
                                  pytest.param(3, marks=pytest.mark.slow)])
def test_any_sequence_of_writes_leaves_nothing_for_verify_to_find(app, seed):
    rng = random.Random(seed)
    with app.app_context():
        group = Group(name=f"Mixed {seed}")
        db.session.add(group)
        db.session.commit()
        import_document(group, random_document(rng, 4))
        assert_derived_rows_match_hands(group.id)
        done: dict[str, int] = {}
        for _ in range(60):
            try:
                action = one_write(group, rng)
            except InputError:  # a hand this game refuses: nothing was stored
                db.session.rollback()
                action = None
            if action is not None:
                done[action] = done.get(action, 0) + 1
                db.session.expire_all()  # the next write reads what is stored
                assert_derived_rows_match_hands(group.id)
        assert set(done) == {"record", "edit", "delete", "import", "new", "rematch"}, done


# One wrong value in each derived table: the table and column verify must name.
CORRUPTIONS: dict[str, tuple[str, Callable[[int, int], object]]] = {
    "match": ("hand_count", lambda match, player: update(Match).where(Match.id == match)
              .values(hand_count=Match.hand_count + 1)),
    "seat": ("winner", lambda match, player: update(Seat).where(
        Seat.match_id == match, Seat.position == 0).values(winner=~Seat.winner)),
    "seat_figures": ("points", lambda match, player: update(SeatFigureRow).where(
        SeatFigureRow.match_id == match, SeatFigureRow.seat == 0)
        .values(points=SeatFigureRow.points + 7)),
    "player_totals": ("won", lambda match, player: update(PlayerTotals).where(
        PlayerTotals.player_id == player).values(won=PlayerTotals.won + 1)),
    "player_falls": ("times", lambda match, player: update(PlayerFalls).where(
        PlayerFalls.player_id == player).values(times=PlayerFalls.times + 1)),
    "player_rivals": ("together", lambda match, player: update(PlayerRivals).where(
        PlayerRivals.player_id == player).values(together=PlayerRivals.together + 2)),
    "rating_step": ("mu", lambda match, player: update(RatingStep).where(
        RatingStep.match_id == match, RatingStep.player_id == player)
        .values(mu=RatingStep.mu + 0.5)),
    "rating": ("wins", lambda match, player: update(Rating).where(
        Rating.player_id == player).values(wins=Rating.wins + 1)),
    "hand": ("dealer", lambda match, player: update(Hand).where(
        Hand.match_id == match, Hand.number == 2).values(dealer=Hand.dealer + 1)),
    "hand_entry": ("points", lambda match, player: update(HandEntry).where(
        HandEntry.seat == 1, HandEntry.hand_id == select(Hand.id).where(
            Hand.match_id == match, Hand.number == 1).scalar_subquery())
        .values(points=HandEntry.points + 3)),
}


# One wrong value in each column of the hand records (the best and worst hand of a
# match's seat, of a player's matches and which match): each must be named too.
HAND_CORRUPTIONS: dict[tuple[str, str], Callable[[int, int], object]] = {
    ("rating_step", "best_hand"): lambda match, player: update(RatingStep).where(
        RatingStep.match_id == match, RatingStep.player_id == player)
        .values(best_hand=RatingStep.best_hand + 3),
    ("rating_step", "worst_hand"): lambda match, player: update(RatingStep).where(
        RatingStep.match_id == match, RatingStep.player_id == player)
        .values(worst_hand=RatingStep.worst_hand + 3),
    ("rating", "best_hand"): lambda match, player: update(Rating).where(
        Rating.player_id == player).values(best_hand=Rating.best_hand + 3),
    ("rating", "best_hand_match_id"): lambda match, player: update(Rating).where(
        Rating.player_id == player).values(best_hand_match_id=Rating.best_hand_match_id + 1),
    ("rating", "worst_hand"): lambda match, player: update(Rating).where(
        Rating.player_id == player).values(worst_hand=Rating.worst_hand + 3),
    ("rating", "worst_hand_match_id"): lambda match, player: update(Rating).where(
        Rating.player_id == player).values(worst_hand_match_id=Rating.worst_hand_match_id + 1),
}


def test_every_derived_table_has_a_corruption_test():
    assert {kept.table for figure in DERIVED_FIGURES for kept in figure.tables} == set(CORRUPTIONS)


def test_every_hand_record_column_has_a_corruption_test():
    columns = {(kept.table, column) for figure in DERIVED_FIGURES for kept in figure.tables
               for column in kept.columns if column.startswith(("best_hand", "worst_hand"))
               and kept.table.startswith("rating")}
    assert columns == set(HAND_CORRUPTIONS)


def _corrupted(group: Group) -> tuple[int, int]:
    """A finished Last One match with a fall, and a player of it who fell in it."""
    for match in match_views(group):
        falls = db.session.scalars(db.select(SeatFigureRow).where(
            SeatFigureRow.match_id == match.id, SeatFigureRow.fell.is_not(None),
            SeatFigureRow.finished)).all()
        if falls:
            return match.id, falls[0].player_id
    raise AssertionError("no finished match with a fall")


@pytest.mark.corrupts_derived
@pytest.mark.parametrize("table", sorted(CORRUPTIONS))
def test_verify_names_a_corrupted_row_and_rebuild_mends_it(app, runner, table):
    column, corrupt = CORRUPTIONS[table]
    _verify_names_and_rebuild_mends(app, runner, table, column, corrupt)


# A hand's figures the projection never filled in (the writer inserts them NULL):
# named by ``db verify`` like a wrong value, and filled in by ``db rebuild``.
UNFILLED: dict[str, tuple[str, Callable[[int, int], object]]] = {
    "hand": ("dealer", lambda match, player: update(Hand).where(
        Hand.match_id == match, Hand.number == 2).values(dealer=None)),
    "hand_entry": ("points", lambda match, player: update(HandEntry).where(
        HandEntry.seat == 0, HandEntry.hand_id == select(Hand.id).where(
            Hand.match_id == match, Hand.number == 1).scalar_subquery())
        .values(points=None)),
}


@pytest.mark.corrupts_derived
@pytest.mark.parametrize("table", sorted(UNFILLED))
def test_verify_names_a_hand_figure_left_empty_and_rebuild_fills_it(app, runner, table):
    column, corrupt = UNFILLED[table]
    _verify_names_and_rebuild_mends(app, runner, table, column, corrupt)


@pytest.mark.corrupts_derived
@pytest.mark.parametrize(("table", "column"), sorted(HAND_CORRUPTIONS))
def test_verify_names_a_corrupted_hand_record_and_rebuild_mends_it(app, runner, table, column):
    _verify_names_and_rebuild_mends(app, runner, table, column,
                                    HAND_CORRUPTIONS[table, column])


def _verify_names_and_rebuild_mends(app, runner, table: str, column: str,
                                    corrupt: Callable[[int, int], object]) -> None:
    """Corrupt one value of a derived table in one group: ``db verify`` names that
    table and column in that group alone and exits 1; ``db rebuild`` mends it."""
    with app.app_context():
        group = Group(name="Spoiled")
        other = Group(name="Untouched")
        db.session.add_all([group, other])
        db.session.commit()
        import_document(group, random_document(random.Random(4), 12))
        import_document(other, random_document(random.Random(5), 3))
        match_id, player_id = _corrupted(group)
        assert db.session.execute(corrupt(match_id, player_id)).rowcount >= 1
        db.session.commit()
        group_id, other_id = group.id, other.id
    result = runner.invoke(args=["db", "verify"])
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("group ")]
    assert lines and all(line.startswith(f"group {group_id}, ") for line in lines)
    assert any(f" {table} (" in line and f"{column}: stored" in line for line in lines), lines
    if table in ("match", "seat", "seat_figures", "hand", "hand_entry"):
        assert any(f"match {match_id}, {table} " in line for line in lines), lines
    result = runner.invoke(args=["db", "rebuild", "--group", str(group_id)])
    assert result.exit_code == 0 and "were wrong" in result.output, result.output
    result = runner.invoke(args=["db", "verify"])
    assert result.exit_code == 0, result.output
    assert "0 difference(s) in 2 group(s)." in result.output
    with app.app_context():
        assert differences(other_id) == []


def test_rebuild_of_a_group_that_does_not_exist_is_refused(app, runner):
    result = runner.invoke(args=["db", "rebuild", "--group", "99"])
    assert result.exit_code == 2 and "there is no group 99" in result.output


def test_rebuild_of_a_sound_group_changes_nothing(app, runner):
    with app.app_context():
        group = Group(name="Sound")
        db.session.add(group)
        db.session.commit()
        import_document(group, random_document(random.Random(8), 6))
    result = runner.invoke(args=["db", "rebuild"])
    assert result.exit_code == 0 and "0 value(s) were wrong" in result.output, result.output


def test_verify_while_another_thread_records_hands_finds_no_false_difference(app):
    with app.app_context():
        group = Group(name="Live")
        players = [Player(group=group, name=name) for name in ("Ann", "Bob", "Cat")]
        db.session.add_all([group, *players])
        db.session.commit()
        long = Sheet.make("crazy-eights", {"match_end": "first-to-target", "target": 5000})
        matches = [create_match(group, long, players, 0).id for _ in range(2)]
        group_id = group.id
    stop, recorded, failures = threading.Event(), [0], []

    def record_until_stopped() -> None:
        rng = random.Random(3)
        with app.app_context():
            try:
                while not stop.is_set() and recorded[0] < 400:
                    match = match_view(rng.choice(matches))
                    match = record_hand(match, match.hand_count + 1, *next_hand(match, rng),
                                        same_as_confirmed=True).match
                    recorded[0] += 1
                    db.session.remove()
            except Exception as exc:  # reported by the main thread
                failures.append(exc)

    writer = threading.Thread(target=record_until_stopped)
    writer.start()
    checks = 0
    try:
        with app.app_context():
            while writer.is_alive() and checks < 60:
                assert differences(group_id) == []
                checks += 1
    finally:
        stop.set()
        writer.join()
    assert not failures, failures
    assert recorded[0] >= 10 and checks >= 5, (recorded, checks)
    with app.app_context():
        assert differences(group_id) == []


# ---- what the writer asks: the change a hand makes, worked out by the projection

@pytest.mark.parametrize("seed", range(8))
def test_a_new_hand_moves_a_match_on_as_a_replay_of_every_hand_does(seed):
    """``next_hand`` scores one hand from the state before it; ``rewritten`` replays
    them all. Both give the hand the same dealer and points and leave the match in
    the same state (no database)."""
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cat", "Dev", "Eli"][:rng.randint(2, 5)]
    played = random_match(rng, rng.choice(list(GAMES)), names)
    sheet = Sheet.from_dict(played["sheet"])
    sheet_json, dealer = sheet.to_json(), played["first_dealer"]
    results = [HandResult.of(hand["out"], [parse_cards(text) for text in hand["held"]])
               for hand in played["hands"]]
    state = state_of(1, sheet.game, range(len(names)),
                     projection.replayed(sheet_json, names, dealer, []))
    for number, result in enumerate(results, start=1):
        change = projection.next_hand(state, sheet, names, result)
        replayed = projection.rewritten(state, sheet_json, names, dealer, results[:number])
        assert change.scored(number) == replayed.scored(number)
        for name in ("hand_count", "status", "winners", "running"):
            assert getattr(change.after, name) == getattr(replayed.after, name), name
        state = change.after
