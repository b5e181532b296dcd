"""Window parts that change inside without relaying the whole window.

Qt passes a size change of anything in a dock or in the central widget up to the main
window's layout, which then lays out and repaints the whole window: a label's new text in
the Unit dock, the Army Book dock or above the roster (the points), or the Undo button's new
tool tip, repainted the roster, the Armies tree and every dock on each edit. Two ways stop
it: a scroll area lays out its contents itself (and a dock too small for them scrolls
instead of squeezing them); a widget of a fixed size passes nothing up.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QScrollArea, QWidget


def contained(contents: QWidget, name: str) -> QScrollArea:
    """`contents` in a frameless scroll area (`name`) that takes its size changes."""
    area = QScrollArea()
    area.setObjectName(name)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidgetResizable(True)
    area.setWidget(contents)
    return area


def settle_dock(dock: QDockWidget, contents: QWidget) -> None:
    dock.setWidget(contained(contents, f"{dock.objectName()}Area"))


def hold_size(label: QLabel, widest: str) -> None:
    """`label` fixed at the size of its `widest` text, right-aligned: Qt passes no size
    change up from a widget whose size is fixed, so a new text repaints the label alone."""
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    metrics = label.fontMetrics()
    label.setFixedSize(metrics.horizontalAdvance(widest) + 2 * label.margin() + 4,
                       max(label.sizeHint().height(), metrics.height()))
