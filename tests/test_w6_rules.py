"""Warhammer 6th edition: one or more tests per W6-* clause of rules/README.md."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from work import growth

from desktop.engine import odds
from desktop.engine.dice import D2D6, D3D6, ScriptedRoller
from desktop.engine.errors import ScenarioError
from desktop.engine.events import (
    BreakTest,
    ChargeFailed,
    CombatResolved,
    DiceRolled,
    PanicTest,
    RallyTest,
    RestraintTest,
    TestWaived,
    UnitBroke,
    UnitCaught,
    UnitCharged,
    UnitDestroyed,
    UnitEscaped,
    UnitFled,
    UnitLeftTable,
    UnitPanicked,
    UnitPursued,
    UnitRallied,
    UnitsEngaged,
)
from desktop.engine.geometry import distance, heading_of, swept_area
from desktop.engine.model import Status
from desktop.engine.procedure import Roll, ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario

from builders import (
    aftermath,
    events_of,
    play,
    request_keys,
    roll_keys,
    scenario,
    side,
    w6_unit,
    wiped_out_combats,
)

ORCS, ELVES = "Orcs", "Elves"


def duel(*, elf: dict | None = None, orc: dict | None = None, extra: list | None = None,
         elf_side: dict | None = None, orc_side: dict | None = None, y: float = 30,
         **kwargs) -> dict:
    """Elves (10 wide, facing down, centred at (36, y)) fight Orcs in contact below them.

    Both are one rank of 10 by default, so the score is wounds only: Orcs 3, Elves 1.
    """
    elf_fields = {"models": 10, "files": 10, **(elf or {})}
    orc_fields = {"models": 10, "files": 10, **(orc or {})}
    orc_depth = math.ceil(orc_fields["models"] / orc_fields["files"])
    elves = w6_unit("elves", ELVES, 36, y, facing=270, **elf_fields)
    orcs = w6_unit("orcs", ORCS, 36, y - 0.5 - orc_depth / 2, **orc_fields)
    return scenario([orcs, elves, *(extra or [])],
                    aftermath((side({"unit": "orcs", "wounds_caused": 3}, **(orc_side or {})),
                               side({"unit": "elves", "wounds_caused": 1},
                                    **(elf_side or {})))),
                    **kwargs)


def two_elf_units(**archers: object) -> list[dict]:
    """Orcs 20 strong, 10 wide, against Elves and Archers (5 wide each) side by side."""
    return [w6_unit("orcs", ORCS, 36, 28.5, models=20, files=10),
            w6_unit("elves", ELVES, 33, 30.5, facing=270),
            w6_unit("archers", ELVES, 39, 30.5, facing=270, **archers)]


def resolved(session) -> CombatResolved:
    return events_of(session, CombatResolved)[0]


# --- W6-CR: combat result ----------------------------------------------------------------


def test_w6_cr_1_score_is_wounds_plus_ranks_plus_outnumber_and_loser_tests():
    # Orcs 20 models 5 wide = 4 ranks (+3), 20 vs 10 models (+1), 3 wounds: 7 against 1.
    data = duel(orc={"models": 20, "files": 5})
    _, session, _ = play(data, [1, 1, 6, 6, 6, 6], {"pursue:orcs": "pursue"})
    result = resolved(session)
    assert dict(result.scores) == {ORCS: 7, ELVES: 1}
    assert result.winner == ORCS and result.difference == 6
    assert {(p, label) for p, label, _ in result.breakdown} == {
        (ORCS, "wounds"), (ORCS, "ranks"), (ORCS, "outnumber"), (ELVES, "wounds")}
    assert roll_keys(session)[0] == "break:elves"
    assert not any(key == "break:orcs" for key in roll_keys(session))


@pytest.mark.parametrize(("flags", "bonus"), [
    ({"battle_standard": True}, 1), ({"flank": True}, 1), ({"rear": True}, 2),
    ({"high_ground": True}, 1), ({"other": 2}, 2)])
def test_w6_cr_2_situational_bonuses(flags, bonus):
    _, session, _ = play(duel(elf_side=flags), [1, 1])
    assert dict(resolved(session).scores)[ELVES] == 1 + bonus


def test_w6_cr_2_standard_counts_once_and_rank_bonus_is_capped_at_3():
    # 40 models 5 wide = 8 ranks: still +3. Standard +1.
    data = duel(orc={"models": 40, "files": 5, "upgrades": ["standard"]})
    _, session, _ = play(data, [1, 1, 6, 6, 6, 6])
    breakdown = {label: value for player, label, value in resolved(session).breakdown
                 if player == ORCS}
    assert breakdown == {"wounds": 3, "ranks": 3, "standard": 1, "outnumber": 1}


def test_w6_cr_2_rank_needs_four_models_wide():
    # 3 wide x 4 ranks: no rank bonus (and 12 vs 10 models still outnumbers).
    data = duel(orc={"models": 12, "files": 3})
    _, session, _ = play(data, [1, 1, 6, 6, 6, 6])
    labels = {label for player, label, _ in resolved(session).breakdown if player == ORCS}
    assert "ranks" not in labels


def test_w6_cr_2_draw_means_nobody_tests():
    data = duel()
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["wounds_caused"] = 3
    _, session, _ = play(data, [])
    assert resolved(session).winner is None
    assert session.steps == []
    assert not events_of(session, BreakTest)


# --- W6-BT: break tests -------------------------------------------------------------------


def test_w6_bt_1_every_losing_unit_takes_its_own_break_test():
    data = scenario(two_elf_units(),
                    aftermath((side({"unit": "orcs", "wounds_caused": 5}),
                               side("elves", "archers"))))
    _, session, _ = play(data, [1, 1, 1, 1])
    assert roll_keys(session)[:2] == ["break:elves", "break:archers"]
    assert [e.unit for e in events_of(session, BreakTest)] == ["elves", "archers"]


@pytest.mark.parametrize(("faces", "broken"), [((2, 3), False), ((3, 3), True)])
def test_w6_bt_2_total_above_leadership_breaks_equal_holds(faces, broken):
    # Ld 8, lost by 3: 5 + 3 = 8 holds, 6 + 3 = 9 breaks.
    data = duel(elf={"Ld": 8})
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["wounds_caused"] = 4
    _, session, _ = play(data, [*faces, 1, 1, 1, 1])
    test = events_of(session, BreakTest)[0]
    assert (test.modifier, test.target, test.passed) == (3, 8, not broken)
    assert bool(events_of(session, UnitBroke)) is broken
    first = session.steps[0].request
    assert isinstance(first, Roll) and first.clause == "W6-BT-2"
    assert dict((o.label, o.chance) for o in first.odds)["breaks"] == Fraction(26, 36)


def test_w6_bt_3_worked_example_through_rout_resolve(scenario_path):
    """Goblins 3 + 3 ranks + 1 = 7 vs Elves 4; Elves Ld 8 roll 7 -> 10 > 8, broken."""
    completed = subprocess.run(
        [sys.executable, "-m", "desktop", "resolve",
         str(scenario_path("w6-goblins-vs-elves.json"))],
        capture_output=True, text=True, check=True)
    output = json.loads(completed.stdout)
    events = output["events"]
    combat = next(e for e in events if e["type"] == "CombatResolved")
    assert dict(map(tuple, combat["scores"])) == {"Orcs & Goblins": 7, "High Elves": 4}
    assert combat["difference"] == 3
    breakdown = {(p, label): v for p, label, v in combat["breakdown"]}
    assert breakdown[("Orcs & Goblins", "ranks")] == 3
    assert breakdown[("Orcs & Goblins", "outnumber")] == 1
    test = next(e for e in events if e["type"] == "BreakTest")
    assert test["faces"] == [3, 4] and test["modifier"] == 3 and test["target"] == 8
    assert sum(test["faces"]) + test["modifier"] == 10 and test["passed"] is False
    choice = next(s for s in output["steps"] if s["kind"] == "choice")
    assert choice["key"] == "pursue:goblins" and choice["player"] == "Orcs & Goblins"
    kinds = [e["type"] for e in events]
    assert kinds.index("UnitBroke") < kinds.index("UnitFled") < kinds.index("UnitPursued")
    fled = next(e for e in events if e["type"] == "UnitFled")
    pursued = next(e for e in events if e["type"] == "UnitPursued")
    assert fled["unit"] == "elves" and fled["roll"] == 9
    assert pursued["unit"] == "goblins" and pursued["roll"] == 6
    assert output["units"]["elves"]["status"] == "fleeing"


def test_w6_bt_4_double_one_option_holds_only_when_switched_on():
    data = duel(elf={"Ld": 5})
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["wounds_caused"] = 7  # lost by 6
    _, session, _ = play(data, [1, 1, 1, 1, 1, 1])
    assert events_of(session, BreakTest)[0].passed is False
    data["options"] = {"double_one_holds": True}
    _, session, _ = play(data, [1, 1])
    assert events_of(session, BreakTest)[0].passed is True
    request = session.steps[0].request
    assert dict((o.label, o.chance) for o in request.odds)["holds"] == Fraction(1, 36)


def test_w6_bt_4_stubborn_tests_on_unmodified_leadership():
    data = duel(elf={"Ld": 7, "special_rules": ["Stubborn"]})
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["wounds_caused"] = 6  # lost by 5
    _, session, _ = play(data, [3, 4])
    test = events_of(session, BreakTest)[0]
    assert test.modifier == 0 and test.passed is True


def test_w6_bt_4_unbreakable_never_tests():
    _, session, _ = play(duel(elf={"special_rules": ["unbreakable"]}), [])
    assert not events_of(session, BreakTest)
    assert events_of(session, TestWaived)[0].unit == "elves"
    assert session.steps == []


# --- W6-PT: panic --------------------------------------------------------------------------


def panic_battle(friend_x: float) -> dict:
    """Elves (x 31 to 41) break; the Elf Spearmen (5 wide) stand to their right."""
    spear = w6_unit("spearmen", ELVES, friend_x, 30, facing=270, Ld=7)
    return duel(extra=[spear])


def test_w6_pt_1_friend_within_6_inches_tests_after_all_break_tests_before_fleeing():
    # Spearmen centred at 49.5 span x 47..52: exactly 6" from the Elves' edge at 41.
    _, session, _ = play(panic_battle(49.5), [6, 6, 6, 6, 1, 1, 1, 1, 1, 1],
                         {"pursue:orcs": "pursue"})
    keys = request_keys(session)
    assert keys.index("break:elves") < keys.index("panic:spearmen") < keys.index("flee:elves")
    assert events_of(session, PanicTest)[0].passed is False
    assert events_of(session, UnitPanicked)[0].unit == "spearmen"


def test_w6_pt_1_friend_beyond_6_inches_does_not_test():
    _, session, _ = play(panic_battle(50.1), [6, 6, 1, 1, 1, 1])
    assert "panic:spearmen" not in request_keys(session)


def test_w6_pt_1_a_wiped_out_unit_causes_panic():
    data = panic_battle(49.5)
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["casualties"] = 10
    _, session, _ = play(data, [2, 2])
    assert events_of(session, UnitDestroyed)[0].unit == "elves"
    assert request_keys(session) == ["panic:spearmen"]
    assert events_of(session, PanicTest)[0].passed is True


def test_w6_pt_2_panicked_unit_flees_directly_away_from_the_nearest_enemy():
    _, session, battle = play(panic_battle(49.5), [6, 6, 6, 6, 1, 1, 1, 1, 1, 1])
    fled = next(e for e in events_of(session, UnitFled) if e.unit == "spearmen")
    assert fled.away_from == "orcs"
    expected = heading_of((49.5 - 36.0, 30.0 - 29.0))
    assert fled.facing == pytest.approx(expected)
    assert battle.states["spearmen"].status == Status.FLEEING


@pytest.mark.parametrize("bystander", ["fleeing", "engaged", "in_another_combat", "free"])
def test_w6_pt_2_fleeing_and_engaged_units_do_not_test(bystander):
    # An Elf unit 3" right of the Elves that break; only a free one takes a Panic test.
    guard = w6_unit("guard", ELVES, 46.5, 30.5, facing=270)
    wolves = w6_unit("wolves", ORCS, 46.5, 28.5)
    if bystander == "fleeing":
        guard["status"] = "fleeing"
    elif bystander == "engaged":  # fighting the wolves in a combat not being resolved now
        guard["engaged_with"] = ["wolves"]
    data = duel(extra=[guard, wolves])
    if bystander == "in_another_combat":
        data["resolve"]["combats"].append(
            {"id": "other", "sides": [side({"unit": "wolves", "wounds_caused": 1}),
                                      side({"unit": "guard", "wounds_caused": 1})]})
    _, session, _ = play(data, [6, 6, 1, 1, 1, 1, 1, 1], {"pursue:orcs": "hold"})
    assert ("panic:guard" in request_keys(session)) is (bystander == "free")


# --- W6-FL: fleeing ------------------------------------------------------------------------


def test_w6_fl_1_broken_units_move_only_after_every_combat_is_worked_out():
    other_elves = w6_unit("guard", ELVES, 10, 30, facing=270)
    other_orcs = w6_unit("boars", ORCS, 10, 28)
    data = duel(extra=[other_elves, other_orcs])
    data["resolve"]["combats"].append(
        {"id": "left", "sides": [side({"unit": "boars", "wounds_caused": 4}),
                                 side("guard")]})
    _, session, _ = play(data, [6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
                         {"pursue:orcs": "hold", "pursue:boars": "hold"})
    kinds = [type(e).__name__ for e in session.events]
    last_test = max(i for i, k in enumerate(kinds) if k in ("BreakTest", "RestraintTest"))
    first_move = min(i for i, k in enumerate(kinds) if k == "UnitFled")
    assert last_test < first_move
    assert [e.unit for e in events_of(session, UnitFled)] == ["elves", "guard"]


def test_w6_fl_2_flees_from_the_enemy_with_the_highest_unit_strength():
    # Trolls (US 3 each x 3 = 9) on the Elves' left flank; Orcs (5 models) in front.
    trolls = w6_unit("trolls", ORCS, 30.5, 30, facing=0, models=3, files=3, unit_strength=3)
    data = duel(orc={"models": 5, "files": 5}, extra=[trolls])
    data["resolve"]["combats"][0]["sides"][0]["units"].append({"unit": "trolls"})
    _, session, _ = play(data, [6, 6, 3, 3, 1, 1, 1, 1], {"pursue:orcs": "hold",
                                                          "pursue:trolls": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "trolls"
    (x0, y0), (x1, y1) = fled.path
    assert heading_of((x1 - x0, y1 - y0)) == pytest.approx(0.0)  # away from the trolls
    # Turning to face east would swing the long line into the Orcs: it keeps its facing.
    assert fled.facing == pytest.approx(270.0)


@pytest.mark.parametrize(("move", "dice"), [(6, D2D6), (7, D3D6)])
def test_w6_fl_3_flee_distance_dice_by_move(move, dice):
    _, session, battle = play(duel(elf={"M": move}), [6, 6, 1, 1, *([2] * dice.count)],
                              {"pursue:orcs": "hold"})
    flee = next(s.request for s in session.steps if s.request.key == "flee:elves")
    assert flee.dice == dice
    fled = events_of(session, UnitFled)[0]
    assert fled.roll == 2 * dice.count
    (x0, y0), (x1, y1) = fled.path
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(fled.roll)
    # The closest part of the unit ends the roll away from the enemy it fled.
    assert distance(battle.footprint("elves"), battle.footprint("orcs")) == pytest.approx(
        fled.roll)
    assert fled.facing == pytest.approx(90.0)  # facing away from the Orcs
    assert battle.states["elves"].facing == pytest.approx(90.0)


def test_w6_fl_4_goes_round_a_friend_in_the_way():
    # Elves 5 wide (x 33.5 to 38.5) with a friend 6" ahead, a little to the right (x 36-41).
    blocker = w6_unit("guard", ELVES, 39, 36, facing=270, models=5, files=5)
    data = duel(elf={"models": 5, "files": 5}, extra=[blocker])
    # Break, the guard's Panic test (passed), the Orcs' Restraint test, the flee roll.
    _, session, battle = play(data, [6, 6, 1, 1, 1, 1, 4, 4], {"pursue:orcs": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.passed_through == ()
    assert 90.0 < fled.facing <= 135.0  # bent to the left, round the friend
    # W6-FL-3 still holds on the bent path: the closest part ends the roll away.
    assert distance(battle.footprint("elves"), battle.footprint("orcs")) == pytest.approx(8.0)
    end = battle.footprint("elves").polygon
    assert end.intersection(battle.footprint("guard").polygon).area < 1e-6


def test_w6_fl_4_wide_fleeing_unit_bends_round_a_narrow_friend_close_behind_it():
    """W6-FL-4: round friends where possible, even when no straight heading gets round.

    Elves 10 wide (x 31..41, y 29.5..30.5) flee straight up from the Orcs below them; a
    2-wide friend (x 35..37, y 31.5..32.5) stands 1" behind their middle. Getting past it
    means sliding 6" sideways for every 1" up, far beyond the 45° deflections, so the path
    bends: out past one end of the friend, then up. The roll is 8: the Elves walk 8" along
    the path and end clear of the friend.
    """
    friend = w6_unit("guard", ELVES, 36, 32, facing=270, models=2, files=2)
    data = duel(extra=[friend])
    # Break, the guard's Panic test (passed), the Orcs' Restraint test, the flee roll.
    loaded, session, battle = play(data, [6, 6, 1, 1, 1, 1, 4, 4], {"pursue:orcs": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.unit == "elves" and fled.roll == 8
    assert len(fled.path) > 2
    assert fled.passed_through == () and fled.through == ()
    # Turning to face away is a half turn, the same rectangle: it turns before it moves.
    assert (fled.start_facing, fled.turned) == (270.0, "before")
    assert fled.facing == pytest.approx(90.0)
    shape = loaded.battle.footprint("elves").turned(fled.facing)
    guard = loaded.battle.footprint("guard").polygon
    walked = 0.0
    for (x0, y0), (x1, y1) in zip(fled.path, fled.path[1:], strict=False):
        step = math.hypot(x1 - x0, y1 - y0)
        walked += step
        at = shape.moved(x0 - shape.center[0], y0 - shape.center[1])
        area = swept_area(at, ((x1 - x0) / step, (y1 - y0) / step), step)
        assert area.intersection(guard).area < 1e-6
    assert walked == pytest.approx(8.0)
    # It still got away from the Orcs, and ends where the event says.
    assert fled.path[-1][1] > 30.0
    assert [c for xy in battle.footprint("elves").corners for c in xy] == pytest.approx(
        [c for xy in fled.footprint for c in xy])
    # By hand: the friend grown by the Elves' rectangle (and 0.2 of clearance) spans x 29.8
    # to 42.2 from y 30.8; the path runs to a corner, 6.25" away, then 1.75" up its side.
    side_x = fled.path[1][0]
    assert side_x == pytest.approx(29.8) or side_x == pytest.approx(42.2)
    assert fled.path[1][1] == pytest.approx(30.8)
    first = math.hypot(side_x - 36.0, 0.8)
    assert fled.path[-1] == pytest.approx((side_x, 30.8 + 8.0 - first))
    assert distance(battle.footprint("elves"), battle.footprint("orcs")) > 0.5


def test_w6_fl_4_goes_through_friends_when_there_is_no_other_way():
    wall = w6_unit("wall", ELVES, 36, 34, facing=270, models=60, files=60)
    data = duel(extra=[wall])
    _, session, battle = play(data, [6, 6, 1, 1, 1, 1, 2, 2], {"pursue:orcs": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.passed_through == ("wall",)
    # A 4" roll would end inside the wall: the Elves are placed beyond it.
    assert battle.states["elves"].center[1] > 35
    assert battle.footprint("elves").polygon.intersection(
        battle.footprint("wall").polygon).area < 1e-6


def test_w6_fl_4_impassable_terrain_is_not_crossed():
    # A cliff from wall to wall of the table above the Elves: they stop in front of it.
    data = duel(terrain=[{"id": "cliff", "name": "Cliff", "impassable": True,
                          "points": [[0, 35], [72, 35], [72, 37], [0, 37]]}])
    _, session, battle = play(data, [6, 6, 1, 1, 6, 6], {"pursue:orcs": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.blocked_by == "cliff"
    assert battle.footprint("elves").polygon.bounds[3] <= 35 + 1e-6


def test_w6_fl_5_compulsory_flee_heads_for_the_nearest_edge_keeping_4_inches():
    # The left edge is nearest; Orcs 5" to the left stand in the way, so the Elves bend
    # their path to stay 4" from them.
    runner = w6_unit("elves", ELVES, 16, 24, facing=270, status="fleeing")
    orcs = w6_unit("orcs", ORCS, 6, 24, models=5)
    data = scenario([runner, orcs], {"procedure": "start_of_turn", "player": ELVES})
    _, session, battle = play(data, [6, 6, 2, 2])
    assert events_of(session, RallyTest)[0].passed is False
    fled = events_of(session, UnitFled)[0]
    assert fled.clause == "W6-FL-5" and fled.roll == 4
    assert fled.facing != pytest.approx(180.0)
    assert 90 < fled.facing < 270  # still heading for the left edge
    assert distance(battle.footprint("elves"), battle.footprint("orcs")) >= 4 - 1e-6


def test_w6_fl_5_compulsory_flee_goes_straight_for_the_nearest_edge():
    runner = w6_unit("elves", ELVES, 60, 30, facing=270, status="fleeing")
    orcs = w6_unit("orcs", ORCS, 20, 10)
    data = scenario([runner, orcs], {"procedure": "start_of_turn", "player": ELVES})
    _, session, battle = play(data, [6, 6, 3, 3])
    fled = events_of(session, UnitFled)[0]
    assert fled.facing == pytest.approx(0.0) and fled.roll == 6
    assert battle.states["elves"].center == pytest.approx((66.0, 30.0))


def test_w6_fl_3_a_flank_contact_still_ends_the_roll_away():
    # Trolls on the Elves' left flank: the Elves (10 x 1) turn to face away (east) and run
    # until their nearest part is the roll from the Trolls, whatever their turned shape.
    trolls = w6_unit("trolls", ORCS, 30.5, 30, facing=0, models=3, files=3, unit_strength=9)
    data = duel(extra=[trolls])
    data["resolve"]["combats"][0]["sides"][0]["units"].append({"unit": "trolls"})
    # Break, two Restraint tests, then a flee of 12.
    _, session, battle = play(data, [6, 6, 1, 1, 1, 1, 6, 6],
                              {"pursue:orcs": "hold", "pursue:trolls": "hold"})
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "trolls"
    assert fled.facing == pytest.approx(0.0)
    assert distance(battle.footprint("elves"), battle.footprint("trolls")) == pytest.approx(12)


def test_w6_fl_6_any_model_leaving_the_table_removes_the_unit():
    _, session, battle = play(duel(y=43), [6, 6, 1, 1, 3, 3], {"pursue:orcs": "hold"})
    left = events_of(session, UnitLeftTable)
    assert [e.unit for e in left] == ["elves"] and left[0].clause == "W6-FL-6"
    assert battle.states["elves"].status == Status.LEFT_TABLE
    assert "elves" not in list(battle.on_table())


def test_w6_fl_7_a_fleeing_unit_cannot_fight():
    data = duel(elf={"status": "fleeing"})
    with pytest.raises(ScenarioError, match="W6-FL-7"):
        play(data, [])


def test_w6_fl_7_a_fleeing_unit_cannot_be_among_the_winners_either():
    # Pursuers come from a combat's winners; a fleeing unit cannot be one of them.
    guard = w6_unit("guard", ORCS, 44, 29, status="fleeing")
    data = duel(extra=[guard])
    data["resolve"]["combats"][0]["sides"][0]["units"].append({"unit": "guard"})
    with pytest.raises(ScenarioError, match="W6-FL-7"):
        play(data, [])


def charge_on_fleeing(gap: float, move: int = 4) -> dict:
    """Elves already fleeing, facing up; Orcs `gap` inches below them, charging."""
    elves = w6_unit("elves", ELVES, 36, 30, status="fleeing")
    orcs = w6_unit("orcs", ORCS, 36, 28 - gap, M=move)
    return scenario([orcs, elves], {"procedure": "charge_fleeing", "charger": "orcs",
                                    "target": "elves"})


def test_w6_fl_8_charged_fleeing_unit_flees_again_and_is_destroyed_if_reached():
    # Gap 1", charge reach 8": a flee of 7 or less leaves it within reach.
    _, session, battle = play(charge_on_fleeing(1.0), [3, 3])
    assert events_of(session, UnitCaught)[0].by == ("orcs",)
    assert battle.states["elves"].status == Status.DESTROYED
    charged = events_of(session, UnitCharged)[0]
    assert charged.reached is True


def test_w6_fl_8_the_charge_fails_when_it_does_not_reach():
    _, session, battle = play(charge_on_fleeing(1.0), [4, 4])
    assert events_of(session, ChargeFailed)[0].unit == "orcs"
    assert battle.states["elves"].status == Status.FLEEING
    charger = events_of(session, UnitCharged)[0]
    assert charger.reached is False
    (x0, y0), (x1, y1) = charger.path
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(4.0)  # a failed charge moves M


def test_w6_fl_8_odds_follow_the_geometry_exactly():
    # Straight away in open ground: caught when gap + roll <= 2 x Move.
    _, session, _ = play(charge_on_fleeing(2.0, move=5), [1, 1])
    request = session.steps[0].request
    expected = sum((p for total, p in D2D6.pmf().items() if 2.0 + total <= 10), Fraction(0))
    assert dict((o.label, o.chance) for o in request.odds)["caught"] == expected


def flee_across_a_friend() -> dict:
    """The winners are wiped out as they win; the Losers (20 wide) break and flee north,
    and the Friends beside them panic and flee west, away from the enemy to their east,
    across where a middling roll leaves the Losers."""
    units = [w6_unit("winners", "A", 36, 20, models=5, Ld=7),
             w6_unit("losers", "B", 36, 22, facing=270, models=20, files=20, Ld=7),
             w6_unit("friends", "B", 50, 27, facing=90, models=10, Ld=2),
             w6_unit("enemy", "A", 70, 27, facing=180, models=10)]
    return scenario(units, aftermath((side({"unit": "winners", "wounds_caused": 9,
                                            "casualties": 5}),
                                      side({"unit": "losers", "wounds_caused": 0}))))


@pytest.mark.parametrize("losers_flee", [(1, 1), (3, 2), (3, 3), (6, 6)])
def test_w6_fl_3_a_later_flee_rolls_odds_see_the_friends_fled_before_it(losers_flee):
    """Issue 24, D2: every flee roll is asked before anything moves, and the Friends' odds
    were measured on the table as it stood then, so "moves the full distance" with chance 1
    while the Losers, fleeing first (W6-FL-3), ended in their way. Each total's words must
    be what that total then does."""
    loaded = load_scenario(flee_across_a_friend())
    resolution = loaded.resolution()
    given = [(6, 6), (6, 6), losers_flee]  # broken, panicked, the Losers' flee
    flee = resolution.replay(given).pending
    assert isinstance(flee, Roll) and flee.key == "flee:friends" and flee.outcome_of
    through = set()
    for total in range(2, 13):
        faces = (min(6, total - 1), total - min(6, total - 1))
        session = resolution.replay([*given, faces])
        [fled] = [e for e in session.events if isinstance(e, UnitFled) and e.unit == "friends"]
        expected = "passes through friends" if fled.passed_through else "moves the full distance"
        assert flee.outcome_of(total) == expected, total
        if fled.passed_through:
            through.add(total)
    shown = dict((o.label, o.chance) for o in flee.odds)
    assert shown.get("passes through friends", 0) == sum(
        (p for total, p in D2D6.pmf().items() if total in through), Fraction(0))
    if losers_flee == (3, 2):
        assert through  # the case in point: the Losers stop in the Friends' way


# --- W6-PU: pursuit ------------------------------------------------------------------------


@pytest.mark.parametrize(("flee", "pursue", "caught"), [
    ((3, 3), (3, 3), True), ((3, 3), (4, 3), True), ((3, 4), (3, 3), False)])
def test_w6_pu_1_pursuit_equal_or_higher_catches_and_destroys(flee, pursue, caught):
    _, session, battle = play(duel(), [6, 6, *flee, *pursue], {"pursue:orcs": "pursue"})
    if caught:
        assert events_of(session, UnitCaught)[0].unit == "elves"
        assert battle.states["elves"].status == Status.DESTROYED
        assert not events_of(session, UnitFled)
    else:
        assert events_of(session, UnitEscaped)[0].unit == "elves"
        assert battle.states["elves"].status == Status.FLEEING
    rolls = {e.unit: e.total for e in events_of(session, DiceRolled)}
    assert rolls == {"elves": sum(flee), "orcs": sum(pursue)}


def test_w6_pu_1_odds_on_the_flee_roll_are_exact():
    _, session, _ = play(duel(orc={"M": 7}), [6, 6, 1, 1, 1, 1, 1], {"pursue:orcs": "pursue"})
    flee = next(s.request for s in session.steps if s.request.key == "flee:elves")
    assert dict((o.label, o.chance) for o in flee.odds)["caught"] == odds.caught(D2D6, [D3D6])


def test_w6_pu_2_no_pursuit_while_an_enemy_it_fights_still_stands():
    # Two Elf units fight the Orcs; one holds, so the Orcs may not pursue the other.
    data = scenario(
        two_elf_units(Ld=10),
        aftermath((side({"unit": "orcs", "wounds_caused": 3}), side("elves", "archers"))))
    _, session, _ = play(data, [6, 6, 1, 1, 1, 1])
    assert "pursue:orcs" not in request_keys(session)
    assert not events_of(session, UnitPursued)


def test_w6_pu_2_restraint_test_passed_holds_the_unit_back():
    _, session, battle = play(duel(orc={"Ld": 7}), [6, 6, 3, 4, 2, 2],
                              {"pursue:orcs": "hold"})
    test = events_of(session, RestraintTest)[0]
    assert test.passed is True and test.target == 7
    assert not events_of(session, UnitPursued)
    assert battle.states["orcs"].center == pytest.approx((36.0, 29.0))


def test_w6_pu_2_restraint_test_failed_pursues_anyway():
    _, session, _ = play(duel(orc={"Ld": 7}), [6, 6, 4, 4, 1, 1, 6, 6],
                         {"pursue:orcs": "hold"})
    assert events_of(session, RestraintTest)[0].passed is False
    assert events_of(session, UnitPursued)[0].unit == "orcs"
    assert events_of(session, UnitCaught)[0].unit == "elves"


def test_w6_pu_2_pursues_one_of_several_fleeing_units_chosen_by_its_player():
    data = scenario(
        two_elf_units(),
        aftermath((side({"unit": "orcs", "wounds_caused": 6}), side("elves", "archers"))))
    _, session, _ = play(data, [6, 6, 6, 6, 2, 2, 2, 2, 6, 6],
                         {"pursue_target:orcs": "archers"})
    assert events_of(session, UnitPursued)[0].target == "archers"
    assert events_of(session, UnitCaught)[0].unit == "archers"
    assert events_of(session, UnitFled)[0].unit == "elves"


def test_w6_pu_2_pursuing_into_a_fresh_enemy_is_a_charge():
    fresh = w6_unit("guard", ELVES, 36, 38, facing=270, models=5)
    _, session, battle = play(duel(extra=[fresh]), [6, 6, 1, 1, 6, 6],
                              {"pursue:orcs": "pursue"})
    pursued = events_of(session, UnitPursued)[0]
    assert pursued.charged == "guard"
    assert "guard" in battle.states["orcs"].engaged_with
    assert "orcs" in battle.states["guard"].engaged_with
    assert distance(battle.footprint("orcs"), battle.footprint("guard")) < 0.05
    assert not events_of(session, UnitsEngaged)  # the pursuit event carries it


# --- W6-RA: rally ----------------------------------------------------------------------------


def test_w6_ra_1_rally_test_passed_stops_fleeing():
    runner = w6_unit("elves", ELVES, 36, 30, status="fleeing", Ld=8)
    data = scenario([runner, w6_unit("orcs", ORCS, 10, 10)],
                    {"procedure": "start_of_turn", "player": ELVES})
    _, session, battle = play(data, [4, 4])
    assert events_of(session, RallyTest)[0].passed is True
    assert events_of(session, UnitRallied)[0].unit == "elves"
    assert battle.states["elves"].status == Status.READY
    request = session.steps[0].request
    assert dict((o.label, o.chance) for o in request.odds)["rallies"] == Fraction(26, 36)


def test_w6_ra_1_only_the_players_fleeing_units_test():
    data = scenario([w6_unit("elves", ELVES, 36, 30, status="fleeing"),
                     w6_unit("orcs", ORCS, 10, 10, status="fleeing")],
                    {"procedure": "start_of_turn", "player": ORCS})
    _, session, _ = play(data, [1, 1])
    assert request_keys(session) == ["rally:orcs"]


def test_w6_fl_2_with_every_winner_wiped_out_it_flees_from_where_they_stood():
    # The Orcs win on wounds but their last model falls: the Elves still break and flee.
    data = duel(orc={"models": 1, "files": 1})
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["casualties"] = 1
    _, session, battle = play(data, [6, 6, 2, 2])
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "orcs"
    assert fled.facing == pytest.approx(90.0)
    assert battle.states["elves"].status == Status.FLEEING


def test_w6_fl_2_only_winners_touching_it_count_when_some_do():
    # Big Trolls (US 9) fight in the same combat but stand apart; the Orcs touch the Elves.
    trolls = w6_unit("trolls", ORCS, 60, 10, models=3, files=3, unit_strength=3)
    data = duel(extra=[trolls])
    data["resolve"]["combats"][0]["sides"][0]["units"].append({"unit": "trolls"})
    _, session, _ = play(data, [6, 6, 1, 1, 1, 1, 2, 2],
                         {"pursue:orcs": "hold", "pursue:trolls": "hold"})
    assert events_of(session, UnitFled)[0].away_from == "orcs"


# ---------------------------------------------------------------------------------------------
# Scale: a table of ten times the units and combats costs about ten times the work


def test_ten_times_the_combats_and_units_cost_ten_times_the_work():
    # Each unit looked for fallen friends among all the fallen, and each unit that lost
    # models for enemies in contact among all the enemies: 100x the work for 10x the table.
    small, large = (load_scenario(wiped_out_combats(count)) for count in (10, 100))

    def resolve(loaded: Scenario, panic_tests: int) -> None:
        session = run(loaded.start(), ScriptedAnswers(ScriptedRoller([1, 1] * panic_tests)))
        assert len(events_of(session, PanicTest)) == panic_tests
        assert not events_of(session, UnitFled)

    assert growth(lambda: resolve(small, 10), lambda: resolve(large, 100)) < 15


@pytest.mark.parametrize(("elf", "orc", "dice", "said"), [
    ({"M": 8}, {}, [6, 6, 6, 6, 6, 1, 1],
     "No roll of 2D6 reaches 18, so this one cannot catch them"),
    ({}, {"M": 8}, [6, 6, 1, 1, 1, 1, 1], "Every roll of 3D6 reaches 2, so this one catches them")])
def test_w6_pu_2_a_pursuit_roll_that_cannot_miss_or_catch_says_why_it_is_still_asked(
        elf, orc, dice, said):
    """Issue 20: the pursuit page asked a roll whose catch chance was 0% without a word of
    why. The Elves flee 18" from Orcs rolling 2D6 (or 2" from Orcs rolling 3D6): the catch
    is settled, yet the Orcs move their whole roll (W6-PU-2), so the page says so."""
    _, session, _ = play(duel(elf=elf, orc=orc), dice)
    page = session.steps[-1].request
    assert page.key == "pursue_roll:orcs"
    assert page.why.endswith(f"{said}; it is asked all the same because Orcs move the whole "
                             "of it (W6-PU-2): it says where they end up.")
    chances = {outcome.label: outcome.chance for outcome in page.odds}
    assert sorted(chances.values()) == [0, 1]
    # A roll whose catch is open says nothing of the kind.
    _, session, _ = play(duel(), [6, 6, 3, 3, 1, 1])
    assert session.steps[-1].request.key == "pursue_roll:orcs"
    assert "asked all the same" not in session.steps[-1].request.why
