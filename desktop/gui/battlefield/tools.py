"""Battlefield tools: one class per interaction (as orange-canvas-core's interactions.py).

The view hands each mouse and key event to its current tool; a tool returns True when it
used the event. Tools never move items: they ask the engine (desktop.engine.moves) whether a
pose is allowed, show the answer on the scene's ghost, and on release propose the accepted
event with `scene.movesProposed` or say why not with `scene.message`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar, Final

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainterPath
from PySide6.QtWidgets import QApplication, QGraphicsEllipseItem, QGraphicsRectItem

from desktop.engine import moves, reach, spatial
from desktop.engine.errors import MoveRefused
from desktop.engine.events import Event, UnitCharged, UnitsEngaged, wheeled_pose
from desktop.engine.geometry import Footprint, Point, heading_of
from desktop.gui.battlefield.items import SELECTED_COLOUR, RulerItem, UnitItem, cosmetic_pen

if TYPE_CHECKING:
    from desktop.engine.model import Battle
    from desktop.gui.battlefield.scene import BattlefieldScene
    from desktop.gui.battlefield.view import BattlefieldView

SNAP_DEGREES: Final = 15.0  # Shift while turning
NUDGE: Final = 0.1  # an arrow key moves this far (table units); with Shift, NUDGE_BIG
NUDGE_BIG: Final = 1.0
SNAP_PX: Final = 10.0  # the ruler snaps to a corner, edge middle or centre this near (pixels)
HANDLE_PX: Final = 12.0  # how near (pixels) a press must be to a turn handle or wheel corner
ARROWS: Final = {Qt.Key.Key_Left: (-1.0, 0.0), Qt.Key.Key_Right: (1.0, 0.0),
                 Qt.Key.Key_Up: (0.0, 1.0), Qt.Key.Key_Down: (0.0, -1.0)}


def _point(point: QPointF) -> Point:
    return (point.x(), point.y())


def verdict_text(verdict: reach.Verdict) -> str:
    """What the ghost says of a move's length: distance / allowance, and the ruleset's
    words on a second line when the move goes past it."""
    return verdict.label if verdict.within else f"{verdict.label}\n{verdict.words}"


def ghost_colour(accepted: Event | None, verdict: reach.Verdict | None) -> tuple[bool, bool]:
    """(red, amber): the ghost red when the engine refuses the move or it is past the
    ruleset's allowance, amber for a march."""
    past = verdict is not None and not verdict.within
    return accepted is None or past, verdict is not None and verdict.kind == reach.MARCH


class Tool:
    """Receives the view's mouse and key events; returns True for an event it used."""

    name: ClassVar[str] = ""
    read_only_ok: ClassVar[bool] = False  # whether it still works on a replayed (past) battle

    def __init__(self, view: BattlefieldView) -> None:
        self.view = view

    @property
    def scene(self) -> BattlefieldScene:
        return self.view.battlefield

    def scene_pos(self, event: QMouseEvent) -> QPointF:
        return self.view.mapToScene(event.position().toPoint())

    def unit_under(self, event: QMouseEvent) -> UnitItem | None:
        """The unit whose footprint is under the mouse, else the one whose label is."""
        return self.scene.unit_at(self.scene_pos(event), self.view.viewportTransform())

    def activate(self) -> None:
        """Called when the view switches to this tool."""

    def deactivate(self) -> None:
        """Called when the view switches away: drop any preview."""
        self.scene.ghost.hide_ghost()

    def mouse_press(self, event: QMouseEvent) -> bool:
        return False

    def mouse_move(self, event: QMouseEvent) -> bool:
        return False

    def mouse_release(self, event: QMouseEvent) -> bool:
        return False

    def mouse_double_click(self, event: QMouseEvent) -> bool:
        return False

    def key_press(self, event: QKeyEvent) -> bool:
        return False

    def propose(self, event: Event | None, refusal: str) -> None:
        """Hand an accepted move to the owner of the battle, or say why there is none."""
        if event is not None:
            self.scene.propose_moves([event])
        elif refusal:
            self.scene.message.emit(refusal)


