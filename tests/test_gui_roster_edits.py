"""Roster edits players asked for (issue: editors and layout, frictions): army notes, Clone
Army, units copied or moved to another army, the roster sorted or grouped by slot, and
right-click menus on units, armies and the roster.

Each edit goes through the widget a player would use and is checked on screen, in a fresh
`Store` reading the file, and through undo and redo (each edit is one step).
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

import sqlite3
from dataclasses import replace

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialogButtonBox,
    QMessageBox,
)
from test_gui_roster import (  # noqa: F401
    GOBLIN_UNITS,
    GOBLINS,
    cell,
    content,
    fill_new_army,
    modals,
    open_window,
    roster_unit_ids,
    sample,
    seed,
    small_army,
    stored,
    tree_unit_ids,
    unit_ids,
    url,
)
from test_gui_session import ini, window_with_settings

from desktop.engine.rulesets import RULESETS
from desktop.gui.dialogs import NewArmyDialog
from desktop.store.store import Store

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

    with Store.open(url) as store:
        return [summary.id for summary in store.list_armies()]


# Units copied or moved to another army by dragging onto it


def drop_units(window, source_id: str, unit_ids: list[str], row: int, parent,
               action) -> bool:
    """What QAbstractItemView::dropEvent does once it knows where the drop landed."""
    model = window.tree_model
    mime = model.mimeData([model.unit_index(source_id, unit_id) for unit_id in unit_ids])
    if not model.canDropMimeData(mime, action, row, 0, parent):
        return False
    model.dropMimeData(mime, action, row, 0, parent)
    return True


def test_dragging_units_onto_another_army_moves_them_as_one_step(qtbot, url):

    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    move = Qt.DropAction.MoveAction
    model = window.tree_model
    # Onto the army row: to the end of its roster.
    assert drop_units(window, goblins.id, ["trolls", "spearmen"], -1,
                      model.army_index(elves.id), move)
    after_goblins = [u for u in GOBLIN_UNITS if u not in ("trolls", "spearmen")]
    assert unit_ids(stored(url, goblins.id)) == after_goblins
    moved_in = stored(url, elves.id)
    assert unit_ids(moved_in) == [*unit_ids(elves), "spearmen", "trolls"]
    assert {u.player for u in moved_in.units} == {elves.player}
    assert window.undo_stack.count() == 1
    assert window.undo_stack.undoText() == f"Move Hill Goblin Spearmen, River Trolls to {ELVES}"
    # The army they went to is shown, with them selected.
    assert window.current_army.id == elves.id
    assert sorted(u.id for u in window.selected_units()) == ["spearmen", "trolls"]
    assert tree_unit_ids(window, goblins.id) == after_goblins

    window.undo_action.trigger()
    assert content(stored(url, goblins.id)) == content(goblins)
    assert content(stored(url, elves.id)) == content(elves)
    window.redo_action.trigger()
    assert unit_ids(stored(url, elves.id)) == unit_ids(moved_in)
    assert unit_ids(stored(url, goblins.id)) == after_goblins


def test_ctrl_dragging_copies_units_with_ids_of_their_own(qtbot, url):

    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    second = seed(url, sample(GOBLINS))[0]  # the same unit ids in another army
    window = open_window(qtbot, url)
    copy = Qt.DropAction.CopyAction
    model = window.tree_model
    # Onto a unit: in front of it.
    assert drop_units(window, goblins.id, ["trolls"], -1,
                      model.unit_index(second.id, "spearmen"), copy)
    assert stored(url, goblins.id) == goblins  # a copy leaves the source as it was
    grown = unit_ids(stored(url, second.id))
    assert grown[:3] == ["big-boss", "trolls-2", "spearmen"]
    assert grown.count("trolls") == 1 and len(set(grown)) == len(grown)
    assert window.undo_stack.undoText() == f"Copy River Trolls to {GOBLINS}"
    # Within its own army a copy is a duplicate where it was dropped.
    assert drop_units(window, elves.id, ["wardens"], 0, model.army_index(elves.id), copy)
    assert unit_ids(stored(url, elves.id))[:2] == ["wardens-2", unit_ids(elves)[0]]
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert content(stored(url, second.id)) == content(second)
    assert content(stored(url, elves.id)) == content(elves)


def test_drops_onto_another_ruleset_are_refused_and_say_why(qtbot, url):

    goblins, ronin = seed(url, sample(GOBLINS), sample("Ronin of the Red Pass"))
    window = open_window(qtbot, url)
    model = window.tree_model
    for action in (Qt.DropAction.MoveAction, Qt.DropAction.CopyAction):
        assert not drop_units(window, goblins.id, ["trolls"], -1,
                              model.army_index(ronin.id), action)
    tree = window.ui.armyTree
    tree.expandAll()
    mime = model.mimeData([model.unit_index(goblins.id, "trolls")])
    target = tree.visualRect(model.army_index(ronin.id)).center()

    def send(event: QEvent) -> bool:
        QApplication.sendEvent(tree.viewport(), event)
        return event.isAccepted()

    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    move = Qt.DropAction.MoveAction
    # A drag starts over its own army (the view takes it there), then goes to the Kensei one.
    window.statusBar().clearMessage()  # the database's news ("Opened …: 2 armies") told
    start = tree.visualRect(model.unit_index(goblins.id, "spearmen")).center()
    assert send(QDragEnterEvent(start, move, mime, buttons, keys))
    assert window.statusBar().currentMessage() == ""
    assert not send(QDragMoveEvent(target, move, mime, buttons, keys))
    message = window.statusBar().currentMessage()
    assert "Ronin of the Red Pass is a Kensei" in message and "cannot join" in message
    # Back over a place it can land, the reason goes.
    assert send(QDragMoveEvent(start, move, mime, buttons, keys))
    assert window.statusBar().currentMessage() == ""
    assert not send(QDragMoveEvent(target, move, mime, buttons, keys))
    send(QDropEvent(target.toPointF(), move, mime, buttons, keys))
    assert stored(url, goblins.id) == goblins
    assert unit_ids(stored(url, ronin.id)) == unit_ids(ronin)
    assert window.undo_stack.count() == 0


def test_ctrl_drop_through_the_tree_view_copies(qtbot, url):

    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    tree = window.ui.armyTree
    tree.expandAll()
    model = window.tree_model
    # Copy needs DragDrop: an InternalMove view only ever moves.
    assert tree.dragDropMode() == QAbstractItemView.DragDropMode.DragDrop
    assert tree.defaultDropAction() == Qt.DropAction.MoveAction
    assert model.supportedDragActions() & Qt.DropAction.CopyAction
    mime = model.mimeData([model.unit_index(goblins.id, "boar-riders")])
    target = tree.visualRect(model.army_index(elves.id)).center()
    both = Qt.DropAction.MoveAction | Qt.DropAction.CopyAction
    buttons, ctrl = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier
    for event in (QDragEnterEvent(target, both, mime, buttons, ctrl),
                  QDragMoveEvent(target, both, mime, buttons, ctrl)):
        QApplication.sendEvent(tree.viewport(), event)
        assert event.isAccepted()
        assert event.dropAction() == Qt.DropAction.CopyAction
    QApplication.sendEvent(tree.viewport(), QDropEvent(target.toPointF(), both, mime,
                                                        buttons, ctrl))
    assert stored(url, goblins.id) == goblins
    assert unit_ids(stored(url, elves.id)) == [*unit_ids(elves), "boar-riders"]


def test_a_move_the_store_refuses_halfway_changes_neither_army(qtbot, url, tmp_path, modals):
    """The source is written first; when the target's save fails, the source is put back."""


    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    # Another program's trigger makes the target's rows fail (a real SQLite error).
    connection = sqlite3.connect(tmp_path / "rout.sqlite")
    connection.execute(f"CREATE TRIGGER refuse BEFORE INSERT ON roster_entry "
                       f"WHEN NEW.army_id = '{elves.id}' "
                       "BEGIN SELECT RAISE(ABORT, 'the club archive is closed'); END")
    connection.commit()
    connection.close()
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Ok, seen)
    drop_units(window, goblins.id, ["trolls"], -1, window.tree_model.army_index(elves.id),
               Qt.DropAction.MoveAction)
    assert len(seen) == 1 and "the club archive is closed" in seen[0]
    assert window.undo_stack.count() == 0
    assert content(stored(url, goblins.id)) == content(goblins)
    assert content(window.workspace.army(goblins.id)) == content(goblins)
    assert window.workspace.army(elves.id).units == elves.units


