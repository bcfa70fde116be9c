"""``scorekeeper serve`` (cheroot) holding spectators' phones: hundreds of keep-alive
connections at once, a 304 that keeps its connection, and forwarded headers ignored
when no proxy is trusted.

Was (under waitress): the 101st open connection got no answer until another closed,
and every 304 closed its connection (no ``Content-Length``, so ``Connection: close``).
"""

from __future__ import annotations

import http.client

import pytest

from tests.support.serve import SCOREKEEPER, Served, free_port, serve_env

PHONES = 300  # open connections held at once, well past waitress's 100
ANSWER = 60  # seconds a request may take on a loaded machine


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    """A plain ``serve`` on the loopback, no proxy trusted; its port."""
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    tmp_path = tmp_path_factory.mktemp("serve")
    port = free_port()
    served = Served(["--host", "127.0.0.1", "--port", str(port)], serve_env(tmp_path),
                    tmp_path)
    try:
        served.wait_for(r"Open http://")
        yield port
    finally:
        served.stop()


def _get(conn: http.client.HTTPConnection, path: str, **headers: str):
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    return response


def test_hundreds_of_phones_keep_their_connections(port):
    phones = [http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER)
              for _ in range(PHONES)]
    try:
        for phone in phones:
            phone.connect()  # every connection open before the first request
        for _ in range(2):  # two rounds of polls, each phone on its own connection
            for phone in phones:
                answer = _get(phone, "/healthz")
                assert answer.status == 200
                assert answer.getheader("Connection") != "close"
    finally:
        for phone in phones:
            phone.close()


def test_a_304_keeps_its_connection(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER)
    try:
        first = _get(conn, "/sw.js")
        unchanged = _get(conn, "/sw.js", **{"If-None-Match": first.getheader("ETag")})
        assert unchanged.status == 304
        assert unchanged.getheader("Connection") != "close"
        assert _get(conn, "/healthz").status == 200  # the same connection, still open
    finally:
        conn.close()


def test_forwarded_headers_are_ignored_without_a_trusted_proxy(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER)
    try:
        forged = _get(conn, "/", **{"X-Forwarded-Proto": "https",
                                    "X-Forwarded-For": "203.0.113.9",
                                    "X-Forwarded-Host": "evil.example"})
    finally:
        conn.close()
    assert forged.status == 200
    assert forged.getheader("Strict-Transport-Security") is None
    assert "Secure" not in (forged.getheader("Set-Cookie") or "")
