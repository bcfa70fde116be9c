"""The deal-size helper: how many cards each, how many decks, who deals and who starts.

Pure: imports only the standard library, :mod:`cards` and :mod:`sheets`. The web page
(``deal_helper.py``), the JSON API (``api/deal.py``) and the match scoreboard all ask
:func:`plan_deal`, so they can never give different answers.

>>> plan = plan_deal("crazy-eights", 6)
>>> plan.cards_each, plan.decks, plan.stock_after_upcard
((5, 5, 5, 5, 5, 5), 2, 73)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.core.cards import Deck
from scorekeeper.core.errors import InputError
from scorekeeper.core.games import GAMES
from scorekeeper.core.sheets import OPTIONS, Game, Sheet, SheetError, game

__all__ = ["NINE", "DealError", "DealPlan", "deal_problem", "nine_problem", "plan_deal",
           "plan_for_sheet"]

HAND_SIZE = OPTIONS["hand_size"]
START_COUNT = OPTIONS["start_count"]
NINE = HAND_SIZE.maximum  # Last One deals nine each only when every player agrees ("Dealing")


class DealError(InputError):
    """A deal that cannot be made; ``field`` names the input at fault.

    ``field`` is one of ``game``, ``players``, ``hand_size``, ``counts``, ``dealer``.
    """

    field: str  # always given, unlike the base class's

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message, field)


@dataclass(frozen=True)
class DealPlan:
    """The answer for one deal. Seats are 0-based indexes into the players in the hand."""

    game: str
    players: int
    cards_each: tuple[int, ...]
    decks: int
    jokers: int
    deck_size: int
    cards_dealt: int
    stock_after_upcard: int
    dealer: int | None
    first_player: int | None
    warnings: tuple[str, ...]
    names: tuple[str, ...] = ()

    @property
    def info(self) -> Game:
        """The game's definition (what the answer box asks, e.g. who names a starter)."""
        return GAMES[self.game]

    @property
    def deck(self) -> Deck:
        """The deck in play, e.g. for ``plan.deck.describe()``."""
        return GAMES[self.game].deck(self.players)

    @property
    def same_for_all(self) -> bool:
        """True when every player gets the same number of cards."""
        return len(set(self.cards_each)) == 1

    def seat_name(self, seat: int | None) -> str | None:
        """The name of a seat when names were given, else ``Seat n`` (1-based)."""
        if seat is None:
            return None
        return self.names[seat] if self.names else f"Seat {seat + 1}"

    def to_dict(self) -> dict[str, object]:
        """Plain data for the JSON API."""
        return {
            "game": self.game,
            "players": self.players,
            "cards_each": list(self.cards_each),
            "decks": self.decks,
            "jokers": self.jokers,
            "deck_size": self.deck_size,
            "cards_dealt": self.cards_dealt,
            "stock_after_upcard": self.stock_after_upcard,
            "dealer": self.dealer,
            "first_player": self.first_player,
            "warnings": list(self.warnings),
        }


def plan_deal(
    game_key: str,
    players: int | Sequence[str],
    hand_size: int | None = None,
    counts: Sequence[int] | None = None,
    dealer: int | None = None,
) -> DealPlan:
    """Plan a deal, or raise :class:`DealError` saying why it cannot work.

    ``players`` is the number of players in the hand, or their names in seat order
    (clockwise, eliminated players left out). ``hand_size`` is Last One's cards each
    (4–9, default 7); ``counts`` is each Countdown player's count (default 8 each);
    ``dealer`` is the dealing seat, and the player on their left plays first.

    >>> plan = plan_deal("last-one", ["Ann", "Bo", "Cy"], hand_size=8, dealer=2)
    >>> plan.cards_each, plan.stock_after_upcard, plan.seat_name(plan.first_player)
    ((8, 8, 8), 29, 'Ann')
    """
    info = _game(game_key)
    names, count = _seats(players)
    problem = info.players_problem(count)
    if problem:
        raise DealError(problem, "players")
    each = _cards_each(info, count, hand_size, counts)
    deck = info.deck(count)
    dealt = sum(each)
    stock = deck.size - dealt - 1
    if stock < 0:
        raise DealError(
            f"{count} players × {each[0]} cards is {dealt}, the whole {deck.size}-card deck: "
            "no card is left to turn up. Deal fewer cards each.", "hand_size")
    if dealer is not None and (isinstance(dealer, bool) or not 0 <= dealer < count):
        raise DealError(f"dealer must be a seat from 0 to {count - 1}, not {dealer!r}", "dealer")
    first = None if dealer is None else (dealer + 1) % count
    return DealPlan(info.key, count, each, deck.decks, deck.jokers, deck.size, dealt, stock,
                    dealer, first, _warnings(info, count, each, stock), names)


