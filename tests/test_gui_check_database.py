"""File ▸ Check Database: the full check start-up leaves out, run from the window.

Real windows on SQLite files in tmp_path; the damage is real bytes scribbled on a page.
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox
from test_check_database import damage_a_roster_page
from test_gui_roster import modals, open_window, seed, url  # noqa: F401

from desktop.store.database import sqlite_path

from builders import army


def check(qtbot, window, modals) -> str:
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Ok, seen)
    window.ui.actionCheckDatabase.trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=20_000)
    return seen[0]


def test_a_healthy_database_is_said_to_be_healthy(qtbot, url, modals):
    seed(url, *(army(f"Army {index}") for index in range(3)))
    window = open_window(qtbot, url)
    assert window.ui.actionCheckDatabase.isEnabled()
    said = check(qtbot, window, modals)
    assert "No problems found" in said
    assert "3 armies" in said
    assert "No problems found" in window.ui.logView.toPlainText()


def test_damage_start_up_did_not_read_is_shown_with_what_to_do(qtbot, url, modals):
    seed(url, *(army(f"Army {index}", units=30) for index in range(40)))
    window = open_window(qtbot, url)
    window.database_reload.watch_enabled = False  # the scribbling is no edit to show
    path = sqlite_path(url)
    assert isinstance(path, Path)
    damage_a_roster_page(path)
    said = check(qtbot, window, modals)
    assert "is damaged" in said
    assert "table roster_entry" in said
    assert "Restore a copy" in said
    assert "is damaged" in window.ui.logView.toPlainText()
