"""Where an army's points go: a bar chart by troop type or by army-list slot.

This is the only module that imports pyqtgraph (and so numpy); the application imports it
lazily, once the main window is on screen, to keep start-up quick.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

import pyqtgraph as pg
from PySide6.QtCore import Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.engine.model import Army, TroopType

BACKGROUND: Final = QColor("#fbfbfb")
AXIS_COLOUR: Final = QColor("#505050")
BAR_COLOUR: Final = QColor("#4a7ebb")
BAR_EDGE_COLOUR: Final = QColor("#2f5a8c")
BAR_WIDTH: Final = 0.6
HEADROOM: Final = 1.1
"""The y axis runs a little past the tallest bar, so its top is never cut by the frame."""
NO_SLOT: Final = "Units"
"""The bar for units without an army-list slot (as in the text roster)."""


class Grouping(Enum):
    """What the bars stand for; the value is the combo box's text."""

    TROOP_TYPE = "By troop type"
    SLOT = "By slot"


def troop_type_label(troop_type: TroopType) -> str:
    """"war_machine" reads as "War machine" under a bar."""
    return troop_type.value.replace("_", " ").capitalize()


def points_by_troop_type(army: Army) -> list[tuple[str, int]]:
    """Points per troop type, in the engine's order of troop types, only those present."""
    totals: dict[TroopType, int] = {}
    for unit in army.units:
        troop_type = unit.profile.troop_type
        totals[troop_type] = totals.get(troop_type, 0) + unit.points
    return [(troop_type_label(kind), totals[kind]) for kind in TroopType if kind in totals]


def points_by_slot(army: Army) -> list[tuple[str, int]]:
    """Points per army-list slot, in the order the roster first uses each slot."""
    totals: dict[str, int] = {}
    for unit in army.units:
        slot = " ".join(unit.slot.split()) or NO_SLOT
        totals[slot] = totals.get(slot, 0) + unit.points
    return list(totals.items())


class RosterChart(QWidget):
    """A grouping combo box over one bar chart of the shown army's points."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rosterChart")
        self._army: Army | None = None
        self._totals: list[tuple[str, int]] = []

        self.grouping_combo = QComboBox(self)
        self.grouping_combo.setObjectName("rosterChartGrouping")
        for grouping in Grouping:
            self.grouping_combo.addItem(grouping.value, grouping)
        self.grouping_combo.setSizePolicy(QSizePolicy.Policy.Maximum,
                                          QSizePolicy.Policy.Fixed)

        windows_before = set(QApplication.topLevelWidgets())
        self.plot_widget = pg.PlotWidget(self, background=BACKGROUND)
        self._adopt_stray_windows(windows_before)
        self.plot_widget.setObjectName("rosterChartPlot")
        self.plot_widget.setMinimumSize(200, 150)
        plot = self.plot_widget.getPlotItem()
        # A summary, not an explorer: no panning, zooming, context menu or "A" button.
        plot.setMouseEnabled(x=False, y=False)
        plot.setMenuEnabled(False)
        plot.hideButtons()
        plot.showGrid(x=True, y=False, alpha=0.25)
        plot.setLabel("bottom", "points")
        plot.invertY(True)  # the first category on top, as it reads
        # Room on the right for half of the last tick's label, which pyqtgraph centres on it.
        plot.layout.setContentsMargins(2, 4, 16, 2)
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(pg.mkPen(AXIS_COLOUR))
            axis.setTextPen(pg.mkPen(AXIS_COLOUR))
        # One item draws every bar: pyqtgraph is slow with many small items.
        # Horizontal bars: category names sit on the left axis and never overlap.
        self.bars = pg.BarGraphItem(x0=0, y=[], width=[], height=BAR_WIDTH,
                                    brush=pg.mkBrush(BAR_COLOUR),
                                    pen=pg.mkPen(BAR_EDGE_COLOUR))
        plot.addItem(self.bars)

        self.empty_label = QLabel("No army", self)
        self.empty_label.setObjectName("rosterChartEmpty")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.grouping_combo)
        layout.addWidget(self.plot_widget, 1)
        layout.addWidget(self.empty_label)

        self.grouping_combo.currentIndexChanged.connect(self._grouping_changed)
        self._refresh()

    def _adopt_stray_windows(self, windows_before: set[QWidget]) -> None:
        """Parent the hidden windows pyqtgraph made (its context menus) to this chart.

        pyqtgraph creates them without a parent, so they would outlive the chart as hidden
        top-level windows; as our children they are deleted with it.
        """
        for widget in QApplication.topLevelWidgets():
            if widget not in windows_before and widget.parentWidget() is None \
                    and widget is not self:
                widget.setParent(self, widget.windowFlags())

    @property
    def grouping(self) -> Grouping:
        grouping = self.grouping_combo.currentData()
        return grouping if isinstance(grouping, Grouping) else Grouping.TROOP_TYPE

    def set_grouping(self, grouping: Grouping) -> None:
        self.grouping_combo.setCurrentIndex(self.grouping_combo.findData(grouping))

    def show_army(self, army: Army | None) -> None:
        """Chart this army's points; None empties the chart."""
        if army is self._army and army is not None:
            return  # armies are values: the same object means the same bars (the window
            # calls this on every selection change)
        self._army = army
        self._refresh()

    def totals(self) -> list[tuple[str, int]]:
        """The bars from left to right: (label, points)."""
        return list(self._totals)

    @Slot(int)
    def _grouping_changed(self, _index: int) -> None:
        self._refresh()

    def _refresh(self) -> None:
        army = self._army
        if army is None:
            self._totals = []
        elif self.grouping is Grouping.SLOT:
            self._totals = points_by_slot(army)
        else:
            self._totals = points_by_troop_type(army)
        self.empty_label.setText("No army" if army is None else "No units")
        self.empty_label.setVisible(not self._totals)

        count = len(self._totals)
        self.bars.setOpts(x0=0, y=list(range(count)), width=[points for _, points in self._totals],
                          height=BAR_WIDTH)
        plot = self.plot_widget.getPlotItem()
        plot.getAxis("left").setTicks([[(index, label) for index, (label, _) in
                                        enumerate(self._totals)], []])
        tallest = max((points for _, points in self._totals), default=0)
        # One call for both axes: each range change makes pyqtgraph repaint and emit signals.
        plot.setRange(yRange=(-0.5, max(count, 1) - 0.5), xRange=(0, max(tallest, 1) * HEADROOM),
                      padding=0)