def plan_for_sheet(
    sheet: Sheet,
    players: int | Sequence[str],
    counts: Sequence[int] | None = None,
    dealer: int | None = None,
) -> DealPlan:
    """Plan the next deal of a match played under ``sheet``.

    Last One deals the sheet's hand size; Countdown players without a known count
    start at the sheet's starting count.

    >>> plan_for_sheet(Sheet.make("countdown", {"start_count": 5}), 3).cards_each
    (5, 5, 5)
    """
    info = sheet.game_info
    size = sheet["hand_size"] if info.deal == "hand_size" else None
    if info.deal == "count" and counts is None:
        n = players if isinstance(players, int) else len(players)
        counts = [sheet["start_count"]] * max(n, 0)
    return plan_deal(sheet.game, players, hand_size=size, counts=counts, dealer=dealer)


def _game(key: str) -> Game:
    try:
        return game(key)
    except SheetError as exc:
        raise DealError(str(exc), "game") from None


def _seats(players: object) -> tuple[tuple[str, ...], int]:
    """Names (maybe none) and how many players, from a count or a list of names."""
    if isinstance(players, int) and not isinstance(players, bool):
        return (), players
    if isinstance(players, Sequence) and not isinstance(players, str):
        return tuple(str(n) for n in players), len(players)
    raise DealError(f"players must be a whole number, not {players!r}", "players")


def _cards_each(info: Game, players: int, hand_size: int | None,
                counts: Sequence[int] | None) -> tuple[int, ...]:
    if info.deal != "hand_size" and hand_size is not None:
        raise DealError("hand_size only applies to Last One; other games fix their deal",
                        "hand_size")
    if info.deal != "count" and counts is not None:
        raise DealError("counts only apply to Countdown, where each player's count is "
                        "their hand size", "counts")
    if info.deal == "hand_size":
        size = info.default("hand_size") if hand_size is None else hand_size
        _check_range(size, HAND_SIZE.minimum, HAND_SIZE.maximum, "hand_size", "cards each")
        return (size,) * players
    if info.deal == "count":
        if counts is None:
            return (info.default("start_count"),) * players
        counts = tuple(counts)
        if len(counts) != players:
            raise DealError(f"give one count per player: {len(counts)} counts for "
                            f"{players} players", "counts")
        for c in counts:
            _check_range(c, 1, START_COUNT.maximum, "counts",
                         "a count (a player at 0 has already won)")
        return counts
    each = info.cards_each({}, players)  # the standard deal reads no option
    assert each is not None
    return (each,) * players


def _check_range(value: object, low: int | None, high: int | None, field: str,
                 what: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise DealError(f"{field} must be a whole number, not {value!r}", field)
    if (low is not None and value < low) or (high is not None and value > high):
        raise DealError(f"{value} is not allowed as {what}: use {low} to {high}", field)


def _warnings(info: Game, players: int, each: tuple[int, ...], stock: int) -> tuple[str, ...]:
    out = []
    if info.deal == "hand_size" and each[0] == HAND_SIZE.maximum:
        out.append("Nine cards each only when every player agrees.")
    if stock == 0:
        out.append("Nothing is left to draw after the upcard: the first draw reshuffles "
                   "the discard pile, and there is none yet.")
    elif stock < players:
        out.append(f"Only {stock} cards stay in the stock for {players} players: it will "
                   "run out in the first round of draws.")
    return tuple(out)


def deal_problem(sheet: Sheet, players: int, size: int, agreed: bool, how: str) -> str | None:
    """Why a Last One hand cannot have been dealt ``size`` each, or None if it could.

    The deal helper says whether the deal leaves an upcard; nine cards also needs
    everyone's word, unless the sheet itself deals nine (agreed when the match began).
    ``how`` tells the person how to give that word (``tick the box``).
    """
    try:
        plan_deal(sheet.game, players, hand_size=size)
    except DealError as exc:
        return exc.message
    return nine_problem(sheet, agreed, how, size)


def nine_problem(sheet: Sheet, agreed: bool, how: str, size: int | None = None) -> str | None:
    """Why nine cards each still needs everyone's word, or None when it does not.

    Without ``size``: starting a match whose sheet deals nine. With it: one hand dealt
    ``size`` each in a match whose sheet deals fewer (a sheet of nine was agreed when
    the match began). ``how`` tells the person how to give that word.

    >>> nine_problem(Sheet.make("last-one", {"hand_size": 9}), False, "tick the box")
    'Nine cards each only when everybody agrees: tick the box.'
    """
    if sheet.game_info.deal != "hand_size" or agreed:
        return None
    nine = sheet["hand_size"] == NINE if size is None else size == NINE != sheet["hand_size"]
    return f"Nine cards each only when everybody agrees: {how}." if nine else None
