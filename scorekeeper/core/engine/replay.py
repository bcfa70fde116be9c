"""The replay request: what the table saw, read into a game and moves, and judged.

A request describes a hand (sheet, seats, hands, upcard, optionally the stock and a
mid-hand situation) and the events that followed. :func:`read_question` is the one
reader of that format: it makes the engine's :class:`~.question.Question`, which
:func:`answer` judges, a verdict per event, the first illegal one and the position
after the last event (an :class:`~.question.Answer`). The JSON API (``POST
/api/v1/replay``) reads its body so; the play checker page builds the question from
its form; both are judged by :func:`replay`, so they always agree (:func:`run` reads
and answers JSON data, for the API). Bad input raises
:class:`~scorekeeper.core.errors.InputError` whose ``field`` names the request field at
fault (``hands[1]``, ``events[3].play``, ``situation.melee``...).

Request::

    {"sheet": {"game": "last-one", "options": {...}},   # Sheet.to_dict() data
     "players": 3, "dealer": 0,
     "hands": [["8S","KH","7D","AC","2C"], 5, ["4S"]],  # per seat: cards, an unseen
                                                        # count, or {"cards", "unknown"}
     "upcard": "4H",
     "stock": 30,                                       # optional: count or cards (top first)
     "pile": 0,                                         # optional: what lies under the
                                                        # upcard: a count, or the cards
                                                        # (nearest the upcard first)
     "counts": [8, 7, 8],                               # optional, Countdown only
     "names": ["Ann", "Bo", "Cy"],                      # optional: seat names for reasons
     "situation": {"turn": 2, "direction": -1, "active_suit": "D", "upcard_as": "4H",
                   "pending_draw": 2, "melee": {"aggressor": 0, "defender": 1},
                   "free_play": false, "uncalled": null, "drawn": 0},  # optional, every
                                                                       # field optional
     "events": [{"player": 1, "play": "8S", "suit": "D"}, {"player": 2, "draw": null},
                {"player": 0, "play": "JK", "as": "5H"}, {"player": 1, "pass": true},
                {"player": 2, "draw": ["7C", "KD"]}, {"player": 2, "draw": 3}],
     "include_legal_moves": false}

Events: ``play`` (a card; ``suit`` for an 8 or wild, ``as`` for a joker's card),
``draw`` (the card, or null when nobody saw it; a list of cards, or a number of unseen
cards, draws several in one event: owed cards or a run of draws), ``pass``, ``call``
("last one"/"last card") and ``name`` (a dealer naming a starting 8's suit or a
starting joker's card), each with the ``player`` (seat number from 0). When the engine
knows the seat on turn has nothing left but the pass, it takes that pass and the turn
moves on (``current_player`` is the next seat), in the position the request starts
from too; the pass written out afterwards is still accepted. A pass the table left
unsaid (a drawn card kept, a 3's free play declined...) is judged as the written one
when the next seat acts; that step lists it in ``implied``. Each step carries the
verdict's fields: ``needs_suit``, ``assumed`` (seats) and ``draws``; the passes in
``implied`` and ``moved_on`` (words) are also listed by seat, in ``implied_seats`` and
``moved_on_seats``.

``situation`` fields: ``turn`` (default: left of the dealer), ``direction`` (1
clockwise, -1), ``upcard_as`` (what a joker upcard stands for), ``active_suit``
(default the upcard's suit; another suit means it was named with an 8/wild, so rank
no longer matches; null lets any card follow), ``pending_draw`` (cards owed by the
seat on turn: from 2s, or by the defender when a melee is given), ``melee``
(aggressor and defender; the turn goes to the defender), ``free_play`` (the seat on
turn may put a free card on a 3), ``uncalled`` (a seat holding one card that has not
called yet), ``drawn`` (cards the seat on turn has drawn this turn, already counted in
its hand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from scorekeeper.core.cards import Card, CardError, DeckError, Suit, parse_card
from scorekeeper.core.engine import setup as engine_setup
from scorekeeper.core.engine.moves import IllegalMoveError, Move, SetupError, Verdict
from scorekeeper.core.engine.question import Answer, Held, Judged, Question, Situation
from scorekeeper.core.engine.state import HandInPlay
from scorekeeper.core.engine.wording import draws_reason
from scorekeeper.core.errors import InputError
from scorekeeper.core.sheets import Sheet, read_sheet

__all__ = ["answer", "read_event_moves", "read_events", "read_game", "read_question", "replay",
           "run", "start"]

MAX_EVENTS = 5000  # a 7-player hand with reshuffles runs past 500
MAX_TEXT = 200  # characters of one card or hand text
MAX_OWED = 108  # pending_draw: more cards than two decks hold is nonsense
REQUEST_KEYS = ("sheet", "players", "dealer", "hands", "upcard", "stock", "pile",
                "situation", "counts", "names", "events", "include_legal_moves")
MAX_NAME = 60
ACTIONS = ("play", "draw", "pass", "call", "name")
SITUATION_KEYS = engine_setup.SITUATION_KEYS


def _int(value: Any, field: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{field} must be {what} from {low} to {high}, not {value!r}", field)
    return value


def _text(value: Any, field: str, limit: int = MAX_TEXT) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise InputError(f"{field} must be card text (at most {limit} characters)", field)
    return value


def _card(value: Any, field: str) -> Card:
    try:
        return parse_card(_text(value, field))
    except CardError as exc:
        raise InputError(str(exc), field) from None


def _suit(value: Any, field: str) -> Suit:
    try:
        return Suit.parse(_text(value, field))
    except CardError as exc:
        raise InputError(str(exc), field) from None


# ----------------------------------------------------------------- the table

def _hands(data: Any, players: int) -> tuple[Held, ...]:
    """What each seat holds, from the request's ``hands``."""
    if not isinstance(data, list) or len(data) != players:
        raise InputError(f"hands must list one entry per seat ({players})", "hands")
    held: list[Held] = []
    for seat, entry in enumerate(data):
        field = f"hands[{seat}]"
        if isinstance(entry, str):
            _text(entry, field, 4 * MAX_TEXT)
        elif isinstance(entry, list):
            if len(entry) > 108:
                raise InputError(f"{field} holds more cards than any deck", field)
            for c in entry:
                _text(c, field)
        elif isinstance(entry, int) and not isinstance(entry, bool) and entry > 108:
            raise InputError(f"{field} holds more cards than any deck", field)
        try:
            known, unknown = engine_setup.read_hand(entry, seat)
        except (SetupError, CardError) as exc:
            raise InputError(str(exc), field) from None
        if not known and not unknown:
            raise InputError(f"{field} is empty: somebody who went out has ended the hand", field)
        held.append(Held(tuple(known), unknown))
    return tuple(held)


