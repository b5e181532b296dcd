"""Fitting the roster's columns to a big army. Not part of the unit tests: run

    QT_QPA_PLATFORM=offscreen python tests/bench/bench_roster.py

The columns are fitted whenever an army is shown or units arrive in an empty one. Against
the baseline of Qt measuring every row (QTableView.sizeHintForColumn for each column, how
the fit used to work, timed in the same run), RosterColumns.fit measures only each column's
widest texts: on an army of 200 units it must take at most a quarter of the baseline. Both
give the same widths (tests/test_gui_roster_layout.py). Exits 1 over budget.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_store import make_army
from report import Report
from window_fixture import open_window

from desktop.gui import app
from desktop.store.store import Store

UNITS = 200
RUNS = 7
RATIO_BUDGET = 0.25


def main() -> int:
    report = Report("roster")
    with tempfile.TemporaryDirectory(prefix="rout-bench-roster-") as folder:
        url = f"sqlite:///{Path(folder) / 'rout.sqlite'}"
        with Store.open(url) as store:
            store.save_army(make_army(UNITS, "Big", player="Ann"))
        qt, window, problem = open_window(url)
        if problem:
            print(f"bench roster: {problem}", file=sys.stderr)
            return 1
        army = window.find_army("Big")
        assert army is not None
        window.select_army(army.id)
        qt.processEvents()
        columns, view = window.roster_columns, window.ui.rosterTable
        assert columns is not None and window.roster_model is not None
        sections = range(window.roster_model.columnCount())
        ours, every_row = [], []
        for _ in range(RUNS):
            start = time.perf_counter()
            columns.fit()
            ours.append(time.perf_counter() - start)
            start = time.perf_counter()
            for section in sections:
                view.sizeHintForColumn(section)
            every_row.append(time.perf_counter() - start)
        app._close(window)
    fit, baseline = statistics.median(ours), statistics.median(every_row)
    report.ratio(f"column_fit_{UNITS}_units", fit / baseline, budget=RATIO_BUDGET,
                 details=f"{fit * 1e3:.1f} ms vs {baseline * 1e3:.1f} ms for Qt measuring "
                         f"every row (median of {RUNS})")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
