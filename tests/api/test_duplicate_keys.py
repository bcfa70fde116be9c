"""A JSON body or an import file that names one key twice is refused with a 400 naming
the key, and nothing is stored: which of the two values was meant is unknown."""

from __future__ import annotations

import pytest

from tests.support.api import error, start

HEADERS = {"content-type": "application/json"}


@pytest.mark.parametrize(("path", "body", "key"), [
    ("/hands", '{"number": 1, "out": 0, "out": 1, "held": {"1": "5h", "2": "6h"}}', "out"),
    ("/hands", '{"number": 1, "out": 0, "held": {"1": "5h", "1": "6h", "2": "7h"}}', "1"),
])
def test_hand_body_with_a_key_twice(api, path, body, key):
    match = start(api)
    response = api.client.post(f"/api/v1/matches/{match['id']}{path}", data=body,
                               headers={**HEADERS, "Authorization": f"Bearer {api.token}"})
    found = error(response, 400, "body")
    assert repr(key) in found["message"] and "twice" in found["message"]
    assert api("GET", f"/matches/{match['id']}").json["hands"] == []


def test_stateless_body_with_a_key_twice(client):
    body = ('{"sheet": {"game": "crazy-eights", "options": {}}, "seats": ["Ann", "Bob"], '
            '"seats": ["Ann", "Cy"], "out": "Ann", "remaining": {"Bob": "5h"}}')
    found = error(client.post("/api/v1/score", data=body, headers=HEADERS), 400, "body")
    assert "'seats'" in found["message"]


def test_import_with_a_key_twice(api):
    match = start(api)
    exported = api.client.get("/api/v1/export",
                              headers={"Authorization": f"Bearer {api.token}"}).text
    doubled = exported.replace('"seats":', '"seats": ["Ann", "Bob", "Cy"], "seats":', 1)
    assert doubled != exported
    response = api.client.post("/api/v1/import", data=doubled,
                               headers={**HEADERS, "Authorization": f"Bearer {api.token}"})
    found = error(response, 400)
    assert "'seats' twice" in found["message"]
    assert [m["id"] for m in api("GET", "/export").json["matches"]] == [match["id"]]
