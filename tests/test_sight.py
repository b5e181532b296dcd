"""What movement looks at (desktop/engine/sight.py), and battles shared between runs.

A forecast walks one total of a "move" roll for several when nothing after the move looks
where the others would have left the unit. That is only sound if movement reports all it
looks at: here hypothesis places a unit where a move did not look, and the move must come
out the same with it there as without it.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from desktop.engine.errors import ScenarioError
from desktop.engine.geometry import Footprint
from desktop.engine.model import Battle
from desktop.engine.movement import (
    DEFLECTIONS,
    WIDE_DEFLECTIONS,
    MovePlan,
    flee_around,
    gap_length,
    pursue_around,
    straight_move,
)
from desktop.engine.procedure import Shared
from desktop.engine.scenario import load_scenario
from desktop.engine.sight import Recall, Sight, remember, watching

from builders import problems, scenario, w6_unit

RED, BLUE = "Red", "Blue"


def battle_of(units: list[dict[str, Any]]) -> Battle:
    return load_scenario(scenario(units, {"procedure": "start_of_turn", "player": RED})).battle


def placed(units: list[dict[str, Any]]) -> Battle:
    """The battle, when the units stand apart on the table (else the example is dropped)."""
    try:
        battle = battle_of(units)
    except ScenarioError:
        assume(False)
        raise
    assume(problems(battle) == [])
    return battle


@st.composite
def placed_unit(draw: st.DrawFn, unit_id: str, player: str, near: float) -> dict[str, Any]:
    files = draw(st.integers(1, 6))
    models = files * draw(st.integers(1, 3))
    return w6_unit(unit_id, player, 36 + draw(st.floats(-near, near)),
                   24 + draw(st.floats(-near, near)), facing=draw(st.floats(0, 359)),
                   models=models, files=files)


@st.composite
def tables(draw: st.DrawFn, heading: float, length: int) -> tuple[list[dict[str, Any]],
                                                                  dict[str, Any]]:
    """A Red unit to move at the middle, a few units around it, and a probe unit: mostly
    somewhere along the way the mover is sent, where a move has most to look at."""
    mover = draw(placed_unit("mover", RED, 0.0))
    others = [draw(placed_unit(f"other{i}", draw(st.sampled_from([RED, BLUE])), 10.0))
              for i in range(draw(st.integers(1, 4)))]
    probe = draw(placed_unit("probe", draw(st.sampled_from([RED, BLUE])), 20.0))
    if draw(st.booleans()):
        along = math.radians(heading + draw(st.floats(-60, 60)))
        reach = draw(st.floats(0, length + 8))
        probe["position"] = [36 + math.cos(along) * reach, 24 + math.sin(along) * reach]
    return [mover, *others], probe


def move(battle: Battle, kind: str, heading: float, length: float, extra: int) -> MovePlan:
    enemies = [uid for uid in battle.enemies_of("mover") if uid != "probe"]
    if extra % 4 == 0 and "probe" in battle.enemies_of("mover"):
        enemies.insert(0, "probe")  # where the probe stands is read: it is fled from
    if kind == "pursue":
        halt = frozenset(enemies[:1]) if extra % 2 else frozenset()
        return pursue_around(battle, "mover", heading, length, halt_before=halt)
    if kind == "flee":
        deflections = WIDE_DEFLECTIONS if extra % 2 else DEFLECTIONS
        keep_away = 4.0 if extra % 3 == 0 else 0.0
        source = enemies[0] if enemies and extra % 5 else ""
        if source:
            return flee_around(battle, "mover", heading,
                               gap_length(battle, "mover", source, length),
                               keep_away=keep_away, deflections=deflections)
        return flee_around(battle, "mover", heading, length, keep_away=keep_away,
                           deflections=deflections)
    return straight_move(battle, "mover", heading, length, through_friends=bool(extra % 2),
                         stay_on_table=extra % 3 == 0)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data(), kind=st.sampled_from(["pursue", "flee", "straight"]),
       heading=st.floats(0, 359), length=st.integers(1, 18), extra=st.integers(0, 29))
def test_a_unit_where_a_move_did_not_look_does_not_change_it(data, kind, heading, length,
                                                              extra):
    units, probe = data.draw(tables(heading, length))
    with_probe = placed([*units, probe])
    # Where the move did not look, the probe makes no difference, whether it stands there
    # or not at all, or (as a unit a forecast watches) somewhere else it did not look.
    there = [data.draw(st.floats(16, 56)), data.draw(st.floats(4, 44))]
    elsewhere = placed([*units, {**probe, "position": there,
                                 "facing": data.draw(st.floats(0, 359))}])
    fled_from = kind == "flee" and extra % 4 == 0 and probe["player"] == BLUE
    without = [] if fled_from else [battle_of(units)]  # then it must stand somewhere
    for battle in (*without, elsewhere):
        sight = Sight({"probe"})
        sight.watch("probe", [with_probe.footprint("probe"), elsewhere.footprint("probe")])
        with watching(sight):
            plan = move(battle, kind, heading, length, extra)
        if "probe" not in sight.broken:
            assert move(with_probe, kind, heading, length, extra) == plan
    # A move kept in one battle and found in the other (when the probe stands out of its
    # sight in both) is what working it out there gives.
    for first, then in ((with_probe, elsewhere), (elsewhere, with_probe)):
        recall = Recall()
        with watching(None, recall):
            remember(first, "move", lambda b=first: move(b, kind, heading, length, extra),
                     mover="mover")
            found = remember(then, "move", lambda b=then: move(b, kind, heading, length, extra),
                             mover="mover")
        assert found == move(then, kind, heading, length, extra)


def test_a_unit_in_the_way_is_seen() -> None:
    units = [w6_unit("mover", RED, 36, 24), w6_unit("wall", BLUE, 36, 32, facing=270)]
    battle = battle_of(units)
    sight = Sight({"wall"})
    sight.watch("wall", [battle.footprint("wall")])
    with watching(sight):
        plan = pursue_around(battle, "mover", 90.0, 10)
    assert plan.contacted_enemy == "wall"
    assert sight.broken == {"wall"}


def test_ground_watched_for_a_promise_not_relied_on_is_still_checked_but_not_trusted() -> None:
    sight = Sight()
    assert not sight.relies_on("flee:a")
    sight.rely_on("flee:a")
    assert sight.relies_on("flee:a")
    sight.doubt("flee:a")
    assert not sight.relies_on("flee:a") and sight.broken == {"flee:a"}


def test_a_remembered_move_is_seen_again_by_a_later_run() -> None:
    units = [w6_unit("mover", RED, 36, 24), w6_unit("wall", BLUE, 36, 32, facing=270)]
    battle = battle_of(units)
    first = remember(battle, "key", lambda: pursue_around(battle, "mover", 90.0, 10))
    sight = Sight({"wall"})
    sight.watch("wall", [Footprint((36, 32), 270, 5, 2)])
    with watching(sight):
        again = remember(battle, "key", lambda: pursue_around(battle, "mover", 0.0, 1))
    assert again is first  # kept with the battle, not worked out again
    assert sight.broken == {"wall"}  # what it looked at the first time counts again


def test_a_move_is_found_again_where_nothing_it_saw_differs() -> None:
    def units(bystander: tuple[float, float], wall_y: float = 32) -> list[dict[str, Any]]:
        return [w6_unit("mover", RED, 36, 24), w6_unit("wall", BLUE, 36, wall_y, facing=270),
                w6_unit("bystander", BLUE, *bystander)]

    def pursue(battle: Battle) -> MovePlan:
        return pursue_around(battle, "mover", 90.0, 10)

    def never() -> MovePlan:
        raise AssertionError("worked out again")

    recall = Recall()
    first = battle_of(units((60, 10)))
    with watching(None, recall):
        plan = remember(first, "pursue", lambda: pursue(first), mover="mover")
        # The bystander moved, far out of the pursuit's sight: the same move.
        moved = battle_of(units((60, 40)))
        assert remember(moved, "pursue", never, mover="mover") is plan
        # The wall it ran into stands further off: worked out anew, and different.
        further = battle_of(units((60, 10), wall_y=36))
        again = remember(further, "pursue", lambda: pursue(further), mover="mover")
    assert plan.contacted_enemy == again.contacted_enemy == "wall"
    assert again.travelled > plan.travelled
    assert again == pursue(further) and plan == pursue(moved)


def test_runs_sharing_battles_meet_the_same_battles() -> None:
    data = scenario([w6_unit("a", RED, 36, 20), w6_unit("b", BLUE, 36, 22, facing=270)],
                    {"procedure": "combat_aftermath",
                     "combats": [{"id": "c", "sides": [
                         {"units": [{"unit": "a", "wounds_caused": 5}]},
                         {"units": [{"unit": "b", "casualties": 3}]}]}]})
    resolution = load_scenario(data).resolution()
    shared = Shared()
    answers = [(6, 6), "pursue", (3, 4), (2, 2)]
    one = resolution.replay(answers, shared=shared)
    two = resolution.replay(answers, shared=shared)
    alone = resolution.replay(answers)
    assert one.events == two.events == alone.events
    assert one.battle is two.battle
    assert one.battle == alone.battle and one.battle is not alone.battle
