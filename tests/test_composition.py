"""Army composition in the engine: warnings from data, never refusals.

The facts are /work/shared/rules/composition.md ("composition.md" below): the W6 army
selection chart by the army's points limit, one General, at most one Battle Standard Bearer,
limits declared on library entries, units from another army's list, and limits that a
group declares for Kensei or Breaks-or-Pursues as data. The W6 tests use the bundled
library file as it ships.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import pytest

from desktop.bundled import resource_path
from desktop.engine.codec import library_from_json
from desktop.engine.composition import (
    Bound,
    Composition,
    CompositionLimit,
    Library,
    army_problems,
    composition_problems,
    has_warnings,
    list_for_catalogue,
    split_by_list,
)
from desktop.engine.model import Army, EntryLimit, LibraryEntry, Unit
from desktop.engine.roster import Severity, unit_from_library


def bundled(ruleset: str) -> Library:
    return library_from_json(json.loads(resource_path("libraries", f"{ruleset}.json")
                                        .read_text(encoding="utf-8")))


W6 = bundled("warhammer6")


def entry(name: str, library: Library = W6) -> LibraryEntry:
    return next(found for found in library.entries if found.profile.name == name)


def units(name: str, count: int, *, upgrades: frozenset[str] = frozenset(),
          library: Library = W6, start: int = 0) -> list[Unit]:
    return [replace(unit_from_library(entry(name, library), f"{name.lower()}-{start + n}",
                                      "Player"), upgrades=upgrades)
            for n in range(count)]


def w6_army(size: int, *, heroes: int = 0, lords: int = 0, core: int = 0, special: int = 0,
            rare: int = 0, general: bool = True, army_list: str = "orcs-goblins") -> Army:
    """An Orcs & Goblins army with so many units of each slot; the first character (a
    Lord if any) is the General."""
    chosen = (units("Orc Warboss", lords) + units("Orc Big Boss", heroes)
              + units("Orc Axe Warriors", core) + units("Orc Boar Riders", special)
              + units("River Troll", rare))
    if general and (lords or heroes):
        chosen[0] = replace(chosen[0], upgrades=frozenset({"general"}))
    return Army("Warband", "Player", "warhammer6", tuple(chosen), points_limit=size,
                army_list=army_list)


def messages(army: Army, library: Library = W6) -> list[str]:
    return [problem.message for problem in composition_problems(army, library)]


# composition.md, the chart: (army points, characters max, Lords max, Core min, Special max,
# Rare max). The boundaries go both sides of each row; "each +1,000" continues past 4,999.
CHART = [
    (1, 3, 0, 2, 3, 1),
    (1_999, 3, 0, 2, 3, 1),
    (2_000, 4, 1, 3, 4, 2),
    (2_999, 4, 1, 3, 4, 2),
    (3_000, 6, 2, 4, 5, 3),
    (3_999, 6, 2, 4, 5, 3),
    (4_000, 8, 3, 5, 6, 4),
    (4_999, 8, 3, 5, 6, 4),
    (5_000, 10, 4, 6, 7, 5),
    (5_999, 10, 4, 6, 7, 5),
    (6_000, 12, 5, 7, 8, 6),
]
ROW_IDS = [f"{row[0]}pts" for row in CHART]


@pytest.mark.parametrize(("size", "characters", "lords", "core", "special", "rare"), CHART,
                         ids=ROW_IDS)
def test_an_army_at_every_limit_of_its_chart_row_has_no_warning(size, characters, lords, core,
                                                                 special, rare):
    army = w6_army(size, lords=lords, heroes=characters - lords, core=core, special=special,
                   rare=rare)
    assert messages(army) == []


@pytest.mark.parametrize(("size", "characters", "lords", "core", "special", "rare"), CHART,
                         ids=ROW_IDS)
def test_one_past_each_limit_of_its_chart_row_is_warned(size, characters, lords, core,
                                                        special, rare):
    at = {"lords": lords, "heroes": characters - lords, "core": core, "special": special,
          "rare": rare}
    where = f"in a {size:,}-point army"
    assert messages(w6_army(size, **{**at, "heroes": at["heroes"] + 1})) == [
        f"Characters: {characters + 1}, should be at most {characters} {where}"]
    # A Lord is a character too: one more Lord (and one Hero fewer) breaks only the Lords row.
    assert messages(w6_army(size, **{**at, "lords": lords + 1,
                                     "heroes": at["heroes"] - 1})) == [
        f"Lords: {lords + 1}, should be at most {lords} {where}"]
    assert messages(w6_army(size, **{**at, "core": core - 1})) == [
        f"Core units: {core - 1}, should be at least {core} {where}"]
    assert messages(w6_army(size, **{**at, "special": special + 1})) == [
        f"Special units: {special + 1}, should be at most {special} {where}"]
    assert messages(w6_army(size, **{**at, "rare": rare + 1})) == [
        f"Rare units: {rare + 1}, should be at most {rare} {where}"]


def test_the_army_size_is_its_points_limit_not_the_points_spent():
    """composition.md: "The army's size is its points limit (the game size agreed)"."""
    army = w6_army(1_999, heroes=1, lords=1, core=3)
    assert army.points < 1_999
    assert messages(army) == ["Lords: 1, should be at most 0 in a 1,999-point army"]
    assert messages(replace(army, points_limit=2_000)) == []
    # Spending past the limit does not move the army into the next row.
    bigger = replace(army, units=army.units + tuple(units("Orc Axe Warriors", 20, start=50)))
    assert bigger.points > 2_000
    assert "Lords: 1, should be at most 0 in a 1,999-point army" in messages(bigger)


def test_without_a_points_limit_the_chart_is_not_checked_and_a_note_says_so():
    army = w6_army(0, heroes=9, lords=3, core=0, rare=5)
    found = composition_problems(army, W6)
    assert [(p.message, p.severity) for p in found] == [
        ("no points limit: the limits that go by the army's size (army selection chart) "
         "are not checked", Severity.NOTE)]
    assert not has_warnings(found)


@pytest.mark.parametrize(("generals", "expected"), [
    (0, ["Generals: 0, should be exactly 1"]),
    (1, []),
    (2, ["Generals: 2, should be exactly 1"]),
])
def test_an_army_has_exactly_one_general(generals, expected):
    """composition.md: "Every army has exactly one General"; checked with or without a
    points limit, since it does not go by the size."""
    for size in (1_500, 0):
        army = w6_army(size, heroes=2, core=2, general=False)
        army = replace(army, units=tuple(
            replace(unit, upgrades=frozenset({"general"})) if number < generals else unit
            for number, unit in enumerate(army.units)))
        assert [m for m in messages(army) if not m.startswith("no points limit")] == expected


@pytest.mark.parametrize(("bearers", "expected"), [
    (0, []),
    (1, []),
    (2, ["Battle Standard Bearers: 2, should be at most 1"]),
])
def test_at_most_one_battle_standard_bearer(bearers, expected):
    """composition.md: "At most one Battle Standard Bearer"."""
    army = w6_army(2_000, heroes=3, core=3)
    army = replace(army, units=tuple(
        replace(unit, upgrades=unit.upgrades | {"battle_standard"}) if 1 <= number <= bearers
        else unit for number, unit in enumerate(army.units)))
    assert messages(army) == expected


# Limits declared on library entries (composition.md: "0–1 per army", "one per Core unit")


def test_a_zero_to_one_entry_is_warned_at_two():
    elves = replace(w6_army(2_000, heroes=0, core=0, army_list="high-elves"), units=())
    noble = replace(units("Elf Noble", 1, library=W6)[0], upgrades=frozenset({"general"}))
    base = (noble, *units("Elf Wardens", 3), *units("Elf Oathsworn Guard", 1))
    assert entry("Elf Oathsworn Guard").limit == EntryLimit(1)
    assert messages(replace(elves, units=base)) == []
    two = replace(elves, units=base + tuple(units("Elf Oathsworn Guard", 1, start=1)))
    assert messages(two) == ["Elf Oathsworn Guard: 2 units, should be at most 1 per army"]


def test_one_per_core_unit_follows_the_core_units():
    assert entry("Goblin Bolt Thrower").limit == EntryLimit(1, per_slot="Core")
    army = w6_army(2_000, heroes=1, core=3)
    throwers = tuple(units("Goblin Bolt Thrower", 3))
    assert messages(replace(army, units=army.units + throwers)) == []
    fewer_core = replace(army, units=army.units[:-1] + throwers)
    assert messages(fewer_core) == [
        "Core units: 2, should be at least 3 in a 2,000-point army",
        "Goblin Bolt Thrower: 3 units, should be at most 2 (1 per Core unit)"]


@pytest.mark.parametrize(("size", "eagles", "warned"), [
    (999, 1, True),  # none below 1,000 points
    (1_000, 1, False),
    (1_999, 2, True),
    (2_000, 2, False),
    (2_000, 3, True),
])
def test_per_points_entry_limits_go_by_the_points_limit(size, eagles, warned):
    assert entry("Great Sky Eagle").limit == EntryLimit(1, per_points=1_000)
    noble = replace(units("Elf Noble", 1)[0], upgrades=frozenset({"general"}))
    army = Army("Elves", "Player", "warhammer6", (noble, *units("Elf Wardens", 4),
                                                  *units("Great Sky Eagle", eagles)),
                points_limit=size, army_list="high-elves")
    limit_warnings = [m for m in messages(army) if m.startswith("Great Sky Eagle")]
    allowed = size // 1_000
    noun = "unit" if eagles == 1 else "units"
    assert limit_warnings == ([f"Great Sky Eagle: {eagles} {noun}, should be at most {allowed} "
                               f"(1 per 1,000 points of {size:,})"] if warned else [])


# Units from another army's list (composition.md's example: an Elf Noble in an Orc army)


def test_an_elf_noble_in_an_orc_army_is_warned_on_the_unit():
    army = w6_army(1_500, heroes=1, core=2)
    noble = replace(units("Elf Noble", 1)[0], name="Lord Aelric")
    army = replace(army, units=(*army.units, noble))
    found = [p for p in composition_problems(army, W6) if p.unit_id]
    assert [(p.message, p.unit_id, p.field, p.severity) for p in found] == [
        ("Lord Aelric (Elf Noble) is from the High Elves list, not Orcs & Goblins",
         noble.id, "name", Severity.WARNING)]


def test_no_list_chosen_means_no_other_list_warning_and_unknown_lists_are_noted():
    army = replace(w6_army(1_500, heroes=1, core=2), army_list="")
    army = replace(army, units=(*army.units, *units("Elf Noble", 1)))
    assert messages(army) == []
    dwarfs = replace(army, army_list="dwarfs")
    found = composition_problems(dwarfs, W6)
    assert [(p.message, p.severity) for p in found] == [
        ("the army list 'dwarfs' is not in the Warhammer Fantasy Battle 6th edition library",
         Severity.NOTE)]


def test_entries_of_no_list_are_taken_by_any_list():
    shared = replace(entry("River Troll"), lists=frozenset())
    library = replace(W6, entries=tuple(shared if e.profile.name == "River Troll" else e
                                        for e in W6.entries))
    elves = Army("Elves", "Player", "warhammer6",
                 (unit_from_library(shared, "troll", "Player"),), army_list="high-elves")
    assert [p for p in composition_problems(elves, library) if p.unit_id] == []


# Breaks-or-Pursues and Kensei: only what a group declares, as data on the library


def test_kensei_and_bp_declare_nothing_and_warn_about_nothing():
    """composition.md: no chart in the seed texts; warn only on what is declared."""
    for ruleset, names in (("kensei1", ["Clan Daimyo", "Ronin Master"]),
                           ("breaks_pursues", ["Valmark Captain", "Beast Chieftain"])):
        library = bundled(ruleset)
        assert library.composition.limits == ()
        crowd = tuple(unit for name in names
                      for unit in units(name, 5, library=library, start=len(name)))
        army = Army("Crowd", "Player", ruleset, crowd, points_limit=100,
                    army_list=library.army_lists[0].id)
        assert [p.field for p in composition_problems(army, library)] == ["name"] * 5


def kensei_with(*limits: CompositionLimit) -> Library:
    """The bundled Kensei library with limits a group filled in."""
    library = bundled("kensei1")
    return replace(library, composition=Composition(source="club rules", limits=limits))


@pytest.mark.parametrize(("heroes", "expected"), [
    (1, []),  # 90 of 500: 18%
    (2, ["Heroes: 180 points, should be at most 25% of 500 (125 points)"]),
])
def test_a_percentage_of_the_points_limit_bounds_the_points_of_a_slot(heroes, expected):
    library = kensei_with(CompositionLimit("Heroes", frozenset({"Hero"}),
                                           most=Bound(percent=25)))
    army = Army("Clan", "Player", "kensei1", tuple(units("Clan Daimyo", heroes,
                                                         library=library)),
                points_limit=500, army_list="samurai-clan")
    assert messages(army, library) == expected


def test_a_least_percentage_counts_exactly_and_shows_fractions():
    library = kensei_with(CompositionLimit("Troops", frozenset({"troops"}),
                                           least=Bound(percent=33)))
    spearmen = units("Ashigaru Yari Spearmen", 1, library=library)  # 60 points
    army = Army("Clan", "Player", "kensei1", tuple(spearmen), points_limit=190,
                army_list="samurai-clan")
    # 33% of 190 is 62.7: 60 points is short, though 62 would round to "63" or "62".
    assert library.composition.value(Bound(percent=33), 190) == Fraction(627, 10)
    assert messages(army, library) == [
        "Troops: 60 points, should be at least 33% of 190 (62.7 points)"]


# Putting it together, and the helpers the windows use


def test_army_problems_puts_army_wide_warnings_first_then_units_in_roster_order():
    army = w6_army(1_000, heroes=1, core=1)
    noble = units("Elf Noble", 1)[0]
    army = replace(army, units=(noble, *army.units), points_limit=100)
    found = army_problems(army, W6)
    assert [p.unit_id for p in found] == ["", "", noble.id]
    assert found[0].message.startswith(f"{army.points} points is")
    assert found[1].message == "Core units: 1, should be at least 2 in a 100-point army"


def test_warnings_come_before_notes_so_a_cell_shows_the_warning():
    army = w6_army(0, heroes=1, core=2)
    noble = units("Elf Noble", 1)[0]
    twin = replace(noble, id="twin")  # the same name: a note on both
    found = army_problems(replace(army, units=(*army.units, noble, twin)), W6)
    on_noble = [(p.severity, p.field) for p in found if p.unit_id == noble.id]
    assert on_noble == [(Severity.WARNING, "name"), (Severity.NOTE, "name")]
    assert [p.severity for p in found if not p.unit_id] == [Severity.NOTE]


def test_a_library_of_another_ruleset_cannot_check_an_army():
    with pytest.raises(ValueError, match="kensei1 library cannot check a warhammer6 army"):
        composition_problems(w6_army(1_000), bundled("kensei1"))


@pytest.mark.parametrize(("catalogue", "expected"), [
    ("Orcs & Goblins", "orcs-goblins"),
    ("orcs and goblins", "orcs-goblins"),
    ("  High   Elves ", "high-elves"),
    ("high-elves", "high-elves"),
    ("Bretonnia", ""),
    ("", ""),
])
def test_a_battlescribe_catalogue_name_finds_its_army_list(catalogue, expected):
    assert list_for_catalogue(W6, catalogue) == expected


def test_declared_catalogue_names_are_matched_too():
    library = replace(W6, army_lists=(replace(W6.army_lists[0],
                                              catalogues=("Ravening Hordes: Greenskins",)),
                                      *W6.army_lists[1:]))
    assert list_for_catalogue(library, "Ravening Hordes - Greenskins") == "orcs-goblins"


def test_an_armys_own_list_comes_first_then_the_others():
    own, others = split_by_list(W6, "high-elves")
    assert [e.profile.name for e in own] == ["Elf Noble", "Elf Wardens", "Elf Archers",
                                            "Elf Oathsworn Guard", "Elf Silver Riders",
                                            "Great Sky Eagle", "Elf Prince"]
    assert own + others != list(W6.entries)
    assert sorted(own + others, key=W6.entries.index) == list(W6.entries)
    assert split_by_list(W6, "") == (list(W6.entries), [])
