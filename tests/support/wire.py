"""Bytes on the wire: a WSGI wrapper that notes the size of every answer as it leaves
the server (status line, headers and body), so whatever a page or its service worker
fetches counts. Shared by the page-weight test and ``python -m tests.bench browser``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# What Werkzeug adds to every answer: its Server and Date headers and the blank line.
_HTTP_EXTRA = len("Server: Werkzeug/3.1.3 Python/3.11.2\r\n"
                  "Date: Tue, 01 Dec 2026 00:00:00 GMT\r\n\r\n")


@dataclass
class Answer:
    """One response as it left the server."""

    started: float  # time.time() when the request arrived (the browser's clock too)
    method: str
    path: str
    kind: str  # Sec-Fetch-Dest: document, style, script, serviceworker, empty (a fetch()) …
    status: int
    size: int  # status line, headers and body


class Wire:
    """WSGI wrapper that notes the size of every answer (HTTP framing aside)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app, self._lock = app, threading.Lock()
        self.answers: list[Answer] = []
        self._answering = 0  # requests whose answers are still being sent

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        started = time.time()
        with self._lock:
            self._answering += 1
        head: dict[str, Any] = {}

        def counting_start(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            head["status"] = status
            head["size"] = (len(f"HTTP/1.1 {status}\r\n") + _HTTP_EXTRA
                            + sum(len(f"{k}: {v}\r\n") for k, v in headers))
            return start_response(status, headers, *rest)

        body = 0
        try:
            for chunk in self.app(environ, counting_start):
                body += len(chunk)
                yield chunk
        finally:
            with self._lock:
                self._answering -= 1
                self.answers.append(Answer(
                    started, environ["REQUEST_METHOD"], environ.get("PATH_INFO", ""),
                    environ.get("HTTP_SEC_FETCH_DEST", "?"),
                    int(str(head.get("status", "0")).split()[0]), head.get("size", 0) + body))

    def since(self, start: float, until: float = float("inf")) -> list[Answer]:
        """The answers to requests that arrived in [start, until)."""
        with self._lock:
            return [a for a in self.answers if start <= a.started < until]

    def quiet(self, seconds: float = 1.0, limit: float = 20.0) -> None:
        """Wait until no request is being answered and none has arrived for ``seconds``
        (at most ``limit``). An answer is noted once its server thread has sent it all,
        which on a busy machine can come after the browser has already used it."""
        end = time.time() + limit
        while time.time() < end:
            with self._lock:
                busy = self._answering > 0
                last = max((a.started for a in self.answers), default=0.0)
            if not busy and time.time() - last >= seconds:
                return
            time.sleep(0.1)


def to_load(answers: list[Answer], loaded: float) -> list[Answer]:
    """The answers a page needed to load: requests that arrived before its load event
    (``loaded``, seconds since the epoch) and the favicon, asked for around then."""
    return [a for a in answers if a.started < loaded or (a.kind == "image"
                                                           and a.path.endswith(".svg"))]
