"""The battle half of the main window: the Battles dock, the reserve, the Battle menu and
the battlefield, wired to the open database's battles (`battles.BattleWorkspace`).

The main window builds one and hands it the store when a database opens; everything about
battles is wired here so the main window stays wiring for the whole, not for each part.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QEvent,
    QObject,
    QPointF,
    QSettings,
    QSize,
    QStandardPaths,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QInputDialog,
    QLabel,
    QListView,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolBar,
    QToolButton,
    QWidget,
)

from desktop.engine.errors import RuleError
from desktop.engine.model import Status
from desktop.engine.naming import numbered_name
from desktop.gui import file_dialogs
from desktop.gui.army_tree import ARMY_ID_ROLE
from desktop.gui.features import (
    battle_report,
    battle_setup,
    battlefield_scene,
    battlefield_tools,
    battlefield_view,
    battles,
    bundled_samples,
    dialogs,
    geometry,
    moves,
    narrate,
    replay,
    resolutions,
    spatial,
    terrain_tool,
)

if TYPE_CHECKING:
    from desktop.engine.events import Event
    from desktop.engine.model import Army, Battle
    from desktop.gui.battlefield.scene import BattlefieldScene
    from desktop.gui.battlefield.view import BattlefieldView
    from desktop.gui.battles import BattleListModel, BattleWorkspace
    from desktop.gui.forms.ui_mainwindow import Ui_MainWindow
    from desktop.gui.main_window import MainWindow
    from desktop.gui.tasks import TaskRunner
    from desktop.store.store import Store

LAST_BATTLE_KEY = "battle/last"
REPORT_FOLDER_KEY = "battle/reportFolder"  # where the last battle report was written
MESSAGE_MS = 10_000  # an action's message in the status bar, then which battle is open
_DRAG_EVENTS = (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop)
UNIT_ID_ROLE = Qt.ItemDataRole.UserRole


class StatusLine(QObject):
    """The battle's part of the status bar: which battle is open (`rest`), and over it what
    the last action did or why it was refused (`say`), until the next one or `timeout_ms`."""

    def __init__(self, label: QLabel, parent: QObject | None = None,
                 timeout_ms: int = MESSAGE_MS) -> None:
        super().__init__(parent)
        self.label = label
        self.resting = label.text()
        self.timeout_ms = timeout_ms
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(lambda: self.label.setText(self.resting))

    def say(self, text: str) -> None:
        """An action's message: it replaces the last one and times out."""
        self.label.setText(text)
        self._timer.start(self.timeout_ms)

    def rest(self, text: str) -> None:
        """What the line says between messages; shown at once (the battle changed)."""
        self.resting = text
        self._timer.stop()
        self.label.setText(text)


