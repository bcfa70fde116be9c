"""Helpers for tests of the JSON API: a client that sends a group's bearer token, and
bodies for matches and hands."""

from __future__ import annotations


class Api:
    """A client that sends a group's bearer token with every request."""

    def __init__(self, client, token: str | None) -> None:
        self.client, self.token = client, token

    def __call__(self, method: str, path: str, body=None):
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return self.client.open("/api/v1" + path, method=method, json=body, headers=headers)


def start(api: Api, game: str = "crazy-eights", options=None, players=("Ann", "Bob", "Cy"),
          first_dealer: int = 0) -> dict:
    response = api("POST", "/matches", {"sheet": {"game": game, "options": options or {}},
                                        "players": list(players), "first_dealer": first_dealer})
    assert response.status_code == 201, response.json
    return response.json


def hand(number: int, out: int | None, **held: str) -> dict:
    """A hand body; ``held`` keys are ``s0``, ``s1`` … for seat indexes."""
    return {"number": number, "out": out, "blocked": out is None,
            "held": {k[1:]: v for k, v in held.items()}}


def error(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.json
    body = response.json["error"]
    assert body["status"] == status
    if field is not None:
        assert body["field"] == field
    return body
