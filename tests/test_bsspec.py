"""battlescribe-spec's roster specs against the engine (tests/bsspec), and the runner itself.

The suite is the shared copy in ../shared/data/battlescribe-spec/specs (not shipped with
Rout); without it those tests skip, saying why. FLOOR is the number of specs that pass
today: a change that makes fewer pass fails here.
"""

from __future__ import annotations

import textwrap

import pytest

from tests.bsspec import DEFAULT_FOLDER, main, run_folder, summary

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
