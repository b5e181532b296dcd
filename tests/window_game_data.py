"""Run by test_real_window.py in a child pytest on a real X server (xcb), never collected
by the suite itself: File ▸ Game Data adds a folder, in a new database each round, and the
window must come back from it (issue 23; the window froze for good in progress.close() once
in three adds on xcb). faulthandler ends a frozen round with the stacks."""

from __future__ import annotations

import faulthandler
import sys

import pytest
from test_gui_army_books import LEXICANUM, open_game_data
from test_gui_roster import open_window

ROUNDS = 8
FROZEN_AFTER_SECONDS = 60


@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_adding_game_data_gives_the_window_back(qtbot, tmp_path, round_number):
    window = open_window(qtbot, f"sqlite:///{tmp_path / 'rout.sqlite'}")
    dialog = open_game_data(qtbot, window)
    faulthandler.dump_traceback_later(FROZEN_AFTER_SECONDS, exit=True, file=sys.stderr)
    try:
        window.army_books.add_paths([LEXICANUM], dialog)
        qtbot.waitUntil(lambda: window.army_books.progress is None, timeout=50_000)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert window.army_books.last_report.startswith("Game data: stored")
    dialog.reject()
