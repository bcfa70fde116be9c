"""Cards (the rules reference "Cards"): every accepted spelling, the refusals, formatting, decks and
the check of a hand's entries against the deck."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import (
    JOKER,
    Card,
    CardError,
    Deck,
    DeckError,
    Rank,
    Suit,
    check_entries,
    format_cards,
    parse_card,
    parse_cards,
)
from scorekeeper.core.games import deck_for

TEN_HEARTS = Card(Rank.TEN, Suit.HEARTS)
QUEEN_SPADES = Card(Rank.QUEEN, Suit.SPADES)

# token -> the card it means
SPELLINGS = [
    ("10h", TEN_HEARTS),
    ("10H", TEN_HEARTS),
    ("Th", TEN_HEARTS),
    ("th", TEN_HEARTS),
    ("TH", TEN_HEARTS),
    ("10♥", TEN_HEARTS),
    ("♥10", TEN_HEARTS),
    ("♥t", TEN_HEARTS),
    ("h10", TEN_HEARTS),
    ("qs", QUEEN_SPADES),
    ("QS", QUEEN_SPADES),
    ("Qs", QUEEN_SPADES),
    ("Q♠", QUEEN_SPADES),
    ("q♠", QUEEN_SPADES),
    ("♠Q", QUEEN_SPADES),
    ("  qs  ", QUEEN_SPADES),
    ("ac", Card(Rank.ACE, Suit.CLUBS)),
    ("A♣", Card(Rank.ACE, Suit.CLUBS)),
    ("2d", Card(Rank.TWO, Suit.DIAMONDS)),
    ("2♦", Card(Rank.TWO, Suit.DIAMONDS)),
    ("9c", Card(Rank.NINE, Suit.CLUBS)),
    ("jh", Card(Rank.JACK, Suit.HEARTS)),
    ("Kh", Card(Rank.KING, Suit.HEARTS)),
    ("8S", Card(Rank.EIGHT, Suit.SPADES)),
    ("jk", JOKER),
    ("JK", JOKER),
    ("Jk", JOKER),
    ("joker", JOKER),
    ("Joker", JOKER),
    ("JOKER", JOKER),
]


@pytest.mark.parametrize(("token", "expected"), SPELLINGS)
def test_accepted_spellings(token, expected):
    assert parse_card(token) == expected
    assert Card.parse(token) is parse_card(str(expected))  # parsed cards are interned


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h Th 10♥", ["10H", "10H", "10H"]),
        ("10h,qs,jk", ["10H", "QS", "JK"]),
        ("10h, qs, jk", ["10H", "QS", "JK"]),
        ("  8S  kH\t7d\nAC ", ["8S", "KH", "7D", "AC"]),
        ("♥10 , Q♠ joker", ["10H", "QS", "JK"]),
        ("8s,, kh", ["8S", "KH"]),
        ("", []),
        ("   ", []),
        (" , ", []),
    ],
)
def test_parse_cards_separators(text, expected):
    assert [str(c) for c in parse_cards(text)] == expected


def test_parse_cards_takes_tokens():
    assert parse_cards(["10h", " qs ", ""]) == [TEN_HEARTS, QUEEN_SPADES]


# rejected token -> how it appears in the message
REJECTED = ["1h", "11h", "0h", "xh", "10x", "10", "h", "x", "kk", "10hh", "qsx", "jkr2", "♥", "1"]


@pytest.mark.parametrize("token", REJECTED)
def test_rejected_tokens_name_the_token_and_what_is_accepted(token):
    with pytest.raises(CardError) as info:
        parse_card(token)
    message = str(info.value)
    assert repr(token) in message
    assert "10h" in message and "jk" in message  # says what is accepted


def test_empty_token_is_refused():
    with pytest.raises(CardError, match="is not a card"):
        parse_card("")


@pytest.mark.parametrize(
    ("text", "bad"),
    [("8s kh zz 7d", "zz"), ("8s,11c", "11c"), ("qs q", "q"), ("10h ♥", "♥")],
)
def test_parse_cards_names_the_first_bad_token(text, bad):
    with pytest.raises(CardError, match=repr(bad)):
        parse_cards(text)


def test_card_errors_are_value_errors():
    assert issubclass(CardError, ValueError)
    assert issubclass(DeckError, ValueError)


@pytest.mark.parametrize(
    ("text", "canonical", "pretty"),
    [
        ("10h", "10H", "10♥"),
        ("Th", "10H", "10♥"),
        ("qs", "QS", "Q♠"),
        ("ac", "AC", "A♣"),
        ("2d", "2D", "2♦"),
        ("kh", "KH", "K♥"),
        ("jk", "JK", "Joker"),
        ("joker", "JK", "Joker"),
    ],
)
def test_formatting(text, canonical, pretty):
    card = parse_card(text)
    assert str(card) == canonical
    assert card.pretty == pretty
    assert repr(card) == f"Card.parse({canonical!r})"
    assert eval(repr(card)) is card  # repr round-trips
    assert parse_card(pretty) is card  # the pretty form parses back


def test_format_cards():
    hand = parse_cards("8s kh 10d jk")
    assert format_cards(hand) == "8S KH 10D JK"
    assert format_cards(hand, pretty=True) == "8♠ K♥ 10♦ Joker"
    assert parse_cards(format_cards(hand)) == hand
    assert parse_cards(format_cards(hand, pretty=True)) == hand
    assert format_cards([]) == ""


def test_every_card_formats_and_parses_back():
    for card in Deck(decks=1, jokers=2).cards():
        assert parse_card(str(card)) is card
        assert parse_card(card.pretty) is card
        assert eval(repr(card)) is card


@pytest.mark.parametrize(("letter", "suit"), [("c", Suit.CLUBS), ("♦", Suit.DIAMONDS),
                                               ("hearts", Suit.HEARTS), ("S", Suit.SPADES)])
def test_suit_parse(letter, suit):
    assert Suit.parse(letter) is suit


def test_suit_parse_refuses():
    with pytest.raises(CardError, match="'x' is not a suit"):
        Suit.parse("x")


# game, players -> decks, jokers, size
DECKS = [
    ("last-one", 2, 1, 2, 54),
    ("last-one", 6, 1, 2, 54),
    ("crazy-eights", 2, 1, 0, 52),
    ("crazy-eights", 5, 1, 0, 52),
    ("crazy-eights", 6, 2, 0, 104),
    ("crazy-eights", 7, 2, 0, 104),
    ("countdown", 2, 1, 0, 52),
    ("countdown", 5, 1, 0, 52),
    ("countdown", 6, 2, 0, 104),
    ("countdown", 7, 2, 0, 104),
]


@pytest.mark.parametrize(("game", "players", "decks", "jokers", "size"), DECKS)
def test_deck_for(game, players, decks, jokers, size):
    deck = deck_for(game, players)
    assert (deck.decks, deck.jokers, deck.size) == (decks, jokers, size)
    assert len(deck.cards()) == size
    assert deck.copies(JOKER) == jokers
    assert deck.copies(QUEEN_SPADES) == decks


def test_deck_describe():
    assert deck_for("last-one", 3).describe() == "one deck (52) and 2 jokers"
    assert deck_for("crazy-eights", 7).describe() == "2 decks (104)"


def entries(**held: str) -> dict[str, list[Card]]:
    return {name: parse_cards(text) for name, text in held.items()}


@pytest.mark.parametrize(
    ("game", "players", "held"),
    [
        ("last-one", 3, {"Ann": "8s kh jk", "Bob": "jk 7d", "Cy": ""}),
        ("crazy-eights", 3, {"Ann": "8s kh", "Bob": "9c 9h", "Cy": ""}),
        ("crazy-eights", 6, {"Ann": "8s 8s", "Bob": "9c", "Cy": "9c"}),  # two decks
    ],
)
def test_check_entries_accepts(game, players, held):
    check_entries(entries(**held), deck_for(game, players))


# what was entered -> words of the message, and the entry at fault: the later one in
# order holding the extra copy (or the first holding a card the deck lacks)
@pytest.mark.parametrize(
    ("game", "players", "held", "message", "key"),
    [
        ("crazy-eights", 3, {"Ann": "8s kh", "Bob": "8♠"}, r"8♠ is entered 2 times \(Ann and Bob",
         "Bob"),
        ("crazy-eights", 3, {"Ann": "8s 8s"}, r"8♠ is entered 2 times.*holds it once", "Ann"),
        ("crazy-eights", 3, {"Ann": "5c", "Bob": "8s", "Cy": "8s", "Dee": "8s"}, "3 times", "Cy"),
        ("crazy-eights", 6, {"Ann": "8s 8s", "Bob": "8s"}, "holds it 2 times", "Bob"),
        ("crazy-eights", 6, {"Ann": "8s", "Bob": "2c", "Cy": "8s 8s"}, "holds it 2 times", "Cy"),
        ("last-one", 3, {"Ann": "jk jk", "Bob": "jk"}, "Joker is entered 3 times", "Bob"),
        ("last-one", 3, {"Ann": "jk", "Bob": "", "Cy": "jk jk"}, "Joker is entered 3", "Cy"),
        ("crazy-eights", 3, {"Ann": "jk"}, "without jokers", "Ann"),
        ("countdown", 7, {"Ann": "5c", "Bob": "joker", "Cy": "jk"}, "without jokers", "Bob"),
    ],
)
def test_check_entries_refuses(game, players, held, message, key):
    with pytest.raises(DeckError, match=message) as info:
        check_entries(entries(**held), deck_for(game, players))
    assert info.value.key == key


def test_check_entries_too_many_cards():
    deck = deck_for("crazy-eights", 2)
    every = deck.cards()
    with pytest.raises(DeckError, match="52 cards entered, but at most 51") as info:
        check_entries({"Ann": every[:30], "Bob": every[30:]}, deck)
    assert info.value.key is None  # nobody's entry alone is at fault
    check_entries({"Ann": every[:30], "Bob": every[30:51]}, deck)  # one left for the upcard


def test_check_entries_too_many_cards_last_one():
    deck = deck_for("last-one", 2)
    with pytest.raises(DeckError, match="54 cards entered"):
        check_entries({"Ann": deck.cards()}, deck)
