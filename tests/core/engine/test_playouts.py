"""Seeded random playouts under many option mixes, checking invariants at every step.

Invariants: cards are conserved; someone is to act until the hand is over; every
listed move is accepted by apply and every refused move is absent from the list;
undo restores the exact state; hands end (blocked/jammed hands are detected by the
engine itself) within a move cap.

Every run plays each game at each table size under a few sheets chosen so that every
value of every option is played somewhere (:func:`covering_sheets`); the long random
runs (hundreds of hands under random sheets) are marked ``slow`` and run in CI.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.core.engine import HandInPlay, IllegalMoveError, Move
from scorekeeper.core.sheets import GAMES, OPTIONS, Sheet, options_for
from tests.support.engine import MOVE_CAP, candidates, choose, random_sheet

CHECK_EVERY_MOVE = 6  # full list/refusal/undo checks on every n-th position
# Random play is a random walk: under some option mixes (draw until playable, no play
# after drawing, 2s draw two) about one hand in 1,500 runs past the bench's MOVE_CAP
# and still ends. A stuck engine never ends, so the test allows more moves.
PLAYOUT_CAP = 4 * MOVE_CAP


def conserved(g: HandInPlay) -> None:
    everything = [c for k in g.known for c in k] + g.stock + g.pile
    assert None not in everything and not any(g.unknown)
    assert Counter(everything) == Counter(g.deck.cards())


def full_check(g: HandInPlay, rng: random.Random) -> None:
    listed = g.legal_moves()
    key = g.state_key()
    for m in listed:
        g.apply(m)
        g.undo()
        assert g.state_key() == key, f"undo after {m} changed the state"
    listed_set = set(listed)
    for m in candidates(g, rng):
        verdict = g.check(m)
        if verdict.legal is False:
            assert m not in listed_set, f"{m} listed but refused: {verdict}"
            with pytest.raises(IllegalMoveError):
                g.apply(m)
            assert g.state_key() == key
        elif m.kind == "pass" and m.player in g.forced:
            continue  # the engine took this pass already: written out, it is only noted
        elif verdict.implied:  # another seat acts after the turn seat's unsaid pass
            assert Move.pass_(verdict.implied[0]) in listed_set, f"{m}: {verdict}"
        else:
            assert m in listed_set, f"{m} accepted ({verdict}) but not listed"


def playout(g: HandInPlay, rng: random.Random, checks: bool) -> int:
    moves = 0
    while not g.is_over:
        assert moves < PLAYOUT_CAP, f"hand did not end: {g!r}"
        if checks:
            conserved(g)
        else:  # cheap: the number of cards only
            assert sum(g.hand_sizes()) + len(g.stock) + len(g.pile) == g.deck.size
        assert g.current_player is not None
        listed = g.legal_moves()
        assert listed, f"nobody can act: {g.summary()}"
        assert g.current_player in {m.player for m in listed}
        if checks and moves % CHECK_EVERY_MOVE == 0 and rng.random() < 0.5:
            full_check(g, rng)
        g.apply(choose(listed, rng))
        moves += 1
    conserved(g)
    out = g.outcome()
    assert out is not None and g.legal_moves() == []
    if out.result == "out":
        assert out.winner is not None and not out.hands[out.winner]
    else:
        assert out.result == g.variant.info.stuck_word
    return moves


CASES = [(game, n) for game in GAMES for n in range(GAMES[game].min_players,
                                                       GAMES[game].max_players + 1)]


def _values(opt, players: int) -> list[object]:
    """The values of one option a hand can be played under, its ends first: both
    truths, every choice, an integer's least and greatest (a hand size that leaves an
    upcard at this table), no draw limit and the tight ones."""
    if opt.kind == "bool":
        return [True, False]
    if opt.kind == "choice":
        return list(opt.choices)
    if opt.key == "draw_limit":
        return [None, 1, 3]
    low, high = opt.minimum or 1, opt.maximum or 8
    if opt.key == "hand_size" and players == 6:
        high = min(high, 8)
    return [low, high, (low + high) // 2]


def covering_sheets(game: str, players: int, rng: random.Random) -> list[Sheet]:
    """Few sheets, together holding every value of every option that changes how a
    hand is played (the keys :func:`random_sheet` draws): sheet ``i`` takes each
    option's ``i``-th value, the values shuffled per option so that the pairs differ
    from one table size to the next; then the game's standard sheet."""
    drawn = set(random_sheet(game, random.Random(0), players).options)
    columns = {}
    for opt in options_for(game):
        if opt.key in drawn:
            values = _values(opt, players)
            rng.shuffle(values)
            columns[opt.key] = values
    size = max(len(values) for values in columns.values())
    sheets = [Sheet.make(game, {key: values[i % len(values)] for key, values in columns.items()})
              for i in range(size)]
    return [*sheets, Sheet.make(game)]


