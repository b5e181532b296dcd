"""Opening databases: creation, migrations, and refusing what Rout must not touch.

Damaged, locked, foreign and newer databases give a clear error and stay byte-identical.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine

from desktop.store import database
from desktop.store.database import create_sqlite
from desktop.store.errors import (
    CorruptDatabaseError,
    DatabaseError,
    LockedDatabaseError,
    NewerDatabaseError,
    NotRoutDatabaseError,
)
from desktop.store.store import Store

from builders import army, assert_bad

EXTRA_MIGRATIONS = Path(__file__).parent / "data" / "migrations"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def files_of(path: Path) -> dict[str, str]:
    """The database file and its WAL companions, by name, with their contents' digests."""
    return {p.name: digest(p) for p in sorted(path.parent.glob(path.name + "*"))}


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.fixture
def saved_database(tmp_path) -> Path:
    """A Rout SQLite file holding one army, closed."""
    path = tmp_path / "rout.sqlite"
    with Store.open(sqlite_url(path)) as store:
        for index in range(30):
            store.save_army(army(f"Army {index}", units=20))
    return path


def test_first_open_creates_the_file_in_wal_mode_at_the_head_revision(tmp_path):
    path = tmp_path / "folder" / "that" / "is" / "new" / "rout.sqlite"
    with Store.open(sqlite_url(path)) as store:
        store.save_army(army())
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (database.HEAD,)]


