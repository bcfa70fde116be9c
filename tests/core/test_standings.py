"""Match standings (the rules reference "Elimination", "Match end", Countdown): whole matches
replayed hand by hand, the dealer rotation and the next deal."""

from __future__ import annotations

import pytest

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import HandResult, ScoringError, deal_size, next_seat, standings
from scorekeeper.core.sheets import Sheet

LO, C8, CD = "last-one", "crazy-eights", "countdown"


def hand(out: int | None, *held: str) -> HandResult:
    """A hand in one line: who went out, then each seat's cards."""
    return HandResult.of(out, [parse_cards(h) for h in held])


def play(game: str, names: str, hands: list[HandResult], first_dealer: int = 0, **options):
    return standings(Sheet.make(game, options), names.split(), first_dealer, hands)


# ---------------------------------------------------------------- Last One

LAST_ONE_MATCH = [
    # dealer A. Bob reaches 50 and is out.
    hand(0, "", "8s 8h", "10c 10d", "9c 9d", "2c 3c"),
    # dealer Cy (Bob skipped). Cy and Di both reach 50 in the same hand.
    hand(4, "4c 5c", "", "jk 2d", "kh qh js 2h", ""),
    # dealer Ed (Di skipped). Ed reaches 50: Ann is the last player left.
    hand(0, "", "", "", "", "8c 8d"),
]


def test_last_one_played_to_the_end():
    s = play(LO, "Ann Bob Cy Di Ed", LAST_ONE_MATCH, threshold=50)
    assert s.progress == (
        (0, 50, 20, 18, 5),
        (9, 50, 62, 50, 5),
        (9, 50, 62, 50, 55),
    )
    assert s.totals == (9, 50, 62, 50, 55)
    assert dict(s.eliminated) == {1: 1, 2: 2, 3: 2, 4: 3}
    assert s.dealers == (0, 2, 4)  # the deal passes left, skipping eliminated players
    assert s.winners == (0,)
    assert s.over
    assert "Ann is the last player left" in s.reason
    assert (s.next_dealer, s.next_first, dict(s.next_deal)) == (None, None, {})
    assert (s.goal, s.goal_kind) == (50, "threshold")


@pytest.mark.parametrize(
    ("played", "in_play", "next_dealer", "next_first", "eliminated"),
    [
        (0, (True,) * 5, 0, 1, {}),
        (1, (True, False, True, True, True), 2, 3, {1: 1}),
        (2, (True, False, False, False, True), 4, 0, {1: 1, 2: 2, 3: 2}),
    ],
)
def test_last_one_part_way(played, in_play, next_dealer, next_first, eliminated):
    s = play(LO, "Ann Bob Cy Di Ed", LAST_ONE_MATCH[:played], threshold=50)
    assert not s.over and s.winners == ()
    assert s.in_play == in_play
    assert (s.next_dealer, s.next_first) == (next_dealer, next_first)
    assert dict(s.eliminated) == eliminated
    assert dict(s.next_deal) == {seat: 7 for seat, playing in enumerate(in_play) if playing}


def test_reaching_means_at_least():
    s = play(LO, "Ann Bob Cy", [hand(0, "", "8s 8h", "8c 8d 2c")], threshold=51)
    assert dict(s.eliminated) == {2: 1}  # 52 reaches 51; 50 does not


def test_one_card_scores_zero_in_a_match():
    s = play(LO, "Ann Bob Cy", [hand(0, "", "jk", "8s 8h")], threshold=50)
    assert s.totals == (0, 0, 50)
    assert dict(s.eliminated) == {2: 1}


# All-cross: everyone left reaches the threshold in the same blocked hand.
# Hand 1: Bob is out of the match. Hand 2 is blocked: Ann and Cy both reach 50.
@pytest.mark.parametrize(
    ("ann", "cy", "totals", "winners", "eliminated"),
    [
        ("8c 8d", "jk 8h 2c", (50, 50, 67), (0,), {1: 1, 2: 2}),  # lowest total wins
        ("8c 8d", "jk 10c", (50, 50, 50), (0, 2), {1: 1}),  # a tie shares the win
        ("jk 8d 2c", "8c 8h", (67, 50, 50), (2,), {1: 1, 0: 2}),
    ],
)
def test_last_one_all_cross(ann, cy, totals, winners, eliminated):
    hands = [hand(0, "", "8s 8h", ""), hand(None, ann, "", cy)]
    s = play(LO, "Ann Bob Cy", hands, threshold=50)
    assert s.totals == totals
    assert s.winners == winners
    assert s.over
    assert dict(s.eliminated) == eliminated
    assert "lowest total" in s.reason


def test_all_cross_with_everyone_at_the_start():
    s = play(LO, "Ann Bob", [hand(None, "8c 8d 2c", "jk 8h")], threshold=50)
    assert s.totals == (52, 65)
    assert s.winners == (0,) and s.over
    assert dict(s.eliminated) == {1: 1}


# ---------------------------------------------------------------- Crazy Eights

