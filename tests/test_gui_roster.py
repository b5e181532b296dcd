"""The roster panes driven for real: the main window on a SQLite file in tmp_path.

Every edit goes through the widget a player would use (the NewArmyDialog, the LibraryDialog,
the roster table's delegate editors, the army tree's drop handling, the search box), and
every test checks both what the window shows and what a fresh `Store` reads back from the
file. Each window's three Qt models run under QAbstractItemModelTester for the whole test;
it reports through Qt warnings, which `qt_log_level_fail` turns into failures.

Modal dialogs block in exec(), so the `modals` fixture answers them from a timer, in the
order a test expects them.

The offscreen platform cannot run a real drag (its QPlatformDrag returns IgnoreAction at
once), so drops are delivered as the view delivers them: `mimeData` then `dropMimeData`,
and once through the tree's viewport with synthesized drag events.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QMimeData, QModelIndex, QObject, Qt, QTimer
from PySide6.QtGui import QBrush, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QSpinBox,
    QWidget,
)

from desktop.bundled import resources_dir
from desktop.engine.codec import library_from_json
from desktop.engine.model import Army, LibraryEntry, TroopType, Unit
from desktop.engine.roster import library_entry_for, price, unit_from_library
from desktop.engine.rulesets import RULESETS, get_ruleset
from desktop.gui.army_files import sample_armies
from desktop.gui.army_tree import UNIT_ID_ROLE as TREE_UNIT_ID_ROLE
from desktop.gui.army_tree import UNIT_MIME
from desktop.gui.delegates import UpgradeEditor
from desktop.gui.dialogs import LibraryDialog, NewArmyDialog, WelcomeDialog
from desktop.gui.main_window import MainWindow
from desktop.gui.roster_table import EDIT_KIND_ROLE, EDIT_RANGE_ROLE, NOTE_TINT, WARNING_TINT
from desktop.gui.roster_table import UNIT_ID_ROLE as ROSTER_UNIT_ID_ROLE
from desktop.store.files import read_json
from desktop.store.store import Store
from desktop.store.transfer import read_army_file

REPO = Path(__file__).resolve().parents[1]
BATTLESCRIBE_ROSTER = REPO / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"
GOBLINS = "Hill Goblin Warband"
GOBLIN_UNITS = ["big-boss", "spearmen", "hollow-spears", "axe-warriors", "boar-riders",
                "trolls", "ridge-bolt-thrower", "crag-bolt-thrower"]
Ok = QMessageBox.StandardButton.Ok
Yes = QMessageBox.StandardButton.Yes
No = QMessageBox.StandardButton.No


# Fixtures and helpers


class Modals:
    """Answers the modal dialogs a test expects, in order, while exec() blocks the test.

    Any other modal dialog is closed and noted, so that a surprise error box fails the test
    instead of hanging it. A busy QProgressDialog is left alone: it may or may not show.
    """

    def __init__(self) -> None:
        self._expected: list[tuple[type[QWidget], Callable[[Any], object]]] = []
        self.unexpected: list[str] = []
        self._timer = QTimer()
        self._timer.setInterval(5)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    def answer(self, kind: type[QWidget], act: Callable[[Any], object]) -> None:
        self._expected.append((kind, act))

    def message(self, button: QMessageBox.StandardButton, seen: list[str]) -> None:
        """The next QMessageBox: note its title and text, then press `button`."""

        def press(box: QMessageBox) -> None:
            seen.append(f"{box.windowTitle()}: {box.text()}")
            box.button(button).click()

        self.answer(QMessageBox, press)

    @property
    def pending(self) -> int:
        return len(self._expected)

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or not dialog.isVisible() or isinstance(dialog, QProgressDialog):
            return
        if self._expected and isinstance(dialog, self._expected[0][0]):
            _, act = self._expected.pop(0)
            act(dialog)
            return
        text = dialog.text() if isinstance(dialog, QMessageBox) else ""
        self.unexpected.append(f"{type(dialog).__name__} {dialog.windowTitle()!r} {text}")
        if isinstance(dialog, QDialog):
            dialog.reject()
        else:
            dialog.close()

    def stop(self) -> None:
        self._timer.stop()
        self._expected.clear()


@pytest.fixture(autouse=True)
def modals(qapp) -> Iterator[Modals]:
    answers = Modals()
    yield answers
    answers.stop()  # a dialog that never came must not be answered in a later test
    assert not answers.unexpected, f"unexpected dialogs: {answers.unexpected}"


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'rout.sqlite'}"


def open_window(qtbot, url: str) -> MainWindow:
    """A shown main window on `url`, its models under QAbstractItemModelTester."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.layout().activate()
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.ready, timeout=20_000):
        window.open_database(url)
    for model in (window.tree_model, window.roster_model, window.roster_filter):
        # Parented to the model: it lives exactly as long as the model it checks.
        QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning,
                                 model)
    return window


def seed(url: str, *armies: Army) -> list[Army]:
    """Save armies straight into the database, as an earlier session would have."""
    with Store.open(url) as store:
        return [store.save_army(army) for army in armies]


def stored(url: str, army_id: str) -> Army:
    """The army as a fresh connection to the file reads it."""
    with Store.open(url) as store:
        return store.load_army(army_id)


def content(army: Army | None) -> Army | None:
    """An army whatever its version: an undone edit is written again, as a new version."""
    return None if army is None else replace(army, version=0)


def stored_names(url: str) -> list[str]:
    with Store.open(url) as store:
        return sorted(summary.name for summary in store.list_armies())


def sample(name: str) -> Army:
    return next(army for army in sample_armies() if army.name == name)


def library(ruleset: str) -> tuple[LibraryEntry, ...]:
    found = library_from_json(read_json(resources_dir() / "libraries" / f"{ruleset}.json"))
    assert found.ruleset == ruleset
    return found.entries


def entry(ruleset: str, name: str) -> LibraryEntry:
    return next(e for e in library(ruleset) if e.profile.name == name)


def small_army(points_limit: int = 0) -> Army:
    """Two library units, priced by the engine."""
    spearmen = unit_from_library(entry("warhammer6", "Hill Goblin Spearmen"), "spearmen", "Ann")
    trolls = unit_from_library(entry("warhammer6", "River Troll"), "trolls", "Ann")
    return Army(name="Small Army", player="Ann", ruleset="warhammer6",
                units=(spearmen, trolls), points_limit=points_limit)


def unit_of(army: Army | None, unit_id: str) -> Unit:
    assert army is not None
    return next(unit for unit in army.units if unit.id == unit_id)


def unit_ids(army: Army | None) -> list[str]:
    assert army is not None
    return [unit.id for unit in army.units]


def cell(window: MainWindow, unit_id: str, key: str) -> QModelIndex:
    """The roster table's index (in the filter, as the view sees it) of a unit's column."""
    model = window.roster_model
    assert model is not None and window.roster_filter is not None
    row = model.row_of(unit_id)
    assert row >= 0, f"{unit_id} is not in the roster"
    return window.roster_filter.mapFromSource(model.index(row, model.column_of(key)))


def open_editor(window: MainWindow, index: QModelIndex) -> QWidget:
    """Start editing a roster cell as a double click would; the delegate's editor."""
    view = window.ui.rosterTable
    view.scrollTo(index)
    view.setCurrentIndex(index)
    view.edit(index)
    editor = view.indexWidget(index)
    assert editor is not None, "the cell did not open an editor"
    assert editor.isVisible()
    return editor


def commit(qtbot, window: MainWindow, widget: QWidget) -> None:
    """Press Return in the editor; the delegate commits on the next turn of the event loop."""
    assert window.workspace is not None
    with qtbot.waitSignal(window.workspace.army_changed, timeout=2000):
        qtbot.keyClick(widget, Qt.Key.Key_Return)
    assert window.ui.rosterTable.indexWidget(window.ui.rosterTable.currentIndex()) is None


def type_number(qtbot, spin: QSpinBox, value: int) -> None:
    """Type over the editor's number; it counts once entered (commit presses Return)."""
    spin.selectAll()
    qtbot.keyClicks(spin, str(value))
    assert spin.cleanText() == str(value)


