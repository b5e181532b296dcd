"""A database Rout may only read, in the real window: a SQLite file in a read-only folder, or
a read-only file (made so for real by tests/read_only.py). The window opens it, shows every
army and battle with editing off, says why in the status bar, and changes nothing.
"""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from read_only import read_only
from test_gui_battles import drag, steps_stored
from test_gui_roster import (  # noqa: F401
    GOBLINS,
    cell,
    modals,  # autouse: no dialog may appear (not the welcome, not "Unfinished resolution")
    open_window,
    sample,
    seed,
    select_rows,
)

from desktop.engine.moves import deploy
from desktop.engine.setup import deploy_facing, new_battle
from desktop.gui.main_window import MainWindow
from desktop.store.store import Store
from desktop.store.transfer import read_army_file

from builders import army

ELVES = "Elf Marchwardens"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def club(tmp_path) -> tuple[Path, str]:
    """A closed database with the two W6 sample armies and a battle with one step and an
    unfinished resolution; (its file, the battle's id)."""
    path = tmp_path / "club" / "rout.sqlite"
    path.parent.mkdir()
    url = f"sqlite:///{path}"
    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    made = new_battle("warhammer6", [goblins, elves], title="Ford")
    uid = next(iter(made.battle.roster))
    placed = deploy(made.battle, uid, (20.0, 6.0),
                    deploy_facing(made.battle, made.battle.player_of(uid)))
    with Store.open(url) as store:
        battle_id = store.create_battle(made.battle, made.title)
        store.append_step(battle_id, [placed])
        store.save_pending(battle_id, "combat_aftermath", {"combats": []}, [], "Half done")
    return path, battle_id


@pytest.mark.parametrize("which", ["folder", "file"])
def test_the_window_shows_a_read_only_database_with_editing_off(qtbot, club, which, tmp_path):
    path, battle_id = club
    before = digest(path)
    with read_only(path.parent if which == "folder" else path):
        window = open_window(qtbot, f"sqlite:///{path}")
        store = window.store
        assert store is not None and store.read_only

        # The status bar says so, and why.
        label = window.read_only_status
        assert label.isVisible()
        assert label.text() == f"Read-only: {store.read_only_reason}"
        assert label.toolTip().startswith(f"{path} can only be read ({store.read_only_reason})"
                                          ", so editing is off.")
        assert window.database_status.text() == str(path)

        # Everything is there to read.
        assert {a.name for a in window.workspace.armies()} == {GOBLINS, ELVES}
        window.select_army(window.find_army(GOBLINS).id)
        select_rows(window, ["spearmen"])
        assert "Hill Goblin Spearmen" in window.ui.unitTitle.text()
        for action in (window.ui.actionExport, window.ui.actionExportPdf,
                       window.ui.actionPrint):
            assert action.isEnabled(), action.objectName()
        assert window.export_army(tmp_path / "goblins.json")
        assert read_army_file(tmp_path / "goblins.json").army.name == GOBLINS

        # Nothing that would change it can be started.
        for action in (window.ui.actionNewArmy, window.ui.actionImport,
                       window.ui.actionOpenSamples, window.ui.actionAddUnits,
                       window.ui.actionDuplicateUnit, window.ui.actionDeleteUnit,
                       window.ui.actionUseListedPrice, window.ui.actionArmySettings,
                       window.ui.actionDeleteArmy):
            assert not action.isEnabled(), action.objectName()
        points = cell(window, "spearmen", "points")
        assert not points.flags() & Qt.ItemFlag.ItemIsEditable
        view = window.ui.rosterTable
        view.setCurrentIndex(points)
        qtbot.keyClick(view, Qt.Key.Key_F2)
        assert view.indexWidget(points) is None  # F2 opens no editor
        tree = window.tree_model
        unit = tree.unit_index(window.find_army(GOBLINS).id, "spearmen")
        assert not tree.flags(unit) & (Qt.ItemFlag.ItemIsDragEnabled
                                       | Qt.ItemFlag.ItemIsDropEnabled)

        # Battles open (no offer to resume the unfinished resolution: it could not be
        # kept); nothing on the table moves.
        battles = window.battles
        listed = battles.list_model.index(battles.list_model.row_of(battle_id), 0)
        assert not listed.flags() & Qt.ItemFlag.ItemIsEditable
        battles.open_battle(battle_id)
        qtbot.waitUntil(lambda: battles.battle is not None, timeout=10_000)
        qtbot.wait(50)  # the resume offer would come on the next turn of the event loop
        for action in (window.ui.actionNewBattle, window.ui.actionSampleBattles,
                       window.ui.actionRenameBattle, window.ui.actionDuplicateBattle,
                       window.ui.actionDeleteBattle, window.ui.actionDeployArmy,
                       window.ui.actionResolveCombat, window.ui.actionStartOfTurn,
                       window.ui.actionNextTurn):
            assert not action.isEnabled(), action.objectName()
        assert window.ui.actionExportReport.isEnabled()
        assert not window.ui.reserveList.dragEnabled()
        scene = window.battlefield_scene
        assert scene.read_only
        window.battlefield_view.fit_table()
        deployed = next(uid for uid, state in battles.battle.states.items()
                        if state.status.on_table)
        start = battles.battle.states[deployed].center
        drag(window, start, (start[0] + 2.0, start[1] + 4.0))
        assert window.battle_status.text() == (
            f"The database can only be read ({store.read_only_reason}): nothing on the table "
            "can move")
        assert battles.battle.states[deployed].center == start
        assert window.undo_stack.count() == 0
        window.close()
    assert digest(path) == before
    assert steps_stored(f"sqlite:///{path}", battle_id) == 1
    assert not Path(f"{path}.rout-lock").exists()


