"""Opening a big database (the Reliability issue's budget). Not part of the unit tests: run

    python tests/bench/bench_database_open.py [--gigabytes N]

What `rout armies` does (open the store, list the armies, close it) on a Rout SQLite file of
about 1 MB (50 armies of 50 units), and on the same file grown to about 1 GB by a battle
with a long log (1 MB events, written by SQLite itself in one transaction, so generating it
takes seconds). The opens are interleaved so that both see the same machine, and the
medians are compared: the big file must open within 2x the small one. Start-up reads what it
needs (header, schema, revision), never every page; that is `rout check-database`.

The files live in a temporary folder, deleted at the end. Exits 1 when over budget.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bench_store import make_army
from report import Report

from desktop.engine.setup import new_battle
from desktop.store.sqlite_file import full_check
from desktop.store.store import Store

RATIO_BUDGET = 2.0
ARMIES = 50
UNITS_PER_ARMY = 50
EVENT_BYTES = 1_000_000  # the hex text of one filler event
RUNS = 25


def small_database(path: Path) -> None:
    with Store.open(f"sqlite:///{path}") as store:
        armies = [store.save_army(replace(make_army(UNITS_PER_ARMY, f"Army {index:02}"),
                                          player=f"Player {index % 2}"))
                  for index in range(ARMIES)]
        assert len(store.list_armies()) == ARMIES
        store.create_battle(new_battle(armies[0].ruleset, armies[:2]).battle, "Long")


def grow(path: Path, gigabytes: float) -> None:
    """About `gigabytes` more: one battle's events, each a 1 MB JSON text. Written without
    a journal (a scratch file), then put back in WAL mode as Rout keeps it."""
    events = int(gigabytes * 1e9 / EVENT_BYTES)
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode = DELETE")
        connection.execute("PRAGMA synchronous = OFF")
        battle = connection.execute("SELECT id FROM battle").fetchone()[0]
        connection.execute("BEGIN")
        connection.execute(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO battle_event (battle_id, sequence, step, kind, data) "
            "SELECT ?, i, 1, 'Filler', json_object('kind', 'Filler', 'pad', "
            "hex(zeroblob(?))) FROM n", (events - 1, battle, EVENT_BYTES // 2))
        connection.execute("COMMIT")
        connection.execute("PRAGMA journal_mode = WAL")
    finally:
        connection.close()


def open_and_list(url: str) -> float:
    start = time.perf_counter()
    with Store.open(url) as store:
        listed = store.list_armies()
    seconds = time.perf_counter() - start
    assert len(listed) == ARMIES
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gigabytes", type=float, default=1.0)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="rout-bench-open-"))
    try:
        small, big = folder / "small.sqlite", folder / "big.sqlite"
        small_database(small)
        shutil.copyfile(small, big)
        start = time.perf_counter()
        grow(big, args.gigabytes)
        made = time.perf_counter() - start
        report = Report("database_open")
        report.time(f"generate_{args.gigabytes:g}_gb", made,
                    details=f"{big.stat().st_size / 1e9:.2f} GB; small file "
                            f"{small.stat().st_size / 1e6:.1f} MB")
        urls = {"small": f"sqlite:///{small}", "big": f"sqlite:///{big}"}
        timings: dict[str, list[float]] = {"small": [], "big": []}
        for _ in range(RUNS):
            for kind, url in urls.items():
                timings[kind].append(open_and_list(url))
        ours, baseline = statistics.median(timings["big"]), statistics.median(timings["small"])
        report.ratio("open_and_list_big_vs_small", ours / baseline, budget=RATIO_BUDGET,
                     details=f"{ours * 1e3:.1f} ms at {big.stat().st_size / 1e9:.2f} GB vs "
                             f"{baseline * 1e3:.1f} ms at {small.stat().st_size / 1e6:.1f} MB")
        start = time.perf_counter()
        assert full_check(big) == []
        report.time("check_every_page_big", time.perf_counter() - start,
                    details="as rout check-database does")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
