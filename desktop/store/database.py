"""Opening a database: where it lives, whether it is safe to use, and migrating it.

The order matters. A SQLite file is checked before anything could write to it (its header,
then `PRAGMA quick_check`), its schema revision is read, a database from a newer Rout is
refused, and only then is it switched to WAL and migrated, after a copy has been taken.
Alembic is imported only when a migration is really needed: a current database opens
without it.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, OperationalError
from sqlalchemy.exc import DatabaseError as SQLAlchemyDatabaseError

from desktop.store.errors import (
    CorruptDatabaseError,
    DatabaseError,
    LockedDatabaseError,
    NewerDatabaseError,
    NotRoutDatabaseError,
)
from desktop.store.files import short_path

# Every revision this Rout knows, oldest first; the last is the head. A test checks that
# this matches the Alembic scripts in desktop/store/migrations/versions.
REVISIONS: tuple[str, ...] = ("0001", "0002")
HEAD = REVISIONS[-1]
SQLITE_HEADER = b"SQLite format 3\x00"
MIGRATIONS = Path(__file__).with_name("migrations")
DATABASE_ENVIRONMENT = "ROUT_DATABASE"


def default_database_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("Rout", appauthor=False) / "rout.sqlite"


def default_database_url() -> str:
    """`ROUT_DATABASE` if set, else a SQLite file in the user's data folder."""
    return os.environ.get(DATABASE_ENVIRONMENT) or f"sqlite:///{default_database_path()}"


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL; None for other databases and in-memory SQLite."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def describe(url: str) -> str:
    """A database for messages: the file for SQLite, the URL without password otherwise."""
    path = sqlite_path(url)
    return short_path(path) if path else make_url(url).render_as_string(hide_password=True)


def create_database_engine(url: str, busy_timeout: float = 5.0) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"'{url}' is not a database URL (expected e.g. "
                            "sqlite:///rout.sqlite or postgresql+psycopg://host/rout)") from None
    try:
        if parsed.get_backend_name() == "sqlite":
            engine = create_engine(parsed, connect_args={"timeout": busy_timeout})
            _sqlite_transactions(engine, busy_timeout)
            return engine
        if parsed.get_backend_name() == "postgresql":
            return create_engine(parsed, pool_pre_ping=True,
                                 connect_args={"connect_timeout": max(int(busy_timeout), 1)})
        return create_engine(parsed, pool_pre_ping=True)
    except NoSuchModuleError:
        raise DatabaseError(f"Rout has no driver for '{parsed.drivername}' databases") from None
    except ModuleNotFoundError as error:
        raise DatabaseError(f"the database driver '{error.name}' is not installed (for "
                            "PostgreSQL: pip install 'rout[postgres]')") from None


def _sqlite_transactions(engine: Engine, busy_timeout: float) -> None:
    """Let SQLAlchemy, not the sqlite3 module, decide where transactions begin.

    A writing transaction starts with BEGIN IMMEDIATE, so two writers queue on the busy
    timeout instead of one failing halfway through a step (SQLAlchemy's pysqlite recipe).
    """

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: sqlite3.Connection, record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        # With WAL this survives a killed process; only a power cut may lose the last step.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Connection) -> None:
        connection.exec_driver_sql(connection.get_execution_options().get("sqlite_begin",
                                                                          "BEGIN"))


def check_sqlite_file(path: Path) -> None:
    """Refuse a file that is not a healthy SQLite database, without writing to it."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with path.open("rb") as handle:
        header = handle.read(100)
    if header[:len(SQLITE_HEADER)] != SQLITE_HEADER:
        raise CorruptDatabaseError(f"{short_path(path)} is not a SQLite database (it may be "
                                   "another kind of file, or damaged); Rout left it as it is")
    # A WAL database nobody has open has no -wal file; reading it normally would create one
    # (and a -shm), so it is read as immutable: no companions, no locks, nothing written.
    idle_wal = header[18:20] == b"\x02\x02" and not Path(f"{path}-wal").exists()
    try:
        with _read_only(path, immutable=idle_wal) as connection:
            problems = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
    except sqlite3.OperationalError as error:
        if "locked" in str(error):
            raise LockedDatabaseError(_locked_message(str(path))) from None
        raise CorruptDatabaseError(f"{short_path(path)} cannot be read: {error}") from None
    except sqlite3.DatabaseError as error:
        raise CorruptDatabaseError(f"{short_path(path)} is damaged ({error}); Rout left it as "
                                   "it is — restore a copy or open another database") from None
    if problems != ["ok"]:
        raise CorruptDatabaseError(f"{short_path(path)} is damaged ({problems[0]}); Rout left "
                                   "it as it is — restore a copy or open another database")


@contextmanager
def _read_only(path: Path, immutable: bool = False) -> Iterator[sqlite3.Connection]:
    flags = "mode=ro&immutable=1" if immutable else "mode=ro"
    connection = sqlite3.connect(f"{path.resolve().as_uri()}?{flags}", uri=True, timeout=1.0)
    try:
        yield connection
    finally:
        connection.close()


def _locked_message(where: str) -> str:
    return (f"{where} is in use by another program (it kept the database locked); close the "
            "other Rout or wait for it to finish, then try again")


def current_revision(connection: Connection) -> str | None:
    """The schema revision, None for an empty database; refuses someone else's database."""
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables:
        versions = [row[0] for row in connection.execute(
            text("SELECT version_num FROM alembic_version"))]
        return versions[0] if len(versions) == 1 else None
    if tables:
        raise NotRoutDatabaseError(
            f"{describe(str(connection.engine.url))} holds other tables "
            f"({', '.join(sorted(tables)[:3])}…) and is not a Rout database; Rout left it as "
            "it is")
    return None


