"""Properties every resolution must keep, on battles hypothesis makes up.

- the same battle and the same answers give the same events;
- a caught unit's flee roll is at most some pursuer's roll (W6-PU-1);
- no unit ends overlapping another, or off the table without a UnitLeftTable event.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from desktop.engine.dice import SeededRoller
from desktop.engine.errors import ScenarioError
from desktop.engine.events import DiceRolled, UnitCaught
from desktop.engine.geometry import heading_vector
from desktop.engine.model import Battle
from desktop.engine.procedure import Choice, Request, ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario

from builders import assert_sound_run, scenario, side, w6_unit

PLAYERS = ("Red", "Blue")
# Slots for bystanders, far enough apart that units of up to 8 x 4 inches never overlap,
# and clear of the combat in the middle of the table.
SLOTS = [(x, y) for x in (6.0, 20.0, 52.0, 66.0) for y in (6.0, 24.0, 42.0)] + [
    (36.0, 6.0), (36.0, 42.0)]

PROPERTY_SETTINGS = settings(max_examples=120, deadline=None,
                             suppress_health_check=[HealthCheck.too_slow])


@st.composite
def formations(draw: st.DrawFn, max_files: int = 8, max_ranks: int = 4) -> dict[str, int]:
    files = draw(st.integers(1, max_files))
    ranks = draw(st.integers(1, max_ranks))
    models = draw(st.integers(max(files, files * (ranks - 1) + 1), files * ranks))
    return {"files": files, "models": models}


@st.composite
def stats(draw: st.DrawFn) -> dict[str, int]:
    return {"M": draw(st.integers(3, 9)), "Ld": draw(st.integers(3, 10))}


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    """One combat in the middle of the table and a few bystanders of either side."""
    facing = draw(st.sampled_from([0.0, 90.0, 180.0, 270.0]) | st.floats(0, 359))
    loser_shape = draw(formations(max_files=6, max_ranks=3))
    winner_shape = draw(formations(max_files=6, max_ranks=3))
    loser_depth = math.ceil(loser_shape["models"] / loser_shape["files"])
    winner_depth = math.ceil(winner_shape["models"] / winner_shape["files"])
    fx, fy = heading_vector(facing)
    rx, ry = fy, -fx  # the loser's right hand
    # The winner touches the loser's front or its right flank, not always centred on it.
    offset = draw(st.floats(-2.0, 2.0))
    if draw(st.booleans()):
        gap = (loser_depth + winner_depth) / 2
        winner_at = (36.0 + fx * gap + rx * offset, 24.0 + fy * gap + ry * offset)
        winner_facing = (facing + 180.0) % 360.0
    else:
        gap = loser_shape["files"] / 2 + winner_depth / 2
        winner_at = (36.0 + rx * gap + fx * offset, 24.0 + ry * gap + fy * offset)
        winner_facing = (facing + 90.0) % 360.0
    units = [
        w6_unit("loser", PLAYERS[1], 36.0, 24.0, facing=facing, **loser_shape, **draw(stats())),
        w6_unit("winner", PLAYERS[0], *winner_at, facing=winner_facing, **winner_shape,
                **draw(stats())),
    ]
    # Neighbours (or rocks) close beside and behind the loser, where turning and fleeing get
    # crowded.
    terrain = []
    for name, beside in (("left_neighbour", True), ("rear_neighbour", False)):
        if not draw(st.booleans()):
            continue
        if draw(st.booleans()):
            gap = draw(st.floats(0.0, 3.0))
            side_x, side_y = (-rx, -ry) if beside else (-fx, -fy)
            reach = (loser_shape["files"] if beside else loser_depth) / 2 + gap + 1.5
            cx, cy = 36.0 + side_x * reach, 24.0 + side_y * reach
            terrain.append({"id": f"{name}_rocks", "impassable": True,
                            "points": [[cx - 1.5, cy - 1.5], [cx + 1.5, cy - 1.5],
                                       [cx + 1.5, cy + 1.5], [cx - 1.5, cy + 1.5]]})
            continue
        shape = draw(formations(max_files=5, max_ranks=2))
        gap = draw(st.floats(0.2, 3.0))
        if beside:
            along = loser_shape["files"] / 2 + gap + shape["files"] / 2
            at = (36.0 - rx * along, 24.0 - ry * along)
        else:
            along = loser_depth / 2 + gap + math.ceil(shape["models"] / shape["files"]) / 2
            at = (36.0 - fx * along, 24.0 - fy * along)
        units.append(w6_unit(name, draw(st.sampled_from(PLAYERS)), *at, facing=facing,
                             **shape, **draw(stats())))
    slots = draw(st.lists(st.sampled_from(range(len(SLOTS))), unique=True, max_size=5))
    for index, slot in enumerate(slots):
        x, y = SLOTS[slot]
        if index == 0 and draw(st.booleans()):
            terrain.append({"id": "rocks", "impassable": True,
                            "points": [[x - 3, y - 2], [x + 3, y - 2], [x + 3, y + 2],
                                       [x - 3, y + 2]]})
            continue
        units.append(w6_unit(
            f"unit{index}", draw(st.sampled_from(PLAYERS)), x, y,
            facing=draw(st.sampled_from([0.0, 90.0, 180.0, 270.0])),
            **draw(formations(max_files=4 if index % 2 else 8, max_ranks=3)),
            **draw(stats())))
    wounds = draw(st.integers(1, 6))
    return scenario(units, {"procedure": "combat_aftermath", "combats": [{
        "id": "middle",
        "sides": [side({"unit": "winner", "wounds_caused": wounds}),
                  side({"unit": "loser", "wounds_caused": draw(st.integers(0, wounds - 1))})],
    }]}, terrain=terrain)


def answer_with(seed: int, choices: dict[str, str]) -> ScriptedAnswers:
    return ScriptedAnswers(SeededRoller(seed), choices)


def choice_picker(pick: int) -> Any:
    """Answers choices by position, so hypothesis explores holding back and targets."""

    def pick_for(request: Request) -> str:
        assert isinstance(request, Choice)
        return request.options[pick % len(request.options)].id

    return pick_for


def load_placed(data: dict[str, Any]) -> Scenario:
    """The scenario, or a rejected example when the drawn units happen to overlap."""
    try:
        return load_scenario(data)
    except ScenarioError as error:
        assume(not any(words in str(error) for words in
                       ("overlap", "does not fit", "stands on impassable")))
        raise


def run_events(data: dict[str, Any], seed: int, pick: int) -> tuple[Battle, list[Any]]:
    loaded = load_placed(data)
    roller = SeededRoller(seed)
    choose = choice_picker(pick)

    def answer(request: Request) -> Any:
        if isinstance(request, Choice):
            return choose(request)
        return roller.roll(request.dice, request.key)

    session = run(loaded.start(), answer)
    assert session.events is not None
    return loaded.battle, session.events



@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3))
def test_same_battle_and_answers_give_the_same_events(data, seed, pick):
    _, first = run_events(data, seed, pick)
    _, second = run_events(data, seed, pick)
    assert [e.to_json() for e in first] == [e.to_json() for e in second]


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3))
def test_w6_pu_1_a_caught_unit_rolled_no_more_than_a_pursuer(data, seed, pick):
    _, events = run_events(data, seed, pick)
    rolls = {(e.unit, e.purpose): e.total for e in events if isinstance(e, DiceRolled)}
    for caught in (e for e in events if isinstance(e, UnitCaught)):
        assert caught.flee_roll == rolls[(caught.unit, "flee")]
        assert caught.pursuit_rolls
        assert caught.flee_roll <= max(roll for _, roll in caught.pursuit_rolls)
        for pursuer, roll in caught.pursuit_rolls:
            assert rolls[(pursuer, "pursue")] == roll


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3))
def test_no_unit_ends_overlapping_or_silently_off_the_table(data, seed, pick):
    start, events = run_events(data, seed, pick)
    assert_sound_run(start, events)


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1))
def test_w6_fl_5_compulsory_flee_keeps_units_apart_and_on_the_table(data, seed):
    data = as_later_turn(data)
    loaded = load_placed(data)
    session = run(loaded.start(), answer_with(seed, {}))
    assert session.events is not None
    assert_sound_run(loaded.battle, session.events)


def as_later_turn(data: dict[str, Any]) -> dict[str, Any]:
    """W6-FL-5: every unit of one side is fleeing at the start of its turn."""
    for unit in data["units"]:
        if unit["player"] == PLAYERS[1]:
            unit["status"] = "fleeing"
    data["resolve"] = {"procedure": "start_of_turn", "player": PLAYERS[1]}
    return data


def as_breaks_pursues(data: dict[str, Any]) -> dict[str, Any]:
    """The same battle under Breaks-or-Pursues: profiles cut down to Move and Discipline."""
    for unit in data["units"]:
        unit["profile"] = {"M": unit["profile"]["M"], "Ld": unit["profile"]["Ld"]}
    data["ruleset"] = "breaks_pursues"
    data["resolve"]["procedure"] = "breaks_pursues"
    return data


def as_kensei(data: dict[str, Any], difference: int, value: int) -> dict[str, Any]:
    """The same battle under Kensei (read as centimetres): the loser is beaten in combat."""
    for unit in data["units"]:
        profile = unit["profile"]
        unit["profile"] = {"Mv": 2 * profile["M"], "Init": 4, "Honor": profile["Ld"],
                           "W": 1, "AP": 2}
    data["units"][0]["engaged_with"] = ["winner"]
    data["units"][1]["engaged_with"] = ["loser"]
    data["ruleset"] = "kensei1"
    data["resolve"] = {"procedure": "combat", "unit": "loser",
                       "damage_difference": difference, "confrontation_value": value}
    return data


def as_charge_on_fleeing(data: dict[str, Any]) -> dict[str, Any]:
    """W6-FL-8: the loser is already fleeing and the winner charges it."""
    data["units"][0]["status"] = "fleeing"
    data["resolve"] = {"procedure": "charge_fleeing", "charger": "winner", "target": "loser"}
    return data


def as_kensei_reaction(data: dict[str, Any]) -> dict[str, Any]:
    """K-RA-3 on a battle made by `as_kensei`: the loser may run from the winner's charge."""
    data["resolve"] = {"procedure": "charge_reaction", "unit": "loser", "charger": "winner"}
    return data


