"""How a rating is shown (a new player at 1,000, nobody below zero), when it is
provisional, and which scopes a finished match counts in."""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.core.ratings import (
    PROVISIONAL,
    START,
    arrow,
    is_provisional,
    periods,
    scopes_of,
    shown,
)


@pytest.mark.parametrize(("mu", "sigma", "expected"), [
    (25.0, 25 / 3, START),  # a new player: μ − 3σ is 0
    (25.0, 5.0, 1400),  # the same μ, surer: higher
    (20.0, 25 / 3, 800),
    (0.0, 8.0, 40),
    (-5.0, 8.0, 0),  # 1000 + 40 × (−29) would be −160: shown as 0
    (-200.0, 1.0, 0),
])
def test_the_shown_rating_starts_at_a_round_number_and_never_goes_below_zero(mu, sigma,
                                                                             expected):
    assert shown(mu, sigma) == expected


@pytest.mark.parametrize(("matches", "provisional"), [
    (0, True), (1, True), (PROVISIONAL - 1, True), (PROVISIONAL, False), (40, False)])
def test_a_rating_is_provisional_until_five_rated_matches(matches, provisional):
    assert is_provisional(matches) is provisional


@pytest.mark.parametrize(("change", "words"), [(12, "▲ 12"), (-3, "▼ 3"), (0, "–"),
                                               (1234, "▲ 1,234")])
def test_a_change_reads_as_an_arrow(change, words):
    assert arrow(change) == words


SEASONS = [(3, date(2026, 11, 20), date(2026, 12, 10)), (5, date(2026, 12, 1), date(2026, 12, 1)),
           (9, date(2025, 1, 1), date(2025, 12, 31))]


@pytest.mark.parametrize(("day", "scopes"), [
    (date(2026, 12, 1), ("all", "y2026", "m2026-12", "s3", "s5")),  # first and last days count
    (date(2026, 11, 19), ("all", "y2026", "m2026-11")),
    (date(2026, 12, 11), ("all", "y2026", "m2026-12")),
    (date(2025, 6, 30), ("all", "y2025", "m2025-06", "s9")),
])
def test_a_match_counts_in_every_scope_its_day_falls_in(day, scopes):
    assert scopes_of(day, SEASONS) == scopes


def test_the_picker_offers_all_time_this_year_this_month_then_seasons_latest_first():
    choices = periods(date(2026, 2, 14), [(3, "Autumn", date(2025, 9, 1), date(2025, 11, 30)),
                                          (4, "Winter", date(2025, 12, 1), date(2026, 2, 28))])
    assert [c.value for c in choices] == ["all", "year", "month", "4", "3"]
    assert [c.scope for c in choices] == ["all", "y2026", "m2026-02", "s4", "s3"]
    month = choices[2]
    assert (month.first, month.last) == (date(2026, 2, 1), date(2026, 2, 28))
    december = periods(date(2026, 12, 31), [])[2]
    assert (december.first, december.last) == (date(2026, 12, 1), date(2026, 12, 31))
