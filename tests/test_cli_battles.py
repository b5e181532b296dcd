"""`rout import` of battles and scenarios, `rout battles`, and `rout export` of a battle.

Through `desktop.cli.main(argv)` against a real SQLite file in tmp_path (and once through
`python -m desktop` in a subprocess). Bad input exits 2 with one stderr line and changes
nothing.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.engine import moves
from desktop.engine.codec import army_to_json, battle_from_json
from desktop.engine.events import fold
from desktop.engine.scenario import load_scenario
from desktop.engine.setup import deploy_army, new_battle
from desktop.store.store import Store

from builders import army, assert_bad, run_cli, scenario, w6_unit

REPO = Path(__file__).resolve().parents[1]
CLIFF = {"id": "cliff", "name": "Cliff", "impassable": True,
         "points": [[0, 35], [72, 35], [72, 37], [0, 37]]}


@pytest.fixture
def url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'db' / 'rout.sqlite'}"


def ok(capsys, *argv: object) -> Any:
    code, out, err = run_cli(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def scenario_file(folder: Path, title: str = "Ambush at the ford") -> Path:
    data = scenario([w6_unit("orcs", "Alice", 20, 10), w6_unit("elves", "Bob", 40, 30)],
                    {"procedure": "start_of_turn", "player": "Alice"}, title=title,
                    terrain=[CLIFF])
    path = folder / "ambush.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_scenario_imports_as_a_battle_without_its_resolution(capsys, url, tmp_path):
    path = scenario_file(tmp_path)
    result = ok(capsys, "import", path, "--database", url)
    assert {key: result[key] for key in ("title", "ruleset", "units", "terrain", "events")} == {
        "title": "Ambush at the ford", "ruleset": "warhammer6", "units": 2, "terrain": 1,
        "events": 0}
    listed = ok(capsys, "battles", "--database", url)
    assert [{k: v for k, v in entry.items() if k != "created"} for entry in listed] == [
        {"id": result["battle"], "title": "Ambush at the ford", "ruleset": "warhammer6",
         "units": 2, "steps": 0, "events": 0}]
    with Store.open(url) as store:
        saved = store.load_battle(result["battle"])
    expected = load_scenario(json.loads(path.read_text())).battle
    assert saved.start == expected and saved.steps == ()


def test_an_exported_battle_imports_as_the_same_battle(capsys, url, tmp_path):
    title, battle = new_battle("warhammer6", [army("Orcs", units=2), army("Elves", units=2)],
                               title="Grudge")
    with Store.open(url) as store:
        battle_id = store.create_battle(battle, title)
        placed = deploy_army(battle, "Alice")
        store.append_step(battle_id, placed)
        x, y = placed[0].center
        step = [moves.move_to(fold(battle, placed), "1-u0", (x, y + 3.0))]
        store.append_step(battle_id, step)
    out = tmp_path / "grudge.json"
    result = ok(capsys, "export", "GRUDGE", out, "--database", url)
    assert {k: result[k] for k in ("battle", "title", "format", "units", "steps", "events")} == {
        "battle": battle_id, "title": "Grudge", "format": "json", "units": 4, "steps": 2,
        "events": len(placed) + 1}
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["format"] == "rout-battle" and document["zones"]
    assert battle_from_json(document) == ("Grudge", battle, (*placed, *step))

    again = ok(capsys, "import", out, "--database", url)
    assert again["events"] == len(placed) + 1 and again["battle"] != battle_id
    # Beside the battle it was written from, it is told apart (issue 20, item 18).
    assert again["title"] == "Grudge (2)"
    with Store.open(url) as store:
        assert sorted(b.title for b in store.list_battles()) == ["Grudge", "Grudge (2)"]
    with Store.open(url) as store:
        copy = store.load_battle(again["battle"])
    assert copy.start == battle and copy.events == (*placed, *step)
    assert len(copy.steps) == 1  # a file has no step boundaries: one step


def army_and_battle_named(capsys, url: str, tmp_path: Path, name: str) -> None:
    elves = army(name, units=1)
    path = tmp_path / "army.json"
    path.write_text(json.dumps(army_to_json(elves)), encoding="utf-8")
    ok(capsys, "import", path, "--database", url)
    ok(capsys, "import", scenario_file(tmp_path, title=name), "--database", url)


def test_export_refuses_a_name_of_both_an_army_and_a_battle(capsys, url, tmp_path):
    army_and_battle_named(capsys, url, tmp_path, "Elves")
    out = tmp_path / "out.json"
    line = assert_bad(capsys, ["export", "elves", out, "--database", url],
                      "'elves' names an army (", ") and a battle (", "give the id instead",
                      prefix="rout export: ")
    assert not out.exists()
    # The ids in the message pick one or the other.
    battle_id = line.split(") and a battle (")[1].split(")")[0]
    assert ok(capsys, "export", battle_id, out, "--database", url)["title"] == "Elves"


@pytest.mark.parametrize(("argv", "fragments"), [
    (["export", "Ambush at the ford", "{tmp}/out.md"],
     ["out.md: a battle is written as Rout JSON (.json), not markdown"]),
    (["export", "Nothing", "{tmp}/out.json"],
     ["no army or battle named 'Nothing'", "rout battles"]),
    (["import", "{tmp}/bad-scenario.json"],
     ["bad-scenario.json: units[1].position: a point [x, y] is needed here"]),
    (["import", "{tmp}/ambush.json", "--ruleset", "kensei1"],
     ["ambush.json: the battle is for warhammer6, not kensei1"]),
])
def test_bad_battle_commands_change_nothing(capsys, url, tmp_path, argv, fragments):
    scenario_file(tmp_path)
    ok(capsys, "import", tmp_path / "ambush.json", "--database", url)
    broken = json.loads((tmp_path / "ambush.json").read_text())
    broken["units"][1]["position"] = "middle"
    (tmp_path / "bad-scenario.json").write_text(json.dumps(broken), encoding="utf-8")
    database = tmp_path / "db" / "rout.sqlite"
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    listed = ok(capsys, "battles", "--database", url)
    command = [part.replace("{tmp}", str(tmp_path)) for part in argv]
    assert_bad(capsys, [*command, "--database", url], *fragments, prefix=f"rout {argv[0]}: ")
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert ok(capsys, "battles", "--database", url) == listed
    assert not (tmp_path / "out.md").exists() and not (tmp_path / "out.json").exists()


def test_battles_on_a_new_database_is_empty_and_creates_nothing(capsys, url, tmp_path):
    assert ok(capsys, "battles", "--database", url) == []
    assert not (tmp_path / "db").exists()


def test_the_real_entry_point_imports_and_lists_battles(tmp_path, url):
    path = REPO / "resources" / "scenarios" / "k1-ronin-run-through-ashigaru.json"
    run = [sys.executable, "-m", "desktop"]
    done = subprocess.run([*run, "import", str(path), "--database", url], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    listed = subprocess.run([*run, "battles", "--database", url], cwd=REPO,
                            capture_output=True, text=True, timeout=60, check=False)
    [entry] = json.loads(listed.stdout)
    assert (entry["ruleset"], entry["units"], entry["id"]) == (
        "kensei1", 3, json.loads(done.stdout)["battle"])
