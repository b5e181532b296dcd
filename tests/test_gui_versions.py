"""Two players on one database: an edit the window makes from an army someone else has
changed since is refused with "changed by someone else", the window reloads the army, and
the edit can be redone, keeping both.

The other player is a real separate process saving through the store; the window is real,
on a SQLite file and on the PostgreSQL server (where there is no file to watch, and two
windows may share a database).
"""

# ruff: noqa: F811  (the fixture modals comes from test_gui_roster)
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from test_gui_roster import (  # noqa: F401
    cell,
    modals,
    open_window,
    seed,
    small_army,
    stored,
    unit_ids,
    unit_of,
)

from desktop.gui.main_window import MainWindow

REPO = Path(__file__).resolve().parents[1]

ANOTHER_PLAYER = textwrap.dedent("""
    import sys
    from dataclasses import replace

    from desktop.store.store import Store

    url, army_id, change = sys.argv[1:]
    with Store.open(url) as store:
        army = store.load_army(army_id)
        if change == "add":
            theirs = replace(army.units[0], id="theirs", name="Their Unit")
            store.save_army(replace(army, units=(*army.units, theirs)))
        else:
            store.save_army(replace(army, name="Renamed by Them"))
""")


def another_player(url: str, army_id: str, change: str) -> None:
    subprocess.run([sys.executable, "-c", ANOTHER_PLAYER, url, army_id, change], cwd=REPO,
                   env={**os.environ, "PYTHONPATH": str(REPO)}, check=True, timeout=60)


def window_on(qtbot, url: str) -> MainWindow:
    window = open_window(qtbot, url)
    # The other player's save lands before the file watch could show it (as it may):
    # only the version check stands between the edit and their change.
    window.database_reload.watch_enabled = False
    return window


def test_an_edit_from_an_older_version_is_refused_and_can_be_redone(qtbot, database_url,
                                                                     modals):
    (army,) = seed(database_url, small_army())
    window = window_on(qtbot, database_url)
    window.select_army(army.id)
    original = unit_of(army, "trolls").name
    another_player(database_url, army.id, "add")
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Ok, seen)
    assert not window.roster_filter.setData(cell(window, "trolls", "name"), "Big Trolls")
    assert seen and "changed by someone else" in seen[0]
    assert "redo" in seen[0]
    # The window reloads the army: their unit is there, the refused edit is not, and there
    # is nothing to undo.
    qtbot.waitUntil(lambda: "theirs" in unit_ids(window.workspace.army(army.id)),
                    timeout=10_000)
    assert unit_of(window.workspace.army(army.id), "trolls").name == original
    assert window.undo_stack.count() == 0
    assert window.current_army.id == army.id
    # Redone, the edit lands, and both changes are kept.
    assert window.roster_filter.setData(cell(window, "trolls", "name"), "Big Trolls")
    kept = stored(database_url, army.id)
    assert "theirs" in unit_ids(kept)
    assert unit_of(kept, "trolls").name == "Big Trolls"
    assert kept == window.workspace.army(army.id)


def test_deleting_an_army_someone_else_changed_is_refused(qtbot, database_url, modals):
    (army,) = seed(database_url, small_army())
    window = window_on(qtbot, database_url)
    window.select_army(army.id)
    another_player(database_url, army.id, "rename")
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Yes, seen)  # Delete the army? Yes
    modals.message(QMessageBox.StandardButton.Ok, seen)
    window.delete_army()
    qtbot.waitUntil(lambda: len(seen) == 2, timeout=10_000)
    assert "changed by someone else" in seen[1]
    qtbot.waitUntil(lambda: window.workspace.army(army.id) is not None and
                    window.workspace.army(army.id).name == "Renamed by Them", timeout=10_000)
    assert stored(database_url, army.id).name == "Renamed by Them"
