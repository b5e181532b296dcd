"""The forecast: exact chances of a resolution's whole outcomes (desktop/engine/forecast.py).

The forecast branches once per class of faces a roll's procedure reads (a test per outcome,
a distance per total, a move roll per outcome of its line while the run's audit holds). The
brute force here knows nothing of that: it replays the resolution with every faces tuple of
every roll, each equally likely, and the two must agree to the last fraction. Expected
chances of the worked examples are counted from dice faces with itertools, not with the
engine.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from replaying_walk import replaying_forecast
from same_size import made_up
from test_properties import battles, load_placed

from desktop.engine import forecast as forecast_module
from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.errors import RuleError
from desktop.engine.events import UnitFled, event_from_json
from desktop.engine.forecast import (
    DEFAULT_MAX_LEAVES,
    UNAFFECTED,
    Forecast,
    ForecastCancelled,
    ForecastError,
    UnitOutcome,
    answers_for,
    branches_of,
    faces_for,
    forecast,
    outcome_label,
    sample,
    summarise,
)
from desktop.engine.procedure import (
    Answer,
    Choice,
    Request,
    Resolution,
    Roll,
    ScriptedAnswers,
    run,
)
from desktop.engine.rulesets import warhammer6
from desktop.engine.scenario import load_scenario

from builders import aftermath, assert_bad, run_cli, scenario, side, w6_unit

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "resources" / "scenarios"
BUNDLED = sorted(SCENARIOS.glob("*.json"))
GOBLINS = SCENARIOS / "w6-goblins-vs-elves.json"
FOUR_UNITS = SCENARIOS / "w6-four-units.json"


def resolution_of(path: Path) -> Resolution:
    return load_scenario(json.loads(path.read_text(encoding="utf-8"))).resolution()


def brute_force(resolution: Resolution, answers: tuple[Answer, ...] = (),
                choices: dict[str, str] | None = None) -> dict[UnitOutcome, Fraction]:
    """Every faces tuple of every roll after `answers`; choices from `choices` or default."""
    choices = choices or {}
    found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)

    def walk(given: tuple[Answer, ...], chance: Fraction) -> None:
        session = resolution.replay(given)
        while isinstance(session.pending, Choice):
            session.answer(choices.get(session.pending.key, session.pending.default))
        if session.done:
            found[summarise(resolution.battle, session.events)] += chance
            return
        roll = session.pending
        assert isinstance(roll, Roll)
        every = product(range(1, roll.dice.sides + 1), repeat=roll.dice.count)
        for faces in every:
            walk((*session.answers, faces), chance / roll.dice.outcomes)

    walk(tuple(answers), Fraction(1))
    return dict(found)


def whole(result: Forecast) -> dict[UnitOutcome, Fraction]:
    return {result.units[label]: chance for label, chance in result.outcomes}


def assert_sums_to_one(result: Forecast) -> None:
    assert sum(chance for _, chance in result.outcomes) == 1
    for uid, rows in result.by_unit.items():
        assert sum(chance for _, chance in rows) == 1, uid
    chances = [chance for _, chance in result.outcomes]
    assert chances == sorted(chances, reverse=True)  # most likely first


def two_d6(test: Any) -> Fraction:
    return Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if test(a + b)), 36)


def d6_totals(count: int) -> Counter[int]:
    """How many faces tuples of `count` D6 give each total."""
    return Counter(sum(faces) for faces in product(range(1, 7), repeat=count))


@pytest.fixture
def walked_one_by_one(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The keys of the move rolls whose audit failed, so the forecast walked their totals
    one by one (a test that means to check that path sees that it was taken)."""
    keys: list[str] = []
    original = forecast_module._Walk._one_by_one

    def spy(walk: Any, roll: Roll, *args: Any) -> Any:
        keys.append(roll.key)
        return original(walk, roll, *args)

    monkeypatch.setattr(forecast_module._Walk, "_one_by_one", spy)
    return keys


# ---------------------------------------------------------------------------------------------
# The worked example, counted from the faces


def test_goblins_vs_elves_forecast_is_exact_and_counted_from_the_faces() -> None:
    result = forecast(resolution_of(GOBLINS))
    assert result.exact
    # W6-BT-3: Elves lost by 3 with Ld 8, so 2D6 + 3 <= 8 holds; both sides move 2D6.
    holds = two_d6(lambda total: total + 3 <= 8)
    caught = Fraction(sum(1 for f1, f2, p1, p2 in product(range(1, 7), repeat=4)
                          if p1 + p2 >= f1 + f2), 6**4)
    assert result.chance("holds", "elves") == holds == Fraction(5, 18)
    assert result.chance("breaks and is caught", "elves") == (1 - holds) * caught
    assert result.chance("breaks and escapes", "elves") == (1 - holds) * (1 - caught)
    assert result.chance("catches Elf Archers", "goblins") == (1 - holds) * caught
    assert result.chance(UNAFFECTED, "goblins") == holds
    assert result.chance("Elf Archers: hold") == holds
    assert_sums_to_one(result)
    # The break test is two branches, not 11; the pursuit roll one per outcome of its line
    # (it only says how far the Goblins go beyond that): 1 hold + 11 flee totals x catches
    # or misses, but every pursuit catches a flee of 2.
    assert result.leaves == 1 + 10 * 2 + 1


