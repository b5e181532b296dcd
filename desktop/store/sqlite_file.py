"""Reading a SQLite file before Rout trusts it, while other programs may be using it.

Start-up reads only what it needs: the header, the schema (every table's root page opens)
and the schema revision. That costs the same on a 1 MB file and on a 1 GB one; a check of
every page is the explicit `full_check` (`rout check-database`, File ▸ Check Database).

Whatever is read, it is read under SQLite's own locks, so that a program writing the file
meanwhile can never make a healthy file look damaged:

- a rollback-journal file (not WAL): a read-only connection, which takes a shared lock and
  creates nothing;
- a WAL file nobody has open (no -wal beside it), which Rout may write, as its folder: an
  ordinary connection that only reads (`query_only`). SQLite creates the -wal and -shm it
  locks with, and removes them again when it closes as the last connection; the file is not
  written (the WAL it would copy back is empty unless another program wrote meanwhile,
  and then copying it back is what that program's own close would have done);
- a WAL file with a -wal (in use, or left by a crash): a read-only connection, which locks
  through the -shm and, unlike an ordinary one, never copies the -wal into the file;
- a WAL file Rout may not write, in a folder it may: a read-only connection too (its
  owner may be writing it); SQLite makes the -wal and -shm it locks with and, read-only,
  cannot remove them again;
- a WAL file with no -wal in a folder Rout may not write: SQLite cannot lock it, so it is
  read as `immutable`. No other program can be writing it at that moment (a writer would
  have made a -wal), and on a read-only file system none ever can; in a folder that only
  Rout may not write, another account could start, so such a read counts only if the file
  was the same before and after it, and is otherwise read again.

The header is read with Python's own open() only while no SQLite connection of this process
has the file open (desktop.store.open_files): closing that descriptor would drop those
connections' locks. Beside one, the file is read through SQLite, read-only.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from desktop.store.errors import CorruptDatabaseError, DatabaseError, LockedDatabaseError
from desktop.store.files import NotRegularFileError, read_regular, short_path
from desktop.store.open_files import OPENING, TrackedConnection, held

SQLITE_HEADER = b"SQLite format 3\x00"
HEADER_SIZE = 100
# How often an immutable read that saw the file change is tried again, and the longest wait.
READ_ATTEMPTS = 8
READ_RETRY_PAUSE = 0.25

T = TypeVar("T")


@dataclass(frozen=True)
class StartFacts:
    """What start-up reads from a SQLite file: its tables and the revisions it records."""

    tables: frozenset[str]
    versions: tuple[str, ...]


def writable(path: Path) -> bool:
    # The effective ids decide what the process may write (a setuid helper, tests' seteuid).
    effective = os.access in os.supports_effective_ids
    return os.access(path, os.W_OK, effective_ids=effective)


def wal_path(path: Path) -> Path:
    return Path(f"{path}-wal")


def read_header(path: Path) -> bytes | None:
    """The first 100 bytes; DatabaseError when the file cannot be read, CorruptDatabaseError
    when it is no SQLite database. None when a SQLite connection of this process has the file
    open: opening it here would drop that connection's locks (desktop.store.open_files), so
    SQLite, reading it beside that connection, is left to tell what the file is."""
    with OPENING:
        if held(path):
            return None
        try:
            header = read_regular(path, HEADER_SIZE)
        except NotRegularFileError:
            raise DatabaseError(f"{short_path(path)} is not a regular file (a pipe, a device "
                                "or a socket), so not a database") from None
        except IsADirectoryError:
            raise DatabaseError(f"{short_path(path)} is a folder, not a database file"
                                ) from None
        except OSError as error:
            raise DatabaseError(f"{short_path(path)} cannot be read: "
                                f"{error.strerror or error}") from None
    if header[:len(SQLITE_HEADER)] != SQLITE_HEADER:
        raise CorruptDatabaseError(f"{short_path(path)} is not a SQLite database (it may be "
                                   "another kind of file, or damaged); Rout left it as it is")
    return header


def is_wal(header: bytes) -> bool:
    """The header's read and write versions: 2 is WAL mode."""
    return header[18:20] == b"\x02\x02"


