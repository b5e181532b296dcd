"""The exact chance of every total of one roll, bars coloured by what each total leads to.

AnyDice-style: one bar per total, the bands the engine gives (hold / break, catches /
misses, "leaves the table") in their own colours with a key under the axis, and the
pass/fail line of a test drawn where the threshold falls. A test's totals are shown as its
rule counts them, with what the rule adds (2D6 + 3 runs 5 to 15) and the line labelled in
the threshold's words ("holds: 8 or less"), the numbers the page's sentence gives.
Painted with QPainter: a roll page is built on every Next, and a pyqtgraph plot cost it
~25 ms to make and paint.
"""

from __future__ import annotations

import itertools
import math
from typing import Final

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.engine.odds import percent
from desktop.engine.procedure import Roll
from desktop.engine.wording import agree
from desktop.gui.chart import tick_step

BACKGROUND: Final = QColor("#fbfbfb")
AXIS_COLOUR: Final = QColor("#505050")
GRID_COLOUR: Final = QColor("#e2e2e2")
PASS_COLOUR: Final = QColor("#4e9a52")
FAIL_COLOUR: Final = QColor("#c8553d")
LINE_COLOUR: Final = QColor("#202020")
ROLLED_COLOUR: Final = QColor("#1a1a1a")  # outline of the total just rolled
# Outcomes without a test (a flee move's "leaves the table") take these in turn.
PALETTE: Final = (QColor("#4a7ebb"), QColor("#8e6bbf"), QColor("#d08c2f"), QColor("#3f9f9f"),
                  QColor("#a05a7a"), QColor("#6f8f3a"), QColor("#b8a534"), QColor("#5d6b7a"))
BAR_SHARE: Final = 0.8
"""How much of its slot a bar fills."""
HEADROOM: Final = 1.18
"""The percent axis runs past the tallest bar, so the threshold's label has room."""


def outcome_colours(roll: Roll) -> dict[str, QColor]:
    """A colour for each outcome of `roll`: a test's pass green and fail red."""
    colours: dict[str, QColor] = {}
    if roll.threshold is not None:
        colours[roll.threshold.passes] = PASS_COLOUR
        colours[roll.threshold.fails] = FAIL_COLOUR
    spare = itertools.cycle(PALETTE)
    for band in roll.bands:
        if band.outcome not in colours:
            colours[band.outcome] = next(spare)
    return colours


def added(roll: Roll) -> int:
    """What the roll's rule adds to the dice total (a Break test's score difference)."""
    return roll.threshold.modifier if roll.threshold is not None else 0


def threshold_line(roll: Roll) -> float | None:
    """Where the pass/fail line goes, in shown totals: between the last failing and the
    first passing one."""
    if roll.threshold is None:
        return None
    target = roll.threshold.target
    return target - 0.5 if roll.threshold.comparison in (">=", "<") else target + 0.5


def line_label(roll: Roll, many: bool = False) -> str:
    """"holds: 8 or less": what passes, in the threshold's words ("hold" for a unit of
    many models, as its page's sentence says)."""
    if roll.threshold is None:
        return ""
    return f"{agree(roll.threshold.passes, many)}: {roll.threshold.ranges()[0]}"


def axis_title(roll: Roll) -> str:
    shift = added(roll)
    if not shift:
        return "total"
    return f"total ({roll.dice} {'+' if shift > 0 else '-'} {abs(shift)})"


