"""URL builders made once per test process, not once per app.

The suite makes a new app for almost every test (about 2,700 a run), and each app's
URL map compiles every rule afresh: werkzeug writes two small builder functions per
rule as Python source trees and compiles them, over half of ``create_app``'s time. A
builder depends only on the rule's text, its parsed parts and its defaults; it reads
the converters through the rule it is bound to. So the tests
keep each builder by those and bind the kept one to every equal rule: ``create_app``
then takes 12.6 ms instead of 27.8 (30 apps each way on a quiet machine), about 40
worker-seconds of a whole run.

Only the tests do this; the app itself builds one map per process. If werkzeug ever
builds its rules another way, :func:`share_url_builders` leaves it alone.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from werkzeug.routing.rules import Rule

_kept: dict[tuple[Any, ...], Callable[..., tuple[str, str]]] = {}


def share_url_builders() -> bool:
    """Make werkzeug keep one builder per (rule, parts, defaults); whether it did."""
    original = getattr(Rule, "_compile_builder", None)
    if original is None or getattr(original, "shared", False):
        return original is not None
    if list(inspect.signature(original).parameters) != ["self", "append_unknown"]:
        return False

    def compile_builder(self: Rule, append_unknown: bool = True):
        try:
            key = (self.rule, tuple(self._trace), tuple(sorted((self.defaults or {}).items())),
                   append_unknown)
            hash(key)
        except (AttributeError, TypeError):  # not what this was written for: build anew
            return original(self, append_unknown)
        builder = _kept.get(key)
        if builder is None:
            builder = _kept[key] = original(self, append_unknown)
        return builder

    compile_builder.shared = True  # type: ignore[attr-defined]
    Rule._compile_builder = compile_builder  # type: ignore[method-assign]
    return True
