"""File ▸ Open Database and Open Recent: the store read in a worker, one window per file.

`open_database` reads the store and everything the panes show in a worker thread (the
window has painted by then: nothing here imports the store before it runs); the window
shows what it read (MainWindow.show_database). Only the latest call counts. A SQLite file
is locked while a window has it open, since a second Rout's whole-army saves would
overwrite the first's edits. The databases that opened are remembered, without their
passwords, for the Open Recent menu and the next start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from PySide6.QtCore import QLockFile, QObject, QSettings, QTimer
from PySide6.QtWidgets import QMessageBox

from desktop.bundled import resources_dir
from desktop.gui.features import (
    codec,
    databases,
    dialogs,
    files,
    sqlalchemy_engine,
    storage,
    stored_libraries,
)
from desktop.store.errors import LockedDatabaseError
from desktop.store.location import database_url_from

if TYPE_CHECKING:  # the store imports SQLAlchemy: not before the first paint
    from desktop.engine.composition import Library
    from desktop.engine.model import Army
    from desktop.gui.main_window import MainWindow
    from desktop.store.store import Store

DATABASE_KEY: Final = "database/url"
RECENT_KEY: Final = "database/recent"
RECENT_COUNT: Final = 8


def read_database(url: str) -> tuple[storage.Store, dict[str, Army], dict[str, Library]]:
    """Open the store and read everything the panes show (runs in a worker thread).

    A ruleset whose library is empty gets the bundled one, so a first start has units to add;
    it is stored only once everything has been read, so that a file whose damage that first
    read finds is left exactly as it was. When another program keeps a SQLite file locked,
    so that the libraries cannot be stored, it opens read-only and says why (LOCKED_REASON).
    """
    store = storage.Store.open(url)
    try:
        armies, libraries = _read_panes(store)
        for ruleset, (stored, bundled) in libraries.items():
            if not stored.entries and not store.read_only:
                kept = stored_libraries.store_bundled(store, stored, bundled)
                libraries[ruleset] = (kept, bundled)
    except LockedDatabaseError:
        store.close()
        if databases.sqlite_path(url) is None:
            raise  # a server's lock: there is no file to read meanwhile
        store = storage.Store.open_read_only(url, LOCKED_REASON)
        try:
            armies, libraries = _read_panes(store)
        except BaseException:
            store.close()
            raise
    except BaseException:
        store.close()
        raise
    return store, armies, {ruleset: stored if stored.entries else bundled
                           for ruleset, (stored, bundled) in libraries.items()}


LOCKED_REASON: Final = ("another program kept it locked when Rout opened it, so Rout "
                        "could not store the unit libraries; open it again (File ▸ Open "
                        "Recent) to edit once that program is done")


def _read_panes(store: Store) -> tuple[dict[str, Army], dict[str, tuple[Library, Library]]]:
    """The armies, and each ruleset's stored library with its bundled one. Reads only."""

    bundled = [codec.library_from_json(files.read_json(path))
               for path in sorted((resources_dir() / "libraries").glob("*.json"))]
    libraries = {library.ruleset: (store.load_library(library.ruleset), library)
                 for library in bundled}
    return {army.id: army for army in store.load_armies()}, libraries


