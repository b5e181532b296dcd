"""The crash handler: exceptions logged and shown, faulthandler to a file, Qt messages logged."""

from __future__ import annotations

import faulthandler
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import (
    QObject,
    QTimer,
    qCritical,
    qDebug,
    qInstallMessageHandler,
    qWarning,
)
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from desktop.gui import crash
from desktop.gui.crash import CrashHandler, default_log_folder, install

REPO = Path(__file__).resolve().parents[1]

# QMessageBox fixes its size when shown, which the offscreen platform cannot pass on.
OFFSCREEN_SIZE_HINTS = "does not support propagateSizeHints"


@pytest.fixture
def window(qtbot) -> QWidget:
    window = QWidget()
    window.setWindowTitle("Rout")
    qtbot.addWidget(window)
    return window


@pytest.fixture
def log_folder(tmp_path) -> Path:
    return tmp_path / "data" / "Rout"


@pytest.fixture
def handler(qapp, window, log_folder):
    handler = install(lambda: window, log_folder)
    yield handler
    handler.uninstall()


def exc_info(error: BaseException):
    """`error` raised and caught, as sys.excepthook receives it."""
    try:
        raise error
    except BaseException:
        return sys.exc_info()


def fail_in_handler() -> None:
    raise ValueError("no unit called <Knights>")


def log_text(handler: CrashHandler) -> str:
    return handler.log_path.read_text(encoding="utf-8")


class DialogCloser:
    """Waits for the modal crash dialog, notes what it says, then closes it."""

    def __init__(self, before_closing: Callable[[], None] | None = None) -> None:
        self.seen: list[dict[str, object]] = []
        self._before_closing = before_closing
        QTimer.singleShot(0, self._poll)

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, self._poll)
            return
        self.seen.append({
            "title": box.windowTitle(), "text": box.text(), "summary": box.informativeText(),
            "details": box.detailedText(), "parent": box.parentWidget(),
            "icon": box.icon(), "visible": box.isVisible(),
        })
        if self._before_closing is not None:
            self._before_closing()
        box.done(0)


def test_exception_is_logged(handler, capsys):
    handler.show_dialog = False
    sys.excepthook(*exc_info(ValueError("no unit called <Knights>")))
    text = log_text(handler)
    assert "CRITICAL rout.crash: Uncaught exception" in text
    assert "Traceback (most recent call last)" in text
    assert "ValueError: no unit called <Knights>" in text
    assert "exc_info" in text  # the frame that raised
    # A terminal that started Rout sees it too.
    assert "ValueError: no unit called <Knights>" in capsys.readouterr().err


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_exception_shows_a_dialog(qtbot, handler, window):
    window.show()
    qtbot.waitExposed(window)
    closer = DialogCloser()
    sys.excepthook(*exc_info(ValueError("no unit called <Knights>")))
    # The dialog is queued: it never opens inside whatever was running (a paint, say).
    assert closer.seen == []
    qtbot.waitUntil(lambda: bool(closer.seen))
    [seen] = closer.seen
    assert seen["title"] == "Rout — unexpected error"
    assert str(handler.log_path) in str(seen["text"])
    assert seen["summary"] == "ValueError: no unit called <Knights>"
    assert str(seen["details"]).startswith("Traceback (most recent call last)")
    assert "ValueError: no unit called <Knights>" in str(seen["details"])
    assert seen["parent"] is window
    assert seen["icon"] == QMessageBox.Icon.Critical
    assert seen["visible"]
    assert "ValueError" in log_text(handler)


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_exception_in_a_qt_slot_shows_a_dialog(qtbot, handler):
    # The real path: PySide hands an exception from a slot to sys.excepthook.
    closer = DialogCloser()
    QTimer.singleShot(0, fail_in_handler)
    qtbot.waitUntil(lambda: bool(closer.seen))
    assert closer.seen[0]["summary"] == "ValueError: no unit called <Knights>"
    assert "fail_in_handler" in log_text(handler)


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_dialog_without_a_window(qapp, qtbot, log_folder):
    handler = install(lambda: None, log_folder)
    try:
        closer = DialogCloser()
        sys.excepthook(*exc_info(RuntimeError("early")))
        qtbot.waitUntil(lambda: bool(closer.seen))
    finally:
        handler.uninstall()
    assert closer.seen[0]["parent"] is None
    assert closer.seen[0]["summary"] == "RuntimeError: early"


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_dialog_when_the_window_provider_fails(qapp, qtbot, log_folder):
    def broken() -> QWidget | None:
        raise LookupError("no main window yet")

    handler = install(broken, log_folder)
    try:
        closer = DialogCloser()
        sys.excepthook(*exc_info(RuntimeError("early")))
        qtbot.waitUntil(lambda: bool(closer.seen))
    finally:
        handler.uninstall()
    assert closer.seen[0]["parent"] is None
    assert "no main window yet" in log_text(handler)


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_errors_while_the_dialog_is_open_are_logged_not_stacked(qtbot, handler):
    def second_error() -> None:
        sys.excepthook(*exc_info(KeyError("second")))
        open_boxes.append(sum(isinstance(widget, QMessageBox) and widget.isVisible()
                              for widget in QApplication.topLevelWidgets()))

    open_boxes: list[int] = []
    closer = DialogCloser(second_error)
    sys.excepthook(*exc_info(ValueError("first")))
    qtbot.waitUntil(lambda: bool(closer.seen))
    assert len(closer.seen) == 1
    assert open_boxes == [1]
    text = log_text(handler)
    assert "ValueError: first" in text
    assert "KeyError: 'second'" in text


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_exception_on_a_worker_thread(qapp, qtbot, handler):
    closer = DialogCloser()
    dialog_threads: list[bool] = []
    real_show = handler._show_dialog

    def show_and_note_thread(summary: str, details: str) -> None:
        dialog_threads.append(QObject().thread() is qapp.thread())
        real_show(summary, details)

    handler._show_dialog = show_and_note_thread
    worker = threading.Thread(target=fail_in_handler, name="importer")
    worker.start()
    worker.join()
    assert "ValueError: no unit called <Knights>" in log_text(handler)
    # The dialog comes later, from the GUI thread's event loop.
    assert closer.seen == []
    qtbot.waitUntil(lambda: bool(closer.seen))
    assert dialog_threads == [True]