class SelectMoveTool(Tool):
    """Click selects (Ctrl adds), a drag on empty ground selects by rubber band, a drag on a
    unit moves a ghost of it, arrows nudge the selected unit."""

    name = "select"

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._press: QPointF | None = None  # view position of the press
        self._unit: str = ""  # the unit being dragged
        self._grab = QPointF()  # the unit's centre minus the press, in scene units
        self._dragging = False
        self._band: QGraphicsRectItem | None = None
        self.last_event: Event | None = None  # the pose under the mouse, if accepted
        self.last_refusal = ""
        self.verdict: reach.Verdict | None = None  # what the ruleset says of its length

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._press = event.position()
        position = self.scene_pos(event)
        item = self.unit_under(event)
        add = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if item is None:
            if not add:
                self.scene.clearSelection()
            self._unit = ""
            return True
        if add:
            item.setSelected(not item.isSelected())
        elif not item.isSelected():
            self.scene.clearSelection()
            item.setSelected(True)
        self._unit = item.unit_id
        self._grab = item.pos() - position
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        if self._press is None:
            return False
        if not self._dragging:
            moved = (event.position() - self._press).manhattanLength()
            if moved < QApplication.startDragDistance():
                return True
            self._dragging = True
        if self._unit:
            self.drag_to(self.scene_pos(event) + self._grab)
        else:
            self._rubber_band(self.view.mapToScene(self._press.toPoint()), self.scene_pos(event))
        return True

    def drag_to(self, centre: QPointF) -> None:
        """One drag step: ask the engine about the pose and show it on the ghost."""
        battle = self.scene.battle
        if battle is None or self.scene.read_only:
            return
        start = battle.footprint(self._unit)
        target = _point(centre)
        ghost = start.moved(target[0] - start.center[0], target[1] - start.center[1])
        self.verdict = None
        try:
            self.last_event = moves.move_to(battle, self._unit, target)
            self.last_refusal = ""
            self.verdict = reach.judge(battle, self.last_event)
            text = verdict_text(self.verdict)
        except MoveRefused as refused:
            self.last_event = None
            self.last_refusal = self.scene.readable(refused)
            text = self.last_refusal
        red, amber = ghost_colour(self.last_event, self.verdict)
        self.scene.ghost.show_pose(ghost, text=text, trail=(start.center, target),
                                   refused=red, warned=amber)

    def mouse_release(self, event: QMouseEvent) -> bool:
        if self._press is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        if self._dragging and self._unit and self.scene.read_only:
            self.scene.message.emit(self.scene.read_only_message)  # else it would seem stuck
        elif self._dragging and self._unit:
            self.drag_to(self.scene_pos(event) + self._grab)
            self.scene.ghost.hide_ghost()
            self.propose(self.last_event, self.last_refusal)
        elif self._dragging and self._band is not None:
            path = QPainterPath()
            path.addRect(self._band.rect())
            add = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
            self.scene.setSelectionArea(
                path, Qt.ItemSelectionOperation.AddToSelection if add
                else Qt.ItemSelectionOperation.ReplaceSelection,
                Qt.ItemSelectionMode.IntersectsItemShape)
        self._end()
        return True

    def _rubber_band(self, start: QPointF, end: QPointF) -> None:
        if self._band is None:
            self._band = QGraphicsRectItem()
            self._band.setPen(cosmetic_pen(SELECTED_COLOUR, 1.0, Qt.PenStyle.DashLine))
            fill = QColor(SELECTED_COLOUR)
            fill.setAlpha(40)
            self._band.setBrush(fill)
            self._band.setZValue(100)
            self.scene.addItem(self._band)
        self._band.setRect(QRectF(start, end).normalized())

    def _end(self) -> None:
        if self._band is not None:
            self.scene.removeItem(self._band)
            self._band = None
        self._press, self._unit, self._dragging = None, "", False

    def deactivate(self) -> None:
        self._end()
        super().deactivate()

    def key_press(self, event: QKeyEvent) -> bool:
        direction = ARROWS.get(Qt.Key(event.key()))
        selected = self.scene.selected_units()
        battle = self.scene.battle
        if direction is None or len(selected) != 1 or battle is None:
            return False
        step = NUDGE_BIG if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else NUDGE
        x, y = battle.state(selected[0]).center
        try:
            accepted: Event | None = moves.move_to(
                battle, selected[0], (x + direction[0] * step, y + direction[1] * step))
            refusal = ""
        except MoveRefused as refused:
            accepted, refusal = None, self.scene.readable(refused)
        self.propose(accepted, refusal)
        return True


