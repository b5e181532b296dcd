"""Wizard benchmark (DESIGN.md: "each page within 50 ms of Next"). Not a unit test: run

    QT_QPA_PLATFORM=offscreen python tests/bench/bench_wizard.py

The W6-BT-3 worked example with 198 more units standing far from the combat (200 on the
table): each Next is timed from the key press to the next page built and shown, the best of
five walks, as `bench wizard.page_after_<page>` in report.py's format; the preview the page
then sends (after a delay, off the page's time) is a reference figure. Exits 1 when a page is
over budget.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication
from report import Report

from desktop.engine.scenario import load_scenario

SCENARIO = (Path(__file__).resolve().parents[2] / "resources" / "scenarios"
            / "w6-goblins-vs-elves.json")
BUDGET_S = 0.050
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
    from desktop.gui.wizard import ResolutionWizard

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
    return report.finish()


if __name__ == "__main__":
    sys.exit(main())
