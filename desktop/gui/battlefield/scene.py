"""The battlefield scene: follows a Battle one way (state -> items), like orange-canvas-core.

`show_battle(battle)` adds, updates and removes items so that they show that state; nothing
in the scene changes a battle. Tools propose moves (engine events the engine accepted) with
`movesProposed`; whoever owns the battle applies them and calls `show_battle` again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final

from PySide6.QtCore import QPointF, QRectF, Signal
from PySide6.QtGui import QBrush, QColor, QPainterPath, Qt, QTransform
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QWidget,
)

from desktop.engine import moves, reach
from desktop.engine.errors import MoveRefused
from desktop.engine.events import Event, Movement, UnitCharged, UnitMoved, UnitWheeled
from desktop.engine.geometry import Footprint, Table
from desktop.engine.model import Battle, Terrain
from desktop.engine.rings import rings
from desktop.engine.rulesets import get_ruleset
from desktop.gui.battlefield.animation import TABLE_CROSSING_S, Animator
from desktop.gui.battlefield.items import (
    BASE_DETAIL_PX,
    GhostItem,
    LabelItem,
    RingsItem,
    UnitItem,
    cosmetic_pen,
    player_colours,
)
from desktop.gui.battlefield.labelling import LabelRoom, Placement, Rect
from desktop.gui.battlefield.terrain_items import TerrainItem
from desktop.gui.features import engine_events

DEFAULT_TABLE: Final = Table(72.0, 48.0)
PREVIEW_OPACITY: Final = 0.55
TABLE_COLOUR: Final = QColor("#6f8f4e")
TABLE_EDGE_COLOUR: Final = QColor("#2c3b1e")
MINOR_GRID_COLOUR: Final = QColor(255, 255, 255, 34)
MAJOR_GRID_COLOUR: Final = QColor(255, 255, 255, 80)
# Grid steps (minor, major) per distance unit: 6" and 1 ft; 10 cm and 50 cm.
GRID_STEPS: Final = {"in": (6.0, 12.0), "cm": (10.0, 50.0)}
# On a table of more than LABEL_AROUND_UP_TO units, labels show only when a unit's front is at
# least this many pixels wide, so a zoomed-out table of hundreds of units is not a carpet of
# text. 30 names a five-wide regiment of
# 20 mm bases (35 px) on a 72" table fitted in a 1280 x 800 window.
LABEL_MIN_PX: Final = 30.0
# A broken or fleeing unit keeps its label (and its badge) down to this size: a rout is what
# the player must see first.
ROUTED_LABEL_MIN_PX: Final = 12.0
MINOR_GRID_MIN_PX: Final = 16.0
# On a table of more units than this, labels stand only on their units (no search around).
LABEL_AROUND_UP_TO: Final = 150
# How the engine quotes a unit or terrain id in a refusal: 'handgunners'.
QUOTED_ID: Final = re.compile(r"'([^'\s]+)'")


def grid_path(rect: QRectF, step: float, skip: float = 0.0) -> QPainterPath:
    """Every interior grid line of `rect` in one path (one cheap item); lines on multiples
    of `skip` are left out (the major grid draws them)."""
    path = QPainterPath()

    def kept(value: float) -> bool:
        return not skip or abs(value / skip - round(value / skip)) > 1e-6

    x = rect.left() + step
    while x < rect.right() - step / 2:
        if kept(x - rect.left()):
            path.moveTo(QPointF(x, rect.top()))
            path.lineTo(QPointF(x, rect.bottom()))
        x += step
    y = rect.top() + step
    while y < rect.bottom() - step / 2:
        if kept(y - rect.top()):
            path.moveTo(QPointF(rect.left(), y))
            path.lineTo(QPointF(rect.right(), y))
        y += step
    return path


def _label_box(label: LabelItem, centre: QPointF, label_pixels: float) -> Rect:
    """The scene rectangle `label`'s text covers when it stands at `centre` (a label is
    drawn in pixels, `label_pixels` of them a scene unit; scene y grows up)."""
    box = label.text_rect()
    return (centre.x() + box.left() / label_pixels, centre.y() - box.bottom() / label_pixels,
            centre.x() + box.right() / label_pixels, centre.y() - box.top() / label_pixels)


def _bounds(footprint: Footprint) -> Rect:
    """A footprint's bounding box in scene units (the view neither rotates nor shears)."""
    xs = [x for x, _ in footprint.corners]
    ys = [y for _, y in footprint.corners]
    return (min(xs), min(ys), max(xs), max(ys))


