"""The window's army books: game data, armies built from a catalogue, their options.

- File ▸ Game Data…: what is stored (desktop.store.gamedata); adding files, a folder or a
  zip of a data repository runs off the window's thread with a progress dialog that can
  cancel it (nothing is stored then); removing one is refused while armies are built from
  it, or keeps them as plain units. Files dropped on the window are added the same way.
- File ▸ New Army from an Army Book…: a catalogue, its force and the points limit.
- Add Units (on an army built from a book): the catalogue's units by slot.
- The Army Book dock: the selected unit's options and the catalogue's limits the army
  breaks, each clickable to select its unit.

Every change is one undo step through the window (ReplaceArmy), saved at once; the roster
it makes is the engine's (desktop.engine.bsdata) and the army the store's mapping of it
(desktop.store.armybooks). A catalogue's game data is read in a worker the first time an
army of it is shown, and kept for the session (one GameData is never used by two threads).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QMessageBox,
    QProgressDialog,
    QWidget,
)

from desktop.gui import file_dialogs
from desktop.gui.book_dialogs import (
    NO_DATA_LINE,
    BookArmyDialog,
    BookChoice,
    BookUnitsDialog,
    DataRow,
    ForceChoice,
    GameDataDialog,
    UnitRow,
)
from desktop.gui.book_panel import BookPanel
from desktop.gui.docks import settle_dock
from desktop.lazy import lazy_module
from desktop.memory import bulk_reading, let_go

if TYPE_CHECKING:
    from desktop.engine.bsdata import choices as book_choices
    from desktop.engine.bsdata import errors as book_errors
    from desktop.engine.bsdata import units as book_units
    from desktop.engine.bsdata.evaluate import Evaluation
    from desktop.engine.bsdata.gamedata import GameData
    from desktop.engine.bsdata.roster import Roster
    from desktop.engine.bsdata.state import RosterState
    from desktop.engine.model import Army, ArmyBook, Unit
    from desktop.gui import commands
    from desktop.gui.main_window import MainWindow
    from desktop.store import armybooks as books
    from desktop.store import errors as store_errors
    from desktop.store import gamedata as stored_data
    from desktop.store import roster_data as stored_rosters
    from desktop.store import transfer
    from desktop.store.store import Store
else:
    commands = lazy_module("desktop.gui.commands")
    transfer = lazy_module("desktop.store.transfer")
    book_choices = lazy_module("desktop.engine.bsdata.choices")
    book_errors = lazy_module("desktop.engine.bsdata.errors")
    book_units = lazy_module("desktop.engine.bsdata.units")
    books = lazy_module("desktop.store.armybooks")
    store_errors = lazy_module("desktop.store.errors")
    stored_data = lazy_module("desktop.store.gamedata")
    stored_rosters = lazy_module("desktop.store.roster_data")

DATA_SUFFIXES = (".gst", ".cat", ".gstz", ".catz", ".zip")
ROSTER_SUFFIXES = (".ros", ".rosz")
PROGRESS_DELAY_MS = 300
DOCK_WIDTH = 320  # the Army Book dock's width when it comes to the front for building
DATA_FILTER = "Game data (*.gst *.cat *.gstz *.catz *.zip);;All files (*)"


class Cancelled(Exception):
    """The player cancelled adding game data: nothing was stored."""


@dataclass(frozen=True)
class LoadedBook:
    """A catalogue's game data, read once, and what Add Units lists of it."""

    data: GameData
    catalogue_id: str
    units: tuple[UnitRow, ...]
    slots: tuple[str, ...]  # the force's categories in order (Lord, Heroes, Core...)
    base_points: dict[str, Decimal]


@bulk_reading()
def _load_book(store: Store, game_system_id: str, catalogue_id: str) -> LoadedBook:
    """Runs in a worker: the data, and the catalogue's units as `rout data units` gives
    them (each selected and priced by the engine)."""
    data = stored_data.load_game_data(store, game_system_id, catalogue_id)
    summaries = book_units.catalogue_units(data, catalogue_id)
    context = data.context(catalogue_id)
    slots: list[str] = []
    for file in context.files:
        for force in file.force_entries:
            for link in force.category_links:
                category = context.category(link.target_id)
                name = (category.name if category is not None else link.name).strip()
                if name and name not in slots:
                    slots.append(name)
    rows = tuple(UnitRow(u.id, u.name, u.slot, u.base_points, u.min_models, u.max_models,
                         u.points_per_model) for u in summaries)
    return LoadedBook(data, catalogue_id, rows, tuple(slots),
                      {u.id: Decimal(str(u.base_points)) for u in summaries})


