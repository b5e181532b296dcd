"""Opening a database: where it lives, whether it is safe to use, and migrating it.

The order matters. A SQLite file is checked before anything could write to it (its header,
its tables and its schema revision: desktop.store.sqlite_file), a database from a newer
Rout is refused, and only then is it switched to WAL and migrated, after a copy has been taken.
Alembic is imported only when a migration is really needed: a current database opens
without it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.exc import DatabaseError as SQLAlchemyDatabaseError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError

from desktop.engine.errors import quoted
from desktop.engine.reading import text_problem
from desktop.lazy import lazy_module
from desktop.store.errors import (
    CorruptDatabaseError,
    DatabaseError,
    LockedDatabaseError,
    NewerDatabaseError,
    NotRoutDatabaseError,
)
from desktop.store.files import load_json, short_path

# Re-exported: they live apart so that the GUI can find the database without SQLAlchemy.
from desktop.store.location import DATABASE_ENVIRONMENT as DATABASE_ENVIRONMENT
from desktop.store.location import default_database_path as default_database_path
from desktop.store.location import default_database_url as default_database_url
from desktop.store.open_files import TrackedConnection
from desktop.store.sqlite_file import locked_message, start_facts

# Loaded on first use (desktop.lazy): Alembic, only when a database's schema must be created or
# migrated.
if TYPE_CHECKING:
    import alembic.command as alembic_command
    import alembic.config as alembic_config
    import alembic.script as alembic_script
    import alembic.util as alembic_util
else:
    alembic_command = lazy_module("alembic.command")
    alembic_config = lazy_module("alembic.config")
    alembic_script = lazy_module("alembic.script")
    alembic_util = lazy_module("alembic.util")

# Every revision this Rout knows, oldest first; the last is the head. A test checks that
# this matches the Alembic scripts in desktop/store/migrations/versions.
REVISIONS: tuple[str, ...] = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008",
                              "0009")
HEAD = REVISIONS[-1]
MIGRATIONS = Path(__file__).with_name("migrations")


URL_EXAMPLES = "e.g. sqlite:///rout.sqlite or postgresql+psycopg://user@host:5432/rout"
# scheme://user:password@host:port/database?query, each part as loose as a typo can make it.
_URL_PARTS = re.compile(r"(?P<scheme>[^:/?#@]*://)(?:(?P<user>[^:/@]*)(?::.*)?@)?"
                        r"(?P<host>\[[^\]/?#]*\]?|[^:/?#\[]*)(?::(?P<port>[^/?#]*))?"
                        r"(?P<path>[^?#]*)(?P<query>[?#].*)?", re.DOTALL)


def shown_url(url: str) -> str:
    """A URL for a message, whatever it holds, quoted and without anything that may be a
    password: the password, a port that is not a number (a password typed in the wrong
    place) and the query (it may hold password=...)."""
    match = _URL_PARTS.fullmatch(url)
    if match is None:
        # Not even scheme://...: whatever sits between a colon and an @ may be a password.
        return quoted(re.sub(r":.*@", ":***@", url, flags=re.DOTALL))
    user = match["user"]
    password = user is not None and url[len(match["scheme"]) + len(user)] == ":"
    port = match["port"]
    return quoted("".join((
        match["scheme"],
        "" if user is None else f"{user}{':***' if password else ''}@",
        match["host"],
        "" if port is None else f":{port if port.isdigit() else '***'}",
        match["path"],
        "?…" if match["query"] else "")))


def parse_url(url: str) -> URL:
    """A database URL, or a DatabaseError that shows it without its password.

    Every reader of a URL goes through here: SQLAlchemy's own errors are a traceback for a
    port that is not a number, and may repeat the URL as it was typed.
    """
    problem = text_problem(url, len(url))  # a NUL or broken Unicode no driver can take
    if problem is not None:
        raise DatabaseError(f"{shown_url(url)} is not a database URL: it {problem}")
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"{shown_url(url)} is not a database URL ({URL_EXAMPLES})"
                            ) from None
    except ValueError:  # make_url reads the port with int()
        raise DatabaseError(f"{shown_url(url)} is not a database URL: its host and port "
                            "cannot be read (a port is a number; an IPv6 address goes in "
                            f"[brackets]; {URL_EXAMPLES})") from None
    if parsed.get_backend_name() == "sqlite" and any(
            (parsed.username, parsed.password, parsed.host, parsed.port, parsed.query)):
        # Options too: the driver ignores most of them with a warning of several lines.
        raise DatabaseError(f"{shown_url(url)}: a SQLite URL names a file, with no user, "
                            "password, host or options (sqlite:///rout.sqlite, or "
                            "sqlite:////home/me/rout.sqlite for a full path)")
    return parsed


def _without_secrets(parsed: URL) -> str:
    """A URL that parsed, for messages: the password and password=... options hidden."""
    secret = {key: "***" for key in parsed.query if "pass" in key.lower()}
    return (parsed.update_query_dict(secret) if secret else parsed).render_as_string(
        hide_password=True)


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL; None for other databases and in-memory SQLite."""
    parsed = parse_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def describe(url: str) -> str:
    """A database for messages: the file for SQLite, the URL without password otherwise."""
    path = sqlite_path(url)
    return short_path(path) if path else _without_secrets(parse_url(url))


