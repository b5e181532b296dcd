"""The charge and ruler tools, reform and disengage, the right-click menus, animated moves
and the replay, driven by real mouse events on the viewport (offscreen)."""

from __future__ import annotations

import math
import re

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, Qt
from PySide6.QtWidgets import QApplication, QMenu
from test_gui_battlefield import NO_BUTTON, Table, battle_from

from desktop.engine import events, moves, spatial
from desktop.engine.events import UnitCharged, UnitDestroyed, UnitMoved, UnitsEngaged
from desktop.engine.geometry import CONTACT_TOLERANCE
from desktop.gui.battlefield.animation import movement_phases, pose_at
from desktop.gui.battlefield.replay import Replay, ReplayBar, ReplayHistory


@pytest.fixture
def table(qtbot, scenario_path):
    made = Table(battle_from(scenario_path, "w6-four-units.json"))
    qtbot.waitExposed(made.view)
    yield made
    made.close()


def shown_number(text: str) -> float:
    found = re.match(r"([0-9.]+)", text)
    assert found is not None, text
    return float(found.group(1))


def press_key(table: Table, key: Qt.Key) -> None:
    QApplication.sendEvent(table.view, QKeyEvent(QEvent.Type.KeyPress, key,
                                                 Qt.KeyboardModifier.NoModifier))


# --- charge -------------------------------------------------------------------------------


def test_dragging_a_unit_onto_an_enemy_charges_it_into_flush_contact(table):
    table.view.set_tool("charge")
    start = table.battle.state("handgunners").center
    boyz = table.battle.state("boyz").center
    table.mouse(QEvent.Type.MouseButtonPress, start)
    table.mouse(QEvent.Type.MouseMove, (start[0] - 2, start[1] - 1), button=NO_BUTTON)
    assert table.scene.ghost.refused  # over open ground: no target yet
    table.mouse(QEvent.Type.MouseMove, boyz, button=NO_BUTTON)
    ghost_text = table.view.tool.shown_text
    assert not table.scene.ghost.refused and ghost_text.startswith("charge Orc Boyz")
    table.mouse(QEvent.Type.MouseButtonRelease, boyz, buttons=NO_BUTTON)

    assert [type(event) for event in table.proposed[-1]] == [UnitCharged, UnitsEngaged]
    battle = table.battle
    assert "boyz" in battle.states["handgunners"].engaged_with
    assert "handgunners" in battle.states["boyz"].engaged_with
    charger = battle.footprint("handgunners")
    off, shared = spatial.front_gap(charger, spatial.nearest_edge(charger,
                                                                  battle.footprint("boyz")))
    assert off <= CONTACT_TOLERANCE and shared > CONTACT_TOLERANCE
    assert not table.scene.ghost.isVisible()


def test_a_refused_charge_shows_the_engines_reason_and_proposes_nothing(table):
    table.view.set_tool("charge")
    start = table.battle.state("wolf_riders").center
    target = table.battle.state("handgunners").center
    reason = ""
    try:
        moves.charge(table.battle, "wolf_riders", "handgunners")
    except moves.MoveRefused as refused:
        reason = table.scene.readable(refused)
    assert reason  # the engine refuses this one (boyz are in the way)
    assert "'" not in reason and "Goblin Wolf Riders" in reason  # names, not ids
    table.mouse(QEvent.Type.MouseButtonPress, start)
    table.mouse(QEvent.Type.MouseMove, target, button=NO_BUTTON)
    assert table.scene.ghost.refused and table.scene.ghost.label.text() == reason
    table.mouse(QEvent.Type.MouseButtonRelease, target, buttons=NO_BUTTON)
    assert not table.proposed and table.messages[-1] == reason


# --- ruler --------------------------------------------------------------------------------


