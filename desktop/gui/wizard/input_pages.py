"""The wizard's first page: what the players enter before the engine asks anything.

Combat procedures (W6 combat_aftermath, BP breaks_pursues) get one box per combat with
each side's units; every other procedure gets one field per key its ProcedureKind lists.
Both pages hold `forecast_area`, an empty widget the main window fills with a forecast.

The combats come first: their box asks for the height every unit's row needs (as far as
the screen allows), and the forecast takes what is left. Under each combat the engine's
score in the log's words (ranks and outnumbering worked out from the table) and what the
table told the ticks (desktop.engine.combat.side_facts).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from desktop.engine.combat import side_facts
from desktop.engine.errors import RuleError
from desktop.engine.model import Battle
from desktop.engine.narrate import scores
from desktop.gui.fields import ComboBox, SpinBox

if TYPE_CHECKING:
    from desktop.gui.wizard.wizard import ResolutionWizard

SIDE_FLAGS = (("flank", "Flank"), ("rear", "Rear"), ("high_ground", "High ground"),
              ("battle_standard", "Battle standard"))
UNIT_FIELDS = ("unit", "charger", "target")
MAX_COUNT = 1000
# What the wizard around a page takes of the screen's height (frame, title, buttons) and
# the least the forecast keeps: the combats may ask for the rest.
WIZARD_CHROME = 230
FORECAST_LEAST = 60


class InputsScroll(QScrollArea):
    """The combats' box: it asks for the height its contents need at its width, and will not
    give it up to the forecast, so no unit row sits behind a scroll bar; it scrolls only when
    the screen has no room for them (many combats)."""

    def setWidget(self, widget: QWidget) -> None:  # Qt override: follow its layout
        super().setWidget(widget)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        # A score or a note that wraps onto another line asks for another height.
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
        return super().eventFilter(watched, event)

    def _needed(self) -> int:
        widget = self.widget()
        if widget is None:
            return 0
        # The width it has with no scroll bar: the one it asks for room to keep.
        bar = self.verticalScrollBar()
        width = self.viewport().width() + (bar.width() if bar.isVisible() else 0)
        height = widget.heightForWidth(width) if widget.hasHeightForWidth() and width > 0 \
            else -1
        if height < 0:
            height = widget.sizeHint().height()
        if widget.minimumSizeHint().width() > width > 0:
            height += self.horizontalScrollBar().sizeHint().height()
        return height + 2 * self.frameWidth()

    def _room(self) -> int:
        screen = self.screen()
        tall = screen.availableGeometry().height() if screen is not None else 768
        return max(tall - WIZARD_CHROME - FORECAST_LEAST, 120)

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(super().sizeHint().width(), min(self._needed(), self._room()))

    def minimumSizeHint(self) -> QSize:  # Qt override: the forecast gives way first
        return QSize(super().minimumSizeHint().width(), min(self._needed(), self._room()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # wrapped lines need another height at another width


class InputPage(QWizardPage):
    """Base of the first pages: `mapping()` is the procedure's "resolve" input."""

    def __init__(self, wizard: ResolutionWizard) -> None:
        super().__init__(wizard)
        self.resolution_wizard = wizard
        self.battle = wizard.battle
        self.forecast_area = QWidget(self)
        self.forecast_area.setObjectName("forecastArea")
        forecast_layout = QVBoxLayout(self.forecast_area)
        forecast_layout.setContentsMargins(0, 0, 0, 0)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("inputError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b00020")
        self.error_label.hide()  # no room taken until there is something to say

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))

    def mapping(self) -> dict[str, Any]:
        raise NotImplementedError

    def validatePage(self) -> bool:  # Qt override: the engine reads the input or refuses it
        try:
            self.resolution_wizard.start(self.mapping())
        except RuleError as error:
            self.show_error(str(error))
            return False
        self.show_error("")
        return True

    def nextId(self) -> int:  # Qt override
        return self.resolution_wizard.id_after_input()


