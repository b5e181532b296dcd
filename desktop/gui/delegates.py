"""Editors for roster cells, chosen by the cell's EDIT_KIND_ROLE and bounded by its
EDIT_RANGE_ROLE, so a player can only type what the ruleset allows.

Roster columns are narrow (a stat is one or two digits), so an editor may be wider or taller
than its cell: it opens over its neighbours, never clipped to the cell. A number past its
limit is refused when the editor commits: the value stays, and a message says what the
limit is (`limitHit`). The editors are desktop.gui.fields'.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from desktop.gui.fields import ComboBox, SpinBox
from desktop.gui.roster_table import EDIT_KIND_ROLE, EDIT_RANGE_ROLE, RosterFilter

Index = QModelIndex | QPersistentModelIndex
NUMBER_KINDS = ("stat", "models", "formation", "points")


class UpgradeEditor(QFrame):
    """One labelled check box per upgrade the ruleset knows, stacked: it drops down over the
    rows below the cell, so every label reads in full."""

    def __init__(self, choices: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        self.boxes: dict[str, QCheckBox] = {}
        for name, label in choices:
            box = QCheckBox(label, self)
            box.setObjectName(f"upgrade_{name}")
            layout.addWidget(box)
            self.boxes[name] = box
        if self.boxes:
            self.setFocusProxy(next(iter(self.boxes.values())))

    def chosen(self) -> list[str]:
        return sorted(name for name, box in self.boxes.items() if box.isChecked())

    def set_chosen(self, names: list[str]) -> None:
        for name, box in self.boxes.items():
            box.setChecked(name in names)


class RosterDelegate(QStyledItemDelegate):
    limitHit = Signal(str)  # a number refused, and why (for the status bar)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: Index) -> None:  # Qt override
        super().paint(painter, option, index)
        model = index.model()
        if isinstance(model, RosterFilter) and model.starts_group(index.row()):
            # a line above the first unit of each slot
            painter.save()
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Text), 1))
            painter.drawLine(option.rect.topLeft(), option.rect.topRight())
            painter.restore()

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:  # Qt override
        kind = index.data(EDIT_KIND_ROLE)
        bounds = index.data(EDIT_RANGE_ROLE)
        if kind in NUMBER_KINDS and bounds:
            what = str(index.model().headerData(index.column(), Qt.Orientation.Horizontal))
            spin = SpinBox(parent, what)
            spin.setRange(int(bounds[0]), int(bounds[1]))
            spin.setAlignment(Qt.AlignmentFlag.AlignCenter)
            if kind == "formation":
                spin.what = "Files in the front rank"
                spin.setSuffix(" wide")
            spin.refused.connect(self.limitHit)
            return spin
        if kind == "troop_type" and bounds:
            combo = ComboBox(parent)
            for value in bounds:
                combo.addItem(str(value).replace("_", " "), value)
            return combo
        if kind == "upgrades":
            return UpgradeEditor(list(bounds or []), parent)
        return super().createEditor(parent, option, index)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: Index) -> None:  # Qt override
        """The cell's rectangle, grown to the editor's own size where the cell is smaller
        (centred on a narrow stat cell, dropping down for the upgrade boxes), kept inside
        the view."""
        cell = QRect(option.rect)
        wanted = editor.sizeHint()
        width = max(cell.width(), wanted.width())
        height = max(cell.height(), wanted.height()) if isinstance(editor, UpgradeEditor) \
            else cell.height()
        left = cell.center().x() - width // 2 if isinstance(editor, QSpinBox) else cell.left()
        rect = QRect(left, cell.top(), width, height)
        parent = editor.parentWidget()
        area = parent.rect() if parent is not None else rect
        if rect.right() > area.right():
            rect.moveRight(area.right())
        if rect.left() < area.left():
            rect.moveLeft(area.left())
        if rect.bottom() > area.bottom():
            rect.moveBottom(area.bottom())
        if rect.top() < area.top():
            rect.moveTop(area.top())
        editor.setGeometry(rect)

    def setEditorData(self, editor: QWidget, index: Index) -> None:  # Qt override
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value or 0))
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(editor.findData(value), 0))
        elif isinstance(editor, UpgradeEditor):
            editor.set_chosen(list(value or []))
        else:
            super().setEditorData(editor, index)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: Index) -> None:  # Qt override
        if isinstance(editor, SpinBox):
            # Enter was pressed or the editor lost focus: a number past the limits is
            # refused here, and nothing is saved.
            if editor.settle():
                model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, UpgradeEditor):
            model.setData(index, editor.chosen(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)
