"""Kensei 1st edition: one or more tests per K-* clause of rules/README.md. Centimetres."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from desktop.engine import narrate, odds
from desktop.engine.dice import D2D6, D2D10, D3D10, D10, ScriptedRoller
from desktop.engine.events import (
    ChaseCharged,
    ChaseReached,
    CommandPointSpent,
    DiceRolled,
    FlagSet,
    HonorTest,
    ModifierApplied,
    RunnerLocked,
    TestWaived,
    UnitChased,
    UnitDestroyed,
    UnitFled,
    UnitLeftTable,
    UnitRallied,
    UnitTurned,
    fold,
)
from desktop.engine.geometry import heading_of
from desktop.engine.model import Status
from desktop.engine.procedure import Choice, Resolution, Roll, ScriptedAnswers, run
from desktop.engine.rulesets import kensei1

from builders import events_of, play, request_keys, scenario

CRANE, SHADOW = "Crane", "Shadow"


def kensei1_start(procedure, battle, procedure_input) -> Resolution:
    """One Kensei resolution on `battle`, started by hand rather than from a scenario."""
    return Resolution(battle, lambda recorder: procedure(recorder, procedure_input))


def k_unit(unit_id: str, player: str, x: float, y: float, *, facing: float = 90,
           models: int = 10, files: int = 5, base: tuple[float, float] = (2.5, 2.5),
           Mv: int = 10, Init: int = 4, Honor: int = 5, W: int = 1, AP: int = 2,
           **fields) -> dict:
    return {"id": unit_id, "name": unit_id.title(), "player": player,
            "profile": {"Mv": Mv, "Init": Init, "Honor": Honor, "W": W, "AP": AP},
            "base": list(base), "models": models, "files": files, "position": [x, y],
            "facing": facing, **fields}


def fight(resolve: dict, *, samurai: dict | None = None, oni: dict | None = None,
          extra: list | None = None, **kwargs) -> dict:
    """Samurai (12.5 x 5 cm at (60, 60), facing down) engaged with Oni in contact below."""
    units = [k_unit("samurai", CRANE, 60, 60, facing=270,
                    **{"engaged_with": ["oni"], **(samurai or {})}),
             k_unit("oni", SHADOW, 60, 55, models=8, files=4,
                    **{"engaged_with": ["samurai"], **(oni or {})}),
             *(extra or [])]
    return scenario(units, resolve, ruleset="kensei1", table=(120, 120), **kwargs)


def defeat(difference: int, value: int) -> dict:
    return {"procedure": "combat", "unit": "samurai", "damage_difference": difference,
            "confrontation_value": value}


REACT = {"procedure": "charge_reaction", "unit": "samurai", "charger": "oni"}


def request(session, key: str):
    return next(step.request for step in session.steps if step.request.key == key)


def chances(req, option: str = "") -> dict:
    """A roll's odds, or those of one option of a choice (its default unless named)."""
    if isinstance(req, Choice):
        req = req.option(option or req.default)
    return {o.label: o.chance for o in req.odds if o.chance}


# --- K-RA-1 and K-RA-2: where and how far ----------------------------------------------------


def test_k_ra_1_runs_exactly_away_from_the_closest_enemy():
    far = k_unit("ninja", SHADOW, 100, 60, facing=180, models=5)
    _, session, battle = play(fight(REACT, extra=[far]), [6, 4])
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "oni"
    assert fled.facing == pytest.approx(90.0)
    assert fled.path[-1] == pytest.approx((60.0, 70.0))
    assert battle.states["samurai"].status == Status.FLEEING


def test_k_ra_1_equally_close_enemies_the_one_with_most_wounds():
    # Two enemies of one size, as far below-left as below-right; the right one has
    # 15 Wounds to 5.
    left = k_unit("left", SHADOW, 40, 40, models=5, files=5)
    right = k_unit("right", SHADOW, 80, 40, models=5, files=5, W=3)
    data = scenario([k_unit("samurai", CRANE, 60, 60, facing=270), left, right], REACT | {
        "charger": "left"}, ruleset="kensei1", table=(120, 120))
    _, session, _ = play(data, [3, 3])
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "right"
    assert fled.facing == pytest.approx(heading_of((60 - 80, 60 - 40)))


