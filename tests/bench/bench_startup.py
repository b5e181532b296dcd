"""Start-up benchmark (DESIGN.md budgets). Not part of the unit tests: run

    python tests/bench/bench_startup.py [--runs N]

Process start to the first painted frame of Rout's main window, with 50 armies of 20 units
in the database, against a bare PySide6 script that builds a window of the same size and
shape (menu bar, toolbar, three docks, a central widget), waits for its first paint, grabs
it and saves a PNG. Every run is a new process (QT_QPA_PLATFORM=offscreen) timed with
`time.perf_counter` from its start until its picture is in place (every picture is written
whole and then renamed, so it appears complete); the process must then exit with status 0.
The kinds of run are interleaved so that all see the same machine, and the median of each
is compared: the first-paint ratio must stay <= 1.5, the armies-shown ratio <= 4. The whole
process, start to picture and exit, is compared too, each screenshot run against the bare
window of its round (the median of those pairs), also <= 4.

Rout is started as `python -m desktop --database URL` with ROUT_FIRST_PAINT_FILE set:
desktop/gui/app.py then saves the first painted frame to that file and ends the process at
once (os._exit), so nothing after the first frame, such as the database read, is timed. The
bare script ends the same way. Both frames must be 1280x800. `--screenshot` (which waits
until the armies are shown) is timed too, against the same baseline, until its picture is
there: what a player waits for, not the interpreter's tidying up after it.
Prints report.py's lines; exits 1 when a ratio is over budget or a run fails.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_store import make_army
from report import Report

from desktop.engine.model import Army
from desktop.store.gamedata import add_data, collect, list_data
from desktop.store.store import Store

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "bsdata"

RATIO_BUDGET = 1.5
ARMIES_SHOWN_BUDGET = 4.0  # issue 14: the screenshot with the armies, against the bare window
ARMIES = 50
UNITS_PER_ARMY = 20
TIMEOUT = 60.0
POLL_SECONDS = 0.002
FIRST_PAINT_ENVIRONMENT = "ROUT_FIRST_PAINT_FILE"
WINDOW_SIZE = (1280, 800)

BARE_WINDOW = '''\
"""The baseline: a bare PySide6 main window shown, painted once, grabbed and saved."""
import os
import sys

from PySide6.QtCore import QEvent, QIODevice, QObject, QSaveFile, Qt, QTimer
from PySide6.QtWidgets import (
    QApplication, QDockWidget, QLabel, QMainWindow, QPlainTextEdit, QTableView, QTabWidget,
    QTreeView,
)

path = sys.argv[1]
app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setWindowTitle("Bare")
window.resize(1280, 800)
for title in ("&File", "&Edit", "&Army", "&View", "&Help"):
    menu = window.menuBar().addMenu(title)
    for index in range(4):
        menu.addAction(f"{title.strip('&')} {index}")
toolbar = window.addToolBar("Main")
for name in ("New", "Open", "Undo", "Redo", "Add", "Delete", "Print"):
    toolbar.addAction(name)
tabs = QTabWidget()
tabs.addTab(QTableView(), "Roster")
tabs.addTab(QLabel("Battlefield"), "Battlefield")
window.setCentralWidget(tabs)
for title, widget, area in (
        ("Armies", QTreeView(), Qt.DockWidgetArea.LeftDockWidgetArea),
        ("Inspector", QLabel("No army selected"), Qt.DockWidgetArea.RightDockWidgetArea),
        ("Battle log", QPlainTextEdit(), Qt.DockWidgetArea.BottomDockWidgetArea)):
    dock = QDockWidget(title, window)
    dock.setObjectName(title)
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
window.statusBar().showMessage("Ready")


def save_and_exit():
    # Written whole, then put in place, as Rout saves its pictures (the timer waits for it).
    file = QSaveFile(path)
    saved = file.open(QIODevice.OpenModeFlag.WriteOnly) and window.grab().save(file, "PNG") \
        and file.commit()
    sys.stdout.flush()
    os._exit(0 if saved else 2)


class FirstPaint(QObject):
    painted = False

    def eventFilter(self, watched, event):
        if not self.painted and event.type() == QEvent.Type.Paint:
            self.painted = True
            # The children paint in the same pass as the window: grab once it is over.
            QTimer.singleShot(0, save_and_exit)
        return False


first_paint = FirstPaint(window)
window.installEventFilter(first_paint)
window.layout().activate()
window.show()
sys.exit(app.exec())
'''


class RunFailed(Exception):
    """A child process failed, hung or saved no picture; the message says which and why."""


def build_database(url: str) -> int:
    """ARMIES armies of UNITS_PER_ARMY units each, as a player's database would hold them,
    and the shared game data (both data sets: 2 game systems, 21 catalogues) when the shared
    copy is there, since stored data must not slow the start (issue 22). Returns how many
    game data files are stored."""
    template = make_army(UNITS_PER_ARMY)
    with Store.open(url) as store:
        for index in range(ARMIES):
            store.save_army(Army(f"Army {index:02}", f"Player {index % 7}", template.ruleset,
                                 template.units, template.points_limit))
        assert len(store.list_armies()) == ARMIES
        if BSDATA.is_dir():
            for folder in sorted(p for p in BSDATA.iterdir() if p.is_dir()):
                add_data(store, collect([folder]))
        return len(list_data(store))


def child_environment(folder: Path) -> dict[str, str]:
    """Offscreen Qt, and a scratch home: the user's settings, layout and logs stay untouched."""
    home = folder / "home"
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home)}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
                 "XDG_RUNTIME_DIR"):
        path = home / name.lower()
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        environment[name] = str(path)
    environment.pop(FIRST_PAINT_ENVIRONMENT, None)
    environment.pop("ROUT_DATABASE", None)
    # An installed app runs from byte-code (pip compiles it on install). Without this, a
    # shell with PYTHONDONTWRITEBYTECODE would time compiling Rout's sources on every start
    # while the bare script has almost nothing to compile.
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return environment