FileState = tuple[int, int, int, int, bool] | None


def file_state(path: Path) -> FileState:
    """What changes when any program writes the file: identity, size, times, and whether a
    -wal is beside it (a writer has it open)."""
    try:
        found = path.stat()
    except OSError:
        return None
    return (found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns,
            wal_path(path).exists())


class ImmutableConnection(TrackedConnection):
    """A connection opened with `immutable=1`: SQLite takes no locks for it, so what it read
    counts only if the file did not change meanwhile (`changed_since_open`)."""

    path: Path
    opened_state: FileState

    def changed_since_open(self) -> bool:
        return file_state(self.path) != self.opened_state


def connect_immutable(path: Path, timeout: float, *,
                      check_same_thread: bool = True) -> ImmutableConnection:
    state = file_state(path)
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True,
                                 timeout=timeout, check_same_thread=check_same_thread,
                                 factory=ImmutableConnection)
    connection.path = path
    connection.opened_state = state
    return connection


@contextmanager
def locked_reading(path: Path, header: bytes | None,
                   busy_timeout: float = 1.0) -> Iterator[sqlite3.Connection]:
    """A connection that reads `path` under SQLite's locks (which one: the module's notes);
    an `ImmutableConnection` where SQLite cannot lock. With no header (this process has the
    file open already) a read-only one beside the connection there."""
    uri = path.resolve().as_uri()
    connection: sqlite3.Connection
    if header is None or not is_wal(header) or wal_path(path).exists():
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=busy_timeout,
                                     factory=TrackedConnection)
    elif writable(path.parent) and writable(path):
        connection = sqlite3.connect(f"{uri}?mode=rw", uri=True, timeout=busy_timeout,
                                     isolation_level=None, factory=TrackedConnection)
        connection.execute("PRAGMA query_only = ON")
    elif writable(path.parent):
        connection = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=busy_timeout,
                                     factory=TrackedConnection)
    else:
        connection = connect_immutable(path, busy_timeout)
    try:
        yield connection
    finally:
        connection.close()


# Moments while another program opens or closes a WAL file, seen by a connection that may
# not write beside it: its -wal and -shm are half made, or gone since Rout looked (a closing
# SQLite removes the -shm, then the -wal: in between, the -shm cannot be opened). Tried
# again a few times; an error that stays is reported as it is.
PASSING_ERRORS = frozenset({"SQLITE_READONLY_DIRECTORY", "SQLITE_READONLY_CANTINIT",
                            "SQLITE_READONLY_RECOVERY", "SQLITE_READONLY_CANTLOCK",
                            "SQLITE_CANTOPEN"})


def passing(error: BaseException) -> bool:
    return getattr(error, "sqlite_errorname", "") in PASSING_ERRORS


def unchanged_read(path: Path, read: Callable[[sqlite3.Connection], T],
                   busy_timeout: float = 1.0) -> T:
    """`read` on a connection from `locked_reading`, done again when its answer cannot be
    trusted: a read without locks whose file changed meanwhile (whether it failed or not),
    or one that failed as another program opened or closed the file (`passing`, or the
    -wal that decided how to read it came or went)."""
    for attempt in range(READ_ATTEMPTS):
        last = attempt == READ_ATTEMPTS - 1
        state = file_state(path)
        header = read_header(path)
        try:
            with locked_reading(path, header, busy_timeout) as connection:
                unlocked = connection if isinstance(connection, ImmutableConnection) else None
                try:
                    result = read(connection)
                except (sqlite3.Error, CorruptDatabaseError):
                    if unlocked is None or not unlocked.changed_since_open():
                        raise
                else:
                    if unlocked is None or not unlocked.changed_since_open():
                        return result
        except sqlite3.Error as error:
            if last or not (passing(error) or file_state(path) != state):
                raise
        time.sleep(min(READ_RETRY_PAUSE, 0.02 * 2 ** attempt))
    raise LockedDatabaseError(f"{short_path(path)} kept changing while Rout read it (another "
                              "program is writing it); try again")


