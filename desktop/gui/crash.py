"""Catch crashes and keep them (after qutebrowser's crashsignal and qtlog).

Three things a player would otherwise lose: an uncaught Python exception (logged to
`rout.log` and shown in a dialog instead of vanishing into a console that a desktop launch
does not have), a hard crash of the interpreter or of Qt (faulthandler writes the Python
stacks of every thread to `faults.log`), and Qt's own messages (routed into `logging` under
the logger "qt", so they land in the same log).

Install it once, right after the QApplication exists: `handler = install(window, folder)`.
"""

from __future__ import annotations

import faulthandler
import logging
import logging.handlers
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Final

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    QObject,
    Qt,
    QtMsgType,
    Signal,
    Slot,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from desktop.gui.features import platformdirs

LOG_FILE_NAME: Final = "rout.log"
FAULT_FILE_NAME: Final = "faults.log"
QT_LOGGER_NAME: Final = "qt"
CRASH_LOGGER_NAME: Final = "rout.crash"

LOG_MAX_BYTES: Final = 1_000_000
"""rout.log rolls over at this size, keeping LOG_BACKUPS old files: it is kept for years."""
LOG_BACKUPS: Final = 2
LOG_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"

SUMMARY_LIMIT: Final = 500
"""Characters of the exception text shown in the dialog; the log keeps all of it."""

DIALOG_TITLE: Final = "Rout — unexpected error"
DIALOG_TEXT: Final = ("Rout ran into an unexpected error. You can keep working, but save your "
                      "work soon.\n\nThe details were written to {log}; please attach that "
                      "file when you report the problem.")

_QT_LEVELS: Final = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], object]
QtMessageHandler = Callable[[QtMsgType, QMessageLogContext, str], object]

_installed: CrashHandler | None = None


def default_log_folder() -> Path:
    """The user's data folder, where the database lives too (see default_database_path).

    Computed here rather than imported from desktop.store.database: that module pulls in
    SQLAlchemy, too slow an import for the first thing the GUI does.
    """
    return platformdirs.user_data_path("Rout", appauthor=False)


def install(window_provider: Callable[[], QWidget | None], log_folder: Path) -> CrashHandler:
    """Start catching crashes; dialogs are parented to `window_provider()` at the time.

    Needs a running QApplication for the dialog (without one, exceptions are only logged).
    Raises OSError if `log_folder` cannot be created or written, RuntimeError if a handler
    is already installed.
    """
    global _installed
    if _installed is not None:
        raise RuntimeError("a crash handler is already installed; uninstall it first")
    handler = CrashHandler(window_provider, log_folder)
    handler._install()
    _installed = handler
    return handler


class _DialogBridge(QObject):
    """Lives on the GUI thread, so a crash on another thread still shows its dialog there."""

    requested = Signal(str, str)

    def __init__(self, handler: CrashHandler, parent: QObject) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialogBridge")
        self._handler = handler
        # Always queued: an error raised while painting must not open a modal dialog in the
        # middle of that paint; it opens once the event loop is back.
        self.requested.connect(self._show, Qt.ConnectionType.QueuedConnection)

    @Slot(str, str)
    def _show(self, summary: str, details: str) -> None:
        self._handler._show_dialog(summary, details)


