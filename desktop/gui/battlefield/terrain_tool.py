"""The terrain tool: draw a piece of terrain corner by corner, drag it, delete it.

- Click on open ground to start an outline, click again for each corner; a live outline
  follows the mouse (red while the engine would refuse it). Double-click or Enter closes it,
  Backspace takes back the last corner, Esc drops the outline.
- The closed outline is proposed as a TerrainPlaced of `kind` ("open", "difficult",
  "impassable") with the first free default name ("Wood 1", ...). The engine decides whether
  it is a proper outline on the table; its refusal goes to `scene.message`.
- Press on a piece to select it; drag it to move it (a ghost outline shows where, checked
  by the engine all the way) and a TerrainMoved is proposed on release.
- Delete or Backspace proposes removing the selected piece.

Pieces are selectable only while this tool is active (`scene.set_terrain_editable`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath, QPolygonF
from PySide6.QtWidgets import QApplication, QGraphicsPathItem

from desktop.engine import moves
from desktop.engine.errors import MoveRefused
from desktop.engine.events import Event, TerrainPlaced
from desktop.engine.geometry import Point
from desktop.engine.model import TERRAIN_KINDS
from desktop.gui.battlefield.items import (
    ACCEPTED_COLOUR,
    REFUSED_COLOUR,
    LabelItem,
    cosmetic_pen,
)
from desktop.gui.battlefield.terrain_items import outline_path
from desktop.gui.battlefield.tools import Tool

if TYPE_CHECKING:
    from desktop.gui.battlefield.view import BattlefieldView

SAME_CORNER_PX: Final = 4.0  # a click this near the last corner adds no new one
DELETE_KEYS: Final = (Qt.Key.Key_Delete, Qt.Key.Key_Backspace)
CLOSE_KEYS: Final = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class OutlineItem(QGraphicsPathItem):
    """The outline being drawn, or the ghost of a dragged piece, with a label above it."""

    def __init__(self) -> None:
        super().__init__()
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(30)
        self.refused = False
        self.label = LabelItem()
        self.label.setZValue(60)
        self.hide_outline()

    def show_outline(self, points: list[Point], *, closed: bool, refused: bool,
                     text: str) -> None:
        self.refused = refused
        colour = REFUSED_COLOUR if refused else ACCEPTED_COLOUR
        fill = QColor(colour)
        fill.setAlpha(60 if closed else 35)
        if closed and len(points) >= 3:
            path = outline_path(tuple(points))
        else:
            path = QPainterPath()
            path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
        self.setPath(path)
        self.setPen(cosmetic_pen(colour, 2.0, Qt.PenStyle.SolidLine if closed
                                 else Qt.PenStyle.DashLine))
        self.setBrush(fill)
        top = max(points, key=lambda point: point[1])
        self.label.setPos(QPointF(*top))
        self.label.set_lines([(text, colour)], above=True)
        self.show()
        self.label.show()

    def hide_outline(self) -> None:
        self.hide()
        self.label.hide()


class TerrainTool(Tool):
    """Draw, move and delete pieces of terrain (see the module's docstring)."""

    name = "terrain"

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._kind = "difficult"
        self.corners: list[Point] = []  # the outline being drawn
        self._cursor: Point | None = None
        self._piece = ""  # the piece pressed on (and maybe dragged)
        self._press: QPointF | None = None  # view position of that press
        self._press_scene = QPointF()
        self._dragging = False
        self.last_event: Event | None = None  # the drag's move, if the engine accepts it
        self.last_refusal = ""
        self.outline = OutlineItem()
        self.scene.addItem(self.outline)
        self.scene.addItem(self.outline.label)

    @property
    def kind(self) -> str:
        """The kind of the next piece drawn: "open", "difficult" or "impassable"."""
        return self._kind

    @kind.setter
    def kind(self, kind: str) -> None:
        if kind not in TERRAIN_KINDS:
            raise ValueError(f"no terrain kind '{kind}' (there are {', '.join(TERRAIN_KINDS)})")
        self._kind = kind

    @property
    def drawing(self) -> bool:
        return bool(self.corners)

    # --- switching ------------------------------------------------------------------------

    def activate(self) -> None:
        self.scene.clearSelection()  # units selected elsewhere: Delete here is for terrain
        self.scene.set_terrain_editable(True)

    def deactivate(self) -> None:
        self.cancel()
        self.scene.set_terrain_editable(False)
        self.scene.removeItem(self.outline.label)
        self.scene.removeItem(self.outline)
        super().deactivate()

    # --- the mouse ------------------------------------------------------------------------

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        position = self.scene_pos(event)
        if not self.drawing:
            piece = self.scene.terrain_at(position)
            if piece is not None:
                self.scene.clearSelection()
                piece.setSelected(True)
                self._piece, self._press, self._press_scene = (
                    piece.terrain_id, event.position(), position)
                self._dragging = False
                return True
            self.scene.clearSelection()
        self._add_corner(event)
        return True

    def mouse_double_click(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self.drawing:
            # The double-click's first press already put the last corner down.
            self.close_outline()
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        if self._piece and self._press is not None:
            if not self._dragging:
                moved = (event.position() - self._press).manhattanLength()
                if moved < QApplication.startDragDistance():
                    return True
                self._dragging = True
            self._drag_to(self.scene_pos(event))
            return True
        if self.drawing:
            position = self.scene_pos(event)
            self._cursor = (position.x(), position.y())
            self._show_drawing()
            return True
        return False

    def mouse_release(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if self._piece and self._dragging:
            self._drag_to(self.scene_pos(event))
            self.outline.hide_outline()
            self.propose(self.last_event, self.last_refusal)
        self._piece, self._press, self._dragging = "", None, False
        return True

    # --- the keyboard ---------------------------------------------------------------------

    def key_press(self, event: QKeyEvent) -> bool:
        key = event.key()
        if self.drawing:
            if key in CLOSE_KEYS:
                self.close_outline()
            elif key == Qt.Key.Key_Escape:
                self.cancel()
            elif key == Qt.Key.Key_Backspace:
                self.corners.pop()
                self._show_drawing()
            else:
                return False
            return True
        if key in DELETE_KEYS:
            self.remove_selected()
            return True
        return False

    # --- drawing --------------------------------------------------------------------------

    def _add_corner(self, event: QMouseEvent) -> None:
        position = self.scene_pos(event)
        if self.corners:
            last = self.view.mapFromScene(QPointF(*self.corners[-1]))
            gap = event.position() - QPointF(last)
            if math.hypot(gap.x(), gap.y()) <= SAME_CORNER_PX:
                return
        self.corners.append((position.x(), position.y()))
        self._cursor = None
        self._show_drawing()

    def _proposal(self, corners: list[Point]) -> tuple[Event | None, str]:
        """The engine's answer to placing `corners` as a new piece of the tool's kind."""
        battle = self.scene.battle
        if battle is None:
            return None, "Open a battle to draw terrain on it"
        if len(corners) < 3:
            return None, (f"A piece of terrain needs at least three corners, "
                          f"not {len(corners)}")
        terrain_id, name = moves.new_terrain_id(battle, self._kind)
        try:
            return moves.check(battle, TerrainPlaced(
                terrain_id, name, tuple(corners), impassable=self._kind == "impassable",
                difficult=self._kind == "difficult")), ""
        except MoveRefused as refused:
            return None, self.scene.readable(refused, {terrain_id: name})

    def _show_drawing(self) -> None:
        if not self.corners:
            self.outline.hide_outline()
            return
        shown = self.corners + ([self._cursor] if self._cursor is not None else [])
        accepted, refusal = self._proposal(shown)
        if len(shown) < 3:
            text, refused = f"{len(self.corners)} corner(s): click to add more", False
        elif accepted is None:
            text, refused = refusal, True
        else:
            text, refused = (f"{len(self.corners)} corners: double-click or Enter to close",
                             False)
        self.outline.show_outline(shown, closed=len(shown) >= 3, refused=refused, text=text)

    def close_outline(self) -> None:
        """Propose the outline drawn so far as a new piece, or say why it cannot be one."""
        accepted, refusal = self._proposal(self.corners)
        if accepted is None:
            # Keep the outline: Backspace can take back the corner that spoiled it.
            self._cursor = None
            self._show_drawing()
            self.scene.message.emit(refusal)
            return
        self.cancel()
        self.propose(accepted, "")

    def cancel(self) -> None:
        """Drop the outline being drawn and any drag preview."""
        self.corners, self._cursor = [], None
        self._piece, self._press, self._dragging = "", None, False
        self.outline.hide_outline()

    # --- moving, removing, renaming -------------------------------------------------------

    def _drag_to(self, position: QPointF) -> None:
        battle = self.scene.battle
        piece = next((p for p in battle.terrain if p.id == self._piece), None) \
            if battle is not None else None
        if battle is None or piece is None:
            return
        dx, dy = position.x() - self._press_scene.x(), position.y() - self._press_scene.y()
        try:
            self.last_event = moves.move_terrain(battle, self._piece, dx, dy)
            self.last_refusal = ""
            text = f"{math.hypot(dx, dy):.1f}{self.scene.unit_symbol()}"
        except MoveRefused as refused:
            self.last_event, self.last_refusal = None, self.scene.readable(refused)
            text = self.last_refusal
        self.outline.show_outline([(x + dx, y + dy) for x, y in piece.points], closed=True,
                                  refused=self.last_event is None, text=text)

    def remove_selected(self) -> None:
        battle = self.scene.battle
        selected = self.scene.selected_terrain()
        if battle is None or not selected:
            self.scene.message.emit("Select a piece of terrain to remove it")
            return
        try:
            accepted: list[Event] = [moves.remove_terrain(battle, tid) for tid in selected]
        except MoveRefused as refused:
            self.scene.message.emit(self.scene.readable(refused))
            return
        self.scene.propose_moves(accepted)  # refused, with the reason, on a past state

    def rename_terrain(self, terrain_id: str, name: str) -> None:
        """Propose a new name for a piece (for an editor the window puts up)."""
        battle = self.scene.battle
        if battle is None:
            return
        try:
            accepted: Event | None = moves.rename_terrain(battle, terrain_id, name)
            refusal = ""
        except MoveRefused as refused:
            accepted, refusal = None, self.scene.readable(refused)
        self.propose(accepted, refusal)
