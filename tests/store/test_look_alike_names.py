"""Names a person cannot tell apart: one already in the group and a look-alike of it
(a letter from another script, an invisible variation character) are refused with a
message saying why; names in any one script, and emoji, are kept."""

from __future__ import annotations

import pytest

from scorekeeper.core.errors import ConflictError, InputError
from scorekeeper.store.extensions import db
from scorekeeper.store.groups import add_player
from scorekeeper.store.models import Group, Player

# (a player already in the group, the new name, what the refusal says, or None: taken)
CASES = [
    ("Ann", "\u0410nn", "\u0430 (U+0430 CYRILLIC SMALL LETTER A) looks like a"),
    ("Ann", "\u0391nn", "looks like a (U+0061 LATIN SMALL LETTER A)"),
    ("Bob", "B\u043eb", "looks the same as 'Bob'"),
    ("Ann", "ANN", "already a player"),
    ("Ann", "Ann\u034f", "U+034F COMBINING GRAPHEME JOINER: it is an invisible variation"),
    ("Ann", "Ann\ufe00", "U+FE00 VARIATION SELECTOR-1"),
    ("Ann", "Ann\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ("Ann", "Ann\U000e0100", "U+E0100 VARIATION SELECTOR-17"),
    ("Ann", "Ann\U000e0041", "U+E0041 TAG LATIN CAPITAL LETTER A"),
    ("\U0001f431\U0001f436", "\U0001f431\u200d\U0001f436", "already a player"),
    ("Ann", "\u0410\u043d\u043d\u0430", None),       # Анна: all Cyrillic
    ("Ann", "\u0391\u03bd\u03bd\u03b1", None),       # Άννα without the accent: all Greek
    ("Ann", "\u3048\u308a\u5b50", None),             # えり子: Japanese, two scripts together
    ("Ann", "\u2764\ufe0f Cat", None),               # ❤️: an emoji's own selector
    ("Ann", "\U0001f469\U0001f3fd\u200d\U0001f4bb", None),  # 👩🏽‍💻: a ZWJ sequence
    ("Ann", "1\ufe0f\u20e3 Cy", None),               # 1️⃣: a keycap
    ("Ann", "Anne", None),
]


@pytest.mark.parametrize(("there", "name", "refused"), CASES)
def test_look_alike_names(app, there, name, refused):
    with app.app_context():
        group = Group(name="Home")
        group.players = [Player(name=there)]
        db.session.add(group)
        db.session.commit()
        if refused is None:
            assert add_player(group, name).name == name
            return
        with pytest.raises(InputError) as caught:
            add_player(group, name)
        assert refused in caught.value.message
        # a name that is itself bad text is a 400; one clashing with the group a 409
        assert isinstance(caught.value, ConflictError) == (not refused.startswith("U+"))


def test_check_names_lists_stored_look_alikes(app, runner):
    with app.app_context():
        group = Group(name="Home")
        group.players = [Player(name="Bob"), Player(name="B\u043eb"), Player(name="Cy")]
        db.session.add(group)
        db.session.commit()
    result = runner.invoke(args=["check-names"])
    assert result.exit_code == 1
    assert "player 2 'B\u043eb': looks the same as player 1 'Bob'" in result.output
    assert "'Cy'" not in result.output