# Sorting and grouping by slot


def reversed_goblins():

    goblins = sample(GOBLINS)
    return replace(goblins, units=tuple(reversed(goblins.units)))


# The W6 order is Lords, Heroes, Core, Special, Rare (the engine's Ruleset.slots); units of
# one slot keep the order they had (here reversed).
GROUPED = ["big-boss", "axe-warriors", "hollow-spears", "spearmen", "crag-bolt-thrower",
           "ridge-bolt-thrower", "boar-riders", "trolls"]


def test_sort_units_by_slot_is_an_undoable_edit(qtbot, url):

    army, = seed(url, reversed_goblins())
    window = open_window(qtbot, url)
    assert window.ui.actionSortBySlot.isEnabled()
    window.ui.actionSortBySlot.trigger()
    assert unit_ids(stored(url, army.id)) == GROUPED
    assert roster_unit_ids(window) == GROUPED
    assert tree_unit_ids(window, army.id) == GROUPED
    assert window.undo_stack.undoText() == f"Sort units of {GOBLINS} by slot"
    # Already in order: nothing to do, no step.
    window.ui.actionSortBySlot.trigger()
    assert window.undo_stack.count() == 1
    window.undo_action.trigger()
    assert content(stored(url, army.id)) == content(army)


def test_grouping_the_roster_by_slot_leaves_the_army_as_it_is(qtbot, url, tmp_path):


    army, = seed(url, reversed_goblins())
    window = window_with_settings(qtbot, ini(tmp_path))
    with qtbot.waitSignal(window.ready):
        window.open_database(url)
    action = window.ui.actionGroupBySlot
    assert action.isCheckable() and not action.isChecked()
    order = unit_ids(army)
    assert roster_unit_ids(window) == order
    action.trigger()
    assert roster_unit_ids(window) == GROUPED
    # Only the view is grouped: the army, the tree and the file keep the player's order.
    assert unit_ids(window.current_army) == order
    assert tree_unit_ids(window, army.id) == order
    assert unit_ids(stored(url, army.id)) == order
    assert window.undo_stack.count() == 0
    # The first row of each slot starts a group (the delegate draws a line above it).
    starts = [window.roster_filter.starts_group(row)
              for row in range(window.roster_filter.rowCount())]
    assert starts == [False, True, False, False, True, False, False, True]

    # An edit to a unit's slot puts it in its new group.
    window.roster_filter.setData(cell(window, "trolls", "slot"), "Core",
                                 Qt.ItemDataRole.EditRole)
    # (In the army the trolls come before the other Core units: so they do in the group.)
    assert roster_unit_ids(window)[1:5] == ["trolls", "axe-warriors", "hollow-spears",
                                            "spearmen"]
    # Selection and the search box still work on the grouped rows.
    window.select_units(["spearmen"])
    assert [u.id for u in window.selected_units()] == ["spearmen"]
    window.ui.searchEdit.setText("bolt")
    assert roster_unit_ids(window) == ["crag-bolt-thrower", "ridge-bolt-thrower"]
    window.ui.searchEdit.clear()

    # The choice is remembered for the next session.
    window.close()
    again = window_with_settings(qtbot, ini(tmp_path))
    with qtbot.waitSignal(again.ready):
        again.open_database(url)
    assert again.ui.actionGroupBySlot.isChecked()
    assert roster_unit_ids(again)[0] == "big-boss"
    again.ui.actionGroupBySlot.trigger()
    assert roster_unit_ids(again) == unit_ids(again.current_army)


