"""How far a unit may go in one move (desktop.engine.reach), hand-worked per ruleset.

The table (72 x 48", 1" bases, 10 models 5 wide = 5" x 2"):

    riders (Red)  M8, centre (20, 10) facing up: x 17.5..22.5, y 9..11
    foot   (Red)  M4, centre (40, 10) facing up
    enemy  (Blue) centre (20, 30) facing down:   x 17.5..22.5, y 29..31 (18" from the riders)
"""

from __future__ import annotations

import pytest

from desktop.engine import moves, reach
from desktop.engine.events import UnitsDisengaged, fold
from desktop.engine.model import Battle, Modifier
from desktop.engine.scenario import load_scenario

from builders import aftermath, scenario, side, w6_unit


def table(ruleset: str = "warhammer6") -> Battle:
    units = [w6_unit("riders", "Red", 20, 10, M=8), w6_unit("foot", "Red", 40, 10),
             w6_unit("enemy", "Blue", 20, 30, facing=270)]
    if ruleset == "breaks_pursues":  # its profiles hold Move and Discipline only
        for unit in units:
            unit["profile"] = {"M": unit["profile"]["M"], "Ld": unit["profile"]["Ld"]}
    combat = aftermath((side("riders"), side("enemy")))
    if ruleset == "breaks_pursues":
        combat["procedure"] = "breaks_pursues"
    battle = load_scenario(scenario(units, combat, ruleset=ruleset)).battle
    return fold(battle, [UnitsDisengaged("riders", "enemy")])


@pytest.mark.parametrize(("ruleset", "clause"), [("warhammer6", "W6-MV-1"),
                                                 ("breaks_pursues", "BP-MV-1")])
def test_w6_mv_1_a_unit_moves_its_move_and_marches_twice_it(ruleset, clause):
    battle = table(ruleset)
    assert reach.allowance(battle, "riders") == reach.Allowance(
        8.0, 16.0, 16.0, clause, "W6-MV-2" if ruleset == "warhammer6" else clause,
        "march", "march")
    within = reach.judge(battle, moves.move_to(battle, "riders", (20, 16)))
    assert (within.distance, within.limit, within.kind) == (6.0, 8.0, "move")
    assert within.label == '6.0" / 8" Move'
    march = reach.judge(battle, moves.move_to(battle, "riders", (8, 19)))  # 15" (9-12-15)
    assert (march.distance, march.limit, march.kind) == (15.0, 16.0, "march")
    assert march.label == '15.0" / 16" march' and march.within
    assert march.words == (f'15.0": past the Move of Riders (8"), within its march (16", '
                           f"{clause})")


def test_w6_mv_1_a_move_past_the_march_is_said_to_be_and_still_made():
    """Issue 20, item 12: a Silver Rider (M8) moved 24.8" in one drag without a word."""
    battle = table()
    event = moves.move_to(battle, "riders", (5.12, 29.84))  # 14.88 by 19.84: 24.8"
    verdict = reach.judge(battle, event)
    assert (verdict.distance, verdict.limit, verdict.kind) == pytest.approx(
        (24.8, 16.0, "past"))
    assert not verdict.within
    assert verdict.words == '24.8" is past the march of Riders (16", W6-MV-1)'
    assert verdict.label == '24.8" / 16" march'
    # Not refused: the move stands, the verdict says it is past the ruleset's allowance.
    assert fold(battle, [event]).states["riders"].center == (5.12, 29.84)


def test_w6_mv_1_a_path_counts_every_leg_and_a_wheel_its_outer_corner():
    battle = table()
    around = moves.move_to(battle, "foot", (40, 16), via=[(46, 10), (46, 16)])
    assert reach.judge(battle, around).distance == pytest.approx(18.0)  # 6 + 6 + 6
    wheel = moves.wheel(battle, "foot", 90)
    verdict = reach.judge(battle, wheel)
    # A quarter turn about one front corner: the other travels pi/2 x 5" = 7.85", a march.
    assert verdict.distance == pytest.approx(7.853981, abs=1e-5)
    assert verdict.kind == "march" and verdict.limit == 8.0


def test_w6_mv_1_turning_in_place_costs_nothing():
    battle = table()
    verdict = reach.judge(battle, moves.move_to(battle, "foot", (40, 10), facing=0))
    assert (verdict.distance, verdict.kind) == (0.0, "move")


def test_w6_mv_2_a_charge_reaches_twice_the_move_measured_as_the_gap_before_it():
    battle = table()
    # The riders' front (y 11) is 18" from the enemy's front (y 29): past 16".
    charge, _ = moves.charge(battle, "riders", "enemy")
    verdict = reach.judge(battle, charge)
    assert (verdict.distance, verdict.limit, verdict.kind) == (18.0, 16.0, "past")
    assert verdict.words == ('Enemy are 18.0" away, past the charge reach of Riders '
                             '(16", W6-MV-2)')
    assert verdict.label == 'charge Enemy: 18.0" away (reach 16")'
    closer = fold(battle, [moves.move_to(battle, "riders", (20, 11.5))])
    verdict = reach.judge(closer, moves.charge(closer, "riders", "enemy")[0])
    assert (verdict.distance, verdict.kind) == (16.5, "past")
    closest = fold(battle, [moves.move_to(battle, "riders", (20, 12))])
    verdict = reach.judge(closest, moves.charge(closest, "riders", "enemy")[0])
    assert (verdict.distance, verdict.kind) == (16.0, "charge")
    assert verdict.words == ('Enemy are 16.0" away, within the charge reach of Riders '
                             '(16", W6-MV-2)')


def test_a_modifier_on_the_move_changes_the_allowance():
    battle = table()
    slowed = battle.update("riders", modifiers=(Modifier("M", -2, battle.turn, "test"),))
    assert reach.allowance(slowed, "riders").march == 12.0


K1 = {"Mv": 10, "Init": 5, "Honor": 6, "W": 1, "AP": 2}


def kensei_table() -> Battle:
    units = [{"id": "samurai", "name": "Samurai", "player": "Crane", "profile": dict(K1),
              "base": [2.5, 2.5], "models": 10, "files": 5, "position": [50, 20],
              "facing": 90},
             {"id": "ronin", "name": "Ronin", "player": "Shadow",
              "profile": {**K1, "AP": 3}, "base": [2.5, 2.5], "models": 10, "files": 5,
              "position": [50, 60], "facing": 270}]
    data = scenario(units, {"procedure": "new_turn"}, ruleset="kensei1", table=(180, 120))
    return load_scenario(data).battle


def test_k_mv_1_a_kensei_unit_moves_its_move_for_each_action_point():
    battle = kensei_table()
    assert reach.allowance(battle, "samurai") == reach.Allowance(
        10.0, 20.0, 20.0, "K-MV-1", "K-MV-1", "move of 2 Action Points", "2 AP")
    assert reach.allowance(battle, "ronin").march == 30.0
    verdict = reach.judge(battle, moves.move_to(battle, "samurai", (50, 35)))
    assert (verdict.distance, verdict.kind) == (15.0, "march")
    assert verdict.label == "15.0 cm / 20 cm 2 AP"
    past = reach.judge(battle, moves.move_to(battle, "samurai", (50, 45)))
    assert past.words == ("25.0 cm is past the move of 2 Action Points of Samurai "
                          "(20 cm, K-MV-1)")
