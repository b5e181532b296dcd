"""The terrain tool, driven by real mouse and key events sent to the battlefield's viewport.

Accepted proposals are folded into the battle and shown again, as the window does (the
`Table` helper of test_gui_battlefield). The engine decides; these tests check that what the
player draws, drags and deletes reaches it, and that its refusals reach the player.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from test_gui_battlefield import NO_BUTTON, Table, battle_from

from desktop.engine import events
from desktop.engine.events import TerrainMoved, TerrainPlaced, TerrainRemoved
from desktop.gui.battlefield.terrain_items import TerrainItem
from desktop.gui.battlefield.terrain_tool import TerrainTool
from desktop.gui.battlefield.tools import TOOLS

WOOD = [(10.0, 10.0), (20.0, 10.0), (20.0, 18.0), (10.0, 18.0)]
PLACED_WOOD = TerrainPlaced("wood", "Old Wood", ((10.0, 10.0), (20.0, 10.0), (20.0, 18.0),
                                                 (10.0, 18.0)), difficult=True)


@pytest.fixture
def table(qtbot, scenario_path) -> Iterator[Table]:
    made = Table(battle_from(scenario_path, "w6-four-units.json"))
    qtbot.waitExposed(made.view)
    yield made
    made.close()


def terrain_tool(table: Table, zoom_on: tuple[float, float] | None = None) -> TerrainTool:
    """Switch to the terrain tool; `zoom_on` zooms in there so a pixel is < 0.01"."""
    table.view.set_tool("terrain")
    if zoom_on is not None:
        table.view.zoom_by(60.0 / table.view.scale_factor)
        table.view.centerOn(QPointF(*zoom_on))
        assert table.view.scale_factor >= 55.0
    tool = table.view.tool
    assert isinstance(tool, TerrainTool)
    return tool


def click(table: Table, point: tuple[float, float]) -> None:
    table.mouse(QEvent.Type.MouseButtonPress, point)
    table.mouse(QEvent.Type.MouseButtonRelease, point, buttons=NO_BUTTON)


def double_click(table: Table, point: tuple[float, float]) -> None:
    """What Qt sends for a double-click: press, release, double-click, release."""
    click(table, point)
    table.mouse(QEvent.Type.MouseButtonDblClick, point)
    table.mouse(QEvent.Type.MouseButtonRelease, point, buttons=NO_BUTTON)


def hover(table: Table, point: tuple[float, float]) -> None:
    table.mouse(QEvent.Type.MouseMove, point, button=NO_BUTTON, buttons=NO_BUTTON)


def key(table: Table, qtbot, which: Qt.Key) -> None:
    qtbot.keyClick(table.view, which)


def draw(table: Table, corners: list[tuple[float, float]]) -> None:
    for corner in corners[:-1]:
        click(table, corner)
        hover(table, corner)
    double_click(table, corners[-1])


def with_wood(table: Table, placed: TerrainPlaced = PLACED_WOOD) -> None:
    assert table.battle is not None
    table.battle = events.fold(table.battle, [placed])
    table.scene.show_battle(table.battle)


# --- drawing ------------------------------------------------------------------------------------


def test_the_terrain_tool_is_registered():
    assert TOOLS["terrain"] is TerrainTool


def test_four_clicks_and_a_double_click_place_a_wood_with_those_corners(table):
    tool = terrain_tool(table, zoom_on=(15.0, 14.0))
    assert tool.kind == "difficult"
    draw(table, WOOD)
    assert len(table.proposed) == 1
    (placed,) = table.proposed[0]
    assert isinstance(placed, TerrainPlaced)
    assert (placed.terrain, placed.name, placed.difficult, placed.impassable) == (
        "wood-1", "Wood 1", True, False)
    assert table.battle is not None
    piece = table.battle.terrain[-1]
    assert piece.kind == "difficult" and len(piece.points) == 4
    for found, wanted in zip(piece.points, WOOD, strict=True):
        assert found == pytest.approx(wanted, abs=0.01)
    # The scene shows it, labelled with its name and kind, and the outline is gone.
    item = table.scene.terrain_item("wood-1")
    assert isinstance(item, TerrainItem)
    assert item.label.text() == "Wood 1\ndifficult ground"
    assert not tool.drawing and not tool.outline.isVisible()
    assert table.messages == []


def test_the_live_outline_follows_the_mouse_and_enter_closes_it(table, qtbot):
    tool = terrain_tool(table)
    tool.kind = "open"
    click(table, (50.0, 5.0))
    click(table, (60.0, 5.0))
    hover(table, (55.0, 12.0))
    assert tool.outline.isVisible() and not tool.outline.refused
    box = tool.outline.path().boundingRect()
    assert (box.top(), box.bottom()) == pytest.approx((5.0, 12.0), abs=0.1)
    assert "2 corners" in tool.outline.label.text()
    click(table, (55.0, 12.0))
    key(table, qtbot, Qt.Key.Key_Return)
    (placed,) = table.proposed[0]
    assert isinstance(placed, TerrainPlaced)
    assert (placed.name, placed.difficult, placed.impassable) == ("Hill 1", False, False)
    assert table.scene.terrain_item("hill-1") is not None


