"""Resolutions from the main window, on a real SQLite file: the wizard is walked with the
keyboard, Finish stores one step, the battlefield, the log and a reopened database agree;
a wizard killed half-way (SIGKILL) is resumed at the next start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from test_gui_roster import Modals, open_window
from test_gui_wizard import enter, finish, walk

from desktop.engine.dice import ScriptedRoller
from desktop.engine.events import fold
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario
from desktop.gui.main_window import MainWindow
from desktop.gui.wizard.wizard import DISCARD, PREVIEW_DELAY_MS
from desktop.store.store import Store

REPO = Path(__file__).resolve().parents[1]
WORKED = REPO / "resources" / "scenarios" / "w6-goblins-vs-elves.json"


def stored_battle(url: str, scenario_file: Path) -> tuple[str, dict]:
    data = json.loads(scenario_file.read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    with Store.open(url) as store:
        return store.import_battle(scenario.battle, scenario.title), data["resolve"]


def opened(qtbot, url: str, battle_id: str) -> MainWindow:
    window = open_window(qtbot, url)
    window.battles.open_battle(battle_id)
    qtbot.waitUntil(lambda: window.battles.battle is not None, timeout=10_000)
    return window


class WizardModals(Modals):
    """Answers message boxes as the roster tests do, but leaves the wizard (window-modal)
    to the test that drives it."""

    def _poll(self) -> None:
        from PySide6.QtWidgets import QApplication

        from desktop.gui.wizard import ResolutionWizard

        if isinstance(QApplication.activeModalWidget(), ResolutionWizard):
            return
        super()._poll()


@pytest.fixture(autouse=True)
def modals(qapp):
    answers = WizardModals()
    yield answers
    answers.stop()
    assert not answers.unexpected, f"unexpected dialogs: {answers.unexpected}"


def focus_on(qtbot, wizard) -> None:
    from PySide6.QtWidgets import QApplication

    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None
                    and QApplication.focusWidget().window() is wizard, timeout=2000)


def worked_wizard(qtbot, url: str) -> tuple[MainWindow, Any, str]:
    """The worked example's battle open in a window, its resolution's wizard open and
    focused, and the battle's id."""
    battle_id, resolve = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    window.battles.resolve(resolve["procedure"],
                           {k: v for k, v in resolve.items() if k != "procedure"})
    wizard = window.battles.wizard
    focus_on(qtbot, wizard)
    return window, wizard, battle_id


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'rout.sqlite'}"


def test_the_worked_example_from_the_window_is_one_stored_step(qtbot, url):
    battle_id, resolve = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    steps_before = len(window.battles.workspace.current.steps)
    prepared = {k: v for k, v in resolve.items() if k != "procedure"}
    window.battles.resolve(resolve["procedure"], prepared)
    wizard = window.battles.wizard
    focus_on(qtbot, wizard)
    dice = [3, 4, 5, 4, 6, 5]  # Elves break, flee 9"; Goblins pursue 11": caught
    walk(qtbot, wizard, dice, {})
    assert window.battlefield_scene.read_only  # the preview is on the table, as ghosts
    finish(qtbot, wizard)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    expected = run(load_scenario(json.loads(WORKED.read_text())).start(),
                   ScriptedAnswers(ScriptedRoller(dice))).events
    current = window.battles.workspace.current
    assert len(current.steps) == steps_before + 1
    assert [e for e in current.steps[-1] if type(e).__name__ != "UnitsEngaged"] == expected
    state = window.battles.battle
    assert not window.battlefield_scene.read_only
    assert state.states["elves"].status.name == "DESTROYED"
    assert window.battlefield_scene.unit_item("elves") is None  # caught: off the table
    goblins = window.battlefield_scene.unit_item("goblins")
    assert (goblins.pos().x(), goblins.pos().y()) == pytest.approx(
        state.states["goblins"].center)
    log = window.ui.logView.toPlainText()
    assert "Break test" in log and "[W6-BT-2]" in log
    window.close()
    # A fresh connection folds the same battle.
    with Store.open(url) as store:
        saved = store.load_battle(battle_id)
        assert fold(saved.start, saved.events) == state
        assert store.load_pending(battle_id) is None  # finished: nothing to resume


def test_cancel_stores_nothing(qtbot, url):
    battle_id, resolve = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    steps_before = len(window.battles.workspace.current.steps)
    window.battles.resolve(resolve["procedure"],
                           {k: v for k, v in resolve.items() if k != "procedure"})
    wizard = window.battles.wizard
    wizard.reject()
    assert window.battles.wizard is None
    assert len(window.battles.workspace.current.steps) == steps_before
    assert "nothing changed" in window.battle_status.text()


