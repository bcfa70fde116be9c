"""The cheroot server ``serve`` builds (``scorekeeper/cli/server.py``), without a process."""

from __future__ import annotations

import io

import pytest
from cheroot.errors import MaxSizeExceeded
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.cli.server import CONNECTIONS, BoundedInput, LateHandshake, make_server

resource = pytest.importorskip("resource")  # POSIX: what macOS's 256 descriptors need


def app(environ, start_response):
    start_response("204 No Content", [])
    return [b""]


def test_room_for_every_connection():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2 * CONNECTIONS:
        pytest.skip(f"this machine allows {hard} descriptors at most")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # as macOS starts a program
    try:
        server = make_server(app, {"MAX_CONTENT_LENGTH": 1024}, "127.0.0.1", 0, 2)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= 2 * CONNECTIONS
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert server.keep_alive_conn_limit == CONNECTIONS
    assert server.max_request_body_size == 1024
    assert server.ssl_adapter is None


def test_https_shakes_hands_on_the_worker(tmp_path):
    from scorekeeper.cli import certificates

    leaf = certificates.ensure(tmp_path, ["127.0.0.1"])
    server = make_server(app, {"MAX_CONTENT_LENGTH": 1024}, "127.0.0.1", 0, 2,
                         (leaf.certificate, leaf.key))
    assert isinstance(server.ssl_adapter, LateHandshake)


class TooLarge(io.BytesIO):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def read(self, size=None):
        raise self.error


@pytest.mark.parametrize("error", [MaxSizeExceeded("Request Entity Too Large", 10),
                                   OSError("Request Entity Too Large")])
def test_a_chunk_past_the_limit_is_the_apps_413(error):
    with pytest.raises(RequestEntityTooLarge):
        BoundedInput(TooLarge(error)).read(100)


def test_other_read_errors_stay_what_they_are():
    with pytest.raises(TimeoutError):
        BoundedInput(TooLarge(TimeoutError("timed out"))).read(100)
    assert BoundedInput(io.BytesIO(b"abc")).read() == b"abc"
