"""The window across sessions and other programs (issue: editors and layout, frictions): a
second window turned away closes itself, the last army comes back after a restart, Open
Database has a Browse button, and changes another program makes to the file show up.

Everything runs for real: main windows on SQLite files in tmp_path, settings in an INI file,
`rout import` as a separate process.
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from test_gui_roster import (  # noqa: F401
    BATTLESCRIBE_ROSTER,
    GOBLINS,
    modals,
    open_window,
    sample,
    seed,
    small_army,
    url,
)

from desktop.gui.main_window import MainWindow

REPO = Path(__file__).resolve().parents[1]


def ini(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "rout.ini"), QSettings.Format.IniFormat)


def window_with_settings(qtbot, settings: QSettings) -> MainWindow:
    """A shown window that keeps its settings, as `rout` starts one."""
    window = MainWindow(settings=settings)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.layout().activate()
    window.show()
    qtbot.waitExposed(window)
    return window


# A second window on the same file


def test_a_refused_second_window_closes_itself_after_saying_so(qtbot, url, tmp_path, modals):
    seed(url, small_army())
    first = open_window(qtbot, url)
    second = window_with_settings(qtbot, ini(tmp_path))
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Ok, seen)
    with qtbot.waitSignal(second.failed) as refused:
        second.open_database(url)
    assert "open in another Rout window" in refused.args[0]
    qtbot.waitUntil(lambda: not modals.pending)
    assert seen and "open in another Rout window" in seen[0]
    # No empty shell stays behind: the window goes once the player has read why.
    qtbot.waitUntil(lambda: not second.isVisible())
    assert second.store is None
    assert first.isVisible() and first.store is not None


def test_a_window_with_a_database_keeps_it_when_another_is_refused(qtbot, tmp_path, modals):
    """Switching to a file another window has open is refused; this window stays as it was."""
    mine = f"sqlite:///{tmp_path / 'mine.sqlite'}"
    theirs = f"sqlite:///{tmp_path / 'theirs.sqlite'}"
    seed(mine, small_army())
    seed(theirs, sample(GOBLINS))
    other = open_window(qtbot, theirs)
    window = window_with_settings(qtbot, ini(tmp_path))
    with qtbot.waitSignal(window.ready):
        window.open_database(mine)
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Ok, seen)
    with qtbot.waitSignal(window.failed):
        window.open_database(theirs)
    qtbot.waitUntil(lambda: not modals.pending)
    qtbot.wait(50)
    assert window.isVisible()
    assert window.store is not None and window.store.url == mine
    assert [a.name for a in window.workspace.armies()] == [small_army().name]
    assert other.isVisible()


# The last army after a restart


def test_after_a_restart_the_last_army_is_selected(qtbot, url, tmp_path):
    goblins, elves, small = seed(url, sample(GOBLINS), sample("Elf Marchwardens"),
                                 small_army())
    settings = ini(tmp_path)
    window = window_with_settings(qtbot, settings)
    with qtbot.waitSignal(window.ready):
        window.open_database(url)
    # Without a remembered army the first one in the tree is shown.
    assert window.current_army is not None and window.current_army.id == elves.id
    # Chosen in the Armies dock, as a player does.
    window.ui.armyTree.setCurrentIndex(window.tree_model.army_index(small.id))
    assert window.current_army.id == small.id
    window.close()

    again = window_with_settings(qtbot, ini(tmp_path))
    with qtbot.waitSignal(again.ready):
        again.open_database(url)
    assert again.current_army is not None and again.current_army.id == small.id
    assert again.ui.armyTree.currentIndex() == again.tree_model.army_index(small.id)
    again.close()

    # An army that is gone since (deleted by another program) falls back to the first.
    from desktop.store.store import Store

    with Store.open(url) as store:
        store.delete_army(small.id)
    third = window_with_settings(qtbot, ini(tmp_path))
    with qtbot.waitSignal(third.ready):
        third.open_database(url)
    assert third.current_army is not None and third.current_army.id == elves.id
    assert goblins.id in {a.id for a in third.workspace.armies()}


# Open Database: typed or browsed


def test_open_database_has_a_browse_button(qtbot, tmp_path, url, modals):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

    from desktop.gui.dialogs import OpenDatabaseDialog

    seed(url, small_army())
    other_folder = tmp_path / "club"
    other_folder.mkdir()
    other = other_folder / "club.sqlite"
    seed(f"sqlite:///{other}", sample(GOBLINS))
    window = open_window(qtbot, url)
    seen: dict[str, str] = {}

    def browse(dialog: OpenDatabaseDialog) -> None:
        seen["typed"] = dialog.ui.locationEdit.text()
        # Clicked from its own turn of the event loop: the file dialog it opens is modal too.
        QTimer.singleShot(0, dialog.ui.browseButton.click)

    def pick(files: QFileDialog) -> None:
        seen["folder"] = files.directory().absolutePath()
        files.selectFile(str(other))
        files.accept()

    def open_it(dialog: OpenDatabaseDialog) -> None:
        seen["browsed"] = dialog.ui.locationEdit.text()
        dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Open).click()

    modals.answer(OpenDatabaseDialog, browse)
    modals.answer(QFileDialog, pick)
    modals.answer(OpenDatabaseDialog, open_it)
    with qtbot.waitSignal(window.ready, timeout=20_000):
        window.ui.actionOpenDatabase.trigger()
    assert seen["typed"] == url
    assert seen["folder"] == str(tmp_path)  # it starts where the open database is
    assert seen["browsed"] == str(other)
    assert window.store is not None and window.store.url == f"sqlite:///{other}"
    assert [a.name for a in window.workspace.armies()] == [GOBLINS]


def test_open_database_cancelled_changes_nothing(qtbot, url, modals):
    from desktop.gui.dialogs import OpenDatabaseDialog

    seed(url, small_army())
    window = open_window(qtbot, url)
    modals.answer(OpenDatabaseDialog, lambda dialog: dialog.reject())
    window.ui.actionOpenDatabase.trigger()
    assert window.store is not None and window.store.url == url


# Changes another program makes while the window is open


def rout(*argv: str) -> subprocess.CompletedProcess[str]:
    """`rout …` as its own process, as a player runs it beside the window."""
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "desktop", *argv], capture_output=True,
                          text=True, env=environment, timeout=120, check=False)


def tree_names(window: MainWindow) -> list[str]:
    model = window.tree_model
    names = []
    for group in range(model.rowCount()):
        parent = model.index(group, 0)
        names += [model.index(row, 0, parent).data() for row in range(model.rowCount(parent))]
    return names


def test_an_army_rout_import_adds_shows_up_in_the_open_window(qtbot, url, tmp_path):
    from desktop.store.transfer import write_army_file

    small, = seed(url, small_army())
    window = open_window(qtbot, url)
    # An edit of the player's own first: it must stay undoable.
    window.select_units(["trolls"])
    window.duplicate_units()
    assert window.undo_stack.count() == 1
    path = tmp_path / "goblins.json"
    write_army_file(sample(GOBLINS), path)
    done = rout("import", str(path), "--database", url)
    assert done.returncode == 0, done.stderr
    # The file watch sees the write; the tree follows without F5.
    qtbot.waitUntil(lambda: GOBLINS in tree_names(window), timeout=10_000)
    assert window.current_army.id == small.id  # what the player looks at stays
    assert "Hill Goblin Warband" in window.statusBar().currentMessage()
    # News of the database, not of a battle: the battle log is left alone (issue 20, 16).
    assert "changed the database" not in window.ui.logView.toPlainText()
    # Nothing the undo history refers to changed: it is kept, and still works.
    assert window.undo_stack.count() == 1
    window.undo_action.trigger()
    assert [u.id for u in window.current_army.units] == ["spearmen", "trolls"]


def test_own_edits_are_not_taken_for_another_programs(qtbot, url):
    small, _, _ = seed(url, small_army(), sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    reload = window.database_reload
    window.select_army(small.id)
    window.select_units(["trolls"])
    window.duplicate_units()
    window.ui.actionCloneArmy.trigger()
    # An imported BattleScribe roster too: its profiles and notes must read back the same.
    with qtbot.waitSignal(window.workspace.army_added, timeout=20_000):
        window.import_army(BATTLESCRIBE_ROSTER)
    # The watch fires for these writes too; what it reads matches the window.
    qtbot.waitUntil(lambda: reload.checks >= 1, timeout=10_000)
    qtbot.waitUntil(lambda: not reload.busy, timeout=10_000)
    assert window.undo_stack.count() == 3
    assert "changed the database" not in window.ui.logView.toPlainText()
    window.ui.actionReload.trigger()
    qtbot.waitUntil(lambda: not reload.busy, timeout=10_000)
    assert window.statusBar().currentMessage() == "Nothing changed in the database"
    assert window.undo_stack.count() == 3


def test_f5_reloads_what_another_program_changed(qtbot, url):
    from dataclasses import replace

    from desktop.store.store import Store

    small, goblins, elves = seed(url, small_army(), sample(GOBLINS),
                                 sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    window.database_reload.watch_enabled = False  # only F5 here (as for PostgreSQL)
    window.select_army(goblins.id)
    window.select_units(["trolls"])
    window.delete_units()  # the undo history now refers to the goblins
    assert window.ui.actionReload.shortcut().toString() == "F5"
    with Store.open(url) as store:
        store.save_army(replace(store.load_army(goblins.id), name="Goblins Renamed"))
        store.delete_army(elves.id)
    window.ui.actionReload.trigger()
    qtbot.waitUntil(lambda: "Goblins Renamed" in tree_names(window), timeout=10_000)
    assert "Elf Marchwardens" not in tree_names(window)
    assert window.current_army.name == "Goblins Renamed"
    # Undoing would now overwrite the other program's change: the history goes, and says so.
    assert window.undo_stack.count() == 0
    said = window.statusBar().currentMessage()
    assert "changed Goblins Renamed" in said and "removed Elf Marchwardens" in said
    assert "undo history was cleared" in said
    assert "changed the database" not in window.ui.logView.toPlainText()
    # The window's view agrees with a fresh reader of the file.
    assert window.workspace.army(goblins.id) == stored_army(url, goblins.id)
    assert window.workspace.army(small.id) == small


def test_a_reload_waits_for_the_cell_being_edited(qtbot, url):
    from dataclasses import replace

    from test_gui_roster import cell, open_editor, type_number

    from desktop.store.store import Store

    small, goblins = seed(url, small_army(), sample(GOBLINS))
    window = open_window(qtbot, url)
    window.select_army(small.id)
    spin = open_editor(window, cell(window, "trolls", "stat:Ld"))
    type_number(qtbot, spin, 9)
    with Store.open(url) as store:
        store.save_army(replace(store.load_army(goblins.id), name="Renamed Elsewhere"))
    window.ui.actionReload.trigger()
    qtbot.wait(300)
    # The editor and what was typed in it are still there.
    assert window.ui.rosterTable.indexWidget(cell(window, "trolls", "stat:Ld")) is spin
    assert spin.cleanText() == "9"  # typed, not yet entered
    assert "Renamed Elsewhere" not in tree_names(window)
    from PySide6.QtCore import Qt

    qtbot.keyClick(spin, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Renamed Elsewhere" in tree_names(window), timeout=10_000)
    trolls = next(u for u in stored_army(url, small.id).units if u.id == "trolls")
    assert trolls.profile.stats["Ld"] == 9


def test_a_battle_another_program_adds_shows_up(qtbot, url):
    from desktop.engine.setup import deploy_army, new_battle
    from desktop.store.store import Store

    goblins, elves = seed(url, sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    panel = window.battles
    assert panel.list_model.rowCount() == 0
    start = new_battle("warhammer6", [goblins, elves]).battle
    with Store.open(url) as store:
        battle_id = store.create_battle(start, "Fought elsewhere")
    qtbot.waitUntil(lambda: panel.list_model.rowCount() == 1, timeout=10_000)
    assert panel.list_model.index(0, 0).data().startswith("Fought elsewhere")

    # The open battle takes a step elsewhere (`rout move` does that): it is folded again.
    with qtbot.waitSignal(panel.opened, timeout=10_000):
        panel.open_battle(battle_id)
    assert not list(panel.battle.on_table())
    with Store.open(url) as store:
        store.append_step(battle_id, deploy_army(start, goblins.player))
    qtbot.waitUntil(lambda: panel.battle is not None and len(list(panel.battle.on_table()))
                    == len(goblins.units), timeout=10_000)


def stored_army(url: str, army_id: str):
    from desktop.store.store import Store

    with Store.open(url) as store:
        return store.load_army(army_id)
