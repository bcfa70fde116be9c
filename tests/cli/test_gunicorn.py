"""gunicorn as the README runs it (``-c python:scorekeeper.gunicorn_config``), a real
process on loopback: a chunked body over the limit is a 413 (gunicorn passes chunked
bodies through to the app), and a master killed alone takes its workers with it, so a
restart on the same address succeeds at once."""

from __future__ import annotations

import contextlib
import os
import socket
import time

import pytest

from tests.support.cluster import BIN, FIGURES, AppHost, children, running, wait_for
from tests.support.serve import free_port

SCORE = (b'{"sheet": {"game": "crazy-eights", "options": {}}, "seats": ["Ann", "Bob"], '
         b'"out": "Ann", "blocked": false, "remaining": {"Ann": "", "Bob": "9c kh"}}')


def send(host: AppHost, request: bytes, chunks: tuple[bytes, ...] = ()) -> bytes:
    """Send ``request`` and, chunked, each of ``chunks``; the answer (head and body)."""
    with socket.create_connection((host.address, host.port), timeout=10) as conn:
        conn.sendall(request)
        with contextlib.suppress(OSError):  # a server may stop reading at the limit
            for chunk in chunks:
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            if chunks:
                conn.sendall(b"0\r\n\r\n")
        answer = b""
        with contextlib.suppress(OSError):
            while data := conn.recv(65536):
                answer += data
                if b"\r\n\r\n" in answer and answer.rstrip().endswith(b"}"):
                    break
        return answer


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """One host as the cluster test runs each (``tests/support/cluster.py``), on SQLite."""
    if not (BIN / "gunicorn").exists():
        pytest.skip("gunicorn is not installed (pip install '.[postgres]')")
    folder = tmp_path_factory.mktemp("gunicorn")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env |= {"SCOREKEEPER_INSTANCE_PATH": str(folder), "PYTHONUNBUFFERED": "1"}
    host = AppHost("127.0.0.1", free_port(), env, folder, "scorekeeper:create_app()", 2)
    host.start().wait()
    yield host
    host.stop()


CHUNKED = (b"POST /api/v1/score HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
           b"Transfer-Encoding: chunked\r\n\r\n")


PADDING = b" " * 65536  # white space before the JSON: still valid, only longer


@pytest.mark.parametrize(("padding", "status"), [
    (0, 200),  # the body alone, chunked
    (1, 413),  # 64 KiB of white space first: over the 64 KiB limit
    (800, 413),  # 50 MB
])
def test_a_chunked_body_over_the_limit_is_a_413(gunicorn, padding, status):
    answer = send(gunicorn, CHUNKED, (PADDING,) * padding + (SCORE,))
    assert answer.split(b" ", 2)[1] == str(status).encode(), answer[:300]
    if status == 413:
        assert b"larger than 65536 bytes" in answer


def test_a_master_killed_alone_takes_its_workers_and_restarts_at_once(gunicorn,
                                                                     record_property):
    """kill -9 of the master only (not its process group): its workers get SIGTERM from
    the kernel and leave, so the same command on the same address starts again."""
    # /healthz answers once one worker is up; on a busy machine the second comes later.
    wait_for(lambda: len(children(gunicorn.proc.pid)) == 2, "both workers")
    workers = gunicorn.kill_master()
    assert len(workers) == 2
    killed = time.monotonic()
    wait_for(lambda: not any(running(pid) for pid in workers), "the workers' exit")
    gone = time.monotonic() - killed
    gunicorn.start().wait()  # the same address: no "Connection in use"
    # About 0.1 s on a quiet machine; the figure is printed with the run's, not asserted:
    # the wait above is bounded generously, and the restart on the same address is the
    # behaviour this test holds.
    record_property(FIGURES, f"gunicorn master killed alone: its workers gone in {gone:.2f} s")
    assert "Connection in use" not in gunicorn.log.read_text()
