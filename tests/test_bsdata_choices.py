"""What a player may choose before choosing it (desktop.engine.bsdata.choices): prices
before ticking, a group taking one, the limits that grey a choice and why, a unit's model
count and its bounds, the units a force may take now; and the edits the panes make.

On the made-up catalogue of bsdata_samples.py (each figure read from its XML) and on the
shared lexicanum Bretonnia catalogue where it is present.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cache

import pytest

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.choices import (
    Choice,
    choose,
    remove_unit,
    set_amount,
    unchoose,
    unit_choices,
    unit_offers,
)
from desktop.engine.bsdata.errors import RosterActionError
from desktop.engine.bsdata.evaluate import Evaluation
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.reader import read_data_file

from bsdata_samples import BSDATA, need, sample_data

LEXICANUM = BSDATA / "lexicanum"
PALADIN = "2674-4f8e-d872-f448"  # Bretonnia's Paladin


def sample() -> tuple[GameData, actions.Roster, str]:
    data = sample_data()
    roster, force = actions.add_force(data, actions.new_roster("t"), "fe-army", "cat")
    return data, roster, force


def find(choices: tuple[Choice, ...], name: str) -> Choice:
    for choice in choices:
        if choice.name == name:
            return choice
        try:
            return find(choice.children, name)
        except LookupError:
            continue
    raise LookupError(name)


def test_prices_show_before_ticking_per_model_and_free():
    data, roster, force = sample()
    roster, knights = actions.select_entry(data, roster, force, "knights")
    shown = unit_choices(data, roster, knights)
    assert shown.models is not None
    assert (shown.models.count, shown.models.minimum, shown.models.maximum,
            shown.models.points_each) == (5, 5, 15, Decimal(24))
    stakes = find(shown.choices, "Stakes")
    assert (stakes.count, stakes.price_text, stakes.per_model) == (0, "+1 per model", True)
    horse = find(shown.choices, "Warhorse")  # its link makes it free in this unit
    assert (horse.count, horse.price_text) == (1, "free")
    assert horse.required == "the army book asks for at least 1"
    assert shown.points == 120
    roster, paladin = actions.select_entry(data, roster, force, "paladin")
    items = unit_choices(data, roster, paladin)
    assert find(items.choices, "Sword of Tests").price_text == "+45"
    assert find(items.choices, "Warhorse").price_text == "+14"  # the game system's price
    group = find(items.choices, "Magic Items")
    assert (group.is_group, group.points_limit, group.points_used) == (True, 50, 0)


def test_a_group_cap_and_an_army_wide_limit_grey_a_choice_with_the_reason():
    data, roster, force = sample()
    roster, first = actions.select_entry(data, roster, force, "paladin")
    sword = find(unit_choices(data, roster, first).choices, "Sword of Tests")
    roster = choose(data, roster, first, sword.entry_id)
    shown = unit_choices(data, roster, first)
    assert find(shown.choices, "Sword of Tests").count == 1
    assert find(shown.choices, "Shield of Tests").blocked == (
        "Magic Items: at most 50 pts in Paladin; 45 used, this costs 10")
    assert find(shown.choices, "Magic Items").points_used == 45
    roster, second = actions.select_entry(data, roster, force, "paladin")
    other = unit_choices(data, roster, second)
    assert find(other.choices, "Sword of Tests").blocked == "at most 1 in the army (1 taken)"
    assert find(other.choices, "Shield of Tests").blocked == ""


def test_the_edits_choose_unchoose_and_set_an_amount():
    data, roster, force = sample()
    roster, knights = actions.select_entry(data, roster, force, "knights")
    shown = unit_choices(data, roster, knights)
    assert shown.models is not None
    roster = set_amount(data, roster, knights, shown.models.entry_id, 9)
    stakes = find(shown.choices, "Stakes")
    roster = choose(data, roster, knights, stakes.entry_id)
    after = unit_choices(data, roster, knights)
    assert after.models is not None and after.models.count == 9
    assert after.points == 9 * 24 + 9  # the stakes: 1 a model
    roster = unchoose(data, roster, knights, stakes.entry_id)
    assert unit_choices(data, roster, knights).points == 216
    with pytest.raises(RosterActionError, match="cannot be chosen in 'Knights'"):
        choose(data, roster, knights, "sword")


@cache
def bretonnia() -> tuple[GameData, str]:
    files = [read_data_file(p.read_bytes(), p.name) for p in sorted(LEXICANUM.iterdir())
             if p.suffix in (".gst", ".cat")]
    system = next(f for f in files if f.is_game_system)
    data = GameData(system, [f for f in files if not f.is_game_system])
    return data, next(c.id for c in data.catalogues.values() if c.name == "Bretonnia")


def bretonnian_army(points: int) -> tuple[GameData, actions.Roster, str]:
    data, catalogue = bretonnia()
    entry = next(f for d in data.context(catalogue).files for f in d.force_entries)
    roster, force = actions.add_force(data, actions.new_roster("t"), entry.id, catalogue)
    roster = actions.set_cost_limit(roster, "ecfa-8486-4f6c-c249", Decimal(points))
    return data, roster, force


def test_a_paladin_takes_one_vow_and_one_mount_and_magic_items_up_to_50():
    need(LEXICANUM)
    data, roster, force = bretonnian_army(1000)
    roster, paladin = actions.select_entry(data, roster, force, PALADIN)
    shown = unit_choices(data, roster, paladin)
    vow = find(shown.choices, "Vow")
    assert (vow.minimum, vow.maximum) == (1, 1)
    assert [(c.name, c.count, c.exclusive, c.price_text) for c in vow.children] == [
        ("Knights Vow", 1, True, "free"), ("Grail Vow", 0, True, "+21"),
        ("Questing Vow", 0, True, "+8")]
    magic = find(shown.choices, "Magic items and Virtues")
    assert magic.points_limit == 50
    assert find(shown.choices, "Gilded Cuirass").blocked == (
        "Magic items and Virtues: at most 50 pts in Paladin; 0 used, this costs 55")
    assert find(shown.choices, "General").price_text == "+2 Casting Dice, +2 Dispel Dice"
    # Choosing another vow replaces the Knights Vow (the group takes one).
    roster = choose(data, roster, paladin, find(shown.choices, "Questing Vow").entry_id)
    after = unit_choices(data, roster, paladin)
    assert [(c.name, c.count) for c in find(after.choices, "Vow").children] == [
        ("Knights Vow", 0), ("Grail Vow", 0), ("Questing Vow", 1)]
    assert after.points == 60 + 14 + 8


def test_another_choice_of_a_group_that_takes_one_is_not_greyed_by_the_one_it_replaces():
    """A radio button stays clickable: the group's "at most 1" is kept by the swap, which
    `choose` makes. A limit of the choice itself still greys it (none on foot here)."""
    need(LEXICANUM)
    data, roster, force = bretonnian_army(1000)
    roster, paladin = actions.select_entry(data, roster, force, PALADIN)
    shown = unit_choices(data, roster, paladin)
    assert [(c.name, c.blocked) for c in find(shown.choices, "Vow").children] == [
        ("Knights Vow", "at most 1 in Paladin (1 taken)"), ("Grail Vow", ""),
        ("Questing Vow", "")]
    mounts = {c.name: c.blocked for c in find(shown.choices, "Mounts").children}
    assert mounts["Royal Pegasus"] == ""
    assert mounts["On Foot"] == "the army book allows none here as the army stands"
    # A magic weapon of the army book sits in two groups that take one (its own list, and
    # the army book's with the common ones): another of its list swaps with it.
    quest = find(shown.choices, "Sword of the Quest")
    roster = choose(data, roster, paladin, quest.entry_id)
    chosen = unit_choices(data, roster, paladin)
    assert find(chosen.choices, "Sword of the Quest").count == 1
    assert find(chosen.choices, "Sword of Heroes").blocked == ""
    # A common one is of another list: the army book's "at most 1" greys it, as it is.
    common = find(find(chosen.choices, "Magic Weapons (Common)").children, "Biting Blade")
    assert common.blocked == "Magic Weapons (BR-AB + Common): at most 1 in Paladin (1 taken)"


def test_units_the_force_may_not_take_now_say_why():
    need(LEXICANUM)
    data, roster, force = bretonnian_army(1000)
    offers = {o.name: o.blocked for o in unit_offers(data, roster, force)}
    assert offers["Paladin"] == ""
    assert offers["Knights of the Realm"] == ""
    assert offers["Bretonnian Lord"] == ""
    # No Lord below 1,000 points: the catalogue's army selection chart says so.
    data, small, small_force = bretonnian_army(999)
    below = {o.name: o.blocked for o in unit_offers(data, small, small_force)}
    assert below["Bretonnian Lord"] == (
        "the Lord slot is full at this points limit: at most 0 (0 taken)")
    grown = roster
    for _ in range(4):
        grown, _ = actions.select_entry(data, grown, force, PALADIN)
    full = {o.name: o.blocked for o in unit_offers(data, grown, force)}
    assert full["Paladin"] == (
        "the Characters slot is full at this points limit: at most 4 (4 taken)")
    errors = [e.message for e in Evaluation(data, grown).errors()]
    assert not any("Characters" in m for m in errors)  # full is not broken


def test_a_unit_that_brings_a_capped_category_from_inside_is_greyed_once_one_is_taken():
    """A real-window try of issue 23: with a Paladin Battle Standard Bearer in the army (a
    new Bretonnian army comes with one), Add Units offered a second one: its banner, inside
    the unit, is what the army's "at most 1 Battle Standard Bearer" counts."""
    need(LEXICANUM)
    data, roster, force = bretonnian_army(2000)
    held = [s for s in roster.forces[0].selections
            if s.option.name == "Paladin Battle Standard Bearer"]
    assert len(held) == 1
    assert not [e for e in Evaluation(data, roster).errors() if "Standard Bearer" in e.message]
    offers = {o.name: o.blocked for o in unit_offers(data, roster, force)}
    assert offers["Paladin Battle Standard Bearer"] == (
        "one more would break: The roster can have at most 1 Battle Standard Bearer (has 2)")
    # What it says: adding one breaks exactly that.
    bsb_entry = next(o.entry_id for o in unit_offers(data, roster, force)
                     if o.name == "Paladin Battle Standard Bearer")
    second, _ = actions.select_entry(data, roster, force, bsb_entry)
    assert any("at most 1 Battle Standard Bearer" in e.message
               for e in Evaluation(data, second).errors())
    # A Paladin, who may be made General but is not by being added, stays free to add;
    # without the banner bearer, one may be added again.
    assert offers["Paladin"] == ""
    alone = remove_unit(roster, held[0].id)
    offers = {o.name: o.blocked for o in unit_offers(data, alone, force)}
    assert offers["Paladin Battle Standard Bearer"] == ""
