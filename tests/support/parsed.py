"""A page as a person reads it: parsed HTML asked by role, name and text.

Tests of the server's pages check what a page says and offers (a heading, a link named
"Rules", a field's error, the rows of a table) rather than whether a substring of its
markup happens to be there, so a changed attribute order, an added class or a wrapped
line does not break a test, and a word that moved into a hidden template or a script no
longer passes one. Parsing is Beautiful Soup's over the standard library's parser (no
compiled extension); CSS selectors are soupsieve's.

Roles follow ARIA's implicit roles for the elements the templates use, an explicit
``role`` attribute first; an element's accessible name is, in order, its
``aria-label``, the text of its ``aria-labelledby`` targets, its ``<label>`` (form
fields), its ``value`` (input buttons), its ``alt`` (images), its text, its ``title``.
What a person cannot see (inside ``hidden``, ``aria-hidden="true"``, ``<template>``,
``<script>``, ``<style>``) is left out of roles and text unless asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from copy import copy

from bs4 import BeautifulSoup, NavigableString, Tag

_SPACE = re.compile(r"\s+")
_INVISIBLE = ("script", "style", "template", "noscript")
_BUTTON_INPUTS = {"submit", "button", "reset", "image"}
# Elements whose text does not run on into what comes before and after them.
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "br", "button", "dd", "details", "dialog",
    "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hr", "input", "label", "legend", "li", "main", "nav",
    "ol", "option", "output", "p", "pre", "section", "select", "summary", "table", "tbody",
    "td", "textarea", "tfoot", "th", "thead", "tr", "ul"})
_TEXTBOX_INPUTS = {"text", "email", "search", "tel", "url", "password", ""}
_IMPLICIT: dict[str, str] = {
    "nav": "navigation", "main": "main", "header": "banner", "footer": "contentinfo",
    "ul": "list", "ol": "list", "li": "listitem", "table": "table", "tr": "row",
    "td": "cell", "th": "columnheader", "textarea": "textbox", "fieldset": "group",
    "dialog": "dialog", "output": "status", "progress": "progressbar", "form": "form",
    "article": "article", "details": "group", "summary": "button", "dl": "list",
    **{f"h{level}": "heading" for level in range(1, 7)},
}


def squeeze(text: str) -> str:
    """Text as it reads: runs of white space one space, none at the ends."""
    return _SPACE.sub(" ", text).strip()


def hidden(node: Tag) -> bool:
    """Whether a person cannot see ``node``: it or an ancestor is hidden."""
    return any(isinstance(tag, Tag) and _invisible(tag) for tag in (node, *node.parents))


def text(node: Tag, include_hidden: bool = False) -> str:
    """The text ``node`` shows, white space squeezed, its hidden parts left out (unless
    ``include_hidden``): inline elements run on (``<code>--https</code>.`` reads
    "--https."), blocks, cells, line breaks and controls are set apart by a space."""
    parts: list[str] = []
    _collect(node, parts, include_hidden)
    return squeeze("".join(parts))


def _collect(node: Tag, parts: list[str], include_hidden: bool) -> None:
    for child in node.children:
        if isinstance(child, Tag):
            if not include_hidden and _invisible(child):
                continue
            apart = child.name in _BLOCKS
            if apart:
                parts.append(" ")
            _collect(child, parts, include_hidden)
            if apart:
                parts.append(" ")
        elif type(child) is NavigableString:  # not a comment, doctype or CDATA
            parts.append(str(child))


def _invisible(tag: Tag) -> bool:
    return (tag.name in _INVISIBLE or tag.has_attr("hidden")
            or tag.get("aria-hidden") == "true")


def role(node: Tag) -> str | None:
    """The element's ARIA role: its ``role`` attribute, else its element's implicit one."""
    explicit = node.get("role")
    if explicit:
        return str(explicit).split()[0]
    if node.name == "a":
        return "link" if node.has_attr("href") else None
    if node.name == "button":
        return "button"
    if node.name == "select":
        return "listbox" if node.has_attr("multiple") else "combobox"
    if node.name == "img":
        return "img" if node.get("alt") != "" else "presentation"
    if node.name == "section":
        return "region" if node.get("aria-label") or node.get("aria-labelledby") else None
    if node.name == "input":
        kind = str(node.get("type", "")).lower()
        if kind in _BUTTON_INPUTS:
            return "button"
        if kind in ("checkbox", "radio"):
            return kind
        if kind == "number":
            return "spinbutton"
        if kind == "range":
            return "slider"
        return "textbox" if kind in _TEXTBOX_INPUTS else None
    return _IMPLICIT.get(node.name)


class Page:
    """One parsed page. Build it from a test client's response or from HTML text."""

    def __init__(self, source: object) -> None:
        markup = source if isinstance(source, str) else source.get_data(as_text=True)  # type: ignore[attr-defined]
        self.html = markup
        self.soup = BeautifulSoup(markup, "html.parser")

    # ---- by selector ----

    def all(self, selector: str, include_hidden: bool = True) -> list[Tag]:
        """Every element ``selector`` (CSS) matches, in document order."""
        found = self.soup.select(selector)
        return found if include_hidden else [n for n in found if not hidden(n)]

    def one(self, selector: str) -> Tag:
        """The one element ``selector`` matches; fails if there are none or several."""
        found = self.soup.select(selector)
        assert len(found) == 1, f"{len(found)} elements match {selector!r}"
        return found[0]

    def text(self, selector: str | None = None) -> str:
        """What the page (or the one element ``selector`` matches) says to a person."""
        return text(self.soup.body or self.soup if selector is None else self.one(selector))

    def texts(self, selector: str) -> list[str]:
        """The text of each visible element ``selector`` matches."""
        return [text(node) for node in self.all(selector, include_hidden=False)]

    def ids(self) -> set[str]:
        """Every ``id`` on the page (an anchor a link can name)."""
        return {str(node["id"]) for node in self.soup.select("[id]")}

    # ---- by role, as a person finds things ----

    def by_role(self, kind: str, name: str | re.Pattern[str] | None = None,
                include_hidden: bool = False) -> list[Tag]:
        """Elements of role ``kind``, those named ``name`` when given (a string matches
        the whole squeezed name, a pattern searches it), in document order."""
        found = []
        for node in self.soup.find_all(True):
            if role(node) != kind or (not include_hidden and hidden(node)):
                continue
            if name is None or _named(self.accessible_name(node), name):
                found.append(node)
        return found

    def get(self, kind: str, name: str | re.Pattern[str] | None = None) -> Tag:
        """The one visible element of role ``kind`` named ``name``; fails otherwise,
        listing the names there are."""
        found = self.by_role(kind, name)
        if len(found) != 1:
            names = [self.accessible_name(n) for n in self.by_role(kind)]
            raise AssertionError(f"{len(found)} {kind}(s) named {name!r}; the page has {names}")
        return found[0]

    def names(self, kind: str) -> list[str]:
        """The accessible names of the visible elements of role ``kind``."""
        return [self.accessible_name(node) for node in self.by_role(kind)]

    def href(self, name: str | re.Pattern[str]) -> str:
        """Where the one visible link named ``name`` goes."""
        return str(self.get("link", name)["href"])

    def heading(self, level: int = 1) -> str:
        """The text of the page's one visible heading of ``level``."""
        found = [n for n in self.by_role("heading") if n.name == f"h{level}"]
        assert len(found) == 1, f"{len(found)} h{level} headings"
        return text(found[0])

    def accessible_name(self, node: Tag) -> str:
        """What a screen reader (and Playwright's ``get_by_role``) calls ``node``."""
        if node.get("aria-label"):
            return squeeze(str(node["aria-label"]))
        if node.get("aria-labelledby"):
            return squeeze(" ".join(self._text_of_id(i) for i in
                                    str(node["aria-labelledby"]).split()))
        if node.name in ("input", "select", "textarea"):
            label = self._label_of(node)
            if label is not None:
                return label
            if str(node.get("type", "")).lower() in _BUTTON_INPUTS:
                return squeeze(str(node.get("value", "")))
        if node.name == "img":
            return squeeze(str(node.get("alt", "")))
        shown = text(node)
        return shown or squeeze(str(node.get("title", "")))

    def _text_of_id(self, ident: str) -> str:
        target = self.soup.find(id=ident)
        return text(target, include_hidden=True) if isinstance(target, Tag) else ""

    def _label_of(self, node: Tag) -> str | None:
        if node.get("id"):
            label = self.soup.find("label", attrs={"for": node["id"]})
            if isinstance(label, Tag):
                return text(label)
        wrapping = node.find_parent("label")
        return text(wrapping) if wrapping is not None else None

    # ---- forms ----

    def field(self, name: str) -> Tag:
        """The one form field (input, select, textarea) called ``name``."""
        return self.one(f'input[name="{name}"], select[name="{name}"], textarea[name="{name}"]')

    def value(self, name: str) -> str:
        """The value the field ``name`` would send as the page stands (a select's chosen
        option, a textarea's text)."""
        node = self.field(name)
        if node.name == "select":
            chosen = node.select_one("option[selected]") or node.select_one("option")
            return "" if chosen is None else str(chosen.get("value", text(chosen)))
        if node.name == "textarea":
            return node.get_text()
        return str(node.get("value", ""))

    def errors(self, include_hidden: bool = False) -> dict[str, str]:
        """The error shown for each field, by field name: the form macros' alert
        ``<p class="field-error" id="NAME-error">`` (also those in a hidden part of the
        page, which a person does not see until it opens, with ``include_hidden``)."""
        return {str(node["id"]).removesuffix("-error"): text(node, include_hidden=True)
                for node in self.all(".field-error[id]", include_hidden=include_hidden)}


