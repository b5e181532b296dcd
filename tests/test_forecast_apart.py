"""Issue 24: combats that can never meet are forecast one at a time and their chances
multiplied — the same figures as the walk of the whole tree, at the cost of each part."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from combats_apart import side_by_side, whole_tree
from same_size import MOST_UNITS, SEEDS, made_up

from desktop.engine.combat import independent_groups, parse_combats
from desktop.engine.dice import SeededRoller
from desktop.engine.forecast import forecast
from desktop.engine.procedure import Roll, ScriptedAnswers, run
from desktop.engine.rulesets import get_ruleset
from desktop.engine.rulesets.warhammer6 import PANIC_RADIUS, flee_dice
from desktop.engine.scenario import load_scenario

FAR = 80.0  # inches between copies: beyond two flee moves, two diagonals and the Panic radius
NEAR = 20.0  # a broken unit's 2D6 flee and a Panic test could reach the next copy


def parts_of(data) -> int:
    resolution = load_scenario(data).resolution()
    return len(resolution.parts() if resolution.parts is not None else ())


def test_w6_copies_far_apart_give_the_whole_walks_figures_exactly():
    scenario = load_scenario(side_by_side("w6-goblins-vs-elves", 2, FAR))
    resolution = scenario.resolution()
    assert len(resolution.parts()) == 2
    apart = forecast(resolution, (), scenario.choices, budget_seconds=120)
    whole = forecast(whole_tree(resolution), (), scenario.choices, budget_seconds=120)
    assert apart.exact and whole.exact
    assert dict(apart.outcomes) == dict(whole.outcomes)
    assert apart.by_unit == whole.by_unit and apart.leaves == whole.leaves == 22 * 22
    assert sum(chance for _, chance in apart.outcomes) == 1
    assert apart.to_json()["method"] == ("exact, 2 groups of combats that never meet, "
                                         "walked apart")
    assert whole.to_json()["method"] == "exact"


def test_bp_copies_far_apart_keep_each_copys_own_chances():
    one = load_scenario(side_by_side("bp-two-combats", 1, 0))
    scenario = load_scenario(side_by_side("bp-two-combats", 2, 100.0))
    assert len(scenario.resolution().parts()) == 2
    single = forecast(one.resolution(), (), one.choices, budget_seconds=60)
    both = forecast(scenario.resolution(), (), scenario.choices, budget_seconds=60)
    assert both.exact and both.leaves == single.leaves ** 2
    for uid, rows in single.by_unit.items():
        assert both.by_unit[uid] == rows
        # The copy's units: the same chances (their words name the copy's units).
        assert [c for _, c in both.by_unit[f"{uid}_2"]] == [c for _, c in rows]
    # A whole outcome is one of each copy's: its chance the product of theirs.
    first = dict(single.outcomes)
    assert len(both.outcomes) == len(first) ** 2
    _, chance = both.outcomes[0]
    assert chance == max(first.values()) ** 2


@pytest.mark.parametrize(("name", "spacing"), [("w6-goblins-vs-elves", NEAR),
                                               ("bp-two-combats", 55.0)])
def test_copies_a_flee_could_bridge_are_walked_as_one(name, spacing):
    assert parts_of(side_by_side(name, 2, spacing)) == 0


def test_fights_that_meet_are_not_multiplied():
    """The Elf Archers flee 2D6 straight back into the second fight 9" behind them: walked
    alone and multiplied, the chances would be wrong by 1.6% of the whole; Rout walks the
    two as one tree and gets the whole walk's figures."""
    scenario = load_scenario(side_by_side("w6-goblins-vs-elves", 2, 0.0, rise=9.0))
    resolution = scenario.resolution()
    assert resolution.parts() == ()
    kind = get_ruleset("warhammer6").procedures["combat_aftermath"]
    forced = replace(resolution, parts=lambda: tuple(
        kind.resolution(resolution.battle, (combat,)) for combat in parse_combats(
            scenario.battle, side_by_side("w6-goblins-vs-elves", 2, 0.0, 9.0)["resolve"])))
    multiplied = dict(forecast(forced, (), scenario.choices, budget_seconds=120).outcomes)
    walked = dict(forecast(resolution, (), scenario.choices, budget_seconds=120).outcomes)
    apart = sum(abs(multiplied.get(label, 0) - walked.get(label, 0))
                for label in {*multiplied, *walked})
    assert apart > Fraction(1, 100)


def test_a_bystander_between_two_fights_joins_them():
    """W6-PT-1: a friend within reach of both fights may panic from one and flee into the
    other: the chain of zones links them."""
    data = side_by_side("w6-goblins-vs-elves", 2, FAR)
    assert parts_of(data) == 2
    bystander = {**data["units"][0], "id": "wolves", "name": "Wolf Riders",
                 "position": [36 + FAR / 2, 10.0], "models": 5, "files": 5}
    data["units"].append(bystander)
    assert parts_of(data) == 0
    # Off to one side, out of reach of both, it links nothing.
    data["units"][-1] = {**bystander, "position": [36 + FAR / 2, 47.0 + 60.0]}
    data["table"]["depth"] = 120
    assert parts_of(data) == 2