def test_ruler_between_two_units_shows_the_engines_edge_to_edge_distance(table):
    table.view.set_tool("ruler")
    boyz = table.battle.footprint("boyz").corners[1]
    gunners = table.battle.footprint("handgunners").corners[2]
    table.drag(boyz, gunners)
    tool = table.view.tool
    expected = spatial.edge_distance(table.battle, "boyz", "handgunners")
    text = tool.item.text()
    assert text.endswith("edge to edge")
    assert shown_number(text) == pytest.approx(expected, abs=0.01)
    # Drawn between the nearest points of the two footprints, not between the clicks.
    near = spatial.closest_points(table.battle, "boyz", "handgunners")
    assert (tool.item.line.p1().x(), tool.item.line.p1().y()) == pytest.approx(near[0])
    assert not table.proposed  # a ruler never moves anything


def test_ruler_point_to_point_is_the_straight_distance_and_esc_clears_it(table, qtbot):
    table.view.set_tool("ruler")
    pressed, released = table.drag((6.0, 6.0), (13.0, 30.0))
    a, b = table.view.mapToScene(pressed), table.view.mapToScene(released)
    text = table.view.tool.item.text()
    assert text.endswith('"') and "edge" not in text
    assert shown_number(text) == pytest.approx(math.dist((a.x(), a.y()), (b.x(), b.y())),
                                               abs=0.01)
    # It stays drawn after the release, until Esc.
    qtbot.wait(20)
    assert table.view.tool.item.isVisible()
    press_key(table, Qt.Key.Key_Escape)
    assert not table.view.tool.item.isVisible() and table.view.tool.item.text() == ""
    assert not table.proposed


def test_ruler_snaps_to_a_corner_a_few_pixels_away(table):
    table.view.set_tool("ruler")
    corner = table.battle.footprint("handgunners").corners[0]
    pixel = table.pixel(corner) + QPoint(4, -3)
    point, unit = table.view.tool.snap(table.view.mapToScene(pixel))
    assert unit == "handgunners" and point == pytest.approx(corner)
    far = table.pixel(corner) + QPoint(40, 40)
    assert table.view.tool.snap(table.view.mapToScene(far))[1] == ""


def test_kensei_ruler_reads_centimetres(qtbot, scenario_path):
    kensei = Table(battle_from(scenario_path, "k1-ronin-run-through-ashigaru.json"))
    try:
        qtbot.waitExposed(kensei.view)
        kensei.view.set_tool("ruler")
        kensei.drag((5.0, 5.0), (45.0, 35.0))
        text = kensei.view.tool.item.text()
        assert text.endswith(" cm") and shown_number(text) == pytest.approx(50.0, abs=1.0)
    finally:
        kensei.close()


# --- reform, disengage, menus -------------------------------------------------------------


def test_reform_and_disengage_the_selected_unit_through_the_engine(table):
    table.scene.select_units(["handgunners"])
    table.scene.reform_selected(3)
    assert table.battle.state("handgunners").files == 3
    table.scene.reform_selected(3)
    assert table.messages[-1] == "Empire Handgunners already stands 3 files wide"
    table.scene.select_units(["boyz"])
    table.scene.disengage_selected()
    assert table.battle.state("boyz").engaged_with == frozenset()
    assert table.battle.state("swordsmen").engaged_with == {"wolf_riders"}
    table.scene.disengage_selected()
    assert table.messages[-1] == "The selected units are not engaged"


def right_click(table: Table, point: tuple[float, float]) -> QMenu:
    pixel = table.pixel(point)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pixel,
                              table.view.viewport().mapToGlobal(pixel))
    QApplication.sendEvent(table.view.viewport(), event)
    menu = table.view.last_menu
    assert menu is not None
    return menu


def actions_of(menu: QMenu) -> dict[str, object]:
    return {action.text(): action for action in menu.actions() if action.text()}


# The offscreen platform cannot raise a popup or grab the keyboard; it says so, harmlessly.
OFFSCREEN_POPUP = pytest.mark.qt_log_ignore("This plugin does not support raise",
                                            "This plugin does not support grabbing the keyboard")


