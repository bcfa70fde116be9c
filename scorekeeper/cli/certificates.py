"""Certificates for ``scorekeeper serve --https``: a small certificate authority of the
table's own, and a certificate for this laptop that it signs.

A phone trusts the authority once (its certificate, ``ca.pem``, handed out by the plain-
HTTP page ``serve`` prints); from then on every certificate the laptop makes for itself
is trusted too, whatever address the Wi-Fi gives it. Both live in ``<instance>/https/``:

* ``ca.pem`` and ``ca-key.pem``: the authority, made once and kept ten years. Its key is
  readable by the owner only (0600) and never leaves the laptop.
* ``server.pem`` and ``server-key.pem``: the laptop's certificate, naming its addresses
  and host names (SubjectAlternativeName), valid 397 days (browsers refuse more than
  398). It is made again at start when it is missing or unreadable, when it has fewer
  than 30 days left, when the names asked for differ from those it carries, or when the
  authority that signed it is no longer the one in the folder.

Keys are ECDSA P-256, which every phone browser of the last years accepts.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

AUTHORITY_LIFE = dt.timedelta(days=3650)
LEAF_LIFE = dt.timedelta(days=397)  # at most 398: what browsers accept for a server
RENEW_BEFORE = dt.timedelta(days=30)
BACKDATE = dt.timedelta(hours=1)  # a phone whose clock runs a little behind still accepts

AUTHORITY = "ca.pem"
AUTHORITY_KEY = "ca-key.pem"
LEAF = "server.pem"
LEAF_KEY = "server-key.pem"

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class Leaf:
    """The laptop's certificate as ``serve`` uses it: files, names, end, and whether
    this start made it."""

    certificate: Path
    key: Path
    authority: Path
    names: tuple[str, ...]
    expires: dt.datetime
    made: bool


def folder(instance_path: str | Path) -> Path:
    """Where an instance keeps its authority and certificate."""
    return Path(instance_path) / "https"


def ensure(where: Path, names: Iterable[str], now: dt.datetime | None = None) -> Leaf:
    """The authority (made once) and a current certificate for ``names`` (IP addresses
    and DNS names, in any order), made again when it no longer fits."""
    now = now or dt.datetime.now(dt.UTC)
    wanted = tuple(dict.fromkeys(names))
    where.mkdir(mode=0o700, parents=True, exist_ok=True)
    authority, authority_key = _authority(where, now)
    leaf = _load_certificate(where / LEAF)
    key = _load_key(where / LEAF_KEY)
    made = (leaf is None or key is None or leaf.public_key() != key.public_key()
            or not _fits(leaf, authority, wanted, now))
    if leaf is None or made:
        leaf = _make_leaf(where, authority, authority_key, wanted, now)
    return Leaf(where / LEAF, where / LEAF_KEY, where / AUTHORITY, wanted,
                leaf.not_valid_after_utc, made)


def san_names(certificate: x509.Certificate) -> set[str]:
    """The IP addresses and DNS names a certificate is for, as text."""
    try:
        san = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return set()
    return ({str(ip) for ip in san.value.get_values_for_type(x509.IPAddress)}
            | set(san.value.get_values_for_type(x509.DNSName)))


Authority = tuple[x509.Certificate, ec.EllipticCurvePrivateKey]


def _authority(where: Path, now: dt.datetime) -> Authority:
    """The folder's authority, or a new one when it is missing, unreadable or near its end."""
    certificate = _load_certificate(where / AUTHORITY)
    key = _load_key(where / AUTHORITY_KEY)
    if (certificate is not None and key is not None
            and certificate.public_key() == key.public_key()
            and certificate.not_valid_after_utc - now > RENEW_BEFORE):
        return certificate, key
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Scorekeeper"),
        x509.NameAttribute(NameOID.COMMON_NAME,
                           f"Scorekeeper on {socket.gethostname()} {now:%Y-%m-%d}"),
    ])
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE).not_valid_after(now + AUTHORITY_LIFE)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(signs_certificates=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
        .sign(key, hashes.SHA256())
    )
    _write(where / AUTHORITY_KEY, _key_bytes(key), private=True)
    _write(where / AUTHORITY, certificate.public_bytes(serialization.Encoding.PEM))
    return certificate, key


def _make_leaf(where: Path, authority: x509.Certificate,
               authority_key: ec.EllipticCurvePrivateKey, names: tuple[str, ...],
               now: dt.datetime) -> x509.Certificate:
    """A new certificate for ``names``, signed by the authority, written with its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
        .issuer_name(authority.subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE).not_valid_after(now + LEAF_LIFE)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(signs_certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                       critical=False)
        .add_extension(x509.SubjectAlternativeName([_general_name(n) for n in names]),
                       critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()),
                       critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
            authority_key.public_key()), critical=False)
        .sign(authority_key, hashes.SHA256())
    )
    _write(where / LEAF_KEY, _key_bytes(key), private=True)
    _write(where / LEAF, certificate.public_bytes(serialization.Encoding.PEM))
    return certificate


def _fits(leaf: x509.Certificate, authority: x509.Certificate,
          names: tuple[str, ...], now: dt.datetime) -> bool:
    """Whether the stored certificate still serves: this authority's, these names,
    not near its end."""
    if leaf.not_valid_after_utc - now <= RENEW_BEFORE:
        return False
    try:
        leaf.verify_directly_issued_by(authority)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return san_names(leaf) == {_canonical(n) for n in names}


def _general_name(name: str) -> x509.GeneralName:
    """An IP address entry for an address, a DNS entry for anything else."""
    try:
        return x509.IPAddress(ipaddress.ip_address(name))
    except ValueError:
        return x509.DNSName(name)


def _canonical(name: str) -> str:
    """A name as :func:`san_names` reads it back (addresses in their short form)."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        return name


def _key_usage(*, signs_certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True, content_commitment=False, key_encipherment=False,
        data_encipherment=False, key_agreement=False, key_cert_sign=signs_certificates,
        crl_sign=signs_certificates, encipher_only=False, decipher_only=False)


def _key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _load_certificate(path: Path) -> x509.Certificate | None:
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError):
        return None


def _load_key(path: Path) -> ec.EllipticCurvePrivateKey | None:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return None
    return key if isinstance(key, ec.EllipticCurvePrivateKey) else None


def _write(path: Path, data: bytes, *, private: bool = False) -> None:
    """Write a file whole (a temporary file renamed into place); keys 0600 from the start."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(temporary, path)
