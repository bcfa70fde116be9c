"""Names: the message for one that is too long states the real limit, however long."""

from __future__ import annotations

import pytest

from scorekeeper.core.errors import InputError
from scorekeeper.core.text import clean_name


@pytest.mark.parametrize(("length", "limit"), [
    (41, 40), (400, 40), (401, 40), (10_000, 40),  # a player's name
    (81, 80), (10_000, 80),  # a group's
])
def test_a_name_too_long_is_told_the_real_limit(length, limit):
    with pytest.raises(InputError) as refused:
        clean_name("x" * length, "name", limit)
    assert refused.value.message == f"Keep the name to {limit} characters or fewer."


@pytest.mark.parametrize(("text", "limit", "kept"), [
    ("x" * 40, 40, "x" * 40),
    ("  Ann   Lee ", 40, "Ann Lee"),  # trimmed and single-spaced before it is counted
    ("e\u0301" * 40, 40, "\u00e9" * 40),  # NFC first: 80 code points, 40 characters
])
def test_a_name_within_the_limit_is_kept(text, limit, kept):
    assert clean_name(text, "name", limit) == kept