def test_keyboard_interrupt_goes_to_the_previous_hook(qapp, window, log_folder, monkeypatch):
    received: list[type[BaseException]] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, value, tb: received.append(kind))
    handler = install(lambda: window, log_folder)
    try:
        sys.excepthook(*exc_info(KeyboardInterrupt()))
    finally:
        handler.uninstall()
    assert received == [KeyboardInterrupt]
    assert "KeyboardInterrupt" not in log_text(handler)


def test_faulthandler_writes_to_the_log_folder(handler):
    assert handler.fault_path == handler.log_path.parent / "faults.log"
    assert handler.fault_path.is_file()
    assert faulthandler.is_enabled()


def test_a_hard_crash_is_kept(tmp_path):
    script = ("import faulthandler, sys\n"
              "from pathlib import Path\n"
              "from desktop.gui.crash import install\n"
              "install(lambda: None, Path(sys.argv[1]))\n"
              "faulthandler._sigsegv()\n")
    result = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=REPO,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode != 0
    faults = (tmp_path / "faults.log").read_text(encoding="utf-8")
    assert "Fatal Python error: Segmentation fault" in faults
    assert '<string>", line 5' in faults


@pytest.mark.qt_log_ignore("from the test")
def test_qt_messages_are_logged(handler, caplog, qtlog):
    caplog.set_level(logging.DEBUG, logger="qt")
    qWarning("warning from the test")
    qCritical("critical from the test")
    qDebug("debug from the test")
    records = [(record.name, record.levelno, record.getMessage())
               for record in caplog.records if record.name == "qt"]
    assert records == [
        ("qt", logging.WARNING, "warning from the test"),
        ("qt", logging.ERROR, "critical from the test"),
        ("qt", logging.DEBUG, "debug from the test"),
    ]
    assert "WARNING qt: warning from the test" in log_text(handler)
    # The handler that was there before (pytest-qt's) still sees every message.
    assert [record.message for record in qtlog.records] == [
        "warning from the test", "critical from the test", "debug from the test"]


@pytest.mark.qt_log_ignore("after uninstalling")
def test_uninstall_restores_everything(qapp, window, log_folder, qtlog):
    hook, thread_hook = sys.excepthook, threading.excepthook
    fault_enabled = faulthandler.is_enabled()
    root_handlers = list(logging.getLogger().handlers)
    qt_handler = qInstallMessageHandler(None)
    qInstallMessageHandler(qt_handler)

    handler = install(lambda: window, log_folder)
    assert handler.installed
    assert sys.excepthook == handler.handle_exception
    assert threading.excepthook != thread_hook
    assert len(logging.getLogger().handlers) == len(root_handlers) + 1
    handler.uninstall()

    assert not handler.installed
    assert sys.excepthook is hook
    assert threading.excepthook is thread_hook
    assert faulthandler.is_enabled() == fault_enabled
    assert logging.getLogger().handlers == root_handlers
    current = qInstallMessageHandler(None)
    qInstallMessageHandler(current)
    assert current == qt_handler
    # Qt warnings reach pytest-qt again, so qt_log_level_fail still works.
    qWarning("after uninstalling")
    assert [record.message for record in qtlog.records] == ["after uninstalling"]
    assert "after uninstalling" not in log_text(handler)
    handler.uninstall()  # twice is harmless


def test_only_one_handler_at_a_time(handler, window, log_folder):
    with pytest.raises(RuntimeError, match="already installed"):
        install(lambda: window, log_folder)
    handler.uninstall()
    again = install(lambda: window, log_folder)
    again.uninstall()


def test_log_folder_that_cannot_be_made(qapp, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(NotADirectoryError):
        install(lambda: None, blocker / "logs")
    assert crash._installed is None


def test_default_log_folder_is_the_data_folder():
    from desktop.store.database import default_database_path

    assert default_log_folder() == default_database_path().parent


@pytest.mark.qt_log_ignore(OFFSCREEN_SIZE_HINTS)
def test_the_same_error_again_is_logged_not_shown_again(qtbot, handler):
    """A bug that fires at every repaint would otherwise reopen its dialog forever."""
    closer = DialogCloser()
    error = exc_info(ValueError("every paint"))
    sys.excepthook(*error)
    qtbot.waitUntil(lambda: bool(closer.seen))
    sys.excepthook(*error)
    qtbot.wait(50)
    assert len(closer.seen) == 1
    assert log_text(handler).count("ValueError: every paint") >= 2
