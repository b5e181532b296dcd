"""Events and the fold (desktop.engine.events): battle state is the fold of its events."""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import pkgutil

import pytest
from work import growth

import desktop.engine
from desktop.engine.dice import ScriptedRoller
from desktop.engine.errors import ScenarioError
from desktop.engine.events import (
    LOCKED_RUNNER,
    BreakTest,
    CasualtiesRemoved,
    ChargeFailed,
    ChaseCharged,
    ChaseReached,
    CombatResolved,
    CommandPointSpent,
    DiceRolled,
    Event,
    FlagSet,
    HonorTest,
    ModifierApplied,
    Movement,
    PanicTest,
    PursuitDeclared,
    RallyTest,
    RestraintTest,
    RunnerLocked,
    TerrainMoved,
    TerrainPlaced,
    TerrainRemoved,
    TerrainRenamed,
    TestTaken,
    TestWaived,
    TurnBegan,
    UnitBroke,
    UnitCaught,
    UnitCharged,
    UnitChased,
    UnitDeployed,
    UnitDestroyed,
    UnitEscaped,
    UnitFled,
    UnitLeftTable,
    UnitMoved,
    UnitPanicked,
    UnitPursued,
    UnitRallied,
    UnitReformed,
    UnitsDisengaged,
    UnitsEngaged,
    UnitTurned,
    UnitWheeled,
    WoundsSuffered,
    apply,
    event_from_json,
    fold,
)
from desktop.engine.geometry import Table
from desktop.engine.model import Battle, Modifier, Status, Unit, UnitProfile, UnitState
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario

# Every engine module, so that every Event subclass anywhere in the engine is defined.
for _module in pkgutil.walk_packages(desktop.engine.__path__, "desktop.engine."):
    importlib.import_module(_module.name)

FOUR_UNITS = "w6-four-units.json"
# Units of w6-four-units.json: boyz and wolf_riders (Orcs & Goblins) fight swordsmen
# (Empire); handgunners (Empire) stand nearby, in no combat.
ORC_PLAYER, EMPIRE = "Orcs & Goblins", "Empire"

# What every sample move carries for drawing, each field away from its default.
DRAWN: dict = {"start_facing": 180.0, "turned": "before",
               "through": (("swordsmen", (40.0, 24.0), (41.0, 24.5)),),
               "footprint": ((1.0, 2.0), (3.0, 2.0), (3.0, 1.0), (1.0, 1.0))}