# Right-click menus on units, armies and the roster


def texts(menu) -> list[str]:
    """A menu's entries as a player reads them: '-' for a separator, '▸' for a submenu."""
    shown = []
    for action in menu.actions():
        if action.isSeparator():
            shown.append("-")
            continue
        text = action.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        shown.append(f"{text} ▸" if action.menu() is not None else text)
    return shown


def submenu(menu, title: str):
    action = next(a for a in menu.actions() if a.menu() is not None
                  and a.text().replace("&", "") == title)
    return action.menu()


def right_click(qtbot, view, index) -> QPoint:
    """Press the right button on a row as a player does; the position for the menu."""

    view.scrollTo(index)
    point = view.visualRect(index).center()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.RightButton, pos=point)
    return point


def grabbed(menu, path) -> None:
    """The menu as the player would see it (never shown: offscreen has no popups)."""
    menu.adjustSize()
    assert menu.grab().save(str(path))


def test_right_click_on_roster_units_offers_their_edits_and_other_armies(qtbot, url,
                                                                          tmp_path):

    goblins, elves, ronin = seed(url, sample(GOBLINS), sample(ELVES),
                                 sample("Ronin of the Red Pass"))
    window = open_window(qtbot, url)
    window.select_army(goblins.id)
    view = window.ui.rosterTable
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.CustomContextMenu
    window.select_units(["spearmen", "trolls"])
    # Right-click on a selected row keeps the selection (both units), as in file managers.
    menu = window.context_menus.roster_menu(right_click(qtbot, view, cell(window, "trolls",
                                                                           "name")))
    assert sorted(u.id for u in window.selected_units()) == ["spearmen", "trolls"]
    assert texts(menu) == ["Duplicate Unit", "Delete Unit", "-", "Copy to ▸", "Move to ▸",
                           "-", "Add Units from Library…", "Sort Units by Slot",
                           "Group Roster by Slot", "-", "Army Settings…"]
    grabbed(menu, tmp_path / "roster-units.png")
    # Only armies of the same ruleset, never the army itself.
    moves = submenu(menu, "Move to")
    assert texts(moves) == [ELVES]
    assert texts(submenu(menu, "Copy to")) == [ELVES]
    moves.actions()[0].trigger()
    assert [u for u in unit_ids(stored(url, elves.id)) if u in ("spearmen", "trolls")] == [
        "spearmen", "trolls"]
    assert "trolls" not in unit_ids(stored(url, goblins.id))
    assert window.undo_stack.count() == 1
    assert stored(url, ronin.id) == ronin

    # Right-click on a row that is not selected selects it alone.
    window.select_army(elves.id)
    window.select_units(["noble"])
    menu = window.context_menus.roster_menu(right_click(qtbot, view,
                                                        cell(window, "archers", "name")))
    assert [u.id for u in window.selected_units()] == ["archers"]
    submenu(menu, "Copy to").actions()[0].trigger()  # back to the goblins
    assert unit_ids(stored(url, goblins.id))[-1] == "archers"
    assert unit_ids(stored(url, elves.id)).count("archers") == 1


