"""Graphics items of the battlefield: units, labels, range rings and the drag ghost.

Scene coordinates are table units (inches or cm) with y growing up the table; the view
flips the y axis. A UnitItem sits at its unit's centre, rotated to its facing, so that in
item coordinates +x points to the front and +y to the unit's left: moving or turning a unit
is a setPos/setRotation, not a new shape. Labels ignore the view's transformations, so they
stay upright and readable at any zoom (and are not flipped).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import ClassVar, Final

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.engine.geometry import Footprint, Point
from desktop.engine.model import Battle, Status
from desktop.engine.rings import Ring

PLAYER_COLOURS: Final = ("#3b6fd4", "#c8413b", "#d9a520", "#8e5bc9", "#2a9d8f", "#e07b39")
# Below this many pixels per base the bases would blur into each other: draw the outline only.
BASE_DETAIL_PX: Final = 5.0
SELECTED_COLOUR: Final = QColor("#ffe45c")
RING_LABEL_PX: Final = 30.0  # a ring this close to the unit (pixels) goes unlabelled
REFUSED_COLOUR: Final = QColor("#e8402f")
MARCH_COLOUR: Final = QColor("#ffb347")
ACCEPTED_COLOUR: Final = QColor("#f4f4f4")
LABEL_BACKGROUND: Final = QColor(20, 22, 26, 190)
LEADER_COLOUR: Final = QColor(240, 240, 240, 170)
BADGE_COLOURS: Final = {"engaged": QColor("#ff9f5a"), "broken": QColor("#ff6b6b"),
                        "fleeing": QColor("#ff6b6b"), "modifier": QColor("#9fd3ff")}


def cosmetic_pen(colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    """A pen whose width is in screen pixels, whatever the zoom."""
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


def player_colours(battle: Battle) -> dict[str, QColor]:
    """One colour per player, in the order players first appear in the roster (stable)."""
    colours: dict[str, QColor] = {}
    for unit in battle.roster.values():
        if unit.player not in colours:
            colours[unit.player] = QColor(PLAYER_COLOURS[len(colours) % len(PLAYER_COLOURS)])
    return colours


class LabelItem(QGraphicsItem):
    """Lines of text centred on its position, drawn in screen pixels (ignores zoom and flip).

    A unit's label (`owner` its id) may stand beside the unit, clear of the others, with a
    leader line to it; only its text box counts as the label's shape (what a click finds).
    """

    def __init__(self, parent: QGraphicsItem | None = None, owner: str = "",
                 opaque: bool = False) -> None:
        super().__init__(parent)
        # A label over everything (the drag's) hides what is under it whole: a ring's label
        # read through the ghost's garbled it.
        self._background = QColor(LABEL_BACKGROUND)
        if opaque:
            self._background.setAlpha(255)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.owner = owner
        self._font = QFont()
        self._font.setPointSizeF(8.5)
        self._lines: list[tuple[str, QColor]] = []
        self._full: list[tuple[str, QColor]] = []  # every line, compact or not
        self._compact = False
        self._rect = QRectF()
        self._leader: QLineF | None = None
        self._bounds = QRectF()
        self._above = False
        self._below = False

    def set_lines(self, lines: Sequence[tuple[str, QColor]], *, above: bool = False,
                  below: bool = False) -> None:
        """Show `lines` (text, colour) centred on the anchor, or (`above`) standing on it,
        or (`below`) hanging under it."""
        self._full = list(lines)
        self._show_lines(self._full[:1] if self._compact else self._full, above, below)

    def set_compact(self, compact: bool) -> None:
        """The first line alone (a unit's name without its badges), for a label that has no
        clear room whole; the badges stay in the Unit dock."""
        if compact != self._compact:
            self._compact = compact
            self._show_lines(self._full[:1] if compact else self._full, self._above,
                             self._below)

    @property
    def compact(self) -> bool:
        return self._compact

    def _show_lines(self, lines: list[tuple[str, QColor]], above: bool, below: bool) -> None:
        if lines == self._lines and above == self._above and below == self._below:
            return
        self.prepareGeometryChange()
        self._lines, self._above, self._below = lines, above, below
        metrics = QFontMetricsF(self._font)
        width = max((metrics.horizontalAdvance(text) for text, _ in lines), default=0.0)
        height = metrics.height() * len(lines)
        top = -height - 6.0 if above else 6.0 if below else -height / 2
        self._rect = QRectF(-width / 2 - 3, top - 1, width + 6, height + 2)
        self._leader = None
        self._bounds = QRectF(self._rect)

    def text_rect(self) -> QRectF:
        """The text's box in pixels about the label's position (its shape)."""
        return QRectF(self._rect)

    def set_leader(self, end: QPointF | None) -> None:
        """A thin line from the text box to `end` (pixels about the position, y down): the
        unit a label standing beside it names. None: no line."""
        leader = None
        if end is not None and not self._rect.contains(end):
            box = self._rect
            start = QPointF(min(max(end.x(), box.left()), box.right()),
                            min(max(end.y(), box.top()), box.bottom()))
            leader = QLineF(start, end)
        if leader == self._leader:
            return
        self.prepareGeometryChange()
        self._leader = leader
        self._bounds = QRectF(self._rect)
        if leader is not None:
            self._bounds = self._bounds.united(
                QRectF(leader.p1(), leader.p2()).normalized().adjusted(-1, -1, 1, 1))

    def leader(self) -> QLineF | None:
        return QLineF(self._leader) if self._leader is not None else None

    def keep_in_sight(self, under: QPointF | None = None) -> None:
        """Keep a label that stands above its anchor within the view showing it: cut by
        the view's top edge it hangs from `under` instead (the lowest point of what it
        names), and it is slid in from whichever edge still cuts it."""
        scene = self.scene()
        views = scene.views() if scene is not None else []
        if not views:
            return
        view = views[0]
        room = QRectF(view.viewport().rect())
        to_screen = view.viewportTransform()

        def on_screen() -> QRectF:
            return self.deviceTransform(to_screen).mapRect(self.boundingRect())

        box = on_screen()
        if box.top() < room.top() and under is not None and self._above:
            self.setPos(under)
            self._show_lines(self._lines, False, True)
            box = on_screen()
        dx = (room.left() - box.left() if box.left() < room.left()
              else room.right() - box.right() if box.right() > room.right() else 0.0)
        dy = (room.top() - box.top() if box.top() < room.top()
              else room.bottom() - box.bottom() if box.bottom() > room.bottom() else 0.0)
        if dx or dy:
            anchor = to_screen.map(self.pos()) + QPointF(dx, dy)
            self.setPos(to_screen.inverted()[0].map(anchor))

    def text(self) -> str:
        return "\n".join(text for text, _ in self._lines)

    def boundingRect(self) -> QRectF:  # Qt override
        return self._bounds

    def shape(self) -> QPainterPath:  # Qt override: the text box, not the leader line
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        if not self._lines:
            return
        if self._leader is not None:
            painter.setPen(QPen(LEADER_COLOUR, 1.0))
            painter.drawLine(self._leader)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._background)
        painter.drawRoundedRect(self._rect, 3, 3)
        painter.setFont(self._font)
        metrics = QFontMetricsF(self._font)
        y = self._rect.top() + 1 + metrics.ascent()
        for text, colour in self._lines:
            painter.setPen(colour)
            painter.drawText(QPointF(-metrics.horizontalAdvance(text) / 2, y), text)
            y += metrics.height()


FRONT_BAND: Final = QColor("#f4f4f4")
# The front band is the front quarter of a unit's body, drawn where bases are not (zoomed
# out): 2.5 pixels of a unit 10 pixels deep, so that its outline never covers all of it.
BAND_TEXELS: Final = 4


@functools.cache
def _band_texture(fill_rgba: int) -> QImage:
    texture = QImage(BAND_TEXELS, 1, QImage.Format.Format_ARGB32_Premultiplied)
    texture.fill(QColor.fromRgba(fill_rgba))
    texture.setPixelColor(BAND_TEXELS - 1, 0, FRONT_BAND)
    return texture


def front_band_brush(fill: QColor, rect: QRectF) -> QBrush:
    """`fill` over `rect` with a light band along its front (+x): a texture stretched over
    the depth, which the raster engine fills about as fast as a plain colour (a linear
    gradient took half again as long as the plain rectangles for a table of 2,000 units)."""
    brush = QBrush(_band_texture(fill.rgba()))
    brush.setTransform(QTransform.fromTranslate(rect.left(), 0.0)
                       .scale(rect.width() / BAND_TEXELS, 1.0))
    return brush


class UnitItem(QGraphicsRectItem):
    """A unit drawn from its engine footprint.

    The body is a plain rectangle painted by Qt itself (no Python per paint: 2,000 of them
    repaint about as fast as plain rectangles); its brush ends in a light band that marks
    the front at any zoom. The bases, the crisp front edge and the rout dashes are a
    child DetailItem, which draws only when zoomed in (level of detail, as Qt's chips).
    """

    def __init__(self, unit_id: str) -> None:
        super().__init__()
        self.unit_id = unit_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.label = LabelItem(owner=unit_id)
        self.label.setZValue(50)
        self.detail = DetailItem(self)
        self._colour = QColor(PLAYER_COLOURS[0])
        self._status = Status.READY
        self.footprint: Footprint | None = None
        self.setZValue(10)

    def update_from(self, battle: Battle, colour: QColor) -> None:
        """Take the unit's pose, formation, status and badges from `battle`."""
        unit, state = battle.unit(self.unit_id), battle.state(self.unit_id)
        footprint = battle.footprint(self.unit_id)
        self.footprint = footprint
        # Item x runs along the facing (depth), item y across it (frontage).
        rect = QRectF(-footprint.depth / 2, -footprint.frontage / 2,
                      footprint.depth, footprint.frontage)
        if rect != self.rect():
            self.setRect(rect)
        self.setPos(QPointF(*footprint.center))
        self.setRotation(footprint.facing)
        routed = state.status in (Status.BROKEN, Status.FLEEING)
        if (colour, state.status) != (self._colour, self._status) or rect != self.detail.rect:
            self._colour, self._status = QColor(colour), state.status
            fill = QColor(colour)
            if routed:
                fill.setAlpha(110)
            self.setBrush(front_band_brush(fill, rect))
            self._restyle()
        self.detail.set_formation(rect, state.files, state.models, unit.profile.base,
                                  self._colour, routed)
        self.label.setPos(QPointF(*footprint.center))
        lines: list[tuple[str, QColor]] = [(f"{unit.name} ({state.models})", ACCEPTED_COLOUR)]
        lines += [(text, BADGE_COLOURS[kind]) for kind, text in self.badges(battle)]
        self.label.set_lines(lines)

    @property
    def routed(self) -> bool:
        """Broken or fleeing: its label shows before the others' (scene's declutter)."""
        return self._status in (Status.BROKEN, Status.FLEEING)

    def _restyle(self) -> None:
        selected = self.isSelected()
        self.setPen(cosmetic_pen(SELECTED_COLOUR if selected else self._colour.darker(170),
                                 2.5 if selected else 1.0))

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange,
                   value: object) -> object:  # Qt override
        if change == QGraphicsItem.GraphicsItemChange.ItemSelectedHasChanged:
            self._restyle()
        return super().itemChange(change, value)

    def badges(self, battle: Battle) -> list[tuple[str, str]]:
        """(kind, text) of what a player must see at a glance: combat, rout, modifiers."""
        state = battle.state(self.unit_id)
        found: list[tuple[str, str]] = []
        if state.engaged_with:
            # A count, not names: the enemies are in contact and visible; labels stay short.
            count = len(state.engaged_with)
            found.append(("engaged", "engaged" if count == 1 else f"engaged x{count}"))
        if state.status in (Status.BROKEN, Status.FLEEING):
            found.append((str(state.status), str(state.status)))
        for modifier in state.modifiers:
            left = modifier.expires_after_turn - battle.turn + 1
            if left > 0:
                found.append(("modifier", f"{modifier.stat} {modifier.delta:+d} "
                                          f"({left} turn{'s' if left != 1 else ''})"))
        return found

    def shape(self) -> QPainterPath:  # Qt override: the footprint alone, not the pen's margin
        path = QPainterPath()
        path.addRect(self.rect())
        return path


