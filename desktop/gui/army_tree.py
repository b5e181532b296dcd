"""The Armies dock: rulesets → armies → units, a thin adapter over the Workspace.

Three levels, told apart by the index's internal id: 0 for a ruleset row, the ruleset's
number (1..) for an army row, UNIT_BASE + the army's key for a unit row. Ids stay
non-negative: PySide6 takes a negative int for an object pointer. Units are dragged to
reorder them, or onto another army of their ruleset to move them there (copy them with
Ctrl); a drop pushes one undo command and returns False so the view never removes rows
itself — the model follows the workspace's signal like for every other edit.

An army with warnings (over its points limit, a composition warning: the engine's
`army_problems`) is marked with the army-warning icon, and its tooltip lists them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QByteArray,
    QEvent,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QDropEvent, QIcon, QUndoStack
from PySide6.QtWidgets import QAbstractItemView

from desktop.engine.model import Army, Unit
from desktop.engine.roster import Severity, join_refusal, move_refusal
from desktop.engine.rulesets import RULESETS
from desktop.gui.army_actions import transfer_units
from desktop.gui.workspace import Workspace

UNIT_MIME = "application/x-rout-units"
ARMY_ID_ROLE = Qt.ItemDataRole.UserRole
UNIT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
WARNINGS_ROLE = Qt.ItemDataRole.UserRole + 2  # an army row's warning messages
RULESET_ORDER = tuple(RULESETS)
UNIT_BASE = 1000
Index = QModelIndex | QPersistentModelIndex


def points_text(army: Army) -> str:
    return f"{army.points} / {army.points_limit}" if army.points_limit else str(army.points)


class ArmyTreeModel(QAbstractItemModel):
    unitsDropped = Signal(str, list)  # army id, the ids the dropped units have there

    def __init__(self, workspace: Workspace, undo_stack: QUndoStack,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.undo_stack = undo_stack
        self._keys: dict[str, int] = {}
        self._ids: dict[int, str] = {}
        self._rows: dict[str, list[str]] = {}  # ruleset → army ids in display order
        # army id → the unit ids on screen; differs from the workspace only inside a change.
        self._units: dict[str, list[str]] = {}
        self._maps: dict[str, tuple[Army, dict[str, Unit]]] = {}
        self._warnings: dict[str, tuple[Army, list[str]]] = {}
        self._rebuild()
        workspace.reset.connect(self._on_reset)
        workspace.army_added.connect(self._on_added)
        workspace.army_changed.connect(self._on_changed)
        workspace.army_removed.connect(self._on_removed)

    # Bookkeeping

    def _key(self, army_id: str) -> int:
        if army_id not in self._keys:
            key = len(self._keys) + 1
            self._keys[army_id] = key
            self._ids[key] = army_id
        return self._keys[army_id]

    def _ordered(self, ruleset: str) -> list[str]:
        armies = [a for a in self.workspace.armies() if a.ruleset == ruleset]
        armies.sort(key=lambda a: (a.name.casefold(), a.id))
        return [a.id for a in armies]

    def _rebuild(self) -> None:
        self._rows = {ruleset: self._ordered(ruleset) for ruleset in RULESET_ORDER}
        self._units = {army.id: [unit.id for unit in army.units]
                       for army in self.workspace.armies()}
        for ids in self._rows.values():
            for army_id in ids:
                self._key(army_id)

    def army_index(self, army_id: str) -> QModelIndex:
        army = self.workspace.army(army_id)
        if army is None or army_id not in self._rows.get(army.ruleset, []):
            return QModelIndex()
        group = RULESET_ORDER.index(army.ruleset)
        return self.createIndex(self._rows[army.ruleset].index(army_id), 0, group + 1)

    def unit_index(self, army_id: str, unit_id: str) -> QModelIndex:
        shown = self._units.get(army_id, [])
        if unit_id not in shown:
            return QModelIndex()
        return self.createIndex(shown.index(unit_id), 0, UNIT_BASE + self._key(army_id))

    def _unit_map(self, army: Army) -> dict[str, Unit]:
        """The army's units by id, kept while the army (an immutable value) stays the same."""
        cached = self._maps.get(army.id)
        if cached is None or cached[0] is not army:
            cached = (army, {unit.id: unit for unit in army.units})
            self._maps[army.id] = cached
        return cached[1]

    def warnings(self, army: Army) -> list[str]:
        """The army's warnings (not its notes), kept while the army stays the same value."""
        cached = self._warnings.get(army.id)
        if cached is None or cached[0] is not army:
            found = [problem.message for problem in self.workspace.problems(army)
                     if problem.severity == Severity.WARNING]
            cached = self._warnings[army.id] = (army, found)
        return cached[1]

    # Which row is what: ruleset rows carry 0, army rows the ruleset number (1..),
    # unit rows UNIT_BASE plus their army's key.

    def _army_of(self, index: Index) -> Army | None:
        army_id = self._shown_army_id(index)
        return self.workspace.army(army_id) if army_id else None

    def _shown_army_id(self, index: Index) -> str:
        """The army an army or unit row belongs to, from what is on screen.

        Structure (parent, rowCount, index) must come from this bookkeeping, never from the
        workspace: inside a change the workspace is already ahead, and Qt walks persistent
        indexes between begin… and end… to decide which ones a removal invalidates.
        """
        if not index.isValid():
            return ""
        tag = index.internalId()
        if tag >= UNIT_BASE:
            return self._ids.get(tag - UNIT_BASE, "")
        if tag > 0:
            ids = self._rows[RULESET_ORDER[tag - 1]]
            return ids[index.row()] if index.row() < len(ids) else ""
        return ""

    def _shown_army_index(self, army_id: str) -> QModelIndex:
        for group, ruleset in enumerate(RULESET_ORDER):
            if army_id in self._rows[ruleset]:
                return self.createIndex(self._rows[ruleset].index(army_id), 0, group + 1)
        return QModelIndex()

    def _level(self, index: Index) -> str:
        if not index.isValid():
            return "root"
        tag = index.internalId()
        return "ruleset" if tag == 0 else "unit" if tag >= UNIT_BASE else "army"

    # QAbstractItemModel

    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008  Qt override
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        level = self._level(parent)
        if level == "root":
            return self.createIndex(row, column, 0)
        if level == "ruleset":
            return self.createIndex(row, column, parent.row() + 1)
        if level == "army":
            return self.createIndex(row, column,
                                    UNIT_BASE + self._key(self._shown_army_id(parent)))
        return QModelIndex()

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008  Qt override
        level = self._level(index)
        if level == "army":
            return self.createIndex(index.internalId() - 1, 0, 0)
        if level == "unit":
            return self._shown_army_index(self._shown_army_id(index))
        return QModelIndex()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008  Qt override
        if parent.isValid() and parent.column() != 0:
            return 0
        level = self._level(parent)
        if level == "root":
            return len(RULESET_ORDER)
        if level == "ruleset":
            return len(self._rows[RULESET_ORDER[parent.row()]])
        if level == "army":
            return len(self._units.get(self._shown_army_id(parent), []))
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008  Qt override
        return 2

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Name", "Points")[section] if 0 <= section < 2 else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if not index.isValid():
            return None
        level = self._level(index)
        column = index.column()
        if level == "ruleset":
            ruleset = RULESETS[RULESET_ORDER[index.row()]]
            if role == Qt.ItemDataRole.DisplayRole:
                return ruleset.name if column == 0 else None
            if role == Qt.ItemDataRole.DecorationRole and column == 0:
                return QIcon.fromTheme("ruleset")
            return None
        army = self._army_of(index)
        if army is None:
            return None
        if level == "army":
            if role == Qt.ItemDataRole.DisplayRole:
                return army.name if column == 0 else points_text(army)
            if role == Qt.ItemDataRole.ToolTipRole:
                summary = (f"{army.name} — {army.player}, {len(army.units)} units, "
                           f"{army.models} models, {points_text(army)} points")
                return "\n".join([summary, *army.notes[:6],
                                  *(f"⚠ {text}" for text in self.warnings(army))])
            if role == Qt.ItemDataRole.DecorationRole and column == 0:
                return QIcon.fromTheme("army-warning" if self.warnings(army) else "army")
            if role == WARNINGS_ROLE:
                return self.warnings(army)
            if role == Qt.ItemDataRole.ForegroundRole and column == 1 and (
                    army.points_limit and army.points > army.points_limit):
                return Qt.GlobalColor.darkRed
            if role == ARMY_ID_ROLE:
                return army.id
            return None
        shown = self._units.get(army.id, [])
        unit = self._unit_map(army).get(shown[index.row()]) if index.row() < len(shown) else None
        if unit is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return unit.name if column == 0 else str(unit.points)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (f"{unit.name} ({unit.profile.name}): {unit.models} models, "
                    f"{unit.profile.troop_type.value.replace('_', ' ')}, {unit.points} points")
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            return QIcon.fromTheme(f"troop-{unit.profile.troop_type.value}")
        if role == ARMY_ID_ROLE:
            return army.id
        if role == UNIT_ID_ROLE:
            return unit.id
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:  # Qt override
        base = super().flags(index)
        level = self._level(index)
        if self.workspace.read_only:
            return base  # no reordering by drag and drop
        if level == "unit":
            return base | Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled
        if level == "army":
            return base | Qt.ItemFlag.ItemIsDropEnabled
        return base

    # Drag and drop: units reordered in their army, moved or (Ctrl) copied to another army

    def supportedDropActions(self) -> Qt.DropAction:  # Qt override
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def supportedDragActions(self) -> Qt.DropAction:  # Qt override
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def mimeTypes(self) -> list[str]:  # Qt override
        return [UNIT_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:  # Qt override
        units: list[str] = []
        army_id = ""
        for index in indexes:
            if self._level(index) != "unit" or index.column() != 0:
                continue
            army = self._army_of(index)
            if army is None:
                continue
            army_id = army.id
            units.append(self._units[army.id][index.row()])
        mime = QMimeData()
        mime.setData(UNIT_MIME, QByteArray(json.dumps({"army": army_id,
                                                       "units": units}).encode()))
        return mime

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                        parent: Index) -> bool:  # Qt override
        return self._drop_target(data, row, parent,
                                 action == Qt.DropAction.CopyAction) is not None

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                     parent: Index) -> bool:  # Qt override
        target = self._drop_target(data, row, parent, action == Qt.DropAction.CopyAction)
        if target is None or action not in (Qt.DropAction.MoveAction,
                                            Qt.DropAction.CopyAction):
            return False
        source, army, moving, position = target
        arrived = transfer_units(self.workspace, self.undo_stack, source, moving, army,
                                 copy=action == Qt.DropAction.CopyAction, position=position)
        if arrived:
            self.unitsDropped.emit(army.id, arrived)
        # False: the view must not remove the dragged rows; the workspace signal moves them.
        return False

    def drop_refusal(self, data: QMimeData, index: Index, copy: bool = False) -> str:
        """Why units being dragged cannot land on `index` ("" when they can, or when the
        drag is not units of this window's armies), for the window to say."""
        payload = self._payload(data)
        source = self.workspace.army(str(payload.get("army", ""))) if payload else None
        if source is None:
            return ""
        if self._level(index) in ("root", "ruleset"):
            return "Drop units onto an army, or onto a unit to put them in front of it"
        army = self._army_of(index)
        if army is None:
            return ""
        moving = [str(unit_id) for unit_id in payload.get("units", [])] if payload else []
        return join_refusal(source, army) or (
            "" if copy else move_refusal(source, army, moving))

    def _payload(self, data: QMimeData) -> dict[str, Any] | None:
        if not data.hasFormat(UNIT_MIME):
            return None
        try:
            payload = json.loads(bytes(data.data(UNIT_MIME).data()).decode())
        except ValueError:
            return None
        return payload if isinstance(payload, dict) else None

    def _drop_target(self, data: QMimeData, row: int, parent: Index, copy: bool = False
                     ) -> tuple[Army, Army, list[str], int | None] | None:
        """(source army, target army, unit ids, position) of a drop that may happen."""
        payload = self._payload(data)
        if payload is None:
            return None
        level = self._level(parent)
        if level == "unit":  # dropped onto a unit: in front of it
            row, parent = parent.row(), self.parent(parent)
            level = "army"
        if level != "army":
            return None
        army = self._army_of(parent)
        source = self.workspace.army(str(payload.get("army", "")))
        moving = [str(unit_id) for unit_id in payload.get("units", [])]
        if army is None or source is None or not moving or join_refusal(source, army) or (
                not copy and move_refusal(source, army, moving)):
            return None
        return source, army, moving, None if row < 0 else min(row, len(army.units))

    # Following the workspace

    def _on_reset(self) -> None:
        self.beginResetModel()
        self._warnings.clear()  # the libraries may have changed with the armies
        self._rebuild()
        self.endResetModel()

    def _group_index(self, ruleset: str) -> QModelIndex:
        return self.index(RULESET_ORDER.index(ruleset), 0)

    def _on_added(self, army_id: str) -> None:
        army = self.workspace.army(army_id)
        assert army is not None
        order = self._ordered(army.ruleset)
        row = order.index(army_id)
        self._key(army_id)
        self.beginInsertRows(self._group_index(army.ruleset), row, row)
        self._rows[army.ruleset] = order
        self._units[army_id] = [unit.id for unit in army.units]
        self.endInsertRows()

    def _on_removed(self, army_id: str, removed: Army) -> None:
        rows = self._rows[removed.ruleset]
        if army_id not in rows:
            return
        row = rows.index(army_id)
        self.beginRemoveRows(self._group_index(removed.ruleset), row, row)
        rows.pop(row)
        self._units.pop(army_id, None)
        self._warnings.pop(army_id, None)
        self.endRemoveRows()

    def _on_changed(self, army_id: str, before: Army) -> None:
        army = self.workspace.army(army_id)
        assert army is not None
        rows = self._rows[army.ruleset]
        old_row = rows.index(army_id)
        order = self._ordered(army.ruleset)
        new_row = order.index(army_id)
        group = self._group_index(army.ruleset)
        if new_row != old_row:  # renamed past a neighbour
            destination = new_row + 1 if new_row > old_row else new_row
            self.beginMoveRows(group, old_row, old_row, group, destination)
            self._rows[army.ruleset] = order
            self.endMoveRows()
        parent = self.index(new_row, 0, group)
        self.dataChanged.emit(parent, self.index(new_row, 1, group))
        old_ids = self._units.get(army_id, [])
        new_ids = [u.id for u in army.units]
        if old_ids == new_ids:
            # Only the unit rows whose unit changed are repainted.
            for row, (old, new) in enumerate(zip(before.units, army.units, strict=False)):
                if old is not new:
                    self.dataChanged.emit(self.index(row, 0, parent), self.index(row, 1, parent))
            return
        # Units added, removed or reordered: replace the army's unit rows.
        if old_ids:
            self.beginRemoveRows(parent, 0, len(old_ids) - 1)
            self._units[army_id] = []
            self.endRemoveRows()
        if new_ids:
            self.beginInsertRows(parent, 0, len(new_ids) - 1)
            self._units[army_id] = new_ids
            self.endInsertRows()


class DropHints(QObject):
    """Says why a drag of units over the Armies tree cannot land where it is (another
    ruleset's army): the view shows only a "no" cursor. `hint` is "" once it can land."""

    hint = Signal(str)

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        self._shown = ""
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop) and \
                isinstance(event, QDropEvent):
            model = self.view.model()
            if isinstance(model, ArmyTreeModel):
                index = self.view.indexAt(event.position().toPoint())
                copy = event.dropAction() == Qt.DropAction.CopyAction
                self._say(model.drop_refusal(event.mimeData(), index, copy))
        elif event.type() == QEvent.Type.DragLeave:
            self._say("")
        return False  # the view still handles the event

    def _say(self, text: str) -> None:
        if text != self._shown:
            self._shown = text
            self.hint.emit(text)
