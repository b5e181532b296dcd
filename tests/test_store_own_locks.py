"""SQLite's locks on a file Rout holds open are never dropped behind SQLite's back.

On POSIX systems closing *any* descriptor a process has on a file drops *all* of that
process's locks on it, including those SQLite's own connections hold. A second program that
then closes the file believes it is the last user, checkpoints and deletes the WAL under the
first: "database disk image is malformed" (issue 21). So while this process has a SQLite
connection on a file, Rout never opens that file with Python's open(): the header is read
only while nobody here holds the file, and a check runs through SQLite.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from concurrency_worker import army as worker_army

from desktop.store import sqlite_file
from desktop.store.checking import check_database
from desktop.store.errors import StoreError
from desktop.store.files import read_bytes
from desktop.store.store import Store
from desktop.store.transfer import write_army_file

REPO = Path(__file__).resolve().parents[1]
WORKER = REPO / "tests" / "concurrency_worker.py"


def other_program_writes(url: str, tag: str) -> None:
    """`rout import` from a terminal: another process opens the file, writes, closes."""
    result = subprocess.run([sys.executable, str(WORKER), "writer", url, "1", tag], cwd=REPO,
                            env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert '"errors": []' in result.stdout, result.stdout


@pytest.fixture
def window_store(tmp_path):
    """A store as the window holds it: open, read from, its connection kept in the pool."""
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    with Store.open(url) as store:
        store.save_army(worker_army("Mine", 5))
        store.list_armies()
        yield store, path, url


def test_check_database_beside_another_writer_keeps_the_file_healthy(window_store):
    store, path, url = window_store
    assert check_database(store).ok
    other_program_writes(url, "Terminal")
    # This process still has the file open, so the other program was not the last user.
    assert sqlite_file.wal_path(path).exists(), "the other program took itself for the last"
    store.save_army(worker_army("Mine again", 5))
    assert {army.name for army in store.list_armies()} >= {"Mine", "Mine again", "Terminal 0"}
    report = check_database(store)
    assert report.ok, report.problems
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    connection.close()


def test_opening_the_same_file_again_in_this_process_keeps_the_first_ones_locks(
        window_store):
    store, path, url = window_store
    with Store.open(url) as second:  # File ▸ Open Recent on the file already shown
        assert len(second.list_armies()) == 1
    other_program_writes(url, "Terminal")
    assert sqlite_file.wal_path(path).exists(), "the other program took itself for the last"
    store.save_army(worker_army("Mine again", 5))
    assert check_database(store).ok


def test_the_open_database_is_not_read_as_an_army_file(window_store):
    _store, path, _url = window_store
    with pytest.raises(StoreError, match="database Rout has open"):
        read_bytes(path, what="Rout JSON file")


def test_nothing_is_exported_over_the_open_database(window_store):
    store, path, _url = window_store
    army_id = store.list_armies()[0].id
    with pytest.raises(StoreError, match="database Rout has open"):
        write_army_file(store.load_army(army_id), path, "json")
    assert store.list_armies()[0].id == army_id  # still the database, still readable
