"""The benchmarks' report: one line format (tests/bench/report.py) and the runner that
gathers every bench's lines (tests/bench/runner.py), on fake benches: no real benchmark
runs in the test suite."""

from __future__ import annotations

import os
import shutil
import textwrap

import pytest
from bench import report as report_module
from bench import runner
from bench.report import Figure, Report, parse_line


def test_a_budgeted_time_within_its_budget():
    figure = Figure("engine", "break_test_odds", 12.13e-6, budget=50e-6, details="p95 14 µs")
    assert figure.line() == "bench engine.break_test_odds: 12.1 µs (budget 50 µs) ok; p95 14 µs"
    assert not figure.over


def test_units_follow_the_value_and_the_budget_each():
    assert Figure("e", "a", 0.35e-3, budget=1e-3).line() == "bench e.a: 350 µs (budget 1 ms) ok"
    assert Figure("e", "a", 2.345, budget=0.2).line() == "bench e.a: 2.35 s (budget 200 ms) OVER"


def test_a_ratio_over_its_budget():
    figure = Figure("store", "save_load", 3.214, unit="x", budget=3.0,
                    details="19.3 ms vs 6.01 ms raw sqlite3")
    assert figure.over
    assert figure.line() == ("bench store.save_load: 3.21x (budget 3x) OVER; "
                             "19.3 ms vs 6.01 ms raw sqlite3")


def test_a_stretched_budget_says_so_and_is_the_one_held_to():
    figure = Figure("e", "a", 60e-6, budget=50e-6, stretch=1.3)
    assert not figure.over
    assert figure.line() == "bench e.a: 60.0 µs (budget 50 µs, stretched to 65.0 µs) ok"
    assert Figure("e", "a", 60e-6, budget=50e-6, stretch=0.5).line() == (
        "bench e.a: 60.0 µs (budget 50 µs) OVER")


def test_a_reference_figure_and_the_ratio_to_a_baseline(capsys):
    report = Report("moves")
    baseline = report.time("baseline", 3.5e-6, details="as fast as idle")
    report.time("naive", 2.1e-3, baseline=baseline, details="no index")
    report.time("median", 0.5e-3, budget=1e-3, baseline=baseline)
    assert capsys.readouterr().out.splitlines() == [
        "bench moves.baseline: 3.50 µs (reference); as fast as idle",
        "bench moves.naive: 2.10 ms (reference); 600x baseline; no index",
        "bench moves.median: 500 µs (budget 1 ms) ok; 143x baseline",
    ]
    assert report.finish() == 0


def test_a_figure_can_fail_whatever_its_value():
    figure = Figure("forecast", "four_units", 0.5, budget=2.0, failed="not exact")
    assert figure.over
    assert figure.line() == "bench forecast.four_units: 500 ms (budget 2 s) OVER; not exact"


def test_finish_fails_a_bench_over_budget_and_names_the_figures(capsys):
    report = Report("store")
    report.time("list", 0.2, budget=0.1)
    report.ratio("ratio", 1.2, budget=3.0)
    assert report.finish() == 1
    assert capsys.readouterr().err == "over budget: store.list\n"
    assert Report("empty").finish() == 1


@pytest.mark.parametrize(("bad", "message"), [
    ({"name": "two words"}, "names are letters"),
    ({"failed": "why"}, "only a figure with a budget"),
    ({"details": "two\nlines"}, "one line"),
    ({"unit": "%"}, "unknown unit"),
])
def test_figures_that_would_not_read_back_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        Figure(**{"bench": "b", "name": "a", "value": 1.0, **bad})


def test_a_figure_is_reported_once():
    report = Report("b")
    report.time("a", 1.0)
    with pytest.raises(ValueError, match="twice"):
        report.time("a", 2.0)


@pytest.mark.parametrize("figure", [
    Figure("e", "a", 12e-6, budget=50e-6, details="x (y); z"),
    Figure("e", "a", 2.0, unit="x", budget=1.5, stretch=2.0),
    Figure("e", "a", 2.0, unit="x"),
    Figure("e", "a", 1.5, details="(reference) ok"),
])
def test_every_line_reads_back(figure):
    line = parse_line(figure.line())
    assert line is not None
    assert (line.name, line.budgeted, line.over) == (
        figure.full_name, figure.budget is not None, figure.over)