def _check_deck(sheet: Sheet, players: int, hands: Sequence[Held], upcard: Card) -> None:
    """Hands and upcard against the deck, before the stock is considered."""
    seen = [c for hand in hands for c in hand.cards]
    count = sum(len(hand.cards) + hand.unknown for hand in hands)
    try:
        engine_setup.check_deck(sheet.game_info.deck(players), [*seen, upcard], count + 1)
    except DeckError as exc:
        raise InputError(str(exc), "hands") from None


def _situation(data: Any) -> dict[str, Any] | None:
    """Type checks the engine leaves loose (it reads them again, with the seats)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise InputError("situation must be an object", "situation")
    for key in data:
        if key not in SITUATION_KEYS:
            raise InputError(f"unknown situation field {key!r}: use {', '.join(SITUATION_KEYS)}",
                           f"situation.{key}")
    if data.get("active_suit") is not None:
        _suit(data["active_suit"], "situation.active_suit")
    if data.get("upcard_as") is not None:
        _card(data["upcard_as"], "situation.upcard_as")
    if "direction" in data and (type(data["direction"]) is not int
                                or data["direction"] not in (1, -1)):
        raise InputError("situation.direction must be 1 or -1", "situation.direction")
    if "pending_draw" in data:
        _int(data["pending_draw"], "situation.pending_draw", 0, MAX_OWED, "a number of cards")
    if "free_play" in data and not isinstance(data["free_play"], bool):
        raise InputError("situation.free_play must be true or false", "situation.free_play")
    if "drawn" in data:
        _int(data["drawn"], "situation.drawn", 0, MAX_OWED, "a number of cards")
    return data


def _names(data: Any, players: int) -> list[str] | None:
    """Optional seat names: verdict reasons then say "Ann" instead of "seat 0"."""
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != players or not all(
            isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in data):
        raise InputError(f"names must give each of the {players} seats a name "
                       f"(at most {MAX_NAME} characters)", "names")
    return data


def read_game(data: Mapping[str, Any]) -> HandInPlay:
    """The game a replay request describes, or :class:`InputError` naming the field."""
    return _start(*_read_setup(data))


def _read_setup(data: Mapping[str, Any]) -> tuple[Question, Mapping[str, Any] | None]:
    """The request's hand without its events, and its situation as sent (type checked:
    the engine reads it with the seats when the game starts)."""
    for key in data:
        if key not in REQUEST_KEYS:
            raise InputError(f"unknown field {key!r}", str(key)[:60])
    sheet = read_sheet(data.get("sheet"))
    info = sheet.game_info
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise InputError(f"players must be a whole number, not {players!r}", "players")
    problem = info.players_problem(players)
    if problem:
        raise InputError(problem, "players")
    dealer = _int(data.get("dealer", 0), "dealer", 0, players - 1, "a seat")
    hands = _hands(data.get("hands"), players)
    upcard = _card(data.get("upcard"), "upcard")
    _check_deck(sheet, players, hands, upcard)
    stock = _cards_or_count(data.get("stock"), "stock", "the cards, top first")
    pile = _cards_or_count(data.get("pile"), "pile", "the cards under the upcard, "
                           "nearest first")
    counts = data.get("counts")
    if counts is not None and not isinstance(counts, list):
        raise InputError("counts must list each seat's count", "counts")
    situation = _situation(data.get("situation"))
    names = _names(data.get("names"), players)
    return Question(sheet, players, hands, upcard, dealer, names=_kept(names), stock=_kept(stock),
                    pile=_kept(pile), counts=_kept(counts)), situation


def _kept(value: Any) -> Any:
    """A request's list as a tuple (a question does not change)."""
    return tuple(value) if isinstance(value, list) else value


