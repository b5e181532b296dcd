"""pyqtgraph plots made the one way Rout needs them: a picture, not an explorer.

pyqtgraph creates its context menus as parentless top-level windows; they would outlive
the plot (and the tests count them as leaks), so they are adopted by the widget the plot
belongs to and deleted with it. pyqtgraph is imported here, so only when a plot is made.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from desktop.gui.features import pg


def plot_widget(parent: QWidget, **options: Any) -> Any:
    """A pyqtgraph PlotWidget owned by `parent`, without mouse panning or a context menu."""

    windows_before = set(QApplication.topLevelWidgets())
    widget = pg.PlotWidget(parent, **options)
    for window in QApplication.topLevelWidgets():
        if window not in windows_before and window.parentWidget() is None:
            window.setParent(parent, window.windowFlags())
    plot = widget.getPlotItem()
    plot.setMouseEnabled(x=False, y=False)
    plot.setMenuEnabled(False)
    plot.hideButtons()
    return widget
