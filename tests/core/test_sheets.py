"""Rule sheets (the rules reference "Option keys"): defaults per game, refusals, JSON round-trip."""

from __future__ import annotations

import json

import pytest

from scorekeeper.core.sheets import (
    GAMES,
    OPTIONS,
    Sheet,
    SheetError,
    options_for,
    read_sheet,
)

# the rules reference's option table, written out per game: key -> default.
LAST_ONE = {
    "hand_size": 7,
    "threshold": 250,
    "draw_limit": 1,
    "play_after_draw": False,
    "draw_with_playable": True,
    "going_out_effects": "none",
    "starter_effects": True,
    "ace_two_players": "none",
    "last_card_call": True,
    "last_card_penalty": 2,
    "twos_stack": False,
    "three_free_play": "any",
    "three_chain": True,
    "melee_court_values": "rank",
    "melee_wrap": False,
    "melee_effects": False,
    "joker_must_be_legal": True,
    "joker_effects": True,
}
CRAZY_EIGHTS_SHARED = {  # C8's options that also apply to Countdown
    "draw_limit": 1,
    "play_after_draw": True,
    "draw_with_playable": False,
    "going_out_effects": "none",
    "starter_effects": False,
    "ace_two_players": "skip",
    "last_card_call": False,
    "last_card_penalty": 2,
    "queen_skips": False,
    "ace_reverses": False,
    "two_draws_two": False,
    "refill": "turn",
}
CRAZY_EIGHTS = CRAZY_EIGHTS_SHARED | {
    "match_end": "first-to-100",
    "target": 100,
    "jam_scoring": "difference",
}
COUNTDOWN = CRAZY_EIGHTS_SHARED | {"start_count": 8}
DEFAULTS = {"last-one": LAST_ONE, "crazy-eights": CRAZY_EIGHTS, "countdown": COUNTDOWN}


@pytest.mark.parametrize("game", sorted(DEFAULTS))
def test_defaults_match_the_rules(game):
    sheet = Sheet.make(game)
    assert dict(sheet.options) == DEFAULTS[game]
    assert sheet.game == game
    assert sheet.version == 2
    assert sheet.differences() == {}
    assert {o.key for o in options_for(game)} == set(DEFAULTS[game])


def test_every_option_is_in_the_table():
    assert set(OPTIONS) == set(LAST_ONE) | set(CRAZY_EIGHTS) | set(COUNTDOWN)


def test_games():
    assert {k: (g.name, g.min_players, g.max_players) for k, g in GAMES.items()} == {
        "last-one": ("Last One", 2, 6),
        "crazy-eights": ("Crazy Eights", 2, 7),
        "countdown": ("Crazy Eights Countdown", 2, 7),
    }


def test_option_sections_exist():
    for option in OPTIONS.values():
        for game, section in option.sections.items():
            assert section in {anchor for anchor, _ in GAMES[game].sections}, (option.key, game)


# game, option, value: every value in range is kept
ACCEPTED = [
    ("last-one", "hand_size", 4),
    ("last-one", "hand_size", 9),
    ("last-one", "threshold", 1),
    ("last-one", "threshold", 500),
    ("last-one", "draw_limit", None),
    ("last-one", "draw_limit", 3),
    ("last-one", "going_out_effects", "draws"),
    ("last-one", "ace_two_players", "skip"),
    ("last-one", "last_card_penalty", 1),
    ("last-one", "last_card_penalty", 4),
    ("last-one", "twos_stack", True),
    ("last-one", "three_free_play", "matching"),
    ("last-one", "melee_court_values", "ten"),
    ("last-one", "melee_wrap", True),
    ("crazy-eights", "match_end", "one-hand"),
    ("crazy-eights", "match_end", "first-to-50-per-player"),
    ("crazy-eights", "match_end", "first-to-target"),
    ("crazy-eights", "target", 1),
    ("crazy-eights", "jam_scoring", "full"),
    ("crazy-eights", "draw_limit", None),
    ("crazy-eights", "queen_skips", True),
    ("countdown", "start_count", 1),
    ("countdown", "start_count", 8),
    ("countdown", "two_draws_two", True),
]