def test_the_default_database_lives_in_the_user_data_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(database.DATABASE_ENVIRONMENT, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    url = database.default_database_url()
    assert database.sqlite_path(url) == tmp_path / "data" / "Rout" / "rout.sqlite"
    with Store.open() as store:
        assert store.list_armies() == []
    assert (tmp_path / "data" / "Rout" / "rout.sqlite").is_file()


def test_rout_database_variable_overrides_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv(database.DATABASE_ENVIRONMENT, sqlite_url(tmp_path / "club.sqlite"))
    with Store.open() as store:
        store.save_army(army())
    assert (tmp_path / "club.sqlite").is_file()


def test_revisions_listed_in_code_match_the_alembic_scripts():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(database.MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    walked = [revision.revision for revision in script.walk_revisions()]
    assert tuple(reversed(walked)) == database.REVISIONS
    assert script.get_current_head() == database.HEAD


@pytest.mark.parametrize("declared", ["tables", "schema"])
def test_migrated_schema_matches_the_tables_exactly(database_url, declared):
    """Autogenerate finds nothing to do: the migrations agree with tables.py (the sqlmodel
    declarations) and with schema.py (the Core tables the store works through)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from desktop.store.schema import METADATA
    from desktop.store.tables import SQLModel

    metadata = SQLModel.metadata if declared == "tables" else METADATA
    Store.open(database_url).close()
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            assert compare_metadata(context, metadata) == []
    finally:
        engine.dispose()


def test_random_bytes_are_refused_and_left_as_they_are(tmp_path):
    path = tmp_path / "rout.sqlite"
    path.write_bytes(os.urandom(64 * 1024))
    before = files_of(path)
    with pytest.raises(CorruptDatabaseError, match="is not a SQLite database"):
        Store.open(sqlite_url(path))
    assert files_of(path) == before


def test_a_truncated_database_is_refused_and_left_as_it_is(saved_database):
    data = saved_database.read_bytes()
    assert len(data) > 64 * 1024, "the fixture should span many pages"
    saved_database.write_bytes(data[: len(data) // 2])
    before = files_of(saved_database)
    with pytest.raises(CorruptDatabaseError, match="damaged"):
        Store.open(sqlite_url(saved_database))
    assert files_of(saved_database) == before


def test_a_database_cut_to_nothing_is_refused_and_left_as_it_is(saved_database, capsys):
    """Issue 21 item 13: a file of 0 bytes was silently made a new, empty database."""
    saved_database.write_bytes(b"")
    for leftover in (Path(f"{saved_database}-wal"), Path(f"{saved_database}-shm")):
        leftover.unlink(missing_ok=True)
    before = files_of(saved_database)
    with pytest.raises(CorruptDatabaseError, match=r"is empty \(0 bytes\): a database cut "
                                                   "short"):
        Store.open(sqlite_url(saved_database))
    assert files_of(saved_database) == before
    assert_bad(capsys, ["armies", "--database", sqlite_url(saved_database)], "is empty (0 bytes)")
    assert files_of(saved_database) == before


def test_a_new_database_never_stands_empty_at_its_name(tmp_path, monkeypatch):
    """Rout makes a new file whole beside its name (another Rout starting then would take an
    empty file for one cut short); two making it at once end with one database."""
    path = tmp_path / "rout.sqlite"
    seen: list[int] = []
    connect = sqlite3.connect

    def watching(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        if path.exists():
            seen.append(path.stat().st_size)
        return connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", watching)
    create_sqlite(path)
    create_sqlite(path)  # made already: the first one stays
    Store.open(sqlite_url(path)).close()
    assert seen and 0 not in seen
    assert path.read_bytes()[:16] == b"SQLite format 3\x00"
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []


def test_damaged_pages_are_refused(saved_database):
    data = bytearray(saved_database.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data), page):  # scribble over every b-tree page header
        data[offset:offset + 8] = b"\xff" * 8
    saved_database.write_bytes(bytes(data))
    before = files_of(saved_database)
    with pytest.raises(CorruptDatabaseError):
        Store.open(sqlite_url(saved_database))
    assert files_of(saved_database) == before


def test_someone_elses_database_is_refused_and_left_as_it_is(tmp_path):
    path = tmp_path / "photos.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE photo (id INTEGER PRIMARY KEY, name TEXT)")
    before = files_of(path)
    with pytest.raises(NotRoutDatabaseError, match=r"photo.*not a Rout database"):
        Store.open(sqlite_url(path))
    assert files_of(path) == before


def test_a_database_from_a_newer_rout_is_refused_and_left_as_it_is(saved_database):
    with sqlite3.connect(saved_database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    before = files_of(saved_database)
    with pytest.raises(NewerDatabaseError, match=r"newer Rout \(schema 9999.*knows up to"):
        Store.open(sqlite_url(saved_database))
    assert files_of(saved_database) == before


def test_a_newer_postgresql_schema_is_refused(postgres_server):
    import psycopg

    url = postgres_server.url("postgres")
    plain = url.replace("+psycopg", "")
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS newer")
        connection.execute("CREATE DATABASE newer")
    Store.open(postgres_server.url("newer")).close()
    with psycopg.connect(plain.rsplit("/", 1)[0] + "/newer", autocommit=True) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(NewerDatabaseError, match="newer Rout"):
        Store.open(postgres_server.url("newer"))


def test_migrating_takes_a_copy_first_and_keeps_the_data(saved_database):
    with Store.open(sqlite_url(saved_database)) as store:
        armies = {s.id: store.load_army(s.id) for s in store.list_armies()}
    with Store.open(sqlite_url(saved_database),
                    version_locations=[EXTRA_MIGRATIONS]) as migrated:
        assert {s.id: migrated.load_army(s.id) for s in migrated.list_armies()} == armies
    [copy] = saved_database.parent.glob("rout.before-0009_test.*.sqlite")
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (database.REVISIONS[-1],)]
        assert connection.execute("SELECT count(*) FROM army").fetchone()[0] == len(armies)
    with sqlite3.connect(saved_database) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0009_test",)]
        columns = [row[1] for row in connection.execute("PRAGMA table_info(army)")]
        assert "nickname" in columns
    # This Rout does not know 0009_test: to it, the migrated database is from a newer Rout.
    with pytest.raises(NewerDatabaseError):
        Store.open(sqlite_url(saved_database))


def test_postgresql_migrates_in_place(postgres_server):
    import psycopg

    with psycopg.connect(postgres_server.url("postgres").replace("+psycopg", ""),
                         autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS migrated")
        connection.execute("CREATE DATABASE migrated")
    database_url = postgres_server.url("migrated")
    Store.open(database_url).close()
    with Store.open(database_url, version_locations=[EXTRA_MIGRATIONS]) as migrated:
        saved = migrated.save_army(army())
        assert migrated.load_army(saved.id) == saved


HOLDER = textwrap.dedent("""
    import sqlite3, sys, time
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("BEGIN EXCLUSIVE")
    connection.execute("DELETE FROM roster_entry WHERE position = 0")
    print("LOCKED", flush=True)
    sys.stdin.readline()
    connection.execute("ROLLBACK")
""")


def test_a_database_locked_by_another_program_is_reported_and_not_changed(saved_database):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(saved_database)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "LOCKED"  # type: ignore[union-attr]
        store = Store.open(sqlite_url(saved_database), busy_timeout=0.2)
        try:
            before = store.list_armies()  # readers still read under WAL
            first = store.load_army(before[0].id)
            with pytest.raises(LockedDatabaseError, match="in use by another program"):
                store.save_army(army("New"))
            with pytest.raises(LockedDatabaseError):
                store.delete_army(before[0].id)
            assert store.list_armies() == before
        finally:
            store.close()
    finally:
        holder.communicate("\n", timeout=30)
    with Store.open(sqlite_url(saved_database)) as store:
        assert store.load_army(first.id) == first
        assert len(store.list_armies()) == 30
        store.save_army(army("New"))  # the lock is gone


def test_a_rollback_journal_database_locked_exclusively_cannot_be_opened(tmp_path):
    path = tmp_path / "rout.sqlite"
    with Store.open(sqlite_url(path)) as store:
        store.save_army(army())
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode = DELETE")
    connection.close()
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "LOCKED"  # type: ignore[union-attr]
        before = files_of(path)
        with pytest.raises(LockedDatabaseError, match="in use by another program"):
            Store.open(sqlite_url(path), busy_timeout=0.2)
        assert files_of(path) == before
    finally:
        holder.communicate("\n", timeout=30)


@pytest.mark.parametrize(("url", "message"), [
    ("not a url", "is not a database URL"),
    ("nosuchdb://host/db", "no driver"),
    ("sqlite:////proc/rout-cannot-be-here/rout.sqlite", "rout.sqlite"),
])
def test_unusable_urls_are_named(url, message):
    with pytest.raises(DatabaseError, match=message):
        Store.open(url)


def test_an_unreachable_postgresql_server_is_named():
    with pytest.raises(DatabaseError, match=r"127\.0\.0\.1"):
        Store.open("postgresql+psycopg://rout@127.0.0.1:1/rout", busy_timeout=1)


def database_at(url: str, revision: str, *, down: bool = False) -> None:
    """A new database migrated only as far as `revision`, as an older Rout left it; with
    `down`, an existing one taken back down to `revision` by the migrations' downgrades."""
    from alembic import command

    engine = create_engine(url)
    try:
        _, config = database._alembic(())
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(config, revision)
    finally:
        engine.dispose()


def test_a_first_schema_database_migrates_to_the_head_with_a_copy_first(tmp_path):
    from desktop.engine.codec import profile_to_json
    from desktop.engine.model import UnitProfile

    from builders import W6_STATS

    path = tmp_path / "old.sqlite"
    database_at(sqlite_url(path), "0001")
    profile = UnitProfile("Spearmen", W6_STATS)
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO library_entry (ruleset, position, profile, points_per_model, slot, "
            "models) VALUES ('warhammer6', 0, ?, 5, 'Core', 20)",
            (json.dumps(profile_to_json(profile)),))
    connection.close()
    # 0002 gives the entry free upgrades ...
    copied = tmp_path / "copied.sqlite"
    copied.write_bytes(path.read_bytes())
    database_at(sqlite_url(copied), "0003")
    with sqlite3.connect(copied) as connection:
        assert [json.loads(costs) for costs, in connection.execute(
            "SELECT upgrade_costs FROM library_entry")] == [{}]
    connection.close()
    # ... and 0005 drops the library, a copy of the bundled one without army lists: the
    # window stores the bundled library again (tests/test_gui_composition.py).
    with Store.open(sqlite_url(path)) as store:
        assert store.load_library("warhammer6").entries == ()
    [copy] = tmp_path.glob(f"old.before-{database.HEAD}.*.sqlite")
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0001",)]
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (database.HEAD,)]


def revision_0003_database(path: Path) -> None:
    """A database an older Rout left at revision 0003, holding one army of one unit (12
    Peasant Bowmen for 84 points), written as that Rout wrote its rows."""
    from desktop.engine.codec import profile_to_json
    from desktop.engine.model import UnitProfile

    from builders import W6_STATS

    database_at(sqlite_url(path), "0003")
    profile = json.dumps(profile_to_json(UnitProfile("Peasant Bowmen", W6_STATS)))
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO army (id, name, player, ruleset, points_limit, notes, points, "
            "unit_count, model_count, created, updated) VALUES ('a1', 'Old', 'P', "
            "'warhammer6', 1000, '[]', 84, 1, 12, '2026-01-01 00:00:00', "
            "'2026-01-01 00:00:00')")
        connection.execute(
            "INSERT INTO roster_entry (army_id, position, unit_id, name, profile, models, "
            "files, upgrades, character_wounds, points, slot, notes) VALUES ('a1', 0, "
            "'hunters', 'Hunters', ?, 12, 5, '[]', 0, 84, 'Core', '[]')", (profile,))
    connection.close()


def test_a_revision_0003_database_keeps_its_units_and_points_after_0004(tmp_path):
    """Units saved before roster prices existed keep their points; nothing prices them
    from a roster, so the library (or nothing) does, as before."""
    path = tmp_path / "old.sqlite"
    revision_0003_database(path)
    with Store.open(sqlite_url(path)) as store:
        (unit,) = store.load_army("a1").units
    assert (unit.name, unit.models, unit.points, unit.price, unit.points_typed) == (
        "Hunters", 12, 84, None, False)
    assert [p.name for p in tmp_path.glob(f"old.before-{database.HEAD}.*.sqlite")]


def test_a_first_schema_postgresql_database_migrates(postgres_server):
    import psycopg

    with psycopg.connect(postgres_server.url("postgres").replace("+psycopg", ""),
                         autocommit=True) as connection:
        connection.execute("DROP DATABASE IF EXISTS old_schema")
        connection.execute("CREATE DATABASE old_schema")
    url = postgres_server.url("old_schema")
    database_at(url, "0001")
    with Store.open(url) as store:
        saved = store.save_army(army())
        assert store.load_army(saved.id) == saved
        assert store.load_library("warhammer6").entries == ()


REBUILD_MIGRATIONS = Path(__file__).parent / "data" / "migrations_rebuild"


def test_a_migration_that_rebuilds_a_table_keeps_the_rows_that_refer_to_it(saved_database):
    with Store.open(sqlite_url(saved_database)) as store:
        armies = {s.id: store.load_army(s.id) for s in store.list_armies()}
    assert sum(len(a.units) for a in armies.values()) == 600
    with Store.open(sqlite_url(saved_database),
                    version_locations=[REBUILD_MIGRATIONS]) as migrated:
        assert {s.id: migrated.load_army(s.id) for s in migrated.list_armies()} == armies


MIGRATOR = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from desktop.store.store import Store
    start = float(sys.argv[3])
    while time.time() < start:
        time.sleep(0.001)
    Store.open(sys.argv[1], version_locations=[Path(sys.argv[2])]).close()
    print("OK")
""")


def test_two_routs_migrating_at_once_migrate_once_after_one_true_copy(saved_database):
    import time

    url = sqlite_url(saved_database)
    start = str(time.time() + 1.5)
    runs = [subprocess.Popen([sys.executable, "-c", MIGRATOR, url, str(EXTRA_MIGRATIONS),
                              start], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=Path(__file__).parents[1]) for _ in range(2)]
    results = [run.communicate(timeout=120) for run in runs]
    assert [out.strip() for out, _ in results] == ["OK", "OK"], results
    copies = list(saved_database.parent.glob("rout.before-0009_test.*"))
    assert len(copies) == 1
    with sqlite3.connect(copies[0]) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (database.REVISIONS[-1],)]


def test_a_version_table_with_two_revisions_is_refused_untouched(saved_database):
    with sqlite3.connect(saved_database) as connection:
        connection.execute("INSERT INTO alembic_version VALUES ('0001')")
    connection.close()
    before = files_of(saved_database)
    with pytest.raises(NotRoutDatabaseError, match="2 schema versions"):
        Store.open(sqlite_url(saved_database))
    assert files_of(saved_database) == before


KILLED_WRITER = textwrap.dedent("""
    import os, sqlite3, sys
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    connection.execute("UPDATE alembic_version SET version_num = '9999'")
    os._exit(0)  # like a crash: the -wal file stays behind, not checkpointed
""")


def test_a_newer_database_with_a_left_over_wal_file_is_left_as_it_is(saved_database):
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(saved_database)], check=True)
    assert Path(f"{saved_database}-wal").stat().st_size > 0

    def data_files() -> dict[str, str]:
        # -shm is SQLite's shared-memory index of the -wal, rebuilt by any reader: not data.
        return {name: value for name, value in files_of(saved_database).items()
                if not name.endswith("-shm")}

    before = data_files()
    with pytest.raises(NewerDatabaseError):
        Store.open(sqlite_url(saved_database))
    assert data_files() == before


def test_a_folder_where_the_database_should_be_is_named(tmp_path):
    (tmp_path / "rout.sqlite").mkdir()
    with pytest.raises(DatabaseError, match="is a folder"):
        Store.open(sqlite_url(tmp_path / "rout.sqlite"))


def fresh_postgres_database(server, name: str) -> str:
    import psycopg

    with psycopg.connect(server.url("postgres").replace("+psycopg", ""),
                         autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


def test_postgresql_writers_of_one_battle_take_turns(postgres_server):
    import threading

    from test_store import resolved_scenario

    from desktop.engine.events import TurnBegan

    database_url = fresh_postgres_database(postgres_server, "turns")
    start, _ = resolved_scenario()
    with Store.open(database_url) as store:
        battle_id = store.create_battle(start)
        failures: list[BaseException] = []

        def write(offset: int) -> None:
            try:
                for index in range(10):
                    store.append_step(battle_id, [TurnBegan(offset * 100 + index + 2)] * 5)
            except BaseException as error:  # collected and reported below
                failures.append(error)

        threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        saved = store.load_battle(battle_id)
    assert len(saved.steps) == 40 and len(saved.events) == 200


def test_a_postgresql_row_lock_held_elsewhere_is_reported_not_waited_on(postgres_server):
    import psycopg

    plain = postgres_server.url("postgres").replace("+psycopg", "")
    with psycopg.connect(plain, autocommit=True) as admin:
        admin.execute("DROP DATABASE IF EXISTS locked")
        admin.execute("CREATE DATABASE locked")
    url = postgres_server.url("locked")
    with Store.open(url, busy_timeout=0.5) as store:
        saved = store.save_army(army())
        with psycopg.connect(plain.rsplit("/", 1)[0] + "/locked") as holder:
            holder.execute("SELECT * FROM army WHERE id = %s FOR UPDATE", (saved.id,))
            with pytest.raises(LockedDatabaseError, match="in use by another program"):
                store.save_army(saved)
        store.save_army(saved)  # released


# ---------------------------------------------------------------------------------------------
# The copy taken before migrating: killed half-way, it is whole or it is not there

MIGRATE = "from desktop.store.store import Store; import sys; Store.open(sys.argv[1]).close()"


@pytest.fixture(scope="module")
def old_big_database(tmp_path_factory) -> Path:
    """A first-schema database of ~24 MB: copying it takes long enough to be killed in."""
    path = tmp_path_factory.mktemp("old") / "old.sqlite"
    database_at(sqlite_url(path), "0001")
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE padding (blob BLOB)")
        connection.executemany("INSERT INTO padding VALUES (?)",
                               [(os.urandom(64 * 1024),) for _ in range(384)])
    connection.close()
    return path


def _check_copies(folder: Path) -> int:
    """Every `before-` copy in `folder` is a whole database: the old revision, every row."""
    copies = sorted(folder.glob(f"old.before-{database.HEAD}.*"))
    for copy in copies:
        with sqlite3.connect(f"{copy.resolve().as_uri()}?mode=ro", uri=True) as connection:
            assert connection.execute("PRAGMA quick_check").fetchall() == [("ok",)], copy
            assert connection.execute("SELECT version_num FROM alembic_version").fetchall() \
                == [("0001",)]
            assert connection.execute("SELECT count(*) FROM padding").fetchone() == (384,)
        connection.close()
    return len(copies)


def _killed_while_copying(old: Path, folder: Path, after: float | None) -> None:
    """Migrate a copy of `old` in `folder` and SIGKILL it: as soon as any new file shows up
    (after=None), or `after` seconds after it started."""
    import signal
    import time

    target = folder / "old.sqlite"
    target.write_bytes(old.read_bytes())
    before = set(os.listdir(folder))
    run = subprocess.Popen([sys.executable, "-c", MIGRATE, sqlite_url(target)],
                           cwd=Path(__file__).parents[1], stderr=subprocess.DEVNULL)
    started = time.monotonic()
    try:
        while run.poll() is None:
            seen = set(os.listdir(folder)) - before - {"old.sqlite-wal", "old.sqlite-shm",
                                                      "old.sqlite-journal"}
            if (after is None and seen) or (after is not None
                                            and time.monotonic() - started >= after):
                break
            time.sleep(0.0005)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)


def test_a_copy_killed_as_it_starts_is_not_left_looking_like_a_backup(old_big_database,
                                                                      tmp_path):
    for attempt in range(3):
        folder = tmp_path / f"attempt{attempt}"
        folder.mkdir()
        _killed_while_copying(old_big_database, folder, after=None)
        _check_copies(folder)
        # Rout starts again: the migration runs, after a whole copy, and tidies up.
        Store.open(sqlite_url(folder / "old.sqlite")).close()
        assert _check_copies(folder) >= 1
        assert not list(folder.glob(".*.part"))


def test_copies_killed_at_random_moments_are_whole(old_big_database, tmp_path):
    import random
    import time

    started = time.monotonic()
    Store.open(sqlite_url(_copied(old_big_database, tmp_path / "timing"))).close()
    whole_run = time.monotonic() - started
    chance = random.Random(20_240_601)
    for attempt in range(8):
        folder = tmp_path / f"attempt{attempt}"
        folder.mkdir()
        _killed_while_copying(old_big_database, folder, after=chance.uniform(0, whole_run))
        _check_copies(folder)


def _copied(path: Path, folder: Path) -> Path:
    folder.mkdir()
    target = folder / "old.sqlite"
    target.write_bytes(path.read_bytes())
    return target
