"""The roster table: one row per unit of the current army, one column per ruleset statistic.

`setData` never changes the army itself: it asks the engine for the edited unit (prices
come from the library), pushes one undo command, and the rows update from the workspace's
signal. Cells the engine warns about get a tint and the warning as their tool tip.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QUndoStack

from desktop.engine.composition import CATALOGUE_FIELD
from desktop.engine.model import Army, TroopType, Unit
from desktop.engine.roster import (
    RosterProblem,
    Severity,
    repriced,
    upgrade_labels,
    with_listed_price,
    with_models,
    with_points,
    with_stat,
)
from desktop.engine.rulesets import Ruleset, StatSpec, get_ruleset, slot_key
from desktop.gui.commands import ReplaceArmy, push_edit
from desktop.gui.workspace import Workspace

Index = QModelIndex | QPersistentModelIndex
UNIT_ID_ROLE = Qt.ItemDataRole.UserRole + 1
# What an editor needs to know about a cell (delegates read it, never the model's internals).
EDIT_KIND_ROLE = Qt.ItemDataRole.UserRole + 2
EDIT_RANGE_ROLE = Qt.ItemDataRole.UserRole + 3
_Role = Qt.ItemDataRole
# The roles data() answers; a delegate also asks each cell for others (its foreground, a
# check box) several times a paint, and those return at once.
ANSWERED_ROLES = frozenset(int(role) for role in (
    _Role.DisplayRole, _Role.EditRole, _Role.AccessibleTextRole, _Role.ToolTipRole,
    _Role.BackgroundRole, _Role.FontRole, _Role.DecorationRole, _Role.TextAlignmentRole,
    UNIT_ID_ROLE, EDIT_KIND_ROLE, EDIT_RANGE_ROLE))
# True on the first row of a slot when the roster is grouped by slot (RosterFilter).
WARNING_TINT = QColor(255, 214, 170)
NOTE_TINT = QColor(255, 240, 200)


@dataclass(frozen=True)
class Column:
    key: str  # "name", "stat:Ld", ...
    title: str
    kind: str  # text, stat, models, formation, troop_type, upgrades, points, readonly
    tip: str = ""
    stat: StatSpec | None = None


def columns_for(ruleset: Ruleset) -> list[Column]:
    fixed_front = [
        Column("name", "Unit", "text", "The unit's name in this army"),
        Column("profile", "Profile", "readonly", "The profile the unit's models use"),
        Column("troop_type", "Type", "troop_type", "Troop type: decides flee dice and more"),
        Column("models", "Models", "models", "How many models the unit has"),
        Column("formation", "Formation", "formation", "Files (models in the front rank) × "
               "ranks"),
    ]
    stats = [Column(f"stat:{spec.name}", spec.name, "stat",
                    f"{spec.label}, {spec.minimum} to {spec.maximum}", spec)
             for spec in ruleset.stats]
    fixed_back = [
        Column("upgrades", "Upgrades", "upgrades", "Standard, musician, champion and the like"),
        Column("points", "Points", "points", "The unit's points: they follow its size at the "
               "library's or the imported roster's price; points typed by hand (in italics) "
               "stay until Edit ▸ Use the Library Price"),
        Column("slot", "Slot", "text", "The army-list category"),
    ]
    return fixed_front + stats + fixed_back


def formation_text(unit: Unit) -> str:
    return f"{unit.files} × {unit.ranks}"


class RosterTableModel(QAbstractTableModel):
    def __init__(self, workspace: Workspace, undo_stack: QUndoStack,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.undo_stack = undo_stack
        self.army_id = ""
        self._columns: list[Column] = []
        self._shown: list[str] = []  # unit ids on screen
        self._units: dict[str, Unit] = {}  # by id: data() is called thousands of times
        self._problems: dict[tuple[str, str], RosterProblem] = {}
        # A valid cell's flags, plain and editable: worked out once, as flags() is asked for
        # every cell at every paint.
        self._cell_flags: tuple[Qt.ItemFlag, Qt.ItemFlag] | None = None
        workspace.reset.connect(self._on_reset)
        workspace.army_changed.connect(self._on_changed)
        workspace.army_removed.connect(self._on_removed)

    # The army shown

    @property
    def army(self) -> Army | None:
        return self.workspace.army(self.army_id) if self.army_id else None

    def set_army(self, army_id: str) -> None:
        if army_id == self.army_id:
            return
        self.beginResetModel()
        self.army_id = army_id
        self._take(self.army)
        self.endResetModel()

    def _take(self, army: Army | None) -> None:
        if army is None:
            self.army_id = ""
            self._columns, self._shown, self._problems, self._units = [], [], {}, {}
            return
        self._columns = columns_for(get_ruleset(army.ruleset))
        self._shown = [unit.id for unit in army.units]
        self._units = {unit.id: unit for unit in army.units}
        self._problems = {}
        for problem in self.workspace.problems(army):
            if problem.unit_id:
                key = (problem.unit_id, self._column_key(problem.field))
                self._problems.setdefault(key, problem)

    @staticmethod
    def _column_key(field: str) -> str:
        if field == CATALOGUE_FIELD:  # a limit of the army book: the unit's name says it
            return "name"
        return field if field in ("name", "formation", "upgrades", "points", "models") \
            else f"stat:{field}"

    def column(self, section: int) -> Column:
        return self._columns[section]

    def column_of(self, key: str) -> int:
        return next(i for i, column in enumerate(self._columns) if column.key == key)

    def unit_at(self, row: int) -> Unit | None:
        if not 0 <= row < len(self._shown):
            return None
        return self._units.get(self._shown[row])

    def row_of(self, unit_id: str) -> int:
        return self._shown.index(unit_id) if unit_id in self._units else -1

    # QAbstractTableModel

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008  Qt override
        return 0 if parent.isValid() else len(self._shown)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008  Qt override
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        column = self._columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return column.tip
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # Qt override
        if role not in ANSWERED_ROLES or not index.isValid():
            return None
        unit = self.unit_at(index.row())
        if unit is None or not 0 <= index.column() < len(self._columns):
            return None
        column = self._columns[index.column()]
        problem = self._problems.get((unit.id, column.key))
        if column.key == "troop_type" and role in (Qt.ItemDataRole.DisplayRole,
                                                   Qt.ItemDataRole.AccessibleTextRole):
            # The icon says it where columns are scarce; the tool tip and readers in words.
            return None if role == Qt.ItemDataRole.DisplayRole else \
                self._value(unit, column, False)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._value(unit, column, role == Qt.ItemDataRole.EditRole)
        if role == Qt.ItemDataRole.ToolTipRole:
            if problem and column.key == "points" and unit.points_typed:
                return f"{problem.message} (Edit ▸ Use the Library Price puts it back)"
            if problem:
                return problem.message
            if column.key == "troop_type":
                return f"{self._value(unit, column, False).capitalize()}\n{column.tip}"
            if column.key in ("name", "profile", "upgrades", "slot"):
                shown = self._value(unit, column, False)  # in full where the cell elides
                return f"{shown}\n{column.tip}" if shown else column.tip
            return column.tip
        if role == Qt.ItemDataRole.BackgroundRole and problem is not None:
            return QBrush(WARNING_TINT if problem.severity == Severity.WARNING else NOTE_TINT)
        if role == Qt.ItemDataRole.FontRole and column.key == "points" and unit.points_typed:
            font = QFont()  # typed by the player: kept when the size changes
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.DecorationRole and column.key == "troop_type":
            return QIcon.fromTheme(f"troop-{unit.profile.troop_type.value}")
        if role == Qt.ItemDataRole.TextAlignmentRole and column.kind in (
                "stat", "models", "points", "formation"):
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == UNIT_ID_ROLE:
            return unit.id
        if role == EDIT_KIND_ROLE:
            return column.kind
        if role == EDIT_RANGE_ROLE:
            return self._range(unit, column)
        return None

    def display_text(self, row: int, section: int) -> tuple[str, bool]:
        """What cell (`row`, `section`) shows as text, and whether in italic (a typed points
        figure): all that makes one cell of a column wider than another."""
        unit = self.unit_at(row)
        if unit is None or not 0 <= section < len(self._columns):
            return "", False
        column = self._columns[section]
        if column.key == "troop_type":
            return "", False  # shown as an icon
        value = self._value(unit, column, False)
        return ("" if value is None else str(value)), column.key == "points" and unit.points_typed

    def _value(self, unit: Unit, column: Column, editing: bool) -> Any:
        key = column.key
        if key == "name":
            return unit.name
        if key == "profile":
            return unit.profile.name
        if key == "troop_type":
            return unit.profile.troop_type.value if editing else \
                unit.profile.troop_type.value.replace("_", " ")
        if key == "models":
            return unit.models
        if key == "formation":
            return unit.files if editing else formation_text(unit)
        if column.stat is not None:
            return unit.profile.stats.get(column.stat.name)
        if key == "upgrades":
            if editing:
                return sorted(unit.upgrades)
            army = self.army
            return ", ".join(upgrade_labels(unit, get_ruleset(army.ruleset))) if army else ""
        if key == "points":
            return unit.points
        if key == "slot":
            return unit.slot
        return None

    def _range(self, unit: Unit, column: Column) -> Any:
        if column.stat is not None:
            return (column.stat.minimum, column.stat.maximum)
        if column.key == "models":
            return (1, 10_000)
        if column.key == "formation":
            return (1, unit.models)
        if column.key == "points":
            return (0, 1_000_000)
        if column.key == "troop_type":
            return [troop.value for troop in TroopType]
        if column.key == "upgrades":
            army = self.army
            ruleset = get_ruleset(army.ruleset) if army else None
            return [(spec.name, spec.label) for spec in ruleset.upgrades] if ruleset else []
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:  # Qt override
        if not index.isValid():
            return super().flags(index)
        if self._cell_flags is None:
            base = super().flags(index)
            self._cell_flags = (base, base | Qt.ItemFlag.ItemIsEditable)
        plain, editable = self._cell_flags
        column = index.column()
        if 0 <= column < len(self._columns) and self._columns[column].kind != "readonly" \
                and not self.workspace.read_only:
            return editable
        return plain

    def setData(self, index: Index, value: Any,
                role: int = Qt.ItemDataRole.EditRole) -> bool:  # Qt override
        army = self.army
        unit = self.unit_at(index.row())
        if role != Qt.ItemDataRole.EditRole or army is None or unit is None:
            return False
        column = self._columns[index.column()]
        books = self.workspace.book_edits
        if army.book is not None and books is not None and column.key != "formation":
            # A unit of an army book changes through its roster (the formation is its own).
            return books.edit_unit(army, unit, column.key, value)
        edited = self._edited(army, unit, column, value)
        if edited is None or edited == unit:
            return False
        units = tuple(edited if u.id == unit.id else u for u in army.units)
        return push_edit(self.undo_stack, ReplaceArmy(
            self.workspace, army, replace(army, units=units),
            f"Change {column.title} of {unit.name}"))

    def _edited(self, army: Army, unit: Unit, column: Column, value: Any) -> Unit | None:
        """The unit after the edit, or None for a value that makes no sense."""
        library = self.workspace.library(army.ruleset)
        key = column.key
        try:
            if key == "name":
                text = " ".join(str(value).split())[:200]
                return replace(unit, name=text) if text else None
            if key == "slot":
                return replace(unit, slot=" ".join(str(value).split())[:100])
            if key == "troop_type":
                return replace(unit, profile=replace(unit.profile,
                                                     troop_type=TroopType(str(value))))
            if key == "models":
                return with_models(unit, int(value), library)
            if key == "formation":
                return replace(unit, files=min(max(int(value), 1), unit.models))
            if key == "points":
                return with_points(unit, int(value), library)
            if key == "upgrades":
                chosen = frozenset(str(v) for v in value)
                return repriced(replace(unit, upgrades=chosen), library)
            if column.stat is not None:
                return with_stat(unit, get_ruleset(army.ruleset), column.stat.name, int(value))
        except (TypeError, ValueError):
            return None
        return None

    # "Use the library price"

    def listed_prices(self, unit_ids: list[str]) -> Army | None:
        """The army with these units' typed points given up for their listed price; None
        when that changes nothing (none typed, or nothing prices them)."""
        army = self.army
        if army is None:
            return None
        library = self.workspace.library(army.ruleset)
        wanted = set(unit_ids)
        units = tuple(with_listed_price(unit, library) if unit.id in wanted else unit
                      for unit in army.units)
        return None if units == army.units else replace(army, units=units)

    def use_listed_prices(self, unit_ids: list[str]) -> bool:
        """One undo step putting the listed price back on these units."""
        army, changed = self.army, self.listed_prices(unit_ids)
        if army is None or changed is None:
            return False
        names = ", ".join(u.name for u in army.units if u.id in set(unit_ids) and u.points_typed)
        return push_edit(self.undo_stack, ReplaceArmy(self.workspace, army, changed,
                                                      f"Use the listed price of {names}"))

    # Following the workspace

    def _on_reset(self) -> None:
        self.beginResetModel()
        self._take(self.army)
        self.endResetModel()

    def _on_removed(self, army_id: str, removed: Army) -> None:
        if army_id == self.army_id:
            self.beginResetModel()
            self._take(None)
            self.endResetModel()

    def _on_changed(self, army_id: str, before: Army) -> None:
        if army_id != self.army_id:
            return
        army = self.army
        assert army is not None
        new_ids = [unit.id for unit in army.units]
        if new_ids == self._shown:
            old_units, old_problems = self._units, self._problems
            self._take(army)
            # Only the rows that changed (their unit or their warnings) are repainted.
            warned = {key[0] for key in {*old_problems, *self._problems}
                      if old_problems.get(key) != self._problems.get(key)}
            for row, unit_id in enumerate(new_ids):
                if unit_id in warned or old_units.get(unit_id) is not self._units[unit_id]:
                    self.dataChanged.emit(self.index(row, 0),
                                          self.index(row, len(self._columns) - 1))
            return
        if self._shown:
            self.beginRemoveRows(QModelIndex(), 0, len(self._shown) - 1)
            self._shown = []
            self.endRemoveRows()
        if not new_ids:
            self._take(army)
            return
        self.beginInsertRows(QModelIndex(), 0, len(new_ids) - 1)
        self._take(army)
        self.endInsertRows()


class RosterFilter(QSortFilterProxyModel):
    """The search box: a unit stays when its name, profile, type or slot contains the text.

    Grouped by slot, the rows follow the ruleset's slot order (the engine's
    Ruleset.slot_rank), each slot's units in the army's order; the army itself keeps its
    order (Edit ▸ Sort Units by Slot is the edit that changes it).
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        # A row being edited must not vanish under its editor when the edit stops matching
        # the filter; the filter applies again when its text changes.
        self.setDynamicSortFilter(False)
        self.grouped = False

    def set_grouped(self, grouped: bool) -> None:
        self.grouped = grouped
        self.sort(0 if grouped else -1)  # -1: the army's own order again

    def setSourceModel(self, model: QAbstractItemModel) -> None:  # Qt override
        super().setSourceModel(model)
        # Not dynamic (see above): rows that arrive or change slot are put in place here.
        model.rowsInserted.connect(self._regroup)
        model.modelReset.connect(self._regroup)
        model.dataChanged.connect(self._regroup)

    def _regroup(self, *args: object) -> None:
        if self.grouped:
            self.sort(0)

    def _slot_key(self, source_row: int) -> tuple[int, str]:
        model = self.sourceModel()
        assert isinstance(model, RosterTableModel)
        unit, army = model.unit_at(source_row), model.army
        if unit is None or army is None:
            return (0, "")
        return (get_ruleset(army.ruleset).slot_rank(unit.slot), slot_key(unit.slot))

    def lessThan(self, source_left: Index, source_right: Index) -> bool:  # Qt override
        left, right = source_left.row(), source_right.row()
        if not self.grouped:
            return left < right
        return (self._slot_key(left), left) < (self._slot_key(right), right)

    def starts_group(self, row: int) -> bool:
        """Whether `row` is the first unit of its slot in a grouped roster (the delegate
        draws a line above it). A method, not a data role: a Python data() here would put
        every cell's every role through Python on each paint."""
        if not self.grouped or not 0 < row < self.rowCount():
            return False
        here = self.mapToSource(self.index(row, 0)).row()
        above = self.mapToSource(self.index(row - 1, 0)).row()
        return self._slot_key(here) != self._slot_key(above)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # Qt override
        pattern = self.filterRegularExpression()
        if not pattern.pattern():
            return True
        model = self.sourceModel()
        assert isinstance(model, RosterTableModel)
        unit = model.unit_at(source_row)
        if unit is None:
            return False
        haystack = " ".join((unit.name, unit.profile.name,
                             unit.profile.troop_type.value.replace("_", " "), unit.slot))
        return pattern.match(haystack).hasMatch()