def _scrubbed(message: str, url: str) -> str:
    """A driver's message, with the password taken out should it repeat it."""
    try:
        password = make_url(url).password
    except (ArgumentError, ValueError):
        return message
    return message.replace(password, "***") if password else message


def create_database_engine(url: str, busy_timeout: float = 5.0, *,
                           foreign_keys: bool = True) -> Engine:
    """An engine for a SQLite or PostgreSQL URL; other databases are refused by name.

    `busy_timeout` bounds every wait for a lock (SQLite's busy timeout, PostgreSQL's
    lock_timeout). Migrations run with `foreign_keys=False`: SQLite rebuilds a table by
    dropping it, which would otherwise cascade into the rows that refer to it.
    """
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseError(f"Rout has no driver for {quoted(parsed.drivername)} databases "
                            "(it works with SQLite and PostgreSQL)")
    try:
        if backend == "sqlite":
            engine = create_engine(parsed, json_deserializer=load_json,
                                   connect_args={"timeout": busy_timeout,
                                                 "factory": TrackedConnection})
            sqlite_transactions(engine, busy_timeout, foreign_keys)
            return engine
        milliseconds = max(int(busy_timeout * 1000), 1)
        return create_engine(parsed, pool_pre_ping=True, json_deserializer=load_json,
                             connect_args={"connect_timeout": max(int(busy_timeout), 1),
                                           "options": f"-c lock_timeout={milliseconds}"})
    except NoSuchModuleError:
        raise DatabaseError(f"Rout has no driver for {quoted(parsed.drivername)} databases"
                            ) from None
    except ModuleNotFoundError as error:
        raise DatabaseError(f"the database driver '{error.name}' is not installed (for "
                            "PostgreSQL: pip install 'rout[postgres]')") from None
    except (ArgumentError, ValueError, TypeError) as error:  # an option of the wrong kind
        options = ", ".join(quoted(key, 20) for key in sorted(parsed.query)[:5]) or "none"
        raise DatabaseError(f"{describe(url)}: the URL's options ({options}) cannot be used: "
                            f"{_scrubbed(_first_line(str(error)), url)}") from None


def sqlite_transactions(engine: Engine, busy_timeout: float, foreign_keys: bool) -> None:
    """Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.

    A writing transaction starts with BEGIN IMMEDIATE, so two writers queue on the busy
    timeout instead of one failing halfway through a step (SQLAlchemy's pysqlite recipe).
    """

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: sqlite3.Connection, record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        cursor.execute(f"PRAGMA foreign_keys = {'ON' if foreign_keys else 'OFF'}")
        # With WAL this survives a killed process; only a power cut may lose the last step.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        connection.exec_driver_sql(connection.get_execution_options().get("sqlite_begin",
                                                                          "BEGIN"))


def check_sqlite_file(path: Path, busy_timeout: float = 1.0) -> str | None:
    """Refuse a file that is not a healthy SQLite database, without writing to it.

    Returns the schema revision found (None for a new or empty file). Only what start-up
    needs is read (desktop.store.sqlite_file): its cost does not grow with the file.
    """
    try:
        if not path.exists():
            return None
        found = path.stat()
    except OSError as error:
        raise DatabaseError(f"{short_path(path)} cannot be read: "
                            f"{error.strerror or error}") from None
    if stat.S_ISDIR(found.st_mode):
        raise DatabaseError(f"{short_path(path)} is a folder, not a database file")
    if not stat.S_ISREG(found.st_mode):
        raise DatabaseError(f"{short_path(path)} is not a regular file (a pipe, a device or a "
                            "socket), so not a database; Rout left it as it is")
    if found.st_size == 0:
        # Rout never leaves an empty file at a database's name (create_sqlite): this is a
        # file cut short to nothing, or never a database.
        raise CorruptDatabaseError(
            f"{short_path(path)} is empty (0 bytes): a database cut short, or a file that "
            "never was one; Rout left it as it is — restore a copy, or remove the file to "
            "start a new database there")
    facts = start_facts(path, busy_timeout)
    return revision_of(f"sqlite:///{path}", set(facts.tables), list(facts.versions))


