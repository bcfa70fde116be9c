"""gunicorn's settings for a Scorekeeper host: ``gunicorn -c python:scorekeeper.gunicorn_config``.

A gunicorn master that dies at once (kill -9, the out-of-memory killer) leaves its
workers running with no parent: they keep the listening socket and serve on for as long
as connections keep them busy (a sync worker looks at its parent only between
requests), and a new master on the same address fails with "Connection in use". A
supervisor that kills the whole group (systemd's ``KillMode=control-group``, the
README's unit) ends them; with this file they also end themselves, whatever runs them:
each worker asks the kernel (Linux ``prctl(PR_SET_PDEATHSIG)``) for a SIGTERM the
moment its master dies, finishes the request in hand and exits, and the address is
free for the restart within a second or so.

Settings given on the command line still win over these.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from typing import Any

control_socket_disable = True  # gunicorn 27 would otherwise write a socket in $HOME
graceful_timeout = 10  # seconds a worker may finish its request on SIGTERM

PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def post_fork(server: Any, worker: Any) -> None:
    """In each new worker: SIGTERM when the master dies (Linux; elsewhere gunicorn's
    own check between requests, and the supervisor, remain)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        server.log.warning("worker %s cannot follow its master: prctl failed (errno %s)",
                           worker.pid, ctypes.get_errno())
    elif os.getppid() != worker.ppid:  # the master died between the fork and the prctl
        os.kill(os.getpid(), signal.SIGTERM)
