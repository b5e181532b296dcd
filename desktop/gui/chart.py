"""Where an army's points go: a bar chart by troop type or by army-list slot.

Drawn with QPainter: a handful of bars does not need a plotting library, and pyqtgraph
(with numpy) costs the window about a third of a second before the first army can be
shown. pyqtgraph stays for the wizard's odds charts, imported when a wizard first needs one.
"""

from __future__ import annotations

import math
from enum import Enum
from typing import Final

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Slot
from PySide6.QtGui import QColor, QFontMetricsF, QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QLabel,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from desktop.engine.model import Army, TroopType
from desktop.gui.fields import ComboBox

BACKGROUND: Final = QColor("#fbfbfb")
AXIS_COLOUR: Final = QColor("#505050")
GRID_COLOUR: Final = QColor("#e2e2e2")
BAR_COLOUR: Final = QColor("#4a7ebb")
BAR_EDGE_COLOUR: Final = QColor("#2f5a8c")
BAR_SHARE: Final = 0.6
"""How much of its row a bar fills; the rest is the gap between bars."""
TALLEST_BAR: Final = 26.0
HEADROOM: Final = 1.1
"""The axis runs a little past the longest bar, so its value label has room."""
MOST_TICKS: Final = 5
NO_SLOT: Final = "Units"
"""The bar for units without an army-list slot (as in the text roster)."""


class Grouping(Enum):
    """What the bars stand for; the value is the combo box's text."""

    TROOP_TYPE = "By troop type"
    SLOT = "By slot"


def troop_type_label(troop_type: TroopType) -> str:
    """"war_machine" reads as "War machine" beside a bar."""
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


def tick_step(largest: float, most_ticks: int = MOST_TICKS) -> int:
    """The smallest round step (1, 2 or 5 times a power of ten) that marks 0…`largest`
    with at most `most_ticks` ticks after zero."""
    if largest <= 0:
        return 1
    raw = largest / most_ticks
    power = int(10 ** max(0, math.floor(math.log10(raw))))
    return next(multiple * power for multiple in (1, 2, 5, 10) if multiple * power >= raw)


