"""Quick odds without a battle: the questions players ask across the table.

Break test, Panic/Rally/Restraint, "caught" and Kensei's Honor test, each worked out by
desktop.engine.odds exactly as `rout odds …` does, shown as a fraction and a percentage and
updated as the fields change. The dialog decides no rule: it only collects the numbers.
"""

from __future__ import annotations

import re
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.engine import odds
from desktop.engine.dice import D2D6, Dice
from desktop.engine.errors import RuleError
from desktop.engine.rulesets import get_ruleset
from desktop.gui.fields import ComboBox, SpinBox

# (test, its clause, what passing and failing are called) for the tests rolled against Ld.
LD_TESTS: tuple[tuple[str, str, str, str], ...] = (
    ("Panic", "W6-PT-2", "keeps its nerve", "flees"),
    ("Rally", "W6-RA-1", "rallies", "keeps fleeing"),
    ("Restraint", "W6-PU-2", "is held back", "must pursue"),
)


def chance_text(chance: Fraction) -> str:
    """`13/18 (72.2%)`: the exact fraction and the rounded percentage."""
    return f"{chance} ({odds.percent(chance)})"


def _spin(what: str, low: int, high: int, value: int) -> SpinBox:
    spin = SpinBox(what=what)
    spin.setRange(low, high)
    spin.setValue(value)
    return spin


def _stat_spin(what: str, ruleset: str, stat: str, value: int) -> SpinBox:
    spec = get_ruleset(ruleset).stat(stat)
    return _spin(what, spec.minimum, spec.maximum, value)