class BattlePanel(QObject):
    """Battles of the open database; `opened` fires once a battle is on the table."""

    opened = Signal(str)
    status = Signal(str)  # one line for the status bar: what happened, or why not
    inspect = Signal(str, str)  # the selected unit on the table: title and details (HTML)
    logged = Signal(str)  # a line for the battle log: each step as it is saved
    loggedEvent = Signal(str, list)  # an event's line and the units it concerns
    # The battle now on the table, for the battle log: its title and its story so far, a
    # line per event with the units it names ("" and []: no battle on the table).
    story = Signal(str, list)

    def __init__(self, ui: Ui_MainWindow, window: MainWindow, undo_stack: Any,
                 settings: QSettings | None = None) -> None:
        super().__init__(window)
        self.ui = ui
        self.window = window
        self.undo_stack = undo_stack
        self.settings = settings
        self.workspace: BattleWorkspace | None = None
        self.list_model: BattleListModel | None = None

        self.resolutions = resolutions.Resolutions(self)
        # The battlefield (scene, view, tools, replay bar) is built the first time it is
        # needed: a battle opens or the player looks at the tab. A database that shows only
        # armies loads none of it, and its armies are on screen sooner.
        self._scene: BattlefieldScene | None = None
        self._view: BattlefieldView | None = None
        self._locked = ""
        ui.reserveList.setDragEnabled(True)
        ui.sideCombo.currentIndexChanged.connect(self._fill_reserve)
        ui.deployButton.setDefaultAction(ui.actionDeployArmy)
        ui.actionNewBattle.triggered.connect(self.new_battle)
        ui.actionRenameBattle.triggered.connect(self.rename_battle)
        ui.actionDuplicateBattle.triggered.connect(self.duplicate_battle)
        ui.actionDeleteBattle.triggered.connect(self.delete_battle)
        ui.actionDeployArmy.triggered.connect(self.deploy_army)
        ui.actionSampleBattles.triggered.connect(self.add_sample_battles)
        ui.actionResolveCombat.triggered.connect(lambda: self.resolutions.resolve_combat())
        ui.actionStartOfTurn.triggered.connect(lambda: self.resolutions.start_of_turn())
        ui.actionChargeFleeing.triggered.connect(lambda: self.resolutions._resolve_selected(
            "charge_fleeing", ("charger", "target")))
        ui.actionShooting.triggered.connect(
            lambda: self.resolutions._resolve_selected("shooting", ("unit",)))
        ui.actionChargeReaction.triggered.connect(lambda: self.resolutions._resolve_selected(
            "charge_reaction", ("unit", "charger")))
        ui.actionNextTurn.triggered.connect(lambda: self.resolutions.next_turn())
        ui.actionExportReport.triggered.connect(self.choose_report)

        ui.actionFitTable.triggered.connect(lambda: self.view.fit_table())
        ui.actionExportView.triggered.connect(self.choose_export_view)
        ui.battleList.activated.connect(self.activate)
        # Long titles end in "…" within the dock (the tool tip has them whole) rather than
        # running off under a horizontal scroll bar.
        ui.battleList.setItemDelegate(_WithinWidth(ui.battleList))
        ui.battleList.setResizeMode(QListView.ResizeMode.Adjust)
        ui.battleList.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # A vertical scroll bar coming or going narrows the viewport without a relayout.
        ui.battleList.verticalScrollBar().rangeChanged.connect(
            lambda *_: ui.battleList.doItemsLayout())
        self.armies: Sequence[Army] = ()
        self.update_actions()

    @property
    def scene(self) -> BattlefieldScene:
        if self._scene is None:
            self._build_battlefield()
        assert self._scene is not None
        return self._scene

    @property
    def view(self) -> BattlefieldView:
        if self._view is None:
            self._build_battlefield()
        assert self._view is not None
        return self._view

    @property
    def toolbar(self) -> QToolBar:
        """The battlefield's tools, built with the battlefield."""
        if self._view is None:
            self._build_battlefield()
        return self.tools

    @property
    def battlefield_built(self) -> bool:
        return self._scene is not None

    def _build_battlefield(self) -> None:
        ui = self.ui
        scene = self._scene = battlefield_scene.BattlefieldScene(self.window)
        scene.locked = self._locked
        self._view = battlefield_view.BattlefieldView(scene, ui.battlefieldTab)
        self.tools = self._tool_bar(ui.battlefieldTab)
        self._view.toolChanged.connect(self._tool_changed)
        ui.battlefieldLayout.addWidget(self.tools)
        ui.battlefieldLayout.addWidget(self._view)
        self.replay_bar = replay.ReplayBar(ui.battlefieldTab)
        self.replay = replay.Replay(self.replay_bar, scene)
        ui.battlefieldLayout.addWidget(self.replay_bar)
        # Whatever the table shows (now, a replayed step, a preview, the end of a preview),
        # the Unit dock describes it.
        scene.shown.connect(self._selection_changed)
        scene.selectionChanged.connect(self._selection_changed)
        scene.movesProposed.connect(self._moves_proposed)
        scene.message.connect(self.status)
        self._view.setAcceptDrops(True)
        self._view.viewport().setAcceptDrops(True)
        self._viewport = self._view.viewport()
        self._viewport.installEventFilter(self)

    def _tool_bar(self, parent: QWidget) -> QToolBar:
        """One checkable action per battlefield tool; its letter picks it while the
        battlefield has focus (not elsewhere: the roster takes typed letters)."""
        bar = QToolBar("Battlefield tools", parent)
        bar.setObjectName("battlefieldTools")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        group = QActionGroup(bar)
        self.tool_actions: dict[str, QAction] = {}
        for name in battlefield_tools.TOOLS:
            label, key, tip = TOOL_LABELS.get(name, (name.title(), "", ""))
            action = QAction(label, bar)
            action.setObjectName(f"tool_{name}")
            action.setCheckable(True)
            action.setStatusTip(tip)
            if key:
                action.setShortcut(QKeySequence(key))
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                action.setToolTip(f"{label} ({key})")
            action.triggered.connect(lambda checked=False, n=name: self._pick_tool(n))
            group.addAction(action)
            bar.addAction(action)
            parent.addAction(action)
            self.tool_actions[name] = action
        self.tool_actions["select"].setChecked(True)
        # Short words on the bar, so that every button fits beside the docks at 1280 wide;
        # the tool tips and menus keep the whole names.
        self.tool_actions["select"].setIconText("Select")
        # The kind the Terrain tool draws: a menu on its button, which takes no room of the
        # bar (a box beside it pushed Fit Table and Skip into the overflow at 1280 wide
        # beside the Army Book dock, issue 20 item 15).
        kinds_menu = QMenu("Terrain kind", bar)
        kinds = QActionGroup(kinds_menu)
        self.terrain_kinds: dict[str, QAction] = {}
        for kind, label in TERRAIN_KINDS:
            choice = kinds_menu.addAction(label)
            choice.setObjectName(f"terrainKind_{kind}")
            choice.setCheckable(True)
            kinds.addAction(choice)
            choice.triggered.connect(self._choose_terrain_kind)
            self.terrain_kinds[kind] = choice
        self.terrain_kinds[TERRAIN_KINDS[0][0]].setChecked(True)
        terrain = self.tool_actions["terrain"]
        terrain.setMenu(kinds_menu)
        button = bar.widgetForAction(terrain)
        if isinstance(button, QToolButton):
            button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        bar.addSeparator()
        # The turn tracker: which turn it is, and the step to the next one.
        self.turn_label = QLabel("", bar)
        self.turn_label.setObjectName("turnLabel")
        bar.addWidget(self.turn_label)
        bar.addAction(self.ui.actionNextTurn)
        bar.addAction(self.ui.actionResolveCombat)
        bar.addSeparator()
        bar.addAction(self.ui.actionFitTable)
        skip = QAction("Skip animation", bar)
        skip.setObjectName("actionSkipAnimation")
        skip.setIconText("Skip")
        skip.setToolTip("Skip animation")
        skip.setStatusTip("Show the end of the moves being played at once")
        skip.triggered.connect(self.scene.skip_animations)
        bar.addAction(skip)
        return bar

    def _pick_tool(self, name: str) -> None:
        self.view.set_tool(name)

    def _tool_changed(self, name: str) -> None:
        # The view's tool may come from its context menu too: the bar follows it.
        self.tool_actions[name].setChecked(True)
        self._apply_terrain_kind()

    def _choose_terrain_kind(self) -> None:
        """A kind chosen from the Terrain button's menu (its group has checked it): that
        tool, drawing that kind."""
        if isinstance(self.view.tool, terrain_tool.TerrainTool):
            self._apply_terrain_kind()
        else:
            self.view.set_tool("terrain")  # _tool_changed applies the kind

    @property
    def terrain_kind(self) -> str:
        """What the Terrain tool draws, as chosen in its button's menu."""
        return next(kind for kind, choice in self.terrain_kinds.items() if choice.isChecked())

    def _apply_terrain_kind(self) -> None:
        # A new Terrain tool starts at its own default: the player's choice is put back.
        if isinstance(self.view.tool, terrain_tool.TerrainTool):
            self.view.tool.kind = self.terrain_kind

    def refresh_inspector(self) -> None:
        """Describe the table's selection in the Unit dock again (its tab came to the front)."""
        self._selection_changed()

    def _selection_changed(self) -> None:
        battle = self.scene.battle
        chosen = self.scene.selected_units()
        if battle is None:
            self.inspect.emit("<b>No battle on the table</b>",
                              "Open one from the Battles dock, or start one with Battle ▸ "
                              "New Battle.")
            return
        if len(chosen) != 1 or chosen[0] not in battle.roster:
            # Nothing (or several) selected: say so rather than keep an old unit's state.
            on_table = sum(1 for state in battle.states.values() if state.status.on_table)
            # Destroyed and fled units are not drawn: name them here, with why.
            gone = [f"{_html(battle.roster[uid].name)} ({GONE[state.status]})"
                    for uid, state in battle.states.items() if state.status in GONE]
            self.inspect.emit(f"<b>Turn {battle.turn}</b>"
                              + ("" if self.scene.shown_as == "on the table"
                                 else f" {self.scene.shown_as}"),
                              f"{on_table} unit{'' if on_table == 1 else 's'} on the table. "
                              "Select one to see where it "
                              "stands, what it touches and whom it fights."
                              + ("<br>Gone: " + ", ".join(gone) if gone else ""))
            return
        uid = chosen[0]
        unit, state = battle.roster[uid], battle.states[uid]
        touching = [battle.roster[other].name
                    for other in spatial.units_within(battle, uid, geometry.CONTACT_TOLERANCE)]
        engaged = [battle.roster[other].name for other in sorted(state.engaged_with)
                   if other in battle.roster]
        unit_symbol = self.scene.unit_symbol()
        x, y = state.center
        lines = [f"{_html(unit.player)} · {state.models} models, {state.files} wide · "
                 f"{state.status}",
                 f"At {x:.1f}{unit_symbol}, {y:.1f}{unit_symbol}, facing {state.facing:.0f}°",
                 "Touches: " + (_html(", ".join(touching)) if touching else "nothing"),
                 "Engaged with: " + (_html(", ".join(engaged)) if engaged else "nobody")]
        lines += [f"{_html(m.stat)} {m.delta:+d} until turn {m.expires_after_turn}"
                  for m in state.modifiers]
        self.inspect.emit(f"<b>{_html(unit.name)}</b> {self.scene.shown_as}", "<br>".join(lines))

    # The database

    def database_opened(self, store: Store, runner: TaskRunner, armies: Sequence[Army]) -> None:
        old_model, old_workspace = self.list_model, self.workspace
        self.armies = armies
        self.story.emit("", [])  # another database: no battle on the table yet
        self.workspace = battles.BattleWorkspace(store, runner, self.undo_stack, self)
        self.workspace.changed.connect(self._battle_changed)
        self.workspace.opened.connect(self._opened)
        self.workspace.stepped.connect(self._narrate)
        # The log keeps what was said: a step taken back (or made again) is said too.
        self.workspace.undone.connect(lambda text: self._said(f"Undone: {text}"))
        self.workspace.redone.connect(lambda text: self._said(f"Redone: {text}"))
        self.workspace.failed.connect(self.report_failure)
        self.workspace.stale.connect(self._changed_elsewhere)
        self.workspace.listChanged.connect(self.update_actions)
        self.list_model = battles.BattleListModel(self.workspace, self)
        self.ui.battleList.setModel(self.list_model)
        self.ui.battleList.selectionModel().currentChanged.connect(
            lambda current, previous: self.update_actions())
        for leftover in (old_model, old_workspace):
            if leftover is not None:
                leftover.deleteLater()
        # A database that may only be read: battles open and replay, nothing moves.
        self._locked = (f"The database can only be read ({store.read_only_reason}): "
                        "nothing on the table can move" if store.read_only else "")
        if self._scene is not None:
            self._scene.show_battle(None)
            self._scene.locked = self._locked
        self.ui.reserveList.setDragEnabled(not store.read_only)
        last = str(self.settings.value(LAST_BATTLE_KEY, "")) if self.settings else ""
        if last and self.workspace.summary(last) is not None:
            self.open_battle(last)
        self.update_actions()

    def _said(self, text: str) -> None:
        """An undo or redo of a battle step: in the log, and over the last message."""
        self.logged.emit(text)
        self.status.emit(text)

    def armies_changed(self, armies: Sequence[Army]) -> None:
        self.armies = armies

    # Opening

    def find_battle(self, id_or_title: str) -> str:
        if self.workspace is None:
            return ""
        summaries = self.workspace.summaries
        found = next((s for s in summaries if s.id == id_or_title), None) or next(
            (s for s in summaries if s.title.casefold() == id_or_title.casefold()), None)
        return found.id if found else ""

    def open_battle(self, battle_id: str) -> None:
        if self.workspace is None:
            return
        self.status.emit("Opening the battle…")
        self.workspace.open(battle_id)

    def _opened(self, battle_id: str) -> None:
        QTimer.singleShot(0, lambda: self.resolutions.offer_resume(battle_id))
        if self.settings is not None:
            self.settings.setValue(LAST_BATTLE_KEY, battle_id)
        self.ui.centralTabs.setCurrentWidget(self.ui.battlefieldTab)
        QTimer.singleShot(0, self.view.fit_table)
        current = self.workspace.current if self.workspace is not None else None
        if current is not None and self.workspace is not None:
            self.story.emit(current.title, self.workspace.story)
        self.opened.emit(battle_id)

    def activate(self, index: Any) -> None:
        """Open the battle at `index` of the Battles list (activated, or its menu's Open)."""

        battle_id = index.data(battles.BATTLE_ID_ROLE)
        if battle_id:
            self.open_battle(str(battle_id))

    def _selected_or_open(self) -> str:
        index = self.ui.battleList.currentIndex()
        if index.isValid():
            return str(index.data(battles.BATTLE_ID_ROLE))
        return self.workspace.current_id if self.workspace else ""

    # Battle menu

    def new_battle(self) -> None:
        if self.workspace is None:
            return
        looked_at = self.ui.armyTree.currentIndex().data(ARMY_ID_ROLE)  # the Armies dock's
        dialog = dialogs.NewBattleDialog(self.armies, self.window, current=str(looked_at or ""))
        if dialog.exec() != dialogs.NewBattleDialog.DialogCode.Accepted:
            return

        chosen = [a for a in self.armies if a.id in dialog.army_ids]
        try:
            made = battle_setup.new_battle(dialog.ruleset, chosen,
                                           table=geometry.Table(*dialog.table),
                                           zone_depth=dialog.zone_depth, title=dialog.title)
        except RuleError as error:
            self.report_failure(str(error))
            return
        self.workspace.create(made.battle, made.title)

    def add_sample_battles(self) -> None:
        """One battle per ruleset from the bundled scenarios; the first is opened."""

        if self.workspace is None:
            return
        try:
            samples = bundled_samples.sample_battles()
        except Exception as error:  # a damaged installation: say so, change nothing
            self.report_failure(f"Cannot read the sample battles: {error}")
            return
        # Added twice, they are told apart in the Battles list ("… (2)"), as armies are.
        taken = {summary.title for summary in self.workspace.summaries}
        titles = {}
        for sample in samples:
            titles[sample.title] = numbered_name(sample.title, taken)
            taken.add(titles[sample.title])
        self.undo_stack.beginMacro("Add sample battles")
        for sample in reversed(samples):  # the last created is opened: the first sample
            self.workspace.create(sample.battle, titles[sample.title])
        self.undo_stack.endMacro()

    def rename_battle(self) -> None:
        battle_id = self._selected_or_open()
        summary = self.workspace.summary(battle_id) if self.workspace else None
        if summary is None or self.workspace is None:
            return
        title, ok = QInputDialog.getText(self.window, "Rename Battle", "Title:",
                                         text=summary.title)
        if ok:
            self.workspace.rename(battle_id, title)

    def duplicate_battle(self) -> None:
        if self.workspace is not None and self._selected_or_open():
            self.workspace.duplicate(self._selected_or_open())

    def delete_battle(self) -> None:
        battle_id = self._selected_or_open()
        summary = self.workspace.summary(battle_id) if self.workspace else None
        if summary is None or self.workspace is None:
            return
        answer = QMessageBox.question(self.window, "Delete battle",
                                      f"Delete {summary.title} and its {summary.steps} steps? "
                                      "Edit ▸ Undo brings it back.")
        if answer == QMessageBox.StandardButton.Yes:
            self.workspace.delete(battle_id)

    def deploy_army(self) -> None:
        battle = self.battle
        player = self.ui.sideCombo.currentData()
        if battle is None or not player or self.workspace is None:
            return
        try:
            events = battle_setup.deploy_army(battle, str(player))
        except RuleError as error:
            self.status.emit(self.scene.readable(error))
            return
        if events:
            self.workspace.apply(events, f"Deploy {player}")
            self.status.emit(f"Deployed {len(events)} units of {player}")
            self._next_side_with_reserve()

    def _next_side_with_reserve(self) -> None:
        """After a side is deployed, the reserve shows the next side with units left, so
        Deploy Army goes on with it rather than standing greyed over an empty list."""
        battle, combo = self.battle, self.ui.sideCombo
        if battle is None or self.ui.reserveList.count():
            return
        waiting = {unit.player for uid, unit in battle.roster.items()
                   if battle.states[uid].status == Status.RESERVE}
        for index in range(combo.count()):
            if combo.itemData(index) in waiting:
                combo.setCurrentIndex(index)
                return

    def choose_export_view(self) -> None:
        path = file_dialogs.save_file_name(self.window, "Export View", "battlefield.png",
                                           "PNG (*.png)")
        if path and not self.view.export_png(path):
            self.report_failure(f"Cannot write {path}")

    # The battle on the table

    @property
    def battle(self) -> Battle | None:
        return self.workspace.state if self.workspace is not None else None

    def _battle_changed(self, battle: Battle | None, events: Sequence[Event]) -> None:
        if battle is None:
            self.story.emit("", [])  # closed (deleted): the log has no battle to tell
        if battle is not None or self.battlefield_built:
            self._show_on_table(battle, events)
        self._fill_sides(battle)
        self.update_actions()

    def _show_on_table(self, battle: Battle | None, events: Sequence[Event]) -> None:
        scene = self.scene  # built now if this is the first battle
        self.replay.set_history(self.workspace.history if self.workspace else None)
        scene.show_battle(battle, animate=events)  # the Unit dock follows (scene.shown)
        self.turn_label.setText(f" Turn {battle.turn} " if battle is not None else "")

    def _moves_proposed(self, events: Sequence[Event]) -> None:
        before = self.battle
        if self.workspace is None or before is None or not events:
            return
        done = _describe(before, events)
        self.workspace.apply(events, done)
        if self.battle is not before:  # stored and on the table: say so, over any refusal
            self.status.emit(self.scene.said_of(before, events, done))

    def _fill_sides(self, battle: Battle | None) -> None:
        combo = self.ui.sideCombo
        chosen = combo.currentData()
        players = sorted({u.player for u in battle.roster.values()}) if battle else []
        if [combo.itemData(i) for i in range(combo.count())] != players:
            combo.blockSignals(True)
            combo.clear()
            for player in players:
                combo.addItem(player, player)
            combo.setCurrentIndex(max(0, combo.findData(chosen)))
            combo.blockSignals(False)
        self._fill_reserve()

    def _fill_reserve(self) -> None:
        reserve = self.ui.reserveList
        reserve.clear()
        battle, player = self.battle, self.ui.sideCombo.currentData()
        if battle is not None and player:
            for uid, unit in battle.roster.items():
                if unit.player == player and battle.states[uid].status == Status.RESERVE:
                    item = QListWidgetItem(f"{unit.name} ({battle.states[uid].models})")
                    item.setData(UNIT_ID_ROLE, uid)
                    item.setToolTip("Drag onto the table to deploy")
                    reserve.addItem(item)
        self.update_actions()

    def update_actions(self) -> None:
        # On a database that may only be read, only what reads stays: open, replay, export.
        writable = self.workspace is not None and not self.workspace.store.read_only
        changeable = self.battle is not None and writable  # the battle on the table
        listed = bool(self._selected_or_open()) if writable else False
        self.ui.actionNewBattle.setEnabled(writable)
        self.ui.actionSampleBattles.setEnabled(writable)
        # The table is there (empty until a battle opens): it can be fitted and pictured.
        self.ui.actionFitTable.setEnabled(True)
        self.ui.actionExportView.setEnabled(True)
        for action in (self.ui.actionRenameBattle, self.ui.actionDuplicateBattle,
                       self.ui.actionDeleteBattle):
            action.setEnabled(listed)
        self.ui.actionDeployArmy.setEnabled(changeable and self.ui.reserveList.count() > 0)

        procedures = self.resolutions.procedures()
        for action, names in ((self.ui.actionResolveCombat, resolutions.COMBAT_PROCEDURES),
                              (self.ui.actionStartOfTurn, resolutions.TURN_PROCEDURES),
                              (self.ui.actionChargeFleeing, ("charge_fleeing",)),
                              (self.ui.actionShooting, ("shooting",)),
                              (self.ui.actionChargeReaction, ("charge_reaction",))):
            action.setEnabled(changeable and self.resolutions.wizard is None
                              and any(name in procedures for name in names))
        self.ui.actionNextTurn.setEnabled(changeable and self.resolutions.wizard is None)
        self.ui.actionExportReport.setEnabled(self.battle is not None)

    def _changed_elsewhere(self, message: str) -> None:
        """A step, undo or redo refused: the battle moved on in another window or program.
        The undo history no longer matches the stored battle, so it is cleared once the
        command that asked is over (never from inside the undo stack's own call)."""
        self.status.emit(message)
        self.logged.emit(f"{message}. The undo history was cleared: its steps were made on "
                         "the battle as it was before")
        QTimer.singleShot(0, self.undo_stack.clear)

    def report_failure(self, message: str) -> None:
        self.status.emit(message)
        # MainWindow.unattended: a window nobody sits at (--screenshot) prints instead.
        if self.window.isVisible() and not getattr(self.window, "unattended", False):
            QMessageBox.warning(self.window, "Battle", message)

    # Resolutions (desktop.gui.resolutions): what tests and the window ask of the panel

    @property
    def wizard(self) -> Any:
        return self.resolutions.wizard

    def resolve(self, procedure: str, prepared: Mapping[str, Any],
                answers: Sequence[object] = ()) -> None:
        self.resolutions.resolve(procedure, prepared, answers)

    # The battle log: every event of every step in plain words

    def _narrate(self, before: Battle, events: Sequence[Event]) -> None:
        battle = before
        for event in events:
            self.loggedEvent.emit(narrate.describe(event, battle),
                                  narrate.units_named(event, battle))
            battle = event.apply_to(battle)

    def choose_report(self) -> None:
        current = self.workspace.current if self.workspace else None
        if current is None:
            return
        path = file_dialogs.save_file_name(
            self.window, "Export Battle Report",
            str(self.report_folder() / f"{current.title or 'battle'}.html"),
            "HTML (*.html);;Markdown (*.md)")
        if path and self.export_report(Path(path)) and self.settings is not None:
            self.settings.setValue(REPORT_FOLDER_KEY, str(Path(path).parent))

    def report_folder(self) -> Path:
        """Where Export Battle Report opens: the folder of the last report written (kept in
        the settings), else the player's documents folder or home, never the working
        directory (where a file dialog goes when the folder it is given is not there)."""
        last = str(self.settings.value(REPORT_FOLDER_KEY, "")) if self.settings else ""
        documents = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation)
        return next((Path(folder) for folder in (last, documents)
                     if folder and Path(folder).is_dir()), Path.home())

    def export_report(self, path: Path) -> bool:
        """The battle in plain words, step by step, with a picture of the table
        (desktop.gui.battle_report): only the chosen file is written, whole."""
        current = self.workspace.current if self.workspace else None
        if current is None:
            return False
        try:
            beside = battle_report.write_report(current, self.view.table_picture(), path)
        except battle_report.ReportError as error:
            self.report_failure(str(error))
            return False
        self.status.emit(f"Wrote {path}" + (f" and its picture {beside.name}" if beside else ""))
        return True

    # Dropping a reserve unit on the table deploys it where it lands

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # Only drag events are looked at: this also runs while the window is torn down,
        # when calling into the view would touch a deleted object.
        if event.type() not in _DRAG_EVENTS:
            return False
        if watched is self._viewport:
            if isinstance(event, QDragEnterEvent | QDragMoveEvent):
                if event.source() is self.ui.reserveList:
                    event.acceptProposedAction()
                    return True
            elif isinstance(event, QDropEvent) and event.source() is self.ui.reserveList:
                item = self.ui.reserveList.currentItem()
                if item is not None:
                    self.deploy_at(str(item.data(UNIT_ID_ROLE)),
                                   self.view.mapToScene(event.position().toPoint()))
                event.acceptProposedAction()
                return True
        return False

    def deploy_at(self, unit_id: str, where: QPointF) -> bool:
        """Deploy a reserve unit centred at `where`, facing the enemy's side of the table."""

        battle = self.battle
        if battle is None or self.workspace is None:
            return False
        try:
            event = moves.deploy(battle, unit_id, (where.x(), where.y()),
                                 battle_setup.deploy_facing(battle, battle.player_of(unit_id)))
        except RuleError as error:
            self.status.emit(self.scene.readable(error))
            return False
        self.workspace.apply([event], f"Deploy {battle.roster[unit_id].name}")
        return True


