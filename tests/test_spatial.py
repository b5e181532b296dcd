"""Queries by the spatial index (desktop.engine.spatial): the same answers as a look at every
unit, for work that grows with the table, not with its square."""

from __future__ import annotations

import random

import shapely
from work import growth

from desktop.engine import spatial
from desktop.engine.events import RunnerLocked
from desktop.engine.geometry import Table, distance, in_contact
from desktop.engine.model import Battle, Status, Unit, UnitProfile, UnitState
from desktop.engine.rulesets.common import nearest_enemy
from desktop.engine.scenario import load_scenario

from builders import scenario, w6_unit

PROFILE = UnitProfile("Spearmen", {"M": 4, "Ld": 7}, base=(1.0, 1.0))


def table_of(placed: list[tuple[float, float, float]], seed: int = 0) -> Battle:
    """Units of 4x2 inches at (x, y, facing), on either side at random; a few are gone."""
    rng = random.Random(seed)
    roster, states = {}, {}
    for number, (x, y, facing) in enumerate(placed):
        uid = f"u{number}"
        roster[uid] = Unit(uid, uid, rng.choice(["North", "South"]), PROFILE, 8, 4)
        status = rng.choice([Status.READY] * 8 + [Status.DESTROYED, Status.FLEEING])
        states[uid] = UnitState(uid, (x, y), facing, files=4, models=8, status=status)
    width = max(x for x, _, _ in placed) + 10
    depth = max(y for _, y, _ in placed) + 10
    return Battle("warhammer6", Table(width, depth), roster, states)


def packed(units: int, seed: int = 0) -> Battle:
    """Rows of units side by side, 4" apart centre to centre: neighbours touch, give or take
    a rounding error either side of the contact tolerance."""
    rng = random.Random(seed)
    return table_of([(5 + number % 20 * 4 + rng.choice([0, 0.02, -0.02, 0.1]),
                      5 + number // 20 * 2, rng.choice([90.0, 270.0]))
                     for number in range(units)], seed)


def scattered(units: int, seed: int) -> Battle:
    rng = random.Random(seed)
    return table_of([(rng.uniform(5, 60), rng.uniform(5, 60), rng.uniform(0, 360))
                     for _ in range(units)], seed)


def touching_by_look(battle: Battle, unit_id: str) -> list[str]:
    here = battle.footprint(unit_id)
    return [e for e in battle.enemies_of(unit_id) if in_contact(here, battle.footprint(e))]


def nearest_by_look(battle: Battle, unit_id: str, prefer=None) -> str | None:
    here = battle.footprint(unit_id)
    ranked = sorted((round(distance(here, battle.footprint(uid)), 6),
                     -prefer(battle, uid) if prefer else 0, index, uid)
                    for index, uid in enumerate(battle.enemies_of(unit_id)))
    return ranked[0][3] if ranked else None


def models_left(battle: Battle, unit_id: str) -> int:
    return battle.states[unit_id].models % 3


def test_touching_enemies_are_those_a_look_at_every_enemy_finds():
    for seed in range(10):
        battle = packed(120, seed)
        for uid in battle.on_table():
            assert spatial.touching_enemies(battle, uid) == touching_by_look(battle, uid)
    assert any(spatial.touching_enemies(battle, uid) for uid in battle.on_table())


def test_nearest_enemy_is_the_one_a_look_at_every_enemy_finds():
    for seed in range(10):
        for battle in (scattered(60, seed), packed(60, seed)):
            # Equal distances (packed rows) are broken by `prefer`, then by roster order.
            battle = battle.update("u3", models=5)
            for uid in battle.on_table():
                assert nearest_enemy(battle, uid) == nearest_by_look(battle, uid)
                assert (nearest_enemy(battle, uid, prefer=models_left)
                        == nearest_by_look(battle, uid, models_left))


def test_the_nearest_enemy_of_a_unit_alone_is_none():
    battle = table_of([(10, 10, 0), (30, 30, 0)])
    battle = battle.with_states({"u1": battle.states["u1"].changed(status=Status.DESTROYED)})
    assert nearest_enemy(battle, "u0") is None


def test_queries_of_every_unit_of_a_table_ten_times_bigger_cost_ten_times_the_work():
    # A look at every enemy for each unit: 100x the work for 10x the units.
    def ask_all(battle: Battle) -> None:
        for uid in list(battle.on_table()):
            spatial.touching_enemies(battle, uid)
            nearest_enemy(battle, uid)
            RunnerLocked.build(battle, uid, uid, clause="K-RA-12")

    small, large = packed(100), packed(1000)
    ask_all(large)  # the index, built once per battle, is counted in neither
    assert growth(lambda: ask_all(small), lambda: ask_all(large)) < 15


def test_a_scenario_of_ten_times_the_units_costs_ten_times_the_work_to_read():
    # Every pair of units was checked for overlap.
    def grid(units: int) -> dict:
        placed = [w6_unit(f"u{i}", "North" if i % 2 else "South", 5 + i % 50 * 8,
                          5 + i // 50 * 4, facing=90, models=10, files=5)
                  for i in range(units)]
        return scenario(placed, {"procedure": "start_of_turn", "player": "North"},
                        table=(410, 10 + units // 50 * 4))

    small, large = grid(100), grid(1000)
    assert growth(lambda: load_scenario(small), lambda: load_scenario(large)) < 15


def test_a_small_battle_searched_unit_by_unit_finds_what_the_tree_finds(monkeypatch):
    # Up to LINEAR_UP_TO units the boxes are looked at one by one (a forecast asks thousands
    # of times): the same units as the tree's answer, in roster order, moved units included.
    rng = random.Random(7)
    asked = 0
    for seed in range(20):
        battle = scattered(spatial.LINEAR_UP_TO, seed)
        spatial.unit_index(battle)  # built now, it is handed on with u2 in its overlay
        moved = battle.update("u2", center=(rng.uniform(5, 60), rng.uniform(5, 60)))
        assert "u2" in spatial.unit_index(moved).changed
        for case in (battle, moved):
            for _ in range(30):
                x, y = rng.uniform(0, 60), rng.uniform(0, 60)
                box = (x, y, x + rng.uniform(0, 15), y + rng.uniform(0, 15))
                reach = rng.choice([0.0, 0.05, 3.0])
                shape = shapely.box(*box)
                linear = (spatial.in_box(case, box), spatial.candidates(case, shape, reach))
                with monkeypatch.context() as patch:
                    patch.setattr(spatial, "LINEAR_UP_TO", 0)
                    tree = (spatial.in_box(case, box), spatial.candidates(case, shape, reach))
                assert linear[0] == tree[0]
                assert linear[1] == case.in_roster_order(tree[1])
                asked += bool(tree[0])
    assert asked > 100  # most boxes found someone
