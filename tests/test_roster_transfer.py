"""Units between armies and in slot order, in the engine: fresh ids where the target has the
id already, the target's player, refusals across rulesets, and the ruleset's slot order."""

from __future__ import annotations

import pytest

from desktop.engine.model import Army, Unit, UnitProfile
from desktop.engine.roster import join_refusal, joined, units_by_slot
from desktop.engine.rulesets import get_ruleset

from builders import W6_PROFILE


def unit(unit_id: str, slot: str = "Core", player: str = "Ann") -> Unit:
    return Unit(id=unit_id, name=unit_id.title(), player=player,
                profile=UnitProfile(unit_id.title(), W6_PROFILE), models=10, files=5,
                slot=slot)


def army(name: str, *units: Unit, ruleset: str = "warhammer6", player: str = "Ann") -> Army:
    return Army(name=name, player=player, ruleset=ruleset, units=units, id=name.lower())


def test_joined_units_keep_free_ids_and_take_fresh_ones_where_taken():
    target = army("Target", *(unit(name, player="Bea") for name in ("spearmen", "trolls",
                                                                     "trolls-2")), player="Bea")
    grown, ids = joined(target, [unit("trolls"), unit("archers"), unit("trolls-2")])
    assert ids == ["trolls-3", "archers", "trolls-4"]
    assert [u.id for u in grown.units] == ["spearmen", "trolls", "trolls-2", "trolls-3",
                                           "archers", "trolls-4"]
    assert len({u.id for u in grown.units}) == len(grown.units)
    # Units belong to the army's player, as Army Settings keeps them.
    assert {u.player for u in grown.units} == {"Bea"}
    # Everything else about a unit comes along unchanged.
    assert grown.units[4] == unit("archers", player="Bea")


def test_joined_at_a_position():
    target = army("Target", unit("a"), unit("b"))
    grown, ids = joined(target, [unit("x"), unit("y")], position=1)
    assert [u.id for u in grown.units] == ["a", "x", "y", "b"]
    assert ids == ["x", "y"]
    grown, _ = joined(target, [unit("x")], position=99)
    assert [u.id for u in grown.units] == ["a", "b", "x"]


def test_units_join_only_armies_of_their_ruleset():
    w6 = army("Goblins", unit("spearmen"))
    other_w6 = army("Elves")
    kensei = army("Ronin", ruleset="kensei1")
    assert join_refusal(w6, other_w6) == ""
    refusal = join_refusal(w6, kensei)
    assert "Warhammer" in refusal and "Kensei" in refusal and "Ronin" in refusal


@pytest.mark.parametrize(("ruleset", "slots", "expected"), [
    ("warhammer6", ["Rare", "my own", "", "core", "Heroes", "Special", "Lords", "Core"],
     ["Lords", "Heroes", "core", "Core", "Special", "Rare", "my own", ""]),
    ("kensei1", ["Support", "Troops", "Hero"], ["Hero", "Troops", "Support"]),
    ("breaks_pursues", ["Support", "Elite", "Line", "Leaders"],
     ["Leaders", "Line", "Elite", "Support"]),
])
def test_units_by_slot_follow_the_ruleset_and_keep_their_order_within_a_slot(
        ruleset, slots, expected):
    units = [unit(f"u{index}", slot) for index, slot in enumerate(slots)]
    ordered = units_by_slot(units, get_ruleset(ruleset))
    assert [u.slot for u in ordered] == expected
    # Two units of one slot stay in the order the player gave them.
    if ruleset == "warhammer6":
        assert [u.id for u in ordered if u.slot.casefold() == "core"] == ["u3", "u7"]
