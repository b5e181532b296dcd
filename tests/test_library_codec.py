"""Army lists and composition limits in Rout JSON: libraries (version 2) and armies.

README, "Unit libraries": a library groups its entries into army lists, entries may carry a
limit, and the ruleset's composition is data in the same file. Reading is strict like the
rest of the codec: every mistake names its place.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest
from work import growth

from desktop.bundled import resource_path
from desktop.engine.codec import (
    army_from_json,
    army_to_json,
    library_from_json,
    library_to_json,
)
from desktop.engine.composition import Bound, Composition, CompositionLimit, Library
from desktop.engine.errors import ScenarioError
from desktop.engine.model import Army, ArmyList, EntryLimit


def bundled_document(ruleset: str) -> dict[str, Any]:
    return json.loads(resource_path("libraries", f"{ruleset}.json").read_text(encoding="utf-8"))


def test_a_library_with_every_kind_of_limit_reads_back_as_written():
    library = library_from_json(bundled_document("kensei1"))
    composition = Composition(
        source="club rules", rows=(0, 500), then_every=250,
        limits=(CompositionLimit("Heroes", frozenset({"Hero"}), most=Bound(percent=25)),
                CompositionLimit("Troops", frozenset({"Troops"}),
                                 least=Bound(by_row=(1, 2), then=1), most=Bound(fixed=9)),
                CompositionLimit("Bushi", upgrade="bushi", most=Bound(fixed=3))))
    entries = (replace(library.entries[0], limit=EntryLimit(1)),
               replace(library.entries[1], limit=EntryLimit(2, per_points=500)),
               replace(library.entries[2], limit=EntryLimit(1, per_slot="Troops")),
               replace(library.entries[3], lists=frozenset()),
               *library.entries[4:])
    richer = Library("kensei1", entries,
                     (*library.army_lists, ArmyList("monks", "Monks", ("Warrior Monks",))),
                     composition)
    document = json.loads(json.dumps(library_to_json(richer)))
    assert document["version"] == 2
    assert library_from_json(document) == richer


def test_a_library_without_lists_or_limits_is_still_written_as_version_1():
    library = library_from_json(bundled_document("warhammer6"))
    plain = Library("warhammer6", tuple(replace(e, lists=frozenset(), limit=None)
                                        for e in library.entries))
    document = library_to_json(plain)
    assert document["version"] == 1
    assert set(document) == {"format", "version", "ruleset", "entries"}
    assert all("lists" not in entry and "limit" not in entry for entry in document["entries"])
    assert library_from_json(document) == plain


def _library_change(path: str, value: object) -> Any:
    def change(document: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = document
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        if value is DROP:
            del node[last]
        elif last.isdigit():
            node[int(last)] = value
        else:
            node[last] = value
    return change


DROP = object()
BAD_LIBRARIES = [
    ("entries.0.lists", ["dwarfs"], "entries[0].lists: ", "no army list 'dwarfs'"),
    ("entries.0.lists", "orcs-goblins", "entries[0].lists: ", "list of text"),
    ("entries.0.limit", {"most": 1, "per_points": 1000, "per_slot": "Core"},
     "entries[0].limit: ", "not both"),
    ("entries.0.limit", {"most": -1}, "entries[0].limit.most: ", "below the minimum of 0"),
    ("entries.0.limit", {"max": 1}, "entries[0].limit.max: ", "unknown field 'max'"),
    ("army_lists.1.id", "orcs-goblins", "army_lists[1].id: ", "used twice"),
    ("army_lists.0.name", "", "army_lists[0].name: ", "text is needed here"),
    ("composition.rows", [500, 2000], "composition.rows: ", "start at 0 and grow"),
    ("composition.rows", [0, 3000, 2000, 4000], "composition.rows: ", "start at 0 and grow"),
    ("composition.rows.1", "2000", "composition.rows[1]: ", "whole number"),
    ("composition.limits.0.most.by_row", [3, 4], "composition.limits[0].most.by_row: ",
     "one number per row of the chart (4 rows), found 2"),
    ("composition.limits.0.most", {"percent": 101}, "composition.limits[0].most.percent: ",
     "above the maximum of 100"),
    ("composition.limits.0.most", "three", "composition.limits[0].most: ",
     "a group of fields in { } is needed here"),
    ("composition.limits.0.most", -1, "composition.limits[0].most: ", "below the minimum"),
    ("composition.limits.0.upgrade", "general", "composition.limits[0]: ",
     "give one of 'slots' and 'upgrade'"),
    ("composition.limits.5.upgrade", "generalissimo", "composition.limits[5].upgrade: ",
     "no upgrade 'generalissimo'"),
    ("composition.limits.0.most", DROP, "composition.limits[0]: ", "needs 'least', 'most'"),
    ("composition.limits.0.label", DROP, "composition.limits[0].label: ", "is missing"),
    ("composition.colour", "green", "composition.colour: ", "unknown field 'colour'"),
    # Army lists and composition need version 2: a version 1 file naming them is refused.
    ("version", 1, "", "unknown field 'army_lists'"),
    ("version", 3, "version: ", "written by a newer Rout"),
]


@pytest.mark.parametrize(("path", "value", "start", "says"), BAD_LIBRARIES,
                         ids=[f"{path}={value!r}" for path, value, *_ in BAD_LIBRARIES])
def test_bad_library_documents_are_refused_with_their_place(path, value, start, says):
    document = copy.deepcopy(bundled_document("warhammer6"))
    _library_change(path, value)(document)
    with pytest.raises(ScenarioError) as caught:
        library_from_json(document)
    message = str(caught.value)
    assert message.startswith(start), message
    assert says in message, message


def army(army_list: str = "") -> Army:
    return Army("Warband", "Player", "warhammer6", (), points_limit=2000, army_list=army_list)


def test_an_army_list_makes_an_army_document_version_2_and_reads_back():
    document = json.loads(json.dumps(army_to_json(army("orcs-goblins"))))
    assert (document["version"], document["army_list"]) == (2, "orcs-goblins")
    assert army_from_json(document) == army("orcs-goblins")


def test_an_army_without_a_list_is_written_as_before():
    document = army_to_json(army())
    assert document["version"] == 1
    assert "army_list" not in document
    assert army_from_json(document) == army()


def test_a_version_1_army_document_naming_a_list_is_refused():
    """An older Rout would refuse the field as misspelt; this one says the same of a file
    that claims to be version 1."""
    document = army_to_json(army("orcs-goblins"))
    document["version"] = 1
    with pytest.raises(ScenarioError, match="unknown field 'army_list'"):
        army_from_json(document)


def test_ten_times_the_army_lists_cost_ten_times_the_work():
    # Each id was compared with every id before it, to find one used twice.
    def with_lists(count: int) -> dict[str, Any]:
        document = bundled_document("warhammer6")
        document["army_lists"] += [{"id": f"list-{i}", "name": f"List {i}"}
                                   for i in range(count)]
        return document

    small, large = with_lists(200), with_lists(2000)
    assert growth(lambda: library_from_json(small), lambda: library_from_json(large)) < 15