def test_a_self_crossing_outline_is_refused_with_a_message_and_nothing_proposed(table, qtbot):
    tool = terrain_tool(table)
    draw(table, [(10.0, 10.0), (20.0, 18.0), (20.0, 10.0), (10.0, 18.0)])
    assert table.proposed == []
    assert table.messages and "crosses itself" in table.messages[-1]
    # The outline stays, red, so that Backspace can take back the corner that spoiled it.
    assert tool.drawing and tool.outline.isVisible() and tool.outline.refused
    key(table, qtbot, Qt.Key.Key_Backspace)
    assert len(tool.corners) == 3
    key(table, qtbot, Qt.Key.Key_Return)
    assert len(table.proposed) == 1 and len(table.proposed[0][0].points) == 3


def test_too_few_corners_and_escape_propose_nothing(table, qtbot):
    tool = terrain_tool(table)
    click(table, (10.0, 10.0))
    double_click(table, (20.0, 10.0))
    assert table.proposed == []
    assert "at least three corners, not 2" in table.messages[-1]
    key(table, qtbot, Qt.Key.Key_Escape)
    assert not tool.drawing and not tool.outline.isVisible()
    click(table, (30.0, 40.0))  # a fresh outline starts at the next click
    assert tool.corners == [pytest.approx((30.0, 40.0), abs=0.1)]


def test_impassable_terrain_cannot_be_drawn_under_a_unit(table):
    tool = terrain_tool(table)
    tool.kind = "impassable"
    draw(table, [(40.0, 20.0), (47.0, 20.0), (47.0, 28.0), (40.0, 28.0)])
    assert table.proposed == []
    assert table.messages[-1] == "impassable terrain Rocks 1 would cover unit Empire Handgunners"


def test_an_unknown_kind_is_refused(table):
    tool = terrain_tool(table)
    with pytest.raises(ValueError, match="no terrain kind 'swamp'"):
        tool.kind = "swamp"


# --- moving and deleting ------------------------------------------------------------------------


def test_dragging_a_piece_moves_it_by_the_mouse_delta(table):
    with_wood(table)
    tool = terrain_tool(table)
    pressed, released = table.drag((15.0, 14.0), (25.0, 30.0))
    delta = table.view.mapToScene(released) - table.view.mapToScene(pressed)
    (moved,) = table.proposed[0]
    assert isinstance(moved, TerrainMoved) and moved.terrain == "wood"
    assert (moved.dx, moved.dy) == pytest.approx((delta.x(), delta.y()), abs=1e-9)
    assert (moved.dx, moved.dy) == pytest.approx((10.0, 16.0), abs=0.2)
    assert table.battle is not None
    for found, (x, y) in zip(table.battle.terrain[-1].points, PLACED_WOOD.points, strict=True):
        assert found == pytest.approx((x + delta.x(), y + delta.y()), abs=1e-9)
    item = table.scene.terrain_item("wood")
    assert item is not None and item.isSelected()  # still selected: Delete works at once
    assert not tool.outline.isVisible()


def test_the_drag_ghost_shows_the_engines_refusal_and_nothing_is_proposed(table):
    rocks = TerrainPlaced("rocks", "Rocks", ((10.0, 10.0), (14.0, 10.0), (12.0, 14.0)),
                          impassable=True)
    with_wood(table, rocks)
    tool = terrain_tool(table)
    table.mouse(QEvent.Type.MouseButtonPress, (12.0, 11.0))
    for step in range(1, 9):
        hover_to = (12.0 + 31.0 * step / 8, 11.0 + 13.0 * step / 8)
        table.mouse(QEvent.Type.MouseMove, hover_to, button=NO_BUTTON)
    assert tool.outline.isVisible() and tool.outline.refused
    assert "would then cover unit Empire Handgunners" in tool.outline.label.text()
    table.mouse(QEvent.Type.MouseButtonRelease, (43.0, 24.0), buttons=NO_BUTTON)
    assert table.proposed == []
    assert table.messages[-1] == "impassable terrain Rocks would then cover unit Empire Handgunners"


def test_delete_removes_the_selected_piece(table, qtbot):
    with_wood(table)
    terrain_tool(table)
    key(table, qtbot, Qt.Key.Key_Delete)  # nothing selected yet
    assert table.proposed == [] and "Select a piece" in table.messages[-1]
    click(table, (12.0, 12.0))
    assert table.scene.selected_terrain() == ["wood"]
    key(table, qtbot, Qt.Key.Key_Delete)
    assert table.proposed == [[TerrainRemoved("wood")]]
    assert table.battle is not None and table.battle.terrain == ()
    assert table.scene.terrain_ids() == []


