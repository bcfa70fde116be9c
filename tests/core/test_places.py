"""Places in a finished match (the rules reference "Places"): a table of whole matches,
one line per hand, and the places each end rule gives them."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.places import needs_hands, places
from scorekeeper.core.scoring import HandResult, standings, standings_at, tally_of
from scorekeeper.core.sheets import Sheet

LO, C8, CD = "last-one", "crazy-eights", "countdown"


def hand(out: int | None, *held: str) -> HandResult:
    """A hand in one line: who went out (None: blocked or jammed), then each seat's cards."""
    return HandResult.of(out, [parse_cards(h) for h in held])


MATCHES = [
    # Last One to 50. Bob falls in hand 1, Cy (62) and Di (50) in hand 2, Ed in hand 3.
    pytest.param(LO, {"threshold": 50}, [
        hand(0, "", "8s 8h", "10c 10d", "9c 9d", "2c 3c"),
        hand(4, "4c 5c", "", "jk 2d", "kh qh js 2h", ""),
        hand(0, "", "", "", "", "8c 8d"),
    ], (1, 5, 4, 3, 2), id="last-one-by-elimination-hand-then-total"),
    pytest.param(LO, {"threshold": 50}, [
        hand(0, "", "8s 8h", "8c 8d", "kh qh jh 10h 10s"),  # Ben, Cy, Dan fall on 50
    ], (1, 2, 2, 2), id="last-one-fallen-together-level-share-a-place"),
    pytest.param(LO, {"threshold": 50}, [
        hand(None, "8s 8h 3c", "8c 8d", "kh qh jh 10h 10s 2c"),  # blocked: all reach 50
    ], (3, 1, 2), id="last-one-everyone-left-reaches-the-threshold"),
    # Crazy Eights to 100: the winner, then by total, highest first.
    pytest.param(C8, {}, [
        hand(0, "", "8s", "9c 9h", "kh"),  # Ann 78
        hand(1, "3c", "", "8h", "2d"),     # Ben 55
        hand(3, "8d", "4c", "ks", ""),     # Dan 64
        hand(0, "", "qd", "", "jd"),       # Ann 98
        hand(2, "5c", "", "", "4d"),       # Cy 9
        hand(0, "", "2s", "", ""),         # Ann 100
    ], (1, 3, 4, 2), id="crazy-eights-to-100"),
    pytest.param(C8, {"match_end": "first-to-target", "target": 50}, [
        hand(0, "", "10c 10d", "5c 5d", "5h 5s"),
        hand(1, "", "", "8c", "jh"),  # Ben 60; Ann 40; Cy, Dan 0
    ], (2, 1, 3, 3), id="crazy-eights-to-a-target-ties-share"),
    # Crazy Eights, one hand: who went out, then by points held, fewest first.
    pytest.param(C8, {"match_end": "one-hand"}, [
        hand(2, "8s kh", "9c 9h", "", "ac"),
    ], (4, 3, 1, 2), id="crazy-eights-one-hand-went-out"),
    pytest.param(C8, {"match_end": "one-hand"}, [
        hand(2, "9c 9h", "kh 8s", "", "10c 8d"),  # 18, 60 and 60 held
    ], (2, 3, 1, 3), id="crazy-eights-one-hand-level-holders-share"),
    pytest.param(C8, {"match_end": "one-hand"}, [
        hand(None, "8s", "3c 4c", "2d", "kh qh"),  # jammed: Cy holds least
    ], (4, 2, 1, 3), id="crazy-eights-one-hand-jammed"),
    pytest.param(C8, {"match_end": "one-hand", "jam_scoring": "full"}, [
        hand(None, "3c", "3d", "9h", "kh qh"),  # jammed: Ann and Ben level lowest
    ], (1, 1, 3, 4), id="crazy-eights-one-hand-jammed-shared-win"),
    # Countdown: by count, lowest first.
    pytest.param(CD, {"start_count": 2}, [
        hand(0, "", "", "", ""), hand(1, "", "", "", ""),
        hand(2, "", "", "", ""), hand(0, "", "", "", ""),
    ], (1, 2, 2, 4), id="countdown-by-count"),
]


@pytest.mark.parametrize(("game", "options", "hands", "expected"), MATCHES)
def test_places_of_finished_matches(game, options, hands, expected):
    sheet = Sheet.make(game, options)
    table = standings(sheet, ["Ann", "Ben", "Cy", "Dan", "Ed"][:len(hands[0].held)], 0, hands)
    assert table.over
    assert places(sheet, table) == expected


@pytest.mark.parametrize(("game", "options", "hands", "expected"), MATCHES)
def test_places_read_from_a_stored_position_match_a_replay(game, options, hands, expected):
    sheet = Sheet.make(game, options)
    names = ["Ann", "Ben", "Cy", "Dan", "Ed"][:len(hands[0].held)]
    stored = standings_at(sheet, names, tally_of(standings(sheet, names, 0, hands)))
    if needs_hands(sheet, len(names)):
        with pytest.raises(ValueError, match="replay the hands"):
            places(sheet, stored)
    else:
        assert places(sheet, stored) == expected


@pytest.mark.parametrize(("game", "options", "hands"), [
    (LO, {}, [hand(0, "", "8s 8h", "9c")]),
    (C8, {}, [hand(0, "", "8s", "9c")]),
    (CD, {}, [hand(0, "", "", "")]),
    (C8, {"match_end": "one-hand"}, []),
])
def test_a_match_not_finished_has_no_places(game, options, hands):
    sheet = Sheet.make(game, options)
    assert places(sheet, standings(sheet, ["Ann", "Ben", "Cy"], 0, hands)) is None