def test_the_unit_dock_leaves_the_preview_when_the_wizard_is_cancelled(qtbot, url):
    """Issue 20, item 14: after a cancelled wizard the Unit dock still said a unit was
    destroyed in the preview."""
    window, wizard, _ = worked_wizard(qtbot, url)
    walk(qtbot, wizard, [3, 4, 5, 4, 6, 5], {})  # Elves break, flee 9"; caught at 11"
    # The player looks at the preview: a click on the Goblins, then on open ground.
    scene = window.battlefield_scene
    goblins = scene.battle.states["goblins"].center
    for point in (goblins, (2.0, 2.0)):
        for kind, buttons in ((QEvent.Type.MouseButtonPress, Qt.MouseButton.LeftButton),
                              (QEvent.Type.MouseButtonRelease, Qt.MouseButton.NoButton)):
            view = window.battlefield_view
            pixel = view.mapFromScene(QPointF(*point))
            QApplication.sendEvent(view.viewport(), QMouseEvent(
                kind, QPointF(pixel), QPointF(view.viewport().mapToGlobal(pixel)),
                Qt.MouseButton.LeftButton, buttons, Qt.KeyboardModifier.NoModifier))
    assert scene.selected_units() == []
    assert "in the preview" in window.ui.unitTitle.text()
    assert "Gone: Elf Archers (destroyed)" in window.ui.unitDetails.text()
    wizard.leave(DISCARD)  # Cancel, and throw the answers away when asked
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    assert "in the preview" not in window.ui.unitTitle.text()
    assert "Gone" not in window.ui.unitDetails.text()
    assert "2 units on the table" in window.ui.unitDetails.text()


KILLED_MID_WIZARD = textwrap.dedent("""
    import os, signal, sys, json
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    from desktop.gui.main_window import MainWindow
    url, battle_id, resolve = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    window = MainWindow()
    window.show()
    done = []
    window.ready.connect(lambda: done.append(1))
    window.open_database(url)
    while not done:
        app.processEvents()
    window.battles.workspace.opened.connect(lambda *a: done.append(2))
    window.battles.open_battle(battle_id)
    while len(done) < 2:
        app.processEvents()
    window.battles.resolve(resolve.pop("procedure"), resolve)
    wizard = window.battles.wizard
    wizard.next()                      # the combat page as given
    wizard.currentPage().fields[0].setText("3")
    wizard.currentPage().fields[1].setText("4")
    wizard.next()                      # the break test: 3 + 4, the Elves break
    wizard.next()                      # the pursue choice: its default
    app.processEvents()
    os.kill(os.getpid(), signal.SIGKILL)  # Rout dies half-way, answers saved
""")


def test_a_wizard_killed_half_way_is_resumed_and_gives_the_same_events(qtbot, url, modals):
    battle_id, resolve = stored_battle(url, WORKED)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    died = subprocess.run([sys.executable, "-c", KILLED_MID_WIZARD, url, battle_id,
                           json.dumps(resolve)], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert died.returncode == -9, died.stderr
    with Store.open(url) as store:
        pending = store.load_pending(battle_id)
    assert pending is not None and pending.answers == ((3, 4), "pursue")
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.ready, timeout=20_000):
        window.open_database(url)
    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.Yes, seen)
    window.battles.open_battle(battle_id)
    qtbot.waitUntil(lambda: window.battles.wizard is not None, timeout=10_000)
    assert "after 2 answers" in seen[0]
    wizard = window.battles.wizard
    focus_on(qtbot, wizard)
    # It goes on at the flee roll: only the dice not yet given are asked.
    assert wizard.answers == [(3, 4), "pursue"]
    page = wizard.currentPage()
    assert page.roll.key == "flee:elves"
    for field, face in zip(page.fields, (5, 4), strict=True):
        field.setText(str(face))
    wizard.next()
    page = wizard.currentPage()
    for field, face in zip(page.fields, (6, 5), strict=True):
        field.setText(str(face))
    wizard.next()
    finish(qtbot, wizard)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    straight = run(load_scenario(json.loads(WORKED.read_text())).start(),
                   ScriptedAnswers(ScriptedRoller([3, 4, 5, 4, 6, 5]))).events
    step = window.battles.workspace.current.steps[-1]
    assert [e for e in step if type(e).__name__ != "UnitsEngaged"] == straight
    with Store.open(url) as store:
        assert store.load_pending(battle_id) is None


