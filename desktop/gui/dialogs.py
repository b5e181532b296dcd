"""Dialogs laid out in ui/: a new army (or its settings), picking units from a library, a
new battle, the welcome shown when the database holds no army yet, and Open Database."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QObject, QSortFilterProxyModel, Qt
from PySide6.QtGui import QFont, QIcon, QKeyEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QListWidgetItem, QWidget

from desktop.engine.composition import Library, split_by_list
from desktop.engine.model import Army, ArmyList, LibraryEntry
from desktop.engine.rulesets import RULESETS
from desktop.gui import file_dialogs
from desktop.gui.features import battle_setup
from desktop.gui.forms.ui_librarydialog import Ui_LibraryDialog
from desktop.gui.forms.ui_newarmydialog import Ui_NewArmyDialog
from desktop.gui.forms.ui_newbattledialog import Ui_NewBattleDialog
from desktop.gui.forms.ui_opendatabasedialog import Ui_OpenDatabaseDialog
from desktop.gui.forms.ui_welcomedialog import Ui_WelcomeDialog

ENTRY_ROLE = Qt.ItemDataRole.UserRole
NO_LIST = "No army list"


class NewArmyDialog(QDialog):
    """Name, player, ruleset, army list, points limit and notes; with `army`, edits those of
    an existing one. `army_lists` are each ruleset's lists, from its library."""

    def __init__(self, parent: QWidget | None = None, army: Army | None = None,
                 army_lists: Mapping[str, Sequence[ArmyList]] | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_NewArmyDialog()
        self.ui.setupUi(self)
        self._army_lists = dict(army_lists or {})
        for ruleset in RULESETS.values():
            self.ui.rulesetCombo.addItem(ruleset.name, ruleset.id)
        if army is not None:
            self.setWindowTitle("Army Settings")
            self.ui.nameEdit.setText(army.name)
            self.ui.playerEdit.setText(army.player)
            self.ui.rulesetCombo.setCurrentIndex(self.ui.rulesetCombo.findData(army.ruleset))
            self.ui.rulesetCombo.setEnabled(False)  # profiles belong to their ruleset
            self.ui.limitSpin.setValue(army.points_limit)
            if army.book is None:
                self._fill_lists(army.army_list)
            else:  # its army book's limits are what counts, not one of Rout's lists
                combo = self.ui.listCombo
                combo.addItem(f"{army.book.catalogue_name} (its army book)", army.army_list)
                combo.setEnabled(False)
                combo.setToolTip("An army built from an army book is checked against the "
                                 "book's limits, listed in the Army Book dock")
            self.ui.notesEdit.setPlainText("\n".join(army.notes))
        else:
            self.setWindowTitle("New Army")
            self.ui.nameEdit.setText("New army")
            self.ui.playerEdit.setText("Player")
            self._fill_lists()
        self.ui.rulesetCombo.currentIndexChanged.connect(lambda: self._fill_lists())
        self.ui.nameEdit.selectAll()
        self.ui.nameEdit.textChanged.connect(self._check)
        self.ui.fieldMessage.hide()
        self.ui.limitSpin.refused.connect(self._refused)
        self.ui.limitSpin.valueChanged.connect(self.ui.fieldMessage.hide)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self._check()

    def _fill_lists(self, chosen: str | None = None) -> None:
        """The ruleset's army lists, then "No army list"; a new army starts on the first
        list. A list the library no longer has is kept, so saving does not drop it."""
        combo = self.ui.listCombo
        combo.clear()
        for army_list in self._army_lists.get(self.ruleset, ()):
            combo.addItem(army_list.name, army_list.id)
        if chosen and combo.findData(chosen) < 0:
            combo.addItem(f"{chosen} (not in the library)", chosen)
        combo.addItem(NO_LIST, "")
        combo.setCurrentIndex(0 if chosen is None else combo.findData(chosen))

    def _check(self) -> None:
        ok = self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.name))

    def _refused(self, message: str) -> None:
        self.ui.fieldMessage.setText(message)
        self.ui.fieldMessage.show()

    @property
    def name(self) -> str:
        return " ".join(self.ui.nameEdit.text().split())

    @property
    def player(self) -> str:
        return " ".join(self.ui.playerEdit.text().split()) or "Player"

    @property
    def ruleset(self) -> str:
        return str(self.ui.rulesetCombo.currentData())

    @property
    def points_limit(self) -> int:
        return self.ui.limitSpin.value()

    @property
    def army_list(self) -> str:
        return str(self.ui.listCombo.currentData() or "")

    @property
    def notes(self) -> tuple[str, ...]:
        """One note a line (Army.notes), trailing spaces and blank lines at either end off."""
        lines = [line.rstrip() for line in self.ui.notesEdit.toPlainText().split("\n")]
        while lines and not lines[0]:
            lines.pop(0)
        while lines and not lines[-1]:
            lines.pop()
        return tuple(lines)


