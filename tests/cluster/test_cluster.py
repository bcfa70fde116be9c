"""Several hosts, one database, as an operator deploys it: three gunicorn app hosts on
127.0.0.2–4 behind nginx (the README's server block, ``tests/cluster/nginx.conf``),
one PostgreSQL, one Redis — all started here, on loopback only.

Starting the deployment is most of the cost, so one test starts it once and checks,
in order, everything below (each check leaves the deployment as the next expects; as
one test it stays on one xdist worker). Skipped when nginx or Redis is missing,
except under CI, where it must run.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.cluster import FIGURES, Deployment, missing_parts, running
from tests.support.phones import (
    Phone,
    Run,
    hand_cards,
    new_table,
    percentile,
    record_by_api,
    record_by_form,
    stored_hands,
)

API_PHONES, FORM_PHONES = 6, 3
HANDS = 150  # each phone's most hands; the deadline ends the run first
LOAD_SECONDS = 9.0
KILL_AFTER = 2.0  # seconds into the load, host 2 is killed (kill -9) and restarted


@pytest.fixture
def deployment():
    missing = missing_parts()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the cluster test needs {', '.join(missing)} (see .ci/run)")
        pytest.skip(f"needs {', '.join(missing)}")
    with Deployment(hosts=3, workers=2) as deployed:
        deployed.upgrade(at_once=3)  # three hosts' release steps at once
        deployed.start_hosts()
        yield deployed


def proxy_phone(deployment, n: int) -> Phone:
    """A phone on its own address (127.0.1.n), talking to nginx."""
    return Phone(f"127.0.1.{n}", deployment.proxy.port)


def check_three_upgrades_at_once_on_an_empty_database_all_succeed(deployment):
    outputs = "\n".join(u.stdout for u in deployment.upgrades)
    assert [u.returncode for u in deployment.upgrades] == [0, 0, 0], outputs
    for host in deployment.hosts:
        ready = Phone("127.0.0.1", host.port, host.address, host=host.address).send(
            "GET", "/readyz")
        assert ready.status == 200, ready.body


def check_no_acknowledged_hand_is_lost_doubled_or_changed_through_a_kill(deployment,
                                                                      record_property):
    """Phones record hands (API and page forms) through nginx while one host is killed
    with kill -9 and restarted; every hand acknowledged is stored once, as sent."""
    phones = [proxy_phone(deployment, n) for n in range(1, API_PHONES + FORM_PHONES + 1)]
    runs = [Run(n, new_table(phone, f"Table {n}")) for n, phone in enumerate(phones, 1)]
    deadline = time.monotonic() + LOAD_SECONDS
    victim = deployment.hosts[1]
    killed = threading.Event()

    def kill_and_restart() -> None:
        time.sleep(KILL_AFTER)
        victim.kill()
        killed.set()
        time.sleep(1.0)
        victim.start()

    started = time.perf_counter()
    with ThreadPoolExecutor(len(phones) + 1) as pool:
        chaos = pool.submit(kill_and_restart)
        loads = [pool.submit(record_by_api if n <= API_PHONES else record_by_form,
                             phone, run, HANDS, deadline)
                 for n, (phone, run) in enumerate(zip(phones, runs, strict=True), 1)]
        done = [load.result(timeout=LOAD_SECONDS + 60) for load in loads]
        chaos.result(timeout=60)
    elapsed = time.perf_counter() - started
    victim.wait()
    assert killed.is_set()

    checker = proxy_phone(deployment, 99)
    acked = sum(len(run.acked) for run in done)
    for run in done:
        assert run.errors == [], run.errors
        stored = stored_hands(checker, run.table)
        # Every acknowledged hand is there, once (numbers are unique), with its cards.
        assert {n: stored.get(n) for n in run.acked} == run.acked, run.phone_no
        # Nothing else, but the one hand a phone was still resending at the deadline.
        extra = set(stored) - set(run.acked)
        assert extra <= set(run.pending), (run.phone_no, sorted(extra))
        assert all(stored[n] == run.pending[n] for n in extra)
    latencies = [t for run in done for t in run.latencies]
    record_property(FIGURES, (
        f"cluster: {len(phones)} phones ({API_PHONES} API, {FORM_PHONES} forms), {acked} hands "
        f"acknowledged in {elapsed:.1f} s ({acked / elapsed:.0f} hands/s), "
        f"p50 {percentile(latencies, 0.5) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, "
        f"{sum(r.resends for r in done)} resends after the kill -9 of one host"))
    assert acked >= len(phones) * 3, "the load recorded almost nothing"


def check_a_master_killed_alone_takes_its_workers_and_restarts_at_once(deployment,
                                                                       record_property):
    """kill -9 of host 3's gunicorn master only: its workers leave (the README's gunicorn
    settings), the restart with the same command on the same address comes up, and the
    host serves again."""
    host = deployment.hosts[2]
    workers = host.kill_master()
    assert workers, "the master had no workers"
    killed = time.monotonic()
    while any(running(pid) for pid in workers):
        assert time.monotonic() - killed < 10, "the workers outlived their master"
        time.sleep(0.05)
    gone = time.monotonic() - killed
    host.start()
    host.wait()
    assert "Connection in use" not in host.log.read_text()
    assert Phone("127.0.0.1", host.port, host.address).send("GET", "/readyz").status == 200
    record_property(FIGURES, f"cluster: a master killed alone, its workers gone in {gone:.2f} s")


def check_a_resend_with_the_same_key_stores_one_hand_whichever_host_answers(deployment):
    phone = proxy_phone(deployment, 100)
    table = new_table(phone, "Resend")
    out, held = hand_cards(0, 1)
    body = {"number": 1, "out": out, "blocked": False,
            "held": {str(i): c for i, c in enumerate(held) if c}}
    path = f"/matches/{table.match_id}/hands"
    key = {"Idempotency-Key": "a-key-sent-to-every-host"}
    answers = [phone.api("POST", path, table.token, body, **key)]
    for host in deployment.hosts:  # the same request again, straight to each host
        direct = Phone("127.0.0.1", host.port, host.address)
        answers.append(direct.api("POST", path, table.token, body, **key))
    answers.append(phone.api("POST", path, table.token, body, **key))
    assert {a.status for a in answers} == {201}
    assert len({a.body for a in answers}) == 1
    assert stored_hands(phone, table) == {1: held}


def check_rate_limits_hold_across_hosts(deployment):
    """Six wrong tokens a minute per address (the hosts' setting): the seventh is a 429
    whichever host answers — counted in Redis, so three hosts do not make it eighteen;
    a forged X-Forwarded-For changes nothing (nginx sets it)."""
    guesser = proxy_phone(deployment, 200)
    statuses, retry = [], []
    for n in range(9):
        answer = guesser.api("GET", "/group", f"guess-{n}",
                             **{"X-Forwarded-For": f"198.51.100.{n}"})
        statuses.append(answer.status)
        retry.append(answer.headers.get("retry-after"))
    assert statuses == [404] * 6 + [429] * 3
    assert all(r is not None and int(r) > 0 for r in retry[6:])
    other = proxy_phone(deployment, 201)  # another address is not held back
    assert other.api("GET", "/group", "guess").status == 404


def check_health_checks_answer_on_each_hosts_own_address(deployment):
    for host in deployment.hosts:
        for asked in (host.address, f"{host.address}:{host.port}", "anything.example"):
            phone = Phone("127.0.0.1", host.port, host.address, host=asked)
            assert phone.send("GET", "/healthz").status == 200
            assert phone.send("GET", "/readyz").status == 200
        # Pages keep refusing a Host that is not the public one.
        assert Phone("127.0.0.1", host.port, host.address, host="evil.example").send(
            "GET", "/").status == 400
    assert proxy_phone(deployment, 1).send("GET", "/").status == 200


def check_with_redis_stopped_pages_and_api_keep_answering(deployment):
    phone = proxy_phone(deployment, 150)
    table = new_table(phone, "Outage")
    deployment.redis.stop()
    statuses = {
        "page": phone.send("GET", "/").status,
        "board": phone.send("GET", f"/groups/{table.group_id}").status,
        "api": phone.api("GET", "/group", table.token).status,
        "wrong token": phone.api("GET", "/group", "wrong").status,
        "join": phone.send("GET", "/join/wrong").status,
    }
    out, held = hand_cards(0, 1)
    recorded = phone.api("POST", f"/matches/{table.match_id}/hands", table.token,
                         {"number": 1, "out": out, "blocked": False,
                          "held": {str(i): c for i, c in enumerate(held) if c}})
    assert statuses == {"page": 200, "board": 200, "api": 200, "wrong token": 404,
                        "join": 404}
    assert recorded.status == 201
    for host in deployment.hosts:
        ready = Phone("127.0.0.1", host.port, host.address).send("GET", "/readyz")
        assert ready.status == 503
        assert set(ready.json()["failed"]) == {"rate_limits"}
    logs = [host.log.read_text() for host in deployment.hosts]
    assert any("falling back to in-memory storage" in log for log in logs)
    assert all(log.count("falling back to in-memory storage") <= 2 for log in logs)


def test_three_hosts_behind_nginx_lose_no_hand_and_survive_a_redis_outage(deployment,
                                                                         record_property):
    check_three_upgrades_at_once_on_an_empty_database_all_succeed(deployment)
    check_no_acknowledged_hand_is_lost_doubled_or_changed_through_a_kill(deployment,
                                                                         record_property)
    check_a_master_killed_alone_takes_its_workers_and_restarts_at_once(deployment,
                                                                       record_property)
    check_a_resend_with_the_same_key_stores_one_hand_whichever_host_answers(deployment)
    check_rate_limits_hold_across_hosts(deployment)
    check_health_checks_answer_on_each_hosts_own_address(deployment)
    check_with_redis_stopped_pages_and_api_keep_answering(deployment)  # the last: no Redis