def fill_new_army(qtbot, name: str, ruleset: str, points_limit: int = 0,
                  player: str = "Ann") -> Callable[[NewArmyDialog], None]:
    """Answer a NewArmyDialog by typing into it and pressing OK."""

    def fill(dialog: NewArmyDialog) -> None:
        dialog.ui.nameEdit.selectAll()
        qtbot.keyClicks(dialog.ui.nameEdit, name)
        dialog.ui.playerEdit.selectAll()
        qtbot.keyClicks(dialog.ui.playerEdit, player)
        combo = dialog.ui.rulesetCombo
        combo.setCurrentIndex(combo.findData(ruleset))
        dialog.ui.limitSpin.setValue(points_limit)
        dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()

    return fill


def choose_from_library(names: list[str], search: str = "") -> Callable[[LibraryDialog], None]:
    def choose(dialog: LibraryDialog) -> None:
        if search:
            dialog.ui.searchEdit.setText(search)
        dialog.choose(names)
        assert sorted(e.profile.name for e in dialog.chosen()) == sorted(names)
        dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()

    return choose


def tree_unit_ids(window: MainWindow, army_id: str) -> list[str]:
    """The unit rows under an army in the Armies dock, top to bottom."""
    model = window.tree_model
    assert model is not None
    parent = model.army_index(army_id)
    return [model.index(row, 0, parent).data(TREE_UNIT_ID_ROLE)
            for row in range(model.rowCount(parent))]


def roster_unit_ids(window: MainWindow) -> list[str]:
    """The rows of the roster table as the view shows them (after the search filter)."""
    model = window.roster_filter
    assert model is not None
    return [model.index(row, 0).data(ROSTER_UNIT_ID_ROLE) for row in range(model.rowCount())]


def tree_army_names(window: MainWindow, ruleset: str) -> list[str]:
    model = window.tree_model
    assert model is not None
    group = model.index(list(RULESETS).index(ruleset), 0)
    return [model.index(row, 0, group).data() for row in range(model.rowCount(group))]


def select_rows(window: MainWindow, unit_ids: list[str]) -> None:
    window.select_units(unit_ids)
    assert sorted(unit.id for unit in window.selected_units()) == sorted(unit_ids)


# 1. Creating an army, adding units, editing them through the delegates


def test_new_army_through_its_dialog(qtbot, url, modals):
    window = open_window(qtbot, url)
    assert window.workspace is not None and not window.workspace.armies()
    modals.answer(NewArmyDialog, fill_new_army(qtbot, "Grey Hills Raiders", "warhammer6",
                                               points_limit=750, player="Bea"))
    window.new_army()
    assert modals.pending == 0

    army = window.current_army
    assert army is not None and army.id
    assert (army.name, army.player, army.ruleset, army.points_limit, army.units) == (
        "Grey Hills Raiders", "Bea", "warhammer6", 750, ())
    assert tree_army_names(window, "warhammer6") == ["Grey Hills Raiders"]
    assert window.ui.armyTree.currentIndex() == window.tree_model.army_index(army.id)
    assert "Grey Hills Raiders" in window.ui.armyTitle.text()
    assert window.ui.actionAddUnits.isEnabled()
    assert window.undo_stack.undoText() == "New army Grey Hills Raiders"
    assert stored(url, army.id) == army

    # Cancel creates nothing.
    modals.answer(NewArmyDialog, lambda dialog: dialog.reject())
    window.new_army()
    assert modals.pending == 0
    assert stored_names(url) == ["Grey Hills Raiders"]
    assert window.undo_stack.count() == 1


def test_new_army_dialog_needs_a_name(qtbot, url, modals):
    window = open_window(qtbot, url)
    seen: list[bool] = []

    def clear_name(dialog: NewArmyDialog) -> None:
        ok = dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok)
        dialog.ui.nameEdit.setText("   ")
        seen.append(ok.isEnabled())
        dialog.ui.nameEdit.setText("  Two   words ")
        seen.append(ok.isEnabled())
        ok.click()

    modals.answer(NewArmyDialog, clear_name)
    window.new_army()
    assert seen == [False, True]
    assert window.current_army is not None
    assert window.current_army.name == "Two words"
    assert window.current_army.player == "Player"  # the dialog's default


def test_add_units_from_the_library_dialog(qtbot, url, modals):
    army, = seed(url, Army(name="Empty", player="Ann", ruleset="warhammer6", units=()))
    window = open_window(qtbot, url)
    assert window.current_army == army

    modals.answer(LibraryDialog, choose_from_library(["River Troll", "Orc Big Boss"]))
    window.add_units_from_library()
    assert modals.pending == 0
    # Library order, each priced by the engine, the new units selected.
    assert unit_ids(window.current_army) == ["orc-big-boss", "river-troll"]
    troll = unit_of(window.current_army, "river-troll")
    river_troll = entry("warhammer6", "River Troll")
    assert (troll.models, troll.points, troll.slot) == (
        river_troll.models, price(river_troll, river_troll.models, ()), "Rare")
    assert [unit.id for unit in window.selected_units()] == ["orc-big-boss", "river-troll"]
    assert roster_unit_ids(window) == ["orc-big-boss", "river-troll"]
    assert tree_unit_ids(window, army.id) == ["orc-big-boss", "river-troll"]
    assert stored(url, army.id) == window.current_army

    # The dialog's search box narrows the list; cancelling adds nothing.
    modals.answer(LibraryDialog, choose_from_library(["Elf Archers"], search="archer"))
    window.add_units_from_library()
    modals.answer(LibraryDialog, lambda dialog: dialog.reject())
    window.add_units_from_library()
    assert modals.pending == 0
    assert unit_ids(window.current_army) == ["orc-big-boss", "river-troll", "elf-archers"]
    assert unit_ids(stored(url, army.id)) == ["orc-big-boss", "river-troll", "elf-archers"]


def test_add_units_directly_gives_unique_ids(qtbot, url):
    army, = seed(url, Army(name="Empty", player="Ann", ruleset="kensei1", units=()))
    window = open_window(qtbot, url)
    assert window.workspace is not None
    entries = window.workspace.library("kensei1")
    bandits = next(e for e in entries if e.profile.name == "Mountain Bandits")
    window.add_units([bandits, bandits, entries[0]])
    assert unit_ids(window.current_army) == ["mountain-bandits", "mountain-bandits-2",
                                             "clan-daimyo"]
    assert all(unit.player == "Ann" for unit in window.current_army.units)
    assert window.undo_stack.undoText() == "Add Mountain Bandits, Mountain Bandits, Clan Daimyo"
    assert stored(url, army.id) == window.current_army
    window.add_units([])  # nothing chosen: no empty undo step
    assert window.undo_stack.count() == 1


