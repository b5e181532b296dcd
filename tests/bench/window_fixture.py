"""The main window as the GUI benches measure it: shown at 1280x800 with the database at
`url` open, not the one window per database a player's Rout is (`exclusive` off)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.gui import app


def open_window(url: str) -> tuple[QApplication, app.MainWindow, str]:
    """The application, the window, and '' once the database is open, or why it did not
    open within a minute."""
    qt = app._application()
    window = app.MainWindow()
    window.exclusive = False
    window.resize(1280, 800)
    app._show(window)
    window.open_database(url)
    return qt, window, app._wait_until_open(qt, window, 60_000)