class DetailItem(QGraphicsItem):
    """A unit's bases (files x ranks), crisp front edge and rout dashes: only when zoomed in.

    The scene hides it when bases would be a few pixels (no Python call per unit when a whole
    table is in view); its paint checks the level of detail too, for other painters (export).
    """

    # How many bases have been painted, all units together: lets tests see the level of detail.
    painted_bases: ClassVar[int] = 0

    def __init__(self, parent: UnitItem) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemStacksBehindParent, False)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.rect = QRectF()
        self._bases: list[QRectF] = []
        self._base = (1.0, 1.0)
        self._fill = QColor()
        self._routed = False

    def set_formation(self, rect: QRectF, files: int, models: int, base: tuple[float, float],
                      colour: QColor, routed: bool) -> None:
        if rect != self.rect:
            self.prepareGeometryChange()
            self.rect = rect
        self._base, self._fill, self._routed = base, QColor(colour), routed
        self._bases = self._layout(rect, files, models, base)
        self.update()

    @staticmethod
    def _layout(rect: QRectF, files: int, models: int,
                base: tuple[float, float]) -> list[QRectF]:
        """One rectangle per model: files across the front, ranks behind, last rank centred."""
        base_w, base_d = base
        files = max(files, 1)
        bases: list[QRectF] = []
        remaining, rank = models, 0
        while remaining > 0:
            in_rank = min(files, remaining)
            offset = (files - in_rank) * base_w / 2
            for column in range(in_rank):
                bases.append(QRectF(rect.right() - (rank + 1) * base_d,
                                    rect.top() + offset + column * base_w, base_d, base_w))
            remaining -= in_rank
            rank += 1
        return bases

    def min_base(self) -> float:
        return min(self._base)

    def boundingRect(self) -> QRectF:  # Qt override
        return self.rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        detail = option.levelOfDetailFromTransform(painter.worldTransform())
        if detail * self.min_base() < BASE_DETAIL_PX:
            return
        fill = QColor(self._fill)
        if self._routed:
            fill.setAlpha(110)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill.darker(130))
        painter.drawRect(self.rect)
        painter.setPen(cosmetic_pen(fill.darker(200), 1.0))
        painter.setBrush(fill)
        painter.drawRects(self._bases)
        DetailItem.painted_bases += len(self._bases)
        if self._routed:
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(QColor("#ffffff"), 1.2, Qt.PenStyle.DashLine))
            painter.drawRect(self.rect)
        parent = self.parentItem()
        if parent is not None and parent.isSelected():
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(cosmetic_pen(SELECTED_COLOUR, 2.5))
            painter.drawRect(self.rect)
        # The front edge: a light bar along +x, over the selection outline so that a
        # selected unit still shows which way it faces.
        painter.setPen(cosmetic_pen(QColor("#ffffff"), 3.0))
        painter.drawLine(QLineF(self.rect.right(), self.rect.top(),
                                self.rect.right(), self.rect.bottom()))


