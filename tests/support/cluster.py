"""A deployment on one machine, as an operator runs it: app hosts under gunicorn on their
own loopback addresses (127.0.0.2, .3, .4), nginx in front on 127.0.0.1 with the
README's server block (``tests/cluster/nginx.conf``), PostgreSQL and Redis. Used by the
cluster test and the cluster benchmark; everything listens on loopback only, on free
ports, with its files in one temporary folder removed at the end. For the benchmark's
spectators a deployment can also be the embedded default instead: ``scorekeeper serve``
(cheroot, one process) on SQLite, with no PostgreSQL, Redis or nginx.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.support import pgcluster
from tests.support.serve import STARTED

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "cluster" / "nginx.conf"
BIN = Path(sys.executable).parent
PUBLIC_HOST = "cards.example.org"
FIGURES = "cluster figures"  # the name under which the cluster test records its figures
SECRET = "one key shared by every host of the test deployment"
# Small limits, so the test reaches them in a few requests; group creation is open
# (every phone of the test comes from a handful of addresses).
HOST_CONFIG = ('RATELIMIT_BEARER_FAILURES = "6 per minute"\n'
               'RATELIMIT_JOINS = "200 per minute"\n'
               'RATELIMIT_GROUPS = "1000 per hour"\n')
SERVERS = ("gunicorn", "serve")  # gunicorn on PostgreSQL and Redis; scorekeeper serve on SQLite
SERVE_THREADS = 8  # scorekeeper serve's default, given explicitly so the figures can say it
APP = "scorekeeper:create_app()"  # what the hosts serve unless told otherwise


def missing_parts() -> list[str]:
    """What this machine lacks to run a deployment (empty when it has everything);
    ``scorekeeper serve`` on SQLite needs none of it."""
    missing = [name for name in ("nginx", "redis-server") if _which(name) is None]
    if pgcluster.find_bin() is None:
        missing.append("PostgreSQL server binaries")
    if not (BIN / "gunicorn").exists():
        missing.append("gunicorn (pip install '.[postgres]')")
    try:
        import redis  # noqa: F401
    except ImportError:
        missing.append("the Redis client (pip install '.[redis]')")
    return missing


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")


def free_port_on(*addresses: str) -> int:
    """A port free on every one of ``addresses`` (hosts share a port number)."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind((addresses[0], 0))
            port = probe.getsockname()[1]
        if all(_is_free(a, port) for a in addresses[1:]):
            return port
    raise RuntimeError(f"no common free port on {addresses}")


