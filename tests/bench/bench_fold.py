"""Replay benchmark: folding 100,000 events takes < 2 s, however many flags a unit carries.

    python tests/bench/bench_fold.py

A battle of 2,000 units (bench_moves.py's grid, every footprint worked out as a drawn battle
has them) folds
1. 100,000 events of a long game: moves, wheels, combats joined and left, casualties,
   modifiers, flags, and a new turn every 1,000 events;
2. 100,000 events on one unit that carries 50,000 flags (a battle from before Rout limited
   them): joining and leaving a combat, a flag it already has, moves. Each event copied the
   whole set: 45 s.
Prints `bench <name>: ...` lines with the ratio against a baseline timed in the same run, as
bench_engine.py; exits 1 over budget, the budget stretched on a machine whose baseline runs
slower than the idle development machine's.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import replace

from bench_moves import UNITS
from bench_moves import grid_battle as moves_grid_battle
from report import Report

from desktop.engine.events import (
    CasualtiesRemoved,
    Event,
    FlagSet,
    ModifierApplied,
    TurnBegan,
    UnitMoved,
    UnitsDisengaged,
    UnitsEngaged,
    UnitWheeled,
    fold,
)
from desktop.engine.model import Battle

EVENTS = 100_000
FLAGS = 50_000
BUDGET = 2.0


def grid_battle() -> Battle:
    """Two armies of 1,000 units facing each other, 10" apart, footprints worked out."""
    battle = moves_grid_battle(models=30)
    for uid in battle.roster:
        battle.footprint(uid)
    return battle


def long_game(battle: Battle) -> list[Event]:
    """A stream of the events a long game makes, spread over the whole table."""
    events: list[Event] = []
    turn = battle.turn
    for number in itertools.count():
        if len(events) >= EVENTS:
            break
        uid = f"u{number * 37 % UNITS}"
        enemy = f"u{(number * 37 + UNITS // 2) % UNITS}"
        x, y = battle.states[uid].center
        step = 0.01 * (number % 7)
        kind = number % 10
        if kind < 4:
            events.append(UnitMoved(uid, 0, ((x, y), (x, y + step)), 90.0))
        elif kind == 4:
            events.append(UnitWheeled(uid, "left", 1.0))
        elif kind == 5:
            events.append(UnitsEngaged(uid, enemy))
        elif kind == 6:
            events.append(UnitsDisengaged(uid, enemy))
        elif kind == 7:
            events.append(CasualtiesRemoved(uid, 0, center=(x, y)))
        elif kind == 8:
            events.append(ModifierApplied(uid, "Ld", -1, turn, "nearby rout"))
        else:
            events.append(FlagSet(uid, "turn:ran_from_charge"))
        if len(events) % 1000 == 0:
            turn += 1
            events.append(TurnBegan(turn))
    return events[:EVENTS]


def flagged_unit(battle: Battle) -> tuple[Battle, list[Event]]:
    state = battle.states["u0"]
    flags = frozenset(f"mark {i}" for i in range(FLAGS))
    battle = battle.with_state(replace(state, flags=flags))
    x, y = state.center
    cycle: list[Event] = [UnitsEngaged("u0", "u1999"), UnitsDisengaged("u0", "u1999"),
                          FlagSet("u0", "mark 7"), UnitMoved("u0", 0, ((x, y), (x, y)), 90.0)]
    return battle, [cycle[i % len(cycle)] for i in range(EVENTS)]


def seconds(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> int:
    report = Report("fold")
    reference, stretch = report.baseline_2d6()
    battle = grid_battle()
    flagged, flag_events = flagged_unit(battle)
    for name, start, events in (("fold_100000_events_2000_units", battle, long_game(battle)),
                                ("fold_100000_events_unit_with_50000_flags", flagged,
                                 flag_events)):
        took = min(seconds(lambda start=start, events=events: fold(start, events))
                   for _ in range(3))
        report.time(name, took, budget=BUDGET, stretch=stretch, baseline=reference,
                    details=f"{took / len(events) * 1e6:.1f} µs per event")
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
