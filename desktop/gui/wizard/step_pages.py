"""Pages for the engine's requests: one class per kind of request, and the last page.

A page for step k shows whatever request the engine makes at step k given the answers
before it; after Back and a changed answer it is rebuilt from the new request. A roll's
sentence, chart and result line are all worded by its threshold (Threshold.rule, ranges,
verdict), as the battle log is, so they give the same numbers; a unit's name takes the verb
desktop.engine.wording gives it. Certain rolls passed without a page are said on the next.
"""

from __future__ import annotations

import logging
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QDoubleValidator, QValidator
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from desktop.engine.errors import RuleError
from desktop.engine.narrate import sentences
from desktop.engine.odds import percent
from desktop.engine.procedure import ANY_ANGLE, Answer, Choice, Outcome, Roll, summed
from desktop.engine.wording import agree, plural, said
from desktop.gui.features import odds_chart

if TYPE_CHECKING:
    from desktop.gui.wizard.wizard import ResolutionWizard

log = logging.getLogger(__name__)


def odds_text(outcomes: tuple[Outcome, ...], colours: dict[str, str] | None = None,
              many: bool = False) -> str:
    """"breaks 58.3% · holds 41.7%" as rich text, each outcome with its chart colour, in
    words that agree with a unit of `many` models ("break", "hold")."""
    parts = []
    for outcome in outcomes:
        swatch = ""
        if colours and outcome.label in colours:
            swatch = f"<span style='color:{colours[outcome.label]}'>&#9632;</span> "
        parts.append(f"{swatch}{escape(agree(outcome.label, many))} "
                     f"<b>{percent(outcome.chance)}</b>")
    return " &nbsp;·&nbsp; ".join(parts)


class StepPage(QWizardPage):
    """The page of the request at `step` (0 = the first thing the engine asks)."""

    def __init__(self, wizard: ResolutionWizard, step: int) -> None:
        super().__init__(wizard)
        self.resolution_wizard = wizard
        self.step = step
        self.error_label = QLabel(self)
        self.error_label.setObjectName("stepError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020")
        self.why_label = QLabel(self)
        self.why_label.setObjectName("why")
        self.why_label.setWordWrap(True)
        self.why_label.setTextFormat(Qt.TextFormat.RichText)
        self.odds_label = QLabel(self)
        self.odds_label.setObjectName("odds")
        self.odds_label.setTextFormat(Qt.TextFormat.RichText)
        self.odds_label.setWordWrap(True)
        self.passed_label = QLabel(self)
        self.passed_label.setObjectName("passed")
        self.passed_label.setWordWrap(True)
        self.passed_label.setTextFormat(Qt.TextFormat.RichText)
        self.passed_label.setStyleSheet("color: #2f6b33")

    def show_passed(self) -> None:
        """The certain rolls answered without a page just before this one."""
        lines = self.resolution_wizard.passed_lines(self.step)
        self.passed_label.setText("<br>".join(f"&#10003; {escape(line)}" for line in lines))
        self.passed_label.setVisible(bool(lines))

    def name(self, unit_id: str) -> str:
        battle = self.resolution_wizard.battle
        return battle.roster[unit_id].name if unit_id in battle.roster else unit_id

    def current_answer(self) -> object:
        raise NotImplementedError

    def validatePage(self) -> bool:  # Qt override: the engine checks the answer
        try:
            self.resolution_wizard.give(self.step, self.current_answer())
        except RuleError as error:
            self.error_label.setText(str(error))
            return False
        self.error_label.clear()
        return True

    def nextId(self) -> int:  # Qt override: what the engine asks next decides the page
        return self.resolution_wizard.id_after(self.step)

    def first_field(self) -> QWidget | None:
        """Where the keyboard starts on this page."""
        return None

    def _why(self, why: str, clause: str) -> str:
        return f"{escape(why)}<br><span style='color:#606060'>Rule {escape(clause)}</span>"


