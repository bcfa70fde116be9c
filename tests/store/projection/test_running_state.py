"""The running state a match keeps after its last hand (``match.running_json``) always
equals what a full replay of its stored hands gives — standings position and every
seat's figures — (after any mix of writes: see ``test_derived.py``), hand by hand for
hundreds of hands and after an import (both databases); and a new hand's one step
gives the same standings and errors as a replay."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import (
    HandResult,
    ScoringError,
    Standings,
    play_hand,
    standings,
    standings_at,
    start_position,
    stored_hand,
    tally_of,
)
from scorekeeper.core.sheets import Sheet
from scorekeeper.core.stats import SEAT_FIGURE_NAMES, seat_figures
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView, match_hands
from scorekeeper.store.models import Group, Match, Player, SeatFigureRow
from scorekeeper.store.projection import running_state
from scorekeeper.store.reading import current_standings, match_sheet, match_standings
from scorekeeper.store.records import build_match, record_hand
from scorekeeper.store.transfer import import_document, load_matches
from tests.support.derived import assert_derived_rows_match_hands
from tests.support.documents import random_document
from tests.support.views import match_view
from tests.support.web import joined_match

LOW = parse_cards("2C 2D 2H 2S 3C 3D 3H")


def assert_state_is_a_replay(group: Group) -> int:
    """Every derived row of the group, the running state included (to the byte), is
    what a replay of its stored hands gives, and the standings worked out from the
    stored state are the replay's."""
    db.session.commit()
    assert_derived_rows_match_hands(group.id)
    stored = dict(db.session.execute(db.select(Match.id, Match.running_json)
                                     .where(Match.group_id == group.id)).all())
    records = load_matches(group)
    for record in records:
        view = record.match
        assert stored[view.id] is not None, view.id
        assert current_standings(view) == _without_history(match_standings(view, record.hands))
    return len(records)


def _without_history(table: Standings) -> Standings:
    """Full standings as :func:`standings_at` gives them: no per-hand history."""
    return replace(table, progress=(), hands=(), dealers=())


def _next_hand(match: MatchView, rng: random.Random) -> tuple[int | None, list[list]]:
    """A complete next hand: someone still in goes out, everyone else holds a low card."""
    in_play = current_standings(match).in_play
    out = rng.choice([s for s, playing in enumerate(in_play) if playing])
    return out, [[LOW[s]] if playing and s != out else [] for s, playing in enumerate(in_play)]


def test_a_long_match_played_hand_by_hand(app):
    """Hundreds of hands recorded one at a time end where one replay of them ends."""
    client = app.test_client()
    _, match_id, _ = joined_match(app, client, 3, 0)
    rng = random.Random(5)
    with app.app_context():
        match = match_view(match_id)
        for number in range(1, 121):
            if match.status == "finished":
                break
            out, held = _next_hand(match, rng)
            match = record_hand(match, number, out, held,
                                same_as_confirmed=True).match  # even one like the last
        assert match.hand_count > 50
        assert assert_state_is_a_replay(match.group) == 1


SHEETS = [Sheet.make("last-one", {"threshold": 30}), Sheet.make("crazy-eights", {}),
          Sheet.make("countdown", {"start_count": 2})]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: s.game)
def test_one_step_at_a_time_is_the_replay(sheet):
    """Folding play_hand from the start gives the replay's standings after every hand,
    and a hand the replay refuses is refused the same way."""
    names = ["Ann", "Bob", "Cat"]
    rng = random.Random(sheet.game)
    position = start_position(sheet, 3, 1)
    hands: list[HandResult] = []
    for _ in range(12):
        out = rng.choice([s for s, p in enumerate(position.in_play) if p] + [None])
        result = HandResult.of(out, [[LOW[s]] if p and s != out else []
                                     for s, p in enumerate(position.in_play)])
        if position.over:
            with pytest.raises(ScoringError) as refused:
                play_hand(sheet, names, position, result)
            with pytest.raises(ScoringError) as replay_refused:
                standings(sheet, names, 1, [*hands, result])
            assert str(refused.value) == str(replay_refused.value)
            break
        position, _, _ = play_hand(sheet, names, position, result)
        hands.append(result)
        table = standings(sheet, names, 1, hands)
        assert position == tally_of(table)
        assert standings_at(sheet, names, position) == _without_history(table)


def test_a_stored_reason_follows_a_renamed_winner(app):
    """The stored state keeps the winners' names out of the reason: a rename shows."""
    with app.app_context():
        group = Group(name="Rename")
        players = [Player(group=group, name=n) for n in ("Ann", "Bob")]
        db.session.add_all([group, *players])
        db.session.commit()
        match = build_match(group, Sheet.make("countdown", {"start_count": 1}), players, 0)
        db.session.commit()
        match = record_hand(match, 1, 0, [[], []]).match
        assert match.status == "finished"
        players[0].name = "Annie"
        db.session.commit()
        match = match_view(match.id)
        assert current_standings(match).reason == match_standings(
            match, match_hands(match)).reason
        assert current_standings(match).reason.startswith("Annie counted down to 0")


@pytest.mark.corrupts_derived  # writes a derived value as an older release kept it
def test_a_match_without_a_stored_state_is_replayed_and_then_kept(app):
    """A row the migration could not fill (NULL) still saves: replayed, then stored."""
    client = app.test_client()
    _, match_id, _ = joined_match(app, client, 3, 4)
    with app.app_context():
        db.session.execute(db.update(Match).where(Match.id == match_id)
                           .values(running_json=None))
        db.session.commit()
        match = match_view(match_id)
        assert current_standings(match).played == 4
        out, held = _next_hand(match, random.Random(1))
        match = record_hand(match, 5, out, held, same_as_confirmed=True).match
        assert match.running_json is not None
        assert assert_state_is_a_replay(match.group) == 1


def test_an_import_stores_the_rows_of_replays_that_add_up_their_own_totals(app):
    """The bulk import takes each seat's figures from its validating replay (its totals
    after each hand): the stored state and rows are, to the byte, those of a replay
    whose figures add the totals up from the stored hands alone."""
    with app.app_context():
        group = Group(name="Bulk")
        db.session.add(group)
        db.session.commit()
        import_document(group, random_document(random.Random(7), 30))
        for record in load_matches(group):
            match = record.match
            table = match_standings(match, record.hands)
            sheet = match_sheet(match)
            hands = [stored_hand(match.game, hand.out_seat, [e.cards for e in hand.entries],
                                 [e.points for e in hand.entries]) for hand in record.hands]
            figures = seat_figures(match.game, len(match.seats), hands,
                                   table.winners, sheet.options.get("start_count", 0),
                                   sheet.options.get("threshold"))  # no totals passed
            outs = [hand.out_seat for hand in record.hands]
            assert match.running_json == running_state.to_text(
                running_state.at_end(table, figures, outs))
            rows = db.session.scalars(db.select(SeatFigureRow).where(
                SeatFigureRow.match_id == match.id).order_by(SeatFigureRow.seat)).all()
            assert [{c: getattr(r, c) for c in SEAT_FIGURE_NAMES} for r in rows] == [
                {c: getattr(f, c) for c in SEAT_FIGURE_NAMES} for f in figures]
            assert [(r.finished, r.won) for r in rows] == [
                (table.over, table.over and r.seat in table.winners) for r in rows]