def create_sqlite(path: Path) -> None:
    """A new, empty database at `path`, made beside it and given its name only when it is a
    whole SQLite file (in WAL mode): no Rout, however killed or raced, leaves a file of 0
    bytes there (which start-up refuses as a database cut short). When another Rout made it
    first, theirs is the one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        connection = sqlite3.connect(temporary, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode = WAL")  # writes the header: 1 page
        finally:
            connection.close()
        _sync(temporary)
        _take_name(temporary, path)
    except sqlite3.Error as error:
        raise DatabaseError(f"{short_path(path)}: cannot create it: {error}") from None
    except OSError as error:
        raise DatabaseError(f"{short_path(path)}: cannot create it: "
                            f"{error.strerror or error}") from None
    finally:
        temporary.unlink(missing_ok=True)
        for beside in ("-wal", "-shm", "-journal"):
            Path(f"{temporary}{beside}").unlink(missing_ok=True)


@contextmanager
def read_only_connection(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection under SQLite's locks (the file is in use: it has a -wal)."""
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0,
                                 factory=TrackedConnection)
    try:
        yield connection
    finally:
        connection.close()


def revision_of(where: str, tables: set[str], versions: list[str]) -> str | None:
    """The schema revision from what a database holds; None when it holds nothing.

    Someone else's tables, or a version table that does not hold exactly one revision, are
    refused before anything is written.
    """
    if "alembic_version" in tables:
        if len(versions) != 1:
            raise NotRoutDatabaseError(
                f"{describe(where)} has {len(versions)} schema versions where Rout writes "
                "one; it was changed by another program — Rout left it as it is")
        return versions[0]
    if tables:
        raise NotRoutDatabaseError(
            f"{describe(where)} holds other tables ({', '.join(sorted(tables)[:3])}…) and is "
            "not a Rout database; Rout left it as it is")
    return None


def current_revision(connection: Connection) -> str | None:
    tables = set(inspect(connection).get_table_names())
    versions = ([row[0] for row in connection.execute(
        text("SELECT version_num FROM alembic_version"))] if "alembic_version" in tables else [])
    return revision_of(connection.engine.url.render_as_string(hide_password=False), tables,
                       versions)


def prepare(engine: Engine, version_locations: Sequence[Path] = (),
            busy_timeout: float = 5.0) -> None:
    """Check the database behind `engine` and bring its schema up to date.

    A SQLite file is read only through a read-only connection until it is known to be a
    healthy Rout database this Rout may change; a migration then runs under the write lock
    (two Routs starting together migrate once), after a copy of the file.
    """
    url = engine.url.render_as_string(hide_password=False)
    path = sqlite_path(url)
    if path is not None:
        revision = check_sqlite_file(path, busy_timeout)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(f"{short_path(path)}: cannot create its folder: "
                                f"{error.strerror or error}") from None
        if revision is None and not path.exists():
            create_sqlite(path)
    else:
        with translate_errors(url), engine.connect() as connection:
            revision = current_revision(connection)
            connection.rollback()
    if revision is not None and revision not in REVISIONS and not version_locations:
        raise NewerDatabaseError(_newer_message(url, revision))
    if path is not None:
        _use_wal(path)
    if revision == HEAD and not version_locations:
        return
    script, config = _alembic(version_locations)
    if revision is not None and not _known(script, revision):
        raise NewerDatabaseError(_newer_message(url, revision))
    if revision == script.get_current_head():
        return
    _migrate(url, path, script, config, busy_timeout)


# Any constant will do: it only has to be the same for every Rout migrating a database.
MIGRATION_LOCK = 7_310_531


def _migrate(url: str, path: Path | None, script: Any, config: Any,
             busy_timeout: float, *, backup: bool = True) -> None:
    """`backup=False` for a file that is itself a copy (desktop.store.read_only)."""

    engine = create_database_engine(url, busy_timeout, foreign_keys=False)
    try:
        with translate_errors(url), engine.execution_options(
                sqlite_begin="BEGIN IMMEDIATE").begin() as connection:
            if path is None:
                connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
            # Again under the lock: another Rout may have migrated it meanwhile.
            revision = current_revision(connection)
            if revision is not None and not _known(script, revision):
                raise NewerDatabaseError(_newer_message(url, revision))
            if revision == script.get_current_head():
                return
            if path is not None and revision is not None and backup:
                backup_sqlite(path, f"before-{script.get_current_head()}")
            config.attributes["connection"] = connection
            alembic_command.upgrade(config, "head")
            if path is not None:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise DatabaseError(f"{describe(url)}: the migration would leave "
                                        f"{len(broken)} rows pointing at nothing; nothing was "
                                        "changed")
    finally:
        engine.dispose()


