"""The main window skeleton: form, docks, battlefield, About box, screenshot mode, forms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget

from desktop.bundled import resource_path, ui_path
from desktop.gui import main_window
from desktop.gui.app import run_app
from desktop.gui.forms.build import normalise
from desktop.gui.main_window import MainWindow

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


def show(qtbot, window: MainWindow) -> None:
    """Show at the screenshot size with the layout settled first (as run_app does)."""
    window.resize(1280, 800)
    window.layout().activate()
    window.show()
    qtbot.waitExposed(window)


def test_window_builds(window):
    assert window.windowTitle() == "Rout"
    assert not window.windowIcon().isNull()
    assert window.battle_status.text() == "No battle loaded"
    assert window.statusBar().isAncestorOf(window.battle_status)
    assert window.centralWidget().isAncestorOf(window.battlefield_view)


@pytest.mark.parametrize(
    ("name", "title", "area"),
    [
        ("armyDock", "Armies", Qt.DockWidgetArea.LeftDockWidgetArea),
        ("battleDock", "Battles", Qt.DockWidgetArea.LeftDockWidgetArea),
        ("inspectorDock", "Unit", Qt.DockWidgetArea.RightDockWidgetArea),
        ("logDock", "Battle log", Qt.DockWidgetArea.BottomDockWidgetArea),
    ],
)
def test_docks(window, name, title, area):
    dock = window.findChild(QDockWidget, name)
    assert dock is not None
    assert dock.windowTitle() == title
    assert window.dockWidgetArea(dock) == area
    assert dock.widget() is not None
    assert dock in window.docks


def test_battlefield_shows_the_default_table_before_any_battle(window):
    scene = window.battlefield_scene
    assert scene.battle is None
    assert (scene.table.width, scene.table.depth) == (72, 48)
    assert scene.sceneRect().contains(QRectF(0, 0, 72, 48))
    assert not scene.unit_items()


def test_table_is_fitted_and_y_grows_up(qtbot, window):
    window.ui.centralTabs.setCurrentWidget(window.ui.battlefieldTab)
    show(qtbot, window)
    view = window.battlefield_view
    viewport = view.viewport().rect()
    on_screen = view.mapFromScene(QRectF(0, 0, 72, 48)).boundingRect()
    assert viewport.contains(on_screen)
    assert on_screen.width() > 0.8 * viewport.width() or \
        on_screen.height() > 0.8 * viewport.height()
    near_edge = view.mapFromScene(QPointF(36, 0))
    far_edge = view.mapFromScene(QPointF(36, 48))
    assert far_edge.y() < near_edge.y()
    left = view.mapFromScene(QPointF(0, 24))
    right = view.mapFromScene(QPointF(72, 24))
    assert left.x() < right.x()


def test_about_action(window, monkeypatch):
    assert window.ui.actionAbout in window.ui.menuHelp.actions()
    assert window.ui.actionAbout.text().replace("&", "") == "About Rout"
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(main_window.QMessageBox, "about",
                        lambda parent, title, text: shown.append((title, text)))
    window.ui.actionAbout.trigger()
    assert len(shown) == 1
    assert shown[0][0] == "About Rout"
    assert "rank-and-flank" in shown[0][1]


def test_quit_action_closes_window(qtbot, window):
    assert window.ui.actionQuit in window.ui.menuFile.actions()
    show(qtbot, window)
    window.ui.actionQuit.trigger()
    assert not window.isVisible()


def test_layout_is_remembered(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "rout.ini"), QSettings.Format.IniFormat)
    first = MainWindow(settings=settings)
    qtbot.addWidget(first)
    show(qtbot, first)
    first.ui.logDock.hide()
    first.close()
    assert settings.contains("mainWindow/geometry")
    assert settings.contains("mainWindow/state")
    assert sorted(settings.allKeys()) == ["mainWindow/geometry", "mainWindow/state"]

    second = MainWindow(settings=QSettings(str(tmp_path / "rout.ini"),
                                           QSettings.Format.IniFormat))
    qtbot.addWidget(second)
    assert second.ui.logDock.isHidden()
    assert not second.ui.armyDock.isHidden()


def test_screenshot(tmp_path, capsys):
    shot = tmp_path / "shot.png"
    assert run_app(screenshot=shot, database=f"sqlite:///{tmp_path / 'new.sqlite'}") == 0
    image = QImage(str(shot))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1280, 800)
    assert capsys.readouterr() == ("", "")
    # The database was created on the way, with the bundled libraries.
    assert (tmp_path / "new.sqlite").is_file()


def test_screenshot_of_a_named_army_at_a_size(tmp_path, capsys):
    from desktop.gui.army_files import sample_armies
    from desktop.store.store import Store

    url = f"sqlite:///{tmp_path / 'armies.sqlite'}"
    with Store.open(url) as store:
        for army in sample_armies():
            store.save_army(army)
    shot = tmp_path / "shot.png"
    assert run_app(screenshot=shot, database=url, army="elf marchwardens",
                   size="1024x700") == 0
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1024, 700)
    assert run_app(screenshot=shot, database=url, army="nobody") == 2
    assert "no army named 'nobody'" in capsys.readouterr().err
    assert run_app(screenshot=shot, database=url, size="huge") == 2


def test_screenshot_that_cannot_be_saved(tmp_path, capsys):
    assert run_app(screenshot=str(tmp_path / "no-such-folder" / "shot.png"),
                   database=f"sqlite:///{tmp_path / 'new.sqlite'}") == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("rout: cannot save the screenshot")
    assert err.count("\n") == 1


def test_resources_are_found():
    assert ui_path("mainwindow") == ui_path("mainwindow.ui")
    assert ui_path("mainwindow").is_file()
    assert resource_path("icons", "rout.svg").is_file()
    with pytest.raises(FileNotFoundError):
        resource_path("icons", "no-such-icon.svg")
    with pytest.raises(FileNotFoundError):
        ui_path("no-such-form")


def test_version_header_is_ignored_when_comparing_forms():
    old = "# x\n## Created by: Qt User Interface Compiler version 6.7.0\nclass A: pass\n"
    new = "# x\r\n## Created by: Qt User Interface Compiler version 6.12.0\r\nclass A: pass\r\n"
    assert normalise(old) == normalise(new)
    assert normalise(old) != normalise(old.replace("A", "B"))


def test_generated_forms_are_current():
    result = subprocess.run([sys.executable, "-m", "desktop.gui.forms.build", "--check"],
                            cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr



def test_no_two_actions_share_a_shortcut(window):
    """An ambiguous shortcut triggers neither action: Qt only warns."""
    from PySide6.QtGui import QAction

    seen: dict[str, str] = {}
    for action in window.findChildren(QAction):
        for shortcut in action.shortcuts():
            text = shortcut.toString()
            assert text not in seen, f"{text}: {seen.get(text)} and {action.objectName()}"
            seen[text] = action.objectName()


def test_a_first_start_fits_a_small_screen(qtbot):
    from PySide6.QtCore import QRect

    window = MainWindow()
    qtbot.addWidget(window)
    assert (window.width(), window.height()) == (1280, 800)  # the form's size
    window.fit_screen(QRect(0, 0, 1366, 768))  # a laptop: the height must give
    assert window.width() == 1280 and window.height() <= 768 - 40
    # In the middle of the room, frame and all: no edge hangs off (seen at y=47 in openbox).
    assert window.frameGeometry().top() >= 0 and window.y() + window.height() + 8 <= 768
    assert abs(window.x() - (1366 - 1280 - 8) // 2) <= 1
    window.fit_screen(QRect(0, 0, 1920, 1080))  # never grows
    assert window.width() == 1280 and window.height() <= 768 - 40


def test_the_toolbars_undo_stays_short_and_names_the_step_in_its_tool_tip(qtbot, window):
    from PySide6.QtGui import QUndoCommand
    from PySide6.QtWidgets import QToolButton

    window.resize(1280, 800)
    show(qtbot, window)
    toolbar = window.ui.mainToolBar
    overflow = toolbar.findChild(QToolButton, "qt_toolbar_ext_button")
    assert not window.undo_button.isEnabled()
    long_step = "Resolve combat: Orc Boyz and Wolf Riders (flank) break Empire Swordsmen"
    window.undo_stack.push(QUndoCommand(long_step))
    assert window.undo_button.text() == "Undo"
    assert window.undo_button.isEnabled()
    undo, redo = (toolbar.widgetForAction(action)
                  for action in (window.undo_button, window.redo_button))
    assert undo.toolTip() == f"Undo {long_step}"
    assert window.undo_action.text() == f"&Undo {long_step}"  # the Edit menu says it all
    assert overflow is None or not overflow.isVisible()  # every button still in sight
    window.undo_button.trigger()
    assert window.undo_stack.index() == 0
    assert window.redo_button.isEnabled() and redo.toolTip() == f"Redo {long_step}"
    assert not window.undo_button.isEnabled()
