"""A browser that trusts a certificate authority, as a phone that installed it: Chromium
on Linux trusts, beside the system's, the authorities in the NSS database under
``$HOME/.pki/nssdb``; a throwaway HOME with its own database (made by ``certutil``, from
Debian's ``libnss3-tools``) keeps the trust to one browser process."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CERTUTIL = shutil.which("certutil")


def require_certutil() -> None:
    if CERTUTIL:
        return
    if os.environ.get("CI"):
        pytest.fail("certutil is missing: apt-get install -y libnss3-tools")
    pytest.skip("certutil not found (apt-get install -y libnss3-tools)")


def nss_home(home: Path, authority: Path | None = None) -> Path:
    """``home`` with an empty NSS database, holding ``authority`` trusted for sites when
    one is given; pass it to the browser as ``HOME``."""
    require_certutil()
    assert CERTUTIL is not None
    database = home / ".pki" / "nssdb"
    database.mkdir(parents=True)
    subprocess.run([CERTUTIL, "-d", f"sql:{database}", "-N", "--empty-password"],
                   check=True, capture_output=True, timeout=120)
    if authority is not None:
        subprocess.run([CERTUTIL, "-d", f"sql:{database}", "-A", "-t", "C,,",
                        "-n", "Scorekeeper test authority", "-i", str(authority)],
                       check=True, capture_output=True, timeout=120)
    return home