def test_forecast_never_measures_a_move_for_a_roll_it_walks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A flee roll's bands measure a move per total; the forecast must not ask for them."""
    def measured(*_: object) -> str:
        raise AssertionError("a move was measured for a roll's odds")

    monkeypatch.setattr(warhammer6, "move_outcome", measured)
    result = forecast(resolution_of(GOBLINS))
    assert result.exact and sum(c for _, c in result.outcomes) == 1
    # The patch does bite where a window reads the odds: Goblins held back, Elves flee alone.
    flee = resolution_of(GOBLINS).replay([(6, 6), "hold", (1, 1)]).pending
    assert isinstance(flee, Roll) and flee.outcome_of is not None
    with pytest.raises(AssertionError, match="a move was measured"):
        _ = flee.odds


# ---------------------------------------------------------------------------------------------
# Against the brute force


def broken_unit_without_pursuer(double_one_holds: bool) -> Resolution:
    """The winners are wiped out as they win, so the loser tests and flees alone."""
    data = scenario(
        [w6_unit("winners", "A", 36, 20, models=5, Ld=7),
         w6_unit("losers", "B", 36, 22, facing=270, models=10, Ld=7)],
        aftermath((side({"unit": "winners", "wounds_caused": 9, "casualties": 5}),
                   side({"unit": "losers", "wounds_caused": 0}))),
        options={"double_one_holds": double_one_holds})
    return load_scenario(data).resolution()


@pytest.mark.parametrize("double_one_holds", [False, True])
def test_forecast_equals_every_face_of_every_roll(double_one_holds: bool) -> None:
    resolution = broken_unit_without_pursuer(double_one_holds)
    result = forecast(resolution)
    assert result.exact
    assert whole(result) == brute_force(resolution)
    # 9 wounds against a rank and outnumbering the wiped-out winners: lost by 7, Ld 7, so
    # only the ruleset option's double 1 can hold.
    assert two_d6(lambda total: total + 7 <= 7) == 0
    holds = Fraction(1, 36) if double_one_holds else Fraction(0)
    assert result.chance("holds", "losers") == holds
    assert_sums_to_one(result)


def test_goblins_forecast_after_a_break_equals_the_brute_force() -> None:
    resolution = resolution_of(GOBLINS)
    result = forecast(resolution, [(6, 6)])
    assert whole(result) == brute_force(resolution, ((6, 6),))
    assert result.chance("Elf Archers: hold") == 0


def _prefix_for_brute_force(path: Path, limit: int) -> tuple[Answer, ...]:
    """The file's own answers, less the last rolls whose faces number at most `limit`."""
    loaded = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    session = run(loaded.resolution(), ScriptedAnswers(ScriptedRoller(loaded.dice),
                                                       loaded.choices))
    cut, faces = len(session.steps), 1
    while cut > 0:
        request = session.steps[cut - 1].request
        size = request.dice.outcomes if isinstance(request, Roll) else 1
        if faces * size > limit:
            break
        faces *= size
        cut -= 1
    return session.answers[:cut]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_each_bundled_scenario_after_its_own_answers_equals_the_brute_force(
        path: Path) -> None:
    """Whole trees are too large to brute-force for most files (36 x 36 x 216 and more),
    so each is checked from where its scripted answers leave at most 250 faces to roll."""
    resolution = resolution_of(path)
    loaded = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    answers = _prefix_for_brute_force(path, 250)
    result = forecast(resolution, answers, loaded.choices)
    assert result.exact
    assert whole(result) == brute_force(resolution, answers, dict(loaded.choices))
    assert_sums_to_one(result)


# ---------------------------------------------------------------------------------------------
# Against the walk that replays every run from the start (tests/replaying_walk.py)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_the_walk_from_checkpoints_equals_the_replaying_walk_on_each_bundled_scenario(
        path: Path) -> None:
    """Issue 24: the walk resumes runs from checkpoints and works each equal one out once;
    the old walk replayed every run from the start. Same classes, same trust in move rolls:
    the same fractions, and the same count of runs (what `rout forecast` says as leaves).
    From where each file's answers leave at most 20,000 faces to roll."""
    resolution = resolution_of(path)
    loaded = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    answers = _prefix_for_brute_force(path, 20_000)
    result = forecast(resolution, answers, loaded.choices, budget_seconds=120)
    old, runs = replaying_forecast(resolution, answers, loaded.choices)
    assert result.exact and runs > 1
    assert whole(result) == old
    assert result.leaves == runs


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=battles(), seed=st.integers(0, 2**32 - 1), kept=st.integers(1, 3))
def test_the_walk_from_checkpoints_equals_the_replaying_walk_on_made_up_battles(
        data: dict[str, Any], seed: int, kept: int) -> None:
    """Battles hypothesis makes up, from a run that fails every test, all but its last
    `kept` rolls given: whole trees of panics, flights and pursuits both ways."""
    resolution = load_placed(data).resolution()
    session = run(resolution, gives_way(seed))
    rolls = [i for i, step in enumerate(session.steps) if isinstance(step.request, Roll)]
    cut = rolls[-kept] if len(rolls) >= kept else 0
    answers = session.answers[:cut]
    old, runs = replaying_forecast(resolution, answers)
    result = forecast(resolution, answers, budget_seconds=120)
    assert result.exact
    assert whole(result) == old
    assert result.leaves == runs


