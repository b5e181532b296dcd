"""Army edits beyond one cell: Clone Army, units copied or moved to another army, and Sort
Units by Slot.

Each is one undo step written through the workspace (desktop.gui.commands). What decides
anything (fresh unit ids, which armies a unit may join, the order of slots) is the
engine's (desktop.engine.roster); this module only asks and pushes the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoStack

from desktop.engine.model import Army
from desktop.engine.roster import join_refusal, joined, move_refusal, units_by_slot
from desktop.engine.rulesets import get_ruleset
from desktop.gui.commands import ReplaceArmies, ReplaceArmy, push_edit
from desktop.gui.workspace import Workspace

if TYPE_CHECKING:
    from desktop.gui.main_window import MainWindow

NAME_LIMIT = 200  # the store's longest army name


def copy_name(name: str, taken: set[str]) -> str:
    """"Name (copy)", or "Name (copy 2)" and on when that is taken (ignoring case)."""
    folded = {other.casefold() for other in taken}
    number = 1
    while True:
        suffix = " (copy)" if number == 1 else f" (copy {number})"
        candidate = name[:NAME_LIMIT - len(suffix)] + suffix
        if candidate.casefold() not in folded:
            return candidate
        number += 1


def transfer_units(workspace: Workspace, undo_stack: QUndoStack, source: Army,
                   unit_ids: Sequence[str], target: Army, *, copy: bool,
                   position: int | None = None) -> list[str]:
    """Copy or move units of `source` to `target` (at `position`, else the end) as one undo
    step; the ids they have there, [] when nothing changed.

    Within one army a move is a reorder and a copy a duplicate where it was dropped.
    """
    wanted = set(unit_ids)
    units = [unit for unit in source.units if unit.id in wanted]
    if not units or join_refusal(source, target) or (
            not copy and move_refusal(source, target, wanted)):
        return []
    names = ", ".join(unit.name for unit in units)
    if source.id == target.id:
        if copy:
            grown, ids = joined(target, units, position)
            text = f"Copy {names}"
        else:
            at = len(target.units) if position is None else position
            kept = [u for u in target.units if u.id not in wanted]
            before = sum(1 for u in target.units[:at] if u.id not in wanted)
            grown = replace(target, units=(*kept[:before], *units, *kept[before:]))
            ids, text = [unit.id for unit in units], f"Reorder units in {target.name}"
        if grown == target:
            return []
        return ids if push_edit(undo_stack, ReplaceArmy(workspace, target, grown, text)) \
            else []
    grown, ids = joined(target, units, position)
    if copy:
        command = ReplaceArmy(workspace, target, grown, f"Copy {names} to {target.name}")
        return ids if push_edit(undo_stack, command) else []
    shrunk = replace(source, units=tuple(u for u in source.units if u.id not in wanted))
    moved = ReplaceArmies(workspace, [(source, shrunk), (target, grown)],
                          f"Move {names} to {target.name}")
    return ids if push_edit(undo_stack, moved) else []


class ArmyActions(QObject):
    """The window's army-wide edits; the Edit menu and the context menus call these."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def clone_army(self) -> None:
        """A copy of the current army under a new name, units, notes and all."""
        window = self.window
        army = window.current_army
        if army is None or window.workspace is None:
            return
        taken = {other.name for other in window.workspace.armies()}
        # id "" makes the store give the copy its own id when it is first saved.
        clone = replace(army, id="", name=copy_name(army.name, taken))
        command = ReplaceArmy(window.workspace, None, clone, f"Clone {army.name}")
        if push_edit(window.undo_stack, command) and command.after is not None:
            window.select_army(command.after.id)

    def transfer(self, source_id: str, unit_ids: Sequence[str], target_id: str, *,
                 copy: bool) -> None:
        """Copy to ▸ / Move to ▸: the units go to the end of the target army, which is
        then shown with them selected."""
        window = self.window
        source, target = self._army(source_id), self._army(target_id)
        if source is None or target is None or window.workspace is None:
            return
        refusal = "" if copy else move_refusal(source, target, unit_ids)
        if refusal:
            window.statusBar().showMessage(refusal[0].upper() + refusal[1:], 8000)
            return
        arrived = transfer_units(window.workspace, window.undo_stack, source, unit_ids,
                                 target, copy=copy)
        if arrived:
            window.select_army(target.id)
            window.select_units(arrived)

    def sort_units_by_slot(self) -> None:
        """The army's units in its ruleset's slot order, as an edit (grouping the roster
        view by slot leaves the army alone)."""
        window = self.window
        army = window.current_army
        if army is None or window.workspace is None:
            return
        units = units_by_slot(army.units, get_ruleset(army.ruleset))
        if units != army.units:
            push_edit(window.undo_stack, ReplaceArmy(
                window.workspace, army, replace(army, units=units),
                f"Sort units of {army.name} by slot"))

    def _army(self, army_id: str) -> Army | None:
        workspace = self.window.workspace
        return workspace.army(army_id) if workspace is not None else None
