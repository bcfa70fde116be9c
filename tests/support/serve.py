"""Helpers for tests that run ``scorekeeper serve`` (or another server) as a real
process: the installed command, a free port, a reader that forwards its output, and
:class:`Served`, which starts ``serve`` and waits for what it prints.

Waits end on the event (a printed line, an answer); their bounds are generous because
the machine running the suite may be loaded: a start takes seconds when it is quiet and
a minute when it is not. ``serve`` binds its ports before it prints an address, so a
printed address answers.
"""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

SCOREKEEPER = Path(sys.executable).parent / "scorekeeper"
STARTED = 240.0  # seconds a start may take on a loaded machine (the wait ends when it prints)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lines(stream, sink: queue.Queue) -> None:
    """Put each line of ``stream`` on ``sink``, then ``None`` at its end (run in a thread)."""
    for line in iter(stream.readline, ""):
        sink.put(line)
    sink.put(None)


def stop(proc: subprocess.Popen) -> None:
    """End a server process: politely, then for good if it has not gone in 10 s."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def serve_env(instance: Path, **settings: str) -> dict[str, str]:
    """The environment of a ``serve`` under test: no ``SCOREKEEPER_*`` setting of the
    machine running the tests, its own instance folder, unbuffered output."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    return env | {"SCOREKEEPER_INSTANCE_PATH": str(instance), "PYTHONUNBUFFERED": "1",
                  **settings}


class Served:
    """``scorekeeper serve ARGS`` as a process; :meth:`wait_for` reads what it prints."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen([str(SCOREKEEPER), "serve", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, env=env, cwd=cwd)
        self.seen: list[str] = []
        self._output: queue.Queue = queue.Queue()
        threading.Thread(target=lines, args=(self.proc.stdout, self._output),
                         daemon=True).start()

    @property
    def printed(self) -> str:
        return "".join(self.seen)

    def wait_for(self, pattern: str, bound: float = STARTED) -> re.Match[str]:
        """The first printed line matching ``pattern``: waits for it (or the process's
        end, which fails with everything it printed)."""
        for line in self.seen:
            if found := re.search(pattern, line):
                return found
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            try:
                line = self._output.get(timeout=0.5)
            except queue.Empty:
                continue
            assert line is not None, f"serve ended before printing {pattern!r}:\n{self.printed}"
            self.seen.append(line)
            if found := re.search(pattern, line):
                return found
        raise AssertionError(f"serve printed no {pattern!r} in {bound:.0f} s:\n{self.printed}")

    def wait_for_end(self, bound: float = STARTED) -> int:
        """The exit code, once the process has ended and its output is read."""
        code = self.proc.wait(timeout=bound)
        while (line := self._output.get(timeout=bound)) is not None:
            self.seen.append(line)
        return code

    def stop(self) -> None:
        stop(self.proc)


def serve_https(instance: Path, name: str) -> tuple[Served, int, int]:
    """``serve --https`` on the loopback, ``name`` in its certificate, started and
    printed: the process, its HTTPS port and its plain-HTTP port."""
    port, plain = free_port(), free_port()
    instance.mkdir(parents=True, exist_ok=True)
    served = Served(["--https", "--host", "127.0.0.1", "--port", str(port), "--http-port",
                     str(plain), "--name", name], serve_env(instance), instance)
    try:
        served.wait_for(r"^Database: ")
    except BaseException:
        served.stop()
        raise
    return served, port, plain
