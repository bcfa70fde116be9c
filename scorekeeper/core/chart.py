"""Score-chart geometry for an inline SVG: totals over hands, one line per player.

Pure and standard-library only: it turns numbers into coordinates, tick labels and
polyline point lists; the template only draws them. Hand 0 is the start (0 points,
or the starting count in Countdown), so every line begins at the left edge.

>>> c = score_chart([Series("Ann", "#d62728", (0, 30, 60))], goal=100)
>>> c.lines[0].points, c.goal.label
('40.0,184.0 190.0,132.7 340.0,81.4', '100')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Chart", "Goal", "Line", "Series", "Tick", "nice_step", "score_chart"]

WIDTH, HEIGHT = 360, 220
# Plot area inside the view box: room on the left for value labels, below for hands.
LEFT, RIGHT, TOP, BOTTOM = 40, 20, 13, 36
MAX_TICKS = 6


@dataclass(frozen=True)
class Series:
    """One player's totals: at the start, then after each hand."""

    name: str
    colour: str
    values: tuple[int, ...]


@dataclass(frozen=True)
class Tick:
    """A labelled grid position (``at`` is the x or y coordinate)."""

    at: float
    label: str


@dataclass(frozen=True)
class Line:
    """A player's polyline; ``end`` is the last point, where the name label goes."""

    name: str
    colour: str
    points: str
    end: tuple[float, float]


@dataclass(frozen=True)
class Goal:
    """The threshold or target, drawn across the plot."""

    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    """Everything the template needs to draw the chart in a ``viewBox``."""

    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    goal: Goal | None


def nice_step(span: float, ticks: int = MAX_TICKS) -> int:
    """A round step (1, 2, 5 × 10ⁿ) giving at most ``ticks`` intervals over ``span``.

    >>> nice_step(250), nice_step(7), nice_step(0)
    (50, 2, 1)
    """
    if span <= 0:
        return 1
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    for mult in (1, 2, 5, 10):
        if mult * power >= raw:
            return max(1, int(mult * power))
    return int(10 * power)  # pragma: no cover - the loop always returns


def _fmt(value: float) -> str:
    return f"{value:.1f}"


def score_chart(series: Sequence[Series], goal: int | None = None,
                width: int = WIDTH, height: int = HEIGHT) -> Chart:
    """Lay out the lines, axes and goal line for the given series.

    The value axis starts at 0 (or lower, if a value is negative) and always takes in
    the goal, so the distance to the threshold or target is visible.
    """
    hands = max((len(s.values) for s in series), default=1) - 1
    values = [v for s in series for v in s.values]
    if goal is not None:
        values.append(goal)
    low, high = min([0, *values]), max([1, *values])
    step = nice_step(high - low)
    low, high = step * math.floor(low / step), step * math.ceil(high / step)
    right, bottom = width - RIGHT, height - BOTTOM
    span_x = max(hands, 1)

    def x(hand: int) -> float:
        return LEFT + (right - LEFT) * hand / span_x

    def y(value: float) -> float:
        return bottom - (bottom - TOP) * (value - low) / (high - low)

    lines = tuple(
        Line(s.name, s.colour, " ".join(f"{_fmt(x(h))},{_fmt(y(v))}" for h, v in
                                        enumerate(s.values)),
             (round(x(len(s.values) - 1), 1), round(y(s.values[-1]), 1)) if s.values
             else (LEFT, bottom))
        for s in series
    )
    x_step = nice_step(hands, 8)
    x_ticks = tuple(Tick(round(x(h), 1), str(h)) for h in range(0, hands + 1, x_step))
    y_ticks = tuple(Tick(round(y(v), 1), str(v)) for v in range(low, high + 1, step))
    mark = Goal(round(y(goal), 1), str(goal)) if goal is not None else None
    return Chart(width, height, LEFT, right, TOP, bottom, lines, x_ticks, y_ticks, mark)
