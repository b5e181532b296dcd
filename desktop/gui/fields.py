"""The app's number fields and lists, made safe to use at the table.

- A number past a field's limits is shown as typed and refused when the player presses
  Enter, steps or leaves the field: the value it had stays, and `refused` says so ("WS
  takes 1 to 10: 15 refused, it stays 4"). Qt's own spin box drops the key press instead,
  so typing 15 where 10 is the most left a silent 1.
- A key a number cannot take (a letter) is dropped, and `refused` says what the field
  takes ("Casualties takes a whole number from 0 to 12, not “3a”").
- The value changes only when the typing is done (no keyboard tracking): a half-typed
  number is never the field's value, and a refused one leaves the value as it was.
- The wheel changes a field only once the player has clicked or tabbed into it; over any
  other field the wheel scrolls the page that holds it, as over a label.

On a real screen each message is also shown as a tool tip at the field; the page, dialog or
status bar that holds a field shows `refused` too. The Designer forms in ui/ promote their
spin boxes and combo boxes to these classes (<customwidgets>).
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QValidator, QWheelEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QSpinBox,
    QToolTip,
    QWidget,
)

COMMIT_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
LONGEST_QUOTED = 12  # characters of a refused text that a message repeats
State = QValidator.State


def _quoted(text: str) -> str:
    return text if len(text) <= LONGEST_QUOTED else f"{text[:LONGEST_QUOTED]}…"


def _state(result: object) -> tuple[State, str, int]:
    """Qt's validate() answer as (state, text, position); some versions give a bare State."""
    if isinstance(result, tuple):
        return result[0], result[1], result[2]
    assert isinstance(result, State)
    return result, "", 0


def takes_message(name: str, kind: str, low: str, high: str, typed: str) -> str:
    """What a field takes, said when a key it cannot take was dropped."""
    return f"{name} takes {kind} from {low} to {high}, not “{_quoted(typed)}”"


def refusal_message(name: str, low: str, high: str, typed: str, stays: str) -> str:
    """A number past the limits, refused on Enter or on leaving the field."""
    return f"{name} takes {low} to {high}: {_quoted(typed)} refused, it stays {stays}"


def _tell(field: QWidget, message: str) -> None:
    """A tool tip at the field, where there is a screen to show it on."""
    if QGuiApplication.platformName() != "offscreen":  # its tips would be stray windows
        QToolTip.showText(field.mapToGlobal(field.rect().bottomLeft()), message, field)


def field_name(field: QWidget, given: str) -> str:
    """What the messages call the field: the name it was given, else its accessible name,
    else the text of the label that names it (its buddy), else "This field"."""
    if given:
        return given
    if field.accessibleName():
        return field.accessibleName()
    window = field.window()
    for label in window.findChildren(QLabel):
        if label.buddy() is field:
            return label.text().replace("&&", "\0").replace("&", "").replace("\0", "&") \
                .rstrip(":").strip()
    return "This field"


def _wheel(field: QWidget, event: QWheelEvent) -> bool:
    """True when the field may take this wheel turn; otherwise the event is left for the
    widgets under it (the page scrolls), as Qt passes on an event a widget ignores."""
    if field.hasFocus():
        return True
    event.ignore()
    return False