@pytest.mark.parametrize("answers", [((10,), (10,)), ((10,), (1,))],
                         ids=["ran at once", "stood, then tested again"])
def test_kensei_walk_from_checkpoints_equals_the_replaying_walk(
        answers: tuple[Answer, ...]) -> None:
    """The Ronin's run through the Ashigaru with the Oni staying: every class of run
    totals, friends run through or not, the Ashigaru's own test."""
    resolution = resolution_of(SCENARIOS / "k1-ronin-run-through-ashigaru.json")
    choices = {"chase:oni": "stay"}
    old, runs = replaying_forecast(resolution, answers, choices)
    result = forecast(resolution, answers, choices, budget_seconds=120)
    assert result.exact and runs > 30
    assert whole(result) == old
    assert result.leaves == runs


def test_a_kensei_unit_that_holds_one_honor_test_and_runs_after_the_next_says_then() -> None:
    """A real-window retry of issue 20 read "Ronin Samurai: hold and run away through
    Ashigaru Spearmen", as if one test both held and failed: the Ronin held the Confrontation
    Value test (K-HT-1) and failed the Honor test after it."""
    resolution = resolution_of(SCENARIOS / "k1-ronin-run-through-ashigaru.json")
    result = forecast(resolution, (), {}, budget_seconds=120)
    samurai = [label for label, _ in result.by_unit["samurai"]]
    assert "holds and then runs away through Ashigaru Spearmen" in samurai
    assert not [label for label in samurai if label.startswith("holds and runs")]


# ---------------------------------------------------------------------------------------------
# Against seeded runs of `rout resolve`

RESOLVE_RUNS = 300