def _newer_message(url: str, revision: str) -> str:
    return (f"{describe(url)} was written by a newer Rout (schema {revision}; this Rout knows "
            f"up to {HEAD}); update Rout to open it — Rout left it as it is")


def _alembic(version_locations: Sequence[Path]) -> tuple[Any, Any]:

    config = alembic_config.Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    locations = [MIGRATIONS / "versions", *version_locations]
    config.set_main_option("version_locations", " ".join(str(p) for p in locations))
    config.set_main_option("path_separator", "space")
    return alembic_script.ScriptDirectory.from_config(config), config


def _known(script: Any, revision: str) -> bool:

    try:
        return script.get_revision(revision) is not None
    except alembic_util.CommandError:
        return False


def _use_wal(path: Path) -> None:
    """Switch the file to WAL (a no-op when it already is); outside any transaction."""
    try:
        connection = sqlite3.connect(path, timeout=1.0, isolation_level=None,
                                     factory=TrackedConnection)
        try:
            mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
            if mode != "wal":
                connection.execute("PRAGMA journal_mode = WAL")
        finally:
            connection.close()
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise LockedDatabaseError(locked_message(short_path(path))) from None
        raise DatabaseError(f"{short_path(path)}: {error}") from None
    except sqlite3.DatabaseError as error:
        raise CorruptDatabaseError(f"{short_path(path)} is damaged ({error})") from None


def backup_sqlite(path: Path, label: str) -> Path:
    """A consistent copy (sqlite3's online backup, so WAL contents are included).

    The copy is written under a temporary name and given its own name only when whole: a
    Rout killed half-way leaves a `.part` file, never a `before-` copy that is empty or
    damaged. The name is new: an earlier copy is never overwritten. Called under the
    migration's write lock, so a `.part` file found here is a dead Rout's and is removed.
    """
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    suffix = path.suffix or ".sqlite"
    for stale in path.parent.glob(f".{path.name}.*.part"):
        stale.unlink(missing_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with read_only_connection(path) as source:
            destination = sqlite3.connect(temporary, factory=TrackedConnection)
            try:
                source.backup(destination)
            finally:
                destination.close()
        _sync(temporary)
        for number in range(1, 1000):
            extra = "" if number == 1 else f"-{number}"
            target = path.with_name(f"{path.stem}.{label}.{stamp}{extra}{suffix}")
            if _take_name(temporary, target):
                return target
        raise DatabaseError(f"{short_path(path)}: too many copies named {label}")
    except sqlite3.Error as error:
        raise DatabaseError(f"{short_path(path)}: the copy before migrating failed ({error}); "
                            "nothing was changed") from None
    except OSError as error:
        raise DatabaseError(f"{short_path(path)}: cannot write the copy taken before "
                            f"migrating: {error.strerror or error}; nothing was changed"
                            ) from None
    finally:
        temporary.unlink(missing_ok=True)


def _sync(path: Path) -> None:
    """The file's bytes on disk before it gets its name (a power cut then leaves it whole)."""
    with path.open("rb") as handle:
        os.fsync(handle.fileno())


def _take_name(temporary: Path, target: Path) -> bool:
    """Give the whole copy its name, never replacing a file; False when the name is taken.

    A hard link fails if the name exists, atomically; where links are not supported
    (some network or FAT drives) a rename under the write lock does the same.
    """
    try:
        os.link(temporary, target)
        return True
    except FileExistsError:
        return False
    except OSError:
        if target.exists():
            return False
        os.replace(temporary, target)
        return True


@contextmanager
def translate_errors(url: str) -> Iterator[None]:
    """Database driver errors as store errors a player can act on."""
    try:
        yield
    except OperationalError as error:
        message = str(error.orig) if error.orig is not None else str(error)
        # 55P03: PostgreSQL gave up waiting for a lock (lock_timeout).
        if ("locked" in message or "busy" in message
                or getattr(error.orig, "sqlstate", None) == "55P03"):
            raise LockedDatabaseError(locked_message(describe(url))) from None
        raise DatabaseError(f"{describe(url)}: {_scrubbed(_first_line(message), url)}"
                            ) from None
    except SQLAlchemyDatabaseError as error:
        message = str(error.orig) if error.orig is not None else str(error)
        if "malformed" in message or "not a database" in message:
            raise CorruptDatabaseError(f"{describe(url)} is damaged ({message}); Rout left it "
                                       "as it is") from None
        raise DatabaseError(f"{describe(url)}: {_scrubbed(_first_line(message), url)}"
                            ) from None
    except SQLAlchemyTimeoutError:
        raise LockedDatabaseError(f"{describe(url)}: every connection is busy; try again"
                                  ) from None


def _first_line(message: str) -> str:
    lines = message.strip().splitlines()
    return lines[0] if lines else "the database reported an error without a message"
