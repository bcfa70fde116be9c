"""Property-based tests of the parser, the sheets and the scorer (hypothesis)."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.core.cards import (
    JOKER,
    Card,
    CardError,
    Deck,
    DeckError,
    check_entries,
    format_cards,
    parse_card,
    parse_cards,
)
from scorekeeper.core.games import deck_for
from scorekeeper.core.scoring import HandResult, ScoringError, score_hand, standings
from scorekeeper.core.sheets import GAMES, OPTIONS, Sheet, SheetError

EVERY_CARD = Deck(decks=1, jokers=1).cards()
CARD_ALPHABET = "0123456789AaTtJjQqKkCcDdHhSsOoEeRr♣♦♥♠♧♢♡♤🃏* ,;\t\n-xX"

cards = st.lists(st.sampled_from(EVERY_CARD), max_size=20)
card_text = st.one_of(st.text(), st.text(alphabet=CARD_ALPHABET, max_size=30))


@given(card_text)
def test_parse_card_reads_a_card_or_says_which_text(text):
    try:
        result = parse_card(text)
    except CardError as exc:
        assert repr(text.strip()) in str(exc)
    else:
        assert isinstance(result, Card)


@given(card_text)
def test_parse_cards_reads_cards_that_round_trip_or_refuses(text):
    try:
        result = parse_cards(text)
    except CardError as exc:
        assert (str(exc) and exc.field is None) or isinstance(exc.field, str)
        return
    assert all(isinstance(c, Card) for c in result)
    assert parse_cards(format_cards(result)) == result


@given(cards, st.booleans())
def test_format_then_parse_returns_the_same_cards(hand, pretty):
    text = format_cards(hand, pretty=pretty)
    assert parse_cards(text) == hand
    assert parse_cards(text.replace(" ", ", ")) == hand
    assert parse_cards(text.lower()) == hand
    assert [eval(repr(c)) for c in hand] == hand


@given(st.dictionaries(st.text(max_size=5), cards, max_size=4),
       st.sampled_from(list(GAMES)), st.integers(2, 7))
def test_check_entries_refuses_exactly_what_the_deck_cannot_hold(entries, game, players):
    deck = deck_for(game, players)
    seen = Counter(c for held in entries.values() for c in held)
    fits = (all(n <= deck.copies(c) for c, n in seen.items())
            and sum(seen.values()) <= deck.size - 1)
    try:
        check_entries(entries, deck)
    except DeckError as exc:
        assert not fits, exc
        assert exc.key is None or exc.key in entries
    else:
        assert fits


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=6,
)
option_values = st.dictionaries(
    st.sampled_from(list(OPTIONS)) | st.text(max_size=8),
    st.none() | st.booleans() | st.integers(-10, 400) | st.sampled_from(
        ["none", "draws", "skip", "any", "matching", "rank", "ten", "one-hand",
         "first-to-100", "first-to-target", "difference", "full", "x"]),
    max_size=6,
)


@given(st.sampled_from([*GAMES, "poker", None]) | json_values, option_values | json_values)
def test_sheets_refuse_only_with_sheet_error(game, options):
    try:
        sheet = Sheet.make(game, options)
    except SheetError as exc:
        assert exc.field
        return
    assert Sheet.from_json(sheet.to_json()) == sheet
    assert json.loads(sheet.to_json())["game"] == game


@given(json_values | st.fixed_dictionaries({"game": st.sampled_from(list(GAMES))},
                                           optional={"options": option_values}))
def test_sheet_from_dict_rebuilds_or_names_the_field(data):
    try:
        sheet = Sheet.from_dict(data)
    except SheetError as exc:
        assert exc.field and exc.field.startswith(("sheet", "game", "options"))
        return
    assert sheet.game == data["game"] and sheet.game in GAMES
    assert Sheet.from_dict(sheet.to_dict()) == sheet


@given(st.sampled_from(list(GAMES)), st.integers(2, 7), st.data())
def test_standings_refuse_only_with_scoring_error(game, seats, data):
    sheet = Sheet.make(game)
    hands = data.draw(st.lists(st.builds(
        HandResult.of,
        st.none() | st.integers(-1, seats),
        st.lists(cards, min_size=seats - 1, max_size=seats + 1),
    ), max_size=3))
    names = [f"P{i}" for i in range(seats)]
    try:
        table = standings(sheet, names, data.draw(st.integers(-1, seats)), hands)
    except ScoringError as exc:
        assert exc.field
        return
    assert len(table.totals) == seats and len(table.progress) == len(hands)
    assert all(h.out is None or 0 <= h.out < seats for h in hands)
    if hands:
        assert table.progress[-1] == table.totals


def _deal_hand(data, game: str, names: list[str], in_play: tuple[bool, ...]) -> HandResult:
    """A valid hand: cards from one shuffled deck, nothing for the seat that went out."""
    deck = deck_for(game, len(names)).cards()
    pile = data.draw(st.permutations(deck))
    seats = [s for s, playing in enumerate(in_play) if playing]
    out = data.draw(st.none() | st.sampled_from(seats))
    held, top = [], 0
    for seat in range(len(names)):
        count = 0 if seat == out or not in_play[seat] else data.draw(st.integers(0, 6))
        held.append(pile[top:top + count])
        top += count
    return HandResult.of(out, held)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["last-one", "crazy-eights"]), st.integers(2, 6), st.data())
def test_totals_are_the_column_sums_of_the_hands(game, seats, data):
    options = {"threshold": data.draw(st.integers(20, 200))} if game == "last-one" else {}
    sheet = Sheet.make(game, options)
    names = [f"P{i}" for i in range(seats)]
    first = data.draw(st.integers(0, seats - 1))
    hands: list[HandResult] = []
    current = standings(sheet, names, first, hands)
    for _ in range(data.draw(st.integers(0, 8))):
        if current.over:
            break
        hands.append(_deal_hand(data, game, names, current.in_play))
        current = standings(sheet, names, first, hands)
    points = [h.points for h in current.hands]
    columns = [sum(h[seat] for h in points) for seat in range(seats)]
    assert current.totals == tuple(columns)
    assert len(current.progress) == len(hands) == len(current.dealers)
    if points:
        assert current.progress[-1] == current.totals
    for dealer in current.dealers:
        assert 0 <= dealer < seats
    if current.over:
        assert current.winners and current.next_dealer is None
    else:
        assert current.in_play[current.next_dealer]
        assert set(current.next_deal) == {s for s in range(seats) if current.in_play[s]}
    for seat, number in current.eliminated.items():
        assert not current.in_play[seat]
        assert current.progress[number - 1][seat] >= sheet["threshold"]


@given(st.sampled_from(list(GAMES)), st.integers(2, 7), st.data())
def test_score_hand_of_a_valid_hand(game, seats, data):
    if game == "last-one":
        seats = min(seats, 6)
    names = [f"P{i}" for i in range(seats)]
    result = _deal_hand(data, game, names, (True,) * seats)
    scored = score_hand(Sheet.make(game), result.held, result.out)
    assert len(scored.points) == seats
    assert all(p >= 0 for p in scored.points)
    if game == "countdown":
        assert set(scored.points) == {0}
    if game == "crazy-eights" and result.out is not None:
        assert sum(scored.points) == scored.points[result.out]
    assert tuple(tuple(c for c, _ in seat) for seat in scored.breakdown) == result.held
    if game != "last-one":
        assert all(JOKER not in seat for seat in result.held)