def _named(actual: str, wanted: str | re.Pattern[str]) -> bool:
    if isinstance(wanted, str):
        return actual == squeeze(wanted)
    return wanted.search(actual) is not None


def rows(table: Tag) -> list[list[str]]:
    """A table's rows as the text of their cells (header rows included)."""
    return [[text(cell) for cell in row.find_all(["th", "td"])]
            for row in table.find_all("tr")]


def hrefs(nodes: Iterable[Tag]) -> list[str]:
    """Where each of these links goes."""
    return [str(node["href"]) for node in nodes]


# ---- one region of a page, reading order, what a form sends ----


def part(node: Tag) -> Page:
    """``node`` read as a page of its own, to ask by role and name inside one region of a
    page (the checker's answer, one form) rather than the whole page. What is hidden
    inside ``node`` stays hidden; an ``aria-labelledby`` pointing outside it names
    nothing."""
    return Page(str(node))


def in_order(*nodes: Tag) -> bool:
    """Whether ``nodes`` are distinct and come in this order in the page's markup, the
    order a person reading down the page (or a screen reader) meets them."""
    places = [(node.sourceline or 0, node.sourcepos or 0) for node in nodes]
    return places == sorted(set(places))


def sent(form: Tag) -> dict[str, str]:
    """What the inputs of ``form`` send as the page stands, by field name: each named
    input's value, a checkbox or radio only when checked, buttons left out (a select's
    or a textarea's value: :meth:`Page.value`). A name given twice keeps its last."""
    fields: dict[str, str] = {}
    for node in form.select("input[name]"):
        kind = str(node.get("type", "")).lower()
        if kind in _BUTTON_INPUTS or (kind in ("checkbox", "radio")
                                      and not node.has_attr("checked")):
            continue
        fields[str(node["name"])] = str(node.get("value", "on"))
    return fields