GONE = {Status.DESTROYED: "destroyed", Status.LEFT_TABLE: "left the table"}
TOOL_LABELS = {
    "select": ("Select / Move", "S", "Click to select, drag to move, arrows to nudge"),
    "turn": ("Turn", "T", "Drag the handle to turn about the centre; Shift snaps to 15°"),
    "wheel": ("Wheel", "W", "Drag a front corner to wheel about the other one"),
    "charge": ("Charge", "C", "Drag a unit onto an enemy to bring it flush into contact"),
    "ruler": ("Ruler", "R", "Measure point to point, or edge to edge between two units"),
    "terrain": ("Terrain", "G", "Click corners, double-click or Enter to close; drag a piece "
                "to move it; Delete removes it"),
}
TERRAIN_KINDS = (("difficult", "Difficult ground"), ("open", "Open ground"),
                 ("impassable", "Impassable"))


def _html(text: str) -> str:

    return escape(text)


def _describe(battle: Battle | None, events: Sequence[Event]) -> str:
    """The undo text of a player's move: what moved and how."""
    first = events[0]
    unit = getattr(first, "unit", "")
    name = battle.roster[unit].name if battle is not None and unit in battle.roster else unit
    verb = {"UnitMoved": "Move", "UnitWheeled": "Wheel", "UnitReformed": "Reform",
            "UnitCharged": "Charge with", "UnitDeployed": "Deploy",
            "UnitsDisengaged": "Disengage", "TerrainPlaced": "Place terrain",
            "TerrainRemoved": "Remove terrain", "TerrainMoved": "Move terrain",
            "TerrainRenamed": "Rename terrain"}.get(type(first).__name__, type(first).__name__)
    path = getattr(first, "path", ())
    if verb == "Move" and path and math.dist(path[0], path[-1]) < 0.05:
        verb = "Turn"  # the Turn tool's move stays where it is
    piece = getattr(first, "terrain", "")
    if piece and battle is not None:
        found = next((t for t in battle.terrain if t.id == piece), None)
        name = found.name if found is not None else getattr(first, "name", "") or piece
    return f"{verb} {name}".strip()


class _WithinWidth(QStyledItemDelegate):
    """Items no wider than the list's viewport, so the style elides what does not fit."""

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: Any) -> QSize:  # Qt override
        size = super().sizeHint(option, index)
        size.setWidth(min(size.width(), self._view.viewport().width()))
        return size
