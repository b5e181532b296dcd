"""Every move event can be drawn, and what it draws is a legal move.

For every move of every run (battles hypothesis makes up under each ruleset, every bundled
scenario, every crowded battle of the movement corpus): the first pose is the pose the unit
had before the event; sampled every 0.25" along each leg of its path, with the shape it had
on that leg, the unit stays on the table (only a UnitLeftTable's last leg may leave it) and
never overlaps an enemy (contact where it stood and where it stops is allowed) or impassable
terrain; it ends on the footprint the event names.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import (
    PROPERTY_SETTINGS,
    as_breaks_pursues,
    as_kensei,
    as_later_turn,
    battles,
    run_events,
)

from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.events import Event, Movement, UnitLeftTable
from desktop.engine.geometry import CONTACT_TOLERANCE, Footprint, convex_overlap, overlaps
from desktop.engine.model import Battle
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
BUNDLED = sorted((REPO / "resources" / "scenarios").glob("*.json"))
CORPUS = sorted((REPO / "tests" / "data" / "movement").glob("*.json"))
STEP = 0.25


def _samples(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """Points every STEP from a to b, both ends included."""
    count = max(math.ceil(math.dist(a, b) / STEP), 1)
    return [(a[0] + (b[0] - a[0]) * i / count, a[1] + (b[1] - a[1]) * i / count)
            for i in range(count + 1)]


def move_problems(before: Battle, event: Movement) -> list[str]:
    state = before.states[event.unit]
    found = []
    if math.dist(event.path[0], state.center) > 1e-9:
        found.append(f"starts at {event.path[0]}, not where it stood ({state.center})")
    if abs((event.start_facing - state.facing + 180.0) % 360.0 - 180.0) > 1e-9:
        found.append(f"starts facing {event.start_facing}, not {state.facing}")
    standing = before.footprint(event.unit)
    shape = standing.turned(event.facing) if event.turned == "before" else standing
    enemies = [(uid, before.footprint(uid).corners) for uid in before.enemies_of(event.unit)]
    rocks = [piece for piece in before.terrain if piece.impassable]
    legs = list(itertools.pairwise(event.path))
    for number, (a, b) in enumerate(legs):
        last_leg = number == len(legs) - 1
        for point in _samples(a, b):
            at = shape.moved(point[0] - shape.center[0], point[1] - shape.center[1])
            at_end = last_leg and math.dist(point, b) < 1e-9
            at_start = number == 0 and point == a
            where = f"leg {number} at {point}"
            if not before.table.contains(at) and not (
                    isinstance(event, UnitLeftTable) and last_leg):
                found.append(f"{where}: off the table")
            # It may touch an enemy within tolerance where it stood (hand-placed contact) and
            # where it stops (a charge, a lock); on the way it may not.
            body = (Footprint(at.center, at.facing, at.frontage - 2 * CONTACT_TOLERANCE,
                              at.depth - 2 * CONTACT_TOLERANCE)
                    if at_end or at_start else at)
            found += [f"{where}: overlaps {uid}" for uid, corners in enemies
                      if convex_overlap(body.corners, corners)]
            found += [f"{where}: in {piece.id}" for piece in rocks
                      if overlaps(at.polygon, piece.polygon)]
    end = Footprint(event.path[-1], event.facing, standing.frontage, standing.depth)
    if len(event.footprint) != 4 or any(math.dist(p, q) > 1e-9 for p, q in
                                        zip(event.footprint, end.corners, strict=False)):
        found.append(f"names footprint {event.footprint}, ends on {end.corners}")
    return found


def assert_drawable_moves(start: Battle, events: list[Event]) -> int:
    """Check every move; the number of moves checked."""
    battle, moves = start, 0
    for number, event in enumerate(events):
        if isinstance(event, Movement):
            moves += 1
            assert move_problems(battle, event) == [], f"event {number}: {event}"
        battle = event.apply_to(battle)
    return moves


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3),
       ruleset=st.sampled_from(["warhammer6", "breaks_pursues", "kensei1"]),
       difference=st.integers(0, 8), value=st.integers(0, 5))
def test_every_move_starts_where_the_unit_stood_and_stays_legal(data, seed, pick, ruleset,
                                                                  difference, value):
    if ruleset == "breaks_pursues":
        data = as_breaks_pursues(data)
    elif ruleset == "kensei1":
        data = as_kensei(data, difference, value)
    start, events = run_events(data, seed, pick)
    assert_drawable_moves(start, events)


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1))
def test_every_compulsory_flee_move_is_drawable_and_legal(data, seed):
    start, events = run_events(as_later_turn(data), seed, 0)
    assert_drawable_moves(start, events)


@pytest.mark.parametrize("path", BUNDLED + CORPUS, ids=lambda p: p.stem)
def test_every_move_of_the_bundled_and_crowded_battles_is_drawable(path):
    scenario = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    found = re.search(r"\.seed(\d+)$", path.stem)
    roller = ScriptedRoller(list(scenario.dice),
                            then=SeededRoller(int(found.group(1))) if found else None)
    session = run(scenario.start(), ScriptedAnswers(roller, scenario.choices))
    assert session.events is not None
    moves = assert_drawable_moves(scenario.battle, session.events)
    if path in BUNDLED:
        assert moves >= 1, "a bundled battle with no move checks nothing"


def test_the_check_catches_a_move_through_an_enemy_and_a_wrong_start():
    for path in BUNDLED:
        scenario = load_scenario(json.loads(path.read_text(encoding="utf-8")))
        session = run(scenario.start(), ScriptedAnswers(ScriptedRoller(list(scenario.dice)),
                                                        scenario.choices))
        assert session.events is not None
        battle = scenario.battle
        for event in session.events:
            enemies = list(battle.enemies_of(event.unit)) if isinstance(event, Movement) else []
            if isinstance(event, Movement) and enemies:
                assert move_problems(battle, event) == []
                through = battle.states[enemies[0]].center
                bad = type(event)(**{**event.__dict__, "path": (event.path[0], through,
                                                                  event.path[-1])})
                assert any("overlaps" in p for p in move_problems(battle, bad))
                moved = type(event)(**{**event.__dict__,
                                       "path": ((0.0, 0.0), *event.path[1:])})
                assert any("starts at" in p for p in move_problems(battle, moved))
                return
            battle = event.apply_to(battle)
    pytest.fail("no move with an enemy on the table in any bundled battle")