def chi_square_p(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square with `freedom` degrees: the regularised upper
    incomplete gamma Q(freedom / 2, statistic / 2), by its series or continued fraction."""
    a, x = freedom / 2, statistic / 2
    if x <= 0:
        return 1.0
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:  # P by its series, Q = 1 - P
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1 - front * total
    b, c, d = x + 1 - a, 1 / 1e-300, 1 / (x + 1 - a)  # Lentz's continued fraction for Q
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > 1e-300 else 1e-300)
        c = b + an / c
        c = c if abs(c) > 1e-300 else 1e-300
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h


def test_chi_square_p_matches_known_quantiles() -> None:
    # Tables: 3.841 is the 95% quantile with one degree, 18.307 with ten, 2.706 the 90%
    # with one; with two degrees Q is exp(-x/2) exactly.
    assert chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(18.307, 10) == pytest.approx(0.05, abs=1e-4)
    assert chi_square_p(2.706, 1) == pytest.approx(0.10, abs=1e-4)
    assert chi_square_p(7.0, 2) == pytest.approx(math.exp(-3.5), rel=1e-9)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_each_bundled_forecast_agrees_with_seeded_runs_of_rout_resolve(
        path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 24: the whole tree's exact forecast against 300 runs of `rout resolve --seed`,
    every die rolled from the seed (`--dice ""`), each labelled from the events it prints.
    No run may end in an outcome the forecast gives no chance; the counts pass a chi-square
    test (outcomes expected fewer than 5 times pooled). Seeds are fixed: it is repeatable."""
    loaded = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    resolution = loaded.resolution()
    result = forecast(resolution, (), loaded.choices, budget_seconds=120)
    assert result.exact
    expected = whole(result)
    seen: Counter[UnitOutcome] = Counter()
    for seed in range(RESOLVE_RUNS):
        code, out, err = run_cli(capsys, "resolve", path, "--dice", "", "--seed", seed)
        assert (code, err) == (0, ""), err
        events = [event_from_json(event) for event in json.loads(out)["events"]]
        seen[summarise(resolution.battle, events)] += 1
    assert set(seen) <= {outcome for outcome, chance in expected.items() if chance > 0}
    bins: list[tuple[float, int]] = []
    pooled_chance, pooled_count = 0.0, 0
    for outcome, chance in sorted(expected.items(), key=lambda item: item[1], reverse=True):
        if chance * RESOLVE_RUNS >= 5:
            bins.append((float(chance) * RESOLVE_RUNS, seen[outcome]))
        else:
            pooled_chance += float(chance)
            pooled_count += seen[outcome]
    if pooled_chance * RESOLVE_RUNS >= 5 or (pooled_chance and not bins):
        bins.append((pooled_chance * RESOLVE_RUNS, pooled_count))
    elif pooled_chance:  # too few to stand alone: into the smallest bin
        low, count = bins.pop()
        bins.append((low + pooled_chance * RESOLVE_RUNS, count + pooled_count))
    statistic = sum((count - mean) ** 2 / mean for mean, count in bins)
    if len(bins) > 1:
        assert chi_square_p(statistic, len(bins) - 1) > 1e-3, (statistic, bins)


# ---------------------------------------------------------------------------------------------
# Rolls that only say how far a unit moves


def test_four_units_forecast_is_exact_and_counted_from_the_faces() -> None:
    # Exact whatever the machine: how fast it is exact is bench_forecast's business.
    result = forecast(resolution_of(FOUR_UNITS), budget_seconds=120)
    assert result.exact
    assert_sums_to_one(result)
    # Lost by 7 with Ld 8, the Swordsmen always break; the Handgunners within 6" keep their
    # nerve on 2D6 of 7 or less. Every move on this table then runs its full distance, so the
    # dice alone decide: the Boyz (2D6) and the Wolf Riders (Move 9: 3D6) catch the
    # Swordsmen (2D6) with a roll at least as high.
    assert two_d6(lambda total: total + 7 <= 8) == 0
    nerve = two_d6(lambda total: total <= 7)
    expected: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
    for (flee, a), (boyz, b), (wolves, c) in product(
            d6_totals(2).items(), d6_totals(2).items(), d6_totals(3).items()):
        chance = Fraction(a * b * c, 6**7)
        caught = boyz >= flee or wolves >= flee
        words = (("boyz", catches(boyz >= flee)), ("wolf_riders", catches(wolves >= flee)),
                 ("swordsmen", "breaks and is caught" if caught else "breaks and escapes"))
        expected[(*words, ("handgunners", "keeps its nerve"))] += chance * nerve
        expected[(*words, ("handgunners", "panics and flees"))] += chance * (1 - nerve)
    assert whole(result) == expected
    # Walked total by total that is 23,232 runs; the move rolls take each a class or two.
    assert result.leaves < 1_000


def catches(caught: bool) -> str:
    return ("catches" if caught else "fails to catch") + " Empire Swordsmen"


@pytest.mark.parametrize("seed", range(12))
def test_four_units_runs_are_what_their_totals_say(seed: int) -> None:
    """The premise of the count above, run by run: whatever the dice, only the totals and
    the Panic test decide (every move runs its full distance)."""
    resolution = resolution_of(FOUR_UNITS)
    session = run(resolution, ScriptedAnswers(SeededRoller(seed)))
    totals = {step.request.key: sum(step.answer) for step in session.steps
              if isinstance(step.request, Roll) and isinstance(step.answer, tuple)}
    flee, boyz, wolves = (totals["flee:swordsmen"], totals["pursue_roll:boyz"],
                          totals["pursue_roll:wolf_riders"])
    nerve = totals["panic:handgunners"] <= 7
    assert summarise(resolution.battle, session.events) == (
        ("boyz", catches(boyz >= flee)), ("wolf_riders", catches(wolves >= flee)),
        ("swordsmen", "breaks and is caught" if max(boyz, wolves) >= flee
         else "breaks and escapes"),
        ("handgunners", "keeps its nerve" if nerve else "panics and flees"))


def flees_near_the_edge() -> Resolution:
    """The winners are wiped out as they win; the losers flee alone towards the table
    edge 6" behind them, so their longer rolls take them off it."""
    data = scenario(
        [w6_unit("winners", "A", 36, 40, models=5, Ld=7),
         w6_unit("losers", "B", 36, 42, facing=270, models=10, Ld=7)],
        aftermath((side({"unit": "winners", "wounds_caused": 9, "casualties": 5}),
                   side({"unit": "losers", "wounds_caused": 0}))))
    return load_scenario(data).resolution()


def panics_into_the_pursuit() -> Resolution:
    """B breaks and A pursues it north; C, beside B, panics and flees away from A, ending
    (on a short roll) where A's pursuit passes."""
    data = scenario(
        [w6_unit("a", "Red", 36, 21.5, facing=90, models=20, files=10, Ld=8),
         w6_unit("b", "Blue", 36, 24, facing=270, models=10, files=5, Ld=7),
         w6_unit("c", "Blue", 40.5, 30, facing=270, models=10, files=5, Ld=7)],
        aftermath((side({"unit": "a", "wounds_caused": 6}),
                   side({"unit": "b", "wounds_caused": 0, "casualties": 2}))))
    return load_scenario(data).resolution()


def pursues_into_ogres() -> Resolution:
    """The worked example with a fresh enemy 9" up the Goblins' way: a long pursuit runs
    into it, a short one does not, caught or not."""
    data = json.loads(GOBLINS.read_text(encoding="utf-8"))
    data["units"].append(w6_unit("ogres", "High Elves", 36, 38.5, facing=270, models=3,
                                 files=3, base=(1.6, 1.6)))
    return load_scenario(data).resolution()


@pytest.mark.parametrize(("build", "answers", "walked"), [
    (flees_near_the_edge, (), ["flee:losers"]),
    (panics_into_the_pursuit, ((6, 6), (6, 6), "pursue", (3, 4)), ["flee:c"]),
    (pursues_into_ogres, ((6, 6), "pursue"), ["pursue_roll:goblins"]),
], ids=["leaves the table or not", "flees where a pursuit looks", "runs into a fresh enemy"])
def test_a_move_roll_whose_totals_part_ways_is_walked_total_by_total(
        build: Any, answers: tuple[Answer, ...], walked: list[str],
        walked_one_by_one: list[str]) -> None:
    """Where the audit finds totals of one class moving differently, or something looking
    where one of them would have ended, the forecast walks them one by one: still every
    face of every roll."""
    resolution = build()
    result = forecast(resolution, answers)
    assert result.exact
    assert whole(result) == brute_force(resolution, answers)
    assert set(walked) <= set(walked_one_by_one)
    assert_sums_to_one(result)


def every_total(resolution: Resolution, answers: tuple[Answer, ...]
                ) -> dict[UnitOutcome, Fraction]:
    """Like `brute_force`, but a distance roll by its totals (the faces of a test still one
    by one): cheaper, and it trusts no more than that a distance reads only its total."""
    found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)

    def walk(given: tuple[Answer, ...], chance: Fraction) -> None:
        session = resolution.replay(given)
        while isinstance(session.pending, Choice):
            session.answer(session.pending.default)
        if session.done:
            found[summarise(resolution.battle, session.events)] += chance
            return
        roll = session.pending
        assert isinstance(roll, Roll)
        if roll.reads in ("outcome", "faces"):
            for faces in product(range(1, roll.dice.sides + 1), repeat=roll.dice.count):
                walk((*session.answers, faces), chance / roll.dice.outcomes)
            return
        for total, ways in roll.dice.ways().items():
            walk((*session.answers, faces_for(roll.dice, total)),
                 chance * Fraction(ways, roll.dice.outcomes))

    walk(answers, Fraction(1))
    return dict(found)


