"""Points that stay right, in the real window on a SQLite file: an imported unit's points
follow its size at its roster's price, and points typed by hand stay until the player asks
for the listed price again.

Edits go through the roster table's own editors (helpers from test_gui_roster), and every
result is checked on screen and in what a fresh Store reads back from the file.
"""

# ruff: noqa: F811  (the fixtures url and modals come from test_gui_roster)
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont
from test_gui_roster import (  # noqa: F401  (the roster panes' helpers, not their tests)
    BATTLESCRIBE_ROSTER,
    GOBLINS,
    cell,
    commit,
    entry,
    import_and_wait,
    modals,  # autouse: no dialog is expected here, a surprise one (an error box) fails
    open_editor,
    open_window,
    sample,
    seed,
    select_rows,
    stored,
    type_number,
    unit_of,
    url,
)

from desktop.engine.model import RosterPrice
from desktop.engine.roster import price
from desktop.gui.roster_table import NOTE_TINT
from desktop.store.transfer import read_army_file

HUNTERS = "hunters-of-bordeleaux"  # Peasant Bowmen, 12 models at 6 + Skirmish 12 = 84


def set_number(qtbot, window, unit_id: str, key: str, value: int) -> None:
    editor = open_editor(window, cell(window, unit_id, key))
    type_number(qtbot, editor, value)
    commit(qtbot, window, editor)


def test_an_imported_unit_resized_is_priced_per_model_and_the_army_follows(qtbot, url):
    window = open_window(qtbot, url)
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)
    army = window.current_army
    assert army is not None and army.points == 705
    hunters = unit_of(army, HUNTERS)
    # What the roster says: 12 Peasant Bowmen models for 72, "Take Skirmish" for 12.
    assert (hunters.name, hunters.profile.name, hunters.models, hunters.points) == (
        "Hunters of Bordeleaux", "Peasant Bowmen", 12, 84)
    assert hunters.price == RosterPrice(per_model=6.0, upgrades=12)

    set_number(qtbot, window, HUNTERS, "models", 15)

    assert cell(window, HUNTERS, "points").data() == 15 * 6 + 12
    assert window.current_army is not None and window.current_army.points == 705 + 3 * 6
    assert "<b>723 / 1000</b> points" in window.ui.pointsLabel.text()
    tree_points = window.tree_model.army_index(army.id).siblingAtColumn(1)
    assert tree_points.data() == "723 / 1000"
    saved = stored(url, army.id)
    assert (unit_of(saved, HUNTERS).models, unit_of(saved, HUNTERS).points) == (15, 102)
    assert saved.points == 723
    # Not an override: no italics, no note; the other units are as imported.
    assert cell(window, HUNTERS, "points").data(Qt.ItemDataRole.FontRole) is None
    assert cell(window, HUNTERS, "points").data(Qt.ItemDataRole.BackgroundRole) is None
    assert [u.points for u in saved.units if u.id != HUNTERS] == [
        u.points for u in read_army_file(BATTLESCRIBE_ROSTER).army.units if u.id != HUNTERS]

    # A character's price follows too (per model: its own cost; its gear stays).
    set_number(qtbot, window, "looters-of-the-duc", "models", 8)
    assert unit_of(stored(url, army.id), "looters-of-the-duc").points == 8 * 24 + 24
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert stored(url, army.id).points == 705


def test_typed_points_stay_marked_until_the_library_price_is_asked_for(qtbot, url):
    army, = seed(url, sample(GOBLINS))
    boar_riders = entry("warhammer6", "Orc Boar Riders")
    upgrades = unit_of(army, "boar-riders").upgrades
    assert unit_of(army, "boar-riders").points == price(boar_riders, 8, upgrades) == 206
    window = open_window(qtbot, url)
    select_rows(window, ["boar-riders"])
    assert not window.ui.actionUseListedPrice.isEnabled()  # nothing typed yet

    set_number(qtbot, window, "boar-riders", "points", 90)
    points = cell(window, "boar-riders", "points")
    assert points.data() == 90
    font = points.data(Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.italic()
    assert points.data(Qt.ItemDataRole.BackgroundRole) == QBrush(NOTE_TINT)
    assert points.data(Qt.ItemDataRole.ToolTipRole) == (
        "Orc Boar Riders: 90 points typed by hand, kept when its size changes; the library "
        "price is 206 (Edit ▸ Use the Library Price puts it back)")
    assert unit_of(stored(url, army.id), "boar-riders").points_typed

    # One more model: the typed points stay, still marked, beside the new library price.
    set_number(qtbot, window, "boar-riders", "models", 9)
    points = cell(window, "boar-riders", "points")
    assert points.data() == 90
    assert "the library price is 226" in points.data(Qt.ItemDataRole.ToolTipRole)
    assert (unit_of(stored(url, army.id), "boar-riders").points, stored(url, army.id).points
            ) == (90, army.points - 206 + 90)
    problems = [window.ui.problemList.item(i).text()
                for i in range(window.ui.problemList.count())]
    assert problems == ["Orc Boar Riders: 90 points typed by hand, kept when its size changes; "
                        "the library price is 226"]

    # Use the library price: one undo step back to following the size.
    select_rows(window, ["boar-riders"])
    assert window.ui.actionUseListedPrice.isEnabled()
    window.ui.actionUseListedPrice.trigger()
    points = cell(window, "boar-riders", "points")
    assert points.data() == price(boar_riders, 9, upgrades) == 226
    assert points.data(Qt.ItemDataRole.FontRole) is None
    assert points.data(Qt.ItemDataRole.BackgroundRole) is None
    saved = unit_of(stored(url, army.id), "boar-riders")
    assert (saved.points, saved.points_typed) == (226, False)
    assert not window.ui.actionUseListedPrice.isEnabled()
    assert window.undo_stack.undoText() == "Use the listed price of Orc Boar Riders"
    window.undo_action.trigger()
    saved = unit_of(stored(url, army.id), "boar-riders")
    assert (saved.points, saved.points_typed) == (90, True)


def test_typing_the_listed_price_is_no_override(qtbot, url):
    army, = seed(url, sample(GOBLINS))
    window = open_window(qtbot, url)
    set_number(qtbot, window, "trolls", "points", 100)
    assert unit_of(stored(url, army.id), "trolls").points_typed
    set_number(qtbot, window, "trolls", "points", 180)  # River Trolls: 4 at 45, as listed
    assert cell(window, "trolls", "points").data(Qt.ItemDataRole.FontRole) is None
    set_number(qtbot, window, "trolls", "models", 5)
    saved = unit_of(stored(url, army.id), "trolls")
    assert (saved.points, saved.points_typed) == (225, False)


def test_typed_points_of_an_imported_unit_go_back_to_the_rosters_price(qtbot, url):
    window = open_window(qtbot, url)
    import_and_wait(qtbot, window, BATTLESCRIBE_ROSTER)
    army = window.current_army
    assert army is not None
    set_number(qtbot, window, HUNTERS, "points", 80)
    set_number(qtbot, window, HUNTERS, "models", 15)
    assert cell(window, HUNTERS, "points").data() == 80
    assert "the imported roster's price is 102" in cell(
        window, HUNTERS, "points").data(Qt.ItemDataRole.ToolTipRole)
    select_rows(window, [HUNTERS])
    window.ui.actionUseListedPrice.trigger()
    assert unit_of(stored(url, army.id), HUNTERS).points == 102