def test_a_database_that_cannot_be_created_in_a_read_only_folder_is_named(qtbot, tmp_path):
    from desktop.gui.main_window import MainWindow

    folder = tmp_path / "cd"
    folder.mkdir()
    window = MainWindow()
    qtbot.addWidget(window)
    with read_only(folder), qtbot.waitSignal(window.failed, timeout=20_000) as failed:
        window.open_database(f"sqlite:///{folder / 'rout.sqlite'}")
    assert failed.args[0].startswith(f"{folder / 'rout.sqlite'} does not exist and cannot be "
                                      "created: ")
    assert list(folder.iterdir()) == []


def test_a_writable_database_shows_no_read_only_note(qtbot, tmp_path):
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    assert not window.read_only_status.isVisible()
    assert window.ui.actionNewArmy.isEnabled() and window.ui.actionImport.isEnabled()
    points = cell(window, "spearmen", "points")
    assert points.flags() & Qt.ItemFlag.ItemIsEditable
    view = window.ui.rosterTable
    view.setCurrentIndex(points)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = view.indexWidget(points)
    assert editor is not None  # the same key edits a writable database
    qtbot.keyClick(editor, Qt.Key.Key_Escape)


# ---------------------------------------------------------------------------------------------
# Issue 21 items 12 and 14: a damaged file is left as it is; a locked one is read


def damage_the_roster_index(path: Path) -> None:
    """Overwrite the header of a leaf page of roster_entry's primary key index: the pages
    start-up reads are whole, and `rout check-database` calls the file damaged."""
    with sqlite3.connect(path) as connection:
        root, = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = "
                                   "'sqlite_autoindex_roster_entry_1'").fetchone()
        leaves = [page for (page,) in connection.execute(
            "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_roster_entry_1' AND "
            "pagetype = 'leaf' ORDER BY pageno") if page != root]
        size, = connection.execute("PRAGMA page_size").fetchone()
    connection.close()
    assert len(leaves) > 2, "the index should span several pages"
    with path.open("r+b") as handle:
        handle.seek((leaves[len(leaves) // 2] - 1) * size)
        handle.write(b"\xff" * 8)


def test_the_window_leaves_a_file_damaged_where_it_first_reads_byte_identical(qtbot,
                                                                             tmp_path):
    """It stored the bundled libraries (the file had none, as after `rout import`) before it
    read the armies and found the damage: "Rout left it as it is" was not true."""
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    seed(url, *(army(f"Army {number}", units=30) for number in range(40)))
    damage_the_roster_index(path)
    before = digest(path)
    window = MainWindow()
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.failed, timeout=20_000) as failed:
        window.open_database(url)
    assert "is damaged" in failed.args[0]
    window.close()
    assert digest(path) == before
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as connection:
        assert connection.execute("SELECT count(*) FROM library_entry").fetchone() == (0,)
    connection.close()


def test_a_database_another_program_keeps_locked_opens_read_only_and_says_why(qtbot,
                                                                             tmp_path):
    """The window stores the bundled libraries in a database that has none, and waited for
    the lock, then refused the file the CLI reads. It shows it read-only now."""
    path = tmp_path / "rout.sqlite"
    url = f"sqlite:///{path}"
    seed(url, sample(GOBLINS))
    writer = sqlite3.connect(path, isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")  # another program in the middle of writing
    try:
        window = open_window(qtbot, url)
        store = window.store
        assert store is not None and store.read_only
        assert "another program kept it locked" in store.read_only_reason
        assert window.read_only_status.isVisible()
        assert window.read_only_status.text() == f"Read-only: {store.read_only_reason}"
        assert {a.name for a in window.workspace.armies()} == {GOBLINS}
        assert window.workspace.library("warhammer6")  # the bundled one, not stored
    finally:
        writer.rollback()
        writer.close()
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as connection:
        assert connection.execute("SELECT count(*) FROM library_entry").fetchone() == (0,)
    connection.close()
