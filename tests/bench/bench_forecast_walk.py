"""The exact walk against the walk it replaced (issue 24), on every bundled scenario. Run

    python tests/bench/bench_forecast_walk.py

For each file, in report.py's format:
- `<name>_per_run_old`: the old walk (tests/replaying_walk.py, every run replayed from the
  start) per run, timed in this run on a part of the tree (from where the file's own answers
  leave a few hundred runs), the baseline;
- `<name>_part`: the new walk on that part (its ratio to one old run), which must agree;
- `<name>`: the whole tree's exact forecast, said against issue 24's goal (every bundled
  scenario exact within a second) and held to WHOLE_BUDGET, twice what the walk reaches
  now (0.5–1.0 s on the slowest trees) for a noisy host, stretched as
  bench_forecast.py stretches it: a regression fails, the open goal is reported;
- `<name>_per_run`: the whole tree's seconds per run (runs counted as the old walk makes
  them), against issue 24's goal of 1/50 of the old walk's (50x the runs per second),
  said met or not met; a reference figure until the walk meets it.
- `apart_<N>_combats`: N copies of w6-four-units far apart on one table (combats that can
  never meet), the exact forecast's time against N times one copy's, timed in this run:
  issue 24's "N combats cost N times one, not its power", held to APART_BUDGET; its
  details give the runs a second (the runs a replaying walk would make of the product).
- `same_size_<ruleset>`: issue 24's "resolutions of the same size" (tests/same_size.py: one
  to four combats, up to eight units, friends behind the losers; Kensei combats with their
  friends around), same_size.SEEDS of each, forecast with GOAL_SECONDS (stretched) each:
  how many are exact in time (combats near each other walked apart where the walks prove
  they did not meet), and the slowest exact one. A reference: issue 24's goal, not met yet
  where a loser may bend round a friend near another fight, or one combat's tree is large.
Exits 1 when a figure is over its budget or a whole forecast is not exact.
"""

from __future__ import annotations

import json
import math
import sys
import time
import timeit
from pathlib import Path

from report import Report, slowdown

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS))

from combats_apart import side_by_side  # noqa: E402
from replaying_walk import replaying_forecast  # noqa: E402  (the old walk, a test oracle)
from same_size import SEEDS, made_up  # noqa: E402

from desktop.engine.dice import ScriptedRoller  # noqa: E402
from desktop.engine.forecast import forecast  # noqa: E402
from desktop.engine.procedure import Answer, Roll, ScriptedAnswers, run  # noqa: E402
from desktop.engine.scenario import Scenario, load_scenario  # noqa: E402

SCENARIOS = TESTS.parent / "resources" / "scenarios"
# One scripted run of w6-goblins-vs-elves on the idle 2-core development machine (2026-12).
IDLE_BASELINE = 0.9e-3
GOAL_SECONDS = 1.0  # issue 24: every bundled scenario exact within a second
WHOLE_BUDGET = 2.0  # seconds: twice the slowest tree now (Kensei's 0.8–1.0 s), a regression
SPEED_UP = 50  # issue 24: at least 50x the runs per second of the old walk
PART_RUNS = 300  # about how many runs the timed part of each tree holds
# However slow the whole tree, the bench stops it here (it then reports a sample, OVER).
CAP_SECONDS = 120.0
APART_BUDGET = 1.5  # N combats far apart: at most 1.5 times N times one combat's forecast
APART_SPACING = 90.0  # inches between the copies: beyond any flee, pursuit and Panic


def part_of_tree(scenario: Scenario) -> tuple[Answer, ...]:
    """The file's own answers, less its last rolls, so that the old walk makes at least
    PART_RUNS runs from there (or the whole tree, if it is smaller)."""
    session = run(scenario.resolution(), ScriptedAnswers(ScriptedRoller(scenario.dice),
                                                         scenario.choices))
    cut = len(session.steps)
    while cut > 0:
        cut -= 1
        while cut > 0 and not isinstance(session.steps[cut].request, Roll):
            cut -= 1
        answers = session.answers[:cut]
        _, runs = replaying_forecast(scenario.resolution(), answers, scenario.choices)
        if runs >= PART_RUNS:
            return answers
    return ()


def scripted_run_seconds(scenario: Scenario) -> float:
    def once() -> object:
        return run(scenario.start(), ScriptedAnswers(ScriptedRoller(scenario.dice),
                                                     scenario.choices)).events

    return min(timeit.repeat(once, number=20, repeat=7)) / 20