SAMPLES: dict[type[Event], Event] = {
    CombatResolved: CombatResolved(
        combat="centre", scores=((ORC_PLAYER, 11), (EMPIRE, 4)),
        breakdown=((ORC_PLAYER, "wounds", 6), (ORC_PLAYER, "ranks", 2), (EMPIRE, "wounds", 3)),
        winner=ORC_PLAYER, difference=7, clause="W6-CR-1"),
    TestTaken: TestTaken(unit="swordsmen", dice="2D6", faces=(4, 3), modifier=7, target=8,
                         passed=False, clause="W6-BT-2"),
    BreakTest: BreakTest(unit="swordsmen", dice="2D6", faces=(1, 6), modifier=2, target=8,
                         passed=True, clause="W6-BT-2"),
    PanicTest: PanicTest(unit="handgunners", dice="2D6", faces=(5, 4), modifier=0, target=7,
                         passed=False, clause="W6-PT-2"),
    RestraintTest: RestraintTest(unit="boyz", dice="2D6", faces=(2, 2), modifier=0,
                                 target=7, passed=True, clause="W6-PU-2"),
    RallyTest: RallyTest(unit="handgunners", dice="2D6", faces=(6, 6), modifier=0, target=7,
                         passed=False, clause="W6-RA-1"),
    HonorTest: HonorTest(unit="boyz", dice="d10", faces=(3,), modifier=-1, target=6,
                         passed=True, attempt=1, attempts=2, clause="K-HT-1"),
    TestWaived: TestWaived(unit="handgunners", test="panic", reason="fleeing",
                           clause="W6-PT-2"),
    DiceRolled: DiceRolled(unit="wolf_riders", purpose="pursue", dice="3D6",
                           faces=(6, 5, 1), total=12, clause="W6-PU-1"),
    UnitEscaped: UnitEscaped(unit="swordsmen", flee_roll=9,
                             pursuit_rolls=(("boyz", 4), ("wolf_riders", 8)), clause="BP-5"),
    PursuitDeclared: PursuitDeclared(unit="wolf_riders", target="swordsmen", overrun=True,
                                     clause="BP-3a"),
    CasualtiesRemoved: CasualtiesRemoved(
        unit="swordsmen", models=6, center=(36.0, 23.606), clause="W6-CR-1",
        corners=((37.969, 22.819), (34.031, 22.819), (34.031, 24.394), (37.969, 24.394)),
        moved_up=(("wolf_riders", 33.046, 23.5),)),
    UnitBroke: UnitBroke(unit="swordsmen", clause="W6-BT-2"),
    UnitPanicked: UnitPanicked(unit="handgunners", cause="swordsmen", clause="W6-PT-2"),
    Movement: Movement(unit="handgunners", roll=3, path=((42.94, 24.0), (42.94, 27.0)),
                       facing=90.0, **DRAWN),
    UnitMoved: UnitMoved(unit="handgunners", roll=0, path=((42.94, 24.0), (42.94, 27.0)),
                         facing=90.0, **DRAWN),
    UnitFled: UnitFled(unit="swordsmen", roll=8,
                       path=((36.0, 24.0), (39.5, 28.25), (50.37481165308002, 26.95)),
                       facing=21.666056402146094, away_from="boyz",
                       passed_through=("handgunners",), blocked_by="rock", clause="W6-FL-3",
                       start_facing=270.0, turned="after",
                       through=(("handgunners", (38.0, 26.5), (39.5, 28.25)),),
                       footprint=((51.0, 28.0), (52.0, 26.0), (49.7, 25.9), (48.7, 27.9))),
    UnitPursued: UnitPursued(unit="boyz", roll=4, path=((36.0, 21.243), (36.0, 25.243)),
                             facing=90.0, target="swordsmen", charged="handgunners",
                             clause="W6-PU-2", **DRAWN),
    UnitLeftTable: UnitLeftTable(unit="handgunners", roll=11,
                                 path=((42.94, 24.0), (72.5, 24.0)), facing=0.0,
                                 clause="W6-FL-6", **DRAWN),
    UnitCharged: UnitCharged(unit="wolf_riders", roll=10, path=((33.046, 24.0), (40.0, 30.0)),
                             facing=45.0, target="handgunners", reached=False,
                             clause="W6-FL-8", **DRAWN),
    UnitCaught: UnitCaught(unit="swordsmen", by=("wolf_riders",), flee_roll=5,
                           pursuit_rolls=(("boyz", 4), ("wolf_riders", 12)), clause="W6-PU-1",
                           corners=((37.969, 22.819), (34.031, 22.819), (34.031, 25.181),
                                    (37.969, 25.181))),
    UnitDestroyed: UnitDestroyed(unit="swordsmen", reason="caught by pursuers",
                                 clause="W6-PU-1",
                                 corners=((37.969, 22.819), (34.031, 22.819), (34.031, 25.181),
                                          (37.969, 25.181))),
    UnitRallied: UnitRallied(unit="handgunners", clause="W6-RA-1"),
    UnitsEngaged: UnitsEngaged(unit="boyz", enemy="handgunners", clause="W6-PU-2"),
    ChargeFailed: ChargeFailed(unit="wolf_riders", target="handgunners", clause="W6-FL-8"),
    TurnBegan: TurnBegan(turn=2),
    ModifierApplied: ModifierApplied(unit="boyz", stat="Ld", delta=-1, expires_after_turn=2,
                                     source="passed through by a fleeing unit",
                                     clause="K-RA-11"),
    FlagSet: FlagSet(unit="wolf_riders", flag="turn:ran_from_charge", clause="K-RA-3"),
    WoundsSuffered: WoundsSuffered(
        unit="boyz", wounds=5, center=(36.0, 21.637), clause="K-RA-4",
        corners=((34.031, 22.818), (37.969, 22.818), (37.969, 20.456), (34.031, 20.456)),
        moved_up=(("swordsmen", 36.0, 24.5),)),
    RunnerLocked: RunnerLocked(unit="handgunners", enemy="boyz", clause="K-RA-12",
                               corners=((44.909, 23.213), (40.971, 23.213), (40.971, 24.787),
                                        (44.909, 24.787)),
                               touching=("boyz", "swordsmen")),
    UnitChased: UnitChased(unit="boyz", roll=12, path=((36.0, 21.243), (36.0, 30.0)),
                           facing=90.0, target="handgunners", reached="swordsmen",
                           clause="K-RA-7", **DRAWN),
    ChaseReached: ChaseReached(unit="boyz", target="handgunners", clause="K-RA-8"),
    ChaseCharged: ChaseCharged(unit="boyz", enemy="handgunners", clause="K-RA-8"),
    CommandPointSpent: CommandPointSpent(player="Empire", unit="handgunners",
                                         purpose="regroup", clause="K-RG-1"),
    UnitTurned: UnitTurned(unit="boyz", facing=405.0, clause="K-RG-1", start_facing=90.0,
                           center=(36.0, 21.243),
                           footprint=((34.031, 22.818), (37.969, 22.818), (37.969, 19.668),
                                      (34.031, 19.668))),
    UnitDeployed: UnitDeployed(unit="handgunners", center=(60.0, 10.0), facing=180.0,
                               clause="player"),
    UnitWheeled: UnitWheeled(unit="handgunners", pivot="left", angle=-30.0, arc=2.06,
                             clause="player"),
    UnitReformed: UnitReformed(unit="handgunners", files=10,
                               moved_up=(("boyz", 30.0, 21.5),), clause="player"),
    UnitsDisengaged: UnitsDisengaged(unit="boyz", enemy="swordsmen", clause="player"),
    TerrainPlaced: TerrainPlaced(terrain="hill", name="Hill", points=((1.0, 1.0), (5.0, 1.0),
                                                                      (3.0, 4.0)),
                                 impassable=True, difficult=True, clause="player"),
    TerrainRemoved: TerrainRemoved(terrain="rocks", clause="player"),
    TerrainMoved: TerrainMoved(terrain="rocks", dx=-2.5, dy=1.25, clause="player"),
    TerrainRenamed: TerrainRenamed(terrain="rocks", name="Old Crag", clause="player"),
}
# The battle the samples apply to has this piece, so that TerrainRemoved, TerrainMoved and
# TerrainRenamed have one to change.
ROCKS = TerrainPlaced(terrain="rocks", name="Rocks", points=((60.0, 40.0), (64.0, 40.0),
                                                             (62.0, 44.0)), impassable=True)


