"""``scorekeeper serve --https`` as a real process: the laptop's own authority, HTTPS on
``--port``, the plain-HTTP page handing phones ``ca.pem`` on the port beside it; and
``--cert``/``--key``, an operator's certificate, refused in one sentence when unusable."""

from __future__ import annotations

import http.client
import socket
import ssl
import stat

import pytest

from scorekeeper.cli import certificates
from scorekeeper.cli.serve import certificate_name
from tests.support.serve import SCOREKEEPER, Served, free_port, serve_env, serve_https

ANSWER = 60  # seconds a request may take on a loaded machine
NAME = "table.lan"  # a name the laptop is known by, given with --name


@pytest.fixture(scope="module")
def https(tmp_path_factory):
    """``serve --https --name table.lan`` on the loopback: (instance, https port,
    plain port, the process)."""
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    instance = tmp_path_factory.mktemp("serve")
    served, port, plain = serve_https(instance, NAME)
    try:
        yield instance, port, plain, served
    finally:
        served.stop()


def trusting(authority) -> ssl.SSLContext:
    """A client that trusts only ``authority`` (as a phone that installed it)."""
    return ssl.create_default_context(cafile=str(authority))


def get_https(port: int, path: str, context: ssl.SSLContext, name: str = NAME):
    """GET ``path`` from the loopback as if ``name`` pointed there (the name is what the
    certificate is checked against)."""
    with (socket.create_connection(("127.0.0.1", port), timeout=ANSWER) as raw,
          context.wrap_socket(raw, server_hostname=name) as tls):
        tls.sendall(f"GET {path} HTTP/1.1\r\nHost: {name}:{port}\r\n"
                    "Connection: close\r\n\r\n".encode())
        response = http.client.HTTPResponse(tls)
        response.begin()
        return response, response.read()


def get_plain(port: int, path: str):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=ANSWER)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response, response.read()
    finally:
        conn.close()


def test_prints_the_https_address_and_the_page_beside_it(https):
    _, port, plain, served = https
    assert served.wait_for(r"Open (https://\S+/) ").group(1) == f"https://127.0.0.1:{port}/"
    assert f"open http://127.0.0.1:{plain}/ first" in served.printed
    made = served.wait_for(r"Certificate \(made now\) for (.*), until")
    assert NAME in made.group(1).split(", ") and "127.0.0.1" in made.group(1)
    assert "phone" not in served.printed  # the loopback is no address for a phone


def test_serves_https_to_a_phone_that_trusts_the_authority(https):
    instance, port, _, _ = https
    authority = certificates.folder(instance) / certificates.AUTHORITY
    for name in (NAME, "127.0.0.1", "localhost"):
        answer, _ = get_https(port, "/healthz", trusting(authority), name)
        assert answer.status == 200, name
    page, _ = get_https(port, "/", trusting(authority))
    assert page.status == 200 and page.getheader("Strict-Transport-Security")
    assert "Secure" in page.getheader("Set-Cookie", "")


def test_a_phone_that_does_not_trust_it_is_refused(https):
    _, port, _, _ = https
    with pytest.raises(ssl.SSLCertVerificationError):
        get_https(port, "/healthz", ssl.create_default_context())


def test_the_plain_port_hands_out_the_authority(https):
    instance, port, plain, _ = https
    authority = (certificates.folder(instance) / certificates.AUTHORITY).read_bytes()
    front, _ = get_plain(plain, "/")
    assert (front.status, front.getheader("Location")) == (302, "/https")
    page, html = get_plain(plain, "/https")
    assert page.status == 200
    assert b'href="/https/ca.pem"' in html and f"https://127.0.0.1:{port}/".encode() in html
    file, body = get_plain(plain, "/https/ca.pem")
    assert file.status == 200 and body == authority
    assert file.getheader("Content-Type") == "application/x-x509-ca-cert"
    app_page, _ = get_plain(plain, "/api/v1/openapi.json")
    assert app_page.status == 302  # the app itself is served over HTTPS only


def test_the_keys_are_the_owners_alone(https):
    folder = certificates.folder(https[0])
    for key in (certificates.AUTHORITY_KEY, certificates.LEAF_KEY):
        assert stat.S_IMODE((folder / key).stat().st_mode) == 0o600