def gives_way(seed: int) -> Any:
    """Answers that fail every test (so units break and panic, and the tree is at its
    largest) and roll every distance from `seed`."""
    roller = SeededRoller(seed)

    def answer(request: Request) -> Answer:
        if isinstance(request, Choice):
            return request.default
        if request.reads == "outcome":
            return (request.dice.sides,) * request.dice.count
        return roller.roll(request.dice, request.key)

    return answer


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=battles(), seed=st.integers(0, 2**32 - 1))
def test_forecasts_of_made_up_battles_equal_every_total(data: dict[str, Any],
                                                        seed: int) -> None:
    """Battles hypothesis makes up (a combat, neighbours that panic, bystanders), from
    where a run leaves only its last distance rolls, at most 150 totals between them."""
    resolution = load_placed(data).resolution()
    session = run(resolution, gives_way(seed))
    cut, totals = len(session.steps), 1
    while cut > 0 and isinstance(request := session.steps[cut - 1].request, Roll):
        if request.reads not in ("total", "move") or totals * len(request.dice.ways()) > 150:
            break
        totals *= len(request.dice.ways())
        cut -= 1
    answers = session.answers[:cut]
    result = forecast(resolution, answers, budget_seconds=120)  # exactness, not speed
    assert result.exact
    assert whole(result) == every_total(resolution, answers)


@pytest.mark.parametrize("seed", [0, 5])
def test_kensei_runs_and_chases_walked_by_class_equal_every_total(seed: int) -> None:
    """Issue 24: a Kensei run or chase reads "move", its totals grouped by how the move
    ends in words (K-RA-2, K-RA-7): from where a made-up combat leaves its last two distance
    rolls (a chase and a run, 361 pairs of totals), the forecast walks a few dozen runs and
    equals every total."""
    resolution = load_scenario(made_up("kensei1", seed)).resolution()
    session = run(resolution, gives_way(seed))
    answers = session.answers[:len(session.steps) - 2]
    rolls = [step.request for step in session.steps[-2:]]
    assert all(isinstance(roll, Roll) and roll.reads == "move" for roll in rolls)
    result = forecast(resolution, answers, budget_seconds=120)
    assert result.exact and result.leaves < 100
    assert whole(result) == every_total(resolution, answers)


BP_TWO_COMBATS = SCENARIOS / "bp-two-combats.json"


