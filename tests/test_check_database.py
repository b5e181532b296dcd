"""`rout check-database`: the full check that start-up leaves out.

Start-up reads the header, the schema and the revision, so its cost does not grow with the
database; damage anywhere else is found by the explicit check (and by whatever reads it).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from sqlalchemy import create_engine, text

from desktop.store.checking import DatabaseCheck
from desktop.store.store import Store

from builders import army, assert_bad, run_cli


def saved(url: str, armies: int = 40) -> list[str]:
    with Store.open(url) as store:
        return [store.save_army(army(f"Army {index}", units=30)).id for index in range(armies)]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def damage_a_roster_page(path: Path) -> None:
    """Scribble over the header of a roster_entry leaf page that is not its root: a page
    start-up never reads."""
    with sqlite3.connect(path) as connection:
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                                  "'roster_entry'").fetchone()[0]
        leaves = [page for (page,) in connection.execute(
            "SELECT pageno FROM dbstat WHERE name = 'roster_entry' AND pagetype = 'leaf' "
            "ORDER BY pageno") if page != root]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    assert len(leaves) > 4, "the roster should span many pages"
    page = leaves[len(leaves) // 2]
    with path.open("r+b") as handle:
        handle.seek((page - 1) * size)
        handle.write(b"\xff" * 8)


def test_a_healthy_database_checks_clean(capsys, database_url):
    saved(database_url, armies=3)
    code, out, err = run_cli(capsys, "check-database", "--database", database_url)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["ok"] is True
    assert report["problems"] == []
    assert report["armies"] == 3


def test_damage_start_up_does_not_read_is_found_by_the_check(capsys, tmp_path):
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    saved(url)
    damage_a_roster_page(path)
    before = digest(path)
    # Listing reads the army table alone: it still works, and quickly on a big file.
    code, out, _ = run_cli(capsys, "armies", "--database", url)
    assert code == 0 and len(json.loads(out)) == 40
    line = assert_bad(capsys, ["check-database", "--database", url], str(path), "is damaged",
                      "Rout left it as it is", prefix="rout check-database: ")
    assert "restore a copy" in line
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rout.sqlite"]


def test_a_row_that_no_longer_reads_as_rout_data_is_named(capsys, database_url):
    [army_id, *_] = saved(database_url, armies=2)
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE roster_entry SET profile = '{\"nonsense\": 1}' "
                                    "WHERE army_id = :id"), {"id": army_id})
    finally:
        engine.dispose()
    assert_bad(capsys, ["check-database", "--database", database_url], "is damaged",
               "Army 0", prefix="rout check-database: ")


def test_start_up_still_refuses_damage_in_what_it_reads(capsys, tmp_path):
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    saved(url, armies=3)
    with sqlite3.connect(path) as connection:
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                                  "'army'").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    with path.open("r+b") as handle:
        handle.seek((root - 1) * size)
        handle.write(b"\xff" * 8)
    for command in ("armies", "check-database"):
        assert_bad(capsys, [command, "--database", url], "is damaged",
                   prefix=f"rout {command}: ")


def test_check_database_on_no_database_creates_none(capsys, tmp_path):
    path = tmp_path / "none.sqlite"
    assert_bad(capsys, ["check-database", "--database", f"sqlite:///{path}"],
               "there is no database", prefix="rout check-database: ")
    assert not path.exists()


def test_each_damaged_table_is_named(capsys, tmp_path):
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    saved(url, armies=200)
    with sqlite3.connect(path) as connection:
        size = connection.execute("PRAGMA page_size").fetchone()[0]
        pages = []
        for table in ("roster_entry", "army"):
            root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                                      (table,)).fetchone()[0]
            pages += [page for (page,) in connection.execute(
                "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", (table,))
                if page != root][:2]
    connection.close()
    with path.open("r+b") as handle:
        for page in pages:
            handle.seek((page - 1) * size)
            handle.write(b"\xff" * 8)
    assert_bad(capsys, ["check-database", "--database", url], "is damaged", "table army:",
               "table roster_entry:", prefix="rout check-database: ")


def test_a_long_list_of_problems_is_cut_on_one_line():
    report = DatabaseCheck("club.sqlite", tuple(f"problem {n}" for n in range(7)), True,
                           0, 0, 0, 0)
    assert report.summary() == "problem 0; problem 1; problem 2 (and 4 more)"
    assert not report.ok
