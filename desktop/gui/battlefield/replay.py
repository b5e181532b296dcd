"""Replaying a battle: any past step on the battlefield, read-only, from a slider.

`ReplayHistory` gives the state after any step without refolding from the start: it keeps
a checkpoint every CHECKPOINT_STEPS steps (made as the steps are first passed) and the last
state asked for, so a slider move costs at most a few dozen events. `ReplayBar` is the
slider, its step label and "Back to now"; `Replay` ties a bar to a scene.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QWidget

from desktop.engine.events import Event, fold
from desktop.engine.model import Battle
from desktop.engine.narrate import describe, units_named

if TYPE_CHECKING:
    from desktop.gui.battlefield.scene import BattlefieldScene

CHECKPOINT_STEPS: Final = 64
# A battle opened shows this many of its last steps in the battle log (a long one's start
# is on the replay slider).
STORY_STEPS: Final = 500


@contextlib.contextmanager
def no_full_collections() -> Iterator[None]:
    """Wrap a worker that builds a big long-lived graph (a 10,000-event battle and its
    checkpoints). A full garbage collection of it holds the GIL for ~100 ms, whichever
    thread runs it, and the window freezes that long; so no collection runs while it is
    built, and then it is frozen (gc.freeze) so later collections do not walk it again.
    Frozen objects are still freed by reference counting; these are acyclic dataclasses."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


class ReplayHistory:
    """The states of a battle step by step (pure Python: safe to build in a worker)."""

    def __init__(self, start: Battle, steps: Sequence[Sequence[Event]], *,
                 now: Battle | None = None, every: int = CHECKPOINT_STEPS) -> None:
        self.start = start
        self.steps = tuple(tuple(step) for step in steps)
        self.every = max(every, 1)
        self._checkpoints: dict[int, Battle] = {0: start}
        self._marks = [0]  # the checkpoint steps, sorted
        self._last: tuple[int, Battle] = (0, start)
        if now is not None:  # the owner already folded everything: the end costs nothing
            self._keep(len(self.steps), now)

    @property
    def count(self) -> int:
        return len(self.steps)

    def state_at(self, step: int) -> Battle:
        """The battle after the first `step` steps (0: as it started)."""
        step = min(max(step, 0), self.count)
        mark = self._marks[bisect.bisect_right(self._marks, step) - 1]
        at, battle = mark, self._checkpoints[mark]
        last_step, last = self._last
        if mark < last_step <= step:  # moving forward from the last state asked for
            at, battle = last_step, last
        while at < step:
            battle = fold(battle, self.steps[at])
            at += 1
            if at % self.every == 0 and at not in self._checkpoints:
                self._keep(at, battle)
        self._last = (step, battle)
        return battle

    def extended(self, step: Sequence[Event], now: Battle) -> ReplayHistory:
        """The history with one more step, whose result is `now`; checkpoints are kept."""
        grown = ReplayHistory(self.start, (), every=self.every)
        grown.steps = (*self.steps, tuple(step))
        grown._checkpoints = dict(self._checkpoints)
        grown._marks = list(self._marks)
        grown._keep(grown.count, now)
        grown._last = (grown.count, now)
        return grown

    def truncated(self, count: int) -> ReplayHistory:
        """The history of the first `count` steps only (after an undo)."""
        kept = ReplayHistory(self.start, (), every=self.every)
        kept.steps = self.steps[:count]
        kept._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= count}
        kept._marks = [mark for mark in self._marks if mark <= count]
        return kept

    def warm(self) -> Battle:
        """Fold every step once, keeping every checkpoint (for a worker); the last state."""
        return self.state_at(self.count)

    def story(self, steps: int = STORY_STEPS) -> list[tuple[str, list[str]]]:
        """The last `steps` steps in plain words, a line per event with the units it names
        (the battle log of a battle just opened); a first line counts any left out."""
        first = max(self.count - steps, 0)
        battle = self.state_at(first)
        lines: list[tuple[str, list[str]]] = []
        if first:
            lines.append((f"… {first} earlier step{'' if first == 1 else 's'}: the replay "
                          "slider under the table shows them", []))
        for step in self.steps[first:]:
            for event in step:
                lines.append((describe(event, battle), units_named(event, battle)))
                battle = event.apply_to(battle)
        return lines

    def _keep(self, step: int, battle: Battle) -> None:
        self._checkpoints[step] = battle
        bisect.insort(self._marks, step)


class ReplayBar(QWidget):
    """A slider over a battle's steps, "Step 12 of 40", and a "Back to now" button."""

    stepChosen = Signal(int)  # steps done at the slider's place (the count: now)
    backToNow = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("replayBar")
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("replaySlider")
        self.label = QLabel(self)
        self.label.setObjectName("replayStep")
        self.now_button = QPushButton("Back to now", self)
        self.now_button.setObjectName("replayNow")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.label)
        layout.addWidget(self.now_button)
        self.slider.valueChanged.connect(self._moved)
        self.now_button.clicked.connect(self.back_to_now)
        self.set_steps(0)

    def set_steps(self, count: int) -> None:
        """A battle of `count` steps; the slider goes to now without emitting."""
        self.slider.blockSignals(True)
        self.slider.setRange(0, count)
        self.slider.setValue(count)
        self.slider.setPageStep(max(count // 20, 1))
        self.slider.blockSignals(False)
        self._show_label(count)

    def back_to_now(self) -> None:
        self.slider.setValue(self.slider.maximum())  # emits stepChosen if it moved
        self.backToNow.emit()

    def _moved(self, value: int) -> None:
        self._show_label(value)
        self.stepChosen.emit(value)

    def _show_label(self, value: int) -> None:
        count = self.slider.maximum()
        self.label.setText("Now" if value == count else f"Step {value} of {count}")
        self.now_button.setEnabled(value != count)


class Replay(QObject):
    """Ties a ReplayBar to a scene: the slider shows past states read-only, its end now."""

    def __init__(self, bar: ReplayBar, scene: BattlefieldScene) -> None:
        super().__init__(bar)
        self.bar, self.scene = bar, scene
        self.history: ReplayHistory | None = None
        bar.stepChosen.connect(self.show_step)

    def set_history(self, history: ReplayHistory | None) -> None:
        """The battle's history (None: nothing to replay); the bar goes to now."""
        self.history = history
        self.bar.set_steps(history.count if history is not None else 0)

    def show_step(self, step: int) -> None:
        history = self.history
        if history is None:
            return
        if step >= history.count:
            self.scene.show_battle(history.state_at(history.count))
        else:
            self.scene.show_replay(history.state_at(step), step, history.count)
