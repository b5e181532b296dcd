"""The engine on the real game data in ../shared/data/bsdata (not shipped with Rout).

- The acceptance roster: New Recruit's Bretonnia roster rebuilt from the lexicanum
  catalogue gives every selection's cost, 705 pts, 2 Casting Dice, 2 Dispel Dice and no
  validation error (shared README; acceptance-705.json lists the 48 selections).
- facts.json: facts read from the XML by hand, checked against `rout data units`' figures
  (slot, points per model, sizes, limits, profile, option costs and allowances) and against
  the engine's validation (the army composition limits, a conditional multiply).

Without the shared copy these tests skip, saying why.
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.evaluate import Evaluation
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.reader import read_data_file
from desktop.engine.bsdata.rosterfile import load_roster
from desktop.engine.bsdata.units import UnitSummary, catalogue_units

from bsdata_samples import BSDATA, ROSTER, need

FACTS = BSDATA / "facts.json"
ACCEPTANCE = BSDATA / "acceptance-705.json"
REPOS = {"Ergofarg/Warhammer-Fantasy-6th-edition": "ergofarg",
         "lexicanum-imperialis/Warhammer-Fantasy-Battles-6th-Definitive-edition": "lexicanum"}
PTS = "ecfa-8486-4f6c-c249"  # the pts cost type of both data sets


@cache
def game_data(folder: str) -> GameData:
    files = [read_data_file(p.read_bytes(), p.name)
             for p in sorted((BSDATA / folder).iterdir()) if p.suffix in (".gst", ".cat")]
    system = next(f for f in files if f.is_game_system)
    return GameData(system, [f for f in files if not f.is_game_system])


def catalogue_id(data: GameData, file_name: str) -> str:
    return next(c.id for c in data.catalogues.values() if c.source == file_name)


@cache
def units(folder: str, file_name: str) -> tuple[UnitSummary, ...]:
    data = game_data(folder)
    return tuple(catalogue_units(data, catalogue_id(data, file_name)))


def test_the_new_recruit_roster_rebuilds_to_705_points_with_no_error():
    need(ROSTER)
    need(BSDATA / "lexicanum")
    data = game_data("lexicanum")
    loaded = load_roster(data, ROSTER.read_bytes(), ROSTER.name)
    assert loaded.problems == []
    evaluation = Evaluation(data, loaded.roster)
    assert len(evaluation.all_selections) == 48
    file_costs = {c.selection_id: {k: v for k, v in c.costs if v} for c in loaded.file_costs}
    for node in evaluation.all_selections:
        ours = {k: v for k, v in evaluation.cost_of(node).items() if v}
        assert ours == file_costs[node.selection.id], node.option.name
    names = {t.id: t.name.strip() for t in evaluation.cost_types}
    assert {names[k]: v for k, v in evaluation.totals().items()} == {
        "pts": 705, "Casting Dice": 2, "Dispel Dice": 2}
    assert evaluation.cost_limit(PTS) == 1000
    assert evaluation.errors() == []


def test_the_acceptance_list_names_the_entry_each_selection_resolves_to():
    need(ACCEPTANCE)
    need(ROSTER)
    data = game_data("lexicanum")
    evaluation = Evaluation(data, load_roster(data, ROSTER.read_bytes(), ROSTER.name).roster)
    expected = json.loads(ACCEPTANCE.read_text(encoding="utf-8"))["selections"]
    ours = [(n.option.entry_id, n.option.definition.id, n.number)
            for n in evaluation.all_selections]
    theirs = [(s["entryId"], s["definition"]["id"], s["number"]) for s in expected]
    assert sorted(ours) == sorted(theirs)


def test_the_wrong_catalogue_gives_the_wrong_points():
    """The two data sets share ids: the roster read against Ergofarg's catalogue finds most
    entries but not the lexicanum ones, and refuses another game system's roster."""
    need(ROSTER)
    need(BSDATA / "ergofarg")
    with pytest.raises(DataError, match="the roster is for game system '0d13-7737-ea86-4662'"):
        load_roster(game_data("ergofarg"), ROSTER.read_bytes(), ROSTER.name)


