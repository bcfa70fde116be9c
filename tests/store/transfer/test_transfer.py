"""Export and import: round trips on random matches of every game, and hostile files
refused with nothing written."""

from __future__ import annotations

import copy
import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.errors import InputError
from scorekeeper.core.scoring import HandResult
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchRecord, MatchView, match_hands
from scorekeeper.store.models import Group, Hand, HandEntry, Match, Player, Ruling, Seat
from scorekeeper.store.reading import match_standings
from scorekeeper.store.records import build_match
from scorekeeper.store.transfer import (
    Limits,
    TransferError,
    export_document,
    import_document,
    load_matches,
    parse_json,
    to_csv,
)
from tests.support.documents import random_document

TABLES = (Group, Player, Match, Seat, Hand, HandEntry, Ruling)


def counts() -> dict[str, int]:
    return {t.__name__: db.session.scalar(db.select(db.func.count()).select_from(t))
            for t in TABLES}


def make_group(name: str = "Source") -> Group:
    group = Group(name=name)
    db.session.add(group)
    db.session.commit()
    return group


def utc(moment: datetime | None) -> datetime | None:
    """A stored time as aware UTC (SQLite hands back naive datetimes)."""
    if moment is None:
        return None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def snapshot(record: MatchRecord) -> dict:
    """Everything that must survive a round trip."""
    match = record.match
    table = match_standings(match, record.hands)
    return {
        "game": match.game, "created_at": utc(match.created_at),
        "finished_at": utc(match.finished_at), "sheet": json.loads(match.sheet_json),
        "seats": [s.player.name for s in match.seats], "first_dealer": match.first_dealer,
        "hands": [(h.number, h.dealer, h.out_seat, h.hand_size,
                   [(e.seat, e.cards, e.points) for e in h.entries]) for h in record.hands],
        "totals": table.totals, "progress": table.progress, "winners": table.winners,
        "eliminated": dict(table.eliminated), "dealers": table.dealers,
        "status": match.status, "hand_count": match.hand_count,
        "db_winners": tuple(seat.position for seat in match.seats if seat.winner),
        "rulings": [(r.hand_number, r.question, r.legal, r.reason, r.rule, r.request_json)
                    for r in record.rulings],
    }


pytestmark = pytest.mark.usefixtures("ctx")


@pytest.fixture
def source(app):
    """A group filled with 12 random matches of every game, one with a ruling."""
    group = make_group()
    import_document(group, random_document(random.Random(7), 12))
    match = load_matches(group)[0].match
    db.session.add(Ruling(match_id=match.id, hand_number=1, question="5♥ out of turn?",
                          legal=False, reason="only in a melee", rule="lo-melee",
                          request_json='{"play": "5H"}'))
    db.session.commit()
    return group


def test_random_matches_cover_every_game_and_both_states(app, source):
    matches = [record.match for record in load_matches(source)]
    assert {m.game for m in matches} == {"last-one", "crazy-eights", "countdown"}
    assert {m.status for m in matches} >= {"finished"}
    assert sum(m.hand_count for m in matches) > 12


def test_round_trip_into_another_group(app, source):
    before = [snapshot(m) for m in load_matches(source)]
    doc = json.loads(json.dumps(export_document(source, load_matches(source))))
    target = make_group("Target")
    report = import_document(target, parse_json(json.dumps(doc)))
    assert report.matches == len(before)
    after = [snapshot(m) for m in load_matches(target)]
    assert after == before
    assert {p.name for p in target.players} == {n for s in before for n in s["seats"]}


def test_round_trip_into_the_same_group_reuses_players(app, source):
    players = counts()["Player"]
    doc = export_document(source, load_matches(source))
    for match in doc["matches"]:
        del match["uid"]  # a file from before exports carried ids: new matches
    import_document(source, doc)
    assert counts()["Player"] == players
    assert len(load_matches(source)) == 2 * len(doc["matches"])


def test_a_file_without_ids_sent_again_is_not_imported_twice(app, source):
    doc = export_document(source, load_matches(source))
    for match in doc["matches"]:
        del match["uid"]
    doc["matches"].append(copy.deepcopy(doc["matches"][0]))  # one match twice over
    first = import_document(source, copy.deepcopy(doc))
    assert first.matches == len(doc["matches"])
    rows = counts()
    again = import_document(source, copy.deepcopy(doc))  # the client resends it
    assert (again.matches, again.already_imported) == (0, len(doc["matches"]))
    assert counts() == rows