def models(count: int) -> str:
    return f"{count} model{'' if count == 1 else 's'}"


class LibraryDialog(QDialog):
    """The ruleset's library with a search box; several entries can be chosen at once.

    With an army list, its entries (and those of no list) come first under the list's
    name, then the other lists' entries under "Other army lists", each naming its list.
    """

    def __init__(self, library: Library, ruleset_name: str, parent: QWidget | None = None,
                 army_list: str = "") -> None:
        super().__init__(parent)
        self.ui = Ui_LibraryDialog()
        self.ui.setupUi(self)
        self.setWindowTitle(f"Add Units — {ruleset_name} library")
        self.entries = list(library.entries)
        self.source = QStandardItemModel(self)
        own, others = split_by_list(library, army_list)
        chosen = library.army_list(army_list)
        if chosen is not None and others:
            self._heading(chosen.name)
        for entry in own:
            self._add(entry, "")
        if others:
            self._heading("Other army lists")
        for entry in others:
            self._add(entry, " or ".join(library.list_names(entry.lists)))
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.source)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.ui.entryList.setModel(self.proxy)
        self.ui.searchEdit.textChanged.connect(self._search)
        # Up and Down move the highlight from the search box; Return adds what is highlighted.
        self.ui.searchEdit.installEventFilter(self)
        self.ui.entryList.selectionModel().selectionChanged.connect(self._describe)
        self.ui.entryList.doubleClicked.connect(self.accept)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        ok = self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Add")
        self._highlight(next(iter(self._entry_rows()), None))
        self._describe()

    def _entry_rows(self) -> list[int]:
        """The rows shown that are entries, not headings."""
        return [row for row in range(self.proxy.rowCount())
                if self.proxy.index(row, 0).data(ENTRY_ROLE) is not None]

    def _highlight(self, row: int | None) -> None:
        if row is None:
            return
        index = self.proxy.index(row, 0)
        view = self.ui.entryList
        view.selectionModel().select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect)
        view.setCurrentIndex(index)

    def _heading(self, text: str) -> None:
        """A row naming the group below it; it cannot be chosen."""
        item = QStandardItem(text)
        font = QFont(item.font())
        font.setBold(True)
        item.setFont(font)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled)
        self.source.appendRow(item)

    def _add(self, entry: LibraryEntry, other_list: str) -> None:
        stats = " ".join(f"{k}{v}" for k, v in entry.profile.stats.items())
        where = f" · {other_list}" if other_list else ""
        item = QStandardItem(QIcon.fromTheme(f"troop-{entry.profile.troop_type.value}"),
                             f"{entry.profile.name} — {entry.slot or 'unit'}, "
                             f"{entry.points_per_model} pts each{where}")
        item.setToolTip(f"{entry.profile.name}: {stats}; usually {models(entry.models)}")
        item.setData(self.entries.index(entry), ENTRY_ROLE)
        item.setEditable(False)
        self.source.appendRow(item)

    def shown(self) -> list[str]:
        """The rows as listed, headings included (tests and keyboard users read them)."""
        return [str(self.proxy.index(row, 0).data()) for row in range(self.proxy.rowCount())]

    def chosen(self) -> list[LibraryEntry]:
        numbers = sorted(int(index.data(ENTRY_ROLE))
                         for index in self.ui.entryList.selectionModel().selectedIndexes()
                         if index.data(ENTRY_ROLE) is not None)
        return [self.entries[number] for number in numbers]

    def choose(self, names: Sequence[str]) -> None:
        """Select entries by profile name (keyboard users search; tests choose by name)."""
        selection = self.ui.entryList.selectionModel()
        selection.clearSelection()
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(ENTRY_ROLE) is None:
                continue  # a heading
            entry = self.entries[int(index.data(ENTRY_ROLE))]
            if entry.profile.name in names:
                selection.select(index, QItemSelectionModel.SelectionFlag.Select)

    def _describe(self) -> None:
        chosen = self.chosen()
        self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(chosen))
        if not chosen:
            self.ui.entryDetails.setText("Choose one or more units.")
            return
        entry = chosen[0]
        stats = " ".join(f"{k} {v}" for k, v in entry.profile.stats.items())
        extra = f" (and {len(chosen) - 1} more)" if len(chosen) > 1 else ""
        self.ui.entryDetails.setText(f"<b>{entry.profile.name}</b>{extra}<br>{stats}<br>"
                                     f"{models(entry.models)}, {entry.points_per_model} "
                                     "points each")

    def _search(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)
        # The highlighted entry may have been filtered out: the first match takes its place,
        # so that Return in the search box adds what the player sees first.
        if not self.chosen():
            self._highlight(next(iter(self._entry_rows()), None))
        self._describe()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.ui.searchEdit and isinstance(event, QKeyEvent) \
                and event.type() == QEvent.Type.KeyPress \
                and event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp,
                                    Qt.Key.Key_PageDown):
            rows = self._entry_rows()  # headings are stepped over
            if rows:
                current = self.ui.entryList.currentIndex()
                at = rows.index(current.row()) if current.row() in rows else -1
                step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -10,
                        Qt.Key.Key_PageDown: 10}[Qt.Key(event.key())]
                self._highlight(rows[min(max(at + step, 0), len(rows) - 1)])
            return True
        return super().eventFilter(watched, event)


