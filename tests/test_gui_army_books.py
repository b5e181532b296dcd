# ruff: noqa: F811  (the fixture url comes from test_gui_roster)
"""Armies from the player's army books in the window (issue 23): File ▸ Game Data…, New
Army from an Army Book…, Add Units from its catalogue, the unit's option tree with prices
before ticking and greyed choices with the engine's reasons, and the catalogue's limits.

Every step goes through the widgets a player uses (buttons, file dialogs, check boxes in
the option tree, spin boxes) and is checked on screen, in a fresh `Store` reading the
file, and through undo. The game data is the made-up one of bsdata_samples.py (a game
system and a Knights catalogue), and the shared lexicanum data where a test needs size.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QStyle,
    QStyleOptionViewItem,
    QTabBar,
    QWidget,
)
from test_gui_roster import (  # noqa: F401
    cell,
    commit,
    open_editor,
    open_window,
    stored,
    type_number,
    url,
)
from test_gui_roster import (
    small_army as small_plain_army,
)

from desktop.gui.army_books import DOCK_WIDTH
from desktop.gui.book_dialogs import (
    ENTRY_ROLE,
    NO_DATA_LINE,
    BookArmyDialog,
    BookUnitsDialog,
    GameDataDialog,
    tree_items,
)
from desktop.gui.dialogs import NewArmyDialog, WelcomeDialog
from desktop.gui.fields import SpinBox
from desktop.store.gamedata import DataInput, add_data, list_data
from desktop.store.store import Store

from bsdata_samples import BSDATA, CAT, GST, need

LEXICANUM = BSDATA / "lexicanum"


class Answers:
    """Acts on the modal dialogs a test expects, in order, while exec() blocks the test.
    An act that returns False is not done yet (its dialog is still reading): it is asked
    again at the next turn. Dialogs nobody expects are left alone."""

    def __init__(self) -> None:
        self.expected: list[tuple[type[QWidget], Callable[[Any], object]]] = []
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def answer(self, kind: type[QWidget], act: Callable[[Any], object]) -> None:
        self.expected.append((kind, act))

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if not self.expected or dialog is None or not dialog.isVisible() \
                or not isinstance(dialog, self.expected[0][0]):
            return
        kind, act = self.expected.pop(0)  # before acting: the act may open a nested loop
        if act(dialog) is False:
            self.expected.insert(0, (kind, act))


@pytest.fixture
def answers(qapp):
    found = Answers()
    yield found
    found.timer.stop()
    assert not found.expected, f"dialogs that never came: {found.expected}"


def data_files(folder: Path) -> list[Path]:
    folder.mkdir(exist_ok=True)
    gst, cat = folder / "Test Battles.gst", folder / "Knights.cat"
    gst.write_text(GST, encoding="utf-8")
    cat.write_text(CAT, encoding="utf-8")
    return [gst, cat]


def store_sample_data(url: str) -> None:
    with Store.open(url) as store:
        add_data(store, [DataInput("Test Battles.gst", GST.encode()),
                         DataInput("Knights.cat", CAT.encode())])


def stored_data(url: str) -> list[tuple[str, str, int]]:
    with Store.open(url) as store:
        return [(d.kind, d.name, d.revision) for d in list_data(store)]


def pick_files(paths: list[Path]) -> Callable[[QFileDialog], None]:
    def pick(files: QFileDialog) -> None:
        files.setDirectory(str(paths[0].parent))
        files.selectFile(" ".join(f'"{p.name}"' for p in paths))
        files.accept()
    return pick


def open_game_data(qtbot, window) -> GameDataDialog:
    window.ui.actionGameData.trigger()
    dialog = window.army_books.dialog
    assert dialog is not None
    qtbot.waitExposed(dialog)
    return dialog


def close(qtbot, dialog: QDialog) -> None:
    dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Close).click()
    qtbot.waitUntil(lambda: not dialog.isVisible())


# File ▸ Game Data…


def test_game_data_is_added_off_the_window_thread_and_listed(qtbot, url, tmp_path, answers):
    window = open_window(qtbot, url)
    dialog = open_game_data(qtbot, window)
    assert dialog.shown() == []
    assert "Nothing stored yet" in dialog.ui.detailsText.text()
    assert ".gst" in dialog.ui.introText.text()  # it says what to get and where
    files = data_files(tmp_path / "data")
    answers.answer(QFileDialog, pick_files(files))
    qtbot.mouseClick(dialog.ui.addFilesButton, Qt.MouseButton.LeftButton)
    books = window.army_books
    # The files are read and stored by a worker: nothing has arrived yet on this thread,
    # and a progress dialog that can cancel it is waiting to show.
    assert books.progress is not None and window.runner.busy
    assert dialog.shown() == []
    qtbot.waitUntil(lambda: books.progress is None, timeout=20_000)
    assert books.last_report == "Game data: stored 2 files"
    assert dialog.shown() == ["Test Battles · 3", "  Knights · 1 · 2"]  # 2 units to pick
    assert stored_data(url) == [("gameSystem", "Test Battles", 3), ("catalogue", "Knights", 1)]
    dialog.choose("gs", "cat")
    assert "Army book, revision 1, from Knights.cat" in dialog.ui.detailsText.text()
    # News of the armies: the status bar's, not the battle log's.
    assert window.statusBar().currentMessage() == books.last_report
    assert books.last_report not in window.ui.logView.toPlainText()
    close(qtbot, dialog)
    assert books.dialog is None


def test_adding_game_data_can_be_cancelled_and_stores_nothing(qtbot, url, answers):
    need(LEXICANUM)
    window = open_window(qtbot, url)
    dialog = open_game_data(qtbot, window)

    def folder(files: QFileDialog) -> None:
        files.setDirectory(str(LEXICANUM))
        files.accept()
    answers.answer(QFileDialog, folder)
    qtbot.mouseClick(dialog.ui.addFolderButton, Qt.MouseButton.LeftButton)
    books = window.army_books
    progress = books.progress
    assert isinstance(progress, QProgressDialog)
    # Cancelled at once, before the worker's first file: nothing may be stored.
    cancel = next(b for b in progress.findChildren(QPushButton) if b.text() == "Cancel")
    qtbot.mouseClick(cancel, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: books.progress is None, timeout=30_000)
    assert books.last_report == "Adding game data cancelled: nothing was stored"
    assert dialog.shown() == []
    assert stored_data(url) == []
    close(qtbot, dialog)


def test_game_data_is_removed_from_the_dialog(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    dialog = open_game_data(qtbot, window)
    assert dialog.shown() == ["Test Battles · 3", "  Knights · 1 · 2"]
    dialog.choose("gs", "cat")
    asked: list[str] = []

    def yes(box: QMessageBox) -> None:
        asked.append(box.text())
        box.button(QMessageBox.StandardButton.Yes).click()
    answers.answer(QMessageBox, yes)
    qtbot.mouseClick(dialog.ui.removeButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.shown() == ["Test Battles · 3"])
    assert asked == ["Remove the army book Knights? Add its file again to have it back."]
    assert stored_data(url) == [("gameSystem", "Test Battles", 3)]
    close(qtbot, dialog)


# File ▸ New Army from an Army Book…, Add Units, the option tree, the limits


def new_army(qtbot, window, answers, name: str = "Lances", limit: str = "500",
             trigger: bool = True):
    """The army built through New Army from an Army Book…, typed as a player would
    (`trigger`: opened from the File menu; else the test opens it another way)."""
    seen: dict[str, Any] = {}

    def fill(dialog: BookArmyDialog) -> bool:
        if not dialog.ui.forceCombo.count():
            return False  # the book is still being read by a worker
        seen["books"] = [("  " * depth) + item.text(0)
                         for depth, item in tree_items(dialog.ui.bookTree)]
        seen["forces"] = [dialog.ui.forceCombo.itemText(i)
                          for i in range(dialog.ui.forceCombo.count())]
        seen["name"] = dialog.ui.nameEdit.text()
        dialog.ui.nameEdit.selectAll()
        qtbot.keyClicks(dialog.ui.nameEdit, name)
        dialog.ui.limitSpin.selectAll()
        qtbot.keyClicks(dialog.ui.limitSpin, limit)
        qtbot.mouseClick(dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok),
                         Qt.MouseButton.LeftButton)
        return True
    answers.answer(BookArmyDialog, fill)
    if trigger:
        window.ui.actionNewBookArmy.trigger()
    return seen


def add_units(qtbot, window, answers, *names: str, search: str = "") -> list[str]:
    """Add Units on an army of a book: the dialog's rows as listed, then `names` added."""
    seen: list[str] = []

    def pick(dialog: BookUnitsDialog) -> None:
        if search:
            qtbot.keyClicks(dialog.ui.searchEdit, search)
        seen.extend(dialog.shown())
        dialog.choose(list(names))
        qtbot.mouseClick(dialog.ui.buttonBox.button(QDialogButtonBox.StandardButton.Ok),
                         Qt.MouseButton.LeftButton)
    answers.answer(BookUnitsDialog, pick)
    window.ui.actionAddUnits.trigger()
    qtbot.waitUntil(lambda: not answers.expected, timeout=20_000)
    return seen