@pytest.mark.corrupts_derived  # sets a finish time as an import would bring it
def test_finish_times_survive_a_round_trip(app, source):
    finished = next(r.match for r in load_matches(source) if r.match.status == "finished")
    db.session.execute(update(Match).where(Match.id == finished.id).values(
        finished_at=datetime(2024, 3, 1, 21, 30, 15, 123456, tzinfo=UTC)))
    db.session.commit()
    doc = json.loads(json.dumps(export_document(source, load_matches(source))))
    assert all((m["finished_at"] is None) == (m["result"]["status"] == "active")
               for m in doc["matches"])
    target = make_group("Target")
    import_document(target, doc)
    assert [utc(r.match.finished_at) for r in load_matches(target)] == [
        utc(r.match.finished_at) for r in load_matches(source)]


def test_an_older_file_without_finish_times_still_imports(app, source):
    doc = export_document(source, load_matches(source))
    for match in doc["matches"]:
        del match["finished_at"]
    start = datetime.now(UTC) - timedelta(seconds=1)
    target = make_group("Target")
    import_document(target, doc)
    for match in (record.match for record in load_matches(target)):
        if match.status == "finished":
            assert utc(match.finished_at) >= start
        else:
            assert match.finished_at is None


def test_players_are_matched_ignoring_case_and_created_with_their_colour(app):
    target = make_group("Target")
    db.session.add(Player(group_id=target.id, name="ann", colour="#000000"))
    db.session.commit()
    doc = random_document(random.Random(1), 1, names=("Ann", "Zed"))
    doc["matches"][0]["seats"] = ["Ann", "Zed"]
    doc["players"] = [{"name": "Zed", "colour": "#ABCDEF"}]
    report = import_document(target, doc)
    assert report.players_created == ("Zed",)
    zed = db.session.scalar(db.select(Player).where(Player.name == "Zed"))
    assert zed.colour == "#abcdef" and zed.group_id == target.id


def test_one_match_export(app, source):
    match = load_matches(source)[3].match
    doc = export_document(source, load_matches(source, match.id))
    assert [m["id"] for m in doc["matches"]] == [match.id]
    assert doc["format"] == "scorekeeper-export" and doc["version"] == 1


def test_csv_has_one_row_per_player_per_hand(app, source):
    matches = load_matches(source)
    lines = to_csv(matches).splitlines()
    assert lines[0] == ("match,game,started,hand,dealer,seat,player,went_out,cards,points,"
                        "total,place")
    assert len(lines) - 1 == sum(r.match.hand_count * len(r.match.seats) for r in matches)


LAST_ONE_TO_50 = [  # Bob falls in hand 1, Cy (62) and Di (50) in hand 2, Ed in hand 3
    (0, ("", "8s 8h", "10c 10d", "9c 9d", "2c 3c")),
    (4, ("4c 5c", "", "jk 2d", "kh qh js 2h", "")),
    (0, ("", "", "", "", "8c 8d")),
]


def last_one_to_50(group: Group, played: int) -> MatchView:
    """The first ``played`` hands of :data:`LAST_ONE_TO_50`, stored."""
    players = [Player(name=name, group_id=group.id) for name in ("Ann", "Bob", "Cy", "Di", "Ed")]
    db.session.add_all(players)
    db.session.flush()
    hands = [HandResult.of(out, [parse_cards(h) for h in held])
             for out, held in LAST_ONE_TO_50[:played]]
    match = build_match(group, Sheet.make("last-one", {"threshold": 50}), players, 0, hands)
    db.session.commit()
    return match


def csv_places(group: Group, hand: str) -> dict[str, str]:
    """Each player's place column in one hand's CSV rows."""
    rows = [line.split(",") for line in to_csv(load_matches(group)).splitlines()[1:]]
    return {row[6]: row[-1] for row in rows if row[3] == hand}


def test_both_exports_carry_the_places_of_a_finished_match(app):
    group = make_group()
    last_one_to_50(group, 3)
    doc = export_document(group, load_matches(group))
    assert doc["matches"][0]["result"]["places"] == [1, 5, 4, 3, 2]
    assert csv_places(group, "3") == {"Ann": "1", "Bob": "5", "Cy": "4", "Di": "3", "Ed": "2"}
    assert csv_places(group, "1") == csv_places(group, "3")  # the match's places, every row


