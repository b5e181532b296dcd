"""Undoable roster edits. Armies are values, so every edit is "this army, before and after".

A command changes the workspace (which writes through the store); the views follow its
signals (STYLE habit 3). Creating an army is `before=None`, deleting one `after=None`.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

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

    def redo(self) -> None:  # Qt override
        self._show(self.after, instead_of=self.before)

    def undo(self) -> None:  # Qt override
        self._show(self.before, instead_of=self.after)

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