@pytest.mark.parametrize("flee", [(4, 3), (1, 1)], ids=["flees 7", "flees 2"])
def test_breaks_pursues_pursuits_and_overruns_walked_by_class_equal_every_total(
        flee: tuple[int, int]) -> None:
    """Issue 24: BP's pursuit and Overrun rolls read "move" (catching is their threshold,
    the rest only how far they go), audited where they move. From the Goblins' flee, every
    total of the three rolls left (1,331 runs) against the forecast's few dozen."""
    resolution = resolution_of(BP_TWO_COMBATS)
    answers = ((3, 3), "swordmasters", flee, "overrun", "goblins", "goblins")
    result = forecast(resolution, answers, budget_seconds=120)
    assert result.exact and result.leaves < 100
    assert whole(result) == every_total(resolution, answers)


def test_a_panicked_unit_can_end_where_a_pursuit_runs_into_it() -> None:
    """Why the audit watches where a fled unit might stand: here C's flee roll decides
    whether A's pursuit runs into it."""
    result = forecast(panics_into_the_pursuit(), ((6, 6), (6, 6), "pursue", (3, 4)))
    assert result.chance("catches B and runs into C", "a") > 0


# ---------------------------------------------------------------------------------------------
# Answers and choices


def test_answers_given_are_followed() -> None:
    resolution = resolution_of(GOBLINS)
    held = forecast(resolution, [(1, 1)])  # 2 + 3 <= 8: they hold, nothing more is asked
    assert held.outcomes == [("Elf Archers: hold", Fraction(1))]
    assert held.leaves == 1
    fled = forecast(resolution, [(6, 6), "pursue", (6, 6)])  # broken, then fled the most there is
    caught = Fraction(1, 36)  # only a pursuit of 12 reaches a flee of 12
    assert fled.chance("breaks and is caught", "elves") == caught
    assert fled.chance("breaks and escapes", "elves") == 1 - caught


def test_answers_for_reads_dice_in_the_order_they_are_asked() -> None:
    resolution = resolution_of(GOBLINS)
    assert answers_for(resolution, [6, 6, 2, 3]) == ((6, 6), "pursue", (2, 3))
    assert answers_for(resolution, [6, 6], {"pursue:goblins": "hold"}) == ((6, 6),)
    with pytest.raises(ForecastError, match="part way through flee:elves"):
        answers_for(resolution, [6, 6, 2])
    with pytest.raises(RuleError, match="not a face"):
        answers_for(resolution, [6, 9])


def test_a_choice_changes_the_forecast() -> None:
    resolution = resolution_of(GOBLINS)
    pursue = forecast(resolution)
    hold = forecast(resolution, choices={"pursue:goblins": "hold"})
    assert hold.exact and hold.by_unit != pursue.by_unit
    broken = 1 - Fraction(5, 18)
    # Goblins Ld 6: holding back needs 2D6 <= 6.
    assert hold.chance("holds back", "goblins") == broken * two_d6(lambda t: t <= 6)
    assert_sums_to_one(hold)
    with pytest.raises(ForecastError):
        forecast(resolution, [(6, 6), "dither"])


# ---------------------------------------------------------------------------------------------
# Past the budget: a seeded sample


def test_a_sample_is_labelled_repeatable_and_its_intervals_hold_the_exact_chances() -> None:
    resolution = resolution_of(GOBLINS)
    exact = forecast(resolution)
    sampled = sample(resolution, samples=400, seed=11)
    assert not sampled.exact and sampled.samples == 400 and sampled.seed == 11
    assert sampled.to_json()["method"] == "sample of 400 runs"
    assert sampled.outcomes == sample(resolution, samples=400, seed=11).outcomes
    assert sum(share for _, share in sampled.outcomes) == 1
    for label, chance in exact.outcomes:
        low, high = sampled.intervals[label]
        assert low <= chance <= high, (label, float(chance), low, high)
    for uid, rows in exact.by_unit.items():
        for label, chance in rows:
            low, high = sampled.unit_intervals[uid, label]
            assert low <= chance <= high, (uid, label)


def test_a_sampled_whole_outcome_carries_the_interval_of_its_own_share() -> None:
    """Issue 24, D1: with units named by their ids, the whole outcome "samurai: runs away"
    reads like the Ronin's own row "runs away" (which also counts the runs where the Oni
    chase them down), and it was given that row's interval, one not holding its share."""
    data = json.loads((SCENARIOS / "k1-ronin-run-through-ashigaru.json").read_text())
    for unit in data["units"]:
        unit["name"] = unit["id"]
    resolution = load_scenario(data).resolution()
    sampled = sample(resolution, ((10,), (10,), (2, 1)), samples=200, seed=1)
    # The whole outcome's words agree with the unit (several samurai "run away"), so they
    # no longer read like the row; each must still carry the interval of its own share.
    alone, row = sampled.chance("samurai: run away"), sampled.chance("runs away", "samurai")
    assert 0 < alone <= row
    for label, share in sampled.outcomes:
        assert sampled.intervals[label] == forecast_module.wilson(share, 200), label
    for uid, rows in sampled.by_unit.items():
        for label, share in rows:
            assert sampled.unit_intervals[uid, label] == forecast_module.wilson(share, 200)
    shown = sampled.to_json()
    low, high = next(row["interval_95"] for row in shown["outcomes"]
                     if row["label"] == "samurai: run away")
    assert low <= float(alone) <= high
    low, high = next(row["interval_95"] for row in shown["by_unit"]["samurai"]
                     if row["label"] == "runs away")
    assert low <= float(row) <= high