def test_the_covering_sheets_play_every_value_of_every_option() -> None:
    for game, players in CASES:
        sheets = covering_sheets(game, players, random.Random(f"{game}/{players}"))
        for opt in options_for(game):
            played = {sheet.options[opt.key] for sheet in sheets}
            if opt.key in random_sheet(game, random.Random(0), players).options:
                assert played >= set(_values(opt, players)), (game, players, opt.key)


def _play_and_take_back(g: HandInPlay, rng: random.Random) -> None:
    playout(g, rng, checks=True)
    while g.history:  # undo all the way back to the deal
        g.undo()
    conserved(g)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_playouts_under_covering_sheets_keep_invariants(game: str, players: int) -> None:
    rng = random.Random(f"cover/{game}/{players}")
    for i, sheet in enumerate(covering_sheets(game, players, rng)):
        counts = None
        if game == "countdown" and i % 2 == 0:  # some seats nearer the end than others
            counts = [rng.randint(1, 8) for _ in range(players)]
        _play_and_take_back(HandInPlay.deal(sheet, players, i % players, rng, counts=counts), rng)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES)
def test_random_playouts_keep_invariants(game: str, players: int) -> None:
    rng = random.Random(f"{game}/{players}")
    for i in range(40):
        sheet = random_sheet(game, rng, players) if i % 4 else Sheet.make(game)
        counts = None
        if game == "countdown" and i % 3 == 0:
            counts = [rng.randint(1, 8) for _ in range(players)]
        _play_and_take_back(HandInPlay.deal(sheet, players, i % players, rng, counts=counts), rng)


# How many hands: a run's, and the slow run's (the first ones are the same hands).
QUICK_HANDS = 60
SLOW = pytest.mark.slow


@pytest.mark.parametrize("hands", [QUICK_HANDS, pytest.param(500, marks=SLOW)])
@pytest.mark.parametrize("game", list(GAMES))
def test_many_fast_playouts_end(game: str, hands: int) -> None:
    rng = random.Random(game)
    for _ in range(hands):
        players = rng.randint(GAMES[game].min_players, GAMES[game].max_players)
        g = HandInPlay.deal(random_sheet(game, rng, players), players, 0, rng)
        playout(g, rng, checks=False)


def test_undo_replays_the_same_hand() -> None:
    rng = random.Random(3)
    g = HandInPlay.deal(Sheet.make("last-one"), 4, 1, rng)
    played = []
    while not g.is_over:
        m = choose(g.legal_moves(), rng)
        played.append((g.state_key(), m))
        g.apply(m)
    for key, move in reversed(played):
        assert g.history, f"no move to take back before {move}"
        g.undo()
        assert g.state_key() == key


def test_option_keys_are_all_exercised() -> None:
    rng = random.Random(0)
    seen = {k for game in GAMES for _ in range(20) for k in random_sheet(game, rng).options}
    assert seen == set(OPTIONS)


def hide(g: HandInPlay, rng: random.Random) -> HandInPlay:
    """The same position as a table sees it: some hands and the stock unseen."""
    hands = []
    for seat in range(g.players):
        cards = [str(c) for c in g.known[seat]]
        seen = rng.randint(0, len(cards))
        hands.append({"cards": cards[:seen], "unknown": len(cards) - seen}
                     if seen < len(cards) else cards)
    stock = len(g.stock) if rng.random() < 0.5 else [str(c) for c in reversed(g.stock)]
    return HandInPlay.start(g.sheet, g.players, g.dealer, hands, str(g.upcard), stock,
                      counts=g.counts)


@pytest.mark.parametrize("hands", [6, pytest.param(60, marks=SLOW)])
@pytest.mark.parametrize("game", list(GAMES))
def test_partly_seen_hands_list_only_accepted_moves(game: str, hands: int) -> None:
    rng = random.Random(f"hidden/{game}")
    for _ in range(hands):
        players = rng.randint(GAMES[game].min_players, GAMES[game].max_players)
        g = hide(HandInPlay.deal(random_sheet(game, rng, players), players, 0, rng), rng)
        for _step in range(80):
            if g.is_over:
                break
            assert sum(g.hand_sizes()) + len(g.stock) + len(g.pile) == g.deck.size
            listed = g.legal_moves()
            assert listed, f"nobody can act: {g.summary()}"
            for m in listed:
                assert g.check(m).legal is not False
            key = g.state_key()
            for m in candidates(g, rng):
                if g.check(m).legal is False:
                    assert m not in listed
            g.apply(choose(listed, rng))
            g.undo()
            assert g.state_key() == key
            g.apply(choose(listed, rng))
