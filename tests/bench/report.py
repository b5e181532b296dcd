"""The benchmarks' one format, and the exit status that follows from it.

Every bench in tests/bench prints its figures through a `Report`, one line each:

    bench engine.break_test_odds: 12.1 µs (budget 50 µs) ok; 3.46x baseline_enumerate_2d6
    bench store.save_load_200_units: 3.21x (budget 3x) OVER; 19.3 ms vs 6.01 ms raw sqlite3
    bench moves.index_build_2000_units: 41.0 ms (reference); once per battle

The standard part runs up to `ok`/`OVER`, or up to `(reference)` for a figure kept for
comparison without a budget; what the bench adds (the ratio against its baseline timed in
the same run, spreads, counts) follows after "; ". A budget stretched because this run's
baseline went slower than on the idle development machine reads `(budget 50 µs, stretched
to 61.0 µs)`. `finish()` gives the exit status: 1 when a figure is over its budget.

A new bench needs three lines besides its measurements (run as a script, tests/bench is
first on sys.path, so `from report import Report` finds this module):

    report = Report("import")                       # figures are named import.<name>
    report.time("import_200_units", seconds, budget=0.5)
    return report.finish()                          # from main(), as the exit status

`python -m tests.bench` (tests/bench/runner.py) runs every bench_*.py and reads these lines
back with `parse_line`.
"""

from __future__ import annotations

import itertools
import re
import sys
import timeit
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

SECONDS, RATIO = "s", "x"
IDLE_2D6_SECONDS = 3.5e-6
"""enumerate_2d6 on the idle development machine: how much slower this run's machine is."""
OVER_BUDGET = "over budget: "
_NAME = re.compile(r"[A-Za-z0-9_]+")
_LINE = re.compile(
    r"bench (?P<name>[A-Za-z0-9_]+\.[A-Za-z0-9_]+): (?P<value>[^();]+?) "
    r"\((?:(?P<reference>reference)|budget (?P<budget>[^()]+))\)"
    r"(?: (?P<verdict>ok|OVER))?(?:; .*)?")


