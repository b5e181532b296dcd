"""The roster sheet: what the text exports and the printout say about an army.

The real New Recruit roster is the ground truth: its slots, wargear, magic items and special
rules must all reach the sheet, by name, in the ruleset's slot order.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from conftest import BATTLESCRIBE_ROSTER

from desktop.engine.model import Army
from desktop.engine.roster import RosterProblem, problems
from desktop.engine.rulesets import RULESETS, get_ruleset, rule_label
from desktop.store.roster_sheet import RosterSheet, UnitSheet, roster_sheet, unit_sheet
from desktop.store.roster_text import roster_markdown, roster_text
from desktop.store.transfer import read_army_file

from builders import army

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


def test_w6_slots_go_lords_heroes_core_special_rare():
    w6 = get_ruleset("warhammer6")
    slots = ["Rare", "my own", "", "core", "Heroes", " Special ", "Lords"]
    assert sorted(slots, key=w6.slot_rank) == ["Lords", "Heroes", "core", " Special ", "Rare",
                                               "my own", ""]


def test_every_bundled_slot_is_one_its_ruleset_orders():
    import json

    from desktop.bundled import resources_dir

    for path in sorted((resources_dir() / "libraries").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        ruleset = RULESETS[document["ruleset"]]
        for entry in document["entries"]:
            assert ruleset.slot_rank(entry["slot"]) < len(ruleset.slots), (path.name, entry)


# ---------------------------------------------------------------------------------------------
# The sheet of the real New Recruit roster


@pytest.fixture(scope="module")
def real() -> Army:
    return read_army_file(BATTLESCRIBE_ROSTER).army


def sheet_unit(sheet: RosterSheet, name: str) -> UnitSheet:
    (found,) = [unit for slot in sheet.slots for unit in slot.units if unit.name == name]
    return found


def test_real_roster_sheet(real):
    sheet = roster_sheet(real)
    assert [(slot.name, slot.points, len(slot.units)) for slot in sheet.slots] == [
        ("Heroes", 208, 2), ("Core", 497, 4)]
    assert sheet.headline == ("Warhammer Fantasy Battle 6th edition · 705 / 1000 points · "
                              "6 units · 38 models")
    assert sheet.stat_names == ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
    assert sheet.warnings == ()
    # The import's own notes (the file it came from, the game system) are not the player's.
    assert sheet.notes == ()
    duc = sheet_unit(sheet, "Duc d'Lorraine")
    assert duc.stat_line == "M8 WS5 BS3 S4 T4 W2 I5 A3 Ld8"
    assert duc.upgrades == ("General",)
    assert duc.wargear == ("Hand Weapon, Heavy Armour, Shield (2 pts), Bretonnian Warhorse "
                           "(14 pts), Barding, Questing Vow (8 pts)")
    assert duc.magic_items == "Sword of the Quest (50 pts)"
    # The sword's and the vow's rules are the items themselves, listed already.
    assert duc.special_rules == ("Purebreed Warhorse",)
    assert duc.notes == ()
    knights = sheet_unit(sheet, "The Duc's Vanguard")
    assert knights.upgrades == ("Standard bearer", "Musician", "Champion")  # the ruleset's order
    assert knights.special_rules == ("Knights Vow", "Purebreed Warhorse")
    assert (knights.models, knights.formation) == (6, "5 × 2")
    assert sheet_unit(sheet, "Piere").upgrades == ("Battle standard",)
    assert sheet_unit(sheet, "Hunters of Bordeleaux").special_rules == (
        "Defensive Stakes", "Peasants Duty", "Skirmishers")


def test_an_earlier_imports_selections_note_is_wargear_less_the_upgrades(real):
    duc = next(unit for unit in real.units if unit.name == "Duc d'Lorraine")
    older = replace(duc, notes=(
        "Selections: General, Hand Weapon, Shield (2 pts), Sword of the Quest (50 pts), "
        "Musician (8 pts), 2x Throwing Axe",
        "Rules from upgrades: Sword of the Quest, Questing Vow",
        "Profile Barding: Saving Throw Modifier +1"))
    sheet = unit_sheet(older, get_ruleset("warhammer6"))
    assert sheet.wargear == ("Hand Weapon, Shield (2 pts), Sword of the Quest (50 pts), "
                             "2x Throwing Axe")
    assert sheet.special_rules == ("Purebreed Warhorse", "Questing Vow")
    assert sheet.notes == ()


def test_players_notes_stay_and_import_paths_go():
    roster = replace(army(units=1), notes=(
        "Imported from /home/someone/Downloads/list.rosz", "Game system: W6", "Bring dice",
        "  "))
    unit = replace(roster.units[0], notes=("two\nlines", "Command: Gallant"))
    sheet = roster_sheet(replace(roster, units=(unit,)))
    assert sheet.notes == ("Bring dice",)
    assert sheet.slots[0].units[0].notes == ("two", "lines")


def test_slots_in_the_rulesets_order_then_unknown_then_none():
    base = army(units=6)
    slots = ("", "Rare", "Mercenaries", "core", "Heroes", "Core")
    roster = replace(base, units=tuple(replace(unit, slot=slot)
                                       for unit, slot in zip(base.units, slots, strict=True)))
    sheet = roster_sheet(roster)
    assert [(slot.name, [unit.name for unit in slot.units]) for slot in sheet.slots] == [
        ("Heroes", ["Unit 4"]), ("core", ["Unit 3", "Unit 5"]), ("Rare", ["Unit 1"]),
        ("Mercenaries", ["Unit 2"]), ("Units", ["Unit 0"])]


def test_warnings_are_the_engines_or_the_callers():
    roster = replace(army(units=2), points_limit=150)
    sheet = roster_sheet(roster)
    assert [warning.message for warning in sheet.warnings] == [
        problem.message for problem in problems(roster)]
    assert sheet.warnings[0].message == "201 points is 51 over the limit of 150"
    # The window passes its own list (with the library's composition limits).
    given = [RosterProblem("Lords: 1 in a 1,000-point army, at most 0")]
    assert [w.message for w in roster_sheet(roster, given).warnings] == [given[0].message]


def test_text_exports_end_with_the_warnings():
    roster = replace(army(units=2), points_limit=150)
    assert roster_text(roster).endswith(
        "\nWarnings\n  201 points is 51 over the limit of 150\n")
    assert roster_markdown(roster).endswith(
        "\n## Warnings\n\n- 201 points is 51 over the limit of 150\n")
    assert "Warnings" not in roster_text(army(units=2))
