"""Reading a starting position: sheets, hands, stock, counts and the situation.

Everything the replay API may send is turned into cards and numbers here, and
refused with a :class:`~scorekeeper.engine.moves.SetupError` (or the card errors of
``scorekeeper.cards``) that names the field at fault.

>>> read_hand("8S KH", 0), read_hand(5, 1), read_hand({"cards": ["4S"], "unknown": 2}, 2)
(([Card.parse('8S'), Card.parse('KH')], 0), ([], 5), ([Card.parse('4S')], 2))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.core.cards import Card, Deck, DeckError, Rank, Suit, parse_card, parse_cards
from scorekeeper.core.engine.moves import SetupError
from scorekeeper.core.sheets import OPTIONS, Sheet

__all__ = [
    "SITUATION_KEYS",
    "check_deck",
    "hand_sizes",
    "read_card",
    "read_counts",
    "read_hand",
    "read_names",
    "read_pile",
    "read_sheet",
    "read_situation",
    "read_stock",
]

SITUATION_KEYS = ("turn", "direction", "active_suit", "upcard_as", "pending_draw", "melee",
                  "free_play", "uncalled", "drawn")


def read_sheet(sheet: Sheet | Mapping[str, Any]) -> Sheet:
    """A :class:`Sheet`, or sheet data as stored with a match (``{"game", "options"}``)."""
    return sheet if isinstance(sheet, Sheet) else Sheet.from_dict(sheet)


def read_card(value: Card | str, field: str) -> Card:
    """One card from a :class:`Card` or card text."""
    if isinstance(value, Card):
        return value
    if not isinstance(value, str):
        raise SetupError(f"{field} must be a card, not {value!r}", field)
    return parse_card(value)


def read_hand(entry: Any, seat: int) -> tuple[list[Card], int]:
    """One seat's hand: a card list (or card text), a count of unseen cards, or
    ``{"cards": [...], "unknown": n}`` for a hand partly seen."""
    at = f"hands[{seat}]"
    if isinstance(entry, bool):
        raise SetupError(f"{at} must be cards or a count, not {entry!r}", at)
    if isinstance(entry, int):
        if entry < 0:
            raise SetupError(f"{at} cannot hold {entry} cards", at)
        return [], entry
    if isinstance(entry, Mapping):
        unknown = entry.get("unknown", 0)
        if set(entry) - {"cards", "unknown"} or not isinstance(unknown, int) or unknown < 0:
            raise SetupError(f"{at} must be {{'cards': [...], 'unknown': n}}", at)
        return read_hand(entry.get("cards", []), seat)[0], unknown
    if isinstance(entry, str):
        return parse_cards(entry), 0
    if isinstance(entry, Sequence):
        return [read_card(c, at) for c in entry], 0
    raise SetupError(f"{at} must be cards or a count, not {entry!r}", at)


def read_stock(stock: Any, room: int) -> tuple[list[Card | None], bool]:
    """The stock as a list, top card last (None = unseen), and whether it was given
    card by card. A card list is read top card first; ``None`` means every card not
    in a hand or the upcard (``room``)."""
    if stock is None:
        return [None] * room, False
    if isinstance(stock, int) and not isinstance(stock, bool):
        if not 0 <= stock <= room:
            raise SetupError(f"stock: {stock} cards, but only {room} are left after the deal",
                             "stock")
        return [None] * stock, False
    cards: list[Card | None] = [*parse_cards(stock)] if isinstance(stock, str) else [
        read_card(c, "stock") for c in stock]
    if len(cards) > room:
        raise SetupError(f"stock: {len(cards)} cards, but only {room} are left after the deal",
                         "stock")
    return cards[::-1], True


def read_pile(pile: Any, room: int) -> list[Card | None] | None:
    """The cards under the upcard, bottom first (None = unseen), from a count or a card
    list given nearest the upcard first; None when the request leaves the pile out.

    >>> read_pile(2, 10), read_pile(["7C", "KD"], 10)
    ([None, None], [Card.parse('KD'), Card.parse('7C')])
    """
    if pile is None:
        return None
    if isinstance(pile, int) and not isinstance(pile, bool):
        if not 0 <= pile <= room:
            raise SetupError(f"pile: {pile} cards under the upcard, but only {room} are left "
                             "after the hands and the upcard", "pile")
        return [None] * pile
    if isinstance(pile, str):
        cards = parse_cards(pile)
    elif isinstance(pile, Sequence):
        cards = [read_card(c, "pile") for c in pile]
    else:
        raise SetupError("pile must be a number of cards or the cards under the upcard",
                         "pile")
    if len(cards) > room:
        raise SetupError(f"pile: {len(cards)} cards, but only {room} are left after the "
                         "hands and the upcard", "pile")
    return list(reversed(cards))


def read_counts(sheet: Sheet, players: int, counts: Sequence[int] | None) -> list[int] | None:
    """Each seat's count, in a game whose counts are its deal (Countdown; default: the
    sheet's start_count); None otherwise."""
    if sheet.game_info.deal != "count":
        if counts is not None:
            raise SetupError("counts are only used in Crazy Eights Countdown", "counts")
        return None
    if counts is None:
        return [sheet["start_count"]] * players
    out = list(counts)
    count = OPTIONS["start_count"]
    if len(out) != players or any(isinstance(c, bool) or not isinstance(c, int)
                                  or not count.allows(c) for c in out):
        raise SetupError(f"counts must give each of the {players} players a count from "
                         f"{count.minimum} to {count.maximum}", "counts")
    return out


