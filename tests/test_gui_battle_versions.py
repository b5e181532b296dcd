"""Two windows on one battle (issue 21): a step made on a battle that another window has
moved on since is refused with "changed by someone else" and the window shows the battle as
stored; Undo takes off only the step this window made; a second window never overwrites
the first's unfinished resolution.

The other window is a real separate process stepping through the store; this window is
real, on a SQLite file and on the PostgreSQL server. The file watch is off, so that only
the battle's version stands between a stale step and the other window's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from test_gui_battles import ELVES, GOBLINS, deploy_both, drag, new_battle_in
from test_gui_resolution import WORKED, WizardModals
from test_gui_roster import open_window, sample, seed

from desktop.engine import moves
from desktop.engine.errors import MoveRefused
from desktop.engine.model import Battle
from desktop.engine.scenario import load_scenario
from desktop.gui.main_window import MainWindow
from desktop.store.store import Store

REPO = Path(__file__).resolve().parents[1]

OTHER_WINDOW = textwrap.dedent("""
    import json, sys
    from desktop.engine import moves
    from desktop.store.errors import ConflictError
    from desktop.store.store import Store

    url, battle_id, action, argument = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    with Store.open(url) as store:
        saved = store.load_battle(battle_id)
        if action == "move":
            unit, x, y = json.loads(argument)
            event = moves.move_to(saved.state, unit, (x, y))
            store.append_step(battle_id, [event], version=saved.version)
        elif action == "wheel":
            unit, angle = json.loads(argument)
            store.append_step(battle_id, [moves.wheel(saved.state, unit, angle)],
                              version=saved.version)
        else:  # its own resolution: "answers" as JSON
            procedure, resolve, answers = json.loads(argument)
            try:
                store.save_pending(battle_id, procedure, resolve, answers, "Their combat",
                                   owner="other-window")
            except ConflictError as error:
                print("refused:", error)
""")


def other_window(url: str, battle_id: str, action: str, argument: object) -> str:
    done = subprocess.run([sys.executable, "-c", OTHER_WINDOW, url, battle_id, action,
                           json.dumps(argument)], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture
def modals(qapp):
    answers = WizardModals()
    yield answers
    answers.stop()
    assert not answers.unexpected, f"unexpected dialogs: {answers.unexpected}"


@pytest.fixture
def two_windows(qtbot, database_url, modals) -> tuple[MainWindow, str, str]:
    seed(database_url, sample(GOBLINS), sample(ELVES))
    window = open_window(qtbot, database_url)
    window.database_reload.watch_enabled = False
    battle_id = new_battle_in(qtbot, window, modals)
    deploy_both(qtbot, window)
    window.battlefield_view.fit_table()
    return window, database_url, battle_id


def stored(url: str, battle_id: str):
    with Store.open(url) as store:
        return store.load_battle(battle_id)


def middle_units(battle: Battle) -> list[str]:
    """Units deployed farthest from the table's sides first."""
    return sorted(battle.roster, key=lambda uid: abs(battle.states[uid].center[0]
                                                     - battle.table.width / 2))


def a_move(battle: Battle, unit: str, distance: float = 3.0) -> tuple[float, float]:
    """Where `unit` may go straight ahead or back by `distance`, as the engine allows."""
    x, y = battle.states[unit].center
    for target in ((x, y + distance), (x, y - distance)):
        try:
            moves.move_to(battle, unit, target)
        except MoveRefused:
            continue
        return target
    raise AssertionError(f"{unit} can move nowhere")


def reloaded(qtbot, window: MainWindow, url: str, battle_id: str) -> None:
    """The window reads the battle again and shows it as stored, with nothing to undo."""
    want = stored(url, battle_id)
    qtbot.waitUntil(lambda: window.battles.workspace.current is not None
                    and window.battles.workspace.current.version == want.version,
                    timeout=10_000)
    assert window.battles.battle == want.state
    qtbot.waitUntil(lambda: window.undo_stack.count() == 0, timeout=5000)


