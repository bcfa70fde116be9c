"""``scorekeeper serve``: upgrade the database and serve the app on this machine, over
plain HTTP or HTTPS, printing the address (and a QR code) phones open.

The server itself (cheroot, with what it is told about bodies, connections and TLS) is
``cli/server.py``. ``--https`` serves a certificate this laptop signs with an authority
of its own (``cli/certificates.py``) and, on a second, plain-HTTP port, the page that
hands phones that authority (the app's ``/https`` page and its ``ca.pem``, nothing
else). ``--cert``/``--key`` serve a certificate the operator already has instead.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import ssl
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorekeeper import secret_key
from scorekeeper.cli import certificates

HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")


def upgrade_database() -> None:
    """Create or upgrade the database to the newest migration, and remember that an
    SQLite file was made (``store/database_file.py``: a lost one is then named, not
    replaced by an empty one).

    The migration run holds the database's upgrade lock (``store/upgrade_lock.py``), so
    hosts started together take turns and the later ones find nothing to do."""
    from flask_migrate import upgrade

    from scorekeeper.store import database_file

    upgrade()
    database_file.mark_created(current_app.config["SQLALCHEMY_DATABASE_URI"])


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def print_qr(url: str) -> None:
    """Show the address as a QR code in the terminal, for phones to scan."""
    import segno

    with contextlib.suppress(UnicodeEncodeError, OSError):  # a terminal that can't draw it
        segno.make(url, error="m").terminal(compact=True)


def laptop_names(host: str, extra: Iterable[str]) -> list[str]:
    """What phones may call this laptop: its network address, the address served on,
    the loopback, its host name (and ``.local``, the name mDNS answers to) and any
    names the operator gives (``table.lan``; one that is no host name stops the start)."""
    given = []
    for name in extra:
        if (usable := certificate_name(name)) is None:
            raise click.BadParameter(f"{name!r} is not a host name.", param_hint="--name")
        given.append(usable)
    hostname = socket.gethostname()
    found = [lan_address(), "127.0.0.1", "::1", "localhost", hostname]
    if "." not in hostname:
        found.append(hostname + ".local")
    if host not in ("0.0.0.0", "::", ""):
        found.insert(0, host)
    names = [certificate_name(name) for name in found]
    return list(dict.fromkeys([name for name in names if name] + given))


def certificate_name(name: str) -> str | None:
    """``name`` as a certificate names it (an address as it is, a host name in ASCII,
    lower case), or None when it is neither."""
    name = name.strip().lower().rstrip(".")
    if _is_address(name):
        return name
    try:
        ascii_name = name.encode("idna").decode("ascii")
    except UnicodeError:
        return None
    return ascii_name if HOST_NAME.fullmatch(ascii_name) else None


def operator_certificate(cert: Path | None, key: Path | None) -> tuple[Path, Path] | None:
    """The operator's certificate and key, checked before anything starts: one clear
    sentence (no traceback) when they are missing, unreadable or do not belong together."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise click.UsageError("--cert and --key go together: give the certificate and its key.")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(str(cert), str(key), password=_no_passphrase)
    except FileNotFoundError as missing:
        raise click.ClickException(f"No such file: {missing.filename}.") from None
    except (OSError, ssl.SSLError, ValueError) as error:
        raise click.ClickException(
            f"Cannot serve {cert} with {key}: they must be a PEM certificate and its "
            f"unencrypted private key ({getattr(error, 'reason', None) or error}).") from None
    return cert, key


def _no_passphrase() -> bytes:
    raise ValueError("the key asks for a passphrase")


def _url(scheme: str, host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{scheme}://{shown}:{port}"


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _where(host: str) -> str:
    return ("in a browser on this computer" if _loopback(host)
            else "on a phone on the same network")


def _listen(servers: list[Any]) -> None:
    """Bind every server's port before anything is printed: a printed address answers,
    and a port in use stops the start with one sentence."""
    for server in servers:
        try:
            server.prepare()
        except OSError as error:
            host, port = server.bind_addr[:2]
            raise click.ClickException(
                f"Cannot listen on {host}:{port}: {error.strerror or error}.") from None


def _run(servers: list[Any]) -> None:
    """Serve on every port until the process is stopped; the first in this thread."""
    for server in servers[1:]:
        threading.Thread(target=server.serve, daemon=True, name="scorekeeper-http").start()
    try:
        servers[0].serve()
    except KeyboardInterrupt:
        pass
    finally:
        for server in servers:
            server.stop()


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=int, help="Port to listen on.")
@click.option("--threads", default=8, show_default=True, type=int,
              help="Requests answered at once (open connections wait without one).")