class _PoseTool(Tool):
    """Shared by the turn and wheel tools: a press picks a unit, the drag previews a pose."""

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._unit = ""
        self.last_event: Event | None = None
        self.last_refusal = ""
        self.shown_text = ""
        self.verdict: reach.Verdict | None = None  # a wheel's length, as the ruleset sees it

    def _selected_battle(self) -> tuple[Battle, str] | None:
        battle = self.scene.battle
        selected = self.scene.selected_units()
        if battle is None or len(selected) != 1:
            return None
        return battle, selected[0]

    def _near(self, scene_point: QPointF, target: Point) -> bool:
        gap = self.view.mapFromScene(QPointF(*target)) - self.view.mapFromScene(scene_point)
        return math.hypot(gap.x(), gap.y()) <= HANDLE_PX

    def _pick(self, event: QMouseEvent) -> UnitItem | None:
        """The unit under the press, selected; or None."""
        item = self.unit_under(event)
        if item is not None and not item.isSelected():
            self.scene.clearSelection()
            item.setSelected(True)
        return item

    def mouse_release(self, event: QMouseEvent) -> bool:
        if not self._unit or event.button() != Qt.MouseButton.LeftButton:
            return False
        self.mouse_move(event)
        self.scene.ghost.hide_ghost()
        self.propose(self.last_event, self.last_refusal)
        self._unit = ""
        self._after()
        return True

    def _after(self) -> None:
        """After a gesture: put any handles back."""

    def _show(self, battle: Battle, footprint: Footprint, text: str,
              arc: QPainterPath | None = None) -> None:
        self.shown_text = text if self.last_event is not None else self.last_refusal
        red, amber = ghost_colour(self.last_event, self.verdict)
        self.scene.ghost.show_pose(footprint, text=self.shown_text, arc=arc, refused=red,
                                   warned=amber)


class TurnTool(_PoseTool):
    """Drag the handle in front of the selected unit (or the unit itself) to turn it about
    its centre; Shift snaps the facing to 15 degrees. Proposes a UnitMoved in place."""

    name = "turn"

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._start_facing = 0.0
        self._start_bearing = 0.0
        self.handle = QGraphicsEllipseItem()
        self.handle.setPen(cosmetic_pen(SELECTED_COLOUR, 2.0))
        self.handle.setBrush(QColor(255, 228, 92, 120))
        self.handle.setZValue(90)
        self.handle.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.handle.hide()
        self.scene.addItem(self.handle)
        self.scene.selectionChanged.connect(self._after)

    def handle_point(self, battle: Battle, unit_id: str) -> Point:
        """Where the handle sits: ahead of the middle of the front edge, half a frontage."""
        footprint = battle.footprint(unit_id)
        reach = footprint.depth / 2 + max(footprint.frontage / 2, 1.0)
        angle = math.radians(footprint.facing)
        return (footprint.center[0] + math.cos(angle) * reach,
                footprint.center[1] + math.sin(angle) * reach)

    def activate(self) -> None:
        self._after()

    def deactivate(self) -> None:
        self.scene.selectionChanged.disconnect(self._after)
        self.scene.removeItem(self.handle)
        super().deactivate()

    def _after(self) -> None:
        if not shiboken6.isValid(self.scene):
            return  # the scene is being destroyed, clearing its selection
        found = self._selected_battle()
        if found is None or self._unit:
            self.handle.hide()
            return
        battle, uid = found
        x, y = self.handle_point(battle, uid)
        radius = max(battle.footprint(uid).frontage / 12, 0.3)
        self.handle.setRect(QRectF(x - radius, y - radius, 2 * radius, 2 * radius))
        self.handle.show()

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        position = self.scene_pos(event)
        found = self._selected_battle()
        if found is not None and self._near(position, self.handle_point(*found)):
            uid = found[1]
        else:
            item = self._pick(event)
            if item is None:
                self.scene.clearSelection()
                return True
            uid = item.unit_id
        battle = self.scene.battle
        assert battle is not None
        footprint = battle.footprint(uid)
        self._unit = uid
        self._start_facing = footprint.facing
        self._start_bearing = heading_of((position.x() - footprint.center[0],
                                          position.y() - footprint.center[1]))
        self.handle.hide()
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        battle = self.scene.battle
        if not self._unit or battle is None:
            return False
        footprint = battle.footprint(self._unit)
        position = self.scene_pos(event)
        offset = (position.x() - footprint.center[0], position.y() - footprint.center[1])
        if math.hypot(*offset) < 1e-9:
            return True
        facing = (self._start_facing + heading_of(offset) - self._start_bearing) % 360.0
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            facing = (round(facing / SNAP_DEGREES) * SNAP_DEGREES) % 360.0
        try:
            self.last_event = moves.move_to(battle, self._unit, footprint.center, facing=facing)
            self.last_refusal = ""
        except MoveRefused as refused:
            self.last_event, self.last_refusal = None, self.scene.readable(refused)
        turn = (facing - footprint.facing + 180.0) % 360.0 - 180.0
        self._show(battle, footprint.turned(facing), f"facing {facing:.0f}° (turn {turn:+.0f}°)")
        return True


