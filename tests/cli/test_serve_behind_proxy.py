"""Hardening under the real server: ``scorekeeper serve`` (cheroot) behind a TLS proxy.

Was (under waitress): ``X-Forwarded-Proto`` ignored (cookies never Secure), any body
buffered (1 GB → 3.1 GB RSS), links built from whatever ``Host`` a client sent.
"""

from __future__ import annotations

import http.client
import socket
import time

import pytest

from tests.support.serve import SCOREKEEPER, Served, free_port, serve_env

PUBLIC = "https://cards.example.org"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``scorekeeper serve`` with a public URL and one trusted proxy; yields its port.
    One server for the module: the tests only send it requests that change nothing."""
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    tmp_path = tmp_path_factory.mktemp("serve")
    port = free_port()
    env = serve_env(tmp_path, SCOREKEEPER_PUBLIC_URL=PUBLIC, SCOREKEEPER_PROXIES="1")
    server = Served(["--host", "127.0.0.1", "--port", str(port), "--threads", "2"], env,
                    tmp_path)
    try:
        server.wait_for(f"running at {PUBLIC}/")
        yield port
    finally:
        server.stop()


def _ask(port: int, method: str, path: str, body: bytes | None = None, **headers: str):
    deadline = time.monotonic() + 60
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
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


@pytest.mark.parametrize(("path", "chunks"), [
    ("/api/v1/score", [100_000] * 20),  # past the JSON limit, read by the app
    ("/api/v1/import", [3_000_000]),  # one chunk past the largest limit: cheroot stops it
])
def test_an_oversized_chunked_body_is_refused(served, path, chunks):
    with socket.create_connection(("127.0.0.1", served), timeout=60) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nHost: cards.example.org\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     .encode())
        try:  # the server answers, and closes, before the body ends
            for size in chunks:
                conn.sendall(b"%x\r\n" % size + b"0" * size + b"\r\n")
            conn.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        assert conn.recv(64).startswith(b"HTTP/1.1 413 ")
