"""The static files' fingerprints and WhiteNoise's file records made once per test
process, not once per app.

Every app the tests make runs ``scorekeeper.web.assets.register``: it reads, minifies
and hashes every file of ``static/`` (``build_cache``), then WhiteNoise stats each file
of ``static/`` and of the cache and builds a record of its headers and compressed
variants. The files do not change during a run, so a process keeps:

- ``build_cache``'s answer per (static folder with each file's size and time, cache
  folder), used again only while every fingerprinted file it names is still in that
  cache (an edited file, an emptied cache or a new one gets a real build);
- WhiteNoise's ``StaticFile`` per (real path, headers, and the size, time and inode of the
  file and of its compressed variants): a changed file, or other headers, makes a new one.

Both, for one app's two static folders: 2.6 ms of CPU before, 0.6 ms after (100 apps
each way, twice, alternated), about 5 CPU-seconds of a whole run. Only the tests do
this; a server process makes one app.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import whitenoise.base
from whitenoise.responders import StaticFile

from scorekeeper.web import assets

__all__ = ["share_static_files"]

_names: dict[tuple[Any, ...], dict[str, str]] = {}
_records: dict[tuple[Any, ...], StaticFile] = {}


def _build_cache_once(build):
    def build_cache(static: Path, cache: Path) -> dict[str, str]:
        files = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns)
                       for p in static.glob("*") if p.is_file())
        key = (static.resolve(), tuple(files), cache.resolve())
        names = _names.get(key)
        if names is None or not all((cache / hashed).is_file() for hashed in names.values()):
            names = _names[key] = build(static, cache)
        return dict(names)

    build_cache.shared = True  # type: ignore[attr-defined]
    return build_cache


def _stat_key(stat_cache: dict[str, os.stat_result], path: str) -> tuple[int, int, int] | None:
    found = stat_cache.get(path)
    return None if found is None else (found.st_size, found.st_mtime_ns, found.st_ino)


def _static_file_once(path, headers, encodings=None, stat_cache=None):
    """WhiteNoise's ``StaticFile(...)``, the same object again for the same file.

    By the file's real path: each test app reaches the one shared cache folder through a
    link in its own instance folder, and a record per app's path kept one per file per
    app for the whole run (9,842 of them after tests/web), which every full garbage
    collection then walked."""
    if stat_cache is None or encodings is None:
        return StaticFile(path, headers, encodings=encodings, stat_cache=stat_cache)
    real = {given: os.path.realpath(given) for given in (path, *encodings.values())}
    key = (real[path], tuple(headers), tuple(sorted((k, real[v]) for k, v in encodings.items())),
           tuple(_stat_key(stat_cache, p) for p in (path, *sorted(encodings.values()))))
    record = _records.get(key)
    if record is None:
        record = _records[key] = StaticFile(
            real[path], headers, encodings={k: real[v] for k, v in encodings.items()},
            stat_cache={real[p]: stat_cache[p] for p in real if p in stat_cache})
    return record


def share_static_files() -> None:
    """From now on in this process, keep the fingerprints and the file records."""
    if not getattr(assets.build_cache, "shared", False):
        assets.build_cache = _build_cache_once(assets.build_cache)  # type: ignore[assignment]
    if whitenoise.base.StaticFile is StaticFile:
        whitenoise.base.StaticFile = _static_file_once  # type: ignore[misc, assignment]
