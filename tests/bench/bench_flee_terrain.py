"""Flee-through-terrain benchmark (issue "Reliability": a flee among 3,000 terrain pieces took
18 s). Run

    python tests/bench/bench_flee_terrain.py

A table strewn with 3,000 impassable pieces (rocks in a grid, some rotated) and a unit of
twenty that flees 2D6 from the enemy it touches, going round the rocks in its way
(`flee_around`: the gap rule, keep-away, the deflections tried in turn, a bent path). Each
sample is a fresh battle, so the terrain index is built inside the timing. Budget 100 ms;
prints the best of the samples, the ratio against a baseline timed in the same run (as
bench_engine.py) and for comparison the same flee against every obstacle (no index). Exits 1
over budget, the budget stretched on a machine whose baseline runs slower than the idle
development machine's.
"""

from __future__ import annotations

import math
import time

from report import Report

from desktop.engine import movement
from desktop.engine.geometry import Table
from desktop.engine.model import Battle, Terrain, Unit, UnitProfile, UnitState
from desktop.engine.movement import MovePlan, flee_around, gap_length

PIECES = 3000
COLUMNS = 60  # 50 rows of 60 rocks, 8" apart
SPACING = 8.0
BUDGET = 0.1
SAMPLES = 5
ROLLS = (4.0, 7.0, 11.0)  # 2D6 totals: short, middling, long


def rocks() -> tuple[Terrain, ...]:
    """3,000 impassable rocks, 3" x 2", every third one turned; a few not convex."""
    pieces = []
    for number in range(PIECES):
        row, column = divmod(number, COLUMNS)
        cx, cy = 4 + column * SPACING, 4 + row * SPACING
        angle = math.radians(30.0 * (number % 3))
        if number % 7 == 0:  # an L
            outline = [(-1.5, -1.0), (1.5, -1.0), (1.5, 0.0), (0.0, 0.0), (0.0, 1.0),
                       (-1.5, 1.0)]
        else:
            outline = [(-1.5, -1.0), (1.5, -1.0), (1.5, 1.0), (-1.5, 1.0)]
        cos, sin = math.cos(angle), math.sin(angle)
        points = tuple((cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in outline)
        pieces.append(Terrain(f"rock{number}", f"Rock {number}", points, impassable=True))
    return tuple(pieces)


def battle() -> Battle:
    """The rocks, a unit of twenty in the middle of the table and the enemy in its front."""
    profile = UnitProfile("Spearmen", {"M": 4, "Ld": 7})
    width, depth = COLUMNS * SPACING, PIECES // COLUMNS * SPACING
    # Between rocks: rows of rocks at 4 + 8k, so the unit (5" x 4") stands at a row's gap.
    x, y = 4 + 30 * SPACING, 8 + 25 * SPACING
    roster = {"runners": Unit("runners", "Runners", "Empire", profile, models=20, files=5),
              "chasers": Unit("chasers", "Chasers", "Orcs", profile, models=20, files=5)}
    states = {"runners": UnitState("runners", (x, y), 90.0, files=5, models=20),
              "chasers": UnitState("chasers", (x, y + 4.0), 270.0, files=5, models=20)}
    return Battle("warhammer6", Table(width, depth), roster, states, rocks())


def flee(on: Battle, roll: float) -> MovePlan:
    """What a failed break test does: flee the roll from the enemy, round what is in the
    way, keeping 4" from other enemies (W6-FL-3 to W6-FL-5)."""
    heading = movement.heading_away(on, "runners", on.states["chasers"].center)
    return flee_around(on, "runners", heading, gap_length(on, "runners", "chasers", roll),
                       keep_away=4.0, ignore=frozenset({"chasers"}))


def timed(roll: float) -> tuple[float, MovePlan]:
    fresh = battle()  # a new battle and new rocks: the terrain index is built in the time
    started = time.perf_counter()
    plan = flee(fresh, roll)
    return time.perf_counter() - started, plan


def main() -> int:
    report = Report("flee_terrain")
    reference, stretch = report.baseline_2d6()
    plans = {}
    for roll in ROLLS:
        took, plan = min((timed(roll) for _ in range(SAMPLES)), key=lambda found: found[0])
        plans[roll] = plan
        report.time(f"flee_{PIECES}_terrain_pieces_roll_{roll:g}", took, budget=BUDGET,
                    stretch=stretch, baseline=reference,
                    details=f"travelled {plan.travelled:.2f}, bends {len(plan.bends)}, "
                            f"blocked by {plan.blocked_by or 'nothing'}")
    movement.INDEXED = False  # the old way, for comparison: every obstacle, every pose
    try:
        roll = ROLLS[-1]
        took, plan = timed(roll)
        assert plan == plans[roll], "the indexed flee must be the flee against every obstacle"
        report.time(f"flee_{PIECES}_terrain_pieces_no_index_roll_{roll:g}", took,
                    baseline=reference, details="every obstacle for every pose")
    finally:
        movement.INDEXED = True
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
