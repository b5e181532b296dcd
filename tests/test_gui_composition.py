"""Army composition in the window, driven for real on a SQLite file in tmp_path.

The New Army dialog picks the army's list (Army Settings changes it), Add Units offers that
list first, an army with warnings is marked in the Armies tree, the Unit dock wraps long
warnings, and a database from before army lists gets the bundled library again. The rules
are the engine's (tests/test_composition.py); here the widgets show what it says.
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QDialog, QDialogButtonBox
from test_gui_roster import modals, open_window, seed, stored, url  # noqa: F401
from test_store_database import database_at

from desktop.bundled import resource_path
from desktop.engine.codec import army_from_json, library_from_json
from desktop.engine.model import Army
from desktop.gui.army_tree import WARNINGS_ROLE
from desktop.gui.dialogs import NO_LIST, LibraryDialog, NewArmyDialog
from desktop.gui.main_window import MainWindow
from desktop.gui.roster_table import WARNING_TINT
from desktop.store.store import Store

GOBLINS = resource_path("armies", "warhammer6-hill-goblins.json")
ELVES = resource_path("armies", "warhammer6-elf-marchwardens.json")
W6_GAME = "Warhammer Fantasy Battles (6th definitive edition)"
LONG = ("Aelwen, Warden of the Silver March and Keeper of the Old Ways (Elf Noble) is from "
        "the High Elves list, not Orcs & Goblins")


def read_army(path: Path) -> Army:
    return army_from_json(json.loads(path.read_text(encoding="utf-8")))


def combo_items(dialog: NewArmyDialog) -> list[tuple[str, str]]:
    combo = dialog.ui.listCombo
    return [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]


def press_ok(dialog: QDialog) -> None:
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()


# The New Army dialog: a new army picks its list


def test_a_new_army_picks_its_list_from_its_rulesets_library(qtbot, url, modals):
    window = open_window(qtbot, url)
    seen: list[list[tuple[str, str]]] = []

    def fill(dialog: NewArmyDialog) -> None:
        combo = dialog.ui.rulesetCombo
        combo.setCurrentIndex(combo.findData("kensei1"))
        seen.append(combo_items(dialog))
        combo.setCurrentIndex(combo.findData("warhammer6"))
        seen.append(combo_items(dialog))
        assert dialog.army_list == "orcs-goblins"  # a new army starts on the first list
        dialog.ui.listCombo.setCurrentIndex(dialog.ui.listCombo.findText("High Elves"))
        dialog.ui.nameEdit.setText("Silverwood Host")
        dialog.ui.limitSpin.setValue(2_000)
        press_ok(dialog)

    modals.answer(NewArmyDialog, fill)
    window.new_army()
    assert seen == [
        [("Samurai Clan", "samurai-clan"), ("Ronin & Bandits", "ronin-bandits"), (NO_LIST, "")],
        [("Orcs & Goblins", "orcs-goblins"), ("High Elves", "high-elves"), (NO_LIST, "")]]
    army = window.current_army
    assert (army.name, army.ruleset, army.army_list) == ("Silverwood Host", "warhammer6",
                                                         "high-elves")
    assert stored(url, army.id).army_list == "high-elves"


def test_army_settings_show_and_change_the_list(qtbot, url, modals):
    army, = seed(url, replace(read_army(GOBLINS), army_list="dwarfs"))
    window = open_window(qtbot, url)
    seen: list[Any] = []

    def change(dialog: NewArmyDialog) -> None:
        # A list the library does not have is kept, not silently dropped.
        seen.append((dialog.ui.listCombo.currentText(), dialog.army_list, combo_items(dialog)))
        dialog.ui.listCombo.setCurrentIndex(dialog.ui.listCombo.findData("orcs-goblins"))
        press_ok(dialog)

    modals.answer(NewArmyDialog, change)
    window.edit_army_settings()
    assert seen == [("dwarfs (not in the library)", "dwarfs", [
        ("Orcs & Goblins", "orcs-goblins"), ("High Elves", "high-elves"),
        ("dwarfs (not in the library)", "dwarfs"), (NO_LIST, "")])]
    assert stored(url, army.id).army_list == "orcs-goblins"
    window.undo_stack.undo()
    assert stored(url, army.id).army_list == "dwarfs"


# Add Units offers the army's list first


def test_add_units_offers_the_armys_list_first(qtbot, url, modals):
    army, = seed(url, Army("Warband", "Ann", "warhammer6", (), points_limit=2_000,
                           army_list="orcs-goblins"))
    window = open_window(qtbot, url)
    seen: list[list[str]] = []

    def choose(dialog: LibraryDialog) -> None:
        seen.append(dialog.shown())
        # The first entry of the list is selected, not its heading.
        assert [e.profile.name for e in dialog.chosen()] == ["Orc Big Boss"]
        dialog.choose(["River Troll", "Elf Noble", "Other army lists"])
        press_ok(dialog)

    modals.answer(LibraryDialog, choose)
    window.add_units_from_library()
    assert seen == [[
        "Orcs & Goblins",
        "Orc Big Boss — Heroes, 70 pts each",
        "Hill Goblin Spearmen — Core, 3 pts each",
        "Orc Axe Warriors — Core, 6 pts each",
        "Orc Boar Riders — Special, 20 pts each",
        "River Troll — Rare, 45 pts each",
        "Goblin Bolt Thrower — Special, 35 pts each",
        "Orc Warboss — Lords, 100 pts each",
        "Other army lists",
        "Elf Noble — Heroes, 80 pts each · High Elves",
        "Elf Wardens — Core, 9 pts each · High Elves",
        "Elf Archers — Core, 11 pts each · High Elves",
        "Elf Oathsworn Guard — Special, 14 pts each · High Elves",
        "Elf Silver Riders — Special, 26 pts each · High Elves",
        "Great Sky Eagle — Rare, 50 pts each · High Elves",
        "Elf Prince — Lords, 145 pts each · High Elves",
    ]]
    # A heading is never a unit; an entry of another list can still be taken (a warning).
    assert [unit.profile.name for unit in window.current_army.units] == ["River Troll",
                                                                        "Elf Noble"]
    assert [unit.profile.name for unit in stored(url, army.id).units] == ["River Troll",
                                                                         "Elf Noble"]
    assert "Elf Noble is from the High Elves list, not Orcs & Goblins" in \
        window.tree_model.army_index(army.id).data(WARNINGS_ROLE)
    # The roster tints the unit's name with the warning, as it does a stat out of range.
    model = window.roster_model
    name = model.index(model.row_of("elf-noble"), model.column_of("name"))
    assert name.data(Qt.ItemDataRole.BackgroundRole) == QBrush(WARNING_TINT)
    assert name.data(Qt.ItemDataRole.ToolTipRole) == (
        "Elf Noble is from the High Elves list, not Orcs & Goblins")


def test_without_a_list_add_units_shows_the_library_in_order(qtbot, url, modals):
    seed(url, Army("Anything", "Ann", "warhammer6", ()))
    window = open_window(qtbot, url)
    library = library_from_json(json.loads(resource_path("libraries", "warhammer6.json")
                                           .read_text(encoding="utf-8")))
    seen: list[list[str]] = []
    modals.answer(LibraryDialog, lambda dialog: (seen.append(dialog.shown()),
                                                  dialog.reject()))
    window.add_units_from_library()
    assert [text.split(" — ")[0] for text in seen[0]] == [
        entry.profile.name for entry in library.entries]


# The Armies tree marks an army with warnings


def tree_mark(window: MainWindow, army_id: str) -> tuple[str, list[str], str]:
    index = window.tree_model.army_index(army_id)
    return (index.data(Qt.ItemDataRole.DecorationRole).name(), index.data(WARNINGS_ROLE),
            index.data(Qt.ItemDataRole.ToolTipRole))


def test_the_tree_marks_an_army_with_warnings_and_follows_edits(qtbot, url):
    goblins, elves = seed(url, read_army(GOBLINS), read_army(ELVES))
    window = open_window(qtbot, url)
    assert tree_mark(window, goblins.id)[:2] == ("army", [])
    assert tree_mark(window, elves.id)[:2] == ("army", [])

    # A second General (composition.md: exactly one) marks the army at once.
    from desktop.gui.commands import ReplaceArmy, push_edit

    changed: list[QModelIndex] = []
    window.tree_model.dataChanged.connect(lambda top, bottom, roles=(): changed.append(top))
    spearmen = goblins.units[1]
    two_generals = replace(goblins, units=(
        goblins.units[0], replace(spearmen, upgrades=spearmen.upgrades | {"general"}),
        *goblins.units[2:]))
    push_edit(window.undo_stack, ReplaceArmy(window.workspace, goblins, two_generals,
                                             "Second General"))
    icon, warnings, tooltip = tree_mark(window, goblins.id)
    assert (icon, warnings) == ("army-warning", ["Generals: 2, should be exactly 1"])
    assert tooltip.endswith("\n⚠ Generals: 2, should be exactly 1")
    assert window.tree_model.army_index(goblins.id) in changed
    assert tree_mark(window, elves.id)[:2] == ("army", [])

    # Undo takes the mark away again.
    window.undo_stack.undo()
    assert tree_mark(window, goblins.id)[:2] == ("army", [])


def test_over_the_points_limit_alone_marks_the_army(qtbot, url):
    army, = seed(url, replace(read_army(GOBLINS), points_limit=950))
    assert army.points == 951
    window = open_window(qtbot, url)
    assert tree_mark(window, army.id)[:2] == ("army-warning", [
        "951 points is 1 over the limit of 950"])


def test_notes_alone_do_not_mark_the_army(qtbot, url):
    army, = seed(url, replace(read_army(ELVES), points_limit=0))
    window = open_window(qtbot, url)
    notes = [p.message for p in window.workspace.problems(window.workspace.army(army.id))]
    assert notes == ["no points limit: the limits that go by the army's size (army "
                     "selection chart) are not checked"]
    assert tree_mark(window, army.id)[:2] == ("army", [])


# The Unit dock wraps long warnings


def broken_goblins() -> Army:
    goblins, elves = read_army(GOBLINS), read_army(ELVES)
    noble = replace(elves.units[0], id="elf-noble", name=LONG.split(" (")[0],
                    player=goblins.player)
    return replace(goblins, name="Broken Warband", points_limit=900,
                   units=(*goblins.units[:2], *goblins.units[3:], noble))


def test_long_warnings_wrap_in_the_unit_dock(qtbot, url, tmp_path):
    army, elves = seed(url, broken_goblins(), read_army(ELVES))
    window = open_window(qtbot, url)
    window.resizeDocks([window.ui.inspectorDock], [260], Qt.Orientation.Horizontal)
    window.select_army(army.id)
    window.select_units(["elf-noble"])
    problems = window.ui.problemList
    texts = [problems.item(i).text() for i in range(problems.count())]
    assert f"⚠ {LONG}" in texts
    qtbot.waitUntil(lambda: problems.viewport().width() < 300)
    line = problems.fontMetrics().lineSpacing()
    long_item = problems.item(texts.index(f"⚠ {LONG}"))
    rect = problems.visualItemRect(long_item)
    assert rect.width() <= problems.viewport().width()  # not cut at the right edge ...
    assert rect.height() >= 3 * line  # ... but wrapped onto several lines
    assert problems.horizontalScrollBar().maximum() == 0

    # Pictures to look at (ROUT_PICTURES=folder keeps them): the dock, and the tree with
    # the marked army not selected.
    pictures = Path(os.environ.get("ROUT_PICTURES") or tmp_path)
    assert window.ui.inspectorDock.grab().save(str(pictures / "rout-composition-dock.png"))
    window.select_army(elves.id)
    window.ui.armyTree.collapseAll()
    window.ui.armyTree.expandToDepth(0)
    assert window.ui.armyDock.grab().save(str(pictures / "rout-composition-tree.png"))


# Databases from before army lists, and imports


def test_a_database_from_before_army_lists_gets_the_bundled_library(qtbot, tmp_path):
    path = tmp_path / "old.sqlite"
    url = f"sqlite:///{path}"
    with Store.open(url) as store:
        kept = store.save_army(replace(read_army(GOBLINS), army_list=""))
    database_at(url, "0003", down=True)
    window = open_window(qtbot, url)
    library = window.workspace.full_library("warhammer6")
    assert [found.name for found in library.army_lists] == ["Orcs & Goblins", "High Elves"]
    assert window.workspace.army(kept.id) == kept
    window.close()
    with Store.open(url) as store:
        assert store.load_library("warhammer6") == library  # stored again, lists and all


def test_an_imported_battlescribe_roster_takes_its_list_from_the_catalogue(qtbot, url,
                                                                           tmp_path):
    unit = ('<selection name="Orc Boyz" type="unit" number="1"><selections>'
            '<selection name="Orc" type="model" number="20"/></selections>'
            '<costs><cost name="pts" value="120"/></costs></selection>')
    path = tmp_path / "waaagh.ros"
    path.write_text(f'<roster name="Waaagh" gameSystemName="{W6_GAME}"><forces>'
                    f'<force name="Battle" catalogueName="Orcs &amp; Goblins"><selections>'
                    f"{unit}</selections></force></forces></roster>", encoding="utf-8")
    window = open_window(qtbot, url)
    finished: list[bool] = []
    window.import_army(path, on_finished=lambda: finished.append(True))
    qtbot.waitUntil(lambda: bool(finished), timeout=10_000)
    army = window.current_army
    assert (army.name, army.army_list) == ("Waaagh", "orcs-goblins")
    assert stored(url, army.id).army_list == "orcs-goblins"
