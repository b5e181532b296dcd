"""The roster sheet: what the text exports and the printout say about an army.

The real New Recruit roster is the ground truth: its slots, wargear, magic items and special
rules must all reach the sheet, by name, in the ruleset's slot order.
"""

from __future__ import annotations

import pytest

from desktop.engine.rulesets import RULESETS, get_ruleset, rule_label

# ---------------------------------------------------------------------------------------------
# The ruleset's part: slot order and names for people


@pytest.mark.parametrize(("rule", "label"), [
    ("purebreed_warhorse", "Purebreed Warhorse"),
    ("immune_to_psychology", "Immune to Psychology"),
    ("causes_fear", "Causes Fear"),
    ("of_the_realm", "Of the Realm"),  # a first word is capitalised even when small
    ("Sword of the Quest", "Sword of the Quest"),  # a name already written stays as it is
    ("  stubborn  ", "Stubborn"),
    ("", ""),
])
def test_rule_label(rule, label):
    assert rule_label(rule) == label


def test_upgrade_labels_come_from_the_ruleset():
    w6 = get_ruleset("warhammer6")
    assert w6.upgrade_label("battle_standard") == "Battle standard"
    assert w6.upgrade_label("standard") == "Standard bearer"
    assert get_ruleset("kensei1").upgrade_label("standard") == "Standard (nobori)"
    # One the ruleset does not know still reads as words.
    assert w6.upgrade_label("war_banner") == "War Banner"


def test_w6_slots_go_lords_heroes_core_special_rare():
    w6 = get_ruleset("warhammer6")
    slots = ["Rare", "my own", "", "core", "Heroes", " Special ", "Lords"]
    assert sorted(slots, key=w6.slot_rank) == ["Lords", "Heroes", "core", " Special ", "Rare",
                                               "my own", ""]


def test_every_bundled_slot_is_one_its_ruleset_orders():
    import json

    from desktop.gui.resources import resources_dir

    for path in sorted((resources_dir() / "libraries").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        ruleset = RULESETS[document["ruleset"]]
        for entry in document["entries"]:
            assert ruleset.slot_rank(entry["slot"]) < len(ruleset.slots), (path.name, entry)
