"""The battlefield view: y flipped (y grows up the table), zoom, pan, fit, export, tools.

Zoom (Ctrl+wheel, pinch, Ctrl++ / Ctrl+-) keeps the point under the mouse where it is and
stays between half the fitted scale and MAX_ZOOM times it; Ctrl+0 fits the table. The middle
button, or Space held with the left button, pans. Every other mouse and key event goes to the
current tool (desktop.gui.battlefield.tools).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSizeF, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QContextMenuEvent,
    QFont,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QResizeEvent,
    QShowEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QGestureEvent,
    QGraphicsView,
    QMenu,
    QPinchGesture,
    QWidget,
)

from desktop.gui.battlefield.menus import context_menu
from desktop.gui.battlefield.scene import BattlefieldScene
from desktop.gui.battlefield.tools import TOOLS, Tool
from desktop.gui.pictures import save_picture

FLOOR_COLOUR: Final = QColor("#34383d")
ZOOM_STEP: Final = 1.25  # one wheel notch or one Ctrl++
MIN_ZOOM: Final = 0.5  # times the scale that fits the table
MAX_ZOOM: Final = 40.0
FIT_MARGIN: Final = 0.03  # of the table, kept around it by fit_table
BANNER_COLOUR: Final = QColor(150, 40, 40, 220)
FOLLOW_MARGIN_PX: Final = 24  # room kept around engine moves brought into sight
# How wide an exported picture of the table is seen (a report's page): its labels are drawn
# to read at that size.
PAGE_WIDTH_PX: Final = 800


class BattlefieldView(QGraphicsView):
    """Shows a BattlefieldScene with y growing up the screen; zoom, pan and tools."""

    toolChanged = Signal(str)  # the tool's name, whoever picked it (toolbar, menu, key)

    def __init__(self, scene: BattlefieldScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.battlefield = scene
        self.setObjectName("battlefieldView")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setBackgroundBrush(QBrush(FLOOR_COLOUR))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        self._fitted = False  # follows the window size until the user zooms or pans
        self._pan_from: QPoint | None = None
        self._space = False
        self.tool: Tool = TOOLS["select"](self)
        self.last_menu: QMenu | None = None  # the context menu shown last (tests look at it)
        self.setTransform(QTransform.fromScale(1.0, -1.0))
        scene.movesPlayed.connect(self.bring_into_view)

    # --- zoom -----------------------------------------------------------------------------

    @property
    def scale_factor(self) -> float:
        """Pixels per table unit."""
        return self.transform().m11()

    def fit_scale(self) -> float:
        table = self.battlefield.table
        viewport = self.viewport().rect()
        if viewport.isEmpty():
            return 1.0
        margin = 1 + 2 * FIT_MARGIN
        return min(viewport.width() / (table.width * margin),
                   viewport.height() / (table.depth * margin))

    def fit_table(self) -> None:
        """Scale the table to fill the viewport (keeping its proportions) and centre it."""
        self._set_scale(self.fit_scale())
        table = self.battlefield.table
        self.centerOn(QPointF(table.width / 2, table.depth / 2))
        self._fitted = True

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / ZOOM_STEP)

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        """Zoom by `factor` keeping the scene point under `anchor` (default: the centre) put."""
        if anchor is None:
            anchor = self.viewport().rect().center()
        fit = self.fit_scale()
        scale = min(max(self.scale_factor * factor, fit * MIN_ZOOM), fit * MAX_ZOOM)
        held = self.mapToScene(anchor)
        self._set_scale(scale)
        # Scroll so that the held scene point is back under the anchor.
        drift = self.mapFromScene(held) - anchor
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())
        self._fitted = False

    def bring_into_view(self, rect: QRectF) -> None:
        """Pan so that `rect` (scene units: where the engine's moves end) is in sight, as
        little as will do; zoom out only if it cannot fit at the player's zoom, and only as
        far as needed. Never zooms in."""
        if rect.isEmpty():
            return
        viewport = self.viewport().rect()
        if viewport.isEmpty() or self.scale_factor <= 0:
            return
        seen = self.mapToScene(viewport).boundingRect()
        if seen.contains(rect):
            return
        room = QRectF(viewport).adjusted(FOLLOW_MARGIN_PX, FOLLOW_MARGIN_PX,
                                         -FOLLOW_MARGIN_PX, -FOLLOW_MARGIN_PX)
        needed = min(room.width() / rect.width() if rect.width() else self.scale_factor,
                     room.height() / rect.height() if rect.height() else self.scale_factor)
        if needed < self.scale_factor:
            self._set_scale(max(needed, self.fit_scale() * MIN_ZOOM))
            seen = self.mapToScene(viewport).boundingRect()
        margin = FOLLOW_MARGIN_PX / self.scale_factor
        wanted = rect.adjusted(-margin, -margin, margin, margin)
        centre = seen.center()
        for low, high, seen_low, seen_high, axis in (
                (wanted.left(), wanted.right(), seen.left(), seen.right(), "x"),
                (wanted.top(), wanted.bottom(), seen.top(), seen.bottom(), "y")):
            if high - low >= seen_high - seen_low:
                shift = (low + high) / 2 - (seen_low + seen_high) / 2
            elif low < seen_low:
                shift = low - seen_low
            elif high > seen_high:
                shift = high - seen_high
            else:
                shift = 0.0
            if axis == "x":
                centre.setX(centre.x() + shift)
            else:
                centre.setY(centre.y() + shift)
        self.centerOn(centre)
        self._fitted = False

    def _set_scale(self, scale: float) -> None:
        self.setTransform(QTransform.fromScale(scale, -scale))
        self.battlefield.set_pixels_per_unit(scale)

    # --- export and tools -----------------------------------------------------------------

    def export_png(self, path: str, pixels_per_unit: float = 20.0) -> bool:
        """Save the whole table, `pixels_per_unit` pixels per inch (or cm), up the table up."""
        return save_picture(self.table_picture(pixels_per_unit), path, "PNG")

    def table_picture(self, pixels_per_unit: float = 20.0) -> QImage:
        """The whole table, `pixels_per_unit` pixels per inch (or cm), up the table up.

        The picture is mostly seen shrunk to a page (a report, a forum post): its labels are
        drawn as large as they must be to read at PAGE_WIDTH_PX across, and placed for it."""
        table = self.battlefield.table
        width, height = round(table.width * pixels_per_unit), round(table.depth * pixels_per_unit)
        self.battlefield.set_label_scale(max(1.0, width / PAGE_WIDTH_PX))
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(FLOOR_COLOUR)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # Flip as the view does: scene y up, image y down.
        painter.setTransform(QTransform(pixels_per_unit, 0, 0, -pixels_per_unit, 0, height))
        source = QRectF(0, 0, table.width, table.depth)
        self.battlefield.set_pixels_per_unit(pixels_per_unit)
        self.battlefield.render(painter, source, source)
        painter.end()
        self.battlefield.set_label_scale(1.0)
        self.battlefield.set_pixels_per_unit(self.scale_factor)
        return image

    def set_tool(self, name: str) -> None:
        """Switch to the tool called `name` ("select", "turn", "wheel", "charge", "ruler",
        "terrain")."""
        if name not in TOOLS:
            raise ValueError(f"no battlefield tool '{name}' (there are {', '.join(TOOLS)})")
        self.tool.deactivate()
        self.tool = TOOLS[name](self)
        self.tool.activate()
        self.toolChanged.emit(name)

    # --- events ---------------------------------------------------------------------------

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        if self._fitted or not event.oldSize().isValid() or event.oldSize().isEmpty():
            self.fit_table()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if self._fitted or self.scale_factor == 1.0:
            self.fit_table()

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.zoom_by(ZOOM_STEP ** steps, event.position().toPoint())
            event.accept()
            return
        super().wheelEvent(event)
        self._fitted = False

    def viewportEvent(self, event: QEvent) -> bool:  # Qt override: pinch to zoom
        # A touchpad pinch (macOS, Wayland) arrives as native zoom steps: value is the change.
        if (isinstance(event, QNativeGestureEvent)
                and event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture):
            self.zoom_by(1 + event.value(), event.position().toPoint())
            return True
        # A touchscreen pinch arrives as a QPinchGesture: scaleFactor is this step's change.
        if isinstance(event, QGestureEvent):
            pinch = event.gesture(Qt.GestureType.PinchGesture)
            if isinstance(pinch, QPinchGesture):
                centre = self.viewport().mapFromGlobal(pinch.centerPoint().toPoint())
                self.zoom_by(pinch.scaleFactor(), centre)
                event.accept(pinch)
                return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        if event.button() == Qt.MouseButton.MiddleButton or (
                self._space and event.button() == Qt.MouseButton.LeftButton):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        self.setFocus()
        if self.battlefield.read_only and not self.tool.read_only_ok \
                and self.tool.name != "select":  # selecting is harmless; it moves nothing
            self.battlefield.message.emit(self.battlefield.read_only_message)
            event.accept()
            return
        if not self.tool.mouse_press(event):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # Qt override
        if self._pan_from is not None:
            position = event.position().toPoint()
            delta = position - self._pan_from
            self._pan_from = position
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            self._fitted = False
            event.accept()
            return
        if not self.tool.mouse_move(event):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # Qt override
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
            event.accept()
            return
        if not self.tool.mouse_release(event):
            super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # Qt override
        if not self.tool.mouse_double_click(event):
            super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        control = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        key = event.key()
        if control and key == Qt.Key.Key_0:
            self.fit_table()
        elif control and key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif control and key == Qt.Key.Key_Minus:
            self.zoom_out()
        elif key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
        elif not self.tool.key_press(event):
            super().keyPressEvent(event)
            return
        event.accept()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # Qt override
        if self.last_menu is not None:
            self.last_menu.deleteLater()
        self.last_menu = context_menu(self, self.mapToScene(event.pos()))
        self.last_menu.popup(event.globalPos())
        event.accept()

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:  # Qt override
        banner = self.battlefield.banner
        if not banner:
            return
        # In viewport pixels, across the top: not part of the table, never flipped or zoomed.
        painter.save()
        painter.resetTransform()
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        painter.setFont(font)
        box = QRectF(0, 0, self.viewport().width(), painter.fontMetrics().height() * 1.8)
        painter.fillRect(box, BANNER_COLOUR)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(self.banner_text_rect(box), Qt.AlignmentFlag.AlignCenter, banner)
        painter.restore()

    def banner_text_rect(self, box: QRectF) -> QRectF:
        """Where in the banner `box` its words go: the widest part not under a dialog
        (the resolution wizard stands beside the table's centre, over one side of it)."""
        window = self.window()
        dialog = next((child for child in window.findChildren(
            QDialog, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if child.isVisible()), None)
        if dialog is None:
            return box
        frame = dialog.frameGeometry()
        covered = QRectF(QPointF(self.viewport().mapFromGlobal(frame.topLeft())),
                         QSizeF(frame.size()))
        if not covered.intersects(box):
            return box
        left = QRectF(box.left(), box.top(), max(covered.left() - box.left(), 0.0),
                      box.height())
        right = QRectF(covered.right(), box.top(), max(box.right() - covered.right(), 0.0),
                       box.height())
        return max(left, right, key=QRectF.width)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            event.accept()
            return
        super().keyReleaseEvent(event)
