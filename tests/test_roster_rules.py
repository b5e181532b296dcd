"""Roster rules in the engine: prices from the library, stat edits, warnings that never block."""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop.engine.model import LibraryEntry, RosterPrice, Unit, UnitProfile
from desktop.engine.roster import (
    PriceSource,
    Quote,
    Severity,
    price,
    problems,
    quote,
    repriced,
    unique_unit_id,
    unit_from_library,
    with_listed_price,
    with_models,
    with_points,
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


def bowmen() -> Unit:
    """As imported: 12 Peasant Bowmen for 72 and Skirmish for 12, no library entry."""
    return Unit("hunters", "Hunters", "Alice", UnitProfile("Peasant Bowmen", W6_STATS), 12, 5,
                points=84, price=RosterPrice(6.0, 12))


def test_an_imported_unit_follows_its_rosters_price_per_model():
    bigger = with_models(bowmen(), 15, [SPEARMEN])
    assert bigger.points == 15 * 6 + 12
    assert quote(bigger, []) == Quote(102, PriceSource.ROSTER)
    assert with_models(bowmen(), 1, []).points == 18
    # Its own price wins over a library entry its profile name happens to find.
    namesake = replace(SPEARMEN, profile=bowmen().profile, points_per_model=50)
    assert with_models(bowmen(), 15, [namesake]).points == 102


def test_typed_points_stay_through_resizing_until_the_listed_price_is_asked_for():
    spears = unit_from_library(SPEARMEN, "spears", "Alice")
    typed = with_points(spears, 90, [SPEARMEN])
    assert (typed.points, typed.points_typed) == (90, True)
    grown = with_models(typed, 21, [SPEARMEN])
    assert (grown.points, grown.points_typed) == (90, True)
    assert repriced(grown, [SPEARMEN]).points == 90
    listed = with_listed_price(grown, [SPEARMEN])
    assert (listed.points, listed.points_typed) == (105, False)
    # Typing the listed price overrides nothing: the points go on following the size.
    assert not with_points(spears, 100, [SPEARMEN]).points_typed
    # Typed points of an imported unit give way to its roster's price.
    assert with_listed_price(with_points(with_models(bowmen(), 15, []), 70, []), []).points == 102


def test_typed_points_of_a_unit_nothing_prices_are_just_its_points():
    loose = replace(bowmen(), price=None)
    assert not with_points(loose, 70, []).points_typed
    assert with_listed_price(replace(loose, points_typed=True), []).points_typed  # kept
    assert with_models(loose, 20, []).points == 84
    assert with_points(loose, -5, []).points == 0


def test_price_notes_name_the_override_and_the_unpriced():
    spears = unit_from_library(SPEARMEN, "spears", "Alice")
    typed = with_models(with_points(spears, 90, [SPEARMEN]), 22, [SPEARMEN])
    loose = replace(bowmen(), id="loose", name="Loose", price=None)
    listed = army(units=0)
    listed = replace(listed, units=(typed, bowmen(), loose))
    found = [(p.unit_id, p.field, p.severity, p.message)
             for p in problems(listed, library=[SPEARMEN])]
    assert found == [
        ("spears", "points", Severity.NOTE, "Spearmen: 90 points typed by hand, kept when its "
         "size changes; the library price is 110"),
        ("loose", "points", Severity.NOTE, "Loose: no library entry or imported price per "
         "model: its 84 points stay as they are when its size changes")]
    assert problems(listed) == []  # without the library nothing is said about prices


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
