"""Database models: groups, players, matches, seats, hands, hand entries, rulings.

Standings are derived from a match's hands by :func:`scorekeeper.core.scoring.standings`.
The derived columns kept (``Match``'s ``status``, ``hand_count`` and ``finished_at``, and
``Seat.winner``) are an index for the history pages; ``SeatFigureRow`` (per match) with
``PlayerTotals``, ``PlayerFalls`` and ``PlayerRivals`` (their sums per player) serve the
player page; ``Match.running_json`` is the position after the last hand that the next
save moves on from. All are written by :mod:`scorekeeper.store.projection` alone, in
the same transaction as every change to the hands (made by :mod:`.records` alone), and
can be verified and rebuilt from the hands; the match's ``version`` makes concurrent
changes to one match conflict instead of interleave (the writer's claim).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import UTC, date, datetime

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship
from sqlalchemy.sql.expression import false

from scorekeeper.store.extensions import Model

MAX_ID = 2**31 - 1  # PostgreSQL integer: larger ids from a client never reach a query
TOKEN_BYTES = 24  # 32 url-safe characters: long enough that guessing is hopeless
MAX_TOKEN = 64  # the token columns' width: a longer one from a client never reaches a query


def new_token() -> str:
    """A fresh capability token for invite and view links."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_uid() -> str:
    """A stable public id: a match's travels in exports, so a re-import is recognised;
    a player's goes to BG Stats, so it knows the same person next time. It opens
    nothing (only tokens do)."""
    return uuid.uuid4().hex


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Group(Model):
    """The people who play together: the unit of privacy."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    invite_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    players: Mapped[list[Player]] = relationship(back_populates="group", order_by="Player.name")
    matches: Mapped[list[Match]] = relationship(back_populates="group")


class Player(Model):
    """A person in a group: a name unique in the group and a colour."""

    __table_args__ = (UniqueConstraint("group_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    colour: Mapped[str] = mapped_column(String(7), default="#1f77b4")
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Stable through renames, unlike the name; not the row id, which another server's
    # database reuses for someone else (see :func:`new_uid`).
    uid: Mapped[str] = mapped_column(String(32), default=new_uid)

    group: Mapped[Group] = relationship(back_populates="players")


class Match(Model):
    """A match: a frozen rule sheet, seats in clockwise order, and its hands."""

    # The history list, newest first: all of a group's matches, or filtered by game or status.
    __table_args__ = (
        Index("ix_match_group_created", "group_id", "created_at"),
        Index("ix_match_group_game_created", "group_id", "game", "created_at"),
        Index("ix_match_group_status_created", "group_id", "status", "created_at"),
        UniqueConstraint("group_id", "uid"),  # one copy of an exported match per group
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id"), index=True)
    game: Mapped[str] = mapped_column(String(20), index=True)
    sheet_json: Mapped[str] = mapped_column(Text)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, default=new_token)
    uid: Mapped[str] = mapped_column(String(32), default=new_uid)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Derived from the hands (see the module docstring), kept for listing and filtering.
    status: Mapped[str] = mapped_column(String(10), default="active", index=True)
    hand_count: Mapped[int] = mapped_column(Integer, default=0)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Derived too: where the match stands after its last hand and each seat's figures
    # (:mod:`scorekeeper.store.projection.running_state`), so a save moves on by one
    # hand instead of replaying them all. NULL only for a row written before it
    # existed: then replayed.
    running_json: Mapped[str | None] = mapped_column(Text)
    # Moved on by every write to the match's hands, by the writer's claim alone
    # (:mod:`scorekeeper.store.records`): of two phones changing the same match at once
    # the loser's version-checked UPDATE matches no row, and nothing of it is stored.
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")

    group: Mapped[Group] = relationship(back_populates="matches")
    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )
    rulings: Mapped[list[Ruling]] = relationship(
        back_populates="match", order_by="Ruling.id", cascade="all, delete-orphan"
    )
    figures: Mapped[list[SeatFigureRow]] = relationship(
        back_populates="match", order_by="SeatFigureRow.seat", cascade="all, delete-orphan"
    )

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats' positions (none while the match is being played)."""
        return tuple(seat.position for seat in self.seats if seat.winner)