def test_a_tree_past_the_budget_falls_back_to_a_sample() -> None:
    resolution = resolution_of(FOUR_UNITS)
    result = forecast(resolution, max_leaves=20, samples=30, seed=2)
    assert not result.exact and result.leaves == 30 == result.samples
    assert sum(share for _, share in result.outcomes) == 1


def test_a_sample_stops_when_its_time_runs_out_and_says_so() -> None:
    """Issue 21 item 10: a sample had no time bound (38 s on 360 rocks, `--samples 10**30`
    never returned). It stops after its budget, at least one run made, and says how many of
    how many asked."""
    resolution = resolution_of(GOBLINS)
    cut = sample(resolution, samples=forecast_module.MAX_SAMPLES, seed=3, budget_seconds=0.0)
    assert (cut.samples, cut.asked, cut.leaves) == (1, forecast_module.MAX_SAMPLES, 1)
    data = cut.to_json()
    assert data["samples"] == 1 and data["samples_asked"] == forecast_module.MAX_SAMPLES
    assert data["method"] == (f"sample of 1 runs (of {forecast_module.MAX_SAMPLES} asked: "
                              "the time for a sample ran out)")
    whole = sample(resolution, samples=5, seed=3)
    assert (whole.samples, whole.to_json()["samples_asked"]) == (5, 5)
    assert "asked" not in whole.to_json()["method"]


def test_a_forecast_past_its_budget_samples_within_the_budget_too() -> None:
    resolution = resolution_of(FOUR_UNITS)
    result = forecast(resolution, max_leaves=20, samples=forecast_module.MAX_SAMPLES,
                      budget_seconds=0.0)
    assert not result.exact and result.samples == 1


def test_more_runs_than_a_sample_takes_are_refused() -> None:
    with pytest.raises(RuleError, match=r"at most 1000000 runs, not 1000001"):
        sample(resolution_of(GOBLINS), samples=forecast_module.MAX_SAMPLES + 1)


def test_the_command_refuses_a_sample_of_10_to_the_30_at_once(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "desktop", "forecast", str(GOBLINS),
                           "--samples", str(10**30)], cwd=REPO, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stdout == "", done
    [line] = done.stderr.splitlines()
    assert "a sample is of at most 1000000 runs" in line, line


def test_branches_group_faces_by_what_the_procedure_reads() -> None:
    resolution = resolution_of(GOBLINS)
    session = resolution.session()
    test = session.pending
    assert isinstance(test, Roll) and test.reads == "outcome"
    assert [ways for _, ways in branches_of(test)] == [10, 26]  # holds on 2..5, breaks on 6+
    session.answer((6, 6))
    session.answer("pursue")
    flee = session.pending
    assert isinstance(flee, Roll) and flee.reads == "total"
    assert [ways for _, ways in branches_of(flee)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert all(flee.dice.total(faces) == total
               for (faces, _), total in zip(branches_of(flee), range(2, 13), strict=True))
    session.answer((3, 4))
    pursuit = session.pending  # beyond catching or not, it only says how far they go
    assert isinstance(pursuit, Roll) and pursuit.reads == "move"
    assert branches_of(pursuit) == [((1, 1), 15), ((6, 1), 21)]  # misses on 2..6, catches 7+


# ---------------------------------------------------------------------------------------------
# rout forecast


def cli_json(capsys: pytest.CaptureFixture[str], *argv: object) -> dict[str, Any]:
    code, out, err = run_cli(capsys, "forecast", *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_cli_prints_the_exact_forecast(capsys: pytest.CaptureFixture[str]) -> None:
    data = cli_json(capsys, GOBLINS)
    assert data["exact"] and data["method"] == "exact" and data["dice_given"] == []
    rows = {row["label"]: row for row in data["outcomes"]}
    assert rows["Elf Archers: hold"]["chance"] == "5/18"
    assert rows["Elf Archers: hold"]["percent"] == "27.8%"
    assert rows["Elf Archers: hold"]["units"] == {"elves": "holds"}
    elves = {row["label"]: Fraction(row["chance"]) for row in data["by_unit"]["elves"]}
    assert sum(elves.values()) == 1


def test_cli_follows_dice_and_choices(capsys: pytest.CaptureFixture[str]) -> None:
    after = cli_json(capsys, GOBLINS, "--dice", "6,6", "--dice", "6 6")
    assert after["dice_given"] == [6, 6, 6, 6]
    caught = {row["label"]: row["chance"] for row in after["by_unit"]["elves"]}
    assert caught == {"breaks and is caught": "1/36", "breaks and escapes": "35/36"}
    hold = cli_json(capsys, GOBLINS, "--choose", "pursue:goblins=hold")
    assert "holds back" in {row["label"] for row in hold["by_unit"]["goblins"]}


def test_cli_sample_is_repeatable_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    first = cli_json(capsys, GOBLINS, "--samples", "60", "--seed", "5")
    assert not first["exact"] and first["samples"] == 60 and first["seed"] == 5
    low, high = first["outcomes"][0]["interval_95"]
    assert 0 <= low <= float(Fraction(first["outcomes"][0]["share"])) <= high <= 1
    assert cli_json(capsys, GOBLINS, "--samples", "60", "--seed", "5") == first


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--dice", "6,6,2"], "part way through flee:elves"),
    (["--dice", "6,7"], "7 is not a face"),
    (["--dice", "6,x"], "'x' is not a die face"),
    (["--choose", "pursue:goblins"], "KEY=OPTION"),
    (["--dice", "6,6", "--choose", "pursue:goblins=dither"], "'dither' is not one of"),
    (["--samples", "0"], "at least one run"),
    (["--dice", "1,1,1,1"], "after the last roll"),
])
def test_cli_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                             argv: list[str], fragment: str) -> None:
    assert_bad(capsys, ["forecast", GOBLINS, *argv], fragment, prefix="rout")