class RingsItem(QGraphicsItem):
    """Range rings around a unit: the footprint grown by each radius (measured from its edge)."""

    def __init__(self) -> None:
        super().__init__()
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(5)
        self._paths: list[QPainterPath] = []
        self._rect = QRectF()
        self.labels: list[LabelItem] = []
        self.rings: tuple[Ring, ...] = ()
        # For each label, the places on its ring it may stand (scene), the first preferred.
        self.spots: list[tuple[QPointF, ...]] = []

    def show_rings(self, footprint: Footprint, rings: tuple[Ring, ...],
                   pixels_per_unit: float = 0.0) -> None:
        """Draw `rings` about `footprint`; at `pixels_per_unit` (0: unknown, all labels) a
        label shows only when its ring is clear of the unit and of the last labelled ring."""
        self.prepareGeometryChange()
        # Rings of the same radius (W6: Move 4" and Keep away 4") are drawn once, both named.
        merged: dict[float, list[str]] = {}
        for ring in rings:
            merged.setdefault(ring.radius, []).append(ring.label)
        rings = tuple(Ring(" · ".join(labels), radius) for radius, labels in merged.items())
        self.rings = rings
        self.setPos(QPointF(*footprint.center))
        self.setRotation(footprint.facing)
        body = QRectF(-footprint.depth / 2, -footprint.frontage / 2,
                      footprint.depth, footprint.frontage)
        self._paths = []
        self._rect = QRectF(body)
        for ring in rings:
            grown = body.adjusted(-ring.radius, -ring.radius, ring.radius, ring.radius)
            path = QPainterPath()
            path.addRoundedRect(grown, ring.radius, ring.radius)
            self._paths.append(path)
            self._rect = self._rect.united(grown)
        scene = self.scene()
        while len(self.labels) < len(rings):
            label = LabelItem()
            label.setZValue(40)
            self.labels.append(label)
            if scene is not None:
                scene.addItem(label)
        # Each ring's label sits where it crosses the line ahead of the unit's front; along
        # that line a label takes its width (facing sideways on screen) or its height (facing
        # up or down), and the next label out must clear it.
        ahead = (math.cos(math.radians(footprint.facing)), math.sin(math.radians(footprint.facing)))
        beside = (-ahead[1], ahead[0])
        cx, cy = footprint.center
        labelled, reach_px = -math.inf, 0.0  # the last labelled ring, and half its label
        self.spots = []
        for index, label in enumerate(self.labels):
            if index >= len(rings):
                label.hide()
                continue
            radius = rings[index].radius
            # Ahead of the front, else round the ring by eighths to behind: where it crosses
            # the unit's axes and the middles of its rounded corners (the scene moves a
            # label that would cover a unit or a label).
            out, side = footprint.depth / 2, footprint.frontage / 2
            corner = radius * math.sqrt(0.5)
            steps = ((out + radius, 0.0), (out + corner, side + corner),
                     (out + corner, -side - corner), (0.0, side + radius),
                     (0.0, -side - radius), (-out - corner, side + corner),
                     (-out - corner, -side - corner), (-out - radius, 0.0))
            self.spots.append(tuple(
                QPointF(cx + ahead[0] * along + beside[0] * across,
                        cy + ahead[1] * along + beside[1] * across) for along, across in steps))
            label.set_lines([(rings[index].label, QColor("#fff6c2"))])
            box = label.boundingRect()
            half = (abs(ahead[0]) * box.width() + abs(ahead[1]) * box.height()) / 2
            roomy = (pixels_per_unit <= 0
                     or (radius * pixels_per_unit >= RING_LABEL_PX
                         and (radius - labelled) * pixels_per_unit >= reach_px + half))
            if roomy:
                labelled, reach_px = radius, half
                label.setPos(self.spots[index][0])
                label.show()
            else:
                label.hide()
        self.show()

    def named(self) -> list[tuple[LabelItem, tuple[QPointF, ...]]]:
        """The rings' labels shown and each one's spots, the outermost ring first."""
        return [(label, spots) for label, spots in zip(self.labels, self.spots, strict=False)
                if label.isVisible()][::-1]

    def hide_rings(self) -> None:
        self.hide()
        for label in self.labels:
            label.hide()

    def boundingRect(self) -> QRectF:  # Qt override
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(QColor(255, 246, 194, 200), 1.5, Qt.PenStyle.DashLine))
        for path in self._paths:
            painter.drawPath(path)


