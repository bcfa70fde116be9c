"""How a rating and its change read on a page: ``1,520`` and ``▲ 18`` (said "up 18"
to a screen reader), shared by the leaderboard, the player page and a finished
match's board.

Plain functions, put in every template's globals by :func:`scorekeeper.web.register`:
the player page writes one per row of its rating tables (up to a hundred and twenty),
and a function call costs a fraction of a Jinja macro's.
"""

from __future__ import annotations

from markupsafe import Markup

from scorekeeper.core.ratings import arrow

__all__ = ["rating", "rating_change"]

_SAME = Markup('<span class="muted"><span aria-hidden="true">–</span>'
               '<span class="visually-hidden">no change</span></span>')
_MOVED = ('<span class="rating-{}"><span aria-hidden="true">{} </span>'
          '<span class="visually-hidden">{} </span>{}</span>')


def rating(value: int) -> str:
    """A shown rating: a whole number with thousands separators.

    >>> rating(1520)
    '1,520'
    """
    return f"{value:,}"


def rating_change(change: int) -> Markup:
    """A rating's change from the last match: ``▲ 12`` / ``▼ 3`` / ``–``, in words too.

    >>> "down </span>3</span>" in rating_change(-3), "up </span>1,200<" in rating_change(1200)
    (True, True)
    """
    if not change:
        return _SAME
    symbol, figure = arrow(change).split(" ", 1)  # the core's one way to write it
    way = "up" if change > 0 else "down"
    return Markup(_MOVED.format(way, symbol, way, figure))