@pytest.mark.parametrize("text", [
    "bench store save+load 200 units: 1.2 ms; ratio 2.0 (budget 3)",
    "bench wizard page after combat page: 12.0 ms (budget 50 ms, 0.24x of budget)",
    "bench e.a: 1 ms (reference) ok",
    "bench e.a: 1 ms (budget 2 ms)",
    "built and saved 10000 events in 3.2 s",
])
def test_other_lines_are_not_standard(text):
    assert parse_line(text) is None


FAKE_BENCHES = {
    "bench_fast.py": """
        import sys
        from report import Report
        report = Report("fast")
        base = report.time("baseline", 2e-6)
        report.time("check", 30e-6, budget=50e-6, baseline=base)
        sys.exit(report.finish())
        """,
    "bench_slow.py": """
        import sys
        from report import Report
        report = Report("slow")
        report.ratio("repaint", 2.5, budget=2.0, details="25 ms vs 10 ms")
        status = report.finish()
        print("This plugin does not support propagateSizeHints()", file=sys.stderr)
        sys.exit(status)
        """,
    "bench_crash.py": """
        print("bench crash.first: 1.00 s (reference)")
        raise RuntimeError("no such scenario")
        """,
    "bench_old.py": """
        print("bench old thing: 12 ms (budget 50 ms)")
        """,
    "fixture.py": "raise SystemExit('not a bench: never run')\n",
}


@pytest.fixture
def bench_folder(tmp_path):
    shutil.copy(report_module.__file__, tmp_path / "report.py")
    for name, source in FAKE_BENCHES.items():
        (tmp_path / name).write_text(textwrap.dedent(source), encoding="utf-8")
    return tmp_path


def test_the_runner_reports_every_bench_and_fails_on_any_problem(bench_folder, capsys):
    assert runner.main(["--folder", str(bench_folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[:-2] == [
        "bench crash.first: 1.00 s (reference)",
        "bench_crash failed to run: exit 1: RuntimeError: no such scenario",
        "bench fast.baseline: 2.00 µs (reference)",
        "bench fast.check: 30.0 µs (budget 50 µs) ok; 15.0x baseline",
        "bench_old failed to run: a line not in report.py's format: "
        "bench old thing: 12 ms (budget 50 ms)",
        "bench slow.repaint: 2.50x (budget 2x) OVER; 25 ms vs 10 ms",
    ]
    assert out[-2].startswith("4 figures, 2 with budgets: 1 OVER: slow.repaint (4 benches in ")
    assert out[-1] == ("2 failed to run: bench_crash (exit 1: RuntimeError: no such scenario); "
                       "bench_old (a line not in report.py's format: "
                       "bench old thing: 12 ms (budget 50 ms))")


def test_the_runner_picks_benches_by_name(bench_folder, capsys):
    assert runner.main(["--folder", str(bench_folder), "-k", "fast"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("2 figures, 1 with budgets: all ok (1 bench in ")
    assert [path.name for path in runner.discover(bench_folder, ["fast", "slow"])] == [
        "bench_fast.py", "bench_slow.py"]
    with pytest.raises(SystemExit):
        runner.main(["--folder", str(bench_folder), "-k", "nothing"])


def test_the_runner_stops_a_bench_that_hangs(bench_folder):
    (bench_folder / "bench_hang.py").write_text("import time\ntime.sleep(60)\n")
    outcome = runner.run_bench(bench_folder / "bench_hang.py", timeout=0.5)
    assert outcome.failure == "timed out after 0.5 s"


def test_benches_run_offscreen_on_this_checkout(monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    environment = runner.child_environment()
    assert environment["QT_QPA_PLATFORM"] == "offscreen"
    assert environment["PYTHONPATH"].split(os.pathsep) == [str(runner.REPO), "/elsewhere"]


def test_the_real_benches_are_found():
    names = [path.name for path in runner.discover(runner.FOLDER)]
    assert "bench_engine.py" in names
    assert "battle_fixture.py" not in names