def test_an_unfinished_match_exports_no_places(app):
    group = make_group()
    last_one_to_50(group, 2)
    assert export_document(group, load_matches(group))["matches"][0]["result"]["places"] is None
    assert set(csv_places(group, "2").values()) == {""}


def test_csv_defuses_formula_names(app):
    group = make_group()
    doc = random_document(random.Random(2), 1, names=("=cmd()", "Bob"))
    import_document(group, doc)
    assert "'=cmd()" in to_csv(load_matches(group))


def valid_doc() -> dict:
    return random_document(random.Random(3), 3)


def first_hand(doc):
    return next(m for m in doc["matches"] if m["hands"])["hands"][0]


def _set(path):
    """A mutation setting doc[path...] = value."""
    def apply(doc, value):
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return doc
    return apply


HOSTILE = [
    ("not an object", lambda d: [1, 2, 3], ""),
    ("wrong format", lambda d: _set(["format"])(d, "other-app"), "format"),
    ("wrong version", lambda d: _set(["version"])(d, 99), "version"),
    ("version as text", lambda d: _set(["version"])(d, "1"), "version"),
    ("matches not a list", lambda d: _set(["matches"])(d, {"a": 1}), "matches"),
    ("match not an object", lambda d: _set(["matches", 1])(d, "junk"), "matches[1]"),
    ("unknown game", lambda d: _set(["matches", 0, "sheet", "game"])(d, "poker"),
     "matches[0].sheet"),
    ("bad option", lambda d: _set(["matches", 0, "sheet", "options"])(d, {"threshold": -5}),
     "matches[0].sheet"),
    ("huge option", lambda d: _set(["matches", 0, "sheet", "options"])(d, {"bogus": 10**30}),
     "matches[0].sheet"),
    ("missing seats", lambda d: _set(["matches", 2, "seats"])(d, None), "matches[2].seats"),
    ("one seat", lambda d: _set(["matches", 2, "seats"])(d, ["Solo"]), "matches[2].seats"),
    ("seat name wrong type", lambda d: _set(["matches", 2, "seats", 0])(d, 42),
     "matches[2].seats[0]"),
    ("seat name too long", lambda d: _set(["matches", 2, "seats", 0])(d, "x" * 500),
     "matches[2].seats[0]"),
    ("same player twice", lambda d: _set(["matches", 2, "seats", 1])(
        d, d["matches"][2]["seats"][0].upper()), "matches[2].seats"),
    ("dealer out of range", lambda d: _set(["matches", 1, "first_dealer"])(d, 10**12),
     "matches[1].first_dealer"),
    ("dealer as bool", lambda d: _set(["matches", 1, "first_dealer"])(d, True),
     "matches[1].first_dealer"),
    ("bad card", lambda d: _set(["matches", 0, "hands", 0, "held"])(
        d, ["zz"] * len(d["matches"][0]["seats"])), "matches[0].hands[0].held[0]"),
    ("cards wrong type", lambda d: _set(["matches", 0, "hands", 0, "held"])(
        d, [5] * len(d["matches"][0]["seats"])), "matches[0].hands[0].held[0]"),
    ("held missing a seat", lambda d: _set(["matches", 0, "hands", 0, "held"])(d, [""]),
     "matches[0].hands[0].held"),
    ("out is not a seat", lambda d: _set(["matches", 0, "hands", 0, "out"])(d, 99),
     "matches[0].hands[0].out"),
    ("huge out", lambda d: _set(["matches", 0, "hands", 0, "out"])(d, 10**40),
     "matches[0].hands[0].out"),
    ("hand numbered wrong", lambda d: _set(["matches", 0, "hands", 0, "number"])(d, 5),
     "matches[0].hands[0].number"),
    ("too many copies", lambda d: _set(["matches", 0, "hands", 0, "held"])(
        d, ["AS AS"] + [""] * (len(d["matches"][0]["seats"]) - 1)), "matches[0].hands[0]"),
    ("cards for the one who went out", lambda d: _set(["matches", 0, "hands", 0])(
        d, {"out": 0, "held": ["KH"] + [""] * (len(d["matches"][0]["seats"]) - 1)}),
     "matches[0].hands[0].held[0]"),
    ("forged points", lambda d: _set(["matches", 0, "hands", 0, "points"])(
        d, [999] * len(d["matches"][0]["seats"])), "matches[0].hands[0].points"),
    ("forged winner", lambda d: _set(["matches", 0, "result"])(d, {"winners": ["Nobody"]}),
     "matches[0].result.winners"),
    ("bad date", lambda d: _set(["matches", 0, "created_at"])(d, "yesterday"),
     "matches[0].created_at"),
    ("bad finish date", lambda d: _set(["matches", 0, "finished_at"])(d, ["x"]),
     "matches[0].finished_at"),
    ("ruling junk", lambda d: _set(["matches", 0, "rulings"])(d, [{"question": ["x"]}]),
     "matches[0].rulings[0].question"),
    ("bad colour", lambda d: _set(["players"])(d, [{"name": "Ann", "colour": "red;"}]),
     "players[0].colour"),
    ("nested junk", lambda d: _set(["matches", 0, "hands", 0])(d, [[[[[[{}]]]]]]),
     "matches[0].hands[0]"),
]


