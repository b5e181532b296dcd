"""`rout move SCENARIO.json --unit ID ...`: one player move, checked, printed as events.

Good moves print JSON and exit 0; refused ones print one stderr line naming what is in the
way and exit 2 (DESIGN.md "Headless surfaces"). Positions are worked out by hand from
w6-four-units.json: the handgunners stand at (42.94, 24) facing down (270), 5 wide on 20 mm
bases (3.937" x 1.575"); the swordsmen at (36, 24) are 2.969" from them, edge to edge.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from desktop.engine.events import event_from_json

from builders import assert_bad, run_cli

REPO = Path(__file__).resolve().parents[1]
FOUR_UNITS = REPO / "resources" / "scenarios" / "w6-four-units.json"
FRONTAGE = 5 * 20 / 25.4


def moved(capsys: pytest.CaptureFixture[str], *argv: object) -> dict[str, Any]:
    code, out, err = run_cli(capsys, "move", FOUR_UNITS, "--unit", "handgunners", *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_move_to_prints_the_player_move(capsys):
    result = moved(capsys, "--to", "50,30", "--facing", "0")
    [event] = result["events"]
    footprint = event.pop("footprint")
    assert event == {"type": "UnitMoved", "clause": "", "unit": "handgunners", "roll": 0,
                     "path": [[42.94, 24.0], [50.0, 30.0]], "facing": 0.0,
                     "start_facing": 270.0, "turned": "before", "through": []}
    # Facing right (0°) its frontage runs up the table: four corners about (50, 30).
    assert len(footprint) == 4
    assert sum(x for x, _ in footprint) / 4 == pytest.approx(50.0)
    assert sum(y for _, y in footprint) / 4 == pytest.approx(30.0)
    assert max(y for _, y in footprint) - min(y for _, y in footprint) == pytest.approx(
        FRONTAGE)
    assert (result["position"], result["facing"]) == ([50.0, 30.0], 0.0)
    # What the CLI prints reads back as the event.
    event_from_json(result["events"][0])


def test_move_keeps_the_facing_unless_told(capsys):
    assert moved(capsys, "--to", "50,30")["facing"] == 270.0


def test_wheel_reports_the_arc(capsys):
    [event] = moved(capsys, "--wheel", "-90")["events"]
    assert (event["type"], event["pivot"], event["angle"]) == ("UnitWheeled", "left", -90.0)
    assert event["arc"] == pytest.approx(math.pi / 2 * FRONTAGE)


def test_charge_prints_the_move_and_the_engagement(capsys):
    move, engaged = moved(capsys, "--charge", "boyz")["events"]
    assert (move["type"], move["target"], move["reached"]) == ("UnitCharged", "boyz", True)
    assert engaged == {"type": "UnitsEngaged", "clause": "", "unit": "handgunners",
                       "enemy": "boyz"}


def test_reform_keeps_the_front(capsys):
    result = moved(capsys, "--reform", "10")
    # 10 wide is 1 rank (0.787" deep) instead of 2: the centre moves 0.394" forward (down).
    assert result["files"] == 10
    assert result["position"] == [42.94, round(24 - 20 / 25.4 / 2, 3)]


@pytest.mark.parametrize(("argv", "fragments"), [
    (["--to", "36,24"], ["'handgunners' would overlap unit 'swordsmen' where it ends"]),
    (["--to", "71,24"], ["'handgunners' would go off the table at the right edge (x = 72)"]),
    (["--charge", "swordsmen"], ["'swordsmen' is a friend of 'handgunners'"]),
    (["--reform", "11"], ["1 to 10 files wide, not 11"]),
])
def test_a_refused_move_names_what_is_in_the_way(capsys, argv, fragments):
    assert_bad(capsys, ["move", FOUR_UNITS, "--unit", "handgunners", *argv], *fragments,
               prefix="rout: ")


@pytest.mark.parametrize(("argv", "fragments"), [
    (["--unit", "ghost", "--to", "1,1"], ["there is no unit 'ghost' in this battle"]),
    (["--unit", "boyz", "--to", "1,x"], ["--to", "'x' is not a number"]),
    (["--unit", "boyz", "--to", "1"], ["--to", "not a point X,Y"]),
    (["--unit", "boyz", "--wheel", "nan"], ["--wheel", "not a finite number"]),
    (["--unit", "boyz", "--to", "1,1", "--wheel", "3"], ["not allowed with"]),
    (["--unit", "boyz"], ["one of the arguments"]),
    (["--unit", "boyz", "--wheel", "10", "--facing", "3"], ["--facing goes with --to"]),
])
def test_bad_arguments_are_named(capsys, argv, fragments):
    assert_bad(capsys, ["move", FOUR_UNITS, *argv], *fragments)


def test_a_missing_scenario_file_is_named(capsys, tmp_path):
    assert_bad(capsys, ["move", tmp_path / "nope.json", "--unit", "boyz", "--to", "1,1"],
               "nope.json")


def test_the_real_entry_point_exits_2_on_a_refused_move():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-m", "desktop", "move", str(FOUR_UNITS), "--unit",
                           "handgunners", "--to", "36,24"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == ("rout: 'handgunners' would overlap unit 'swordsmen' where it "
                           "ends\n")