def test_a_piece_can_be_renamed(table):
    with_wood(table)
    tool = terrain_tool(table)
    tool.rename_terrain("wood", "Dark Wood")
    assert table.scene.terrain_item("wood").label.text() == "Dark Wood\ndifficult ground"
    tool.rename_terrain("wood", " ")
    assert table.messages[-1] == "terrain Dark Wood needs a name"


def test_terrain_is_selectable_only_with_the_terrain_tool(table):
    with_wood(table, TerrainPlaced("wood", "Wood", ((50.0, 18.0), (62.0, 18.0), (62.0, 30.0),
                                                    (50.0, 30.0)), difficult=True))
    # The select tool: a rubber band over the wood picks no terrain, and a unit drags over it.
    table.drag((48.0, 16.0), (64.0, 32.0))
    assert table.scene.selectedItems() == []
    table.drag((43.0, 24.0), (55.0, 24.0))
    assert table.battle is not None
    assert table.battle.state("handgunners").center == pytest.approx((54.94, 24.0), abs=0.2)
    terrain_tool(table)
    click(table, (51.0, 19.0))
    assert table.scene.selected_terrain() == ["wood"]
    table.view.set_tool("select")
    assert table.scene.selected_terrain() == []
    item = table.scene.terrain_item("wood")
    assert item is not None
    assert not item.flags() & item.GraphicsItemFlag.ItemIsSelectable


def test_switching_tools_while_drawing_drops_the_outline(table):
    tool = terrain_tool(table)
    click(table, (10.0, 10.0))
    click(table, (20.0, 10.0))
    table.view.set_tool("select")
    assert tool.outline.scene() is None and tool.outline.label.scene() is None
    assert table.proposed == []


# --- how it looks -------------------------------------------------------------------------------


def _row_colours(scene, y: float, x0: float, x1: float) -> set[int]:
    """The distinct colours along one row of the table, rendered at 10 px per inch."""
    image = QImage(720, 480, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.black)
    painter = QPainter(image)
    painter.setTransform(QTransform(10, 0, 0, -10, 0, 480))  # y up, as the view shows it
    table = QRectF(0, 0, 72, 48)
    scene.render(painter, table, table)
    painter.end()
    row = round(480 - y * 10)
    return {image.pixel(x, row) for x in range(round(x0 * 10), round(x1 * 10))}


def test_difficult_ground_is_hatched_and_open_ground_is_not(table):
    open_piece = TerrainPlaced("field", "Field", ((2.0, 30.0), (14.0, 30.0), (14.0, 44.0),
                                                   (2.0, 44.0)))
    with_wood(table)
    with_wood(table, open_piece)
    assert table.scene.terrain_item("field").label.text() == "Field\nopen ground"
    # Rows clear of the labels (mid-piece) and between the grid lines (every 6").
    hatched = _row_colours(table.scene, 11.0, 12.5, 17.5)
    plain = _row_colours(table.scene, 31.0, 6.5, 11.5)
    assert len(plain) == 1
    assert len(hatched) >= 2


# --- through the window ---------------------------------------------------------------------------


@pytest.fixture
def window_battle(qtbot, tmp_path) -> Iterator[tuple[object, str, str]]:
    from test_gui_battles import ELVES, GOBLINS, new_battle_in
    from test_gui_roster import Modals, open_window, sample, seed

    modals = Modals()
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    battle_id = new_battle_in(qtbot, window, modals)  # every unit in reserve: an empty table
    window.battlefield_view.fit_table()
    yield window, url, battle_id
    modals.stop()
    assert not modals.unexpected, f"unexpected dialogs: {modals.unexpected}"


def test_the_window_stores_a_drawn_wood_and_its_move_as_one_undoable_step_each(
        qtbot, window_battle):
    from test_gui_battles import steps_stored, stored_state

    window, url, battle_id = window_battle
    window.battles.tool_actions["terrain"].trigger()  # the toolbar picks the tool up from TOOLS
    view = window.battlefield_view
    assert isinstance(view.tool, TerrainTool)
    table = Table.__new__(Table)  # only its mouse helpers, on the window's view
    table.view = view
    steps = steps_stored(url, battle_id)
    draw(table, WOOD)
    assert steps_stored(url, battle_id) == steps + 1
    (piece,) = stored_state(url, battle_id).terrain
    assert (piece.id, piece.kind) == ("wood-1", "difficult")
    table.drag((15.0, 14.0), (25.0, 14.0))
    assert steps_stored(url, battle_id) == steps + 2
    (moved,) = stored_state(url, battle_id).terrain
    assert moved.points[0][0] == pytest.approx(piece.points[0][0] + 10.0, abs=0.2)
    # Delete reaches the tool (no window shortcut takes it first).
    click(table, (26.0, 15.0))
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert stored_state(url, battle_id).terrain == ()
    assert steps_stored(url, battle_id) == steps + 3
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert stored_state(url, battle_id).terrain == (piece,)
    window.undo_action.trigger()
    assert stored_state(url, battle_id).terrain == ()
    assert window.battlefield_scene.terrain_ids() == []
