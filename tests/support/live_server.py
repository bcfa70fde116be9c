"""A live server for browser tests that can fail as a server at a card table does.

:class:`Server` serves the app on a fixed local port and can be stopped and started
again on it. Stopped, it is gone as a dead host's server is: the port refuses
connections, and the keep-alive connections it had open are cut (a threaded Werkzeug
server would otherwise go on answering them). It can also be made to fail in the other
ways a phone meets (:meth:`Server.fault`):

- ``stopped``: as above;
- ``silent``: the port accepts connections and never answers, as a laptop gone to
  sleep (the kernel completes the handshake for a listening socket nobody serves);
- ``locked``: the database's write lock held by another connection (SQLite's
  ``BEGIN IMMEDIATE``; PostgreSQL's ``LOCK TABLE`` on the hands), so a save waits its
  bounded time and the app answers 503 with ``Retry-After``;
- ``broken``: every save of a hand fails with an unexpected error (a 500), raised in
  the app by a hook this test server adds; the database is not touched.

``lose_next_answer`` stores the next hand sent (through the API or the hand form) and
cuts the connection instead of answering (its key goes in ``lost``), as a network that
drops the way back does. Pages are opened at ``url(host)``: ``127.0.0.1`` (a secure context) or
``table.lan`` (:data:`INSECURE_HOST`, mapped to the loopback by the browser, so the
page is not a secure context, as on a home Wi-Fi address).
"""

from __future__ import annotations

import contextlib
import re
import socket
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

from sqlalchemy import create_engine, text
from werkzeug.serving import make_server

from scorekeeper.store.models import Hand

SECURE_HOST = "127.0.0.1"
INSECURE_HOST = "table.lan"
# Chromium resolves the insecure host name to the loopback (tests/support/browser.py).
HOST_RULES = f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"
FAULTS = ("stopped", "silent", "locked", "broken")
_HAND_POST = re.compile(r"/api/v1/matches/\d+/hands|/groups/\d+/matches/\d+/hands/new")


class SaveFailed(RuntimeError):
    """The unexpected error the ``broken`` fault raises (the app answers it with a 500)."""


class Server:
    """The app on a fixed local port that can be stopped, silenced and started again."""

    def __init__(self, app) -> None:
        self.app, self.port = app, 0
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._silent: socket.socket | None = None
        self._lock: Any = None
        self._connections: set[socket.socket] = set()
        self.lose_next_answer = False
        self.lost: list[str] = []
        self.broken = False
        app.before_request(self._maybe_fail)

    def _maybe_fail(self) -> None:
        from flask import request

        if self.broken and request.method == "POST" and _HAND_POST.fullmatch(request.path):
            raise SaveFailed("the save failed (on purpose, in a test)")

    def _serve(self, environ, start_response):
        if not (self.lose_next_answer and environ["REQUEST_METHOD"] == "POST"
                and _HAND_POST.fullmatch(environ["PATH_INFO"])):
            return self.app(environ, start_response)
        self.lose_next_answer = False
        b"".join(self.app(environ, lambda status, headers, exc_info=None: None))
        self.lost.append(environ.get("HTTP_IDEMPOTENCY_KEY", "(in the form)"))
        environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
        raise ConnectionAbortedError("the answer was lost on the way back (on purpose)")

    def start(self) -> Server:
        self._server = server = make_server("127.0.0.1", self.port, self._serve, threaded=True)
        self.port = server.server_port
        accept = server.process_request

        def process_request(connection: socket.socket, address) -> None:
            self._connections.add(connection)
            accept(connection, address)

        server.process_request = process_request
        self._thread = threading.Thread(target=server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._server = None
        for connection in self._connections:
            with contextlib.suppress(OSError):  # closed already
                connection.shutdown(socket.SHUT_RDWR)
        self._connections.clear()

    def url(self, host: str = SECURE_HOST) -> str:
        return f"http://{host}:{self.port}"

    # ---- faults ----

    @contextlib.contextmanager
    def fault(self, kind: str) -> Iterator[None]:
        """The server fails in this way (:data:`FAULTS`) inside the block, and is itself
        again after it."""
        begin, end = {"stopped": (self.stop, self.start),
                      "silent": (self._go_silent, self._speak_again),
                      "locked": (self._hold_lock, self._release_lock),
                      "broken": (self._break, self._mend)}[kind]
        begin()
        try:
            yield
        finally:
            end()

    def _go_silent(self) -> None:
        self.stop()
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)  # accepted by the kernel, read by nobody
        self._silent = listener

    def _speak_again(self) -> None:
        if self._silent is not None:
            self._silent.close()  # the connections waiting on it are reset
            self._silent = None
        self.start()

    def _hold_lock(self) -> None:
        uri = self.app.config["SQLALCHEMY_DATABASE_URI"]
        if uri.startswith("sqlite:///"):
            held = sqlite3.connect(uri.removeprefix("sqlite:///"), isolation_level=None,
                                   check_same_thread=False)
            held.execute("BEGIN IMMEDIATE")
            self._lock = held
        else:
            engine = create_engine(uri)
            connection = engine.connect()
            connection.begin()
            connection.execute(text(f'LOCK TABLE "{Hand.__table__.name}" IN EXCLUSIVE MODE'))
            self._lock = (engine, connection)

    def _release_lock(self) -> None:
        if isinstance(self._lock, sqlite3.Connection):
            self._lock.execute("ROLLBACK")
            self._lock.close()
        elif self._lock is not None:
            engine, connection = self._lock
            connection.rollback()
            connection.close()
            engine.dispose()
        self._lock = None

    def _break(self) -> None:
        self.broken = True

    def _mend(self) -> None:
        self.broken = False
