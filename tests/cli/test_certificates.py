"""The laptop's certificate authority and certificate (``scorekeeper/cli/certificates.py``):
made once, reused, made again when near their end or when the names change."""

from __future__ import annotations

import datetime as dt
import ipaddress
import stat

import pytest
from cryptography import x509

from scorekeeper.cli import certificates
from scorekeeper.cli.certificates import AUTHORITY, AUTHORITY_KEY, LEAF, LEAF_KEY, ensure

NAMES = ["192.168.1.20", "127.0.0.1", "::1", "localhost", "laptop.local", "table.lan"]
NOW = dt.datetime(2026, 12, 6, 12, tzinfo=dt.UTC)


def load(path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


@pytest.fixture
def where(tmp_path):
    return certificates.folder(tmp_path)


def test_made_once_then_reused(where):
    first = ensure(where, NAMES, NOW)
    files = {name: (where / name).read_bytes() for name in (AUTHORITY, AUTHORITY_KEY,
                                                            LEAF, LEAF_KEY)}
    again = ensure(where, NAMES, NOW + dt.timedelta(days=100))
    assert first.made and not again.made
    assert {name: (where / name).read_bytes() for name in files} == files
    assert again.certificate == where / LEAF and again.authority == where / AUTHORITY


def test_keys_are_the_owners_alone(where):
    ensure(where, NAMES, NOW)
    for key in (AUTHORITY_KEY, LEAF_KEY):
        assert stat.S_IMODE((where / key).stat().st_mode) == 0o600, key
    assert stat.S_IMODE(where.stat().st_mode) == 0o700


def test_the_certificate_names_every_address_and_name(where):
    ensure(where, NAMES, NOW)
    san = load(where / LEAF).extensions.get_extension_for_class(
        x509.SubjectAlternativeName).value
    assert set(san.get_values_for_type(x509.IPAddress)) == {
        ipaddress.ip_address("192.168.1.20"), ipaddress.ip_address("127.0.0.1"),
        ipaddress.ip_address("::1")}
    assert set(san.get_values_for_type(x509.DNSName)) == {"localhost", "laptop.local",
                                                          "table.lan"}


def test_the_certificate_is_a_server_one_the_authority_signed(where):
    made = ensure(where, NAMES, NOW)
    authority, leaf = load(where / AUTHORITY), load(where / LEAF)
    leaf.verify_directly_issued_by(authority)
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    usage = leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert x509.oid.ExtendedKeyUsageOID.SERVER_AUTH in usage
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= dt.timedelta(days=398)
    assert made.expires == leaf.not_valid_after_utc


def test_renewed_near_its_end_under_the_same_authority(where):
    first = ensure(where, NAMES, NOW)
    authority = (where / AUTHORITY).read_bytes()
    near_end = first.expires - certificates.RENEW_BEFORE + dt.timedelta(hours=1)
    renewed = ensure(where, NAMES, near_end)
    assert renewed.made and renewed.expires > first.expires
    assert (where / AUTHORITY).read_bytes() == authority  # phones keep trusting it


@pytest.mark.parametrize("names", [
    ["192.168.1.31", "127.0.0.1", "::1", "localhost", "laptop.local", "table.lan"],  # moved
    [*NAMES, "cards.lan"],  # a name added
])
def test_renewed_when_the_names_change(where, names):
    ensure(where, NAMES, NOW)
    authority = (where / AUTHORITY).read_bytes()
    renewed = ensure(where, names, NOW)
    assert renewed.made
    assert certificates.san_names(load(where / LEAF)) == set(names)
    assert (where / AUTHORITY).read_bytes() == authority


def test_a_lost_authority_is_made_again_and_the_certificate_with_it(where):
    ensure(where, NAMES, NOW)
    (where / AUTHORITY_KEY).unlink()
    again = ensure(where, NAMES, NOW)
    assert again.made
    load(where / LEAF).verify_directly_issued_by(load(where / AUTHORITY))


def test_a_damaged_certificate_is_made_again(where):
    ensure(where, NAMES, NOW)
    (where / LEAF).write_text("not a certificate")
    assert ensure(where, NAMES, NOW).made
    load(where / LEAF).verify_directly_issued_by(load(where / AUTHORITY))