def read_names(names: Sequence[str] | None, players: int) -> list[str] | None:
    """Seat names for verdict reasons: one non-empty text per seat, or None.

    >>> read_names(["Ann", "Bo"], 2), read_names(None, 2)
    (['Ann', 'Bo'], None)
    """
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence) or len(
            names) != players or not all(isinstance(n, str) and n.strip() for n in names):
        raise SetupError(f"names must give each of the {players} seats a name", "names")
    return [n.strip() for n in names]


def hand_sizes(sheet: Sheet, players: int, counts: Sequence[int] | None = None) -> list[int]:
    """How many cards each seat is dealt (the rules reference: Last One's hand_size; Crazy
    Eights 7 with two players, else 5; Countdown each player's count).

    >>> hand_sizes(Sheet.make("crazy-eights"), 3)
    [5, 5, 5]
    """
    each = sheet.game_info.cards_each(sheet.options, players)
    if each is None:
        return list(read_counts(sheet, players, counts) or [])
    return [each] * players


def check_players(sheet: Sheet, players: Any, dealer: Any) -> None:
    """The table size fits the game and the dealer is one of the seats."""
    info = sheet.game_info
    if isinstance(players, bool) or not isinstance(players, int):
        raise SetupError(f"players must be a whole number, not {players!r}", "players")
    problem = info.players_problem(players)
    if problem:
        raise SetupError(problem, "players")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise SetupError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}",
                         "dealer")


def check_deck(deck: Deck, seen: list[Card], total: int) -> None:
    """No card more often than the deck holds it, no jokers without jokers, and no
    more cards than the deck has."""
    for c, n in Counter(seen).items():
        allowed = deck.copies(c)
        if c.is_joker and not allowed:
            raise DeckError("this game is played without jokers")
        if not allowed:
            raise DeckError(f"{c.pretty} is not in this game's deck, {deck.describe()}")
        if n > allowed:
            raise DeckError(f"{c.pretty} appears {n} times; the deck holds it {allowed}")
    if total > deck.size:
        raise DeckError(f"{total} cards in play, but the deck has only {deck.size}")


def _seat(value: Any, players: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise SetupError(f"situation.{field} must be a seat from 0 to {players - 1}, "
                         f"not {value!r}", f"situation.{field}")
    return value


def read_situation(data: Mapping[str, Any], players: int, upcard: Card,
                   first: int = 0) -> dict[str, Any]:
    """Check a mid-hand situation and fill in what it leaves out.

    ``first`` is the turn when none is given. Returns turn, direction, upcard_as,
    active_suit, rank_open, pending_draw, melee (an (aggressor, defender) pair or
    None), free_play, uncalled (-1: none) and drawn (cards the seat on turn has drawn
    this turn, already in its hand).
    """
    if not isinstance(data, Mapping):
        raise SetupError("situation must be an object", "situation")
    unknown = sorted(set(data) - set(SITUATION_KEYS))
    if unknown:
        raise SetupError(f"unknown situation field {unknown[0]!r}: use "
                         + ", ".join(SITUATION_KEYS), f"situation.{unknown[0]}")
    out: dict[str, Any] = {"turn": _seat(data.get("turn", first), players, "turn")}
    direction = data.get("direction", 1)
    if direction not in (1, -1) or isinstance(direction, bool):
        raise SetupError(f"situation.direction must be 1 or -1, not {direction!r}",
                         "situation.direction")
    out["direction"] = direction
    up_as = data.get("upcard_as")
    if up_as is None and upcard.is_joker:
        raise SetupError("the upcard is a joker: say what it stands for in situation.upcard_as",
                         "situation.upcard_as")
    as_card = upcard if up_as is None else read_card(up_as, "situation.upcard_as")
    if as_card.is_joker or (not upcard.is_joker and as_card != upcard):
        raise SetupError(f"situation.upcard_as {up_as!r} must be the card a joker upcard "
                         f"stands for", "situation.upcard_as")
    out["upcard_as"] = as_card
    out.update(_read_suit(data, as_card))
    out["pending_draw"] = _count(data, "pending_draw", "a number of cards")
    out["melee"] = _read_melee(data.get("melee"), players)
    out["free_play"] = bool(data.get("free_play", False))
    out["drawn"] = _count(data, "drawn", "the cards drawn this turn")
    uncalled = data.get("uncalled")
    out["uncalled"] = -1 if uncalled is None else _seat(uncalled, players, "uncalled")
    return out


def _count(data: Mapping[str, Any], key: str, what: str) -> int:
    """A count of cards in the situation (``pending_draw``, ``drawn``), default 0."""
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 108:
        raise SetupError(f"situation.{key} must be {what}, not {value!r}", f"situation.{key}")
    return value


def _read_suit(data: Mapping[str, Any], as_card: Card) -> dict[str, Any]:
    """Active suit (None: any suit may follow) and whether rank still matches."""
    if "active_suit" not in data:
        return {"active_suit": as_card.suit, "rank_open": True}
    text = data["active_suit"]
    if text is None:
        return {"active_suit": None, "rank_open": False}
    suit = text if isinstance(text, Suit) else Suit.parse(str(text))
    named = suit != as_card.suit or as_card.rank == Rank.EIGHT
    return {"active_suit": suit, "rank_open": not named}


def _read_melee(melee: Any, players: int) -> tuple[int, int] | None:
    if melee is None:
        return None
    if not isinstance(melee, Mapping) or set(melee) != {"aggressor", "defender"}:
        raise SetupError("situation.melee must be {'aggressor': seat, 'defender': seat}",
                         "situation.melee")
    aggressor = _seat(melee["aggressor"], players, "melee.aggressor")
    defender = _seat(melee["defender"], players, "melee.defender")
    if aggressor == defender:
        raise SetupError("situation.melee: the aggressor cannot also be the defender",
                         "situation.melee")
    return aggressor, defender
