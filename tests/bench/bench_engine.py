"""Engine benchmarks (DESIGN.md budgets). Not part of the unit tests: run

    python tests/bench/bench_engine.py

Lines in report.py's format, each with the ratio against a baseline timed in the same run,
so a slow or busy machine shows as a slow baseline too. Exits 1 when a measurement is over
its budget; when the baseline itself runs slower than it does on the idle development
machine, the budget stretches by the same factor, so a busy CI host does not fail the run
for being busy.
"""

from __future__ import annotations

import json
import timeit
from collections.abc import Callable
from pathlib import Path

from report import Report

from desktop.engine import dice, odds
from desktop.engine.dice import D2D6, D3D6, ScriptedRoller
from desktop.engine.procedure import Roll, ScriptedAnswers, run
from desktop.engine.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "resources" / "scenarios" / "w6-four-units.json"
# The baseline on the idle 2-core development machine (2026-11), in seconds.


def best_seconds(work: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Fastest of `repeat` runs of `number` calls, per call: the least disturbed timing."""
    return min(timeit.repeat(work, number=number, repeat=repeat)) / number


def cold(work: Callable[[], object]) -> Callable[[], object]:
    """Time the work with empty distribution caches, as the first request of a session."""

    def run_cold() -> object:
        dice._pmf.cache_clear()
        dice._ways.cache_clear()
        dice._cumulative_ways.cache_clear()
        return work()

    return run_cold



def main() -> int:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    scenario = load_scenario(data)

    def resolve_four_units() -> object:
        session = run(scenario.start(), ScriptedAnswers(ScriptedRoller(scenario.dice)))
        assert session.events
        return session.events

    resolution = scenario.resolution()
    first_answer = list(run(resolution, ScriptedAnswers(ScriptedRoller(scenario.dice)))
                        .answers[:1])

    def preview_four_units() -> object:
        # What the wizard redraws after each answer: the rest by defaults, odds untouched.
        session = resolution.preview(first_answer)
        assert session.done and session.events
        return session.events

    def odds_of_every_request() -> object:
        # A window shows every request's odds; geometric ones measure a move per total.
        session = run(resolution, ScriptedAnswers(ScriptedRoller(scenario.dice)))
        return [(s.request.odds if isinstance(s.request, Roll) else
                 [o.odds for o in s.request.options]) for s in session.steps]

    cases = [
        ("break_test_odds", cold(lambda: odds.break_test_fails(8, 3, D2D6)), 2000, 50e-6),
        ("caught_odds_four_3d6_pursuers",
         cold(lambda: odds.caught(D2D6, [D3D6, D3D6, D3D6, D3D6])), 200, 1e-3),
        ("w6_resolution_four_units_scripted", resolve_four_units, 50, 5e-3),
        ("w6_preview_four_units", preview_four_units, 50, 10e-3),
        ("w6_four_units_odds_of_every_request", odds_of_every_request, 10, 50e-3),
    ]
    report = Report("engine")
    reference, stretch = report.baseline_2d6()
    for name, work, number, budget in cases:
        report.time(name, best_seconds(work, number), budget=budget, stretch=stretch,
                    baseline=reference)
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
