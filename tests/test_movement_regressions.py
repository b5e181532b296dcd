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
from pathlib import Path

import pytest

from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.events import UnitLeftTable
from desktop.engine.model import Status
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario

from builders import crossed, problems

CASES = sorted((Path(__file__).parent / "data" / "movement").glob("*.json"))


def test_the_corpus_is_there():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_event_leaves_the_table_sound(path):
    seed = int(re.search(r"\.seed(\d+)$", path.stem).group(1))
    scenario = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    roller = ScriptedRoller(scenario.dice, then=SeededRoller(seed))
    session = run(scenario.start(), ScriptedAnswers(roller, scenario.choices))
    battle = scenario.battle
    assert problems(battle) == []
    left = set()
    for number, event in enumerate(session.events):
        assert crossed(battle, event) == [], f"event {number}: {event}"
        battle = event.apply_to(battle)
        if isinstance(event, UnitLeftTable):
            left.add(event.unit)
        assert problems(battle) == [], f"after event {number}: {event}"
        for uid, state in battle.states.items():
            assert state.status != Status.LEFT_TABLE or uid in left