def _start(question: Question, situation: Mapping[str, Any] | None) -> HandInPlay:
    """The game the question's hand starts (from ``situation``, as the request says
    it); the position's own checks are the engine's, refusals name the field."""
    hands = [{"cards": list(h.cards), "unknown": h.unknown} for h in question.hands]
    try:
        return HandInPlay.start(question.sheet, question.players, question.dealer, hands,
                          question.upcard, question.stock, situation, question.counts,
                          names=question.names, pile=question.pile)
    except DeckError as exc:
        raise InputError(str(exc), "pile" if question.pile is not None else "stock") from None
    except CardError as exc:  # card text in the stock, the pile or the situation
        at = ("stock" if question.stock is not None else "pile" if question.pile is not None
              else "situation")
        raise InputError(str(exc), at) from None


def start(question: Question) -> HandInPlay:
    """The game a question starts from, or :class:`InputError` naming the request
    field at fault (a question built in code is checked as a request is)."""
    _check_deck(question.sheet, question.players, question.hands, question.upcard)
    situation = None if question.situation is None else question.situation.to_json()
    return _start(question, situation)


def read_question(data: Mapping[str, Any]) -> Question:
    """A whole replay request as a :class:`Question`: the one reader of the format.
    :class:`InputError` names the field at fault."""
    return _read(data)[0]


