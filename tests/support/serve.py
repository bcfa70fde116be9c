"""Helpers for tests that run ``scorekeeper serve`` (or another server) as a real
process: the installed command, a free port, and a reader that forwards its output."""

from __future__ import annotations

import queue
import socket
import subprocess
import sys
from pathlib import Path

SCOREKEEPER = Path(sys.executable).parent / "scorekeeper"


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
