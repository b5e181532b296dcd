"""Background work whose results come back on the GUI thread (after Anki's aqt.taskman).

Slow work (imports, big queries, file parsing, PDF writing) must not freeze the window, yet
Qt widgets may only be touched from the GUI thread. `TaskRunner.run` runs a plain Python
callable in a thread pool; the worker never touches Qt objects other than emitting one
signal, and the caller's callbacks run on the GUI thread, where they may update widgets.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import shiboken6
from PySide6.QtCore import (
    QCoreApplication,
    QDeadlineTimer,
    QEvent,
    QObject,
    QRunnable,
    Qt,
    QThreadPool,
    Signal,
    Slot,
)
from PySide6.QtWidgets import QProgressDialog, QWidget

T = TypeVar("T")

PROGRESS_DELAY_MS: Final = 300
"""Work that ends sooner shows no progress dialog: a flash of a dialog is worse than none."""


@dataclass
class _Pending:
    """What the GUI thread needs once a task ends; the worker never sees this."""

    on_done: Callable[[Any], None]
    on_error: Callable[[BaseException], None]
    progress: QProgressDialog | None


class _Work(QRunnable):
    """Runs `work` on a pool thread and reports through `report` (a signal, thread-safe)."""

    def __init__(self, task_id: int, work: Callable[[], Any],
                 report: Callable[[int, object, object], None]) -> None:
        super().__init__()
        self._task_id = task_id
        self._work = work
        self._report = report

    def run(self) -> None:  # Qt override
        try:
            result: object = self._work()
            error: BaseException | None = None
        except BaseException as raised:  # every failure, even SystemExit, must reach on_error
            result, error = None, raised
        # RuntimeError: the runner was deleted while this ran (shutdown); nobody is waiting.
        with contextlib.suppress(RuntimeError):
            self._report(self._task_id, result, error)


class TaskRunner(QObject):
    """Runs callables in its own thread pool and calls back on the GUI thread."""

    # Emitted from pool threads; the queued connection below delivers it on our thread.
    _finished = Signal(int, object, object)

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.setObjectName("taskRunner")
        self._pool = QThreadPool(self)
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> bool:
        """Whether a task is running or its callbacks have not run yet."""
        return bool(self._pending)

    def run(self, work: Callable[[], T], on_done: Callable[[T], None],
            on_error: Callable[[BaseException], None], *,
            progress_parent: QWidget | None = None, label: str = "") -> None:
        """Run `work` on a pool thread; then `on_done(result)` or `on_error(exception)`.

        Both callbacks run on the GUI thread, from the event loop, never inside this call.
        With `progress_parent`, a busy dialog modal to that window appears if the work takes
        longer than PROGRESS_DELAY_MS, and is closed before the callback runs.
        """
        task_id = next(self._ids)
        progress = self._progress_dialog(progress_parent, label) if progress_parent else None
        self._pending[task_id] = _Pending(on_done, on_error, progress)
        self._pool.start(_Work(task_id, work, self._finished.emit))

    def wait_for_idle(self, msecs: int = 30000) -> bool:
        """Wait for every task and run its callbacks; False if `msecs` ran out first.

        For tests and shutdown. Callbacks that start new tasks are waited for too.
        """
        deadline = QDeadlineTimer(msecs)
        while self._pending:
            if not self._pool.waitForDone(max(deadline.remainingTime(), 0)):
                return False
            # The results are queued to this object; deliver them without a full event loop.
            QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)
            if self._pending and deadline.hasExpired():
                return False
        return True

    def _progress_dialog(self, parent: QWidget, label: str) -> QProgressDialog:
        dialog = QProgressDialog(label, "", 0, 0, parent)
        dialog.setObjectName("taskProgressDialog")
        dialog.setWindowTitle(label or QCoreApplication.applicationName())
        # A busy bar that cannot be cancelled: a Python thread cannot be stopped safely.
        dialog.setCancelButton(None)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(PROGRESS_DELAY_MS)
        # setValue(minimum) is what starts the delay timer; until then the dialog stays hidden.
        dialog.setValue(0)
        return dialog

    @Slot(int, object, object)
    def _on_finished(self, task_id: int, result: object, error: object) -> None:
        pending = self._pending.pop(task_id)
        if pending.progress is not None and shiboken6.isValid(pending.progress):
            # reset() also stops the dialog's show timer, so it cannot pop up after this.
            pending.progress.reset()
            pending.progress.close()
            pending.progress.deleteLater()
        if isinstance(error, BaseException):
            pending.on_error(error)
        else:
            pending.on_done(result)
