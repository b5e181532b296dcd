"""Rout JSON (desktop.engine.codec): armies and battles to plain data and back, strictly.

Round trips go through JSON text (json.dumps, json.loads), as a file or a database column
would. Bad documents must raise a RuleError subclass whose message starts with the place of
the problem ("units[0].profile.stats.Ld: ..."), so a player can find it in the file.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import types
import typing
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from work import growth

from desktop.engine import codec
from desktop.engine import scenario as scenario_module
from desktop.engine.codec import (
    MAX_MODELS,
    MAX_POINTS,
    army_from_json,
    army_to_json,
    battle_from_json,
    battle_to_json,
    profile_from_json,
    profile_from_stored,
    profile_to_json,
)
from desktop.engine.dice import ScriptedRoller
from desktop.engine.errors import RuleError, ScenarioError, StatError
from desktop.engine.events import (
    Event,
    FlagSet,
    ModifierApplied,
    TerrainMoved,
    TerrainRenamed,
    TurnBegan,
    UnitDestroyed,
    WoundsSuffered,
    fold,
)
from desktop.engine.model import (
    MAX_FLAGS,
    MAX_MODIFIERS,
    Army,
    Battle,
    RosterPrice,
    Status,
    Terrain,
    TroopType,
    Unit,
    UnitProfile,
)
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.reading import Reader
from desktop.engine.rulesets import RULESETS, get_ruleset
from desktop.engine.scenario import Scenario, load_scenario

REPO = Path(__file__).resolve().parents[1]
BUNDLED = sorted((REPO / "resources" / "scenarios").glob("*.json"))

W6 = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
K1 = {"Mv": 10, "Init": 3, "Honor": 5, "W": 1, "AP": 2}
BP = {"M": 5, "Ld": 8}



# What any database stores: no NUL and no lone surrogates (the reader refuses those).
STORABLE = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))

def through_text(data: object) -> Any:
    """What a reader gets back from a file: the data as JSON text, parsed again."""
    return json.loads(json.dumps(data))


def read_back(army: Army) -> Army:
    return army_from_json(through_text(army_to_json(army)))


def w6_army() -> Army:
    """A Warhammer army that uses every field a roster entry has."""
    player = "Orcs & Goblins"

    def unit(uid: str, name: str, stats: dict[str, int], **fields: Any) -> Unit:
        profile_fields = {key: fields.pop(key) for key in
                          ("troop_type", "base", "unit_strength", "wounds", "special_rules",
                           "flies") if key in fields}
        profile = UnitProfile(fields.pop("profile_name", name), {**W6, **stats},
                              **profile_fields)
        return Unit(uid, name, player, profile, **fields)

    units = (
        unit("boyz", "Orc Boyz", {"S": 4, "T": 4, "Ld": 7}, models=25, files=5,
             base=(0.7874015748031497, 0.7874015748031497), upgrades=frozenset(
                 {"standard", "musician"}), points=150, slot="Core",
             notes=("Big Boss leads", "Choppas and shields")),
        unit("wolf_riders", "Goblin Wolf Riders", {"M": 9, "Ld": 6}, models=5, files=5,
             troop_type=TroopType.CAVALRY, base=(1.0, 2.0), unit_strength=2,
             points=90, slot="Core"),
        unit("giant", "Giant", {"M": 6, "WS": 3, "S": 7, "T": 5, "W": 6, "A": 10, "Ld": 10},
             models=1, files=1, troop_type=TroopType.MONSTER, base=(1.9685, 1.9685),
             unit_strength=6, wounds=6, special_rules=frozenset({"stubborn", "large_target",
                                                                 "fear"}),
             points=205, slot="Rare"),
        unit("chariot", "Wolf Chariot", {"M": 9, "T": 4, "W": 3}, models=1, files=1,
             troop_type=TroopType.CHARIOT, base=(2.0, 4.0), unit_strength=4, wounds=3,
             points=50, slot="Special"),
        unit("lobber", "Rock Lobber", {"M": 0, "WS": 0, "BS": 0, "A": 0}, models=1, files=1,
             troop_type=TroopType.WAR_MACHINE, base=(2.5, 2.5), points=80, slot="Rare"),
        unit("shaman", "Goblin Shaman", {"W": 2, "Ld": 6}, models=1, files=1,
             troop_type=TroopType.CHARACTER, wounds=2, points=65, slot="Heroes",
             upgrades=frozenset({"dispel_scroll"}), notes=("Level 1 wizard",)),
        unit("squigs", "Squig Herd", {}, models=12, files=4, troop_type=TroopType.SWARM,
             special_rules=frozenset({"unbreakable", "immune_to_psychology"}), points=0),
        unit("wyvern", "Orc Warboss on Wyvern", {"M": 6, "W": 7, "Ld": 9},
             profile_name="Wyvern", models=1, files=1, troop_type=TroopType.MONSTER,
             base=(2.0, 4.0), flies=True, unit_strength=5, wounds=7, character_wounds=3,
             points=MAX_POINTS, slot="Lords"),
    )
    return Army("Grimgor's 'Ard Boyz — ünïcode", player, "warhammer6", units,
                points_limit=2250, notes=("Tournament list", "", "Ruled by \"Grimgor\""),
                id="saved-id-is-not-written")


def k1_army() -> Army:
    player = "Crane Clan"
    samurai = UnitProfile("Ronin Samurai", {"Mv": 10, "Init": 5, "Honor": 3, "W": 1, "AP": 2},
                          base=(2.5, 2.5), special_rules=frozenset({"ronin"}))
    oni = UnitProfile("Oni", {"Mv": 12, "Init": 4, "Honor": 6, "W": 20, "AP": 6},
                      troop_type=TroopType.LARGE, base=(5.0, 5.0), wounds=20)
    hero = UnitProfile("Ashigaru", {**K1, "Mv": 0, "Init": 0, "Honor": 10, "AP": 0},
                       special_rules=frozenset({"bushi"}), base=(2.5, 2.5))
    return Army("Crane Clan vanguard", player, "kensei1", (
        Unit("samurai", "Ronin Samurai", player, samurai, 10, 5, points=120, slot="Bushi"),
        Unit("oni", "Captured Oni", player, oni, 1, 1, points=75, slot="Monsters",
             notes=("Bound by a shugenja",)),
        Unit("ashigaru", "Ashigaru with a Bushi", player, hero, 12, 6,
             upgrades=frozenset({"standard"}), character_wounds=2, points=60),
    ), points_limit=300)


def bp_army() -> Army:
    player = "High Elves"
    helms = UnitProfile("Silver Helm", {"M": 20, "Ld": 10}, troop_type=TroopType.CAVALRY,
                        base=(1.0, 2.0), unit_strength=2)
    archers = UnitProfile("Archer", {"M": 0, "Ld": 1})
    return Army("Tiranoc", player, "breaks_pursues", (
        Unit("helms", "Silver Helms", player, helms, 5, 5, points=105, slot="Core"),
        Unit("archers", "Archers", player, archers, 10, 10, points=110, slot="Core",
             notes=("", "line one\nline two")),
    ))


HAND_MADE = {"warhammer6": w6_army, "kensei1": k1_army, "breaks_pursues": bp_army}


# ---------------------------------------------------------------------------------------------
# Armies: round trips


@pytest.mark.parametrize("ruleset", sorted(HAND_MADE))
def test_army_reads_back_equal_except_its_id(ruleset):
    army = HAND_MADE[ruleset]()
    assert army.ruleset == ruleset
    found = read_back(army)
    assert found == replace(army, id="")
    assert found.points == army.points and found.models == army.models
    # Read again, it writes the same document: nothing drifts from one save to the next.
    assert army_to_json(found) == army_to_json(army)


def test_army_document_holds_plain_json_and_no_id():
    data = army_to_json(w6_army())
    assert data == through_text(data)
    assert data["format"] == "rout-army" and data["version"] == 1
    assert "id" not in data
    assert all("player" not in unit for unit in data["units"])
    assert data["units"][2]["profile"]["special_rules"] == ["fear", "large_target", "stubborn"]


def test_an_army_without_units_reads_back():
    army = Army("Empty", "Nobody", "kensei1", ())
    assert read_back(army) == army


def test_units_without_optional_fields_get_their_defaults():
    document = army_to_json(bp_army())
    for unit in document["units"]:
        for key in ("upgrades", "character_wounds", "points", "slot", "notes", "files"):
            del unit[key]
        for key in ("troop_type", "unit_strength", "wounds", "special_rules", "flies"):
            del unit["profile"][key]
    del document["points_limit"], document["notes"]
    found = army_from_json(document)
    helms = found.units[0]
    assert (helms.files, helms.points, helms.slot, helms.notes, helms.upgrades) == (
        5, 0, "", (), frozenset())
    assert helms.profile.troop_type is TroopType.INFANTRY
    assert (helms.profile.unit_strength, helms.profile.wounds) == (1, 1)
    assert found.units[1].files == 5  # at most five wide by default
    assert (found.points_limit, found.notes) == (0, ())


# Hypothesis: any army a ruleset allows survives the trip.


def _stripped_text(max_size: int = 24) -> st.SearchStrategy[str]:
    # Names are read with their outer whitespace trimmed, and may not be empty.
    return st.text(STORABLE, min_size=1, max_size=max_size).map(str.strip).filter(bool)


def _stats(ruleset_id: str) -> st.SearchStrategy[dict[str, int]]:
    specs = get_ruleset(ruleset_id).stats
    return st.fixed_dictionaries({spec.name: st.integers(spec.minimum, spec.maximum)
                                  for spec in specs})


_SIZES = st.floats(min_value=0, max_value=1000, exclude_min=True, allow_nan=False)
_WORDS = st.sampled_from(["stubborn", "unbreakable", "immune_to_psychology", "ronin", "bushi",
                          "standard", "musician", "fear"]) | st.text(STORABLE, max_size=12)


@st.composite
def profiles(draw: st.DrawFn, ruleset_id: str) -> UnitProfile:
    return UnitProfile(
        name=draw(_stripped_text()),
        stats=draw(_stats(ruleset_id)),
        troop_type=draw(st.sampled_from(TroopType)),
        base=(draw(_SIZES), draw(_SIZES)),
        unit_strength=draw(st.integers(0, 100)),
        wounds=draw(st.integers(1, 100)),
        special_rules=draw(st.frozensets(_WORDS, max_size=4)),
        flies=draw(st.booleans()),
    )


@st.composite
def armies(draw: st.DrawFn) -> Army:
    ruleset_id = draw(st.sampled_from(sorted(RULESETS)))
    player = draw(_stripped_text())
    units = []
    for uid in draw(st.lists(_stripped_text(12), max_size=6, unique=True)):
        models = draw(st.integers(1, MAX_MODELS))
        units.append(Unit(
            id=uid, name=draw(_stripped_text()), player=player,
            profile=draw(profiles(ruleset_id)), models=models,
            files=draw(st.integers(1, models)),
            upgrades=draw(st.frozensets(_WORDS, max_size=3)),
            character_wounds=draw(st.integers(0, 100)),
            points=draw(st.integers(0, MAX_POINTS)),
            slot=draw(st.just("") | _stripped_text()),
            notes=tuple(draw(st.lists(st.text(STORABLE, max_size=40), max_size=4))),
            price=draw(st.none() | st.builds(
                RosterPrice, st.floats(0, MAX_POINTS, allow_nan=False),
                st.integers(-MAX_POINTS, MAX_POINTS))),
            points_typed=draw(st.booleans()),
        ))
    return Army(name=draw(_stripped_text()), player=player, ruleset=ruleset_id,
                units=tuple(units), points_limit=draw(st.integers(0, MAX_POINTS)),
                notes=tuple(draw(st.lists(st.text(STORABLE, max_size=40), max_size=3))),
                id=draw(st.just("") | st.uuids().map(lambda u: u.hex)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(armies())
def test_any_valid_army_reads_back_equal(army):
    assert read_back(army) == replace(army, id="")


def test_roster_prices_and_typed_points_read_back_in_version_2():
    army = w6_army()
    priced = replace(army, units=(replace(army.units[0], price=RosterPrice(6.5, -3)),
                                  replace(army.units[1], points_typed=True), *army.units[2:]))
    data = through_text(army_to_json(priced))
    assert data["version"] == 2
    assert data["units"][0]["price"] == {"per_model": 6.5, "upgrades": -3}
    assert data["units"][1]["points_typed"] is True
    assert "price" not in data["units"][1] and "points_typed" not in data["units"][0]
    assert army_from_json(data) == replace(priced, id="")
    # An army with neither stays version 1, readable by a Rout that never knew them.
    assert army_to_json(army)["version"] == 1


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(RULESETS)).flatmap(profiles))
def test_profile_from_stored_reads_what_profile_to_json_writes(profile):
    stored = through_text(profile_to_json(profile))
    assert profile_from_stored(stored) == profile
    # The checked reader agrees with the quick one.
    ruleset = next(r for r in RULESETS.values() if set(r.default_stats()) == set(profile.stats))
    assert profile_from_json(ruleset, Reader(stored)) == profile


@pytest.mark.parametrize("ruleset", sorted(HAND_MADE))
def test_profile_from_stored_reads_every_hand_made_profile(ruleset):
    for unit in HAND_MADE[ruleset]().units:
        stored = through_text(profile_to_json(unit.profile))
        assert profile_from_stored(stored) == unit.profile


@pytest.mark.parametrize("damage", [
    lambda p: p.pop("stats"),
    lambda p: p.update(troop_type="dragon"),
    lambda p: p.update(base=[1.0]),
    lambda p: p.update(wounds="many"),
    lambda p: p.update(stats=[1, 2]),
])
def test_profile_from_stored_fails_loudly_on_damaged_data(damage):
    """The store turns these three exceptions into "the database is damaged"."""
    stored = profile_to_json(w6_army().units[0].profile)
    damage(stored)
    with pytest.raises((KeyError, TypeError, ValueError)):
        profile_from_stored(stored)


# ---------------------------------------------------------------------------------------------
# Armies: strict reading


def _set(path: str, value: Any):
    """A change to a document: set the value at a dotted path such as units.0.models."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _drop(path: str):
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]

    return change


