"""The import's remembering reader (sheets, names and card spellings read once per
file) against the reference (every value read afresh): the same plans for random
files, and the same problems, word for word and field for field, for random files
spoiled in every way an import can be wrong; and the cycle collector, paused during
an import, always comes back. No database: these take a few seconds."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from scorekeeper.core.cards import ALL_CARDS
from scorekeeper.store.transfer import TransferError, validate
from tests.support.documents import random_document

Doc = dict[str, Any]
EVERY_CARD = " ".join(str(c) for c in ALL_CARDS)


def outcome(doc: Doc, lean: bool) -> Any:
    """The plans validation gives, or the problems it reports."""
    try:
        return validate(copy.deepcopy(doc), lean=lean)
    except TransferError as exc:
        return [(p.where, p.message) for p in exc.problems]


def seat_with_cards(rng: random.Random, hand: dict) -> int | None:
    seats = [s for s, text in enumerate(hand["held"]) if text]
    return rng.choice(seats) if seats else None


def _spell(rng: random.Random, hand: dict) -> None:
    """Valid but unusual spellings (the reader learns them the long way)."""
    seat = seat_with_cards(rng, hand)
    if seat is not None:
        tokens = hand["held"][seat].split()
        spelled = [rng.choice([t.lower(), t[-1] + t[:-1], t.replace("10", "T"),
                               t[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(t[-1], "")])
                   if t != "JK" else rng.choice(["joker", "*", "jk"]) for t in tokens]
        hand["held"][seat] = rng.choice([" ", ", ", " ; ", "\t"]).join(spelled)


def _copy_card(rng: random.Random, hand: dict) -> None:
    """One seat's card entered again for another seat (legal only with two decks)."""
    seat = seat_with_cards(rng, hand)
    if seat is not None:
        other = rng.randrange(len(hand["held"]))
        hand["held"][other] = (hand["held"][other] + " " + hand["held"][seat].split()[0]).strip()


def _junk_token(rng: random.Random, hand: dict) -> None:
    seat = rng.randrange(len(hand["held"]))
    hand["held"][seat] += rng.choice([" zz", " 1x", " 8s8", " ♥", " 11h", " 10 h"])


def _odd_text(rng: random.Random, hand: dict) -> None:
    seat = rng.randrange(len(hand["held"]))
    hand["held"][seat] = rng.choice(["8s\u200b", "KH\x00", "AS " * 140, 7, None, ["8s"],
                                     "  8s  ", "8s\n\tkh", "\ud800"])


def _out_holds(rng: random.Random, hand: dict) -> None:
    hand["out"] = rng.randrange(len(hand["held"]))
    hand["held"][hand["out"]] = rng.choice(["KH", "", "2C 3C"])


def _jokers(rng: random.Random, hand: dict) -> None:
    """Jokers: fine in Last One up to two, refused elsewhere."""
    seat = rng.randrange(len(hand["held"]))
    hand["held"][seat] = (hand["held"][seat] + " JK" * rng.randint(1, 3)).strip()


def _whole_deck(rng: random.Random, hand: dict) -> None:
    """More cards than a deck can leave in hands."""
    seat = rng.randrange(len(hand["held"]))
    hand["held"][seat] = EVERY_CARD + rng.choice(["", " JK", " JK JK"])
    hand["out"] = None


def _forged(rng: random.Random, hand: dict) -> None:
    hand["points"] = [rng.randint(0, 3) for _ in hand["held"]]


def _out_of_range(rng: random.Random, hand: dict) -> None:
    hand["out"] = rng.choice([len(hand["held"]), -1, True, "0"])


HAND_SPOILERS: list[Callable[[random.Random, dict], None]] = [
    _spell, _copy_card, _junk_token, _odd_text, _out_holds, _jokers, _whole_deck, _forged,
    _out_of_range]


def _more_hands(rng: random.Random, match: dict) -> None:
    """A hand after the end (refused when the match was decided)."""
    if match["hands"]:
        match["hands"].append(copy.deepcopy(match["hands"][-1]))


def _fallen_holds(rng: random.Random, match: dict) -> None:
    """Cards for a seat in a later hand, perhaps one that fell in Last One."""
    if len(match["hands"]) > 1:
        hand = match["hands"][-1]
        seat = rng.randrange(len(hand["held"]))
        if seat != hand.get("out"):
            hand["held"][seat] = (hand["held"][seat] + " " + str(rng.choice(ALL_CARDS))).strip()


def _result(rng: random.Random, match: dict) -> None:
    match["result"] = rng.choice([{"totals": [0] * len(match["seats"])},
                                  {"winners": match["seats"][:1]}, {}])


MATCH_SPOILERS = [_more_hands, _fallen_holds, _result]


BASES = [random_document(random.Random(seed), 6) for seed in range(8)]


def spoiled(seed: int) -> Doc:
    """A random file with a few random hands and matches spoiled (often still valid)."""
    rng = random.Random(seed)
    doc = copy.deepcopy(BASES[seed % len(BASES)])
    for _ in range(rng.randint(1, 3)):
        match = rng.choice(doc["matches"])
        if match["hands"] and rng.random() < 0.7:
            rng.choice(HAND_SPOILERS)(rng, rng.choice(match["hands"]))
        else:
            rng.choice(MATCH_SPOILERS)(rng, match)
    return doc


def test_random_files_give_the_same_plans_both_ways():
    for seed in range(12):
        doc = random_document(random.Random(seed), 20)
        lean = outcome(doc, lean=True)
        assert lean == outcome(doc, lean=False), seed
        assert not isinstance(lean, list), lean  # a list: the problems found


def test_spoiled_files_give_the_same_problems_or_plans_both_ways():
    refused = 0
    for seed in range(150):
        doc = spoiled(seed)
        lean = outcome(doc, lean=True)
        assert lean == outcome(doc, lean=False), seed
        refused += isinstance(lean, list)
    assert 60 < refused < 145  # both kinds are exercised


def test_a_name_is_measured_after_trimming_never_cut():
    """A seat's name of the full 40 characters with spaces around it is read whole; one
    of 41 is refused, not shortened."""
    doc = random_document(random.Random(7), 1)
    name = "x" * 40
    doc["matches"][0]["seats"][0] = f"  {name} "
    plans, _ = validate(doc)
    assert plans[0].names[0] == name
    doc["matches"][0]["seats"][0] = f"  {name}y "
    try:
        validate(doc)
    except TransferError as refused:
        assert "40 characters" in str(refused)
    else:
        raise AssertionError("a 41-character name was imported")