class DatabaseOpener(QObject):
    """The window's open store and its lock file; File ▸ Open Database and Open Recent."""

    def __init__(self, window: MainWindow, settings: QSettings | None) -> None:
        super().__init__(window)
        self.window = window
        self._settings = settings
        self.store: Store | None = None
        self._pending_url = ""
        self._opening = 0  # which open_database call is the latest
        self._lock: QLockFile | None = None
        window.ui.actionOpenDatabase.triggered.connect(self.choose_database)
        self._fill_recent()

    def open_database(self, url: str) -> None:
        """Read the database in the background; `ready` or `failed` tells how it went.

        Only the latest call counts: an earlier read that answers later is dropped.
        """
        self._opening += 1
        generation = self._opening
        self._pending_url = url
        self.window.database_status.setText("Opening the database…")
        # The status bar says it is opening: a progress dialog popping up at every start
        # would flash past.
        self.window.runner.run(lambda: read_database(url),
                               lambda result: self._database_read(result, generation),
                               lambda error: self._database_failed(error, generation))

    def _database_read(self, result: tuple[Store, dict[str, Army], dict[str, Library]],
                       generation: int = 0) -> None:
        store, armies, libraries = result
        if self.window.closing or (generation and generation != self._opening):
            store.close()  # a read the player has since replaced, or a window closing
            return
        lock = self._lock_database(store)
        if lock is False:
            store.close()
            self._database_failed(DatabaseInUseError(
                f"{store.describe()} is open in another Rout window; edits in both would "
                "overwrite each other — switch to that window"), generation)
            return
        if self.store is not None:
            self.store.close()
        if lock is not self._lock:  # the same file again keeps its lock
            self._release_lock()
            self._lock = lock
        self.store = store
        self.window.show_database(store, armies, libraries)
        self._remember_database(self._pending_url)
        self.window.ready.emit()
        if not armies and self.window.welcome_enabled and not store.read_only:
            QTimer.singleShot(0, self.window.show_welcome)

    def _lock_database(self, store: Store) -> QLockFile | Literal[False] | None:
        """One window per SQLite file: a second Rout's whole-army saves would overwrite the
        first's edits. None for databases without a file (PostgreSQL), False when taken."""
        path = databases.sqlite_path(store.url)
        # A window that only reads overwrites nothing (and could not write the lock file).
        if path is None or not self.window.exclusive or store.read_only:
            return None
        lock = QLockFile(f"{path}.rout-lock")
        lock.setStaleLockTime(0)  # a lock left by a crashed Rout is taken over
        if self.store is not None and self.store.url == store.url:
            return self._lock  # reopening the same file in this window
        return lock if lock.tryLock(0) else False

    def _release_lock(self) -> None:
        if self._lock:
            self._lock.unlock()
        self._lock = None

    def _database_failed(self, error: BaseException, generation: int = 0) -> None:
        if self.window.closing or (generation and generation != self._opening):
            return
        window = self.window
        message = str(error) or type(error).__name__
        # A failed switch keeps the database that is open; say which one that is.
        window.database_status.setText(self.store.describe() if self.store else "No database")
        window.log(f"Could not open the database: {message}")
        window.failed.emit(message)
        turned_away = isinstance(error, DatabaseInUseError) and self.store is None
        if window.isVisible() and window.welcome_enabled:
            if turned_away:
                message += "\n\nThis window closes now."
            QMessageBox.critical(window, "Cannot open the database", message)
        if turned_away:
            # A second window on a file in use could only ever be an empty shell.
            QTimer.singleShot(0, window.close)

    def close(self) -> None:
        """The window closes: the store goes, and so does the lock on its file."""
        if self.store is not None:
            self.store.close()
            self.store = None
        self._release_lock()

    def choose_database(self) -> None:
        current = _without_password(self.store.url) if self.store else ""
        dialog = dialogs.OpenDatabaseDialog(current, self.window)
        if dialog.exec() == dialogs.OpenDatabaseDialog.DialogCode.Accepted and dialog.location:
            self.open_database(database_url_from(dialog.location))

    def _remember_database(self, url: str) -> None:
        # Never write a password into the settings file or show it in a menu.
        url = _without_password(url)
        if self._settings is None or not url:
            return
        recent = [u for u in _string_list(self._settings.value(RECENT_KEY, [])) if u != url]
        self._settings.setValue(RECENT_KEY, [url, *recent][:RECENT_COUNT])
        self._settings.setValue(DATABASE_KEY, url)
        self._fill_recent()

    def _fill_recent(self) -> None:
        menu = self.window.ui.menuRecent
        menu.clear()
        recent = _string_list(self._settings.value(RECENT_KEY, [])) if self._settings else []
        for url in recent:
            action = menu.addAction(url)
            action.triggered.connect(lambda checked=False, u=url: self.open_database(u))
        menu.setEnabled(bool(recent))


class DatabaseInUseError(RuntimeError):
    """Another Rout window holds the file's lock."""


def _without_password(url: str) -> str:
    """The URL with any password replaced by ***; the player types it again when needed."""
    if "@" not in url:
        return url

    try:
        return sqlalchemy_engine.make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: keep nothing secret-looking
        return ""


def _string_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    return []