def start_facts(path: Path, busy_timeout: float = 1.0) -> StartFacts:
    """The header, the schema and the revisions, as start-up needs them (module notes)."""
    try:
        return unchanged_read(path, lambda connection: _read_start(path, connection),
                              busy_timeout)
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise LockedDatabaseError(locked_message(short_path(path))) from None
        raise CorruptDatabaseError(f"{short_path(path)} cannot be read: {error}") from None
    except sqlite3.DatabaseError as error:
        raise CorruptDatabaseError(damaged_message(path, str(error))) from None


def _read_start(path: Path, connection: sqlite3.Connection) -> StartFacts:
    # One snapshot for every read below; closing the connection ends it.
    connection.execute("BEGIN")
    tables = frozenset(row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'"))
    _check_length(path, connection)
    versions: tuple[str, ...] = ()
    if "alembic_version" in tables:
        # A Rout database: each table's root page must open (a few pages each).
        for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                "name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'").fetchall():
            quoted = name.replace('"', '""')
            connection.execute(f'SELECT 1 FROM "{quoted}" LIMIT 1').fetchall()
        versions = tuple(row[0] for row in connection.execute(
            "SELECT version_num FROM alembic_version"))
    return StartFacts(tables, versions)


def _check_length(path: Path, connection: sqlite3.Connection) -> None:
    """A file cut short (a copy that stopped, a full disk) holds fewer pages than it says.

    Only when this snapshot reads nothing from a -wal: then no checkpoint can write the
    file while the snapshot lasts, so its length on disk is the length to compare.
    """
    try:
        wal_size = wal_path(path).stat().st_size
    except FileNotFoundError:  # none, or its writer just checkpointed and removed it
        wal_size = 0
    if wal_size > 32:  # 32: a WAL header
        return
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    size = connection.execute("PRAGMA page_size").fetchone()[0]
    found = path.stat().st_size
    if found < pages * size:
        raise CorruptDatabaseError(damaged_message(
            path, f"it holds {found} bytes of the {pages * size} its header says; it was cut "
                  "short"))


def full_check(path: Path, busy_timeout: float = 5.0, limit: int = 20) -> list[str]:
    """Every page of the file (PRAGMA integrity_check): the problems found, [] when none.

    Slow on a big file: the explicit check, never start-up.
    """

    def check(connection: sqlite3.Connection) -> list[str]:
        try:
            found = [row[0] for row in connection.execute(f"PRAGMA integrity_check({limit})")]
        except sqlite3.DatabaseError:
            # Some damage stops the check itself: table by table, it still says where.
            found = []
            tables = [row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE "
                "'CREATE VIRTUAL%' ORDER BY name")]
            for table in tables:
                quoted = table.replace('"', '""')
                try:
                    rows = [row[0] for row in connection.execute(
                        f'PRAGMA integrity_check("{quoted}")')]
                except sqlite3.DatabaseError as error:
                    rows = [str(error)]
                found += [f"table {table}: {row}" for row in rows if row != "ok"]
            return found[:limit] or ["the check of every page stopped: the file is damaged"]
        if found != ["ok"]:
            return found
        return [f"table {table} row {row} refers to a missing {parent} row"
                for table, row, parent, _ in connection.execute("PRAGMA foreign_key_check")]

    try:
        return unchanged_read(path, check, busy_timeout)
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise LockedDatabaseError(locked_message(short_path(path))) from None
        return [str(error)]
    except sqlite3.DatabaseError as error:
        return [str(error)]


def damaged_message(path: Path, problem: str) -> str:
    return (f"{short_path(path)} is damaged ({problem}); Rout left it as it is — restore a "
            "copy or open another database")


def locked_message(where: str) -> str:
    return (f"{where} is in use by another program (it kept the database locked); close the "
            "other Rout or wait for it to finish, then try again")