@pytest.mark.parametrize(("game", "key", "value"), ACCEPTED)
def test_values_in_range_are_kept(game, key, value):
    sheet = Sheet.make(game, {key: value})
    assert sheet[key] == value
    if value != DEFAULTS[game][key]:
        assert sheet.differences() == {key: value}


# game, options, field, message
REFUSED = [
    ("last-one", {"hand_size": 3}, "options.hand_size", "at least 4"),
    ("last-one", {"hand_size": 10}, "options.hand_size", "at most 9"),
    ("last-one", {"hand_size": "7"}, "options.hand_size", "whole number"),
    ("last-one", {"hand_size": 7.0}, "options.hand_size", "whole number"),
    ("last-one", {"hand_size": True}, "options.hand_size", "whole number"),
    ("last-one", {"hand_size": None}, "options.hand_size", "whole number"),
    ("last-one", {"threshold": 0}, "options.threshold", "at least 1"),
    ("last-one", {"threshold": -250}, "options.threshold", "at least 1"),
    ("last-one", {"draw_limit": 0}, "options.draw_limit", "at least 1"),
    ("last-one", {"twos_stack": "yes"}, "options.twos_stack", "true or false"),
    ("last-one", {"twos_stack": 1}, "options.twos_stack", "true or false"),
    ("last-one", {"going_out_effects": "all"}, "options.going_out_effects", "one of"),
    ("last-one", {"last_card_penalty": 0}, "options.last_card_penalty", "at least 1"),
    ("last-one", {"last_card_penalty": 5}, "options.last_card_penalty", "at most 4"),
    ("crazy-eights", {"match_end": "first-to-0"}, "options.match_end", "one of"),
    ("crazy-eights", {"target": 0}, "options.target", "at least 1"),
    ("crazy-eights", {"jam_scoring": None}, "options.jam_scoring", "one of"),
    ("countdown", {"start_count": 0}, "options.start_count", "at least 1"),
    ("countdown", {"start_count": 9}, "options.start_count", "at most 8"),
    # unknown options
    ("last-one", {"colour": "red"}, "options.colour", "unknown option 'colour'"),
    ("crazy-eights", {"": 1}, "options.", "unknown option ''"),
    # options of another game
    ("last-one", {"match_end": "one-hand"}, "options.match_end", "does not apply to Last One"),
    ("last-one", {"start_count": 5}, "options.start_count", "does not apply"),
    ("crazy-eights", {"hand_size": 7}, "options.hand_size", "does not apply to Crazy Eights"),
    ("crazy-eights", {"threshold": 250}, "options.threshold", "does not apply"),
    ("crazy-eights", {"twos_stack": True}, "options.twos_stack", "does not apply"),
    ("crazy-eights", {"start_count": 8}, "options.start_count", "does not apply"),
    ("countdown", {"match_end": "one-hand"}, "options.match_end", "does not apply"),
    ("countdown", {"jam_scoring": "full"}, "options.jam_scoring", "does not apply"),
    ("countdown", {"melee_wrap": True}, "options.melee_wrap", "does not apply"),
]


@pytest.mark.parametrize(("game", "options", "field", "message"), REFUSED)
def test_refused_options(game, options, field, message):
    with pytest.raises(SheetError, match=message) as info:
        Sheet.make(game, options)
    assert info.value.field == field


@pytest.mark.parametrize("game", ["", "crazy8s", "Last One", None, 3, ["last-one"], {}])
def test_unknown_game(game):
    with pytest.raises(SheetError, match="unknown game") as info:
        Sheet.make(game)
    assert info.value.field == "game"
    assert "'last-one'" in str(info.value)  # says what is accepted


@pytest.mark.parametrize("options", [[], "threshold=200", 3])
def test_options_must_be_an_object(options):
    with pytest.raises(SheetError, match="must be an object") as info:
        Sheet.make("last-one", options)
    assert info.value.field == "options"


