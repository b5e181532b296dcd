"""The SQLite files this process has open, so that nothing else here opens them behind
SQLite's back.

On POSIX systems closing any descriptor a process has on a file drops every lock the
process holds on it, SQLite's included. SQLite guards against that among its own
connections; a plain `open()` of the same file (to read its header, to import it as an army
file, to write an export over it) does not. A second program closing the file would then
take itself for its last user and checkpoint and delete the WAL under this process's
connections: a healthy file made "malformed". Every SQLite connection Rout makes is a
`TrackedConnection`; code that would open a database file itself asks `held` first, under
`OPENING`, which connections also take while they open.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

# Held while a tracked connection opens its file and while other code opens one of its own:
# a connection cannot appear between "nobody here has it open" and the close that follows.
OPENING = threading.RLock()
_connections: Counter[str] = Counter()


def file_key(database: str | os.PathLike[str]) -> str | None:
    """The real path of the file a connection string names; None for memory databases."""
    text = os.fspath(database)
    if text in ("", ":memory:"):
        return None
    if text.startswith("file:"):
        parts = urlsplit(text)
        if "mode=memory" in parts.query or not parts.path:
            return None
        text = unquote(parts.path)
    return os.path.realpath(text)


def held(path: Path) -> bool:
    """Whether a SQLite connection of this process has `path` open (ask under OPENING)."""
    key = file_key(path)
    return key is not None and _connections[key] > 0


class TrackedConnection(sqlite3.Connection):
    """A sqlite3 connection counted in `held` from before its file opens until it closes."""

    def __init__(self, database: str | os.PathLike[str], *args: Any, **kwargs: Any) -> None:
        key = file_key(database)
        with OPENING:
            super().__init__(database, *args, **kwargs)
            if key is not None:
                _connections[key] += 1
        self._held_key = key

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._release()

    def _release(self) -> None:
        key, self._held_key = getattr(self, "_held_key", None), None
        if key is not None:
            with OPENING:
                _connections[key] -= 1
                if _connections[key] <= 0:
                    del _connections[key]

    def __del__(self) -> None:
        # A connection dropped without close(): it closes as it is freed. Closed here
        # first, so that the count never says "not held" while its file is still open.
        with contextlib.suppress(sqlite3.Error):  # made on another thread: freed as it goes
            super().close()
        self._release()