@pytest.mark.parametrize(("label", "mutate", "where"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_documents_write_nothing(app, label, mutate, where):
    group = make_group("Target")
    before = counts()
    doc = mutate(copy.deepcopy(valid_doc()))
    with pytest.raises(TransferError) as caught:
        import_document(group, doc)
    assert any(p.where.startswith(where) for p in caught.value.problems), caught.value.problems
    assert counts() == before


def test_a_bad_last_match_rolls_back_the_good_ones(app):
    group = make_group("Target")
    before = counts()
    doc = random_document(random.Random(4), 5)
    doc["matches"][-1]["seats"] = []
    with pytest.raises(TransferError) as caught:
        import_document(group, doc)
    assert caught.value.problems[0].message.startswith("match 5:")
    assert counts() == before


def test_problem_names_match_hand_and_field(app):
    doc = valid_doc()
    doc["matches"][1]["hands"][1]["held"][0] = "8s zz"
    with pytest.raises(TransferError) as caught:
        import_document(make_group(), doc)
    problem = caught.value.problems[0]
    assert problem.where == "matches[1].hands[1].held[0]"
    assert problem.message.startswith("match 2, hand 2: ") and "'zz'" in problem.message


@pytest.mark.parametrize("raw", [b"{", b"\xff\xfe", b"[" * 100000 + b"]" * 100000,
                                 b'{"version": 1' + b"9" * 10000 + b"}"])
def test_unreadable_files(raw):
    with pytest.raises(TransferError):
        parse_json(raw)


def test_size_limits(app):
    with pytest.raises(TransferError, match="larger"):
        parse_json(b" " * 101, Limits(max_bytes=100))
    doc = random_document(random.Random(5), 4)
    before = counts()
    with pytest.raises(TransferError, match="matches"):
        import_document(make_group(), doc, Limits(max_matches=3))
    with pytest.raises(TransferError, match="hands"):
        import_document(make_group(), doc, Limits(max_total_hands=2))
    assert counts()["Match"] == before["Match"]


def test_build_match_turns_hands_into_rows_without_committing(app):
    group = make_group()
    players = [Player(group_id=group.id, name=n) for n in ("Ann", "Bob")]
    db.session.add_all(players)  # written with the match, in its transaction
    sheet = Sheet.make("crazy-eights")
    hands = [HandResult.of(1, [parse_cards("8S KH"), []]),
             HandResult.of(0, [[], parse_cards("9C")])]
    match = build_match(group, sheet, players, 1, hands)
    assert [(h.number, h.dealer, [e.points for e in h.entries])
            for h in match_hands(match)] == [(1, 1, [0, 60]), (2, 0, [9, 0])]
    assert (match.status, match.hand_count) == ("active", 2)
    assert not any(seat.winner for seat in match.seats)
    db.session.rollback()
    assert counts()["Match"] == 0
    with pytest.raises(InputError) as caught:
        build_match(group, sheet, players, 0, [HandResult.of(0, [parse_cards("KH"), []])])
    assert caught.value.field == "held.0"
    db.session.rollback()