class OddsChart(QWidget):
    """Bars of one roll's totals in percent; `show_roll` puts a Roll on it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("oddsChart")
        self.setMinimumSize(320, 190)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Chance of each total")
        self.roll: Roll | None = None
        self.rolled: int | None = None
        self.totals: list[int] = []  # as shown: the dice total plus what the rule adds
        self.chances: list[float] = []  # percent, per total
        self.colours: list[QColor] = []
        self.key: list[tuple[str, QColor]] = []  # each outcome and its colour, in order
        self.many = False  # whether the rolling unit has many models (the words agree)

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(360, 210)

    def show_roll(self, roll: Roll, rolled: int | None = None, many: bool = False) -> None:
        """Draw `roll`'s totals; the `rolled` dice total, if any, is outlined. The key and
        the line speak of the rolling unit, `many` models or one."""
        pmf = roll.dice.pmf()
        shift = added(roll)
        self.roll = roll
        self.many = many
        self.rolled = rolled + shift if rolled is not None else None
        dice_totals = sorted(pmf)
        self.totals = [total + shift for total in dice_totals]
        self.chances = [float(pmf[total]) * 100 for total in dice_totals]
        colours = outcome_colours(roll)
        outcome_at = {total: band.outcome for band in roll.bands
                      for total in range(band.low, band.high + 1)}
        self.colours = [colours.get(outcome_at.get(total, ""), PALETTE[0])
                        for total in dice_totals]
        shown = {outcome_at.get(total, "") for total in dice_totals}
        self.key = [(agree(outcome, many), colour) for outcome, colour in colours.items()
                    if outcome in shown]
        self.setAccessibleDescription("; ".join(
            f"{total + shift}: {percent(pmf[total])}" for total in dice_totals))
        self.update()

    # Layout in widget coordinates, worked out from the size and font at each call so that
    # painting and tests agree.

    def _top_percent(self) -> float:
        return max(self.chances, default=1.0) * HEADROOM

    def key_lines(self) -> list[list[tuple[str, QColor]]]:
        """The key's entries, wrapped onto as many lines as the width needs."""
        metrics = QFontMetricsF(self.font())
        left = metrics.horizontalAdvance("100%") + 10
        lines: list[list[tuple[str, QColor]]] = [[]]
        x = left
        for outcome, colour in self.key:
            width = metrics.height() * 0.7 + 4 + metrics.horizontalAdvance(outcome) + 14
            if lines[-1] and x + width > self.width():
                lines.append([])
                x = left
            lines[-1].append((outcome, colour))
            x += width
        return lines if self.key else []

    def plot_area(self) -> QRectF:
        metrics = QFontMetricsF(self.font())
        left = metrics.horizontalAdvance("100%") + 10
        # Below the plot: tick labels, the axis title, then the key's lines.
        bottom = (2 + len(self.key_lines())) * metrics.height() + 14
        return QRectF(left, 6, max(1.0, self.width() - left - 8),
                      max(1.0, self.height() - 6 - bottom))

    def _x_of(self, total: float) -> float:
        """Where a total (or a half-way point between two) falls along the axis."""
        area = self.plot_area()
        first, last = self.totals[0] - 0.6, self.totals[-1] + 0.6
        return area.left() + (total - first) / (last - first) * area.width()

    def _y_of(self, chance: float) -> float:
        area = self.plot_area()
        return area.bottom() - chance / self._top_percent() * area.height()

    def bar_rects(self) -> list[QRectF]:
        """Each total's bar, in the order of `totals`."""
        if not self.totals:
            return []
        slot = self._x_of(1) - self._x_of(0)
        width = slot * BAR_SHARE
        bottom = self.plot_area().bottom()
        return [QRectF(self._x_of(total) - width / 2, self._y_of(chance), width,
                       bottom - self._y_of(chance))
                for total, chance in zip(self.totals, self.chances, strict=True)]

    def labelled_totals(self) -> list[int]:
        """The totals named under the axis: as many as their labels leave room for (every
        one for 2D6, every other or fewer for many dice)."""
        if not self.totals:
            return []
        metrics = QFontMetricsF(self.font())
        slot = max(self._x_of(1) - self._x_of(0), 1.0)
        label = metrics.horizontalAdvance(str(self.totals[-1])) + 6
        return self.totals[::max(1, math.ceil(label / slot))]

    def line_x(self) -> float | None:
        """Where the pass/fail line is drawn, or None when the roll is no test. A threshold
        past every total (a test no roll can pass, or none can fail) is drawn at that edge."""
        at = threshold_line(self.roll) if self.roll is not None else None
        if at is None or not self.totals:
            return None
        area = self.plot_area()
        return min(max(self._x_of(at), area.left()), area.right())

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        painter = QPainter(self)
        painter.fillRect(self.rect(), BACKGROUND)
        if not self.totals:
            return
        metrics = QFontMetricsF(self.font())
        area = self.plot_area()
        top = self._top_percent()
        step = tick_step(top, 4)
        ticks = [value for value in range(0, math.floor(top) + 1, step)]
        painter.setPen(QPen(GRID_COLOUR, 1))
        for value in ticks[1:]:
            painter.drawLine(QPointF(area.left(), self._y_of(value)),
                             QPointF(area.right(), self._y_of(value)))
        for rect, colour, total in zip(self.bar_rects(), self.colours, self.totals, strict=True):
            rolled = total == self.rolled
            painter.setPen(QPen(ROLLED_COLOUR, 3) if rolled else QPen(colour.darker(130), 1))
            painter.setBrush(colour)
            painter.drawRect(rect)
        painter.setPen(AXIS_COLOUR)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawLine(area.bottomLeft(), area.bottomRight())
        painter.drawLine(area.bottomLeft(), area.topLeft())
        for value in ticks:
            y = self._y_of(value)
            painter.drawText(QRectF(0, y - metrics.height() / 2, area.left() - 4,
                                    metrics.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                             f"{value}%")
        below = area.bottom() + 3
        for total in self.labelled_totals():
            x = self._x_of(total)
            painter.drawText(QRectF(x - 20, below, 40, metrics.height()),
                             Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                             str(total))
        painter.drawText(QRectF(area.left(), below + metrics.height(), area.width(),
                                metrics.height()),
                         Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                         axis_title(self.roll) if self.roll is not None else "total")
        self._paint_key(painter, metrics, below + 2 * metrics.height() + 6)
        self._paint_line(painter, metrics)

    def _paint_key(self, painter: QPainter, metrics: QFontMetricsF, y: float) -> None:
        size = metrics.height() * 0.7
        for line in self.key_lines():
            x = self.plot_area().left()
            for outcome, colour in line:
                painter.fillRect(QRectF(x, y + (metrics.height() - size) / 2, size, size),
                                 colour)
                x += size + 4
                room = max(0.0, self.width() - x - 4)  # only a lone, very long entry elides
                text = metrics.elidedText(outcome, Qt.TextElideMode.ElideRight, room)
                painter.drawText(QRectF(x, y, room, metrics.height()),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                                 text)
                x += metrics.horizontalAdvance(text) + 14
            y += metrics.height()

    def label_rect(self) -> QRectF | None:
        """Where the line's label goes: on the passing side when it fits there, else on the
        other, never across the line; kept inside the plot."""
        x = self.line_x()
        if x is None or self.roll is None or self.roll.threshold is None:
            return None
        metrics = QFontMetricsF(self.font())
        area = self.plot_area()
        width = metrics.horizontalAdvance(line_label(self.roll, self.many)) + 4
        right_side, left_side = x + 4, x - 4 - width
        passes_right = self.roll.threshold.comparison in (">=", ">")
        fits_right = right_side + width <= area.right()
        fits_left = left_side >= area.left() + 2
        if passes_right:
            left = right_side if fits_right or not fits_left else left_side
        else:
            left = left_side if fits_left or not fits_right else right_side
        left = min(max(left, area.left() + 2), area.right() - width)
        return QRectF(left, area.top(), width, metrics.height())

    def _paint_line(self, painter: QPainter, metrics: QFontMetricsF) -> None:
        x = self.line_x()
        place = self.label_rect()
        if x is None or place is None or self.roll is None:
            return
        area = self.plot_area()
        painter.setPen(QPen(LINE_COLOUR, 2, Qt.PenStyle.DashLine))
        painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
        painter.setPen(LINE_COLOUR)
        painter.drawText(place, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         line_label(self.roll, self.many))