def _duplicate_first_unit(data: dict[str, Any]) -> None:
    data["units"].append(copy.deepcopy(data["units"][0]))


def _many_units(data: dict[str, Any]) -> None:
    data["units"] = [{**data["units"][0], "id": f"u{i}"} for i in range(codec.MAX_UNITS + 1)]


BAD_ARMIES = [
    # (change, exception class, message start, something else the message says)
    (_set("units.0.profile.stats.Ld", 11), StatError, "units[0].profile.stats.Ld: ",
     "Leadership (Ld) 11 is out of range 1 to 10"),
    (_set("units.0.profile.stats.Ld", 0), StatError, "units[0].profile.stats.Ld: ",
     "out of range"),
    (_set("units.2.profile.stats.W", 11), StatError, "units[2].profile.stats.W: ",
     "out of range 1 to 10"),
    (_set("units.0.profile.stats.M", -1), StatError, "units[0].profile.stats.M: ",
     "out of range 0 to 10"),
    (_set("units.0.profile.stats.Ld", "8"), StatError, "units[0].profile.stats.Ld: ",
     "whole number"),
    (_set("units.0.profile.stats.Ld", 7.5), StatError, "units[0].profile.stats.Ld: ",
     "whole number"),
    (_set("units.0.profile.stats.Ld", True), StatError, "units[0].profile.stats.Ld: ",
     "whole number"),
    (_set("units.0.profile.stats.Ld", None), StatError, "units[0].profile.stats.Ld: ",
     "whole number"),
    (_set("units.1.profile.stats.Honor", 5), StatError, "units[1].profile.stats.Honor: ",
     "no statistic 'Honor'"),
    (_drop("units.0.profile.stats.Ld"), StatError, "units[0].profile.stats: ",
     "no Leadership (Ld)"),
    (_set("units.0.profile.stats", [4, 3]), ScenarioError, "units[0].profile.stats: ",
     "a group of fields in { }"),
    (_drop("units.0.profile"), ScenarioError, "units[0].profile: ", "is missing"),
    (_set("units.0.profile.troop_type", "dragon"), ScenarioError,
     "units[0].profile.troop_type: ", "unknown troop type 'dragon'"),
    (_set("units.0.profile.base", [0, 1]), ScenarioError, "units[0].profile.base: ",
     "positive"),
    (_set("units.0.profile.base", [1]), ScenarioError, "units[0].profile.base: ",
     "a point [x, y] is needed"),
    (_set("units.0.profile.base", "20mm"), ScenarioError, "units[0].profile.base: ",
     "a point [x, y] is needed"),
    (_set("units.0.profile.flies", "yes"), ScenarioError, "units[0].profile.flies: ",
     "true or false"),
    (_set("units.0.profile.unit_strength", 101), ScenarioError,
     "units[0].profile.unit_strength: ", "above the maximum of 100"),
    (_set("units.0.profile.wounds", 0), ScenarioError, "units[0].profile.wounds: ",
     "below the minimum of 1"),
    (_set("units.0.profile.special_rules", "stubborn"), ScenarioError,
     "units[0].profile.special_rules: ", "list of text"),
    (_set("units.0.profile.colour", "green"), ScenarioError, "units[0].profile.colour: ",
     "unknown field 'colour'"),
    (_set("units.0.models", "25"), ScenarioError, "units[0].models: ", "whole number"),
    (_set("units.0.models", 25.0), ScenarioError, "units[0].models: ", "whole number"),
    (_set("units.0.models", 0), ScenarioError, "units[0].models: ", "below the minimum of 1"),
    (_set("units.0.models", MAX_MODELS + 1), ScenarioError, "units[0].models: ",
     "above the maximum"),
    (_drop("units.0.models"), ScenarioError, "units[0].models: ", "is missing"),
    (_set("units.0.files", 26), ScenarioError, "units[0].files: ",
     "26 files is more than the 25 models"),
    (_set("units.0.files", 0), ScenarioError, "units[0].files: ", "below the minimum"),
    (_set("units.0.points", -5), ScenarioError, "units[0].points: ", "below the minimum of 0"),
    (_set("units.0.points", 10**100), ScenarioError, "units[0].points: ", "above the maximum"),
    (_set("units.0.character_wounds", 101), ScenarioError, "units[0].character_wounds: ",
     "above the maximum"),
    (_set("units.0.upgrades", [1]), ScenarioError, "units[0].upgrades: ", "list of text"),
    (_set("units.0.notes", ["note"] * (codec.MAX_NOTES + 1)), ScenarioError,
     "units[0].notes: ", "more than Rout keeps"),
    (_set("units.0.notes", "one note"), ScenarioError, "units[0].notes: ", "list of text"),
    (_set("units.0.slot", 3), ScenarioError, "units[0].slot: ", "text is needed here"),
    (_set("units.0.id", ""), ScenarioError, "units[0].id: ", "text is needed here"),
    (_drop("units.0.id"), ScenarioError, "units[0].id: ", "is missing"),
    (_set("units.0.name", ["Orc Boyz"]), ScenarioError, "units[0].name: ", "text is needed here"),
    # Units in an army carry no player of their own: the army's is theirs.
    (_set("units.0.player", "Someone else"), ScenarioError, "units[0].player: ",
     "unknown field 'player'"),
    (_set("units.0.state", {}), ScenarioError, "units[0].state: ", "unknown field 'state'"),
    (_set("units.0", "boyz"), ScenarioError, "units[0]: ", "a group of fields in { }"),
    (_duplicate_first_unit, ScenarioError, "units[8].id: ", "'boyz' is used twice"),
    (_many_units, ScenarioError, "units: ", f"{codec.MAX_UNITS + 1} units is more than"),
    (_set("units", {"boyz": {}}), ScenarioError, "units: ", "a list"),
    (_drop("name"), ScenarioError, "name: ", "is missing"),
    (_set("name", 42), ScenarioError, "name: ", "text is needed here"),
    (_set("name", "   "), ScenarioError, "name: ", "text is needed here"),
    (_set("player", False), ScenarioError, "player: ", "text is needed here"),
    (_set("points_limit", -1), ScenarioError, "points_limit: ", "below the minimum"),
    (_set("points_limit", "2000"), ScenarioError, "points_limit: ", "whole number"),
    (_set("notes", [1, 2]), ScenarioError, "notes: ", "list of text"),
    (_set("id", "abc"), ScenarioError, "id: ", "unknown field 'id'"),
    (_set("colour", "green"), ScenarioError, "colour: ", "unknown field 'colour'"),
    (_set("ruleset", "warhammer8"), ScenarioError, "ruleset: ",
     "unknown ruleset 'warhammer8' (known: breaks_pursues, kensei1, warhammer6)"),
    (_set("ruleset", 6), ScenarioError, "ruleset: ", "text is needed here"),
    (_drop("ruleset"), ScenarioError, "ruleset: ", "is missing"),
    (_set("version", 3), ScenarioError, "version: ", "written by a newer Rout"),
    (_set("version", 0), ScenarioError, "version: ", "below the minimum of 1"),
    (_set("version", "1"), ScenarioError, "version: ", "whole number"),
    (_drop("version"), ScenarioError, "version: ", "is missing"),
    (_set("format", "rout-battle"), ScenarioError, "this is not a Rout army file",
     "format should be 'rout-army', the file has the text \"rout-battle\""),
    (_set("format", "rout-scenario"), ScenarioError, "this is not a Rout army file",
     "the file has the text \"rout-scenario\""),
    (_drop("format"), ScenarioError, "this is not a Rout army file", "the file has nothing (null)"),
]


