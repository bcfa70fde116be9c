"""Helpers for the engine's tests and its benchmark: random sheets, random moves that
finish games like real ones, and the sheet that plays like OpenSpiel's crazy_eights."""

from __future__ import annotations

import random
import sys

from scorekeeper.core.cards import ALL_CARDS, JOKER, Suit
from scorekeeper.core.engine.moves import Move
from scorekeeper.core.engine.state import Game
from scorekeeper.core.sheets import OPTIONS, Sheet, options_for

# Our Crazy Eights sheet that plays like OpenSpiel's: draw up to five cards a turn even
# holding a playable card, then play any playable card or pass; no special cards.
OPENSPIEL_SHEET = {"draw_limit": 5, "play_after_draw": True, "draw_with_playable": True,
                   "starter_effects": False, "match_end": "one-hand",
                   "ace_two_players": "none", "queen_skips": False, "ace_reverses": False,
                   "two_draws_two": False}
if "refill" in OPTIONS:  # OpenSpiel reshuffles the pile into an unseen stock
    OPENSPIEL_SHEET["refill"] = "shuffle"

MOVE_CAP = 5000


def choose(moves: list[Move], rng: random.Random) -> Move:
    """A random move, preferring plays (so random games finish like real ones)."""
    plays = [m for m in moves if m.kind in ("play", "call")]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.choice(moves)


def candidates(g: Game, rng: random.Random) -> list[Move]:
    """Moves worth asking about, by every seat: draws, passes, calls, and plays of the
    cards it holds, with and without a named suit (a joker as a random card)."""
    out: list[Move] = []
    for p in range(g.players):
        out += [Move.draw(p), Move.pass_(p), Move.call(p)]
        for c in set(g.known[p]):
            if c is JOKER:
                named = rng.choice(ALL_CARDS)
                out += [Move.play(p, c, as_card=named), Move.play(p, c, Suit.HEARTS, named)]
            else:
                out += [Move.play(p, c), Move.play(p, c, rng.choice(list(Suit)))]
    return out


def play_out(game: Game, rng: random.Random, cap: int = MOVE_CAP) -> int:
    """Play random legal moves until the hand ends; returns the moves made.
    Raises RuntimeError if ``cap`` moves do not finish it."""
    moves = 0
    while not game.is_over:
        if moves >= cap:
            raise RuntimeError(f"no end after {cap} moves: {game!r}")
        game.apply(choose(game.legal_moves(), rng))
        moves += 1
    return moves


def random_sheet(game: str, rng: random.Random, players: int = 2) -> Sheet:
    """A sheet with every option drawn at random within its range (a hand size that
    leaves an upcard)."""
    values = {}
    for opt in options_for(game):
        if opt.kind == "bool":
            values[opt.key] = rng.random() < 0.5
        elif opt.kind == "choice":
            values[opt.key] = rng.choice(list(opt.choices))
        elif opt.key == "draw_limit":
            values[opt.key] = rng.choice([None, 1, 1, 2, 3])
        elif opt.key in ("hand_size", "start_count", "last_card_penalty"):
            values[opt.key] = rng.randint(opt.minimum or 1, opt.maximum or 8)
    if values.get("hand_size") == 9 and players == 6:
        values["hand_size"] = 8
    return Sheet.make(game, values)


def undo_bytes(g: Game) -> int:
    """Bytes a game's undo log holds: the list, each record with everything in it
    that is not shared (numbers past the small ones Python keeps, and lists no longer
    the game's own: an old pile, an old debts list). The rare facts' tuples are the
    variant's, shared by every game, so they are not counted."""
    live = {id(g.pile), id(g.stock), id(g.debts)}
    seen: set[int] = set()
    total = sys.getsizeof(g.history)
    for rec in g.history:
        total += sys.getsizeof(rec)
        for item in rec:
            if isinstance(item, list) and id(item) not in live | seen:
                seen.add(id(item))
                total += sys.getsizeof(item)
            elif isinstance(item, int) and not isinstance(item, bool) and item > 256:
                total += sys.getsizeof(item)
    return total