def all_event_classes() -> set[type[Event]]:
    found: set[type[Event]] = set()
    pending = [Event]
    while pending:
        for cls in pending.pop().__subclasses__():
            if cls not in found:
                found.add(cls)
                pending.append(cls)
    return found


def load_four_units(scenario_path) -> Scenario:
    return load_scenario(json.loads(scenario_path(FOUR_UNITS).read_text()))


@pytest.fixture
def loaded(scenario_path) -> Scenario:
    return load_four_units(scenario_path)


@pytest.fixture
def battle(loaded) -> Battle:
    return loaded.battle


def resolution_events(loaded: Scenario) -> list[Event]:
    session = run(loaded.start(), ScriptedAnswers(ScriptedRoller(loaded.dice), loaded.choices))
    assert session.events is not None
    return session.events


# --- purity --------------------------------------------------------------------------------


@pytest.mark.parametrize("event", list(SAMPLES.values()), ids=lambda e: type(e).__name__)
def test_apply_leaves_the_input_battle_unchanged(event, scenario_path):
    # Handgunners fleeing, so that every sample has something to change (a rally, a panic).
    setup = UnitFled(unit="handgunners", roll=2, path=((42.94, 24.0), (42.94, 26.0)),
                     facing=90.0, away_from="boyz")
    battle = fold(load_four_units(scenario_path).battle, [setup, ROCKS])
    untouched = fold(load_four_units(scenario_path).battle, [setup, ROCKS])
    assert battle == untouched
    after = apply(battle, event)
    assert battle == untouched
    assert after is not None and isinstance(after, Battle)
    if type(event).apply_to is not Event.apply_to:
        assert after != battle, f"{type(event).__name__} changed nothing"
    else:
        assert after == battle, f"{type(event).__name__} records, it should change nothing"


