"""Several programs on one database at once, each a real separate process
(tests/concurrency_worker.py), for a fixed number of rounds.

On one SQLite file, readers (`rout armies`) run while writers (`rout import`) add armies:
no reader may ever call the healthy file damaged. On one PostgreSQL database (and one SQLite
file), two editors add units to the same army: every save either lands or is refused with a
message, so at the end the army holds exactly the units whose saves landed.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from concurrency_worker import army as worker_army
from read_only import NOBODY, is_root

from desktop.store.store import Store

from builders import army

WORKER = Path(__file__).with_name("concurrency_worker.py")
REPO = Path(__file__).resolve().parents[1]

# One of each: with more, some program nearly always has the file open. Before the fix,
# about one read in twenty called this file damaged.
READERS, READER_ROUNDS = 1, 150
WRITERS, WRITER_ROUNDS = 1, 60
EDITORS, EDITOR_ROUNDS = 2, 25


def start(*argv: object, user: list[str] | None = None) -> subprocess.Popen[str]:
    """The worker in a process of its own; `user`: a command prefix that runs it as
    someone else."""
    return subprocess.Popen([*(user or []), sys.executable, str(WORKER), *map(str, argv)],
                            cwd=REPO, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def report(process: subprocess.Popen[str]) -> dict:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def fill(path: Path) -> str:
    url = f"sqlite:///{path}"
    with Store.open(url) as store:
        # Some megabytes, so that reading it takes a while (as a player's database does).
        for index in range(800):
            store.save_army(worker_army(f"Filler {index}", 50))
    return url


def test_readers_never_call_a_healthy_sqlite_file_damaged_while_writers_import(tmp_path):
    path = tmp_path / "rout.sqlite"
    url = fill(path)
    writers = [start("writer", url, WRITER_ROUNDS, f"W{index}") for index in range(WRITERS)]
    readers = [start("reader", url, READER_ROUNDS) for _ in range(READERS)]
    written = [report(process) for process in writers]
    read = [report(process) for process in readers]
    damaged = [message for result in read for message in result["damaged"]]
    assert damaged == [], f"{len(damaged)} of {READERS * READER_ROUNDS} reads: {damaged[:3]}"
    assert [result["errors"] for result in read] == [[]] * READERS
    assert [result["errors"] for result in written] == [[]] * WRITERS
    assert sum(result["saved"] for result in written) == WRITERS * WRITER_ROUNDS
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("SELECT count(*) FROM army").fetchone()[0] == (
            800 + WRITERS * WRITER_ROUNDS)
    connection.close()


@pytest.mark.skipif(not is_root(), reason="as root only: the reader runs as an unprivileged "
                    "user, for whom the folder is read-only while root writes in it")
def test_a_reader_who_may_not_write_never_calls_the_file_damaged_while_its_owner_writes(
        nobodys_folder):
    """Rout reads such a file without SQLite's locks when nobody has it open (it cannot
    make the -shm they need); the owner may start writing meanwhile."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("no setpriv (util-linux) to run a reader as an unprivileged user")
    nobody = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    path = nobodys_folder / "rout.sqlite"
    url = fill(path)
    path.chmod(0o644)
    probe = start("reader", url, 1, user=nobody)
    if probe.wait(timeout=120) != 0:
        pytest.skip("the unprivileged user cannot run this Python or read the repository")
    writers = [start("writer", url, WRITER_ROUNDS, f"W{index}") for index in range(WRITERS)]
    readers = [start("reader", url, READER_ROUNDS, user=nobody) for _ in range(READERS)]
    written = [report(process) for process in writers]
    read = [report(process) for process in readers]
    damaged = [message for result in read for message in result["damaged"]]
    assert damaged == [], f"{len(damaged)} of {READERS * READER_ROUNDS} reads: {damaged[:3]}"
    # Only "it kept changing while Rout read it; try again" may stop a read.
    others = [message for result in read for message in result["errors"]]
    assert all("while Rout read it" in message for message in others), others[:3]
    assert sum(result["saved"] for result in written) == WRITERS * WRITER_ROUNDS
    print(f"{len(others)} of {READERS * READER_ROUNDS} reads asked to try again")


def test_two_editors_of_one_army_lose_no_edit_without_a_message(database_url):
    with Store.open(database_url) as store:
        first = store.save_army(army("Shared", units=2))
    editors = [start("editor", database_url, EDITOR_ROUNDS, f"E{index}", first.id)
               for index in range(EDITORS)]
    results = [report(process) for process in editors]
    assert [result["errors"] for result in results] == [[]] * EDITORS
    landed = [unit_id for result in results for unit_id in result["saved"]]
    assert len(landed) == EDITORS * EDITOR_ROUNDS  # every edit was redone until it landed
    with Store.open(database_url) as store:
        final = store.load_army(first.id)
    kept = [unit.id for unit in final.units]
    assert sorted(kept) == sorted([unit.id for unit in first.units] + landed)
    refused = [message for result in results for message in result["refused"]]
    assert all("changed by someone else" in message for message in refused)
    print(f"{len(landed)} edits landed, {len(refused)} refused and redone")