class WelcomeDialog(QDialog):
    """First start: a new army (from Rout's army lists or from an army book), the sample
    armies or the sample battles; `choice` says which was picked."""

    NEW_ARMY = "new"
    NEW_BOOK_ARMY = "book"
    SAMPLES = "samples"
    SAMPLE_BATTLES = "battles"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_WelcomeDialog()
        self.ui.setupUi(self)
        self.choice = ""
        self.ui.newArmyButton.clicked.connect(lambda: self._pick(self.NEW_ARMY))
        self.ui.bookArmyButton.clicked.connect(lambda: self._pick(self.NEW_BOOK_ARMY))
        self.ui.samplesButton.clicked.connect(lambda: self._pick(self.SAMPLES))
        self.ui.sampleBattlesButton.clicked.connect(lambda: self._pick(self.SAMPLE_BATTLES))
        self.ui.closeButton.clicked.connect(self.reject)
        self.ui.samplesButton.setDefault(True)

    def _pick(self, choice: str) -> None:
        self.choice = choice
        self.accept()


MAX_ARMY_LIST_WIDTH = 720  # pixels: past this a very long army name is cut after all


class NewBattleDialog(QDialog):
    """Title, ruleset, the armies that fight (one side each), table and deployment zones.

    With `current` (the army the player is looking at), the dialog starts on its ruleset
    with it and an opponent ticked. The table and zone sizes start at the ruleset's
    defaults, in its own unit.
    """

    def __init__(self, armies: Sequence[Army], parent: QWidget | None = None,
                 current: str = "") -> None:
        super().__init__(parent)
        self.ui = Ui_NewBattleDialog()
        self.ui.setupUi(self)
        self.armies = sorted(armies, key=lambda a: (a.name.casefold(), a.id))
        self.current = current
        for ruleset in RULESETS.values():
            self.ui.rulesetCombo.addItem(ruleset.name, ruleset.id)
        used = [a.ruleset for a in self.armies]
        looked_at = next((a for a in self.armies if a.id == current), None)
        if looked_at is not None:
            self.ui.rulesetCombo.setCurrentIndex(self.ui.rulesetCombo.findData(
                looked_at.ruleset))
        # Else start on the ruleset with the most armies: the likeliest battle.
        elif used:
            first = max(RULESETS, key=lambda rid: (used.count(rid), -list(RULESETS).index(rid)))
            self.ui.rulesetCombo.setCurrentIndex(self.ui.rulesetCombo.findData(first))
        self.ui.titleEdit.setText("New battle")
        self.ui.titleEdit.selectAll()
        self.ui.rulesetCombo.currentIndexChanged.connect(self._ruleset_changed)
        self.ui.armyList.itemChanged.connect(self._check)
        self.ui.titleEdit.textChanged.connect(self._check)
        for spin in (self.ui.widthSpin, self.ui.depthSpin, self.ui.zoneSpin):
            spin.refused.connect(self._refused)
            spin.valueChanged.connect(self._check)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self._ruleset_changed()

    def _ruleset_changed(self) -> None:
        self.ui.armyList.clear()
        for army in self.armies:
            if army.ruleset != self.ruleset:
                continue
            item = QListWidgetItem(f"{army.name} — {army.player} ({army.points} pts)")
            item.setData(ENTRY_ROLE, army.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.ui.armyList.addItem(item)
        # Two armies are the usual battle: tick them for the player.
        self.choose(self._likely_sides())
        # Wide enough to read each line whole (name, player, points), within reason.
        armies = self.ui.armyList
        wanted = (armies.sizeHintForColumn(0) + 2 * armies.frameWidth()
                  + armies.verticalScrollBar().sizeHint().width())
        armies.setMinimumWidth(min(max(wanted, armies.minimumWidth()), MAX_ARMY_LIST_WIDTH))
        unit = RULESETS[self.ruleset].distance_unit
        suffix = " cm" if unit == "cm" else '"'
        width, depth = battle_setup.default_table(self.ruleset)
        for spin, value in ((self.ui.widthSpin, width), (self.ui.depthSpin, depth),
                            (self.ui.zoneSpin, battle_setup.default_zone_depth(self.ruleset))):
            spin.setSuffix(suffix)
            spin.setValue(value)
        self._check()

    def _check(self) -> None:
        chosen = self.army_ids
        problem = ""
        if not self.ui.armyList.count():
            problem = f"No {RULESETS[self.ruleset].name} army yet: build two first."
        elif len(chosen) < 2:
            problem = "Tick two or more armies: each one is a side."
        elif not self.title:
            problem = "Give the battle a title."
        self.ui.problemLabel.setText(problem)
        self.ui.problemLabel.setVisible(bool(problem))
        ok = self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(not problem)

    def _refused(self, message: str) -> None:
        """A size refused: said where problems are, until the next change puts them back."""
        self.ui.problemLabel.setText(message)
        self.ui.problemLabel.show()

    def _likely_sides(self) -> list[str]:
        """The army being looked at and an opponent of its ruleset (the first of another
        player, else the first other army); with none looked at here, the first two."""
        shown = [a for a in self.armies if a.ruleset == self.ruleset]
        looked_at = next((a for a in shown if a.id == self.current), None)
        if looked_at is None:
            return [a.id for a in shown[:2]]
        others = [a for a in shown if a.id != looked_at.id]
        opponent = next((a for a in others
                         if a.player.casefold() != looked_at.player.casefold()),
                        next(iter(others), None))
        return [looked_at.id] + ([opponent.id] if opponent is not None else [])

    def choose(self, army_ids: Sequence[str]) -> None:
        """Tick exactly these armies (keyboard users and tests pick by id)."""
        for row in range(self.ui.armyList.count()):
            item = self.ui.armyList.item(row)
            item.setCheckState(Qt.CheckState.Checked if item.data(ENTRY_ROLE) in army_ids
                               else Qt.CheckState.Unchecked)

    @property
    def title(self) -> str:
        return " ".join(self.ui.titleEdit.text().split())

    @property
    def ruleset(self) -> str:
        return str(self.ui.rulesetCombo.currentData())

    @property
    def army_ids(self) -> list[str]:
        items = (self.ui.armyList.item(row) for row in range(self.ui.armyList.count()))
        return [str(item.data(ENTRY_ROLE)) for item in items
                if item.checkState() == Qt.CheckState.Checked]

    @property
    def table(self) -> tuple[float, float]:
        return self.ui.widthSpin.value(), self.ui.depthSpin.value()

    @property
    def zone_depth(self) -> float:
        return self.ui.zoneSpin.value()


class OpenDatabaseDialog(QDialog):
    """A database to open: typed (a SQLite file or any database URL) or chosen with
    Browse…, which starts in the open database's folder."""

    FILE_FILTER = "Rout databases (*.sqlite *.sqlite3 *.db);;All files (*)"

    def __init__(self, current: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ui = Ui_OpenDatabaseDialog()
        self.ui.setupUi(self)
        self.ui.locationEdit.setText(current)
        self.ui.locationEdit.selectAll()
        self.ui.locationEdit.textChanged.connect(self._check)
        self.ui.browseButton.clicked.connect(self.browse)
        self.ui.buttonBox.accepted.connect(self.accept)
        self.ui.buttonBox.rejected.connect(self.reject)
        self._check()

    @property
    def location(self) -> str:
        return self.ui.locationEdit.text().strip()

    def browse(self) -> None:
        files = file_dialogs.file_dialog(self, "Choose a Database File", "", self.FILE_FILTER)
        # AnyFile: a name that does not exist yet makes a new database there.
        files.setFileMode(QFileDialog.FileMode.AnyFile)
        files.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        shown = self._shown_file()
        if shown is not None:
            files.setDirectory(str(shown.parent))
            if shown.is_file():
                files.selectFile(str(shown))
        if files.exec() == QDialog.DialogCode.Accepted and files.selectedFiles():
            self.ui.locationEdit.setText(files.selectedFiles()[0])

    def _shown_file(self) -> Path | None:
        """The file the text names (a path or a sqlite:/// URL); None for other URLs."""
        text = self.location
        if text.startswith("sqlite:///"):
            text = text[len("sqlite:///"):]
        elif "://" in text:
            return None
        if not text:
            return None
        path = Path(text).expanduser()
        return path if path.parent.is_dir() else None

    def _check(self) -> None:
        button = self.ui.buttonBox.button(QDialogButtonBox.StandardButton.Open)
        button.setEnabled(bool(self.location))
