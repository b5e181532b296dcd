"""BattleScribe game data benchmarks (issue 22's budgets). Run

    python tests/bench/bench_bsdata.py

1. Cost grows with the data, not its square: a made-up catalogue ten times larger (more
   units, each with its options and links) is read and indexed in at most 12 times the time;
   so is one with ten times as many broken links (a warning each), and selecting a unit
   whose minimums fill ten times as many selections takes at most 12 times as long.
2. The engine on an army of about 2,000 points (18 units of the made-up catalogue of 1.): one
   roster action (select a unit, with what it must hold) in at most 20 ms, a full
   validation in at most 50 ms.
3. With the shared data (../shared/data/bsdata; skipped when absent): storing all of it in a
   new SQLite database in at most 10 s, storing the same files again in at most 1 s, and
   `rout data units` figures for the largest catalogue in at most 1 s; and `rout data add`
   of all of it as a player runs it (a new process, a new database: start-up, migrations,
   reading, storing) in at most 10 s with at most 500 MB of memory at its peak.

Prints report.py's lines; the budgets stretch on a machine slower than the idle one.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from report import Report

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.evaluate import Evaluation
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.reader import read_data_file
from desktop.engine.bsdata.units import catalogue_units
from desktop.store.gamedata import add_data, collect, list_data, load_game_data
from desktop.store.store import Store

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
sys.path.insert(0, str(TESTS))

from bsdata_samples import sample_data  # noqa: E402  (tests/bsdata_samples.py)

BSDATA = REPO.parent / "shared" / "data" / "bsdata"
MEMORY_BUDGET_MB = 500
# `rout data add` as a player runs it, writing last its peak resident memory (Linux).
PEAK_OF_CLI = """import sys
from desktop.cli import main
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    sys.stderr.write(next(line for line in status if line.startswith("VmHWM:")))
sys.exit(code)
"""
GST = """<?xml version="1.0"?>
<gameSystem id="gs" name="Bench" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts"/></costTypes>
  <categoryEntries><categoryEntry id="core" name="Core"/></categoryEntries>
  <forceEntries><forceEntry id="army" name="Army">
    <categoryLinks><categoryLink id="l-core" targetId="core"/></categoryLinks>
  </forceEntry></forceEntries>
  <sharedSelectionEntries>
    <selectionEntry id="shield" name="Shield" type="upgrade">
      <costs><cost name="pts" typeId="pts" value="1"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</gameSystem>"""
UNIT = """
    <selectionEntry id="u{i}" name="Unit {i}" type="unit">
      <categoryLinks><categoryLink id="c{i}" targetId="core" primary="true"/></categoryLinks>
      <selectionEntries>
        <selectionEntry id="m{i}" name="Warrior {i}" type="model">
          <constraints>
            <constraint id="min{i}" type="min" value="10" field="selections" scope="parent"/>
            <constraint id="max{i}" type="max" value="40" field="selections" scope="parent"/>
          </constraints>
          <costs><cost name="pts" typeId="pts" value="5"/></costs>
        </selectionEntry>
        <selectionEntry id="s{i}" name="Spears {i}" type="upgrade">
          <modifiers><modifier type="increment" field="pts" value="1"><repeats>
            <repeat field="selections" scope="parent" value="1" repeats="1" childId="model"/>
          </repeats></modifier></modifiers>
          <costs><cost name="pts" typeId="pts" value="0"/></costs>
        </selectionEntry>
      </selectionEntries>
      <entryLinks>
        <entryLink id="ls{i}" name="Shield" targetId="shield" type="selectionEntry">
          <constraints>
            <constraint id="lmin{i}" type="min" value="1" field="selections" scope="parent"/>
          </constraints>
        </entryLink>
      </entryLinks>
    </selectionEntry>"""


BROKEN = """
    <selectionEntry id="b{i}" name="Broken {i}" type="unit">
      <entryLinks>
        <entryLink id="bl{i}" name="Gone {i}" targetId="gone{i}" type="selectionEntry"/>
      </entryLinks>
    </selectionEntry>"""


# A unit whose minimum of models, each with a spear it must have, is filled when it is
# selected: {n} warriors and {n} spears, every one a selection of its own.
HORDE = """<?xml version="1.0"?>
<catalogue id="cat" name="Horde" revision="1" gameSystemId="gs"
    xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="horde" name="Horde" type="unit">
      <selectionEntries>
        <selectionEntry id="warrior" name="Warrior" type="model">
          <constraints>
            <constraint id="w-min" type="min" value="{n}" field="selections" scope="parent"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="spear" name="Spear" type="upgrade">
              <constraints>
                <constraint id="s-min" type="min" value="1" field="selections" scope="parent"/>
              </constraints>
            </selectionEntry>
          </selectionEntries>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"""


def horde_selected(models: int) -> Callable[[], object]:
    data = sample_data(HORDE.format(n=models), system=GST)
    roster, force = actions.add_force(data, actions.new_roster("Bench"), "army", "cat")
    return lambda: actions.select_entry(data, roster, force, "horde")


def catalogue(units: int, broken: int = 0) -> bytes:
    body = "".join(UNIT.format(i=i) for i in range(units)) + "".join(
        BROKEN.format(i=i) for i in range(broken))
    return ('<?xml version="1.0"?><catalogue id="cat" name="Bench Army" revision="1" '
            'gameSystemId="gs" xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
            f"<selectionEntries>{body}</selectionEntries></catalogue>").encode()


def best(work: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def read_and_index(content: bytes) -> GameData:
    data = sample_data(content, system=GST)
    data.all_problems()
    return data


def main() -> int:
    report = Report("bsdata")
    _, stretch = report.baseline_2d6()
    small, large = catalogue(200), catalogue(2000)
    small_seconds = best(lambda: read_and_index(small))
    base = report.time("read_index_200_units", small_seconds)
    large_seconds = best(lambda: read_and_index(large))
    report.ratio("read_index_10x_larger", large_seconds / small_seconds, budget=12.0,
                 details=f"{large_seconds * 1000:.0f} ms vs {base.value * 1000:.0f} ms")

    # Warnings grow with the data too: one per broken link, each found in its file once
    # (the files read beforehand: what is timed is finding the links and wording them).
    system = read_data_file(GST.encode(), "bench.gst")
    few, many = (read_data_file(catalogue(0, n), "bench.cat") for n in (4000, 40000))
    few_seconds = best(lambda: GameData(system, [few]).all_problems())
    base = report.time("index_4000_broken_links", few_seconds)
    many_seconds = best(lambda: GameData(system, [many]).all_problems())
    report.ratio("index_10x_more_broken_links", many_seconds / few_seconds, budget=12.0,
                 details=f"{many_seconds * 1000:.0f} ms vs {base.value * 1000:.0f} ms")

    # Filling minimums grows with what is filled: 400 selections, then 4,000.
    few_seconds = best(horde_selected(200))
    base = report.time("auto_select_400_selections", few_seconds)
    many_seconds = best(horde_selected(2000))
    report.ratio("auto_select_10x_more", many_seconds / few_seconds, budget=12.0,
                 details=f"{many_seconds * 1000:.0f} ms vs {base.value * 1000:.0f} ms")

    data = read_and_index(catalogue(40))
    roster, force = actions.add_force(data, actions.new_roster("Bench"), "army", "cat")
    for i in range(18):  # 18 units of 20 warriors with spears: 2,160 points
        roster, unit = actions.select_entry(data, roster, force, f"u{i}")
        warriors = next(s for s in actions.forces_of(roster)[0].selections
                        if s.id == unit).children[0]
        roster = actions.set_count(roster, warriors.id, 20)
        roster, _ = actions.select_entry(data, roster, force, f"s{i}", unit)
    points = Evaluation(data, roster).totals()["pts"]
    assert points >= Decimal(2000), points
    report.time("roster_action_2000_points",
                best(lambda: actions.select_entry(data, roster, force, "u30"), 7),
                budget=0.020 * stretch, details=f"{points} pts, select a unit")
    report.time("validation_2000_points", best(lambda: Evaluation(data, roster).errors(), 7),
                budget=0.050 * stretch, details=f"{points} pts")

    if not BSDATA.is_dir():
        print(f"bsdata: no shared data at {BSDATA}; the data-store figures are not measured")
        return report.finish()
    inputs = collect([BSDATA / "lexicanum", BSDATA / "ergofarg"])
    with tempfile.TemporaryDirectory() as folder, \
            Store.open(f"sqlite:///{Path(folder) / 'bench.sqlite'}") as store:
        start = time.perf_counter()
        stored = add_data(store, inputs)
        report.time("data_add_all_shared", time.perf_counter() - start,
                    budget=10.0 * stretch, details=f"{len(stored.stored)} files")
        start = time.perf_counter()
        again = add_data(store, inputs)
        report.time("data_add_all_again", time.perf_counter() - start,
                    budget=1.0 * stretch, details=f"{len(again.unchanged)} unchanged")
        largest = max((d for d in list_data(store) if d.kind == "catalogue"
                       and not d.library), key=lambda d: d.size)

        def units() -> object:
            loaded = load_game_data(store, largest.game_system_id, largest.id)
            return catalogue_units(loaded, largest.id)
        report.time("data_units_largest", best(units, 1), budget=1.0 * stretch,
                    details=f"{largest.file_name}, {largest.size} bytes")
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", PEAK_OF_CLI, "data", "add", str(BSDATA / "lexicanum"),
                   str(BSDATA / "ergofarg"), "--database",
                   f"sqlite:///{Path(folder) / 'cli.sqlite'}"]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, cwd=REPO, check=False)
        seconds = time.perf_counter() - start
        # The child's own high-water mark, which it writes last (ru_maxrss of a child
        # carries over the peak of this process, which started it).
        *_, peak_line = done.stderr.decode(errors="replace").splitlines() or [""]
        measured = peak_line.startswith("VmHWM:")
        peak_mb = int(peak_line.split()[1]) / 1024 if measured else 0.0
        failed = (f"exit {done.returncode}: {done.stderr.decode(errors='replace').strip()}"
                  if done.returncode else
                  "no peak memory reported (/proc/self/status)" if not measured else
                  f"peak memory {peak_mb:.0f} MB over {MEMORY_BUDGET_MB} MB"
                  if peak_mb > MEMORY_BUDGET_MB else "")
        report.time("data_add_all_shared_cli", seconds, budget=10.0 * stretch, failed=failed,
                    details=f"peak memory {peak_mb:.0f} MB (budget {MEMORY_BUDGET_MB} MB)")
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
