"""The way to Rout's first painted frame is free of heavy imports (DESIGN.md, start-up).

The window paints before any database work, so nothing on the way to its first frame may
import plotting, geometry, the database layer or the rulesets: each would add to the wait
for a window that does not need them yet. Every check runs in a new interpreter, where
`sys.modules` shows what that way really imported. tests/bench/bench_startup.py times it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pyqtgraph", "shapely", "numpy", "alembic", "sqlalchemy", "sqlmodel",
         "desktop.engine.rulesets", "desktop.store.store")

# Reports, at the window's first paint, which heavy modules are loaded; then exits at once.
FIRST_PAINT_REPORT = """
import json, os, sys
from PySide6.QtCore import QEvent, QObject, QTimer

HEAVY = {heavy!r}


class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and type(watched).__name__ == "MainWindow":
            report = {{"heavy": [m for m in HEAVY if m in sys.modules], **extra()}}
            print(json.dumps(report), flush=True)
            os._exit(0)
        return False


def watch(app):
    app.installEventFilter(first_paint)
    QTimer.singleShot(30_000, lambda: (print("no paint in 30 s", file=sys.stderr), os._exit(3)))


first_paint = FirstPaint()
"""

# MainWindow() built and shown as the app does, without a database.
WINDOW_ONLY = FIRST_PAINT_REPORT + """
from desktop.gui.app import _application, _show
from desktop.gui.main_window import MainWindow

extra = dict
app = _application()
watch(app)
window = MainWindow()
window.resize(1280, 800)
_show(window)
app.exec()
"""

# The real entry point, `rout --database URL`, up to the first frame. The read itself is
# stubbed: it may start (in its worker) only after the first frame, and its imports are
# that worker's business, not the start's.
REAL_START = FIRST_PAINT_REPORT + """
from PySide6.QtWidgets import QApplication

from desktop.gui.main_window import MainWindow

opened = []
MainWindow.open_database = lambda self, url: opened.append(url)
extra = lambda: {{"opened_before_first_paint": bool(opened)}}
app = QApplication(sys.argv[:1])  # run_app uses it: the watch is on before the window exists
watch(app)
from desktop.cli import main

main(["--database", sys.argv[1]])
print("the app closed without painting", file=sys.stderr)
os._exit(4)
"""


def _report(script: str, home: Path, *args: str) -> dict[str, object]:
    """Run `script` offscreen with a scratch home (no settings, logs or database of the user)."""
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home)}
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        environment[name] = str(home / name.lower())
    # Not run from the checkout folder: `-c` would put it first on sys.path.
    result = subprocess.run([sys.executable, "-c", script.format(heavy=HEAVY), *args],
                            cwd=home, env=environment, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def real_start(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    return _report(REAL_START, home, f"sqlite:///{home / 'rout.sqlite'}")


def test_showing_the_main_window_imports_nothing_heavy(tmp_path):
    assert _report(WINDOW_ONLY, tmp_path)["heavy"] == []


def test_the_rout_command_paints_before_any_heavy_import(real_start):
    # desktop.cli, run_app (settings, crash log, database URL) and the window.
    assert real_start["heavy"] == []


def test_the_database_is_read_only_after_the_first_frame(real_start):
    # The worker's imports (SQLAlchemy, shapely) would hold the GIL while the frame is drawn.
    assert real_start["opened_before_first_paint"] is False


# `rout --screenshot` on a database with an army: everything the window does to show a
# returning player's armies (read, roster, tree, points chart), then what it had imported.
ARMIES_SHOWN = """
import json, sys
from desktop.gui.app import save_screenshot
from pathlib import Path

status = save_screenshot(Path(sys.argv[1]), sys.argv[2])
print(json.dumps({{"status": status, "loaded": [m for m in (
    "shapely", "numpy", "pyqtgraph", "sqlmodel", "pydantic", "desktop.gui.battlefield.scene")
    if m in sys.modules]}}))
"""


def test_showing_the_armies_needs_no_geometry_or_plotting(tmp_path):
    """Reading armies does no geometry and the roster's chart is painted by hand: shapely,
    numpy and pyqtgraph (about a third of a second) wait for a battle or a wizard. The store
    reads through Core tables (no sqlmodel, pydantic) and the battlefield is built when a
    battle needs it."""
    from desktop.store.store import Store

    from builders import army

    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    with Store.open(url) as store:
        store.save_army(army(units=5))
    picture = tmp_path / "armies.png"
    report = _report(ARMIES_SHOWN, tmp_path, str(picture), url)
    assert report == {"status": 0, "loaded": []}
    assert picture.stat().st_size > 0