def test_stat_edit_through_the_delegate(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    index = cell(window, "trolls", "stat:Ld")
    assert index.data() == 4

    spin = open_editor(window, index)
    assert isinstance(spin, QSpinBox)
    spec = next(s for s in get_ruleset("warhammer6").stats if s.name == "Ld")
    assert (spin.minimum(), spin.maximum()) == (spec.minimum, spec.maximum) == (1, 10)
    assert spin.value() == 4
    type_number(qtbot, spin, 8)
    commit(qtbot, window, spin)

    assert unit_of(window.current_army, "trolls").profile.stats["Ld"] == 8
    assert cell(window, "trolls", "stat:Ld").data() == 8
    assert unit_of(stored(url, army.id), "trolls").profile.stats["Ld"] == 8
    # Only that stat changed: the points and the other unit are as they were.
    assert stored(url, army.id).units[0] == army.units[0]
    assert unit_of(stored(url, army.id), "trolls").points == army.units[1].points
    assert window.undo_stack.undoText() == "Change Ld of River Troll"

    # Wounds are a stat and the per-model wounds the battle engine counts.
    wounds = open_editor(window, cell(window, "trolls", "stat:W"))
    type_number(qtbot, wounds, 5)
    commit(qtbot, window, wounds)
    troll = unit_of(stored(url, army.id), "trolls")
    assert (troll.profile.stats["W"], troll.profile.wounds) == (5, 5)


def test_stat_editors_are_bounded_by_the_ruleset(qtbot, url):
    armies = {army.ruleset: army for army in seed(url, *sample_armies())}
    assert set(armies) == set(RULESETS)
    window = open_window(qtbot, url)
    for ruleset, army in armies.items():
        window.select_army(army.id)
        unit_id = army.units[1].id
        for spec in get_ruleset(ruleset).stats:
            index = cell(window, unit_id, f"stat:{spec.name}")
            assert index.data(EDIT_KIND_ROLE) == "stat"
            assert tuple(index.data(EDIT_RANGE_ROLE)) == (spec.minimum, spec.maximum)
            spin = open_editor(window, index)
            assert isinstance(spin, QSpinBox)
            assert (spin.minimum(), spin.maximum()) == (spec.minimum, spec.maximum), \
                f"{ruleset} {spec.name}"
            qtbot.keyClick(spin, Qt.Key.Key_Escape)  # cancel: nothing is saved
            assert window.ui.rosterTable.indexWidget(index) is None
        assert stored(url, army.id) == army
    assert window.undo_stack.count() == 0


def test_out_of_range_values_are_clamped_by_the_engine(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    assert window.roster_filter is not None
    assert window.roster_filter.setData(cell(window, "trolls", "stat:Ld"), 99)
    assert unit_of(stored(url, army.id), "trolls").profile.stats["Ld"] == 10
    assert not window.roster_filter.setData(cell(window, "trolls", "stat:Ld"), "lots")
    assert not window.roster_filter.setData(cell(window, "trolls", "profile"), "Orc")
    assert window.undo_stack.count() == 1


def test_models_edit_reprices_and_bounds_the_formation(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    # Prices come from the library the window read from the store.
    spearmen = library_entry_for(unit_of(window.current_army, "spearmen"),
                                 window.workspace.library("warhammer6"))
    assert spearmen == entry("warhammer6", "Hill Goblin Spearmen")
    assert unit_of(window.current_army, "spearmen").points == price(spearmen, 25, ())

    models = open_editor(window, cell(window, "spearmen", "models"))
    assert isinstance(models, QSpinBox)
    type_number(qtbot, models, 32)
    commit(qtbot, window, models)
    unit = unit_of(window.current_army, "spearmen")
    assert (unit.models, unit.points) == (32, price(spearmen, 32, ()))
    assert cell(window, "spearmen", "points").data() == price(spearmen, 32, ())
    assert unit_of(stored(url, army.id), "spearmen").points == price(spearmen, 32, ())

    formation = open_editor(window, cell(window, "spearmen", "formation"))
    assert isinstance(formation, QSpinBox)
    assert (formation.minimum(), formation.maximum()) == (1, 32)
    assert formation.value() == 5
    type_number(qtbot, formation, 8)
    commit(qtbot, window, formation)
    assert unit_of(window.current_army, "spearmen").files == 8
    assert cell(window, "spearmen", "formation").data() == "8 × 4"
    assert unit_of(stored(url, army.id), "spearmen").files == 8

    # Fewer models than files: the formation shrinks with the unit.
    models = open_editor(window, cell(window, "spearmen", "models"))
    type_number(qtbot, models, 6)
    commit(qtbot, window, models)
    unit = unit_of(stored(url, army.id), "spearmen")
    assert (unit.models, unit.files, unit.points) == (6, 6, price(spearmen, 6, ()))
    formation = open_editor(window, cell(window, "spearmen", "formation"))
    assert formation.maximum() == 6
    qtbot.keyClick(formation, Qt.Key.Key_Escape)


def test_troop_type_combo(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    index = cell(window, "trolls", "troop_type")
    # An icon in the cell; the words in its tool tip and for screen readers.
    assert index.data() is None
    assert index.data(Qt.ItemDataRole.AccessibleTextRole) == "monster"
    assert index.data(Qt.ItemDataRole.ToolTipRole).startswith("Monster\n")

    combo = open_editor(window, index)
    assert isinstance(combo, QComboBox)
    assert [combo.itemData(i) for i in range(combo.count())] == [t.value for t in TroopType]
    assert combo.itemText(combo.findData("war_machine")) == "war machine"
    assert combo.currentData() == "monster"
    combo.setCurrentIndex(combo.findData("war_machine"))
    commit(qtbot, window, combo)

    assert unit_of(window.current_army, "trolls").profile.troop_type == TroopType.WAR_MACHINE
    assert cell(window, "trolls", "troop_type").data(Qt.ItemDataRole.AccessibleTextRole) \
        == "war machine"
    assert unit_of(stored(url, army.id), "trolls").profile.troop_type == TroopType.WAR_MACHINE


def test_upgrade_check_boxes_reprice(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    spearmen = entry("warhammer6", "Hill Goblin Spearmen")

    editor = open_editor(window, cell(window, "spearmen", "upgrades"))
    assert isinstance(editor, UpgradeEditor)
    assert list(editor.boxes) == [spec.name for spec in get_ruleset("warhammer6").upgrades]
    assert editor.chosen() == []
    # Keyboard: Space ticks a box, Return (pressed in the box) commits the editor.
    qtbot.keyClick(editor.boxes["standard"], Qt.Key.Key_Space)
    qtbot.keyClick(editor.boxes["musician"], Qt.Key.Key_Space)
    assert editor.chosen() == ["musician", "standard"]
    commit(qtbot, window, editor.boxes["musician"])

    expected = price(spearmen, 25, {"standard", "musician"})
    assert expected == 75 + 10 + 5
    unit = unit_of(window.current_army, "spearmen")
    assert (unit.upgrades, unit.points) == (frozenset({"standard", "musician"}), expected)
    assert cell(window, "spearmen", "upgrades").data() == "Standard bearer, Musician"
    assert unit_of(stored(url, army.id), "spearmen").points == expected

    # Untick everything: back to the plain price.
    editor = open_editor(window, cell(window, "spearmen", "upgrades"))
    assert editor.chosen() == ["musician", "standard"]
    editor.boxes["standard"].click()
    editor.boxes["musician"].click()
    commit(qtbot, window, editor)
    unit = unit_of(stored(url, army.id), "spearmen")
    assert (unit.upgrades, unit.points) == (frozenset(), price(spearmen, 25, ()))


def test_text_cells(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    editor = open_editor(window, cell(window, "trolls", "name"))
    assert isinstance(editor, QLineEdit)
    editor.selectAll()
    qtbot.keyClicks(editor, "  Bog   Trolls ")
    commit(qtbot, window, editor)
    assert unit_of(stored(url, army.id), "trolls").name == "Bog Trolls"
    assert window.tree_model.data(window.tree_model.unit_index(army.id, "trolls")) == \
        "Bog Trolls"
    # The profile column is read-only.
    assert not cell(window, "trolls", "profile").flags() & Qt.ItemFlag.ItemIsEditable


# 2. Undo and redo


def test_undo_and_redo_restore_the_stat_and_the_store(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    assert not window.undo_action.isEnabled()
    spin = open_editor(window, cell(window, "spearmen", "stat:WS"))
    type_number(qtbot, spin, 7)
    commit(qtbot, window, spin)

    def ws_everywhere() -> tuple[int, int, int]:
        return (unit_of(window.current_army, "spearmen").profile.stats["WS"],
                cell(window, "spearmen", "stat:WS").data(),
                unit_of(stored(url, army.id), "spearmen").profile.stats["WS"])

    assert ws_everywhere() == (7, 7, 7)
    assert window.undo_action.isEnabled()
    assert "Change WS of Hill Goblin Spearmen" in window.undo_action.text()

    window.undo_action.trigger()
    assert ws_everywhere() == (2, 2, 2)
    assert content(stored(url, army.id)) == content(army)
    window.redo_action.trigger()
    assert ws_everywhere() == (7, 7, 7)

    # The same from the keyboard: Ctrl+Z and Ctrl+Shift+Z (Ctrl+Y too).
    window.activateWindow()
    qtbot.waitActive(window)
    ctrl = Qt.KeyboardModifier.ControlModifier
    qtbot.keyClick(window, Qt.Key.Key_Z, ctrl)
    assert ws_everywhere() == (2, 2, 2)
    qtbot.keyClick(window, Qt.Key.Key_Z, ctrl | Qt.KeyboardModifier.ShiftModifier)
    assert ws_everywhere() == (7, 7, 7)
    qtbot.keyClick(window, Qt.Key.Key_Z, ctrl)
    qtbot.keyClick(window.ui.armyTree, Qt.Key.Key_Y, ctrl)  # from a focused child too
    assert ws_everywhere() == (7, 7, 7)


def test_undo_of_a_whole_session_empties_the_store(qtbot, url, modals):
    window = open_window(qtbot, url)
    modals.answer(NewArmyDialog, fill_new_army(qtbot, "Undo Me", "breaks_pursues"))
    window.new_army()
    army_id = window.current_army.id
    assert window.workspace is not None
    window.add_units(list(window.workspace.library("breaks_pursues")[:3]))
    window.add_sample_armies()
    assert len(stored_names(url)) == 7
    done = [unit_ids(window.workspace.army(army_id))]

    while window.undo_stack.canUndo():
        window.undo_action.trigger()
    assert stored_names(url) == []
    assert window.workspace.armies() == []
    assert all(tree_army_names(window, ruleset) == [] for ruleset in RULESETS)
    assert window.current_army is None
    assert window.ui.armyTitle.text() == "No army selected"

    while window.undo_stack.canRedo():
        window.redo_action.trigger()
    assert len(stored_names(url)) == 7
    # The new army keeps its id through undo and redo, so later steps still find it.
    assert [unit_ids(stored(url, army_id))] == done


# 3. Reordering units by drag and drop in the Armies dock


def drop(window: MainWindow, mime: QMimeData, row: int, parent: QModelIndex,
         action: Qt.DropAction = Qt.DropAction.MoveAction) -> bool:
    """What QAbstractItemView::dropEvent does once it knows where the drop landed."""
    model = window.tree_model
    assert model is not None
    if not model.canDropMimeData(mime, action, row, 0, parent):
        return False
    return model.dropMimeData(mime, action, row, 0, parent)


def test_drop_reorders_units_and_undo_puts_them_back(qtbot, url):
    army, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    model = window.tree_model
    assert tree_unit_ids(window, army.id) == GOBLIN_UNITS
    assert model.mimeTypes() == [UNIT_MIME]
    assert model.supportedDropActions() == Qt.DropAction.MoveAction | Qt.DropAction.CopyAction
    trolls = model.unit_index(army.id, "trolls")
    assert trolls.flags() & Qt.ItemFlag.ItemIsDragEnabled

    # Between rows 0 and 1 of the army, as the view reports a drop above row 1. The model
    # answers False on purpose: the view must not remove rows, the workspace moves them.
    mime = model.mimeData([trolls, trolls.siblingAtColumn(1)])
    assert json.loads(bytes(mime.data(UNIT_MIME).data())) == {"army": army.id,
                                                              "units": ["trolls"]}
    assert not drop(window, mime, 1, model.army_index(army.id))
    moved = ["big-boss", "trolls", "spearmen", "hollow-spears", "axe-warriors",
             "boar-riders", "ridge-bolt-thrower", "crag-bolt-thrower"]
    assert unit_ids(window.current_army) == moved
    assert tree_unit_ids(window, army.id) == moved
    assert roster_unit_ids(window) == moved
    assert unit_ids(stored(url, army.id)) == moved
    assert window.undo_stack.undoText() == f"Reorder units in {GOBLINS}"

    window.undo_action.trigger()
    assert unit_ids(stored(url, army.id)) == GOBLIN_UNITS
    assert tree_unit_ids(window, army.id) == GOBLIN_UNITS
    assert roster_unit_ids(window) == GOBLIN_UNITS
    window.redo_action.trigger()
    assert unit_ids(stored(url, army.id)) == moved

    # Onto a unit: in front of it. Onto the army (row -1): to the end.
    boss = model.unit_index(army.id, "big-boss")
    drop(window, model.mimeData([boss]), -1, model.unit_index(army.id, "crag-bolt-thrower"))
    assert unit_ids(stored(url, army.id))[-2:] == ["big-boss", "crag-bolt-thrower"]
    drop(window, model.mimeData([model.unit_index(army.id, "trolls")]), -1,
         model.army_index(army.id))
    assert unit_ids(stored(url, army.id))[-1] == "trolls"
    assert unit_ids(window.current_army) == tree_unit_ids(window, army.id)

    # Dropping a unit where it already is: no undo step.
    count = window.undo_stack.count()
    spearmen = model.unit_index(army.id, "spearmen")
    drop(window, model.mimeData([spearmen]), spearmen.row(), model.army_index(army.id))
    assert window.undo_stack.count() == count


def test_drops_outside_any_army_are_refused(qtbot, url):
    """Onto a ruleset row or the empty tree units have no army to join; drops onto another
    army are moves or copies (tests/test_gui_roster_edits.py)."""
    goblins, elves = seed(url, sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    model = window.tree_model
    mime = model.mimeData([model.unit_index(goblins.id, "trolls")])
    ruleset_row = model.index(list(RULESETS).index("warhammer6"), 0)
    refused = {
        "a ruleset row": (0, ruleset_row),
        "the top level": (0, QModelIndex()),
    }
    for action in (Qt.DropAction.MoveAction, Qt.DropAction.CopyAction):
        for where, (row, parent) in refused.items():
            assert not model.canDropMimeData(mime, action, row, 0, parent), where
            assert not model.dropMimeData(mime, action, row, 0, parent), where
    assert not ruleset_row.flags() & Qt.ItemFlag.ItemIsDropEnabled

    foreign = QMimeData()
    foreign.setText("trolls")
    broken = QMimeData()
    broken.setData(UNIT_MIME, b"{not json")
    gone = model.mimeData([model.unit_index(goblins.id, "trolls")])
    gone.setData(UNIT_MIME, json.dumps({"army": "no-such-army", "units": ["trolls"]}).encode())
    for data in (foreign, broken, gone):
        assert not model.canDropMimeData(data, Qt.DropAction.MoveAction, 0, 0,
                                         model.army_index(goblins.id))
    # Only moves and copies: a link means nothing here.
    assert not model.dropMimeData(mime, Qt.DropAction.LinkAction, 0, 0,
                                  model.army_index(elves.id))

    assert window.undo_stack.count() == 0
    assert unit_ids(stored(url, goblins.id)) == GOBLIN_UNITS
    assert unit_ids(stored(url, elves.id)) == unit_ids(elves)


def test_drop_through_the_tree_view(qtbot, url):
    """The view's own dropEvent picks the row and parent from the mouse position.

    A real QDrag cannot run offscreen, and an InternalMove view only takes drops whose
    source is itself (known only while a QDrag runs); the view is DragDrop (copies need it),
    so everything after the synthesized drag events is the view's code.
    """
    army, elves = seed(url, sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    tree = window.ui.armyTree
    tree.expandAll()
    model = window.tree_model
    assert tree.dragDropMode() == QAbstractItemView.DragDropMode.DragDrop
    mime = model.mimeData([model.unit_index(army.id, "trolls")])
    target = tree.visualRect(model.unit_index(army.id, "spearmen")).center()

    def send(event: QEvent) -> bool:
        QApplication.sendEvent(tree.viewport(), event)
        return event.isAccepted()

    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    move = Qt.DropAction.MoveAction
    assert send(QDragEnterEvent(target, move, mime, buttons, keys))
    assert send(QDragMoveEvent(target, move, mime, buttons, keys))
    send(QDropEvent(target.toPointF(), move, mime, buttons, keys))
    expected = ["big-boss", "trolls", "spearmen", "hollow-spears", "axe-warriors",
                "boar-riders", "ridge-bolt-thrower", "crag-bolt-thrower"]
    assert unit_ids(stored(url, army.id)) == expected
    assert tree_unit_ids(window, army.id) == expected

    # Over another army's unit the drag moves the unit there, in front of that unit.
    elsewhere = tree.visualRect(model.unit_index(elves.id, "wardens")).center()
    assert tree.indexAt(elsewhere) == model.unit_index(elves.id, "wardens")
    assert send(QDragEnterEvent(elsewhere, move, mime, buttons, keys))  # a new drag
    send(QDropEvent(elsewhere.toPointF(), move, mime, buttons, keys))
    assert "trolls" not in unit_ids(stored(url, army.id))
    wardens = unit_ids(elves).index("wardens")
    assert unit_ids(stored(url, elves.id))[wardens:wardens + 2] == ["trolls", "wardens"]
    assert window.undo_stack.count() == 2


# 4. Everything is still there in the next session


def test_a_new_window_finds_everything(qtbot, url, modals):
    first = open_window(qtbot, url)
    modals.answer(NewArmyDialog, fill_new_army(qtbot, "Kept Army", "warhammer6", 600))
    first.new_army()
    army_id = first.current_army.id
    modals.answer(LibraryDialog, choose_from_library(
        ["Orc Big Boss", "Orc Axe Warriors", "River Troll"]))
    first.add_units_from_library()
    spin = open_editor(first, cell(first, "orc-axe-warriors", "stat:Ld"))
    type_number(qtbot, spin, 9)
    commit(qtbot, first, spin)
    model = first.tree_model
    drop(first, model.mimeData([model.unit_index(army_id, "river-troll")]), 0,
         model.army_index(army_id))
    first.add_sample_armies()
    before = {army.id: army for army in first.workspace.armies()}
    first.close()
    assert first.store is None  # closing lets go of the database

    second = open_window(qtbot, url)
    assert {army.id: army for army in second.workspace.armies()} == before
    kept = second.find_army("Kept Army")
    assert kept is not None and kept.points_limit == 600
    assert unit_ids(kept) == ["river-troll", "orc-big-boss", "orc-axe-warriors"]
    assert unit_of(kept, "orc-axe-warriors").profile.stats["Ld"] == 9
    assert tree_army_names(second, "warhammer6") == ["Elf Marchwardens", GOBLINS,
                                                     "Kept Army"]
    second.select_army(kept.id)
    assert roster_unit_ids(second) == ["river-troll", "orc-big-boss", "orc-axe-warriors"]
    assert cell(second, "orc-axe-warriors", "stat:Ld").data() == 9
    assert second.undo_stack.count() == 0  # history belongs to a session


def test_opening_another_database_shows_its_armies(qtbot, tmp_path, url):
    seed(url, sample(GOBLINS))
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    elves, = seed(other, sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    window.roster_filter.setData(cell(window, "trolls", "stat:Ld"), 5)
    assert window.undo_stack.count() == 1
    with qtbot.waitSignal(window.ready, timeout=20_000):
        window.open_database(other)
    assert tree_army_names(window, "warhammer6") == ["Elf Marchwardens"]
    assert window.current_army == elves
    assert window.undo_stack.count() == 0  # no undoing into the other file
    window.roster_filter.setData(cell(window, "wardens", "stat:Ld"), 10)
    assert unit_of(stored(other, elves.id), "wardens").profile.stats["Ld"] == 10
    assert stored_names(url) == [GOBLINS]


# 5. The models stay valid through a whole session (QAbstractItemModelTester watches them)


def test_models_stay_valid_through_a_session(qtbot, url, modals):
    window = open_window(qtbot, url)
    for model in (window.tree_model, window.roster_model, window.roster_filter):
        assert model.findChildren(QAbstractItemModelTester)
    assert window.workspace is not None

    modals.answer(NewArmyDialog, fill_new_army(qtbot, "Middle Army", "warhammer6", 100))
    window.new_army()
    middle = window.current_army.id
    window.add_units(list(window.workspace.library("warhammer6")[:5]))
    select_rows(window, ["orc-axe-warriors", "hill-goblin-spearmen"])
    window.delete_units()
    assert unit_ids(window.current_army) == ["orc-big-boss", "orc-boar-riders", "river-troll"]
    window.add_sample_armies()
    assert tree_army_names(window, "warhammer6") == ["Elf Marchwardens", GOBLINS,
                                                     "Middle Army"]

    # Rename so the army moves past its neighbours, up and then down again.
    window.select_army(middle)
    modals.answer(NewArmyDialog, lambda d: (d.ui.nameEdit.setText("Aaa First"), d.accept()))
    window.edit_army_settings()
    assert tree_army_names(window, "warhammer6") == ["Aaa First", "Elf Marchwardens",
                                                     GOBLINS]
    modals.answer(NewArmyDialog, lambda d: (d.ui.nameEdit.setText("Zzz Last"), d.accept()))
    window.edit_army_settings()
    assert tree_army_names(window, "warhammer6") == ["Elf Marchwardens", GOBLINS,
                                                     "Zzz Last"]
    model = window.tree_model
    drop(window, model.mimeData([model.unit_index(middle, "river-troll")]), 0,
         model.army_index(middle))

    # Switch armies through the tree, filter, edit under the filter.
    goblins = window.find_army(GOBLINS)
    window.ui.armyTree.setCurrentIndex(model.army_index(goblins.id))
    assert window.current_army.id == goblins.id
    qtbot.keyClicks(window.ui.searchEdit, "spear")
    assert roster_unit_ids(window) == ["spearmen", "hollow-spears"]
    window.roster_filter.setData(cell(window, "hollow-spears", "models"), 20)
    window.ui.armyTree.setCurrentIndex(model.unit_index(middle, "orc-big-boss"))
    assert window.current_army.id == middle
    assert roster_unit_ids(window) == []  # the search still applies
    window.ui.searchEdit.clear()
    assert roster_unit_ids(window) == ["river-troll", "orc-big-boss", "orc-boar-riders"]

    modals.message(Yes, [])
    window.delete_army()
    assert window.workspace.army(middle) is None
    final = {army.id: army for army in window.workspace.armies()}

    while window.undo_stack.canUndo():
        window.undo_stack.undo()
    assert window.workspace.armies() == []
    while window.undo_stack.canRedo():
        window.undo_stack.redo()
    assert {army.id: army for army in window.workspace.armies()} == final
    with Store.open(url) as store:
        assert {s.id: store.load_army(s.id) for s in store.list_armies()} == final
    for army in final.values():
        window.select_army(army.id)
        assert roster_unit_ids(window) == unit_ids(army)
        assert tree_unit_ids(window, army.id) == unit_ids(army)
    assert modals.pending == 0


# 6. The search box


SEARCHES = [
    ("spear", ["spearmen", "hollow-spears"]),  # names
    ("orc big boss", ["big-boss"]),  # the profile: the unit is called Grukk
    ("GOBLIN", ["spearmen", "hollow-spears", "ridge-bolt-thrower", "crag-bolt-thrower"]),
    ("war machine", ["ridge-bolt-thrower", "crag-bolt-thrower"]),  # troop type as shown
    ("cavalry", ["boar-riders"]),
    ("rare", ["trolls"]),  # slot
    ("special", ["boar-riders", "ridge-bolt-thrower", "crag-bolt-thrower"]),
    ("[x", []),  # typed text, not a pattern
    ("no such unit", []),
    ("", GOBLIN_UNITS),
]


def test_search_filters_rows(qtbot, url):
    seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    search = window.ui.searchEdit
    for text, expected in SEARCHES:
        search.clear()
        qtbot.keyClicks(search, text)
        assert roster_unit_ids(window) == expected, text
        assert window.ui.rosterTable.model().rowCount() == len(expected)


def test_search_and_selection_work_together(qtbot, url):
    army, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    window.ui.actionFind.trigger()
    assert window.ui.searchEdit.hasFocus() or window.focusWidget() is window.ui.searchEdit
    qtbot.keyClicks(window.ui.searchEdit, "bolt")
    assert roster_unit_ids(window) == ["ridge-bolt-thrower", "crag-bolt-thrower"]
    # The second row on screen is the last unit of the army: deleting it deletes that one.
    window.ui.rosterTable.selectRow(1)
    assert [unit.id for unit in window.selected_units()] == ["crag-bolt-thrower"]
    window.ui.actionDeleteUnit.trigger()
    assert unit_ids(stored(url, army.id)) == GOBLIN_UNITS[:-1]
    assert roster_unit_ids(window) == ["ridge-bolt-thrower"]
    # An edit that takes a unit out of the search hides its row.
    window.roster_filter.setData(cell(window, "ridge-bolt-thrower", "name"), "Rock Lobber")
    window.roster_filter.setData(cell(window, "ridge-bolt-thrower", "profile"), "x")
    assert roster_unit_ids(window) == ["ridge-bolt-thrower"]  # the profile still says Bolt
    # Units added while the search hides them are added all the same.
    window.add_units([entry("warhammer6", "Elf Archers")])
    assert unit_ids(stored(url, army.id))[-1] == "elf-archers"
    assert roster_unit_ids(window) == ["ridge-bolt-thrower"]
    window.ui.searchEdit.clear()
    assert roster_unit_ids(window) == unit_ids(window.current_army)


# 7. Unit and army actions, samples, the welcome, import and export


def test_duplicate_and_delete_units(qtbot, url):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    # An army opens with its first unit selected, so the Unit dock shows a profile.
    assert [unit.id for unit in window.selected_units()] == ["spearmen"]
    window.ui.rosterTable.clearSelection()
    assert not window.ui.actionDuplicateUnit.isEnabled()
    select_rows(window, ["spearmen", "trolls"])
    assert window.ui.actionDuplicateUnit.isEnabled()
    window.ui.actionDuplicateUnit.trigger()
    assert unit_ids(window.current_army) == ["spearmen", "trolls", "spearmen-2", "trolls-2"]
    copy = unit_of(window.current_army, "spearmen-2")
    assert copy.name == "Hill Goblin Spearmen (copy)"
    assert copy.points == army.units[0].points
    assert [unit.id for unit in window.selected_units()] == ["spearmen-2", "trolls-2"]
    assert stored(url, army.id) == window.current_army

    select_rows(window, ["spearmen", "trolls-2"])
    window.ui.actionDeleteUnit.trigger()
    assert unit_ids(window.current_army) == ["trolls", "spearmen-2"]
    assert unit_ids(stored(url, army.id)) == ["trolls", "spearmen-2"]
    assert tree_unit_ids(window, army.id) == ["trolls", "spearmen-2"]
    assert not window.ui.actionDeleteUnit.isEnabled()  # nothing selected any more

    window.undo_action.trigger()
    window.undo_action.trigger()
    assert content(stored(url, army.id)) == content(army)


def test_delete_army_asks_first(qtbot, url, modals):
    goblins, elves = seed(url, sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    window.select_army(goblins.id)
    seen: list[str] = []
    modals.message(No, seen)
    window.ui.actionDeleteArmy.trigger()
    assert seen == [f"Delete army: Delete {GOBLINS} and its 8 units? "
                    "Edit ▸ Undo brings it back."]
    assert stored_names(url) == ["Elf Marchwardens", GOBLINS]
    assert window.undo_stack.count() == 0

    modals.message(Yes, seen)
    window.ui.actionDeleteArmy.trigger()
    assert modals.pending == 0
    assert stored_names(url) == ["Elf Marchwardens"]
    assert window.workspace.army(goblins.id) is None
    assert tree_army_names(window, "warhammer6") == ["Elf Marchwardens"]
    assert window.current_army is None or window.current_army.id == elves.id
    assert goblins.id not in window.ui.armyTitle.text()

    window.undo_action.trigger()
    assert stored(url, goblins.id) == goblins
    assert tree_army_names(window, "warhammer6") == ["Elf Marchwardens", GOBLINS]
    assert window.current_army == goblins
    assert tree_unit_ids(window, goblins.id) == GOBLIN_UNITS


def test_delete_army_while_one_of_its_units_is_current_in_the_tree(qtbot, url, modals):
    """Undoing this used to crash the process: the tree's selection kept an index of a
    removed unit that Qt could not invalidate (ArmyTreeModel.parent asked the workspace)."""
    goblins, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    tree = window.ui.armyTree
    tree.setCurrentIndex(window.tree_model.unit_index(goblins.id, "trolls"))
    assert [unit.id for unit in window.selected_units()] == ["trolls"]
    modals.message(Yes, [])
    window.delete_army()
    assert not tree.currentIndex().data(TREE_UNIT_ID_ROLE)
    window.undo_action.trigger()
    assert tree_unit_ids(window, goblins.id) == GOBLIN_UNITS
    window.redo_action.trigger()
    window.undo_action.trigger()
    tree.setCurrentIndex(window.tree_model.unit_index(goblins.id, "spearmen"))
    assert window.current_army == goblins
    assert [unit.id for unit in window.selected_units()] == ["spearmen"]


def test_army_settings_dialog(qtbot, url, modals):
    goblins, _ = seed(url, sample(GOBLINS), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    window.select_army(goblins.id)
    shown: list[tuple[str, str, str, bool, int]] = []

    def change(dialog: NewArmyDialog) -> None:
        ui = dialog.ui
        shown.append((dialog.windowTitle(), ui.nameEdit.text(), ui.playerEdit.text(),
                      ui.rulesetCombo.isEnabled(), ui.limitSpin.value()))
        ui.nameEdit.setText("Aardvark Raiders")
        ui.playerEdit.setText("Cleo")
        ui.limitSpin.setValue(2000)
        ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok).click()

    modals.answer(NewArmyDialog, change)
    window.ui.actionArmySettings.trigger()
    assert shown == [("Army Settings", GOBLINS, "Hill Tribes", False, 1000)]
    army = stored(url, goblins.id)
    assert (army.name, army.player, army.points_limit, army.ruleset) == (
        "Aardvark Raiders", "Cleo", 2000, "warhammer6")
    assert {unit.player for unit in army.units} == {"Cleo"}
    assert tree_army_names(window, "warhammer6") == ["Aardvark Raiders", "Elf Marchwardens"]
    assert window.windowTitle() == "Aardvark Raiders — Rout"

    # OK without a change is no undo step.
    modals.answer(NewArmyDialog, lambda dialog: dialog.accept())
    window.edit_army_settings()
    assert window.undo_stack.count() == 1
    window.undo_action.trigger()
    assert content(stored(url, goblins.id)) == content(goblins)


def test_sample_armies_are_one_undo_step(qtbot, url):
    window = open_window(qtbot, url)
    window.ui.actionOpenSamples.trigger()
    assert stored_names(url) == sorted(army.name for army in sample_armies())
    assert window.undo_stack.count() == 1
    assert window.undo_stack.undoText() == "Add sample armies"
    for ruleset in RULESETS:
        assert len(tree_army_names(window, ruleset)) == 2
    assert window.statusBar().currentMessage() == "Added 6 sample armies"
    window.undo_action.trigger()
    assert stored_names(url) == []
    window.redo_action.trigger()
    assert len(stored_names(url)) == 6


@pytest.mark.parametrize(("button", "choice", "result"), [
    ("newArmyButton", WelcomeDialog.NEW_ARMY, WelcomeDialog.DialogCode.Accepted),
    ("bookArmyButton", WelcomeDialog.NEW_BOOK_ARMY, WelcomeDialog.DialogCode.Accepted),
    ("samplesButton", WelcomeDialog.SAMPLES, WelcomeDialog.DialogCode.Accepted),
    ("closeButton", "", WelcomeDialog.DialogCode.Rejected),
])
def test_welcome_dialog_choices(qtbot, modals, button, choice, result):
    dialog = WelcomeDialog()
    qtbot.addWidget(dialog)
    assert dialog.ui.samplesButton.isDefault()
    modals.answer(WelcomeDialog, lambda shown: getattr(shown.ui, button).click())
    assert dialog.exec() == result
    assert dialog.choice == choice


def test_welcome_leads_to_samples_or_a_new_army(qtbot, url, modals):
    window = open_window(qtbot, url)
    modals.answer(WelcomeDialog, lambda dialog: dialog.ui.samplesButton.click())
    window.show_welcome()
    assert len(stored_names(url)) == 6

    modals.answer(WelcomeDialog, lambda dialog: dialog.ui.newArmyButton.click())
    modals.answer(NewArmyDialog, fill_new_army(qtbot, "Welcomed", "kensei1"))
    window.show_welcome()
    assert modals.pending == 0
    assert window.current_army.name == "Welcomed"
    assert "Welcomed" in stored_names(url)

    modals.answer(WelcomeDialog, lambda dialog: dialog.ui.closeButton.click())
    window.show_welcome()
    assert len(stored_names(url)) == 7


def import_and_wait(qtbot, window: MainWindow, path: Path) -> None:
    finished: list[bool] = []
    window.import_army(path, on_finished=lambda: finished.append(True))
    qtbot.waitUntil(lambda: bool(finished), timeout=10_000)


def test_import_battlescribe_roster(qtbot, url):
    window = open_window(qtbot, url)
    expected = read_army_file(BATTLESCRIBE_ROSTER).army
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)

    army = window.current_army
    assert army is not None and army.id
    assert army.name == expected.name == "Bretonnian Expedition (A Dark Conspiracy, prologue)"
    assert [unit.name for unit in army.units] == [unit.name for unit in expected.units]
    assert army.points == expected.points
    assert stored(url, army.id) == army
    assert tree_army_names(window, "warhammer6") == [army.name]
    assert roster_unit_ids(window) == unit_ids(army)
    assert window.undo_stack.undoText() == f"Import {army.name}"
    assert window.statusBar().currentMessage().startswith(f"Imported {army.name} from ")
    assert "Imported" not in window.ui.logView.toPlainText()  # not the battle's news
    window.undo_action.trigger()
    assert stored_names(url) == []


def test_a_roster_imported_without_its_game_data_says_how_to_edit_its_options(qtbot, url):
    """A real-window try of issue 23: a .rosz imported into a database without its game
    data said only that its catalogue was not one of Rout's army lists."""
    window = open_window(qtbot, url)
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)
    assert window.current_army is not None and window.current_army.book is None
    said = window.statusBar().currentMessage()
    assert "the game data of Bretonnia is not stored: add it (File ▸ Game Data…)" in said


def test_an_army_imported_twice_is_told_apart(qtbot, url):
    """A real-window try of issue 23: an army exported and imported back into the same
    database showed twice under one name in the Armies dock and in New Battle."""
    window = open_window(qtbot, url)
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)
    first = window.current_army
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)
    second = window.current_army
    assert first is not None and second is not None and second.id != first.id
    assert second.name == f"{first.name} (2)"
    assert sorted(stored_names(url)) == sorted([first.name, second.name])


BROKEN_FILES = [
    ("broken.rosz", b"this is not a zip file", "not a valid zip"),
    ("broken.json", b"{\"format\": \"rout-army\"", "broken.json"),
    ("roster.pdf", b"%PDF-1.4", "not a '.pdf' file"),
]


def test_import_errors_are_shown_and_add_nothing(qtbot, url, tmp_path, modals):
    seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    for name, content, says in BROKEN_FILES:
        path = tmp_path / name
        path.write_bytes(content)
        seen: list[str] = []
        modals.message(Ok, seen)
        import_and_wait(qtbot, window, path)
        assert modals.pending == 0
        assert len(seen) == 1, name
        assert seen[0].startswith("Cannot import: "), seen[0]
        assert says in seen[0], seen[0]
    assert stored_names(url) == [GOBLINS]
    assert [army.name for army in window.workspace.armies()] == [GOBLINS]
    assert window.undo_stack.count() == 0


def test_export(qtbot, url, tmp_path):
    army, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    formats = {
        ".json": "\"format\": \"rout-army\"",
        ".txt": "Warhammer Fantasy Battle 6th edition · 951 / 1000 points",
        ".md": f"# {GOBLINS}",
    }
    for suffix, looks_like in formats.items():
        path = tmp_path / f"goblins{suffix}"
        assert window.export_army(path)
        text = path.read_text(encoding="utf-8")
        assert looks_like in text, suffix
        for unit in army.units:
            assert unit.name in text
        assert window.statusBar().currentMessage().startswith(f"Exported {GOBLINS} to {path}")
    back = read_army_file(tmp_path / "goblins.json").army
    assert back.units == army.units
    assert (back.name, back.points_limit) == (army.name, army.points_limit)


def test_export_errors_are_shown(qtbot, url, tmp_path, modals):
    seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    seen: list[str] = []
    modals.message(Ok, seen)
    assert not window.export_army(tmp_path / "goblins.pdf")
    modals.message(Ok, seen)
    assert not window.export_army(tmp_path / "no-such-folder" / "goblins.json")
    assert [text.split(":")[0] for text in seen] == ["Cannot export", "Cannot export"]
    assert "use .json, .txt, .md" in seen[0]
    assert "cannot write there" in seen[1]
    assert not list(tmp_path.rglob("goblins.*"))


def test_no_army_no_army_actions(qtbot, url):
    window = open_window(qtbot, url)
    assert window.current_army is None
    for action in (window.ui.actionExport, window.ui.actionDeleteArmy,
                   window.ui.actionArmySettings, window.ui.actionAddUnits,
                   window.ui.actionDuplicateUnit, window.ui.actionDeleteUnit):
        assert not action.isEnabled(), action.objectName()
    assert window.ui.actionNewArmy.isEnabled()
    assert not window.export_army(Path("never.json"))
    window.delete_army()
    window.duplicate_units()
    window.add_units([entry("warhammer6", "Elf Archers")])
    assert window.undo_stack.count() == 0


# 8. Engine warnings are shown beside the roster, never in the way


def test_over_the_points_limit_is_shown_not_refused(qtbot, url):
    army, = seed(url, small_army(points_limit=200))
    assert army.points == 75 + 135
    window = open_window(qtbot, url)
    model = window.tree_model
    points = model.army_index(army.id).siblingAtColumn(1)
    assert points.data() == "210 / 200"
    assert points.data(Qt.ItemDataRole.ForegroundRole) == Qt.GlobalColor.darkRed
    assert "#a02020" in window.ui.pointsLabel.text()
    problems = [window.ui.problemList.item(i).text()
                for i in range(window.ui.problemList.count())]
    # The army-wide warnings, the points first; a two-unit army breaks the W6 chart too
    # (tests/test_gui_composition.py has those).
    assert problems == ["⚠ 210 points is 10 over the limit of 200",
                        "⚠ Core units: 1, should be at least 2 in a 200-point army",
                        "⚠ Generals: 0, should be exactly 1"]
    assert not window.ui.problemList.isHidden()

    # Edits go through while over the limit; growing the unit grows the warning.
    models = open_editor(window, cell(window, "spearmen", "models"))
    type_number(qtbot, models, 30)
    commit(qtbot, window, models)
    assert stored(url, army.id).points == 90 + 135
    assert window.ui.problemList.item(0).text() == "⚠ 225 points is 25 over the limit of 200"
    assert points.data() == "225 / 200"

    # Back under the limit: the warning goes.
    models = open_editor(window, cell(window, "spearmen", "models"))
    type_number(qtbot, models, 20)
    commit(qtbot, window, models)
    assert [window.ui.problemList.item(i).text()
            for i in range(window.ui.problemList.count())] == problems[1:]
    assert points.data(Qt.ItemDataRole.ForegroundRole) is None
    assert "#a02020" not in window.ui.pointsLabel.text()


def test_unit_warnings_tint_their_cells(qtbot, url):
    wild = small_army()
    odd = unit_of(wild, "trolls")
    stats = {**odd.profile.stats, "Ld": 12}  # as an import might bring it
    wild = replace(wild, units=(wild.units[0],
                                replace(odd, profile=replace(odd.profile, stats=stats))))
    army, = seed(url, wild)
    window = open_window(qtbot, url)
    ld = cell(window, "trolls", "stat:Ld")
    assert ld.data(Qt.ItemDataRole.BackgroundRole) == QBrush(WARNING_TINT)
    assert ld.data(Qt.ItemDataRole.ToolTipRole) == "River Troll: Leadership 12 is outside 1 to 10"
    assert cell(window, "trolls", "stat:WS").data(Qt.ItemDataRole.BackgroundRole) is None

    # Two units of one name: a note on both names.
    window.add_units([entry("warhammer6", "River Troll")])
    for unit_id in ("trolls", "river-troll"):
        name = cell(window, unit_id, "name")
        assert name.data(Qt.ItemDataRole.BackgroundRole) == QBrush(NOTE_TINT)
        assert "two units are called River Troll" in name.data(Qt.ItemDataRole.ToolTipRole)

    # Selecting a unit lists its own problems (and the army's) under the inspector.
    select_rows(window, ["trolls"])
    problems = [window.ui.problemList.item(i).text()
                for i in range(window.ui.problemList.count())]
    assert problems == ["⚠ Generals: 0, should be exactly 1",
                        "no points limit: the limits that go by the army's size (army "
                        "selection chart) are not checked",
                        "⚠ River Troll: Leadership 12 is outside 1 to 10",
                        "two units are called River Troll: the battle log will not tell "
                        "them apart"]

    # The editor cannot go past the ruleset's range; saving puts the stat back in it.
    spin = open_editor(window, ld)
    assert spin.maximum() == 10
    assert spin.value() == 10
    commit(qtbot, window, spin)
    assert unit_of(stored(url, army.id), "trolls").profile.stats["Ld"] == 10
    assert cell(window, "trolls", "stat:Ld").data(Qt.ItemDataRole.BackgroundRole) is None


# When the database refuses a change


def break_the_database(tmp_path: Path) -> None:
    """Another program spoils the file under the open window (a real store failure)."""
    import sqlite3

    connection = sqlite3.connect(tmp_path / "rout.sqlite")
    connection.execute("DROP TABLE roster_entry")
    connection.commit()
    connection.close()


def test_a_refused_save_is_reported_and_leaves_no_undo_step(qtbot, url, tmp_path, modals):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    break_the_database(tmp_path)
    select_rows(window, ["trolls"])
    seen: list[str] = []
    modals.message(Ok, seen)
    window.duplicate_units()
    assert modals.pending == 0
    assert len(seen) == 1 and seen[0].startswith("Could not save: ")
    assert "no such table" in seen[0]
    assert window.current_army == army
    assert roster_unit_ids(window) == ["spearmen", "trolls"]
    assert window.undo_stack.count() == 0, "a change that was never saved is on the undo stack"


def test_a_refused_cell_edit_is_reported(qtbot, url, tmp_path, modals):
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    break_the_database(tmp_path)
    seen: list[str] = []
    modals.message(Ok, seen)
    with qtbot.capture_exceptions() as escaped:
        spin = open_editor(window, cell(window, "trolls", "stat:Ld"))
        type_number(qtbot, spin, 9)
        qtbot.keyClick(spin, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.ui.rosterTable.indexWidget(
            cell(window, "trolls", "stat:Ld")) is None)
    # What already holds: nothing changed, nothing to undo.
    assert window.current_army == army
    assert window.undo_stack.count() == 0
    # What does not yet: the player is told, and no exception escapes into the event loop.
    assert not escaped, f"escaped into the event loop: {escaped[0][1]}"
    assert len(seen) == 1 and seen[0].startswith("Could not save: ")


def test_the_latest_database_opened_wins_over_an_earlier_slower_read(qtbot, tmp_path):
    from PySide6.QtCore import QSettings

    first = f"sqlite:///{tmp_path / 'first.sqlite'}"
    second = f"sqlite:///{tmp_path / 'second.sqlite'}"
    seed(first, sample("Elf Marchwardens"))
    seed(second, small_army())
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings=settings)
    window.welcome_enabled = False
    qtbot.addWidget(window)
    window.open_database(first)
    window.open_database(second)  # before the first read answers
    window.runner.wait_for_idle()
    assert window.store is not None and window.store.url == second
    assert [a.name for a in window.workspace.armies()] == [small_army().name]
    assert settings.value("database/url") == second


def test_undo_shows_the_army_it_changed(qtbot, url):
    goblins, elves = seed(url, sample("Hill Goblin Warband"), sample("Elf Marchwardens"))
    window = open_window(qtbot, url)
    window.select_army(goblins.id)
    select_rows(window, [goblins.units[0].id])
    window.delete_units()
    window.select_army(elves.id)
    window.undo_action.trigger()
    assert window.current_army is not None and window.current_army.id == goblins.id
    assert unit_ids(window.current_army)[0] == goblins.units[0].id


def test_a_database_password_is_never_written_to_the_settings(tmp_path):
    from desktop.gui.database_open import _without_password

    url = "postgresql+psycopg://rout:s3cret@club.example/rout"
    assert "s3cret" not in _without_password(url)
    assert _without_password("sqlite:////tmp/x.sqlite") == "sqlite:////tmp/x.sqlite"


def test_a_unit_edited_out_of_the_filter_stays_until_the_filter_changes(qtbot, url):
    seed(url, small_army())
    window = open_window(qtbot, url)
    window.ui.searchEdit.setText("monster")
    assert window.roster_filter.rowCount() == 1
    window.roster_filter.setData(cell(window, "trolls", "troop_type"), "infantry")
    assert unit_of(window.current_army, "trolls").profile.troop_type == "infantry"
    assert window.roster_filter.rowCount() == 1  # still there under its editor
    window.ui.searchEdit.setText("monste")
    assert window.roster_filter.rowCount() == 0


def test_a_second_window_on_the_same_file_is_turned_away(qtbot, url):
    """Two windows saving whole armies would overwrite each other's edits."""
    seed(url, small_army())
    first = open_window(qtbot, url)
    second = MainWindow()
    qtbot.addWidget(second)
    with qtbot.waitSignal(second.failed) as refused:
        second.open_database(url)
    assert "open in another Rout window" in refused.args[0]
    assert second.store is None
    qtbot.waitUntil(lambda: second._closing)  # it closes itself (tests/test_gui_session.py)
    first.close()
    third = MainWindow()
    qtbot.addWidget(third)
    with qtbot.waitSignal(third.ready):
        third.open_database(url)  # the first window let go
    with qtbot.waitSignal(third.ready):
        third.open_database(url)  # the same window opening its own file again
    assert third.store is not None


def test_the_unit_dock_names_special_rules_as_a_rulebook_prints_them(qtbot, url):
    """Issue 23: the Unit dock listed a book unit's rules by their ids ("purebreed_warhorse",
    "knights_vow"); it names them as the roster sheet does."""
    spearmen = unit_of(small_army(), "spearmen")
    knights = replace(spearmen, profile=replace(spearmen.profile, special_rules=frozenset(
        {"purebreed_warhorse", "knights_vow", "immune_to_psychology"})))
    seed(url, replace(small_army(), units=(knights,)))
    window = open_window(qtbot, url)
    window.select_units(["spearmen"])
    details = window.ui.unitDetails.text()
    assert "Special rules: Immune to Psychology, Knights Vow, Purebreed Warhorse" in details
    assert "_" not in details


class _Relayouts(QObject):
    """Counts the layout requests the main window gets (each relays the whole window)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.window = window
        self.count = 0

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.window and event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def test_an_edit_repaints_what_changed_not_the_whole_window(qtbot, url):
    """Issue 23 (speed): each edit's new points text, Unit dock text and Undo tool tip went
    up to the main window's layout, which laid out and repainted the whole window. An edit
    now leaves the window's layout alone, and the Undo button names the step."""
    army, = seed(url, small_army())
    window = open_window(qtbot, url)
    window.select_units(["spearmen"])
    # The first step turns Undo on: the toolbar lays out again then, rightly, once.
    assert window.roster_filter.setData(cell(window, "spearmen", "models"), 20)
    relayouts = _Relayouts(window)
    QApplication.instance().installEventFilter(relayouts)
    try:
        # The window settles first (what opening the database started, the step above).
        for _ in range(50):
            relayouts.count = 0
            qtbot.wait(100)
            if not relayouts.count:
                break
        for models in (21, 22, 23):
            assert window.roster_filter.setData(cell(window, "spearmen", "models"), models)
            qtbot.wait(20)
    finally:
        QApplication.instance().removeEventFilter(relayouts)
    assert unit_of(stored(url, army.id), "spearmen").models == 23
    assert f"{window.current_army.points}" in window.ui.pointsLabel.text()
    assert "23 models" in window.ui.unitDetails.text()
    assert relayouts.count == 0
    button = window.ui.mainToolBar.widgetForAction(window.undo_button)
    assert button.toolTip() == f"Undo {window.undo_stack.undoText()}"
