"""Forecast benchmarks (DESIGN.md: forecast of a one-combat W6 aftermath < 200 ms; the
four-unit W6 scenario, exact, < 2 s). Run

    python tests/bench/bench_forecast.py

Lines in report.py's format; each forecast's carries the ratio against a baseline timed in
the same run, one scripted resolution of the same scenario (a reference figure of its own),
so the ratio says how many whole runs a forecast costs and a slow or busy machine shows as a
slow baseline too.
Exits 1 when a forecast is over its budget or is not exact; the budget stretches when the
baseline runs slower than on the idle development machine (as in bench_engine.py).
"""

from __future__ import annotations

import json
import time
import timeit
from pathlib import Path

from report import Report, slowdown

from desktop.engine.dice import ScriptedRoller
from desktop.engine.forecast import forecast
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "resources" / "scenarios"
# One scripted run of w6-goblins-vs-elves on the idle 2-core development machine (2026-12).
IDLE_BASELINE = 0.9e-3
CASES = (("w6_goblins_vs_elves", "w6-goblins-vs-elves.json", 0.2),
         ("w6_four_units", "w6-four-units.json", 2.0))


def scripted_run_seconds(scenario: Scenario) -> float:
    """The baseline: the fastest of 7 x 20 scripted resolutions of the file's own dice."""
    def once() -> object:
        return run(scenario.start(), ScriptedAnswers(ScriptedRoller(scenario.dice),
                                                     scenario.choices)).events

    return min(timeit.repeat(once, number=20, repeat=7)) / 20


def main() -> int:
    report = Report("forecast")
    loaded = {name: load_scenario(json.loads((SCENARIOS / file).read_text(encoding="utf-8")))
              for name, file, _ in CASES}
    stretch = 1.0
    for name, _, budget in CASES:
        scenario = loaded[name]
        seconds = scripted_run_seconds(scenario)
        details = ""
        if name == "w6_goblins_vs_elves":  # first in CASES: IDLE_BASELINE was measured on it
            stretch = slowdown(seconds, IDLE_BASELINE)
            details = f"this machine runs {stretch:.2f}x slower than idle"
        baseline = report.time(f"scripted_run_{name}", seconds, details=details)
        resolution = scenario.resolution()
        best, result = float("inf"), None
        for _ in range(3 if budget < 1 else 1):  # best of three where it is cheap
            started = time.perf_counter()
            result = forecast(resolution, budget_seconds=budget * stretch)
            best = min(best, time.perf_counter() - started)
        assert result is not None
        not_exact = (f"NOT exact: a sample of {result.samples} runs, the tree being too large "
                     f"for {budget * stretch:.2f} s")
        report.time(name, best, budget=budget, stretch=stretch,
                    baseline=baseline, failed="" if result.exact else not_exact,
                    details=f"exact, {result.leaves} leaves" if result.exact else "")
    return report.finish()

if __name__ == "__main__":
    raise SystemExit(main())