@pytest.mark.parametrize(("change", "kind", "start", "says"), BAD_ARMIES)
def test_bad_army_documents_are_refused_with_their_place(change, kind, start, says):
    data = through_text(army_to_json(w6_army()))
    change(data)
    with pytest.raises(RuleError) as caught:
        army_from_json(data)
    assert type(caught.value) is kind
    message = str(caught.value)
    assert message.startswith(start), message
    assert says in message, message
    assert message.count(start) == 1, message  # the place is named once, not repeated
    assert "\n" not in message


@pytest.mark.parametrize(("change", "says"), [
    (_set("version", 1), "units[0]: a roster price or typed points need version 2"),
    (_set("units.0.price.per_model", -1), "units[0].price.per_model: -1 is below the minimum"),
    (_set("units.0.price.per_model", 2e6), "units[0].price.per_model: 2000000.0 is above"),
    (_set("units.0.price.upgrades", 1.5), "units[0].price.upgrades: a whole number is needed here"),
    (_set("units.0.price.each", 1), "units[0].price.each: unknown field 'each'"),
    (_set("units.0.points_typed", "yes"), "units[0].points_typed: true or false is needed here"),
])
def test_bad_roster_prices_are_refused_with_their_place(change, says):
    army = w6_army()
    data = through_text(army_to_json(replace(army, units=(
        replace(army.units[0], price=RosterPrice(6.0, 12)), *army.units[1:]))))
    change(data)
    with pytest.raises(ScenarioError) as caught:
        army_from_json(data)
    assert str(caught.value).startswith(says), str(caught.value)


