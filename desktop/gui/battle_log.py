"""The Battle log dock: the story of the battle on the table, in plain words.

Opening a battle replaces what the log shows with that battle's story (its steps narrated
by the engine, `ReplayHistory.story`); each later step, undo and redo, and the window's
own messages follow it. New lines are followed to the bottom unless the player has
scrolled back to read; a click on a line names the units it concerns.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QPlainTextEdit

# How near the bottom (pixels of the scroll bar) still counts as reading the newest line.
FOLLOW_SLACK = 2


class BattleLog(QObject):
    """Writes the log view; `unitsChosen` names the units of a line the player clicked."""

    unitsChosen = Signal(list)

    def __init__(self, view: QPlainTextEdit, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self._units: dict[int, list[str]] = {}  # line (block) number -> the units it names
        view.cursorPositionChanged.connect(self._clicked)

    def following(self) -> bool:
        """Whether the newest line is in sight (the player has not scrolled back)."""
        bar = self.view.verticalScrollBar()
        return bar.value() >= bar.maximum() - FOLLOW_SLACK

    def write(self, text: str, units: Sequence[str] = ()) -> None:
        """A new line at the end; in sight if the end was, else the view stays put."""
        bar = self.view.verticalScrollBar()
        follow, kept = self.following(), bar.value()
        self.view.appendPlainText(text)
        if units:
            self._units[self.view.blockCount() - 1] = list(units)
        bar.setValue(bar.maximum() if follow else kept)

    def show_story(self, title: str, story: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Only this battle from now on: its title, then a line per event so far."""
        lines = [f"Battle: {title}", *(text for text, _ in story)]
        self.view.setPlainText("\n".join(lines))
        self._units = {number: list(units)
                       for number, (_, units) in enumerate(story, start=1) if units}
        bar = self.view.verticalScrollBar()
        bar.setValue(bar.maximum())

    def clear(self) -> None:
        """No battle on the table (another database, the battle deleted): nothing to tell."""
        self.view.clear()
        self._units = {}

    def units_of_line(self, line: int) -> list[str]:
        return list(self._units.get(line, ()))

    def _clicked(self) -> None:
        units = self._units.get(self.view.textCursor().blockNumber())
        if units:
            self.unitsChosen.emit(list(units))