@OFFSCREEN_POPUP
def test_right_click_on_a_unit_offers_reform_and_disengage(table):
    menu = right_click(table, table.battle.state("swordsmen").center)
    assert table.scene.selected_units() == ["swordsmen"]
    found = actions_of(menu)
    assert {"Select Empire Swordsmen", "Reform", "Disengage", "Turn to face",
            "Charge"} <= set(found)
    reform = menu.findChild(QMenu, "reformMenu")
    widths = [action.data() for action in reform.actions()]
    assert 5 not in widths and widths == sorted(widths) and 3 in widths
    next(action for action in reform.actions() if action.data() == 3).trigger()
    assert table.battle.state("swordsmen").files == 3
    menu.close()

    menu = right_click(table, table.battle.state("swordsmen").center)
    actions_of(menu)["Disengage"].trigger()
    assert table.battle.state("swordsmen").engaged_with == frozenset()
    menu.close()
    menu = right_click(table, table.battle.state("handgunners").center)
    assert not actions_of(menu)["Disengage"].isEnabled()  # not engaged
    menu.close()


@OFFSCREEN_POPUP
def test_reform_widths_the_engine_would_refuse_are_greyed_with_the_reason(table):
    """The swordsmen (15 models on 0.79" bases, centred at x 36) 13 wide would span x 30.9
    to 41.1, into the handgunners at x 40.97: greyed, saying so by name. 12 wide they clear
    them, the wolf riders on their flank making way. One file is "1 file"."""
    menu = right_click(table, table.battle.state("swordsmen").center)
    reform = menu.findChild(QMenu, "reformMenu")
    by_width = {action.data(): action for action in reform.actions()}
    assert not by_width[13].isEnabled()
    assert by_width[13].toolTip() == ("Empire Swordsmen would overlap unit Empire Handgunners "
                                      "once reformed")
    assert by_width[12].isEnabled() and by_width[3].isEnabled()
    assert by_width[1].text() == "1 file (15 ranks)"
    menu.close()


@OFFSCREEN_POPUP
def test_right_click_on_the_table_offers_fit_and_the_ruler(table):
    menu = right_click(table, (5.0, 40.0))
    found = actions_of(menu)
    assert {"Fit table", "Ruler", "Select and move"} <= set(found)
    found["Ruler"].trigger()
    assert table.view.tool.name == "ruler"
    menu.close()


# --- animations ---------------------------------------------------------------------------


def test_a_move_animates_along_its_path_while_the_state_is_already_final(table, qtbot):
    before = table.battle
    move = moves.move_to(before, "handgunners", (50.0, 36.0), facing=0.0,
                         via=[(50.0, 24.0)])
    after = events.fold(before, [move])
    table.scene.show_battle(after, animate=[move])
    item = table.scene.unit_item("handgunners")
    assert table.scene.animating
    # The picture moves; the state, the item and every query are final at once.
    assert (item.pos().x(), item.pos().y()) == pytest.approx(move.path[-1])
    assert item.rotation() == pytest.approx(0.0)
    assert table.scene.unit_at(QPointF(50.0, 36.0)) is item
    qtbot.wait(150)
    marker = table.scene.animator.markers["handgunners"]
    x, y = marker.pos().x(), marker.pos().y()
    on_first_leg = abs(y - 24.0) < 1e-6 and 42.94 - 1e-6 <= x <= 50.0 + 1e-6
    on_second_leg = abs(x - 50.0) < 1e-6 and 24.0 <= y <= 36.0
    assert on_first_leg or on_second_leg
    assert (x, y) != pytest.approx(move.path[-1])
    qtbot.waitUntil(lambda: not table.scene.animating, timeout=3000)
    assert marker.scene() is None and item.opacity() == 1.0
    assert (item.pos().x(), item.pos().y()) == pytest.approx(move.path[-1])


