"""Reading a whole match while another phone records and corrects hands: every read
answers 200 with one consistent match, and every hand acknowledged is stored.

One thread records hands and edits each one just after (the edit moves who went out,
so a hand's row and its seats' cards change together); two threads read the match the
ways people and clients do: the API's match (what a client reads after a 409), the
match record page, and both exports. Each client is its own test client in its own
thread, so each request has its own app context, session and connection. The run is
bounded by a number of writes, and by a generous time as well on a loaded machine.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

WRITES = 24          # hands recorded (each edited once after)
TIME_BOUND = 120.0   # seconds: the writer stops sooner if the machine is very slow
READERS = 2
CARDS = ("2c", "3d", "4h", "5s", "6c", "7d", "9h", "tc", "jd", "qh", "ks", "ac")


def _hand(number: int, out: int) -> dict:
    """Hand ``number`` with ``out`` gone out; the other two hold cards that change
    from hand to hand (no hand looks like the one before it)."""
    held = {str(seat): f"{CARDS[(number + seat) % len(CARDS)]} {('8h', '8s', '8d')[seat]}"
            for seat in range(3) if seat != out}
    return {"number": number, "out": out, "held": held}


def _write(client, headers, match_id: int, stop: threading.Event, counts: dict) -> None:
    """Record hand after hand, each edited once (its out seat moved), until done."""
    deadline = time.monotonic() + TIME_BOUND
    try:
        for number in range(1, WRITES + 1):
            if time.monotonic() > deadline:
                break
            answer = client.post(f"/api/v1/matches/{match_id}/hands", headers=headers,
                                 json=_hand(number, 0))
            assert answer.status_code == 201, answer.text
            counts["recorded"] += 1
            edited = client.put(f"/api/v1/matches/{match_id}/hands/{number}",
                                headers=headers, json=_hand(number, 1))
            assert edited.status_code in (200, 409), edited.text
    finally:
        stop.set()


def _read(client, paths: list[str], headers, stop: threading.Event) -> list[tuple[str, int]]:
    """Read every path in turn until the writer stops; the answers' paths and statuses."""
    seen = []
    while not stop.is_set():
        for path in paths:
            answer = client.get(path, headers=headers)
            seen.append((path, answer.status_code))
    return seen


def test_reads_while_hands_are_recorded_and_edited(app, phones):
    clients, headers, match_id = phones
    group_id = clients[0].get("/api/v1/group", headers=headers).json["id"]
    token = headers["Authorization"].split()[1]
    readers = [app.test_client() for _ in range(READERS)]
    for reader in readers:
        assert reader.get(f"/join/{token}").status_code == 302
    paths = [f"/api/v1/matches/{match_id}", f"/groups/{group_id}/matches/{match_id}/record",
             "/api/v1/export", f"/api/v1/matches/{match_id}/export?format=csv"]
    stop, counts = threading.Event(), {"recorded": 0}
    with ThreadPoolExecutor(max_workers=READERS + 1) as pool:
        reads = [pool.submit(_read, reader, paths, headers, stop) for reader in readers]
        writer = pool.submit(_write, clients[0], headers, match_id, stop, counts)
        writer.result(timeout=TIME_BOUND + 60)
        seen = [found for read in reads for found in read.result(timeout=60)]
    failed = [found for found in seen if found[1] != 200]
    print(f"\n{len(failed)} of {len(seen)} reads not 200 "
          f"({counts['recorded']} hands recorded and edited)")
    assert failed == []
    match = clients[1].get(f"/api/v1/matches/{match_id}", headers=headers).json
    assert [hand["number"] for hand in match["hands"]] == list(
        range(1, counts["recorded"] + 1))