class SpinBox(QSpinBox):
    """A whole-number field (see the module's docstring). `what` names it in messages."""

    refused = Signal(str)  # what was refused and why, for the page or the status bar

    def __init__(self, parent: QWidget | None = None, what: str = "") -> None:
        super().__init__(parent)
        self.what = what
        self.setKeyboardTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus: see wheelEvent

    def typed_number(self, text: str) -> int | None:
        """The whole number `text` holds, within limits or not; None for anything else."""
        number = text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()
        number = number.replace(self.locale().groupSeparator(), "")
        return int(number) if re.fullmatch(r"[+-]?\d+", number) else None

    def validate(self, text: str, position: int) -> tuple[State, str, int]:  # Qt override
        state, text, position = _state(super().validate(text, position))
        if state == State.Invalid:
            if self._past_limits(self.typed_number(text)):
                # Shown as typed, so the player sees what will be refused.
                return State.Intermediate, text, position
            self._say(takes_message(self.name, "a whole number",
                                    self.textFromValue(self.minimum()),
                                    self.textFromValue(self.maximum()), text))
        return state, text, position

    @property
    def name(self) -> str:
        return field_name(self, self.what)

    def _past_limits(self, number: int | None) -> bool:
        return number is not None and not self.minimum() <= number <= self.maximum()

    def fixup(self, text: str) -> str:  # Qt override
        """Qt calls this for a text it cannot take as it is, whenever it interprets one (Enter,
        leaving the field, a step, an item view committing its editor): a number past the
        limits is refused here, once, and Qt then puts the value it had back
        (CorrectToPreviousValue)."""
        number = self.typed_number(text)
        if self._past_limits(number):
            stays = self.specialValueText() if (self.specialValueText()
                                                and self.value() == self.minimum()) \
                else self.textFromValue(self.value())
            self._say(refusal_message(self.name, self.textFromValue(self.minimum()),
                                      self.textFromValue(self.maximum()), str(number), stays))
            return text
        return super().fixup(text)

    def settle(self) -> bool:
        """Take the number typed, or refuse it when it is past the limits (the value stays,
        `refused` says why); False when refused."""
        refused = self._past_limits(self.typed_number(self.text()))
        self.interpretText()
        return not refused

    def _say(self, message: str) -> None:
        _tell(self, message)
        self.refused.emit(message)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() in COMMIT_KEYS and not self.settle():
            # Kept here, not passed on: Enter must not also press the dialog's OK button
            # with the old value, out of sight of the message.
            self.selectAll()
            event.accept()
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        if _wheel(self, event):
            super().wheelEvent(event)


class DoubleSpinBox(QDoubleSpinBox):
    """A field for a measure (the New Battle table), with SpinBox's behaviour."""

    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None, what: str = "") -> None:
        super().__init__(parent)
        self.what = what
        self.setKeyboardTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def typed_number(self, text: str) -> float | None:
        number = text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()
        number = number.replace(self.locale().groupSeparator(), "")
        point = re.escape(self.locale().decimalPoint())
        if not re.fullmatch(rf"[+-]?(\d+({point}\d*)?|{point}\d+)", number):
            return None
        return float(number.replace(self.locale().decimalPoint(), "."))

    def _past_limits(self, number: float | None) -> bool:
        return number is not None and not self.minimum() <= number <= self.maximum()

    def validate(self, text: str, position: int) -> tuple[State, str, int]:  # Qt override
        state, text, position = _state(super().validate(text, position))
        if state == State.Invalid:
            if self._past_limits(self.typed_number(text)):
                return State.Intermediate, text, position
            kind = "a whole number" if self.decimals() == 0 else "a number"
            self._say(takes_message(self.name, kind, self.textFromValue(self.minimum()),
                                    self.textFromValue(self.maximum()), text))
        return state, text, position

    @property
    def name(self) -> str:
        return field_name(self, self.what)

    def fixup(self, text: str) -> str:  # Qt override
        """As SpinBox.fixup."""
        if self._past_limits(self.typed_number(text)):
            typed = text.removeprefix(self.prefix()).removesuffix(self.suffix()).strip()
            self._say(refusal_message(self.name, self.textFromValue(self.minimum()),
                                      self.textFromValue(self.maximum()), typed,
                                      self.textFromValue(self.value())))
            return text
        return super().fixup(text)

    def settle(self) -> bool:
        """As SpinBox.settle."""
        refused = self._past_limits(self.typed_number(self.text()))
        self.interpretText()
        return not refused

    def _say(self, message: str) -> None:
        _tell(self, message)
        self.refused.emit(message)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if event.key() in COMMIT_KEYS and not self.settle():
            self.selectAll()
            event.accept()
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        if _wheel(self, event):
            super().wheelEvent(event)


class ComboBox(QComboBox):
    """A list that the wheel changes only once the player has clicked or tabbed into it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        if _wheel(self, event):
            super().wheelEvent(event)


NumberField = SpinBox | DoubleSpinBox
