"""File ▸ Check Database: the full check start-up leaves out (desktop.store.checking).

Start-up reads only what it needs, so a big database opens at once; reading every page and
every army takes as long as the database is big, so it runs in a worker behind a progress
dialog, and its verdict comes in a message box and the log. It never changes anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from desktop.gui.features import checking
from desktop.store.errors import CorruptDatabaseError

if TYPE_CHECKING:
    from desktop.gui.main_window import MainWindow
    from desktop.store.checking import DatabaseCheck
    from desktop.store.store import Store

TITLE = "Check Database"


def counted(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


class DatabaseChecker(QObject):
    """Runs the check on the window's database; on for any open database, read-only too."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.action = window.ui.actionCheckDatabase
        self.action.setEnabled(False)
        self.action.triggered.connect(self.run)
        window.ready.connect(lambda: self.action.setEnabled(window.store is not None))

    def run(self) -> None:
        store = self.window.store
        if store is None:
            return
        self.window.runner.run(lambda: checking.check_database(store),
                               lambda report: self._checked(store, report),
                               lambda error: self._failed(store, error),
                               progress_parent=self.window, label="Checking the database…")

    def _checked(self, store: Store, report: DatabaseCheck) -> None:
        if self.window.store is not store:
            return  # another database since: this verdict is about one no longer shown
        if not report.ok:
            self._damaged(f"{report.database} is damaged: {report.summary()}",
                          "\n".join(report.problems))
            return
        read = ", ".join((counted(report.armies, "army", "armies"),
                          counted(report.libraries, "library", "libraries"),
                          counted(report.battles, "battle", "battles")))
        pages = "every page and " if report.pages else ""
        text = f"No problems found in {report.database}: read {pages}{read}."
        self.window.log(text)
        QMessageBox.information(self.window, TITLE, text)

    def _failed(self, store: Store, error: BaseException) -> None:
        if self.window.store is not store:
            return
        if isinstance(error, CorruptDatabaseError):
            self._damaged(str(error), "")
            return
        text = f"Could not check the database: {error}"
        self.window.log(text)
        QMessageBox.critical(self.window, TITLE, text)

    def _damaged(self, text: str, details: str) -> None:
        advice = ("Rout changed nothing. Restore a copy of the file (Rout keeps one beside it "
                  "from before each migration) or open another database; what still reads "
                  "can be exported first.")
        self.window.log(text)
        box = QMessageBox(QMessageBox.Icon.Warning, TITLE, f"{text}\n\n{advice}",
                          QMessageBox.StandardButton.Ok, self.window)
        if details:
            box.setDetailedText(details)
        box.exec()
        box.deleteLater()