SHEETS = [
    Sheet.make("last-one"),
    Sheet.make("last-one", {"threshold": 100, "draw_limit": None, "melee_court_values": "ten"}),
    Sheet.make("crazy-eights", {"match_end": "first-to-target", "target": 300}),
    Sheet.make("countdown", {"start_count": 5, "ace_reverses": True}),
]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: s.game)
def test_json_round_trip(sheet):
    assert Sheet.from_json(sheet.to_json()) == sheet
    assert Sheet.from_dict(sheet.to_dict()) == sheet
    assert Sheet.from_dict(json.loads(json.dumps(sheet.to_dict()))) == sheet
    data = json.loads(sheet.to_json())
    assert data == {"game": sheet.game, "options": dict(sheet.options), "version": 2}


def test_to_dict_is_plain_and_a_copy():
    sheet = Sheet.make("last-one")
    data = sheet.to_dict()
    data["options"]["threshold"] = 1
    assert sheet["threshold"] == 250


def test_sheet_is_immutable():
    sheet = Sheet.make("last-one")
    with pytest.raises(TypeError):
        sheet.options["threshold"] = 1  # type: ignore[index]


@pytest.mark.parametrize("version", [0, 3, "1", None, True, 1.5])
def test_version_check(version):
    with pytest.raises(SheetError, match="unsupported sheet version") as info:
        Sheet.from_dict({"game": "last-one", "options": {}, "version": version})
    assert info.value.field == "sheet.version"


def test_version_1_sheets_still_read_as_the_current_version():
    stored = {"game": "crazy-eights", "options": {"draw_limit": 2}, "version": 1}
    sheet = Sheet.from_dict(stored)
    assert sheet.version == 2 and sheet["refill"] == "turn" and sheet["draw_limit"] == 2


def test_missing_version_means_the_current_one():
    assert Sheet.from_dict({"game": "countdown"}) == Sheet.make("countdown")


@pytest.mark.parametrize("data", [None, [], "last-one", 1])
def test_from_dict_needs_an_object(data):
    with pytest.raises(SheetError) as info:
        Sheet.from_dict(data)
    assert info.value.field == "sheet"


@pytest.mark.parametrize("key", ["option", "name", ""])
def test_a_key_a_sheet_lacks_is_refused_not_ignored(key):
    # {"game": ..., "option": {...}} read as the standard rules would hide the typo
    with pytest.raises(SheetError, match="unknown sheet key") as info:
        Sheet.from_dict({"game": "last-one", key: {"threshold": 100}})
    assert info.value.field == f"sheet.{key}"


def test_a_request_sheet_is_read_as_a_stored_one():
    assert read_sheet({"game": "countdown", "version": 1}) == Sheet.make("countdown")
    for sheet, field in [({"game": "countdown", "version": 3}, "sheet.version"),
                         ({"game": "countdown", "option": {}}, "sheet.option"),
                         ({"game": "countdown", "options": {"target": 5}}, "sheet.options.target"),
                         ({"options": {}}, "sheet.game")]:
        with pytest.raises(SheetError) as info:
            read_sheet(sheet)
        assert info.value.field == field


def test_from_dict_revalidates():
    with pytest.raises(SheetError) as info:
        Sheet.from_dict({"game": "last-one", "options": {"threshold": 0}, "version": 1})
    assert info.value.field == "options.threshold"


# sheet options, players -> target (None: points don't decide)
TARGETS = [
    ("crazy-eights", {}, 4, 100),
    ("crazy-eights", {"match_end": "first-to-50-per-player"}, 2, 100),
    ("crazy-eights", {"match_end": "first-to-50-per-player"}, 3, 150),
    ("crazy-eights", {"match_end": "first-to-50-per-player"}, 7, 350),
    ("crazy-eights", {"match_end": "first-to-target", "target": 75}, 3, 75),
    ("crazy-eights", {"match_end": "one-hand"}, 3, None),
    ("last-one", {}, 3, None),
    ("countdown", {}, 3, None),
]


@pytest.mark.parametrize(("game", "options", "players", "target"), TARGETS)
def test_target_for(game, options, players, target):
    assert Sheet.make(game, options).target_for(players) == target


def test_describe_values():
    assert OPTIONS["draw_limit"].describe(None) == "no limit"
    assert OPTIONS["twos_stack"].describe(True) == "yes"
    assert OPTIONS["jam_scoring"].describe("full").startswith("lowest holder")
