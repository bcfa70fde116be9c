"""The rules reference (``/rules``, ``/rules/<game>``) and the table's rules card.

The prose lives in ``templates/rules/prose/<game>.html``, one macro per section named
after its anchor id (``lo-melee`` → ``lo_melee``); titles and ids come from
:data:`sheets.SECTIONS` and the house-rule boxes from :data:`sheets.OPTIONS`, so the
reference cannot drift from the sheets, the scorer or the engine. ``/rules/card`` shows
what one sheet (a match's, or one being set up) agreed; matches include the same
partial, ``templates/rules/_card.html``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, render_template, request, url_for
from markupsafe import Markup

from .cards import JOKER, Rank, Suit, card, deck_for
from .deal import DealError, plan_for_sheet
from .scoring import card_points
from .sheets import CD, GAMES, LO, OPTIONS, SECTIONS, Option, Sheet, SheetError, options_for

bp = Blueprint("rules", __name__, url_prefix="/rules")

MAX_QUERY = 100
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


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
    opts = options_for(game_key)
    return [
        Section(game_key, anchor, title, Markup(getattr(prose, anchor.replace("-", "_"))()),
                tuple(o for o in opts if o.sections.get(game_key) == anchor))
        for anchor, title in SECTIONS[game_key]
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
        players = _players(request.args.get("players"))
        if players is not None:
            plan_for_sheet(sheet, players)
    except (SheetError, DealError) as exc:
        return render_template("rules/card.html", error=str(exc), games=GAMES), 400
    return render_template("rules/card.html", sheet=sheet, players=players)


def _players(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.strip().isdigit():
        raise DealError(f"players must be a whole number, not {raw!r}", "players")
    return int(raw)


def option_values(opt: Option, game_key: str) -> tuple[str, str]:
    """An option's default and its alternatives, in words."""
    default = opt.defaults[game_key]
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


def sheet_from_args(args: Mapping[str, str]) -> Sheet:
    """Build a sheet from ``game=...&<option>=...`` text, or :class:`SheetError`."""
    if not args.get("game"):
        names = ", ".join(GAMES)
        raise SheetError(f"say which game: game= one of {names}", "game")
    options = {}
    for key, raw in args.items():
        if key in ("game", "players"):
            continue
        opt = OPTIONS.get(key)
        if opt is None:
            raise SheetError(f"unknown option {key!r}", key)
        options[key] = _parse_value(opt, raw.strip())
    return Sheet.make(args["game"], options)


def _parse_value(opt: Option, raw: str) -> Any:
    low = raw.lower()
    if opt.kind == "bool":
        if low in _TRUE | _FALSE:
            return low in _TRUE
        raise SheetError(f"{opt.key} must be true or false, not {raw!r}", opt.key)
    if opt.kind == "choice":
        return raw
    if opt.kind == "int_or_none" and low in ("", "none", "null"):
        return None
    if raw.isdigit() or (raw[:1] == "-" and raw[1:].isdigit()):
        return int(raw)
    raise SheetError(f"{opt.key} must be a whole number, not {raw!r}", opt.key)


def sheet_query(sheet: Sheet) -> dict[str, str]:
    """The sheet's non-default options as query text that :func:`sheet_from_args` reads."""
    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return "none" if value is None else str(value)

    return {key: text(value) for key, value in sheet.differences().items()}


@bp.app_template_global()
def rules_card_url(sheet: Sheet, players: int | None = None) -> str:
    """A shareable link to the rules card of ``sheet``."""
    return url_for("rules.card_page", game=sheet.game, players=players, **sheet_query(sheet))


@bp.app_template_global()
def points_rows(game_key: str) -> list[tuple[str, str]]:
    """The card-points table of a game, from :func:`scoring.card_points`."""
    rows: list[tuple[str, str]] = []
    if game_key == LO:
        rows.append(("Joker", str(card_points(LO, JOKER))))
    numbered: list[int] = []
    court_first = (Rank.EIGHT, Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
    for rank in court_first + tuple(r for r in Rank if r not in court_first):
        points = str(card_points(game_key, card(rank, Suit.SPADES)))
        if 2 <= rank <= 10 and points == str(int(rank)):
            numbered.append(int(rank))
        elif rows and rows[-1][0] != "Joker" and rows[-1][1] == points:
            rows[-1] = (f"{rows[-1][0]} {rank.label}", points)
        else:
            rows.append((rank.label, points))
    rows.append((_ranges(sorted(numbered)), "the number on the card"))
    return rows


def _ranges(numbers: list[int]) -> str:
    """``2–7, 9, 10`` from ``[2, 3, 4, 5, 6, 7, 9, 10]``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 2 else ", ".join(map(str, r)) for r in runs)


@dataclass(frozen=True)
class CardLine:
    """One option on a rules card: its words, this table's value and the usual one."""

    key: str
    label: str
    value: str
    usual: str
    section: str


@bp.app_template_global()
def rules_card_facts(sheet: Sheet, players: int | None = None) -> dict[str, Any]:
    """What a rules card shows: changed options first, then the deal, scoring and end."""
    lines = [CardLine(o.key, o.label, o.describe(sheet[o.key]),
                      o.describe(o.defaults[sheet.game]), o.sections[sheet.game])
             for o in options_for(sheet.game)]
    changed = sheet.differences()
    return {
        "changed": [line for line in lines if line.key in changed],
        "usual": [line for line in lines if line.key not in changed],
        "deal": _deal_words(sheet, players),
        "end": _end_words(sheet, players),
    }


def _deal_words(sheet: Sheet, players: int | None) -> str:
    if players is None:
        if sheet.game == LO:
            return f"{sheet['hand_size']} cards each from {deck_for(LO, 2).describe()}"
        if sheet.game == CD:
            return (f"each player's count (everyone starts at {sheet['start_count']}); "
                    "one deck for 2–5 players, two for 6–7")
        return "7 cards each for 2 players, 5 for 3 or more; one deck, two for 6–7 players"
    try:
        plan = plan_for_sheet(sheet, players)
    except DealError as exc:
        return str(exc)
    each = f"{plan.cards_each[0]} cards each" if plan.same_for_all else "each player's count"
    return f"{each} from {plan.deck.describe()} for {players} players"


def _end_words(sheet: Sheet, players: int | None) -> str:
    if sheet.game == LO:
        return (f"Reach {sheet['threshold']} points and you are out; "
                "the last player left wins.")
    if sheet.game == CD:
        return (f"Everyone starts at count {sheet['start_count']}; going out takes one off; "
                "first to 0 wins.")
    end = sheet["match_end"]
    if end == "one-hand":
        return "One hand: whoever goes out wins."
    if end == "first-to-50-per-player":
        total = f" ({sheet.target_for(players)} with {players})" if players else ""
        return f"First to 50 points per player{total} wins."
    return f"First to {sheet.target_for(2)} points wins."