def test_skip_finishes_every_animation_at_once(table):
    before = table.battle
    move = moves.move_to(before, "handgunners", (60.0, 10.0))
    destroyed = UnitDestroyed.build(events.fold(before, [move]), "wolf_riders", "test",
                                    clause="")
    after = events.fold(before, [move, destroyed])
    table.scene.show_battle(after, animate=[move, destroyed])
    assert table.scene.animating and table.scene.unit_item("wolf_riders") is None
    table.scene.skip_animations()
    assert not table.scene.animating and not table.scene.animator.markers
    item = table.scene.unit_item("handgunners")
    assert (item.pos().x(), item.pos().y()) == pytest.approx((60.0, 10.0))
    assert item.opacity() == 1.0
    drawn = [i for i in table.scene.items() if i.zValue() in (34.0, 35.0)]
    assert not drawn  # no marker or fading outline left behind


def test_turn_before_and_after_are_played_in_that_order():
    move = UnitMoved("u", 0, ((0.0, 0.0), (12.0, 0.0)), 90.0, turned="before")
    phases = movement_phases(move, 0.0, speed=12.0)
    assert pose_at(phases, 0.0) == ((0.0, 0.0), 0.0)
    turning = phases[0].seconds
    assert pose_at(phases, turning / 2)[1] == pytest.approx(45.0)
    assert pose_at(phases, turning)[1] == pytest.approx(90.0)
    assert pose_at(phases, turning + 0.5) == ((6.0, 0.0), 90.0)
    after = movement_phases(UnitMoved("u", 0, move.path, 90.0, turned="after"), 0.0, 12.0)
    assert pose_at(after, 0.5) == ((6.0, 0.0), 0.0)
    total = sum(phase.seconds for phase in after)
    centre, facing = pose_at(after, total)
    assert centre == pytest.approx((12.0, 0.0)) and facing == pytest.approx(90.0)


# --- replay -------------------------------------------------------------------------------


def walking_history(battle, count: int) -> tuple[list[list[UnitMoved]], list]:
    steps, states = [], [battle]
    x, y = battle.state("handgunners").center
    for step in range(count):
        move = moves.move_to(battle, "handgunners", (x + (step % 2) * 1.0, y + 2.0 + step * 0.5))
        battle = events.fold(battle, [move])
        steps.append([move])
        states.append(battle)
    return steps, states


def test_replay_history_matches_a_full_fold_at_every_step(table):
    steps, states = walking_history(table.battle, 30)
    history = ReplayHistory(table.battle, steps, every=4)
    for step in [0, 30, 7, 8, 9, 3, 29, 12, 12, 0]:
        assert history.state_at(step).states == states[step].states


def test_replay_bar_shows_past_states_read_only_and_back_to_now(table, qtbot):
    steps, states = walking_history(table.battle, 12)
    table.scene.show_battle(states[-1])
    bar = ReplayBar()
    qtbot.addWidget(bar)
    replay = Replay(bar, table.scene)
    replay.set_history(ReplayHistory(states[0], steps, now=states[-1]))
    chosen: list[int] = []
    bar.stepChosen.connect(chosen.append)
    assert bar.label.text() == "Now" and not bar.now_button.isEnabled()
    bar.slider.setValue(5)
    assert chosen == [5] and bar.label.text() == "Step 5 of 12"
    assert table.scene.banner == "Replay — step 5 of 12" and table.scene.read_only
    item = table.scene.unit_item("handgunners")
    assert (item.pos().x(), item.pos().y()) == pytest.approx(states[5].state("handgunners").center)
    # Tools propose nothing while replaying: a drag moves no unit.
    start = states[5].state("handgunners").center
    table.drag(start, (start[0] + 3, start[1]))
    assert not table.proposed
    table.view.set_tool("charge")
    table.drag(start, table.battle.state("boyz").center)
    assert not table.proposed and "replay" in table.messages[-1]
    table.view.set_tool("ruler")  # measuring the past is fine
    table.drag((6.0, 6.0), (6.0, 12.0))
    assert table.view.tool.item.text()
    bar.now_button.click()
    assert chosen[-1] == 12 and not table.scene.read_only and table.scene.banner == ""
    assert (item.pos().x(), item.pos().y()) == pytest.approx(states[-1].state("handgunners").center)
