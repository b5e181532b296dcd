"""The forecast on the wizard's first page: the chance of each whole outcome of the
resolution (desktop.engine.forecast), worked out in a worker so the page never waits.

It follows the input as it is filled in and the answers as they are given. A burst of
changes (clicking a spin box's arrow twice) starts one walk, DEBOUNCE_MS after the last; a
walk still running when newer input comes is told to stop then (it ends at its next run,
its figures dropped). Until new
figures arrive the last ones stay on screen, marked as being updated.

A walk has two looks, so that the page has figures for its input within 200 ms of a change
(issue 20, item 9) and exact ones where the command line has them: a first look of
FIRST_LOOK_SECONDS, exact when the tree is that small, else a sample of as many runs as fit,
shown with its intervals and "exact figures coming"; then, only if the first was a sample,
the whole walk within BUDGET_SECONDS (the one `rout forecast` has, or more: the wizard never
samples where the command line is exact).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Final

from PySide6.QtCore import QSize, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from desktop.engine.errors import RuleError
from desktop.engine.forecast import (
    DEFAULT_BUDGET_SECONDS,
    DEFAULT_SAMPLES,
    Forecast,
    ForecastCancelled,
    forecast,
    sample,
)
from desktop.engine.odds import percent
from desktop.engine.procedure import Resolution
from desktop.gui.features import pg
from desktop.gui.plots import plot_widget
from desktop.gui.tasks import TaskRunner

SHOWN = 6  # outcomes on the chart; the rest are summed as "other outcomes"
DEBOUNCE_MS: Final = 30
# The first look's time: with the debounce, figures within 200 ms of a change on an idle
# machine (tests/bench/bench_wizard.py measures it).
FIRST_LOOK_SECONDS: Final = 0.12
# The walk shares the interpreter with the window and a busy machine, and a newer input
# cancels it: it may take far longer than the command line's before it gives up on exact
# figures (its leaves are bounded as the command line's are). On a busy machine a sample
# of 1,000 runs cost more than the exact walk of the four-unit battle (~3x).
BUDGET_SECONDS: Final = 15 * DEFAULT_BUDGET_SECONDS
CHART_HEIGHT: Final = 120
# Below this height the chart folds away and the lines (the same figures) stay.
CHART_ROOM: Final = 260


class _Walk:
    """One forecast asked for: what it walks, and the flag that cancels it."""

    def __init__(self, number: int, resolution: Resolution, given: tuple[object, ...]) -> None:
        self.number = number
        self.resolution = resolution
        self.given = given
        self.first_look = True  # until the first look's figures are shown
        self.stop = threading.Event()


class ForecastView(QWidget):
    """Bars of the likeliest whole outcomes, and whether the numbers are exact."""

    shown = Signal(object)  # each Forecast as it is put on the page

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("forecastView")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.runner = runner
        self.forecast: Forecast | None = None
        self.walks_started = 0  # how many walks were begun (a burst of input is one)
        self._sample_first = False  # whether a first look samples at once (a big tree)
        self.running: _Walk | None = None  # the latest walk, until its figures are shown
        self._wanted: tuple[Resolution, tuple[object, ...]] | None = None
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._start)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("Forecast: working it out…", self)
        self.title.setObjectName("forecastTitle")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        # The chart and the lines scroll together when the page leaves them little room.
        self.figures = QScrollArea(self)
        self.figures.setObjectName("forecastScroll")
        self.figures.setWidgetResizable(True)
        self.figures.setFrameShape(QScrollArea.Shape.NoFrame)
        body = self._body_widget = QWidget(self.figures)
        self._body = QVBoxLayout(body)
        self._body.setContentsMargins(0, 0, 0, 0)
        self.chart: Any = None
        self.lines = QLabel("", body)
        self.lines.setObjectName("forecastLines")
        self.lines.setWordWrap(True)
        self._body.addWidget(self.lines)
        self._body.addStretch(1)
        self.figures.setWidget(body)
        layout.addWidget(self.figures, 1)

    def sizeHint(self) -> QSize:  # Qt override: two lines; what is left is its own
        return QSize(super().sizeHint().width(), self.title.sizeHint().height() * 2)

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(0, self.title.sizeHint().height() * 2)

    @property
    def updating(self) -> bool:
        """New figures have been asked for and are not shown yet."""
        return self._wanted is not None or self.running is not None

    def ask(self, resolution: Resolution | None, answers: Sequence[object] = ()) -> None:
        """Forecast `resolution` after `answers`: the last figures stay, marked as being
        updated, until the new ones come."""
        if resolution is None:
            return
        self._wanted = (resolution, tuple(answers))
        if self.running is not None:
            # Its figures would be dropped now: stopped at once, not when the next walk
            # starts (a walk ending in the pause before that was never told to stop).
            self.running.stop.set()
            self.running = None
        if self.forecast is not None:
            self.title.setText(f"{self._heading(self.forecast)} — <i>updating…</i>")
            self.figures.setEnabled(False)  # greyed: these are the figures before the change
        else:
            self.title.setText("Forecast: working it out…")
        self._debounce.start()

    def refuse(self, reason: str) -> None:
        """The input cannot be forecast (the engine said why): nothing is worked out."""
        self._debounce.stop()
        self._wanted = None
        if self.running is not None:
            self.running.stop.set()
            self.running = None
        self.title.setText(f"No forecast: {reason}")

    def _start(self) -> None:
        if self._wanted is None:
            return
        resolution, given = self._wanted
        self._wanted = None
        self.walks_started += 1
        walk = self.running = _Walk(self.walks_started, resolution, given)
        self._walk(walk, FIRST_LOOK_SECONDS)

    def _walk(self, walk: _Walk, budget_seconds: float) -> None:
        if walk.first_look and self._sample_first:
            # The last exact walk took longer than a first look: trying again to be exact
            # would leave the sample a run or two of its time.
            def work() -> Forecast:
                return sample(walk.resolution, walk.given, samples=DEFAULT_SAMPLES,
                              budget_seconds=budget_seconds, cancelled=walk.stop.is_set)
        else:
            def work() -> Forecast:
                return forecast(walk.resolution, walk.given, budget_seconds=budget_seconds,
                                samples=DEFAULT_SAMPLES, cancelled=walk.stop.is_set)
        self.runner.run(work, lambda result: self._show(result, walk),
                        lambda error: self._failed(error, walk))

    def _failed(self, error: BaseException, walk: _Walk) -> None:
        if walk is not self.running or isinstance(error, ForecastCancelled):
            return
        self.running = None
        reason = str(error) if isinstance(error, RuleError) else type(error).__name__
        self.title.setText(f"No forecast: {reason}")
        self.figures.setEnabled(True)

    @staticmethod
    def _heading(result: Forecast) -> str:
        how = ("exact" if result.exact else
               f"a sample of {result.samples} run{'' if result.samples == 1 else 's'} "
               f"(seed {result.seed}), ±95% shown")
        return f"<b>Forecast</b> of the whole resolution — {how}"

    def _show(self, result: Forecast, walk: _Walk) -> None:
        if walk is not self.running:
            return  # the input or the answers changed since (`ask` stopped it)
        coming = walk.first_look and not result.exact
        if not walk.first_look and result.exact:
            self._sample_first = result.seconds > FIRST_LOOK_SECONDS
        elif coming:
            self._sample_first = True
        walk.first_look = False
        if coming:
            self._walk(walk, BUDGET_SECONDS)  # `running` stays this walk until it ends
        else:
            self.running = None
        self.forecast = result
        outcomes = list(result.outcomes[:SHOWN])
        rest = sum((chance for _, chance in result.outcomes[SHOWN:]), Fraction(0))
        if rest:
            outcomes.append(("other outcomes", rest))
        self.title.setText(self._heading(result) + (" — <i>working out the exact figures…</i>"
                                                    if coming else ""))
        self.shown.emit(result)
        lines = []
        for label, chance in outcomes:
            text = f"{percent(chance)} — {label}"
            interval = result.intervals.get(label) if not result.exact else None
            if interval is not None:
                text += f" ({interval[0] * 100:.1f}–{interval[1] * 100:.1f}%)"
            lines.append(text)
        self.lines.setText("<br>".join(lines))
        self.figures.setEnabled(True)
        self._draw(outcomes)

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fold_chart()

    def _fold_chart(self) -> None:
        if self.chart is not None:
            self.chart.setVisible(self.height() >= CHART_ROOM)

    def _draw(self, outcomes: Sequence[tuple[str, Fraction]]) -> None:
        # pyqtgraph is heavy: imported only when a forecast is first shown.

        if self.chart is None:
            self.chart = plot_widget(self._body_widget, background="w")
            self.chart.setObjectName("forecastChart")
            self.chart.setFixedHeight(CHART_HEIGHT)
            self.chart.hideAxis("left")
            self._body.insertWidget(0, self.chart)
            self._fold_chart()
        self.chart.clear()
        heights = [float(chance) * 100 for _, chance in outcomes]
        bars = pg.BarGraphItem(x0=[0] * len(heights), y=list(range(len(heights)))[::-1],
                               height=0.7, width=heights, brush="#4a78c2")
        self.chart.addItem(bars)
        self.chart.setXRange(0, 100, padding=0.02)
        self.chart.setYRange(-0.6, len(heights) - 0.4, padding=0)
        self.chart.setLabel("bottom", "chance (%)")
