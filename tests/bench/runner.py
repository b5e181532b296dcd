"""One report of every benchmark: `python -m tests.bench [-k NAME]...` from the repository.

Runs each tests/bench/bench_*.py in its own process, one after another (timings on a shared
machine are noisy enough without benches competing), with Qt offscreen and this checkout's
`desktop` first on the path. Prints the standard lines each bench printed (report.py), then
a summary: `N figures, M with budgets: all ok`, or the figures over budget and the benches
that failed to run, each with the last line it wrote to stderr. Exits 1 when a figure is
over budget or a bench failed: it crashed, timed out, printed no standard line, or printed
a `bench ...` line in another format.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .report import OVER_BUDGET, Line, parse_line

FOLDER = Path(__file__).resolve().parent
REPO = FOLDER.parents[1]
TIMEOUT = 1200.0


@dataclass
class Outcome:
    """What one bench printed, and why it failed to run ("" when it ran to the end)."""

    script: Path
    lines: list[Line] = field(default_factory=list)
    failure: str = ""
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return self.script.stem


def discover(folder: Path, patterns: Sequence[str] = ()) -> list[Path]:
    """The folder's bench_*.py, by name; with patterns, those whose name contains one."""
    return [script for script in sorted(folder.glob("bench_*.py"))
            if not patterns or any(pattern in script.stem for pattern in patterns)]


def child_environment() -> dict[str, str]:
    """Offscreen Qt, UTF-8 output, and this checkout's `desktop` before an installed one."""
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    paths = [str(REPO), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    environment["PYTHONPATH"] = os.pathsep.join(paths)
    return environment


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "(nothing on stderr)"


def run_bench(script: Path, timeout: float = TIMEOUT) -> Outcome:
    """Run one bench to its end and read back its standard lines."""
    outcome = Outcome(script)
    began = time.perf_counter()
    try:
        completed = subprocess.run([sys.executable, str(script)], cwd=REPO,
                                   env=child_environment(), capture_output=True,
                                   encoding="utf-8", errors="replace", timeout=timeout,
                                   check=False)
    except subprocess.TimeoutExpired:
        outcome.seconds = time.perf_counter() - began
        outcome.failure = f"timed out after {timeout:g} s"
        return outcome
    outcome.seconds = time.perf_counter() - began
    strays = []
    for text in completed.stdout.splitlines():
        line = parse_line(text)
        if line is not None:
            outcome.lines.append(line)
        elif text.startswith("bench "):
            strays.append(text)
    # Over budget, a bench exits 1 after report.finish() wrote "over budget: ..." (Qt may
    # still write after it as the process ends); any other non-zero exit is a failure.
    over_budget = (any(line.over for line in outcome.lines)
                   and any(text.startswith(OVER_BUDGET)
                           for text in completed.stderr.splitlines()))
    if completed.returncode != 0 and not over_budget:
        outcome.failure = f"exit {completed.returncode}: {last_line(completed.stderr)}"
    elif strays:
        outcome.failure = f"a line not in report.py's format: {strays[0]}"
    elif not outcome.lines:
        outcome.failure = "printed no figure in report.py's format"
    return outcome


def summary(outcomes: Iterable[Outcome]) -> tuple[list[str], bool]:
    """The summary's lines, and whether every bench ran and every figure is within budget."""
    outcomes = list(outcomes)
    lines = [line for outcome in outcomes for line in outcome.lines]
    over = [line.name for line in lines if line.over]
    failed = [outcome for outcome in outcomes if outcome.failure]
    budgeted = sum(line.budgeted for line in lines)
    seconds = sum(outcome.seconds for outcome in outcomes)
    verdict = f"{len(over)} OVER: {', '.join(over)}" if over else "all ok"
    benches = f"{len(outcomes)} bench{'es' if len(outcomes) != 1 else ''}"
    text = [f"{len(lines)} figures, {budgeted} with budgets: {verdict} "
            f"({benches} in {seconds:.0f} s)"]
    if failed:
        text.append(f"{len(failed)} failed to run: "
                    + "; ".join(f"{outcome.name} ({outcome.failure})" for outcome in failed))
    return text, not over and not failed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-k", dest="patterns", action="append", default=[], metavar="NAME",
                        help="run only the benches whose file name contains NAME "
                             "(repeatable: -k engine -k store)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help=f"seconds one bench may take (default {TIMEOUT:g})")
    parser.add_argument("--folder", type=Path, default=FOLDER,
                        help="where the bench_*.py scripts are (default: tests/bench)")
    args = parser.parse_args(argv)
    scripts = discover(args.folder, args.patterns)
    if not scripts:
        parser.error(f"no bench_*.py in {args.folder} matches {' or '.join(args.patterns)}")
    outcomes = []
    for script in scripts:
        outcome = run_bench(script, args.timeout)
        for line in outcome.lines:
            print(line.text)
        if outcome.failure:
            print(f"{outcome.name} failed to run: {outcome.failure}")
        sys.stdout.flush()
        outcomes.append(outcome)
    text, ok = summary(outcomes)
    print("\n".join(text))
    return 0 if ok else 1
