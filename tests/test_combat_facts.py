"""What the table tells of a combat's input (desktop.engine.combat.side_facts): who charged
this turn, who fights an enemy's flank or rear, who carries the battle standard. The wizard
fills its first page from these (W6-CR-2's bonuses, BP-3a's "charged")."""

from __future__ import annotations

import json

from desktop.engine import moves
from desktop.engine.combat import fought_edge, side_facts
from desktop.engine.events import CHARGED, UnitPursued, fold
from desktop.engine.scenario import load_scenario

from builders import scenario, side, w6_unit

ORCS, EMPIRE = "Orcs & Goblins", "Empire"


def four_units(scenario_path):
    return load_scenario(json.loads(scenario_path("w6-four-units.json").read_text())).battle


def test_w6_cr_2_the_wolf_riders_fight_the_swordsmen_in_the_flank(scenario_path):
    battle = four_units(scenario_path)
    assert fought_edge(battle, "boyz", "swordsmen") == "front"
    assert fought_edge(battle, "wolf_riders", "swordsmen") in ("left", "right")
    facts = side_facts(battle, ["boyz", "wolf_riders"], ["swordsmen"])
    assert facts.player == ORCS
    assert facts.flank == (("wolf_riders", "swordsmen"),) and facts.rear == ()
    assert facts.notes(battle) == ["Goblin Wolf Riders fight Empire Swordsmen in the flank"]
    # The Swordsmen touch the Boyz' front and the Wolf Riders' front edge only.
    assert side_facts(battle, ["swordsmen"], ["boyz", "wolf_riders"]).flank == ()
    assert fought_edge(battle, "handgunners", "boyz") == ""  # not touching


def test_w6_cr_2_a_unit_behind_its_enemy_fights_its_rear():
    data = scenario([w6_unit("target", "A", 36, 24), w6_unit("behind", "B", 36, 22)],
                    {"procedure": "combat_aftermath",
                     "combats": [{"id": "c", "sides": [side("target"), side("behind")]}]})
    battle = load_scenario(data).battle
    assert fought_edge(battle, "behind", "target") == "rear"
    facts = side_facts(battle, ["behind"], ["target"])
    assert facts.rear == (("behind", "target"),) and facts.flank == ()
    # The target touches the front of the unit behind it: no bonus for its side.
    assert fought_edge(battle, "target", "behind") == "front"
    assert side_facts(battle, ["target"], ["behind"]).rear == ()


def test_a_charge_this_turn_is_known_until_the_next_turn_begins(scenario_path):
    battle = four_units(scenario_path)
    move, engaged = moves.charge(battle, "handgunners", "boyz")  # into the Boyz' flank
    charged = fold(battle, [move, engaged])
    assert CHARGED in charged.states["handgunners"].flags
    facts = side_facts(charged, ["handgunners"], ["boyz"])
    assert facts.charged == ("handgunners",)
    assert facts.flank == (("handgunners", "boyz"),)
    assert facts.notes(charged)[0] == "Empire Handgunners charged this turn"
    next_turn = fold(charged, [moves.begin_turn(charged)])
    assert side_facts(next_turn, ["handgunners"], ["boyz"]).charged == ()


def test_w6_pu_2_a_pursuit_into_a_fresh_enemy_counts_as_a_charge(scenario_path):
    battle = four_units(scenario_path)
    here = battle.states["wolf_riders"].center
    pursued = UnitPursued("wolf_riders", 7, (here, here), 0.0, target="swordsmen",
                          charged="handgunners", clause="W6-PU-2")
    after = fold(battle, [pursued])
    assert side_facts(after, ["wolf_riders"], ["handgunners"]).charged == ("wolf_riders",)
    missed = UnitPursued("boyz", 3, (battle.states["boyz"].center,) * 2, 90.0,
                         target="swordsmen", clause="W6-PU-2")
    assert side_facts(fold(battle, [missed]), ["boyz"], ["swordsmen"]).charged == ()


def test_the_battle_standard_is_read_from_the_units_upgrades():
    data = scenario([w6_unit("bsb", "A", 36, 24, upgrades=["battle_standard"]),
                     w6_unit("foe", "B", 36, 26, facing=270)],
                    {"procedure": "combat_aftermath",
                     "combats": [{"id": "c", "sides": [side("bsb"), side("foe")]}]})
    battle = load_scenario(data).battle
    assert side_facts(battle, ["bsb"], ["foe"]).battle_standard == "bsb"
    assert side_facts(battle, ["foe"], ["bsb"]).battle_standard == ""
    assert "Bsb carry the battle standard" in side_facts(battle, ["bsb"], ["foe"]).notes(battle)