@click.option("--https", "use_https", is_flag=True,
              help="Serve HTTPS with a certificate this laptop signs (its authority made "
                   "once in the instance folder).")
@click.option("--http-port", type=int, default=None,
              help="With --https: the plain-HTTP port of the page handing phones the "
                   "authority.  [default: --port + 1]")
@click.option("--name", "names", multiple=True, envvar="SCOREKEEPER_HTTPS_NAMES", show_envvar=True,
              help="With --https: another name phones open this laptop by (table.lan), "
                   "put in its certificate. Repeatable.")
@click.option("--cert", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Serve HTTPS with this certificate (PEM, chain included), e.g. mkcert's "
                   "or tailscale cert's.")
@click.option("--key", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="The private key of --cert (PEM, no passphrase).")
@with_appcontext
def serve(host: str, port: int, threads: int, use_https: bool, http_port: int | None,
          names: tuple[str, ...], cert: Path | None, key: Path | None) -> None:
    """Upgrade the database and serve the app with a production WSGI server, over plain
    HTTP, or HTTPS with --https (the laptop's own authority) or --cert and --key.

    With ``SCOREKEEPER_PUBLIC_URL`` set the address shown (and its QR code) is that URL;
    ``SCOREKEEPER_PROXIES`` = N makes the app trust N proxies' forwarded headers.
    """
    from scorekeeper.cli.server import authority_site, make_server
    from scorekeeper.store.database_file import start_fault

    fault = start_fault(current_app.config["SQLALCHEMY_DATABASE_URI"])
    if fault:  # one sentence naming the file and what is wrong, no traceback
        raise click.ClickException(f"Scorekeeper will not start: {fault}.")
    own = operator_certificate(cert, key)  # files and names checked before anything starts
    wanted = laptop_names(host, names) if use_https and not own else []
    upgrade_database()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    secret_key.check_at_start(app, command=True)  # like a server: refuses a wrong key
    notes: list[tuple[str, str]] = []
    if wanted:
        leaf = certificates.ensure(certificates.folder(app.instance_path), wanted)
        url, helper = _url("https", host, port), _url("http", host, http_port or port + 1)
        app.config.update(HTTPS_AUTHORITY=str(leaf.authority), HTTPS_URL=url + "/")
        servers = [make_server(app, app.config, host, port, threads,
                               (leaf.certificate, leaf.key)),
                   make_server(authority_site(app), app.config, host, http_port or port + 1, 2)]
        who = "A browser" if _loopback(host) else "A phone"
        notes += [(f"{who} that does not trust this laptop yet: open {helper}/ first to "
                   "add its certificate authority (steps there).", helper + "/"),
                  (f"Certificate ({'made now' if leaf.made else 'kept'}) for "
                   f"{', '.join(leaf.names)}, until {leaf.expires:%Y-%m-%d}; "
                   f"authority: {leaf.authority}", "")]
    else:
        url = (_url("https", _shown_name(own[0], host), port) if own
               else _url("http", host, port))
        servers = [make_server(app, app.config, host, port, threads, own)]
    _listen(servers)
    _announce(app, url, host, port, notes)
    _run(servers)


def _shown_name(cert: Path, host: str) -> str:
    """The name to show for an operator's certificate: its first DNS name (a phone
    checks the name), else the address served on."""
    from cryptography import x509

    certificate = x509.load_pem_x509_certificate(cert.read_bytes())
    dns = sorted(name for name in certificates.san_names(certificate)
                 if not _is_address(name) and not name.startswith("*"))
    return dns[0] if dns else host


def _announce(app: Flask, url: str, host: str, port: int,
              notes: list[tuple[str, str]]) -> None:
    """Print the address phones open, its QR code, and what else they need."""
    public = app.config.get("PUBLIC_URL") or ""
    if public:
        click.echo(f"Scorekeeper is running at {public}/ (port {port} here).")
        print_qr(public + "/")
    else:
        click.echo(f"Scorekeeper is running. Open {url}/ {_where(host)}.")
        print_qr(url + "/")
    for line, address in notes:
        click.echo(line)
        if address:
            print_qr(address)
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI']}")
    if app.config.get("PROXIES"):
        click.echo(f"Trusting the forwarded headers of {app.config['PROXIES']} proxy(ies).")
    sys.stdout.flush()
