"""The score chart's geometry: axes, goal line, one polyline per player."""

from __future__ import annotations

import pytest

from scorekeeper.core.chart import LEFT, Series, nice_step, score_chart


@pytest.mark.parametrize(("span", "ticks", "step"), [
    (0, 6, 1), (1, 6, 1), (7, 6, 2), (12, 6, 2), (30, 6, 5), (100, 6, 20), (250, 6, 50),
    (251, 6, 50), (1000, 6, 200), (3, 8, 1), (20, 8, 5),
])
def test_nice_step(span, ticks, step):
    assert nice_step(span, ticks) == step


def test_lines_start_left_and_end_right():
    chart = score_chart([Series("Ann", "#d62728", (0, 10, 20)),
                         Series("Bob", "#1f77b4", (0, 40, 45))], goal=100)
    ann, bob = chart.lines
    assert ann.points.split()[0] == f"{LEFT:.1f},{chart.bottom:.1f}"  # hand 0 at 0 points
    assert ann.end[0] == bob.end[0] == chart.right
    assert ann.colour == "#d62728" and bob.name == "Bob"
    assert len(bob.points.split()) == 3


def test_goal_is_inside_the_value_axis_and_on_top_when_highest():
    chart = score_chart([Series("Ann", "#000000", (0, 30))], goal=250)
    assert chart.goal is not None and chart.goal.label == "250"
    assert chart.goal.y == chart.top  # 250 is the top of the axis
    assert [t.label for t in chart.y_ticks] == ["0", "50", "100", "150", "200", "250"]


def test_values_above_the_goal_extend_the_axis():
    chart = score_chart([Series("Ann", "#000000", (0, 130))], goal=100)
    assert int(chart.y_ticks[-1].label) >= 130
    assert chart.top < chart.goal.y < chart.bottom


def test_higher_values_are_drawn_higher():
    chart = score_chart([Series("Ann", "#000000", (0, 5, 50))])
    ys = [float(p.split(",")[1]) for p in chart.lines[0].points.split()]
    assert ys[0] > ys[1] > ys[2]


def test_countdown_counts_and_no_goal():
    chart = score_chart([Series("Ann", "#000000", (8, 7, 7, 6))])
    assert chart.goal is None
    assert [t.label for t in chart.x_ticks] == ["0", "1", "2", "3"]


def test_many_hands_thin_the_hand_labels():
    chart = score_chart([Series("Ann", "#000000", tuple(range(41)))])
    assert len(chart.x_ticks) <= 9
    assert chart.x_ticks[0].label == "0"


def test_no_hands_yet_is_drawable():
    chart = score_chart([Series("Ann", "#000000", (0,)), Series("Bob", "#ffffff", (0,))],
                        goal=250)
    assert all(line.points for line in chart.lines)
    assert score_chart([]).lines == ()


def _label_box(goal):
    """The goal label's box, as the chart estimates it (10 px text)."""
    from scorekeeper.core.chart import CHAR_W, TEXT_DOWN, TEXT_UP
    width = CHAR_W * len(goal.text)
    x0 = goal.label_x - width if goal.anchor == "end" else goal.label_x
    return x0, goal.label_y - TEXT_UP, x0 + width, goal.label_y + TEXT_DOWN


@pytest.mark.parametrize("values", [
    [(0, 40, 96), (0, 10, 20)],  # a line ends just under the threshold, at the right
    [(0, 98, 99), (0, 97, 101)],  # lines run along the goal at the right end
    [(0, 104, 103, 102, 101), (0, 96, 97, 98, 99)],  # hugging it on both sides
    [(100, 98, 96), (100, 95, 90)],  # Countdown-like: starting on the goal
])
def test_goal_label_never_lies_on_a_line(values):
    from scorekeeper.core.chart import _hits
    series = [Series(f"P{i}", "#000000", v) for i, v in enumerate(values)]
    chart = score_chart(series, goal=100, goal_word="out at")
    box = _label_box(chart.goal)
    lines = [[tuple(map(float, p.split(","))) for p in line.points.split()]
             for line in chart.lines]
    assert chart.goal.text == "out at 100"
    if not chart.goal.anchor:  # nowhere clear on the plot: the legend names the goal
        return
    assert not any(_hits(box, points) for points in lines), (chart.goal, box)
    assert box[1] >= 0 and box[0] >= 0
    assert box[3] <= chart.height and box[2] <= chart.width