@pytest.mark.parametrize("data", [[], "rout-army", None, 7])
def test_an_army_document_must_be_an_object(data):
    with pytest.raises(ScenarioError, match=r"the file should hold a group of fields in \{ \}"):
        army_from_json(data)


@pytest.mark.parametrize(("path", "place"), [
    ("units.0.models", "units[0].models: the number is far too large"),
    ("units.0.points", "units[0].points: the number is far too large"),
    ("points_limit", "points_limit: the number is far too large"),
    ("version", "version: the number is far too large"),
    ("units.0.profile.stats.Ld", "units[0].profile.stats.Ld: "),
    ("units.0.profile.base.0", "units[0].profile.base: a point [x, y] is needed here"),
])
def test_huge_numbers_in_the_text_are_refused_with_their_place(path, place):
    """1e400 parses as infinity; it must be refused where it stands, not crash later."""
    data = through_text(army_to_json(w6_army()))
    _set(path, "HUGE")(data)
    parsed = json.loads(json.dumps(data).replace('"HUGE"', "1e400"))
    with pytest.raises(RuleError) as caught:
        army_from_json(parsed)
    assert str(caught.value).startswith(place), str(caught.value)


@pytest.mark.parametrize(("ruleset", "stat", "value", "says"), [
    ("kensei1", "Mv", 61, "Move (cm) (Mv) 61 is out of range 0 to 60"),
    ("kensei1", "W", 21, "out of range 1 to 20"),
    ("kensei1", "AP", 7, "out of range 0 to 6"),
    ("kensei1", "Honor", 0, "out of range 1 to 10"),
    ("kensei1", "Ld", 7, "no statistic 'Ld'"),
    ("breaks_pursues", "M", 21, "out of range 0 to 20"),
    ("breaks_pursues", "Ld", 0, "Discipline (Ld) 0 is out of range 1 to 10"),
    ("breaks_pursues", "WS", 3, "no statistic 'WS'"),
])
def test_each_ruleset_checks_its_own_statistics(ruleset, stat, value, says):
    data = through_text(army_to_json(HAND_MADE[ruleset]()))
    data["units"][1]["profile"]["stats"][stat] = value
    with pytest.raises(StatError) as caught:
        army_from_json(data)
    assert str(caught.value).startswith(f"units[1].profile.stats.{stat}: ")
    assert says in str(caught.value)