class FaceValidator(QValidator):
    """Only what can be a face of the die: QIntValidator lets "7" through on a d6 as
    Intermediate, and a refused key is what tells the player at once."""

    def __init__(self, sides: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.faces = [str(face) for face in range(1, sides + 1)]

    def validate(self, text: str, pos: int) -> object:  # Qt override
        if text in self.faces:
            return QValidator.State.Acceptable, text, pos
        if not text or any(face.startswith(text) for face in self.faces):
            return QValidator.State.Intermediate, text, pos
        return QValidator.State.Invalid, text, pos


class DieField(QLineEdit):
    """One die: accepts only 1..sides; a face that cannot take another digit moves on."""

    def __init__(self, sides: int, parent: QWidget) -> None:
        super().__init__(parent)
        self.sides = sides
        self.setValidator(FaceValidator(sides, self))
        self.setMaxLength(len(str(sides)))
        self.setFixedWidth(44)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def face(self) -> int | None:
        return int(self.text()) if self.hasAcceptableInput() else None

    def finished(self) -> bool:
        """No digit could follow: "4" on a d6, "10" or "3" on a d10 (but not "1")."""
        face = self.face()
        return face is not None and face * 10 > self.sides


class RollPage(StepPage):
    """Who rolls what and why, the chance of every total, one field per die, Roll."""

    def __init__(self, wizard: ResolutionWizard, step: int) -> None:
        super().__init__(wizard, step)

        self.roll: Roll | None = None
        self.chart: odds_chart.OddsChart = odds_chart.OddsChart(self)
        self.dice_row = QHBoxLayout()
        self.dice_row.setSpacing(6)
        self.fields: list[DieField] = []
        self.roll_button = QPushButton("&Roll", self)
        self.roll_button.setObjectName("rollButton")
        self.roll_button.setAutoDefault(False)  # Enter always means Next
        self.roll_button.clicked.connect(self.roll_dice)
        self.result_label = QLabel(self)
        self.result_label.setObjectName("result")
        self.result_label.setTextFormat(Qt.TextFormat.RichText)
        self.seed_label = QLabel(self)
        self.seed_label.setObjectName("seed")
        self.seed_label.setStyleSheet("color: #606060")
        row = QHBoxLayout()
        row.addWidget(QLabel("Dice rolled:", self))
        row.addLayout(self.dice_row)
        row.addStretch(1)
        # At the row's end: where a click finds it whatever the number of dice (after the
        # dice it moved right with 3D6, and a click there landed in the third die).
        row.addWidget(self.roll_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.passed_label)
        layout.addWidget(self.why_label)
        layout.addWidget(self.chart, 1)
        layout.addWidget(self.odds_label)
        layout.addLayout(row)
        layout.addWidget(self.result_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.seed_label)

    def initializePage(self) -> None:  # Qt override
        request = self.resolution_wizard.request_at(self.step)
        assert isinstance(request, Roll)
        self.roll = request
        self.setTitle(f"{self.name(request.unit)}: {request.purpose}")
        dice = (request.threshold.dice_text(request.dice) if request.threshold is not None
                else str(request.dice))
        self.setSubTitle(f"{request.player} roll {dice}.")
        self.show_passed()
        self.why_label.setText(self._why(request.why, request.clause))
        many = plural(self.resolution_wizard.battle, request.unit)
        self.chart.show_roll(request, many=many)

        colours = {label: colour.name()
                   for label, colour in odds_chart.outcome_colours(request).items()}
        self.odds_label.setText(odds_text(request.odds, colours, many))
        self._make_fields(request)
        given = self.resolution_wizard.answer_at(self.step)
        if isinstance(given, tuple | list) and len(given) == len(self.fields):
            for field, face in zip(self.fields, given, strict=True):
                field.setText(str(face))
        self.error_label.clear()
        self.seed_label.clear()
        self._dice_changed()

    def _make_fields(self, request: Roll) -> None:
        sides, count = request.dice.sides, request.dice.count
        if len(self.fields) == count and all(f.sides == sides for f in self.fields):
            for field in self.fields:
                field.clear()
            return
        for field in self.fields:
            self.dice_row.removeWidget(field)
            field.deleteLater()
        self.fields = []
        for index in range(count):
            field = DieField(sides, self)
            field.setObjectName(f"die{index}")
            field.setAccessibleName(f"die {index + 1} of {count}")
            field.textEdited.connect(lambda _text, i=index: self._typed(i))
            field.textChanged.connect(self._dice_changed)
            field.inputRejected.connect(lambda f=field: self._refused(f))
            self.dice_row.addWidget(field)
            self.fields.append(field)
        # Tab walks the dice in order, then the Roll button.
        for first, second in zip(self.fields, [*self.fields[1:], self.roll_button], strict=True):
            QWidget.setTabOrder(first, second)

    def _typed(self, index: int) -> None:
        field = self.fields[index]
        if field.finished() and index + 1 < len(self.fields):
            self.fields[index + 1].setFocus()
            self.fields[index + 1].selectAll()

    def _refused(self, field: DieField) -> None:
        self.error_label.setText(f"A d{field.sides} shows 1 to {field.sides}.")

    def faces(self) -> tuple[int, ...] | None:
        faces = [field.face() for field in self.fields]
        return None if any(face is None for face in faces) else tuple(f for f in faces if f)

    def isComplete(self) -> bool:  # Qt override: Next only with every die filled in
        return self.faces() is not None

    def _dice_changed(self) -> None:
        faces = self.faces()
        request = self.roll
        if faces is None or request is None:
            self.result_label.clear()
            if request is not None:
                self.chart.show_roll(request, many=self.chart.many)
        else:
            self.error_label.clear()
            self.result_label.setText(self.result_text(request, faces))
        # The table shows what these dice do as soon as they are in, not after Next.
        self.resolution_wizard.try_answer(self.step, faces)
        self.completeChanged.emit()

    def result_text(self, request: Roll, faces: tuple[int, ...]) -> str:
        """"<b>4 + 4 + 3 = 11</b>, above Ld 8: <b>Elf Archers break</b>" (rich text)."""
        total = request.dice.total(faces)
        self.chart.show_roll(request, total, self.chart.many)
        meaning = next((band.outcome for band in request.bands
                        if band.low <= total <= band.high), "")
        threshold = request.threshold
        if threshold is not None:
            sum_text, _, _ = threshold.judged(faces, request.dice.modifier)
            passed = (meaning == threshold.passes if meaning in (threshold.passes,
                                                                 threshold.fails) else None)
            verdict = threshold.verdict(faces, request.dice.modifier, passed=passed)
            text = f"<b>{escape(sum_text)}</b>{escape(verdict.removeprefix(sum_text))}"
        else:
            text = f"<b>{escape(summed(faces, request.dice.modifier))}</b>"
        if meaning:
            battle = self.resolution_wizard.battle
            text += f": <b>{escape(said(battle, request.unit, meaning))}</b>"
        return text

    def roll_dice(self) -> None:
        """Rout rolls for the player with the wizard's seeded roller."""
        assert self.roll is not None
        wizard = self.resolution_wizard
        faces = wizard.roller.roll(self.roll.dice, f"{self.roll.purpose} for {self.roll.unit}")
        log.info("Rolled %s for %s (%s): %s with seed %s", self.roll.dice, self.roll.unit,
                 self.roll.purpose, faces, wizard.seed)
        for field, face in zip(self.fields, faces, strict=True):
            field.setText(str(face))
        self.seed_label.setText(f"Rolled by Rout (seed {wizard.seed}).")
        self.fields[-1].setFocus()

    def current_answer(self) -> object:
        return self.faces()

    def first_field(self) -> QWidget | None:
        return self.fields[0] if self.fields else None


class ChoicePage(StepPage):
    """One radio button per option (the default chosen), a free angle where allowed."""

    def __init__(self, wizard: ResolutionWizard, step: int) -> None:
        super().__init__(wizard, step)
        self.choice: Choice | None = None
        self.group = QButtonGroup(self)
        self.options_box = QVBoxLayout()
        self.buttons: list[QRadioButton] = []
        self.angle_button = QRadioButton("Another facing (degrees):", self)
        self.angle_button.setObjectName("angleOption")
        self.angle_field = QLineEdit(self)
        self.angle_field.setObjectName("angle")
        self.angle_field.setValidator(QDoubleValidator(-360.0, 360.0, 1, self))
        self.angle_field.setFixedWidth(80)
        self.angle_field.textEdited.connect(lambda _text: self.angle_button.setChecked(True))
        self.group.addButton(self.angle_button)
        angle_row = QHBoxLayout()
        angle_row.addWidget(self.angle_button)
        angle_row.addWidget(self.angle_field)
        angle_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.passed_label)
        layout.addWidget(self.why_label)
        layout.addLayout(self.options_box)
        layout.addLayout(angle_row)
        layout.addWidget(self.error_label)
        layout.addStretch(1)

    def initializePage(self) -> None:  # Qt override
        request = self.resolution_wizard.request_at(self.step)
        assert isinstance(request, Choice)
        self.choice = request
        self.setTitle(f"{request.player} choose")
        self.setSubTitle(self.name(request.unit) if request.unit else "")
        self.show_passed()
        self.why_label.setText(self._why(request.why, request.clause))
        for button in self.buttons:
            self.group.removeButton(button)
            self.options_box.removeWidget(button)
            button.deleteLater()
        self.buttons = []
        given = self.resolution_wizard.answer_at(self.step)
        chosen = given if isinstance(given, str) else request.default
        for option in request.options:
            text = option.label
            if option.odds:
                text += "   (" + ", ".join(f"{o.label} {percent(o.chance)}"
                                           for o in option.odds) + ")"
            button = QRadioButton(text, self)
            button.setObjectName(f"option:{option.id}")
            button.setProperty("option_id", option.id)
            self.group.addButton(button)
            self.options_box.addWidget(button)
            self.buttons.append(button)
            button.setChecked(option.id == chosen)
        free = request.free == ANY_ANGLE
        self.angle_button.setVisible(free)
        self.angle_field.setVisible(free)
        self.angle_field.clear()
        if free and not any(b.isChecked() for b in self.buttons) and isinstance(given, str):
            self.angle_field.setText(given)
            self.angle_button.setChecked(True)
        self.error_label.clear()
        battle = self.resolution_wizard.battle
        units = [request.unit] if request.unit else []
        units += [o.id for o in request.options if o.id in battle.roster]
        self.resolution_wizard.highlightUnits.emit(units)

    def cleanupPage(self) -> None:  # Qt override: Back leaves the page; nothing to show
        self.resolution_wizard.highlightUnits.emit([])

    def validatePage(self) -> bool:  # Qt override
        accepted = super().validatePage()
        if accepted:
            self.resolution_wizard.highlightUnits.emit([])
        return accepted

    def first_field(self) -> QWidget | None:
        return self.group.checkedButton() or (self.buttons[0] if self.buttons else None)

    def current_answer(self) -> object:
        checked = self.group.checkedButton()
        if checked is self.angle_button:
            return self.angle_field.text()
        return checked.property("option_id") if checked is not None else None

    def isComplete(self) -> bool:  # Qt override
        return self.group.checkedButton() is not None