@pytest.mark.parametrize(("fields", "dice"), [
    ({}, D2D10), ({"troop_type": "cavalry"}, D3D10), ({"troop_type": "large"}, D3D10),
    ({"troop_type": "monster"}, D3D10), ({"flies": True}, D3D10)])
def test_k_ra_2_cavalry_large_creatures_and_flyers_roll_3d10(fields, dice):
    _, session, _ = play(fight(REACT, samurai=fields), [1] * dice.count)
    assert request(session, "run:samurai").dice == dice


# --- K-RA-3: reaction to a charge --------------------------------------------------------------


def test_k_ra_3_a_free_reaction_once_per_turn():
    _, session, battle = play(fight(REACT), [2, 3])
    assert events_of(session, FlagSet)[0].flag == kensei1.RAN_FROM_CHARGE
    choice = session.steps[0].request
    assert isinstance(choice, Choice)
    assert choice.clause == "K-RA-3"
    # Charged again this turn: no second run.
    reaction = kensei1.ChargeReaction("samurai", "oni")
    again = run(kensei1_start(kensei1.charge_reaction, battle, reaction),
                ScriptedAnswers(ScriptedRoller([])))
    assert [type(e) for e in again.events] == [TestWaived]
    # Next turn it may run from a charge again.
    next_turn = fold(battle, run(kensei1_start(kensei1.new_turn, battle, None),
                                 ScriptedAnswers(ScriptedRoller([]))).events)
    battle_next = next_turn.update("samurai", status=Status.READY)
    later = run(kensei1_start(kensei1.charge_reaction, battle_next, reaction),
                ScriptedAnswers(ScriptedRoller([4, 4])))
    assert any(isinstance(e, UnitFled) for e in later.events)


def test_k_ra_3_standing_instead_does_nothing():
    _, session, battle = play(fight(REACT), [], {"react:samurai": "stand"})
    assert session.events == []
    assert battle.states["samurai"].status == Status.READY


# --- K-RA-4: shooting ---------------------------------------------------------------------------


@pytest.mark.parametrize(("wounds", "tested"), [(5, True), (4, False)])
def test_k_ra_4_half_the_wounds_in_one_round_means_an_honor_test(wounds, tested):
    shot = {"procedure": "shooting", "unit": "samurai", "wounds": wounds}
    _, session, battle = play(fight(shot), [1])
    assert ("honor_shot:samurai" in request_keys(session)) is tested
    assert battle.states["samurai"].models == 10 - wounds


def test_k_ra_4_character_wounds_do_not_count():
    # 10 Wounds in the ranks plus a 4-Wound hero: 5 is half of the ranks, not of 14.
    shot = {"procedure": "shooting", "unit": "samurai", "wounds": 5}
    _, session, _ = play(fight(shot, samurai={"character_wounds": 4}), [1])
    assert request_keys(session) == ["honor_shot:samurai"]


def test_k_ra_4_failing_runs_away_and_wiping_out_destroys():
    shot = {"procedure": "shooting", "unit": "samurai", "wounds": 6}
    _, session, battle = play(fight(shot), [9, 2, 2])
    assert events_of(session, HonorTest)[0].passed is False
    assert battle.states["samurai"].status == Status.FLEEING
    assert "chase:oni" not in request_keys(session)  # only combat runs can be chased
    wiped = {"procedure": "shooting", "unit": "samurai", "wounds": 10}
    _, session, battle = play(fight(wiped), [])
    assert events_of(session, UnitDestroyed)[0].clause == "K-RA-4"


def test_k_ra_4_multi_wound_models_lose_models_as_wounds_add_up():
    shot = {"procedure": "shooting", "unit": "samurai", "wounds": 3}
    _, _, battle = play(fight(shot, samurai={"W": 2}), [1])
    assert battle.states["samurai"].models == 9
    assert battle.states["samurai"].wounds_lost == 1
    assert kensei1.remaining_wounds(battle, "samurai") == 17


