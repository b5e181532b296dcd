"""Roster edits players asked for (issue: editors and layout, frictions): army notes, Clone
Army, units copied or moved to another army, the roster sorted or grouped by slot, and
right-click menus on units, armies and the roster.

Each edit goes through the widget a player would use and is checked on screen, in a fresh
`Store` reading the file, and through undo and redo (each edit is one step).
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox
from test_gui_roster import (  # noqa: F401
    GOBLINS,
    fill_new_army,
    modals,
    open_window,
    sample,
    seed,
    small_army,
    stored,
    url,
)

from desktop.gui.dialogs import NewArmyDialog

ELVES = "Elf Marchwardens"


# Army notes


def test_army_notes_are_edited_in_the_army_settings(qtbot, url, modals):
    goblins, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    shown: list[str] = []

    def write(dialog: NewArmyDialog) -> None:
        shown.append(dialog.ui.notesEdit.toPlainText())
        dialog.ui.notesEdit.selectAll()
        qtbot.keyClicks(dialog.ui.notesEdit, "General: the Big Boss")
        qtbot.keyClick(dialog.ui.notesEdit, "\r")
        qtbot.keyClicks(dialog.ui.notesEdit, "Trolls go on the left  ")
        qtbot.keyClick(dialog.ui.notesEdit, "\r")
        dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()

    modals.answer(NewArmyDialog, write)
    window.ui.actionArmySettings.trigger()
    assert shown == ["\n".join(goblins.notes)]
    notes = ("General: the Big Boss", "Trolls go on the left")
    assert stored(url, goblins.id).notes == notes
    assert window.current_army.notes == notes
    assert window.undo_stack.undoText() == f"Change settings of {GOBLINS}"
    # The notes show where the army is described: its tool tip and the Unit dock.
    tip = window.tree_model.army_index(goblins.id).data(3)  # ToolTipRole
    assert "Trolls go on the left" in tip
    window.ui.rosterTable.clearSelection()
    assert "Trolls go on the left" in window.ui.unitDetails.text()

    window.undo_action.trigger()
    assert stored(url, goblins.id).notes == goblins.notes
    window.redo_action.trigger()
    assert stored(url, goblins.id).notes == notes


def test_a_new_army_may_start_with_notes(qtbot, url, modals):
    window = open_window(qtbot, url)
    fill = fill_new_army(qtbot, "Notes Host", "kensei1")

    def with_notes(dialog: NewArmyDialog) -> None:
        assert dialog.ui.notesEdit.toPlainText() == ""
        dialog.ui.notesEdit.setPlainText("\nFor the club league\n\n")
        fill(dialog)

    modals.answer(NewArmyDialog, with_notes)
    window.ui.actionNewArmy.trigger()
    army = window.current_army
    assert army is not None and army.name == "Notes Host"
    assert stored(url, army.id).notes == ("For the club league",)


# Clone Army


def test_clone_army_copies_it_whole_as_one_step(qtbot, url):
    goblins, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    window.ui.actionCloneArmy.trigger()
    clone = window.current_army
    assert clone is not None and clone.id != goblins.id
    assert clone.name == f"{GOBLINS} (copy)"
    assert (clone.units, clone.notes, clone.points_limit, clone.ruleset, clone.player) == (
        goblins.units, goblins.notes, goblins.points_limit, goblins.ruleset, goblins.player)
    assert stored(url, clone.id) == clone
    assert window.undo_stack.undoText() == f"Clone {GOBLINS}"
    # A second clone gets a name of its own.
    window.select_army(goblins.id)
    window.ui.actionCloneArmy.trigger()
    assert window.current_army.name == f"{GOBLINS} (copy 2)"

    window.undo_action.trigger()
    window.undo_action.trigger()
    assert stored_ids(url) == [goblins.id]
    window.redo_action.trigger()
    assert stored(url, clone.id) == clone  # the same id again: later steps still find it


def stored_ids(url: str) -> list[str]:
    from desktop.store.store import Store

    with Store.open(url) as store:
        return [summary.id for summary in store.list_armies()]