class CombatPage(InputPage):
    """Units per side with wounds caused, casualties, charged; the side bonuses; and the
    score the engine gives, live."""

    def __init__(self, wizard: ResolutionWizard, prepared: Mapping[str, Any]) -> None:
        super().__init__(wizard)
        self.setTitle("Combat results")
        self.setSubTitle("Enter what each unit did in the round of combat. The engine scores "
                         "each number as you move on from it.")
        self._data = copy.deepcopy(dict(prepared))
        self._data.setdefault("combats", [])
        self.score_labels: list[QLabel] = []
        self.facts_labels: list[QLabel] = []
        holder = QWidget()
        column = QVBoxLayout(holder)
        column.setContentsMargins(0, 0, 0, 0)
        for index, combat in enumerate(self._data["combats"]):
            column.addWidget(self._combat_box(index, combat))
        column.addStretch(1)
        scroll = self.inputs = InputsScroll(self)
        scroll.setObjectName("combatInputs")
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.addWidget(scroll)
        layout.addWidget(self.error_label)
        layout.addWidget(self.forecast_area, 1)
        self._refresh_scores()

    def _combat_box(self, index: int, combat: dict[str, Any]) -> QGroupBox:
        title = str(combat.get("id", f"combat {index + 1}")).replace("&", "&&")
        box = QGroupBox(title, self)
        layout = QVBoxLayout(box)
        sides = QVBoxLayout()  # one above the other: two sides side by side overflow
        for side in combat.get("sides", []):
            sides.addWidget(self._side_box(side))
        layout.addLayout(sides)
        score = QLabel(box)
        score.setObjectName(f"combatScore{index}")
        score.setTextFormat(Qt.TextFormat.PlainText)
        score.setWordWrap(True)
        self.score_labels.append(score)
        layout.addWidget(score)
        facts = QLabel(box)
        facts.setObjectName(f"combatFacts{index}")
        facts.setTextFormat(Qt.TextFormat.PlainText)
        facts.setWordWrap(True)
        facts.setStyleSheet("color: #505050")
        facts.setText(self._facts_text(combat, ""))
        self.facts_labels.append(facts)
        layout.addWidget(facts)
        return box

    def _facts_text(self, combat: dict[str, Any], clause: str) -> str:
        """What the table says of this combat, so the players see where the ticks came from
        and that ranks and outnumbering need nothing from them."""
        sides = [[entry["unit"] for entry in side.get("units", [])
                  if entry.get("unit") in self.battle.states]
                 for side in combat.get("sides", [])]
        notes: list[str] = []
        if len(sides) == 2 and all(sides):
            for units, enemies in ((sides[0], sides[1]), (sides[1], sides[0])):
                notes += side_facts(self.battle, units, enemies).notes(self.battle)
        told = f"From the table: {'; '.join(notes)}. " if notes else ""
        # The clause is the engine's (its score event's): W6-CR-1, or BP-B in Breaks or Pursues.
        cited = f" ({clause})" if clause else ""
        return f"{told}Ranks, standards and outnumbering are counted from the table{cited}."

    def _side_box(self, side: dict[str, Any]) -> QGroupBox:
        units = side.setdefault("units", [])
        player = self.battle.player_of(units[0]["unit"]) if units else "?"
        box = QGroupBox(player.replace("&", "&&"), self)  # "Orcs & Goblins", no mnemonic
        grid = QGridLayout(box)
        for column, heading in enumerate(("Unit", "Wounds caused", "Casualties", "Charged")):
            grid.addWidget(QLabel(f"<b>{heading}</b>"), 0, column)
        for row, entry in enumerate(units, start=1):
            uid = entry["unit"]
            grid.addWidget(QLabel(self.battle.roster[uid].name), row, 0)
            wounds = self._spin(entry, "wounds_caused", 0, 999)
            wounds.setObjectName(f"wounds:{uid}")
            casualties = self._spin(entry, "casualties", 0, self.battle.states[uid].models)
            casualties.setObjectName(f"casualties:{uid}")
            charged = self._check(entry, "charged", "")
            charged.setObjectName(f"charged:{uid}")
            grid.addWidget(wounds, row, 1)
            grid.addWidget(casualties, row, 2)
            grid.addWidget(charged, row, 3)
        flags = QHBoxLayout()
        for key, label in SIDE_FLAGS:
            check = self._check(side, key, label)
            check.setObjectName(f"{key}:{player}")
            flags.addWidget(check)
        flags.addWidget(QLabel("Other"))
        flags.addWidget(self._spin(side, "other", -10, 10))
        flags.addStretch(1)
        grid.addLayout(flags, len(units) + 1, 0, 1, 4)
        return box

    def _spin(self, node: dict[str, Any], key: str, low: int, high: int) -> QSpinBox:
        spin = SpinBox(self, key.replace("_", " ").capitalize())
        spin.refused.connect(self.show_error)
        spin.setRange(low, high)
        spin.setValue(int(node.get(key, 0)))
        node[key] = spin.value()

        def changed(value: int) -> None:
            node[key] = value
            self._refresh_scores()

        spin.valueChanged.connect(changed)
        return spin

    def _check(self, node: dict[str, Any], key: str, label: str) -> QCheckBox:
        check = QCheckBox(label, self)
        check.setChecked(bool(node.get(key, False)))
        node[key] = check.isChecked()

        def toggled(on: bool) -> None:
            node[key] = on
            self._refresh_scores()

        check.toggled.connect(toggled)
        return check

    def mapping(self) -> dict[str, Any]:
        return copy.deepcopy(self._data)

    def _refresh_scores(self) -> None:
        """Scores as the engine works them out (after casualties come off, so ranks count
        as they will)."""
        self.resolution_wizard.inputChanged.emit(self.mapping())
        try:
            results = self.resolution_wizard.combat_results(self._data)
        except RuleError as error:
            self.show_error(str(error))
            for label in self.score_labels:
                label.clear()
            return
        self.show_error("")
        for facts, combat, result in zip(self.facts_labels, self._data["combats"], results,
                                         strict=False):
            facts.setText(self._facts_text(combat, result.clause))
        for label, result in zip(self.score_labels, results, strict=False):
            # The log's own sentence: every bonus the engine counted, by name.
            label.setText(scores(result))


