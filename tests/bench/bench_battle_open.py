"""Opening a 10,000-event battle keeps the window responsive; the replay slider is quick.

    QT_QPA_PLATFORM=offscreen python tests/bench/bench_battle_open.py

The battle (tests/bench/battle_fixture.py) is loaded from a SQLite store, folded and its
replay checkpoints made in a worker (desktop.gui.tasks.TaskRunner, as the window does); the
GUI thread only shows the final state. (Without `no_full_collections` in the worker, a full
garbage collection of the new objects holds the GIL ~100 ms and the window stalls.)
Meanwhile a 10 ms QTimer records when the event loop ticks: the longest gap between ticks is
the longest frame the user would see (budget 100 ms). Then the replay slider sweeps the
whole battle and jumps at random, each move showing that step's state read-only (budget:
100 ms for the slowest move, one frame). Prints report.py's lines; exits 1 over budget.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parent))

import itertools

from battle_fixture import build_long_battle
from report import Report

from desktop.engine.model import Battle
from desktop.gui.battlefield.replay import (
    Replay,
    ReplayBar,
    ReplayHistory,
)
from desktop.gui.battlefield.scene import BattlefieldScene
from desktop.gui.battlefield.view import BattlefieldView
from desktop.gui.battles import BattleWorkspace
from desktop.gui.tasks import TaskRunner
from desktop.store.store import Store

EVENTS = 10_000
FRAME_BUDGET_S = 0.100
MOVE_BUDGET_S = 0.100
SLIDER_MOVES = 200


def open_battle(app: QApplication, store: Store, battle_id: str,
                scene: BattlefieldScene) -> tuple[float, float, float, ReplayHistory]:
    """(longest gap between ticks, whole open, GUI-thread show) in seconds; the history.

    Opened the way the window opens it: `BattleWorkspace.open` (load, fold and replay
    checkpoints in its worker), then `show_battle` when it answers.
    """
    ticks: list[float] = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    workspace = BattleWorkspace(store, TaskRunner(app), QUndoStack())
    loop = QEventLoop()
    found: dict[str, object] = {}

    def changed(battle: Battle | None, events: object) -> None:
        began = time.perf_counter()
        scene.show_battle(battle)
        found["show"] = time.perf_counter() - began
        found["history"] = workspace.history
        loop.quit()

    workspace.changed.connect(changed)
    workspace.failed.connect(lambda message: (found.update(error=message), loop.quit()))
    timer.start()
    began = time.perf_counter()
    ticks.append(began)
    workspace.open(battle_id)
    loop.exec()
    opened = time.perf_counter() - began
    # A few more ticks, so the frame that painted the battle is measured too.
    settle = QEventLoop()
    QTimer.singleShot(100, settle.quit)
    settle.exec()
    timer.stop()
    if "error" in found:
        raise RuntimeError(f"opening failed: {found['error']!r}")
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    history = found["history"]
    assert isinstance(history, ReplayHistory)
    show = found["show"]
    assert isinstance(show, float)
    return max(gaps), opened, show, history


def slider_moves(app: QApplication, bar: ReplayBar, values: list[int]) -> list[float]:
    """Seconds per slider move: the state folded from a checkpoint, shown and painted."""
    seconds = []
    for value in values:
        began = time.perf_counter()
        bar.slider.setValue(value)
        app.processEvents()
        seconds.append(time.perf_counter() - began)
    return seconds


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    scene = BattlefieldScene()
    view = BattlefieldView(scene)
    view.resize(1000, 700)
    view.show()
    bar = ReplayBar()
    bar.show()
    with (tempfile.TemporaryDirectory() as folder,
          Store.open(f"sqlite:///{Path(folder) / 'bench.sqlite'}") as store):
        battle_id = build_long_battle(store, EVENTS)
        longest, opened, show, history = open_battle(app, store, battle_id, scene)
    replay = Replay(bar, scene)
    replay.set_history(history)
    count = history.count
    sweep = slider_moves(app, bar, [round(i * count / SLIDER_MOVES)
                                    for i in range(SLIDER_MOVES + 1)])
    # Random jumps: each folds from the nearest checkpoint at worst.
    jumps = slider_moves(app, bar, random.Random(7).sample(range(count), SLIDER_MOVES))
    report = Report("battle_open")
    report.time(f"open_{EVENTS}_events", opened,
                details=f"{count} steps loaded, folded and checkpointed in a worker; "
                        f"show_battle on the GUI thread {show * 1000:.1f} ms")
    report.time("open_longest_frame", longest, budget=FRAME_BUDGET_S)
    for name, seconds in (("replay_sweep", sweep), ("replay_jump", jumps)):
        report.time(f"{name}_worst_move", max(seconds), budget=MOVE_BUDGET_S,
                    details=f"mean {statistics.mean(seconds) * 1000:.1f} ms per move, "
                            f"{len(seconds)} moves")
    bar.close()
    view.close()
    return report.finish()

if __name__ == "__main__":
    sys.exit(main())
