"""Random export documents: valid matches of every game, for tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scorekeeper.core.cards import format_cards
from scorekeeper.core.games import deck_for
from scorekeeper.core.scoring import HandResult, standings
from scorekeeper.core.sheets import GAMES, Sheet
from scorekeeper.core.text import PALETTE
from scorekeeper.store.transfer import FORMAT, VERSION

LO, C8, CD = "last-one", "crazy-eights", "countdown"

NAMES = ("Ann", "Bob", "Cat", "Dev", "Eli", "Fay", "Gus", "Hal")
QUICK = {LO: {"threshold": 100}, C8: {}, CD: {"start_count": 3}}


def random_match(rng: random.Random, game: str, names: Sequence[str], max_hands: int = 12
                 ) -> dict[str, Any]:
    """A valid match in export form: random hands until it ends or ``max_hands``."""
    sheet = Sheet.make(game, QUICK[game])
    dealer = rng.randrange(len(names))
    deck = deck_for(game, len(names)).cards()
    results: list[HandResult] = []
    for _ in range(max_hands):
        table = standings(sheet, names, dealer, results)
        if table.over:
            break
        alive = [s for s, playing in enumerate(table.in_play) if playing]
        out = rng.choice(alive) if rng.random() > 0.1 else None
        pile = rng.sample(deck, len(deck))
        held: list[list] = [[] for _ in names]
        for seat in alive:
            if seat != out:
                held[seat] = [pile.pop() for _ in range(rng.randint(0, 5))]
        results.append(HandResult.of(out, held))
    return {"sheet": sheet.to_dict(), "seats": list(names), "first_dealer": dealer,
            "hands": [{"out": r.out, "held": [format_cards(c) for c in r.held]}
                      for r in results]}


def random_document(rng: random.Random, matches: int, names: Sequence[str] = NAMES
                    ) -> dict[str, Any]:
    """An export document of random matches of every game, 2 to 6 players each."""
    items = []
    for i in range(matches):
        game = list(GAMES)[i % len(GAMES)]
        seats = rng.sample(list(names), rng.randint(2, min(6, len(names))))
        items.append(random_match(rng, game, seats))
    players = [{"name": n, "colour": PALETTE[i % len(PALETTE)]} for i, n in enumerate(names)]
    return {"format": FORMAT, "version": VERSION, "players": players, "matches": items}


def document_of_hands(rng: random.Random, hands: int, names: Sequence[str] = NAMES
                      ) -> dict[str, Any]:
    """Like :func:`random_document`, but as many whole matches as hold ``hands`` hands
    (the last match may take it a few past)."""
    doc = random_document(rng, 0, names)
    total = 0
    while total < hands:
        game = list(GAMES)[len(doc["matches"]) % len(GAMES)]
        seats = rng.sample(list(names), rng.randint(2, min(6, len(names))))
        doc["matches"].append(random_match(rng, game, seats))
        total += len(doc["matches"][-1]["hands"])
    return doc
