"""Remembering what a page would otherwise work out on every request, per app.

Only for values that follow from their key alone (a route's URL pattern, a rules
card for one sheet and table size) — never anything of a session, a cookie or a
group. Keys are kept apart by script root, since every URL starts with it. The store
is emptied if it ever grows past :data:`SIZE` (many distinct sheets, say), so it stays
small without bookkeeping on every hit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import current_app, request

T = TypeVar("T")
SIZE = 2000
_KEY = "scorekeeper.memo"


def remembered(key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, worked out once for ``key`` in this app (needs a request context)."""
    memo: dict[Any, Any] = current_app.extensions.setdefault(_KEY, {})
    full = (request.script_root, key)
    try:
        return memo[full]
    except KeyError:
        if len(memo) >= SIZE:
            memo.clear()
        value = memo[full] = make()
        return value
