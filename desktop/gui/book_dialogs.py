"""Dialogs of the army books, laid out in ui/: Game Data (what is stored), New Army from an
army book, and Add Units from a catalogue.

They show what the store and the engine say (stored files and their problems, the
catalogue's units with the price of their smallest legal unit, why one cannot be added
now) and return what the player chose; the window's ArmyBooks does the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QFont, QKeyEvent, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from desktop.gui.forms.ui_bookarmydialog import Ui_BookArmyDialog
from desktop.gui.forms.ui_bookunitsdialog import Ui_BookUnitsDialog
from desktop.gui.forms.ui_gamedatadialog import Ui_GameDataDialog

KEY_ROLE = Qt.ItemDataRole.UserRole + 1  # (game system id, file id) of a Game Data row
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2  # a Add Units row's entry id
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 3  # what the filter looks in
WHERE_TO_GET = (
    "Army books come as BattleScribe game data: a game system (.gst) and one catalogue "
    "(.cat) per army, which BattleScribe and New Recruit read too. Rout ships none: clone or "
    "download a data repository (for Warhammer Fantasy 6th edition, Ergofarg's or "
    "lexicanum-imperialis' on GitHub) and add its folder or .zip here, or drop the files "
    "on the window.")
NO_DATA_LINE = ("No army books yet: get BattleScribe game data (a data repository's .gst "
                "and .cat files) and add it with File ▸ Game Data…, or drop the files on "
                "the window.")


def tree_items(tree: QTreeWidget) -> list[tuple[int, QTreeWidgetItem]]:
    """Every item of a tree with its depth, depth first, as the tree shows them."""
    found: list[tuple[int, QTreeWidgetItem]] = []

    def walk(item: QTreeWidgetItem, depth: int) -> None:
        for index in range(item.childCount()):
            child = item.child(index)
            if child is not None:
                found.append((depth, child))
                walk(child, depth + 1)
    walk(tree.invisibleRootItem(), 0)
    return found


@dataclass(frozen=True)
class DataRow:
    """One stored file as the Game Data dialog lists it."""

    game_system_id: str
    id: str
    kind: str  # gameSystem, catalogue
    name: str
    revision: int
    library: bool
    units: int
    problems: tuple[str, ...]
    file_name: str
    armies: int = 0  # armies built from it


class GameDataDialog(QDialog):
    """Every stored game system with its catalogues: revision, units, warnings. The
    buttons ask ArmyBooks to add or remove; `show_rows` shows what is stored then."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_GameDataDialog()
        self.ui.setupUi(self)
        self.ui.introText.setText(WHERE_TO_GET)
        header = self.ui.dataTree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.ui.dataTree.currentItemChanged.connect(self._describe)
        self.rows: list[DataRow] = []
        self.show_rows([])

    def show_rows(self, rows: Sequence[DataRow]) -> None:
        chosen = self.chosen()
        self.rows = list(rows)
        tree = self.ui.dataTree
        tree.clear()
        systems: dict[str, QTreeWidgetItem] = {}
        for row in rows:
            if row.kind == "gameSystem":
                item = QTreeWidgetItem(tree, [row.name, str(row.revision), "",
                                              str(len(row.problems) or "")])
                font = QFont(item.font(0))
                font.setBold(True)
                item.setFont(0, font)
                systems[row.game_system_id] = item
        for row in rows:
            if row.kind == "gameSystem":
                continue
            parent = systems.get(row.game_system_id)
            name = f"{row.name} (library)" if row.library else row.name
            values = [name, str(row.revision), str(row.units) if row.units else "",
                      str(len(row.problems) or "")]
            item = QTreeWidgetItem(parent, values) if parent is not None else \
                QTreeWidgetItem(tree, values)
            item.setData(0, KEY_ROLE, (row.game_system_id, row.id))
            item.setToolTip(0, f"{row.file_name}, revision {row.revision}")
        for row in rows:
            if row.kind == "gameSystem":
                systems[row.game_system_id].setData(0, KEY_ROLE, (row.game_system_id, row.id))
        tree.expandAll()
        self.ui.removeButton.setEnabled(bool(rows))
        items = tree_items(tree)
        if chosen is not None:
            self.choose(*chosen)
        elif items:
            tree.setCurrentItem(items[0][1])
        self._describe()

    def row(self, key: tuple[str, str] | None) -> DataRow | None:
        return next((r for r in self.rows if key == (r.game_system_id, r.id)), None)

    def chosen(self) -> tuple[str, str] | None:
        item = self.ui.dataTree.currentItem()
        key = item.data(0, KEY_ROLE) if item is not None else None
        return (str(key[0]), str(key[1])) if key else None

    def choose(self, game_system_id: str, file_id: str) -> None:
        tree = self.ui.dataTree
        for _, item in tree_items(tree):
            key = item.data(0, KEY_ROLE)
            if key and (str(key[0]), str(key[1])) == (game_system_id, file_id):
                tree.setCurrentItem(item)
                return

    def shown(self) -> list[str]:
        """Each row as "name · revision · units · warnings", indented under its game system
        (tests and screen readers read them)."""
        return ["  " * depth + " · ".join(item.text(c) for c in range(4) if item.text(c))
                for depth, item in tree_items(self.ui.dataTree)]

    def _describe(self) -> None:
        row = self.row(self.chosen())
        if row is None:
            self.ui.detailsText.setText("Nothing stored yet." if not self.rows else "")
            self.ui.removeButton.setEnabled(False)
            return
        self.ui.removeButton.setEnabled(True)
        what = "Game system" if row.kind == "gameSystem" else (
            "Library catalogue" if row.library else "Army book")
        used = (f" · {row.armies} arm{'y' if row.armies == 1 else 'ies'} built from it"
                if row.armies else "")
        lines = [f"<b>{escape(row.name)}</b> — {what}, revision {row.revision}, from "
                 f"{escape(row.file_name)}{used}"]
        if row.problems:
            shown = "<br>".join(f"⚠ {escape(p)}" for p in row.problems[:12])
            more = f"<br>… and {len(row.problems) - 12} more" if len(row.problems) > 12 else ""
            lines.append(f"Left out as BattleScribe would, the rest usable:<br>{shown}{more}")
        self.ui.detailsText.setText("<br>".join(lines))


