"""Start the GUI: the QApplication, the main window and the `--screenshot` mode."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Final

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QEventLoop,
    QLibraryInfo,
    QObject,
    QSettings,
    QSize,
    QTimer,
)
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QWidget

from desktop import __version__
from desktop.bundled import resource_path
from desktop.gui.database_open import DATABASE_KEY
from desktop.gui.features import crash, platform_check
from desktop.gui.main_window import MainWindow
from desktop.gui.pictures import save_picture
from desktop.store.location import DATABASE_ENVIRONMENT, database_url_from, default_database_url

APP_NAME: Final = "Rout"
SCREENSHOT_SIZE: Final = QSize(1280, 800)
EXIT_CANNOT_SAVE: Final = 2
SETTLE_ROUNDS: Final = 5
EXIT_CANNOT_START: Final = 2
FIRST_PAINT_ENVIRONMENT: Final = "ROUT_FIRST_PAINT_FILE"
"""For tests/bench/bench_startup.py: save the first painted frame to this file and exit."""
OPEN_DATABASE_LATEST_MS: Final = 1000
"""The database is read after the first frame, or after this long if the window does not paint."""


class CannotStart(Exception):
    """Qt could not open a window here; the message says what to do about it."""


def _log_cannot_start(message: str) -> None:
    """Into rout.log as well: a launch from the desktop menu has no terminal to read."""


    try:
        folder = crash.default_log_folder()
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / crash.LOG_FILE_NAME).open("a", encoding="utf-8") as log:
            log.write(f"{datetime.now().isoformat(timespec='seconds')} ERROR {message}\n")
    except OSError as error:
        logging.getLogger(__name__).warning("rout.log not written: %s", error)


def _application() -> QApplication:
    """The running QApplication, or a new one (tests already have one).

    Raises CannotStart instead of letting Qt abort the process when it cannot open a window.
    """
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    elif existing is None:


        plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
        problem = platform_check.platform_problem(plugins)
        if problem:
            _log_cannot_start(problem)
            raise CannotStart(problem)
        # Only the program name: the command line was already parsed by desktop.cli.
        app = QApplication(sys.argv[:1])
    else:
        raise RuntimeError("a non-GUI QCoreApplication is already running")
    app.setOrganizationName(APP_NAME)
    app.setApplicationName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(QIcon(str(resource_path("icons", "rout.svg"))))
    return app


def _show(window: MainWindow) -> None:
    """Show the window with its layout already settled.

    Activating the layout first fixes the window's minimum size before the native window
    exists, so it is not changed right after creation (platforms without size-hint support,
    such as offscreen, warn about such a change).
    """
    layout = window.layout()
    if layout is not None:
        layout.activate()
    window.show()


def _grab(app: QApplication, window: MainWindow, path: Path) -> int:
    """Grab the window once it has settled and save it; 2 if it cannot be saved."""
    # Layouts, column fits and the battlefield's fit finish over a few rounds of posted
    # events and zero-delay timers; nothing the picture shows waits for a clock.
    for _ in range(SETTLE_ROUNDS):
        app.processEvents()
    window.setUpdatesEnabled(True)
    if not save_picture(window.grab(), path):
        print(f"rout: cannot save the screenshot to {path} (check that the folder exists and "
              "is writable, and that the name ends in .png or .jpg)", file=sys.stderr)
        return EXIT_CANNOT_SAVE
    return 0


class _AfterFirstPaint(QObject):
    """Run `callback` once, right after `window` has painted its first frame.

    With `latest_ms`, run it then at the latest: a window started minimized paints only when
    it is restored.
    """

    def __init__(self, window: QWidget, callback: Callable[[], object],
                 latest_ms: int | None = None) -> None:
        super().__init__(window)
        self._window = window
        self._callback: Callable[[], object] | None = callback
        window.installEventFilter(self)
        if latest_ms is not None:
            QTimer.singleShot(latest_ms, self, self._run)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint and self._callback is not None:
            # The children paint in the same pass as the window: call back once it is over.
            QTimer.singleShot(0, self, self._run)
        return False

    def _run(self) -> None:
        callback, self._callback = self._callback, None
        if callback is not None:
            self._window.removeEventFilter(self)
            callback()


def _save_first_frame_and_exit(window: QWidget, path: Path) -> None:
    """For the start-up benchmark: keep the first frame and end the process at once.

    The exit skips teardown on purpose: nothing that comes after the first frame (the
    database read, closing the window) is waited for or timed.
    """
    saved = save_picture(window.grab(), path)
    if not saved:
        print(f"rout: cannot save the first frame to {path}", file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0 if saved else EXIT_CANNOT_SAVE)


def _close(window: MainWindow) -> None:
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def parse_size(text: str | None) -> QSize:
    """`WIDTHxHEIGHT` for --size; the default is 1280x800."""
    if not text:
        return SCREENSHOT_SIZE
    width, sep, height = text.lower().partition("x")
    if not sep or not width.isdigit() or not height.isdigit():
        raise ValueError(f"--size takes WIDTHxHEIGHT such as 1280x800, not '{text}'")
    size = QSize(int(width), int(height))
    if not (320 <= size.width() <= 8000 and 240 <= size.height() <= 8000):
        raise ValueError(f"--size {text} is outside 320x240 to 8000x8000")
    return size


def _wait_until_open(app: QApplication, window: MainWindow, timeout_ms: int) -> str:
    """Run the event loop until the database is open; '' or the failure message."""
    outcome: list[str] = []
    loop = QEventLoop()

    def finish(message: str = "") -> None:
        outcome.append(message)
        loop.quit()

    window.ready.connect(finish)
    window.failed.connect(finish)
    QTimer.singleShot(timeout_ms, loop.quit)
    if not outcome:
        loop.exec()
    return outcome[0] if outcome else f"the database did not open in {timeout_ms // 1000} s"


def save_screenshot(path: Path, database: str | None = None, army: str | None = None,
                    size: str | None = None, battle: str | None = None) -> int:
    """Start the real window on a database, wait until it shows the armies, save a picture.

    With `army` (a name or id) that army is shown; with `battle` (a title or id) that battle
    is opened on the battlefield. No saved layout is read or written.
    """
    app = _application()
    try:
        window_size = parse_size(size)
    except ValueError as error:
        print(f"rout: {error}", file=sys.stderr)
        return EXIT_CANNOT_SAVE
    window = MainWindow()
    window.exclusive = False  # a picture may be taken while Rout is open on the file
    window.unattended = True  # what goes wrong is printed, not shown in a box
    # Drawn once, into the picture (_grab), rather than on screen first and then again.
    window.setUpdatesEnabled(False)
    window.resize(window_size)
    _show(window)
    window.open_database(database_url(database, None))
    problem = _wait_until_open(app, window, 60_000)
    if problem:
        _close(window)
        print(f"rout: {problem}", file=sys.stderr)
        return EXIT_CANNOT_SAVE
    if army:
        found = window.find_army(army)
        if found is None:
            where = window.database_status.text()
            _close(window)
            print(f"rout: no army named '{army}' in {where}", file=sys.stderr)
            return EXIT_CANNOT_SAVE
        window.select_army(found.id)
    if battle:
        problem = _open_battle(window, battle, 60_000)
        if problem:
            _close(window)
            print(f"rout: {problem}", file=sys.stderr)
            return EXIT_CANNOT_SAVE
    status = _grab(app, window, path)
    _close(window)
    return status


def _open_battle(window: MainWindow, battle: str, timeout_ms: int) -> str:
    """Open a stored battle by title or id and wait until it is on the table."""
    battle_id = window.battles.find_battle(battle)
    if not battle_id:
        return f"no battle named '{battle}' in {window.database_status.text()}"
    workspace = window.battles.workspace
    assert workspace is not None  # the database is open, so its battles are read
    outcome: list[str] = []
    loop = QEventLoop()

    def finish(*args: object) -> None:
        outcome.append("")
        loop.quit()

    def fail(message: str) -> None:
        outcome.append(message or f"the battle '{battle}' cannot be opened")
        loop.quit()

    window.battles.opened.connect(finish)
    workspace.failed.connect(fail)
    window.battles.open_battle(battle_id)
    QTimer.singleShot(timeout_ms, loop.quit)
    if not outcome:
        loop.exec()
    if not outcome:
        return f"the battle '{battle}' did not open in {timeout_ms // 1000} s"
    if outcome[0]:
        return outcome[0]
    window.battles.view.fit_table()
    return ""


def database_url(given: str | None, settings: QSettings | None) -> str:
    """--database, else $ROUT_DATABASE, else the last database the window opened, else
    the user's rout.sqlite."""
    if given:
        return database_url_from(given)
    if os.environ.get(DATABASE_ENVIRONMENT):
        return default_database_url()
    remembered = str(settings.value(DATABASE_KEY, "", str)) if settings is not None else ""
    return remembered or default_database_url()