def prepare(engine: Engine, version_locations: Sequence[Path] = ()) -> None:
    """Check the database behind `engine` and bring its schema up to date."""
    url = engine.url.render_as_string(hide_password=False)
    path = sqlite_path(url)
    if path is not None:
        check_sqlite_file(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(f"{short_path(path)}: cannot create its folder: "
                                f"{error.strerror or error}") from None
    with translate_errors(url), engine.connect() as connection:
        revision = current_revision(connection)
        connection.rollback()
    if revision == HEAD and not version_locations:
        if path is not None:
            _use_wal(engine, url)
        return
    if revision is not None and revision not in REVISIONS and not version_locations:
        raise NewerDatabaseError(_newer_message(url, revision))
    script, config = _alembic(version_locations)
    if revision is not None and not _known(script, revision):
        raise NewerDatabaseError(_newer_message(url, revision))
    if revision == script.get_current_head():
        if path is not None:
            _use_wal(engine, url)
        return
    if path is not None and revision is not None:
        backup_sqlite(path, f"before-{script.get_current_head()}")
    if path is not None:
        _use_wal(engine, url)
    from alembic import command

    with translate_errors(url), engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _newer_message(url: str, revision: str) -> str:
    return (f"{describe(url)} was written by a newer Rout (schema {revision}; this Rout knows "
            f"up to {HEAD}); update Rout to open it — Rout left it as it is")


def _alembic(version_locations: Sequence[Path]) -> tuple[Any, Any]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    locations = [MIGRATIONS / "versions", *version_locations]
    config.set_main_option("version_locations", " ".join(str(p) for p in locations))
    config.set_main_option("path_separator", "space")
    return ScriptDirectory.from_config(config), config


def _known(script: Any, revision: str) -> bool:
    from alembic.util import CommandError

    try:
        return script.get_revision(revision) is not None
    except CommandError:
        return False


def _use_wal(engine: Engine, url: str) -> None:
    # Outside any transaction: SQLite cannot change its journal inside one.
    with translate_errors(url):
        raw = engine.raw_connection()
        try:
            raw.driver_connection.execute("PRAGMA journal_mode = WAL")  # type: ignore[union-attr]
        finally:
            raw.close()


def backup_sqlite(path: Path, label: str) -> Path:
    """A consistent copy (sqlite3's online backup, so WAL contents are included)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.stem}.{label}.{stamp}{path.suffix or '.sqlite'}")
    with _read_only(path) as source:
        destination = sqlite3.connect(target)
        try:
            source.backup(destination)
        finally:
            destination.close()
    return target


@contextmanager
def translate_errors(url: str) -> Iterator[None]:
    """Database driver errors as store errors a player can act on."""
    try:
        yield
    except OperationalError as error:
        message = str(error.orig) if error.orig is not None else str(error)
        if "locked" in message or "busy" in message:
            raise LockedDatabaseError(_locked_message(describe(url))) from None
        raise DatabaseError(f"{describe(url)}: {message.strip().splitlines()[0]}") from None
    except SQLAlchemyDatabaseError as error:
        message = str(error.orig) if error.orig is not None else str(error)
        if "malformed" in message or "not a database" in message:
            raise CorruptDatabaseError(f"{describe(url)} is damaged ({message}); Rout left it "
                                       "as it is") from None
        raise DatabaseError(f"{describe(url)}: {message.strip().splitlines()[0]}") from None