@dataclass(frozen=True)
class BookChoice:
    """An army book a New Army can be built from."""

    game_system_id: str
    game_system_name: str
    catalogue_id: str
    catalogue_name: str
    revision: int


@dataclass(frozen=True)
class ForceChoice:
    id: str
    name: str


class BookArmyDialog(QDialog):
    """The army book (catalogues grouped by game system), its force, the points limit,
    the name and the player. `forces_for(book)` is asked for a book's forces when it is
    chosen (the window reads them from the engine)."""

    def __init__(self, books: Sequence[BookChoice], parent: QWidget | None = None,
                 player: str = "Player") -> None:
        super().__init__(parent)
        self.ui = Ui_BookArmyDialog()
        self.ui.setupUi(self)
        self.books = list(books)
        self._forces: dict[str, list[ForceChoice]] = {}
        self._named_by_hand = False
        tree = self.ui.bookTree
        systems: dict[str, QTreeWidgetItem] = {}
        for index, book in enumerate(self.books):
            top = systems.get(book.game_system_id)
            if top is None:
                top = systems[book.game_system_id] = QTreeWidgetItem(tree,
                                                                     [book.game_system_name])
                top.setFlags(Qt.ItemFlag.ItemIsEnabled)
                font = QFont(top.font(0))
                font.setBold(True)
                top.setFont(0, font)
            item = QTreeWidgetItem(top, [book.catalogue_name])
            item.setData(0, KEY_ROLE, index)
            item.setToolTip(0, f"{book.catalogue_name}, revision {book.revision}")
        tree.expandAll()
        self.ui.playerEdit.setText(player)
        self.ui.limitSpin.setValue(2000)
        self.ui.problemLabel.hide()
        tree.currentItemChanged.connect(self._book_changed)
        self.ui.nameEdit.textEdited.connect(self._named)
        self.ui.nameEdit.textChanged.connect(self._check)
        self.ui.limitSpin.refused.connect(self._refused)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        first = next((item for depth, item in tree_items(tree) if depth == 1), None)
        if first is not None:
            tree.setCurrentItem(first)
        if not self.books:
            self.ui.problemLabel.setText(NO_DATA_LINE)
            self.ui.problemLabel.show()
        self._check()

    def set_forces(self, book: BookChoice, forces: Sequence[ForceChoice]) -> None:
        self._forces[book.catalogue_id] = list(forces)
        if self.book == book:
            self._fill_forces()

    def _fill_forces(self) -> None:
        combo = self.ui.forceCombo
        combo.clear()
        book = self.book
        for force in self._forces.get(book.catalogue_id, []) if book else []:
            combo.addItem(force.name, force.id)
        self._check()

    def _book_changed(self) -> None:
        book = self.book
        if book is not None and not self._named_by_hand:
            self.ui.nameEdit.setText(f"{book.catalogue_name} army")
        self._fill_forces()

    def choose(self, catalogue_name: str) -> None:
        """Pick an army book by its name (keyboard users search; tests choose by name)."""
        tree = self.ui.bookTree
        for depth, item in tree_items(tree):
            if depth == 1 and item.text(0) == catalogue_name:
                tree.setCurrentItem(item)
                return

    def _named(self) -> None:
        self._named_by_hand = True

    def _refused(self, message: str) -> None:
        self.ui.problemLabel.setText(message)
        self.ui.problemLabel.show()

    def _check(self) -> None:
        problem = ""
        if not self.books:
            problem = NO_DATA_LINE
        elif self.book is None:
            problem = "Choose an army book."
        elif not self.ui.forceCombo.count():
            problem = "Reading the army book…"
        elif not self.name:
            problem = "Give the army a name."
        self.ui.problemLabel.setText(problem)
        self.ui.problemLabel.setVisible(bool(problem))
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    @property
    def book(self) -> BookChoice | None:
        item = self.ui.bookTree.currentItem()
        index = item.data(0, KEY_ROLE) if item is not None else None
        return self.books[int(index)] if index is not None else None

    @property
    def force_id(self) -> str:
        return str(self.ui.forceCombo.currentData() or "")

    @property
    def name(self) -> str:
        return " ".join(self.ui.nameEdit.text().split())

    @property
    def player(self) -> str:
        return " ".join(self.ui.playerEdit.text().split()) or "Player"

    @property
    def points_limit(self) -> int:
        return self.ui.limitSpin.value()