def main() -> int:
    report = Report("forecast_walk")
    paths = sorted(SCENARIOS.glob("*.json"))
    loaded = {path.stem.replace("-", "_"): load_scenario(json.loads(
        path.read_text(encoding="utf-8"))) for path in paths}
    stretch = slowdown(scripted_run_seconds(loaded["w6_goblins_vs_elves"]), IDLE_BASELINE)
    for name, scenario in loaded.items():
        resolution = scenario.resolution()
        answers = part_of_tree(scenario)
        started = time.perf_counter()
        old, runs = replaying_forecast(resolution, answers, scenario.choices)
        old_per_run = report.time(f"{name}_per_run_old", (time.perf_counter() - started) / runs,
                                  details=f"{runs} runs replayed from the start")
        started = time.perf_counter()
        part = forecast(resolution, answers, scenario.choices, budget_seconds=CAP_SECONDS)
        same = part.exact and {part.units[label]: chance for label, chance in part.outcomes
                               } == old and part.leaves == runs
        report.time(f"{name}_part", time.perf_counter() - started, baseline=old_per_run,
                    failed="" if same else "the walks disagree on this part of the tree",
                    details=f"the same {runs} runs, new walk")
        started = time.perf_counter()
        whole = forecast(resolution, (), scenario.choices, budget_seconds=CAP_SECONDS,
                         max_leaves=10**9)
        seconds = time.perf_counter() - started
        failed = "" if whole.exact else (f"NOT exact: a sample of {whole.samples} runs after "
                                         f"{CAP_SECONDS * 0.75:.0f} s of walking")
        goal = "met" if seconds <= GOAL_SECONDS * stretch else "not met yet"
        report.time(name, seconds, budget=WHOLE_BUDGET, stretch=stretch, failed=failed,
                    details=(f"exact, {whole.leaves} runs; issue 24's goal of "
                             f"{GOAL_SECONDS:g} s {goal}") if whole.exact else "")
        if whole.exact:
            # Issue 24's goal, not met yet on these trees (their cost is the movement
            # geometry): reported against it, not held to it, until the walk reaches it.
            per_run = seconds / whole.leaves
            wanted = old_per_run.value / SPEED_UP
            report.time(f"{name}_per_run", per_run, baseline=old_per_run,
                        details=f"{whole.leaves / seconds:.0f} runs a second; issue 24's "
                                f"goal {SPEED_UP}x the old walk's "
                                f"({'met' if per_run <= wanted else 'not met yet'})")
    apart(report)
    same_size(report, stretch)
    return report.finish()


def exact_seconds(scenario: Scenario) -> tuple[float, int]:
    """The best of three exact forecasts of `scenario`, and its runs."""
    best, leaves = math.inf, 0
    for _ in range(3):
        started = time.perf_counter()
        found = forecast(scenario.resolution(), (), scenario.choices,
                         budget_seconds=CAP_SECONDS, max_leaves=10**9)
        best = min(best, time.perf_counter() - started)
        if not found.exact:
            return math.inf, 0
        leaves = found.leaves
    return best, leaves


def apart(report: Report) -> None:
    one, _ = exact_seconds(load_scenario(side_by_side("w6-four-units", 1, APART_SPACING)))
    baseline = report.time("apart_1_combat", one, details="one copy of w6-four-units")
    for copies in (2, 3, 4):
        seconds, leaves = exact_seconds(load_scenario(
            side_by_side("w6-four-units", copies, APART_SPACING)))
        report.ratio(f"apart_{copies}_combats", seconds / (copies * baseline.value),
                     budget=APART_BUDGET,
                     details=f"{seconds * 1000:.0f} ms against {copies} x "
                             f"{baseline.value * 1000:.0f} ms; exact, {leaves} runs, "
                             f"{leaves / seconds:.3g} runs a second")


def same_size(report: Report, stretch: float) -> None:
    for ruleset in ("warhammer6", "breaks_pursues", "kensei1"):
        exact: list[tuple[float, int, int]] = []  # seconds, runs, seed
        for seed in SEEDS:
            scenario = load_scenario(made_up(ruleset, seed))
            started = time.perf_counter()
            found = forecast(scenario.resolution(), (), scenario.choices,
                             budget_seconds=GOAL_SECONDS * stretch, max_leaves=10**9)
            if found.exact:
                exact.append((time.perf_counter() - started, found.leaves, seed))
        seconds, leaves, seed = max(exact, default=(0.0, 0, -1))
        report.time(f"same_size_{ruleset}", seconds,
                    details=(f"{len(exact)} of {len(SEEDS)} made-up resolutions exact "
                             f"within issue 24's {GOAL_SECONDS:g} s; the slowest of them "
                             f"seed {seed}, {leaves} runs"))


if __name__ == "__main__":
    raise SystemExit(main())