C8_HANDS = [
    hand(0, "", "8s kh 7d ac", "9c 9h"),  # Ann 86
    hand(1, "5c", "", "8s"),  # Bob 55
    hand(0, "", "2c 3c", "4d"),  # Ann 95
    hand(2, "kh", "ac", ""),  # Cy 11
    hand(0, "", "10c", "2d"),  # Ann 107
    hand(0, "", "8s", "8h"),  # Ann 207
    hand(1, "5c", "", "4d"),  # Bob 64
]


@pytest.mark.parametrize(
    ("options", "goal", "played", "winners"),
    [
        ({}, 100, 5, (0,)),  # first to 100
        ({"match_end": "first-to-50-per-player"}, 150, 6, (0,)),  # 3 players: 150
        ({"match_end": "first-to-target", "target": 80}, 80, 1, (0,)),
        ({"match_end": "first-to-target", "target": 96}, 96, 5, (0,)),
        ({"match_end": "first-to-target", "target": 1000}, 1000, None, ()),
        ({"match_end": "one-hand"}, None, 1, (0,)),
    ],
)
def test_crazy_eights_match_end(options, goal, played, winners):
    hands = C8_HANDS if played is None else C8_HANDS[:played]
    s = play(C8, "Ann Bob Cy", hands, **options)
    assert s.goal == goal
    assert s.goal_kind == ("target" if goal else "")
    assert s.winners == winners
    assert s.over == bool(winners)
    if played is not None:
        # one hand more is refused: the match was already decided
        with pytest.raises(ScoringError, match=f"decided in hand {played}") as info:
            play(C8, "Ann Bob Cy", C8_HANDS[: played + 1], **options)
        assert info.value.field == "number"
        # and one hand fewer leaves it open
        assert not play(C8, "Ann Bob Cy", C8_HANDS[: played - 1], **options).over


def test_crazy_eights_progress_and_dealers():
    s = play(C8, "Ann Bob Cy", C8_HANDS[:5])
    assert s.progress == ((86, 0, 0), (86, 55, 0), (95, 55, 0), (95, 55, 11), (107, 55, 11))
    assert s.totals == (107, 55, 11)
    assert s.dealers == (0, 1, 2, 0, 1)
    assert "Ann reached 100 in hand 5" in s.reason


def test_crazy_eights_first_to_50_per_player_scales():
    assert play(C8, "A B", [], match_end="first-to-50-per-player").goal == 100
    assert play(C8, "A B C D E F G", [], match_end="first-to-50-per-player").goal == 350


@pytest.mark.parametrize(
    ("hands", "winners", "how"),
    [
        ([hand(1, "8s", "", "5d")], (1,), "went out"),
        ([hand(2, "", "", "")], (2,), "went out"),  # nobody else held a card: still Cy
        ([hand(None, "5c", "8s", "9d")], (0,), "jammed"),  # Ann held the least
        ([hand(None, "5c", "8s", "5d")], (0, 2), "jammed"),  # tied lowest share it
    ],
)
def test_crazy_eights_one_hand(hands, winners, how):
    s = play(C8, "Ann Bob Cy", hands, match_end="one-hand")
    assert s.over and s.winners == winners
    assert how in s.reason
    assert (s.next_dealer, dict(s.next_deal)) == (None, {})


def test_crazy_eights_jammed_tie_reaching_the_target_shares_the_win():
    s = play(C8, "Ann Bob Cy", [hand(None, "5c", "8s", "5d")], match_end="first-to-target",
             target=40)
    assert s.totals == (45, 0, 45)
    assert s.winners == (0, 2)


# ---------------------------------------------------------------- Countdown


def test_countdown_first_to_zero():
    hands = [
        hand(1, "5c 6c", "", "kh"),  # Bob 2 -> 1
        hand(None, "5c", "8s", "kh"),  # jammed: no count changes
        hand(0, "", "8s", "kh"),  # Ann 2 -> 1
    ]
    s = play(CD, "Ann Bob Cy", hands, start_count=2)
    assert s.progress == ((2, 1, 2), (2, 1, 2), (1, 1, 2))
    assert dict(s.next_deal) == {0: 1, 1: 1, 2: 2}  # each player is dealt their count
    assert s.dealers == (0, 1, 2)
    assert (s.next_dealer, s.next_first) == (0, 1)
    assert not s.over
    assert s.hands[1].points == (0, 0, 0)
    final = play(CD, "Ann Bob Cy", [*hands, hand(1, "5c", "", "kh")], start_count=2)
    assert final.over and final.winners == (1,)
    assert final.totals == (1, 0, 2)
    assert "Bob counted down to 0 in hand 4" in final.reason
    assert (final.goal, final.goal_kind) == (None, "")


