"""The roster chart: points by troop type and by slot, one bar item, a non-blank picture."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest

from desktop.engine.model import Army, TroopType
from desktop.gui.chart import Grouping, RosterChart, troop_type_label

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


def bar_heights(chart: RosterChart) -> list[float]:
    return [float(width) for width in chart.bars.opts["width"]]


def tick_labels(chart: RosterChart) -> list[str]:
    ticks = chart.plot_widget.getPlotItem().getAxis("left")._tickLevels
    return [label for _, label in ticks[0]]


def test_starts_empty(chart):
    assert chart.totals() == []
    assert chart.grouping is Grouping.TROOP_TYPE
    assert chart.grouping_combo.currentText() == "By troop type"
    assert [chart.grouping_combo.itemText(i) for i in range(chart.grouping_combo.count())] \
        == ["By troop type", "By slot"]


def test_totals_by_troop_type(chart):
    chart.show_army(small_army())
    assert chart.totals() == [("Infantry", 235), ("Cavalry", 250), ("War machine", 120)]
    assert bar_heights(chart) == [235, 250, 120]
    assert tick_labels(chart) == ["Infantry", "Cavalry", "War machine"]


def test_totals_by_slot(chart):
    chart.show_army(small_army())
    chart.set_grouping(Grouping.SLOT)
    # In the order the roster first uses each slot; no slot is "Units".
    assert chart.totals() == [("Special", 100), ("Core", 330), ("Rare", 120), ("Units", 55)]
    assert bar_heights(chart) == [100, 330, 120, 55]
    assert tick_labels(chart) == ["Special", "Core", "Rare", "Units"]


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
    assert bar_heights(chart) == []
    assert tick_labels(chart) == []
    assert chart.empty_label.text() == "No army"


def test_army_without_units(chart):
    chart.show_army(army(units=0))
    assert chart.totals() == []
    assert chart.empty_label.text() == "No units"


def test_all_bars_are_one_item(chart):
    chart.show_army(army(units=30))
    items = chart.plot_widget.getPlotItem().listDataItems()
    assert items == [chart.bars]
    assert len(bar_heights(chart)) == len(chart.totals()) == len(TroopType)


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
    plot = chart.plot_widget.geometry()
    colours = {image.pixel(x, y) for x in range(plot.left(), plot.right(), 2)
               for y in range(plot.top(), plot.bottom(), 2)}
    assert len(colours) > 2
    # The tallest bar (cavalry, in the middle) is drawn in the bar colour.
    assert chart.bars.opts["brush"].color().name() in {
        image.pixelColor(x, y).name() for x in range(plot.left(), plot.right(), 2)
        for y in range(plot.top(), plot.bottom(), 2)}


def test_chart_belongs_to_its_parent(qtbot):
    from PySide6.QtWidgets import QWidget

    parent = QWidget()
    qtbot.addWidget(parent)
    chart = RosterChart(parent)
    assert chart.parent() is parent
    assert chart.plot_widget.parent() is chart
    assert chart.grouping_combo.parent() is chart


@pytest.mark.parametrize("module", ["desktop.gui.tasks", "desktop.gui.crash",
                                    "desktop.gui.printing"])
def test_only_the_chart_imports_pyqtgraph(module):
    # The window must not wait for pyqtgraph and numpy before it first paints.
    code = f"import sys, {module}; assert 'pyqtgraph' not in sys.modules, sys.modules.keys()"
    subprocess.run([sys.executable, "-c", code], check=True)