def test_right_click_on_the_roster_background(qtbot, url):

    seed(url, small_army())
    window = open_window(qtbot, url)
    view = window.ui.rosterTable
    below = QPoint(10, view.viewport().height() - 5)
    assert not view.indexAt(below).isValid()
    menu = window.context_menus.roster_menu(below)
    assert texts(menu) == ["Add Units from Library…", "Sort Units by Slot",
                           "Group Roster by Slot", "-", "Army Settings…"]
    # The window's own actions: one shortcut, one check mark, one enabled state.
    group = next(a for a in menu.actions() if a.text() == "&Group Roster by Slot")
    assert group is window.ui.actionGroupBySlot and group.isCheckable()


def test_right_click_on_an_army_in_the_tree_shows_and_offers_it(qtbot, url, tmp_path):
    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    window.select_army(elves.id)
    tree = window.ui.armyTree
    assert tree.contextMenuPolicy().name == "CustomContextMenu"
    menu = window.context_menus.tree_menu(right_click(qtbot, tree,
                                                      window.tree_model.army_index(goblins.id)))
    assert window.current_army.id == goblins.id
    assert texts(menu) == ["Add Units from Library…", "-", "Army Settings…", "Clone Army",
                           "Sort Units by Slot", "-", "Export Army…", "Export as PDF…",
                           "Print Roster…", "-", "Delete Army"]
    grabbed(menu, tmp_path / "tree-army.png")
    next(a for a in menu.actions() if a.text() == "&Clone Army").trigger()
    assert window.current_army.name == f"{GOBLINS} (copy)"


