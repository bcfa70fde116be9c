"""The rules reference, its anchors and search, and the table's rules card."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import render_template_string

from scorekeeper.core.sheets import GAMES, OPTIONS, Sheet
from scorekeeper.web.rules import rules_card
from scorekeeper.web.rules import views as rules
from scorekeeper.web.sheet_text import sheet_from_args

# Pages and endpoints that read no table: SQLite alone (conftest checks no SQL is sent).
pytestmark = pytest.mark.no_database

ENGINE = Path(rules.__file__).resolve().parents[2] / "core" / "engine"


def ids_on(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.data[:500]
    return response.get_data(as_text=True)


# ---- anchors: every cited id resolves, every section is reachable ----

@pytest.mark.parametrize("game", list(GAMES))
def test_every_section_has_its_anchor_and_a_contents_link(client, game):
    html = page(client, f"/rules/{game}")
    ids = ids_on(html)
    for anchor, title in GAMES[game].sections:
        assert anchor in ids
        assert f'href="#{anchor}"' in html, f"{anchor} is missing from the contents"
        assert title.replace('"', "&#34;") in html


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_is_explained_where_it_applies(client, game):
    html = page(client, f"/rules/{game}")
    ids = ids_on(html)
    for opt in OPTIONS.values():
        if not opt.applies_to(game):
            assert f'id="opt-{opt.key}"' not in html
            continue
        assert opt.sections[game] in ids
        section = html.split(f'id="{opt.sections[game]}"', 1)[1].split("</section>", 1)[0]
        assert f'id="opt-{opt.key}"' in section, f"{opt.key} is not in {opt.sections[game]}"
        usual, others = rules.option_values(opt, game)
        assert f"Usual: {usual}" in section
        assert others.replace("'", "&#39;") in section


def test_every_option_cites_an_existing_section():
    for opt in OPTIONS.values():
        for game, anchor in opt.sections.items():
            assert anchor in {a for a, _ in GAMES[game].sections}, (opt.key, game, anchor)
        assert set(opt.sections) == set(opt.defaults), opt.key


def test_every_rule_id_the_engine_cites_resolves(client):
    cited = set()
    for source in ENGINE.glob("*.py"):
        cited |= set(re.findall(r'"((?:lo|c8|cd)-[a-z0-9-]+)"', source.read_text()))
    assert cited, "the engine cites no rule ids?"
    prefix = {"lo": "last-one", "c8": "crazy-eights", "cd": "countdown"}
    pages = {game: ids_on(page(client, f"/rules/{game}")) for game in GAMES}
    for rule_id in sorted(cited):
        assert rule_id in pages[prefix[rule_id[:2]]], f"the engine cites {rule_id!r}"


def test_every_section_has_prose(app):
    with app.test_request_context():
        for game in GAMES:
            for section in rules.sections(game):
                assert len(section.body.striptags()) > 80, section.id


def test_the_index_links_every_game_and_section(client):
    html = page(client, "/rules")
    for game in GAMES:
        assert f'href="/rules/{game}"' in html
        for anchor, _ in GAMES[game].sections:
            assert f'href="/rules/{game}#{anchor}"' in html


def test_points_tables_follow_the_scorer():
    assert rules_card.points_rows("last-one") == [
        ("Joker", "40"), ("8", "25"), ("A", "15"), ("K Q J", "10"),
        ("2–7, 9, 10", "the number on the card"),
    ]
    assert rules_card.points_rows("crazy-eights") == [
        ("8", "50"), ("A", "1"), ("K Q J", "10"), ("2–7, 9, 10", "the number on the card"),
    ]


def test_scoring_sections_show_the_points_table(client):
    assert "<td>Joker</td><td class=\"num\">40</td>" in page(client, "/rules/last-one")
    assert "<td>8</td><td class=\"num\">50</td>" in page(client, "/rules/crazy-eights")


# ---- search ----

def test_search_across_games_puts_the_named_section_first(client):
    html = page(client, "/rules?q=melee")
    assert "match “melee”" in html
    hits = re.findall(r'class="hit-link" href="([^"]+)"', html)
    assert hits[0] == "/rules/last-one#lo-melee"
    assert "/rules/last-one#lo-jokers" in hits
    assert all("/rules/last-one" in h for h in hits)
    assert "<mark>melee</mark>" in html


def test_search_matches_every_word_in_any_case(client):
    html = page(client, "/rules?q=JAMMED+difference")
    hits = re.findall(r'class="hit-link" href="([^"]+)"', html)
    assert hits == ["/rules/crazy-eights#c8-jammed"]


def test_search_finds_option_words(client):
    html = page(client, "/rules/last-one?q=wraps")
    assert 'id="lo-melee"' in html
    assert "1 of 17 sections match" in html


def test_search_without_results(client):
    html = page(client, "/rules?q=backgammon")
    assert "0 sections match “backgammon”" in html
    assert "Nothing in the rules mentions that" in html
    html = page(client, "/rules/countdown?q=backgammon")
    assert "0 of 8 sections match" in html
    assert 'class="card rule-section"' not in html


def test_search_on_a_game_page_keeps_only_matching_sections(client):
    html = page(client, "/rules/crazy-eights?q=jammed")
    shown = {i for i in ids_on(html) if i.startswith("c8-")}
    assert {"c8-jammed", "c8-empty-stock"} <= shown
    assert "c8-eights" not in shown
    assert "Show every section" in html


def test_search_text_is_escaped(client):
    html = page(client, "/rules?q=<script>alert(1)</script>")
    assert "<script>alert(1)" not in html


def test_a_wrong_game_is_a_friendly_404(client):
    html = page(client, "/rules/poker", 404)
    assert "No rules for “poker”" in html
    for game in GAMES:
        assert f'href="/rules/{game}"' in html


# ---- the rules card ----

def test_rules_card_lists_changes_first(client):
    html = page(client, "/rules/card?game=last-one&twos_stack=yes&threshold=200&players=4")
    changed = html.split("Changed from the usual", 1)[1].split("As usual", 1)[0]
    assert "Elimination threshold</a>:\n      <strong>200</strong>" in changed
    assert "Stack twos</a>:\n      <strong>yes</strong>" in changed
    assert "(usually 250)" in changed
    assert "Melee wraps round" not in changed
    assert "Melee wraps round</a>: no" in html.split("As usual", 1)[1]
    assert "Reach 200 points and you are out" in html
    assert "7 cards each from one deck (52) and 2 jokers for 4 players" in html
    assert "Joker <b>40</b>" in html


def test_rules_card_with_the_usual_rules(client):
    html = page(client, "/rules/card?game=crazy-eights")
    assert "Nothing: the usual rules throughout." in html
    assert "First to 100 points wins." in html
    assert "8 <b>50</b>" in html


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("match_end=first-to-50-per-player&players=5",
         "First to 50 points per player (250 with 5)"),
        ("match_end=first-to-target&target=300", "First to 300 points wins."),
        ("match_end=one-hand", "One hand: whoever goes out wins."),
        ("draw_limit=none", "Draw limit</a>:\n      <strong>no limit</strong>"),
        ("players=6", "5 cards each from 2 decks (104) for 6 players"),
    ],
)
def test_rules_card_for_crazy_eights(client, query, words):
    assert words in page(client, f"/rules/card?game=crazy-eights&{query}")


def test_rules_card_for_countdown(client):
    html = page(client, "/rules/card?game=countdown&start_count=5&players=3")
    assert "Everyone starts at count 5" in html
    assert "No points: the counts decide." in html


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("", "say which game"),
        ("game=poker", "unknown game &#39;poker&#39;"),
        ("game=last-one&threshold=lots", "threshold must be a whole number, not &#39;lots&#39;"),
        ("game=last-one&threshold=0", "threshold must be at least 1"),
        ("game=last-one&twos_stack=maybe", "twos_stack must be true or false"),
        ("game=last-one&hand_size=12", "hand_size must be at most 9"),
        ("game=last-one&queen_skips=true", "does not apply to Last One"),
        ("game=crazy-eights&match_end=forever", "match_end must be one of"),
        ("game=last-one&colour=red", "unknown option &#39;colour&#39;"),
        ("game=last-one&players=9", "Last One is for 2 to 6 players; 9 is too many"),
        ("game=last-one&players=two", "players must be a whole number"),
        ("game=last-one&players=6&hand_size=9", "no card is left to turn up"),
    ],
)
def test_rules_card_refuses_bad_options_clearly(client, query, words):
    html = page(client, f"/rules/card?{query}", 400)
    assert "This rules card can’t be made" in html
    assert words in html


def test_rules_card_link_round_trips(app):
    sheet = Sheet.make("last-one", {"threshold": 200, "twos_stack": True, "hand_size": 5})
    with app.test_request_context():
        url = rules.rules_card_url(sheet, 4)
    assert url.startswith("/rules/card?game=last-one&players=4")
    client = app.test_client()
    html = page(client, url)
    assert "<strong>200</strong>" in html and "<strong>5</strong>" in html
    args = dict(pair.split("=") for pair in url.split("?", 1)[1].split("&"))
    assert sheet_from_args(args) == sheet


def test_rules_card_partial_renders_from_any_sheet(app):
    sheet = Sheet.make("crazy-eights", {"queen_skips": True})
    source = '{% from "rules/_card.html" import rules_card %}{{ rules_card(sheet, players=3) }}'
    with app.test_request_context():
        html = render_template_string(source, sheet=sheet)
    assert "Queens skip</a>:\n      <strong>yes</strong>" in html
    assert html.index("Queens skip") < html.index("Draw limit")
    assert 'href="/rules/card?game=crazy-eights&amp;players=3&amp;queen_skips=true"' in html


# ---- the reference and the card say what the engine does ----

@pytest.mark.parametrize(("game", "words"), [
    ("last-one", ["not just the one you picked up", "keep it and pass",
                  "you may not pass while you could still draw", "taken as made",
                  "only a player with no card that fits", "always shuffled",
                  "Nobody needs to catch you", "a second 2 means the next player draws four",
                  "the same suit as the 3, or another 3", "which makes the defender draw 1",
                  "a joker lets the first player put down any card",
                  "it only starts one (standing for a 4) when jokers act",
                  "the dealer when the first upcard is a 3"]),
    ("crazy-eights", ["not just the one you picked up", "keep it and pass",
                      "taken as made", "flipped over as it lies", "shuffle it instead",
                      "a 2 played as the last card still makes the next player draw",
                      "two 2s: four cards", "nobody has to catch them out",
                      "if that single hand jams, the lowest card total wins",
                      "whichever way the table plays starters"]),
    ("countdown", ["Drawing and the empty stock", "not just the one you picked up",
                   "flipped over as it lies", "that player names a suit before playing",
                   "your 2 names a suit and nobody draws",
                   "Drawing is for a player who cannot play"]),
])
def test_the_reference_tells_drawing_precisely(client, game, words):
    html = page(client, f"/rules/{game}")
    for phrase in words:
        assert phrase in html, phrase
    assert "Drawing ends your turn" not in html  # the old Last One wording
    assert "then pass.</li>" not in html  # "up to a limit ... then pass" as if no play


@pytest.mark.parametrize(("key", "phrases"), [
    ("draw_limit", ["Empty means no limit", "set by the next two options"]),
    ("play_after_draw", ["any card in hand that fits, not only the one drawn",
                         "keep it and pass"]),
    ("draw_with_playable", ["(and draw again, within the limit)", "stops once they can"]),
    ("refill", ["turned over as it lies", "shuffled"]),
])
def test_option_help_says_what_the_engine_does(client, key, phrases):
    text = OPTIONS[key].help + " " + " ".join(OPTIONS[key].choices.values())
    for phrase in phrases:
        assert phrase in text
    assert "draw until a card can be played" not in OPTIONS["draw_limit"].help
    for game in OPTIONS[key].defaults:
        html = page(client, f"/rules/{game}")
        assert OPTIONS[key].label in html


@pytest.mark.parametrize(("query", "present", "absent"), [
    ("game=last-one&players=4", [], ["Ace with two players"]),
    ("game=last-one&players=2", ["Ace with two players"], []),
    ("game=crazy-eights&players=4&ace_reverses=true", [], ["Ace with two players"]),
    ("game=crazy-eights&players=2&ace_reverses=true", ["Ace with two players"], []),
    ("game=crazy-eights&match_end=one-hand", ["after one hand"], ["Target"]),
    ("game=crazy-eights&match_end=first-to-target&target=150", ["Target", "150"], []),
    ("game=countdown&players=3", ["Wild", "at 1 your aces", "Refilling the stock"],
     ["Effects of the last card"]),
    ("game=countdown&start_count=1&players=3", ["1 card each"], ["1 cards"]),
    ("game=last-one&hand_size=9&players=4", ["9 cards each (9 only when everyone agrees)"],
     []),
    ("game=crazy-eights&refill=shuffle&draw_limit=3&draw_with_playable=true",
     ["Refilling the stock", "<strong>shuffled</strong>", "<strong>3</strong>"], []),
])
def test_rules_card_shows_only_what_applies(client, query, present, absent):
    html = page(client, f"/rules/card?{query}")
    for words in present:
        assert words in html, words
    for words in absent:
        assert words not in html, words


@pytest.mark.parametrize("key", sorted(OPTIONS))
def test_every_option_help_is_on_its_reference_pages(client, key):
    """Each option's help renders in the house-rule box of every game it applies to."""
    opt = OPTIONS[key]
    for game in opt.defaults:
        html = page(client, f"/rules/{game}")
        assert opt.label in html
        assert opt.help.split(".")[0].replace("'", "&#39;").replace('"', "&#34;") in html
