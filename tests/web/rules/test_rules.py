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
from tests.support.parsed import Page, definitions, headed, hrefs, introduced, rows, table, text

# Pages and endpoints that read no table: SQLite alone (conftest checks no SQL is sent).
pytestmark = pytest.mark.no_database

ENGINE = Path(rules.__file__).resolve().parents[2] / "core" / "engine"


def page(client, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, response.data[:500]
    return Page(response)


def shown_sections(shown: Page) -> dict[str, str]:
    """The rule sections a reference page shows: each one's anchor and its heading."""
    return {str(node["id"]): text(node.find("h2")) for node in shown.all("section[id]", False)
            if node.find("h2") is not None}


def house_rules(shown: Page) -> dict[str, list[str]]:
    """Every house rule a reference page explains: its name and what is said of it."""
    said: dict[str, list[str]] = {}
    for box in shown.all('aside[aria-label^="House rules for "]', include_hidden=False):
        said.update(definitions(box))
    return said


def card(shown: Page) -> dict[str, str]:
    """A rules card as read at the table: what changed from the usual (one line each),
    its facts (deal, wild, scoring, match end) and the options left as usual."""
    read = {"Changed from the usual": " | ".join(
                text(line) for line in introduced(shown, "Changed from the usual").find_all("li")),
            "As usual": " | ".join(text(introduced(shown, "As usual")).split(" · "))}
    facts = shown.get("region", "Rules card").find("dl")
    read.update({term: " ".join(said) for term, said in definitions(facts).items()})
    return read


# ---- anchors: every cited id resolves, every section is reachable ----

@pytest.mark.parametrize("game", list(GAMES))
def test_every_section_has_its_anchor_and_a_contents_link(client, game):
    shown = page(client, f"/rules/{game}")
    sections = shown_sections(shown)
    contents = {text(link): str(link["href"])
                for link in shown.get("navigation", "Contents").select("a[href]")}
    for anchor, title in GAMES[game].sections:
        assert sections[anchor] == title
        assert contents[title] == f"#{anchor}", f"{anchor} is missing from the contents"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_is_explained_where_it_applies(client, game):
    shown = page(client, f"/rules/{game}")
    ids = shown.ids()
    for opt in OPTIONS.values():
        if not opt.applies_to(game):
            assert f"opt-{opt.key}" not in ids
            continue
        assert opt.sections[game] in ids
        box = shown.one(f"section#{opt.sections[game]}").select_one(f"#opt-{opt.key}")
        assert box is not None, f"{opt.key} is not in {opt.sections[game]}"
        usual, others = rules.option_values(opt, game)
        assert definitions(box)[opt.label][-1] == f"Usual: {usual} Or: {others}"


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
    pages = {game: page(client, f"/rules/{game}").ids() for game in GAMES}
    for rule_id in sorted(cited):
        assert rule_id in pages[prefix[rule_id[:2]]], f"the engine cites {rule_id!r}"


def test_every_section_has_prose(app):
    with app.test_request_context():
        for game in GAMES:
            for section in rules.sections(game):
                assert len(section.body.striptags()) > 80, section.id


def test_the_index_links_every_game_and_section(client):
    shown = page(client, "/rules")
    for game in GAMES:
        heading = shown.get("heading", GAMES[game].name)
        assert hrefs(heading.select("a[href]")) == [f"/rules/{game}"]
        links = {text(link): str(link["href"])
                 for link in headed(shown, GAMES[game].name).select("li a[href]")}
        for anchor, title in GAMES[game].sections:
            assert links[title] == f"/rules/{game}#{anchor}"


def test_points_tables_follow_the_scorer():
    assert rules_card.points_rows("last-one") == [
        ("Joker", "40"), ("8", "25"), ("A", "15"), ("K Q J", "10"),
        ("2–7, 9, 10", "the number on the card"),
    ]
    assert rules_card.points_rows("crazy-eights") == [
        ("8", "50"), ("A", "1"), ("K Q J", "10"), ("2–7, 9, 10", "the number on the card"),
    ]


def test_scoring_sections_show_the_points_table(client):
    last_one = rows(table(page(client, "/rules/last-one"), "Card points"))
    assert last_one[0] == ["Card", "Points"] and ["Joker", "40"] in last_one
    assert ["8", "50"] in rows(table(page(client, "/rules/crazy-eights"), "Card points"))


# ---- search ----

def test_search_across_games_puts_the_named_section_first(client):
    shown = page(client, "/rules?q=melee")
    found = re.compile(r"^\d+ sections? match “melee”$")
    hits = hrefs(headed(shown, found).select("ol > li > a[href]"))
    assert hits[0] == "/rules/last-one#lo-melee"
    assert "/rules/last-one#lo-jokers" in hits
    assert all("/rules/last-one" in h for h in hits)
    assert "melee" in [word.lower() for word in shown.texts("mark")]


def test_search_matches_every_word_in_any_case(client):
    shown = page(client, "/rules?q=JAMMED+difference")
    hits = hrefs(headed(shown, "1 section match “JAMMED difference”").select("ol > li > a[href]"))
    assert hits == ["/rules/crazy-eights#c8-jammed"]


def test_search_finds_option_words(client):
    shown = page(client, "/rules/last-one?q=wraps")
    assert list(shown_sections(shown)) == ["lo-melee"]
    assert text(shown.get("status")).startswith("1 of 17 sections match “wraps”.")


def test_search_without_results(client):
    shown = page(client, "/rules?q=backgammon")
    results = headed(shown, "0 sections match “backgammon”")
    assert "Nothing in the rules mentions that." in text(results)
    assert not results.select("ol > li > a[href]")
    shown = page(client, "/rules/countdown?q=backgammon")
    assert text(shown.get("status")).startswith("0 of 8 sections match “backgammon”.")
    assert shown_sections(shown) == {}
    assert not shown.by_role("navigation", "Contents")


def test_search_on_a_game_page_keeps_only_matching_sections(client):
    shown = page(client, "/rules/crazy-eights?q=jammed")
    sections = set(shown_sections(shown))
    assert {"c8-jammed", "c8-empty-stock"} <= sections
    assert "c8-eights" not in sections
    assert shown.href("Show every section") == "/rules/crazy-eights"


def test_search_text_is_escaped(client):
    typed = "<script>alert(1)</script>"
    shown = page(client, f"/rules?q={typed}")
    assert not [tag for tag in shown.all("script") if "alert" in tag.get_text()]
    assert shown.value("q") == typed
    assert shown.get("heading", f"0 sections match “{typed}”")


def test_a_wrong_game_is_a_friendly_404(client):
    shown = page(client, "/rules/poker", 404)
    assert shown.heading() == "No rules for “poker”"
    for game in GAMES:
        assert shown.href(GAMES[game].name) == f"/rules/{game}"


# ---- the rules card ----

def test_rules_card_lists_changes_first(client):
    shown = page(client, "/rules/card?game=last-one&twos_stack=yes&threshold=200&players=4")
    changed = [text(line) for line in introduced(shown, "Changed from the usual").find_all("li")]
    assert "Elimination threshold: 200 (usually 250)" in changed
    assert "Stack twos: yes (usually no)" in changed
    assert not [line for line in changed if line.startswith("Melee wraps round")]
    read = card(shown)
    assert "Melee wraps round: no" in read["As usual"].split(" | ")
    assert read["Match ends"].startswith("Reach 200 points and you are out")
    assert read["Deal"] == "7 cards each from one deck (52) and 2 jokers for 4 players"
    assert "Joker 40" in read["Scoring"].split(" · ")


def test_rules_card_with_the_usual_rules(client):
    shown = page(client, "/rules/card?game=crazy-eights")
    changed = introduced(shown, "Changed from the usual")
    assert text(changed) == "Nothing: the usual rules throughout."
    read = card(shown)
    assert read["Match ends"] == "First to 100 points wins."
    assert read["Scoring"].split(" · ")[0] == "8 50"


@pytest.mark.parametrize(
    ("query", "line", "words"),
    [
        ("match_end=first-to-50-per-player&players=5", "Match ends",
         "First to 50 points per player (250 with 5)"),
        ("match_end=first-to-target&target=300", "Match ends", "First to 300 points wins."),
        ("match_end=one-hand", "Match ends", "One hand: whoever goes out wins."),
        ("draw_limit=none", "Changed from the usual", "Draw limit: no limit (usually 1)"),
        ("players=6", "Deal", "5 cards each from 2 decks (104) for 6 players"),
    ],
)
def test_rules_card_for_crazy_eights(client, query, line, words):
    assert words in card(page(client, f"/rules/card?game=crazy-eights&{query}"))[line]


def test_rules_card_for_countdown(client):
    read = card(page(client, "/rules/card?game=countdown&start_count=5&players=3"))
    assert read["Match ends"].startswith("Everyone starts at count 5")
    assert read["Scoring"] == "No points: the counts decide."


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("", "say which game"),
        ("game=poker", "unknown game 'poker'"),
        ("game=last-one&threshold=lots", "threshold must be a whole number, not 'lots'"),
        ("game=last-one&threshold=0", "threshold must be at least 1"),
        ("game=last-one&twos_stack=maybe", "twos_stack must be true or false"),
        ("game=last-one&hand_size=12", "hand_size must be at most 9"),
        ("game=last-one&queen_skips=true", "does not apply to Last One"),
        ("game=crazy-eights&match_end=forever", "match_end must be one of"),
        ("game=last-one&colour=red", "unknown option 'colour'"),
        ("game=last-one&players=9", "Last One is for 2 to 6 players; 9 is too many"),
        ("game=last-one&players=two", "players must be a whole number"),
        ("game=last-one&players=6&hand_size=9", "no card is left to turn up"),
    ],
)
def test_rules_card_refuses_bad_options_clearly(client, query, words):
    shown = page(client, f"/rules/card?{query}", 400)
    assert words in text(introduced(shown, "This rules card can’t be made"))