# ---------------------------------------------------------------------------------------------
# Battles


def resolved(path: Path) -> tuple[Scenario, list[Event]]:
    """A bundled scenario run with the answers in its file, as `rout resolve` runs it."""
    scenario = load_scenario(json.loads(path.read_text(encoding="utf-8")))
    session = run(scenario.start(),
                  ScriptedAnswers(ScriptedRoller(list(scenario.dice)), scenario.choices))
    assert session.events
    return scenario, session.events


def assert_same_battle(found: Battle, expected: Battle) -> None:
    assert found.ruleset == expected.ruleset
    assert found.table == expected.table
    assert dict(found.roster) == dict(expected.roster)
    assert list(found.roster) == list(expected.roster)  # roster order is kept
    assert dict(found.states) == dict(expected.states)
    assert found.terrain == expected.terrain
    assert found.turn == expected.turn
    assert dict(found.options) == dict(expected.options)


def test_there_are_bundled_scenarios_of_every_ruleset():
    assert {load_scenario(json.loads(p.read_text())).ruleset.id for p in BUNDLED} == set(
        RULESETS)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_resolved_battle_reads_back_and_folds_to_the_same_end(path):
    scenario, events = resolved(path)
    text = json.dumps(battle_to_json(scenario.battle, scenario.title, events))
    title, start, read_events = battle_from_json(json.loads(text))
    assert title == scenario.title
    assert_same_battle(start, scenario.battle)
    assert read_events == tuple(events)
    assert_same_battle(fold(start, read_events), fold(scenario.battle, events))
    # Something really happened: the end differs from the start.
    assert dict(fold(start, read_events).states) != dict(start.states)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_battle_at_its_end_reads_back_as_a_new_start(path):
    """The state after the events is itself a battle a file can hold (what a save holds)."""
    scenario, events = resolved(path)
    end = fold(scenario.battle, events)
    title, start, read_events = battle_from_json(through_text(battle_to_json(end)))
    assert (title, read_events) == ("", ())
    assert_same_battle(start, end)


def _kensei_battle_with_modifiers() -> Battle:
    """The Kensei example two turns on: modifiers, flags, wounds, a destroyed unit, terrain
    and options that are not the defaults."""
    scenario, events = resolved(REPO / "resources" / "scenarios"
                                / "k1-ronin-run-through-ashigaru.json")
    battle = fold(scenario.battle, events)
    battle = replace(battle, options={"honor_dice": "2D10", "honor_test": "roll_below_honor",
                                      "shooting_total": "starting"},
                     terrain=(Terrain("wood", "Bamboo wood", ((0, 0), (20, 0), (20, 15.5),
                                                              (0, 15.5)), difficult=True),
                              Terrain("rock", "Great rock", ((100, 100), (119.5, 101),
                                                             (110.25, 119.75)),
                                      impassable=True)))
    battle = fold(battle, [
        ModifierApplied("oni", "Honor", -1, 3, "ran through", clause="K-RA-11"),
        ModifierApplied("oni", "Init", 2, 4, "war drums"),
        ModifierApplied("ashigaru", "AP", -1, 2, "regrouped", clause="K-RG-1"),
        FlagSet("oni", "locked_runner"),
        WoundsSuffered("oni", 3),
        TurnBegan(2),
        FlagSet("oni", "turn:ran_from_charge"),
        UnitDestroyed("samurai", "caught"),
    ])
    assert battle.states["oni"].modifiers and battle.states["oni"].flags
    assert battle.states["oni"].wounds_lost == 1
    assert battle.turn == 2
    return battle


def test_modifiers_flags_wounds_terrain_and_options_survive_the_trip():
    battle = _kensei_battle_with_modifiers()
    title, found, events = battle_from_json(through_text(
        battle_to_json(battle, "Turn 2 — after the rout", [TurnBegan(3)])))
    assert title == "Turn 2 — after the rout"
    assert_same_battle(found, battle)
    assert found.states["oni"].modifiers == battle.states["oni"].modifiers
    assert found.states["oni"].flags == frozenset({"turn:ran_from_charge", "locked_runner"})
    assert found.states["samurai"].status is Status.DESTROYED
    assert events == (TurnBegan(3),)
    # The turn's flag and the modifiers that ran out go at the next turn, as in memory.
    assert_same_battle(fold(found, events), fold(battle, events))
    later = fold(found, events)
    assert [m.stat for m in later.states["oni"].modifiers] == ["Honor", "Init"]
    assert later.states["ashigaru"].modifiers == ()
    assert later.states["oni"].flags == frozenset({"locked_runner"})


