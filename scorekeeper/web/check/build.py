"""The replay request a validated checker form describes (see api/replay.py).

Seats on the page are numbered from 1 (or named, inside a match); the replay request
numbers them from 0. The common case is one disputed play on a described situation;
the advanced case is a list of event lines (:mod:`.lines`). Hand sizes are one count
for everyone (``held``) unless a seat's own field says what it holds (``hold-2``).
Naming a ``dealer`` starts from the deal: no situation, the upcard acts as the starter
and the seat after the dealer plays first. The request carries the seat names, so
reasons say "Ann" or "Seat 2".

Each field has been read by its own validator (:mod:`.fields`); what is checked here
needs several fields at once, and a problem is an :class:`InputError` naming the field
to show it on.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.core.cards import Suit, parse_card
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.forms import CheckForm, Question
from scorekeeper.web.check.lines import read_lines


def ask(form: CheckForm) -> Question | None:
    """The question the form asks, once asked and every field is valid; else None
    (the errors are on their fields). Also kept as ``form.question``."""
    form.question = None
    if form.errors_by_name() or not form.is_asked():
        return None
    fields = [f for f in form if f.name != "game" and not f.name.startswith("opt-")]
    if not all([f.validate(form) for f in fields]):
        return None
    try:
        form.question = build(form, form.sheet, form.names)
    except InputError as exc:
        form.put(exc.field or "up", exc.message)
    return form.question


def build(form: CheckForm, sheet: Sheet, names: list[str] | None) -> Question:
    """The replay request of a form whose fields are valid, or :class:`InputError`."""
    players = form.seat_count
    problem = sheet.game_info.players_problem(players)
    if problem:
        raise InputError(problem, "players")
    seats = list(names) if names else [f"Seat {n}" for n in range(1, players + 1)]
    up = form.up.value
    if up is None:
        raise InputError("Say which card is face up.", "up")
    words = [f"Upcard {parse_card(up).pretty}"]
    situation: dict[str, Any] | None = None
    dealer = (form.dealer.value or 0) - 1
    if dealer >= 0:
        _check_fresh(form, seats, dealer)
        words.append(f"{seats[dealer]} dealt, play starts from the deal")
    else:
        situation = _situation(form, seats, words)
        dealer = (situation["turn"] - 1) % players
    held = form.held.value
    holds = form.holds()
    hands: list[Any] = [held if h.value is None else h.value for h in holds[:players]]
    for extra in holds[players:]:
        if extra.text:
            raise InputError(f"There are only {players} players.", extra.name)
    request = {"sheet": {"game": sheet.game, "options": dict(sheet.options)},
               "players": players, "dealer": dealer, "upcard": up, "situation": situation,
               "names": seats, "hands": hands}
    own_seats = {s for s, h in enumerate(holds[:players]) if h.text}
    lines = [ln.strip() for ln in (form.events.data or "").splitlines() if ln.strip()]
    if lines:
        request["events"] = read_lines(lines, players, names)
        text = "; ".join(words) + f": {len(lines)} play{'s' if len(lines) > 1 else ''}"
        return Question(sheet, request, text, True, lines, own_seats)
    question = _single(form, sheet, request, words, seats)
    question.held_seats = own_seats
    return question


def _situation(form: CheckForm, seats: list[str], words: list[str]) -> dict[str, Any]:
    """The situation of a hand under way: turn, named suit, joker upcard, melee or owed
    (described in ``words`` too)."""
    players = len(seats)
    turn = (form.turn.value or 1) - 1
    situation: dict[str, Any] = {"turn": turn}
    suit = form.suit.value
    if suit:
        situation["active_suit"] = suit
        words.append(f"{Suit(suit).label} named")
    if form.upas.value:
        situation["upcard_as"] = form.upas.value
    if form.melee_said() is True:
        who = (form.who.value or turn + 1) - 1
        melee = situation["melee"] = melee_between(who, players, form.ma.value, form.md.value)
        # Said back as the table entered it: who attacks whom only when the table said.
        said = (f": {seats[melee['aggressor']]} attacks {seats[melee['defender']]}"
                if form.ma.value or form.md.value else "")
        words.append(f"a melee is on{said}")
        words.append(f"{seats[turn]}'s turn")
    else:
        owed = form.owed.value
        if owed:
            situation["pending_draw"] = owed
            words.append(f"{seats[turn]} owes {owed} cards")
    return situation


def melee_between(who: int, players: int, aggressor: int | None = None,
                  defender: int | None = None) -> dict[str, int]:
    """A melee's seats (from 0) from the form's (from 1, None when not said): by
    default the run's last card came from the seat before the one who plays, and the
    one who plays answers it (anyone but the aggressor may)."""
    attack = aggressor - 1 if aggressor else (who - 1) % players
    defend = defender - 1 if defender else (who if who != attack else (attack + 1) % players)
    return {"aggressor": attack, "defender": defend}


def _check_fresh(form: CheckForm, seats: list[str], dealer: int) -> None:
    """From the deal there is no situation: refuse the fields that would describe one."""
    described = [label for given, label in ((form.suit.text, "the suit named"),
                                            (form.upas.text, "what a joker upcard stands for"),
                                            (form.melee_said() is True and "on", "the melee"),
                                            (form.drawn.text, "the card drawn"))
                 if given]
    if form.drew.text not in ("", "0"):
        described.append("the cards drawn this turn")
    if form.owed.text not in ("", "0"):
        described.append("the cards to draw")
    if described:
        raise InputError(f"Starting from {seats[dealer]}'s deal, the upcard alone sets the "
                         f"scene: clear {' and '.join(described)}, or the dealer.", "dealer")


def _single(form: CheckForm, sheet: Sheet, request: dict[str, Any],
            words: list[str], seats: list[str]) -> Question:
    """One disputed play by the player in ``who`` (default: the one on turn)."""
    players, situation = request["players"], request["situation"]
    turn = situation["turn"] if situation else (request["dealer"] + 1) % players
    card = form.card.value
    if card is None:
        raise InputError("Say which card was played.", "card")
    who = (form.who.value or turn + 1) - 1
    event: dict[str, Any] = {"player": who, "play": card}
    named, as_card = form.csuit.value, form.cas.value
    if named:
        event["suit"] = named
    if as_card:
        event["as"] = as_card
    request["hands"][who] = _with_card(request["hands"][who], card)
    _drew(form, request, words, seats, who, turn)
    if form.last.value == "yes":
        request["hands"][who] = [card]
        words.append(f"it is {seats[who]}'s last card")
    request["events"] = [event]
    play = parse_card(card).pretty + (f" as {parse_card(as_card).pretty}" if as_card else "")
    play += f" naming {Suit(named).label}" if named else ""
    melee = bool(situation and "melee" in situation)
    whom = seats[who] + ("" if melee else " (on turn)" if who == turn else " (out of turn)")
    return Question(sheet, request, "; ".join(words) + f". May {whom} play {play}?", False,
                    who=who)


def _drew(form: CheckForm, request: dict[str, Any], words: list[str],
          seats: list[str], who: int, turn: int) -> None:
    """"Drew this turn": how many cards the player on turn has drawn (and the card,
    when seen), so "may I play after drawing?" is one question, not a sequence."""
    drew, drawn = form.drew.value, form.drawn.value
    if drawn and not drew:
        drew = 1
    if not drew:
        return
    situation = request["situation"]
    if situation is None or "melee" in situation or situation.get("pending_draw"):
        raise InputError("Drawing this turn goes with a plain turn: no melee, no cards owed, "
                         "not from the deal.", "drew")
    if who != turn:
        raise InputError(f"Only the player on turn ({seats[turn]}) can have drawn this turn.",
                         "drew")
    situation["drawn"] = drew
    if drawn:
        request["hands"][who] = _with_card(request["hands"][who], drawn)
    seen = f" ({parse_card(drawn).pretty})" if drawn else ""
    words.append(f"{seats[who]} drew {drew} card{'s' if drew > 1 else ''}{seen} this turn")


def _with_card(hand: Any, card: str) -> Any:
    """The player's hand as the request gives it, holding the card they played."""
    if isinstance(hand, int):
        return {"cards": [card], "unknown": max(hand - 1, 0)}
    if isinstance(hand, list):
        return hand if card in hand else [*hand, card]
    if card in hand["cards"]:
        return hand
    return {"cards": [*hand["cards"], card], "unknown": max(hand["unknown"] - 1, 0)}
