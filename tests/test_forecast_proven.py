"""Issue 24: combats near enough that they might meet are walked apart, and their chances
multiplied only when the walks prove they did not meet (forecast._exact_proven, sight.Trace):
the figures of the whole tree's walk, exactly, whichever way the proof goes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from combats_apart import side_by_side, whole_tree
from same_size import made_up

from desktop.engine import spatial
from desktop.engine.dice import SeededRoller
from desktop.engine.events import Event, TurnBegan, UnitMoved
from desktop.engine.forecast import forecast
from desktop.engine.geometry import Footprint
from desktop.engine.model import Battle
from desktop.engine.procedure import Recorder, Resolution, ScriptedAnswers, run
from desktop.engine.scenario import load_scenario
from desktop.engine.sight import MARGIN, Sight, Trace, remember, tracing

from builders import aftermath, scenario, side, w6_unit

SPACING = (8.0, 16.0)  # inches between the combats' centres: near enough to meet, or not
# (ruleset, seed of same_size.made_up with two combats SPACING apart, groups walked apart):
# both ways of the proof, each with a whole tree quick enough to be the oracle.
CORPUS = [
    ("breaks_pursues", 8, 2),
    ("warhammer6", 31, 2),
    ("warhammer6", 32, 2),
    ("warhammer6", 33, 1),
    ("warhammer6", 34, 2),  # joined until movement's index queries counted as reads
]


def goblins_and_elves() -> Battle:
    return load_scenario(side_by_side("w6-goblins-vs-elves", 1, 0.0)).battle


@pytest.mark.parametrize(("ruleset", "seed", "groups"), CORPUS)
def test_combats_walked_apart_give_the_whole_trees_figures(ruleset: str, seed: int,
                                                           groups: int) -> None:
    loaded = load_scenario(made_up(ruleset, seed, combats=2, spacing=SPACING))
    resolution = loaded.resolution()
    assert resolution.parts() == ()  # too near for the zones: only the walks can tell
    proven = forecast(resolution, (), loaded.choices, budget_seconds=60)
    whole = forecast(whole_tree(resolution), (), loaded.choices, budget_seconds=60)
    assert proven.exact and whole.exact
    assert proven.outcomes == whole.outcomes and proven.by_unit == whole.by_unit
    assert proven.apart == groups
    assert proven.leaves == whole.leaves


def test_a_read_of_remembered_work_reaches_a_trace_each_time_it_is_found_again() -> None:
    """A move worked out before a walk began (a window's odds) and found again in it still
    tells the walk's trace what it read of the table."""
    battle = goblins_and_elves()
    around = battle.footprint("elves").polygon

    def work() -> list[str]:
        return spatial.candidates(battle, around, 6.0)

    assert remember(battle, "near the elves", work) == ["goblins", "elves"]
    with tracing(Trace()) as trace:
        remember(battle, "near the elves", work)
    low_x, low_y, high_x, high_y = around.bounds
    assert trace.reads == {(low_x - 6.0, low_y - 6.0, high_x + 6.0, high_y + 6.0)}


def test_a_trace_keeps_the_units_an_event_changed_and_where_they_stood() -> None:
    battle = goblins_and_elves()
    before = battle.footprint("goblins")
    moved = UnitMoved("goblins", 0, ((36.0, 27.637), (36.0, 10.0)), 270.0)
    with tracing(Trace()) as trace:
        after = emitted(battle, moved)
    assert trace.changed == {"goblins"} and not trace.everything
    grown = {_grown(before), _grown(after.footprint("goblins"))}
    assert trace.ground == grown
    with tracing(Trace()) as trace:
        emitted(battle, TurnBegan(2))
    assert trace.everything  # a change beyond the units: nothing can be told apart


def test_where_a_roll_walked_as_one_would_leave_its_unit_is_ground_of_the_trace() -> None:
    """A flee roll's totals walked as one class: the unit stands where any of them would
    have left it, for all another group may look at."""
    somewhere = Footprint((10.0, 10.0), 0.0, 5.0, 2.0)
    with tracing(Trace()) as trace:
        sight = Sight({"flee:elves"})
        sight.watch("flee:elves", [somewhere])
    assert trace.ground == {_grown(somewhere)}


def test_a_trace_sees_another_where_its_looks_or_reads_meet_the_others_ground() -> None:
    mover, looker = Trace(), Trace()
    mover.stood(Footprint((10.0, 10.0), 90.0, 4.0, 2.0))  # x 8..12, y 9..11
    looker.read((0.0, 0.0, 8.0 - 2 * MARGIN, 20.0))
    assert not looker.sees(mover) and not mover.sees(looker)
    looker.read((0.0, 0.0, 8.0 - MARGIN / 2, 20.0))  # within MARGIN of the unit: met
    assert looker.sees(mover) and not mover.sees(looker)
    everything = Trace()
    everything.everything = True
    assert everything.sees(Trace()) and Trace().sees(everything)


def test_a_bystander_tested_from_both_fights_joins_them() -> None:
    """W6-PT-1: a friend within 6" of two losers takes one Panic test for both; walked
    apart it would take one in each. Each walk reads it and may make it flee: one tree."""
    units = [
        w6_unit("orcs", "Greenskins", 20.0, 20.0, facing=90.0, Ld=5),
        w6_unit("elves", "Elves", 20.0, 17.0, facing=270.0),
        w6_unit("orcs_2", "Greenskins", 34.0, 20.0, facing=90.0, Ld=5),
        w6_unit("elves_2", "Elves", 34.0, 17.0, facing=270.0),
        w6_unit("wolves", "Greenskins", 27.0, 25.0, facing=90.0, files=3, models=6),
    ]
    data = scenario(units, aftermath(
        (side({"unit": "elves", "wounds_caused": 6}),
         side({"unit": "orcs", "wounds_caused": 0, "casualties": 6})),
        (side({"unit": "elves_2", "wounds_caused": 6}),
         side({"unit": "orcs_2", "wounds_caused": 0, "casualties": 6}))))
    loaded = load_scenario(data)
    resolution = loaded.resolution()
    proven = forecast(resolution, (), loaded.choices, budget_seconds=60)
    whole = forecast(whole_tree(resolution), (), loaded.choices, budget_seconds=60)
    assert proven.exact and proven.apart == 1
    assert proven.outcomes == whole.outcomes
    # Without the bystander the two fights are walked apart, and still exact.
    data["units"] = units[:4]
    loaded = load_scenario(data)
    proven = forecast(loaded.resolution(), (), loaded.choices, budget_seconds=60)
    whole = forecast(whole_tree(loaded.resolution()), (), loaded.choices, budget_seconds=60)
    assert proven.apart == 2 and proven.outcomes == whole.outcomes


def emitted(battle: Battle, event: Event) -> Battle:
    recorder = Recorder(battle)
    recorder.emit(event)
    return recorder.battle


def _grown(footprint: Footprint) -> tuple[float, float, float, float]:
    low_x, low_y, high_x, high_y = footprint.bounds
    return (low_x - MARGIN, low_y - MARGIN, high_x + MARGIN, high_y + MARGIN)



def test_made_up_combats_that_met_are_not_multiplied() -> None:
    """Breaks or Pursues, two combats 8-14" apart (same_size seed 135): walked alone and
    multiplied, their chances are wrong; the walks see each other's units, so Rout joins
    them and gets the whole tree's figures."""
    loaded = load_scenario(made_up("breaks_pursues", 135, combats=2, spacing=(8.0, 14.0)))
    resolution = loaded.resolution()
    assert resolution.parts() == () and resolution.alone is not None
    forced = replace(resolution, pieces=(), parts=lambda: tuple(
        resolution.alone((index,)) for index in range(2)))
    multiplied = forecast(forced, (), loaded.choices, budget_seconds=60)
    proven = forecast(resolution, (), loaded.choices, budget_seconds=60)
    whole = forecast(whole_tree(resolution), (), loaded.choices, budget_seconds=60)
    assert multiplied.exact and proven.exact and whole.exact
    assert multiplied.apart == 2 and multiplied.outcomes != whole.outcomes
    assert proven.apart == 1 and proven.outcomes == whole.outcomes


@pytest.mark.parametrize("data", [
    side_by_side("w6-goblins-vs-elves", 2, 80.0),  # apart by the table
    made_up("warhammer6", 31, combats=2, spacing=SPACING),  # apart by the proof
    made_up("breaks_pursues", 8, combats=2, spacing=SPACING),
], ids=["zones", "proof-w6", "proof-bp"])
def test_after_each_answer_the_combats_are_still_walked_apart(data) -> None:
    """The wizard forecasts again after every answer: each answer goes to the combat that
    asked for it, and the figures stay those of the whole tree, walked apart."""
    loaded = load_scenario(data)
    resolution = loaded.resolution()
    answers = run(resolution.session(),
                  ScriptedAnswers(SeededRoller(3), loaded.choices)).answers
    assert len(answers) >= 3
    for given in range(len(answers) + 1):
        apart = forecast(resolution, answers[:given], loaded.choices, budget_seconds=60)
        whole = forecast(whole_tree(resolution), answers[:given], loaded.choices,
                         budget_seconds=60)
        assert apart.exact and whole.exact
        assert apart.outcomes == whole.outcomes and apart.by_unit == whole.by_unit
        assert apart.apart == 2 or given == len(answers), given


def test_combats_engaged_with_each_other_are_walked_as_one_without_trying_apart() -> None:
    """A unit of one combat engaged with a unit of the other: the two can never be proven
    apart (both may change it), so no walk of either alone is spent on trying."""
    data = made_up("warhammer6", 31, combats=2, spacing=SPACING)
    units = {unit["id"]: unit for unit in data["units"]}
    units["flanker0"]["engaged_with"] = ["winner1"]
    units["winner1"]["engaged_with"] = ["flanker0"]
    loaded = load_scenario(data)
    resolution = loaded.resolution()
    assert resolution.alone is not None
    asked: list[tuple[int, ...]] = []

    def alone(group: tuple[int, ...]) -> Resolution:
        asked.append(group)
        assert resolution.alone is not None
        return resolution.alone(group)

    found = forecast(replace(resolution, alone=alone), (), loaded.choices, budget_seconds=60)
    whole = forecast(whole_tree(resolution), (), loaded.choices, budget_seconds=60)
    assert found.exact and found.apart == 1 and asked == []
    assert found.outcomes == whole.outcomes
