"""Store benchmarks (DESIGN.md budgets). Not part of the unit tests: run

    python tests/bench/bench_store.py

1. Save + reload a 200-unit army through the store, against plain `sqlite3` writing and
   reading the same rows (same JSON, same WAL settings, one transaction) in the same run:
   the ratio must stay <= 3.
2. Listing 1,000 armies (of 20 units each) must take < 100 ms.
Prints report.py's lines; exits 1 when a budget is broken.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from report import Report

from desktop.engine.codec import profile_to_json
from desktop.engine.model import Army, TroopType, Unit, UnitProfile
from desktop.store.store import Store

RATIO_BUDGET = 3.0
LIST_BUDGET = 0.100
STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def make_army(units: int, name: str = "Bench", player: str = "Bench") -> Army:
    """An army of `units` regiments of 20 (150 points and more each), as the benches use."""
    return Army(name=name, player=player, ruleset="warhammer6", points_limit=3000,
                units=tuple(
                    Unit(id=f"u{i}", name=f"Regiment {i}", player="Bench",
                         profile=UnitProfile(f"Profile {i}", {**STATS, "Ld": 5 + i % 5},
                                             troop_type=list(TroopType)[i % 3],
                                             base=(0.8, 0.8),
                                             special_rules=frozenset({"stubborn"})),
                         models=20, files=5, upgrades=frozenset({"standard", "musician"}),
                         points=150 + i, slot="Core", notes=("Hand weapon, shield",))
                    for i in range(units)))


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    """Median of interleavable single runs: robust to a busy host's spikes."""
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


class RawSqlite:
    """What the store does for an army, written by hand on the sqlite3 module."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode = WAL")
        self.connection.execute("PRAGMA synchronous = NORMAL")
        self.connection.execute(
            "CREATE TABLE entry (army_id TEXT, position INTEGER, unit_id TEXT, name TEXT, "
            "profile TEXT, models INTEGER, files INTEGER, upgrades TEXT, "
            "character_wounds INTEGER, points INTEGER, slot TEXT, notes TEXT, "
            "PRIMARY KEY (army_id, position))")

    def save_and_load(self, army: Army) -> list[tuple[object, ...]]:
        cursor = self.connection
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("DELETE FROM entry WHERE army_id = ?", ("bench",))
        cursor.executemany("INSERT INTO entry VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", [
            ("bench", i, u.id, u.name, json.dumps(profile_to_json(u.profile)), u.models,
             u.files, json.dumps(sorted(u.upgrades)), u.character_wounds, u.points, u.slot,
             json.dumps(list(u.notes))) for i, u in enumerate(army.units)])
        cursor.execute("COMMIT")
        return [(*row[:4], json.loads(row[4]), row[5], row[6], json.loads(row[7]), *row[8:11],
                 json.loads(row[11]))
                for row in cursor.execute("SELECT * FROM entry WHERE army_id = ? ORDER BY "
                                          "position", ("bench",))]


def main() -> int:
    report = Report("store")
    with tempfile.TemporaryDirectory() as folder:
        army = make_army(200)
        raw = RawSqlite(Path(folder) / "raw.sqlite")
        with Store.open(f"sqlite:///{folder}/rout.sqlite") as store:
            saved = store.save_army(army)

            def through_store() -> Army:
                nonlocal saved
                saved = store.save_army(saved)  # each save starts from the one before
                return store.load_army(saved.id)

            assert through_store() == saved
            assert len(raw.save_and_load(army)) == 200
            # Alternate the two so that both see the same machine.
            store_times, raw_times = [], []
            for _ in range(15):
                store_times.append(median_seconds(through_store, 3))
                raw_times.append(median_seconds(lambda: raw.save_and_load(army), 3))
            ours, baseline = statistics.median(store_times), statistics.median(raw_times)
            report.ratio("save_load_200_units", ours / baseline, budget=RATIO_BUDGET,
                         details=f"{ours * 1e3:.1f} ms vs {baseline * 1e3:.1f} ms for raw "
                                 f"sqlite3 doing the same rows")

        with Store.open(f"sqlite:///{folder}/many.sqlite") as store:
            small = make_army(20)
            for index in range(1000):
                store.save_army(Army(f"Army {index:04}", small.player, small.ruleset,
                                     small.units, small.points_limit))
            listed = store.list_armies()
            assert len(listed) == 1000
            seconds = median_seconds(store.list_armies, 15)
            report.time("list_1000_armies", seconds, budget=LIST_BUDGET,
                        details="of 20 units each")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