def test_rules_card_link_round_trips(app):
    sheet = Sheet.make("last-one", {"threshold": 200, "twos_stack": True, "hand_size": 5})
    with app.test_request_context():
        url = rules.rules_card_url(sheet, 4)
    assert url.startswith("/rules/card?game=last-one&players=4")
    client = app.test_client()
    changed = card(page(client, url))["Changed from the usual"].split(" | ")
    assert "Elimination threshold: 200 (usually 250)" in changed
    assert "Cards dealt: 5 (usually 7)" in changed
    args = dict(pair.split("=") for pair in url.split("?", 1)[1].split("&"))
    assert sheet_from_args(args) == sheet


def test_rules_card_partial_renders_from_any_sheet(app):
    sheet = Sheet.make("crazy-eights", {"queen_skips": True})
    source = '{% from "rules/_card.html" import rules_card %}{{ rules_card(sheet, players=3) }}'
    with app.test_request_context():
        shown = Page(render_template_string(source, sheet=sheet))
    read = card(shown)
    assert read["Changed from the usual"] == "Queens skip: yes (usually no)"
    assert "Draw limit: 1" in read["As usual"].split(" | ")
    assert shown.href("Share link") == "/rules/card?game=crazy-eights&players=3&queen_skips=true"


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
    shown = page(client, f"/rules/{game}")
    said = shown.text()
    for phrase in words:
        assert phrase in said, phrase
    assert "Drawing ends your turn" not in said  # the old Last One wording
    # "up to a limit ... then pass" as if no play could follow a draw
    assert not [line for line in shown.texts("li") if line.endswith("then pass.")]