def test_a_battle_document_is_plain_json():
    battle = _kensei_battle_with_modifiers()
    data = battle_to_json(battle, "t", [TurnBegan(3)])
    assert data == through_text(data)
    assert data["format"] == "rout-battle" and data["version"] == 1
    state = data["units"][0]["state"]
    assert set(state) == {"center", "facing", "files", "models", "status", "wounds_lost",
                          "engaged_with", "modifiers", "flags"}


def _battle_document(name: str = "w6-goblins-vs-elves.json") -> dict[str, Any]:
    scenario, events = resolved(REPO / "resources" / "scenarios" / name)
    return through_text(battle_to_json(scenario.battle, scenario.title, events))


def _events_index(data: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(data["events"]) if e["type"] == kind)


def _append_terrain(points: Any):
    def change(data: dict[str, Any]) -> None:
        data["terrain"].append({"id": "t", "name": "T", "points": points, "impassable": False})

    return change


def _add_events(events: list[dict[str, Any]]):
    """A change to a document: these events instead of its own."""
    def change(data: dict[str, Any]) -> None:
        data["events"] = events

    return change


BAD_BATTLES = [
    # (change, message start, something else the message says)
    (_set("events.0.type", "UnitTeleported"), "events[0]: ",
     "unknown event type 'UnitTeleported'"),
    (_drop("events.0.type"), "events[0]: ", "unknown event type"),
    (_set("events.0", "CasualtiesRemoved"), "events[0]: ", "a group of fields in { }"),
    (_set("events.0.modles", 4), "events[0].modles: ", "unknown field 'modles'"),
    (_drop("events.0.models"), "events[0]: ", "missing"),
    (_set("events.0.models", "four"), "events[0].models: ", "a whole number is needed here"),
    (_set("events.0.models", 4.0), "events[0].models: ", "a whole number is needed here"),
    (_set("events.0.unit", 7), "events[0].unit: ", "text is needed here"),
    (_set("events.0.unit", "dwarves"), "events[0]: ",
     "'dwarves', which is not a unit of this battle"),
    (_set("events.0.clause", None), "events[0].clause: ", "text is needed here"),
    (_set("events.2.winner", 1), "events[2].winner: ", "text or nothing (null)"),
    (_set("events.2.scores", [["Orcs & Goblins"]]), "events[2].scores: ", "a list"),
    (_set("events.3.passed", "no"), "events[3].passed: ", "true or false"),
    (_set("events.3.faces", "3,4"), "events[3].faces: ", "a list"),
    (_set("events", {"0": {}}), "events: ", "a list"),
    (_set("units.0.state.engaged_with", ["dwarves"]), "units[0].state.engaged_with: ",
     "no unit 'dwarves' in this battle"),
    (_set("units.0.state.engaged_with", ["goblins"]), "units[0].state.engaged_with: ",
     "'goblins' is a friend"),
    (_set("units.0.state.engaged_with", "elves"), "units[0].state.engaged_with: ",
     "list of text"),
    (_set("units.0.state.facing", 360), "units[0].state.facing: ", "not a bearing"),
    (_set("units.0.state.facing", -0.5), "units[0].state.facing: ", "not a bearing"),
    (_set("units.0.state.facing", "north"), "units[0].state.facing: ", "a number is needed here"),
    (_set("units.0.state.center", [36]), "units[0].state.center: ", "a point [x, y] is needed"),
    (_set("units.0.state.models", 26), "units[0].state.models: ", "above the maximum of 25"),
    (_set("units.0.state.models", -1), "units[0].state.models: ", "below the minimum"),
    (_set("units.0.state.files", 0), "units[0].state.files: ", "below the minimum"),
    (_set("units.0.state.status", "asleep"), "units[0].state.status: ",
     "unknown status 'asleep'"),
    (_set("units.0.state.wounds_lost", 1), "units[0].state.wounds_lost: ",
     "above the maximum of 0"),
    (_set("units.0.state.modifiers", [{"stat": "LD", "delta": -1, "expires_after_turn": 1,
                                       "source": "x"}]),
     "units[0].state.modifiers[0].stat: ", "no statistic 'LD'"),
    (_set("units.0.state.modifiers", [{"stat": "Ld", "delta": -1, "expires_after_turn": 1}]),
     "units[0].state.modifiers[0].source: ", "is missing"),
    (_set("units.0.state.modifiers", [{"stat": "Ld", "delta": 101, "expires_after_turn": 1,
                                       "source": "x"}]),
     "units[0].state.modifiers[0].delta: ", "above the maximum"),
    (_set("units.0.state.flags", [1]), "units[0].state.flags: ", "list of text"),
    # A unit's flags and modifiers are few: each event that adds one copies them all.
    (_set("units.0.state.flags", [f"mark {i}" for i in range(MAX_FLAGS + 1)]),
     "units[0].state.flags: ", f"{MAX_FLAGS + 1} flags is more than Rout reads"),
    (_set("units.0.state.modifiers", [{"stat": "Ld", "delta": -1, "expires_after_turn": 1,
                                       "source": "x"}] * (MAX_MODIFIERS + 1)),
     "units[0].state.modifiers: ", f"{MAX_MODIFIERS + 1} modifiers is more than Rout reads"),
    (_add_events([{"type": "FlagSet", "unit": "goblins", "flag": f"mark {i}"}
                  for i in range(MAX_FLAGS + 1)]),
     f"events[{MAX_FLAGS}]: ", f"'goblins' would carry more than {MAX_FLAGS} flags"),
    (_add_events([{"type": "ModifierApplied", "unit": "goblins", "stat": "Ld", "delta": -1,
                   "expires_after_turn": 9, "source": "x"}] * (MAX_MODIFIERS + 1)),
     f"events[{MAX_MODIFIERS}]: ",
     f"'goblins' would carry more than {MAX_MODIFIERS} modifiers"),
    (_set("units.0.state.speed", 3), "units[0].state.speed: ", "unknown field 'speed'"),
    (_drop("units.0.state"), "units[0].state: ", "is missing"),
    (_drop("units.0.player"), "units[0].player: ", "is missing"),
    (_set("units.0.profile.stats.Ld", 12), "units[0].profile.stats.Ld: ", "out of range"),
    (_set("units.1.id", "goblins"), "units[1].id: ", "'goblins' is used twice"),
    (_append_terrain([[0, 0], [10, 10], [0, 10], [10, 0]]), "terrain[0].points: ",
     "crosses itself"),
    (_append_terrain([[0, 0], [10, 10]]), "terrain[0].points: ", "at least three"),
    (_append_terrain([[0, 0], [10, 10], "x"]), "terrain[0].points[2]: ",
     "a point [x, y] is needed"),
    (_set("terrain", [{"id": "t", "points": [[0, 0], [1, 0], [0, 1]], "height": 2}]),
     "terrain[0].height: ", "unknown field 'height'"),
    (_set("options.double_one_holds", "no"), "options.double_one_holds: ",
     "true or false is needed here"),
    (_set("options.honor_dice", "D10"), "options.honor_dice: ", "unknown option"),
    (_set("table.width", 0), "table.width: ", "greater than 0"),
    (_set("table.height", 48), "table.height: ", "unknown field"),
    (_set("turn", 0), "turn: ", "below the minimum of 1"),
    (_set("turn", 1e400), "turn: ", "far too large"),
    (_set("title", 5), "title: ", "text is needed here"),
    (_set("ruleset", "warhammer7"), "ruleset: ", "unknown ruleset"),
    (_set("version", 3), "version: ", "newer Rout"),
    (_set("format", "rout-army"), "this is not a Rout battle file",
     "the file has the text \"rout-army\""),
    (_set("replay", []), "replay: ", "unknown field 'replay'"),
]


