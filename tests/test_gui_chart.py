"""The roster chart: points by troop type and by slot, bars drawn to scale, a non-blank picture."""

from __future__ import annotations

import itertools
import subprocess
import sys
from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF

from desktop.engine.model import Army, TroopType
from desktop.gui.chart import BAR_COLOUR, Grouping, RosterChart, tick_step, troop_type_label

from builders import army


@pytest.fixture
def chart(qtbot) -> RosterChart:
    chart = RosterChart()
    qtbot.addWidget(chart)
    return chart


def small_army() -> Army:
    """Five units: infantry twice, cavalry, a war machine and an infantry unit in no slot."""
    base = army(units=5)
    kinds = (TroopType.INFANTRY, TroopType.CAVALRY, TroopType.INFANTRY,
             TroopType.WAR_MACHINE, TroopType.INFANTRY)
    slots = ("Special", "Core", "Core", "Rare", "")
    points = (100, 250, 80, 120, 55)
    return replace(base, units=tuple(
        replace(unit, profile=replace(unit.profile, troop_type=kind), slot=slot, points=cost)
        for unit, kind, slot, cost in zip(base.units, kinds, slots, points, strict=True)))


def bar_lengths(chart: RosterChart) -> list[float]:
    """Each bar's length in points, read back from where it is drawn."""
    bars = chart.bars
    ticks = bars.ticks()
    (x0, v0), (x1, v1) = ticks[0], ticks[-1]
    per_point = (x1 - x0) / (v1 - v0)
    return [round(rect.width() / per_point, 6) for rect in bars.bar_rects()]


def shown_chart(chart: RosterChart, qtbot, size: tuple[int, int] = (300, 240)) -> RosterChart:
    chart.resize(*size)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def test_starts_empty(chart):
    assert chart.totals() == []
    assert chart.grouping is Grouping.TROOP_TYPE
    assert chart.grouping_combo.currentText() == "By troop type"
    assert [chart.grouping_combo.itemText(i) for i in range(chart.grouping_combo.count())] \
        == ["By troop type", "By slot"]


def test_totals_by_troop_type(chart, qtbot):
    chart.show_army(small_army())
    assert chart.totals() == [("Infantry", 235), ("Cavalry", 250), ("War machine", 120)]
    shown_chart(chart, qtbot)
    assert bar_lengths(chart) == pytest.approx([235, 250, 120], abs=0.01)


def test_totals_by_slot(chart, qtbot):
    chart.show_army(small_army())
    chart.set_grouping(Grouping.SLOT)
    # In the order the roster first uses each slot; no slot is "Units".
    assert chart.totals() == [("Special", 100), ("Core", 330), ("Rare", 120), ("Units", 55)]
    shown_chart(chart, qtbot)
    assert bar_lengths(chart) == pytest.approx([100, 330, 120, 55], abs=0.01)


def test_switching_the_combo_changes_the_totals(chart, qtbot):
    chart.show_army(small_army())
    by_type = chart.totals()
    chart.grouping_combo.setCurrentIndex(chart.grouping_combo.findText("By slot"))
    assert chart.grouping is Grouping.SLOT
    assert chart.totals() != by_type
    assert sum(points for _, points in chart.totals()) == small_army().points
    chart.grouping_combo.setCurrentIndex(0)
    assert chart.totals() == by_type


def test_none_clears(chart):
    chart.show_army(small_army())
    chart.show_army(None)
    assert chart.totals() == []
    assert chart.bars.bar_rects() == []
    assert chart.empty_label.text() == "No army"
    assert chart.empty_label.isVisibleTo(chart)


def test_army_without_units(chart):
    chart.show_army(army(units=0))
    assert chart.totals() == []
    assert chart.empty_label.text() == "No units"


