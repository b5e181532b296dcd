"""Hostile battles (issue "Reliability of the battle half", items 5-7, 9 and 11): one check of
what a battle may look like, for battle files and scenarios alike and for every event
replayed, so that whatever `rout import` takes the window can draw and replay.

Through `desktop.cli.main` against real SQLite files in tmp_path (and `python -m desktop`
where a regression would hang the test run). Every refusal is one line, exit 2, and stores
nothing: the database is not even created.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import hostile
import pytest
from hostile import Spec
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine import moves, standing
from desktop.engine.codec import battle_from_json
from desktop.engine.errors import MoveRefused, ScenarioError
from desktop.engine.events import Event, TurnBegan, event_from_json, fold
from desktop.engine.geometry import Table
from desktop.engine.model import Army, Battle, Terrain
from desktop.engine.setup import new_battle
from desktop.engine.standing import MAX_CORNERS, MAX_TABLE, MAX_TERRAIN, replay
from desktop.store import store as store_module
from desktop.store.store import Store

from builders import assert_bad, run_cli

REPO = Path(__file__).resolve().parents[1]
ORCS, ELVES = Spec("orcs", "Alice", 20, 10), Spec("elves", "Bob", 40, 30)
CLIFF = hostile.piece("cliff", [[0, 35], [72, 35], [72, 37], [0, 37]])


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'db' / 'rout.sqlite'}"


def ok(capsys, *argv: object) -> Any:
    code, out, err = run_cli(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def refused(capsys, tmp_path: Path, url: str, data: Any, *fragments: str) -> str:
    """`rout import` of `data` exits 2 with one line naming the problem and stores nothing."""
    path = write(tmp_path / "hostile.json", data)
    line = assert_bad(capsys, ["import", path, "--database", url], *fragments,
                      prefix="rout import: ")
    assert not (tmp_path / "db").exists(), "nothing may be stored, not even a database"
    return line


# ---------------------------------------------------------------------------------------------
# Item 5: states the engine never allows, refused in both formats alike

STATES: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "units overlap": ({"units": [ORCS, Spec("elves", "Bob", 21, 10)]},
                      ("units 'orcs' and 'elves' overlap",)),
    "a unit off the table": ({"units": [ORCS, Spec("elves", "Bob", 71, 30)]},
                             ("unit 'elves' does not fit on the 72x48 table",)),
    "a unit inside impassable terrain": ({"units": [ORCS, Spec("elves", "Bob", 40, 36)],
                                          "terrain": [CLIFF]},
                                         ("unit 'elves' stands on impassable terrain 'cliff'",)),
    "terrain with two corners": ({"terrain": [hostile.piece("rock", [[1, 1], [2, 2]])]},
                                 ("terrain[0].points:", "at least three corner points")),
    "two pieces with one id": ({"terrain": [hostile.piece("rock", [[1, 1], [2, 1], [1, 2]]),
                                            hostile.piece("rock", [[5, 1], [6, 1], [5, 2]])]},
                               ("two pieces of terrain are called 'rock'",)),
    "terrain off the table": ({"terrain": [hostile.piece("rock", [[70, 1], [75, 1], [72, 4]])]},
                              ("terrain 'rock' goes off the 72x48 table",)),
    f"terrain of more than {MAX_CORNERS} corners": (
        {"terrain": [hostile.piece("ring", [
            [36 + 5 * math.cos(turn * math.tau / (MAX_CORNERS + 1)),
             24 + 5 * math.sin(turn * math.tau / (MAX_CORNERS + 1))]
            for turn in range(MAX_CORNERS + 1)])]},
        ("terrain[0].points:", f"at most {MAX_CORNERS} corners")),
    "a table 1e308 inches wide": ({"table": (1e308, 48)},
                                  ("table:", "larger than Rout plays on",
                                   f"at most {MAX_TABLE:g} on a side")),
    "a table just past the limit": ({"table": (MAX_TABLE + 0.5, 48)},
                                    ("table:", "larger than Rout plays on")),
}


@pytest.mark.parametrize("form", ["rout-battle", "rout-scenario"])
@pytest.mark.parametrize("case", STATES, ids=str)
def test_a_state_the_engine_never_allows_is_refused_in_either_format(capsys, tmp_path, url,
                                                                     case, form):
    layout, fragments = STATES[case]
    units = layout.get("units", [ORCS, ELVES])
    table, terrain = layout.get("table", (72, 48)), layout.get("terrain", [])
    data = (hostile.battle_document(units, table=table, terrain=terrain)
            if form == "rout-battle" else
            hostile.scenario_document(units, table=table, terrain=terrain))
    line = refused(capsys, tmp_path, url, data, *fragments)
    assert len(line) <= 200, line


def test_the_same_battle_when_it_can_be_is_taken_in_either_format(capsys, tmp_path, url):
    """The check refuses what cannot be, not what looks like it: the layouts above, set
    right, are imported from both formats."""
    for form in (hostile.battle_document, hostile.scenario_document):
        path = write(tmp_path / "fine.json", form([ORCS, ELVES], terrain=[CLIFF]))
        assert ok(capsys, "import", path, "--database", url)["terrain"] == 1
    assert len(ok(capsys, "battles", "--database", url)) == 2


def _moved(unit: str, to: tuple[float, float], start: tuple[float, float]) -> dict[str, Any]:
    return {"type": "UnitMoved", "unit": unit, "roll": 0, "path": [list(start), list(to)],
            "facing": 90.0}


# Each follows events that are fine (the orcs step forward, the elves back and forth), so
# the place named is the event's own.
EVENTS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "a move onto another unit": (_moved("orcs", (40, 30), (20, 11)),
                                 ("'orcs' would overlap unit 'elves'",)),
    "a move off the table": (_moved("orcs", (70, 11), (20, 11)),
                             ("'orcs' would stand off the 72x48 table at (70, 11)",)),
    "a move into impassable terrain": (_moved("orcs", (20, 36), (20, 11)),
                                       ("'orcs' would stand on impassable terrain 'cliff'",)),
    "a deployment onto impassable terrain": (
        {"type": "UnitDeployed", "unit": "spare", "center": [50, 36], "facing": 90},
        ("'spare' would stand on impassable terrain 'cliff'",)),
    "terrain of two corners": (
        {"type": "TerrainPlaced", "terrain": "rock", "name": "Rock",
         "points": [[1, 1], [2, 2]]}, ("terrain 'rock'", "at least three corner points")),
    "impassable terrain over a unit": (
        {"type": "TerrainPlaced", "terrain": "rock", "name": "Rock", "impassable": True,
         "points": [[38, 28], [42, 28], [40, 32]]},
        ("impassable terrain 'rock' would cover unit 'elves'",)),
    "a second piece with the same id": (
        {"type": "TerrainPlaced", "terrain": "cliff", "name": "Cliff",
         "points": [[1, 1], [4, 1], [1, 4]]}, ("already a piece of terrain 'cliff'",)),
    "terrain moved onto a unit": ({"type": "TerrainMoved", "terrain": "cliff", "dx": 0,
                                   "dy": -6}, ("impassable terrain 'cliff' would cover",)),
    "terrain moved off the table": ({"type": "TerrainMoved", "terrain": "cliff", "dx": 0,
                                     "dy": 20}, ("terrain 'cliff' goes off the 72x48 table",)),
    "a reform to no files (item 6)": ({"type": "UnitReformed", "unit": "orcs", "files": 0},
                                      ("'orcs' has 10 models", "1 to 10 files wide, not 0")),
    "a reform wider than the unit": ({"type": "UnitReformed", "unit": "orcs", "files": 11},
                                     ("1 to 10 files wide, not 11",)),
    "casualties that add models": ({"type": "CasualtiesRemoved", "unit": "orcs",
                                    "models": -5}, ("'orcs' would have 15 models",)),
    "a friend engaged": ({"type": "UnitsEngaged", "unit": "orcs", "enemy": "spare"},
                         ("'orcs' would be engaged with 'spare', a friend",)),
    "a unit that is not there": ({"type": "UnitsEngaged", "unit": "orcs", "enemy": "ghost"},
                                 ("names 'ghost', which is not a unit of this battle",)),
}


def _with_events(*events: dict[str, Any]) -> dict[str, Any]:
    spare = Spec("spare", "Alice", 0, 0, status="reserve")
    fine = [_moved("orcs", (20, 11), (20, 10)), _moved("elves", (40, 31), (40, 30)),
            _moved("elves", (40, 30), (40, 31))]
    return hostile.battle_document([ORCS, ELVES, spare], terrain=[CLIFF],
                                   events=[*fine, *events])


@pytest.mark.parametrize("case", EVENTS, ids=str)
def test_an_event_that_leads_where_the_engine_never_goes_is_refused(capsys, tmp_path, url,
                                                                    case):
    event, fragments = EVENTS[case]
    line = refused(capsys, tmp_path, url, _with_events(event), "events[3]: ", *fragments)
    assert "Traceback" not in line and len(line) <= 200, line


def test_the_fine_events_alone_are_taken(capsys, tmp_path, url):
    path = write(tmp_path / "fine.json", _with_events())
    assert ok(capsys, "import", path, "--database", url)["events"] == 3


def test_a_reform_to_no_files_is_one_line_from_the_real_command(tmp_path):
    """Item 6: it was a ZeroDivisionError, 28 lines of traceback."""
    path = write(tmp_path / "reform.json", _with_events(EVENTS["a reform to no files (item 6)"][0]))
    done = subprocess.run([sys.executable, "-m", "desktop", "import", str(path), "--database",
                           f"sqlite:///{tmp_path / 'db.sqlite'}"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and done.stdout == "", done
    [line] = done.stderr.splitlines()
    assert "1 to 10 files wide, not 0" in line and "Traceback" not in done.stderr


def test_too_many_pieces_of_terrain_are_refused_before_any_is_read(capsys, tmp_path, url):
    terrain = [hostile.piece(f"r{i}", [[1, 1], [2, 1], [1, 2]]) for i in range(MAX_TERRAIN + 1)]
    refused(capsys, tmp_path, url, hostile.battle_document([ORCS], terrain=terrain),
            f"terrain: {MAX_TERRAIN + 1} pieces of terrain is more than a table holds "
            f"(at most {MAX_TERRAIN})")


def test_an_event_past_the_terrain_limit_is_refused(capsys, tmp_path, url, monkeypatch):
    monkeypatch.setattr(standing, "MAX_TERRAIN", 2)
    placed = {"type": "TerrainPlaced", "terrain": "rock", "name": "Rock",
              "points": [[1, 1], [4, 1], [1, 4]]}
    data = hostile.battle_document([ORCS], terrain=[hostile.piece("a", [[5, 5], [6, 5], [5, 6]]),
                                                    hostile.piece("b", [[8, 5], [9, 5], [8, 6]])],
                                   events=[placed])
    refused(capsys, tmp_path, url, data, "events[0]: a table holds at most 2 pieces")


# ---------------------------------------------------------------------------------------------
# Item 7: rout check-database replays every battle


def _damage_an_event(database: Path, unit: str) -> None:
    """What an edit by hand (or a bit flipped in a row) does: the last event names a unit
    that is not in the battle; every page stays healthy."""
    with sqlite3.connect(database) as connection:
        sequence, data = connection.execute(
            "SELECT sequence, data FROM battle_event ORDER BY sequence DESC LIMIT 1").fetchone()
        event = json.loads(data)
        event["unit"] = unit
        connection.execute("UPDATE battle_event SET data = ? WHERE sequence = ?",
                           (json.dumps(event), sequence))
    connection.close()


def test_check_database_replays_every_battle(capsys, tmp_path, url):
    path = write(tmp_path / "fine.json", _with_events())
    imported = ok(capsys, "import", path, "--database", url)
    healthy = ok(capsys, "check-database", "--database", url)
    assert healthy["battles"] == 1 and healthy["ok"]
    _damage_an_event(tmp_path / "db" / "rout.sqlite", "ghost")
    line = assert_bad(capsys, ["check-database", "--database", url],
                      f"({imported['battle']}) cannot be replayed", "its event 3 of 3 (UnitMoved)",
                      "names 'ghost', which is not a unit of this battle",
                      prefix="rout check-database: ")
    assert "'Hostile'" in line


def test_check_database_names_an_event_that_puts_a_unit_in_an_impossible_place(capsys,
                                                                              tmp_path, url):
    path = write(tmp_path / "fine.json", _with_events())
    ok(capsys, "import", path, "--database", url)
    _damage_an_event(tmp_path / "db" / "rout.sqlite", "orcs")  # the elves' move, made the orcs'
    assert_bad(capsys, ["check-database", "--database", url],
               "cannot be replayed: its event 3 of 3 (UnitMoved): 'orcs' would overlap unit "
               "'elves'", prefix="rout check-database: ")


# ---------------------------------------------------------------------------------------------
# Item 9: a replay is linear in its events (the figures: tests/bench/bench_hostile.py)


def _naive_fold(battle: Battle, events: list[Event]) -> Battle:
    """Each event applied to the battle the last one made, nothing shared: the meaning a
    replay must keep."""
    return functools.reduce(lambda done, event: event.apply_to(done), events, battle)


TURNS = st.integers(1, 6)


def _event_strategy(units: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    unit = st.sampled_from(units)
    return st.one_of(
        st.builds(lambda u, f: {"type": "FlagSet", "unit": u, "flag": f}, unit,
                  st.sampled_from(["turn:ran", "turn:shot", "locked_runner", "marked"])),
        st.builds(lambda u, t, d: {"type": "ModifierApplied", "unit": u, "stat": "Ld",
                                   "delta": d, "expires_after_turn": t, "source": "s"},
                  unit, st.integers(0, 8), st.integers(-2, 2)),
        st.builds(lambda t: {"type": "TurnBegan", "turn": t}, st.integers(1, 9)),
        st.builds(lambda u: {"type": "UnitBroke", "unit": u}, unit),
        st.builds(lambda u: {"type": "UnitRallied", "unit": u}, unit),
        st.builds(lambda t, x: {"type": "TerrainPlaced", "terrain": t, "name": t.title(),
                                "points": [[x, 20], [x + 1, 20], [x, 21]]}, ROCK_IDS,
                  st.integers(1, 8)),
        st.builds(lambda t: {"type": "TerrainRemoved", "terrain": t}, ROCK_IDS),
        st.builds(lambda t, d: {"type": "TerrainMoved", "terrain": t, "dx": d, "dy": 0.5},
                  ROCK_IDS, st.sampled_from([-0.5, 0.25])),
        st.builds(lambda t, n: {"type": "TerrainRenamed", "terrain": t, "name": n},
                  ROCK_IDS, st.sampled_from(["Crag", "Tor"])),
    )


ROCK_IDS = st.sampled_from(["a", "b", "c"])


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_replay_ends_where_applying_each_event_in_turn_does(data):
    """A replay changes one mapping of states in place and looks, at a new turn, only at
    the units a turn may change (model.ReplayStates): it must end exactly where applying
    the events one by one to fresh battles does."""
    units = hostile.grid(6)
    start = hostile.battle_document(units, table=(30, 30),
                                    terrain=[hostile.piece("a", [[4, 20], [5, 20], [4, 21]],
                                                           impassable=False)])
    battle = battle_from_json(start)[1]
    raw = data.draw(st.lists(_event_strategy([spec.id for spec in units]), max_size=40))
    events = [event_from_json(item) for item in raw]
    expected = _naive_fold(battle, events)
    replayed = [fold(battle, events)]
    refused = ""
    try:
        replayed.append(replay(battle, events))
    except standing.ReplayError as error:
        refused = error.message
    # What the checked replay refuses here, and nothing else.
    assert not refused or "already a piece of terrain" in refused or (
        "goes off the 30x30 table" in refused), refused
    for found in replayed:
        assert (found.turn, found.terrain) == (expected.turn, expected.terrain)
        assert dict(found.states) == dict(expected.states)
    # The battle replayed from is left as it was, and so is what a fold handed out.
    assert battle == battle_from_json(start)[1]
    halfway = fold(battle, events[:len(events) // 2])
    snapshot = dict(halfway.states)
    fold(halfway, events[len(events) // 2:])
    assert dict(halfway.states) == snapshot


def test_a_new_turn_in_a_replay_looks_only_at_what_it_may_drop(monkeypatch):
    """5,000 units and 562,000 new turns took 125 s to import: every TurnBegan looked at
    every unit. In a replay it looks at the units carrying a turn flag or a modifier that
    runs out, and at no other."""
    units = hostile.grid(400)
    battle = battle_from_json(hostile.battle_document(units, table=hostile.grid_table(400)))[1]
    looked_at: list[str] = []
    dropped = TurnBegan._dropped

    def counting(self: TurnBegan, state: Any) -> Any:
        looked_at.append(state.unit_id)
        return dropped(self, state)

    monkeypatch.setattr(TurnBegan, "_dropped", counting)
    marked = [event_from_json(item) for item in hostile.flagged(units[:3])
              + hostile.lasting_modifiers(units[3:5], until=2)]
    after = fold(battle, [*marked, *(event_from_json(item) for item in hostile.turns(200))])
    assert after.turn == 201
    assert sorted(looked_at) == sorted(["u0", "u1", "u2", "u3", "u4"])  # each once
    assert not any(after.states[f"u{i}"].flags or after.states[f"u{i}"].modifiers
                   for i in range(5))


# ---------------------------------------------------------------------------------------------
# Item 11: a named pipe is not a file to wait on


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("command", ["import", "resolve", "forecast", "move"])
def test_a_named_pipe_is_refused_at_once(tmp_path, command):
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    extra = {"import": ["--database", f"sqlite:///{tmp_path / 'db.sqlite'}"],
             "move": ["--unit", "goblins", "--wheel", "10"]}.get(command, [])
    done = subprocess.run([sys.executable, "-m", "desktop", command, str(pipe), *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == "", done
    [line] = done.stderr.splitlines()
    assert "pipe.json: not a regular file" in line, line
    assert not (tmp_path / "db.sqlite").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_as_the_database_is_refused_at_once(tmp_path):
    pipe = tmp_path / "rout.sqlite"
    os.mkfifo(pipe)
    done = subprocess.run([sys.executable, "-m", "desktop", "armies", "--database", str(pipe)],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == "", done
    [line] = done.stderr.splitlines()
    assert "rout.sqlite is not a regular file" in line, line


def test_a_folder_is_still_called_a_folder(capsys, tmp_path):
    folder = tmp_path / "scenario.json"
    folder.mkdir()
    assert_bad(capsys, ["resolve", folder], "scenario.json: is a folder, not a scenario")


# ---------------------------------------------------------------------------------------------
# The same limits for what a player does in the window (the engine decides them there too)


def test_a_player_cannot_draw_terrain_past_the_limits():
    battle = battle_from_json(hostile.battle_document([ORCS]))[1]
    ring = [(36 + 5 * math.cos(turn * math.tau / (MAX_CORNERS + 1)),
             24 + 5 * math.sin(turn * math.tau / (MAX_CORNERS + 1)))
            for turn in range(MAX_CORNERS + 1)]
    with pytest.raises(MoveRefused, match=f"101 corners: a piece has at most {MAX_CORNERS}"):
        moves.place_terrain(battle, "ring", ring)
    moves.place_terrain(battle, "ring", ring[:MAX_CORNERS])  # a hundred is fine
    crowded = dataclasses.replace(battle, terrain=tuple(
        Terrain(f"r{i}", "Rock", ((1.0, 1.0), (2.0, 1.0), (1.0, 2.0))) for i in range(MAX_TERRAIN)))
    with pytest.raises(MoveRefused, match=f"already holds {MAX_TERRAIN} pieces"):
        moves.place_terrain(crowded, "one-more", [(5.0, 5.0), (6.0, 5.0), (5.0, 6.0)])


def test_a_new_battle_is_on_a_table_rout_plays_on():
    armies = [Army("Orcs", "Alice", "warhammer6", ()), Army("Elves", "Bob", "warhammer6", ())]
    with pytest.raises(ScenarioError, match="larger than Rout plays on"):
        new_battle("warhammer6", armies, table=Table(1e308, 48))
    assert new_battle("warhammer6", armies, table=Table(MAX_TABLE, MAX_TABLE)).battle


# ---------------------------------------------------------------------------------------------
# Item 8: a picture of a battle that cannot be opened ends, saying why


def test_a_screenshot_of_a_battle_that_fails_to_open_exits_2_with_the_reason(capsys, tmp_path,
                                                                             url):
    """It showed a message box nobody could close, and never exited."""
    path = write(tmp_path / "fine.json", _with_events())
    battle_id = ok(capsys, "import", path, "--database", url)["battle"]
    _damage_an_event(tmp_path / "db" / "rout.sqlite", "ghost")
    picture = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "desktop", "--screenshot", str(picture),
                           "--database", url, "--battle", battle_id], cwd=REPO,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done
    lines = [line for line in done.stderr.splitlines() if line.startswith("rout: ")]
    assert lines == ["rout: Cannot open the battle: an event names 'ghost', which is not a "
                     "unit of this battle: the database may be damaged (File ▸ Check Database "
                     "names the event)"], done.stderr
    assert not picture.exists()


def test_an_imported_battle_is_written_a_batch_of_rows_at_a_time(tmp_path, monkeypatch):
    """Half a million events imported held 630 MB, the rows of them all at once; written
    in batches they come back as they went in, step by step."""
    monkeypatch.setattr(store_module, "EVENT_BATCH", 2)
    _, start, events = battle_from_json(_with_events())
    steps = [events[:2], (), events[2:], events[:1]]
    with Store.open(f"sqlite:///{tmp_path / 'rout.sqlite'}") as store:
        battle_id = store.import_battle(start, "Batches", steps)
        saved = store.load_battle(battle_id)
    assert saved.steps == (events[:2], events[2:], events[:1])
