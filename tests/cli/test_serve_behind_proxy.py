"""Hardening under the real server: ``scorekeeper serve`` (waitress) behind a TLS proxy.

Was: waitress ignored ``X-Forwarded-Proto`` (cookies never Secure), buffered any body
(1 GB → 3.1 GB RSS), and built links from whatever ``Host`` a client sent.
"""

from __future__ import annotations

import http.client
import os
import queue
import subprocess
import threading
import time

import pytest

from tests.support.serve import SCOREKEEPER, free_port, lines, stop

PUBLIC = "https://cards.example.org"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``scorekeeper serve`` with a public URL and one trusted proxy; yields its port.
    One server for the module: the tests only send it requests that change nothing."""
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    tmp_path = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env |= {"SCOREKEEPER_INSTANCE_PATH": str(tmp_path), "PYTHONUNBUFFERED": "1",
            "SCOREKEEPER_PUBLIC_URL": PUBLIC, "SCOREKEEPER_PROXIES": "1"}
    proc = subprocess.Popen([str(SCOREKEEPER), "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--threads", "2"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env, cwd=tmp_path)
    output: queue.Queue = queue.Queue()
    threading.Thread(target=lines, args=(proc.stdout, output), daemon=True).start()
    try:
        seen: list[str] = []
        deadline = time.monotonic() + 20
        while not any("running at" in line for line in seen) and time.monotonic() < deadline:
            try:
                line = output.get(timeout=0.5)
            except queue.Empty:
                continue
            assert line is not None, "serve exited early:\n" + "".join(seen)
            seen.append(line)
        assert f"running at {PUBLIC}/" in "".join(seen), "".join(seen)
        yield port
    finally:
        stop(proc)


def _ask(port: int, method: str, path: str, body: bytes | None = None, **headers: str):
    deadline = time.monotonic() + 10
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request(method, path, body=body, headers={"Host": "cards.example.org",
                                                           **headers})
            response = conn.getresponse()
            response.read()
            conn.close()
            return response
        except ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_behind_a_tls_proxy(served):
    proxied = _ask(served, "GET", "/", **{"X-Forwarded-Proto": "https",
                                          "X-Forwarded-For": "203.0.113.9"})
    assert proxied.status == 200
    assert "Secure" in proxied.getheader("Set-Cookie", "")
    assert proxied.getheader("Strict-Transport-Security")
    assert proxied.getheader("X-Frame-Options") == "DENY"
    assert _ask(served, "GET", "/", Host="evil.example").status == 400


def test_an_oversized_body_is_refused(served):
    big = b"[" + b"0," * (1024 * 1024) + b"0]"  # 2 MB, over every limit
    answer = _ask(served, "POST", "/api/v1/score", big, **{"Content-Type": "application/json"})
    assert answer.status == 413
