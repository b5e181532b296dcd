"""The window's file dialogs read nothing of the files they list (desktop/gui/file_dialogs).

A real-window try of issue 23 found that Qt's own file dialog, shown on the folder of the
open database, read rout.sqlite, -wal and -shm to tell their types; closing them dropped
SQLite's locks (POSIX locks are per process), the next program to close the database
deleted the window's write-ahead log, and the window's later saves went to a deleted file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QDir, QStandardPaths
from PySide6.QtWidgets import QFileDialog
from test_gui_roster import open_window, seed, small_army, stored, unit_of

from desktop.gui import file_dialogs

# Another program opening and closing the database, as `rout armies` does.
OTHER_PROGRAM = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1])
con.execute("select count(*) from sqlite_master").fetchall()
con.close()
"""


def _listed(qtbot, dialog: QFileDialog, folder: Path) -> None:
    """Shown on `folder` in its detail view (the Type column too) until its files are
    listed and typed (the file system model does it in a thread), then closed."""
    dialog.setViewMode(QFileDialog.ViewMode.Detail)
    dialog.setDirectory(str(folder))
    dialog.setFilter(QDir.Filter.AllEntries | QDir.Filter.Hidden)
    dialog.show()
    qtbot.wait(1500)
    dialog.reject()


def test_a_file_dialog_on_the_databases_folder_keeps_sqlites_locks(qtbot, tmp_path):
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    wal = tmp_path / "rout.sqlite-wal"
    window.roster_filter.setData(window.roster_filter.index(0, 0), "Spear Boyz")
    qtbot.waitUntil(lambda: wal.exists(), timeout=5000)
    for dialog in (file_dialogs.file_dialog(window, "Import Army", str(tmp_path)),
                   file_dialogs.file_dialog(window, "Add Game Data", str(tmp_path))):
        _listed(qtbot, dialog, tmp_path)
    subprocess.run([sys.executable, "-c", OTHER_PROGRAM, str(tmp_path / "rout.sqlite")],
                   check=True, timeout=60)
    assert wal.exists(), "another program's close deleted the window's write-ahead log"
    # And the window's next save is seen by others at once, as it should be.
    window.roster_filter.setData(window.roster_filter.index(0, 0), "Spear Lads")
    qtbot.waitUntil(lambda: unit_of(stored(url, army.id), army.units[0].id).name
                    == "Spear Lads", timeout=5000)


def test_a_dialog_without_a_folder_opens_in_documents_not_where_rout_started(qtbot):
    """A real-window try of issue 23: file dialogs opened in the folder Rout was started
    from. A file name alone is offered in the Documents folder (else the home folder)."""
    documents = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation)
    home = Path(documents) if documents and Path(documents).is_dir() else Path.home()
    for directory in ("", "Elf Marchwardens.json"):
        dialog = file_dialogs.file_dialog(None, "Export Army", directory)
        assert Path(dialog.directory().absolutePath()) == home.resolve()
        dialog.deleteLater()
    dialog = file_dialogs.file_dialog(None, "Import Army", "/tmp")
    assert dialog.directory().absolutePath() == "/tmp"


def test_every_file_dialog_of_the_window_is_made_in_file_dialogs():
    """Qt's static file dialogs (QFileDialog.getOpenFileName and the rest) type files by
    reading them: none is used outside desktop/gui/file_dialogs.py."""
    gui = Path(__file__).resolve().parents[1] / "desktop" / "gui"
    found = [f"{path.relative_to(gui)}:{number}"
             for path in sorted(gui.rglob("*.py")) if path.name != "file_dialogs.py"
             and "forms" not in path.parts
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "QFileDialog.get" in line or "QFileDialog(" in line]
    assert found == []