def _facts() -> list[dict[str, Any]]:
    if not FACTS.is_file():
        return []
    return json.loads(FACTS.read_text(encoding="utf-8"))


UNIT_FACTS = ("points_per_model", "min_models", "max_models", "slot", "max_per_roster",
              "magic_banner_points_limit", "magic_items_points_limit")


def _unit_facts() -> list[Any]:
    found = []
    for fact in _facts():
        kind = fact["fact"]
        if fact["file"].endswith(".gst"):
            continue  # the game system's own entries: composition, checked below
        if kind in UNIT_FACTS or kind.startswith(("stat:", "option_cost:",
                                                 "option_cost_per_model:")):
            found.append(pytest.param(fact, id=f"{fact['n']}-{fact['entry']}-{kind}"))
    return found


def _single_model_points(folder: str, file_name: str, unit: UnitSummary) -> float:
    data = game_data(folder)
    cid = catalogue_id(data, file_name)
    context = data.context(cid)
    entry = next(f for d in context.files for f in d.force_entries)
    roster, force = actions.add_force(data, actions.new_roster("t"), entry.id, cid)
    roster, selection = actions.select_entry(data, roster, force, unit.id)
    evaluation = Evaluation(data, roster)
    place = evaluation.place_of(evaluation.by_selection_id[selection])
    return float(evaluation.unit_costs(place).get(PTS, Decimal(0)))


@pytest.mark.parametrize("fact", _unit_facts() or [pytest.param(None, id="no-facts")])
def test_data_units_agrees_with_the_facts_read_from_the_xml(fact):
    if fact is None:
        pytest.skip(f"no facts.json at {FACTS}")
    folder = REPOS[fact["repo"]]
    if not (BSDATA / folder / fact["file"]).is_file():
        pytest.skip(f"{fact['file']} is not in the shared copy")
    found = units(folder, fact["file"])
    name = fact["entry"].removesuffix(" (shared)")
    kind, value = fact["fact"], fact["value"]
    unit = next((u for u in found if u.name == name), None)
    if unit is None:  # an option, or an entry reached through links: found among options
        options = [o for u in found for o in u.options if o.name == name
                   and fact["entry_id"] in o.id.split("::")]
        assert options, f"{name} is neither a unit nor an option of one"
        if kind in ("points_per_model", ) or kind.startswith("option_cost"):
            assert value in [o.points for o in options]
        elif kind == "max_per_roster":
            pytest.skip("an option's army-wide limit is checked by the engine's validation")
        return
    if kind == "points_per_model":
        shown = unit.points_per_model
        if shown is None:
            shown = _single_model_points(folder, fact["file"], unit)
        assert shown == value
    elif kind == "min_models":
        assert unit.min_models == value
    elif kind == "max_models":
        assert unit.max_models == (None if value == "unlimited" else value)
    elif kind == "slot":
        assert unit.slot == value
    elif kind == "max_per_roster":
        assert unit.max_per_army == value
    elif kind.startswith("stat:"):
        assert unit.profile[kind.removeprefix("stat:")] == str(value)
    elif kind in ("magic_banner_points_limit", "magic_items_points_limit"):
        assert value in {o.group_points_limit for o in unit.options}
    else:
        option_name = kind.split(":", 1)[1]
        options = [o for o in unit.options if o.name == option_name]
        assert options, [o.name for o in unit.options]
        assert options[0].points == value
        assert options[0].per_model == kind.startswith("option_cost_per_model:")


def _bretonnian_army(limit: int) -> tuple[GameData, Any, str]:
    data = game_data("lexicanum")
    cid = catalogue_id(data, "Bretonnia (6th definitive edition).cat")
    standard = data.catalogues[cid].force_entries[0]
    assert standard.name == "Standard (BR-AB)"
    roster, force = actions.add_force(data, actions.new_roster("t"), standard.id, cid)
    return data, actions.set_cost_limit(roster, PTS, Decimal(limit)), force


