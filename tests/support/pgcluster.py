"""A throwaway PostgreSQL cluster for the test session (initdb and pg_ctl run as the
postgres user, on a free port).

``initdb`` refuses to run as root, so the cluster is made and started as the
``postgres`` user when the tests run as root. It listens on 127.0.0.1 on a free port,
with durability off for speed, and is removed when the session ends.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.serve import STARTED, free_port


def find_bin() -> Path | None:
    """The newest PostgreSQL server binaries on the machine, if any."""
    env = os.environ.get("SCOREKEEPER_PG_BIN")
    candidates = [env] if env else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


class Cluster:
    """Start with :meth:`start`, get URLs with :meth:`url`, end with :meth:`stop`."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="sk-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._as_postgres = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        cmd = list(args)
        if self._as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=STARTED + 60)

    def start(self) -> Cluster:
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "-A", "trust", "-E", "UTF8", "--no-sync")
        return self.serve()

    def serve(self) -> Cluster:
        """Start the server on the cluster's data (again, after :meth:`halt`)."""
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                "-c max_connections=200")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", opts,
                  "-l", str(self.root / "log"), "-w", "-t", str(int(STARTED)), "start")
        return self

    def halt(self) -> None:
        """Stop the server for real (connections are cut), keeping its data."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                  "stop")

    def processes(self) -> list[int]:
        """The postmaster and every process it started (backends, writers…)."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(stat[1]) == postmaster:
                    children.append(int(entry.name))
        return [postmaster, *children]

    def freeze(self, sig: int = signal.SIGSTOP) -> None:
        """Freeze the server (SIGSTOP to the postmaster and its processes): it keeps
        every socket open and answers nothing; :meth:`thaw` lets it go on."""
        for pid in self.processes():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def thaw(self) -> None:
        self.freeze(signal.SIGCONT)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        """Create a database and return its SQLAlchemy URL."""
        import psycopg

        deadline = time.monotonic() + STARTED  # the server may still be starting
        while True:
            try:
                conn = psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres "
                                       "dbname=postgres", autocommit=True)
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                      "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