def test_apply_of_every_event_of_a_resolution_is_pure(loaded, scenario_path):
    untouched = load_four_units(scenario_path).battle
    battle = loaded.battle
    for event in resolution_events(loaded):
        before = battle
        snapshot = dict(before.states)
        battle = apply(before, event)
        assert dict(before.states) == snapshot
    assert loaded.battle == untouched
    assert battle != untouched


def test_battle_mappings_are_read_only(battle):
    after = apply(battle, UnitBroke(unit="swordsmen"))
    for b in (battle, after):
        with pytest.raises(TypeError):
            b.states["swordsmen"] = b.states["boyz"]  # type: ignore[index]
        with pytest.raises(TypeError):
            del b.states["boyz"]  # type: ignore[attr-defined]
        with pytest.raises(TypeError):
            b.roster["boyz"] = b.roster["swordsmen"]  # type: ignore[index]
        with pytest.raises(dataclasses.FrozenInstanceError):
            b.turn = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.states["swordsmen"].status = Status.READY  # type: ignore[misc]


# --- the fold ------------------------------------------------------------------------------


def test_fold_equals_applying_the_events_one_by_one(loaded):
    events = resolution_events(loaded)
    assert len(events) > 10
    folded = fold(loaded.battle, events)
    one_by_one = loaded.battle
    for event in events:
        one_by_one = apply(one_by_one, event)
    assert folded == one_by_one
    assert folded == functools.reduce(apply, events, loaded.battle)
    for split in range(len(events) + 1):
        assert fold(fold(loaded.battle, events[:split]), events[split:]) == folded
    assert fold(loaded.battle, []) == loaded.battle


def test_fold_of_the_four_units_resolution_ends_where_the_events_say(loaded):
    events = resolution_events(loaded)
    end = fold(loaded.battle, events)
    fled = next(e for e in events if isinstance(e, UnitFled))
    assert fled.unit == "handgunners"
    assert end.state("handgunners").status == Status.FLEEING
    assert end.state("handgunners").center == fled.path[-1]
    assert end.state("handgunners").facing == fled.facing
    assert end.state("swordsmen").status == Status.DESTROYED
    assert "swordsmen" not in set(end.on_table())
    # Casualties: boyz 20 - 3, swordsmen 15 - 6.
    assert end.state("boyz").models == 17
    assert end.state("swordsmen").models == 9
    for event in events:
        if isinstance(event, UnitPursued):
            assert end.state(event.unit).center == event.path[-1]
            assert end.state(event.unit).engaged_with == frozenset()


# --- JSON round trips ------------------------------------------------------------------------


def test_every_event_class_has_a_sample():
    missing = sorted(cls.__qualname__ for cls in all_event_classes() - set(SAMPLES))
    assert not missing, f"add a sample to SAMPLES in {__name__} for: {', '.join(missing)}"
    names = [cls.__name__ for cls in all_event_classes()]
    assert len(names) == len(set(names)), "two Event classes share a name"


def test_samples_set_every_field_away_from_its_default():
    for cls, event in SAMPLES.items():
        assert type(event) is cls
        for item in dataclasses.fields(event):
            if item.name == "clause" and cls in (Movement, UnitMoved, TurnBegan):
                continue
            if item.default is not dataclasses.MISSING:
                assert getattr(event, item.name) != item.default, (cls.__name__, item.name)


@pytest.mark.parametrize("event", list(SAMPLES.values()), ids=lambda e: type(e).__name__)
def test_to_json_and_event_from_json_round_trip_exactly(event):
    data = event.to_json()
    assert data["type"] == type(event).__name__
    text = json.dumps(data)
    back = event_from_json(json.loads(text))
    assert type(back) is type(event)
    assert back == event
    assert back.to_json() == data
    assert hash(back) == hash(event)