def number(value: float) -> str:
    """Three significant figures, never an exponent: 0.123, 1.23, 12.3, 123, 1234."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3g}"


def quantity(value: float, unit: str, *, exact: bool = False) -> str:
    """A value in seconds in µs, ms or s (whichever keeps it at 1 or more), or a ratio.

    `exact` prints a budget as it was written (50 µs, 1.5x) rather than to three figures.
    """
    show = (lambda v: f"{v:g}") if exact else number
    if unit == RATIO:
        return f"{show(value)}x"
    if unit != SECONDS:
        raise ValueError(f"unknown unit {unit!r}")
    for scale, name in ((1.0, "s"), (1e-3, "ms")):
        if value >= scale:
            return f"{show(value / scale)} {name}"
    return f"{show(value / 1e-6)} µs"


@dataclass(frozen=True)
class Figure:
    """One measured value of a bench: in seconds, or a ratio (unit "x")."""

    bench: str
    name: str
    value: float
    unit: str = SECONDS
    budget: float | None = None
    # A busy machine's allowance: the budget times how much slower than the idle
    # development machine this run's baseline went (1 when it did not).
    stretch: float = 1.0
    # Why the figure fails whatever its value (the forecast bench: "not exact").
    failed: str = ""
    details: str = ""

    def __post_init__(self) -> None:
        for part in (self.bench, self.name):
            if not _NAME.fullmatch(part):
                raise ValueError(f"bench and figure names are letters, digits and _: {part!r}")
        if self.failed and self.budget is None:
            raise ValueError(f"{self.full_name}: only a figure with a budget can fail")
        if "\n" in self.details + self.failed:
            raise ValueError(f"{self.full_name}: a figure is one line")
        quantity(self.value, self.unit)

    @property
    def full_name(self) -> str:
        return f"{self.bench}.{self.name}"

    @property
    def allowed(self) -> float | None:
        """The budget this run is held to: stretched on a machine slower than idle."""
        return None if self.budget is None else self.budget * max(1.0, self.stretch)

    @property
    def over(self) -> bool:
        return bool(self.failed) or (self.allowed is not None and self.value > self.allowed)

    def line(self) -> str:
        text = f"bench {self.full_name}: {quantity(self.value, self.unit)}"
        if self.budget is None:
            text += " (reference)"
        else:
            budget = f"budget {quantity(self.budget, self.unit, exact=True)}"
            if self.stretch > 1.0:
                assert self.allowed is not None
                budget += f", stretched to {quantity(self.allowed, self.unit)}"
            text += f" ({budget}) {'OVER' if self.over else 'ok'}"
        return text + "".join(f"; {extra}" for extra in (self.failed, self.details) if extra)


def slowdown(baseline: float, idle: float) -> float:
    """How many times slower than on the idle development machine this run's baseline went
    (at least 1): the factor by which a bench stretches the budgets it holds in seconds."""
    return max(1.0, baseline / idle)


def enumerate_2d6() -> Fraction:
    """Plain Python: the chance of 2D6 > 5 by listing all 36 rolls with Fractions."""
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b > 5)
    return Fraction(hits, 36)


class Report:
    """A bench's figures: each printed as it is added, and the exit status at the end."""

    def __init__(self, bench: str, out: TextIO | None = None) -> None:
        self.bench = bench
        self.out = out
        self.figures: list[Figure] = []

    def time(self, name: str, seconds: float, *, budget: float | None = None,
             stretch: float = 1.0, baseline: Figure | None = None, failed: str = "",
             details: str = "") -> Figure:
        """A time in seconds; with a `baseline` (a time reported before), the ratio to it
        comes first in the details."""
        if baseline is not None:
            ratio = f"{number(seconds / baseline.value)}x {baseline.name}"
            details = f"{ratio}; {details}" if details else ratio
        return self.add(Figure(self.bench, name, seconds, SECONDS, budget, stretch, failed,
                               details))

    def baseline_2d6(self) -> tuple[Figure, float]:
        """The same-run baseline most benches compare with, timed and reported, and the
        stretch its budgets get on a machine slower than the idle development one."""
        seconds = min(timeit.repeat(enumerate_2d6, number=2000, repeat=5)) / 2000
        stretch = slowdown(seconds, IDLE_2D6_SECONDS)
        figure = self.time("baseline_enumerate_2d6", seconds,
                           details=f"this machine runs {stretch:.2f}x slower than idle")
        return figure, stretch

    def ratio(self, name: str, ratio: float, *, budget: float | None = None,
              details: str = "") -> Figure:
        """A ratio against a baseline timed in the same run (the details say which)."""
        return self.add(Figure(self.bench, name, ratio, RATIO, budget, details=details))

    def add(self, figure: Figure) -> Figure:
        if any(f.name == figure.name for f in self.figures):
            raise ValueError(f"{figure.full_name} is reported twice")
        self.figures.append(figure)
        print(figure.line(), file=self.out or sys.stdout, flush=True)
        return figure

    def finish(self) -> int:
        """The bench's exit status: 1, with the names on stderr, when a figure is over."""
        over = [figure.full_name for figure in self.figures if figure.over]
        if over:
            print(OVER_BUDGET + ", ".join(over), file=sys.stderr, flush=True)
            return 1
        if not self.figures:
            print(f"bench {self.bench} reported no figures", file=sys.stderr, flush=True)
            return 1
        return 0


@dataclass(frozen=True)
class Line:
    """A standard line read back: the figure's full name and whether it is within budget."""

    text: str
    name: str
    budgeted: bool
    over: bool


def parse_line(text: str) -> Line | None:
    """The standard line `text` is, or None when it is not one (a bench's other output, or
    a `bench ...` line printed by hand in another format)."""
    match = _LINE.fullmatch(text.rstrip("\n"))
    if match is None or (match["budget"] is None) != (match["verdict"] is None):
        return None
    return Line(match.group(0), match["name"], match["budget"] is not None,
                match["verdict"] == "OVER")