def _is_free(address: str, port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def wait_for(check, what: str, seconds: float = STARTED) -> None:
    """Call ``check()`` until it is true, else fail naming ``what``. The bound is
    generous (a start takes a minute on a loaded machine): the wait ends on the event."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if check():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not come up within {seconds:.0f} s")


def _answers(address: str, port: int, path: str) -> bool:
    import http.client

    conn = http.client.HTTPConnection(address, port, timeout=2)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    finally:
        conn.close()


class Redis:
    """A private redis-server on 127.0.0.1: no persistence, its own port."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port_on("127.0.0.1")
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [str(_which("redis-server")), "--bind", "127.0.0.1", "--port", str(self.port),
             "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self._pong, "redis-server")
        return self

    def _pong(self) -> bool:
        with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")

    def stop(self) -> None:
        _end(self.proc)
        self.proc = None


class AppHost:
    """One app host: gunicorn with its workers (or, with ``server="serve"``, ``scorekeeper
    serve`` with its threads), on its own loopback address, running the code of
    ``checkout`` (this one unless told). ``app`` other than :data:`APP` is served by
    gunicorn as named, or under ``serve`` by ``python -m MODULE serve`` (a bench's
    yardstick: ``tests/bench/bare.py``)."""

    def __init__(self, address: str, port: int, env: dict[str, str], folder: Path,
                 app: str, workers: int, checkout: Path = ROOT,
                 server: str = "gunicorn") -> None:
        self.address, self.port, self.env, self.folder = address, port, env, folder
        self.app, self.workers, self.checkout, self.server = app, workers, checkout, server
        self.proc: subprocess.Popen | None = None
        self.log = folder / "host.log"

    def start(self) -> AppHost:
        # The README's command: its settings file makes the workers follow their master.
        cmd = [str(BIN / "gunicorn"), "-c", "python:scorekeeper.gunicorn_config", "--preload",
               "-w", str(self.workers), "-b", f"{self.address}:{self.port}",
               "--graceful-timeout", "3", self.app]
        if self.server == "serve":  # the README's command for one machine (it upgrades too)
            # Another app than Scorekeeper's (a bench's yardstick) is served by the same
            # command from its own module: ``python -m MODULE serve …``.
            command = ([str(BIN / "scorekeeper")] if self.app == APP
                       else [sys.executable, "-m", self.app.split(":")[0]])
            cmd = [*command, "serve", "--host", self.address,
                   "--port", str(self.port), "--threads", str(SERVE_THREADS)]
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(cmd, env=self.env, cwd=self.checkout, stdout=log,
                                         stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def wait(self) -> None:
        """Until the host answers ``/healthz``; a host that ended fails at once."""
        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"the host on {self.address} ended (code "
                                   f"{self.proc.returncode}):\n{self.log.read_text()[-2000:]}")
            return _answers(self.address, self.port, "/healthz")

        wait_for(up, f"the host on {self.address}")

    def kill(self) -> None:
        """kill -9 of the host: gunicorn and every worker at once, mid-request."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None

    def kill_master(self) -> list[int]:
        """kill -9 of the gunicorn master alone (its workers are not signalled); returns
        the workers' pids."""
        assert self.proc is not None
        workers = children(self.proc.pid)
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.proc = None
        return workers

    def stop(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None

    def cpu_seconds(self) -> float:
        """CPU time used so far by the host's processes (gunicorn and its workers)."""
        if self.proc is None:
            return 0.0
        return sum(_cpu_of(pid) for pid in _group_pids(self.proc.pid))


def _group_pids(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if os.getpgid(int(entry.name)) == pgid:
                    pids.append(int(entry.name))
    return pids


def children(parent: int) -> list[int]:
    """The pids of ``parent``'s child processes (a gunicorn master's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int(_stat(int(entry.name))[1]) == parent:
                    found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (neither gone nor a zombie)."""
    try:
        return _stat(pid)[0] != "Z"
    except (OSError, IndexError):
        return False


def _stat(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (state, ppid, …)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu_of(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu(parent: int) -> float:
    """CPU seconds of ``parent`` and its direct children (PostgreSQL's backends)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int(entry.name) == parent or int(_stat(int(entry.name))[1]) == parent:
                    total += _cpu_of(int(entry.name))
    return total


def server_block(proxy_port: int, addresses: list[str], host_port: int) -> str:
    """The README's sample block, with this machine's loopback addresses and ports."""
    text = SAMPLE.read_text()
    sample_servers = [f"    server 10.0.0.{n}:8000;\n" for n in (2, 3, 4)]
    for line in [*sample_servers, "    listen 80;\n"]:
        assert line in text, f"the sample server block lost {line.strip()!r}"
    ours = "".join(f"    server {a}:{host_port};\n" for a in addresses)
    text = text.replace("".join(sample_servers), ours)
    return text.replace("    listen 80;\n", f"    listen 127.0.0.1:{proxy_port};\n")


class Proxy:
    """nginx in the foreground with the sample block, its files in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port_on("127.0.0.1")
        self.proc: subprocess.Popen | None = None

    def start(self, addresses: list[str], host_port: int) -> Proxy:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "scorekeeper.conf").write_text(
            server_block(self.port, addresses, host_port))
        temp = "".join(f"    {kind}_temp_path {self.folder / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (self.folder / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} warn;\n"
            + ("user root;\n" if os.geteuid() == 0 else "")
            + "events { worker_connections 1024; }\n"
            f"http {{\n    access_log off;\n{temp}"
            f"    include {self.folder / 'scorekeeper.conf'};\n}}\n")
        self.proc = subprocess.Popen(
            [str(_which("nginx")), "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: not _is_free("127.0.0.1", self.port), "nginx")
        return self

    def stop(self) -> None:
        _end(self.proc, signal.SIGQUIT)
        self.proc = None


def _end(proc: subprocess.Popen | None, sig: int = signal.SIGTERM) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Deployment:
    """PostgreSQL, Redis, ``hosts`` app hosts and nginx; ``with Deployment() as d:``.
    With ``server="serve"``: ``hosts`` (one) ``scorekeeper serve`` on a SQLite file in its
    instance folder, and nothing else (no proxy in front, rate limits in its memory)."""

    ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4")

    def __init__(self, hosts: int = 3, workers: int = 2,
                 app: str = APP, checkout: Path = ROOT,
                 server: str = "gunicorn") -> None:
        """``checkout``: the code the hosts run (and the release step), for a benchmark's
        "before"; another checkout is only read (no bytecode is written into it)."""
        assert server in SERVERS, server
        self.server = server
        self.root = Path(tempfile.mkdtemp(prefix="sk-cluster-"))
        self.checkout = checkout.resolve()
        self.addresses = list(self.ADDRESSES[:hosts])
        self.host_port = free_port_on(*self.addresses)
        self.workers, self.app = workers, app
        self.pg: pgcluster.Cluster | None = None
        self.redis = Redis(self.root / "redis")
        self.proxy = Proxy(self.root / "nginx")
        self.hosts: list[AppHost] = []
        self.database_url = ""
        self.upgrades: list[subprocess.CompletedProcess] = []  # the last release step

    def __enter__(self) -> Deployment:
        try:
            if self.server == "gunicorn":
                bindir = pgcluster.find_bin()
                assert bindir is not None
                self.pg = pgcluster.Cluster(bindir).start()
                self.database_url = self.pg.create_database("scorekeeper")
                self.redis.start()
            (self.root / "static-cache").mkdir()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *_exc: object) -> None:
        self.proxy.stop()
        for host in self.hosts:
            host.stop()
        self.redis.stop()
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    def env(self, name: str) -> dict[str, str]:
        """A host's environment: the shared settings and its own instance folder."""
        instance = self.root / name
        if not instance.exists():
            instance.mkdir()
            (instance / "static-cache").symlink_to(self.root / "static-cache")
            (instance / "config.py").write_text(HOST_CONFIG)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
        # The checkout's package before the venv's (whose editable install may be another
        # checkout): the release step and ``scorekeeper serve`` are the venv's scripts,
        # whose path starts at their own folder, not at the working directory.
        env["PYTHONPATH"] = str(self.checkout)
        if self.checkout != ROOT:  # only read
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        env |= {
            "SCOREKEEPER_INSTANCE_PATH": str(instance),
            "SCOREKEEPER_SECRET_KEY": SECRET,
            "SCOREKEEPER_PUBLIC_URL": f"http://{PUBLIC_HOST}",
            "PYTHONUNBUFFERED": "1",
        }
        if self.server == "serve":  # the default database: a SQLite file in the instance
            return env
        return env | {
            "SCOREKEEPER_DATABASE_URL": self.database_url,
            "SCOREKEEPER_RATELIMIT_STORAGE": self.redis.url,
            "SCOREKEEPER_PROXIES": "1",
        }

    def upgrade(self, at_once: int) -> list[subprocess.CompletedProcess]:
        """The release step (``scorekeeper db upgrade``) run by ``at_once`` hosts at once."""
        runs = [subprocess.Popen([str(BIN / "scorekeeper"), "db", "upgrade"],
                                 env=self.env(f"host{n}"), cwd=self.root, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                for n in range(at_once)]
        outputs = [r.communicate(timeout=180)[0] for r in runs]
        self.upgrades = [subprocess.CompletedProcess(r.args, r.returncode, out)
                         for r, out in zip(runs, outputs, strict=True)]
        return self.upgrades

    def start_hosts(self) -> None:
        """Start every app host, then nginx in front of them (none before ``serve``)."""
        self.hosts = [AppHost(a, self.host_port, self.env(f"host{n}"), self.root / f"host{n}",
                              self.app, self.workers, self.checkout, self.server).start()
                      for n, a in enumerate(self.addresses)]
        for host in self.hosts:
            host.wait()
        if self.server == "gunicorn":
            self.proxy.start(self.addresses, self.host_port)

    def host_cpu(self) -> float:
        """CPU seconds used so far by every app host."""
        return sum(h.cpu_seconds() for h in self.hosts)

    def database_cpu(self) -> float:
        """CPU seconds used so far by PostgreSQL: the postmaster and its backends (0 for
        SQLite, which runs inside the host's process)."""
        if self.pg is None:
            return 0.0
        postmaster = int((self.pg.data / "postmaster.pid").read_text().split()[0])
        return _children_cpu(postmaster)