def test_to_json_writes_plain_json_values():
    data = SAMPLES[UnitFled].to_json()
    assert data == {
        "type": "UnitFled", "clause": "W6-FL-3", "unit": "swordsmen", "roll": 8,
        "path": [[36.0, 24.0], [39.5, 28.25], [50.37481165308002, 26.95]],
        "facing": 21.666056402146094, "away_from": "boyz",
        "passed_through": ["handgunners"], "blocked_by": "rock",
        "start_facing": 270.0, "turned": "after",
        "through": [["handgunners", [38.0, 26.5], [39.5, 28.25]]],
        "footprint": [[51.0, 28.0], [52.0, 26.0], [49.7, 25.9], [48.7, 27.9]],
    }


def test_events_of_a_resolution_round_trip(loaded):
    events = resolution_events(loaded)
    back = [event_from_json(json.loads(json.dumps(e.to_json()))) for e in events]
    assert back == events
    assert fold(loaded.battle, back) == fold(loaded.battle, events)


def test_event_from_json_rejects_an_unknown_type():
    with pytest.raises(ScenarioError, match="unknown event type 'UnitTeleported'"):
        event_from_json({"type": "UnitTeleported", "unit": "boyz"})
    with pytest.raises(ScenarioError, match="unknown event type"):
        event_from_json({"unit": "boyz"})
    with pytest.raises(ScenarioError, match="unknown event type 'Event'"):
        event_from_json({"type": "Event"})


def test_event_from_json_rejects_a_missing_field():
    with pytest.raises(ScenarioError, match="'UnitBroke' is missing a field"):
        event_from_json({"type": "UnitBroke", "clause": "W6-BT-2"})
    data = SAMPLES[UnitFled].to_json()
    del data["away_from"]
    with pytest.raises(ScenarioError, match="'UnitFled' is missing a field"):
        event_from_json(data)


def test_event_from_json_fills_defaults_and_ignores_unknown_keys():
    event = event_from_json({"type": "PursuitDeclared", "unit": "boyz", "target": "swordsmen",
                             "colour": "red"})
    assert event == PursuitDeclared(unit="boyz", target="swordsmen")
    assert event.clause == "" and event.overrun is False


# --- state changes ---------------------------------------------------------------------------


def test_records_of_rolls_and_tests_change_nothing(battle):
    for cls in (CombatResolved, TestTaken, BreakTest, PanicTest, RestraintTest, RallyTest,
                HonorTest, TestWaived, DiceRolled, UnitEscaped, PursuitDeclared, UnitCaught,
                ChargeFailed, ChaseReached, CommandPointSpent):
        assert apply(battle, SAMPLES[cls]) == battle, cls.__name__


def test_casualties_come_off_without_narrowing_while_models_fill_the_front(battle):
    after = apply(battle, CasualtiesRemoved(unit="swordsmen", models=6))  # 15 -> 9
    state = after.state("swordsmen")
    assert (state.models, state.files, state.ranks, state.full_ranks) == (9, 5, 2, 1)
    assert after.footprint("swordsmen").depth == battle.footprint("swordsmen").depth * 2 / 3


def test_casualties_narrow_the_files_when_fewer_models_than_files_remain(battle):
    after = apply(battle, CasualtiesRemoved(unit="swordsmen", models=12))  # 15 -> 3
    state = after.state("swordsmen")
    assert (state.models, state.files, state.ranks) == (3, 3, 1)
    assert after.footprint("swordsmen").frontage == pytest.approx(
        battle.footprint("swordsmen").frontage * 3 / 5)


def test_casualties_never_take_a_unit_below_zero_models(battle):
    after = apply(battle, CasualtiesRemoved(unit="swordsmen", models=40))
    state = after.state("swordsmen")
    assert state.models == 0
    assert state.files >= 1 and state.ranks == 0
    again = apply(after, CasualtiesRemoved(unit="swordsmen", models=1))
    assert again.state("swordsmen").models == 0
    assert after.state("boyz") == battle.state("boyz")


def test_unit_fled_sets_fleeing_moves_turns_and_disengages_both_sides(battle):
    assert battle.state("swordsmen").engaged_with == {"boyz", "wolf_riders"}
    assert "swordsmen" in battle.state("boyz").engaged_with
    event = UnitFled(unit="swordsmen", roll=7, path=((36.0, 24.0), (36.0, 31.0)),
                     facing=90.0, away_from="boyz")
    after = apply(battle, event)
    state = after.state("swordsmen")
    assert state.status == Status.FLEEING
    assert state.center == (36.0, 31.0) and state.facing == 90.0
    assert state.engaged_with == frozenset()
    assert "swordsmen" not in after.state("boyz").engaged_with
    assert "swordsmen" not in after.state("wolf_riders").engaged_with
    assert after.state("handgunners") == battle.state("handgunners")


