"""The exact chance of every total of one roll, bars coloured by what each total leads to.

AnyDice-style: one bar per total, the bands the engine gives (hold / break, catches /
misses, "leaves the table") in their own colours, and the pass/fail line of a test drawn
where the threshold falls. Imports pyqtgraph, so the wizard imports it only for a roll page.
"""

from __future__ import annotations

from typing import Final

import pyqtgraph as pg
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QVBoxLayout, QWidget

from desktop.engine.procedure import Roll
from desktop.gui.plots import plot_widget

BACKGROUND: Final = QColor("#fbfbfb")
AXIS_COLOUR: Final = QColor("#505050")
PASS_COLOUR: Final = QColor("#4e9a52")
FAIL_COLOUR: Final = QColor("#c8553d")
LINE_COLOUR: Final = QColor("#202020")
ROLLED_COLOUR: Final = QColor("#1a1a1a")  # outline of the total just rolled
# Outcomes without a test (a flee move's "leaves the table") take these in turn.
PALETTE: Final = (QColor("#4a7ebb"), QColor("#8e6bbf"), QColor("#d08c2f"), QColor("#3f9f9f"),
                  QColor("#a05a7a"), QColor("#6f8f3a"))
BAR_WIDTH: Final = 0.8


def outcome_colours(roll: Roll) -> dict[str, QColor]:
    """A colour for each outcome of `roll`: a test's pass green and fail red."""
    colours: dict[str, QColor] = {}
    if roll.threshold is not None:
        colours[roll.threshold.passes] = PASS_COLOUR
        colours[roll.threshold.fails] = FAIL_COLOUR
    spare = iter(PALETTE * 4)
    for band in roll.bands:
        if band.outcome not in colours:
            colours[band.outcome] = next(spare)
    return colours


def threshold_line(roll: Roll) -> float | None:
    """Where the pass/fail line goes: between the last failing and first passing total."""
    if roll.threshold is None:
        return None
    value = roll.threshold.value
    comparison = roll.threshold.comparison
    return value - 0.5 if comparison in (">=", "<") else value + 0.5


class OddsChart(QWidget):
    """Bars of one roll's totals in percent; `show_roll` puts a Roll on it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("oddsChart")
        self.plot_widget = plot_widget(self, background=BACKGROUND)
        self.plot_widget.setMinimumSize(320, 170)
        plot = self.plot_widget.getPlotItem()
        plot.setLabel("left", "chance", units="%")
        plot.setLabel("bottom", "total")
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(pg.mkPen(AXIS_COLOUR))
            axis.setTextPen(pg.mkPen(AXIS_COLOUR))
        self.bars = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH)  # one item, all bars
        plot.addItem(self.bars)
        self.line = pg.InfiniteLine(angle=90, pen=pg.mkPen(LINE_COLOUR, width=2,
                                                           style=pg.QtCore.Qt.PenStyle.DashLine))
        plot.addItem(self.line)
        self.line_label = pg.TextItem(color=LINE_COLOUR, anchor=(0, 0))
        plot.addItem(self.line_label)
        self.totals: list[int] = []
        self.colours: list[QColor] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot_widget)

    def show_roll(self, roll: Roll, rolled: int | None = None) -> None:
        """Draw `roll`'s totals; the `rolled` total, if any, is outlined."""
        pmf = roll.dice.pmf()
        self.totals = sorted(pmf)
        heights = [float(pmf[total]) * 100 for total in self.totals]
        colours = outcome_colours(roll)
        outcome_at = {total: band.outcome for band in roll.bands
                      for total in range(band.low, band.high + 1)}
        self.colours = [colours.get(outcome_at.get(total, ""), PALETTE[0])
                        for total in self.totals]
        pens = [pg.mkPen(ROLLED_COLOUR, width=3) if total == rolled
                else pg.mkPen(colour.darker(130))
                for total, colour in zip(self.totals, self.colours, strict=True)]
        self.bars.setOpts(x=self.totals, height=heights, width=BAR_WIDTH,
                          brushes=[pg.mkBrush(colour) for colour in self.colours], pens=pens)
        plot = self.plot_widget.getPlotItem()
        top = max(heights, default=1.0) * 1.18  # room above the tallest bar for the label
        plot.setYRange(0, top, padding=0)
        plot.setXRange(self.totals[0] - 0.6, self.totals[-1] + 0.6, padding=0)
        # Ticks on every total for a short range, every other one for 3D6 and up.
        step = 1 if len(self.totals) <= 16 else 2
        plot.getAxis("bottom").setTicks([[(t, str(t)) for t in self.totals[::step]]])
        at = threshold_line(roll)
        self.line.setVisible(at is not None)
        self.line_label.setVisible(at is not None)
        if at is not None and roll.threshold is not None:
            self.line.setValue(at)
            threshold = roll.threshold
            self.line_label.setText(f"{threshold.passes} if {threshold.comparison} "
                                    f"{threshold.value}")
            # The label sits on the passing side of the line.
            passes_right = threshold.comparison in (">=", ">")
            self.line_label.setAnchor((0, 0) if passes_right else (1, 0))
            self.line_label.setPos(at, top)
