"""Wizard benchmark (DESIGN.md: "each page within 50 ms of Next"). Not a unit test: run

    QT_QPA_PLATFORM=offscreen python tests/bench/bench_wizard.py

The W6-BT-3 worked example with 198 more units standing far from the combat (200 on the
table): each Next is timed from the key press to the next page built and shown, the best of
five walks, as `bench wizard.page_after_<page>` in report.py's format; the preview the page
then sends (after a delay, off the page's time) is a reference figure.

The first page's forecast (issue 20 item 9): on the four-unit battle (a 512-run tree), a
wounds field stepped up, timed from the change to the first figures for the new input on the
page (budget 200 ms) and to the exact ones (a reference), the median of five changes.
Exits 1 when a figure is over budget.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication, QSpinBox
from report import Report

from desktop.engine.scenario import load_scenario
from desktop.gui.tasks import TaskRunner
from desktop.gui.wizard import ResolutionWizard

SCENARIO = (Path(__file__).resolve().parents[2] / "resources" / "scenarios"
            / "w6-goblins-vs-elves.json")
FOUR_UNITS = SCENARIO.with_name("w6-four-units.json")
BUDGET_S = 0.050
FIRST_FIGURES_BUDGET_S = 0.200
CHANGES = 5
UNITS = 200
WALKS = 5
DICE = [(3, 4), None, (5, 4), (6, 5)]  # None: the choice's default


def crowded_scenario() -> dict:
    data = json.loads(SCENARIO.read_text(encoding="utf-8"))
    data["table"] = {"width": 400, "depth": 300}
    template = data["units"][0]
    for index in range(UNITS - len(data["units"])):
        unit = json.loads(json.dumps(template))
        unit.update(id=f"extra{index}", name=f"Extra {index}",
                    player="Orcs & Goblins" if index % 2 else "High Elves",
                    models=10, files=5,
                    position=[120 + (index % 14) * 19, 20 + (index // 14) * 18])
        data["units"].append(unit)
    return data


def walk_once(app: QApplication, data: dict) -> dict[str, float]:
    """Seconds for each figure, by name: page_after_<page>, preview_after_<page>."""
    scenario = load_scenario(data)
    prepared = {k: v for k, v in data["resolve"].items() if k != "procedure"}
    wizard = ResolutionWizard(scenario.battle, scenario.procedure.name, prepared, seed=1)
    wizard.show()
    app.processEvents()
    times: dict[str, float] = {}
    answers = iter(DICE)
    name = "combat_page"
    while True:
        start = time.perf_counter()
        wizard.next()
        app.processEvents()  # the page painted and focused (the preview waits its delay)
        page = wizard.currentPage()
        times[f"page_after_{name}"] = time.perf_counter() - start
        start = time.perf_counter()
        wizard.send_preview()
        times[f"preview_after_{name}"] = time.perf_counter() - start
        roll = getattr(page, "roll", None)
        choice = getattr(page, "choice", None)
        if roll is None and choice is None:
            break
        faces = next(answers)
        if faces is not None:
            for field, face in zip(page.fields, faces, strict=True):
                field.setText(str(face))
        name = re.sub(r"\W+", "_", roll.key if roll is not None else choice.key)
    wizard.leave("discard")  # closing after answers would ask first
    wizard.deleteLater()
    app.processEvents()
    return times


def forecast_after_changes(app: QApplication) -> tuple[list[float], list[float]]:
    """Seconds from each change of a wounds field to the first figures for it and to the
    exact ones."""
    data = json.loads(FOUR_UNITS.read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    prepared = {k: v for k, v in data["resolve"].items() if k != "procedure"}
    wizard = ResolutionWizard(scenario.battle, scenario.procedure.name, prepared, seed=1)
    runner = TaskRunner(wizard)
    view = wizard.add_forecast(runner)
    wizard.show()
    firsts: list[float] = []
    exacts: list[float] = []
    shown: list[float] = []
    view.shown.connect(lambda _result: shown.append(time.perf_counter()))

    def settle() -> None:
        deadline = time.perf_counter() + 120
        while (view.forecast is None or view.updating) and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.001)
        assert not view.updating, "the forecast did not finish in 120 s"

    settle()
    spin = wizard.input_page.findChild(QSpinBox, "wounds:swordsmen")
    for _ in range(CHANGES):
        shown.clear()
        start = time.perf_counter()
        spin.stepBy(1 if spin.value() < 2 else -1)
        settle()
        assert view.forecast is not None and view.forecast.exact
        firsts.append(shown[0] - start)
        exacts.append(shown[-1] - start)
    runner.wait_for_idle()
    wizard.leave("discard")
    wizard.deleteLater()
    app.processEvents()
    return firsts, exacts


def main() -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    data = crowded_scenario()
    assert len(data["units"]) == UNITS
    best: dict[str, float] = {}
    for _ in range(WALKS):
        for name, seconds in walk_once(app, data).items():
            best[name] = min(seconds, best.get(name, seconds))
    report = Report("wizard")
    for name, seconds in best.items():
        if name.startswith("preview_"):
            report.time(name, seconds, details="off the page's time")
        else:
            report.time(name, seconds, budget=BUDGET_S, details=f"best of {WALKS} walks")
    firsts, exacts = forecast_after_changes(app)
    report.time("forecast_first_figures_after_a_change", statistics.median(firsts),
                budget=FIRST_FIGURES_BUDGET_S,
                details=f"median of {CHANGES} changes ({min(firsts) * 1000:.0f}–"
                        f"{max(firsts) * 1000:.0f} ms), four-unit battle")
    report.time("forecast_exact_figures_after_a_change", statistics.median(exacts),
                details=f"median of {CHANGES} changes, 512 runs walked")
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