class OddsDialog(QDialog):
    """Four tabs of questions; every answer label is recomputed whenever a field changes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Odds")
        self.tabs = QTabWidget(self)
        # Every tab's name whole: the dialog is as wide as its tabs, none cut to "Caugh…".
        self.tabs.tabBar().setElideMode(Qt.TextElideMode.ElideNone)
        self.tabs.tabBar().setUsesScrollButtons(False)
        self.field_message = QLabel(self)  # a number refused, and why
        self.field_message.setObjectName("fieldMessage")
        self.field_message.setWordWrap(True)
        self.tabs.addTab(self._break_page(), "Break test")
        self.tabs.addTab(self._ld_page(), "Panic / Rally / Restraint")
        self.tabs.addTab(self._caught_page(), "Caught")
        self.tabs.addTab(self._honor_page(), "Honor (Kensei)")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.field_message)
        layout.addWidget(buttons)
        for spin in self.findChildren(SpinBox):
            spin.refused.connect(self.field_message.setText)
            spin.valueChanged.connect(self.field_message.clear)
        # A refusal names a field of the tab it was typed in: gone with that tab.
        self.tabs.currentChanged.connect(self.field_message.clear)
        self._update_break()
        self._update_ld()
        self._update_caught()
        self._update_honor()

    # Pages: fields above, the two answers below, a line saying which clause.

    def _page(self) -> tuple[QWidget, QFormLayout]:
        page = QWidget()
        return page, QFormLayout(page)

    def _answers(self, form: QFormLayout, clause: str) -> tuple[QLabel, QLabel, QLabel]:
        first, second, note = QLabel(), QLabel(), QLabel(clause)
        note.setWordWrap(True)
        form.addRow(first)
        form.addRow(second)
        form.addRow(note)
        return first, second, note

    def _break_page(self) -> QWidget:
        page, form = self._page()
        self.break_ld = _stat_spin("Leadership", "warhammer6", "Ld", 8)
        self.break_diff = _spin("Lost by", 0, 30, 0)
        self.break_stubborn = QCheckBox("Stubborn (tests on unmodified Ld)")
        self.break_double_one = QCheckBox("A double 1 always holds (ruleset option)")
        form.addRow("Leadership:", self.break_ld)
        form.addRow("Lost by:", self.break_diff)
        form.addRow(self.break_stubborn)
        form.addRow(self.break_double_one)
        self.break_breaks, self.break_holds, self.break_note = self._answers(form, "")
        for spin in (self.break_ld, self.break_diff):
            spin.valueChanged.connect(self._update_break)
        for box in (self.break_stubborn, self.break_double_one):
            box.toggled.connect(self._update_break)
        return page

    def _update_break(self) -> None:
        fails = odds.break_test_fails(self.break_ld.value(), self.break_diff.value(), D2D6,
                                      stubborn=self.break_stubborn.isChecked(),
                                      double_one_holds=self.break_double_one.isChecked())
        self.break_breaks.setText(f"Breaks: {chance_text(fails)}")
        self.break_holds.setText(f"Holds: {chance_text(1 - fails)}")
        self.break_note.setText("2D6 plus the difference; above Ld breaks [W6-BT-2]")

    def _ld_page(self) -> QWidget:
        page, form = self._page()
        self.ld_test = ComboBox()
        for name, clause, _, _ in LD_TESTS:
            self.ld_test.addItem(f"{name} test", clause)
        self.ld_value = _stat_spin("Leadership", "warhammer6", "Ld", 7)
        form.addRow("Test:", self.ld_test)
        form.addRow("Leadership:", self.ld_value)
        self.ld_fails, self.ld_passes, self.ld_note = self._answers(form, "")
        self.ld_test.currentIndexChanged.connect(self._update_ld)
        self.ld_value.valueChanged.connect(self._update_ld)
        return page

    def _update_ld(self) -> None:
        _, clause, passing, failing = LD_TESTS[self.ld_test.currentIndex()]
        fails = odds.attribute_test_fails(self.ld_value.value(), D2D6)
        self.ld_fails.setText(f"Fails, {failing}: {chance_text(fails)}")
        self.ld_passes.setText(f"Passes, {passing}: {chance_text(1 - fails)}")
        self.ld_note.setText(f"2D6; Ld or less passes [{clause}]")

    def _caught_page(self) -> QWidget:
        page, form = self._page()
        self.caught_flee = QLineEdit("2D6")
        self.caught_pursuers = QLineEdit("2D6")
        self.caught_pursuers.setPlaceholderText("one dice per pursuer: 2D6 3D6")
        self.caught_ties_escape = QCheckBox("A tie lets the fleeing unit escape")
        form.addRow("Flee dice:", self.caught_flee)
        form.addRow("Pursuers' dice:", self.caught_pursuers)
        form.addRow(self.caught_ties_escape)
        self.caught_caught, self.caught_escapes, self.caught_note = self._answers(form, "")
        self.caught_flee.textChanged.connect(self._update_caught)
        self.caught_pursuers.textChanged.connect(self._update_caught)
        self.caught_ties_escape.toggled.connect(self._update_caught)
        return page

    def _update_caught(self) -> None:
        field = "Flee dice"
        try:
            flee = Dice.parse(self.caught_flee.text().strip())
            field = "Pursuers' dice"
            words = [w for w in re.split(r"[\s,;]+", self.caught_pursuers.text()) if w]
            odds.check_pursuers(len(words))  # counted before a pasted page is parsed
            pursuers = [Dice.parse(word) for word in words]
        except RuleError as error:
            # One message in place of the answers; the fields keep what was typed.
            self.caught_caught.setText("")
            self.caught_escapes.setText("")
            self.caught_note.setText(f"{field}: {error}")
            return
        chance = odds.caught(flee, pursuers, ties_caught=not self.caught_ties_escape.isChecked())
        self.caught_caught.setText(f"Caught: {chance_text(chance)}")
        self.caught_escapes.setText(f"Escapes: {chance_text(1 - chance)}")
        tie = "beats" if self.caught_ties_escape.isChecked() else "equals or beats"
        self.caught_note.setText(f"Caught when the highest pursuit roll {tie} the flee roll "
                                 "[W6-PU-1]")

    def _honor_page(self) -> QWidget:
        page, form = self._page()
        self.honor_value = _stat_spin("Honor", "kensei1", "Honor", 5)
        self.honor_ronin = QCheckBox("Ronin: re-roll a failed roll against Running Away")
        self.honor_below = QCheckBox("Pass only below Honor (ruleset option)")
        form.addRow("Honor:", self.honor_value)
        form.addRow(self.honor_ronin)
        form.addRow(self.honor_below)
        self.honor_runs, self.honor_holds, self.honor_note = self._answers(form, "")
        self.honor_value.valueChanged.connect(self._update_honor)
        self.honor_ronin.toggled.connect(self._update_honor)
        self.honor_below.toggled.connect(self._update_honor)
        return page

    def _update_honor(self) -> None:
        honor = self.honor_value.value()
        below = self.honor_below.isChecked()
        fails = odds.attribute_test_fails(honor - 1 if below else honor, Dice.parse("1D10"),
                                          rerolls=1 if self.honor_ronin.isChecked() else 0)
        self.honor_runs.setText(f"Runs away: {chance_text(fails)}")
        self.honor_holds.setText(f"Holds: {chance_text(1 - fails)}")
        self.honor_note.setText(f"1D10; {'below Honor' if below else 'Honor or less'} passes "
                                "[K-HT-1]")
