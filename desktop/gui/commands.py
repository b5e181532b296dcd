"""Undoable roster edits. Armies are values, so every edit is "this army, before and after".

A command changes the workspace (which writes through the store); the views follow its
signals (STYLE habit 3). Creating an army is `before=None`, deleting one `after=None`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress

from PySide6.QtGui import QUndoCommand, QUndoStack

from desktop.engine.model import Army
from desktop.gui.workspace import Workspace


class ReplaceArmy(QUndoCommand):
    def __init__(self, workspace: Workspace, before: Army | None, after: Army | None,
                 text: str) -> None:
        super().__init__(text)
        if before is None and after is None:
            raise ValueError("a command needs an army before or after")
        self.workspace = workspace
        self.before = before
        self.after = after
        self._done = False
        self.error: Exception | None = None

    def redo(self) -> None:  # Qt override
        if self._done:
            self._redo_again()
            return
        try:
            self._show(self.after, instead_of=self.before)
        except Exception as error:
            # The store refused the change as it was pushed: nothing changed, so nothing may
            # be left to undo. QUndoStack.push drops an obsolete command after redo(); the
            # error is kept for push_edit (raising through Qt would wrap it in PySide's words).
            self.error = error
            self.setObsolete(True)
            return
        self._done = True
        self.workspace.touched.emit(self._army_id())

    def undo(self) -> None:  # Qt override
        try:
            self._show(self.before, instead_of=self.after)
        except Exception as error:  # a later undo the store refuses: say so, keep running
            self.workspace.failed.emit(f"Could not undo {self.text()}: {error}")
            return
        self.workspace.touched.emit(self._army_id())

    def _army_id(self) -> str:
        army = self.after or self.before
        return army.id if army is not None else ""

    def _redo_again(self) -> None:
        try:
            self._show(self.after, instead_of=self.before)
        except Exception as error:
            self.workspace.failed.emit(f"Could not redo {self.text()}: {error}")
            return
        self.workspace.touched.emit(self._army_id())

    def _show(self, army: Army | None, instead_of: Army | None) -> None:
        if army is None:
            assert instead_of is not None
            self.workspace.remove_army(instead_of.id)
            return
        saved = self.workspace.put_army(army)
        # A new army gets its id when first saved: later undo/redo must use that id.
        if army is self.after:
            self.after = saved
        else:
            self.before = saved


class ReplaceArmies(QUndoCommand):
    """Several existing armies changed as one step (units moved from one army to another).

    All or nothing: when the store refuses one army, those already written are put back.
    Done, it shows the last army of `changes` (where units went); undone, the first.
    """

    def __init__(self, workspace: Workspace, changes: Sequence[tuple[Army, Army]],
                 text: str) -> None:
        super().__init__(text)
        if not changes or any(not before.id or before.id != after.id
                              for before, after in changes):
            raise ValueError("each change is one stored army, before and after")
        self.workspace = workspace
        self.changes = list(changes)
        self._done = False
        self.error: Exception | None = None

    def redo(self) -> None:  # Qt override
        try:
            self._write([after for _, after in self.changes],
                        [before for before, _ in self.changes])
        except Exception as error:
            if not self._done:  # refused as it was pushed: leave no step (see ReplaceArmy)
                self.error = error
                self.setObsolete(True)
            else:
                self.workspace.failed.emit(f"Could not redo {self.text()}: {error}")
            return
        self._done = True
        self.workspace.touched.emit(self.changes[-1][1].id)

    def undo(self) -> None:  # Qt override
        try:
            self._write([before for before, _ in reversed(self.changes)],
                        [after for _, after in reversed(self.changes)])
        except Exception as error:
            self.workspace.failed.emit(f"Could not undo {self.text()}: {error}")
            return
        self.workspace.touched.emit(self.changes[0][0].id)  # where moved units are back

    def _write(self, armies: list[Army], previous: list[Army]) -> None:
        written = 0
        try:
            for army in armies:
                self.workspace.put_army(army)
                written += 1
        except Exception:
            for army in reversed(previous[:written]):
                with suppress(Exception):  # the first error is the one to report
                    self.workspace.put_army(army)
            raise


def push_edit(undo_stack: QUndoStack, command: ReplaceArmy | ReplaceArmies) -> bool:
    """Push an edit; when the store refuses it, report through the workspace and say False.

    Models call this from Qt callbacks (setData, dropMimeData), where an exception could
    only reach the crash handler.
    """
    undo_stack.push(command)
    if command.error is not None:
        command.workspace.failed.emit(str(command.error))
        return False
    return True
