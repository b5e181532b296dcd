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


def _past_limits(field: NumberField, number: float | None) -> bool:
    return number is not None and not field.minimum() <= number <= field.maximum()


def _validated(field: NumberField, result: object) -> tuple[State, str, int]:
    """Qt's verdict on a text, except that a number past the limits is shown as typed (so
    the player sees what will be refused) and a text no number can become is said."""
    state, text, position = _state(result)
    if state == State.Invalid:
        if _past_limits(field, field.typed_number(text)):
            return State.Intermediate, text, position
        kind = "a number" if isinstance(field, QDoubleSpinBox) and field.decimals() else \
            "a whole number"
        low, high, _ = field.shown()
        _say(field, takes_message(field.name, kind, low, high, text))
    return state, text, position


def _refused(field: NumberField, text: str) -> bool:
    """Qt calls fixup for a text it cannot take as it is, whenever it interprets one (Enter,
    leaving the field, a step, an item view committing its editor): a number past the
    limits is refused there, once, and Qt then puts the value it had back
    (CorrectToPreviousValue)."""
    if not _past_limits(field, field.typed_number(text)):
        return False
    typed = text.removeprefix(field.prefix()).removesuffix(field.suffix()).strip()
    low, high, stays = field.shown()
    if field.specialValueText() and field.value() == field.minimum():
        stays = field.specialValueText()
    _say(field, refusal_message(field.name, low, high, typed, stays))
    return True


def _settle(field: NumberField) -> bool:
    """Take the number typed, or refuse it when it is past the limits (the value stays,
    `refused` says why); False when refused."""
    refused = _past_limits(field, field.typed_number(field.text()))
    field.interpretText()
    return not refused


def _kept_enter(field: NumberField, event: QKeyEvent) -> bool:
    """True when Enter refused the number: the key is kept, not passed on, so that it does
    not also press the dialog's OK button with the old value, out of sight of the message."""
    if event.key() in COMMIT_KEYS and not _settle(field):
        field.selectAll()
        event.accept()
        return True
    return False


def _say(field: NumberField, message: str) -> None:
    _tell(field, message)
    field.refused.emit(message)


def _stripped(field: NumberField, text: str) -> str:
    number = text.removeprefix(field.prefix()).removesuffix(field.suffix()).strip()
    return number.replace(field.locale().groupSeparator(), "")


class SpinBox(QSpinBox):
    """A whole-number field (see the module's docstring). `what` names it in messages."""

    refused = Signal(str)  # what was refused and why, for the page or the status bar

    def __init__(self, parent: QWidget | None = None, what: str = "") -> None:
        super().__init__(parent)
        self.what = what
        self.setKeyboardTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # not WheelFocus: see wheelEvent

    @property
    def name(self) -> str:
        return field_name(self, self.what)

    def shown(self) -> tuple[str, str, str]:
        """The limits and the value as the field shows them."""
        return (self.textFromValue(self.minimum()), self.textFromValue(self.maximum()),
                self.textFromValue(self.value()))

    def typed_number(self, text: str) -> int | None:
        """The whole number `text` holds, within limits or not; None for anything else."""
        number = _stripped(self, text)
        return int(number) if re.fullmatch(r"[+-]?\d+", number) else None

    def validate(self, text: str, position: int) -> tuple[State, str, int]:  # Qt override
        return _validated(self, super().validate(text, position))

    def fixup(self, text: str) -> str:  # Qt override
        return text if _refused(self, text) else super().fixup(text)

    def settle(self) -> bool:
        return _settle(self)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if not _kept_enter(self, event):
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

    @property
    def name(self) -> str:
        return field_name(self, self.what)

    def shown(self) -> tuple[str, str, str]:
        return (self.textFromValue(self.minimum()), self.textFromValue(self.maximum()),
                self.textFromValue(self.value()))

    def typed_number(self, text: str) -> float | None:
        number = _stripped(self, text)
        point = re.escape(self.locale().decimalPoint())
        if not re.fullmatch(rf"[+-]?(\d+({point}\d*)?|{point}\d+)", number):
            return None
        return float(number.replace(self.locale().decimalPoint(), "."))

    def validate(self, text: str, position: int) -> tuple[State, str, int]:  # Qt override
        return _validated(self, super().validate(text, position))

    def fixup(self, text: str) -> str:  # Qt override
        return text if _refused(self, text) else super().fixup(text)

    def settle(self) -> bool:
        return _settle(self)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        if not _kept_enter(self, event):
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
