"""Editors for roster cells, chosen by the cell's EDIT_KIND_ROLE and bounded by its
EDIT_RANGE_ROLE, so a player can only type what the ruleset allows."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.gui.roster_table import EDIT_KIND_ROLE, EDIT_RANGE_ROLE

Index = QModelIndex | QPersistentModelIndex
NUMBER_KINDS = ("stat", "models", "formation", "points")


class UpgradeEditor(QWidget):
    """One check box per upgrade the ruleset knows."""

    def __init__(self, choices: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAutoFillBackground(True)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        self.boxes: dict[str, QCheckBox] = {}
        for name, label in choices:
            box = QCheckBox(label, self)
            box.setObjectName(f"upgrade_{name}")
            layout.addWidget(box)
            self.boxes[name] = box

    def chosen(self) -> list[str]:
        return sorted(name for name, box in self.boxes.items() if box.isChecked())

    def set_chosen(self, names: list[str]) -> None:
        for name, box in self.boxes.items():
            box.setChecked(name in names)


class RosterDelegate(QStyledItemDelegate):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: Index) -> QWidget:  # Qt override
        kind = index.data(EDIT_KIND_ROLE)
        bounds = index.data(EDIT_RANGE_ROLE)
        if kind in NUMBER_KINDS and bounds:
            spin = QSpinBox(parent)
            spin.setRange(int(bounds[0]), int(bounds[1]))
            spin.setAlignment(Qt.AlignmentFlag.AlignCenter)
            if kind == "formation":
                spin.setSuffix(" wide")
            return spin
        if kind == "troop_type" and bounds:
            combo = QComboBox(parent)
            for value in bounds:
                combo.addItem(str(value).replace("_", " "), value)
            return combo
        if kind == "upgrades":
            return UpgradeEditor(list(bounds or []), parent)
        return super().createEditor(parent, option, index)

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
        if isinstance(editor, QSpinBox):
            editor.interpretText()
            model.setData(index, editor.value(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, UpgradeEditor):
            model.setData(index, editor.chosen(), Qt.ItemDataRole.EditRole)
        else:
            super().setModelData(editor, model, index)
