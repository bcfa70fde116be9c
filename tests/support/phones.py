"""Phones for a deployment (``tests/support/cluster.py``): HTTP clients that keep their
cookies and come from their own loopback address, and the loops that record hands the
way the app's phones do — through the API with an ``Idempotency-Key``, or through the
hand form — resending the same hand after a dropped connection or a 502 until it is
acknowledged. Every loop is bounded by a number of hands and a deadline.
"""

from __future__ import annotations

import http.client
import json
import re
import time
import uuid
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

from scorekeeper.core.cards import format_cards, parse_cards
from tests.support.cluster import PUBLIC_HOST

SEATS = ("Ann", "Bob", "Cat", "Dev")
RESEND = (502, 503, 504)  # the proxy lost the host: the phone sends the same hand again


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Phone:
    """One phone: its source address, its cookies, the address it sends to."""

    def __init__(self, source: str, port: int, address: str = "127.0.0.1",
                 host: str = PUBLIC_HOST) -> None:
        self.source, self.port, self.address, self.host = source, port, address, host
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, *, json_body: Any = None,
             form: dict[str, str] | None = None, headers: dict[str, str] | None = None,
             address: str | None = None) -> Answer:
        """One request on a new connection (OSError when the connection fails)."""
        sent = {"Host": self.host, **(headers or {})}
        body = None
        if json_body is not None:
            body, sent["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        elif form is not None:
            body = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        conn = http.client.HTTPConnection(address or self.address, self.port, timeout=15,
                                          source_address=(self.source, 0))
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, data)

    def api(self, method: str, path: str, token: str, body: Any = None,
            **headers: str) -> Answer:
        return self.send(method, "/api/v1" + path, json_body=body,
                         headers={"Authorization": f"Bearer {token}", **headers})


def csrf_of(page: bytes) -> str:
    found = re.search(rb'name="csrf_token" value="([^"]+)"', page)
    assert found, page[:300]
    return found.group(1).decode()


@dataclass
class Table:
    """A group with four players and a Last One match, made as a phone makes them."""

    group_id: int
    token: str
    match_id: int


def new_table(phone: Phone, name: str) -> Table:
    """Start a group on the page (its form and CSRF token), then a match via the API."""
    token = csrf_of(phone.send("GET", "/").body)
    made = phone.send("POST", "/groups", form={"name": name, "csrf_token": token})
    assert made.status == 302, (made.status, made.body[:300])
    group_id = int(re.search(r"/groups/(\d+)", made.headers["location"]).group(1))
    page = phone.send("GET", f"/groups/{group_id}").body.decode()
    invite = re.search(r"/join/([\w-]+)", page).group(1)
    for seat in SEATS:
        assert phone.api("POST", "/players", invite, {"name": seat}).status == 201
    match = phone.api("POST", "/matches", invite, {
        "sheet": {"game": "last-one", "options": {"threshold": 500}},
        "players": list(SEATS), "first_dealer": 0})
    assert match.status == 201, match.body[:300]
    return Table(group_id, invite, match.json()["id"])


def hand_cards(phone_no: int, number: int) -> tuple[int, list[str]]:
    """Hand ``number`` of phone ``phone_no``: who went out and each seat's canonical
    cards (small cards, so nobody nears the threshold in a run)."""
    out = (phone_no + number) % len(SEATS)
    deck = ["3C", "4D", "5H", "6S", "3D", "4H", "5S", "6C"]
    held = [""] * len(SEATS)
    for i in range(len(SEATS)):
        if i != out:
            held[i] = format_cards(parse_cards(deck[(number + i) % len(deck)]))
    return out, held


@dataclass
class Run:
    """What one phone sent and was told: acknowledged hands, the one still pending when
    time ran out, resends, the acknowledged round trips' latencies, and any answer
    that was neither an acknowledgement nor a reason to resend."""

    phone_no: int
    table: Table
    acked: dict[int, list[str]] = field(default_factory=dict)
    pending: dict[int, list[str]] = field(default_factory=dict)
    resends: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def record_by_api(phone: Phone, run: Run, hands: int, deadline: float, first: int = 1) -> Run:
    """Record hands ``first`` … ``hands`` through the API, each with its own key,
    resending it after a failed connection or a 502 until acknowledged or the deadline."""
    for number in range(first, hands + 1):
        out, held = hand_cards(run.phone_no, number)
        body = {"number": number, "out": out, "blocked": False,
                "held": {str(i): c for i, c in enumerate(held) if c}}
        key = str(uuid.uuid4())

        def once(body=body, key=key) -> Answer:
            return phone.api("POST", f"/matches/{run.table.match_id}/hands", run.table.token,
                             body, **{"Idempotency-Key": key})
        if not _until_acked(once, 201, number, held, run, deadline):
            break
    return run


def record_by_form(phone: Phone, run: Run, hands: int, deadline: float) -> Run:
    """Record hands through the page's hand form, as a phone without the script does:
    join by the invite link, then post each hand with the form's key until it lands."""
    joined = phone.send("GET", f"/join/{run.table.token}")
    assert joined.status == 302, joined.status
    base = f"/groups/{run.table.group_id}/matches/{run.table.match_id}"
    token = csrf_of(phone.send("GET", base + "/hands/new").body)
    for number in range(1, hands + 1):
        out, held = hand_cards(run.phone_no, number)
        form = {"number": str(number), "out": str(out), "csrf_token": token,
                "idempotency_key": str(uuid.uuid4())}
        form |= {f"seat-{i}": c for i, c in enumerate(held)}

        def once(form=form) -> Answer:
            return phone.send("POST", base + "/hands/new", form=form)
        if not _until_acked(once, 302, number, held, run, deadline):
            break
    return run


def _until_acked(once, ok: int, number: int, held: list[str], run: Run,
                 deadline: float) -> bool:
    """Send until acknowledged (True) or the deadline (False, the hand left pending)."""
    run.pending[number] = held
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            answer = once()
        except (OSError, http.client.HTTPException):  # the connection dropped (or cut
            # mid-answer): the same hand again
            run.resends += 1
            time.sleep(0.05)
            continue
        if answer.status == ok:
            run.latencies.append(time.perf_counter() - start)
            run.acked[number] = run.pending.pop(number)
            return True
        if answer.status in RESEND:
            run.resends += 1
            time.sleep(0.05)
            continue
        run.errors.append(f"hand {number}: {answer.status} {answer.body[:200]!r}")
        return False
    return False


def stored_hands(phone: Phone, table: Table) -> dict[int, list[str]]:
    """The match's hands as the API reports them: number → each seat's cards."""
    answer = phone.api("GET", f"/matches/{table.match_id}", table.token)
    assert answer.status == 200, answer.body[:300]
    numbers = [h["number"] for h in answer.json()["hands"]]
    assert len(numbers) == len(set(numbers)), f"a hand number stored twice: {numbers}"
    return {h["number"]: h["cards"] for h in answer.json()["hands"]}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank), 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]

