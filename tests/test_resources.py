"""The bundled unit libraries and sample armies (resources/libraries, resources/armies).

Every file must read with the strict codec, stay within its ruleset's statistics, price each
unit exactly as the roster panes would (desktop.engine.roster.price with its library entry)
and be written canonically, so that saving it again from Rout changes no byte.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from desktop.bundled import resource_path
from desktop.engine.codec import army_from_json, army_to_json, library_from_json, library_to_json
from desktop.engine.composition import army_problems, in_list
from desktop.engine.model import Army, LibraryEntry, TroopType
from desktop.engine.roster import Severity, price, problems
from desktop.engine.rulesets import RULESETS, get_ruleset

LIBRARY_DIR = resource_path("libraries")
ARMY_DIR = resource_path("armies")
LIBRARY_FILES = sorted(LIBRARY_DIR.glob("*.json"))
ARMY_FILES = sorted(ARMY_DIR.glob("*.json"))
RULE_NAME = re.compile(r"[a-z][a-z0-9_]*")


def read(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def library(ruleset: str) -> tuple[LibraryEntry, ...]:
    path = LIBRARY_DIR / f"{ruleset}.json"
    assert path.is_file(), f"no library for {ruleset} ({path})"
    found = library_from_json(read(path))
    assert found.ruleset == ruleset
    return found.entries


@cache
def army(path: Path) -> Army:
    return army_from_json(read(path))


def canonical(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def test_every_ruleset_has_exactly_one_library():
    assert sorted(path.stem for path in LIBRARY_FILES) == sorted(RULESETS)


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda path: path.name)
def test_library_reads_for_the_ruleset_its_file_names(path):
    read_library = library_from_json(read(path))
    ruleset_id, entries = read_library.ruleset, read_library.entries
    assert ruleset_id == path.stem
    ruleset = get_ruleset(ruleset_id)
    assert 8 <= len(entries) <= 16
    names = [entry.profile.name for entry in entries]
    assert len(names) == len(set(names)), "two library entries share a profile name"
    upgrades = {spec.name for spec in ruleset.upgrades}
    for entry in entries:
        ruleset.check_profile(entry.profile)
        assert entry.ruleset == ruleset_id
        assert entry.points_per_model > 0, entry.profile.name
        assert entry.slot, entry.profile.name
        assert set(entry.upgrade_costs) <= upgrades, entry.profile.name
        assert all(RULE_NAME.fullmatch(rule) for rule in entry.profile.special_rules), (
            entry.profile.name, sorted(entry.profile.special_rules))
        if "W" in entry.profile.stats:
            assert entry.profile.wounds == entry.profile.stats["W"], entry.profile.name


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda path: path.name)
def test_library_bases_are_in_the_rulesets_distance_unit(path):
    """Kensei measures in centimetres (a 25 mm base is 2.5), the others in inches (0.984)."""
    ruleset = get_ruleset(path.stem)
    for entry in library(path.stem):
        width, depth = entry.profile.base
        if ruleset.distance_unit == "cm":
            assert 2.0 <= width <= 15 and 2.0 <= depth <= 15, entry.profile.name
        else:
            assert 0.5 <= width <= 6 and 0.5 <= depth <= 6, entry.profile.name


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_library_mixes_troop_types(ruleset):
    """Enough variety for the rules that read troop types (K-RA-2 among them)."""
    kinds = {entry.profile.troop_type for entry in library(ruleset)}
    assert {TroopType.INFANTRY, TroopType.CAVALRY, TroopType.CHARACTER} <= kinds
    assert kinds & {TroopType.MONSTER, TroopType.LARGE}


def test_library_special_rules_the_engine_reads_are_present():
    w6 = set().union(*(entry.profile.special_rules for entry in library("warhammer6")))
    assert "stubborn" in w6
    assert any(entry.profile.flies for entry in library("warhammer6"))
    kensei = library("kensei1")
    assert any(entry.profile.has("ronin") for entry in kensei)
    assert any(entry.profile.flies for entry in kensei)
    assert any("bushi" in entry.upgrade_costs for entry in kensei)


def test_there_are_sample_armies():
    assert len(ARMY_FILES) >= 2 * len(RULESETS)


@pytest.mark.parametrize("path", ARMY_FILES, ids=lambda path: path.name)
def test_sample_army_is_built_from_its_library(path):
    sample = army(path)
    assert path.stem.startswith(f"{sample.ruleset}-"), "the file name starts with the ruleset"
    entries = library(sample.ruleset)
    assert sample.units
    for unit in sample.units:
        matches = [entry for entry in entries if entry.profile == unit.profile]
        assert len(matches) == 1, f"{unit.id}: profile is not exactly one library entry's"
        entry = matches[0]
        assert unit.points == price(entry, unit.models, unit.upgrades), unit.id
        assert unit.slot == entry.slot, unit.id
        assert unit.player == sample.player


@pytest.mark.parametrize("path", ARMY_FILES, ids=lambda path: path.name)
def test_sample_army_has_no_roster_warnings_and_keeps_its_limit(path):
    sample = army(path)
    # Composition included: the W6 chart, General, BSB, entry limits and its army list.
    found = army_problems(sample, library_from_json(read(LIBRARY_DIR / f"{sample.ruleset}.json")))
    assert [problem.message for problem in found] == []
    assert not [p for p in problems(sample) if p.severity == Severity.WARNING]
    known = {spec.name for spec in get_ruleset(sample.ruleset).upgrades}
    for unit in sample.units:
        assert unit.upgrades <= known, unit.id
    assert sample.points_limit > 0
    assert 0 < sample.points <= sample.points_limit


@pytest.mark.parametrize("path", LIBRARY_FILES, ids=lambda path: path.name)
def test_library_is_grouped_into_army_lists(path):
    """The issue: the library is grouped into army lists (Orcs & Goblins, High Elves, the
    Kensei and Breaks-or-Pursues factions); every entry belongs to one of them."""
    found = library_from_json(read(path))
    assert len(found.army_lists) >= 2
    for entry in found.entries:
        assert entry.lists, f"{entry.profile.name} is in no army list"
    for army_list in found.army_lists:
        assert any(entry.lists == {army_list.id} for entry in found.entries), army_list.name


def test_the_w6_library_declares_the_army_selection_chart():
    """rules/composition.md: the chart's five rows, one General, at most one BSB."""
    composition = library_from_json(read(LIBRARY_DIR / "warhammer6.json")).composition
    assert composition.rows == (0, 2000, 3000, 4000)
    assert composition.then_every == 1000
    by_label = {limit.label: limit for limit in composition.limits}
    assert by_label["Characters"].most.by_row == (3, 4, 6, 8)
    assert by_label["Characters"].most.then == 2
    assert by_label["Lords"].most.by_row == (0, 1, 2, 3)
    assert by_label["Core units"].least.by_row == (2, 3, 4, 5)
    assert by_label["Special units"].most.by_row == (3, 4, 5, 6)
    assert by_label["Rare units"].most.by_row == (1, 2, 3, 4)
    assert (by_label["Generals"].least.fixed, by_label["Generals"].most.fixed) == (1, 1)
    assert by_label["Battle Standard Bearers"].most.fixed == 1