def _messages(data: GameData, roster: Any) -> list[str]:
    return [e.message for e in Evaluation(data, roster).errors()]


def test_bretonnia_at_1000_points_needs_two_core_and_takes_four_characters():
    need(BSDATA / "lexicanum")
    data, roster, force = _bretonnian_army(1000)
    # A new force has its mandatory Knights of the Realm and Battle Standard Bearer.
    assert "Standard (BR-AB) must have at least 2 Core (has 1)" in _messages(data, roster)
    roster, _ = actions.select_entry(data, roster, force, "9572-ac32-c59e-134c")  # bowmen
    assert not any("Core" in m for m in _messages(data, roster))
    for _ in range(4):
        roster, _ = actions.select_entry(data, roster, force, "2674-4f8e-d872-f448")  # paladin
    assert not any("Characters" in m for m in _messages(data, roster))  # 4: 3 +1 Bretonnia
    roster, _ = actions.select_entry(data, roster, force, "2674-4f8e-d872-f448")
    assert "Standard (BR-AB) can have at most 4 Characters (has 5)" in _messages(data, roster)


def test_one_sword_of_the_quest_per_army_wherever_it_is_carried():
    need(BSDATA / "lexicanum")
    data, roster, force = _bretonnian_army(2000)
    sword = "b061-bb96-df69-7b40::eb26-4c78-f50c-699c::e4c2-221a-663f-2890::1e69-b89e-b408-4bd8"
    for _ in range(2):
        roster, paladin = actions.select_entry(data, roster, force, "2674-4f8e-d872-f448")
        roster, _ = actions.select_entry(data, roster, force, sword, paladin)
    assert "The roster can have at most 1 Sword of the Quest (has 2)" in _messages(data, roster)


def test_the_organ_gun_costs_double_beside_king_alrik():
    need(BSDATA / "lexicanum")
    data = game_data("lexicanum")
    cid = catalogue_id(data, "Dwarfs (2001) (6th definitive edition).cat")
    entry = next(f for d in data.context(cid).files for f in d.force_entries)
    roster, force = actions.add_force(data, actions.new_roster("t"), entry.id, cid)
    options = data.context(cid).root_selectable
    organ = next(o for o in options if o.definition.id == "79c9-6f85-479d-909a")
    alrik = next(o for o in options if o.definition.id == "e4c5-f4d5-a169-aaa7")
    roster, gun = actions.select_entry(data, roster, force, organ.entry_id)

    def gun_points(roster: Any) -> Decimal:
        evaluation = Evaluation(data, roster)
        return evaluation.cost_of(evaluation.by_selection_id[gun])[PTS]
    assert gun_points(roster) == 125
    roster, _ = actions.select_entry(data, roster, force, alrik.entry_id)
    assert gun_points(roster) == 250


def test_a_regiment_of_renown_made_of_priced_units_counts_them_as_its_models():
    # Fenbeasts (Mercenaries, linked from Bretonnia): a unit group holding one to three
    # Fenbeast units at 85 pts each; Dwarf Bolt Throwers: one or two at 45 pts each,
    # their crew and runes the options.
    need(BSDATA / "lexicanum")
    fenbeasts = next(u for u in units("lexicanum", "Bretonnia (6th definitive edition).cat")
                     if u.name == "Fenbeasts")
    assert (fenbeasts.slot, fenbeasts.points_per_model, fenbeasts.min_models,
            fenbeasts.max_models) == ("Regiment of Renown", 85.0, 1, 3)
    bolt = next(u for u in units("lexicanum", "Dwarfs (2005) (6th definitive edition).cat")
                if u.name == "Bolt Thrower")
    assert (bolt.slot, bolt.points_per_model, bolt.min_models, bolt.max_models) == (
        "Special", 45.0, 1, 2)
    assert "Engineer" in {o.name for o in bolt.options}