class _Reporter(QObject):
    """Carries a worker's progress to the GUI thread (a signal crosses threads safely)."""

    said = Signal(str)


class ArmyBooks(QObject):
    """Game data, New Army from an army book, Add Units from it, and the Army Book dock."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._books: dict[tuple[str, str], LoadedBook] = {}
        self._loading: dict[tuple[str, str], list[Callable[[LoadedBook], None]]] = {}
        # By army id: the book an edit here last saved, the engine's state of its roster
        # and its evaluation, so that the next edit of that very book reads again only the
        # units it changes (armybooks.with_roster's `previous`), and neither it nor the
        # dock reads the stored roster again.
        self._states: dict[str, tuple[ArmyBook, RosterState, Evaluation]] = {}
        self.panel = BookPanel()
        # A number of models past the unit's size is refused; the status bar says why, as
        # long as a player needs to read it (the field's own tip goes with the mouse).
        self.panel.ui.modelsSpin.refused.connect(self._say)
        self.dock = QDockWidget("Army Book", window)
        self.dock.setObjectName("bookDock")
        settle_dock(self.dock, self.panel)
        self.dock.setMinimumWidth(200)
        # It shares its width with the Unit dock (tabbed together): a layout saved with that
        # one in front comes back at its 225 px, which cuts the deeper option names. The
        # first time in a session the book is in front it gets room; narrowed later, it
        # stays as the player made it.
        self._widened = False
        self.dock.visibilityChanged.connect(self._in_sight)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.ui.inspectorDock, self.dock)
        window.ui.inspectorDock.raise_()
        window.ui.menuView.insertAction(window.ui.mainToolBar.toggleViewAction(),
                                        self.dock.toggleViewAction())
        window.ready.connect(self._database_opened)
        window.setAcceptDrops(True)
        window.installEventFilter(self)
        self.panel.chosen.connect(self._chosen)
        self.panel.amount.connect(self._amount)
        self.panel.models.connect(self._models)
        self.panel.unitChosen.connect(lambda unit_id: window.select_units([unit_id]))
        self._stale = False  # changed while out of sight: refreshed when it shows
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)
        self.dialog: GameDataDialog | None = None
        self.progress: QProgressDialog | None = None
        # One for the window's life: a worker's closure never holds the last reference to a
        # Python object a signal is connected to (see add_paths).
        self._reporter = _Reporter(self)
        self._adding_stop: threading.Event | None = None
        self.last_report: str = ""  # what the last addition said, for the log and tests
        if window.workspace is not None:  # built after the database opened
            self._database_opened()

    # The database and what is on screen

    @property
    def store(self) -> Store | None:
        return self.window.store

    def _drop_books(self) -> None:
        """The catalogues read so far are dropped: their data goes back to the collector."""
        self._books.clear()
        self._states.clear()
        let_go()

    def _database_opened(self) -> None:
        self._drop_books()
        self._loading.clear()
        window = self.window
        if window.workspace is not None:
            window.workspace.book_edits = self
            window.workspace.army_changed.connect(self.schedule_refresh)
            window.workspace.army_added.connect(self.schedule_refresh)
            window.workspace.army_removed.connect(self.schedule_refresh)
            window.workspace.reset.connect(self.schedule_refresh)
        for view in (window.ui.rosterTable, window.ui.armyTree):
            selection = view.selectionModel()
            if selection is not None:
                selection.selectionChanged.connect(self.schedule_refresh)
                selection.currentChanged.connect(self.schedule_refresh)
        self.schedule_refresh()

    def schedule_refresh(self, *args: object) -> None:
        """Show what changed once the event loop turns (several signals, one refresh)."""
        self._refresh_timer.start()

    def army(self) -> Army | None:
        return self.window.current_army

    def refresh(self) -> None:
        """The dock shows the current army's book, its selected unit's options and the
        limits it breaks (live from the engine once its data is read; stored until then).
        Behind another dock's tab it waits until it is in sight (`_in_sight`)."""
        if self.window.isVisible() and self.dock.visibleRegion().isEmpty():
            self._stale = True
            return
        self._stale = False
        army = self.army()
        if army is None or army.book is None:
            self.panel.show_book("This army is not built from an army book." if army else
                                 "No army selected.")
            self.panel.show_unit(None, "File ▸ New Army from an Army Book… builds one from "
                                 "your game data, with its options and limits.")
            self.panel.show_limits([])
            self.panel.ui.limitsPane.setVisible(False)
            return
        self.panel.ui.limitsPane.setVisible(True)
        book = army.book
        self.panel.show_book(_book_title(army, book))
        self.panel.show_limits([(p.message, p.unit_id) for p in book.problems])
        loaded = self.loaded(book)
        units = self.window.selected_units()
        unit = units[0] if units else None
        selection = book.selection_of(unit.id) if unit is not None else None
        if loaded is None:
            self.panel.show_unit(None, "Reading the army book…")
            self.load(book, lambda _: self.schedule_refresh())
            return
        if unit is None or selection is None:
            self.panel.show_unit(None, "Select a unit to see its options." if unit is None
                                 else f"{unit.name} is not of the army book: Rout's own "
                                 "unit, with no options here.")
            return
        try:
            roster, evaluation = self._roster(loaded, army)
            shown = book_choices.unit_choices(loaded.data, roster, selection, evaluation)
        except (book_errors.RosterActionError, book_errors.DataError) as error:
            self.panel.show_unit(None, str(error))
            return
        self.panel.show_unit(shown, "")

    def show_dock(self) -> None:
        """The Army Book dock in front, wide enough for its option names: its options and
        limits are what the player works with while building."""
        self.dock.show()
        self.dock.raise_()
        self._widen()

    def _widen(self) -> None:
        """Room for the option names, but never so much that the battlefield's toolbar
        (beside it in the middle) hides a button in its overflow (issue 20, item 15)."""
        self._widened = True
        width = self.dock.width()
        if self.dock.isFloating() or width >= DOCK_WIDTH:
            return
        middle = self.window.centralWidget()
        assert middle is not None
        spare = middle.width() - self.window.battles.toolbar.sizeHint().width()
        wanted = min(DOCK_WIDTH, width + max(spare, 0))
        if wanted > width:
            self.window.resizeDocks([self.dock], [wanted], Qt.Orientation.Horizontal)

    def _in_sight(self, visible: bool) -> None:
        if visible and self._stale:
            self.schedule_refresh()
        if visible and not self._widened and self.window.isVisible():
            self._widen()

    # Reading a catalogue's data

    def loaded(self, book: ArmyBook | BookChoice) -> LoadedBook | None:
        return self._books.get((book.game_system_id, book.catalogue_id))

    def load(self, book: ArmyBook | BookChoice, then: Callable[[LoadedBook], None]) -> None:
        """Read a catalogue's data in a worker (once), then `then(loaded)` on this thread."""
        key = (book.game_system_id, book.catalogue_id)
        found = self._books.get(key)
        if found is not None:
            then(found)
            return
        waiting = self._loading.get(key)
        if waiting is not None:
            waiting.append(then)
            return
        store = self.store
        if store is None:
            return
        self._loading[key] = [then]

        def done(loaded: LoadedBook) -> None:
            self._books[key] = loaded
            for callback in self._loading.pop(key, []):
                callback(loaded)

        def failed(error: BaseException) -> None:
            self._loading.pop(key, None)
            self.window.tell(f"Cannot read the army book {book.catalogue_name}: {error}")
            self.window.statusBar().showMessage(f"Cannot read the army book: {error}", 8000)

        self.window.runner.run(lambda: _load_book(store, *key), done, failed)

    def wait_for_books(self) -> None:
        """(Tests, screenshots.) Every catalogue being read is read."""
        self.window.runner.wait_for_idle()

    # Editing a roster: one undo step each

    def _say(self, text: str) -> None:
        self.window.statusBar().showMessage(text, 8000)

    def edit(self, army: Army, text: str,
             change: Callable[[GameData, Roster], Roster]) -> Army | None:
        """`change` made to the army's roster, as one undo step; the army as saved (None
        when refused, the reason in the status bar)."""
        book = army.book
        if book is None:
            return None
        loaded = self.loaded(book)
        if loaded is None:
            self._say("Reading the army book… do it again in a moment.")
            self.load(book, lambda _: self.schedule_refresh())
            return None
        cached = self._states.get(army.id)
        previous = cached[1] if cached is not None and cached[0] is book else None
        try:
            roster, _ = self._roster(loaded, army)
            built = books.with_roster(loaded.data, army, change(loaded.data, roster),
                                      previous=previous)
        except (book_errors.RosterActionError, book_errors.DataError) as error:
            self._say(str(error))
            return None
        saved = self._push(army, built.army, text)
        if saved is not None and saved.book is not None and built.state is not None \
                and built.evaluation is not None:
            self._states[saved.id] = (saved.book, built.state, built.evaluation)
        return saved

    def _roster(self, loaded: LoadedBook, army: Army) -> tuple[Roster, Evaluation | None]:
        """The army's roster and, when an edit here made it, the engine's evaluation of it;
        else the roster as stored, read again."""
        cached = self._states.get(army.id)
        if cached is not None and cached[0] is army.book:
            return cached[2].roster, cached[2]
        return books.book_roster(loaded.data, army).roster, None

    def _push(self, before: Army | None, after: Army, text: str) -> Army | None:
        """One undo step; the army as saved, None when the store refused it."""
        workspace = self.window.workspace
        if workspace is None:
            return None
        command = commands.ReplaceArmy(workspace, before, after, text)
        if not commands.push_edit(self.window.undo_stack, command):
            return None
        return command.after

    def _unit_name(self, army: Army, selection_id: str) -> str:
        book = army.book
        unit_id = book.unit_of(selection_id) if book else None
        unit = next((u for u in army.units if u.id == unit_id), None)
        return unit.name if unit is not None else "the unit"

    def _chosen(self, container: str, entry: str, wanted: bool) -> None:
        army = self.army()
        if army is None or army.book is None:
            return
        root = self._root_selection(army, container)
        name = self._option_name(entry)
        if wanted:
            self.edit(army, f"Choose {name} for {self._unit_name(army, root)}",
                      lambda data, roster: book_choices.choose(data, roster, container, entry))
        else:
            self.edit(army, f"Drop {name} from {self._unit_name(army, root)}",
                      lambda data, roster: book_choices.unchoose(data, roster, container,
                                                                 entry))
        self.schedule_refresh()

    def _amount(self, container: str, entry: str, value: int) -> None:
        army = self.army()
        if army is None or army.book is None:
            return
        root = self._root_selection(army, container)
        self.edit(army, f"{value} × {self._option_name(entry)} for "
                        f"{self._unit_name(army, root)}",
                  lambda data, roster: book_choices.set_amount(data, roster, container,
                                                               entry, value))
        self.schedule_refresh()

    def _models(self, selection: str, entry: str, value: int) -> None:
        army = self.army()
        if army is None or army.book is None:
            return
        self.edit(army, f"{self._unit_name(army, selection)}: {value} models",
                  lambda data, roster: book_choices.set_amount(data, roster, selection, entry,
                                                               value))
        self.schedule_refresh()

    def _option_name(self, entry_id: str) -> str:
        try:
            return self.panel.option_item_by_entry(entry_id)
        except LookupError:
            return "an option"

    def _root_selection(self, army: Army, selection_id: str) -> str:
        book = army.book
        if book is None:
            return selection_id
        roots = {selection for _, selection in book.units}
        if selection_id in roots:
            return selection_id
        units = self.window.selected_units()
        found = book.selection_of(units[0].id) if units else None
        return found or selection_id

    # The roster table's edits of a unit of an army book (Workspace.book_edits)

    def edit_unit(self, army: Army, unit: Unit, key: str, value: Any) -> bool:
        """A roster cell edited on a unit of an army book: its name and models go to its
        roster selection, its formation stays the unit's; the rest comes from the book."""
        book = army.book
        selection = book.selection_of(unit.id) if book is not None else None
        if selection is None:
            return False
        if key == "name":
            text = " ".join(str(value).split())[:200]
            if not text or text == unit.name:
                return False
            return self.edit(army, f"Rename {unit.name} to {text}",
                             lambda data, roster: book_choices.rename(
                                 roster, selection, text)) is not None
        if key == "models":
            loaded = self.loaded(book) if book is not None else None
            if loaded is None:
                self._say("Reading the army book… do it again in a moment.")
                return False
            roster = books.book_roster(loaded.data, army).roster
            shown = book_choices.unit_choices(loaded.data, roster, selection)
            if shown.models is None:
                self._say(f"{unit.name} is one model: its army book gives it no number")
                return False
            count = int(value)
            return self.edit(army, f"{unit.name}: {count} models",
                             lambda data, roster: book_choices.set_amount(
                                 data, roster, selection, shown.models.entry_id, count)
                             if shown.models is not None else roster) is not None
        self._say(f"{unit.name}'s {key} comes from its army book: change its options in "
                  "the Army Book dock")
        return False

    def delete_units(self, army: Army, unit_ids: Sequence[str]) -> bool:
        """Delete units of an army built from a book: their selections go from its roster
        (units not of the book just go), as one undo step."""
        book = army.book
        if book is None:
            return False
        wanted = set(unit_ids)
        selections = [s for u, s in book.units if u in wanted]
        names = ", ".join(u.name for u in army.units if u.id in wanted)
        plain = tuple(u for u in army.units if u.id not in wanted or book.selection_of(u.id))

        def change(data: GameData, roster: Roster) -> Roster:
            for selection in selections:
                roster = book_choices.remove_unit(roster, selection)
            return roster
        return self.edit(replace(army, units=plain), f"Delete {names}", change) is not None \
            if selections else False

    def duplicate_units(self, army: Army, unit_ids: Sequence[str]) -> list[str]:
        """Copies of units of an army built from a book, each with its options; the new
        units' ids."""
        book = army.book
        if book is None:
            return []
        selections = [s for u, s in book.units if u in set(unit_ids)]
        before = {u.id for u in army.units}
        names = ", ".join(u.name for u in army.units if u.id in set(unit_ids))

        def change(data: GameData, roster: Roster) -> Roster:
            for selection in selections:
                roster = book_choices.duplicate(roster, selection)
            return roster
        saved = self.edit(army, f"Duplicate {names}", change)
        return [u.id for u in saved.units if u.id not in before] if saved else []

    def change_settings(self, army: Army, changed: Army) -> None:
        """Army Settings on an army built from a book: the name and the points limit are
        its roster's too."""
        limit = changed.points_limit

        def change(data: GameData, roster: Roster) -> Roster:
            return book_choices.with_points_limit(data, roster, limit)
        self.edit(replace(changed, book=army.book), f"Change settings of {army.name}", change)

    # File ▸ New Army from an Army Book…

    def book_choices(self) -> list[BookChoice]:
        store = self.store
        if store is None:
            return []
        stored = stored_data.list_data(store)
        systems = {d.game_system_id: d.name for d in stored if d.kind == "gameSystem"}
        found = [BookChoice(d.game_system_id, systems.get(d.game_system_id, d.game_system_id),
                            d.id, d.name, d.revision)
                 for d in stored if d.kind == "catalogue" and not d.library]
        return sorted(found, key=lambda b: (b.game_system_name.casefold(),
                                            b.catalogue_name.casefold()))

    def new_army(self) -> None:
        window = self.window
        if window.workspace is None or window.workspace.read_only:
            return
        dialog = BookArmyDialog(self.book_choices(), window)
        self.current_dialog: BookArmyDialog | None = dialog

        def forces_of(book: BookChoice | None) -> None:
            if book is None:
                return
            self.load(book, lambda loaded: dialog.set_forces(book, _forces(loaded)))
        dialog.ui.bookTree.currentItemChanged.connect(lambda *_: forces_of(dialog.book))
        forces_of(dialog.book)
        accepted = dialog.exec() == BookArmyDialog.DialogCode.Accepted
        self.current_dialog = None
        book = dialog.book
        if not accepted or book is None:
            return
        loaded = self.loaded(book)
        if loaded is None:
            return
        try:
            built = books.new_book_army(loaded.data, book.catalogue_id, dialog.force_id,
                                        dialog.name, dialog.player, dialog.points_limit)
        except book_errors.RosterActionError as error:
            window.report_error("Cannot build the army", error)
            return
        created = self._push(None, built.army, f"New army {built.army.name}")
        if created is not None:
            window.select_army(created.id)
            self.show_dock()

    # Add Units

    def add_units(self) -> None:
        army = self.army()
        if army is None or army.book is None:
            return
        book = army.book

        def show(loaded: LoadedBook) -> None:
            current = self.army()
            if current is None or current.id != army.id:
                return
            self._add_units(current, loaded)
        if self.loaded(book) is None:
            self._say("Reading the army book…")
        self.load(book, show)

    def units_dialog(self, army: Army, loaded: LoadedBook) -> BookUnitsDialog:
        """The Add Units dialog for an army of a book, its units greyed as the engine says."""
        book = army.book
        assert book is not None
        roster = books.book_roster(loaded.data, army).roster
        force = roster.forces[0].id if roster.forces else ""
        offers = {o.entry_id: o.blocked for o in book_choices.unit_offers(
            loaded.data, roster, force, loaded.base_points)} if force else {}
        rows = [replace(row, blocked=offers.get(row.entry_id, "")) for row in loaded.units
                if row.entry_id in offers]
        return BookUnitsDialog(rows, loaded.slots, book.catalogue_name, self.window)

    def _add_units(self, army: Army, loaded: LoadedBook) -> None:
        dialog = self.units_dialog(army, loaded)
        if dialog.exec() != BookUnitsDialog.DialogCode.Accepted:
            return
        chosen = dialog.chosen()
        if not chosen:
            return
        before = {unit.id for unit in army.units}
        names = ", ".join(dialog.rows[entry].name for entry in chosen)

        def change(data: GameData, roster: Roster) -> Roster:
            force = roster.forces[0].id
            for entry in chosen:
                roster, _ = book_choices.add_unit(data, roster, force, entry)
            return roster
        saved = self.edit(army, f"Add {names}", change)
        if saved is not None:
            self.window.select_units([u.id for u in saved.units if u.id not in before])
            self.show_dock()

    # File ▸ Game Data…

    def data_rows(self) -> list[DataRow]:
        store = self.store
        if store is None:
            return []
        armies = self.window.workspace.armies() if self.window.workspace else []
        rows = []
        for stored in stored_data.list_data(store):
            summary = stored.summary
            used = sum(1 for _ in books.armies_of(armies, stored.game_system_id, stored.id
                                                  if stored.kind == "catalogue" else None))
            rows.append(DataRow(stored.game_system_id, stored.id, stored.kind, stored.name,
                                stored.revision, stored.library,
                                int(summary.get("units", 0) or 0),
                                tuple(str(p) for p in summary.get("problems", [])),
                                stored.file_name, used))
        return rows

    def show_game_data(self) -> None:
        """The Game Data dialog, modal to the window but not blocking it: additions run in a
        worker while it stays open and shows what they stored."""
        window = self.window
        if self.store is None:
            return
        if self.dialog is not None:
            self.dialog.raise_()
            return
        dialog = GameDataDialog(window)
        self.dialog = dialog
        dialog.show_rows(self.data_rows())
        writable = window.workspace is not None and not window.workspace.read_only
        for button in (dialog.ui.addFilesButton, dialog.ui.addFolderButton,
                       dialog.ui.removeButton):
            button.setEnabled(writable and (button is not dialog.ui.removeButton
                                            or bool(dialog.rows)))
        dialog.ui.addFilesButton.clicked.connect(lambda: self._choose_files(dialog))
        dialog.ui.addFolderButton.clicked.connect(lambda: self._choose_folder(dialog))
        dialog.ui.removeButton.clicked.connect(lambda: self.remove_chosen(dialog))
        dialog.finished.connect(lambda _: self._game_data_closed(dialog))
        dialog.open()

    def _game_data_closed(self, dialog: GameDataDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()

    def _choose_files(self, parent: QWidget) -> None:
        paths = file_dialogs.open_file_names(parent, "Add Game Data", "", DATA_FILTER)
        if paths:
            self.add_paths([Path(p) for p in paths], parent)

    def _choose_folder(self, parent: QWidget) -> None:
        folder = file_dialogs.existing_directory(parent, "Add a Folder of Game Data")
        if folder:
            self.add_paths([Path(folder)], parent)

    def add_paths(self, paths: Sequence[Path], parent: QWidget | None = None,
                  on_finished: Callable[[], None] | None = None) -> None:
        """Read, check and store game data in a worker, a progress dialog meanwhile that
        can cancel it; nothing is stored when it is cancelled or a file is bad."""
        window = self.window
        store = self.store
        if store is None or window.workspace is None or window.workspace.read_only:
            return
        owner = parent or window
        progress = QProgressDialog("Reading game data…", "Cancel", 0, 0, owner)
        progress.setObjectName("gameDataProgress")
        progress.setWindowTitle("Adding game data")
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(PROGRESS_DELAY_MS)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        progress.setValue(0)
        # The worker's closure holds only a plain Event and the window-long reporter. Had
        # it held the last reference to an object a signal is connected to (progress's
        # canceled to stop.set, as it did), the pool thread freed it and disconnected
        # under Qt's lock while the window thread, in progress.close(), held the GIL and
        # waited for that lock: the window froze for good after adding game data.
        stop = self._adding_stop = threading.Event()
        progress.canceled.connect(self._cancel_adding)
        reporter = self._reporter
        reporter.said.connect(progress.setLabelText)
        self.progress = progress

        def step(text: str) -> None:  # on the worker's thread
            if stop.is_set():
                raise Cancelled
            reporter.said.emit(text)

        def work() -> Any:
            inputs = stored_data.collect(list(paths), step)
            return stored_data.add_data(store, inputs, progress=step)

        def finish() -> None:
            reporter.said.disconnect(progress.setLabelText)
            progress.canceled.disconnect(self._cancel_adding)
            progress.reset()
            progress.close()
            progress.deleteLater()
            self.progress = None
            self._adding_stop = None
            if self.dialog is not None:
                self.dialog.show_rows(self.data_rows())
            if on_finished is not None:
                on_finished()

        def done(report: Any) -> None:
            self._drop_books()  # a newer revision may be stored now
            self.last_report = _report_text(report)
            # News of the armies, not of the battle on the table; each file's warnings are
            # in the Game Data dialog's details.
            window.tell(self.last_report)
            finish()
            self.schedule_refresh()

        def failed(error: BaseException) -> None:
            finish()
            if isinstance(error, Cancelled):
                self.last_report = "Adding game data cancelled: nothing was stored"
                window.tell(self.last_report)
                return
            self.last_report = str(error)
            window.report_error("Cannot add the game data", error)

        window.runner.run(work, done, failed)

    def _cancel_adding(self) -> None:
        if self._adding_stop is not None:
            self._adding_stop.set()

    def remove_chosen(self, dialog: GameDataDialog) -> None:
        key = dialog.chosen()
        row = dialog.row(key)
        store = self.store
        window = self.window
        if row is None or store is None or window.workspace is None:
            return
        stored = stored_data.find(store, f"{row.game_system_id}/{row.id}")
        using = stored_data.armies_using(store, stored)
        what = "game system (and its catalogues)" if row.kind == "gameSystem" else "army book"
        if using:
            names = ", ".join(name for _, name in using[:6]) + (" …" if len(using) > 6 else "")
            box = QMessageBox(QMessageBox.Icon.Warning, "Remove game data",
                              f"{row.name} is the army book of {len(using)} "
                              f"arm{'y' if len(using) == 1 else 'ies'}: {names}. It cannot "
                              "go while they are built from it. Keep them as plain units "
                              "(their units stay as they are, with the book's points, but "
                              "no options or limits any more) and remove it?", parent=dialog)
            keep = box.addButton("Keep as plain units and remove",
                                 QMessageBox.ButtonRole.AcceptRole)
            box.addButton(QMessageBox.StandardButton.Cancel)
            box.exec()
            if box.clickedButton() is not keep:
                return
        else:
            answer = QMessageBox.question(dialog, "Remove game data",
                                          f"Remove the {what} {row.name}? Add its file again "
                                          "to have it back.")
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            removed = stored_data.remove_data(store, f"{row.game_system_id}/{row.id}",
                                              keep_armies=bool(using))
        except store_errors.StoreError as error:
            window.report_error("Cannot remove the game data", error)
            return
        if removed.unlinked:
            # Their history refers to the armies as they were built from the book.
            window.undo_stack.clear()
            for army_id, _ in using:
                window.workspace.show_stored(store.load_army(army_id))
            window.tell(f"Kept as plain units: {', '.join(removed.unlinked)} (the undo "
                       "history was cleared)")
        self._drop_books()
        window.tell(f"Removed {', '.join(d.name for d in removed.gone)}")
        dialog.show_rows(self.data_rows())
        self.schedule_refresh()

    # Dropped files

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.window and event.type() in (QEvent.Type.DragEnter,
                                                       QEvent.Type.Drop):
            assert isinstance(event, QDragEnterEvent | QDropEvent)
            paths = _data_paths(event)
            if not paths:
                return False
            if event.type() == QEvent.Type.DragEnter:
                event.acceptProposedAction()
                return True
            event.acceptProposedAction()
            self.add_paths(paths)
            return True
        return False

    # Exports and imports

    def export_roster(self, army: Army, path: Path) -> bool:
        """Write the army's BattleScribe roster (.ros/.rosz) from its book's data: at once
        when the data is read, else in a worker. False when refused (the reason shown)."""
        window = self.window
        store = self.store
        if store is None:
            return False
        book = army.book
        loaded = self.loaded(book) if book is not None else None
        if loaded is not None or book is None:
            try:
                if loaded is not None:
                    books.write_roster_file(loaded.data, army, path)
                else:
                    books.write_army_roster(store, army, path)  # refused, with the reason
            except store_errors.StoreError as error:
                window.report_error("Cannot export", error)
                return False
            window.tell(f"Exported {army.name} to {path} ({path.suffix.lstrip('.')})")
            return True

        def done(kind: object) -> None:
            window.tell(f"Exported {army.name} to {path} ({kind})")

        window.runner.run(lambda: books.write_army_roster(store, army, path), done,
                          lambda error: window.report_error("Cannot export", error),
                          progress_parent=window, label=f"Exporting {path.name}…")
        return True


def _forces(loaded: LoadedBook) -> list[ForceChoice]:
    context = loaded.data.context(loaded.catalogue_id)
    found: list[ForceChoice] = []
    for file in reversed(context.files):  # the catalogue's own first, then the system's
        found.extend(ForceChoice(f.id, f.name) for f in file.force_entries if not f.hidden)
    return found


def _book_title(army: Army, book: ArmyBook) -> str:
    costs = book.roster.get("costs", []) if isinstance(book.roster, dict) else []
    others = ", ".join(f"{c['value']} {c['name']}" for c in costs
                       if isinstance(c, dict) and c.get("name") not in ("pts", "points")
                       and c.get("value"))
    limit = f" of {army.points_limit}" if army.points_limit else ""
    return (f"<b>{book.catalogue_name}</b> (revision {book.catalogue_revision})<br>"
            f"{army.points}{limit} points" + (f" · {others}" if others else ""))


def _report_text(report: Any) -> str:
    parts = []
    if report.stored:
        parts.append(f"stored {len(report.stored)} file{'s' if len(report.stored) != 1 else ''}")
    if report.replaced:
        parts.append("replaced " + ", ".join(f"{new.name} (revision {old.revision} → "
                                             f"{new.revision})"
                                             for old, new in report.replaced))
    if report.unchanged:
        parts.append(f"{len(report.unchanged)} unchanged")
    if report.kept:
        parts.append(f"{len(report.kept)} older than the stored ones, not stored")
    if report.warnings:
        parts.append(f"{len(report.warnings)} warning{'s' if len(report.warnings) != 1 else ''}"
                     " (entries left out, the rest usable)")
    return "Game data: " + ("; ".join(parts) if parts else "nothing to store")


def _data_paths(event: QDragEnterEvent | QDropEvent) -> list[Path]:
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
    return [p for p in paths if p.suffix.lower() in DATA_SUFFIXES or p.is_dir()] \
        if paths and all(p.suffix.lower() in DATA_SUFFIXES or p.is_dir() for p in paths) \
        else []


__all__ = ["NO_DATA_LINE", "ArmyBooks", "Cancelled", "LoadedBook"]