class WheelTool(_PoseTool):
    """Drag a front corner of a unit to wheel it forward about the other front corner; shows
    the distance the outer corner travels (angle in radians x frontage). Proposes UnitWheeled."""

    name = "wheel"

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._pivot = "right"
        self._grabbed: Point = (0.0, 0.0)
        self.angle = 0.0  # clockwise degrees, as the engine's wheel
        self.shown_distance = 0.0

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        position = self.scene_pos(event)
        battle = self.scene.battle
        if battle is None:
            return True
        # The nearest front corner of any unit under or near the press.
        near = self.view.mapToScene(event.position().toPoint() + QPointF(HANDLE_PX, 0).toPoint())
        reach = math.hypot(near.x() - position.x(), near.y() - position.y())
        rect = QRectF(position.x() - reach, position.y() - reach, 2 * reach, 2 * reach)
        for item in self.scene.items(rect):
            if not isinstance(item, UnitItem):
                continue
            left, right = battle.footprint(item.unit_id).corners[:2]
            for corner, pivot in ((left, "right"), (right, "left")):
                if self._near(position, corner):
                    self.scene.clearSelection()
                    item.setSelected(True)
                    self._unit, self._pivot, self._grabbed = item.unit_id, pivot, corner
                    self.angle, self.shown_distance = 0.0, 0.0
                    return True
        if self._pick(event) is None:
            self.scene.clearSelection()
        self.scene.message.emit("To wheel, drag a front corner of a unit forward")
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        battle = self.scene.battle
        if not self._unit or battle is None:
            return False
        footprint = battle.footprint(self._unit)
        pivot = footprint.corners[1] if self._pivot == "right" else footprint.corners[0]
        position = self.scene_pos(event)
        start = heading_of((self._grabbed[0] - pivot[0], self._grabbed[1] - pivot[1]))
        now = heading_of((position.x() - pivot[0], position.y() - pivot[1]))
        clockwise = -((now - start + 180.0) % 360.0 - 180.0)
        # Only forward: clockwise about the right corner, counter-clockwise about the left.
        angle = max(clockwise, 0.0) if self._pivot == "right" else min(clockwise, 0.0)
        self.angle = angle
        self.shown_distance = math.radians(abs(angle)) * footprint.frontage
        if angle == 0.0:
            self.last_event, self.last_refusal = None, ""
            self.scene.ghost.hide_ghost()
            return True
        self.verdict = None
        try:
            self.last_event = moves.wheel(battle, self._unit, angle)
            self.last_refusal = ""
            self.verdict = reach.judge(battle, self.last_event)
        except MoveRefused as refused:
            self.last_event, self.last_refusal = None, self.scene.readable(refused)
        centre, facing = wheeled_pose(battle, self._unit, self._pivot, angle)
        pose = Footprint(centre, facing, footprint.frontage, footprint.depth)
        arc = QPainterPath()
        radius = footprint.frontage
        box = QRectF(pivot[0] - radius, pivot[1] - radius, 2 * radius, 2 * radius)
        # arcMoveTo/arcTo angles run counter-clockwise in scene (y-up) coordinates.
        arc.arcMoveTo(box, -start)
        arc.arcTo(box, -start, angle)
        text = f"wheel {abs(angle):.0f}°: {self.shown_distance:.2f}{self.scene.unit_symbol()}"
        if self.verdict is not None:  # against what the ruleset allows: / 5" Move
            allowed = self.verdict.label.split(" / ", 1)[-1]
            text = f"{text} / {allowed}"
            if not self.verdict.within:
                text = f"{text}\n{self.verdict.words}"
        self._show(battle, pose, text, arc)
        return True