class CrashHandler:
    """The installed hooks; `uninstall()` puts back whatever was there before."""

    def __init__(self, window_provider: Callable[[], QWidget | None], log_folder: Path) -> None:
        self.show_dialog = True
        """False logs crashes without a dialog (for tests and headless runs)."""
        self.log_path = log_folder / LOG_FILE_NAME
        self.fault_path = log_folder / FAULT_FILE_NAME
        self._window_provider = window_provider
        self._log_folder = log_folder
        self._logger = logging.getLogger(CRASH_LOGGER_NAME)
        self._qt_logger = logging.getLogger(QT_LOGGER_NAME)
        self._log_handler: logging.Handler | None = None
        # faulthandler writes to the file's descriptor, so the file object must stay open.
        self._fault_file: IO[str] | None = None
        self._faulthandler_was_enabled = False
        self._previous_excepthook: ExceptHook = sys.excepthook
        self._previous_thread_hook: Callable[[threading.ExceptHookArgs], object] = (
            threading.excepthook)
        self._previous_qt_handler: QtMessageHandler | None = None
        self._bridge: _DialogBridge | None = None
        self._dialog_open = False
        self._shown: set[str] = set()  # tracebacks already shown this session
        self._installed = False

    @property
    def installed(self) -> bool:
        return self._installed

    def _install(self) -> None:
        self._log_folder.mkdir(parents=True, exist_ok=True)
        log_handler = logging.handlers.RotatingFileHandler(
            self.log_path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
        try:
            self._fault_file = open(self.fault_path, "a", encoding="utf-8")  # noqa: SIM115
        except OSError:
            log_handler.close()
            raise
        log_handler.setFormatter(logging.Formatter(LOG_FORMAT))
        logging.getLogger().addHandler(log_handler)
        self._log_handler = log_handler

        self._faulthandler_was_enabled = faulthandler.is_enabled()
        faulthandler.enable(self._fault_file, all_threads=True)

        app = QCoreApplication.instance()
        if isinstance(app, QApplication):
            self._bridge = _DialogBridge(self, app)

        self._previous_excepthook = sys.excepthook
        self._previous_thread_hook = threading.excepthook
        sys.excepthook = self.handle_exception
        threading.excepthook = self._handle_thread_exception
        self._previous_qt_handler = qInstallMessageHandler(self.handle_qt_message)
        self._installed = True

    def uninstall(self) -> None:
        """Restore the previous hooks, faulthandler and Qt message handler; close the files."""
        global _installed
        if not self._installed:
            return
        self._installed = False
        if _installed is self:
            _installed = None
        qInstallMessageHandler(self._previous_qt_handler)
        sys.excepthook = self._previous_excepthook
        threading.excepthook = self._previous_thread_hook

        faulthandler.disable()
        if self._faulthandler_was_enabled:
            # faulthandler cannot tell which file it wrote to before; stderr is the default.
            stderr = sys.__stderr__ or sys.stderr
            if stderr is not None:
                faulthandler.enable(stderr, all_threads=True)
        if self._fault_file is not None:
            self._fault_file.close()
            self._fault_file = None

        if self._log_handler is not None:
            logging.getLogger().removeHandler(self._log_handler)
            self._log_handler.close()
            self._log_handler = None
        if self._bridge is not None and shiboken6.isValid(self._bridge):
            self._bridge.deleteLater()
        self._bridge = None

    def handle_exception(self, exc_type: type[BaseException], exc_value: BaseException,
                         exc_traceback: TracebackType | None) -> None:
        """The sys.excepthook: log the exception, print it, and tell the player."""
        if issubclass(exc_type, KeyboardInterrupt):
            # Ctrl+C in the terminal that started Rout: not a crash to report.
            self._previous_excepthook(exc_type, exc_value, exc_traceback)
            return
        details = "".join(traceback.format_exception(exc_type, exc_value, exc_traceback))
        self._logger.critical("Uncaught exception\n%s", details.rstrip())
        if sys.stderr is not None:  # None under pythonw
            print(details, end="", file=sys.stderr)
        summary = "".join(traceback.format_exception_only(exc_type, exc_value)).strip()
        if len(summary) > SUMMARY_LIMIT:
            summary = summary[:SUMMARY_LIMIT - 1] + "…"
        # While a dialog is up (or one is on its way), further errors are only logged.
        if (self.show_dialog and not self._dialog_open and self._bridge is not None
                and shiboken6.isValid(self._bridge)):
            self._dialog_open = True  # until the queued dialog has been shown and closed
            self._bridge.requested.emit(summary, details)

    def _handle_thread_exception(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            self._previous_thread_hook(args)
            return
        self.handle_exception(args.exc_type, args.exc_value, args.exc_traceback)

    def handle_qt_message(self, msg_type: QtMsgType, context: QMessageLogContext,
                          message: str) -> None:
        """The Qt message handler: log under "qt", then pass on to the previous handler.

        Passing on keeps a handler that was there first working, such as pytest-qt's,
        which fails tests on Qt warnings. Called from any thread: only logs, never Qt.
        """
        level = _QT_LEVELS.get(msg_type, logging.WARNING)
        if self._qt_logger.isEnabledFor(level):
            category = context.category if context is not None else None
            text = message if category in (None, "", "default") else f"{category}: {message}"
            record = self._qt_logger.makeRecord(
                QT_LOGGER_NAME, level,
                (context.file if context is not None else None) or "(qt)",
                context.line if context is not None else 0,
                "%s", (text,), None,
                func=context.function if context is not None else None)
            self._qt_logger.handle(record)
        if self._previous_qt_handler is not None:
            self._previous_qt_handler(msg_type, context, message)

    def _parent_window(self) -> QWidget | None:
        try:
            window = self._window_provider()
        except Exception:
            # The crash may be in whatever the provider looks at; the dialog matters more.
            self._logger.exception("the crash dialog's window could not be found")
            return None
        return window if window is not None and shiboken6.isValid(window) else None

    def _show_dialog(self, summary: str, details: str) -> None:
        if not self.show_dialog or details in self._shown:
            # One that repeats at every paint is shown once per session.
            self._dialog_open = False
            return
        self._shown.add(details)
        self._dialog_open = True
        box = QMessageBox(QMessageBox.Icon.Critical, DIALOG_TITLE,
                          DIALOG_TEXT.format(log=self.log_path),
                          QMessageBox.StandardButton.Ok, self._parent_window())
        box.setObjectName("crashDialog")
        # Exception text is not markup: "<Unit>" must not turn into a tag.
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(summary)
        box.setDetailedText(details)
        try:
            box.exec()
        finally:
            self._dialog_open = False
            box.deleteLater()
