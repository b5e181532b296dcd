"""Roster rules in the engine: prices from the library, stat edits, warnings that never block."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.engine.model import LibraryEntry, UnitProfile
from desktop.engine.roster import (
    Severity,
    price,
    problems,
    repriced,
    unique_unit_id,
    unit_from_library,
    with_models,
    with_stat,
)
from desktop.engine.rulesets import get_ruleset

from builders import W6_STATS, army

SPEARMEN = LibraryEntry("warhammer6", UnitProfile("Spearmen", W6_STATS), points_per_model=5,
                        slot="Core", models=20, upgrade_costs={"standard": 10, "musician": 5})


def test_price_is_per_model_plus_each_upgrade_once():
    assert price(SPEARMEN, 20, ()) == 100
    assert price(SPEARMEN, 20, ["standard", "musician", "standard"]) == 115
    assert price(SPEARMEN, 12, ["champion"]) == 60  # an upgrade the entry does not sell


def test_a_unit_from_the_library_is_priced_and_five_wide():
    unit = unit_from_library(SPEARMEN, "spears", "Alice")
    assert (unit.models, unit.files, unit.ranks, unit.points, unit.slot) == (20, 5, 4, 100,
                                                                             "Core")


def test_resizing_reprices_and_keeps_files_within_the_models():
    unit = replace(unit_from_library(SPEARMEN, "spears", "Alice"), upgrades=frozenset(
        {"standard"}))
    smaller = with_models(unit, 3, [SPEARMEN])
    assert (smaller.models, smaller.files, smaller.points) == (3, 3, 25)
    assert repriced(replace(unit, points=1), []).points == 1  # no library entry: kept


def test_ranks_count_a_short_last_rank():
    unit = unit_from_library(SPEARMEN, "spears", "Alice")
    assert replace(unit, models=12, files=5).ranks == 3
    assert replace(unit, models=10, files=5).ranks == 2


@pytest.mark.parametrize(("name", "value", "kept"), [("Ld", 12, 10), ("Ld", 0, 1),
                                                     ("WS", 7, 7)])
def test_a_stat_edit_stays_within_the_ruleset(name, value, kept):
    unit = unit_from_library(SPEARMEN, "spears", "Alice")
    assert with_stat(unit, get_ruleset("warhammer6"), name, value).profile.stats[name] == kept


def test_wounds_edit_changes_the_wounds_the_rules_read():
    unit = unit_from_library(SPEARMEN, "spears", "Alice")
    edited = with_stat(unit, get_ruleset("warhammer6"), "W", 3)
    assert (edited.profile.stats["W"], edited.profile.wounds) == (3, 3)


def test_problems_are_warnings_and_notes_never_refusals():
    over = replace(army(units=3), points_limit=100)
    found = problems(over)
    assert found[0].field == "points" and "over the limit of 100" in found[0].message
    odd = replace(over, units=(replace(over.units[0], upgrades=frozenset({"banner"})),
                               *over.units[1:]))
    notes = [p for p in problems(odd) if p.severity == Severity.NOTE]
    assert any("banner means nothing" in p.message for p in notes)
    twins = replace(over, units=(over.units[0], replace(over.units[1], name=over.units[0].name)))
    assert sum("two units are called" in p.message for p in problems(twins)) == 2


def test_unit_ids_are_unique_and_short():
    base = army(units=2)
    assert unique_unit_id(base, "u0") == "u0-2"
    assert len(unique_unit_id(base, "x" * 300)) <= 100