def test_next_turn_begins_a_turn_and_offers_the_start_of_turn(qtbot, url):
    battle_id, _ = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    turn = window.battles.battle.turn
    assert window.battles.turn_label.text().strip() == f"Turn {turn}"
    window.ui.actionNextTurn.trigger()
    assert window.battles.battle.turn == turn + 1
    assert window.battles.turn_label.text().strip() == f"Turn {turn + 1}"
    wizard = window.battles.wizard  # Warhammer: rallies and compulsory flees next
    assert wizard is not None and wizard.kind.name == "start_of_turn"
    wizard.reject()
    # Once: the live log said it twice (a real-window retry of issue 20), the report once.
    assert window.ui.logView.toPlainText().count(f"Turn {turn + 1} begins") == 1


def test_export_battle_report_in_html_and_markdown(qtbot, url, tmp_path):
    battle_id, _ = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    html = tmp_path / "report.html"
    assert window.battles.export_report(html)
    text = html.read_text(encoding="utf-8")
    assert "data:image/png;base64," in text and "Elf Archers" in text
    assert not (tmp_path / "report.png").exists()  # the picture is inside the page
    markdown = tmp_path / "report.md"
    assert window.battles.export_report(markdown)
    assert (tmp_path / "report.png").exists()
    assert "report.png" in markdown.read_text(encoding="utf-8")


def test_a_report_writes_only_the_file_the_player_chose(qtbot, url, tmp_path):
    """Issue 21: exporting report.html deleted report.png beside it; notes.md replaced
    notes.png. The player's own pictures stay byte for byte."""
    battle_id, _ = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    theirs = {name: f"the player's own {name}".encode() for name in ("report.png", "notes.png")}
    for name, data in theirs.items():
        (tmp_path / name).write_bytes(data)
    assert window.battles.export_report(tmp_path / "report.html")
    assert window.battles.export_report(tmp_path / "notes.md")
    for name, data in theirs.items():
        assert (tmp_path / name).read_bytes() == data
    text = (tmp_path / "notes.md").read_text(encoding="utf-8")
    assert "notes-2.png" in text and "notes.png" not in text.replace("notes-2.png", "")
    assert (tmp_path / "notes-2.png").read_bytes().startswith(b"\x89PNG")
    assert not list(tmp_path.glob(".*.part"))  # every file was written whole, then named


