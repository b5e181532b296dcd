"""The main window: the Designer form from ui/mainwindow.ui, the roster panes, the table.

The form (docks, menus, toolbar, status bar) is compiled into
`desktop.gui.forms.ui_mainwindow`; this class wires it up. The window paints before any
database work: `open_database` reads the store in a worker thread (desktop.gui.database_open),
and the roster panes (which import the engine and the store) are built when it answers.
Import, export and the sample armies are desktop.gui.army_files'. The battlefield is a
QGraphicsScene in table units (inches), with y growing up the table: the view flips the y
axis, so scene code never has to.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from PySide6.QtCore import (
    QByteArray,
    QItemSelectionModel,
    QObject,
    QRect,
    QSettings,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QGuiApplication,
    QIcon,
    QKeySequence,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QToolBar,
    QToolButton,
    QWidget,
)

from desktop import __version__
from desktop.bundled import resource_path, resources_dir
from desktop.gui import file_dialogs
from desktop.gui.army_files import ArmyFiles
from desktop.gui.battle_log import BattleLog
from desktop.gui.context_menus import ContextMenus
from desktop.gui.database_check import DatabaseChecker
from desktop.gui.database_open import DatabaseOpener
from desktop.gui.database_watch import DatabaseReload
from desktop.gui.docks import hold_size, settle_dock
from desktop.gui.features import (
    army_actions,
    army_books,
    army_tree,
    battle_panel,
    chart,
    columns,
    commands,
    delegates,
    dialogs,
    model,
    odds_dialog,
    printing,
    roster_table,
    rosters,
    rulesets,
    tasks,
    workspaces,
)
from desktop.gui.forms.ui_mainwindow import Ui_MainWindow

if TYPE_CHECKING:  # the panes import the engine and the store: not before the first paint
    from desktop.engine.composition import Library
    from desktop.engine.model import Army, LibraryEntry, Unit
    from desktop.engine.roster import RosterProblem
    from desktop.gui.army_actions import ArmyActions
    from desktop.gui.army_books import ArmyBooks
    from desktop.gui.army_tree import ArmyTreeModel, DropHints
    from desktop.gui.battle_panel import BattlePanel, StatusLine
    from desktop.gui.battlefield.scene import BattlefieldScene
    from desktop.gui.battlefield.view import BattlefieldView
    from desktop.gui.chart import RosterChart
    from desktop.gui.columns import NameColumnFollower, RosterColumns
    from desktop.gui.roster_table import RosterFilter, RosterTableModel
    from desktop.gui.tasks import TaskRunner
    from desktop.gui.workspace import Workspace
    from desktop.store.store import Store

LAYOUT_VERSION: Final = 2
FRAME_ALLOWANCE: Final = (8, 40)  # (width, height) a window manager's frame may take
"""Bump when the docks change so that an old saved layout is ignored, not half-applied."""
GEOMETRY_KEY: Final = "mainWindow/geometry"
STATE_KEY: Final = "mainWindow/state"
WELCOMED_KEY: Final = "welcome/shown"
LAST_ARMY_KEY: Final = "roster/lastArmy"  # an army id: ids are unique across databases
GROUP_BY_SLOT_KEY: Final = "roster/groupBySlot"

ABOUT_TEXT: Final = (
    "<p><b>Rout {version}</b></p>"
    "<p>Rout is an army and battle manager for rank-and-flank miniatures games that walks "
    "you through Break tests, fleeing and pursuit with the exact odds of every roll.</p>"
)

NO_BATTLE_TEXT: Final = "No battle loaded"
NEWS_MS: Final = 10_000  # how long news of the armies or the database stays in the status bar
ICON_THEME: Final = "rout"


def install_icon_theme() -> None:
    """Rout's SVG icons as an icon theme, so the form's `iconset theme=` names resolve."""
    folder = str(resources_dir() / "icons")
    if folder not in QIcon.themeSearchPaths():
        QIcon.setThemeSearchPaths([folder, *QIcon.themeSearchPaths()])
    QIcon.setThemeName(ICON_THEME)


# The widest points line above the roster: its label keeps this width, so that a new total
# repaints the label alone, not the whole window (desktop.gui.docks.hold_size).
POINTS_SAMPLE = "99,999 / 99,999 points · 999 units · 9,999 models"


class _ToolbarButton(QAction):
    """The toolbar's Undo or Redo: a short fixed label, the step's whole name ("Undo Resolve
    combat: …") in its tool tip. The Edit menu's actions carry the step's name in their text,
    which on the toolbar pushed the last buttons into its overflow menu."""

    def __init__(self, stack: QUndoStack, redo: bool, parent: QObject) -> None:
        self._label = "Redo" if redo else "Undo"
        self.tip = self._label
        super().__init__(QIcon.fromTheme(f"edit-{self._label.lower()}"), self._label, parent)
        self.setObjectName(f"action{self._label}Button")
        self._enable(stack.canRedo() if redo else stack.canUndo())
        self._name(stack.redoText() if redo else stack.undoText())
        (stack.canRedoChanged if redo else stack.canUndoChanged).connect(self._enable)
        (stack.redoTextChanged if redo else stack.undoTextChanged).connect(self._name)
        self.triggered.connect(stack.redo if redo else stack.undo)

    def _enable(self, can: bool) -> None:
        self.setEnabled(can)

    def _name(self, step: str) -> None:
        # On the toolbar's button, not the action: a changed action makes the toolbar, and
        # with it the whole window, lay out again on every step.
        self.tip = f"{self._label} {step}" if step else self._label
        for widget in self.associatedObjects():
            if isinstance(widget, QToolButton):
                widget.setToolTip(self.tip)


class MainWindow(QMainWindow):
    """Rout's main window. With `settings`, layout, database and recent files are kept."""

    ready = Signal()  # a database is open and the panes show it
    failed = Signal(str)  # a database could not be opened; the message says why

    def __init__(self, parent: QWidget | None = None, *,
                 settings: QSettings | None = None) -> None:
        super().__init__(parent)
        install_icon_theme()
        self._settings = settings
        self.ui = Ui_MainWindow()
        self.ui.setupUi(self)
        self.setWindowIcon(QIcon(str(resource_path("icons", "rout.svg"))))

        self.undo_stack = QUndoStack(self)
        # The battle half is built on first use: it imports the engine (shapely), which the
        # first frame must not wait for.
        self._battles: BattlePanel | None = None
        self.battle_line: StatusLine | None = None  # the battle's messages, with the panel
        self._army_actions: ArmyActions | None = None
        self._army_books: ArmyBooks | None = None  # built when an army book is first used
        self._drop_hints: DropHints | None = None
        self.database_opener = DatabaseOpener(self, settings)
        self.army_files = ArmyFiles(self)
        self.context_menus = ContextMenus(self)
        self.database_reload = DatabaseReload(self)
        self.database_checker = DatabaseChecker(self)
        for action in (self.ui.actionNewBattle, self.ui.actionRenameBattle,
                       self.ui.actionDuplicateBattle, self.ui.actionDeleteBattle,
                       self.ui.actionDeployArmy, self.ui.actionFitTable,
                       self.ui.actionSampleBattles, self.ui.actionResolveCombat,
                       self.ui.actionStartOfTurn, self.ui.actionChargeFleeing,
                       self.ui.actionShooting, self.ui.actionChargeReaction,
                       self.ui.actionNextTurn, self.ui.actionExportReport,
                       self.ui.actionExportView):
            action.setEnabled(False)

        # A permanent label rather than showMessage(): menu status tips would erase a message.
        self.battle_status = QLabel(NO_BATTLE_TEXT, self.ui.statusbar)
        self.battle_status.setObjectName("battleStatusLabel")
        self.ui.statusbar.addWidget(self.battle_status, 1)
        self.database_status = QLabel("", self.ui.statusbar)
        self.database_status.setObjectName("databaseStatusLabel")
        # A long database path is cut rather than allowed to widen the window.
        self.database_status.setMaximumWidth(360)
        self.ui.statusbar.addPermanentWidget(self.database_status)
        # Why editing is off, when the database may only be read (hidden otherwise).
        self.read_only_status = QLabel("", self.ui.statusbar)
        self.read_only_status.setObjectName("readOnlyStatusLabel")
        self.read_only_status.setWordWrap(False)
        self.ui.statusbar.addPermanentWidget(self.read_only_status)
        self.read_only_status.hide()

        self._edit_actions()
        for dock in self.docks:
            self.ui.menuView.addAction(dock.toggleViewAction())
        self.ui.menuView.addAction(self.ui.mainToolBar.toggleViewAction())

        self.workspace: Workspace | None = None
        self.tree_model: ArmyTreeModel | None = None
        self.roster_model: RosterTableModel | None = None
        self.roster_filter: RosterFilter | None = None
        self.roster_columns: RosterColumns | None = None
        self.tree_columns: NameColumnFollower | None = None
        self.chart: RosterChart | None = None
        self.welcome_enabled = settings is not None
        self._runner: TaskRunner | None = None
        # False for a window that only looks (--screenshot): it may share a file.
        self.exclusive = True
        # True in a window nobody sits at (--screenshot): a message box would wait forever.
        self.unattended = False
        self._closing = False
        # The dialog that holds this window still (lock_while_open), while one does.
        self.locked_by: QDialog | None = None

        self.ui.actionQuit.triggered.connect(self.close)
        self.ui.actionAbout.triggered.connect(self.show_about)
        self.ui.actionOdds.triggered.connect(self.show_odds)
        self.battle_log = BattleLog(self.ui.logView, self)
        self.battle_log.unitsChosen.connect(self._log_clicked)
        self.ui.actionNewArmy.triggered.connect(self.new_army)
        self.ui.actionNewBookArmy.triggered.connect(lambda: self.army_books.new_army())
        self.ui.actionGameData.triggered.connect(lambda: self.army_books.show_game_data())
        self.ui.actionArmySettings.triggered.connect(self.edit_army_settings)
        self.ui.actionCloneArmy.triggered.connect(lambda: self.army_actions.clone_army())
        self.ui.actionSortBySlot.triggered.connect(
            lambda: self.army_actions.sort_units_by_slot())
        if settings is not None:
            self.ui.actionGroupBySlot.setChecked(
                bool(settings.value(GROUP_BY_SLOT_KEY, False, bool)))
        self.ui.actionGroupBySlot.toggled.connect(self._group_by_slot)
        self.ui.actionDeleteArmy.triggered.connect(self.delete_army)
        self.ui.actionAddUnits.triggered.connect(self.add_units_from_library)
        self.ui.actionDuplicateUnit.triggered.connect(self.duplicate_units)
        self.ui.actionDeleteUnit.triggered.connect(self.delete_units)
        self.ui.actionUseListedPrice.triggered.connect(self.use_listed_prices)
        self.ui.actionFind.triggered.connect(self._find)
        self.ui.actionExportPdf.triggered.connect(self.choose_pdf)
        self.ui.actionPrint.triggered.connect(self.print_roster)
        self.ui.actionPrintPreview.triggered.connect(self.preview_roster)
        self.ui.actionReload.triggered.connect(lambda: self.database_reload.reload())
        self.ui.searchEdit.textChanged.connect(self._filter)
        self.ui.centralTabs.currentChanged.connect(self._tab_shown)
        # Behind another dock's tab (the Army Book's, while building) the Unit dock is not
        # written: every text set there relaid the whole window on each edit (~8 ms of an
        # army book edit's 50). It catches up when it comes in sight.
        self._inspector_stale = False
        self._battle_title = ""  # the battle on the table, '' before one is opened
        self.ui.inspectorDock.visibilityChanged.connect(self._inspector_in_sight)
        settle_dock(self.ui.inspectorDock, self.ui.inspectorDockContents)
        hold_size(self.ui.pointsLabel, POINTS_SAMPLE)
        self.ui.searchEdit.setMinimumWidth(180)
        # Long army names are cut, not allowed to widen the window.
        self.ui.armyTitle.setSizePolicy(QSizePolicy.Policy.Ignored,
                                        QSizePolicy.Policy.Preferred)
        self.ui.rosterHeader.setStretch(0, 1)
        for label in (self.ui.unitTitle, self.ui.unitDetails):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.ui.rosterTable.setWordWrap(False)
        self.ui.chartHolder.setMinimumHeight(180)
        self.ui.chartHolder.setMaximumHeight(280)
        # Title and details hug the top; the details take the spare height, not the gaps.
        self.ui.inspectorLayout.setStretchFactor(self.ui.unitDetails, 1)
        self._update_actions()
        self._default_layout()
        if settings is not None:
            self.restore_layout(settings)

    @property
    def battles(self) -> battle_panel.BattlePanel:
        """The Battles dock, reserve, Battle menu and battlefield (desktop.gui.battle_panel)."""
        if self._battles is None:

            self._battles = battle_panel.BattlePanel(self.ui, self, self.undo_stack, self._settings)
            self.battle_line = battle_panel.StatusLine(self.battle_status, self)
            self._battles.status.connect(self.battle_line.say)
            self._battles.opened.connect(self._battle_opened)
            self._battles.inspect.connect(self._inspect_table_unit)
            self._battles.logged.connect(self.log)
            self._battles.loggedEvent.connect(self._log_event)
            self._battles.story.connect(self._show_story)
        return self._battles

    @property
    def army_actions(self) -> army_actions.ArmyActions:
        """Clone Army, units copied or moved between armies, Sort Units by Slot."""
        if self._army_actions is None:

            self._army_actions = army_actions.ArmyActions(self)
        return self._army_actions

    @property
    def army_books(self) -> army_books.ArmyBooks:
        """Game data, armies built from army books, their options (the Army Book dock)."""
        if self._army_books is None:
            self._army_books = army_books.ArmyBooks(self)
        return self._army_books

    @property
    def battlefield_scene(self) -> BattlefieldScene:
        return self.battles.scene

    @property
    def battlefield_view(self) -> BattlefieldView:
        return self.battles.view

    def lock_while_open(self, dialog: QDialog) -> None:
        """Nothing in this window takes input until `dialog` finishes, as a window-modal
        dialog would make it, except that the window's close button still reaches closeEvent
        (Qt drops a close event sent to a window a modal dialog blocks, so nothing asked)."""
        parts: list[QWidget] = [self.menuBar(), self.ui.centralwidget]
        parts += [part for kind in (QDockWidget, QToolBar) for part in self.findChildren(kind)
                  if part.parentWidget() is self]
        locked = [part for part in parts if part.isEnabled()]
        for part in locked:
            part.setEnabled(False)
        self.locked_by = dialog

        def unlock() -> None:
            self.locked_by = None
            for part in locked:
                part.setEnabled(True)

        dialog.finished.connect(unlock)

    @property
    def docks(self) -> tuple[QDockWidget, ...]:
        """The army tree, battles, unit inspector and battle log docks."""
        return self.ui.armyDock, self.ui.battleDock, self.ui.inspectorDock, self.ui.logDock

    def _edit_actions(self) -> None:
        undo = self.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        undo.setIcon(QIcon.fromTheme("edit-undo"))
        redo = self.undo_stack.createRedoAction(self, "&Redo")
        # The issue asks for Ctrl+Shift+Z everywhere; Ctrl+Y stays for Windows habits.
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        redo.setIcon(QIcon.fromTheme("edit-redo"))
        undo.setObjectName("actionUndo")
        redo.setObjectName("actionRedo")
        first = self.ui.menuEdit.actions()[0]
        self.ui.menuEdit.insertActions(first, [undo, redo])
        self.ui.menuEdit.insertSeparator(first)
        self.undo_button = _ToolbarButton(self.undo_stack, False, self)
        self.redo_button = _ToolbarButton(self.undo_stack, True, self)
        self.ui.mainToolBar.insertActions(self.ui.actionAddUnits,
                                          [self.undo_button, self.redo_button])
        for action in (self.undo_button, self.redo_button):
            # Each step renames the button's tool tip, which set its icon again and relaid
            # the whole window: a button of a fixed size keeps that to itself.
            button = self.ui.mainToolBar.widgetForAction(action)
            if button is not None:
                button.setFixedSize(button.sizeHint())
                button.setToolTip(action.tip)
        self.ui.mainToolBar.insertSeparator(self.ui.actionAddUnits)
        self.undo_action, self.redo_action = undo, redo

    def _default_layout(self) -> None:
        # Side docks run the full height; the battle log sits under the centre only.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        # Narrow enough for the whole roster, stat line and all, to fit at 1280x800.
        self.resizeDocks([self.ui.armyDock, self.ui.inspectorDock], [215, 225],
                         Qt.Orientation.Horizontal)
        # Armies above Battles in the left column; the armies get the larger share.
        self.resizeDocks([self.ui.armyDock, self.ui.battleDock], [440, 300],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.ui.logDock], [120], Qt.Orientation.Vertical)

    def restore_layout(self, settings: QSettings) -> None:
        """Put back the geometry and dock layout saved by the last session, if any."""
        geometry = settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        elif QGuiApplication.platformName() != "offscreen":  # its one "screen" is made up
            screen = self.screen()
            if screen is not None:
                self.fit_screen(screen.availableGeometry())
        state = settings.value(STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)

    def fit_screen(self, room: QRect) -> None:
        """A first start on a small screen (1366x768): the form's 1280x800 would hang off
        the bottom, status bar and all, so the window shrinks to what `room` offers, and
        stands in the middle of it (a window manager placing it lower left its bottom edge
        off the screen)."""
        # Before the first show there is no frame yet: leave room for a typical title bar.
        frame = self.frameGeometry().size() - self.geometry().size()
        frame_width = max(frame.width(), FRAME_ALLOWANCE[0])
        frame_height = max(frame.height(), FRAME_ALLOWANCE[1])
        width = min(self.width(), room.width() - frame_width)
        height = min(self.height(), room.height() - frame_height)
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
        self.move(room.left() + (room.width() - width - frame_width) // 2,
                  room.top() + (room.height() - height - frame_height) // 2)

    def save_layout(self, settings: QSettings) -> None:
        """Remember window geometry and dock layout (window state only, nothing else)."""
        settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        settings.setValue(STATE_KEY, self.saveState(LAYOUT_VERSION))

    def show_odds(self) -> None:
        """Quick odds without a battle; kept open beside the window while a game goes on."""

        dialog = odds_dialog.OddsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.odds_dialog = dialog

    def show_about(self) -> None:
        QMessageBox.about(self, "About Rout", ABOUT_TEXT.format(version=__version__))

    def log(self, text: str) -> None:
        self.battle_log.write(text)

    def tell(self, text: str) -> None:
        """News of the armies or the database: the status bar's, for a while. The battle log
        tells the battle on the table alone."""
        self.statusBar().showMessage(text, NEWS_MS)

    def _log_event(self, text: str, unit_ids: list[str]) -> None:
        """A battle event's line; clicking it later selects its units on the table."""
        self.battle_log.write(text, unit_ids)

    def _log_clicked(self, units: list[str]) -> None:
        if self._battles is not None:
            self._battles.scene.select_units(units)

    def _show_story(self, title: str, story: list[tuple[str, list[str]]]) -> None:
        """The battle log shows the battle on the table alone, from its start."""
        self._battle_title = title
        self._show_title()
        if title:
            self.battle_log.show_story(title, story)
        else:
            self.battle_log.clear()

    def _battlefield_in_front(self) -> bool:
        return self.ui.centralTabs.currentWidget() is self.ui.battlefieldTab

    def _inspector_hidden(self) -> bool:
        """Whether the Unit dock is out of sight (closed, or behind another tab); it is then
        marked to be written when it shows."""
        dock = self.ui.inspectorDock
        hidden = self.isVisible() and (not dock.isVisible()
                                       or dock.visibleRegion().isEmpty())
        self._inspector_stale = self._inspector_stale or hidden
        return hidden

    def _inspector_in_sight(self, visible: bool) -> None:
        if visible and self._inspector_stale:
            self._inspector_stale = False
            self._tab_shown(self.ui.centralTabs.currentIndex())

    def _inspect_table_unit(self, title: str, details: str) -> None:
        if not self._battlefield_in_front():
            return  # the Unit dock describes the roster's selection while it is in front
        if self._inspector_hidden():
            return
        self.ui.unitTitle.setText(title)
        self.ui.unitDetails.setText(details)
        self.ui.problemList.clear()
        self.ui.problemList.setVisible(False)

    def _show_title(self) -> None:
        """The window is named after what is in front: the battle on the table, or the
        army in the roster."""
        army = self.current_army
        if self._battlefield_in_front() and self._battle_title:
            self.setWindowTitle(f"{self._battle_title} — Rout")
        else:
            self.setWindowTitle(f"{army.name} — Rout" if army is not None else "Rout")

    def _tab_shown(self, index: int) -> None:
        self._show_title()
        # The points chart is the roster's army's: not shown beside a battle's unit.
        self.ui.chartHolder.setVisible(self.ui.centralTabs.widget(index)
                                       is not self.ui.battlefieldTab)
        # The Unit dock describes what is selected in the pane in front.
        if self.ui.centralTabs.widget(index) is self.ui.battlefieldTab:
            self.battles.view.show()  # built now if the database has not opened it yet
            self.battles.refresh_inspector()
        else:
            self._show_inspector()

    def _battle_opened(self, battle_id: str) -> None:
        summary = self.battles.workspace.summary(battle_id) if self.battles.workspace else None
        if summary is not None and self.battle_line is not None:
            self.battle_line.rest(f"Battle: {summary.title}")

    # The database

    @property
    def runner(self) -> tasks.TaskRunner:
        if self._runner is None:

            self._runner = tasks.TaskRunner(self)
        return self._runner

    def open_database(self, url: str) -> None:
        """Read the database in the background; `ready` or `failed` tells how it went."""
        self.database_opener.open_database(url)

    @property
    def store(self) -> Store | None:
        """The open database's store (desktop.gui.database_open), None before one opens."""
        return self.database_opener.store

    @property
    def closing(self) -> bool:
        """The window is closing: reads that answer now finish into nothing."""
        return self._closing

    def show_database(self, store: Store, armies: dict[str, Army],
                      libraries: dict[str, Library]) -> None:
        """The panes show a database that has just been read (DatabaseOpener).

        The window paints once, when the panes have settled: their column fits, item
        layouts and the docks' new sizes take a few turns of the event loop, and painting
        each turn drew the roster up to three times before the armies stood still.
        """
        painting = self.updatesEnabled()  # a window drawn only into a picture stays off
        self.setUpdatesEnabled(False)
        try:
            self._show_database(store, armies, libraries)
        finally:
            if painting:
                QTimer.singleShot(0, self, lambda: self.setUpdatesEnabled(True))

    def _show_database(self, store: Store, armies: dict[str, Army],
                       libraries: dict[str, Library]) -> None:

        self.undo_stack.clear()
        workspace = workspaces.Workspace(store, self)
        workspace.adopt(armies, libraries)
        self._show_workspace(workspace)
        self.battles.database_opened(store, self.runner, workspace.armies())
        assert self.battles.workspace is not None
        self.database_reload.database_opened(store, workspace, self.battles.workspace)
        where = store.describe()
        self.database_status.setText(where)
        self.database_status.setToolTip(f"Database: {where}")
        text, tip = workspace.read_only_note()
        self.read_only_status.setText(text)
        self.read_only_status.setToolTip(tip)
        self.read_only_status.setVisible(bool(text))
        self.tell(f"Opened {where}: {len(armies)} arm{'y' if len(armies) == 1 else 'ies'}")
        self._update_actions()
        if self.roster_columns is not None:
            self.roster_columns.fit_now()

    def _show_workspace(self, workspace: Workspace) -> None:
        old = self.workspace
        # The previous database's models go with it (the views hold only the new ones).
        leftovers: list[QObject] = [
            m for m in (self.tree_model, self.roster_model, self.roster_filter,
                        self.roster_columns) if m]
        leftovers += [view.selectionModel() for view in (self.ui.armyTree, self.ui.rosterTable)
                      if view.selectionModel() is not None]
        self.workspace = workspace
        workspace.failed.connect(self._store_refused)
        workspace.touched.connect(self._show_touched)
        self.tree_model = army_tree.ArmyTreeModel(workspace, self.undo_stack, self)
        self.ui.armyTree.setModel(self.tree_model)
        # Set widths, not fitted ones: measuring every row on every change is slow with big
        # armies. The name column can be dragged wider; long names elide in the middle, where
        # "Bretonnian Expedition (…)" and "Bretonnian Errantry (…)" still differ.
        if self.tree_columns is None:
            points_width = self.fontMetrics().horizontalAdvance("0000 / 0000") + 10
            self.tree_columns = columns.NameColumnFollower(self.ui.armyTree, points_width)
        self.tree_columns.apply()
        if not isinstance(self.ui.armyTree.itemDelegate(), columns.ArmyNameDelegate):
            self.ui.armyTree.setItemDelegate(columns.ArmyNameDelegate(self.ui.armyTree))
        self.ui.armyTree.setIndentation(14)  # two levels of the default 20 ate a short name
        self.ui.armyTree.expandToDepth(0)
        self.ui.armyTree.selectionModel().currentChanged.connect(self._tree_current)
        self.tree_model.unitsDropped.connect(lambda army_id, ids: self.select_units(ids))
        if self._drop_hints is None:  # why a drag cannot land, in the status bar ("" clears)
            self._drop_hints = army_tree.DropHints(self.ui.armyTree)
            self._drop_hints.hint.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.roster_model = roster_table.RosterTableModel(workspace, self.undo_stack, self)
        self.roster_filter = roster_table.RosterFilter(self)
        self.roster_filter.setSourceModel(self.roster_model)
        self.roster_filter.set_grouped(self.ui.actionGroupBySlot.isChecked())
        self.ui.rosterTable.setModel(self.roster_filter)
        if not isinstance(self.ui.rosterTable.itemDelegate(), delegates.RosterDelegate):
            delegate = delegates.RosterDelegate(self.ui.rosterTable)
            delegate.limitHit.connect(lambda message: self.statusBar().showMessage(message, 6000))
            self.ui.rosterTable.setItemDelegate(delegate)
        self.ui.rosterTable.verticalHeader().setVisible(False)
        self.ui.rosterTable.selectionModel().selectionChanged.connect(self._roster_selection)
        self.roster_columns = columns.RosterColumns(self.ui.rosterTable, self.roster_model)
        workspace.army_added.connect(self._army_added)
        for signal in (workspace.army_added, workspace.army_changed, workspace.army_removed):
            signal.connect(lambda *args: self.battles.armies_changed(workspace.armies()))
        workspace.army_changed.connect(lambda army_id, before: self._refresh_army())
        workspace.army_removed.connect(lambda army_id, removed: self._refresh_army())
        for item in leftovers:
            item.deleteLater()
        if old is not None:
            old.deleteLater()

        shown_first = sorted(workspace.armies(), key=lambda a: (
            army_tree.RULESET_ORDER.index(a.ruleset), a.name.casefold(), a.id))
        last = str(self._settings.value(LAST_ARMY_KEY, "")) if self._settings else ""
        if last and workspace.army(last) is not None:
            self.select_army(last)
        else:
            self.select_army(shown_first[0].id if shown_first else "")

    # What is selected

    @property
    def current_army(self) -> Army | None:
        if self.roster_model is None:
            return None
        return self.roster_model.army

    def select_army(self, army_id: str) -> None:
        if self.roster_model is None or self.tree_model is None:
            return
        changed = army_id != self.roster_model.army_id
        self.roster_model.set_army(army_id)
        self._remember_army(army_id)
        army = self.roster_model.army
        if changed and army is not None and army.units and not self.selected_units():
            # The Unit dock shows a profile from the start rather than an empty panel.
            self.select_units([army.units[0].id])
        index = self.tree_model.army_index(army_id) if army_id else None
        if index is not None and index.isValid():
            self.ui.armyTree.expand(index.parent())
            self.ui.armyTree.expand(index)
            if self.ui.armyTree.currentIndex() != index:

                self.ui.armyTree.selectionModel().setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows)
        self._refresh_army()

    def find_army(self, name_or_id: str) -> Army | None:
        """An army shown in the window, by id or by name ignoring case."""
        if self.workspace is None:
            return None
        armies = self.workspace.armies()
        return next((a for a in armies if a.id == name_or_id), None) or next(
            (a for a in armies if a.name.casefold() == name_or_id.casefold()), None)

    def selected_units(self) -> list[Unit]:
        if self.roster_model is None or self.roster_filter is None:
            return []
        rows = sorted({self.roster_filter.mapToSource(index).row() for index in
                       self.ui.rosterTable.selectionModel().selectedRows()})
        return [unit for unit in (self.roster_model.unit_at(row) for row in rows) if unit]

    def select_units(self, unit_ids: list[str]) -> None:
        if self.roster_model is None or self.roster_filter is None:
            return
        selection = self.ui.rosterTable.selectionModel()
        selection.clearSelection()

        flags = (QItemSelectionModel.SelectionFlag.Select
                 | QItemSelectionModel.SelectionFlag.Rows)
        for unit_id in unit_ids:
            row = self.roster_model.row_of(unit_id)
            if row >= 0:
                selection.select(self.roster_filter.mapFromSource(
                    self.roster_model.index(row, 0)), flags)

    def _tree_current(self, current: Any, previous: Any) -> None:
        army_id = current.data(army_tree.ARMY_ID_ROLE) if current.isValid() else None
        if not army_id:
            return
        if self.roster_model is not None and army_id != self.roster_model.army_id:
            self.roster_model.set_army(army_id)
            self._remember_army(army_id)
            self._refresh_army()
        unit_id = current.data(army_tree.UNIT_ID_ROLE)
        if unit_id:
            self.select_units([unit_id])

    def _remember_army(self, army_id: str) -> None:
        if self._settings is not None and army_id:
            self._settings.setValue(LAST_ARMY_KEY, army_id)

    def _army_added(self, army_id: str) -> None:
        self.select_army(army_id)

    def _roster_selection(self, *args: object) -> None:
        self._show_inspector()
        self._update_actions()

    def _refresh_army(self) -> None:
        army = self.current_army
        if army is None:
            self.ui.armyTitle.setText("No army selected")
            self.ui.pointsLabel.setText("")
        else:

            self.ui.armyTitle.setText(f"<b>{_escape(army.name)}</b> — {_escape(army.player)}")
            self.ui.armyTitle.setToolTip(rulesets.get_ruleset(army.ruleset).name)
            limit = f" / {army.points_limit}" if army.points_limit else ""
            over = army.points_limit and army.points > army.points_limit
            colour = "#a02020" if over else "#2f3b45"
            self.ui.pointsLabel.setText(f"<span style='color:{colour}'><b>{army.points}"
                                        f"{limit}</b> points · {len(army.units)} units · "
                                        f"{army.models} models</span>")
            if army.book is not None:
                self.army_books.schedule_refresh()  # its dock shows the book's options
        self._show_title()
        self._show_inspector()
        self._update_actions()

    def _show_inspector(self) -> None:
        if self._inspector_hidden():
            return
        army = self.current_army
        if self._battlefield_in_front():
            return  # the table's selection is described by _inspect_table_unit
        units = self.selected_units()
        self.ui.problemList.clear()
        if army is None:
            self.ui.unitTitle.setText("No army selected")
            self.ui.unitDetails.setText("")
        elif units:
            unit = units[0]
            self.ui.unitTitle.setText(f"<b>{_escape(unit.name)}</b> ({_escape(unit.profile.name)})")
            self.ui.unitDetails.setText(_unit_html(unit, army.ruleset))
        else:
            self.ui.unitTitle.setText(f"<b>{_escape(army.name)}</b>")
            limit = f" of {army.points_limit}" if army.points_limit else ""
            notes = "<br>".join(_escape(note) for note in army.notes[:12])
            self.ui.unitDetails.setText(
                f"{len(army.units)} units, {army.models} models, {army.points}{limit} "
                "points.<br>Select a unit to see its profile."
                + (f"<br><br><i>Notes</i><br>{notes}" if notes else ""))
        if army is not None and self.workspace is not None:
            wanted = {unit.id for unit in units}
            for problem in self.workspace.problems(army):
                if not problem.unit_id or not wanted or problem.unit_id in wanted:
                    self.ui.problemList.addItem(f"⚠ {problem.message}" if
                                                problem.severity == "warning" else
                                                problem.message)
        self.ui.problemList.setVisible(self.ui.problemList.count() > 0)
        self._show_chart(army)

    def _show_chart(self, army: Army | None) -> None:
        if self.chart is None:
            if army is None:
                return

            self.chart = chart.RosterChart(self.ui.chartHolder)
            # The chart fits the dock, never widens it past the window's edge.
            self.chart.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.ui.chartLayout.addWidget(self.chart)
        self.chart.show_army(army)

    def _update_actions(self) -> None:
        # On a database that may only be read, what changes it is off; reading stays.
        writable = self.workspace is not None and not self.workspace.read_only
        army = self.current_army
        units = self.selected_units() if army is not None and writable else []
        self.ui.actionNewArmy.setEnabled(writable)
        self.ui.actionNewBookArmy.setEnabled(writable)
        self.ui.actionGameData.setEnabled(self.workspace is not None)
        # An army built from an army book takes its units from it, not from the library.
        from_book = army is not None and army.book is not None
        self.ui.actionAddUnits.setText("&Add Units from the Army Book…" if from_book
                                       else "&Add Units from Library…")
        self.ui.actionAddUnits.setStatusTip(
            "Add units from the army's catalogue, priced by it" if from_book
            else "Add units from the ruleset's unit library")
        self.ui.actionImport.setEnabled(writable)
        self.ui.actionOpenSamples.setEnabled(writable)
        # Reading again is no edit: offered on a database that may only be read too.
        self.ui.actionReload.setEnabled(self.workspace is not None)
        for action in (self.ui.actionExport, self.ui.actionExportPdf, self.ui.actionPrint,
                       self.ui.actionPrintPreview):
            action.setEnabled(army is not None)
        for action in (self.ui.actionDeleteArmy, self.ui.actionArmySettings,
                       self.ui.actionCloneArmy, self.ui.actionAddUnits):
            action.setEnabled(army is not None and writable)
        self.ui.actionDuplicateUnit.setEnabled(bool(units))
        self.ui.actionDeleteUnit.setEnabled(bool(units))
        self.ui.actionUseListedPrice.setEnabled(self.roster_model is not None and bool(
            self.roster_model.listed_prices([unit.id for unit in units])))
        self.ui.actionSortBySlot.setEnabled(army is not None and len(army.units) > 1
                                            and writable)

    def _group_by_slot(self, grouped: bool) -> None:
        if self.roster_filter is not None:
            self.roster_filter.set_grouped(grouped)
        if self._settings is not None:
            self._settings.setValue(GROUP_BY_SLOT_KEY, grouped)

    def _filter(self, text: str) -> None:
        if self.roster_filter is not None:
            self.roster_filter.setFilterFixedString(text)

    def _find(self) -> None:
        self.ui.centralTabs.setCurrentWidget(self.ui.rosterTab)
        self.ui.searchEdit.setFocus()
        self.ui.searchEdit.selectAll()

    # Edits: each one undo command

    def push_army(self, before: Army | None, after: Army | None, text: str) -> None:
        """One undo step replacing `before` with `after` (None: the army is new or gone)."""

        if self.workspace is not None:
            commands.push_edit(self.undo_stack,
                               commands.ReplaceArmy(self.workspace, before, after, text))

    def _show_touched(self, army_id: str) -> None:
        """After an undo or redo, show the army it changed, even if another was on screen."""
        if (army_id and self.workspace is not None and self.workspace.army(army_id)
                and self.roster_model is not None and army_id != self.roster_model.army_id):
            self.select_army(army_id)

    def _store_refused(self, message: str) -> None:
        self.log(message)
        QMessageBox.critical(self, "Could not save", message)

    def report_error(self, title: str, error: BaseException) -> None:
        """Say in the log and a message box why something the player asked for failed."""
        self.log(f"{title}: {error}")
        QMessageBox.critical(self, title, str(error) or type(error).__name__)

    def new_army(self) -> None:
        dialog = dialogs.NewArmyDialog(self, army_lists=self.workspace.army_lists()
                               if self.workspace else None)
        if dialog.exec() != dialogs.NewArmyDialog.DialogCode.Accepted:
            return
        army = model.Army(name=dialog.name, player=dialog.player, ruleset=dialog.ruleset, units=(),
                    points_limit=dialog.points_limit, army_list=dialog.army_list,
                    notes=dialog.notes)
        self.push_army(None, army, f"New army {army.name}")

    def edit_army_settings(self) -> None:

        army = self.current_army
        if army is None or self.workspace is None:
            return
        dialog = dialogs.NewArmyDialog(self, army, self.workspace.army_lists())
        if dialog.exec() != dialogs.NewArmyDialog.DialogCode.Accepted:
            return
        player = dialog.player
        units = tuple(replace(unit, player=player) for unit in army.units)
        changed = replace(army, name=dialog.name, player=player, units=units,
                          points_limit=dialog.points_limit, army_list=dialog.army_list,
                          notes=dialog.notes)
        if changed != army and army.book is not None:
            self.army_books.change_settings(army, changed)
        elif changed != army:
            self.push_army(army, changed, f"Change settings of {army.name}")

    def delete_army(self) -> None:
        army = self.current_army
        if army is None:
            return
        answer = QMessageBox.question(self, "Delete army",
                                      f"Delete {army.name} and its {len(army.units)} units? "
                                      "Edit ▸ Undo brings it back.")
        if answer == QMessageBox.StandardButton.Yes:
            self.push_army(army, None, f"Delete army {army.name}")

    def add_units_from_library(self) -> None:
        army = self.current_army
        if army is None or self.workspace is None:
            return
        if army.book is not None:  # its units come from its army book, not the library
            self.army_books.add_units()
            return
        dialog = dialogs.LibraryDialog(self.workspace.full_library(army.ruleset),
                               rulesets.get_ruleset(army.ruleset).name, self, army.army_list)
        if dialog.exec() == dialogs.LibraryDialog.DialogCode.Accepted:
            self.add_units(dialog.chosen())

    def add_units(self, entries: list[LibraryEntry]) -> None:

        army = self.current_army
        if army is None or not entries:
            return
        grown = army
        added = []
        for entry in entries:
            unit_id = rosters.unique_unit_id(grown, entry.profile.name)
            unit = rosters.unit_from_library(entry, unit_id, army.player)
            grown = replace(grown, units=(*grown.units, unit))
            added.append(unit.id)
        names = ", ".join(entry.profile.name for entry in entries)
        self.push_army(army, grown, f"Add {names}")
        self.select_units(added)

    def duplicate_units(self) -> None:

        army = self.current_army
        chosen = self.selected_units()
        if army is None or not chosen:
            return
        if army.book is not None:
            self.select_units(self.army_books.duplicate_units(army, [u.id for u in chosen]))
            return
        grown = army
        copies = []
        for unit in chosen:
            stem = unit.id.rsplit("-", 1)[0] if unit.id.rsplit("-", 1)[-1].isdigit() else unit.id
            name = f"{unit.name} (copy)" if len(unit.name) <= 193 else unit.name
            copy = replace(unit, id=rosters.unique_unit_id(grown, stem), name=name)
            grown = replace(grown, units=(*grown.units, copy))
            copies.append(copy.id)
        self.push_army(army, grown, f"Duplicate {', '.join(u.name for u in chosen)}")
        self.select_units(copies)

    def delete_units(self) -> None:
        army = self.current_army
        chosen = {unit.id for unit in self.selected_units()}
        if army is None or not chosen:
            return
        if army.book is not None:
            self.army_books.delete_units(army, sorted(chosen))
            return
        kept = tuple(unit for unit in army.units if unit.id not in chosen)
        names = ", ".join(u.name for u in army.units if u.id in chosen)
        self.push_army(army, replace(army, units=kept), f"Delete {names}")

    def use_listed_prices(self) -> None:
        """Edit ▸ Use the Library Price: typed points of the selected units give way."""
        if self.roster_model is not None:
            self.roster_model.use_listed_prices([unit.id for unit in self.selected_units()])

    def add_sample_armies(self) -> None:
        self.army_files.add_sample_armies()

    def show_welcome(self) -> None:
        if self._closing or not self.isVisible():
            return
        if self._settings is not None:
            if self._settings.value(WELCOMED_KEY, False, bool):
                return
            self._settings.setValue(WELCOMED_KEY, True)
        dialog = dialogs.WelcomeDialog(self)
        dialog.exec()
        if dialog.choice == dialogs.WelcomeDialog.NEW_ARMY:
            self.new_army()
        elif dialog.choice == dialogs.WelcomeDialog.NEW_BOOK_ARMY:
            self.army_books.new_army()
        elif dialog.choice == dialogs.WelcomeDialog.SAMPLES:
            self.add_sample_armies()
        elif dialog.choice == dialogs.WelcomeDialog.SAMPLE_BATTLES:
            self.battles.add_sample_battles()

    # Files

    def import_army(self, path: Path, on_finished: Callable[[], None] | None = None) -> None:
        """Read the file in a worker; the army then arrives as one undoable step."""
        self.army_files.import_army(path, on_finished)

    def export_army(self, path: Path) -> bool:
        return self.army_files.export_army(path)

    def choose_pdf(self) -> None:
        army = self.current_army
        if army is None:
            return
        path = file_dialogs.save_file_name(self, "Export as PDF", f"{army.name}.pdf",
                                           "PDF (*.pdf)")
        if path:

            try:
                printing.write_pdf(army, Path(path), self._printed_problems(army))
            except OSError as error:
                self.report_error("Cannot write the PDF", error)
                return
            self.log(f"Wrote {path}")

    def print_roster(self) -> None:
        army = self.current_army
        if army is not None:

            printing.print_roster(army, self, self._printed_problems(army))

    def preview_roster(self) -> None:
        army = self.current_army
        if army is not None:

            printing.preview_roster(army, self, self._printed_problems(army))

    def _printed_problems(self, army: Army) -> list[RosterProblem] | None:
        # The warnings the roster panes show, so the printout says what the window says.
        return self.workspace.problems(army) if self.workspace is not None else None

    def closeEvent(self, event: QCloseEvent) -> None:  # Qt override
        # An open resolution wizard asks first: its answers kept for later, thrown away,
        # or the players go on (and Rout stays open).
        wizard = self._battles.wizard if self._battles is not None else None
        if wizard is not None:
            choice = wizard.ask_to_leave("Quit Rout with a resolution open?")
            if choice == "stay":
                event.ignore()
                return
            wizard.leave(choice)
        # Reads still running finish into nothing: no welcome or dialog after the window.
        self._closing = True
        if self._settings is not None:
            self.save_layout(self._settings)
            self._settings.sync()
        if self._runner is not None:
            self._runner.wait_for_idle()
        self.database_opener.close()
        super().closeEvent(event)


