"""How a piece of terrain looks on the battlefield: one item per piece, styled by its kind.

Open ground is a light green wash with a dashed edge, difficult ground a darker wash with
diagonal hatching (drawn in screen pixels, so it reads the same at every zoom), impassable
ground solid brown. The label says the name and the kind, so the kind never rests on colour
alone. A selected piece (only the terrain tool selects them) gets a highlighted outline.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QStyle,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.engine.model import Terrain
from desktop.gui.battlefield.items import SELECTED_COLOUR, LabelItem, cosmetic_pen

OPEN_TERRAIN_COLOUR: Final = QColor(60, 110, 40, 150)
DIFFICULT_COLOUR: Final = QColor(44, 78, 30, 190)
IMPASSABLE_COLOUR: Final = QColor(92, 78, 64, 235)
HATCH_COLOUR: Final = QColor(16, 34, 10, 170)
HATCH_PX: Final = 8.0  # screen pixels between hatch lines
KIND_TEXT: Final = {"open": "open ground", "difficult": "difficult ground",
                    "impassable": "impassable"}
_STYLES: Final = {  # kind: (fill, edge colour, edge width, edge style)
    "open": (OPEN_TERRAIN_COLOUR, QColor("#23401a"), 1.5, Qt.PenStyle.DashLine),
    "difficult": (DIFFICULT_COLOUR, QColor("#172b0f"), 1.8, Qt.PenStyle.SolidLine),
    "impassable": (IMPASSABLE_COLOUR, QColor("#2b241c"), 2.0, Qt.PenStyle.SolidLine),
}


def outline_path(points: tuple[tuple[float, float], ...]) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


class TerrainItem(QGraphicsPathItem):
    """One piece of terrain, with its label (a separate item: labels ignore the zoom)."""

    def __init__(self, piece: Terrain) -> None:
        super().__init__(outline_path(piece.points))
        self.piece = piece
        self.terrain_id = piece.id
        fill, edge, width, style = _STYLES[piece.kind]
        self.setBrush(QBrush(fill))
        self.setPen(cosmetic_pen(edge, width, style))
        self.setZValue(-5)
        # Hatching draws only what is exposed (a zoomed-in marsh is mostly off screen).
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        # The tools handle the mouse; the scene only keeps the selection.
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.label = LabelItem()
        centre = piece.polygon.representative_point()
        self.label.setPos(QPointF(centre.x, centre.y))
        self.label.set_lines([(piece.name or piece.id, QColor("#f0e6d0")),
                              (KIND_TEXT[piece.kind], QColor("#c9bfa8"))])
        self.label.setZValue(-4)

    def set_editable(self, editable: bool) -> None:
        """Selectable only while the terrain tool is active, so that a rubber band of the
        select tool never picks up woods."""
        if not editable:
            self.setSelected(False)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, editable)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:  # Qt override
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.brush())
        painter.drawPath(self.path())
        if self.piece.kind == "difficult":
            self._hatch(painter, option)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(cosmetic_pen(SELECTED_COLOUR, 2.5) if selected else self.pen())
        painter.drawPath(self.path())

    def _hatch(self, painter: QPainter, option: QStyleOptionGraphicsItem) -> None:
        """Diagonal lines HATCH_PX screen pixels apart, clipped to the outline."""
        detail = option.levelOfDetailFromTransform(painter.worldTransform())
        step = HATCH_PX / max(detail, 1e-9)
        rect = self.path().boundingRect().intersected(option.exposedRect)
        if rect.isEmpty():
            return
        painter.save()
        painter.setClipPath(self.path())
        painter.setPen(cosmetic_pen(HATCH_COLOUR, 1.0))
        span = rect.width() + rect.height()
        lines = []
        offset = 0.0
        while offset <= span:
            start = QPointF(rect.left() + offset, rect.top())
            lines.append(QLineF(start, start + QPointF(-rect.height(), rect.height())))
            offset += step
        painter.drawLines(lines)
        painter.restore()