def test_right_click_on_a_unit_in_the_tree(qtbot, url):

    goblins, elves = seed(url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, url)
    tree = window.ui.armyTree
    tree.expandAll()
    index = window.tree_model.unit_index(elves.id, "eagle")
    menu = window.context_menus.tree_menu(right_click(qtbot, tree, index))
    assert window.current_army.id == elves.id
    assert [u.id for u in window.selected_units()] == ["eagle"]
    assert texts(menu) == ["Duplicate Unit", "Delete Unit", "-", "Copy to ▸", "Move to ▸"]
    submenu(menu, "Copy to").actions()[0].trigger()
    assert unit_ids(stored(url, goblins.id))[-1] == "eagle"
    assert "eagle" in unit_ids(stored(url, elves.id))


def test_right_click_where_there_is_no_army(qtbot, url, tmp_path):


    seed(url, sample("Ronin of the Red Pass"))
    window = open_window(qtbot, url)
    tree = window.ui.armyTree
    ruleset_row = window.tree_model.index(list(RULESETS).index("warhammer6"), 0)
    menu = window.context_menus.tree_menu(right_click(qtbot, tree, ruleset_row))
    assert texts(menu) == ["New Army…", "Import Army…", "Add Sample Armies"]
    empty = QPoint(10, tree.viewport().height() - 5)
    assert not tree.indexAt(empty).isValid()
    assert texts(window.context_menus.tree_menu(empty)) == texts(menu)
    grabbed(menu, tmp_path / "tree-empty.png")
    # A unit whose army has no other army of its ruleset: said, not an empty submenu.
    tree.expandAll()
    army = window.current_army
    unit_menu = window.context_menus.tree_menu(right_click(
        qtbot, tree, window.tree_model.unit_index(army.id, army.units[0].id)))
    moves = submenu(unit_menu, "Move to")
    assert texts(moves) == ["No other Kensei 1st edition army"]
    assert not moves.actions()[0].isEnabled()


def test_a_read_only_database_offers_none_of_these_edits(qtbot, tmp_path):
    """Clone, Sort by Slot, Copy to and Move to change the database: off when it may only be
    read. Grouping the view and Reload change nothing: on."""
    from read_only import read_only

    folder = tmp_path / "club"
    folder.mkdir()
    url = f"sqlite:///{folder / 'rout.sqlite'}"
    goblins, _ = seed(url, reversed_goblins(), sample(ELVES))
    with read_only(folder):
        window = open_window(qtbot, url)
        assert window.store.read_only
        window.select_army(goblins.id)
        for action in (window.ui.actionCloneArmy, window.ui.actionSortBySlot):
            assert not action.isEnabled(), action.objectName()
        for action in (window.ui.actionGroupBySlot, window.ui.actionReload):
            assert action.isEnabled(), action.objectName()
        menu = window.context_menus.roster_menu(right_click(qtbot, window.ui.rosterTable,
                                                            cell(window, "trolls", "name")))
        for title in ("Copy to", "Move to"):
            assert not submenu(menu, title).isEnabled(), title
        window.ui.actionGroupBySlot.trigger()
        assert roster_unit_ids(window) == GROUPED
        window.ui.actionReload.trigger()
        qtbot.waitUntil(lambda: not window.database_reload.busy, timeout=10_000)
        assert window.statusBar().currentMessage() == "Nothing changed in the database"
        window.close()
