"""The window across sessions and other programs (issue: editors and layout, frictions): a
second window turned away closes itself, the last army comes back after a restart, Open
Database has a Browse button, and changes another program makes to the file show up.

Everything runs for real: main windows on SQLite files in tmp_path, settings in an INI file,
`rout import` as a separate process.
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from test_gui_roster import (  # noqa: F401
    GOBLINS,
    modals,
    open_window,
    sample,
    seed,
    small_army,
    url,
)

from desktop.gui.main_window import MainWindow


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