@dataclass(frozen=True)
class UnitRow:
    """A unit of the catalogue as Add Units lists it (the engine's figures)."""

    entry_id: str
    name: str
    slot: str
    base_points: float
    min_models: int
    max_models: int | None
    per_model: float | None
    blocked: str = ""

    @property
    def size(self) -> str:
        if self.max_models == self.min_models == 1:
            return "1 model"
        top = "+" if self.max_models is None else f"–{self.max_models}"
        return f"{self.min_models}{top if self.max_models != self.min_models else ''} models"


def _points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class BookUnitsDialog(QDialog):
    """The catalogue's units by slot, each with the price of its smallest legal unit and
    its sizes, filtered as you type; one the army may not take now is greyed, the reason
    beside it. Several may be chosen at once."""

    def __init__(self, rows: Sequence[UnitRow], slots: Sequence[str], title: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_BookUnitsDialog()
        self.ui.setupUi(self)
        self.setWindowTitle(f"Add Units — {title}")
        self.rows = {row.entry_id: row for row in rows}
        self.source = QStandardItemModel(self)
        self.source.setHorizontalHeaderLabels(["Unit", "Points", "Size"])
        order = {slot: index for index, slot in enumerate(slots)}
        grey = QBrush(self.palette().color(QPalette.ColorGroup.Disabled,
                                           QPalette.ColorRole.Text))
        by_slot: dict[str, list[UnitRow]] = {}
        for row in rows:
            by_slot.setdefault(row.slot or "Other", []).append(row)
        for slot in sorted(by_slot, key=lambda s: (order.get(s, len(order)), s.casefold())):
            heading = QStandardItem(slot)
            font = QFont(heading.font())
            font.setBold(True)
            heading.setFont(font)
            heading.setFlags(Qt.ItemFlag.ItemIsEnabled)
            heading.setData(slot, SEARCH_ROLE)
            blanks = [QStandardItem(""), QStandardItem("")]
            for blank in blanks:
                blank.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.source.appendRow([heading, *blanks])
            for row in by_slot[slot]:
                cells = [QStandardItem(row.name), QStandardItem(_points(row.base_points)),
                         QStandardItem(row.size)]
                tip = (f"{row.name}: {_points(row.base_points)} points for the smallest unit"
                       f" ({row.size})"
                       + (f", {_points(row.per_model)} a model" if row.per_model else ""))
                for cell in cells:
                    cell.setEditable(False)
                    cell.setData(row.entry_id, ENTRY_ROLE)
                    cell.setData(f"{row.name} {slot}", SEARCH_ROLE)
                    if row.blocked:
                        cell.setForeground(grey)
                        cell.setToolTip(f"{tip}\nNot now: {row.blocked}")
                    else:
                        cell.setToolTip(tip)
                if row.blocked:
                    cells[0].setText(f"{row.name} — {row.blocked}")
                heading.appendRow(cells)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setRecursiveFilteringEnabled(True)
        self.proxy.setFilterRole(SEARCH_ROLE)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        view = self.ui.unitTree
        view.setModel(self.proxy)
        view.expandAll()
        header = view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.ui.searchEdit.textChanged.connect(self._search)
        self.ui.searchEdit.installEventFilter(self)
        view.selectionModel().selectionChanged.connect(self._describe)
        view.doubleClicked.connect(self._double_clicked)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setText("Add")
        self._highlight(self._first_addable())
        self._describe()

    def _first_addable(self) -> QModelIndex | None:
        """The first unit listed that the army may take now, else the first listed: Enter
        adds what the filter found, not a greyed unit above it."""
        listed = self._unit_indexes()
        return next((index for index in listed
                     if not self.rows[str(index.data(ENTRY_ROLE))].blocked),
                    next(iter(listed), None))

    def _unit_indexes(self) -> list[QModelIndex]:
        found: list[QModelIndex] = []
        for row in range(self.proxy.rowCount()):
            heading = self.proxy.index(row, 0)
            found.extend(self.proxy.index(child, 0, heading)
                         for child in range(self.proxy.rowCount(heading)))
        return found

    def _highlight(self, index: QModelIndex | None) -> None:
        if index is None:
            return
        view = self.ui.unitTree
        # Current first: the details the selection change shows are the current row's.
        view.selectionModel().setCurrentIndex(index,
                                              QItemSelectionModel.SelectionFlag.NoUpdate)
        view.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                     | QItemSelectionModel.SelectionFlag.Rows)

    def shown(self) -> list[str]:
        """The rows as listed, slots unindented, units indented with points and size."""
        lines = []
        for row in range(self.proxy.rowCount()):
            heading = self.proxy.index(row, 0)
            lines.append(str(heading.data()))
            for child in range(self.proxy.rowCount(heading)):
                cells = [str(self.proxy.index(child, c, heading).data()) for c in range(3)]
                lines.append("  " + " · ".join(cells))
        return lines

    def chosen(self) -> list[str]:
        """The entry ids chosen, in the list's order, greyed ones left out."""
        found = []
        for index in self.ui.unitTree.selectionModel().selectedRows(0):
            entry_id = index.data(ENTRY_ROLE)
            if entry_id and not self.rows[str(entry_id)].blocked and entry_id not in found:
                found.append(str(entry_id))
        return found

    def choose(self, names: Sequence[str]) -> None:
        selection = self.ui.unitTree.selectionModel()
        selection.clearSelection()
        for index in self._unit_indexes():
            row = self.rows[str(index.data(ENTRY_ROLE))]
            if row.name in names:
                selection.select(index, QItemSelectionModel.SelectionFlag.Select
                                 | QItemSelectionModel.SelectionFlag.Rows)

    def _describe(self) -> None:
        chosen = self.chosen()
        current = self.ui.unitTree.currentIndex()
        entry_id = current.data(ENTRY_ROLE) if current.isValid() else None
        row = self.rows.get(str(entry_id)) if entry_id else None
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(chosen))
        if row is None:
            self.ui.unitDetails.setText("Choose one or more units.")
            return
        extra = f" (and {len(chosen) - 1} more)" if len(chosen) > 1 else ""
        each = f", {_points(row.per_model)} points a model" if row.per_model else ""
        text = (f"<b>{escape(row.name)}</b>{extra} — {escape(row.slot or 'unit')}: "
                f"{_points(row.base_points)} points for {row.size}{each}")
        if row.blocked:
            text += f"<br>Not now: {escape(row.blocked)}"
        self.ui.unitDetails.setText(text)

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.data(ENTRY_ROLE) and self.chosen():
            self.accept()

    def _search(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        self.ui.unitTree.expandAll()
        if not self.chosen():
            self._highlight(self._first_addable())
        self._describe()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.ui.searchEdit and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress \
                and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            rows = self._unit_indexes()
            if rows:
                current = self.ui.unitTree.currentIndex()
                at = next((i for i, index in enumerate(rows) if index == current), -1)
                step = -1 if event.key() == Qt.Key.Key_Up else 1
                self._highlight(rows[min(max(at + step, 0), len(rows) - 1)])
            return True
        return super().eventFilter(watched, event)