@pytest.mark.parametrize("path", ARMY_FILES, ids=lambda path: path.name)
def test_sample_army_belongs_to_an_army_list_of_its_library(path):
    sample = army(path)
    found = library_from_json(read(LIBRARY_DIR / f"{sample.ruleset}.json"))
    assert found.army_list(sample.army_list) is not None
    entries = {entry.profile.name: entry for entry in found.entries}
    for unit in sample.units:
        assert in_list(entries[unit.profile.name], sample.army_list), unit.id


def test_each_ruleset_has_two_opposing_sample_armies():
    by_ruleset: dict[str, list[Army]] = defaultdict(list)
    for path in ARMY_FILES:
        by_ruleset[army(path).ruleset].append(army(path))
    assert sorted(by_ruleset) == sorted(RULESETS)
    for ruleset, armies in by_ruleset.items():
        assert len(armies) >= 2, ruleset
        assert len({sample.player for sample in armies}) >= 2, ruleset
    names = [army(path).name for path in ARMY_FILES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("path", LIBRARY_FILES + ARMY_FILES,
                         ids=lambda path: f"{path.parent.name}/{path.name}")
def test_file_is_canonical_utf8_json(path):
    """Writing the file again as Rout writes it gives the same bytes."""
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    assert text.endswith("\n") and not text.endswith("\n\n")
    if path.parent == LIBRARY_DIR:
        again = library_to_json(library_from_json(json.loads(text)))
    else:
        again = army_to_json(army_from_json(json.loads(text)))
    assert canonical(again).encode("utf-8") == raw
