"""The fast path agrees with the checked path, undo is exact, and the undo log is small.

Moves listed by ``legal_moves`` are made without judging them again; the same move
given as a new object (parsed from its text) goes through the full check. Two copies
of each seeded deal, played in step, must stay in the same state at every move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.core.engine import HandInPlay, Move
from scorekeeper.core.sheets import Sheet
from tests.support.engine import OPENSPIEL_SHEET, choose, random_sheet, undo_bytes

UNDO_BYTES_PER_MOVE = 200

TABLES = [("crazy-eights", 2), ("crazy-eights", 4), ("crazy-eights", 7), ("last-one", 4),
          ("last-one", 6), ("countdown", 3)]


def sheets(game: str, players: int, rng: random.Random) -> list[Sheet]:
    out = [Sheet.make(game)] + [random_sheet(game, rng, players) for _ in range(6)]
    if game == "crazy-eights":
        out.append(Sheet.make(game, OPENSPIEL_SHEET))
    return out


def twins(sheet: Sheet, players: int, seed: int) -> tuple[HandInPlay, HandInPlay]:
    return (HandInPlay.deal(sheet, players, seed % players, random.Random(seed)),
            HandInPlay.deal(sheet, players, seed % players, random.Random(seed)))


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_fast_and_checked_paths_reach_the_same_states(game: str, players: int) -> None:
    rng = random.Random(f"fast/{game}/{players}")
    for n, sheet in enumerate(sheets(game, players, rng)):
        fast, checked = twins(sheet, players, n)
        keys = [fast.state_key()]
        while not fast.is_over:
            listed = fast.legal_moves()
            move = choose(listed, rng)
            again = Move.parse(str(move))
            assert again is not move and again == move
            verdict = fast.apply(move)
            judged = checked.apply(again)
            assert judged.legal is True and verdict.legal is True
            if len(keys) % 7 == 0:  # the lazy verdict, read, is the full one
                assert verdict == judged
            assert fast.state_key() == checked.state_key(), f"after {move}"
            keys.append(fast.state_key())
            assert len(keys) < 20_000
        assert checked.is_over and fast.outcome() == checked.outcome()
        for key in reversed(keys[:-1]):
            fast.undo()
            assert fast.state_key() == key
        assert fast.history == []


def test_a_listed_move_is_judged_in_full_when_it_is_no_longer_listed() -> None:
    g = HandInPlay.deal(Sheet.make("crazy-eights"), 3, 0, random.Random(5))
    move = g.legal_moves()[0]
    g.apply(move)
    with pytest.raises(ValueError, match="refused"):
        g.apply(move)  # the same object: now it is not this seat's turn


def test_a_fast_verdict_on_a_move_taken_back_says_so_when_read() -> None:
    g = HandInPlay.deal(Sheet.make("crazy-eights"), 3, 0, random.Random(5))
    first = g.legal_moves()[0]
    verdict = g.apply(first)
    g.undo()
    g.apply(g.legal_moves()[-1])  # another move in its place
    assert verdict.legal is True and "taken back" in verdict.reason
    assert verdict.rule == g.variant.rule["turn"]


def test_a_fast_verdict_read_after_the_game_moved_on_is_the_full_one() -> None:
    rng = random.Random(9)
    fast, checked = twins(Sheet.make("last-one"), 4, 9)
    verdicts: list[tuple[Any, Any]] = []
    for _ in range(30):
        move = choose(fast.legal_moves(), rng)
        verdicts.append((fast.apply(move), checked.apply(Move.parse(str(move)))))
    for fast_verdict, full in verdicts:
        assert fast_verdict == full


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_the_undo_log_holds_at_most_200_bytes_a_move(game: str, players: int) -> None:
    rng = random.Random(f"bytes/{game}")
    for seed in range(10):
        g = HandInPlay.deal(Sheet.make(game), players, 0, random.Random(seed))
        moves = 0
        while not g.is_over:
            g.apply(choose(g.legal_moves(), rng))
            moves += 1
        assert undo_bytes(g) <= UNDO_BYTES_PER_MOVE * moves, (seed, undo_bytes(g) / moves)


def test_legal_moves_asked_again_before_a_move_are_the_same_listing_in_a_new_list() -> None:
    g = HandInPlay.deal(Sheet.make("last-one"), 4, 0, random.Random(3))
    rng = random.Random(3)
    for _ in range(40):
        first = g.legal_moves()
        first.append(Move.pass_(9))  # the caller's list is its own
        again = g.legal_moves()
        assert again == first[:-1] and again is not first
        assert all(a is b for a, b in zip(again, first, strict=False))
        g.apply(choose(again, rng))
        if g.is_over:
            break
    g.undo()
    assert g.legal_moves() == g.legal_moves() and g.actors() == {m.player for m in
                                                                 g.legal_moves()}
