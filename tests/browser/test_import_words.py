"""Importing the app's own spreadsheet (CSV) on a phone: nothing is imported, and the
page says that the import takes the JSON export and where to get it (a link to the
History page's export buttons)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import phone_match

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("width", "scheme"), [(320, "light"), (390, "dark")])
def test_the_csv_export_uploaded_says_the_import_takes_the_json_export(
        page: Page, live_server: str, app, width: int, scheme: str):
    page.set_viewport_size({"width": width, "height": 740})
    page.emulate_media(color_scheme=scheme)
    match = phone_match(app, live_server, page, "crazy-eights", ("Ann", "Ben", "Cat"))
    client = app.test_client()
    assert client.post(f"/api/v1/matches/{match['match']}/hands", headers=match["auth"],
                       json={"number": 1, "out": 0, "held": {"1": "9d", "2": "4c"}}
                       ).status_code == 201
    group = match["board"].split("/matches/")[0]
    csv = page.request.get(f"{group}/export.csv")
    assert csv.ok
    page.goto(f"{group}/import")
    page.locator("input[type=file]").set_input_files(
        {"name": "kitchen-table.csv", "mimeType": "text/csv", "buffer": csv.body()})
    page.get_by_role("button", name="Import").tap()
    problems = page.get_by_role("alert")
    expect(problems).to_contain_text("Nothing was imported")
    expect(problems).to_contain_text("The import takes the JSON export")
    expect(problems).to_contain_text("All matches (JSON)")
    problems.get_by_role("link", name="History page").tap()
    expect(page.get_by_role("link", name="All matches (JSON)")).to_be_in_viewport()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
