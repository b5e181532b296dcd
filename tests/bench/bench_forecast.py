"""Forecast benchmarks (DESIGN.md: forecast of a one-combat W6 aftermath < 200 ms; the
four-unit W6 scenario, exact, < 2 s). Run

    python tests/bench/bench_forecast.py

Each line reads `bench <name>: <value> (budget <value>)`, then the ratio against a baseline
timed in the same run: one scripted resolution of the same scenario, so the ratio says how
many whole runs a forecast costs and a slow or busy machine shows as a slow baseline too.
Exits 1 when a forecast is over its budget or is not exact; the budget stretches when the
baseline runs slower than on the idle development machine (as in bench_engine.py).
"""

from __future__ import annotations

import json
import sys
import time
import timeit
from pathlib import Path

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
    over = []
    loaded = {name: load_scenario(json.loads((SCENARIOS / file).read_text(encoding="utf-8")))
              for name, file, _ in CASES}
    reference = scripted_run_seconds(loaded["w6_goblins_vs_elves"])
    slowdown = max(1.0, reference / IDLE_BASELINE)
    print(f"bench baseline_scripted_run_goblins: {reference * 1e3:.2f} ms (reference, no "
          f"budget; this machine runs {slowdown:.2f}x slower than idle)")
    for name, _, budget in CASES:
        scenario = loaded[name]
        baseline = scripted_run_seconds(scenario)
        resolution = scenario.resolution()
        best, result = float("inf"), None
        for _ in range(3 if budget < 1 else 1):  # best of three where it is cheap
            started = time.perf_counter()
            result = forecast(resolution, budget_seconds=budget * slowdown)
            best = min(best, time.perf_counter() - started)
        assert result is not None
        how = (f"exact, {result.leaves} leaves" if result.exact
               else f"NOT exact: a sample of {result.samples} runs, the tree being too "
                    f"large for {budget * slowdown:.2f} s")
        print(f"bench forecast_{name}: {best * 1e3:.0f} ms (budget {budget * 1e3:g} ms, "
              f"exact) ratio {best / baseline:.0f}x one scripted run "
              f"({baseline * 1e3:.2f} ms), {best / budget:.0%} of budget; {how}")
        if not result.exact or best > budget * slowdown:
            over.append(name)
    if over:
        print(f"over budget: {', '.join(over)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
