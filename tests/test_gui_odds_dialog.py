"""The Odds dialog: typed numbers give the engine's exact odds, the same as `rout odds`."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from desktop.engine import odds
from desktop.engine.dice import D2D6, Dice
from desktop.gui.odds_dialog import OddsDialog, chance_text

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def dialog(qtbot):
    opened = OddsDialog()
    qtbot.addWidget(opened)
    opened.show()
    return opened


def type_into(qtbot, spin, value: int) -> None:
    """As a player does: select what is there, type the new number and press Enter (a
    number counts once it is entered, so that a half-typed one never does)."""
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), str(value))
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def retype(qtbot, edit, text: str) -> None:
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def rout_odds(*args: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "desktop", "odds", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def shown(label) -> str:
    """The fraction shown in an answer label: `Breaks: 13/18 (72.2%)` -> `13/18`."""
    return label.text().split(": ", 1)[1].split(" (")[0]


def test_chance_text_is_exact_and_rounded():
    assert chance_text(Fraction(13, 18)) == "13/18 (72.2%)"
    assert chance_text(Fraction(0)) == "0 (0%)"
    assert chance_text(Fraction(1)) == "1 (100%)"


@pytest.mark.parametrize(("ld", "diff", "stubborn", "double_one"), [
    (8, 3, False, False), (7, 5, True, False), (5, 6, False, True), (10, 0, False, False)])
def test_w6_bt_2_break_odds_follow_the_fields(qtbot, dialog, ld, diff, stubborn, double_one):
    type_into(qtbot, dialog.break_ld, ld)
    type_into(qtbot, dialog.break_diff, diff)
    if stubborn:
        qtbot.mouseClick(dialog.break_stubborn, Qt.MouseButton.LeftButton)
    if double_one:
        qtbot.mouseClick(dialog.break_double_one, Qt.MouseButton.LeftButton)
    fails = odds.break_test_fails(ld, diff, D2D6, stubborn=stubborn,
                                  double_one_holds=double_one)
    assert dialog.break_breaks.text() == f"Breaks: {chance_text(fails)}"
    assert dialog.break_holds.text() == f"Holds: {chance_text(1 - fails)}"
    flags = ["--stubborn"] * stubborn + ["--double-one-holds"] * double_one
    cli = rout_odds("break", "--ld", str(ld), "--diff", str(diff), *flags)
    assert shown(dialog.break_breaks) == cli["breaks"]["chance"]
    assert dialog.break_breaks.text().endswith(f"({cli['breaks']['percent']})")
    assert shown(dialog.break_holds) == cli["holds"]["chance"]
    assert "[W6-BT-2]" in dialog.break_note.text()


def test_w6_bt_3_the_worked_example(qtbot, dialog):
    type_into(qtbot, dialog.break_ld, 8)
    type_into(qtbot, dialog.break_diff, 3)
    assert dialog.break_breaks.text() == "Breaks: 13/18 (72.2%)"


def test_panic_rally_and_restraint_roll_against_ld(qtbot, dialog):
    dialog.tabs.setCurrentIndex(1)
    type_into(qtbot, dialog.ld_value, 7)
    cli = rout_odds("panic", "--ld", "7")
    assert shown(dialog.ld_fails) == cli["flees"]["chance"] == "5/12"
    assert dialog.ld_fails.text() == "Fails, flees: 5/12 (41.7%)"
    assert "[W6-PT-2]" in dialog.ld_note.text()
    dialog.ld_test.setCurrentIndex(2)
    assert dialog.ld_fails.text() == "Fails, must pursue: 5/12 (41.7%)"
    assert "[W6-PU-2]" in dialog.ld_note.text()
    dialog.ld_test.setCurrentIndex(1)
    type_into(qtbot, dialog.ld_value, 9)
    assert dialog.ld_passes.text() == (
        f"Passes, rallies: {chance_text(1 - odds.attribute_test_fails(9, D2D6))}")
    assert "[W6-RA-1]" in dialog.ld_note.text()


def test_caught_by_several_pursuers_matches_rout_odds(qtbot, dialog):
    dialog.tabs.setCurrentIndex(2)
    retype(qtbot, dialog.caught_flee, "2D6")
    retype(qtbot, dialog.caught_pursuers, "2D6 3D6")
    cli = rout_odds("catch", "--flee", "2D6", "--pursue", "2D6", "3D6")
    assert shown(dialog.caught_caught) == cli["caught"]["chance"] == "82963/93312"
    assert shown(dialog.caught_escapes) == cli["escapes"]["chance"]
    qtbot.mouseClick(dialog.caught_ties_escape, Qt.MouseButton.LeftButton)
    cli = rout_odds("catch", "--flee", "3D6", "--pursue", "2D6", "--ties-escape")
    retype(qtbot, dialog.caught_flee, "3D6")
    retype(qtbot, dialog.caught_pursuers, "2D6")
    assert shown(dialog.caught_caught) == cli["caught"]["chance"]
    assert dialog.caught_caught.text() == (
        f"Caught: {chance_text(odds.caught(Dice.parse('3D6'), [D2D6], ties_caught=False))}")


@pytest.mark.parametrize(("flee", "pursuers", "message"), [
    ("2D", "2D6", "Flee dice: '2D' is not a dice expression"),
    ("2D6", "2D6 x", "Pursuers' dice: 'x' is not a dice expression"),
    ("2D6", "  ", "Pursuers' dice: give the dice of at least one pursuer"),
    ("2D6", "2D6 " * 13, "Pursuers' dice: 13 pursuers is more than"),
    ("0D6", "2D6", "Flee dice: 0 dice is not a roll"),
])
def test_bad_dice_give_one_message_and_keep_the_typing(qtbot, dialog, flee, pursuers,
                                                       message):
    dialog.tabs.setCurrentIndex(2)
    retype(qtbot, dialog.caught_flee, flee)
    retype(qtbot, dialog.caught_pursuers, pursuers)
    assert dialog.caught_note.text().startswith(message)
    assert dialog.caught_caught.text() == dialog.caught_escapes.text() == ""
    assert (dialog.caught_flee.text(), dialog.caught_pursuers.text()) == (flee, pursuers)
    retype(qtbot, dialog.caught_flee, "2D6")
    retype(qtbot, dialog.caught_pursuers, "2D6")
    assert dialog.caught_caught.text().startswith("Caught: ")


@pytest.mark.parametrize(("honor", "ronin", "below"), [(5, False, False), (5, True, False),
                                                       (3, True, True), (10, False, False)])
def test_k_ht_1_honor_odds_match_rout_odds(qtbot, dialog, honor, ronin, below):
    dialog.tabs.setCurrentIndex(3)
    type_into(qtbot, dialog.honor_value, honor)
    if ronin:
        qtbot.mouseClick(dialog.honor_ronin, Qt.MouseButton.LeftButton)
    if below:
        qtbot.mouseClick(dialog.honor_below, Qt.MouseButton.LeftButton)
    cli = rout_odds("honor", "--honor", str(honor), *(["--ronin"] * ronin),
                    *(["--below"] * below))
    assert shown(dialog.honor_runs) == cli["runs_away"]["chance"]
    assert shown(dialog.honor_holds) == cli["holds"]["chance"]
    assert dialog.honor_runs.text().endswith(f"({cli['runs_away']['percent']})")


def test_fields_keep_to_the_rulesets_ranges(qtbot, dialog):
    type_into(qtbot, dialog.break_ld, 11)  # Ld runs to 10: the 1 is typed, the second refused
    assert dialog.break_ld.value() <= 10
    assert dialog.break_ld.minimum() >= 1 and dialog.break_diff.minimum() == 0


def test_a_refused_number_is_no_longer_said_once_another_tab_is_shown(qtbot, dialog):
    """Issue 20: the "Leadership … refused" line stayed under the Caught tab, where no
    Leadership field is. It names a field of the tab in front, or nothing."""
    type_into(qtbot, dialog.break_ld, 11)  # Ld runs to 10: refused, and said why
    assert "Leadership" in dialog.field_message.text()
    tab_bar = dialog.tabs.tabBar()
    qtbot.mouseClick(tab_bar, Qt.MouseButton.LeftButton,
                     pos=tab_bar.tabRect(dialog.tabs.indexOf(dialog.caught_flee.parentWidget()))
                     .center())
    assert dialog.tabs.currentWidget() is dialog.caught_flee.parentWidget()
    assert dialog.field_message.text() == ""
