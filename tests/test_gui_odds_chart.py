"""The roll page's chart: a bar per total at its exact chance, coloured by what it leads to,
the pass/fail line where the threshold falls (W6-BT-2), the rolled total outlined."""

from __future__ import annotations

import pytest

from desktop.engine.dice import D2D6
from desktop.engine.procedure import Roll, Threshold
from desktop.gui.wizard.odds_chart import (
    FAIL_COLOUR,
    PALETTE,
    PASS_COLOUR,
    ROLLED_COLOUR,
    OddsChart,
)


def break_test(needs: int = 5) -> Roll:
    """W6-BT-2 for Ld 7 lost by 2: holds on a total of 5 or less."""
    return Roll(key="break:elves", unit="elves", player="High Elves", dice=D2D6,
                purpose="break test", why="Break test", clause="W6-BT-2",
                threshold=Threshold("<=", needs, "holds", "breaks"))


def flee_near_the_edge() -> Roll:
    """BP-2: 3" from the edge, 4 or more leaves the table."""
    return Roll(key="flee:goblins", unit="goblins", player="Goblins", dice=D2D6,
                purpose="flee", why="Flee", clause="BP-2",
                outcome_of=lambda total: ("leaves the table" if total >= 4
                                          else "moves the full distance"))


@pytest.fixture
def chart(qtbot) -> OddsChart:
    chart = OddsChart()
    qtbot.addWidget(chart)
    chart.resize(400, 240)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def test_bars_stand_at_each_totals_exact_chance(chart):
    chart.show_roll(break_test())
    assert chart.totals == list(range(2, 13))
    heights = [rect.height() for rect in chart.bar_rects()]
    # 2D6: 1, 2, … 6, … 1 ways in 36; the bars keep those proportions.
    ways = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert [height / heights[0] for height in heights] == pytest.approx(ways)
    assert chart.chances[5] == pytest.approx(100 / 6)
    lefts = [rect.left() for rect in chart.bar_rects()]
    assert lefts == sorted(lefts)
    assert all(chart.plot_area().contains(rect.center()) for rect in chart.bar_rects())


def test_a_test_is_green_where_it_passes_red_where_it_fails_and_the_line_between(chart):
    chart.show_roll(break_test(needs=5))
    assert [colour.name() for colour in chart.colours] == (
        [PASS_COLOUR.name()] * 4 + [FAIL_COLOUR.name()] * 7)
    assert [(outcome, colour.name()) for outcome, colour in chart.key] == [
        ("holds", PASS_COLOUR.name()), ("breaks", FAIL_COLOUR.name())]
    rects = chart.bar_rects()
    # Half-way between the bars of 5 and 6.
    assert chart.line_x() == pytest.approx((rects[3].center().x() + rects[4].center().x()) / 2)


def test_a_roll_that_is_no_test_has_no_line_and_keys_its_bands(chart):
    chart.show_roll(flee_near_the_edge())
    assert chart.line_x() is None
    assert [outcome for outcome, _ in chart.key] == ["moves the full distance",
                                                       "leaves the table"]
    assert [colour.name() for colour in chart.colours[:2]] == [PALETTE[0].name()] * 2
    assert {colour.name() for colour in chart.colours[2:]} == {PALETTE[1].name()}


def test_the_picture_has_the_bars_the_line_and_the_rolled_total(chart):
    chart.show_roll(break_test(needs=5), rolled=9)
    image = chart.grab().toImage()
    rects = chart.bar_rects()
    assert image.pixelColor(rects[1].center().toPoint()).name() == PASS_COLOUR.name()
    assert image.pixelColor(rects[7].center().toPoint()).name() == FAIL_COLOUR.name()
    # The 9 is outlined: its edge is drawn in the rolled colour, the 8's is not.
    nine, eight = rects[7], rects[6]
    assert image.pixelColor(int(nine.left()), int(nine.center().y())).name() == \
        ROLLED_COLOUR.name()
    assert image.pixelColor(int(eight.left()), int(eight.center().y())).name() != \
        ROLLED_COLOUR.name()
    # The dashed line crosses the plot somewhere down its height.
    x = round(chart.line_x() or 0)
    area = chart.plot_area()
    column = {image.pixelColor(x, y).name() for y in range(int(area.top()), int(area.bottom()))}
    assert "#202020" in column
    assert "2: 2.8%" in chart.accessibleDescription()


def test_a_key_of_many_outcomes_wraps_and_no_two_share_a_colour(chart):
    names = ["moves the full distance", "passes through friends", "stops short",
             "runs into the Orcs", "runs into the Trolls", "stops at the table edge",
             "leaves the table"]
    chart.show_roll(Roll(key="flee:x", unit="x", player="p", dice=D2D6, purpose="flee",
                         why="Flee", clause="W6-FL-3",
                         outcome_of=lambda total: names[min((total - 2) * 7 // 11, 6)]))
    lines = chart.key_lines()
    assert len(lines) > 1
    assert [outcome for line in lines for outcome, _ in line] == names
    assert len({colour.name() for _, colour in chart.key}) == len(names)
    # The plot gives the key's lines their room.
    metrics_bottom = chart.plot_area().bottom()
    assert metrics_bottom + (2 + len(lines)) * chart.fontMetrics().height() <= chart.height()


def test_a_threshold_past_every_total_is_drawn_at_that_edge(chart):
    chart.show_roll(break_test(needs=-1))  # lost by so much that nothing holds
    assert chart.line_x() == pytest.approx(chart.plot_area().left())
    chart.show_roll(break_test(needs=13))  # nothing breaks
    assert chart.line_x() == pytest.approx(chart.plot_area().right())


def test_many_dice_name_only_the_totals_their_labels_have_room_for(chart):
    from desktop.engine.dice import Dice

    chart.show_roll(Roll(key="r", unit="u", player="p", dice=Dice.parse("12D20"),
                         purpose="x", why="y", clause="W6-FL-3"))
    named = chart.labelled_totals()
    assert named[0] == 12 and 1 < len(named) < len(chart.totals)
    widest = chart.fontMetrics().horizontalAdvance("240")
    spacing = (chart.bar_rects()[1].center().x() - chart.bar_rects()[0].center().x()) * (
        named[1] - named[0])
    assert spacing > widest
    chart.show_roll(break_test())
    assert chart.labelled_totals() == list(range(2, 13))


def test_the_lines_label_never_crosses_the_line(chart):
    """Lost by 5 with Ld 7 (2D6 + 5): only a total of 7 holds; "holds: 7 or less" has no
    room left of the line, so it stands right of it."""
    narrow = Roll(key="break:x", unit="x", player="p", dice=D2D6, purpose="break test",
                  why="Break test", clause="W6-BT-2",
                  threshold=Threshold.of_rule("<=", 7, "holds", "breaks", modifier=5,
                                              against="Ld 7"))
    for roll in (narrow, break_test(needs=5)):
        chart.show_roll(roll)
        place = chart.label_rect()
        assert place is not None and chart.line_x() is not None
        assert not place.left() < chart.line_x() < place.right()
        assert chart.plot_area().contains(place)
    chart.show_roll(break_test(needs=5))
    assert chart.label_rect().right() < chart.line_x()  # room on its passing side
