"""The engine's question a validated checker form asks (see core/engine/question.py).

Seats on the page are numbered from 1 (or named, inside a match); the engine numbers
them from 0. The common case is one disputed play on a described situation; the
advanced case is a list of event lines (:mod:`.lines`). Hand sizes are one count for
everyone (``held``) unless a seat's own field says what it holds (``hold-2``). Naming a
``dealer`` starts from the deal: no situation, the upcard acts as the starter and the
seat after the dealer plays first. The question carries the seat names, so reasons say
"Ann" or "Seat 2".

Each field has been read by its own validator (:mod:`.fields`) into the core's objects
(cards, suits, what a seat holds); what is checked here needs several fields at once,
and a problem is an :class:`InputError` naming the form field to show it on.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.question import Held, Question, Situation
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet
from scorekeeper.web.check.forms import Asked, CheckForm
from scorekeeper.web.check.lines import read_lines


def ask(form: CheckForm) -> Asked | None:
    """What the form asks, once asked and every field is valid; else None (the
    errors are on their fields). Also kept as ``form.asked``."""
    form.asked = None
    if form.errors_by_name() or not form.is_asked():
        return None
    fields = [f for f in form if f.name != "game" and not f.name.startswith("opt-")]
    if not all([f.validate(form) for f in fields]):
        return None
    try:
        form.asked = build(form, form.sheet, form.names)
    except InputError as exc:
        form.put(exc.field or "up", exc.message)
    return form.asked


def build(form: CheckForm, sheet: Sheet, names: list[str] | None) -> Asked:
    """The question of a form whose fields are valid, or :class:`InputError`."""
    players = form.seat_count
    problem = sheet.game_info.players_problem(players)
    if problem:
        raise InputError(problem, "players")
    seats = list(names) if names else [f"Seat {n}" for n in range(1, players + 1)]
    up = form.up.value
    if up is None:
        raise InputError("Say which card is face up.", "up")
    words = [f"Upcard {up.pretty}"]
    situation: Situation | None = None
    dealer = (form.dealer.value or 0) - 1
    if dealer >= 0:
        _check_fresh(form, seats, dealer)
        words.append(f"{seats[dealer]} dealt, play starts from the deal")
    else:
        situation = _situation(form, seats, words)
        dealer = ((situation.turn or 0) - 1) % players
    question = Question(sheet, players, _hands(form, players), up, dealer, situation,
                        tuple(seats))
    own_seats = frozenset(s for s, h in enumerate(form.holds()[:players]) if h.text)
    lines = tuple(ln.strip() for ln in (form.events.data or "").splitlines() if ln.strip())
    if not lines:
        return _single(form, question, words, own_seats)
    question = replace(question, events=read_lines(lines, players, names))
    text = "; ".join(words) + f": {len(lines)} play{'s' if len(lines) > 1 else ''}"
    return Asked(question, text, True, lines, own_seats)


def _hands(form: CheckForm, players: int) -> tuple[Held, ...]:
    """What each seat holds: its own field, else the count for everyone."""
    holds = form.holds()
    for extra in holds[players:]:
        if extra.text:
            raise InputError(f"There are only {players} players.", extra.name)
    return tuple(Held(unknown=form.held.value) if h.value is None else h.value
                 for h in holds[:players])


def _situation(form: CheckForm, seats: list[str], words: list[str]) -> Situation:
    """The situation of a hand under way: turn, named suit, joker upcard, melee or owed
    (described in ``words`` too)."""
    turn = (form.turn.value or 1) - 1
    suit = form.suit.value
    if suit:
        words.append(f"{suit.label} named")
    situation = Situation(turn, active_suit=suit, upcard_as=form.upas.value)
    if form.melee_said() is True:
        who = (form.who.value or turn + 1) - 1
        melee = melee_between(who, len(seats), form.ma.value, form.md.value)
        # Said back as the table entered it: who attacks whom only when the table said.
        said = (f": {seats[melee[0]]} attacks {seats[melee[1]]}"
                if form.ma.value or form.md.value else "")
        words.append(f"a melee is on{said}")
        words.append(f"{seats[turn]}'s turn")
        return replace(situation, melee=melee)
    owed = form.owed.value
    if owed:
        words.append(f"{seats[turn]} owes {owed} cards")
    return replace(situation, pending_draw=owed)


def melee_between(who: int, players: int, aggressor: int | None = None,
                  defender: int | None = None) -> tuple[int, int]:
    """A melee's (aggressor, defender) seats, from 0, from the form's (from 1, None when
    not said): by default the run's last card came from the seat before the one who
    plays, and the one who plays answers it (anyone but the aggressor may)."""
    attack = aggressor - 1 if aggressor else (who - 1) % players
    defend = defender - 1 if defender else (who if who != attack else (attack + 1) % players)
    return attack, defend


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


def _single(form: CheckForm, question: Question, words: list[str],
            own_seats: frozenset[int]) -> Asked:
    """One disputed play by the player in ``who`` (default: the one on turn)."""
    seats, situation = question.names or (), question.situation
    turn = situation.turn if situation else None
    turn = (question.dealer + 1) % question.players if turn is None else turn
    card = form.card.value
    if card is None:
        raise InputError("Say which card was played.", "card")
    who = (form.who.value or turn + 1) - 1
    named, as_card = form.csuit.value, form.cas.value
    question = question.holding(who, question.hands[who].with_card(card))
    question = _drew(form, question, words, who, turn)
    if form.last.value == "yes":
        question = question.holding(who, Held((card,)))
        words.append(f"it is {seats[who]}'s last card")
    question = replace(question, events=((Move.play(who, card, named, as_card),),))
    play = card.pretty + (f" as {as_card.pretty}" if as_card else "")
    play += f" naming {named.label}" if named else ""
    melee = bool(situation and situation.melee)
    whom = seats[who] + ("" if melee else " (on turn)" if who == turn else " (out of turn)")
    return Asked(question, "; ".join(words) + f". May {whom} play {play}?", False,
                 held_seats=own_seats, who=who)


def _drew(form: CheckForm, question: Question, words: list[str], who: int,
          turn: int) -> Question:
    """"Drew this turn": how many cards the player on turn has drawn (and the card,
    when seen), so "may I play after drawing?" is one question, not a sequence."""
    drew, drawn = form.drew.value, form.drawn.value
    if drawn and not drew:
        drew = 1
    if not drew:
        return question
    situation, seats = question.situation, question.names or ()
    if situation is None or situation.melee or situation.pending_draw:
        raise InputError("Drawing this turn goes with a plain turn: no melee, no cards owed, "
                         "not from the deal.", "drew")
    if who != turn:
        raise InputError(f"Only the player on turn ({seats[turn]}) can have drawn this turn.",
                         "drew")
    if drawn:
        question = question.holding(who, question.hands[who].with_card(drawn))
    seen = f" ({drawn.pretty})" if drawn else ""
    words.append(f"{seats[who]} drew {drew} card{'s' if drew > 1 else ''}{seen} this turn")
    return replace(question, situation=replace(situation, drawn=drew))