def _escape(text: str) -> str:

    return escape(text)


def _unit_html(unit: Unit, ruleset: str) -> str:
    stats = "".join(f"<td align='center'><b>{_escape(k)}</b><br>{v}</td>"
                    for k, v in unit.profile.stats.items())
    lines = [f"<table cellspacing='4'><tr>{stats}</tr></table>",
             f"{unit.models} model{'' if unit.models == 1 else 's'}, {unit.files} wide × "
             f"{unit.ranks} deep, "
             f"{unit.points} points{', ' + _escape(unit.slot) if unit.slot else ''}",
             f"Troop type: {unit.profile.troop_type.value.replace('_', ' ')}; unit strength "
             f"{unit.profile.unit_strength} each"]
    if unit.upgrades:
        labels = rosters.upgrade_labels(unit, rulesets.get_ruleset(ruleset))
        lines.append("Upgrades: " + _escape(", ".join(labels)))
    if unit.profile.special_rules:
        # Profiles keep the rules' ids (purebreed_warhorse); the player reads their names.
        names = sorted(rulesets.rule_label(rule) for rule in unit.profile.special_rules)
        lines.append("Special rules: " + _escape(", ".join(names)))
    lines += [_escape(note) for note in unit.notes[:8]]
    return "<br>".join(lines)


__all__ = ["MainWindow", "sys"]