def _read(data: Mapping[str, Any]) -> tuple[Question, HandInPlay]:
    """The question and the game it starts: the position is checked (by starting the
    game) before the events are read, so a request wrong in both is refused for its
    position."""
    question, situation = _read_setup(data)
    game = _start(question, situation)
    events = read_event_moves(data.get("events"), question.players)
    want = data.get("include_legal_moves", False)
    if not isinstance(want, bool):
        raise InputError("include_legal_moves must be true or false", "include_legal_moves")
    return replace(question, situation=None if situation is None else Situation.of(situation),
                   events=tuple(tuple(moves) for moves in events),
                   include_legal_moves=want), game


def _cards_or_count(value: Any, field: str, cards: str) -> Any:
    """Type checks for ``stock`` and ``pile``: a count, card text or a list of cards."""
    if isinstance(value, list):
        if len(value) > 108:
            raise InputError(f"{field} holds more cards than any deck", field)
        for c in value:
            _text(c, field)
    elif isinstance(value, bool) or (value is not None and not isinstance(value, (int, str))):
        raise InputError(f"{field} must be a number of cards or {cards}", field)
    elif isinstance(value, str):
        _text(value, field, 4 * MAX_TEXT)
    return value


# ----------------------------------------------------------------- events

def _event_kind(event: Any, at: str) -> str:
    """The one action an event object does, its fields checked."""
    if not isinstance(event, dict):
        raise InputError("an event must be an object like {\"player\": 1, \"play\": \"4S\"}", at)
    for key in event:
        if key not in (*ACTIONS, "player", "suit", "as"):
            raise InputError(f"unknown event field {key!r}", f"{at}.{str(key)[:40]}")
    kinds = [k for k in ACTIONS if k in event]
    if len(kinds) != 1:
        raise InputError("an event does exactly one of play, draw, pass, call, name", at)
    return kinds[0]


def read_event(event: Any, i: int, players: int) -> list[Move]:
    """One JSON event as engine moves: one, or one per card of a multi-card draw (see
    the OpenAPI description for the format)."""
    at = f"events[{i}]"
    kind = _event_kind(event, at)
    player = _int(event.get("player"), f"{at}.player", 0, players - 1, "a seat")
    value = event[kind]
    if kind in ("pass", "call", "name") and value is not True:
        raise InputError(f"{kind} must be true", f"{at}.{kind}")
    if kind not in ("play", "name") and ("suit" in event or "as" in event):
        extra = "suit" if "suit" in event else "as"
        raise InputError(f"{kind} events name no suit or card", f"{at}.{extra}")
    suit = None if event.get("suit") is None else _suit(event["suit"], f"{at}.suit")
    as_card = None if event.get("as") is None else _card(event["as"], f"{at}.as")
    if kind == "play":
        return [Move.play(player, _card(value, f"{at}.play"), suit, as_card)]
    if kind == "draw":
        return _draws(player, value, f"{at}.draw")
    if kind == "name":
        return [Move.name(player, suit, as_card)]
    return [Move.pass_(player) if kind == "pass" else Move.call(player)]


def _draws(player: int, value: Any, at: str) -> list[Move]:
    """``draw``: a card, null (unseen), a list of cards, or a number of unseen cards."""
    if value is None:
        return [Move.draw(player)]
    if isinstance(value, list):
        if not 1 <= len(value) <= MAX_OWED:
            raise InputError(f"draw lists from 1 to {MAX_OWED} cards", at)
        return [Move.draw(player, _card(c, f"{at}[{n}]")) for n, c in enumerate(value)]
    if isinstance(value, int) and not isinstance(value, bool):
        return [Move.draw(player)] * _int(value, at, 1, MAX_OWED, "a number of cards")
    return [Move.draw(player, _card(value, at))]


def read_events(data: Any, players: int) -> list[Move]:
    """The request's ``events`` (default none) as moves, in order (a multi-card draw
    gives one move per card)."""
    return [m for moves in read_event_moves(data, players) for m in moves]


