"""`rout check ARMY`: an army's warnings as JSON, the list the window shows beside the roster.

Through `desktop.cli.main` on a real SQLite file; armies arrive with `rout import` from
files on disk, as a player's would. Warnings are not errors: the exit status is 0 with or
without them, and checking writes nothing. Also here: `rout import` of a BattleScribe
roster takes its army list from the roster's catalogue name where one matches.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from desktop.bundled import resource_path
from desktop.engine.codec import army_from_json, army_to_json, library_from_json
from desktop.engine.composition import army_problems
from desktop.engine.model import Army
from desktop.store.store import Store

from builders import assert_bad, run_cli

GOBLINS = resource_path("armies", "warhammer6-hill-goblins.json")
ELVES = resource_path("armies", "warhammer6-elf-marchwardens.json")
W6_GAME = "Warhammer Fantasy Battles (6th definitive edition)"
REPO = Path(__file__).resolve().parents[1]
BRETONNIA = REPO / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"


@pytest.fixture
def url(tmp_path, monkeypatch) -> str:
    # A command that forgets --database must not reach the user's (or the test's) default.
    monkeypatch.setenv("ROUT_DATABASE", f"sqlite:///{tmp_path / 'stray' / 'stray.sqlite'}")
    return f"sqlite:///{tmp_path / 'db' / 'rout.sqlite'}"


def ok(capsys, *argv: object) -> Any:
    code, out, err = run_cli(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def read_army(path: Path) -> Army:
    return army_from_json(json.loads(path.read_text(encoding="utf-8")))


def import_army(capsys, url: str, army: Army, folder: Path) -> dict[str, Any]:
    path = folder / f"{army.name}.json"
    path.write_text(json.dumps(army_to_json(army)), encoding="utf-8")
    return ok(capsys, "import", path, "--database", url)


def file_digest(url: str) -> str:
    return hashlib.sha256(Path(url.removeprefix("sqlite:///")).read_bytes()).hexdigest()


def test_a_sample_army_checks_clean_with_exit_status_0(capsys, url, tmp_path):
    imported = ok(capsys, "import", GOBLINS, "--database", url)
    assert imported["army_list"] == "orcs-goblins"
    before = file_digest(url)
    result = ok(capsys, "check", "Hill Goblin Warband", "--database", url)
    assert result == {"army": imported["army"], "name": "Hill Goblin Warband",
                      "ruleset": "warhammer6", "army_list": "orcs-goblins",
                      "army_list_name": "Orcs & Goblins", "points": imported["points"],
                      "points_limit": 1000, "has_warnings": False, "warnings": []}
    assert file_digest(url) == before  # checking writes nothing


def broken_goblins() -> Army:
    """The sample warband at 1,999 points with a Warboss (0 Lords below 2,000, composition.md),
    a second General, an Elf Noble from another list and a Core unit short."""
    goblins = read_army(GOBLINS)
    elves = read_army(ELVES)
    noble = replace(elves.units[0], id="elf-noble", name="Elf Noble", player=goblins.player)
    boss = goblins.units[0]
    warboss = replace(boss, id="warboss", name="Warboss", slot="Lords",
                      profile=replace(boss.profile, name="Orc Warboss"), points=100)
    units = (*goblins.units[:2], *goblins.units[3:], warboss, noble)  # one Core unit fewer
    return replace(goblins, name="Broken Warband", units=units, points_limit=1_999)


def test_a_broken_army_prints_what_the_window_shows_and_still_exits_0(capsys, url, tmp_path):
    army = broken_goblins()
    imported = import_army(capsys, url, army, tmp_path)
    result = ok(capsys, "check", imported["army"], "--database", url)  # by id this time
    library = library_from_json(json.loads(resource_path("libraries", "warhammer6.json")
                                           .read_text(encoding="utf-8")))
    with Store.open(url) as store:
        expected = army_problems(store.load_army(imported["army"]), library)
    assert [(w["severity"], w["message"], w["unit"], w["field"]) for w in result["warnings"]] \
        == [(p.severity.value, p.message, p.unit_id, p.field) for p in expected]
    assert result["has_warnings"] is True
    assert [w["message"] for w in result["warnings"]] == [
        "Lords: 1, should be at most 0 in a 1,999-point army",
        "Generals: 3, should be exactly 1",
        "Elf Noble is from the High Elves list, not Orcs & Goblins",
    ]
    noble = result["warnings"][-1]
    assert (noble["unit"], noble["unit_name"], noble["field"]) == ("elf-noble", "Elf Noble",
                                                                   "name")


def test_the_stored_library_is_the_one_checked_when_there_is_one(capsys, url, tmp_path):
    army = replace(read_army(GOBLINS), name="Trolls", points_limit=1_999)
    trolls = next(u for u in army.units if u.profile.name == "River Troll")
    army = replace(army, units=(*army.units, replace(trolls, id="more-trolls",
                                                     name="More Trolls")))
    import_army(capsys, url, army, tmp_path)
    assert ok(capsys, "check", "trolls", "--database", url)["warnings"][0]["message"] == (
        "Rare units: 2, should be at most 1 in a 1,999-point army")
    library = library_from_json(json.loads(resource_path("libraries", "warhammer6.json")
                                           .read_text(encoding="utf-8")))
    with Store.open(url) as store:
        store.save_library(replace(library, composition=replace(
            library.composition, limits=library.composition.limits[:4])))  # no Rare row
    assert ok(capsys, "check", "trolls", "--database", url)["warnings"] == []


def test_an_unknown_army_or_database_is_bad_input(capsys, url, tmp_path):
    missing = tmp_path / "none" / "rout.sqlite"
    assert_bad(capsys, ["check", "Orcs", "--database", f"sqlite:///{missing}"],
               "no army named 'Orcs'", "there is no database", prefix="rout check: ")
    assert not missing.exists()
    ok(capsys, "import", GOBLINS, "--database", url)
    assert_bad(capsys, ["check", "Dwarfs", "--database", url], "no army named 'Dwarfs'",
               prefix="rout check: ")


def roster(catalogue: str) -> bytes:
    unit = ('<selection name="Orc Boyz" type="unit" number="1"><selections>'
            '<selection name="Orc" type="model" number="20"/></selections>'
            '<costs><cost name="pts" value="120"/></costs>'
            '<categories><category name="Core" primary="true"/></categories></selection>')
    return (f'<?xml version="1.0" encoding="UTF-8"?><roster name="Waaagh" '
            f'gameSystemName="{W6_GAME}" xmlns="http://www.battlescribe.net/schema/'
            f'rosterSchema"><forces><force name="Battle" catalogueName="{catalogue}">'
            f"<selections>{unit}</selections></force></forces></roster>").encode()


@pytest.mark.parametrize(("catalogue", "army_list"), [
    ("Orcs &amp; Goblins", "orcs-goblins"),
    ("Orcs and Goblins", "orcs-goblins"),
    ("High Elves", "high-elves"),
])
def test_a_battlescribe_roster_gets_its_list_from_the_catalogue_name(capsys, url, tmp_path,
                                                                    catalogue, army_list):
    path = tmp_path / "waaagh.ros"
    path.write_bytes(roster(catalogue))
    result = ok(capsys, "import", path, "--database", url)
    assert result["army_list"] == army_list
    with Store.open(url) as store:
        assert store.load_army(result["army"]).army_list == army_list


def test_a_catalogue_that_matches_no_list_is_imported_with_a_warning(capsys, url):
    result = ok(capsys, "import", BRETONNIA, "--database", url)
    assert result["army_list"] == ""
    assert ("the catalogue 'Bretonnia' is not an army list of the Warhammer Fantasy Battle "
            "6th edition library: choose one in Army Settings") in result["warnings"]