class ChargeTool(Tool):
    """Drag a unit onto an enemy: the ghost stands where the engine puts the charger (its
    front flush on the enemy's nearest edge), red with the engine's reason when the charge is
    refused. Releasing over the enemy proposes [UnitCharged, UnitsEngaged]."""

    name = "charge"

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._unit = ""
        self._grab = QPointF()
        self.target = ""  # the unit under the mouse, if any
        self.last_events: tuple[UnitCharged, UnitsEngaged] | None = None
        self.last_refusal = ""
        self.shown_text = ""
        self.verdict: reach.Verdict | None = None  # whether the enemy is within reach

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        position = self.scene_pos(event)
        item = self.unit_under(event)
        self.scene.clearSelection()
        if item is None:
            return True
        item.setSelected(True)
        self._unit, self._grab, self.target = item.unit_id, item.pos() - position, ""
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        battle = self.scene.battle
        if not self._unit or battle is None:
            return False
        position = self.scene_pos(event)
        under = self.unit_under(event)
        target = under.unit_id if under is not None and under.unit_id != self._unit else ""
        if not target:
            self.target, self.last_events, self.last_refusal = "", None, ""
            footprint = battle.footprint(self._unit)
            centre = position + self._grab
            self.shown_text = "drop on an enemy to charge"
            self.scene.ghost.show_pose(
                footprint.moved(centre.x() - footprint.center[0],
                                centre.y() - footprint.center[1]),
                refused=True, text=self.shown_text,
                trail=(footprint.center, (centre.x(), centre.y())))
            return True
        if target != self.target:  # the engine is asked once per enemy, not per pixel
            self.target = target
            self._ask(battle, target)
        return True

    def _ask(self, battle: Battle, target: str) -> None:
        start = battle.footprint(self._unit)
        self.verdict = None
        try:
            self.last_events = moves.charge(battle, self._unit, target)
            self.last_refusal = ""
            move = self.last_events[0]
            pose = Footprint(move.path[-1], move.facing, start.frontage, start.depth)
            self.verdict = reach.judge(battle, move)
            self.shown_text = verdict_text(self.verdict)
        except MoveRefused as refused:
            self.last_events, self.last_refusal = None, self.scene.readable(refused)
            self.shown_text = self.last_refusal
            pose = moves.contact_pose(battle, self._unit, target)
        red, amber = ghost_colour(self.last_events[0] if self.last_events else None,
                                  self.verdict)
        self.scene.ghost.show_pose(pose, text=self.shown_text, trail=(start.center, pose.center),
                                   refused=red, warned=amber)

    def mouse_release(self, event: QMouseEvent) -> bool:
        if not self._unit or event.button() != Qt.MouseButton.LeftButton:
            return False
        self.mouse_move(event)
        self.scene.ghost.hide_ghost()
        if self.last_events is not None:
            self.scene.propose_moves(list(self.last_events))
        elif self.last_refusal:
            self.scene.message.emit(self.last_refusal)
        self._unit, self.target = "", ""
        return True

    def deactivate(self) -> None:
        self._unit, self.target = "", ""
        super().deactivate()


