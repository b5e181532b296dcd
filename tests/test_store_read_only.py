"""Databases Rout may only read: a real SQLite file in a read-only folder, or itself
read-only, opened by the store and the headless commands.

The folder or file is made read-only for real (tests/read_only.py: permissions, or a
read-only bind mount when the tests run as root, whom permissions do not stop). Reading
works, every change is refused with a message naming the reason, and the file is left as it
was, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import BATTLESCRIBE_ROSTER, REPO
from read_only import NOBODY, is_root, read_only
from sqlalchemy import create_engine, event
from sqlalchemy.pool import NullPool
from test_store_database import revision_0003_database

from desktop.engine.composition import Library
from desktop.engine.events import TurnBegan
from desktop.engine.scenario import load_scenario
from desktop.store.errors import DatabaseError, NewerDatabaseError, ReadOnlyDatabaseError
from desktop.store.gamedata import DataInput, add_data, list_data, load_game_data
from desktop.store.sqlite_file import connect_immutable
from desktop.store.store import Store
from desktop.store.transfer import read_army_file

from bsdata_samples import CAT, GST
from builders import army, assert_bad, run_cli

ARMY = "Bretonnian Expedition (A Dark Conspiracy, prologue)"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def url_of(path: Path) -> str:
    return f"sqlite:///{path}"


def fill(path: Path) -> tuple[str, str]:
    """The real Bretonnian roster and a scenario's battle with one step; (army, battle) ids."""
    scenario = load_scenario(json.loads(
        (REPO / "resources" / "scenarios" / "w6-goblins-vs-elves.json").read_text()))
    with Store.open(url_of(path)) as store:
        army = store.save_army(read_army_file(BATTLESCRIBE_ROSTER).army)
        battle_id = store.create_battle(scenario.battle, "Ford")
        store.append_step(battle_id, [TurnBegan(2)])
        store.save_pending(battle_id, "combat_aftermath", {"combats": []}, [], "Half done")
    return army.id, battle_id


@pytest.fixture
def saved(tmp_path) -> Path:
    """A closed Rout database at the head revision in its own folder."""
    path = tmp_path / "club" / "rout.sqlite"
    path.parent.mkdir()
    fill(path)
    return path


@pytest.fixture(params=["folder", "file"])
def which(request) -> str:
    return str(request.param)


def target(path: Path, which: str) -> Path:
    return path.parent if which == "folder" else path


def test_the_headless_commands_read_a_read_only_database(saved, which, tmp_path, capsys):
    before = digest(saved)
    url = url_of(saved)
    with read_only(target(saved, which)):
        code, out, err = run_cli(capsys, "armies", "--database", url)
        assert (code, err) == (0, "")
        (listed,) = json.loads(out)
        assert (listed["name"], listed["points"], listed["units"]) == (ARMY, 705, 6)

        code, out, err = run_cli(capsys, "battles", "--database", url)
        assert code == 0 and [b["title"] for b in json.loads(out)] == ["Ford"]

        exported = tmp_path / "out" / "army.json"
        exported.parent.mkdir()
        code, out, err = run_cli(capsys, "export", ARMY, exported, "--database", url)
        assert (code, err) == (0, "")
        assert read_army_file(exported).army.points == 705

        line = assert_bad(capsys, ["import", BATTLESCRIBE_ROSTER, "--database", url],
                          "can only be read (", "nothing was changed",
                          prefix=f"rout import: {saved}")
        assert "unable to open" not in line and "readonly database" not in line
    assert digest(saved) == before


def test_the_store_reads_everything_and_changes_nothing(saved, which):
    before = digest(saved)
    with read_only(target(saved, which)), Store.open(url_of(saved)) as store:
        assert store.read_only and not store.shown_from_copy
        assert store.read_only_reason in (
            "it is on a read-only file system",
            "its folder is read-only, and SQLite writes beside the file",
            "the file is read-only")
        (summary,) = store.list_armies()
        army = store.load_army(summary.id)
        assert army.points == 705 and army.units[4].price is not None
        (battle,) = store.list_battles()
        loaded = store.load_battle(battle.id)
        assert loaded.state.turn == 2
        assert store.load_pending(battle.id) is not None
        assert store.load_library("warhammer6").entries == ()
        changes = [
            lambda: store.save_army(army),
            lambda: store.delete_army(army.id),
            lambda: store.save_library(Library("warhammer6")),
            lambda: store.create_battle(loaded.start, "Another"),
            lambda: store.append_step(battle.id, [TurnBegan(3)]),
            lambda: store.rename_battle(battle.id, "Renamed"),
            lambda: store.delete_battle(battle.id),
            lambda: store.remove_last_step(battle.id),
            lambda: store.save_pending(battle.id, "combat_aftermath", {}, []),
            lambda: store.drop_pending(battle.id),
        ]
        for change in changes:
            with pytest.raises(ReadOnlyDatabaseError) as refused:
                change()
            assert str(refused.value) == (
                f"{saved} can only be read ({store.read_only_reason}): copy it where you may "
                "write to change it; nothing was changed")
        assert store.load_army(army.id) == army
    assert digest(saved) == before