class FieldsPage(InputPage):
    """One field per input the procedure reads: units, a player, numbers."""

    def __init__(self, wizard: ResolutionWizard, prepared: Mapping[str, Any]) -> None:
        super().__init__(wizard)
        kind = wizard.kind
        self.setTitle(kind.description)
        self.setSubTitle("Check what the resolution starts from, then Next.")
        self.widgets: dict[str, QComboBox | QSpinBox] = {}
        form = QFormLayout()
        for name in kind.fields:
            widget = self._field(name, prepared.get(name), wizard.battle)
            widget.setObjectName(f"field:{name}")
            if isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(
                    lambda *_: wizard.inputChanged.emit(self.mapping()))
            else:
                widget.valueChanged.connect(lambda *_: wizard.inputChanged.emit(self.mapping()))
            self.widgets[name] = widget
            form.addRow(name.replace("_", " ").capitalize(), widget)
            hint = kind.hints.get(name)
            if hint:
                widget.setToolTip(hint)
                note = QLabel(hint, self)
                note.setObjectName(f"hint:{name}")
                note.setWordWrap(True)
                note.setStyleSheet("color: #5a6470")
                form.addRow("", note)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(self.forecast_area, 1)  # the rest of the page, as on CombatPage

    def _field(self, name: str, value: Any, battle: Battle) -> QComboBox | QSpinBox:
        if name in UNIT_FIELDS or name == "player":
            combo = ComboBox(self)
            if name == "player":
                for player in dict.fromkeys(u.player for u in battle.roster.values()):
                    combo.addItem(player, player)
            else:
                for uid in battle.on_table():
                    unit = battle.roster[uid]
                    combo.addItem(f"{unit.name} ({unit.player})", uid)
            found = combo.findData(value)
            combo.setCurrentIndex(max(found, 0))
            return combo
        spin = SpinBox(self, name.replace("_", " ").capitalize())
        spin.refused.connect(self.show_error)
        spin.setRange(0, MAX_COUNT)
        spin.setValue(int(value) if isinstance(value, int) else 0)
        return spin

    def mapping(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for name, widget in self.widgets.items():
            data[name] = widget.currentData() if isinstance(widget, QComboBox) else widget.value()
        return data
