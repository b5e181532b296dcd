"""The open database as other programs change it: a watch on the SQLite file, and Reload.

`rout import` (or any other program) may write the database while the window is open. A
QFileSystemWatcher on the file and its -wal notices (SQLite in WAL mode writes there first);
after a quiet moment the store is read in a worker and compared with what the window shows.
Only the differences reach the views, through the workspace's own signals, so the army on
screen, the selection and the tree's state stay. View ▸ Reload (F5) does the same on demand,
for any database (PostgreSQL has no file to watch), and so does an edit the store refused
because someone else changed the army since the window read it (Workspace.stale).

The window's own edits touch the file too: they read back equal to what it shows and change
nothing. Nothing typed is lost: edits are saved as they are made, and while a cell editor or
a modal dialog (Army Settings, the resolution wizard) is open the reload waits for it.

Undo history: an undo step holds whole armies, before and after; undoing one that another
program has changed since would overwrite that change without a word. So when a change
touches an army (or the battles) the history refers to, the history is cleared and the log
says so; a change to anything else (an army `rout import` added) keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QAbstractItemView, QApplication

from desktop.gui.features import commands, databases

if TYPE_CHECKING:
    from desktop.engine.model import Army
    from desktop.gui.battles import BattleWorkspace
    from desktop.gui.main_window import MainWindow
    from desktop.gui.workspace import Workspace
    from desktop.store.store import BattleSummary, Store

QUIET_MS: Final = 400  # one import is many writes: read once they have stopped
RETRY_MS: Final = 500  # how often a reload that waits for an editor or dialog looks again


@dataclass(frozen=True)
class Snapshot:
    """What the window shows, as the database has it now."""

    armies: dict[str, Army]
    battles: list[BattleSummary]


def read_snapshot(store: Store) -> Snapshot:
    """Runs in a worker thread."""
    armies = {army.id: army for army in store.load_armies()}
    return Snapshot(armies, store.list_battles())


class FileWatch(QObject):
    """`changed` once the SQLite file (or its -wal) has been quiet for QUIET_MS after a write.

    A file that is removed or replaced drops out of a QFileSystemWatcher, so the paths are
    watched again after every change; the folder is watched while there is no -wal, to see
    one appear.
    """

    changed = Signal()

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = path
        self.wal = Path(f"{path}-wal")
        self._watcher = QFileSystemWatcher(self)
        self._quiet = QTimer(self)
        self._quiet.setSingleShot(True)
        self._quiet.setInterval(QUIET_MS)
        self._quiet.timeout.connect(self.changed)
        self._watcher.fileChanged.connect(self._touched)
        self._watcher.directoryChanged.connect(self._touched)
        self._watch()

    def _watch(self) -> None:
        wanted = {str(path) for path in (self.path, self.wal) if path.exists()}
        if not self.wal.exists() and self.path.parent.is_dir():
            wanted.add(str(self.path.parent))
        watched = set(self._watcher.files()) | set(self._watcher.directories())
        if watched - wanted:
            self._watcher.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self._watcher.addPaths(sorted(wanted - watched))

    def _touched(self, path: str) -> None:
        self._watch()
        self._quiet.start()


def history_refers(stack: QUndoStack, army_ids: set[str], battles: bool) -> bool:
    """Whether undoing or redoing a step of `stack` would write one of these armies, or
    (with `battles`) a battle."""

    def refers(command: QUndoCommand) -> bool:
        if isinstance(command, commands.ReplaceArmy):
            return any(army is not None and army.id in army_ids
                       for army in (command.before, command.after))
        if isinstance(command, commands.ReplaceArmies):
            return any(before.id in army_ids for before, _ in command.changes)
        if command.childCount():  # a macro (the sample armies)
            return any(refers(command.child(i)) for i in range(command.childCount()))
        return battles  # a battle's step, creation, renaming…

    return any(refers(stack.command(i)) for i in range(stack.count()))


class DatabaseReload(QObject):
    """Brings the window up to date with its database: F5, or the file watch."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.watch_enabled = True
        self.checks = 0  # reads compared with the window (tests wait on it)
        self._watch: FileWatch | None = None
        self._store: Store | None = None
        self._revision = 0  # changes the window made; a read older than one is read again
        self._busy = False
        self._pending: bool | None = None  # a reload to run next; True when F5 asked
        self._retry = QTimer(self)
        self._retry.setSingleShot(True)
        self._retry.setInterval(RETRY_MS)
        self._retry.timeout.connect(self._run_pending)

    @property
    def busy(self) -> bool:
        return self._busy or self._pending is not None

    def database_opened(self, store: Store, workspace: Workspace,
                        battles: BattleWorkspace) -> None:

        self._store = store
        self._pending = None
        self._retry.stop()
        if self._watch is not None:
            self._watch.deleteLater()
            self._watch = None
        path = databases.sqlite_path(store.url)
        if path is not None:
            self._watch = FileWatch(path, self)
            self._watch.changed.connect(self._file_changed)
        for signal in (workspace.army_added, workspace.army_changed, workspace.army_removed,
                       workspace.reset, battles.listChanged):
            signal.connect(self._count)
        # An edit refused because someone else saved the army since: show what they saved.
        workspace.stale.connect(lambda army_id: self.reload(asked=False))

    def _count(self, *args: object) -> None:
        self._revision += 1

    def _file_changed(self) -> None:
        if self.watch_enabled:
            self.reload(asked=False)

    def reload(self, asked: bool = True) -> None:
        """Read the database and show what changed; `asked` (F5) also says when nothing
        did."""
        store = self._store
        if store is None or self.window.store is not store:
            return
        if self._busy or self._must_wait():
            self._pending = bool(self._pending) or asked
            if not self._busy:
                self._retry.start()
            return
        self._busy = True
        revision = self._revision
        self.window.runner.run(lambda: read_snapshot(store),
                               lambda snapshot: self._read(store, snapshot, revision, asked),
                               lambda error: self._failed(store, error, asked))

    def _must_wait(self) -> bool:
        """A cell being typed in, or a dialog that edits from what it was shown."""
        return (QApplication.activeModalWidget() is not None
                or self.window.locked_by is not None or
                self.window.ui.rosterTable.state() == QAbstractItemView.State.EditingState)

    def _run_pending(self) -> None:
        asked, self._pending = self._pending, None
        if asked is not None:
            self.reload(asked)

    def _read(self, store: Store, snapshot: Snapshot, revision: int, asked: bool) -> None:
        self._busy = False
        self.checks += 1
        if self.window.store is not store:
            return  # another database since, or the window closed
        if revision != self._revision or self._must_wait():
            # The window changed something while this was read: it may be older than the
            # window. Read again (once the editor or dialog is done).
            self._pending = bool(self._pending) or asked
            self._retry.start()
            return
        self._show(snapshot, asked)
        if self._pending is not None:
            self._retry.start()

    def _failed(self, store: Store, error: BaseException, asked: bool) -> None:
        self._busy = False
        if self.window.store is store and asked:
            self.window.log(f"Could not reload the database: {error}")
            self.window.statusBar().showMessage(f"Could not reload: {error}", 8000)

    def _show(self, snapshot: Snapshot, asked: bool) -> None:
        window = self.window
        workspace = window.workspace
        battles = window.battles.workspace
        if workspace is None or battles is None:
            return
        shown = {army.id: army for army in workspace.armies()}
        added = [army for army_id, army in snapshot.armies.items() if army_id not in shown]
        changed = [army for army_id, army in snapshot.armies.items()
                   if army_id in shown and shown[army_id] != army]
        removed = [army for army_id, army in shown.items() if army_id not in snapshot.armies]
        # Or the list caught up with another window's step on the open battle (read with
        # the window's own latest step) while the table still shows the battle before it.
        battles_changed = battles.summaries != snapshot.battles or battles.behind
        if not (added or changed or removed or battles_changed):
            if asked:
                window.statusBar().showMessage("Nothing changed in the database", 6000)
            return
        cleared = history_refers(window.undo_stack, {a.id for a in (*changed, *removed)},
                                 battles_changed)
        if cleared:
            window.undo_stack.clear()
        self._show_armies(workspace, added, changed, removed)
        if battles_changed:
            self._show_battles(battles)
        parts = [f"{verb} {', '.join(army.name for army in armies)}"
                 for verb, armies in (("added", added), ("changed", changed),
                                      ("removed", removed)) if armies]
        if battles_changed:
            parts.append("changed the battles")
        message = f"Another program changed the database: {'; '.join(parts)}"
        if cleared:
            message += (" — the undo history was cleared: undoing would have overwritten "
                        "those changes")
        # News of the database, not of the battle on the table: the battle log is that
        # battle's story alone (issue 20, item 16).
        window.tell(message)

    def _show_armies(self, workspace: Workspace, added: list[Army], changed: list[Army],
                     removed: list[Army]) -> None:
        window = self.window
        current = window.current_army
        selected = [unit.id for unit in window.selected_units()]
        for army in (*added, *changed):
            workspace.show_stored(army)
        for army in removed:
            workspace.forget(army.id)
        # A new army would take the screen (as one made here does): the player's stays.
        if current is not None and workspace.army(current.id) is not None and (
                window.current_army is None or window.current_army.id != current.id):
            window.select_army(current.id)
            window.select_units(selected)

    def _show_battles(self, battles: BattleWorkspace) -> None:
        open_id = battles.current_id
        before = battles.summary(open_id) if open_id else None
        battles.refresh()
        after = battles.summary(open_id) if open_id else None
        if open_id and after is None:
            battles.close_battle()
        elif open_id and (after != before or battles.behind):
            battles.open(open_id)  # its steps changed: fold them again