def _back_of(zone: QRectF, table: QRectF) -> QPointF:
    """A point in the back half of a deployment zone: from its middle, a quarter of its
    depth towards the table edge it stands on (its depth runs across its shorter side)."""
    centre = zone.center()
    if zone.height() <= zone.width():
        away = 1.0 if centre.y() > table.center().y() else -1.0
        return QPointF(centre.x(), centre.y() + away * zone.height() / 4)
    away = 1.0 if centre.x() > table.center().x() else -1.0
    return QPointF(centre.x() + away * zone.width() / 4, centre.y())


class BattlefieldScene(QGraphicsScene):
    """The table, deployment zones, terrain, units and range rings of one battle state."""

    movesProposed = Signal(object)  # list[Event]: moves a tool proposes, accepted by the engine
    message = Signal(str)  # why a proposed move was refused, for the status bar
    movesPlayed = Signal(QRectF)  # where the units moved by an animation end (scene units)
    shown = Signal()  # another state is on the table: now, a step replayed, a preview

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._battle: Battle | None = None
        self._table: Table | None = None
        self._units: dict[str, UnitItem] = {}
        self._terrain: dict[str, tuple[Terrain, TerrainItem, LabelItem]] = {}
        self._terrain_editable = False  # pieces selectable (the terrain tool is active)
        self._fixed: list[QGraphicsItem] = []  # table, grid, zones: rebuilt when the table does
        self._zones: object = None
        self._pixels_per_unit = 0.0
        # Where each unit's label last stood, and what that depended on (_label_key).
        self._label_places: dict[str, tuple[tuple[object, ...], Placement, bool]] = {}
        self.label_scale = 1.0  # labels drawn this many times their size (set_label_scale)
        self.rings_item = RingsItem()
        self.addItem(self.rings_item)
        self.rings_item.hide()
        self.ghost = GhostItem()
        self.addItem(self.ghost)
        self.addItem(self.ghost.label)
        self.ghost.label.hide()
        self.animator = Animator(self)
        self.banner = ""  # "Replay — step 12 of 40" while a past state is shown
        self.shown_as = "on the table"  # how the state shown stands: now, a step, a preview
        self.locked = ""  # why no battle may change: the database may only be read
        self.selectionChanged.connect(self._selection_changed)
        self.show_battle(None)

    # --- following the battle -------------------------------------------------------------

    @property
    def battle(self) -> Battle | None:
        return self._battle

    @property
    def table(self) -> Table:
        return self._battle.table if self._battle is not None else DEFAULT_TABLE

    @property
    def distance_unit(self) -> str:
        """'in' or 'cm': the ruleset's unit, inches when no battle is shown."""
        if self._battle is None:
            return "in"
        return get_ruleset(self._battle.ruleset).distance_unit

    def unit_symbol(self) -> str:
        return '"' if self.distance_unit == "in" else " cm"

    @property
    def read_only(self) -> bool:
        """True while a replayed (past) state is shown, or on a database that may only be
        read (`locked`): tools then propose nothing."""
        return bool(self.banner or self.locked)

    @property
    def read_only_message(self) -> str:
        """Why nothing on the table may move now, for the status bar."""
        return self.locked or "This is a replay: go back to now to move units"

    def show_battle(self, battle: Battle | None, animate: Sequence[Event] = ()) -> None:
        """Make the items show `battle` (None: an empty default table); then play `animate`,
        the events that turned the battle shown until now into this one."""
        before = self._battle
        self.animator.skip()
        if self.banner:
            self.banner = ""
            self.update()
        self.shown_as = "on the table"
        for item in self._units.values():
            item.setOpacity(1.0)  # a preview's ghosts become units again
        self._show(battle)
        if animate:
            self.play(animate, before)

    def show_preview(self, start: Battle, events: Sequence[Event]) -> None:
        """What a resolution would do, read-only: the units it moves or removes drawn as
        ghosts where they would end; `show_battle` ends the preview."""
        self.animator.skip()
        end = engine_events.fold(start, events)
        self.banner = "Preview — Finish applies these moves"
        self.shown_as = "in the preview"
        self._show(end)
        touched = {uid for uid in end.states if end.states[uid] != start.states.get(uid)}
        for uid, item in self._units.items():
            item.setOpacity(PREVIEW_OPACITY if uid in touched else 1.0)
        self.update()

    def show_replay(self, battle: Battle, step: int, steps: int) -> None:
        """Show a past state read-only, with a banner; `show_battle` ends the replay."""
        self.animator.skip()
        self.banner = f"Replay — step {step} of {steps}"
        self.shown_as = f"at step {step} of {steps}"
        self._show(battle)
        self.update()

    def _show(self, battle: Battle | None) -> None:
        self._battle = battle
        zones = getattr(battle, "zones", ()) if battle is not None else ()
        if self.table != self._table or zones != self._zones:
            self._build_table(zones)
        self._sync_terrain(battle.terrain if battle is not None else ())
        self._sync_units(battle)
        self._update_rings()
        self._apply_detail()  # after the rings: their labels keep clear of the units'
        self.shown.emit()

    def _build_table(self, zones: object) -> None:
        for item in self._fixed:
            self.removeItem(item)
        self._fixed = []
        self._table, self._zones = self.table, zones
        rect = QRectF(0.0, 0.0, self.table.width, self.table.depth)
        margin = max(rect.width(), rect.height())
        # Room around the table so that zooming anchors under the mouse and panning works.
        self.setSceneRect(rect.adjusted(-margin, -margin, margin, margin))
        table = QGraphicsRectItem(rect)
        table.setBrush(QBrush(TABLE_COLOUR))
        table.setPen(cosmetic_pen(TABLE_EDGE_COLOUR, 3.0))
        table.setZValue(-10)
        minor, major = GRID_STEPS.get(self.distance_unit, (6.0, 12.0))
        minor_grid = QGraphicsPathItem(grid_path(rect, minor, skip=major))
        minor_grid.setPen(cosmetic_pen(MINOR_GRID_COLOUR, 1.0))
        major_grid = QGraphicsPathItem(grid_path(rect, major))
        major_grid.setPen(cosmetic_pen(MAJOR_GRID_COLOUR, 1.0))
        self._fixed = [table, minor_grid, major_grid]
        colours = player_colours(self._battle) if self._battle is not None else {}
        for zone in zones if isinstance(zones, tuple | list) else ():
            x0, y0, x1, y1 = zone.rect
            colour = QColor(colours.get(zone.player, QColor("#cccccc")))
            colour.setAlpha(45)
            item = QGraphicsRectItem(QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized())
            item.setBrush(colour)
            colour.setAlpha(160)
            item.setPen(cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine))
            self._fixed.append(item)
            # Whose zone: written in its back half (units line up at its front), under them.
            label = LabelItem()
            label.setPos(_back_of(item.rect(), rect))
            label.set_lines([(f"{zone.player} deployment zone",
                              QColor(colours.get(zone.player, QColor("#cccccc"))).lighter(160))])
            self._fixed.append(label)
        for z, item in enumerate(self._fixed):
            item.setZValue(-10 + z * 0.01)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.addItem(item)

    def _sync_terrain(self, terrain: tuple[Terrain, ...]) -> None:
        wanted = {piece.id: piece for piece in terrain}
        reselect = set()  # a piece moved or renamed stays selected
        for terrain_id in list(self._terrain):
            piece, item, label = self._terrain[terrain_id]
            if wanted.get(terrain_id) != piece:
                if item.isSelected():
                    reselect.add(terrain_id)
                self.removeItem(item)
                self.removeItem(label)
                del self._terrain[terrain_id]
        for index, (terrain_id, piece) in enumerate(wanted.items()):
            if terrain_id not in self._terrain:
                item = TerrainItem(piece)
                item.set_editable(self._terrain_editable)
                self.addItem(item)
                self.addItem(item.label)
                item.setSelected(terrain_id in reselect and self._terrain_editable)
                self._terrain[terrain_id] = (piece, item, item.label)
            self._terrain[terrain_id][1].setZValue(-5 + index * 1e-4)  # the battle's order

    def _sync_units(self, battle: Battle | None) -> None:
        shown = ({uid for uid in battle.states if battle.states[uid].status.on_table}
                 if battle is not None else set())
        for uid in list(self._units):
            if uid not in shown:
                gone = self._units.pop(uid)
                self.removeItem(gone.label)
                self.removeItem(gone)
        if battle is None:
            return
        colours = player_colours(battle)
        for uid in battle.states:  # roster order: a stable stacking order
            if uid not in shown:
                continue
            item = self._units.get(uid)
            if item is None:
                item = UnitItem(uid)
                self._units[uid] = item
                self.addItem(item)
                self.addItem(item.label)
            item.update_from(battle, colours[battle.player_of(uid)])

    # --- animations ------------------------------------------------------------------------

    def play(self, events: Sequence[Event], before: Battle | None = None) -> None:
        """Animate `events` over the state already shown (only a picture: items, queries
        and the battle are final from the start). `before` is the state they were applied
        to (for the facings units started from)."""
        speed = max(self.table.width, self.table.depth) / TABLE_CROSSING_S
        self.animator.play(before, events, self._units, speed)
        ends = QRectF()
        for event in events:
            item = self._units.get(getattr(event, "unit", ""))
            if isinstance(event, Movement) and item is not None:
                ends = ends.united(item.sceneBoundingRect())
        if not ends.isEmpty():
            self.movesPlayed.emit(ends)

    def skip_animations(self) -> None:
        self.animator.skip()

    @property
    def animating(self) -> bool:
        return self.animator.running

    # --- proposing moves ------------------------------------------------------------------

    def propose_moves(self, proposed: list[Event]) -> None:
        """Hand engine-accepted events to the owner of the battle; nothing while replaying."""
        if self.read_only:
            self.message.emit(self.read_only_message)
            return
        self.movesProposed.emit(proposed)

    def said_of(self, before: Battle, events: Sequence[Event], done: str) -> str:
        """What the status bar says of a player's step just made (`done`, its undo text):
        for a move, wheel or charge, also how far it went against what the ruleset allows,
        in the engine's words when it went past that."""
        first = events[0] if events else None
        if not isinstance(first, UnitMoved | UnitWheeled | UnitCharged):
            return done
        if not isinstance(first, UnitCharged) and reach.distance_of(before, first) < 0.05:
            return done  # turned in place
        verdict = reach.judge(before, first)
        return f"{done}: {verdict.label if verdict.within else verdict.words}"

    def reform_selected(self, files: int) -> None:
        """Propose reforming the one selected unit `files` wide (refusals to `message`)."""
        selected = self.selected_units()
        if self._battle is None or len(selected) != 1:
            self.message.emit("Select one unit to reform")
            return
        try:
            self.propose_moves([moves.reform(self._battle, selected[0], files)])
        except MoveRefused as refused:
            self.message.emit(self.readable(refused))

    def disengage_selected(self) -> None:
        """Propose ending every combat the selected units are in, as one step."""
        battle = self._battle
        if battle is None or not self.selected_units():
            self.message.emit("Select a unit to disengage")
            return
        proposed: list[Event] = []
        for uid in self.selected_units():
            for enemy in sorted(battle.states[uid].engaged_with):
                try:
                    event = moves.disengage(battle, uid, enemy)
                except MoveRefused as refused:
                    self.message.emit(self.readable(refused))
                    return
                proposed.append(event)
                battle = event.apply_to(battle)
        if not proposed:
            self.message.emit("The selected units are not engaged")
            return
        self.propose_moves(proposed)

    # --- queries --------------------------------------------------------------------------

    def unit_item(self, unit_id: str) -> UnitItem | None:
        return self._units.get(unit_id)

    def unit_items(self) -> dict[str, UnitItem]:
        return dict(self._units)

    def terrain_item(self, terrain_id: str) -> QGraphicsPathItem | None:
        found = self._terrain.get(terrain_id)
        return found[1] if found is not None else None

    def terrain_ids(self) -> list[str]:
        return sorted(self._terrain)

    def terrain_at(self, point: QPointF) -> TerrainItem | None:
        """The topmost piece of terrain whose outline contains `point` (scene coordinates)."""
        for item in self.items(point, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder):
            if isinstance(item, TerrainItem):
                return item
        return None

    def selected_terrain(self) -> list[str]:
        return sorted(item.terrain_id for item in self.selectedItems()
                      if isinstance(item, TerrainItem))

    def set_terrain_editable(self, editable: bool) -> None:
        """Let pieces of terrain be selected (the terrain tool) or not (every other tool)."""
        self._terrain_editable = editable
        for _, item, _ in self._terrain.values():
            item.set_editable(editable)

    def zone_rects(self) -> list[QRectF]:
        """The deployment zones drawn (scene rectangles), in the battle's order."""
        return [item.rect() for item in self._fixed[3:] if isinstance(item, QGraphicsRectItem)]

    def readable(self, reason: object, names: Mapping[str, str] | None = None) -> str:
        """The engine's reason in the player's words: a quoted unit or terrain id becomes
        its name (the engine names things by id, which the window never shows); `names`
        adds ids not on the table yet (a piece being drawn)."""
        text = str(reason)
        known = dict(names or {})
        if self._battle is not None:
            known |= {piece.id: piece.name for piece in self._battle.terrain if piece.name}
            known |= {uid: unit.name for uid, unit in self._battle.roster.items()}
        return QUOTED_ID.sub(lambda found: known.get(found.group(1), found.group(0)), text)

    def zone_labels(self) -> list[LabelItem]:
        """The names written in the deployment zones, in the battle's order."""
        return [item for item in self._fixed if isinstance(item, LabelItem)]

    def unit_at(self, point: QPointF, view: QTransform | None = None) -> UnitItem | None:
        """The topmost unit whose footprint contains `point` (scene coordinates); else,
        given the `view`'s transform (labels are drawn in its pixels), the unit whose
        label is there. A footprint always wins: a label never takes a click from a unit."""
        for item in self.items(point, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder):
            if isinstance(item, UnitItem):
                return item
        if view is None:
            return None
        for item in self.items(point, Qt.ItemSelectionMode.IntersectsItemShape,
                               Qt.SortOrder.DescendingOrder, view):
            if isinstance(item, LabelItem) and item.owner and item.isVisible():
                return self._units.get(item.owner)
        return None

    def selected_units(self) -> list[str]:
        return sorted(item.unit_id for item in self.selectedItems() if isinstance(item, UnitItem))

    def select_units(self, unit_ids: list[str]) -> None:
        self.clearSelection()
        for uid in unit_ids:
            item = self._units.get(uid)
            if item is not None:
                item.setSelected(True)

    # --- level of detail and rings --------------------------------------------------------

    def set_pixels_per_unit(self, pixels: float) -> None:
        """The view's zoom: labels show only on units big enough to carry one, and bases only
        when a base is a few pixels wide (a whole table of units then costs no Python)."""
        if abs(pixels - self._pixels_per_unit) < 1e-9:
            return
        self._pixels_per_unit = pixels
        self._update_rings()
        self._apply_detail()

    def set_label_scale(self, scale: float) -> None:
        """Draw every label `scale` times its size (a picture of the table that will be
        shown smaller than it is drawn, as in a report), placed anew for that size."""
        if abs(scale - self.label_scale) < 1e-9:
            return
        self.label_scale = scale
        for item in self.items():
            if isinstance(item, LabelItem):
                item.setScale(scale)
        self._apply_detail()

    def _apply_detail(self) -> None:
        pixels = self._pixels_per_unit
        if pixels <= 0:  # not shown in a view yet: every detail
            for item in self._units.values():
                item.label.show()
                item.detail.show()
            return
        minor, _ = GRID_STEPS.get(self.distance_unit, (6.0, 12.0))
        if len(self._fixed) > 1:  # a minor grid denser than this is noise
            self._fixed[1].setVisible(minor * pixels >= MINOR_GRID_MIN_PX)
        for item in self._units.values():
            item.detail.setVisible(item.detail.min_base() * pixels >= BASE_DETAIL_PX)
        self._declutter_labels(pixels)

    def _declutter_labels(self, pixels: float) -> None:
        """Give every unit a label where one fits (`labelling`): on the unit, else as near
        it as is clear, with a leader line; never over another unit's footprint or another
        label, so a click on a unit always finds that unit and a label names only its own.
        A label keeps the place it had while that is still clear; the others go routed
        units first, then roster order, and one with no clear place stands where it covers
        least (a click on a footprint still finds its unit: `unit_at`); before that, a label
        with badges tries its unit's name alone. Labels stay within the table. On a table of
        more than LABEL_AROUND_UP_TO units, labels stand only on units big enough to carry
        one, and hide where they find no room. The selected unit's rings' labels come last and
        give way to everything, so a selection never moves a unit's label."""
        candidates = sorted(self._units.values(), key=lambda item: not item.routed)
        crowded = len(candidates) > LABEL_AROUND_UP_TO
        placed = [item for item in candidates if item.footprint is not None]
        # Labels are drawn `label_scale` times their size: in their own pixels, the table
        # is that much smaller.
        label_pixels = pixels / self.label_scale
        fixed = [_label_box(label, label.pos(), label_pixels) for label in self._fixed_labels()]
        table = self.table
        room = LabelRoom([_bounds(item.footprint) for item in placed if item.footprint],
                         fixed, label_pixels, (0.0, 0.0, table.width, table.depth))
        for item in candidates:
            if item.footprint is None:
                item.label.hide()
        shown: list[int] = []
        for index, item in enumerate(placed):
            assert item.footprint is not None
            smallest = ROUTED_LABEL_MIN_PX if item.routed else LABEL_MIN_PX
            if crowded and item.footprint.frontage * pixels < smallest:
                item.label.hide()
            else:
                shown.append(index)
        # A label stays where it stood while that place is still clear (at this zoom, its
        # unit where it was, its text the same).
        left: list[int] = []
        for index in shown:
            item = placed[index]
            kept = self._label_places.get(item.unit_id)
            item.label.set_compact(kept is not None and kept[2])
            if kept is not None and kept[0] == self._label_key(item, label_pixels) \
                    and room.keep(index, kept[1]):
                self._show_label(item, kept[1], label_pixels)
            else:
                item.label.set_compact(False)
                left.append(index)
        left = [index for index in left
                if not self._place_label(room, index, placed[index], label_pixels, crowded)]
        if not crowded:
            # With no room whole, a label with badges tries its unit's name alone: a label
            # of four lines stood over its neighbour (a Kensei retry of issue 20, item 11).
            for index in left:
                placed[index].label.set_compact(True)
            left = [index for index in left
                    if not self._place_label(room, index, placed[index], label_pixels, False)]
        for index in left:
            if crowded:
                placed[index].label.hide()
                continue
            box = placed[index].label.text_rect()
            self._show_label(placed[index], room.least_covered(
                index, box.width() / label_pixels, box.height() / label_pixels), label_pixels)
        self._place_ring_labels(room, label_pixels)

    def _place_ring_labels(self, room: LabelRoom, label_pixels: float) -> None:
        """Each shown ring's label, outermost first, at the first of its spots where it
        covers no unit and no label; else hidden (the ruler measures any distance)."""
        for label, spots in self.rings_item.named():
            for spot in spots:
                if room.claim(_label_box(label, spot, label_pixels)):
                    label.setPos(spot)
                    break
            else:
                label.hide()

    def _label_key(self, item: UnitItem, label_pixels: float) -> tuple[object, ...]:
        """What a label's place depends on besides the other labels: the zoom, where its
        unit stands and what the label says."""
        corners = item.footprint.corners if item.footprint is not None else ()
        return label_pixels, corners, item.label.text()

    def _place_label(self, room: LabelRoom, index: int, item: UnitItem, label_pixels: float,
                     crowded: bool) -> bool:
        """Put `item`'s label where `room` finds a clear place for it; False if none."""
        box = item.label.text_rect()
        found = room.place(index, box.width() / label_pixels, box.height() / label_pixels,
                           around=not crowded)
        if found is None:
            return False
        self._show_label(item, found, label_pixels)
        return True

    def _show_label(self, item: UnitItem, placement: Placement, label_pixels: float) -> None:
        """Stand `item`'s label at `placement` and remember it there (see `keep`)."""
        item.label.setPos(QPointF(*placement.centre))
        end = placement.end
        item.label.set_leader(QPointF(end[0], end[1]) if end is not None else None)
        item.label.show()
        self._label_places[item.unit_id] = (self._label_key(item, label_pixels), placement,
                                            item.label.compact)

    def _fixed_labels(self) -> list[LabelItem]:
        """Labels unit labels keep clear of: the zones' names and the terrain's."""
        found = [label for label in self.zone_labels() if label.isVisible()]
        found += [label for _, _, label in self._terrain.values() if label.isVisible()]
        return found

    def _selection_changed(self) -> None:
        self._update_rings()
        if self._pixels_per_unit > 0:
            self._declutter_labels(self._pixels_per_unit)  # places the rings' labels

    def _update_rings(self) -> None:
        selected = self.selected_units()
        if self._battle is None or len(selected) != 1:
            self.rings_item.hide_rings()
            return
        uid = selected[0]
        found = rings(self._battle, uid)
        if not found:
            self.rings_item.hide_rings()
            return
        self.rings_item.show_rings(self._battle.footprint(uid), found, self._pixels_per_unit)
