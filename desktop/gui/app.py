"""Start the GUI: the QApplication, the main window and the `--screenshot` mode."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Final

from PySide6.QtCore import QCoreApplication, QEvent, QSettings, QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from desktop import __version__
from desktop.gui.main_window import MainWindow
from desktop.gui.resources import resource_path

APP_NAME: Final = "Rout"
SCREENSHOT_SIZE: Final = QSize(1280, 800)
EXIT_CANNOT_SAVE: Final = 2


def _application() -> QApplication:
    """The running QApplication, or a new one (tests already have one)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    elif existing is None:
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


def _save_screenshot(app: QApplication, window: MainWindow, path: Path) -> int:
    """Lay the window out at a fixed size, grab it, save it; 2 if it cannot be saved."""
    window.resize(SCREENSHOT_SIZE)
    _show(window)
    app.processEvents()
    pixmap = window.grab()
    window.close()
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    if not pixmap.save(str(path)):
        print(f"rout: cannot save the screenshot to {path} (check that the folder exists and "
              "is writable, and that the name ends in .png or .jpg)", file=sys.stderr)
        return EXIT_CANNOT_SAVE
    return 0


def run_app(screenshot: str | os.PathLike[str] | None = None,
            database: str | None = None) -> int:
    """Run Rout's GUI until the main window closes; return the exit status.

    With `screenshot`, save a picture of the main window at 1280x800 to that file and return
    at once, without reading or writing the saved window layout.
    """
    # The store (desktop.store) arrives in a later issue; until then `database` is accepted
    # so that `rout --database URL` already parses, and ignored.
    del database
    app = _application()
    if screenshot is not None:
        window = MainWindow()
        return _save_screenshot(app, window, Path(screenshot))
    window = MainWindow(settings=QSettings())
    _show(window)
    return app.exec()