class SummaryPage(QWizardPage):
    """What happened, in plain words; Finish applies it."""

    def __init__(self, wizard: ResolutionWizard) -> None:
        super().__init__(wizard)
        self.resolution_wizard = wizard
        self.setTitle("Outcome")
        self.setSubTitle("The battlefield shows where everyone ends. Finish applies it; "
                         "Back changes an answer.")
        self.setFinalPage(True)
        self.text = QLabel(self)
        self.text.setObjectName("summary")
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.passed_label = QLabel(self)
        self.passed_label.setObjectName("passed")
        self.passed_label.setWordWrap(True)
        self.passed_label.setStyleSheet("color: #2f6b33")
        layout = QVBoxLayout(self)
        layout.addWidget(self.passed_label)
        layout.addWidget(self.text, 1)

    def initializePage(self) -> None:  # Qt override
        wizard = self.resolution_wizard
        passed = wizard.passed_lines(len(wizard.answers))
        self.passed_label.setText("\n".join(f"\u2713 {line}" for line in passed))
        self.passed_label.setVisible(bool(passed))
        # The same sentences as the battle log will show once Finish applies them.
        lines, _ = sentences(wizard.start_battle, wizard.events)
        self.lines = lines
        self.text.setText("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in lines)
                          + "</ul>" if lines else "Nothing happens.")
        wizard.previewChanged.emit(wizard.start_battle, list(wizard.events))

    def nextId(self) -> int:  # Qt override
        return -1


def as_answer(value: object) -> Answer | None:
    """A saved answer (JSON lists for faces) as the engine gives it back."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, tuple | str):
        return value
    return None