@pytest.mark.parametrize(("key", "phrases"), [
    ("draw_limit", ["Empty means no limit", "set by the next two options"]),
    ("play_after_draw", ["any card in hand that fits, not only the one drawn",
                         "keep it and pass"]),
    ("draw_with_playable", ["(and draw again, within the limit)", "stops once they can"]),
    ("refill", ["turned over as it lies", "shuffled"]),
])
def test_option_help_says_what_the_engine_does(client, key, phrases):
    said = OPTIONS[key].help + " " + " ".join(OPTIONS[key].choices.values())
    for phrase in phrases:
        assert phrase in said
    assert "draw until a card can be played" not in OPTIONS["draw_limit"].help
    for game in OPTIONS[key].defaults:
        assert OPTIONS[key].label in house_rules(page(client, f"/rules/{game}"))


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
     ["Refilling the stock: shuffled", "Draw limit: 3 (usually 1)"], []),
])
def test_rules_card_shows_only_what_applies(client, query, present, absent):
    said = text(page(client, f"/rules/card?{query}").get("region", "Rules card"))
    for words in present:
        assert words in said, words
    for words in absent:
        assert words not in said, words


@pytest.mark.parametrize("key", sorted(OPTIONS))
def test_every_option_help_is_on_its_reference_pages(client, key):
    """Each option's help renders in the house-rule box of every game it applies to."""
    opt = OPTIONS[key]
    for game in opt.defaults:
        said = house_rules(page(client, f"/rules/{game}"))
        assert said[opt.label][0] == " ".join(opt.help.split())