def test_groups_keep_the_order_of_their_combats():
    data = side_by_side("w6-goblins-vs-elves", 3, FAR)
    scenario = load_scenario(data)
    combats = parse_combats(scenario.battle, data["resolve"])
    groups = independent_groups(scenario.battle, combats, sense=PANIC_RADIUS,
                                move=lambda uid: flee_dice(scenario.battle, uid).maximum)
    assert [[c.id for c in group] for group in groups] == [
        ["spear line 1"], ["spear line 2"], ["spear line 3"]]
    assert independent_groups(scenario.battle, combats[:1], sense=0.0,
                              move=lambda uid: 0.0) == [combats[:1]]


def test_a_friend_that_may_panic_is_tied_to_every_enemy_that_may_be_its_nearest():
    """W6-PT-2: a unit that panics flees from the nearest enemy on the table, however far;
    before anything moves only fighting units change, by the casualties given. Elf Spearmen
    4" behind the Elf Archers may panic: while the Goblins facing them stay on the table
    they stay the nearest whatever happens elsewhere, and the two fights are walked apart
    (the whole walk's figures). With the Goblins wiped out, the second fight's Goblins may
    be the nearest: one tree. An Orc unit standing by, nearer than those can be: two again."""
    data = side_by_side("w6-goblins-vs-elves", 2, FAR)
    elves = next(unit for unit in data["units"] if unit["id"] == "elves")
    data["units"].append({**elves, "id": "spears", "name": "Elf Spearmen",
                          "position": [36.0, 34.0]})
    assert parts_of(data) == 2
    scenario = load_scenario(data)
    apart = forecast(scenario.resolution(), (), scenario.choices, budget_seconds=60)
    whole = forecast(whole_tree(scenario.resolution()), (), scenario.choices,
                     budget_seconds=120)
    assert apart.exact and whole.exact and dict(apart.outcomes) == dict(whole.outcomes)
    goblins = data["resolve"]["combats"][0]["sides"][0]["units"][0]
    goblins["casualties"] = 25  # every model: wiped out before the Panic tests
    assert parts_of(data) == 0
    orcs = next(unit for unit in data["units"] if unit["id"] == "goblins")
    data["units"].append({**orcs, "id": "orcs", "name": "Orc Boyz",
                          "position": [12.0, 40.0], "models": 10})
    assert parts_of(data) == 2


def test_a_panicking_unit_is_tied_to_an_enemy_standing_by_that_may_flee_first():
    """Review of issue 24: the Elf Spearmen flee from their nearest enemy as it stands when
    they move. With the Goblins facing them wiped out, an Orc unit standing by the second
    fight may be that enemy, and may panic and flee first (within 6" of the second Goblins
    if they fall): the Spearmen are tied to it, and so the fights are one tree."""
    data = side_by_side("w6-goblins-vs-elves", 2, FAR)
    elves = next(unit for unit in data["units"] if unit["id"] == "elves")
    goblins = next(unit for unit in data["units"] if unit["id"] == "goblins")
    data["units"].append({**elves, "id": "spears", "name": "Elf Spearmen",
                          "position": [36.0, 34.0]})
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["casualties"] = 25
    data["units"].append({**goblins, "id": "orcs", "name": "Orc Boyz",
                          "position": [36.0 + FAR - 10.0, 20.0], "models": 10})
    assert parts_of(data) == 0


def test_the_units_of_one_combat_are_one_group_however_far_apart():
    """Review of issue 24: nothing makes a combat's units touch; a combat whose sides
    stand in two places joins both places' fights."""
    data = side_by_side("w6-goblins-vs-elves", 3, FAR)
    scenario = load_scenario(data)
    first, second, third = data["resolve"]["combats"]
    first["sides"][1]["units"][0]["unit"] = "elves_3"
    third["sides"][1]["units"][0]["unit"] = "elves"
    combats = parse_combats(scenario.battle, {"combats": [first, second, third]})
    groups = independent_groups(scenario.battle, combats, sense=PANIC_RADIUS,
                                move=lambda uid: flee_dice(scenario.battle, uid).maximum)
    assert [[c.id for c in group] for group in groups] == [
        ["spear line 1", "spear line 3"], ["spear line 2"]]


@pytest.mark.parametrize("ruleset", ["warhammer6", "breaks_pursues", "kensei1"])
def test_the_benchs_made_up_resolutions_are_of_the_size_issue_24_names(ruleset: str) -> None:
    """bench_forecast_walk's same-size figures stand for "up to four combats, eight units,
    friends fled through": every seed it uses loads, stays within that, and asks for rolls;
    together they hold the largest size and friends standing behind a loser."""
    sizes, friends = set(), 0
    for seed in SEEDS:
        data = made_up(ruleset, seed)
        scenario = load_scenario(data)
        units = len(data["units"])
        combats = len(data["resolve"].get("combats", [data["resolve"]]))
        assert units <= MOST_UNITS and combats <= 4
        sizes.add((units, combats))
        players = {u["id"]: u["player"] for u in data["units"]}
        for uid, player in players.items():
            if uid.startswith("friend"):  # Kensei's one loser, or friendN behind loserN
                loser = "loser" if ruleset == "kensei1" else "loser" + uid[len("friend"):]
                assert player == players[loser], uid
                friends += 1
        session = run(scenario.start(), ScriptedAnswers(SeededRoller(seed), scenario.choices))
        assert any(isinstance(step.request, Roll) for step in session.steps), seed
    assert max(units for units, _ in sizes) == MOST_UNITS
    assert friends > 0
    if ruleset != "kensei1":
        assert max(combats for _, combats in sizes) == 4