# --- K-RA-5 and K-RA-6: defeat in combat ------------------------------------------------------


def test_k_ra_5_damage_difference_over_the_confrontation_value():
    _, session, _ = play(fight(defeat(3, 2)), [1])
    assert request_keys(session) == ["honor_cv:samurai"]
    assert session.steps[0].request.clause == "K-RA-5"
    _, session, _ = play(fight(defeat(2, 2)), [])
    assert session.steps == []


def test_k_ra_6_damage_difference_over_unmodified_honor_is_its_own_test():
    # Honor 5, Confrontation Value 10: only the Honor trigger holds.
    _, session, _ = play(fight(defeat(6, 10)), [1])
    assert request_keys(session) == ["honor_honor:samurai"]
    assert session.steps[0].request.clause == "K-RA-6"


def test_k_ra_6_both_triggers_each_test_and_failing_either_runs():
    # Passes the first (1), fails the second (9): it runs.
    _, session, battle = play(fight(defeat(6, 2)), [1, 9, 2, 2], {"chase:oni": "stay"})
    assert request_keys(session)[:2] == ["honor_cv:samurai", "honor_honor:samurai"]
    assert battle.states["samurai"].status == Status.FLEEING
    # Failing the first already runs: the second is not rolled.
    _, session, _ = play(fight(defeat(6, 2)), [9, 2, 2], {"chase:oni": "stay"})
    assert "honor_honor:samurai" not in request_keys(session)


def test_k_ra_6_uses_honor_before_modifiers():
    loaded, _, _ = play(fight({"procedure": "new_turn"}), [])
    battle = fold(loaded.battle, [ModifierApplied("samurai", "Honor", -3, 9, "test")])
    defeat_by_4 = kensei1.CombatDefeat("samurai", 4, 10)
    session = run(kensei1_start(kensei1.combat_defeat, battle, defeat_by_4),
                  ScriptedAnswers(ScriptedRoller([])))
    assert session.steps == []  # 4 is not more than the unmodified Honor of 5


# --- K-RA-7 to K-RA-9: Chase ----------------------------------------------------------------------


def test_k_ra_7_the_engaged_enemy_may_chase_with_its_own_running_roll():
    # Samurai run 10 cm: a 10 cm gap. Cavalry Oni chase on 3d10.
    data = fight(defeat(3, 0), oni={"troop_type": "cavalry"})
    _, session, _ = play(data, [9, 5, 5, 1, 1, 1])
    choice = request(session, "chase:oni")
    assert choice.player == SHADOW
    assert choice.clause == "K-RA-7"
    assert chances(choice) == {"reaches Samurai": 1 - D3D10.cdf(9),
                               "falls short": D3D10.cdf(9)}
    # The roll itself carries the same odds, total by total (K-RA-7).
    assert chances(request(session, "chase_roll:oni")) == chances(choice)
    assert request(session, "chase_roll:oni").dice == D3D10
    chased = events_of(session, UnitChased)[0]
    assert chased.roll == 3 and chased.reached == ""


def test_k_ra_8_reaching_the_runner_gives_a_free_attack():
    _, session, battle = play(fight(defeat(3, 0)), [9, 5, 5, 6, 6],
                              {"free_attack:samurai": "destroyed"})
    assert events_of(session, ChaseReached)[0].unit == "oni"
    assert events_of(session, UnitDestroyed)[0].clause == "K-RA-8"
    assert battle.states["samurai"].status == Status.DESTROYED


def test_k_ra_8_reaching_another_enemy_is_a_charge_on_it():
    # The Samurai ran through the Ashigaru; the chasing Oni meet the Ashigaru first.
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6)
    _, session, battle = play(fight(defeat(3, 0), extra=[guard]), [9, 4, 5, 2, 8, 9])
    assert events_of(session, ChaseCharged)[0].enemy == "ashigaru"
    assert battle.states["ashigaru"].engaged_with == frozenset({"oni"})
    assert not events_of(session, ChaseReached)