def test_terrain_placed_from_a_battle_another_window_moved_on_is_refused(
        qtbot, two_windows):
    window, url, battle_id = two_windows
    battle = window.battles.battle
    unit = middle_units(battle)[0]
    there = a_move(battle, unit)
    other_window(url, battle_id, "move", [unit, *there])
    # This window still shows the unit where it was: a rock where it now stands passes
    # the engine's check here, and only the battle's version can refuse it.
    x, y = there
    corners = [(x - 0.5, y - 0.5), (x + 0.5, y - 0.5), (x, y + 0.5)]
    rock = moves.place_terrain(battle, "rock", corners, impassable=True)
    window.battles.workspace.apply([rock], "Place impassable terrain")
    saved = stored(url, battle_id)
    assert saved.state.terrain == () and saved.state.states[unit].center == pytest.approx(there)
    assert "changed by someone else" in window.battle_status.text()
    assert "changed by someone else" in window.ui.logView.toPlainText()
    reloaded(qtbot, window, url, battle_id)
    assert window.battlefield_scene.unit_item(unit).pos().toTuple() == pytest.approx(there)


def test_a_stale_drag_of_a_unit_another_window_moved_is_refused(qtbot, two_windows):
    window, url, battle_id = two_windows
    battle = window.battles.battle
    unit = middle_units(battle)[0]
    start = battle.states[unit].center
    theirs = a_move(battle, unit)
    other_window(url, battle_id, "move", [unit, *theirs])
    steps = len(stored(url, battle_id).steps)
    drag(window, start, a_move(battle, unit, 1.5))  # from where this window shows it
    assert "changed by someone else" in window.battle_status.text()
    saved = stored(url, battle_id)
    assert len(saved.steps) == steps  # one of the two moves: theirs
    assert saved.state.states[unit].center == pytest.approx(theirs)
    reloaded(qtbot, window, url, battle_id)


def test_undo_never_takes_off_another_windows_step(qtbot, two_windows):
    window, url, battle_id = two_windows
    battle = window.battles.battle
    mine, other = middle_units(battle)[:2]
    start = battle.states[mine].center
    drag(window, start, a_move(battle, mine))
    after_mine = stored(url, battle_id)
    other_window(url, battle_id, "wheel", [other, 10.0])
    window.undo_action.trigger()
    saved = stored(url, battle_id)
    assert len(saved.steps) == len(after_mine.steps) + 1  # my move and their wheel, both kept
    assert saved.state.states[mine].center == after_mine.state.states[mine].center
    assert saved.state.states[other].facing != after_mine.state.states[other].facing
    assert "changed by someone else" in window.ui.logView.toPlainText()
    assert "Undone:" not in window.ui.logView.toPlainText()
    reloaded(qtbot, window, url, battle_id)


def test_a_second_window_never_overwrites_the_first_ones_unfinished_resolution(
        qtbot, database_url, modals):
    data = json.loads(WORKED.read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    with Store.open(database_url) as store:
        battle_id = store.import_battle(scenario.battle, scenario.title)
    window = open_window(qtbot, database_url)
    window.battles.open_battle(battle_id)
    qtbot.waitUntil(lambda: window.battles.battle is not None, timeout=10_000)
    qtbot.wait(100)  # opened: it looked for an unfinished resolution to offer (none yet)
    resolve = dict(data["resolve"])
    procedure = resolve.pop("procedure")
    # The other window is answering the combat: two answers so far.
    other_window(database_url, battle_id, "pending", [procedure, resolve, [[3, 4], "pursue"]])

    seen: list[str] = []
    modals.message(QMessageBox.StandardButton.No, seen)
    window.battles.resolve(procedure, resolve)
    assert window.battles.wizard is None  # told, and nothing new begun
    assert seen and "under way" in seen[0] and "2 answers" in seen[0]
    with Store.open(database_url) as store:
        kept = store.load_pending(battle_id)
    assert kept is not None and kept.owner == "other-window"
    assert kept.answers == ((3, 4), "pursue")

    # Taken over here (the other window was closed, say): it goes on from its answers, and
    # the other window may no longer write over them.
    modals.message(QMessageBox.StandardButton.Yes, seen)
    window.battles.resolve(procedure, resolve)
    qtbot.waitUntil(lambda: window.battles.wizard is not None, timeout=10_000)
    assert window.battles.wizard.answers == [(3, 4), "pursue"]
    refused = other_window(database_url, battle_id, "pending", [procedure, resolve, [[1, 1]]])
    assert "refused" in refused and "under way in another window" in refused
    with Store.open(database_url) as store:
        kept = store.load_pending(battle_id)
    assert kept is not None and kept.answers == ((3, 4), "pursue")
    assert kept.owner == window.battles.resolutions.owner
    window.battles.wizard.reject()
