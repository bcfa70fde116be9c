"""The rules reference (``/rules``, ``/rules/<game>``) and the table's rules card.

The prose lives in ``templates/rules/prose/<game>.html``, one macro per section named
after its anchor id (``lo-melee`` → ``lo_melee``); titles and ids come from each
game's definition (``Game.sections``) and the house-rule boxes from
:data:`sheets.OPTIONS`, so the reference cannot drift from the sheets, the scorer or
the engine. ``/rules/card`` shows what one sheet (a match's, or one being set up)
agreed; matches include the same partial, ``templates/rules/_card.html``.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, current_app, render_template, request
from markupsafe import Markup

from scorekeeper.core.deal import DealError, plan_for_sheet
from scorekeeper.core.sheets import GAMES, Option, SheetError, options_for
from scorekeeper.web.rules.rules_card import (
    points_rows,
    rules_card_facts,
    rules_card_html,
    rules_card_url,
)
from scorekeeper.web.sheet_text import players_from_args, sheet_from_args

bp = Blueprint("rules", __name__, url_prefix="/rules")
for _helper in (rules_card_url, points_rows, rules_card_facts, rules_card_html):
    bp.add_app_template_global(_helper)

MAX_QUERY = 100


@dataclass(frozen=True)
class Section:
    """One reference section: where it lives, what it says, which options it explains."""

    game: str
    id: str
    title: str
    body: Markup
    options: tuple[Option, ...]

    @property
    def text(self) -> str:
        """Everything a search can match, case-folded: title, prose, option words."""
        words = [self.title, self.body.striptags()]
        words += [f"{o.label} {o.help}" for o in self.options]
        return " ".join(words).casefold()


def sections(game_key: str) -> list[Section]:
    """The sections of a game's reference, in reading order."""
    prose = current_app.jinja_env.get_template(f"rules/prose/{game_key}.html").module
    opts, info = options_for(game_key), GAMES[game_key]
    return [
        Section(game_key, anchor, title, Markup(getattr(prose, anchor.replace("-", "_"))()),
                tuple(o for o in opts if info.options[o.key][1] == anchor))
        for anchor, title in info.sections
    ]


def search(found: list[Section], query: str) -> list[Section]:
    """The sections containing every word of the query (any case)."""
    words = query.casefold().split()
    hits = [s for s in found if all(w in s.text for w in words)]
    # Sections named after the words come first: "melee" lands on the melee itself.
    return sorted(hits, key=lambda s: not all(w in s.title.casefold() for w in words))


def snippet(section: Section, query: str, width: int = 70) -> tuple[str, str, str]:
    """Text around the first matching word of the prose: (before, match, after)."""
    plain = section.body.striptags()
    for word in query.casefold().split():
        at = plain.casefold().find(word)
        if at >= 0:
            start, end = max(0, at - width), min(len(plain), at + len(word) + width)
            # Cut at spaces, not inside words.
            start = plain.find(" ", start, at) + 1 if start else 0
            end = max(plain.rfind(" ", at + len(word), end), at + len(word)) \
                if end < len(plain) else end
            return (("…" if start else "") + plain[start:at], plain[at:at + len(word)],
                    plain[at + len(word):end] + ("…" if end < len(plain) else ""))
    return ("", "", plain[: 2 * width] + "…")


def _query() -> str:
    return request.args.get("q", "").strip()[:MAX_QUERY]


@bp.get("", strict_slashes=False)
def index():
    """Every game and every section, with a search across all of them."""
    q = _query()
    toc = {key: sections(key) for key in GAMES}
    hits = [s for found in toc.values() for s in search(found, q)] if q else []
    return render_template("rules/index.html", games=GAMES, toc=toc, q=q, hits=hits,
                           snippet=snippet)


@bp.get("/<game_key>")
def game_page(game_key: str):
    """One game's reference: contents, sections with their house rules, search."""
    if game_key not in GAMES:
        return render_template("rules/unknown.html", key=game_key, games=GAMES), 404
    q = _query()
    found = sections(game_key)
    shown = search(found, q) if q else found
    return render_template("rules/game.html", game=GAMES[game_key], sections=shown, q=q,
                           total=len(found), option_values=option_values)


@bp.get("/card")
def card_page():
    """The rules card of a sheet given as query parameters (shareable as a link)."""
    try:
        sheet = sheet_from_args(request.args)
        players = players_from_args(request.args.get("players"))
        if players is not None:
            plan_for_sheet(sheet, players)
    except (SheetError, DealError) as exc:
        return render_template("rules/card.html", error=str(exc), games=GAMES), 400
    return render_template("rules/card.html", sheet=sheet, players=players)


def option_values(opt: Option, game_key: str) -> tuple[str, str]:
    """An option's default and its alternatives, in words."""
    default = GAMES[game_key].default(opt.key)
    if opt.kind == "bool":
        others = opt.describe(not default)
    elif opt.kind == "choice":
        others = "; ".join(label for value, label in opt.choices.items() if value != default)
    else:
        high = f" to {opt.maximum}" if opt.maximum is not None else " or more"
        others = f"any whole number from {opt.minimum}{high}"
        if opt.kind == "int_or_none":
            others += ", or no limit"
    return opt.describe(default), others