def options(window) -> list[str]:
    """The Army Book dock's option tree as shown: [x] ticked, [ ] not, (grey) greyed."""
    panel = window.army_books.panel
    tree = panel.ui.optionTree
    lines = []
    for depth, item in tree_items(tree):
        widget = tree.itemWidget(item, 0)
        name = f"{widget.value()} {widget.suffix().strip()}" if isinstance(widget, SpinBox) \
            else item.text(0)
        mark = ""
        if not isinstance(widget, SpinBox) and item.data(
                0, Qt.ItemDataRole.CheckStateRole) is not None:
            mark = "[x] " if item.checkState(0) == Qt.CheckState.Checked else "[ ] "
        greyed = item.foreground(0).style() != Qt.BrushStyle.NoBrush  # a choice not now
        grey = " (grey)" if greyed else ""
        lines.append("  " * depth + mark + name + (f" · {item.text(1)}" if item.text(1) else "")
                     + grey)
    return lines


def tick(qtbot, window, name: str) -> None:
    """A click on the check box of an option, where a player clicks."""
    panel = window.army_books.panel
    tree = panel.ui.optionTree
    window.army_books.dock.raise_()  # its tab in front, as the player brings it
    qtbot.wait(QApplication.doubleClickInterval() + 50)  # two clicks, not a double click
    item = panel.option_item(name)
    tree.scrollToItem(item)
    qtbot.waitUntil(lambda: tree.visualItemRect(item).top() >= 0
                    and tree.visualItemRect(item).bottom() <= tree.viewport().height())
    index = tree.indexFromItem(item, 0)
    option = QStyleOptionViewItem()
    option.initFrom(tree)
    option.rect = tree.visualRect(index)
    option.widget = tree
    tree.itemDelegate().initStyleOption(option, index)
    box = tree.style().subElementRect(QStyle.SubElement.SE_ItemViewItemCheckIndicator, option,
                                      tree)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=box.center())


