"""The forecast on the wizard's first page: the chance of each whole outcome of the
resolution (desktop.engine.forecast), worked out in a worker so the page never waits.

It follows the input as it is filled in and the answers as they are given; an older
forecast that answers after a newer request is dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from desktop.engine.errors import RuleError
from desktop.engine.forecast import Forecast, forecast
from desktop.engine.odds import percent
from desktop.engine.procedure import Resolution
from desktop.gui.plots import plot_widget
from desktop.gui.tasks import TaskRunner

SHOWN = 6  # outcomes on the chart; the rest are summed as "other outcomes"
# The wizard page asks for a forecast often: a quick exact walk or a modest sample.
BUDGET_SECONDS = 1.0
SAMPLES = 400


class ForecastView(QWidget):
    """Bars of the likeliest whole outcomes, and whether the numbers are exact."""

    def __init__(self, runner: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("forecastView")
        self.runner = runner
        self.forecast: Forecast | None = None
        self._asked = 0
        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel("Forecast: working it out…", self)
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.chart: Any = None
        self.lines = QLabel("", self)
        self.lines.setWordWrap(True)
        layout.addWidget(self.lines)

    def ask(self, resolution: Resolution | None, answers: Sequence[object] = ()) -> None:
        if resolution is None:
            return
        self._asked += 1
        asked = self._asked
        self.title.setText("Forecast: working it out…")
        given = tuple(answers)
        self.runner.run(
            lambda: forecast(resolution, given, budget_seconds=BUDGET_SECONDS,
                             samples=SAMPLES),
            lambda result: self._show(result, asked),
            lambda error: self._failed(error, asked))

    def _failed(self, error: BaseException, asked: int) -> None:
        if asked == self._asked:
            reason = str(error) if isinstance(error, RuleError) else type(error).__name__
            self.title.setText(f"No forecast: {reason}")

    def _show(self, result: Forecast, asked: int) -> None:
        if asked != self._asked:
            return  # the input or the answers changed since
        self.forecast = result
        outcomes = list(result.outcomes[:SHOWN])
        rest = sum((chance for _, chance in result.outcomes[SHOWN:]), Fraction(0))
        if rest:
            outcomes.append(("other outcomes", rest))
        how = ("exact" if result.exact else
               f"a sample of {result.samples} runs (seed {result.seed}), ±95% shown")
        self.title.setText(f"<b>Forecast</b> of the whole resolution — {how}")
        lines = []
        for label, chance in outcomes:
            text = f"{percent(chance)} — {label}"
            interval = result.intervals.get(label) if not result.exact else None
            if interval is not None:
                text += f" ({interval[0] * 100:.1f}–{interval[1] * 100:.1f}%)"
            lines.append(text)
        self.lines.setText("<br>".join(lines))
        self._draw(outcomes)

    def _draw(self, outcomes: Sequence[tuple[str, Fraction]]) -> None:
        # pyqtgraph is heavy: imported only when a forecast is first shown.
        import pyqtgraph as pg

        if self.chart is None:
            self.chart = plot_widget(self, background="w")
            self.chart.setObjectName("forecastChart")
            self.chart.setMinimumHeight(110)
            self.chart.setMaximumHeight(170)
            self.chart.hideAxis("left")
            self._layout.insertWidget(1, self.chart)
        self.chart.clear()
        heights = [float(chance) * 100 for _, chance in outcomes]
        bars = pg.BarGraphItem(x0=[0] * len(heights), y=list(range(len(heights)))[::-1],
                               height=0.7, width=heights, brush="#4a78c2")
        self.chart.addItem(bars)
        self.chart.setXRange(0, 100, padding=0.02)
        self.chart.setYRange(-0.6, len(heights) - 0.4, padding=0)
        self.chart.setLabel("bottom", "chance (%)")
