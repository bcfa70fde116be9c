"""The server ``scorekeeper serve`` runs: cheroot (CherryPy's WSGI server, pure Python,
the same on Linux, macOS and Windows), speaking TLS with the standard library's ``ssl``.
What it is told:

* **Bodies**: the largest body the app accepts (``MAX_CONTENT_LENGTH``); a declared
  ``Content-Length`` over it is a 413 before the app runs. A chunked body is read by the
  app up to its own, smaller limit (``web/security.py``); cheroot stops one that declares
  a chunk past the largest limit, and :class:`BoundedInput` turns that into the same 413
  instead of an error page.
* **Connections**: phones keep a connection open between polls. Idle ones wait in
  cheroot's selector and hold no thread, so ``CONNECTIONS`` of them stay open while the
  threads (``--threads``) answer whichever one asks; a 304 carries no body and keeps its
  connection. Past ``CONNECTIONS`` a connection is answered and then closed, never refused.
* **TLS**: the handshake is made by the thread that reads the request
  (:class:`LateHandshake`), not by cheroot's one accepting thread.
* **Proxies**: cheroot passes ``X-Forwarded-*`` through as headers; nothing reads them
  unless ``SCOREKEEPER_PROXIES`` installs ``ProxyFix`` (``web/security.py``).

Beside HTTPS, :func:`authority_site` is what the plain-HTTP port serves: the app's
``/https`` page and the authority's certificate, nothing else.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cheroot import wsgi
from cheroot.errors import MaxSizeExceeded
from cheroot.server import HTTPConnection
from cheroot.ssl.builtin import BuiltinSSLAdapter
from werkzeug.exceptions import RequestEntityTooLarge

# Open connections kept, idle keep-alive ones included (Windows' select() stops at 512).
CONNECTIONS = 500
BACKLOG = 128  # connections waiting to be accepted (phones opening the page at once)
_SAID = b"This port speaks HTTPS: open the address with https:// in front.\n"
PLAIN_INTO_TLS = (b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(_SAID), _SAID))

AUTHORITY_PATHS = ("/https", "/https/ca.pem")  # what the plain-HTTP port beside HTTPS serves

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def make_server(app: WsgiApp, config: dict[str, Any], host: str, port: int, threads: int,
                tls: tuple[Path, Path] | None = None) -> wsgi.Server:
    """A cheroot server for ``app`` on ``host:port``, with TLS when ``tls`` is a
    certificate and its key."""
    server = wsgi.Server((host, port), _bounded_bodies(app), numthreads=threads,
                         request_queue_size=BACKLOG, server_name="scorekeeper")
    server.max_request_body_size = config["MAX_CONTENT_LENGTH"]
    server.keep_alive_conn_limit = CONNECTIONS
    _room_for_connections()
    if tls:
        server.ssl_adapter = LateHandshake(str(tls[0]), str(tls[1]))
        server.ConnectionClass = HandshakingConnection
    return server


def _room_for_connections() -> None:
    """Let the process hold ``CONNECTIONS`` sockets beside its files: macOS starts a
    program with 256 file descriptors (Linux 1,024). Raised up to the system's ceiling;
    Windows has no such limit (its ``select()`` is the bound, see ``CONNECTIONS``)."""
    try:
        import resource
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * CONNECTIONS
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (
            wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))


class LateHandshake(BuiltinSSLAdapter):
    """cheroot's TLS adapter, wrapping a new connection without shaking hands.

    cheroot shakes hands on its one accepting thread, so a client that opens a
    connection and sends nothing (a browser's spare connection, a phone dropping off the
    Wi-Fi) would hold every new connection for ``timeout`` seconds. Wrapped without the
    handshake, the connection waits in the selector like an idle one, and
    :class:`HandshakingConnection` shakes hands on a worker thread. The ``SSL_*``
    entries cheroot would add to the WSGI environment are left out: nothing reads them."""

    def wrap(self, sock: socket.socket) -> tuple[ssl.SSLSocket, dict[str, str]]:
        return self.context.wrap_socket(sock, server_side=True,
                                        do_handshake_on_connect=False), {}


class HandshakingConnection(HTTPConnection):
    """A TLS connection that completes its handshake before its first request. A client
    that refuses the certificate, or drops, is let go without a log line; plain HTTP
    sent to the HTTPS port gets a plain 400 saying so."""

    shaken = False

    def communicate(self) -> bool:
        if not self.shaken:
            try:
                self.socket.do_handshake()
            except ssl.SSLError as error:
                if "http request" in str(error).lower():
                    _send_plain(self.socket, PLAIN_INTO_TLS)
                return False
            except OSError:
                return False
            self.shaken = True
        return bool(super().communicate())


def _send_plain(sock: ssl.SSLSocket, data: bytes) -> None:
    """Write ``data`` on the socket under the TLS layer (the client speaks no TLS)."""
    with contextlib.suppress(OSError):
        socket.socket.sendall(sock, data)


class BoundedInput:
    """A chunked body as cheroot reads it, where a chunk past the server's limit is the
    app's 413 (cheroot raises a bare error there, which would be a 500)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> bytes:
        try:
            return self._stream.read(size if size >= 0 else None)
        except (MaxSizeExceeded, OSError) as error:
            if isinstance(error, MaxSizeExceeded) or "Too Large" in str(error):
                raise RequestEntityTooLarge("The request body is too large.") from None
            raise

    def readline(self, size: int = -1) -> bytes:
        return self._stream.readline(size if size >= 0 else None)

    def __iter__(self) -> Any:
        return iter(self._stream)


def _bounded_bodies(app: WsgiApp) -> WsgiApp:
    def bounded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            environ["wsgi.input"] = BoundedInput(environ["wsgi.input"])
        return app(environ, start_response)
    return bounded


def authority_site(app: WsgiApp) -> WsgiApp:
    """The plain-HTTP port beside HTTPS: the page that hands out the authority, its
    certificate and the page's static files; any other path is sent to that page."""
    def site(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path in AUTHORITY_PATHS or path.startswith("/static/"):
            return app(environ, start_response)
        start_response("302 Found", [("Location", AUTHORITY_PATHS[0]),
                                     ("Content-Length", "0")])
        return [b""]
    return site
