"""battlescribe-spec's roster specs against the engine (tests/bsspec), and the runner itself.

The suite is the shared copy in ../shared/data/battlescribe-spec/specs (not shipped with
Rout); without it those tests skip, saying why. FLOOR is the number of specs that pass
today: a change that makes fewer pass fails here.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from tests.bsspec import DEFAULT_FOLDER, _Loader, main, run_folder, summary

FLOOR = 288

SPEC = textwrap.dedent("""\
    id: made-up-cost
    category: cost
    description: A unit's cost reaches the roster.
    setup:
      gameSystem:
        costTypes:
          - id: pts
            name: pts
        forceEntries:
          - id: fe-1
            name: Army
      catalogues:
        - id: cat-1
          selectionEntries:
            - id: se-1
              name: Knights
              type: unit
              costs:
                - name: pts
                  typeId: pts
                  value: 24
    steps:
      - action: addForce
        id: add
        forceEntryId: fe-1
      - action: selectEntry
        forceId: ${{ steps.add.forceId }}
        entryId: se-1
      - expectedState:
          costs:
            - typeId: pts
              value: COST
          forces:
            - selections:
                - name: Knights
    """)


def test_the_shared_specs_pass_at_least_as_often_as_before():
    if not DEFAULT_FOLDER.is_dir():
        pytest.skip(f"no battlescribe-spec specs at {DEFAULT_FOLDER} (the shared copy)")
    outcomes = run_folder(DEFAULT_FOLDER)
    passed = sum(1 for o in outcomes if o.passed and not o.skipped)
    failing = [f"{o.spec_id}: {o.problem}" for o in outcomes if not o.passed and not o.skipped]
    assert passed >= FLOOR, summary(outcomes) + "\n" + "\n".join(failing)


def test_the_runner_reports_a_spec_whose_expectation_the_engine_misses(tmp_path):
    (tmp_path / "good.yaml").write_text(SPEC.replace("COST", "24"), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(SPEC.replace("COST", "25").replace(
        "made-up-cost", "made-up-wrong-cost"), encoding="utf-8")
    lines: list[str] = []
    assert main([str(tmp_path)], lines.append) == 1
    assert lines == ["FAIL made-up-wrong-cost: step 3: costs[pts].value: 24 (expected 25)",
                     "bsspec: 1/2 specs pass (0 skipped)"]


def test_the_runner_names_a_missing_folder(tmp_path):
    lines: list[str] = []
    assert main([str(tmp_path / "nowhere")], lines.append) == 2
    assert lines == [f"bsspec: no folder of specs at {tmp_path / 'nowhere'}"]


STRICT = textwrap.dedent("""\
    id: made-up-strict
    category: runner
    description: What the suite's own runner fails, this one fails.
    setup:
      gameSystem:
        costTypes:
          - id: pts
            name: pts
          - id: cp
            name: CP
        forceEntries:
          - id: fe-1
            name: Army
      catalogues:
        - id: cat-1
          sharedSelectionEntries:
            - id: shared-unit
              name: Knights
              type: unit
              hidden: true
              costs:
                - name: pts
                  typeId: pts
                  value: 24
                - name: CP
                  typeId: cp
                  value: 1
          entryLinks:
            - id: link-1
              name: Knights
              targetId: shared-unit
              type: selectionEntry
    steps:
      - action: addForce
        id: add
        forceEntryId: fe-1
      - action: selectEntry
        forceId: ${{ steps.add.forceId }}
        entryId: link-1
      - expectedState:
          costs:
            - typeId: pts
              value: 24
            - typeId: cp
              value: 1
          forces:
            - selections:
                - name: Knights
                  hidden: true
          errors:
            - on: selection shared-unit
              from: shared-unit/hidden
    """)


@pytest.mark.parametrize(("change", "problem"), [
    (("", ""), None),
    # The roster shows two costs; a spec naming one is missing one (RosterRunner: "expected
    # 1 cost(s) but got 2").
    (("        - typeId: cp\n          value: 1\n", ""),
     "costs: 2 costs ['pts=24', 'CP=1'] (expected 1)"),
    # `hidden` is always compared: saying nothing means visible.
    (("              hidden: true\n", ""), "forces[0].selections[0].hidden: True"),
    # A link-reached owner is named by its target entry, not by its link.
    (("on: selection shared-unit", "on: selection link-1"), "errors: no {'on': 'selection "
                                                           "link-1'"),
    # `from` is the exact entry/constraint pair.
    (("from: shared-unit/hidden", "from: shared-unit"), "errors: no {'on': 'selection "
                                                        "shared-unit', 'from': 'shared-unit'}"),
])
def test_the_runner_is_as_strict_as_the_suites_own(tmp_path, change, problem):
    (tmp_path / "spec.yaml").write_text(STRICT.replace(*change), encoding="utf-8")
    lines: list[str] = []
    main([str(tmp_path)], lines.append)
    if problem is None:
        assert lines == ["bsspec: 1/1 specs pass (0 skipped)"]
    else:
        assert len(lines) == 2 and problem in lines[0], lines


DEPARTURES = Path(__file__).resolve().parent / "bsspec" / "departures"


def test_routs_departures_from_battlescribe_pass_as_their_specs_say():
    lines: list[str] = []
    assert main([str(DEPARTURES)], lines.append) == 0
    assert lines == ["bsspec: 2/2 specs pass (0 skipped)"]


def test_each_departure_is_one_battlescribe_would_fail(tmp_path):
    # Each spec's base expectation is BattleScribe's; without Rout's own, each fails: the
    # departure is real, and README's list of them is not a list of nothing.
    for path in sorted(DEPARTURES.glob("*.yaml")):
        spec = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
        for step in spec["steps"]:
            step.get("expectedState", {}).pop("engines", None)
        (tmp_path / path.name).write_text(yaml.safe_dump(spec), encoding="utf-8")
    lines: list[str] = []
    assert main([str(tmp_path)], lines.append) == 1
    assert [line.split(":")[0] for line in lines] == [
        "FAIL rout-army-limit-counts-any-depth", "FAIL rout-group-minimum-one-combination",
        "bsspec"]