def test_k_ra_9_a_survivor_runs_again_without_a_second_chase():
    _, session, battle = play(fight(defeat(3, 0)), [9, 5, 5, 6, 6, 3, 3],
                              {"free_attack:samurai": "survived"})
    keys = request_keys(session)
    assert "run:samurai#2" in keys
    assert "chase:oni#2" not in keys
    # "survived" leads to that second run: the choice shows the run roll's own odds.
    assert chances(request(session, "free_attack:samurai"), "survived") == chances(
        request(session, "run:samurai#2"))
    assert events_of(session, UnitFled)[-1].clause == "K-RA-9"
    assert battle.states["samurai"].status == Status.FLEEING


# --- K-RA-10 to K-RA-12: friends and enemies in the way -----------------------------------------


def test_k_ra_10_stops_3_cm_beyond_a_friend_it_cannot_clear():
    # Friend 5 cm deep starting 5 cm behind the Samurai: a 9 cm run ends inside it.
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6)
    _, session, battle = play(fight(REACT, extra=[guard]), [4, 5, 1])
    fled = events_of(session, UnitFled)[0]
    assert fled.passed_through == ("ashigaru",)
    samurai_rear = battle.footprint("samurai").polygon.bounds[1]
    assert samurai_rear == pytest.approx(72.5 + 3.0)


def test_k_ra_10_a_long_run_simply_ends_beyond():
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6)
    _, session, battle = play(fight(REACT, extra=[guard]), [10, 10, 1])
    assert battle.states["samurai"].center == pytest.approx((60.0, 80.0))
    assert events_of(session, UnitFled)[0].passed_through == ("ashigaru",)


def test_k_ra_11_a_friend_run_through_may_run_too():
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6, Honor=4)
    _, session, battle = play(fight(REACT, extra=[guard]), [4, 5, 7, 3, 3])
    assert events_of(session, HonorTest)[0].unit == "ashigaru"
    assert request(session, "run:ashigaru").clause == "K-RA-2"
    fled = [e.unit for e in events_of(session, UnitFled)]
    assert fled == ["samurai", "ashigaru"]
    assert events_of(session, UnitFled)[1].clause == "K-RA-11"
    assert battle.states["ashigaru"].status == Status.FLEEING


def test_k_ra_11_passing_costs_honor_and_initiative_for_two_turns():
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6, Honor=4)
    _, session, battle = play(fight(REACT, extra=[guard]), [4, 5, 2])
    assert {(m.stat, m.delta, m.expires_after_turn) for m in events_of(
        session, ModifierApplied)} == {("Honor", -1, 2), ("Init", -1, 2)}
    assert (battle.stat("ashigaru", "Honor"), battle.stat("ashigaru", "Init")) == (3, 3)
    for turn, honor in ((2, 3), (3, 4)):
        battle = fold(battle, run(kensei1_start(kensei1.new_turn, battle, None),
                                  ScriptedAnswers(ScriptedRoller([]))).events)
        assert battle.turn == turn
        assert battle.stat("ashigaru", "Honor") == honor


def test_k_ra_11_a_bushi_hero_means_no_roll_but_the_same_penalty():
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6,
                   special_rules=["bushi"])
    _, session, _ = play(fight(REACT, extra=[guard]), [4, 5])
    assert not events_of(session, HonorTest)
    assert events_of(session, TestWaived)[0].clause == "K-RA-11"
    assert len(events_of(session, ModifierApplied)) == 2


