"""gunicorn's settings for a Scorekeeper host: ``gunicorn -c python:scorekeeper.gunicorn_config``.

A gunicorn master that dies at once (kill -9, the out-of-memory killer) leaves its
workers running with no parent: they keep the listening socket and serve on for as long
as connections keep them busy (a sync worker looks at its parent only between
requests), and a new master on the same address fails with "Connection in use". A
supervisor that kills the whole group (systemd's ``KillMode=control-group``, the
README's unit) ends them; with this file they also end themselves, whatever runs them:
each worker asks the kernel (Linux ``prctl(PR_SET_PDEATHSIG)``) for a SIGTERM the
moment its master dies, finishes the request in hand and exits, and the address is
free for the restart within a second or so. A worker that ends (so, or at any restart)
closes its listening sockets and leaves without Python's clean-up of its whole heap,
which with ``--preload`` copies every page the master shared and took seconds.

A phone's browser keeps its connection open between the scoreboard's live polls (every
few seconds) and sends the next poll on it. gunicorn's default ("sync") workers close
every connection after its answer, so each poll would also open a new one (a handshake,
and on HTTPS a TLS one, for every 304). Here each worker serves with threads
("gthread"): a connection waiting for its next request holds no thread, and one idle
for longer than :data:`keepalive` is closed.

Settings given on the command line still win over these.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import logging
import os
import signal
import sys
from typing import Any

control_socket_disable = True  # gunicorn 27 would otherwise write a socket in $HOME
graceful_timeout = 10  # seconds a worker may finish its request on SIGTERM
worker_class = "gthread"  # keep-alive connections, waiting without a thread each
threads = 4  # requests a worker answers at once (PostgreSQL connections it may hold)
keepalive = 20  # seconds an idle connection stays open: longer than a live poll's wait

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


def worker_exit(server: Any, worker: Any) -> None:
    """A worker leaving: free the address at once, and leave quickly.

    Its requests are done (the serving loop has ended); its database connections close
    with the process. A worker that never booted (the app failed to load), or that
    ends with a code, leaves the usual way, so the master still learns why.
    """
    for listener in worker.sockets:
        with contextlib.suppress(OSError):
            listener.close()
    pending = sys.exc_info()[1]  # the worker's exit on its way (gunicorn's sys.exit)
    clean = pending is None or (isinstance(pending, SystemExit) and pending.code in (0, None))
    if worker.booted and clean:
        logging.shutdown()  # flush the logs: nothing runs after os._exit
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