class PointsBars(QWidget):
    """Horizontal bars, one per (label, points), the first on top, value at each bar's end.

    The axis below is in points, with round ticks and a light grid; hovering a bar tells its
    points and share of the army.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rosterChartBars")
        self._totals: list[tuple[str, int]] = []
        self.setMinimumSize(200, 120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setAccessibleName("Points chart")

    def set_totals(self, totals: list[tuple[str, int]]) -> None:
        self._totals = list(totals)
        self.setAccessibleDescription("; ".join(f"{label}: {points} points"
                                                for label, points in self._totals))
        self.update()

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(240, 170)

    # Layout, in widget coordinates: worked out from the size and font at each call, so
    # painting, hit tests and tests agree.

    def _labels_width(self, metrics: QFontMetricsF) -> float:
        widest = max((metrics.horizontalAdvance(label) for label, _ in self._totals),
                     default=0.0)
        return min(widest, self.width() * 0.45) + 8

    def _scale(self) -> tuple[int, int]:
        """The axis's end and its tick step, in points: as many round ticks as fit the
        width with room between their labels (a narrow dock gets fewer)."""
        metrics = QFontMetricsF(self.font())
        reach = max(max((points for _, points in self._totals), default=0), 1) * HEADROOM
        label = metrics.horizontalAdvance(f"{math.ceil(reach) * 2}")  # the end is below that
        room = self.width() - self._labels_width(metrics) - label
        step = tick_step(reach, max(1, min(MOST_TICKS, int(room // (label * 1.6)))))
        return max(step, math.ceil(reach / step) * step), step

    def _axis_end(self) -> int:
        return self._scale()[0]

    def plot_area(self) -> QRectF:
        """Where the bars go: right of the labels, above the axis and its title."""
        metrics = QFontMetricsF(self.font())
        left = self._labels_width(metrics)
        # Half the last tick's label hangs past the axis end; the value of the longest bar
        # sits after it.
        right = metrics.horizontalAdvance(f"{self._axis_end()}") / 2 + 4
        bottom = 2 * metrics.height() + 6
        return QRectF(left, 4, max(1.0, self.width() - left - right),
                      max(1.0, self.height() - 4 - bottom))

    def bar_rects(self) -> list[QRectF]:
        """Each bar's rectangle, top to bottom, in the order of the totals."""
        area = self.plot_area()
        if not self._totals:
            return []
        row = area.height() / len(self._totals)
        height = min(row * BAR_SHARE, TALLEST_BAR)
        scale = area.width() / self._axis_end()
        return [QRectF(area.left(), area.top() + index * row + (row - height) / 2,
                       points * scale, height)
                for index, (_, points) in enumerate(self._totals)]

    def ticks(self) -> list[tuple[float, int]]:
        """(x in the widget, points) of each tick on the axis."""
        area = self.plot_area()
        end, step = self._scale()
        return [(area.left() + value * area.width() / end, value)
                for value in range(0, end + 1, step)]

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        if not self._totals:
            return
        metrics = QFontMetricsF(self.font())
        area = self.plot_area()
        painter.setPen(QPen(GRID_COLOUR, 1))
        for x, _ in self.ticks()[1:]:
            painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(BAR_EDGE_COLOUR, 1))
        painter.setBrush(BAR_COLOUR)
        rects = self.bar_rects()
        for rect in rects:
            painter.drawRect(rect)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(AXIS_COLOUR)
        label_width = area.left() - 8
        for (label, points), rect in zip(self._totals, rects, strict=True):
            text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, label_width)
            painter.drawText(QRectF(0, rect.top() - 20, label_width, rect.height() + 40),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)
            value = f"{points}"
            room = self.width() - rect.right() - 4
            inside = metrics.horizontalAdvance(value) + 6 > room
            value_rect = QRectF(rect.right() + 4, rect.top() - 20, max(room, 0), rect.height() + 40)
            if inside:  # no room after the bar: in it, in white
                painter.setPen(Qt.GlobalColor.white)
                value_rect = QRectF(rect.left(), rect.top() - 20, rect.width() - 4,
                                    rect.height() + 40)
            painter.drawText(value_rect, Qt.AlignmentFlag.AlignVCenter | (
                Qt.AlignmentFlag.AlignRight if inside else Qt.AlignmentFlag.AlignLeft), value)
            painter.setPen(AXIS_COLOUR)
        painter.drawLine(QPointF(area.left(), area.top()), QPointF(area.left(), area.bottom()))
        painter.drawLine(QPointF(area.left(), area.bottom()),
                         QPointF(area.right(), area.bottom()))
        tick_top = area.bottom() + 2
        for x, tick in self.ticks():
            painter.drawLine(QPointF(x, area.bottom()), QPointF(x, area.bottom() + 3))
            painter.drawText(QRectF(x - 40, tick_top, 80, metrics.height() + 2),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, f"{tick}")
        painter.drawText(QRectF(area.left(), tick_top + metrics.height() + 2, area.width(),
                                metrics.height() + 2),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, "points")

    def bar_at(self, point: QPointF) -> int | None:
        """The index of the row under `point` (the whole row, not just the bar), or None."""
        area = self.plot_area()
        if not self._totals or not (area.top() <= point.y() < area.bottom()):
            return None
        return min(int((point.y() - area.top()) / (area.height() / len(self._totals))),
                   len(self._totals) - 1)

    def tool_tip(self, index: int) -> str:
        label, points = self._totals[index]
        whole = sum(value for _, value in self._totals)
        share = f" ({points / whole:.0%} of {whole})" if whole else ""
        return f"{label}: {points} point{'s' if points != 1 else ''}{share}"

    def event(self, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.bar_at(QPointF(event.pos()))
            if index is None:
                QToolTip.hideText()
                event.ignore()
            else:
                QToolTip.showText(event.globalPos(), self.tool_tip(index), self)
            return True
        return super().event(event)


class RosterChart(QWidget):
    """A grouping combo box over one bar chart of the shown army's points."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rosterChart")
        self._army: Army | None = None
        self._totals: list[tuple[str, int]] = []

        self.grouping_combo = ComboBox(self)
        self.grouping_combo.setObjectName("rosterChartGrouping")
        self.grouping_combo.setAccessibleName("Chart points")
        for grouping in Grouping:
            self.grouping_combo.addItem(grouping.value, grouping)
        self.grouping_combo.setSizePolicy(QSizePolicy.Policy.Maximum,
                                          QSizePolicy.Policy.Fixed)
        self.bars = PointsBars(self)

        self.empty_label = QLabel("No army", self)
        self.empty_label.setObjectName("rosterChartEmpty")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.grouping_combo)
        layout.addWidget(self.bars, 1)
        layout.addWidget(self.empty_label)

        self.grouping_combo.currentIndexChanged.connect(self._grouping_changed)
        self._refresh()

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
        """The bars from top to bottom: (label, points)."""
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
        self.bars.set_totals(self._totals)