def test_k_ra_12_running_into_an_enemy_locks_both_and_loses_honor_rolls():
    blocker = k_unit("ninja", SHADOW, 60, 70, facing=270, models=5, files=5)
    _, session, battle = play(fight(REACT, extra=[blocker]), [5, 5])
    locked = events_of(session, RunnerLocked)[0]
    assert (locked.unit, locked.enemy) == ("samurai", "ninja")
    assert battle.states["samurai"].status == Status.READY
    assert "ninja" in battle.states["samurai"].engaged_with
    assert "samurai" in battle.states["ninja"].engaged_with
    gap = battle.footprint("samurai").polygon.distance(battle.footprint("ninja").polygon)
    assert gap < 0.05
    assert kensei1.loses_roll(battle, "samurai")  # Initiative and Honor rolls alike
    assert not kensei1.loses_roll(battle, "ninja")
    shot = run(kensei1_start(kensei1.shooting, battle, kensei1.Shooting("samurai", 5)),
               ScriptedAnswers(ScriptedRoller([1, 1])))
    waived = [e for e in shot.events if isinstance(e, TestWaived)]
    assert waived and waived[0].clause == "K-RA-12"
    assert not any(isinstance(e, HonorTest) for e in shot.events)
    # Once the enemy is gone the lock is over, and so is the penalty.
    freed = fold(battle, [UnitDestroyed("ninja", "test")])
    assert not kensei1.loses_roll(freed, "samurai")


# --- K-HT-1 and K-RG-1 ---------------------------------------------------------------------------


@pytest.mark.parametrize(("rule", "face", "held"), [
    ("roll_at_most_honor", 5, True), ("roll_below_honor", 5, False),
    ("roll_below_honor", 4, True)])
def test_k_ht_1_honor_test_comparison_is_an_option(rule, face, held):
    data = fight(defeat(3, 2), options={"honor_test": rule})
    _, session, _ = play(data, [face, 1, 1], {"chase:oni": "stay"})
    assert events_of(session, HonorTest)[0].passed is held


def test_k_ht_1_honor_dice_are_an_option():
    data = fight(defeat(3, 2), options={"honor_dice": "2D6"})
    _, session, _ = play(data, [2, 2])
    assert session.steps[0].request.dice == D2D6


def test_k_ht_1_ronin_reroll_a_failed_honor_roll():
    data = fight(defeat(3, 2), samurai={"special_rules": ["Ronin"]})
    _, session, battle = play(data, [9, 3])
    first = session.steps[0].request
    fail_once = odds.attribute_test_fails(5, D10)
    assert chances(first) == {"holds": 1 - fail_once, "rolls again": fail_once}
    assert chances(session.steps[1].request)["runs away"] == fail_once
    assert "to hold with the second chance" in first.why
    assert [e.passed for e in events_of(session, HonorTest)] == [False, True]
    assert battle.states["samurai"].status == Status.READY


def test_k_rg_1_regroup_spends_a_command_point_and_an_action_point():
    data = fight({"procedure": "regroup", "unit": "samurai"},
                 samurai={"status": "fleeing", "engaged_with": []}, oni={"engaged_with": []})
    data["units"][0]["position"] = [60, 80]
    _, session, battle = play(data, [4])
    assert events_of(session, CommandPointSpent)[0].player == CRANE
    assert events_of(session, UnitRallied)[0].clause == "K-RG-1"
    assert battle.states["samurai"].status == Status.READY
    assert battle.stat("samurai", "AP") == 1
    turned = events_of(session, UnitTurned)[0]
    assert turned.facing == pytest.approx(270.0)  # faces the Oni below


def test_k_rg_1_failing_or_not_trying_spends_the_turn_running():
    data = fight({"procedure": "regroup", "unit": "samurai"},
                 samurai={"status": "fleeing", "engaged_with": []}, oni={"engaged_with": []})
    data["units"][0]["position"] = [60, 80]
    _, session, battle = play(data, [9, 3, 3])
    assert request_keys(session) == ["regroup:samurai", "honor_regroup:samurai",
                                     "run:samurai"]
    assert battle.states["samurai"].status == Status.FLEEING
    _, session, _ = play(data, [3, 3], {"regroup:samurai": "run"})
    assert not events_of(session, CommandPointSpent)
    assert isinstance(session.steps[-1].request, Roll)


