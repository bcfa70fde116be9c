"""Reference figures for the store's tests: every stored match replayed through the
oracle of :mod:`tests.support.stats_oracle`, compared with what the store keeps, and a
table of hand-built matches whose answers are worked out by hand (``test_stats.py``)."""

from __future__ import annotations

import json
import random

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.scoring import stored_hand
from scorekeeper.core.sheets import Sheet
from scorekeeper.store.extensions import db
from scorekeeper.store.match_views import MatchView, match_hands
from scorekeeper.store.models import Group, Match, SeatFigureRow
from scorekeeper.store.reading import match_standings
from scorekeeper.store.statistics import player_figures
from scorekeeper.store.transfer import FORMAT, VERSION, import_document, load_matches
from tests.support.documents import random_document
from tests.support.stats_oracle import MatchRow, head_to_head, player_stats


def reference_rows(group: Group) -> list[MatchRow]:
    """Every match as full :class:`MatchRow` data, by id (the order stats tie-break on)."""
    rows = []
    for record in sorted(load_matches(group), key=lambda r: r.match.id):
        m = record.match
        options = json.loads(m.sheet_json)["options"]
        rows.append(MatchRow(
            m.id, m.game, tuple(s.player_id for s in m.seats),
            tuple(s.position for s in m.seats if s.winner), m.status == "finished",
            tuple(stored_hand(m.game, h.out_seat, [e.cards for e in h.entries],
                              [e.points for e in h.entries]) for h in record.hands),
            start=options.get("start_count", 0), threshold=options.get("threshold")))
    return rows


def assert_same_figures(group: Group) -> None:
    rows = reference_rows(group)
    for player in group.players:
        stats, rivals = player_figures(group, player)
        assert stats == player_stats(player.id, rows), player.name
        assert rivals == head_to_head(player.id, rows), player.name


def match(game: str, seats: list[str], hands: list[tuple[int | None, list[str]]],
          **options) -> dict:
    return {"sheet": Sheet.make(game, options).to_dict(), "seats": seats, "first_dealer": 0,
            "hands": [{"out": out, "held": held} for out, held in hands]}


# The hand-built matches of test_stats.py, recorded for real.
TABLE = {"format": FORMAT, "version": VERSION, "matches": [
    match("last-one", ["Ann", "Bob", "Cat"], [
        (0, ["", "8S KH", "JK 2C"]), (1, ["5H 6H", "", "9C 9D"]), (0, ["", "8H AC", ""])],
        threshold=50),
    match("crazy-eights", ["Ann", "Bob"], [(1, ["8S KH 7D AC", ""]), (0, ["", "8H 8D"])]),
    match("countdown", ["Bob", "Cat"], [(1, ["7C", ""]), (0, ["", "8C"]), (0, ["", "KD"])],
          start_count=2),
    match("crazy-eights", ["Bob", "Ann"], [(0, ["", "8C 2D"])]),
    # Everyone reaches 50 together: Bob (lowest) wins, Ann falls in hand 1.
    match("last-one", ["Ann", "Bob"], [(None, ["JK JK", "8S 8H 8D"])], threshold=50),
]}


COLUMNS = ("hands", "points", "went_out", "caught_eight", "caught_joker", "fell", "deficit",
           "deficit_hand", "finished", "won", "game")


def stored(group: Group) -> dict[tuple[int, int], tuple]:
    rows = db.session.scalars(db.select(SeatFigureRow).join(Match)
                              .where(Match.group_id == group.id))
    return {(r.match_id, r.seat): tuple(getattr(r, c) for c in COLUMNS) for r in rows}


def recomputed(group: Group) -> dict[tuple[int, int], tuple]:
    """Each seat's figures from the oracle, run over that one match."""
    figures = {}
    for row in reference_rows(group):
        for seat, player in enumerate(row.players):
            stats = player_stats(player, [row]).games[row.game]
            won = row.finished and seat in row.winners
            best = stats.best_comeback
            figures[row.id, seat] = (
                stats.hands, stats.points, stats.went_out, stats.caught_eight,
                stats.caught_joker, stats.falls[0] if stats.falls else None,
                best.deficit if won else None, best.hand if won else None,
                row.finished, won, row.game)
    return figures


def assert_figures_match(group: Group) -> None:
    kept, expected = stored(group), recomputed(group)
    assert kept.keys() == expected.keys()
    for key, values in expected.items():
        # A deficit is only defined (by the oracle) for a match the seat won.
        ours = kept[key] if values[9] else (*kept[key][:6], None, None, *kept[key][8:])
        assert ours == values, key
    assert_same_figures(group)


def imported(seed: int | None = None) -> Group:
    group = Group(name="Figures")
    db.session.add(group)
    db.session.commit()
    import_document(group, TABLE if seed is None else random_document(random.Random(seed), 25))
    return group


def match_views(group: Group, match_id: int | None = None) -> list[MatchView]:
    """The group's matches (or one) as the writer and the pages read them."""
    return [record.match for record in load_matches(group, match_id)]


def low_cards(seats: int, out: int | None) -> list[list]:
    """One low card for every seat but the one who went out (a hand must be complete)."""
    cards = ["2C", "2D", "2H", "2S", "3C", "3D", "3H"]
    return [[] if seat == out else parse_cards(cards[seat]) for seat in range(seats)]


def blocked(match, number: int) -> list[list]:
    """Hand ``number`` made blocked: every seat still in the match then holds cards (an
    empty one gets a card nobody holds); seats already out of the match hold nothing."""
    hands = match_hands(match)
    fallen = match_standings(match, hands).eliminated
    hand = hands[number - 1]
    held = [[] for _ in match.seats]
    for entry in hand.entries:
        held[entry.seat] = parse_cards(entry.cards)
    spare = iter(c for c in parse_cards("2C 2D 2H 2S 3C 3D 3H 3S 4C 4D")
                 if c not in {c for cards in held for c in cards})
    for seat, cards in enumerate(held):
        if not cards and fallen.get(seat, number) >= number:
            held[seat] = [next(spare)]
    return held