def as_kensei_regroup(data: dict[str, Any]) -> dict[str, Any]:
    """K-RG-1 on a battle made by `as_kensei`: the loser is running and may try to stop."""
    data["units"][0].update(status="fleeing", engaged_with=[])
    data["units"][1]["engaged_with"] = []
    data["resolve"] = {"procedure": "regroup", "unit": "loser"}
    return data


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3))
def test_bp_same_answers_same_events_and_sound_end_positions(data, seed, pick):
    data = as_breaks_pursues(data)
    start, first = run_events(data, seed, pick)
    _, second = run_events(data, seed, pick)
    assert [e.to_json() for e in first] == [e.to_json() for e in second]
    assert_sound_run(start, first)
    for caught in (e for e in first if isinstance(e, UnitCaught)):
        assert caught.flee_roll <= max(roll for _, roll in caught.pursuit_rolls)  # BP-5


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3),
       difference=st.integers(0, 8), value=st.integers(0, 5))
def test_kensei_same_answers_same_events_and_sound_end_positions(data, seed, pick,
                                                                   difference, value):
    data = as_kensei(data, difference, value)
    start, first = run_events(data, seed, pick)
    _, second = run_events(data, seed, pick)
    assert [e.to_json() for e in first] == [e.to_json() for e in second]
    assert_sound_run(start, first)