@pytest.fixture
def private_temp(tmp_path, monkeypatch) -> Path:
    """Where the store's private copies go during this test."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def old_database(path: Path) -> None:
    """A database an older Rout left at revision 0003, holding one army row."""
    revision_0003_database(path)


def test_an_older_read_only_database_is_shown_from_a_private_up_to_date_copy(
        tmp_path, which, private_temp):
    path = tmp_path / "old" / "rout.sqlite"
    path.parent.mkdir()
    old_database(path)
    before = {p.name: digest(p) for p in path.parent.iterdir()}
    with read_only(target(path, which)):
        store = Store.open(url_of(path))
        try:
            assert store.read_only and store.shown_from_copy
            assert store.describe() == str(path)  # the player's file, not the copy
            (unit,) = store.load_army("a1").units
            assert (unit.name, unit.models, unit.points, unit.price) == ("Hunters", 12, 84,
                                                                         None)
            assert [p.name for p in private_temp.iterdir()]  # the copy, while it is open
            with pytest.raises(ReadOnlyDatabaseError):
                store.delete_army("a1")
        finally:
            store.close()
    assert list(private_temp.iterdir()) == []  # the copy goes with the store
    # No copy "before migrating" beside it, no migration: the file is as the old Rout left it.
    assert {p.name: digest(p) for p in path.parent.iterdir() if p.name in before} == before
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0003",)]
    connection.close()


def test_a_newer_read_only_database_is_refused_as_newer(saved, which):
    with sqlite3.connect(saved) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    connection.close()
    before = digest(saved)
    with read_only(target(saved, which)), pytest.raises(NewerDatabaseError, match="newer Rout"):
        Store.open(url_of(saved))
    assert digest(saved) == before


def test_no_database_in_a_read_only_folder_is_named_not_created(tmp_path, capsys):
    folder = tmp_path / "cd"
    folder.mkdir()
    missing = folder / "rout.sqlite"
    with read_only(folder):
        with pytest.raises(DatabaseError) as caught:
            Store.open(url_of(missing))
        assert str(caught.value).startswith(f"{missing} does not exist and cannot be created: ")
        code, out, _ = run_cli(capsys, "armies", "--database", url_of(missing))
        assert (code, json.loads(out)) == (0, [])  # reading never creates, as before
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(not is_root(), reason="as root only: drops to an unprivileged user, for "
                    "whom file permissions make the database read-only")
@pytest.mark.parametrize("which", ["folder", "file"])
def test_an_unprivileged_player_reads_a_database_they_may_not_write(nobodys_folder, which):
    """Permissions, as a player meets them: root runs `rout` as `nobody` on a file root owns."""
    path = nobodys_folder / "club" / "rout.sqlite"
    path.parent.mkdir()
    fill(path)
    path.chmod(0o444 if which == "file" else 0o644)
    path.parent.chmod(0o777 if which == "file" else 0o555)
    before = digest(path)
    environment = {**os.environ, "PYTHONPATH": str(REPO), "ROUT_DATABASE": url_of(path)}

    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("no setpriv (util-linux) to run `rout` as an unprivileged user")

    def rout(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}",
                               "--clear-groups", sys.executable, "-m", "desktop", *argv],
                              cwd=nobodys_folder, env=environment, capture_output=True,
                              text=True, timeout=60, check=False)

    if rout("odds", "panic", "--ld", "7").returncode != 0:
        pytest.skip("the unprivileged user cannot run this Python or read the repository")
    listed = rout("armies")
    assert (listed.returncode, listed.stderr) == (0, "")
    assert [army["name"] for army in json.loads(listed.stdout)] == [ARMY]
    refused = rout("import", str(BATTLESCRIBE_ROSTER))
    reason = ("its folder is read-only, and SQLite writes beside the file" if which == "folder"
              else "the file is read-only")
    assert refused.returncode == 2
    assert refused.stderr == (f"rout import: {path} can only be read ({reason}): copy it "
                              "where you may write to change it; nothing was changed\n")
    assert digest(path) == before


def test_game_data_read_without_locks_while_another_program_writes_is_read_again(tmp_path):
    """A database in a folder Rout may not write is read without SQLite's locks when nobody
    has it open (an immutable connection, as read_only_engine falls back to); a read that
    met another program's write is done again, for game data as for armies (Store.read),
    never an error of the store's own."""
    path = tmp_path / "rout.sqlite"
    with Store.open(url_of(path)) as owner:
        add_data(owner, [DataInput("t.gst", GST.encode()), DataInput("t.cat", CAT.encode())])
    engine = create_engine("sqlite://", poolclass=NullPool, creator=lambda: connect_immutable(
        path, 1.0, check_same_thread=False))
    writes: list[str] = []

    @event.listens_for(engine, "before_cursor_execute")
    def another_program_writes(*_: object) -> None:
        if not writes:  # during the first read only: the file changes under it
            writes.append("army")
            with Store.open(url_of(path)) as other:
                other.save_army(army("Written meanwhile"))

    reader = Store(engine, url=url_of(path), read_only="its folder is read-only")
    try:
        assert [(d.kind, d.id) for d in list_data(reader)] == [("gameSystem", "gs"),
                                                                ("catalogue", "cat")]
        assert writes == ["army"]
        assert load_game_data(reader, "gs", "cat").catalogues["cat"].name == "Knights"
        assert [a.name for a in reader.list_armies()] == ["Written meanwhile"]
    finally:
        reader.close()
