"""Range rings come from the engine, per ruleset, in the ruleset's unit."""

from __future__ import annotations

import json

from desktop.engine.model import Modifier
from desktop.engine.rings import Ring, rings
from desktop.engine.rulesets.warhammer6 import KEEP_AWAY, PANIC_RADIUS
from desktop.engine.scenario import load_scenario


def battle(scenario_path, name):
    return load_scenario(json.loads(scenario_path(name).read_text(encoding="utf-8"))).battle


def test_warhammer6_move_march_panic_and_keep_away(scenario_path):
    found = rings(battle(scenario_path, "w6-four-units.json"), "wolf_riders")  # M 9
    assert found == (Ring('Keep away 4"', KEEP_AWAY), Ring('Panic 6"', PANIC_RADIUS),
                     Ring('Move 9"', 9), Ring('March 18"', 18))


def test_breaks_pursues_move_and_march(scenario_path):
    found = rings(battle(scenario_path, "bp-two-combats.json"), "silver_helms")
    assert [ring.radius for ring in found] == [9, 18]


def test_kensei_move_in_centimetres(scenario_path):
    k = battle(scenario_path, "k1-ronin-run-through-ashigaru.json")
    assert rings(k, "oni") == (Ring("Move 12 cm", 12),)


def test_rings_follow_running_modifiers(scenario_path):
    b = battle(scenario_path, "w6-four-units.json")
    slowed = b.update("boyz", modifiers=(Modifier("M", -1, b.turn, "test"),))
    assert [ring.radius for ring in rings(slowed, "boyz")] == [3, 4, 6, 6]  # March 6 too
    expired = b.update("boyz", modifiers=(Modifier("M", -1, b.turn - 1, "test"),))
    assert [ring.radius for ring in rings(expired, "boyz")] == [4, 4, 6, 8]