def read_event_moves(data: Any, players: int) -> list[list[Move]]:
    """The request's ``events`` (default none), each as its moves."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise InputError("events must be a list", "events")
    if len(data) > MAX_EVENTS:
        raise InputError(f"at most {MAX_EVENTS} events", "events")
    return [read_event(e, i, players) for i, e in enumerate(data)]


# ----------------------------------------------------------------- replay

def legal_moves_json(game: HandInPlay) -> dict[str, Any]:
    """Legal moves per seat that may act, keyed by seat number as text."""
    return {str(seat): moves for seat, moves in sorted(game.legal_moves_by_player().items())}


def rule_url(game_key: str, rule: str) -> str:
    """The rules-reference address of a verdict's rule."""
    return f"/rules/{game_key}#{rule}"


def state_json(game: HandInPlay) -> dict[str, Any]:
    """The position after the replay, as documented in ``ReplayState``."""
    s = game.summary()
    keys = ("current_player", "actors", "upcard", "upcard_as", "active_suit", "direction",
            "hand_sizes", "stock", "pending_draw", "melee", "over", "outcome")
    return {k: s[k] for k in keys}


def _judge(game: HandInPlay, moves: list[Move]) -> tuple[Verdict, list[int], bool]:
    """Apply one event's moves: the verdict to show (the refusal, else the least sure,
    else the last), the seats whose unsaid pass was taken, and whether all went in. An
    event of several draws is said once, with the cards it drew (``draws``)."""
    shown: Verdict | None = None
    implied: list[int] = []
    for move in moves:
        try:
            verdict = game.apply(move)
        except IllegalMoveError as err:
            return err.verdict, implied + list(err.verdict.implied), False
        implied += verdict.implied
        if shown is None or (verdict.legal is None and shown.legal is True):
            shown = verdict
    assert shown is not None
    n = len(moves)
    if n > 1 and shown.legal is True:  # one event, several cards: say so once
        reason = draws_reason(game.seat_name(moves[0].player), shown.draws, n)
        shown = shown.but(reason=reason)
    return shown, implied, True


def replay(game: HandInPlay, events: Sequence[Sequence[Move]], want_moves: bool = False) -> Answer:
    """Apply each event's moves in order, judging each event; stop at the first
    illegal one.

    A move the engine cannot rule on (``legal`` None: it depends on cards nobody saw)
    is applied as if allowed, since the table saw it happen. A step whose event came
    after a pass the table left unsaid lists that seat in ``implied``; a step after
    which the engine took the pass of a seat with nothing else left (the turn moved
    on) lists it in ``moved_on``.
    """
    steps: list[Judged] = []
    first_illegal = None
    names = tuple(game.seat_name(seat) for seat in range(game.players))
    for i, moves in enumerate(events):
        before = legal_moves_json(game) if want_moves else None
        taken = game.passes_taken
        verdict, implied, ok = _judge(game, list(moves))
        if not ok:
            first_illegal = i
        now = game.passes_taken
        moved_on = tuple(game.forced) if now and now is not taken and len(now) >= len(
            taken) else ()
        steps.append(Judged(verdict, rule_url(game.variant.game, verdict.rule),
                            tuple(implied), moved_on, names, before))
        if first_illegal is not None:
            break
    state = state_json(game)
    if want_moves:
        state["legal_moves"] = legal_moves_json(game)
    return Answer(tuple(steps), first_illegal, state)


def answer(question: Question) -> Answer:
    """Judge the question's events from its hand; :class:`InputError` names the
    request field at fault."""
    return replay(start(question), question.events, question.include_legal_moves)


def run(data: Mapping[str, Any]) -> dict[str, Any]:
    """Read a whole replay request into its question and answer it as JSON data (the
    game started to check the position is the one replayed); :class:`InputError`
    names the field.

    >>> run({"sheet": {"game": "crazy-eights"}, "players": 2, "hands": [["8S", "KH"], 3],
    ...      "upcard": "KD", "events": [{"player": 1, "play": "QD"},
    ...                                 {"player": 0, "play": "8S", "suit": "H"}]})["ok"]
    True
    """
    question, game = _read(data)
    return replay(game, question.events, question.include_legal_moves).to_json()