def test_k_ra_1_running_off_the_table_leaves_it():
    data = fight(REACT)
    data["units"][0]["position"] = [60, 115]
    data["units"][1]["position"] = [60, 110]
    _, session, battle = play(data, [9, 9])
    assert events_of(session, UnitLeftTable)[0].unit == "samurai"
    assert battle.states["samurai"].status == Status.LEFT_TABLE


def test_k_run_odds_add_up_and_match_the_geometry():
    guard = k_unit("ashigaru", CRANE, 60, 70, facing=270, models=12, files=6)
    _, session, _ = play(fight(REACT, extra=[guard]), [1, 1, 1])
    outcomes = chances(request(session, "run:samurai"))
    assert sum(outcomes.values()) == 1
    # The Ashigaru are 5 cm behind: a run of 5 or less gets clear, more goes through.
    assert outcomes["moves the full distance"] == D2D10.cdf(5)
    assert outcomes["passes through friends"] == 1 - D2D10.cdf(5)


def test_kensei_example_scenario_through_rout_resolve(scenario_path):
    completed = subprocess.run(
        [sys.executable, "-m", "desktop", "resolve",
         str(scenario_path("k1-ronin-run-through-ashigaru.json"))],
        capture_output=True, text=True, check=True)
    output = json.loads(completed.stdout)
    kinds = [e["type"] for e in output["events"]]
    assert kinds.count("HonorTest") == 3  # the Ronin re-roll, then the Ashigaru
    fled = next(e for e in output["events"] if e["type"] == "UnitFled")
    assert fled["passed_through"] == ["ashigaru"]
    assert fled["path"][-1] == [60.0, 78.0]  # 3 cm beyond the Ashigaru
    assert "ChaseCharged" in kinds
    assert output["units"]["oni"]["position"][1] == pytest.approx(63.5)
    rolled = [e for e in output["events"] if e["type"] == "DiceRolled"]
    assert [e["purpose"] for e in rolled] == ["run", "chase"]
    assert math.isclose(output["units"]["samurai"]["position"][1], 78.0)
    assert DiceRolled.__name__ in kinds


def test_k_ht_1_no_ronin_reroll_for_a_regroup_roll():
    data = fight({"procedure": "regroup", "unit": "samurai"},
                 samurai={"status": "fleeing", "engaged_with": [], "special_rules": ["ronin"]},
                 oni={"engaged_with": []})
    data["units"][0]["position"] = [60, 80]
    _, session, _ = play(data, [9, 3, 3])
    assert "honor_regroup:samurai:reroll" not in request_keys(session)
    assert len(events_of(session, HonorTest)) == 1


def test_k_rg_1_a_regrouped_unit_may_face_any_compass_direction():
    data = fight({"procedure": "regroup", "unit": "samurai"},
                 samurai={"status": "fleeing", "engaged_with": []}, oni={"engaged_with": []})
    data["units"][0]["position"] = [60, 80]
    _, _, battle = play(data, [4], {"regroup_facing:samurai": "135"})
    assert battle.states["samurai"].facing == 135.0


def test_k_ra_4_option_counts_the_wounds_the_unit_started_with():
    # 10 Wounds at the start, 4 already lost: 3 more is half of the 6 left, not of 10.
    shot = {"procedure": "shooting", "unit": "samurai", "wounds": 3}
    data = fight(shot, samurai={"models_lost": 4})
    _, session, _ = play(data, [1])
    assert request_keys(session) == ["honor_shot:samurai"]
    data["options"] = {"shooting_total": "starting"}
    _, session, _ = play(data, [])
    assert session.steps == []


