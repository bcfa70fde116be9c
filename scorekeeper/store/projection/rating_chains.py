"""The stored ratings (tables ``rating`` and ``rating_step``), kept in step with the
finished matches in the transaction of every change to one.

:func:`match_changed` is called by the ratings figure (:mod:`.rating_figure`) for a
change the writer made to a match that is finished now or was before (a finishing
hand, an edit, a deleted hand):

* a newly finished match whose players have no later match in its scopes (the usual
  case: the last hand was just recorded) is rated from its players' stored rows alone,
  a few statements whatever the size of the group;
* otherwise (an edit of a past match, a reopened one, an older match imported) each of
  its chains is replayed from that match on: the stored steps before it are taken as
  they are, the matches after it are rated again from their stored places.

:func:`rerate_group` rates every chain of a group again from its stored matches (a
bulk write: an import, the migration); :func:`reseason` the named seasons' chains
from the all-time steps. Both are reached through the projection's entry points.
``db verify`` and ``db rebuild`` recompute the same rows from a full replay of the hands
(:mod:`.rating_figure`).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, fields
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import String, bindparam, delete, func, insert, literal, select, update
from sqlalchemy.engine import Connection

from scorekeeper.core.cards import parse_cards
from scorekeeper.core.hand_records import HandMarks, hand_records
from scorekeeper.core.places import needs_hands, places
from scorekeeper.core.ratings import (
    ALL,
    Finished,
    SeatResult,
    State,
    Step,
    fold,
    order_key,
    rate_match,
    recount,
    scopes_of,
    season_scope,
    walk,
)
from scorekeeper.core.scoring import (
    HandResult,
    MatchTally,
    Standings,
    standings,
    standings_at,
    stored_hand,
)
from scorekeeper.store.models import (
    Hand,
    HandEntry,
    Match,
    Rating,
    RatingStep,
    Season,
    Seat,
    SeatFigureRow,
)
from scorekeeper.store.projection.states import sheet_limits, stored_sheet

__all__ = ["Known", "chains_of", "fold_chains", "match_changed", "rated", "rerate_group",
           "reseason", "write_rows"]

Chain = tuple[int, str, str]  # group, game, scope
# Matches a write changed, each as its full replay counts it (None: not worked out).
Known = Mapping[int, Finished | None]
_STATE = tuple(f.name for f in fields(State))


def _utc(moment: datetime) -> datetime:
    """A finish time as written: aware UTC (SQLite keeps the digits, PostgreSQL the instant);
    a naive one is UTC already (:func:`order_key`)."""
    return moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _seasons(connection: Connection, group_id: int) -> list[tuple[int, Any, Any]]:
    return [tuple(row) for row in connection.execute(  # type: ignore[misc]
        select(Season.id, Season.first_day, Season.last_day).where(Season.group_id == group_id))]


# --- a match's results, from what the writer stored ---------------------------------------

def _results(connection: Connection, rows: Sequence[Any], *where: Any,
             changed: Collection[int] | None = None) -> dict[int, Finished]:
    """Finished matches (rows of ``_MATCH_COLUMNS``, those matching ``where``) as their
    chains count them: places from the stored position, the comeback from the seat
    figures, the best and worst hands from the hands (three statements for any number;
    see :func:`_hand_marks` for ``changed``)."""
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    deficit: dict[tuple[int, int], int] = {}
    for match_id, position, player_id in connection.execute(
            select(Seat.match_id, Seat.position, Seat.player_id)
            .join(Match, Match.id == Seat.match_id).where(*where)):
        seats[match_id][position] = player_id
    for match_id, seat, value in connection.execute(
            select(SeatFigureRow.match_id, SeatFigureRow.seat, SeatFigureRow.deficit)
            .join(Match, Match.id == SeatFigureRow.match_id).where(*where)):
        deficit[match_id, seat] = value
    marks = _hand_marks(connection, rows, seats, where, changed)
    replayed = _one_hand_tables(connection, rows, seats)
    found = {}
    for row in rows:
        players = seats[row.id]
        ranked, winners = _places(row, len(players), replayed.get(row.id))
        if ranked is None:
            continue
        held = marks.get(row.id) or (HandMarks(),) * len(ranked)
        found[row.id] = Finished(row.id, row.finished_at, tuple(
            SeatResult(players[seat], seat, place, seat in winners,
                       deficit.get((row.id, seat), 0), held[seat].best, held[seat].worst)
            for seat, place in enumerate(ranked)))
    return found


def _hand_marks(connection: Connection, rows: Sequence[Any], seats: dict[int, dict[int, int]],
                where: Sequence[Any], changed: Collection[int] | None
                ) -> dict[int, tuple[HandMarks, ...]]:
    """Each match's best and worst hand per seat, from its stored hands (one statement).

    ``changed``, when given, names the matches the writer just changed; every other
    match is taken as its stored all-time steps have it, so a bulk write (an import
    into a large group) reads again only the hands that need it."""
    found = {} if changed is None else _stored_marks(connection, where, changed)
    # A match whose marks do not cover each of its seats is read again from its hands.
    wanted = [row for row in rows if len(found.get(row.id, ())) != len(seats[row.id])]
    if not wanted:
        return found
    hands: dict[int, dict[int, tuple[int | None, dict[int, tuple[str, int]]]]] = (
        defaultdict(dict))
    for match_id, hand_id, out, seat, cards, points in connection.execute(
            select(Hand.match_id, Hand.id, Hand.out_seat, HandEntry.seat, HandEntry.cards,
                   HandEntry.points)
            .join(Hand, Hand.id == HandEntry.hand_id).join(Match, Match.id == Hand.match_id)
            .where(*where, Match.id.in_([row.id for row in wanted]))
            .order_by(Hand.match_id, Hand.number)):
        hands[match_id].setdefault(hand_id, (out, {}))[1][seat] = (cards, points)
    for row in wanted:
        n = len(seats[row.id])
        played = [stored_hand(row.game, out, [held.get(s, ("", 0))[0] for s in range(n)],
                              [held.get(s, ("", 0))[1] for s in range(n)])
                  for out, held in hands.get(row.id, {}).values()]
        found[row.id] = hand_records(row.game, n, played, sheet_limits(row.sheet_json)[0])
    return found


def _stored_marks(connection: Connection, where: Sequence[Any], changed: Collection[int]
                  ) -> dict[int, tuple[HandMarks, ...]]:
    """The best and worst hands the all-time steps keep of the matches matching
    ``where``, except the ``changed`` ones (one statement)."""
    S = RatingStep
    kept: dict[int, dict[int, HandMarks]] = defaultdict(dict)
    for match_id, seat, best, worst in connection.execute(
            select(S.match_id, S.seat, S.best_hand, S.worst_hand)
            .join(Match, Match.id == S.match_id).where(*where, S.scope == ALL)):
        if match_id not in changed:
            kept[match_id][seat] = HandMarks(best, worst)
    return {match_id: tuple(by_seat[s] for s in sorted(by_seat))
            for match_id, by_seat in kept.items()}


def _names(seats: int) -> list[str]:
    return [str(seat) for seat in range(seats)]  # only the reason's words use names


def _one_hand_tables(connection: Connection, rows: Sequence[Any],
                     seats: dict[int, dict[int, int]]) -> dict[int, Standings]:
    """Full replays of the one-hand matches among ``rows`` (one statement for all)."""
    wanted = {row.id: row for row in rows
              if needs_hands(stored_sheet(row.sheet_json), len(seats[row.id]))}
    if not wanted:
        return {}
    held: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    outs: dict[int, int | None] = {}
    for match_id, out, seat, cards in connection.execute(
            select(Hand.match_id, Hand.out_seat, HandEntry.seat, HandEntry.cards)
            .join(Hand, Hand.id == HandEntry.hand_id).where(Hand.match_id.in_(sorted(wanted)))
            .order_by(Hand.match_id, Hand.number)):
        held[match_id][seat] = parse_cards(cards)
        outs[match_id] = out
    tables = {}
    for match_id, row in wanted.items():
        n = len(seats[match_id])
        result = HandResult.of(outs.get(match_id), [held[match_id][s] for s in range(n)])
        tables[match_id] = standings(stored_sheet(row.sheet_json), _names(n), row.first_dealer,
                                     [result])
    return tables


def _places(row: Any, seats: int, replayed: Standings | None
            ) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    """A match's places and winners from its stored sheet and final position (or its
    full replay, where the places need one)."""
    sheet = stored_sheet(row.sheet_json)
    table = replayed or standings_at(
        sheet, _names(seats), MatchTally.from_dict(json.loads(row.running_json)["position"]))
    return places(sheet, table), table.winners


_MATCH_COLUMNS = (Match.id, Match.group_id, Match.game, Match.sheet_json, Match.running_json,
                  Match.finished_at, Match.first_dealer)


# --- reading and writing chains ------------------------------------------------------------

def _steps_of(connection: Connection, group_id: int, game: str, scope: str
              ) -> list[tuple[Finished, dict[int, tuple[float, float]]]]:
    """A chain's stored steps, match by match in chain order, with each player's μ, σ."""
    S = RatingStep
    rows = connection.execute(
        select(S.match_id, S.finished_at, S.player_id, S.seat, S.place, S.won, S.deficit,
               S.best_hand, S.worst_hand, S.mu, S.sigma)
        .where(S.group_id == group_id, S.game == game, S.scope == scope)
        .order_by(S.finished_at, S.match_id, S.seat)).all()
    matches: dict[int, tuple[datetime, list[SeatResult], dict[int, tuple[float, float]]]] = {}
    for match_id, at, player, seat, place, won, deficit, best, worst, mu, sigma in rows:
        entry = matches.setdefault(match_id, (at, [], {}))
        entry[1].append(SeatResult(player, seat, place, bool(won), deficit, best, worst))
        entry[2][player] = (mu, sigma)
    chain = [(Finished(match_id, at, tuple(results)), rated)
             for match_id, (at, results, rated) in matches.items()]
    chain.sort(key=lambda item: item[0].key)
    return chain


def step_row(chain: Chain, step: Step) -> dict[str, Any]:
    group_id, game, scope = chain
    r, after = step.result, step.after
    return {"match_id": step.match.match_id, "scope": scope, "player_id": r.player_id,
            "group_id": group_id, "game": game, "finished_at": _utc(step.match.finished_at),
            "seat": r.seat, "place": r.place, "won": r.won, "deficit": r.deficit,
            "best_hand": r.best_hand, "worst_hand": r.worst_hand, "mu": after.mu,
            "sigma": after.sigma,
            "shown": after.shown, "change": after.change}


def rating_row(chain: Chain, player_id: int, state: State) -> dict[str, Any]:
    group_id, game, scope = chain
    values = asdict(state)
    values["last_finished_at"] = _utc(state.last_finished_at or datetime.now(UTC))
    return {"player_id": player_id, "game": game, "scope": scope, "group_id": group_id,
            **values}


def _write_chain(connection: Connection, chain: Chain, states: dict[int, State],
                 steps: Sequence[Step], from_ids: Iterable[int]) -> None:
    """Replace the chain's steps of the matches ``from_ids`` with ``steps`` and all its
    rating rows with ``states``."""
    group_id, game, scope = chain
    gone = sorted(set(from_ids))
    S, R = RatingStep, Rating
    for at in range(0, len(gone), 500):
        connection.execute(delete(S).where(S.scope == scope, S.game == game,
                                           S.match_id.in_(gone[at:at + 500])))
    connection.execute(delete(R).where(R.group_id == group_id, R.game == game, R.scope == scope))
    if steps:
        connection.execute(insert(S), [step_row(chain, step) for step in steps])
    if states:
        connection.execute(insert(R), [rating_row(chain, player, state)
                                       for player, state in sorted(states.items())])


def _replay(connection: Connection, chain: Chain, match_id: int, fresh: Finished | None,
            point: tuple[datetime, int]) -> None:
    """Replay a chain from ``point`` on, with the match ``match_id`` counted as
    ``fresh`` (None: no longer finished, or no longer in this scope)."""
    stored = _steps_of(connection, *chain)
    states: dict[int, State] = {}
    later: list[Finished] = []
    for match, rated in stored:
        if match.key < point and match.match_id != match_id:
            recount(states, match, rated)
        elif match.match_id != match_id:
            later.append(match)
    if fresh is not None:
        later.append(fresh)
    later.sort(key=lambda m: m.key)
    states, steps = fold(later, states)
    _write_chain(connection, chain, states, steps,
                 [m.match_id for m in later] + [match_id])


def _rate_new(connection: Connection, chains: Sequence[Chain], match: Finished,
              stored: dict[str, dict[int, State]]) -> None:
    """Rate a new match at the end of its chains from its players' rows there
    (``stored``, by scope): three statements for all of its chains together."""
    steps, updates, inserts = [], [], []
    for chain in chains:
        rows = stored[chain[2]]
        for step in rate_match(rows, match):
            steps.append(step_row(chain, step))
            values = rating_row(chain, step.result.player_id, step.after)
            if step.result.player_id in rows:
                updates.append({**values, "at_player": values["player_id"],
                                "at_game": values["game"], "at_scope": values["scope"]})
            else:
                inserts.append(values)
    write_rows(connection, steps, inserts)
    if updates:
        connection.execute(_update_statement(), updates)


@lru_cache(maxsize=1)
def _update_statement() -> Any:
    """The UPDATE of a rating row to its state after a match, built once."""
    R = Rating
    return (update(R).where(R.player_id == bindparam("at_player"),
                            R.game == bindparam("at_game"), R.scope == bindparam("at_scope"))
            .values({name: bindparam(name) for name in _STATE}))


def _rows_of(connection: Connection, game: str, scopes: Sequence[str], players: Sequence[int]
             ) -> dict[str, dict[int, State]]:
    """The stored rating rows of these players in these scopes, locked for the change."""
    R = Rating
    found: dict[str, dict[int, State]] = defaultdict(dict)
    query = (select(R.scope, R.player_id, *(getattr(R, name) for name in _STATE))
             .where(R.game == game, R.scope.in_(scopes), R.player_id.in_(players))
             .order_by(R.scope, R.player_id).with_for_update())
    for scope, player, *values in connection.execute(query):
        found[scope][player] = State(**dict(zip(_STATE, values, strict=True)))
    return found


def match_changed(connection: Connection, match_id: int) -> None:
    """Bring the ratings up to date with a match just written (see the module's text)."""
    row = connection.execute(select(*_MATCH_COLUMNS).where(Match.id == match_id)).one()
    fresh = (_results(connection, [row], Match.id == match_id).get(match_id)
             if row.finished_at is not None and row.running_json is not None else None)
    S = RatingStep
    before = connection.execute(select(S.scope, func.min(S.finished_at))
                                .where(S.match_id == match_id).group_by(S.scope)).all()
    old = {scope: order_key(at, match_id) for scope, at in before}
    new = (scopes_of(order_key(fresh.finished_at, 0)[0].date(),
                     _seasons(connection, row.group_id)) if fresh else ())
    stored = (_rows_of(connection, row.game, new, [r.player_id for r in fresh.seats])
              if fresh else {})
    at_end = []
    for scope in sorted(set(old) | set(new)):
        chain = (row.group_id, row.game, scope)
        if fresh is not None and scope not in old and _is_last(stored[scope], fresh):
            at_end.append(chain)
            continue
        points = [key for key in (old.get(scope), fresh.key if fresh else None) if key]
        _replay(connection, chain, match_id, fresh if scope in new else None, min(points))
    if fresh is not None and at_end:
        _rate_new(connection, at_end, fresh, stored)


def _is_last(rows: dict[int, State], match: Finished) -> bool:
    """Whether none of the match's players has a later match in the chain."""
    return all(order_key(state.last_finished_at, state.last_match_id) < match.key
               for state in rows.values() if state.last_finished_at is not None)


# --- the whole group: every chain at once, a season's chains ----------------------------

def chains_of(group_id: int, matches: Iterable[tuple[str, Finished]],
              seasons: Iterable[tuple[int, date, date]]) -> dict[Chain, list[Finished]]:
    """Every chain of the group with its finished matches (each with its game) in
    chain order, given the group's named seasons."""
    seasons = list(seasons)
    chains: dict[Chain, list[Finished]] = defaultdict(list)
    for game, match in matches:
        for scope in scopes_of(match.key[0].date(), seasons):
            chains[group_id, game, scope].append(match)
    for found in chains.values():
        found.sort(key=lambda m: m.key)
    return chains


def fold_chains(chains: dict[Chain, list[Finished]]
                ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[Chain, str]]]:
    """Every chain folded: the rating steps' rows, the rating rows, and the chains whose
    steps are left out of those rows, each with the scope of the chain it folds alike.

    Chains of one game that hold the same matches (the all-time, year and month
    chains of a history within one month; a named season covering all of them) fold
    alike: each such list of matches is folded once, and another chain's steps are the
    first one's in its own scope."""
    steps: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    copies: list[tuple[Chain, str]] = []
    seen: dict[tuple[str, tuple[int, ...]], tuple[str, dict[int, State]]] = {}
    for chain, matches in chains.items():
        alike = (chain[1], tuple(match.match_id for match in matches))
        if alike in seen:
            scope, states = seen[alike]
            copies.append((chain, scope))
        else:
            states = {}
            steps += [step_row(chain, step) for step in walk(matches, states)]
            seen[alike] = (chain[2], states)
        rows += [rating_row(chain, player, state) for player, state in sorted(states.items())]
    return steps, rows, copies


