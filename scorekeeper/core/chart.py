"""Score-chart geometry for an inline SVG: totals over hands, one line per player.

Pure and standard-library only: it turns numbers into coordinates, tick labels and
polyline point lists; the template only draws them. Hand 0 is the start (0 points,
or the starting count in Countdown), so every line begins at the left edge.

>>> c = score_chart([Series("Ann", "#d62728", (0, 30, 60))], goal=100)
>>> c.lines[0].points, c.goal.label
('40.0,184.0 190.0,132.7 340.0,81.4', '100')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Chart", "Goal", "Line", "Series", "Tick", "nice_step", "place_goal", "score_chart"]

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
    """The threshold or target, drawn across the plot, with its label placed where no
    line runs: ``text`` at (``label_x``, ``label_y``), anchored ``anchor``."""

    y: float
    label: str
    text: str = ""  # empty anchor: no clear spot on the plot, shown in the legend
    label_x: float = 0.0
    label_y: float = 0.0
    anchor: str = "end"


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


# The goal label's font is 10 px: about 6 px a character, 9 px above the baseline.
CHAR_W, TEXT_UP, TEXT_DOWN, CLEAR = 6.0, 9.0, 2.0, 4.0


def _hits(box: tuple[float, float, float, float], points: Sequence[tuple[float, float]]
          ) -> bool:
    """Whether a polyline (or its end dot) passes through ``box`` (x0, y0, x1, y1),
    widened by the line's half-width and the dot."""
    x0, y0, x1, y1 = box[0] - CLEAR, box[1] - CLEAR, box[2] + CLEAR, box[3] + CLEAR
    inside = [x0 <= x <= x1 and y0 <= y <= y1 for x, y in points]
    if any(inside):
        return True
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        for k in range(1, 24):
            t = k / 24
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            if x0 <= x <= x1 and y0 <= y <= y1:
                return True
    return False


def place_goal(y: float, label: str, text: str, lines: Sequence[Sequence[tuple[float, float]]],
               left: float, right: float, top: float) -> Goal:
    """The goal line with its label where it crosses no player's line: above it at the
    right end, else above at the left, else below at the right or the left; where no
    spot is clear, ``anchor`` is empty and the label goes in the legend instead.

    >>> place_goal(50, "100", "out at 100", [[(40, 184), (340, 50)]], 40, 340, 13).anchor
    'start'
    """
    width = CHAR_W * len(text)
    above, below = y - 3, y + 3 + TEXT_UP
    if above - TEXT_UP < 0:  # no room above the top of the plot
        above = below
    spots = [(right, above, "end"), (left + 4, above, "start"),
             (right, below, "end"), (left + 4, below, "start")]
    for x, base, anchor in spots:
        x0 = x - width if anchor == "end" else x
        box = (x0, base - TEXT_UP, x0 + width, base + TEXT_DOWN)
        if not any(_hits(box, points) for points in lines):
            return Goal(y, label, text, x, base, anchor)
    return Goal(y, label, text, right, above, "")


def score_chart(series: Sequence[Series], goal: int | None = None,
                width: int = WIDTH, height: int = HEIGHT, goal_word: str = "",
                from_zero: bool = True) -> Chart:
    """Lay out the lines, axes and goal line for the given series.

    The value axis starts at 0 (or lower, if a value is negative) and always takes in
    the goal, so the distance to the threshold or target is visible. The goal's label
    (``goal_word`` and the goal) is placed clear of every line and line end. Without
    ``from_zero`` the axis spans the values alone (a rating near 1,000 moving by tens).

    >>> [t.label for t in score_chart([Series("Ann", "#d62728", (1000, 1012, 990))],
    ...                               from_zero=False).y_ticks]
    ['990', '995', '1000', '1005', '1010', '1015']
    """
    hands = max((len(s.values) for s in series), default=1) - 1
    values = [v for s in series for v in s.values]
    if goal is not None:
        values.append(goal)
    low = min([0, *values]) if from_zero or not values else min(values)
    high = max([1 if from_zero else low + 1, *values])
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
    mark = None
    if goal is not None:
        paths = [[(x(h), y(v)) for h, v in enumerate(s.values)] for s in series]
        mark = place_goal(round(y(goal), 1), str(goal), f"{goal_word} {goal}".strip(), paths,
                          LEFT, right, TOP)
    return Chart(width, height, LEFT, right, TOP, bottom, lines, x_ticks, y_ticks, mark)
