"""The table's rules card: what one sheet agreed, in a screenful.

Built from a stored or proposed :class:`Sheet` only, so a match's card can never
disagree with its scorer or engine. ``/rules/card?game=...&<option>=...`` shows it as a
page (see :mod:`scorekeeper.rules`); matches include ``templates/rules/_card.html``,
which reads :func:`rules_card_facts` and :func:`points_rows` (template globals); the
scoreboard shows it through :func:`rules_card_html`, rendered once per sheet and table
size.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import current_app, has_request_context, url_for
from markupsafe import Markup

from scorekeeper.core.cards import JOKER, Rank, Suit, card
from scorekeeper.core.deal import NINE, DealError, plan_for_sheet
from scorekeeper.core.games import Game
from scorekeeper.core.scoring import card_points
from scorekeeper.core.sheets import GAMES, Sheet, options_for
from scorekeeper.web.memo import remembered
from scorekeeper.web.sheet_text import sheet_query


def rules_card_url(sheet: Sheet, players: int | None = None) -> str:
    """A shareable link to the rules card of ``sheet``."""
    query: dict[str, Any] = {"game": sheet.game, "players": players, **sheet_query(sheet)}
    return url_for("rules.card_page", **query)


def rules_card_html(sheet: Sheet, players: int | None = None) -> Markup:
    """The ``rules_card`` macro's HTML for this sheet and table size. It follows from
    those two alone (and the app's URLs), so it is rendered once and then reused: the
    scoreboard shows it on every load."""
    def render() -> Markup:
        card_macro = current_app.jinja_env.get_template("rules/_card.html").module
        return Markup(card_macro.rules_card(sheet, players))  # type: ignore[attr-defined]

    if not has_request_context():
        return render()
    key = ("rules-card", sheet.game, sheet.version, tuple(sheet.options.items()), players)
    return remembered(key, render)


def points_rows(game_key: str) -> list[tuple[str, str]]:
    """The card-points table of a game, from :func:`scoring.card_points`."""
    return list(_points_rows(game_key))


@lru_cache(maxsize=8)
def _points_rows(game_key: str) -> tuple[tuple[str, str], ...]:
    """:func:`points_rows`, worked out once per game (the scoreboard shows it each time)."""
    rows: list[tuple[str, str]] = []
    info = GAMES[game_key]
    if info.jokers:
        rows.append(("Joker", str(card_points(game_key, JOKER))))
    numbered: list[int] = []
    court_first = (Rank.EIGHT, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
    for rank in court_first + tuple(r for r in Rank if r not in court_first):
        if rank not in info.ranks:
            continue
        points = str(card_points(game_key, card(rank, Suit.SPADES)))
        if 2 <= rank <= 10 and points == str(int(rank)):
            numbered.append(int(rank))
        elif rows and rows[-1][0] != "Joker" and rows[-1][1] == points:
            rows[-1] = (f"{rows[-1][0]} {rank.label}", points)
        else:
            rows.append((rank.label, points))
    rows.append((_ranges(sorted(numbered)), "the number on the card"))
    return tuple(rows)


def _ranges(numbers: list[int]) -> str:
    """``2–7, 9, 10`` from ``[2, 3, 4, 5, 6, 7, 9, 10]``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


@dataclass(frozen=True)
class CardLine:
    """One option on a rules card: its words, this table's value and the usual one."""

    key: str
    label: str
    value: str
    usual: str
    section: str


def rules_card_facts(sheet: Sheet, players: int | None = None) -> dict[str, Any]:
    """What a rules card shows: changed options first, then the deal, scoring and end."""
    info = sheet.game_info
    lines = [CardLine(o.key, o.label, o.describe(sheet[o.key]),
                      o.describe(info.default(o.key)), info.options[o.key][1])
             for o in options_for(sheet.game) if _applies(o.key, sheet, players)]
    changed = sheet.differences()
    return {
        "changed": [line for line in lines if line.key in changed],
        "usual": [line for line in lines if line.key not in changed],
        "deal": _deal_words(sheet, players),
        "wild": info.wild_words,
        "stuck": info.stuck_word,
        "scores_points": info.carries_cards,
        "end": _end_words(sheet, players),
    }


def _applies(key: str, sheet: Sheet, players: int | None) -> bool:
    """Whether an option can matter at this table: the two-player ace needs two players
    (and aces that reverse); a target needs the target match end; a game without
    points (Countdown) never has a result changed by the last card's effects."""
    info = sheet.game_info
    if key == "ace_two_players":
        reverses = info.effects_under(sheet.options).get(Rank.ACE) == "reverse"
        return reverses and players in (None, 2)
    if key == "target":
        return sheet["match_end"] == "first-to-target"
    return not (key == "going_out_effects" and not info.carries_cards)


NINE_AGREED = f" ({NINE} only when everyone agrees)"


def _decks_words(info: Game) -> str:
    """``one deck, two for 6–7 players``, from the core's deck rule."""
    two = [p for p in range(info.min_players, info.max_players + 1)
           if info.deck(p).decks == 2]
    one = info.deck(info.min_players).describe() if len(info.ranks) < len(Rank) else "one deck"
    if not two:
        return one
    return f"{one}, two for {two[0]}–{two[-1]} players"


def _deal_words(sheet: Sheet, players: int | None) -> str:
    info = sheet.game_info
    if players is None:
        if info.deal == "hand_size":
            agreed = NINE_AGREED if sheet["hand_size"] == NINE else ""
            return (f"{sheet['hand_size']} cards each{agreed} from "
                    f"{info.deck(info.min_players).describe()}")
        if info.deal == "count":
            return (f"each player's count (everyone starts at {sheet['start_count']}); "
                    f"{_decks_words(info)}")
        two, more = info.cards_each(sheet.options, 2), info.cards_each(sheet.options, 3)
        return f"{two} cards each for 2 players, {more} for 3 or more; {_decks_words(info)}"
    try:
        plan = plan_for_sheet(sheet, players)
    except DealError as exc:
        return str(exc)
    n = plan.cards_each[0]
    each = f"{n} card{'s' if n != 1 else ''} each" if plan.same_for_all else "each player's count"
    agreed = NINE_AGREED if info.deal == "hand_size" and n == NINE else ""
    return f"{each}{agreed} from {plan.deck.describe()} for {players} players"


def _end_words(sheet: Sheet, players: int | None) -> str:
    info = sheet.game_info
    if info.end != "target":
        return info.end_words.format(**sheet.options)
    end = sheet["match_end"]
    if end == "one-hand":
        return "One hand: whoever goes out wins."
    if end == "first-to-50-per-player":
        total = f" ({sheet.target_for(players)} with {players})" if players else ""
        return f"First to 50 points per player{total} wins."
    return f"First to {sheet.target_for(2)} points wins."
