"""Crowded battles that once broke the movement rules, replayed after every change.

Each file under tests/data/movement is a scenario a fuzzer found (or a reviewer built) where
a unit ran through something it touched, ended inside a friend or terrain, or hung off the
table. Its name ends in the seed the dice it does not script are rolled from. After every
event of the resolution: no two units on the table overlap, each lies on the table and off
impassable terrain, and a unit only leaves the table through UnitLeftTable.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.model import Status
from desktop.engine.movement import CROWDED, flee_around, straight_move
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario

from builders import aftermath, assert_sound_run, problems, scenario, side, w6_unit

CASES = sorted((Path(__file__).parent / "data" / "movement").glob("*.json"))


def test_the_corpus_is_there():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_event_leaves_the_table_sound(path):
    seed = int(re.search(r"\.seed(\d+)$", path.stem).group(1))
    scenario = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    roller = ScriptedRoller(scenario.dice, then=SeededRoller(seed))
    session = run(scenario.start(), ScriptedAnswers(roller, scenario.choices))
    assert session.events is not None
    assert_sound_run(scenario.battle, session.events)


def test_a_move_pulled_back_by_the_last_guard_says_what_was_in_the_way():
    # Found by fuzzing: fleeing through friends, the end beyond them would overlap another
    # friend (u6) the straight path never crossed; the move is shortened and says by what.
    def unit(uid: str, player: str, at: list[float], facing: float, files: int,
             models: int, base: tuple[float, float]) -> dict:
        return {"id": uid, "player": player, "position": at, "facing": facing,
                "files": files, "models": models, "base": list(base),
                "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3,
                            "A": 1, "Ld": 7}}

    data = {
        "format": "rout-scenario", "version": 1, "ruleset": "warhammer6",
        "table": {"width": 48, "depth": 48},
        "units": [
            unit("u0", "Red", [12.23001386745011, 34.672105215881565], 0.0, 6, 6,
                 (0.984, 0.984)),
            unit("u2", "Blue", [13.593995759686988, 39.54082763582565], 314.6963066600213,
                 3, 3, (0.984, 1.969)),
            unit("u3", "Red", [17.43004507994915, 34.50162534612992], 253.40388350941532,
                 5, 8, (0.984, 0.984)),
            unit("u5", "Blue", [9.97797182182899, 35.64262788661444], 134.58194287621777,
                 1, 2, (0.984, 1.969)),
            unit("u6", "Red", [12.900348297653727, 31.3689487147856], 114.43100163847666,
                 1, 1, (0.787, 0.787)),
        ],
        "terrain": [{"id": "t0", "impassable": True,
                     "points": [[9.794435494937197, 30.204952973124087],
                                [13.176388651511944, 28.103723757238164],
                                [13.899713255466745, 31.099444305570533]]}],
        "resolve": {"procedure": "start_of_turn", "player": "Red"},
    }
    battle = load_scenario(data).battle
    plan = straight_move(battle, "u0", 336.68626330194866, 11, through_friends=True)
    assert plan.blocked_kind == CROWDED
    assert plan.blocked_by == "u6"
    assert plan.travelled < 11
    assert plan.contacted_enemy == ""
    ended = battle.with_state(replace(battle.states["u0"], center=plan.end,
                                      facing=plan.facing))
    assert problems(ended) == []


def test_a_flee_pushed_through_a_line_of_friends_ends_the_same_whatever_stands_far_away():
    """Review of issue 24: a unit fleeing 2" into the first of three friends in file is
    pushed beyond each in turn (W6-FL-4, BP-6) and leaves the table. How far the move looked
    once hung on the size of every unit on the table: with a unit 50" behind it wiped out,
    the same flee stopped short of the third friend. It now looks as far as the push goes,
    and nowhere else."""
    def unit(uid: str, y: float, facing: float, files: int, models: int) -> dict:
        return w6_unit(uid, "Elves" if uid != "e" else "Orcs", 1.5, y, facing=facing,
                       files=files, models=models)

    units = [unit("u", 71.0, 270.0, 1, 20), unit("e", 60.5, 90.0, 1, 1),
             unit("f1", 82.0, 270.0, 2, 2), unit("f2", 102.6, 270.0, 2, 2),
             unit("f3", 123.2, 270.0, 2, 2), unit("far", 11.0, 90.0, 1, 20)]
    fight = aftermath((side({"unit": "e", "wounds_caused": 5}), side("u")))
    battle = load_scenario(scenario(units, fight, table=(3, 131))).battle
    for standing in (battle, battle.update("far", status=Status.DESTROYED)):
        plan = flee_around(standing, "u", 90.0, 2.0)
        assert plan.left_table and plan.passed_through == ("f1", "f2", "f3")