class RulerTool(Tool):
    """Press, drag and release to measure in the ruleset's unit. Ends snap to unit corners,
    edge middles and centres near the mouse; with both ends on two different units the ruler
    shows the engine's edge-to-edge distance. The ruler stays until Esc or the next
    measurement, and it never moves anything."""

    name = "ruler"
    read_only_ok = True

    def __init__(self, view: BattlefieldView) -> None:
        super().__init__(view)
        self._start: tuple[Point, str] | None = None
        self.distance = 0.0  # the last measured distance, as shown
        self.edge_to_edge = False
        self.item = RulerItem()
        self.scene.addItem(self.item)
        self.scene.addItem(self.item.label)
        self.item.label.hide()

    def snap(self, position: QPointF) -> tuple[Point, str]:
        """The point to measure from: the nearest snap point of a unit within SNAP_PX pixels
        (with that unit's id), else the mouse position itself (with "")."""
        battle = self.scene.battle
        point = (position.x(), position.y())
        if battle is None:
            return point, ""
        reach = SNAP_PX / max(self.view.scale_factor, 1e-9)
        box = QRectF(position.x() - reach, position.y() - reach, 2 * reach, 2 * reach)
        best: tuple[float, Point, str] = (reach, point, "")
        for item in self.scene.items(box):
            if not isinstance(item, UnitItem) or item.unit_id not in battle.states:
                continue
            footprint = battle.footprint(item.unit_id)
            for candidate in (*footprint.corners,
                              *(edge.middle for edge in spatial.edges(footprint)),
                              footprint.center):
                gap = math.dist(candidate, point)
                if gap <= best[0]:
                    best = (gap, candidate, item.unit_id)
        return best[1], best[2]

    def mouse_press(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        self._start = self.snap(self.scene_pos(event))
        self.measure(self._start, self._start)
        return True

    def mouse_move(self, event: QMouseEvent) -> bool:
        if self._start is None:
            return False
        self.measure(self._start, self.snap(self.scene_pos(event)))
        return True

    def mouse_release(self, event: QMouseEvent) -> bool:
        if self._start is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        self.measure(self._start, self.snap(self.scene_pos(event)))
        self._start = None
        return True

    def measure(self, start: tuple[Point, str], end: tuple[Point, str]) -> None:
        """Draw the ruler from `start` to `end` (each a point and the unit it snapped to)."""
        (a, first), (b, second) = start, end
        battle = self.scene.battle
        snapped = [point for point, unit in (start, end) if unit]
        self.edge_to_edge = bool(battle is not None and first and second and first != second)
        if self.edge_to_edge and battle is not None:
            self.distance = spatial.edge_distance(battle, first, second)
            near_a, near_b = spatial.closest_points(battle, first, second)
            self.item.show_measure(near_a, near_b, f"{self.format(self.distance)} edge to edge",
                                   snapped=snapped, guides=[(a, near_a), (b, near_b)])
            return
        self.distance = math.dist(a, b)
        self.item.show_measure(a, b, self.format(self.distance), snapped=snapped)

    def format(self, distance: float) -> str:
        # Inches to the hundredth (a quarter of a millimetre); centimetres to the millimetre.
        if self.scene.distance_unit == "cm":
            return f"{distance:.1f} cm"
        return f'{distance:.2f}"'

    def clear(self) -> None:
        self._start = None
        self.item.clear()

    def key_press(self, event: QKeyEvent) -> bool:
        if event.key() == Qt.Key.Key_Escape and self.item.isVisible():
            self.clear()
            return True
        return False

    def deactivate(self) -> None:
        self.scene.removeItem(self.item.label)
        self.scene.removeItem(self.item)
        super().deactivate()


TOOLS: Final[dict[str, type[Tool]]] = {tool.name: tool for tool in
                                       (SelectMoveTool, TurnTool, WheelTool,
                                                     ChargeTool, RulerTool)}
from desktop.gui.battlefield.terrain_tool import TerrainTool  # noqa: E402  (built on Tool)

TOOLS["terrain"] = TerrainTool
