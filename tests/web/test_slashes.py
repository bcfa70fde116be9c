"""A trailing slash typed after a page's address answers like the address without it."""

from __future__ import annotations

import pytest

from tests.support.parsed import Page
from tests.support.web import start_group


@pytest.mark.parametrize("path", ["/rules", "/deal", "/check", "/rules?q=melee",
                                  "/deal?game=last-one&players=4"])
def test_trailing_slash_answers_like_the_address_without_it(client, path):
    bare = client.get(path)
    address, _, query = path.partition("?")
    slashed = client.get(f"{address}/" + (f"?{query}" if query else ""))
    assert bare.status_code == slashed.status_code == 200
    assert slashed.text == bare.text


def test_group_page_with_a_trailing_slash(client):
    gid = start_group(client, "Sunday")
    page = client.get(f"/groups/{gid}/")
    assert page.status_code == 200 and Page(page).heading() == "Sunday"
    assert client.get(f"/groups/{gid + 1}/").status_code == 404  # still no other group
