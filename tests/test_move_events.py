"""Every move event can be drawn, and what it draws is a legal move.

For every move of every run (battles hypothesis makes up under each ruleset, every bundled
scenario, every crowded battle of the movement corpus): the first pose is the pose the unit
had before the event; sampled every 0.25" along each leg of its path, with the shape it had
on that leg, the unit stays on the table (only a UnitLeftTable's last leg may leave it) and
never overlaps an enemy (contact where it stood and where it stops is allowed) or impassable
terrain; it ends on the footprint the event names. Each friend it passes through is named
with the points of the path where it enters and leaves it, and wherever it overlaps a friend
it is between those points. A turn in place (UnitTurned) names where it stood, its facing
before and the footprint it ends on.
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
from shapely.geometry import LineString
from shapely.geometry import Point as ShapelyPoint
from test_properties import (
    PROPERTY_SETTINGS,
    as_breaks_pursues,
    as_charge_on_fleeing,
    as_kensei,
    as_kensei_reaction,
    as_kensei_regroup,
    as_later_turn,
    battles,
    run_events,
)

from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.events import Event, Movement, UnitFled, UnitLeftTable, UnitTurned
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
    return found + through_problems(before, event, shape)


def through_problems(before: Battle, event: Movement, shape: Footprint) -> list[str]:
    """Each friend passed through is named with where on the path the unit entered and left
    it, and the unit overlaps a friend only between those points."""
    found = []
    line = LineString(event.path) if len(event.path) > 1 else None
    own = before.player_of(event.unit)
    friends = [uid for uid in before.on_table()
               if uid != event.unit and before.player_of(uid) == own]
    spans: dict[str, list[tuple[float, float]]] = {}
    for friend, enter, leave in event.through:
        if friend not in friends:
            found.append(f"passes through {friend}, not a friend on the table")
        if line is None:
            found.append(f"passes through {friend} without moving")
            continue
        for point in (enter, leave):
            if line.distance(ShapelyPoint(point)) > 1e-6:
                found.append(f"passes through {friend}: {point} is not on its path")
        start, stop = line.project(ShapelyPoint(enter)), line.project(ShapelyPoint(leave))
        if start > stop + 1e-9:
            found.append(f"leaves {friend} before it enters it")
        spans.setdefault(friend, []).append((start, stop))
    if isinstance(event, UnitFled) and tuple(f for f, _, _ in event.through) != \
            event.passed_through:
        found.append(f"through {event.through} but passed_through {event.passed_through}")
    if line is None:
        return found
    for a, b in itertools.pairwise(event.path):
        for point in _samples(a, b):
            at = shape.moved(point[0] - shape.center[0], point[1] - shape.center[1])
            body = Footprint(at.center, at.facing, at.frontage - 2 * CONTACT_TOLERANCE,
                             at.depth - 2 * CONTACT_TOLERANCE)
            along = line.project(ShapelyPoint(point))
            for friend in friends:
                if convex_overlap(body.corners, before.footprint(friend).corners) and not any(
                        low - 1e-6 <= along <= high + 1e-6
                        for low, high in spans.get(friend, [])):
                    found.append(f"at {point} overlaps {friend}, not named as passed through "
                                 f"there")
    return found


def turn_problems(before: Battle, event: UnitTurned) -> list[str]:
    """A turn in place names where the unit stood, its facing before, the footprint after;
    it ends on the table, clear of every other unit and of impassable terrain."""
    found = []
    standing = before.footprint(event.unit)
    if event.center != standing.center:
        found.append(f"turns at {event.center}, not where it stood ({standing.center})")
    if event.start_facing != standing.facing:
        found.append(f"starts facing {event.start_facing}, not {standing.facing}")
    end = standing.turned(event.facing)
    if len(event.footprint) != 4 or any(math.dist(p, q) > 1e-9 for p, q in
                                        zip(event.footprint, end.corners, strict=False)):
        found.append(f"names footprint {event.footprint}, ends on {end.corners}")
    if not before.table.contains(end):
        found.append("turns off the table")
    found += [f"turns into {uid}" for uid in before.on_table() if uid != event.unit
              and convex_overlap(end.corners, before.footprint(uid).corners)]
    found += [f"turns into {piece.id}" for piece in before.terrain
              if piece.impassable and overlaps(end.polygon, piece.polygon)]
    return found


def assert_drawable_moves(start: Battle, events: list[Event]) -> int:
    """Check every move; the number of moves checked."""
    battle, moves = start, 0
    for number, event in enumerate(events):
        if isinstance(event, Movement):
            moves += 1
            assert move_problems(battle, event) == [], f"event {number}: {event}"
        elif isinstance(event, UnitTurned):
            moves += 1
            assert turn_problems(battle, event) == [], f"event {number}: {event}"
        battle = event.apply_to(battle)
    return moves


PROCEDURES = {
    "warhammer6": lambda data, difference, value: data,
    "breaks_pursues": lambda data, difference, value: as_breaks_pursues(data),
    "kensei1": lambda data, difference, value: as_kensei(data, difference, value),
    "charge_fleeing": lambda data, difference, value: as_charge_on_fleeing(data),
    "charge_reaction": lambda data, difference, value: as_kensei_reaction(
        as_kensei(data, difference, value)),
    "regroup": lambda data, difference, value: as_kensei_regroup(
        as_kensei(data, difference, value)),
}


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3),
       procedure=st.sampled_from(sorted(PROCEDURES)),
       difference=st.integers(0, 8), value=st.integers(0, 5))
def test_every_move_starts_where_the_unit_stood_and_stays_legal(data, seed, pick, procedure,
                                                                  difference, value):
    start, events = run_events(PROCEDURES[procedure](data, difference, value), seed, pick)
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


def _run_through_ashigaru() -> tuple[Battle, UnitFled]:
    scenario = load_scenario(json.loads(
        (REPO / "resources" / "scenarios" / "k1-ronin-run-through-ashigaru.json").read_text(
            encoding="utf-8")))
    session = run(scenario.start(), ScriptedAnswers(ScriptedRoller(list(scenario.dice)),
                                                    scenario.choices))
    battle = scenario.battle
    for event in session.events:
        if isinstance(event, UnitFled):
            return battle, event
        battle = event.apply_to(battle)
    raise AssertionError("the Samurai did not run")


def test_a_run_through_a_friend_names_where_it_entered_and_left():
    """K-RA-10, by hand: the Samurai (12.5 x 5 cm, y 57.5..62.5) run 9 cm up through the
    Ashigaru (y 67.5..72.5). Their front meets the Ashigaru with the centre at y 65, their
    rear clears it at y 75, and they stop 3 cm beyond it, centred at y 78."""
    before, fled = _run_through_ashigaru()
    assert fled.path == ((60.0, 60.0), (60.0, 78.0))
    assert fled.through == (("ashigaru", (60.0, 65.0), (60.0, 75.0)),)
    assert move_problems(before, fled) == []


def test_the_check_catches_a_friend_passed_through_unnamed_or_out_of_place():
    before, fled = _run_through_ashigaru()
    unnamed = type(fled)(**{**fled.__dict__, "through": ()})
    assert any("overlaps ashigaru, not named" in p for p in move_problems(before, unnamed))
    late = type(fled)(**{**fled.__dict__,
                         "through": (("ashigaru", (60.0, 66.0), (60.0, 75.0)),)})
    assert any("overlaps ashigaru, not named" in p for p in move_problems(before, late))
    aside = type(fled)(**{**fled.__dict__,
                          "through": (("ashigaru", (61.0, 65.0), (60.0, 75.0)),)})
    assert any("not on its path" in p for p in move_problems(before, aside))


def test_the_check_catches_a_turn_that_misstates_its_pose():
    data = json.loads((REPO / "resources" / "scenarios" / "k1-ronin-run-through-ashigaru.json"
                       ).read_text(encoding="utf-8"))
    battle = load_scenario(data).battle
    good = UnitTurned.build(battle, "samurai", 90.0, clause="K-RG-1")  # a half turn
    assert turn_problems(battle, good) == []
    assert good.start_facing == 270.0 and good.center == (60.0, 60.0)
    for wrong, says in ((UnitTurned("samurai", 90.0), "not where it stood"),
                        (type(good)(**{**good.__dict__, "start_facing": 90.0}), "starts facing"),
                        (type(good)(**{**good.__dict__, "facing": 0.0}), "names footprint"),
                        (UnitTurned.build(battle, "samurai", 0.0, clause=""), "turns into oni")):
        assert any(says in p for p in turn_problems(battle, wrong)), (wrong, says)
