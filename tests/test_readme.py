"""README examples are real: the documented Rout JSON army imports as printed."""

from __future__ import annotations

import json
import re

from conftest import REPO

from desktop.engine.codec import army_from_json, army_to_json


def readme_block(starting: str) -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```json\n(.*?)\n```", text, re.S):
        if starting in block:
            return block
    raise AssertionError(f"README has no JSON example containing {starting!r}")


def test_the_documented_army_reads_and_writes_back_the_same():
    data = json.loads(readme_block('"format": "rout-army"'))
    army = army_from_json(data)
    assert (army.name, army.ruleset, army.points, army.models) == (
        "Grimgor's Boyz", "warhammer6", 150, 20)
    assert army_to_json(army) == data