def test_unit_fled_leaves_other_combats_of_its_enemies_alone(battle):
    battle = apply(battle, UnitsEngaged(unit="boyz", enemy="handgunners"))
    after = apply(battle, UnitFled(unit="swordsmen", roll=7, path=((36.0, 24.0), (36.0, 31.0)),
                                   facing=90.0, away_from="boyz"))
    assert after.state("boyz").engaged_with == {"handgunners"}
    assert after.state("handgunners").engaged_with == {"boyz"}


def test_unit_left_table_sets_left_table_and_disengages(battle):
    after = apply(battle, UnitLeftTable(unit="swordsmen", roll=12,
                                        path=((36.0, 24.0), (36.0, 50.0)), facing=90.0))
    state = after.state("swordsmen")
    assert state.status == Status.LEFT_TABLE
    assert state.center == (36.0, 50.0)
    assert "swordsmen" not in set(after.on_table())
    assert "swordsmen" not in after.enemies_of("boyz")
    assert "swordsmen" not in after.state("boyz").engaged_with
    assert state.engaged_with == frozenset()


def test_unit_destroyed_sets_destroyed_and_disengages(battle):
    after = apply(battle, UnitDestroyed(unit="swordsmen", reason="caught by pursuers"))
    assert after.state("swordsmen").status == Status.DESTROYED
    assert not after.state("swordsmen").status.on_table
    assert after.state("swordsmen").center == battle.state("swordsmen").center
    assert after.state("boyz").engaged_with == frozenset()
    assert after.state("wolf_riders").engaged_with == frozenset()
    assert list(after.on_table()) == ["boyz", "wolf_riders", "handgunners"]


@pytest.mark.parametrize("cls", [UnitBroke, UnitPanicked])
def test_broke_and_panicked_set_broken(battle, cls):
    event = cls(unit="handgunners") if cls is UnitBroke else cls(unit="handgunners",
                                                                  cause="swordsmen")
    after = apply(battle, event)
    assert after.state("handgunners").status == Status.BROKEN
    assert after.state("handgunners").center == battle.state("handgunners").center


def test_unit_rallied_sets_ready(battle):
    fleeing = apply(battle, UnitFled(unit="handgunners", roll=5,
                                     path=((42.94, 24.0), (42.94, 29.0)), facing=90.0,
                                     away_from="boyz"))
    assert fleeing.state("handgunners").status == Status.FLEEING
    rallied = apply(fleeing, UnitRallied(unit="handgunners"))
    assert rallied.state("handgunners").status == Status.READY
    assert rallied.state("handgunners").center == (42.94, 29.0)


def test_engaged_in_combat_is_symmetric(battle):
    after = apply(battle, UnitsEngaged(unit="handgunners", enemy="boyz"))
    assert after.state("handgunners").engaged_with == {"boyz"}
    assert after.state("boyz").engaged_with == {"swordsmen", "handgunners"}
    assert apply(after, UnitsEngaged(unit="boyz", enemy="handgunners")) == after


def test_unit_pursued_moves_disengages_and_engages_a_fresh_enemy(battle):
    after = apply(battle, SAMPLES[UnitPursued])  # boyz pursue swordsmen into handgunners
    assert after.state("boyz").center == (36.0, 25.243)
    assert after.state("boyz").engaged_with == {"handgunners"}
    assert after.state("handgunners").engaged_with == {"boyz"}
    assert after.state("swordsmen").engaged_with == {"wolf_riders"}
    assert after.state("boyz").status == Status.READY


def test_unit_charged_only_moves(battle):
    after = apply(battle, SAMPLES[UnitCharged])
    assert after.state("wolf_riders").center == (40.0, 30.0)
    assert after.state("wolf_riders").facing == 45.0
    assert after.state("wolf_riders").engaged_with == battle.state("wolf_riders").engaged_with


