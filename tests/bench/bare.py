"""The yardstick of ``python -m tests.bench spectators``: a minimal Flask app whose live
URL answers as the app's does (``If-None-Match`` against the ETag, a 304 with the ETag
and ``Cache-Control``, else a few bytes of JSON), with nothing else in the way: no
database, no extensions, no middleware.

It runs on the same server as the app: under gunicorn as ``tests.bench.bare:app``; for
the embedded default, ``python -m tests.bench.bare serve --host H --port P --threads
N`` runs the checkout's own ``scorekeeper serve`` command (whatever server and settings
it uses) with every request handed to this app instead of Scorekeeper's.
"""

from __future__ import annotations

import sys

from flask import Flask, Response, jsonify, request

app = Flask(__name__)
VERSION = "m1v1"  # the one version this match ever has: every poll that names it is a 304


@app.get("/view/<token>/live")
def live(token: str) -> Response:
    """A 304 when the client holds :data:`VERSION`, else its summary."""
    if request.if_none_match.contains_weak(VERSION):
        response = Response(status=304)
    else:
        response = jsonify({"version": 1, "token": token})
    response.set_etag(VERSION, weak=True)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@app.get("/healthz")
def healthz() -> str:
    """What the bench waits for before it starts."""
    return "ok"


def serve(argv: list[str]) -> None:
    """``scorekeeper serve`` with its options, serving :data:`app`: the command and its
    server are the checkout's, only the WSGI application they call is swapped."""
    from scorekeeper import create_app

    host = create_app()
    host.wsgi_app = app.wsgi_app  # type: ignore[method-assign]
    with host.app_context():
        host.cli.commands["serve"].main(argv, prog_name="scorekeeper serve",
                                        standalone_mode=True)


if __name__ == "__main__":
    if sys.argv[1:2] != ["serve"]:
        raise SystemExit("usage: python -m tests.bench.bare serve [scorekeeper serve options]")
    serve(sys.argv[2:])