@pytest.mark.parametrize(("change", "start", "says"), BAD_BATTLES)
def test_bad_battle_documents_are_refused_with_their_place(change, start, says):
    data = _battle_document()
    change(data)
    with pytest.raises(RuleError) as caught:
        battle_from_json(data)
    message = str(caught.value)
    assert message.startswith(start), message
    assert says in message, message
    assert message.count(start) == 1, message  # the place is named once, not repeated
    assert "\n" not in message


@pytest.mark.parametrize(("kind", "field", "value", "says"), [
    ("UnitFled", "path", [[36.0]], "a list"),
    ("UnitFled", "path", "north", "a list"),
    ("UnitFled", "facing", "north", "a number is needed here"),
    ("UnitFled", "facing", "NAN", "a number is needed here, the file has the number NaN"),
    ("UnitFled", "facing", "HUGE", "a number is needed here, the file has the number Infinity"),
    ("UnitFled", "passed_through", [3], "a list"),
    ("UnitFled", "start_facing", "north", "a number is needed here"),
    ("UnitFled", "turned", 1, "text is needed here"),
    ("UnitFled", "through", [["goblins", [1.0, 2.0]]], "a list"),
    ("UnitFled", "footprint", [[1.0, 2.0, 3.0]], "a list"),
    ("UnitPursued", "roll", 6.5, "a whole number is needed here, the file has the number 6.5"),
    ("UnitEscaped", "pursuit_rolls", [["goblins", "6"]], "a list"),
    ("PursuitDeclared", "overrun", 0, "true or false is needed here, the file has the number 0"),
])
def test_event_fields_of_the_wrong_type_are_refused(kind, field, value, says):
    data = _battle_document()
    index = _events_index(data, kind)
    data["events"][index][field] = value
    text = json.dumps(data).replace('"NAN"', "NaN").replace('"HUGE"', "1e400")
    with pytest.raises(ScenarioError) as caught:
        battle_from_json(json.loads(text))
    assert str(caught.value).startswith(f"events[{index}].{field}: {says}"), str(caught.value)


def _event_classes() -> list[type[Event]]:
    found, pending = set(), [Event]
    while pending:
        for cls in pending.pop().__subclasses__():
            if cls not in found:
                found.add(cls)
                pending.append(cls)
    return sorted(found, key=lambda cls: cls.__name__)