def test_the_odds_dialog_opens_from_the_battle_menu(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.ui.actionOdds.isEnabled()
    window.ui.actionOdds.trigger()
    assert window.odds_dialog.isVisible()
    window.odds_dialog.close()


def test_the_first_page_shows_the_forecast_and_it_follows_the_answers(qtbot, url):
    battle_id, resolve = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    window.battles.resolve(resolve["procedure"],
                           {k: v for k, v in resolve.items() if k != "procedure"})
    wizard = window.battles.wizard
    view = wizard.forecast_view
    # The exact figures (a first look on a busy machine may be a sample).
    qtbot.waitUntil(lambda: view.forecast is not None and not view.updating, timeout=10_000)
    first = view.forecast
    # The worked example before any roll: the Elves hold 5/18 (W6-BT-3's break test).
    assert first.exact
    assert first.chance("holds", unit="elves") == Fraction(5, 18)
    assert "Forecast" in view.title.text() and "exact" in view.title.text()
    focus_on(qtbot, wizard)
    wizard.next()  # the combat page as given
    page = wizard.currentPage()
    for field, face in zip(page.fields, (3, 4), strict=True):
        field.setText(str(face))
    wizard.next()  # 3 + 4 + 4 > 8: the Elves break
    qtbot.waitUntil(lambda: view.forecast is not first and view.forecast is not None
                    and not view.updating, timeout=10_000)
    assert view.forecast.chance("holds", unit="elves") == 0
    wizard.leave(DISCARD)


def kensei_two_friends() -> dict:
    data = json.loads((REPO / "resources/scenarios/k1-ronin-run-through-ashigaru.json")
                      .read_text(encoding="utf-8"))
    data["units"].append({
        "id": "yari", "name": "Yari Ashigaru", "player": "Crane Clan",
        "profile": {"Mv": 10, "Init": 3, "Honor": 5, "W": 1, "AP": 2},
        "base_mm": [25, 25], "models": 6, "files": 6, "position": [60, 76], "facing": 270})
    return data


def w6_failed_rally() -> dict:
    data = json.loads(WORKED.read_text(encoding="utf-8"))
    data["units"][1].update(status="fleeing", position=[36, 38])
    data["units"][0].pop("engaged_with", None)
    data["units"][1].pop("engaged_with", None)
    data["resolve"] = {"procedure": "start_of_turn", "player": "High Elves"}
    return data


def bp_overrun() -> dict:
    return json.loads((REPO / "resources/scenarios/bp-two-combats.json")
                      .read_text(encoding="utf-8"))


@pytest.mark.parametrize(("build", "dice"), [
    # The Samurai run through the Ashigaru (who hold, -1/-1) and the Yari (who run too).
    (kensei_two_friends, [7, 9, 9, 8, 1, 9, 8, 9, 10, 9]),
    # The Silver Helms, left with no enemy, Overrun (the Goblins' certain Break test is
    # rolled by the wizard itself).
    (bp_overrun, [4, 3, 2, 2, 5, 2, 3, 3]),
    # A fleeing unit fails its Rally and flees on.
    (w6_failed_rally, [6, 5, 2, 3]),
], ids=["kensei-two-friends", "bp-overrun", "w6-failed-rally"])
def test_walks_from_the_window_are_stored_and_reopen_the_same(qtbot, url, build, dice):
    data = build()
    scenario = load_scenario(data)
    with Store.open(url) as store:
        battle_id = store.import_battle(scenario.battle, scenario.title)
    window = opened(qtbot, url, battle_id)
    resolve = dict(data["resolve"])
    window.battles.resolve(resolve.pop("procedure"), resolve)
    wizard = window.battles.wizard
    focus_on(qtbot, wizard)
    walk(qtbot, wizard, dice, dict(scenario.choices))
    finish(qtbot, wizard)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    straight = scenario.resolution().replay(wizard.answers)
    assert straight.done
    step = window.battles.workspace.current.steps[-1]
    assert [e for e in step if type(e).__name__ != "UnitsEngaged"] == straight.events
    state = window.battles.battle
    for uid, unit_state in state.states.items():
        item = window.battlefield_scene.unit_item(uid)
        if unit_state.status.on_table:
            assert (item.pos().x(), item.pos().y()) == pytest.approx(unit_state.center)
        else:
            assert item is None
    window.battlefield_scene.skip_animations()
    log = window.ui.logView.toPlainText()
    assert "[" in log and straight.events and all(
        window.battles.battle.roster[e.unit].name in log
        for e in straight.events if hasattr(e, "unit") and e.unit in state.roster)
    window.close()
    with Store.open(url) as store:
        saved = store.load_battle(battle_id)
    assert fold(saved.start, saved.events) == state


def test_clicking_a_log_line_selects_its_units_on_the_table(qtbot, url):
    from PySide6.QtGui import QTextCursor

    window, wizard, _ = worked_wizard(qtbot, url)
    walk(qtbot, wizard, [3, 4, 5, 4, 2, 2], {})  # Elves break and escape the Goblins
    finish(qtbot, wizard)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    log = window.ui.logView
    lines = log.toPlainText().splitlines()
    line = next(i for i, text in enumerate(lines) if text.startswith("Goblin Spearmen pursue"))
    window.battlefield_scene.clearSelection()
    cursor = QTextCursor(log.document().findBlockByNumber(line))
    log.setTextCursor(cursor)
    assert set(window.battlefield_scene.selected_units()) <= {"goblins", "elves"}
    assert "goblins" in window.battlefield_scene.selected_units()


# The wizard and the table: its preview is drawn on the table, so it must not cover it.

# The main window as it first opens on each screen (frame, battlefield viewport), measured
# under openbox: the docks keep their widths, the table takes what is left.
FIRST_WINDOWS = {
    (1280, 800): (QRect(0, 0, 1280, 790), QRect(225, 147, 820, 460)),
    (1366, 768): (QRect(0, 0, 1366, 758), QRect(225, 147, 906, 428)),
}


@pytest.mark.parametrize("screen_size", list(FIRST_WINDOWS))
@pytest.mark.parametrize("units_at", ["none", "centre", "left", "right"])
def test_the_wizard_opens_beside_the_tables_centre_within_the_screen(screen_size, units_at):
    from desktop.gui.wizard.placement import FRAME_ALLOWANCE, beside_the_table

    screen = QRect(QPoint(0, 0), QSize(*screen_size))
    window, table = FIRST_WINDOWS[screen_size]
    centre = table.center()
    units = {"none": [], "centre": [centre], "left": [centre - QPoint(150, 0)],
             "right": [centre + QPoint(150, 20)]}[units_at]
    wanted, least = QSize(720, 620), QSize(554, 504)
    place = beside_the_table(window=window, table=table, units=units, screen=screen,
                             wanted=wanted, least=least)
    framed = QRect(place.topLeft(), place.size() + FRAME_ALLOWANCE)
    assert screen.contains(framed), f"{framed} runs off the {screen_size} screen"
    assert place.width() >= least.width() and place.height() >= least.height()
    assert not framed.contains(centre), "the table's centre is under the wizard"
    for unit in units:
        assert not framed.contains(unit), "the units it resolves are under the wizard"


def test_the_wizard_leaves_the_table_and_its_ghosts_in_sight(qtbot, url):
    from desktop.gui.battlefield.scene import PREVIEW_OPACITY

    battle_id, resolve = stored_battle(url, WORKED)
    window = opened(qtbot, url, battle_id)
    view = window.battlefield_view
    window.battles.resolve(resolve["procedure"],
                           {k: v for k, v in resolve.items() if k != "procedure"})
    wizard = window.battles.wizard
    focus_on(qtbot, wizard)
    viewport = view.viewport()
    centre = viewport.mapToGlobal(viewport.rect().center())
    assert not wizard.frameGeometry().contains(centre)
    walk(qtbot, wizard, [3, 4, 5, 4, 6, 5], {})
    qtbot.waitUntil(lambda: window.battlefield_scene.read_only, timeout=2000)
    ghosts = [item for item in window.battlefield_scene.unit_items().values()
              if item.opacity() == pytest.approx(PREVIEW_OPACITY)]
    assert ghosts
    for ghost in ghosts:
        pixel = viewport.mapToGlobal(view.mapFromScene(ghost.pos()))
        assert viewport.rect().contains(viewport.mapFromGlobal(pixel))
        assert not wizard.frameGeometry().contains(pixel), f"{ghost.unit_id} is hidden"
    # The banner's words stand in the part of it the wizard leaves in sight.
    banner = view.banner_text_rect(QRectF(0, 0, viewport.width(), 30)).toRect()
    words = QRect(viewport.mapToGlobal(banner.topLeft()), banner.size())
    assert words.width() > 200 and not words.intersects(wizard.frameGeometry())
    wizard.leave(DISCARD)
    window.close()


def test_a_preview_the_wizard_sends_after_finish_does_not_cover_the_result(qtbot, url):
    """Seen remaking the README's pictures: the wizard's preview timer fired after Finish
    and put the preview's ghosts and banner back over the resolved battle."""
    window, wizard, _ = worked_wizard(qtbot, url)
    walk(qtbot, wizard, [3, 4, 5, 4, 6, 5], {})
    wizard.send_preview()
    wizard._preview_timer.start()  # a preview still due, as after the last answer
    finish(qtbot, wizard)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
    qtbot.wait(3 * PREVIEW_DELAY_MS)
    assert not window.battlefield_scene.read_only
    assert window.battlefield_scene.banner == ""


def test_the_table_previews_the_dice_on_the_page_before_next(qtbot, url):
    """A real-window retry of issue 20: after Roll said "Night Hollow Spears keep their
    nerve" the table still showed them fleeing until Next. The preview follows the dice on
    the page as soon as every die is in."""
    window, wizard, _ = worked_wizard(qtbot, url)
    enter(qtbot, wizard)  # the first page as prepared: the Break test is asked next
    page = wizard.currentPage()
    assert page.roll is not None and page.roll.purpose == "break test"
    scene = window.battlefield_scene

    def elves_shown() -> str:
        return scene.battle.states["elves"].status.name

    # Held, the Elves stand; broken, the later rolls' defaults have them caught.
    for faces, status in (((1, 1), "READY"), ((6, 6), "DESTROYED"), ((1, 2), "READY")):
        for field, face in zip(page.fields, faces, strict=True):
            field.setText(str(face))
        qtbot.waitUntil(lambda s=status: elves_shown() == s, timeout=2000)
        assert wizard.currentPage() is page  # Next was not pressed
    wizard.leave(DISCARD)
    qtbot.waitUntil(lambda: window.battles.wizard is None, timeout=5000)
