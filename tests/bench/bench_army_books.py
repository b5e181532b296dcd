"""The army books in the window: Add Units on the largest shared catalogue, its filter, and
adding every shared data file through the Game Data dialog. Not part of the unit tests: run

    QT_QPA_PLATFORM=offscreen python tests/bench/bench_army_books.py

Issue 23's budgets, on the shared data in a fresh database:
- `add_units_open_largest`: Add Units chosen on an army of The Empire (the largest shared
  catalogue), its book read (as it is once the army is on screen), until the dialog is shown
  with its rows painted: 200 ms;
- `add_units_filter_per_key`: a name typed into its filter letter by letter, each key until
  the list is painted again: 30 ms a key (the median; the slowest is in the details);
- `game_data_dialog_add_all`: every shared file added from the Game Data dialog (a worker,
  its progress dialog shown) against `rout data add` of the same files in this run: at
  most 1.5x; `game_data_dialog_longest_frame`: the longest the window's thread went
  without turning its event loop meanwhile: 100 ms.
Budgets are stretched on a slow host; exits 1 over budget.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QEventLoop, QObject, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from report import Report
from window_fixture import open_window

from desktop.engine.model import Army
from desktop.gui import app
from desktop.gui.army_books import _forces
from desktop.gui.book_dialogs import BookUnitsDialog
from desktop.store import armybooks as books
from desktop.store.gamedata import collect

REPO = Path(__file__).resolve().parents[2]
BSDATA = REPO.parent / "shared" / "data" / "bsdata"
SHARED = (BSDATA / "lexicanum", BSDATA / "ergofarg")
LARGEST = "The Empire"
OPEN_BUDGET = 0.200
KEY_BUDGET = 0.030
FRAME_BUDGET = 0.100
ADD_RATIO_BUDGET = 1.5
TYPED = "swordsmen"
RUNS = 5
TICK_MS = 5


def settle(qt: QApplication) -> None:
    """Every posted event and repaint handled: the frame a player sees."""
    qt.processEvents()
    qt.processEvents()


class Ticks(QObject):
    """The gaps between turns of the window thread's event loop, while running."""

    def __init__(self) -> None:
        super().__init__()
        self.longest = 0.0
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._tick()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self._last)
        self._last = now


class Shown(QObject):
    """The time the first BookUnitsDialog is shown and painted, then it is closed."""

    def __init__(self, then: object) -> None:
        super().__init__()
        self.at = 0.0
        self.dialog: BookUnitsDialog | None = None
        self._then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if isinstance(watched, BookUnitsDialog) and event.type() == QEvent.Type.Paint \
                and self.dialog is None:
            self.dialog = watched
            QTimer.singleShot(0, self._shown)
        return False

    def _shown(self) -> None:
        self.at = time.perf_counter()
        assert self.dialog is not None
        self._then(self.dialog)  # type: ignore[operator]


def headless_add_seconds(folder: Path) -> float:
    """`rout data add` of the shared files into a fresh database, as a player runs it (the
    issue's measure: start-up and migrations included): the better of two."""
    times = []
    for run in range(2):
        command = [sys.executable, "-m", "desktop", "data", "add", *map(str, SHARED),
                   "--database", f"sqlite:///{folder / f'headless-{run}.sqlite'}"]
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, cwd=REPO, check=True)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    report = Report("army_books")
    _, stretch = report.baseline_2d6()
    if not all(folder.is_dir() for folder in SHARED):
        print(f"army_books: no shared data at {BSDATA}; nothing measured")
        return report.finish()
    with tempfile.TemporaryDirectory(prefix="rout-bench-army-books-") as name:
        folder = Path(name)
        headless = report.time("headless_add_all", headless_add_seconds(folder),
                               details=f"rout data add of {len(collect(list(SHARED)))} files")
        url = f"sqlite:///{folder / 'rout.sqlite'}"
        qt, window, problem = open_window(url)
        if problem:
            print(f"bench army_books: {problem}", file=sys.stderr)
            return 1
        army_books = window.army_books

        # Adding every shared file through the Game Data dialog, the window turning.
        army_books.show_game_data()
        ticks, loop = Ticks(), QEventLoop()
        started = time.perf_counter()
        ticks.start()
        army_books.add_paths(list(SHARED), army_books.dialog, on_finished=loop.quit)
        loop.exec()
        ticks.stop()
        added = time.perf_counter() - started
        dialog = army_books.dialog
        rows = len(dialog.rows) if dialog is not None else 0
        if dialog is not None:
            dialog.reject()
        settle(qt)
        report.time("game_data_dialog_add_all", added, baseline=headless,
                    budget=ADD_RATIO_BUDGET * headless.value,
                    failed="" if rows else "nothing was stored",
                    details=f"{rows} rows in the dialog; at most {ADD_RATIO_BUDGET:g}x "
                            "the headless add")
        report.time("game_data_dialog_longest_frame", ticks.longest, budget=FRAME_BUDGET,
                    stretch=stretch, details=f"a {TICK_MS} ms timer's longest wait")

        # An army of the largest catalogue, its book read as it is once shown.
        book = next(b for b in army_books.book_choices() if b.catalogue_name == LARGEST)
        got: list[object] = []
        read_started = time.perf_counter()
        army_books.load(book, got.append)
        army_books.wait_for_books()
        while not got:
            qt.processEvents()
        read = time.perf_counter() - read_started
        loaded = army_books.loaded(book)
        assert loaded is not None
        built = books.new_book_army(loaded.data, book.catalogue_id, _forces(loaded)[0].id,
                                    "Reiksguard", "Ann", 2000)
        saved = army_books._push(None, built.army, "New")
        assert isinstance(saved, Army)
        window.select_army(saved.id)
        settle(qt)
        report.time("read_largest_book", read, details=f"{LARGEST}: {len(loaded.units)} "
                                                       "units, read once per window")

        opened: list[float] = []
        keys: list[float] = []
        shown_rows: list[int] = []
        for run in range(RUNS):
            def typed(dialog: BookUnitsDialog, first: bool = run == 0) -> None:
                shown_rows.append(len(dialog.shown()))
                if first:
                    for letter in TYPED:
                        key_started = time.perf_counter()
                        QTest.keyClicks(dialog.ui.searchEdit, letter)
                        settle(qt)
                        keys.append(time.perf_counter() - key_started)
                dialog.reject()
            watcher = Shown(typed)
            qt.installEventFilter(watcher)
            started = time.perf_counter()
            QTimer.singleShot(0, window.ui.actionAddUnits.trigger)
            while watcher.dialog is None or not watcher.at:
                qt.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
            opened.append(watcher.at - started)
            qt.removeEventFilter(watcher)
            settle(qt)
        app._close(window)
    report.time("add_units_open_largest", statistics.median(opened), budget=OPEN_BUDGET,
                stretch=stretch, failed="" if min(shown_rows) else "no units listed",
                details=f"{LARGEST}, {shown_rows[0]} units listed; median of {RUNS} "
                        f"({min(opened) * 1e3:.0f}–{max(opened) * 1e3:.0f} ms)")
    report.time("add_units_filter_per_key", statistics.median(keys), budget=KEY_BUDGET,
                stretch=stretch, details=f"'{TYPED}' typed, median of {len(keys)} keys; "
                                         f"slowest {max(keys) * 1e3:.1f} ms")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
