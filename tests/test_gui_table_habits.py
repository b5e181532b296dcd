"""What players expect of the windows around the table (issue 20, item 18): New Battle
ticks the army being looked at and an opponent of its ruleset, Open Sample Armies twice
gives names that tell the sets apart, and a maximized window comes back maximized."""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from test_gui_roster import modals, open_window, sample, sample_armies, seed, stored_names, url  # noqa: F401

from desktop.gui.dialogs import NewBattleDialog
from desktop.gui.main_window import MainWindow


def click_army(qtbot, window: MainWindow, army_id: str) -> None:
    """Click the army's row in the Armies dock, as a player picks the army to look at."""
    tree = window.ui.armyTree
    index = window.tree_model.army_index(army_id)
    tree.scrollTo(index)
    QTest.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, tree.visualRect(index).center())
    qtbot.waitUntil(lambda: window.current_army is not None
                    and window.current_army.id == army_id)


def ticked_by_new_battle(qtbot, window: MainWindow, modals) -> tuple[str, list[str]]:
    """Open Battle ▸ New Battle, note the ruleset and the armies ticked, cancel."""
    seen: list[tuple[str, list[str]]] = []

    def look(dialog: NewBattleDialog) -> None:
        seen.append((dialog.ruleset, dialog.army_ids))
        dialog.reject()

    modals.answer(NewBattleDialog, look)
    window.ui.actionNewBattle.trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    return seen[0]


def test_new_battle_ticks_the_army_looked_at_and_an_opponent_of_its_ruleset(qtbot, url,
                                                                         modals):
    raiders = replace(sample("Hill Goblin Warband"), id="", name="Zog's Raiders", player="Zog")
    armies = {army.name: army for army in seed(url, *sample_armies(), raiders)}
    window = open_window(qtbot, url)
    # A Kensei army in view: Kensei, with it and the other Kensei army (not Warhammer's two).
    ronin = armies["Ronin of the Red Pass"]
    click_army(qtbot, window, ronin.id)
    assert ticked_by_new_battle(qtbot, window, modals) == (
        "kensei1", [armies["Kagemori Clan"].id, ronin.id])
    # The third Warhammer army in view: it and the first army of another player, not the
    # first two of the list.
    zog = armies["Zog's Raiders"]
    click_army(qtbot, window, zog.id)
    assert ticked_by_new_battle(qtbot, window, modals) == (
        "warhammer6", [armies["Elf Marchwardens"].id, zog.id])


def test_sample_armies_added_twice_have_names_that_tell_the_sets_apart(qtbot, url):
    window = open_window(qtbot, url)
    names = sorted(army.name for army in sample_armies())
    window.ui.actionOpenSamples.trigger()
    qtbot.waitUntil(lambda: len(window.workspace.armies()) == len(names))
    window.ui.actionOpenSamples.trigger()
    qtbot.waitUntil(lambda: len(window.workspace.armies()) == 2 * len(names))
    shown = sorted(army.name for army in window.workspace.armies())
    assert shown == sorted(names + [f"{name} (2)" for name in names])
    assert stored_names(url) == shown
    # One undo takes the second set off whole.
    window.undo_stack.undo()
    assert sorted(army.name for army in window.workspace.armies()) == names


def test_a_maximized_window_comes_back_maximized(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "rout.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.showMaximized()
    qtbot.waitUntil(first.isMaximized)
    first.close()
    second = MainWindow(settings=settings)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert second.isMaximized()