def run_app(screenshot: str | os.PathLike[str] | None = None,
            database: str | None = None, army: str | None = None,
            size: str | None = None, battle: str | None = None) -> int:
    """Run Rout's GUI until the main window closes; return the exit status.

    With `screenshot`, save a picture of the main window (1280x800 unless `size`) once the
    database is open and return at once, without reading or writing the saved layout.
    """
    try:
        if screenshot is not None:
            return save_screenshot(Path(screenshot), database, army, size, battle)
        app = _application()
    except CannotStart as error:
        print(f"rout: {error}", file=sys.stderr)
        return EXIT_CANNOT_START
    settings = QSettings()
    window = MainWindow(settings=settings)
    url = database_url(database, settings)
    # The database is read once the window has painted: the worker's imports of SQLAlchemy
    # and shapely would hold the GIL while the first frame is drawn.
    _AfterFirstPaint(window, lambda: window.open_database(url), latest_ms=OPEN_DATABASE_LATEST_MS)
    crash_handler = None

    def start_crash_log() -> None:
        nonlocal crash_handler

        try:
            crash_handler = crash.install(lambda: window, crash.default_log_folder())
        except OSError as error:  # a read-only home: run without the crash log, but say so
            print(f"rout: crashes will not be logged: {error}", file=sys.stderr)
            crash_handler = None

    _AfterFirstPaint(window, start_crash_log)
    first_frame = os.environ.get(FIRST_PAINT_ENVIRONMENT)
    if first_frame:  # installed last, so its filter runs first: it exits before the read
        _AfterFirstPaint(window, lambda: _save_first_frame_and_exit(window, Path(first_frame)))
    _show(window)
    try:
        return app.exec()
    finally:
        settings.sync()  # the process may end without destroying it (desktop.cli.run)
        if crash_handler is not None:
            crash_handler.uninstall()
