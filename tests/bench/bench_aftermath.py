"""Aftermath benchmark (DESIGN.md: an aftermath with 1,000 units < 1 s). Run

    python tests/bench/bench_aftermath.py

1. One combat (resources/scenarios/w6-four-units.json, its dice) in the middle of a table of
   1,000 units: reading the scenario, resolving it and folding its events, as `rout
   resolve` does (without writing the JSON). Budget 1 s.
2. For reference, no budget: 500 combats on a table of 1,000 units (every unit fights; the
   dice from a seed), at 100, 500 and 1,000 units. Nearly all of its time is in
   desktop/engine/movement.py, which tests each candidate pose of every flee and pursuit
   against every unit on the table; everything else asks the spatial index.
Prints `bench <name>: ...` lines with the ratio against a baseline timed in the same run, as
bench_engine.py; exits 1 over budget, the budget stretched on a machine whose baseline runs
slower than the idle development machine's.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from report import Report

from desktop.engine.dice import ScriptedRoller, SeededRoller
from desktop.engine.events import fold
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[2] / "resources" / "scenarios" / "w6-four-units.json"
UNITS = 1000
BUDGET = 1.0
STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
COLUMNS = 40


def one_combat_among(units: int) -> dict[str, Any]:
    """The four-units combat in the middle of a grid of bystanders 12" apart, both sides."""
    data: dict[str, Any] = json.loads(SCENARIO.read_text(encoding="utf-8"))
    rows = (units - 4) // COLUMNS + 3
    width, depth = COLUMNS * 12 + 12, rows * 12 + 12
    data["table"] = {"width": width, "depth": depth}
    cx, cy = width / 2, depth / 2
    for unit in data["units"]:
        unit["position"] = [unit["position"][0] - 36 + cx, unit["position"][1] - 24 + cy]
    slots = ((6 + column * 12, 6 + row * 12, row) for row in range(rows)
             for column in range(COLUMNS))
    free = ((x, y, row) for x, y, row in slots if abs(x - cx) >= 14 or abs(y - cy) >= 14)
    for number, (x, y, row) in zip(range(units - 4), free, strict=False):
        data["units"].append({
            "id": f"f{number}", "name": f"Bystanders {number}",
            "player": "Empire" if number % 2 else "Orcs & Goblins", "profile": dict(STATS),
            "base_mm": [20, 20], "models": 10, "files": 5, "position": [x, y],
            "facing": 0 if row % 2 else 180})
    return data


def every_unit_fighting(units: int) -> dict[str, Any]:
    """`units` / 2 combats of two units of ten, front to front, in rows 9" and 12" apart."""
    columns, depth_in = 20, 20 * 2 / 25.4
    pairs = units // 2
    placed, combats = [], []
    for pair in range(pairs):
        row, column = divmod(pair, columns)
        x, y = 5 + column * 9, 5 + row * 12
        for uid, player, y_at, facing in ((f"a{pair}", "Orcs", y, 90),
                                          (f"b{pair}", "Men", y + depth_in, 270)):
            placed.append({"id": uid, "name": uid, "player": player, "profile": dict(STATS),
                           "base_mm": [20, 20], "models": 10, "files": 5,
                           "position": [x, y_at], "facing": facing})
        combats.append({"id": f"c{pair}", "sides": [
            {"units": [{"unit": f"a{pair}", "wounds_caused": pair * 7 % 5,
                        "casualties": pair * 3 % 4}]},
            {"units": [{"unit": f"b{pair}", "wounds_caused": pair * 5 % 5,
                        "casualties": pair * 2 % 4}]}]})
    return {"format": "rout-scenario", "version": 1, "title": f"{units} units fighting",
            "ruleset": "warhammer6",
            "table": {"width": columns * 9 + 10, "depth": -(-pairs // columns) * 12 + 10},
            "units": placed, "resolve": {"procedure": "combat_aftermath", "combats": combats}}


def resolve(data: dict[str, Any], seed: int | None = None) -> tuple[float, int]:
    """Seconds to read, resolve and fold, as `rout resolve`; and the events made."""
    started = time.perf_counter()
    scenario = load_scenario(data)
    roller = SeededRoller(seed) if seed is not None else ScriptedRoller(scenario.dice)
    session = run(scenario.start(), ScriptedAnswers(roller, scenario.choices))
    assert session.events is not None
    fold(scenario.battle, session.events)
    return time.perf_counter() - started, len(session.events)


def main() -> int:
    report = Report("aftermath")
    reference, stretch = report.baseline_2d6()
    data = one_combat_among(UNITS)
    assert len(data["units"]) == UNITS
    one, events = min(resolve(data) for _ in range(3))
    report.time(f"one_combat_{UNITS}_units", one, budget=BUDGET, stretch=stretch,
                baseline=reference, details=f"{events} events")
    for units in (100, 500, UNITS):
        took, events = resolve(every_unit_fighting(units), seed=1)
        report.time(f"every_unit_fighting_{units}_units", took, baseline=reference,
                    details=f"movement.py tests every unit; {events} events")
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