def test_countdown_starts_at_the_start_count():
    assert dict(play(CD, "A B C", []).next_deal) == {0: 8, 1: 8, 2: 8}
    assert dict(play(CD, "A B", [], start_count=1).next_deal) == {0: 1, 1: 1}
    s = play(CD, "A B", [hand(0, "", "5c")], start_count=1)
    assert s.over and s.winners == (0,)


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("game", "hands", "field", "message"),
    [
        (C8, [hand(0, "8s", "kh", "")], "held.0", "hand 1: Ann went out, so holds no cards"),
        (LO, [hand(1, "", "kh", "")], "held.1", "Bob went out"),
        (C8, [hand(3, "", "kh", "")], "out", "seat 3 is not at this table"),
        (C8, [hand(0, "", "kh")], "held", "expected cards for 3 seats, got 2"),
        (C8, [hand(0, "", "kh", "kh")], "held.2", "hand 1: K♥ is entered 2 times"),
        (C8, [hand(0, "", "kh 5c", "qd"), hand(1, "5c", "", "5c")], "held.2",
         r"hand 2: 5♣ is entered 2 times \(Ann and Cy\)"),
        (C8, [hand(0, "", "jk", "")], "held.1", "without jokers"),
        (C8, [hand(0, "", "kh", "5c"), hand(2, "", "kh", "5c")], "held.2", "hand 2: Cy"),
    ],
)
def test_refused_hands(game, hands, field, message):
    with pytest.raises(ScoringError, match=message) as info:
        play(game, "Ann Bob Cy", hands)
    assert info.value.field == field


def test_a_refused_hand_names_its_hand_and_seat_as_data():
    """Who reads the error (an import's location, the score request's seat name) takes
    the hand and the seat from the error's fields, never from its words."""
    hands = [hand(0, "", "kh 5c", "qd"), hand(1, "5c", "", "5c")]
    with pytest.raises(ScoringError) as info:
        play(C8, "Ann Bob Cy", hands)
    assert (info.value.hand, info.value.seat, info.value.field) == (2, 2, "held.2")
    with pytest.raises(ScoringError) as info:
        play(C8, "Ann Bob Cy", [hand(3, "", "kh", "")])
    assert (info.value.hand, info.value.seat, info.value.field) == (1, None, "out")


def test_eliminated_players_hold_nothing_and_cannot_go_out():
    first = hand(0, "", "8s 8h", "")
    with pytest.raises(ScoringError, match="Bob is out of the match") as info:
        play(LO, "Ann Bob Cy", [first, hand(0, "", "2c 3c", "4d 5d")], threshold=50)
    assert info.value.field == "held.1"
    with pytest.raises(ScoringError, match="Bob is out of the match") as info:
        play(LO, "Ann Bob Cy", [first, hand(1, "2c", "", "4d 5d")], threshold=50)
    assert info.value.field == "out"


def test_hand_after_a_last_one_match_is_refused():
    with pytest.raises(ScoringError, match="decided in hand 3") as info:
        play(LO, "Ann Bob Cy Di Ed", [*LAST_ONE_MATCH, hand(0, "", "", "", "", "")],
             threshold=50)
    assert info.value.field == "number"


@pytest.mark.parametrize("first_dealer", [-1, 3, 10])
def test_first_dealer_must_be_a_seat(first_dealer):
    with pytest.raises(ScoringError) as info:
        play(C8, "Ann Bob Cy", [], first_dealer)
    assert info.value.field == "first_dealer"


# ---------------------------------------------------------------- the next deal


@pytest.mark.parametrize(
    ("seats", "first_dealer", "played", "next_dealer", "next_first"),
    [
        (4, 3, 0, 3, 0),
        (4, 3, 1, 0, 1),
        (4, 3, 2, 1, 2),
        (2, 1, 1, 0, 1),
        (2, 1, 2, 1, 0),
    ],
)
def test_next_dealer_and_first_player(seats, first_dealer, played, next_dealer, next_first):
    names = " ".join("ABCDEFG"[:seats])
    hands = [hand(0, "", *["2c"] + [""] * (seats - 2))] * played
    s = play(C8, names, hands, first_dealer, match_end="first-to-target", target=1000)
    assert (s.next_dealer, s.next_first) == (next_dealer, next_first)


@pytest.mark.parametrize(
    ("seat", "in_play", "expected"),
    [
        (0, [True, True, True], 1),
        (2, [True, True, True], 0),
        (0, [True, False, True], 2),
        (1, [True, False, False, True], 3),
        (3, [False, True, False, True], 1),
        (0, [True, False, False], 0),
    ],
)
def test_next_seat(seat, in_play, expected):
    assert next_seat(seat, in_play) == expected


def test_next_seat_with_nobody_left():
    with pytest.raises(ScoringError, match="nobody"):
        next_seat(0, [False, False])


# game, options, players -> cards each next hand
DEAL_SIZES = [
    (LO, {}, 2, 7),
    (LO, {}, 6, 7),
    (LO, {"hand_size": 5}, 4, 5),
    (LO, {"hand_size": 9}, 3, 9),
    (C8, {}, 2, 7),
    (C8, {}, 3, 5),
    (C8, {}, 5, 5),
    (C8, {}, 7, 5),
]


@pytest.mark.parametrize(("game", "options", "players", "size"), DEAL_SIZES)
def test_deal_size(game, options, players, size):
    assert deal_size(Sheet.make(game, options), players) == size
    names = " ".join("ABCDEFG"[:players])
    assert dict(play(game, names, [], **options).next_deal) == dict.fromkeys(range(players), size)