def timed_run(command: Sequence[str], picture: Path, environment: dict[str, str],
              cwd: Path) -> tuple[float, float]:
    """Seconds from process start until `picture` is in place, and until the process has
    ended; it must exit with status 0."""
    picture.unlink(missing_ok=True)
    start = time.perf_counter()
    seconds = None
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(command, env=environment, cwd=cwd, stdout=subprocess.DEVNULL,
                                   stderr=errors, text=True)
        try:
            while process.poll() is None or seconds is None:
                if seconds is None and picture.exists():
                    seconds = time.perf_counter() - start
                elif process.poll() is not None:
                    if picture.exists():  # put in place just before it ended
                        seconds = time.perf_counter() - start
                    break
                if time.perf_counter() - start > TIMEOUT:
                    raise subprocess.TimeoutExpired(command, TIMEOUT)
                time.sleep(POLL_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            hint = ""
            if environment.get(FIRST_PAINT_ENVIRONMENT):
                hint = (f" (does desktop/gui/app.py honour {FIRST_PAINT_ENVIRONMENT}? Without "
                        "it the app never exits on its own)")
            raise RunFailed(f"{' '.join(command)} did not exit in {TIMEOUT:.0f} s{hint}"
                            ) from None
        ended = time.perf_counter() - start
        errors.seek(0)
        stderr = errors.read()
    if process.returncode != 0 or seconds is None or picture.stat().st_size == 0:
        raise RunFailed(f"{' '.join(command)} exited with {process.returncode} and "
                        f"{'saved' if picture.is_file() else 'did not save'} {picture}:\n"
                        f"{stderr.strip()}")
    return seconds, ended


def app_has_first_paint_hook() -> bool:
    """Whether desktop/gui/app.py honours ROUT_FIRST_PAINT_FILE (read, not imported: no Qt here)."""
    spec = importlib.util.find_spec("desktop.gui.app")
    return bool(spec and spec.origin
                and FIRST_PAINT_ENVIRONMENT in Path(spec.origin).read_text(encoding="utf-8"))


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    header = path.read_bytes()[:24]
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise RunFailed(f"{path} is not a PNG")
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def spread(timings: Sequence[float]) -> str:
    return f"{min(timings):.2f}–{max(timings):.2f} s over {len(timings)} runs"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each kind (default 15)")
    args = parser.parse_args(argv)
    if not app_has_first_paint_hook():
        print(f"bench startup: desktop/gui/app.py does not honour {FIRST_PAINT_ENVIRONMENT}, "
              "so the app cannot report its first frame", file=sys.stderr)
        return 1
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="rout-bench-startup-") as name:
        folder = Path(name)
        url = f"sqlite:///{folder / 'rout.sqlite'}"
        data_files = build_database(url)
        bare_script = folder / "bare_window.py"
        bare_script.write_text(BARE_WINDOW, encoding="utf-8")
        environment = child_environment(folder)
        first_paint_environment = {**environment,
                                   FIRST_PAINT_ENVIRONMENT: str(folder / "first-paint.png")}
        # Run from the scratch folder, as an installed `rout` is: `python -m` puts the current
        # folder first on sys.path.
        cwd = folder
        runs: dict[str, Callable[[], tuple[float, float]]] = {
            "bare": lambda: timed_run([python, str(bare_script), str(folder / "bare.png")],
                                      folder / "bare.png", environment, cwd),
            "first_paint": lambda: timed_run([python, "-m", "desktop", "--database", url],
                                             folder / "first-paint.png",
                                             first_paint_environment, cwd),
            "screenshot": lambda: timed_run(
                [python, "-m", "desktop", "--screenshot", str(folder / "screenshot.png"),
                 "--database", url], folder / "screenshot.png", environment, cwd),
        }
        timings: dict[str, list[float]] = {kind: [] for kind in runs}
        endings: dict[str, list[float]] = {kind: [] for kind in runs}
        try:
            for run in runs.values():  # warm-up: byte-code, font and disk caches
                run()
            # Like for like: both windows are painted at the same size.
            for picture in ("bare.png", "first-paint.png"):
                if png_size(folder / picture) != WINDOW_SIZE:
                    raise RunFailed(f"{picture} is {png_size(folder / picture)}, not "
                                    f"{WINDOW_SIZE}: the windows must be the same size")
            order = list(runs)
            for round_number in range(args.runs):
                # Rotate who goes first, so that no kind always runs right after another.
                shift = round_number % len(order)
                for kind in order[shift:] + order[:shift]:
                    shown, ended = runs[kind]()
                    timings[kind].append(shown)
                    endings[kind].append(ended)
        except RunFailed as error:
            print(f"bench startup: {error}", file=sys.stderr)
            return 1
    bare, first_paint, screenshot = (statistics.median(timings[kind]) for kind in runs)
    report = Report("startup")
    report.time("bare_pyside6_window", bare, details=spread(timings["bare"]))
    report.ratio("first_paint", first_paint / bare, budget=RATIO_BUDGET,
                 details=f"{first_paint:.2f} s ({spread(timings['first_paint'])}) vs the bare "
                         f"window")
    report.ratio(f"screenshot_{ARMIES}_armies_loaded", screenshot / bare,
                 budget=ARMIES_SHOWN_BUDGET,
                 details=f"{screenshot:.2f} s ({spread(timings['screenshot'])}) vs the bare "
                         f"window, {data_files} game data files stored")
    # What a player waits for from the command to the prompt: start, picture and exit, each
    # Rout run against the bare window run beside it in the same round.
    pairs = [rout / plain for rout, plain in zip(endings["screenshot"], endings["bare"],
                                                  strict=True)]
    report.ratio(f"screenshot_{ARMIES}_armies_start_to_exit", statistics.median(pairs),
                 budget=ARMIES_SHOWN_BUDGET,
                 details=f"median of {len(pairs)} pairs ({min(pairs):.2f}–{max(pairs):.2f}x); "
                         f"{statistics.median(endings['screenshot']):.2f} s against "
                         f"{statistics.median(endings['bare']):.2f} s")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