class GhostItem(QGraphicsItem):
    """Where a dragged unit would end: its footprint, a trail from where it stands, and a
    label (distance, angle, or the engine's refusal). Red while the pose is refused."""

    def __init__(self) -> None:
        super().__init__()
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(30)
        self._polygon = QPolygonF()
        self._trail: QLineF | None = None
        self._arc = QPainterPath()
        self._rect = QRectF()
        self.refused = False  # drawn red: refused, or past what the ruleset allows
        self.warned = False  # drawn amber: allowed, past the plain Move (a march)
        self.label = LabelItem(opaque=True)
        self.label.setZValue(60)
        self.hide()

    def show_pose(self, footprint: Footprint, *, refused: bool, text: str,
                  trail: tuple[Point, Point] | None = None,
                  arc: QPainterPath | None = None, warned: bool = False) -> None:
        """The pose, red while `refused` (or past what the ruleset allows), amber when
        `warned` (a march); `text` may run over several lines."""
        self.prepareGeometryChange()
        self._polygon = QPolygonF([QPointF(x, y) for x, y in footprint.corners])
        self._trail = QLineF(QPointF(*trail[0]), QPointF(*trail[1])) if trail else None
        self._arc = arc if arc is not None else QPainterPath()
        rect = self._polygon.boundingRect()
        if self._trail is not None:
            rect = rect.united(QRectF(self._trail.p1(), self._trail.p2()).normalized())
        self._rect = rect.united(self._arc.boundingRect()).adjusted(-0.5, -0.5, 0.5, 0.5)
        self.refused = refused
        self.warned = warned and not refused
        # Above the ghost on screen (scene y grows up), clear of the units' own labels.
        top = max(footprint.corners, key=lambda corner: corner[1])
        self.label.setPos(QPointF(footprint.center[0], top[1]))
        self.label.set_lines([(line, self.colour()) for line in text.split("\n")], above=True)
        self.label.show()
        bottom = min(footprint.corners, key=lambda corner: corner[1])
        self.label.keep_in_sight(under=QPointF(footprint.center[0], bottom[1]))
        self.show()
        self.update()

    def hide_ghost(self) -> None:
        self.hide()
        self.label.hide()

    def colour(self) -> QColor:
        return REFUSED_COLOUR if self.refused else MARCH_COLOUR if self.warned \
            else ACCEPTED_COLOUR

    def boundingRect(self) -> QRectF:  # Qt override
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        colour = self.colour()
        fill = QColor(colour)
        fill.setAlpha(70)
        if self._trail is not None:
            painter.setPen(cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine))
            painter.drawLine(self._trail)
        if not self._arc.isEmpty():
            painter.setPen(cosmetic_pen(colour, 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self._arc)
        painter.setPen(cosmetic_pen(colour, 2.0))
        painter.setBrush(QBrush(fill))
        painter.drawPolygon(self._polygon)
        if self._polygon.size() >= 2:  # the front (corners 0 and 1): which way it would face
            painter.setPen(cosmetic_pen(colour, 5.0))
            painter.drawLine(QLineF(self._polygon.at(0), self._polygon.at(1)))


RULER_COLOUR: Final = QColor("#fff3a0")


class RulerItem(QGraphicsItem):
    """A measured line: ticks at both ends, dots where an end snapped, the distance above it.

    Stays on the table until `clear` (Esc, or a new measurement); never takes the mouse.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(80)
        self.line = QLineF()
        self._guides: list[QLineF] = []  # snapped points to the measured ends (edge to edge)
        self._snapped: list[QPointF] = []
        self._rect = QRectF()
        self.label = LabelItem(opaque=True)
        self.label.setZValue(85)
        self.hide()

    def show_measure(self, start: Point, end: Point, text: str, *,
                     snapped: Sequence[Point] = (),
                     guides: Sequence[tuple[Point, Point]] = ()) -> None:
        self.prepareGeometryChange()
        self.line = QLineF(QPointF(*start), QPointF(*end))
        self._snapped = [QPointF(*point) for point in snapped]
        self._guides = [QLineF(QPointF(*a), QPointF(*b)) for a, b in guides]
        rect = QRectF(self.line.p1(), self.line.p2()).normalized()
        for guide in self._guides:
            rect = rect.united(QRectF(guide.p1(), guide.p2()).normalized())
        for point in self._snapped:
            rect = rect.united(QRectF(point, point))
        # The ticks and dots are a few pixels: room for them at any sensible zoom.
        self._rect = rect.adjusted(-1.0, -1.0, 1.0, 1.0)
        self.label.setPos(self.line.center())
        self.label.set_lines([(text, RULER_COLOUR)], above=True)
        self.label.show()
        self.label.keep_in_sight(under=self.line.center())
        self.show()
        self.update()

    def clear(self) -> None:
        self.hide()
        self.label.hide()

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""

    def boundingRect(self) -> QRectF:  # Qt override
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        scale = option.levelOfDetailFromTransform(painter.worldTransform()) or 1.0
        painter.setPen(cosmetic_pen(QColor(0, 0, 0, 150), 4.0))
        painter.drawLine(self.line)  # a dark halo: readable on grass and on units
        painter.setPen(cosmetic_pen(RULER_COLOUR, 2.0))
        painter.drawLine(self.line)
        painter.setPen(cosmetic_pen(RULER_COLOUR, 1.0, Qt.PenStyle.DashLine))
        for guide in self._guides:
            painter.drawLine(guide)
        # Ticks across the line at both ends, 6 pixels long whatever the zoom.
        if self.line.length() > 0:
            normal = self.line.normalVector().unitVector()
            dx, dy = normal.dx() * 6 / scale, normal.dy() * 6 / scale
            painter.setPen(cosmetic_pen(RULER_COLOUR, 2.0))
            for point in (self.line.p1(), self.line.p2()):
                painter.drawLine(QLineF(point.x() - dx, point.y() - dy,
                                        point.x() + dx, point.y() + dy))
        painter.setPen(cosmetic_pen(QColor("#000000"), 1.0))
        painter.setBrush(RULER_COLOUR)
        radius = 3.5 / scale
        for point in self._snapped:
            painter.drawEllipse(point, radius, radius)
