"""The battles of the open database and the one on the table, written through the store.

Like `workspace.py` for armies: the window never changes a battle itself. Every change is
an undo command whose redo and undo write the store and then tell the views, one way, what
the battle is now. A battle is stored as its start plus its steps; the state on the table is
the fold of their events (the engine's `apply`), so a step undone is the fold without it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QFont, QUndoCommand, QUndoStack

from desktop.engine.model import Battle
from desktop.gui.features import engine_events, replay, rulesets
from desktop.gui.tasks import TaskRunner
from desktop.store.errors import ConflictError, StoreError
from desktop.store.store import BattleSummary, SavedBattle, Store

if TYPE_CHECKING:
    from desktop.engine.events import Event
    from desktop.gui.battlefield.replay import ReplayHistory

BATTLE_ID_ROLE = Qt.ItemDataRole.UserRole
KEPT_STATES = 100  # undo this many steps without refolding the whole battle
ModelIndex = QModelIndex | QPersistentModelIndex


class BattleWorkspace(QObject):
    """The stored battles (`summaries`) and the open one (`state`, its `steps`)."""

    listChanged = Signal()
    # The open battle now, and the events just applied to reach it (empty when it was
    # opened, refolded after an undo, or closed): the scene animates only those.
    changed = Signal(object, object)
    failed = Signal(str)
    loading = Signal(bool)
    opened = Signal(str)  # a battle (by id) is on the table, however it was opened
    stepped = Signal(object, object)  # (battle before, events): a step was just applied
    undone = Signal(str)  # a step was taken back (its undo text)
    redone = Signal(str)  # a step taken back was made again (its undo text)
    # Another window or program changed the open battle since this one read it, so a step,
    # an undo or a redo was refused (the message says which): the battle is read again.
    stale = Signal(str)

    def __init__(self, store: Store, runner: TaskRunner, undo_stack: QUndoStack,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.runner = runner
        self.undo_stack = undo_stack
        self.summaries: list[BattleSummary] = []
        self.current: SavedBattle | None = None
        self.state: Battle | None = None
        self.history: ReplayHistory | None = None  # every step's state, for the replay bar
        # The open battle's story as it was opened: a line per event and the units it names.
        self.story: list[tuple[str, list[str]]] = []
        # The states before the latest steps, so an undo need not refold a long battle.
        self._before: list[Battle] = []
        self._opening = 0
        self.refresh()

    # Reading

    def refresh(self) -> None:
        try:
            self.summaries = self.store.list_battles()
        except StoreError as error:
            self.failed.emit(str(error))
            return
        self.listChanged.emit()

    @property
    def behind(self) -> bool:
        """The open battle was changed elsewhere since it was read (its stored version is
        not the one on the table)."""
        if self.current is None:
            return False
        stored = self.summary(self.current.id)
        return stored is not None and stored.version != self.current.version

    def summary(self, battle_id: str) -> BattleSummary | None:
        return next((s for s in self.summaries if s.id == battle_id), None)

    def open(self, battle_id: str, done: Callable[[], None] | None = None) -> None:
        """Load and fold the battle in a worker; the window keeps answering meanwhile."""
        # Here, not at the top: a database that only shows armies needs no battle's events.

        self._opening += 1
        generation = self._opening
        self.loading.emit(True)

        def load() -> tuple[SavedBattle, replay.ReplayHistory, list[tuple[str, list[str]]]]:
            # Full garbage collections while thousands of events are built would hold the
            # GIL for 100 ms at a time and freeze the window (tests/bench/bench_battle_open).
            with replay.no_full_collections():
                saved = self.store.load_battle(battle_id)
                history = replay.ReplayHistory(saved.start, saved.steps)
                history.warm()  # every checkpoint folded here, not on the first slider move
                story = history.story()  # the battle log's words, here too
            return saved, history, story

        def loaded(result: tuple[SavedBattle, replay.ReplayHistory,
                                 list[tuple[str, list[str]]]]) -> None:
            if generation != self._opening:
                return  # the player has since opened another
            self.loading.emit(False)
            self.current, self.history, self.story = result
            self.state = self.history.state_at(self.history.count)
            self._before.clear()
            self.changed.emit(self.state, ())
            self.opened.emit(battle_id)
            if done is not None:
                done()

        def failed(error: BaseException) -> None:
            if generation == self._opening:
                self.loading.emit(False)
                self.failed.emit(f"Cannot open the battle: {_why(error)}")

        self.runner.run(load, loaded, failed)

    def close_battle(self) -> None:
        self._opening += 1
        self.current = None
        self.state = None
        self.history = None
        self.story = []
        self._before.clear()
        self.changed.emit(None, ())

    @property
    def current_id(self) -> str:
        return self.current.id if self.current is not None else ""

    # Changes: each one an undo command

    def apply(self, events: Sequence[Event], text: str, *, animate: bool = False) -> None:
        """One step of the open battle (a move, a deployment, a resolution); with `animate`
        the views play its moves (the engine's, not a move the player just made)."""
        if self.current is None or not events:
            return
        self.undo_stack.push(BattleStep(self, self.current.id, tuple(events), text, animate))

    def create(self, start: Battle, title: str) -> None:
        self.undo_stack.push(CreateBattle(self, start, title))

    def rename(self, battle_id: str, title: str) -> None:
        title = " ".join(title.split())
        summary = self.summary(battle_id)
        if summary is not None and title and title != summary.title:
            self.undo_stack.push(RenameBattle(self, battle_id, summary.title, title))

    def duplicate(self, battle_id: str) -> None:
        summary = self.summary(battle_id)
        if summary is not None:
            self.undo_stack.push(DuplicateBattle(self, battle_id, f"{summary.title} (copy)"))

    def delete(self, battle_id: str) -> None:
        summary = self.summary(battle_id)
        if summary is not None:
            self.undo_stack.push(DeleteBattle(self, battle_id, summary.title))

    # What the commands call: the store first, then the views

    def _write(self, work: Callable[[], Any]) -> Any:
        try:
            return work()
        except StoreError as error:
            self.failed.emit(str(error))
            raise

    def _version_of(self, battle_id: str) -> int | None:
        """The version of the battle the window shows (None: it shows another)."""
        current = self.current
        return current.version if current is not None and current.id == battle_id else None

    def _stepped(self, battle_id: str, events: tuple[Event, ...], animate: bool) -> int:
        """Save the step, made on the battle as the window shows it; returns its number."""
        version = self._version_of(battle_id)
        step = self._checked(battle_id, lambda: self.store.append_step(
            battle_id, events, version=version))
        if self.current is not None and self.current.id == battle_id and self.state is not None:
            self.current = replace(self.current, steps=(*self.current.steps, events),
                                   version=self.current.version + 1)

            before = self.state
            self._before = [*self._before[-(KEPT_STATES - 1):], before]
            self.state = engine_events.fold(before, events)
            if self.history is not None:
                self.history = self.history.extended(events, self.state)
            self.changed.emit(self.state, events if animate else ())
            self.stepped.emit(before, events)
        self.refresh()
        return int(step)

    def _unstepped(self, battle_id: str, step: int) -> None:
        """Take off step `step`, made by this window, from the battle as the window shows
        it (the battle must not have moved on elsewhere, and the step be its last)."""
        version = self._version_of(battle_id)
        self._checked(battle_id, lambda: self.store.remove_step(battle_id, step,
                                                                version=version))
        if self.current is not None and self.current.id == battle_id:

            self.current = replace(self.current, steps=self.current.steps[:-1],
                                   version=self.current.version + 1)
            self.state = (self._before.pop() if self._before
                          else engine_events.fold(self.current.start, self.current.events))
            if self.history is not None:
                self.history = self.history.truncated(len(self.current.steps))
            self.changed.emit(self.state, ())
        self.refresh()

    def _checked(self, battle_id: str, work: Callable[[], Any]) -> Any:
        """`work` on the store; refused because the battle changed elsewhere, the battle is
        read again (after the undo stack has finished the command that asked)."""
        try:
            return work()
        except ConflictError as error:
            self.stale.emit(f"{error} — Rout now shows the battle as it is stored: make the "
                            "step again there")
            if self.current_id == battle_id:
                QTimer.singleShot(0, lambda: self.open(battle_id))
            raise
        except StoreError as error:
            self.failed.emit(str(error))
            raise

    def _created(self, start: Battle, title: str, saved: SavedBattle | None) -> str:
        if saved is None:
            battle_id = str(self._write(lambda: self.store.create_battle(start, title)))
        else:
            self._write(lambda: self.store.restore_battle(saved))
            battle_id = saved.id
        self.refresh()
        return battle_id

    def _deleted(self, battle_id: str) -> SavedBattle:
        saved: SavedBattle = self._write(lambda: self.store.delete_battle(battle_id))
        if self.current_id == battle_id:
            self.close_battle()
        self.refresh()
        return saved

    def _renamed(self, battle_id: str, title: str) -> None:
        self._write(lambda: self.store.rename_battle(battle_id, title))
        if self.current is not None and self.current.id == battle_id:
            self.current = replace(self.current, title=title)
        self.refresh()

    def _duplicated(self, battle_id: str, title: str) -> str:
        copy = str(self._write(lambda: self.store.duplicate_battle(battle_id, title)))
        self.refresh()
        return copy


class BattleStep(QUndoCommand):
    """One step of the open battle. It remembers which step it saved: its undo takes off that
    step only. Every write names the version of the battle the window shows, so an undo or a
    redo made after another window changed the battle is refused (the store says so, the
    battle is read again and the history, no longer the battle's, is cleared)."""

    def __init__(self, workspace: BattleWorkspace, battle_id: str, events: tuple[Event, ...],
                 text: str, animate: bool) -> None:
        super().__init__(text)
        self.workspace, self.battle_id, self.events = workspace, battle_id, events
        self.animate = animate
        self.done_before = False
        self.step = 0  # its number in the stored battle, once saved

    def redo(self) -> None:  # Qt override
        if self.done_before:  # the log says so before the step's lines come again
            self.workspace.redone.emit(self.text())
        try:
            self.step = self.workspace._stepped(self.battle_id, self.events, self.animate)
        except StoreError:
            if not self.done_before:
                self.setObsolete(True)  # nothing was saved: nothing to undo (QUndoStack.push)
            return
        self.animate = False  # a redo shows the result, it does not replay the move
        self.done_before = True

    def undo(self) -> None:  # Qt override
        if not self.step:
            return
        try:
            self.workspace._unstepped(self.battle_id, self.step)
        except StoreError:
            return
        self.workspace.undone.emit(self.text())


class CreateBattle(QUndoCommand):
    """A new battle is opened at once; undo deletes it, redo brings back the same one."""

    def __init__(self, workspace: BattleWorkspace, start: Battle, title: str) -> None:
        super().__init__(f"New battle {title}")
        self.workspace, self.start, self.title = workspace, start, title
        self.saved: SavedBattle | None = None
        self.battle_id = ""

    def redo(self) -> None:
        self.battle_id = self.workspace._created(self.start, self.title, self.saved)
        self.workspace.open(self.battle_id)

    def undo(self) -> None:
        self.saved = self.workspace._deleted(self.battle_id)


class DeleteBattle(QUndoCommand):
    def __init__(self, workspace: BattleWorkspace, battle_id: str, title: str) -> None:
        super().__init__(f"Delete battle {title}")
        self.workspace, self.battle_id = workspace, battle_id
        self.saved: SavedBattle | None = None

    def redo(self) -> None:
        self.saved = self.workspace._deleted(self.battle_id)

    def undo(self) -> None:
        if self.saved is not None:
            self.workspace._created(self.saved.start, self.saved.title, self.saved)
            self.workspace.open(self.battle_id)


class RenameBattle(QUndoCommand):
    def __init__(self, workspace: BattleWorkspace, battle_id: str, before: str,
                 after: str) -> None:
        super().__init__(f"Rename battle {before} to {after}")
        self.workspace, self.battle_id, self.before, self.after = (workspace, battle_id,
                                                                   before, after)

    def redo(self) -> None:
        self.workspace._renamed(self.battle_id, self.after)

    def undo(self) -> None:
        self.workspace._renamed(self.battle_id, self.before)


class DuplicateBattle(QUndoCommand):
    def __init__(self, workspace: BattleWorkspace, battle_id: str, title: str) -> None:
        super().__init__(f"Duplicate battle as {title}")
        self.workspace, self.battle_id, self.title = workspace, battle_id, title
        self.copy_id = ""
        self.saved: SavedBattle | None = None

    def redo(self) -> None:
        if self.saved is None:
            self.copy_id = self.workspace._duplicated(self.battle_id, self.title)
        else:
            self.workspace._created(self.saved.start, self.saved.title, self.saved)

    def undo(self) -> None:
        self.saved = self.workspace._deleted(self.copy_id)


class BattleListModel(QAbstractListModel):
    """The stored battles, oldest first; a title edited in place renames (undoably)."""

    def __init__(self, workspace: BattleWorkspace, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self._rows: list[BattleSummary] = list(workspace.summaries)
        workspace.listChanged.connect(self._reload)
        # The open battle is the bold row: it moves when another opens or the table closes.
        workspace.opened.connect(self._current_changed)
        workspace.changed.connect(self._table_changed)

    def _table_changed(self, battle: object, events: object) -> None:
        if battle is None:  # closed: no row is the open battle now
            self._current_changed()

    def _current_changed(self, *_: object) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, 0),
                                  [Qt.ItemDataRole.FontRole])

    def _reload(self) -> None:
        self.beginResetModel()
        self._rows = list(self.workspace.summaries)
        self.endResetModel()

    def rowCount(self, parent: ModelIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: ModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        summary = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            steps = f"{summary.steps} step{'' if summary.steps == 1 else 's'}"
            return f"{summary.title or 'Untitled battle'} — {steps}"
        if role == Qt.ItemDataRole.EditRole:
            return summary.title
        if role == Qt.ItemDataRole.ToolTipRole:

            # The whole title first: the dock is narrow and cuts long titles short.
            return (f"{summary.title or 'Untitled battle'}\n"
                    f"{rulesets.get_ruleset(summary.ruleset).name}, {summary.events} events, "
                    f"created {summary.created:%Y-%m-%d %H:%M}")
        if role == BATTLE_ID_ROLE:
            return summary.id
        if role == Qt.ItemDataRole.FontRole and summary.id == self.workspace.current_id:

            font = QFont()
            font.setBold(True)
            return font
        return None

    def flags(self, index: ModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self.workspace.store.read_only:
            return super().flags(index)  # no renaming in place
        return super().flags(index) | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: ModelIndex, value: Any,
                role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        self.workspace.rename(self._rows[index.row()].id, str(value))
        return True

    def row_of(self, battle_id: str) -> int:
        return next((row for row, s in enumerate(self._rows) if s.id == battle_id), -1)


def _why(error: BaseException) -> str:
    """Why a stored battle did not replay, for a player: the store's own errors say it; a
    replay that fails in the engine means rows no longer hold what Rout wrote."""
    if isinstance(error, StoreError):
        return str(error)
    if isinstance(error, KeyError):
        found = f"an event names {error}, which is not a unit of this battle"
    else:
        found = f"an event cannot be replayed ({error or type(error).__name__})"
    return (f"{found}: the database may be damaged (File ▸ Check Database names the "
            "event)")