def test_modifier_shows_in_stat_until_its_expiry_turn_and_then_is_dropped(battle):
    assert battle.turn == 1
    assert battle.stat("boyz", "Ld") == 7
    event = ModifierApplied(unit="boyz", stat="Ld", delta=-1, expires_after_turn=2,
                            source="K-RA-11")
    turn1 = apply(battle, event)
    assert turn1.stat("boyz", "Ld") == 6
    assert turn1.stat("boyz", "M") == 4
    assert turn1.stat("wolf_riders", "Ld") == 6
    assert turn1.state("boyz").modifiers == (Modifier("Ld", -1, 2, "K-RA-11"),)
    turn2 = apply(turn1, TurnBegan(turn=2))
    assert turn2.turn == 2
    assert turn2.stat("boyz", "Ld") == 6
    turn3 = apply(turn2, TurnBegan(turn=3))
    assert turn3.turn == 3
    assert turn3.stat("boyz", "Ld") == 7
    assert turn3.state("boyz").modifiers == ()


def test_modifiers_stack_and_expire_separately(battle):
    battle = fold(battle, [
        ModifierApplied(unit="boyz", stat="Ld", delta=-1, expires_after_turn=1, source="a"),
        ModifierApplied(unit="boyz", stat="Ld", delta=-2, expires_after_turn=3, source="b"),
    ])
    assert battle.stat("boyz", "Ld") == 4
    later = fold(battle, [TurnBegan(turn=2)])
    assert later.stat("boyz", "Ld") == 5
    assert [m.source for m in later.state("boyz").modifiers] == ["b"]


def test_flag_set_adds_a_flag_and_turn_started_clears_only_turn_flags(battle):
    flagged = fold(battle, [FlagSet(unit="wolf_riders", flag="turn:ran_from_charge"),
                            FlagSet(unit="boyz", flag="chased")])
    assert flagged.state("wolf_riders").flags == {"turn:ran_from_charge"}
    assert flagged.state("boyz").flags == {"chased"}
    assert flagged.state("swordsmen").flags == frozenset()
    assert apply(flagged, FlagSet(unit="boyz", flag="chased")) == flagged
    cleared = apply(flagged, TurnBegan(turn=2))
    assert cleared.state("wolf_riders").flags == frozenset()
    assert cleared.state("boyz").flags == {"chased"}  # not a turn flag: it stays
    assert cleared.state("boyz").center == flagged.state("boyz").center


def test_wounds_suffered_take_whole_models_and_keep_the_rest(battle):
    after = apply(battle, WoundsSuffered(unit="boyz", wounds=3))
    assert after.state("boyz").models == battle.state("boyz").models - 3
    assert after.state("boyz").wounds_lost == 0
    wiped = apply(battle, WoundsSuffered(unit="boyz", wounds=500))
    assert wiped.state("boyz").models == 0


def test_runner_locked_engages_both_and_marks_the_runner_until_freed(battle):
    locked = apply(battle, RunnerLocked(unit="handgunners", enemy="boyz"))
    assert locked.state("handgunners").status == Status.READY
    assert "boyz" in locked.state("handgunners").engaged_with
    assert "handgunners" in locked.state("boyz").engaged_with
    assert LOCKED_RUNNER in locked.state("handgunners").flags
    assert LOCKED_RUNNER in apply(locked, TurnBegan(turn=2)).state("handgunners").flags
    freed = apply(locked, UnitDestroyed(unit="boyz", reason="test"))
    assert LOCKED_RUNNER not in freed.state("handgunners").flags


def test_chase_charged_engages_and_unit_turned_normalises_the_facing(battle):
    after = apply(battle, ChaseCharged(unit="boyz", enemy="handgunners"))
    assert "handgunners" in after.state("boyz").engaged_with
    assert apply(battle, UnitTurned(unit="boyz", facing=450.0)).state("boyz").facing == 90.0


def test_battles_saved_with_turn_started_still_read():
    assert event_from_json({"type": "TurnStarted", "turn": 4}) == TurnBegan(turn=4)


def test_moves_saved_before_they_could_be_drawn_still_read():
    data = SAMPLES[UnitFled].to_json()
    for name in ("start_facing", "turned", "through", "footprint"):
        del data[name]
    event = event_from_json(data)
    assert isinstance(event, UnitFled)
    assert (event.start_facing, event.turned, event.through, event.footprint) == (
        0.0, "", (), ())
    assert event.path == SAMPLES[UnitFled].path