def dock_settled(qtbot, window) -> None:
    books = window.army_books
    books.wait_for_books()
    qtbot.waitUntil(lambda: not books._refresh_timer.isActive())


def test_a_new_army_is_built_from_an_army_book(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    seen = new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    assert seen == {"books": ["Test Battles", "  Knights"], "forces": ["Army"],
                    "name": "Knights army"}
    army = window.current_army
    assert (army.name, army.player, army.points_limit, army.units) == ("Lances", "Player",
                                                                        500, ())
    assert army.book is not None and army.book.catalogue_name == "Knights"
    kept = stored(url, army.id)
    assert kept.book is not None and kept.book.catalogue_id == "cat"
    assert window.undo_stack.undoText() == "New army Lances"
    assert window.ui.actionAddUnits.text() == "&Add Units from the Army Book…"
    dock_settled(qtbot, window)
    # The dock tells what the catalogue still asks for: the game system's Core minimum.
    limits = window.army_books.panel.limits_shown()
    assert len(limits) == 1 and limits[0].startswith("⚠") and "Core" in limits[0]
    window.undo_action.trigger()
    with Store.open(url) as store:
        assert [s.name for s in store.list_armies()] == []


def test_the_welcome_offers_a_new_army_from_an_army_book(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    answers.answer(WelcomeDialog, lambda dialog: qtbot.mouseClick(
        dialog.ui.bookArmyButton, Qt.MouseButton.LeftButton))
    new_army(qtbot, window, answers, "Welcomed Lances", trigger=False)
    window.show_welcome()
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    army = window.current_army
    assert army.name == "Welcomed Lances" and army.book is not None
    assert army.book.catalogue_name == "Knights"


def test_no_army_book_yet_says_where_to_get_one(qtbot, url, answers):
    window = open_window(qtbot, url)
    seen: list[str] = []

    def look(dialog: BookArmyDialog) -> None:
        seen.append(dialog.ui.problemLabel.text())
        seen.append(str(dialog.ui.buttonBox.button(
            QDialogButtonBox.StandardButton.Ok).isEnabled()))
        dialog.reject()
    answers.answer(BookArmyDialog, look)
    window.ui.actionNewBookArmy.trigger()
    assert seen == [NO_DATA_LINE, "False"]
    assert window.workspace.armies() == [] or all(a.book is None
                                                  for a in window.workspace.armies())


def test_units_come_from_the_catalogue_with_their_options_priced_before_ticking(
        qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    listed = add_units(qtbot, window, answers, "Paladin")
    # By slot, in the force's order, each with the price of its smallest legal unit.
    assert listed == ["Core", "  Knights · 120 · 5–15 models", "Heroes",
                      "  Paladin · 60 · 1 model"]
    army = window.current_army
    assert [u.name for u in army.units] == ["Paladin"] and army.points == 60
    assert window.undo_stack.undoText() == "Add Paladin"
    dock_settled(qtbot, window)
    # Nothing in this book caps the horse or the items per unit: they are bought by number.
    assert options(window) == [
        "0 × Warhorse · +14",
        "Magic Items · ≤ 50",
        "  0 × Sword of Tests · +45",
        "  0 × Shield of Tests · +10",
    ]
    horse = window.army_books.panel.amount_spin("Warhorse")
    horse.selectAll()
    qtbot.keyClicks(horse, "1")
    qtbot.keyClick(horse, Qt.Key.Key_Return)
    dock_settled(qtbot, window)
    army = window.current_army
    assert army.points == 74 and stored(url, army.id).points == 74
    assert window.undo_stack.undoText() == "1 × Warhorse for Paladin"
    window.undo_action.trigger()
    dock_settled(qtbot, window)
    assert window.current_army.points == 60 and stored(url, army.id).points == 60
    assert options(window)[0] == "0 × Warhorse · +14"


BRETONNIA_BOOK = "Bretonnia (6th definitive edition)"


def store_bretonnia(url: str) -> None:
    need(LEXICANUM)
    names = ["Warhammer Fantasy Battles (6th definitive edition).gst", f"{BRETONNIA_BOOK}.cat"]
    with Store.open(url) as store:
        add_data(store, [DataInput(n, (LEXICANUM / n).read_bytes()) for n in names])


def bretonnian_paladin(qtbot, url, answers, limit: str):
    """A window on a new Bretonnian army of `limit` points with a Paladin added, shown in
    the Army Book dock."""
    store_bretonnia(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers, "Bretonnians", limit)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    add_units(qtbot, window, answers, "Paladin", search="paladin")
    dock_settled(qtbot, window)
    return window


def test_a_paladins_options_are_ticked_and_greyed_as_his_army_book_says(qtbot, url, answers):
    store_bretonnia(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers, "Bretonnians", "705")
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    # What the force must hold comes chosen, as in BattleScribe (its battle standard).
    start = window.current_army.points
    add_units(qtbot, window, answers, "Paladin", search="paladin")
    dock_settled(qtbot, window)
    army = window.current_army
    assert army.units[-1].name == "Paladin" and army.points == start + 74
    assert [u.name for u in window.selected_units()] == ["Paladin"]
    dock = window.army_books.dock
    assert dock.isVisible() and not dock.visibleRegion().isEmpty()  # in front of the Unit dock
    assert dock.width() >= 320
    shown = options(window)
    # A group that takes one (the Vow): the Knights Vow comes chosen, the others priced.
    assert shown[:4] == ["Vow", "  [x] Knights Vow · free", "  [ ] Grail Vow · +21",
                         "  [ ] Questing Vow · +8"]
    # Up to 50 points of magic items and virtues: what costs more is greyed, and says why.
    assert "Magic items and Virtues · ≤ 50" in shown
    assert "      [ ] Gilded Cuirass · +55 (grey)" in shown
    cuirass = window.army_books.panel.option_item("Gilded Cuirass")
    assert cuirass.toolTip(0).endswith("Not now: Magic items and Virtues: at most 50 pts in "
                                       "Paladin; 0 used, this costs 55")
    tick(qtbot, window, "Gilded Cuirass")  # a greyed box does not tick
    dock_settled(qtbot, window)
    assert window.current_army.points == start + 74
    tick(qtbot, window, "Sword of the Quest")
    dock_settled(qtbot, window)
    army = window.current_army
    assert army.points == start + 124 and stored(url, army.id).points == start + 124
    assert window.undo_stack.undoText() == "Choose Sword of the Quest for Paladin"
    shown = options(window)
    assert "      [x] Sword of the Quest · +50" in shown
    assert "      [ ] Biting Blade · +10 (grey)" in shown  # the 50 are spent
    # The radio buttons of the Vow: another replaces the Knights Vow.
    tick(qtbot, window, "Grail Vow")
    dock_settled(qtbot, window)
    assert window.current_army.points == start + 145
    assert options(window)[1:3] == ["  [ ] Knights Vow · free", "  [x] Grail Vow · +21"]
    window.undo_action.trigger()
    window.undo_action.trigger()
    dock_settled(qtbot, window)
    assert window.current_army.points == start + 74 and stored(url, army.id).points == start + 74


def test_a_unit_of_models_is_sized_in_the_dock_and_the_limits_follow(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    add_units(qtbot, window, answers, "Knights", search="kni")
    dock_settled(qtbot, window)
    panel = window.army_books.panel
    assert panel.ui.modelsSpin.value() == 5
    assert panel.ui.modelsRange.text() == "5–15, 24 pts each"
    assert panel.limits_shown() == ["✓ Every limit of the army book is kept."]
    assert "[ ] Stakes · +1 per model" in options(window)
    panel.ui.modelsSpin.selectAll()
    qtbot.keyClicks(panel.ui.modelsSpin, "6")
    qtbot.keyClick(panel.ui.modelsSpin, Qt.Key.Key_Return)
    dock_settled(qtbot, window)
    army = window.current_army
    assert (army.units[0].models, army.points) == (6, 144)
    assert stored(url, army.id).units[0].models == 6
    tick(qtbot, window, "Stakes")
    dock_settled(qtbot, window)
    assert window.current_army.points == 150  # +1 a model, 6 models
    # Deleting the only Core unit breaks the game system's minimum again: the dock says so.
    window.ui.actionDeleteUnit.trigger()
    dock_settled(qtbot, window)
    assert window.current_army.units == ()
    limits = panel.limits_shown()
    assert len(limits) == 1 and "Core" in limits[0]
    window.undo_action.trigger()
    dock_settled(qtbot, window)
    assert [u.models for u in window.current_army.units] == [6]


def test_a_change_of_one_unit_repaints_its_row_only(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    add_units(qtbot, window, answers, "Knights", search="kni")
    add_units(qtbot, window, answers, "Knights", search="kni")
    dock_settled(qtbot, window)
    first, second = window.current_army.units
    window.select_units([first.id])
    dock_settled(qtbot, window)
    model = window.roster_model
    changed_rows: list[int] = []
    resets: list[bool] = []
    model.dataChanged.connect(lambda top, bottom, *_: changed_rows.extend(
        range(top.row(), bottom.row() + 1)))
    model.modelReset.connect(lambda: resets.append(True))
    panel = window.army_books.panel
    panel.ui.modelsSpin.selectAll()
    qtbot.keyClicks(panel.ui.modelsSpin, "7")
    qtbot.keyClick(panel.ui.modelsSpin, Qt.Key.Key_Return)
    dock_settled(qtbot, window)
    army = window.current_army
    assert [u.models for u in army.units] == [7, 5]
    assert army.units[1] is second  # not read again: the same unit
    assert (set(changed_rows), resets) == ({model.row_of(first.id)}, [])


def test_the_army_book_dock_gets_room_the_first_time_its_tab_is_clicked(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    dock = window.army_books.dock
    window.ui.inspectorDock.raise_()  # the Unit dock in front, at its 225 px
    qtbot.waitUntil(lambda: dock.visibleRegion().isEmpty())
    assert dock.width() < DOCK_WIDTH
    def dock_tabs() -> QTabBar | None:
        return next((b for b in window.findChildren(QTabBar)
                     if any(b.tabText(i) == "Army Book" for i in range(b.count()))), None)
    qtbot.waitUntil(lambda: dock_tabs() is not None)
    bar = dock_tabs()
    tab = next(i for i in range(bar.count()) if bar.tabText(i) == "Army Book")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tab).center())
    qtbot.waitUntil(lambda: dock.width() >= DOCK_WIDTH)
    # Narrowed by the player afterwards, it stays narrow when it comes back to the front.
    window.resizeDocks([dock], [240], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: dock.width() < DOCK_WIDTH)
    window.ui.inspectorDock.raise_()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(tab).center())
    qtbot.wait(50)
    assert dock.width() < DOCK_WIDTH


def test_the_option_trees_points_title_is_never_cut(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    header = window.army_books.panel.ui.optionTree.header()
    window.army_books.show_dock()
    # No unit yet (no prices at all), then the Knights' short ones ("free", "+8").
    assert header.sectionSize(1) >= header.sectionSizeHint(1) > 24
    knights_army(qtbot, window, answers)
    assert header.sectionSize(1) >= header.sectionSizeHint(1)


def knights_army(qtbot, window, answers) -> None:
    new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    add_units(qtbot, window, answers, "Knights")
    dock_settled(qtbot, window)


def test_roster_cells_of_a_unit_of_an_army_book_change_its_roster(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    unit = window.current_army.units[0]
    editor = open_editor(window, cell(window, unit.id, "name"))
    editor.selectAll()
    qtbot.keyClicks(editor, "Lances of Tests")
    commit(qtbot, window, editor)
    spin = open_editor(window, cell(window, unit.id, "models"))
    type_number(qtbot, spin, 7)
    commit(qtbot, window, spin)
    army = window.current_army
    assert (army.units[0].name, army.units[0].models, army.points) == ("Lances of Tests", 7,
                                                                        168)
    # Both went to the roster: the name and the count survive a change of option made later.
    tick(qtbot, window, "Stakes")
    dock_settled(qtbot, window)
    kept = stored(url, army.id)
    assert (kept.units[0].name, kept.units[0].models, kept.points) == ("Lances of Tests", 7,
                                                                       175)
    assert window.army_books.panel.ui.unitTitle.text().startswith("<b>Lances of Tests</b>")
    # What the book decides is not typed over: the points come from it.
    points = open_editor(window, cell(window, unit.id, "points"))
    type_number(qtbot, points, 5)
    qtbot.keyClick(points, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "comes from its army book" in window.statusBar().currentMessage())
    assert stored(url, army.id).points == 175


def test_a_unit_of_an_army_book_is_duplicated_with_its_options(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    tick(qtbot, window, "Stakes")
    dock_settled(qtbot, window)
    window.ui.actionDuplicateUnit.trigger()
    dock_settled(qtbot, window)
    army = window.current_army
    # The copy is told apart by its name, as a copy of a plain unit is.
    assert [(u.name, u.models) for u in army.units] == [("Knights", 5), ("Knights (2)", 5)]
    assert army.points == 2 * 125 and stored(url, army.id).points == 250
    assert [u.id for u in window.selected_units()] == [army.units[1].id]
    assert "[x] Stakes · +1 per model" in options(window)
    window.undo_action.trigger()
    assert stored(url, army.id).points == 125


def test_removing_the_book_of_an_army_keeps_it_as_plain_units(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    army = window.current_army
    dialog = open_game_data(qtbot, window)
    dialog.choose("gs", "cat")
    assert "1 army built from it" in dialog.ui.detailsText.text()
    asked: list[str] = []

    def keep(box: QMessageBox) -> None:
        asked.append(box.text())
        next(b for b in box.buttons() if b.text() == "Keep as plain units and remove").click()
    answers.answer(QMessageBox, keep)
    qtbot.mouseClick(dialog.ui.removeButton, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.shown() == ["Test Battles · 3"])
    assert asked and asked[0].startswith("Knights is the army book of 1 army: Lances.")
    kept = stored(url, army.id)
    assert kept.book is None and [(u.name, u.models) for u in kept.units] == [("Knights", 5)]
    assert window.current_army.book is None and window.current_army.points == kept.points
    close(qtbot, dialog)


def test_add_units_is_driven_by_the_keyboard_from_its_filter(qtbot, url, answers):
    store_sample_data(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers)
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    seen: list[str] = []

    def keys(dialog: BookUnitsDialog) -> None:
        seen.append(dialog.ui.unitDetails.text())
        qtbot.keyClick(dialog.ui.searchEdit, Qt.Key.Key_Down)  # to the next unit
        seen.append(dialog.ui.unitDetails.text())
        qtbot.keyClick(dialog.ui.searchEdit, Qt.Key.Key_Return)
    answers.answer(BookUnitsDialog, keys)
    window.ui.actionAddUnits.trigger()
    qtbot.waitUntil(lambda: not answers.expected, timeout=20_000)
    assert seen[0].startswith("<b>Knights</b> — Core: 120 points for 5–15 models")
    assert seen[1].startswith("<b>Paladin</b> — Heroes: 60 points for 1 model")
    assert [u.name for u in window.current_army.units] == ["Paladin"]


def test_an_army_of_a_book_is_exported_as_a_roster_and_imported_back_the_same(
        qtbot, url, tmp_path, answers):
    window = bretonnian_paladin(qtbot, url, answers, "705")
    tick(qtbot, window, "Grail Vow")
    dock_settled(qtbot, window)
    built = window.current_army
    path = tmp_path / "bretonnians.rosz"
    assert window.export_army(path)
    assert window.statusBar().currentMessage() == f"Exported Bretonnians to {path} (rosz)"
    # Into a fresh database holding the same game data, through the window's Import.
    other = f"sqlite:///{tmp_path / 'club.sqlite'}"
    store_bretonnia(other)
    second = open_window(qtbot, other)
    done: list[bool] = []
    second.import_army(path, lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=20_000)
    back = second.current_army
    assert back is not None and back.book is not None
    assert back.book.catalogue_name == built.book.catalogue_name
    assert [(u.name, u.models, u.points, u.upgrades) for u in back.units] == [
        (u.name, u.models, u.points, u.upgrades) for u in built.units]
    assert back.points == built.points
    assert [p.message for p in back.book.problems] == [p.message for p in built.book.problems]


def test_an_army_not_of_a_book_is_not_written_as_a_roster(qtbot, url, tmp_path, answers):
    window = open_window(qtbot, url)
    seen: list[str] = []

    def note(box: QMessageBox) -> None:
        seen.append(box.text())
        box.accept()
    window.push_army(None, small_plain_army(), "New army")
    answers.answer(QMessageBox, note)
    assert not window.export_army(tmp_path / "plain.rosz")
    qtbot.waitUntil(lambda: bool(seen))
    assert "is not built from an army book" in seen[0]
    assert not (tmp_path / "plain.rosz").exists()


def test_long_option_names_are_cut_in_the_middle_where_they_differ(qtbot, url):
    """A real-window try of issue 23: "Sword of the …" twice and two "Magic Weapons (…"
    groups could not be told apart without hovering. Names too long for the dock are cut
    in the middle, where such names differ, and their tool tips have them whole."""
    store_sample_data(url)
    window = open_window(qtbot, url)
    tree = window.army_books.panel.ui.optionTree
    assert tree.textElideMode() == Qt.TextElideMode.ElideMiddle
    metrics = tree.fontMetrics()
    shown = [metrics.elidedText(name, tree.textElideMode(), 90)
             for name in ("Sword of the Quest", "Sword of the Lady")]
    assert shown[0] != shown[1]


def test_models_past_the_units_size_are_refused_with_a_word(qtbot, url, answers):
    """A real-window try of issue 23 (and issue 20, item 1): 20 typed into the dock's 5-15
    models box left 5 without a word. The number stays, and the status bar says why."""
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    spin = window.army_books.panel.ui.modelsSpin
    qtbot.waitUntil(spin.isVisible)
    before = spin.value()
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(spin.maximum() + 5))
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert spin.value() == before
    assert window.current_army.units[0].models == before
    message = window.statusBar().currentMessage()
    assert str(spin.maximum() + 5) in message and str(spin.maximum()) in message


def test_the_dock_shows_a_count_typed_in_the_roster_outside_the_units_size(qtbot, url, answers):
    """A real-window try of issue 23: 8 typed into the roster's Models cell of a unit of
    10 or more was kept (the limits list named it), while the dock's Models box, bounded
    by the size, showed 10. It shows the unit's own count and says it is outside."""
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    unit = window.current_army.units[0]
    panel = window.army_books.panel
    assert panel.ui.modelsSpin.minimum() == 5
    spin = open_editor(window, cell(window, unit.id, "models"))
    type_number(qtbot, spin, 3)
    commit(qtbot, window, spin)
    dock_settled(qtbot, window)
    assert window.current_army.units[0].models == 3
    qtbot.waitUntil(lambda: panel.ui.modelsSpin.value() == 3)
    assert "has 3: outside its size" in panel.ui.modelsRange.text()
    # The longer line wraps rather than widening the dock past its width (it did at
    # 1280x800 in a real window, whose font is wider than the offscreen one).
    label = panel.ui.modelsRange
    assert label.minimumSizeHint().width() < label.fontMetrics().horizontalAdvance(
        label.text()) / 2
    assert panel.minimumSizeHint().width() <= DOCK_WIDTH
    assert any("Knights" in line and "3" in line for line in panel.limits_shown())
    # Back inside: the box is bounded by the size again.
    panel.ui.modelsSpin.setFocus()
    panel.ui.modelsSpin.lineEdit().selectAll()
    qtbot.keyClicks(panel.ui.modelsSpin.lineEdit(), "6")
    qtbot.keyClick(panel.ui.modelsSpin.lineEdit(), Qt.Key.Key_Return)
    dock_settled(qtbot, window)
    assert window.current_army.units[0].models == 6
    qtbot.waitUntil(lambda: panel.ui.modelsSpin.minimum() == 5)
    assert "outside" not in panel.ui.modelsRange.text()


def test_the_add_units_filter_points_at_a_unit_the_army_may_take(qtbot, url, answers):
    """A real-window try of issue 23: typing "knight" in Add Units of a Bretonnian army put
    the greyed Green Knight first, so Add was off; the first unit it may take is chosen."""
    store_bretonnia(url)
    window = open_window(qtbot, url)
    new_army(qtbot, window, answers, limit="2000")
    qtbot.waitUntil(lambda: window.current_army is not None, timeout=20_000)
    seen: dict[str, Any] = {}

    def look(dialog: BookUnitsDialog) -> None:
        qtbot.keyClicks(dialog.ui.searchEdit, "knight")
        listed = [dialog.rows[str(index.data(ENTRY_ROLE))]
                  for index in dialog._unit_indexes()]
        seen["greyed first"] = bool(listed) and bool(listed[0].blocked)
        seen["chosen"] = dialog.chosen()
        seen["ok"] = dialog.ui.buttonBox.button(
            QDialogButtonBox.StandardButton.Ok).isEnabled()
        dialog.reject()
    answers.answer(BookUnitsDialog, look)
    window.ui.actionAddUnits.trigger()
    qtbot.waitUntil(lambda: not answers.expected, timeout=20_000)
    assert seen["greyed first"], "the book no longer lists a greyed knight first"
    assert seen["chosen"] and seen["ok"]


def test_a_long_price_does_not_take_the_option_names_room(qtbot, url, answers):
    """A real-window try of issue 23: the General's price ("+2 Casting Dice, +2 Dispel
    Dice") widened the Points column to 40% of the dock, and the names read "Sword …
    Quest". Prices get the room of "+10 per model"; a longer one is read in its tip."""
    window = bretonnian_paladin(qtbot, url, answers, "1000")
    tree = window.army_books.panel.ui.optionTree
    general = next(item for _, item in tree_items(tree) if item.text(0) == "General")
    assert general.text(1) == "+2 Casting Dice, +2 Dispel Dice"
    assert "+2 Casting Dice, +2 Dispel Dice" in general.toolTip(1)
    metrics = tree.fontMetrics()
    assert tree.header().sectionSize(1) <= max(metrics.horizontalAdvance("+10 per model") + 12,
                                               tree.header().sectionSizeHint(1))
    assert tree.header().sectionSize(0) >= tree.viewport().width() * 0.65


def test_army_settings_of_an_army_of_a_book_names_its_book_not_a_list(qtbot, url, answers):
    """A real-window try of issue 23: Army Settings said "Army list: No army list" for an
    army built from an army book, as if nothing checked it. It names the book, unchangeable
    there, and keeps what the army had."""
    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    army = window.current_army
    seen: dict[str, Any] = {}

    def look(dialog: NewArmyDialog) -> None:
        seen["list"] = dialog.ui.listCombo.currentText()
        seen["enabled"] = dialog.ui.listCombo.isEnabled()
        seen["kept"] = dialog.army_list
        dialog.reject()
    answers.answer(NewArmyDialog, look)
    window.edit_army_settings()
    assert seen == {"list": f"{army.book.catalogue_name} (its army book)", "enabled": False,
                    "kept": army.army_list}


def test_a_unit_that_breaks_a_book_limit_is_tinted_in_the_roster_and_named_in_the_unit_dock(
        qtbot, url, answers):
    """A real-window try of issue 23: the Army Book dock named the unit below its size, but
    its roster row looked as every other and the Unit dock, in front, said nothing."""
    from desktop.gui.roster_table import WARNING_TINT

    store_sample_data(url)
    window = open_window(qtbot, url)
    knights_army(qtbot, window, answers)
    unit = window.current_army.units[0]
    spin = open_editor(window, cell(window, unit.id, "models"))
    type_number(qtbot, spin, 3)
    commit(qtbot, window, spin)
    dock_settled(qtbot, window)
    limit = next(line for line in window.army_books.panel.limits_shown() if "Knights" in line)
    message = limit.removeprefix("⚠ ")
    name = cell(window, unit.id, "name")
    assert name.data(Qt.ItemDataRole.BackgroundRole).color() == WARNING_TINT
    assert message in name.data(Qt.ItemDataRole.ToolTipRole)
    window.ui.inspectorDock.raise_()
    window.select_units([unit.id])
    qtbot.waitUntil(lambda: window.ui.problemList.count() > 0, timeout=2000)
    shown = [window.ui.problemList.item(i).text() for i in range(window.ui.problemList.count())]
    assert f"⚠ {message}" in shown and window.ui.problemList.isVisibleTo(window)
    # Kept again: the tint and the line go.
    window.undo_action.trigger()
    dock_settled(qtbot, window)
    assert cell(window, unit.id, "name").data(Qt.ItemDataRole.BackgroundRole) is None