def test_bars_stack_top_to_bottom_inside_the_plot(chart, qtbot):
    chart.show_army(army(units=30))
    shown_chart(chart, qtbot, (240, 200))
    rects = chart.bars.bar_rects()
    assert len(rects) == len(chart.totals()) == len(TroopType)
    area = chart.bars.plot_area()
    assert all(area.contains(rect.topLeft()) and rect.bottom() <= area.bottom() for rect in rects)
    assert [rect.top() for rect in rects] == sorted(rect.top() for rect in rects)
    assert all(upper.bottom() < lower.top() for upper, lower in itertools.pairwise(rects))
    # The longest bar ends inside the axis, and the axis ends at a round tick.
    assert max(rect.right() for rect in rects) < area.right()
    assert chart.bars.ticks()[-1][0] == pytest.approx(area.right())


@pytest.mark.parametrize(("largest", "step"), [
    (0, 1), (1, 1), (5, 1), (6, 2), (10, 2), (11, 5), (25, 5), (26, 10), (250, 50),
    (251, 100), (1000, 200), (4400, 1000)])
def test_tick_step_is_round_and_gives_at_most_five_ticks(largest, step):
    assert tick_step(largest) == step
    assert largest / step <= 5


def test_hovering_a_bar_tells_its_points_and_share(chart, qtbot):
    chart.show_army(small_army())
    shown_chart(chart, qtbot)
    rects = chart.bars.bar_rects()
    assert chart.bars.bar_at(rects[1].center()) == 1
    assert chart.bars.tool_tip(1) == "Cavalry: 250 points (41% of 605)"
    assert chart.bars.bar_at(QPointF(rects[0].center().x(), chart.bars.height() - 1)) is None
    assert chart.bars.accessibleDescription() == (
        "Infantry: 235 points; Cavalry: 250 points; War machine: 120 points")


def test_troop_type_labels():
    assert [troop_type_label(kind) for kind in TroopType] == [
        "Infantry", "Cavalry", "Monster", "Large", "Chariot", "War machine", "Swarm",
        "Character"]


def test_picture_is_not_blank(chart, qtbot):
    chart.resize(400, 300)
    chart.show_army(small_army())
    chart.layout().activate()  # settle the minimum size first, as run_app does
    chart.show()
    qtbot.waitExposed(chart)
    image = chart.grab().toImage()
    offset = chart.bars.pos()
    # Every bar is painted in the bar colour, at the place bar_rects says.
    for rect in chart.bars.bar_rects():
        centre = rect.center().toPoint() + offset
        assert image.pixelColor(centre).name() == BAR_COLOUR.name()
    plot = chart.bars.geometry()
    colours = {image.pixel(x, y) for x in range(plot.left(), plot.right(), 2)
               for y in range(plot.top(), plot.bottom(), 2)}
    assert len(colours) > 3  # background, bars, text and grid


def test_chart_belongs_to_its_parent(qtbot):
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    chart = RosterChart(parent)
    assert chart.parent() is parent
    assert chart.bars.parent() is chart
    assert chart.grouping_combo.parent() is chart


@pytest.mark.parametrize("module", ["desktop.gui.tasks", "desktop.gui.crash",
                                    "desktop.gui.printing", "desktop.gui.chart"])
def test_the_roster_panes_do_not_import_pyqtgraph(module):
    # pyqtgraph (and numpy) is for the wizard's charts: the armies must not wait for it.
    code = f"import sys, {module}; assert 'pyqtgraph' not in sys.modules, sys.modules.keys()"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("width", [190, 225, 320, 600])
def test_tick_labels_keep_apart_in_a_narrow_dock(chart, qtbot, width):
    from PySide6.QtGui import QFontMetricsF

    chart.show_army(replace(small_army(), units=tuple(
        replace(unit, points=unit.points * 3) for unit in small_army().units)))
    shown_chart(chart, qtbot, (width, 240))
    ticks = chart.bars.ticks()
    metrics = QFontMetricsF(chart.bars.font())
    widest = max(metrics.horizontalAdvance(str(value)) for _, value in ticks)
    assert len(ticks) >= 2
    assert all(right - left > widest + 4 for (left, _), (right, _) in itertools.pairwise(ticks))
    assert chart.bars.ticks()[-1][0] <= chart.bars.width()