def test_battles_saved_with_engaged_in_combat_still_read():
    data = {"type": "EngagedInCombat", "unit": "a", "enemy": "b", "clause": "W6-PU-2"}
    assert event_from_json(data) == UnitsEngaged("a", "b", clause="W6-PU-2")


def test_terrain_placed_saved_before_difficult_ground_still_reads():
    data = {"type": "TerrainPlaced", "clause": "player", "terrain": "wood", "name": "Wood",
            "points": [[0, 0], [4, 0], [2, 3]], "impassable": False}
    event = event_from_json(data)
    assert event == TerrainPlaced("wood", "Wood", ((0, 0), (4, 0), (2, 3)), clause="player")
    assert event.difficult is False


def test_terrain_moves_and_renames_keep_the_drawing_order(battle):
    wood = TerrainPlaced("wood", "Wood", ((1.0, 1.0), (5.0, 1.0), (3.0, 4.0)), difficult=True)
    placed = fold(battle, [ROCKS, wood])
    moved = apply(placed, TerrainMoved("rocks", dx=-2.5, dy=1.25))
    assert [piece.id for piece in moved.terrain] == ["rocks", "wood"]
    assert moved.terrain[0].points == ((57.5, 41.25), (61.5, 41.25), (59.5, 45.25))
    assert moved.terrain[1] == placed.terrain[1]
    assert moved.terrain[1].kind == "difficult" and moved.terrain[0].kind == "impassable"
    renamed = apply(moved, TerrainRenamed("wood", "Dark Wood"))
    assert [piece.name for piece in renamed.terrain] == ["Rocks", "Dark Wood"]
    assert renamed.terrain[1].points == placed.terrain[1].points
    # Moving or renaming a piece that is not there changes nothing (as removing one).
    assert apply(renamed, TerrainMoved("nowhere", 1.0, 1.0)) == renamed


# ---------------------------------------------------------------------------------------------
# Scale: an event costs the same however big the battle is and however many flags, enemies
# and modifiers its units carry, so that a fold is linear in its events


def test_what_an_event_leaves_as_it_was_is_not_copied(battle):
    """A set or tuple that comes out equal comes out the very same object: a unit with
    50,000 flags had them all copied by each event, and a replay took 45 s."""
    marks = frozenset(f"mark {i}" for i in range(100))
    marked = fold(battle, [ROCKS])
    for uid in marked.states:
        turn_flag = {"turn:ran_from_charge"} if uid == "boyz" else set()
        marked = marked.update(uid, flags=marks | turn_flag,
                               modifiers=(Modifier("Ld", -1, 5, "long"),))
    for kind, event in SAMPLES.items():
        after = apply(marked, event)
        assert after.roster is marked.roster and after.options is marked.options, kind
        for uid, state in marked.states.items():
            for field in ("flags", "engaged_with", "modifiers"):
                old, new = getattr(state, field), getattr(after.state(uid), field)
                assert new is old or new != old, (kind.__name__, uid, field)


def grid(units: int) -> Battle:
    """`units` units in rows of 50, 10" apart, footprints all worked out (as when drawn)."""
    profile = UnitProfile("Spearmen", {"M": 4, "Ld": 7})
    roster = {f"u{i}": Unit(f"u{i}", f"Spearmen {i}", "North" if i % 2 else "South",
                            profile, models=10, files=5) for i in range(units)}
    states = {uid: UnitState(uid, (5.0 + i % 50 * 10, 5.0 + i // 50 * 10), 90.0, files=5,
                             models=10) for i, uid in enumerate(roster)}
    battle = Battle("warhammer6", Table(500, 10 + units // 50 * 10), roster, states)
    for uid in roster:
        battle.footprint(uid)
    return battle


def test_an_event_costs_the_same_on_a_battle_of_ten_times_the_units():
    steps = [UnitMoved("u0", 0, ((5.0, 5.0), (5.0, 5.0 + i / 100)), 90.0)
             for i in range(1, 101)]
    small, large = grid(100), grid(1000)
    assert growth(lambda: fold(small, steps), lambda: fold(large, steps)) < 1.5
