"""Adding a game is one definition: Short Eights (tests/support/short_eights.py), known
to nothing in the package, played through the scorer, the deal, the standings and
places, the setup form, the scoreboard and the rules card, and seeded engine playouts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.deal import plan_deal
from scorekeeper.core.engine import HandInPlay, Move, parse_position
from scorekeeper.core.games import GAMES
from scorekeeper.core.places import places
from scorekeeper.core.scoring import HandResult, ScoringError, check_hand, score_hand, standings
from scorekeeper.core.sheets import Sheet, SheetError
from tests.support.engine import choose
from tests.support.short_eights import SHORT_EIGHTS, registered
from tests.support.web import add_players, record, start_group

KEY = SHORT_EIGHTS.key


@pytest.fixture
def short_eights() -> Iterator[None]:
    """The fourth game registered for one test (listed before ``app``, so it is still
    there when the app's teardown verifies the stored matches)."""
    with registered():
        yield


def test_it_is_unknown_until_registered() -> None:
    assert KEY not in GAMES
    with pytest.raises(SheetError, match="unknown game"):
        Sheet.make(KEY)


def test_the_sheet_has_crazy_eights_options_but_the_two(short_eights) -> None:
    sheet = Sheet.make(KEY, {"queen_skips": True})
    assert sheet["match_end"] == "first-to-100" and "two_draws_two" not in sheet.options
    with pytest.raises(SheetError, match="does not apply to Short Eights"):
        Sheet.make(KEY, {"two_draws_two": True})


def test_the_scorer_counts_the_short_pack(short_eights) -> None:
    sheet = Sheet.make(KEY)
    held = [parse_cards("8s kh 7d ac"), parse_cards("9c 9h"), []]
    assert score_hand(sheet, held, out=2).points == (0, 0, 86)
    names = ["Ann", "Bo", "Cy"]
    with pytest.raises(ScoringError, match="2♠ is not in this game's deck") as bad:
        check_hand(sheet, names, HandResult.of(2, [parse_cards("2s"), [], []]))
    assert bad.value.field == "held.0"
    with pytest.raises(ScoringError, match="played without jokers"):
        check_hand(sheet, names, HandResult.of(2, [parse_cards("jk"), [], []]))


def test_the_deal_is_from_32_cards() -> None:
    with registered():
        four = plan_deal(KEY, 4)
        two = plan_deal(KEY, ["Ann", "Bo"], dealer=1)
        assert (four.cards_each, four.deck_size, four.decks, four.stock_after_upcard) == (
            (5, 5, 5, 5), 32, 1, 11)
        assert four.deck.describe() == "one deck (32) of 7 to A"
        assert two.cards_each == (7, 7) and two.seat_name(two.first_player) == "Ann"
        with pytest.raises(ValueError, match="2 to 4 players; 5 is too many"):
            plan_deal(KEY, 5)


def test_standings_and_places_to_the_target(short_eights) -> None:
    sheet = Sheet.make(KEY, {"match_end": "first-to-target", "target": 60})
    hands = [HandResult.of(0, [[], parse_cards("kh 9c"), parse_cards("7d")]),  # Ann 26
             HandResult.of(1, [parse_cards("8s"), [], parse_cards("ac")]),  # Bo 51
             HandResult.of(None, [parse_cards("10h"), parse_cards("jd qd"),
                                  parse_cards("9s")])]  # jammed: Cy 1 + 11
    table = standings(sheet, ["Ann", "Bo", "Cy"], 0, hands)
    assert table.totals == (26, 51, 12) and not table.over and table.goal == 60
    finished = standings(sheet, ["Ann", "Bo", "Cy"], 0,
                         [*hands, HandResult.of(0, [[], parse_cards("8h"), []])])
    assert finished.over and finished.winners == (0,) and finished.reason.startswith("Ann")
    assert places(sheet, finished) == (1, 2, 3)


def test_seeded_playouts_conserve_the_short_pack(short_eights) -> None:
    sheet = Sheet.make(KEY, {"queen_skips": True, "ace_reverses": True})
    rng = random.Random(40)
    outcomes = Counter()
    for seed in range(60):
        g = HandInPlay.deal(sheet, 2 + seed % 3, rng=seed)
        assert Counter(g.deck.cards()) == Counter(c for k in g.known for c in k) + Counter(
            g.stock) + Counter(g.pile)
        assert all(c.rank in SHORT_EIGHTS.ranks for c in g.deck.cards()) and g.deck.size == 32
        moves = 0
        while not g.is_over:
            assert moves < 2000, f"the hand did not end: {g!r}"
            g.apply(choose(g.legal_moves(), rng))
            moves += 1
            assert sum(g.hand_sizes()) + len(g.stock) + len(g.pile) == 32
        out = g.outcome()
        assert out is not None and out.points is not None
        outcomes[out.result] += 1
    assert outcomes["out"] > 0


def test_a_seven_draws_two_and_another_seven_passes_it_on(short_eights) -> None:
    g = parse_position("s8 | up 9H | turn 0 | hands 7H,9S/7C,10D/KS,QS")
    g.apply(Move.parse("0:7H"))
    assert g.debts == [(1, 2, "two", 2)] and g.current_player == 1
    assert [str(m) for m in g.legal_moves() if m.kind == "play"] == ["1:7C"]
    g.apply(Move.parse("1:7C"))
    assert g.debts == [(2, 4, "two", 4)] and g.current_player == 2


def test_the_setup_form_scoreboard_and_rules_card(short_eights, client) -> None:
    gid = start_group(client)
    ann, bo, cy = add_players(client, gid, "Ann", "Bo", "Cy")
    form = client.get(f"/groups/{gid}/matches/new?game={KEY}").text
    assert 'name="opt-match_end"' in form and 'name="opt-two_draws_two"' not in form
    made = client.post(f"/groups/{gid}/matches/new", data={
        "game": KEY, "first_dealer": "1", f"order-p{ann}": "1", f"order-p{bo}": "2",
        f"order-p{cy}": "3", "opt-match_end": "first-to-target", "opt-target": "40"})
    assert made.status_code == 302, made.text
    mid = int(made.location.rsplit("/", 1)[1])
    board = client.get(made.location).text
    assert "Short Eights" in board and "5</strong> cards each" in board
    page = record(client, gid, mid, 1, 0, "", "kh 9c", "ac 7d")
    assert page.status_code == 302, page.text
    refused = record(client, gid, mid, 2, 1, "2s", "", "ac")
    assert refused.status_code == 400 and "not in this game" in refused.text
    board = client.get(made.location).text
    assert ">27<" in board.replace(" ", "")
    card = client.get(f"/rules/card?game={KEY}&players=3").text
    assert "one deck (32) of 7 to A" in card and "Short Eights" in card
    assert "2–6" not in card and "7, 9, 10" in card