def test_a_second_start_keeps_the_certificate(https):
    instance, _, _, _ = https
    again = Served(["--https", "--host", "127.0.0.1", "--port", str(free_port()),
                    "--http-port", str(free_port()), "--name", NAME], serve_env(instance),
                   instance)
    try:
        again.wait_for(r"Certificate \(kept\) for ")
    finally:
        again.stop()


def test_an_operators_certificate_is_served(tmp_path):
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    own = certificates.ensure(tmp_path / "mkcert", [NAME, "127.0.0.1"])  # as mkcert makes one
    port = free_port()
    served = Served(["--host", "127.0.0.1", "--port", str(port), "--cert",
                     str(own.certificate), "--key", str(own.key)], serve_env(tmp_path / "i"),
                    tmp_path)
    try:
        assert served.wait_for(r"Open (https://\S+/) ").group(1) == f"https://{NAME}:{port}/"
        answer, _ = get_https(port, "/healthz", trusting(own.authority))
        assert answer.status == 200
    finally:
        served.stop()


@pytest.mark.parametrize(("cert", "key", "says"), [
    ("missing.pem", "key.pem", "No such file: "),
    ("cert.pem", "other-key.pem", "Cannot serve "),
    ("garbage.pem", "key.pem", "Cannot serve "),
    ("cert.pem", None, "--cert and --key go together"),
])
def test_unusable_certificate_files_are_one_sentence(tmp_path, cert, key, says):
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    own = certificates.ensure(tmp_path / "own", [NAME])
    other = certificates.ensure(tmp_path / "other", [NAME])
    files = {"cert.pem": own.certificate, "key.pem": own.key, "other-key.pem": other.key,
             "missing.pem": tmp_path / "missing.pem", "garbage.pem": tmp_path / "garbage.pem"}
    files["garbage.pem"].write_text("not a certificate\n")
    args = ["--port", str(free_port()), "--cert", str(files[cert])]
    if key:
        args += ["--key", str(files[key])]
    refused = Served(args, serve_env(tmp_path / "instance"), tmp_path)
    assert refused.wait_for_end() != 0
    assert says in refused.printed and "Traceback" not in refused.printed
    assert not (tmp_path / "instance" / "scorekeeper.db").exists()  # nothing started


def test_a_silent_connection_holds_no_other(https):
    """A client that connects and says nothing (a browser's spare connection) waits on
    its own: the next phone is answered while it is still open. (cheroot shook hands on
    its accepting thread, so the next phone waited until the silent one timed out.)"""
    instance, port, _, _ = https
    authority = certificates.folder(instance) / certificates.AUTHORITY
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER) as silent:
        answer, _ = get_https(port, "/healthz", trusting(authority))
        assert answer.status == 200
        silent.setblocking(False)
        with pytest.raises(BlockingIOError):  # still open, nothing said either way
            silent.recv(1)


def test_plain_http_to_the_https_port_is_told_so(https):
    _, port, _, _ = https
    answer, body = get_plain(port, "/")
    assert answer.status == 400 and b"speaks HTTPS" in body


def test_a_name_that_is_no_host_name_is_one_sentence(tmp_path):
    if not SCOREKEEPER.exists():
        pytest.skip("the scorekeeper console script is not installed")
    refused = Served(["--https", "--port", str(free_port()), "--name", "table lan"],
                     serve_env(tmp_path / "instance"), tmp_path)
    assert refused.wait_for_end() != 0
    assert "'table lan' is not a host name." in refused.printed
    assert "Traceback" not in refused.printed
    assert not (tmp_path / "instance" / "https").exists()


@pytest.mark.parametrize(("given", "named"), [
    ("Table.LAN.", "table.lan"), ("kökö.lan", "xn--kk-fkab.lan"), ("192.168.1.20", "192.168.1.20"),
    ("::1", "::1"), ("table lan", None), ("a_b.lan", None), ("-a.lan", None), ("", None),
])
def test_certificate_names(given, named):
    assert certificate_name(given) == named