def _sample(name: str, hint: Any) -> Any:
    """A value of the declared type; text names the elves, or the goblins as the other unit."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _sample(name, next(arg for arg in args if arg is not type(None)))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (_sample(name, args[0]),)
        return tuple(_sample(name, arg) for arg in args)
    samples = {str: "elves" if name == "unit" else "goblins", int: 1, float: 90.0,
               bool: True}
    assert hint in samples, f"{name}: a field type this test does not know: {hint}"
    return samples[hint]


@pytest.mark.parametrize("kind", _event_classes(), ids=lambda cls: cls.__name__)
def test_every_kind_of_event_reads_back(kind):
    hints = typing.get_type_hints(kind)
    event = kind(**{item.name: _sample(item.name, hints[item.name])
                    for item in dataclasses.fields(kind)})
    scenario, _ = resolved(REPO / "resources" / "scenarios" / "w6-goblins-vs-elves.json")
    _, battle, events = battle_from_json(through_text(
        battle_to_json(scenario.battle, "", [event])))
    assert events == (event,)
    assert_same_battle(fold(battle, events), fold(scenario.battle, [event]))


def test_an_event_that_cannot_follow_the_ones_before_is_refused():
    """Each event applies to the battle the ones before it left: a unit destroyed in the
    document is still named, but a unit of another battle is not."""
    data = _battle_document()
    fled = _events_index(data, "UnitFled")
    data["events"][fled]["away_from"] = "dwarves"  # a record only: it changes nothing
    battle_from_json(copy.deepcopy(data))
    data["events"].insert(fled, {"type": "UnitsEngaged", "clause": "", "unit": "elves",
                                 "enemy": "dwarves"})
    with pytest.raises(ScenarioError, match=rf"^events\[{fled}\]: names 'dwarves'"):
        battle_from_json(data)


@pytest.mark.parametrize(("value", "says"), [
    ("D7", "options.honor_dice: "),
    (10, "options.honor_dice: text is needed here"),
])
def test_kensei_options_are_checked(value, says):
    data = _battle_document("k1-ronin-run-through-ashigaru.json")
    data["options"] = {"honor_dice": value}
    with pytest.raises(ScenarioError) as caught:
        battle_from_json(data)
    assert str(caught.value).startswith(says), str(caught.value)


def test_too_many_events_are_refused(monkeypatch):
    monkeypatch.setattr(codec, "MAX_EVENTS", 3)
    with pytest.raises(ScenarioError, match=r"^events: more than 3 events"):
        battle_from_json(_battle_document())


# A list over its limit is refused before a single item is read: the work of refusing it
# does not grow with the list (a 20 MB list of zeros built 7 million readers first).
def _army_with(units: list[Any]) -> dict[str, Any]:
    return {**through_text(army_to_json(w6_army())), "units": units}


def _battle_with(units: list[Any]) -> dict[str, Any]:
    return {**_battle_document(), "units": units}


def _battle_with_events(events: list[Any]) -> dict[str, Any]:
    return {**_battle_document(), "events": events}


def _scenario_with(units: list[Any]) -> dict[str, Any]:
    data = json.loads((REPO / "resources" / "scenarios" / "w6-four-units.json").read_text())
    return {**data, "units": units}


def _army_with_notes(notes: list[Any]) -> dict[str, Any]:
    data = through_text(army_to_json(w6_army()))
    data["units"][0]["notes"] = notes
    return data


@pytest.mark.parametrize(("document", "read", "limit", "message"), [
    (_army_with, army_from_json, "MAX_UNITS", r"^units: \d+ units is more than Rout reads"),
    (_battle_with, battle_from_json, "MAX_UNITS", r"^units: \d+ units is more than Rout reads"),
    (_battle_with_events, battle_from_json, "MAX_EVENTS", r"^events: more than \d+ events"),
    (_scenario_with, load_scenario, "MAX_UNITS", r"^units: \d+ units is more than Rout reads"),
    (_army_with_notes, army_from_json, "MAX_NOTES",
     r"^units\[0\]\.notes: \d+ notes is more than Rout keeps"),
], ids=["army-units", "battle-units", "battle-events", "scenario-units", "unit-notes"])
def test_a_list_over_its_limit_is_refused_before_its_items_are_read(monkeypatch, document,
                                                                    read, limit, message):
    module = scenario_module if read is load_scenario else codec
    monkeypatch.setattr(module, limit, 1000)
    small, large = document([0] * 1001), document([0] * 10_010)

    def refuse(data: dict[str, Any]) -> None:
        with pytest.raises(ScenarioError, match=message):
            read(data)

    assert growth(lambda: refuse(small), lambda: refuse(large)) < 1.5


def test_difficult_is_written_only_when_true_and_old_files_read():
    battle = _kensei_battle_with_modifiers()
    data = battle_to_json(battle, "t", [TerrainMoved("wood", 1.5, -2.0),
                                        TerrainRenamed("rock", "Crag")])
    assert data["terrain"][0] == {"id": "wood", "name": "Bamboo wood", "difficult": True,
                                  "impassable": False,
                                  "points": [[0, 0], [20, 0], [20, 15.5], [0, 15.5]]}
    assert "difficult" not in data["terrain"][1]  # open and impassable files stay as before
    _, found, events = battle_from_json(through_text(data))
    assert [piece.kind for piece in found.terrain] == ["difficult", "impassable"]
    assert events == (TerrainMoved("wood", 1.5, -2.0), TerrainRenamed("rock", "Crag"))
    after = fold(found, events)
    assert after.terrain[0].points[0] == (1.5, -2.0) and after.terrain[1].name == "Crag"
    del data["terrain"][0]["difficult"]
    _, old, _ = battle_from_json(through_text(data))
    assert old.terrain[0].kind == "open"


def test_a_scenario_reads_difficult_terrain():
    data = json.loads((REPO / "resources" / "scenarios" / "w6-goblins-vs-elves.json")
                      .read_text(encoding="utf-8"))
    data["terrain"] = [{"id": "marsh", "name": "Marsh", "difficult": True,
                        "points": [[0, 0], [6, 0], [3, 4]]},
                       {"id": "wall", "name": "Wall", "difficult": True, "impassable": True,
                        "points": [[60, 0], [66, 0], [63, 4]]}]
    battle = load_scenario(data).battle
    assert [piece.kind for piece in battle.terrain] == ["difficult", "impassable"]
    data["terrain"][0]["difficult"] = "yes"
    with pytest.raises(ScenarioError, match="true or false is needed here"):
        load_scenario(data)


def test_a_battle_without_terrain_options_or_events_reads():
    data = _battle_document()
    for key in ("terrain", "options", "events", "title", "turn"):
        del data[key]
    title, battle, events = battle_from_json(data)
    assert (title, events, battle.terrain, dict(battle.options), battle.turn) == (
        "", (), (), {}, 1)


@pytest.mark.parametrize("data", [[], None, "rout-battle"])
def test_a_battle_document_must_be_an_object(data):
    with pytest.raises(ScenarioError, match="the file should hold a group of fields"):
        battle_from_json(data)


@pytest.mark.parametrize(("where", "value", "says"), [
    ("name", "x" * 201, "longer than the 200"),
    ("name", "Orcs\x00", "NUL"),
    ("name", "Orcs \ud800", "unpaired surrogate"),
    ("player", "p" * 201, "longer than the 200"),
])
def test_army_text_that_a_database_would_refuse_is_refused_first(where, value, says):
    """PostgreSQL refuses over-long names and NUL; SQLite would take them: both get one rule."""
    from desktop.engine.codec import army_to_json
    from desktop.engine.errors import RuleError

    from builders import army

    data = army_to_json(army())
    data[where] = value
    with pytest.raises(RuleError, match=says):
        army_from_json(data)


def test_a_unit_id_longer_than_the_database_column_is_refused():
    from desktop.engine.codec import army_to_json
    from desktop.engine.errors import RuleError

    from builders import army

    data = army_to_json(army())
    data["units"][0]["id"] = "u" * 101
    with pytest.raises(RuleError, match=r"units\[0\]\.id: 101 characters"):
        army_from_json(data)
