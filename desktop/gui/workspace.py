"""The armies the window shows, kept in step with the store.

One source of truth for the roster panes (STYLE, pitfalls): undo commands call `put_army`
or `remove_army`, which write through the store first and then announce the change; the
Qt models only listen. Nothing here decides a rule: prices and warnings come from
`desktop.engine.roster`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from desktop.engine.composition import Library, army_problems
from desktop.engine.model import Army, ArmyList, LibraryEntry, Unit
from desktop.engine.roster import RosterProblem
from desktop.store.errors import ConflictError
from desktop.store.store import Store

SHOWN_AGAIN = " — Rout now shows the army as it is stored: redo your edit there"


class BookEdits(Protocol):
    """Edits of the units of an army built from an army book: they go to its roster
    (desktop.gui.army_books.ArmyBooks), not straight to the unit."""

    def edit_unit(self, army: Army, unit: Unit, key: str, value: Any) -> bool: ...


class Workspace(QObject):
    """Armies by id, the unit libraries by ruleset, and the store they live in."""

    army_added = Signal(str)
    army_changed = Signal(str, object)  # id, the army before the change
    army_removed = Signal(str, object)  # id, the army that was removed
    reset = Signal()
    failed = Signal(str)  # an edit the store refused, for the window to show
    # An edit refused because someone else changed the army since: the window reads it again
    # (desktop.gui.database_watch), so that the edit can be redone on what is stored now.
    stale = Signal(str)
    touched = Signal(str)  # an undo command just changed this army (shown or not)

    def __init__(self, store: Store, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self._armies: dict[str, Army] = {}
        self._libraries: dict[str, Library] = {}
        # Set by the window's army books: the roster table's edits of their units go there.
        self.book_edits: BookEdits | None = None

    def adopt(self, armies: dict[str, Army], libraries: dict[str, Library]) -> None:
        """Take armies and libraries a worker thread read from the store."""
        self._armies = dict(armies)
        self._libraries = dict(libraries)
        self.reset.emit()

    # Reading

    def armies(self) -> list[Army]:
        return list(self._armies.values())

    def army(self, army_id: str) -> Army | None:
        return self._armies.get(army_id)

    @property
    def read_only(self) -> bool:
        """The database may only be read: the panes offer no edits (the store would refuse)."""
        return self.store.read_only

    def read_only_note(self) -> tuple[str, str]:
        """The status bar's words and tool tip on a database that may only be read."""
        store = self.store
        if not store.read_only:
            return "", ""
        copy = (" It is from an older Rout: what you see is a private copy brought up to "
                "date; the file itself is left as it is." if store.shown_from_copy else "")
        return (f"Read-only: {store.read_only_reason}",
                f"{store.describe()} can only be read ({store.read_only_reason}), so editing "
                f"is off. Copy it to a folder you may write to change it.{copy}")

    def library(self, ruleset: str) -> tuple[LibraryEntry, ...]:
        return self.full_library(ruleset).entries

    def full_library(self, ruleset: str) -> Library:
        """The library with its army lists and composition, not only its entries."""
        return self._libraries.get(ruleset) or Library(ruleset)

    def army_lists(self) -> dict[str, tuple[ArmyList, ...]]:
        """Each ruleset's army lists, for the New Army and Army Settings dialogs."""
        return {ruleset: library.army_lists for ruleset, library in self._libraries.items()}

    def problems(self, army: Army) -> list[RosterProblem]:
        """Roster and composition warnings (desktop.engine.composition.army_problems)."""
        return army_problems(army, self.full_library(army.ruleset))

    # Changing: the store first, so a failed write changes nothing on screen either.

    def put_army(self, army: Army) -> Army:
        """Save a new or changed army; returns it as saved (a new army gets its id).

        The save starts from the version this window shows, whichever copy of the army an
        undo step holds: only someone else's save since then makes the store refuse it.
        """
        before = self._armies.get(army.id) if army.id else None
        try:
            saved = self.store.save_army(replace(army, version=before.version if before else 0))
        except ConflictError as error:
            self.stale.emit(army.id)
            raise ConflictError(f"{error}{SHOWN_AGAIN}") from None
        self._armies[saved.id] = saved
        if before is None:
            self.army_added.emit(saved.id)
        else:
            self.army_changed.emit(saved.id, before)
        return saved

    def remove_army(self, army_id: str) -> None:
        removed = self._armies.get(army_id)
        if removed is None:
            return
        try:
            self.store.delete_army(army_id, version=removed.version)
        except ConflictError as error:
            self.stale.emit(army_id)
            raise ConflictError(f"{error}{SHOWN_AGAIN}") from None
        del self._armies[army_id]
        self.army_removed.emit(army_id, removed)

    # What another program changed: already in the store, so shown and not written again
    # (desktop.gui.database_watch).

    def show_stored(self, army: Army) -> None:
        before = self._armies.get(army.id)
        self._armies[army.id] = army
        if before is None:
            self.army_added.emit(army.id)
        else:
            self.army_changed.emit(army.id, before)

    def forget(self, army_id: str) -> None:
        removed = self._armies.pop(army_id, None)
        if removed is not None:
            self.army_removed.emit(army_id, removed)
