"""Player-move benchmark (DESIGN.md: a move check on a table of 2,000 units < 1 ms). Run

    python tests/bench/bench_moves.py

A 2,000-unit grid (two armies facing each other); each sample checks one player move (a
1-3" step, a wheel or a charge) with `moves.check`, which queries the spatial index. Prints
(report.py's format) the median against its budget and the ratio against a baseline timed
in the same run, and for comparison the same checks against every unit with no index (the
naive figure). Exits 1 over budget; a machine whose baseline runs slower than the idle
development machine gets the budget stretched by the same factor (see bench_engine.py).
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time
from collections.abc import Callable

from report import Report

from desktop.engine import moves, spatial
from desktop.engine.errors import MoveRefused
from desktop.engine.events import Event
from desktop.engine.geometry import Table, convex_overlap
from desktop.engine.model import Battle, Unit, UnitProfile, UnitState

UNITS = 2000
COLUMNS = 50  # 40 rows of 50 units, 10" apart
BUDGET = 1e-3
SAMPLES = 2000



def grid_battle(models: int = 10) -> Battle:
    """Two armies of UNITS // 2 units facing each other in a grid, 10" apart."""
    profile = UnitProfile("Spearmen", {"M": 4, "Ld": 7})
    roster, states = {}, {}
    for number in range(UNITS):
        row, column = divmod(number, COLUMNS)
        uid = f"u{number}"
        player = "North" if row >= UNITS // COLUMNS // 2 else "South"
        roster[uid] = Unit(uid, uid, player, profile, models=models, files=5)
        states[uid] = UnitState(uid, (5.0 + column * 10, 5.0 + row * 10),
                                270.0 if player == "North" else 90.0, files=5,
                                models=models)
    return Battle("warhammer6", Table(COLUMNS * 10, UNITS // COLUMNS * 10), roster, states)


def proposals(battle: Battle, rng: random.Random) -> list[Event]:
    """Moves a player might try: mostly steps, some wheels, a few charges at a neighbour."""
    found: list[Event] = []
    while len(found) < SAMPLES:
        number = rng.randrange(UNITS)
        uid, state = f"u{number}", battle.states[f"u{number}"]
        kind = rng.random()
        if kind < 0.7:
            x, y = state.center
            found.append(moves.UnitMoved(uid, 0, (state.center, (x + rng.uniform(-3, 3),
                                                                  y + rng.uniform(-3, 3))),
                                         state.facing))
        elif kind < 0.9:
            angle = rng.uniform(-45, 45) or 1.0
            found.append(moves.UnitWheeled(uid, "right" if angle > 0 else "left", angle))
        else:
            row = number // COLUMNS
            if row in (UNITS // COLUMNS // 2 - 1, UNITS // COLUMNS // 2):
                target = number + COLUMNS if row < UNITS // COLUMNS // 2 else number - COLUMNS
                end = moves.contact_pose(battle, uid, f"u{target}")
                found.append(moves.UnitCharged(uid, 0, (state.center, end.center), end.facing,
                                               target=f"u{target}", reached=True))
    return found


def check_all(battle: Battle, events: list[Event]) -> list[float]:
    timings = []
    for event in events:
        started = time.perf_counter()
        with contextlib.suppress(MoveRefused):
            moves.check(battle, event)
        timings.append(time.perf_counter() - started)
    return timings


def naive_all(battle: Battle, events: list[Event]) -> list[float]:
    """The final pose of each move against every unit, no index: what the index saves."""
    corners = {uid: battle.footprint(uid).corners for uid in battle.on_table()}
    timings = []
    for event in events:
        started = time.perf_counter()
        unit = getattr(event, "unit", "")
        own = battle.footprint(unit).corners
        any(convex_overlap(own, other) for uid, other in corners.items() if uid != unit)
        timings.append(time.perf_counter() - started)
    return timings


def best_of(work: Callable[[], list[float]], repeat: int = 3) -> float:
    return min(statistics.median(work()) for _ in range(repeat))


def main() -> int:
    battle = grid_battle()
    rng = random.Random(6)
    fresh = grid_battle()
    for uid in fresh.on_table():
        fresh.footprint(uid)  # footprints are cached per battle anyway; time the tree alone
    started = time.perf_counter()
    spatial.unit_index(fresh)
    build = time.perf_counter() - started
    events = proposals(battle, rng)
    accepted = 0
    for event in events:
        try:
            moves.check(battle, event)
            accepted += 1
        except MoveRefused:
            pass

    # A sequence of accepted moves: the index is handed on, rebuilt every few dozen moves.
    sequence = battle
    kept = 0
    started = time.perf_counter()
    for event in events[:500]:
        try:
            sequence = moves.check(sequence, event).apply_to(sequence)
            kept += 1
        except MoveRefused:
            pass
    per_step = (time.perf_counter() - started) / 500

    report = Report("moves")
    reference, stretch = report.baseline_2d6()
    median = best_of(lambda: check_all(battle, events))
    naive = best_of(lambda: naive_all(battle, events))
    report.time("move_check_2000_units_median", median, budget=BUDGET, stretch=stretch,
                baseline=reference, details=f"{accepted}/{len(events)} accepted")
    report.time("move_check_2000_units_naive_no_index", naive, baseline=reference,
                details=f"the final pose against every unit, {naive / median:.1f}x the "
                        f"indexed check")
    report.time("index_build_2000_units", build,
                details=f"once per battle and every ~{spatial.overlay_limit(UNITS)} moved "
                        f"units")
    report.time("check_and_apply_sequence_2000_units", per_step,
                details=f"per move; {kept}/500 accepted; mostly the spatial index's overlay "
                        f"of moved units, each checked directly until the tree is rebuilt")
    return report.finish()



if __name__ == "__main__":
    raise SystemExit(main())