class Seat(Model):
    """A player's place at a match's table; positions run clockwise from 0."""

    __table_args__ = (
        UniqueConstraint("match_id", "position"),
        UniqueConstraint("match_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    position: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    # Derived like the match's status: this seat won the (finished) match.
    winner: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    match: Mapped[Match] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()


class Hand(Model):
    """One deal of a match. ``number`` is unique per match: two phones recording the
    same hand at once cannot both succeed, whatever the number of server processes."""

    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        UniqueConstraint("match_id", "idempotency_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    number: Mapped[int] = mapped_column(Integer)
    # Derived (the seat position that dealt): NULL from the writer's INSERT until the
    # projection fills it in, in the same transaction, so every committed hand has one.
    dealer: Mapped[int] = mapped_column(Integer, nullable=True)
    out_seat: Mapped[int | None] = mapped_column(Integer)  # None: blocked / jammed
    hand_size: Mapped[int | None] = mapped_column(Integer)  # Last One: a per-hand override
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The client's Idempotency-Key (unique per match; NULLs never clash), a digest of the
    # request it came with, and the API's answer, so a resent hand gets the same reply.
    idempotency_key: Mapped[str | None] = mapped_column(String(80))
    request_digest: Mapped[str | None] = mapped_column(String(64))
    reply_json: Mapped[str | None] = mapped_column(Text)

    match: Mapped[Match] = relationship(back_populates="hands")
    # Loaded together with the hands that need them (one query for any number of hands).
    entries: Mapped[list[HandEntry]] = relationship(
        back_populates="hand", order_by="HandEntry.seat", cascade="all, delete-orphan",
        lazy="selectin",
    )


class HandEntry(Model):
    """What one seat held at the end of a hand (canonical card text) and scored."""

    __table_args__ = (UniqueConstraint("hand_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id"))
    seat: Mapped[int] = mapped_column(Integer)
    cards: Mapped[str] = mapped_column(Text, default="")
    # Derived like the hand's dealer: filled in by the projection in the writer's
    # transaction (no default: a reader never sees a made-up figure).
    points: Mapped[int] = mapped_column(Integer, nullable=True)

    hand: Mapped[Hand] = relationship(back_populates="entries")


class Ruling(Model):
    """A play-checker verdict saved to a match's record."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), index=True)
    hand_number: Mapped[int | None] = mapped_column(Integer)
    question: Mapped[str] = mapped_column(Text)  # the situation and the play, in words
    legal: Mapped[bool | None] = mapped_column(Boolean)  # None: cannot tell
    reason: Mapped[str] = mapped_column(Text)
    rule: Mapped[str] = mapped_column(String(40))
    request_json: Mapped[str] = mapped_column(Text, default="{}")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    match: Mapped[Match] = relationship(back_populates="rulings")


class SeatFigureRow(Model):
    """One seat's statistics in one match (:func:`scorekeeper.core.stats.seat_figures`).

    Derived from the match's hands like the listing columns of ``Match``, and written
    by the projection in the same transaction as every change to them, so the player
    page adds up one row per match instead of replaying every hand. ``game``, ``finished``
    and ``won`` repeat the match's so that page reads this table alone.
    """

    __tablename__ = "seat_figures"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_seat_figures_player_game", "player_id", "game"),
        # A player's won matches by deficit: the best comeback found again, one index
        # range, when the match that held it changes (see PlayerTotals).
        Index("ix_seat_figures_best", "player_id", "game", "won", "deficit", "match_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    game: Mapped[str] = mapped_column(String(20))
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    won: Mapped[bool] = mapped_column(Boolean, default=False)  # finished, and a winner
    hands: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    went_out: Mapped[int] = mapped_column(Integer, default=0)
    caught_eight: Mapped[int] = mapped_column(Integer, default=0)
    caught_joker: Mapped[int] = mapped_column(Integer, default=0)
    fell: Mapped[int | None] = mapped_column(Integer)  # Last One: the hand of the fall
    deficit: Mapped[int] = mapped_column(Integer, default=0)
    deficit_hand: Mapped[int] = mapped_column(Integer, default=0)

    match: Mapped[Match] = relationship(back_populates="figures")
    player: Mapped[Player] = relationship()


class PlayerTotals(Model):
    """A player's figures in one game, summed over every seat they took in it: the
    ``seat_figures`` rows added up, kept by
    :mod:`scorekeeper.store.projection.player_totals` (a figure of the projection) with
    every change to those rows (same transaction), so the player page reads a row per
    game.

    ``played`` counts finished matches and ``unfinished`` the rest. ``best_*`` is the
    best comeback: the won match with the largest deficit, the earliest on a tie (NULL
    before any win).
    """

    __tablename__ = "player_totals"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    unfinished: Mapped[int] = mapped_column(Integer, default=0)
    hands: Mapped[int] = mapped_column(Integer, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    went_out: Mapped[int] = mapped_column(Integer, default=0)
    caught_eight: Mapped[int] = mapped_column(Integer, default=0)
    caught_joker: Mapped[int] = mapped_column(Integer, default=0)
    best_deficit: Mapped[int | None] = mapped_column(Integer)
    best_match_id: Mapped[int | None] = mapped_column(Integer)
    best_hand: Mapped[int | None] = mapped_column(Integer)


class PlayerFalls(Model):
    """How many times a player fell (Last One) in hand ``hand`` of a game's matches:
    a row per hand number, so bounded by the length of a match, not by their number."""

    __tablename__ = "player_falls"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    times: Mapped[int] = mapped_column(Integer, default=0)


class PlayerRivals(Model):
    """Head to head: finished matches a player shared with ``opponent_id``, the
    player's wins among them and the opponent's (a shared win counts for both)."""

    __tablename__ = "player_rivals"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    together: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    their_wins: Mapped[int] = mapped_column(Integer, default=0)


class Season(Model):
    """A named stretch of days a group plays a season in (first and last day included):
    its ratings start fresh on the first day, and its leaderboard counts only the
    matches finished within it."""

    __table_args__ = (UniqueConstraint("group_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)


class Rating(Model):
    """A player's rating in one game and one scope of a group (``all``, a year
    ``y2026``, a month ``m2026-12`` or a named season ``s<id>``) after the last match
    of that scope they finished, with the counts behind the leaderboard and its records.

    Derived, like the seat figures: the projection (:mod:`scorekeeper.core.ratings`'s
    model) computes it from finished matches in the order they finished, in the same
    transaction as the change that finishes, edits or reopens one, and can rebuild and
    verify it. ``mu`` and ``sigma`` are the Plackett–Luce model's; ``change`` is the
    shown rating's change in the player's last match of the scope.
    """

    __tablename__ = "rating"
    __table_args__ = (Index("ix_rating_board", "group_id", "game", "scope"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    scope: Mapped[str] = mapped_column(String(12), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[int] = mapped_column(Integer)
    change: Mapped[int] = mapped_column(Integer, default=0)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)  # wins in a row up to now
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak_match_id: Mapped[int | None] = mapped_column(Integer)  # where it ended
    best_deficit: Mapped[int | None] = mapped_column(Integer)  # the best comeback won
    best_deficit_match_id: Mapped[int | None] = mapped_column(Integer)
    # The best and the worst hand (scorekeeper.core.hand_records) and their matches.
    best_hand: Mapped[int | None] = mapped_column(Integer)
    best_hand_match_id: Mapped[int | None] = mapped_column(Integer)
    worst_hand: Mapped[int | None] = mapped_column(Integer)
    worst_hand_match_id: Mapped[int | None] = mapped_column(Integer)
    last_match_id: Mapped[int] = mapped_column(Integer)
    last_finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingStep(Model):
    """One seat's rating after one finished match, in one scope: the place it took,
    the figures the leaderboard's records count (won, the comeback, the best and the
    worst hand) and the rating it left with. The player page's chart and the board's
    "▲ 18" read these; a replay from a changed match restarts from the steps before it."""

    __tablename__ = "rating_step"
    __table_args__ = (
        Index("ix_rating_step_chain", "group_id", "game", "scope", "finished_at", "match_id"),
        Index("ix_rating_step_player", "player_id", "game", "scope", "finished_at"),
    )

    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"), primary_key=True)
    scope: Mapped[str] = mapped_column(String(12), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    group_id: Mapped[int] = mapped_column(ForeignKey("group.id"))
    game: Mapped[str] = mapped_column(String(20))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean, default=False)
    deficit: Mapped[int] = mapped_column(Integer, default=0)
    best_hand: Mapped[int] = mapped_column(Integer, default=0)
    worst_hand: Mapped[int] = mapped_column(Integer, default=0)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    shown: Mapped[int] = mapped_column(Integer)
    change: Mapped[int] = mapped_column(Integer)
