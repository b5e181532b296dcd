"""The main window: the Designer form from ui/mainwindow.ui plus an empty battlefield.

The form (docks, menus, status bar) is compiled into `desktop.gui.forms.ui_mainwindow`;
this class only wires it up. The battlefield is a QGraphicsScene in table units (inches),
with y growing up the table: the view flips the y axis, so scene code never has to.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QByteArray, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import (
    QBrush,
    QCloseEvent,
    QColor,
    QIcon,
    QPainter,
    QPainterPath,
    QPen,
    QResizeEvent,
    QShowEvent,
    QTransform,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFrame,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from desktop import __version__
from desktop.gui.forms.ui_mainwindow import Ui_MainWindow
from desktop.gui.resources import resource_path

TABLE_WIDTH: Final = 72.0
"""Width of the default table, in inches (x runs along the long edge)."""
TABLE_DEPTH: Final = 48.0
"""Depth of the default table, in inches (y runs up the table, away from the first player)."""
GRID_STEP: Final = 6.0
"""Spacing of the guide grid, in inches."""
TABLE_MARGIN: Final = 2.0
"""Space around the table that the view keeps visible, in inches."""

TABLE_COLOUR: Final = QColor("#6f8f4e")
TABLE_EDGE_COLOUR: Final = QColor("#3d5229")
GRID_COLOUR: Final = QColor(255, 255, 255, 46)
FLOOR_COLOUR: Final = QColor("#34383d")

LAYOUT_VERSION: Final = 1
"""Bump when the docks change so that an old saved layout is ignored, not half-applied."""
GEOMETRY_KEY: Final = "mainWindow/geometry"
STATE_KEY: Final = "mainWindow/state"

ABOUT_TEXT: Final = (
    "<p><b>Rout {version}</b></p>"
    "<p>Rout is an army and battle manager for rank-and-flank miniatures games that walks "
    "you through Break tests, fleeing and pursuit with the exact odds of every roll.</p>"
)

NO_BATTLE_TEXT: Final = "No battle loaded"


def table_rect() -> QRectF:
    """The playing surface in scene units: (0, 0) is the first player's left corner."""
    return QRectF(0.0, 0.0, TABLE_WIDTH, TABLE_DEPTH)


def grid_path(rect: QRectF, step: float) -> QPainterPath:
    """Every interior grid line of `rect` in one path, so the grid is one cheap item."""
    path = QPainterPath()
    x = rect.left() + step
    while x < rect.right() - step / 2:
        path.moveTo(QPointF(x, rect.top()))
        path.lineTo(QPointF(x, rect.bottom()))
        x += step
    y = rect.top() + step
    while y < rect.bottom() - step / 2:
        path.moveTo(QPointF(rect.left(), y))
        path.lineTo(QPointF(rect.right(), y))
        y += step
    return path


def _cosmetic_pen(colour: QColor, width: float) -> QPen:
    """A pen whose width is in screen pixels, whatever the zoom."""
    pen = QPen(colour, width)
    pen.setCosmetic(True)
    return pen


class BattlefieldScene(QGraphicsScene):
    """The table and, in later issues, terrain and units; all coordinates in inches."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        table = table_rect()
        self.setSceneRect(table.adjusted(-TABLE_MARGIN, -TABLE_MARGIN,
                                         TABLE_MARGIN, TABLE_MARGIN))
        self.table_item = QGraphicsRectItem(table)
        self.table_item.setBrush(QBrush(TABLE_COLOUR))
        self.table_item.setPen(_cosmetic_pen(TABLE_EDGE_COLOUR, 2.0))
        self.table_item.setZValue(-10)
        self.addItem(self.table_item)
        self.grid_item = QGraphicsPathItem(grid_path(table, GRID_STEP))
        self.grid_item.setPen(_cosmetic_pen(GRID_COLOUR, 1.0))
        self.grid_item.setZValue(-9)
        self.addItem(self.grid_item)


class BattlefieldView(QGraphicsView):
    """Shows the whole scene, y axis flipped so that y grows up the screen."""

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setObjectName("battlefieldView")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setBackgroundBrush(QBrush(FLOOR_COLOUR))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setTransform(QTransform.fromScale(1.0, -1.0))

    def fit_scene(self) -> None:
        """Scale the scene rect to fill the viewport, keeping its proportions and the flip."""
        rect = self.sceneRect()
        viewport = self.viewport().rect()
        if rect.isEmpty() or viewport.isEmpty():
            return
        scale = min(viewport.width() / rect.width(), viewport.height() / rect.height())
        self.setTransform(QTransform.fromScale(scale, -scale))
        self.centerOn(rect.center())

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self.fit_scene()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        self.fit_scene()


class MainWindow(QMainWindow):
    """Rout's main window. With `settings`, the dock layout and geometry are remembered."""

    def __init__(self, parent: QWidget | None = None, *,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self.ui = Ui_MainWindow()
        self.ui.setupUi(self)
        self.setWindowIcon(QIcon(str(resource_path("icons", "rout.svg"))))

        self.battlefield_scene = BattlefieldScene(self)
        self.battlefield_view = BattlefieldView(self.battlefield_scene, self.ui.centralwidget)
        self.ui.centralLayout.addWidget(self.battlefield_view)

        # A permanent label rather than showMessage(): menu status tips would erase a message.
        self.battle_status = QLabel(NO_BATTLE_TEXT, self.ui.statusbar)
        self.battle_status.setObjectName("battleStatusLabel")
        self.ui.statusbar.addWidget(self.battle_status, 1)

        self.ui.actionQuit.triggered.connect(self.close)
        self.ui.actionAbout.triggered.connect(self.show_about)
        self._default_layout()
        if settings is not None:
            self.restore_layout(settings)

    @property
    def docks(self) -> tuple[QDockWidget, QDockWidget, QDockWidget]:
        """The army tree, unit inspector and battle log docks."""
        return self.ui.armyDock, self.ui.inspectorDock, self.ui.logDock

    def _default_layout(self) -> None:
        # Side docks run the full height; the battle log sits under the battlefield only.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.resizeDocks([self.ui.armyDock, self.ui.inspectorDock], [260, 280],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.ui.logDock], [170], Qt.Orientation.Vertical)

    def restore_layout(self, settings: QSettings) -> None:
        """Put back the geometry and dock layout saved by the last session, if any."""
        geometry = settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = settings.value(STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self, settings: QSettings) -> None:
        """Remember window geometry and dock layout (window state only, nothing else)."""
        settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        settings.setValue(STATE_KEY, self.saveState(LAYOUT_VERSION))

    def show_about(self) -> None:
        QMessageBox.about(self, "About Rout", ABOUT_TEXT.format(version=__version__))

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        if self._settings is not None:
            self.save_layout(self._settings)
            self._settings.sync()
        super().closeEvent(event)