def test_k_ra_12_turning_never_swings_a_runner_through_an_enemy_it_did_not_touch():
    # Running east from the unit on its left; turning to face east would swing the long
    # line into the enemy just above it, so it slides east keeping its facing.
    runner = k_unit("runner", CRANE, 60, 60, models=5, files=5)
    left = k_unit("left", SHADOW, 52.5, 60, models=1, files=1)
    above = k_unit("above", SHADOW, 60, 63.5, models=1, files=1)
    data = scenario([runner, left, above], {"procedure": "charge_reaction", "unit": "runner",
                                            "charger": "left"},
                    ruleset="kensei1", table=(120, 120))
    _, session, battle = play(data, [1, 1])
    fled = events_of(session, UnitFled)[0]
    assert fled.path[-1] == pytest.approx((62.0, 60.0))
    assert not events_of(session, RunnerLocked)
    end = battle.footprint("runner").polygon
    assert end.intersection(battle.footprint("above").polygon).area < 1e-9


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["units"][0].update(engaged_with=["ashigaru"]), "friend"),
    (lambda d: d["units"][0].update(wounds_lost=1), "wounds_lost"),
    (lambda d: d["units"][0].update(models_lost=10), "models_lost"),
    (lambda d: d["units"][0].update(wound_lost=1), "unknown field 'wound_lost'"),
    (lambda d: d["resolve"].update(bogus=1), "unknown field 'bogus'"),
])
def test_kensei_scenarios_refuse_what_cannot_be(change, message):
    from desktop.engine.errors import ScenarioError

    guard = k_unit("ashigaru", CRANE, 60, 75, facing=270)
    data = fight(defeat(3, 2), extra=[guard])
    change(data)
    with pytest.raises(ScenarioError, match=message):
        play(data, [])


def test_k_ra_3_only_an_enemy_charge_can_be_run_from():
    from desktop.engine.errors import ScenarioError

    guard = k_unit("ashigaru", CRANE, 60, 75, facing=270)
    with pytest.raises(ScenarioError, match="not an enemy"):
        play(fight(REACT | {"charger": "ashigaru"}, extra=[guard]), [])


def test_k_ht_1_a_held_honor_roll_is_said_one_way_on_its_page_its_chart_and_the_log():
    """Issue 20, item 6: the chart said "holds", the page "stand their ground" and the log
    "stand firm" for one outcome; the page cited K-RA-5 and the log K-HT-1 for one roll."""
    loaded, session, _ = play(fight(defeat(3, 2)), [4])
    page = session.steps[0].request
    assert isinstance(page, Roll)
    assert page.threshold is not None and page.threshold.passes == "holds"
    # The sentence agrees with the Samurai (many models), as the result line and log do.
    assert page.why.endswith("Roll d10: above 5 run away, 5 or less hold.")
    assert "stand" not in page.why
    told = narrate.sentences(loaded.battle, session.events)[0]
    assert told[0] == ("Samurai take an Honor test on d10: 4, not above 5 — they hold "
                       f"[{page.clause}]")
    assert page.clause == events_of(session, HonorTest)[0].clause == "K-RA-5"


def test_k_ht_1_the_ronin_re_roll_page_says_it_is_the_re_roll_and_why():
    """Issue 20, item 6: the re-roll's page was word for word the first roll's, as if Next
    had done nothing. It says the first roll failed and that Ronin roll again, and cites
    K-HT-1, the clause that gives the re-roll, as its log line does."""
    data = fight(defeat(3, 2), samurai={"special_rules": ["Ronin"]})
    loaded, session, _ = play(data, [9, 3])
    first, second = (step.request for step in session.steps[:2])
    assert first.why != second.why
    assert second.why.startswith("The Ronin re-roll: the first Honor roll of Samurai was 9, "
                                 "above 5. As Ronin they roll it again (K-HT-1)")
    assert [first.clause, second.clause] == ["K-RA-5", "K-HT-1"]
    assert [event.clause for event in events_of(session, HonorTest)] == ["K-RA-5", "K-HT-1"]
    told = narrate.sentences(loaded.battle, session.events)[0]
    # The log names the second roll as the re-roll, and the first failure as not yet final.
    assert told[:2] == ["Samurai take an Honor test on d10: 9, above 5 — they fail it and, as "
                        "Ronin, roll again [K-RA-5]",
                        "Samurai take their Ronin re-roll of the Honor test on d10: 3, not above "
                        "5 — they hold [K-HT-1]"]
