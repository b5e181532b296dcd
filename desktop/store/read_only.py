"""Databases Rout may only read: a SQLite file in a folder it cannot write (a read-only
folder, or a read-only file system such as a CD or a read-only network share), or a file it
cannot write.

SQLite writes beside the file (the -wal and -shm of WAL mode, or a rollback journal), so a
folder Rout cannot write makes the database read-only even when the file itself could be
written. Such a database is read through read-only connections (`mode=ro`: SQLite refuses
every write, even for root) and never migrated or switched to WAL in place. One written by
an older Rout is migrated in a private copy in the temporary folder, shown read-only and
deleted when the store closes.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.pool import NullPool

from desktop.store import database
from desktop.store.errors import DatabaseError, NewerDatabaseError
from desktop.store.files import load_json, short_path
from desktop.store.open_files import TrackedConnection
from desktop.store.sqlite_file import (
    READ_ATTEMPTS,
    READ_RETRY_PAUSE,
    connect_immutable,
    file_state,
    passing,
    unchanged_read,
    wal_path,
    writable,
)


@dataclass(frozen=True)
class ReadOnlyDatabase:
    engine: Engine
    reason: str  # for the player: why Rout only reads it
    # The folder of a private copy brought up to this Rout's schema (the file is from an
    # older Rout and cannot be migrated where it is); None when the file itself is read.
    copy_folder: Path | None = None


def read_only_reason(path: Path) -> str:
    """Why Rout may only read the SQLite file at `path`; '' when it may write it.

    A folder that does not exist yet is not a reason: opening creates it (or says why not).
    Root may write where permissions say no, so for root only a read-only file system is one.
    """
    folder = path.parent
    if not folder.is_dir():
        return ""
    if not writable(folder):
        if hasattr(os, "statvfs") and os.statvfs(folder).f_flag & os.ST_RDONLY:  # not Windows
            return "it is on a read-only file system"
        return "its folder is read-only, and SQLite writes beside the file"
    # os.path.isfile: a name the system refuses (too long) is not a file; opening says why.
    if os.path.isfile(path) and not writable(path):
        return "the file is read-only"
    return ""


def open_read_only(path: Path, reason: str, busy_timeout: float = 5.0,
                   version_locations: tuple[Path, ...] = ()) -> ReadOnlyDatabase:
    """Read-only connections to a healthy Rout database at `path` (refused, untouched, like
    any other when damaged, foreign or newer)."""
    where = short_path(path)
    if not path.is_file():
        raise DatabaseError(f"{where} does not exist and cannot be created: {reason}")
    revision = database.check_sqlite_file(path)
    if revision is not None and revision not in database.REVISIONS and not version_locations:
        raise NewerDatabaseError(database._newer_message(f"sqlite:///{path}", revision))
    if revision == database.HEAD and not version_locations:
        return ReadOnlyDatabase(read_only_engine(path, busy_timeout), reason)
    script, config = database._alembic(version_locations)
    if revision is not None and not database._known(script, revision):
        raise NewerDatabaseError(database._newer_message(f"sqlite:///{path}", revision))
    if revision == script.get_current_head():
        return ReadOnlyDatabase(read_only_engine(path, busy_timeout), reason)
    folder = Path(tempfile.mkdtemp(prefix="rout-read-only-"))
    try:
        copy = folder / path.name
        _copy(path, copy)
        database._migrate(f"sqlite:///{copy}", copy, script, config, busy_timeout,
                          backup=False)
        engine = read_only_engine(copy, busy_timeout)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return ReadOnlyDatabase(engine, reason, folder)


def _copy(path: Path, target: Path) -> None:
    """A consistent copy (sqlite3's backup), read as sqlite_file.unchanged_read reads."""

    def copy(source: sqlite3.Connection) -> None:
        target.unlink(missing_ok=True)  # a copy begun while the file changed starts again
        destination = sqlite3.connect(target, factory=TrackedConnection)
        try:
            source.backup(destination)
        finally:
            destination.close()

    try:
        unchanged_read(path, copy)
    except sqlite3.Error as error:
        raise DatabaseError(f"{short_path(path)} cannot be read to show it: {error}") from None


def read_only_engine(path: Path, busy_timeout: float) -> Engine:
    """An engine whose every connection is read-only; a fresh one per action (NullPool), so
    each decides anew how the file can be read."""
    uri = path.resolve().as_uri()

    def connect() -> sqlite3.Connection:
        for attempt in range(READ_ATTEMPTS):
            state = file_state(path)
            try:
                connection = sqlite3.connect(f"{uri}?mode=ro", uri=True,
                                             timeout=busy_timeout, check_same_thread=False,
                                             factory=TrackedConnection)
                try:
                    connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
                except sqlite3.Error:
                    connection.close()
                    raise
                return connection
            except sqlite3.OperationalError as error:
                if not wal_path(path).exists():
                    break
                if attempt == READ_ATTEMPTS - 1 or not (passing(error) or
                                                        file_state(path) != state):
                    raise
            time.sleep(min(READ_RETRY_PAUSE, 0.02 * 2 ** attempt))
        # A WAL database whose folder SQLite cannot write its -shm index into, and with no
        # -wal: nobody has it open, so it is read as the file holds it, without locks. On
        # a read-only file system nobody ever can write it; in a folder only Rout may not
        # write, another account could start to, so the store trusts such a read only if
        # the file did not change meanwhile (Store._reading).
        return connect_immutable(path, busy_timeout, check_same_thread=False)

    # load_json: JSON nesting bounded here too, as on every engine the store reads with.
    engine = create_engine("sqlite://", creator=connect, poolclass=NullPool,
                           json_deserializer=load_json)
    database.sqlite_transactions(engine, busy_timeout, foreign_keys=True)
    return engine