def _character_with_items(folder: str, file_name: str, character: str, container: str,
                          items: tuple[str, ...]) -> tuple[GameData, Any]:
    """A force of the catalogue with `character`, holding `items` inside its `container`
    entry (a Magic Selection: an entry, not a group, that caps the points inside it)."""
    data = game_data(folder)
    cid = catalogue_id(data, file_name)
    context = data.context(cid)
    entry = next(f for d in context.files for f in d.force_entries)
    roster, force = actions.add_force(data, actions.new_roster("t"), entry.id, cid)
    unit = next(o for o in context.root_selectable if o.name == character)
    roster, holder = actions.select_entry(data, roster, force, unit.entry_id)
    box = next(o for o in unit.selectable if o.name == container)
    assert not box.is_group
    roster, inside = actions.select_entry(data, roster, force, box.entry_id, holder)
    for name in items:
        item = next(o for o in box.selectable if o.name == name)
        roster, _ = actions.select_entry(data, roster, force, item.entry_id, inside)
    return data, roster


def test_a_points_limit_on_a_container_entry_counts_the_items_inside_it():
    # Skaven.cat: a Grey Seer's "Magic Selection" is an entry holding links to the magic
    # item groups, with a max of 100 pts (scope parent) of itself; the items' points are
    # theirs, the container's own cost is 0.
    need(BSDATA / "ergofarg")
    data, roster = _character_with_items("ergofarg", "Skaven.cat", "Grey Seer",
                                         "Magic Selection",
                                         ("Fellblade", "Staff of Sorcery", "Brass Orb"))
    assert "Grey Seer can have at most 100 pts of Magic Selection (has 185)" in _messages(
        data, roster)
    data, roster = _character_with_items("ergofarg", "Skaven.cat", "Grey Seer",
                                         "Magic Selection", ("Fellblade",))
    assert not any("Magic Selection" in m for m in _messages(data, roster))
    # Dogs of War: a Paymaster's Magic Items entry, at most 50 pts.
    need(BSDATA / "lexicanum")
    data, roster = _character_with_items(
        "lexicanum", "Dogs of War (6th definitive edition).cat", "Paymaster", "Magic Items",
        ("Sword of Striking", "Gleaming Pendant of Chotec"))
    assert "Paymaster can have at most 50 pts of Magic Items (has 65)" in _messages(
        data, roster)


def test_data_units_gives_a_container_entrys_points_limit_to_the_items_inside():
    need(BSDATA / "ergofarg")
    seer = next(u for u in units("ergofarg", "Skaven.cat") if u.name == "Grey Seer")
    inside = [o for o in seer.options if o.group.startswith("Magic Selection")]
    assert inside and {o.group_points_limit for o in inside} == {100.0}


def test_bretonnia_without_mercenaries_names_each_root_unit_it_cannot_offer():
    # Nine of the catalogue's 13 root entryLinks point into Mercenaries (the XML: their
    # targetIds are defined there); without it they vanished without a warning.
    need(BSDATA / "lexicanum")
    folder = BSDATA / "lexicanum"
    system = next(p for p in folder.iterdir() if p.suffix == ".gst")
    bretonnia = folder / "Bretonnia (6th definitive edition).cat"
    data = GameData(read_data_file(system.read_bytes(), system.name),
                    [read_data_file(bretonnia.read_bytes(), bretonnia.name)])
    root_links = {e.id: e.name for e in data.catalogues[catalogue_id(
        data, bretonnia.name)].entry_links}
    named = {p.split("link '", 1)[1].split("'", 1)[0] for p in data.all_problems()
             if "points at" in p}
    assert sorted(root_links[i] for i in named if i in root_links) == [
        "0-1 Amazon Serpent Priestess", "Amazon Cold One Outriders",
        "Amazon Serpent Warriors (Totem Warriors)", "Anakonda's Amazons", "Dark Emissary",
        "Emperor Fire Dragon", "Fenbeasts", "Gotrek Gurnisson & Felix Jaeger", "Truthsayer"]