# ---- the part a heading heads, tables, what the screen shows ----

_PARTS = ("section", "article", "aside", "nav", "form", "fieldset", "dialog", "main")


def headed(page: Page, heading: str | re.Pattern[str]) -> Tag:
    """The part of the page the one visible heading named ``heading`` heads: its nearest
    enclosing section, article, aside, navigation, form, fieldset, dialog or main."""
    found = page.get("heading", heading).find_parent(_PARTS)
    assert found is not None, f"the heading {heading!r} heads no part of the page"
    return found


def introduced(page: Page, heading: str | re.Pattern[str]) -> Tag:
    """What the one visible heading named ``heading`` introduces: the element right after
    it (the list under "Changed from the usual", the paragraph under an error's title)."""
    found = page.get("heading", heading).find_next_sibling()
    assert isinstance(found, Tag), f"nothing follows the heading {heading!r}"
    return found


def definitions(node: Tag) -> dict[str, list[str]]:
    """A description list as a person reads it: each visible term (``<dt>``) with the
    text of the visible descriptions (``<dd>``) that follow it, up to the next term."""
    read: dict[str, list[str]] = {}
    current: list[str] | None = None
    for item in node.find_all(["dt", "dd"]):
        if hidden(item):
            continue
        if item.name == "dt":
            current = read.setdefault(text(item), [])
        elif current is not None:
            current.append(text(item))
    return read


def table(page: Page, caption: str | re.Pattern[str]) -> Tag:
    """The one visible table captioned ``caption`` (its ``<caption>``, read even when
    only screen readers see it, or its ``aria-label``)."""
    found = [node for node in page.by_role("table")
             if _named(_caption_of(page, node), caption)]
    assert len(found) == 1, f"{len(found)} tables captioned {caption!r}"
    return found[0]


def _caption_of(page: Page, node: Tag) -> str:
    if node.get("aria-label") or node.get("aria-labelledby"):
        return page.accessible_name(node)
    shown = node.find("caption")
    return text(shown) if isinstance(shown, Tag) else ""


def body_rows(node: Tag) -> list[list[str]]:
    """A table's rows of data as the text of their cells (header cells included): the
    rows of its ``<tbody>`` parts, not those of its ``<thead>`` or ``<tfoot>``."""
    bodies = node.find_all("tbody") or [node]
    return [[text(cell) for cell in row.find_all(["th", "td"])]
            for body in bodies for row in body.find_all("tr")
            if row.find_parent(["thead", "tfoot"]) is None]


def on_screen(node: Tag) -> str:
    """The text ``node`` shows on screen: :func:`text` without the parts written for
    screen readers alone (class ``visually-hidden``), such as the words beside a dash."""
    shown = copy(node)
    for part_only_heard in shown.select(".visually-hidden"):
        part_only_heard.decompose()
    return text(shown)