def rated(chains: dict[Chain, list[Finished]]
          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every chain folded (:func:`fold_chains`): every rating step's row and the rating
    rows."""
    steps, rows, copies = fold_chains(chains)
    of_scope: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in steps:
        of_scope[row["game"], row["scope"]].append(row)
    for (_, game, scope), source in copies:
        steps += [{**row, "scope": scope} for row in of_scope[game, source]]
    return steps, rows


def _copy_steps(connection: Connection, chain: Chain, source: str, columns: list[str]
                ) -> None:
    """Write a chain's steps as those of the group's chain of the same game in scope
    ``source``, which holds the same matches: one INSERT … SELECT of the ``columns``
    the steps are written with, in the database."""
    group_id, game, scope = chain
    table = RatingStep.__table__
    picked = [literal(scope, String).label("scope") if name == "scope" else table.c[name]
              for name in columns]
    connection.execute(insert(RatingStep).from_select(columns, select(*picked).where(
        RatingStep.group_id == group_id, RatingStep.game == game, RatingStep.scope == source)))


def rerate_group(connection: Connection, group_id: int, known: Known | None = None) -> int:
    """Rate every chain of the group again from its finished matches as stored (their
    final positions, seat figures and hands, written earlier in this transaction): how
    a bulk write (an import, the migration) rates many matches at once.

    ``known``: the matches the writer just changed, each as its full replay counts it
    (None: not worked out, read back as stored). The other matches' best and worst
    hands are then taken from their stored steps; without ``known`` every match's come
    from its hands. Returns how many rating steps were written."""
    where = (Match.group_id == group_id, Match.status == "finished",
             Match.running_json.is_not(None), Match.finished_at.is_not(None))
    rows = connection.execute(select(Match.id, Match.game).where(*where)).all()
    results = {match_id: found for match_id, found in (known or {}).items()
               if found is not None}
    if any(row.id not in results for row in rows):  # stored before, or not worked out
        stored = [row for row in connection.execute(select(*_MATCH_COLUMNS).where(*where))
                  if row.id not in results]
        results |= _results(connection, stored, *where,
                            changed=None if known is None else set(known))
    games = {row.id: row.game for row in rows}
    chains = chains_of(group_id, ((games[i], m) for i, m in results.items() if i in games),
                       _seasons(connection, group_id))
    steps, ratings, copies = fold_chains(chains)
    connection.execute(delete(RatingStep).where(RatingStep.group_id == group_id))
    connection.execute(delete(Rating).where(Rating.group_id == group_id))
    write_rows(connection, steps, ratings)
    per_scope = Counter((row["game"], row["scope"]) for row in steps)
    for chain, source in copies:  # a folded chain has steps: steps[0] is there
        _copy_steps(connection, chain, source, list(steps[0]))
    return len(steps) + sum(per_scope[chain[1], source] for chain, source in copies)


def write_rows(connection: Connection, steps: list[dict[str, Any]],
               rows: list[dict[str, Any]]) -> None:
    """INSERT rating steps and rating rows (many at once)."""
    if steps:
        connection.execute(insert(RatingStep), steps)
    if rows:
        connection.execute(insert(Rating), rows)


def reseason(connection: Connection, group_id: int) -> None:
    """Work out every named season's chains of the group again (one was defined,
    changed or deleted) from the all-time steps of the matches finished within each:
    no match is read again."""
    S, R = RatingStep, Rating
    named = S.scope.like("s%")
    connection.execute(delete(S).where(S.group_id == group_id, named))
    connection.execute(delete(R).where(R.group_id == group_id, R.scope.like("s%")))
    seasons = _seasons(connection, group_id)
    if not seasons:
        return
    games = connection.scalars(select(S.game).where(S.group_id == group_id, S.scope == ALL)
                               .distinct()).all()
    for game in sorted(games):
        chain = _steps_of(connection, group_id, game, ALL)
        for season_id, first, last in seasons:
            matches = [m for m, _ in chain if first <= m.key[0].date() <= last]
            states, steps = fold(matches)
            _write_chain(connection, (group_id, game, season_scope(season_id)), states,
                         steps, ())