def test_cli_missing_scenario_exits_2(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    assert_bad(capsys, ["forecast", tmp_path / "nowhere.json"], "nowhere.json")


@pytest.mark.parametrize("exact", [True, False], ids=["exact", "sample"])
def test_a_cancelled_forecast_stops_at_its_next_run(exact: bool) -> None:
    """A window whose input changed stops the old walk instead of waiting for it: asked
    after every run, `cancelled` ends the exact walk and the sample alike."""
    asked: list[int] = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(ForecastCancelled):
        # max_leaves=0: no exact walk, a sample with time enough for every run.
        forecast(resolution_of(FOUR_UNITS), budget_seconds=120,
                 max_leaves=DEFAULT_MAX_LEAVES if exact else 0, samples=500,
                 cancelled=cancelled)
    assert len(asked) == 4  # stopped at once, not after the whole tree or sample


def test_a_forecast_line_agrees_with_each_units_name() -> None:
    """Issue 20, item 6: "Empire Handgunners: breaks and flees". A line gives each unit's
    label after its name, so every phrase agrees with it, as the wizard's "Elf Silver Riders
    break" does (desktop.engine.wording); the per-unit labels stay written for one."""
    resolution = resolution_of(FOUR_UNITS)
    result = forecast(resolution, budget_seconds=120)
    label = outcome_label(resolution.battle, (
        ("boyz", "fails to catch Empire Swordsmen"),
        ("wolf_riders", "fails to catch Empire Swordsmen"),
        ("swordsmen", "breaks and escapes"), ("handgunners", "panics and flees")))
    assert label == ("Orc Boyz: fail to catch Empire Swordsmen; Goblin Wolf Riders: fail to "
                     "catch Empire Swordsmen; Empire Swordsmen: break and escape; Empire "
                     "Handgunners: panic and flee")
    assert result.chance(label) > 0
    assert result.chance("panics and flees", "handgunners") > 0
    boss = replace(resolution.battle.roster["handgunners"], name="Empire Captain", models=1)
    alone = replace(resolution.battle, roster={**resolution.battle.roster, "handgunners": boss})
    assert outcome_label(alone, (("handgunners", "keeps its nerve, panics and flees"),)) == (
        "Empire Captain: keeps its nerve, panics and flees")


def test_a_runner_that_runs_again_is_not_said_to_run_away_twice() -> None:
    """Issue 20, item 6: "Ronin Samurai: runs away and runs away through Ashigaru Spearmen"
    (reached by the chase, it runs again: K-RA-9)."""
    battle = load_scenario(json.loads((SCENARIOS / "k1-ronin-run-through-ashigaru.json")
                                      .read_text())).battle
    start = battle.states["samurai"].center
    runs = [UnitFled("samurai", 9, (start, (start[0], start[1] - 9)), 270.0, away_from="oni",
                     clause="K-RA-1"),
            UnitFled("samurai", 12, ((start[0], start[1] - 9), (start[0], start[1] - 21)),
                     270.0, away_from="oni", passed_through=("ashigaru",), clause="K-RA-9")]
    outcome = summarise(battle, runs)
    assert outcome == (("samurai", "runs away and then again through Ashigaru Spearmen"),)
    assert outcome_label(battle, outcome) == (
        "Ronin Samurai: run away and then again through Ashigaru Spearmen")
