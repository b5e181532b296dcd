"""Import benchmarks: big files within the limits cost time in proportion to their size. Run

    python tests/bench/bench_import.py

1. A BattleScribe roster whose one unit carries 20,000 profiles (3.6 MB) imports in < 2 s
   (it took 40 s when each profile was looked up in a list of all of them).
2. For reference, no budget: a roster of 20 MB, at the size limit, of upgrade selections.
3. A Rout JSON army of 20 MB whose `units` list holds ten million items is refused by its
   count in < 10 ms once parsed (it built a reader per item first: 20 s and 1.9 GB); the
   whole read, parsing included, is printed for reference.

Prints `bench <name>: ...` lines with the ratio against a baseline timed in the same run, as
bench_engine.py; exits 1 over budget, the budget stretched on a machine whose baseline runs
slower than the idle development machine's.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import quoteattr

from report import Report

from desktop.engine.codec import army_from_json
from desktop.engine.errors import ScenarioError
from desktop.store.battlescribe import MAX_ROSTER_BYTES, read_ros
from desktop.store.errors import BadFileError
from desktop.store.files import MAX_INPUT_BYTES, parse_json
from desktop.store.transfer import read_army_file

PROFILES = 20_000
PROFILES_BUDGET = 2.0
REFUSAL_BUDGET = 10e-3
W6_GAME = "Warhammer Fantasy Battles (6th definitive edition)"


def roster(unit_body: str) -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8"?><roster name="Bench" '
            f'gameSystemName={quoteattr(W6_GAME)}><forces><force name="Main"><selections>'
            f'<selection name="Horde" type="unit" number="1">{unit_body}</selection>'
            "</selections></force></forces></roster>").encode()


def models(number: int) -> str:
    return (f'<selections><selection name="Orc" type="model" number="{number}">'
            '<costs><cost name="pts" value="50"/></costs></selection>')


def many_profiles(count: int) -> bytes:
    """One unit with `count` profiles of its own, each with two statistics (a champion)."""
    profile = ('<profile name="Champion {i}" typeName="Profile"><characteristics>'
               '<characteristic name="M">4</characteristic>'
               '<characteristic name="Ld">7</characteristic></characteristics></profile>')
    body = "".join(profile.format(i=i) for i in range(count))
    return roster(f"<profiles>{body}</profiles>{models(10)}</selections>")


def upgrades_up_to(size: int) -> bytes:
    """One unit with as many one-point upgrades as fit in `size` bytes."""
    upgrade = ('<selection name="Sword" type="upgrade" number="1">'
               '<costs><cost name="pts" value="1"/></costs></selection>')
    count = (size - len(roster(models(10) + "</selections>"))) // len(upgrade)
    return roster(models(10) + upgrade * count + "</selections>")


def huge_units_list() -> bytes:
    """A Rout JSON army of nearly MAX_INPUT_BYTES whose `units` list is all zeros."""
    head = {"format": "rout-army", "version": 1, "name": "Horde", "player": "Bench",
            "ruleset": "warhammer6"}
    text = json.dumps({**head, "units": []}, separators=(",", ":"))
    count = (MAX_INPUT_BYTES - len(text)) // 2  # "0," each
    return text.replace('"units":[]', '"units":[' + ",".join("0" * count) + "]").encode()


def refuse(work: Callable[[], object], error: type[Exception]) -> None:
    try:
        work()
    except error:
        return
    raise AssertionError("the huge list was read")


def seconds(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def main() -> int:
    report = Report("import")
    reference, stretch = report.baseline_2d6()

    data = many_profiles(PROFILES)
    imported = read_ros(data, "profiles.ros")
    assert len(imported.army.units) == 1
    took = min(seconds(lambda: read_ros(data, "profiles.ros")) for _ in range(3))
    report.time(f"battlescribe_{PROFILES}_profiles", took, budget=PROFILES_BUDGET,
                stretch=stretch, baseline=reference, details=f"{len(data) / 1e6:.1f} MB")

    data = upgrades_up_to(MAX_ROSTER_BYTES)
    took = seconds(lambda: read_ros(data, "upgrades.ros"))
    report.time("battlescribe_size_limit_of_upgrades", took, baseline=reference,
                details=f"{len(data) / 1e6:.1f} MB")

    data = huge_units_list()
    document = parse_json(data, "huge.json")
    took = min(seconds(lambda: refuse(lambda: army_from_json(document), ScenarioError))
               for _ in range(5))
    report.time("rout_json_units_list_refused", took, budget=REFUSAL_BUDGET, stretch=stretch,
                baseline=reference,
                details=f"{len(document['units']):,} items, once parsed")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "huge.json"
        path.write_bytes(data)
        took = seconds(lambda: refuse(lambda: read_army_file(path), BadFileError))
    report.time("rout_json_units_list_file_refused", took, baseline=reference,
                details=f"{len(data) / 1e6:.1f} MB read and parsed")
    return report.finish()


if __name__ == "__main__":
    raise SystemExit(main())
