"""BattleScribe rosters (`.ros` XML, `.rosz` zip): the real New Recruit file, round trips through
the exports and the store, and hostile or malformed input.

Contract (desktop/store/battlescribe.py, transfer.py, cli.py): a roster imports with every unit,
model count and points right; a malformed or hostile file raises BadFileError whose one-line
message starts with the file's name and says what is wrong, and nothing is written anywhere; the
`rout import` command turns that into one stderr line and exit status 2.

The expected numbers for the real roster are written out literally and also recomputed here by
walking its XML with defusedxml, without the importer. Every hostile file is built by the test
that uses it, small, at test time; nothing big is kept in the repository.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
import re
import struct
import zipfile
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import defusedxml.ElementTree as SafeTree
import pytest
from conftest import BATTLESCRIBE_ROSTER, SHARED_DATA
from work import growth

from desktop.cli import main
from desktop.engine.bsdata.reader import MAX_COMPRESSION_RATIO
from desktop.engine.codec import MAX_NOTE_LENGTH, MAX_NOTES, army_from_json, army_to_json
from desktop.engine.model import Army, TroopType, Unit
from desktop.engine.roster import roster_price, with_models
from desktop.engine.rulesets import RULESETS
from desktop.store.battlescribe import (
    MAX_DEPTH,
    MAX_MODELS,
    MAX_ROSTER_BYTES,
    MAX_UNITS,
    MAX_WARNINGS,
    PROFILE_NOTE,
    ImportedArmy,
    read_ros,
)
from desktop.store.errors import BadFileError
from desktop.store.files import MAX_INPUT_BYTES, short_path
from desktop.store.roster_text import roster_markdown, roster_text
from desktop.store.transfer import read_army_file, write_army_file

# Any warning (ours, SQLAlchemy's, zipfile's, an unclosed file) fails these tests.
pytestmark = pytest.mark.filterwarnings("error")

NS = "http://www.battlescribe.net/schema/rosterSchema"
W6_GAME = "Warhammer Fantasy Battles (6th definitive edition)"
MM_PER_INCH = 25.4

# ---------------------------------------------------------------------------------------------
# The real New Recruit roster: what it holds, written out by hand


REAL_NAME = "Bretonnian Expedition (A Dark Conspiracy, prologue)"
KNIGHT_UPGRADES = frozenset({"standard", "musician", "champion"})
# (name, entry, models, points, slot, upgrades, troop type)
REAL_UNITS = [
    ("Duc d'Lorraine", "Paladin", 1, 134, "Heroes", frozenset({"general"}), TroopType.CAVALRY),
    ("Piere", "Paladin Battle Standard Bearer", 1, 74, "Heroes",
     frozenset({"battle_standard"}), TroopType.CAVALRY),
    ("The Duc's Vanguard", "Knights of the Realm", 6, 168, "Core", KNIGHT_UPGRADES,
     TroopType.CAVALRY),
    ("Looters of the Duc", "Knights of the Realm", 6, 168, "Core", KNIGHT_UPGRADES,
     TroopType.CAVALRY),
    ("Hunters of Bordeleaux", "Peasant Bowmen", 12, 84, "Core", frozenset(),
     TroopType.INFANTRY),
    ("Bowmen of Bordeleaux", "Peasant Bowmen", 12, 77, "Core", frozenset({"musician"}),
     TroopType.INFANTRY),
]
# The army builder's characteristic names for Warhammer 6th, and Rout's.
W6_NAMES = {"Mv": "M", "WS": "WS", "BS": "BS", "S": "S", "T": "T", "W": "W", "I": "I",
            "A": "A", "Ld": "Ld"}


def q(tag: str) -> str:
    return f"{{{NS}}}{tag}"


@cache
def real_ros_bytes() -> bytes:
    with zipfile.ZipFile(BATTLESCRIBE_ROSTER) as archive:
        (member,) = [n for n in archive.namelist() if n.lower().endswith(".ros")]
        return archive.read(member)


def characteristics_of(profile: Any) -> dict[str, str]:
    return {c.get("name"): (c.text or "") for c in profile.iter(q("characteristic"))}


def walk_real_roster() -> list[dict[str, Any]]:
    """The units as the XML says, read here without the importer."""
    root = SafeTree.fromstring(real_ros_bytes())
    found = []
    path = "/".join(q(tag) for tag in ("forces", "force", "selections", "selection"))
    for selection in root.findall(path):
        below = list(selection.iter(q("selection")))  # the unit itself and everything in it
        model_counts = [int(s.get("number")) for s in below if s.get("type") == "model"]
        own = [p for p in selection.findall(f"{q('profiles')}/{q('profile')}")
               if p.get("typeName") == "Profile"]
        on_models = [p for s in below if s.get("type") == "model"
                     for p in s.findall(f"{q('profiles')}/{q('profile')}")]
        main_profile = (own or on_models)[0]
        mounts = [p for p in selection.iter(q("profile")) if "Warhorse" in p.get("name")]
        stats = {W6_NAMES[k]: int(v) for k, v in characteristics_of(main_profile).items()
                 if k in W6_NAMES}
        if mounts:
            stats["M"] = int(characteristics_of(mounts[0])["Mv"])
        (slot,) = [c.get("name") for c in selection.iter(q("category"))
                   if c.get("primary") == "true"]
        found.append({
            "name": selection.get("customName"),
            "entry": selection.get("name"),
            "models": sum(model_counts) if model_counts else int(selection.get("number")),
            "points": sum(int(c.get("value")) for s in below
                          for c in s.findall(f"{q('costs')}/{q('cost')}")
                          if c.get("name") == "pts"),
            "slot": slot,
            "stats": stats,
            "mounted": bool(mounts),
            # What follows the size: the unit's own cost and its model selections'.
            "per_models": sum(int(c.get("value")) for s in below
                              if s is selection or s.get("type") == "model"
                              for c in s.findall(f"{q('costs')}/{q('cost')}")
                              if c.get("name") == "pts"),
        })
    return found


def declared_points_of_real_roster() -> tuple[int, int]:
    root = SafeTree.fromstring(real_ros_bytes())
    (points,) = [int(c.get("value")) for c in root.findall(f"{q('costs')}/{q('cost')}")
                 if c.get("name") == "pts"]
    (limit,) = [int(c.get("value"))
                for c in root.findall(f"{q('costLimits')}/{q('costLimit')}")
                if c.get("name") == "pts"]
    return points, limit


@pytest.fixture(scope="module")
def real() -> ImportedArmy:
    return read_army_file(BATTLESCRIBE_ROSTER)


def unit_named(army: Army, name: str) -> Unit:
    (unit,) = [u for u in army.units if u.name == name]
    return unit


# ---------------------------------------------------------------------------------------------
# Building rosters and zips for the tests


def attrs(**values: Any) -> str:
    return "".join(f" {key}={quoteattr(str(value))}" for key, value in values.items()
                   if value is not None)


def profile_xml(name: str, pairs: list[tuple[str, str]], type_name: str = "Profile") -> str:
    chars = "".join(f"<characteristic{attrs(name=n)}>{escape(v)}</characteristic>"
                    for n, v in pairs)
    return (f"<profile{attrs(name=name, typeName=type_name)}><characteristics>{chars}"
            "</characteristics></profile>")


def selection_xml(name: str, *, kind: str = "unit", number: Any = 1, pts: Any = None,
                  custom: str | None = None, profiles: tuple[str, ...] = (),
                  children: tuple[str, ...] = (), rules: tuple[str, ...] = (),
                  slot: str | None = None) -> str:
    parts = [f"<selection{attrs(name=name, type=kind, number=number, customName=custom)}>"]
    if rules:
        parts.append("<rules>" + "".join(f"<rule{attrs(name=r)}/>" for r in rules) + "</rules>")
    if profiles:
        parts.append("<profiles>" + "".join(profiles) + "</profiles>")
    if children:
        parts.append("<selections>" + "".join(children) + "</selections>")
    if pts is not None:
        parts.append(f'<costs><cost name="pts"{attrs(value=pts)}/></costs>')
    if slot:
        parts.append(f'<categories><category{attrs(name=slot, primary="true")}/></categories>')
    parts.append("</selection>")
    return "".join(parts)


def roster_xml(*selections: str, game: str | None = W6_GAME, namespace: str | None = NS,
               limit: Any = 1000, declared: Any = None, name: str = "Test roster",
               forces: str | None = None) -> bytes:
    xmlns = f' xmlns="{namespace}"' if namespace else ""
    costs = (f'<costs><cost name="pts"{attrs(value=declared)}/></costs>'
             if declared is not None else "")
    limits = (f'<costLimits><costLimit name="pts"{attrs(value=limit)}/></costLimits>'
              if limit is not None else "")
    if forces is None:
        forces = f'<force name="Main"><selections>{"".join(selections)}</selections></force>'
    return (f'<?xml version="1.0" encoding="UTF-8"?><roster{attrs(name=name, gameSystemName=game)}'
            f"{xmlns}>{costs}{limits}<forces>{forces}</forces></roster>").encode()


W6_PAIRS = [("Mv", "4"), ("WS", "3"), ("BS", "3"), ("S", "3"), ("T", "3"), ("W", "1"),
            ("I", "3"), ("A", "1"), ("Ld", "7")]


def spearmen(*, models: Any = 10, pts: Any = 50, pairs: list[tuple[str, str]] | None = None,
             custom: str | None = None, children: tuple[str, ...] = ()) -> str:
    """A plain infantry unit: the profile on the unit, the models below it."""
    return selection_xml(
        "Spearmen", custom=custom, slot="Core",
        profiles=(profile_xml("Spearman", W6_PAIRS if pairs is None else pairs),),
        children=(selection_xml("Spearman", kind="model", number=models, pts=pts), *children))


def zip_bytes(members: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, data in members:
            # A ZipInfo keeps the name exactly as given ("../x", "/x"), as an attacker's would.
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=method)
    return buffer.getvalue()


def members(data: bytes) -> list[zipfile.ZipInfo]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.infolist()


def central_directory(data: bytearray) -> int:
    return data.rfind(b"PK\x01\x02")


def patched(data: bytes, patch: Callable[[bytearray], None]) -> bytes:
    changed = bytearray(data)
    patch(changed)
    return bytes(changed)


def write(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under `folder` and a hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


SMALL_ROSTER = roster_xml(spearmen())


# ---------------------------------------------------------------------------------------------
# 1. The real New Recruit roster


def test_real_roster_is_the_shared_copy():
    shared = SHARED_DATA / "battlescribe" / BATTLESCRIBE_ROSTER.name
    if not shared.is_file():
        pytest.skip(f"no shared copy at {shared}")
    assert BATTLESCRIBE_ROSTER.read_bytes() == shared.read_bytes()


def test_real_roster_keeps_its_catalogue_for_the_army_list(real):
    assert real.catalogue == "Bretonnia"
    assert real.army.army_list == ""  # matched against a library by the caller


def test_real_roster_army(real):
    army = real.army
    assert real.warnings == ()
    assert real.game_system == W6_GAME
    assert army.name == REAL_NAME
    assert army.ruleset == "warhammer6"
    assert army.points == 705
    assert army.points_limit == 1000
    assert army.models == 38
    assert len(army.units) == 6
    # The file's name only: a folder of the player's machine would end up in exports.
    assert f"Imported from {BATTLESCRIBE_ROSTER.name}" in army.notes
    assert not any(str(BATTLESCRIBE_ROSTER.parent) in note for note in army.notes)
    assert f"Game system: {W6_GAME}" in army.notes


def test_real_roster_totals_match_what_the_xml_declares(real):
    declared, limit = declared_points_of_real_roster()
    assert (declared, limit) == (705, 1000)
    assert real.army.points == declared
    assert real.army.points_limit == limit
    assert sum(unit["points"] for unit in walk_real_roster()) == declared


def test_real_roster_units_golden(real):
    got = [(u.name, u.profile.name, u.models, u.points, u.slot, u.upgrades,
            u.profile.troop_type) for u in real.army.units]
    assert got == REAL_UNITS


def test_real_roster_units_match_a_walk_of_the_xml(real):
    walked = walk_real_roster()
    assert [(u["name"], u["entry"], u["models"], u["points"], u["slot"]) for u in walked] == [
        (u.name, u.profile.name, u.models, u.points, u.slot) for u in real.army.units]
    # The walk agrees with the literal table too: neither can drift alone.
    assert [(u["name"], u["models"], u["points"]) for u in walked] == [
        (name, models, points) for name, _, models, points, *_ in REAL_UNITS]


# Per model: the unit's own cost and its models' costs over its models; the rest is upgrades.
REAL_PRICES = [
    ("Duc d'Lorraine", 60.0, 74),  # Paladin 60; shield, Sword of the Quest, horse, vow
    ("Piere", 60.0, 14),  # Paladin BSB 60; his warhorse 14
    ("The Duc's Vanguard", 24.0, 24),  # 6 Knights of the Realm for 144; musician, standard
    ("Looters of the Duc", 24.0, 24),
    ("Hunters of Bordeleaux", 6.0, 12),  # 12 Peasant Bowmen for 72; Skirmish 12
    ("Bowmen of Bordeleaux", 6.0, 5),  # 12 for 72; musician 5
]


def test_real_roster_prices_split_per_model_and_upgrades(real):
    assert [(u.name, u.price.per_model, u.price.upgrades) for u in real.army.units
            if u.price is not None] == REAL_PRICES
    for walked, unit in zip(walk_real_roster(), real.army.units, strict=True):
        assert unit.price is not None
        assert unit.price.per_model * unit.models == walked["per_models"], unit.name
        assert unit.price.upgrades == walked["points"] - walked["per_models"], unit.name
        assert roster_price(unit.price, unit.models) == unit.points, unit.name


def test_real_roster_hunters_at_fifteen_models_cost_fifteen_bowmen_and_their_skirmish(real):
    army = real.army
    hunters = unit_named(army, "Hunters of Bordeleaux")
    bigger = with_models(hunters, 15, ())  # no library: the roster's own price
    assert bigger.points == 15 * 6 + 12 == 102
    army = replace(army, units=tuple(bigger if u is hunters else u for u in army.units))
    assert army.points == 705 + 3 * 6


def test_a_price_per_model_that_is_not_whole_still_adds_up():
    roster = roster_xml(selection_xml(
        "Archers", slot="Core", profiles=(profile_xml("Archer", W6_PAIRS),),
        children=(selection_xml("Archer", kind="model", number=3, pts=10),
                  selection_xml("Banner", kind="upgrade", pts=7))))
    (unit,) = read_ros(roster, "odd.ros").army.units
    assert (unit.points, unit.price.upgrades) == (17, 7)
    assert [with_models(unit, n, ()).points for n in (3, 6, 7)] == [17, 27, 30]


def test_real_roster_statistics_map_from_the_profiles(real):
    for walked, unit in zip(walk_real_roster(), real.army.units, strict=True):
        assert dict(unit.profile.stats) == walked["stats"], unit.name
        assert (unit.profile.troop_type is TroopType.CAVALRY) == walked["mounted"], unit.name
        assert unit.profile.wounds == walked["stats"]["W"]


def test_real_roster_general_rides_his_warhorse(real):
    duc = unit_named(real.army, "Duc d'Lorraine")
    assert dict(duc.profile.stats) == {"M": 8, "WS": 5, "BS": 3, "S": 4, "T": 4, "W": 2,
                                       "I": 5, "A": 3, "Ld": 8}
    assert duc.profile.troop_type is TroopType.CAVALRY
    assert duc.profile.wounds == 2
    assert duc.upgrades == {"general"}
    # The warhorse's base, 25x50 mm, in the ruleset's inches.
    assert duc.profile.base == pytest.approx((25 / MM_PER_INCH, 50 / MM_PER_INCH))
    # Its 6+ save has no Rout statistic: it is kept, word for word, in a note.
    horse = [n for n in duc.notes if n.startswith(f"{PROFILE_NOTE}Bretonnian Warhorse:")]
    assert len(horse) == 1
    assert "Sv 6+" in horse[0]
    assert "Mv 8" in horse[0]
    assert "Base 25x50" in horse[0]


def test_real_roster_knights_keep_the_rider_profile_and_a_champion(real):
    for name in ("The Duc's Vanguard", "Looters of the Duc"):
        knights = unit_named(real.army, name)
        # The Gallant (A2) is the champion; the unit's Attacks stay the knights' 1.
        assert knights.profile.stats["A"] == 1
        assert knights.profile.stats["M"] == 8
        assert knights.upgrades == KNIGHT_UPGRADES
        assert knights.files == 5
        gallant = [n for n in knights.notes if n.startswith(f"{PROFILE_NOTE}Gallant:")]
        assert len(gallant) == 1
        assert "A 2" in gallant[0]
        assert knights.profile.special_rules == {"knights_vow", "purebreed_warhorse"}


def test_real_roster_weapon_and_armour_profiles_are_kept_in_notes(real):
    knights = unit_named(real.army, "The Duc's Vanguard")
    assert (f"{PROFILE_NOTE}Lance: Strength +2S on charge, Special Rules Mounted models only."
            in knights.notes)
    assert f"{PROFILE_NOTE}Heavy Armour: Saving Throw Modifier 5+" in knights.notes
    bowmen = unit_named(real.army, "Hunters of Bordeleaux")
    assert f'{PROFILE_NOTE}Long Bow: Range 30", Strength 3' in bowmen.notes


def test_real_roster_selections_and_upgrade_rules_in_notes(real):
    duc = unit_named(real.army, "Duc d'Lorraine")
    # Selections by what they are: the army book's groups tell a magic sword from a shield.
    assert duc.notes[:3] == (
        "Command: General",
        "Wargear: Hand Weapon, Heavy Armour, Shield (2 pts), Bretonnian Warhorse (14 pts), "
        "Barding, Questing Vow (8 pts)",
        "Magic items: Sword of the Quest (50 pts)")
    assert "Rules from upgrades: Questing Vow, Sword of the Quest" in duc.notes
    knights = unit_named(real.army, "The Duc's Vanguard")
    # The Gallant is the champion: a command selection, like the standard and musician.
    assert knights.notes[:2] == (
        "Command: Gallant, Musician (8 pts), Standard Bearer (16 pts)",
        "Wargear: Bretonnian Warhorse, Barding, Hand Weapon, Heavy Armour, Lance, Shield")
    assert unit_named(real.army, "Piere").notes[0] == "Command: Battle Standard Bearer"
    # Upgrade rules are notes, not special rules the engine would read.
    assert duc.profile.special_rules == {"purebreed_warhorse"}


def test_real_roster_special_rules(real):
    for name in ("Hunters of Bordeleaux", "Bowmen of Bordeleaux"):
        bowmen = unit_named(real.army, name)
        assert bowmen.profile.special_rules == {"peasants_duty", "defensive_stakes",
                                                "skirmishers"}
        assert bowmen.profile.troop_type is TroopType.INFANTRY
        assert bowmen.profile.base == pytest.approx((20 / MM_PER_INCH, 20 / MM_PER_INCH))
        assert bowmen.models == 12
    assert unit_named(real.army, "Piere").upgrades == {"battle_standard"}


def test_real_roster_unit_ids_are_unique_slugs(real):
    ids = [u.id for u in real.army.units]
    assert ids == ["duc-d-lorraine", "piere", "the-duc-s-vanguard", "looters-of-the-duc",
                   "hunters-of-bordeleaux", "bowmen-of-bordeleaux"]


def test_unzipped_ros_and_upper_case_suffix_import_the_same(real, tmp_path):
    as_ros = read_army_file(write(tmp_path, "roster.ros", real_ros_bytes()))
    upper = read_army_file(write(tmp_path, "ROSTER.ROSZ", BATTLESCRIBE_ROSTER.read_bytes()))
    for other in (as_ros, upper):
        assert other.warnings == ()
        assert other.army.units == real.army.units
        assert other.army.points == 705


def test_namespace_less_and_other_namespace_xml_import_the_same(real, tmp_path):
    text = real_ros_bytes().decode("utf-8")
    assert f'xmlns="{NS}"' in text
    for label, changed in (("none", text.replace(f' xmlns="{NS}"', "")),
                           ("other", text.replace(NS, "urn:example:future-schema"))):
        imported = read_army_file(write(tmp_path, f"{label}.ros", changed.encode()))
        assert imported.warnings == ()
        assert imported.army.units == real.army.units, label
        assert imported.army.points_limit == 1000


# ---------------------------------------------------------------------------------------------
# 2. Round trip: roster → army → text and Markdown exports (and Rout JSON)


TEXT_SLOT = re.compile(r"^(?P<slot>\S.*) \((?P<points>\d+) points\)$")
TEXT_UNIT = re.compile(r"^  (?P<name>.+) \[(?P<entry>.+)\], (?P<models>\d+) models?: "
                       r"(?P<points>\d+) points$")
MD_SLOT = re.compile(r"^## (?P<slot>.+) — (?P<points>\d+) points$")
MD_UNIT = re.compile(r"^- \*\*(?P<name>.+)\*\* \((?P<entry>.+)\) · (?P<models>\d+) models? · "
                     r"(?P<points>\d+) points$")
HEADLINE = re.compile(r"· (?P<points>\d+)(?: / (?P<limit>\d+))? points · (?P<units>\d+) units? "
                      r"· (?P<models>\d+) models?\*?$")


def unescape_markdown(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def parse_export(text: str, slot_re: re.Pattern[str], unit_re: re.Pattern[str],
                 clean: Callable[[str], str]) -> tuple[dict[str, str], list[tuple[Any, ...]]]:
    """The headline numbers and (slot, name, entry, models, points) of every unit listed."""
    lines = text.splitlines()
    headline = next(m for line in lines[:4] if (m := HEADLINE.search(line)))
    units: list[tuple[Any, ...]] = []
    slot, slot_points, slot_total = None, 0, 0
    for line in lines:
        if found := slot_re.match(line):
            assert slot is None or slot_points == slot_total, f"slot {slot} does not add up"
            slot, slot_points, slot_total = clean(found["slot"]), int(found["points"]), 0
        elif found := unit_re.match(line):
            units.append((slot, clean(found["name"]), clean(found["entry"]),
                          int(found["models"]), int(found["points"])))
            slot_total += int(found["points"])
    assert slot_points == slot_total, f"slot {slot} does not add up"
    return headline.groupdict(), units


def expected_listing() -> list[tuple[Any, ...]]:
    return [(u["slot"], u["name"], u["entry"], u["models"], u["points"])
            for u in walk_real_roster()]


@pytest.mark.parametrize(("suffix", "slot_re", "unit_re", "clean"), [
    (".txt", TEXT_SLOT, TEXT_UNIT, str),
    (".md", MD_SLOT, MD_UNIT, unescape_markdown),
])
def test_exports_list_the_same_units_models_and_points(real, tmp_path, suffix, slot_re,
                                                       unit_re, clean):
    path = tmp_path / f"roster{suffix}"
    write_army_file(real.army, path)
    text = path.read_text(encoding="utf-8")
    headline, units = parse_export(text, slot_re, unit_re, clean)
    assert units == expected_listing()
    assert headline == {"points": "705", "limit": "1000", "units": "6", "models": "38"}
    assert sum(points for *_, points in units) == 705
    # Profile dumps stay in the army file: a forum post leaves them out.
    assert "Sv 6+" not in text
    assert PROFILE_NOTE not in text


def test_export_functions_match_the_written_files(real, tmp_path):
    write_army_file(real.army, tmp_path / "a.txt")
    write_army_file(real.army, tmp_path / "a.md")
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == roster_text(real.army)
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == roster_markdown(real.army)


def test_rout_json_export_reimports_the_same_army(real, tmp_path):
    path = tmp_path / "army.json"
    assert write_army_file(real.army, path) == "json"
    again = read_army_file(path)
    assert again.army == real.army
    assert again.warnings == ()


# ---------------------------------------------------------------------------------------------
# 3. Store round trip (SQLite and a real PostgreSQL)


def test_store_round_trip_of_the_real_roster(store, real):
    saved = store.save_army(real.army)
    assert saved.id
    assert replace(saved, id="", version=0) == real.army
    loaded = store.load_army(saved.id)
    assert loaded == saved
    assert [(u.name, u.models, u.points) for u in loaded.units] == [
        (name, models, points) for name, _, models, points, *_ in REAL_UNITS]
    (summary,) = store.list_armies()
    assert (summary.id, summary.name, summary.ruleset) == (saved.id, REAL_NAME, "warhammer6")
    assert (summary.points, summary.points_limit, summary.units, summary.models) == (
        705, 1000, 6, 38)


def test_store_round_trip_of_an_odd_roster(store, tmp_path):
    """An unknown game (statistics as notes), no points limit, and two units sharing a name
    with quotes, markup and a non-Latin letter."""
    odd = "Ōni's \"Guard\" <1>"
    data = roster_xml(spearmen(custom=odd), spearmen(custom=odd),
                      game="Warhammer 40,000 10th Edition", limit=None)
    imported = read_army_file(write(tmp_path, "odd.ros", data))
    saved = store.save_army(imported.army)
    assert store.load_army(saved.id) == saved
    assert [u.id for u in saved.units] == ["ni-s-guard-1", "ni-s-guard-1-2"]


# ---------------------------------------------------------------------------------------------
# 4. Hostile and malformed files: BadFileError naming the file and the problem, nothing written


BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE roster [\n <!ENTITY lol "lol">\n'
    + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
               for i in range(1, 10))
    + b']>\n<roster name="&lol9;"/>\n')
XXE = (b'<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY passwd SYSTEM "file:///etc/passwd">]>'
       b'\n<roster name="&passwd;"><forces/></roster>')
PARAMETER_ENTITY = (b'<?xml version="1.0"?>\n<!DOCTYPE roster [<!ENTITY % remote SYSTEM '
                    b'"http://example.invalid/evil.dtd"> %remote;]>\n<roster/>')
PLAIN_DTD = b'<?xml version="1.0"?>\n<!DOCTYPE roster>\n' + SMALL_ROSTER.split(b"?>", 1)[1]
EXTERNAL_DTD = (b'<?xml version="1.0"?>\n<!DOCTYPE roster SYSTEM "http://example.invalid/r.dtd">'
                b"\n<roster/>")


@cache
def zip_bomb() -> bytes:
    """30 MB of zeros in a zip of about 30 KB."""
    return zip_bytes([("bomb.ros", bytes(30 * 1024 * 1024))])


@cache
def ratio_bomb() -> bytes:
    """Under the size limit, but far more compressed than any XML is."""
    return zip_bytes([("bomb.ros", bytes(12 * 1024 * 1024))])


@cache
def lying_header() -> bytes:
    """The 30 MB member, but its headers say it unpacks to 1000 bytes."""
    def lie(data: bytearray) -> None:
        struct.pack_into("<I", data, 22, 1000)  # local header: uncompressed size
        struct.pack_into("<I", data, central_directory(data) + 24, 1000)
    return patched(zip_bomb(), lie)


def lying_bigger_header() -> bytes:
    """A small member whose headers claim 4 GB."""
    def lie(data: bytearray) -> None:
        struct.pack_into("<I", data, 22, 0xFFFF_FFFE)
        struct.pack_into("<I", data, central_directory(data) + 24, 0xFFFF_FFFE)
    return patched(zip_bytes([("a.ros", SMALL_ROSTER)]), lie)


def encrypted() -> bytes:
    def flag(data: bytearray) -> None:
        data[6] |= 1
        data[central_directory(data) + 8] |= 1
    return patched(zip_bytes([("a.ros", SMALL_ROSTER)]), flag)


def unknown_zip_version() -> bytes:
    return patched(zip_bytes([("a.ros", SMALL_ROSTER)]),
                   lambda data: struct.pack_into("<H", data, central_directory(data) + 6, 255))


def unknown_compression() -> bytes:
    def method(data: bytearray) -> None:
        struct.pack_into("<H", data, 8, 99)
        struct.pack_into("<H", data, central_directory(data) + 10, 99)
    return patched(zip_bytes([("a.ros", SMALL_ROSTER)]), method)


def corrupt_stream(method: int) -> Callable[[], bytes]:
    """The member's compressed bytes overwritten with 0xFF (after LZMA's or bzip2's header)."""
    def build() -> bytes:
        data = zip_bytes([("a.ros", SMALL_ROSTER * 20)], method)
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            info = archive.infolist()[0]
        start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
        skip = {zipfile.ZIP_LZMA: 9, zipfile.ZIP_BZIP2: 4}.get(method, 0)

        def smash(data: bytearray) -> None:
            data[start + skip:start + info.compress_size] = b"\xff" * (info.compress_size
                                                                       - skip)
        return patched(data, smash)
    return build


def deep_selections(levels: int) -> bytes:
    """A unit with `levels` selections nested one inside the other below it."""
    inner: tuple[str, ...] = ()
    for level in range(levels):
        inner = (selection_xml(f"Layer {level}", kind="upgrade", children=inner),)
    return roster_xml(spearmen(children=inner))


def deep_forces(levels: int) -> bytes:
    forces = ""
    for _ in range(levels):
        forces = f'<force name="F"><selections/><forces>{forces}</forces></force>'
    return roster_xml(forces=forces)


def with_model_number(number: str) -> Callable[[], bytes]:
    return lambda: roster_xml(spearmen(models=number))


def with_cost(value: str) -> Callable[[], bytes]:
    return lambda: roster_xml(spearmen(pts=value))


def real_truncated() -> bytes:
    data = BATTLESCRIBE_ROSTER.read_bytes()
    return data[: len(data) // 2]


def one(name: str, data: bytes) -> Callable[[], bytes]:
    return lambda: zip_bytes([(name, data)])


# (file name, builder of its bytes, words the message must hold)
HOSTILE: list[Any] = [
    pytest.param("laughs.ros", lambda: BILLION_LAUGHS, ["refused", "DTD"], id="billion-laughs"),
    pytest.param("xxe.ros", lambda: XXE, ["refused", "DTD"], id="xxe-file-passwd"),
    pytest.param("pe.ros", lambda: PARAMETER_ENTITY, ["refused", "DTD"],
                 id="parameter-entity"),
    pytest.param("dtd.ros", lambda: PLAIN_DTD, ["refused", "DTD"], id="plain-doctype"),
    pytest.param("ext.ros", lambda: EXTERNAL_DTD, ["refused", "DTD"], id="external-dtd"),
    pytest.param("xxe.rosz", lambda: zip_bytes([("a.ros", XXE)]), ["refused", "DTD"],
                 id="xxe-inside-rosz"),
    pytest.param("bomb.rosz", zip_bomb, ["refused", f"unpacks to {30 * 1024 * 1024} bytes",
                                         f"limit {MAX_ROSTER_BYTES}"], id="zip-bomb"),
    pytest.param("ratio.rosz", ratio_bomb, ["refused", f"to {12 * 1024 * 1024} bytes",
                                            f"more than {MAX_COMPRESSION_RATIO} times"],
                 id="zip-bomb-under-the-limit"),
    pytest.param("liar.rosz", lying_header, ["cannot be unpacked", "CRC"],
                 id="header-lies-smaller"),
    pytest.param("liar2.rosz", lying_bigger_header, ["refused", "unpacks to 4294967294 bytes"],
                 id="header-lies-bigger"),
    pytest.param("slip.rosz", one("../evil.ros", SMALL_ROSTER),
                 ["refused", "unsafe file name '../evil.ros'"], id="zip-slip"),
    pytest.param("slip2.rosz", one("rosters/../../evil.ros", SMALL_ROSTER),
                 ["unsafe file name 'rosters/../../evil.ros'"], id="zip-slip-inner"),
    pytest.param("slip3.rosz", one("..\\evil.ros", SMALL_ROSTER),
                 ["unsafe file name '..\\\\evil.ros'"], id="zip-slip-backslash"),
    pytest.param("abs.rosz", one("/tmp/evil.ros", SMALL_ROSTER),
                 ["refused", "unsafe file name '/tmp/evil.ros'"], id="absolute-name"),
    pytest.param("drive.rosz", one("C:/evil.ros", SMALL_ROSTER),
                 ["unsafe file name 'C:/evil.ros'"], id="drive-letter"),
    pytest.param("newline.rosz", one("../evil\n\x1b[31m.ros", SMALL_ROSTER),
                 ["unsafe file name '../evil\\n\\x1b[31m.ros'"], id="control-characters-in-name"),
    pytest.param("none.rosz", lambda: zip_bytes([("readme.txt", b"hello")]),
                 ["exactly one .ros", "holds 0"], id="zip-without-ros"),
    pytest.param("empty.rosz", lambda: zip_bytes([]), ["exactly one .ros", "holds 0"],
                 id="empty-zip"),
    pytest.param("two.rosz", lambda: zip_bytes([("a.ros", SMALL_ROSTER),
                                                ("b.ros", SMALL_ROSTER)]),
                 ["exactly one .ros", "holds 2"], id="two-ros"),
    pytest.param("xml.rosz", lambda: SMALL_ROSTER, ["not a valid zip"], id="rosz-not-a-zip"),
    pytest.param("zero.rosz", lambda: b"", ["not a valid zip"], id="rosz-empty-file"),
    pytest.param("cut.rosz", real_truncated, ["not a valid zip"], id="truncated-zip"),
    pytest.param("enc.rosz", encrypted, ["encrypted"], id="encrypted-member"),
    pytest.param("ver.rosz", unknown_zip_version, ["zip file version 25.5"],
                 id="unknown-zip-version"),
    pytest.param("method.rosz", unknown_compression, ["cannot be unpacked",
                                                      "compression method"],
                 id="unknown-compression"),
    pytest.param("deflate.rosz", corrupt_stream(zipfile.ZIP_DEFLATED),
                 ["cannot be unpacked", "Error -3"], id="corrupt-deflate"),
    pytest.param("lzma.rosz", corrupt_stream(zipfile.ZIP_LZMA),
                 ["cannot be unpacked", "Corrupt input data"], id="corrupt-lzma"),
    pytest.param("bzip2.rosz", corrupt_stream(zipfile.ZIP_BZIP2),
                 ["cannot be unpacked", "Invalid data stream"], id="corrupt-bzip2"),
    pytest.param("bad.ros", lambda: b"<roster><forces></roster>",
                 ["not well-formed XML", "mismatched tag"], id="not-well-formed"),
    pytest.param("junk.ros", lambda: bytes(range(256)), ["not well-formed XML"],
                 id="binary-junk"),
    pytest.param("empty.ros", lambda: b"", ["not well-formed XML", "no element found"],
                 id="empty-ros"),
    pytest.param("enc.ros", lambda: b'<?xml version="1.0" encoding="x-klingon"?><roster/>',
                 ["cannot be read as XML", "x-klingon"], id="unknown-encoding"),
    pytest.param("cat.ros", lambda: b'<catalogue xmlns="x"><roster/></catalogue>',
                 ["not a BattleScribe roster", "<catalogue>", "expected <roster>"],
                 id="wrong-root"),
    pytest.param("deep.ros", lambda: deep_selections(MAX_DEPTH + 1),
                 ["selections nested too deeply"], id="deep-selections"),
    pytest.param("deeper.ros", lambda: deep_selections(5000),
                 ["selections nested too deeply"], id="very-deep-selections"),
    pytest.param("forces.ros", lambda: deep_forces(MAX_DEPTH + 20),
                 ["forces nested too deeply"], id="deep-forces"),
    pytest.param("big.ros", lambda: SMALL_ROSTER + b" " * MAX_INPUT_BYTES,
                 ["too large for a roster", f"limit is {MAX_INPUT_BYTES} bytes"],
                 id="file-over-the-size-limit"),
    pytest.param("words.ros", with_cost("ten"), ["a cost 'ten' is not a number"],
                 id="cost-not-a-number"),
    pytest.param("inf.ros", with_cost("inf"), ["a cost 'inf' is not a usable number"],
                 id="cost-infinite"),
    pytest.param("minf.ros", with_cost("-Infinity"),
                 ["a cost '-Infinity' is not a usable number"], id="cost-minus-infinity"),
    pytest.param("nan.ros", with_cost("NaN"), ["a cost 'NaN' is not a usable number"],
                 id="cost-nan"),
    pytest.param("huge.ros", with_cost("1e400"), ["a cost '1e400' is not a usable number"],
                 id="cost-overflows-to-infinity"),
    pytest.param("big-cost.ros", with_cost("99999999999"), ["is not a usable number"],
                 id="cost-absurd"),
    pytest.param("limit.ros", lambda: roster_xml(spearmen(), limit="lots"),
                 ["the points limit 'lots' is not a number"], id="points-limit-not-a-number"),
    pytest.param("declared.ros", lambda: roster_xml(spearmen(), declared="nan"),
                 ["the roster's points 'nan' is not a usable number"],
                 id="declared-points-nan"),
    pytest.param("billion.ros", with_model_number("1e9"),
                 ["the number of 'Spearman' '1e9' is not a usable number"],
                 id="models-1e9"),
    pytest.param("billion2.ros", with_model_number("1000000000"),
                 ["the number of 'Spearman' '1000000000' is not a usable number"],
                 id="models-1000000000"),
    pytest.param("many.ros", with_model_number(str(MAX_MODELS + 1)),
                 [f"unit 'Spearmen' has {MAX_MODELS + 1} models",
                  f"Rout takes 1 to {MAX_MODELS}"], id="models-over-the-limit"),
    pytest.param("negative.ros", with_model_number("-6"),
                 ["the number of 'Spearman' is -6", "cannot be negative"],
                 id="models-negative"),
    pytest.param("zero.ros", with_model_number("0"), ["unit 'Spearmen' has 0 models"],
                 id="models-zero"),
    pytest.param("nanmodels.ros", with_model_number("NaN"), ["is not a usable number"],
                 id="models-nan"),
    pytest.param("character.ros", lambda: roster_xml(selection_xml(
        "Hero", number="1000000000", profiles=(profile_xml("Hero", W6_PAIRS),))),
                 ["the number of 'Hero' '1000000000' is not a usable number"],
                 id="character-number-huge"),
    pytest.param("units.ros", lambda: roster_xml(*[spearmen(models=1, pts=1)] * (MAX_UNITS + 1)),
                 [f"more than {MAX_UNITS} units"], id="too-many-units"),
]


def assert_refused(path: Path, fragments: list[str], ruleset: str | None = None) -> str:
    with pytest.raises(BadFileError) as caught:
        read_army_file(path, ruleset)
    message = str(caught.value)
    assert message.startswith(f"{short_path(path)}: "), message
    assert "\n" not in message and "\r" not in message, message
    assert "Traceback" not in message
    assert "<ZipInfo" not in message and " object at 0x" not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.mark.parametrize(("filename", "build", "fragments"), HOSTILE)
def test_hostile_file_is_refused_and_nothing_is_written(tmp_path, filename, build, fragments):
    folder = tmp_path / "inside" / "deeper"
    path = write(folder, filename, build())
    before = snapshot(tmp_path)
    message = assert_refused(path, fragments)
    # Nothing unpacked, extracted or created: not next to the file, not above it.
    assert snapshot(tmp_path) == before
    assert not (folder.parent / "evil.ros").exists()
    assert not (tmp_path / "evil.ros").exists()
    # Nothing the file tried to pull in shows up in the message.
    assert "root:" not in message


def test_the_hostile_builders_are_what_they_claim():
    """Guard against a builder that is refused for the wrong reason."""
    (bomb,) = members(zip_bomb())
    assert bomb.file_size == 30 * 1024 * 1024
    assert len(zip_bomb()) < 100_000
    (liar,) = members(lying_header())
    assert (liar.file_size, liar.compress_size) == (1000, bomb.compress_size)
    (slip,) = members(one("../evil.ros", b"")())
    assert slip.filename == "../evil.ros"
    (locked,) = members(encrypted())
    assert locked.flag_bits & 0x1
    assert b"<!DOCTYPE" in BILLION_LAUGHS and b"&lol9;" in BILLION_LAUGHS
    assert b"file:///etc/passwd" in XXE


def test_xml_size_limit_is_checked_again_after_unzipping():
    with pytest.raises(BadFileError, match=r"^big\.ros: larger than the \d+ bytes"):
        read_ros(SMALL_ROSTER + b" " * MAX_ROSTER_BYTES, "big.ros")


def test_a_file_exactly_at_the_size_limit_is_read(tmp_path):
    padded = SMALL_ROSTER + b" " * (MAX_INPUT_BYTES - len(SMALL_ROSTER))
    imported = read_army_file(write(tmp_path, "padded.ros", padded))
    assert imported.army.points == 50


def test_selections_at_the_depth_limit_are_read(tmp_path):
    imported = read_army_file(write(tmp_path, "deep.ros", deep_selections(MAX_DEPTH)))
    (unit,) = imported.army.units
    assert unit.models == 10
    assert "Layer 0" in unit.notes[0]


def test_every_truncation_of_the_real_file_is_refused(tmp_path):
    data = BATTLESCRIBE_ROSTER.read_bytes()
    path = tmp_path / "cut.rosz"
    for cut in range(len(data)):
        path.write_bytes(data[:cut])
        with pytest.raises(BadFileError, match=r"not a valid zip|cannot be unpacked"):
            read_army_file(path)


def test_corrupted_real_file_gives_bad_file_error_or_the_roster(tmp_path):
    """Every third byte of the real .rosz flipped in turn: whatever the damage, the result is
    BadFileError or a roster, never another exception."""
    data = BATTLESCRIBE_ROSTER.read_bytes()
    path = tmp_path / "flipped.rosz"
    messages = []
    for position in range(0, len(data), 3):
        changed = bytearray(data)
        changed[position] ^= 0xFF
        path.write_bytes(bytes(changed))
        try:
            read_army_file(path)
        except BadFileError as error:
            messages.append(str(error))
    assert all(m.startswith(f"{short_path(path)}: ") and "\n" not in m for m in messages)
    # Most damage is noticed: the CRC covers the roster, the zip's structure the rest.
    assert len(messages) > len(data) // 6


def test_random_damage_to_the_xml_gives_bad_file_error_or_a_roster():
    """A fixed seed: the same damaged documents every run."""
    rng = random.Random(20240611)
    text = real_ros_bytes()
    messages = []
    for _ in range(1000):
        changed = bytearray(text)
        for _ in range(rng.randint(1, 3)):
            changed[rng.randrange(len(changed))] = rng.choice(b'<>"=/&;0123456789-.eE \x00\xff')
        try:
            read_ros(bytes(changed), "damaged.ros")
        except BadFileError as error:
            messages.append(str(error))
    assert messages
    assert all(m.startswith("damaged.ros: ") and "\n" not in m for m in messages)


# Import with warnings: the file is usable, and the player is told what to check.


def test_empty_roster_imports_with_a_warning(tmp_path):
    for label, data in (("forces", roster_xml()),
                        ("bare", b'<roster xmlns="%s" gameSystemName="%s"/>'
                         % (NS.encode(), W6_GAME.encode()))):
        imported = read_army_file(write(tmp_path, f"{label}.ros", data))
        assert imported.warnings == ("the roster has no units",), label
        assert imported.army.units == ()
        assert imported.army.points == 0


INTERCESSORS = selection_xml(
    "Intercessor Squad", slot="Battleline", rules=("Oath of Moment",),
    children=(selection_xml("Intercessor", kind="model", number=5, pts=80, profiles=(
        profile_xml("Intercessor", [("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"),
                                    ("LD", "6+"), ("OC", "2")], type_name="Unit"),)),))
FORTY_K = "Warhammer 40,000 10th Edition"


def test_unknown_game_system_imports_with_a_warning_and_profiles_as_notes(tmp_path):
    imported = read_army_file(write(tmp_path, "40k.rosz", zip_bytes(
        [("40k.ros", roster_xml(INTERCESSORS, game=FORTY_K, limit=2000))])))
    assert imported.warnings == (
        f"unknown game system '{FORTY_K}': imported for {RULESETS['breaks_pursues'].name}; "
        "the profiles are kept as notes and the statistics need checking",)
    assert imported.game_system == FORTY_K
    army = imported.army
    assert army.ruleset == "breaks_pursues"
    assert army.points_limit == 2000
    (unit,) = army.units
    assert (unit.name, unit.models, unit.points, unit.slot) == (
        "Intercessor Squad", 5, 80, "Battleline")
    # Nothing is guessed from another game's M and LD: the defaults stand, the file's words
    # are kept.
    assert dict(unit.profile.stats) == RULESETS["breaks_pursues"].default_stats()
    assert f'{PROFILE_NOTE}Intercessor: M 6", T 4, SV 3+, W 2, LD 6+, OC 2' in unit.notes
    assert unit.profile.special_rules == {"oath_of_moment"}


def test_explicit_ruleset_for_an_unknown_game_maps_statistics_by_name(tmp_path):
    path = write(tmp_path, "40k.ros", roster_xml(INTERCESSORS, game=FORTY_K))
    imported = read_army_file(path, "breaks_pursues")
    assert imported.warnings == ()
    (unit,) = imported.army.units
    assert dict(unit.profile.stats) == {"M": 6, "Ld": 6}
    assert f"{PROFILE_NOTE}Intercessor: T 4, SV 3+, W 2, OC 2" in unit.notes


def test_explicit_ruleset_maps_long_characteristic_names(tmp_path):
    pairs = [("Movement", "5"), ("Weapon Skill", "4"), ("Ballistic Skill", "2"),
             ("Strength", "4"), ("Toughness", "5"), ("Wounds", "3"), ("Initiative", "1"),
             ("Attacks", "2"), ("Leadership", "9"), ("Unit Strength", "3"),
             ("Base Size", "40x40"), ("Fear", "yes")]
    data = roster_xml(selection_xml("Ogres", profiles=(profile_xml("Ogre", pairs),),
                                    children=(selection_xml("Ogre", kind="model", number=3,
                                                            pts=105),)),
                      game="Homebrew Skirmish")
    imported = read_army_file(write(tmp_path, "ogres.ros", data), "warhammer6")
    assert imported.warnings == ()
    (unit,) = imported.army.units
    assert dict(unit.profile.stats) == {"M": 5, "WS": 4, "BS": 2, "S": 4, "T": 5, "W": 3,
                                        "I": 1, "A": 2, "Ld": 9}
    assert unit.profile.unit_strength == 3
    assert unit.profile.wounds == 3
    assert unit.profile.base == pytest.approx((40 / MM_PER_INCH, 40 / MM_PER_INCH))
    assert f"{PROFILE_NOTE}Ogre: Fear yes" in unit.notes


def test_explicit_ruleset_other_than_the_guess_warns(real):
    imported = read_army_file(BATTLESCRIBE_ROSTER, "breaks_pursues")
    assert imported.warnings == (
        f"the roster is for '{W6_GAME}'; imported for {RULESETS['breaks_pursues'].name} "
        "as asked",)
    army = imported.army
    assert army.ruleset == "breaks_pursues"
    assert army.points == 705
    assert [u.models for u in army.units] == [u.models for u in real.army.units]
    duc = unit_named(army, "Duc d'Lorraine")
    assert dict(duc.profile.stats) == {"M": 8, "Ld": 8}
    assert f"{PROFILE_NOTE}Paladin: WS 5, BS 3, S 4, T 4, W 2, I 5, A 3" in duc.notes


def test_explicit_ruleset_equal_to_the_guess_changes_nothing(real):
    imported = read_army_file(BATTLESCRIBE_ROSTER, "warhammer6")
    assert imported.warnings == ()
    assert imported.army == real.army


@pytest.mark.parametrize(("value", "expected", "warning"), [
    ("5", 5, None),
    ('5"', 5, None),
    (" 5 ", 5, None),
    # "-" is how army builders write "no value": the default, said once.
    ("-", 3, "'Spearmen' has no WS: the default is used"),
    ("", 3, "'Spearmen' has no WS: the default is used"),
    ("2D6", 3, "'Spearmen': WS '2D6' is not a number; Weapon Skill is 3"),
    ("D6", 3, "'Spearmen': WS 'D6' is not a number; Weapon Skill is 3"),
    ("ten", 3, "'Spearmen': WS 'ten' is not a number; Weapon Skill is 3"),
    ("15", 10, "'Spearmen': WS 15 is outside 0 to 10; set to 10"),
    ("99999", 10, "'Spearmen': WS 99999 is outside 0 to 10; set to 10"),
    ("-1", 0, "'Spearmen': WS -1 is outside 0 to 10; set to 0"),
    ("12345678901", 3, "'Spearmen': WS '12345678901' is not a number; Weapon Skill is 3"),
])
def test_characteristic_values(tmp_path, value, expected, warning):
    pairs = [(name, value if name == "WS" else v) for name, v in W6_PAIRS]
    imported = read_army_file(write(tmp_path, "ws.ros", roster_xml(spearmen(pairs=pairs))))
    (unit,) = imported.army.units
    assert unit.profile.stats["WS"] == expected
    assert imported.warnings == ((warning,) if warning else ())
    assert unit.profile.stats["M"] == 4  # the others are untouched


def test_leadership_below_its_minimum_is_raised_to_it(tmp_path):
    pairs = [(name, "0" if name == "Ld" else v) for name, v in W6_PAIRS]
    imported = read_army_file(write(tmp_path, "ld.ros", roster_xml(spearmen(pairs=pairs))))
    assert imported.army.units[0].profile.stats["Ld"] == 1
    assert imported.warnings == ("'Spearmen': Ld 0 is outside 1 to 10; set to 1",)


def test_missing_statistics_warn_and_take_the_default(tmp_path):
    pairs = [("Mv", "5"), ("Ld", "8")]
    imported = read_army_file(write(tmp_path, "few.ros", roster_xml(spearmen(pairs=pairs))))
    (unit,) = imported.army.units
    assert imported.warnings == (
        "'Spearmen' has no WS, BS, S, T, W, I, A: the default is used",)
    assert dict(unit.profile.stats) == {**RULESETS["warhammer6"].default_stats(),
                                        "M": 5, "Ld": 8}


def test_unit_without_a_profile_warns(tmp_path):
    data = roster_xml(selection_xml("Mystery", children=(
        selection_xml("Thing", kind="model", number=2, pts=10),)))
    imported = read_army_file(write(tmp_path, "none.ros", data))
    assert imported.warnings == (
        "'Mystery' has no profile Rout can read: it has the default statistics",)
    assert dict(imported.army.units[0].profile.stats) == RULESETS["warhammer6"].default_stats()


def test_bad_base_size_warns_and_uses_the_usual_base(tmp_path):
    pairs = [*W6_PAIRS, ("Base", "huge")]
    imported = read_army_file(write(tmp_path, "base.ros", roster_xml(spearmen(pairs=pairs))))
    assert imported.warnings == (
        "'Spearmen': base 'huge' is not WIDTHxDEPTH in mm; the usual base is used",)
    assert imported.army.units[0].profile.base == pytest.approx(
        (20 / MM_PER_INCH, 20 / MM_PER_INCH))


def test_declared_points_that_do_not_add_up_warn(tmp_path):
    imported = read_army_file(write(tmp_path, "sum.ros",
                                    roster_xml(spearmen(), spearmen(pts=30), declared=999)))
    assert imported.warnings == ("the roster says 999 points but its units add up to 80",)
    assert imported.army.points == 80


def test_names_from_the_file_are_cleaned(tmp_path):
    data = roster_xml(spearmen(custom="  The\n\tFirst   Cohort  " + "x" * 500),
                      name="A\nroster")
    imported = read_army_file(write(tmp_path, "names.ros", data))
    (unit,) = imported.army.units
    assert unit.name == ("The First Cohort " + "x" * 500)[:200]
    assert imported.army.name == "A roster"


def test_fractional_costs_are_rounded_once_per_unit(tmp_path):
    data = roster_xml(spearmen(pts="10.4", children=(
        selection_xml("Musician", kind="upgrade", pts="0.4"),)))
    imported = read_army_file(write(tmp_path, "cents.ros", data))
    (unit,) = imported.army.units
    assert unit.points == 11
    assert unit.upgrades == {"musician"}


# ---------------------------------------------------------------------------------------------
# 5. The `rout` command


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_imports_the_real_roster(capsys, tmp_path):
    url = f"sqlite:///{tmp_path / 'x.sqlite'}"
    code, out, err = run_cli(capsys, "import", str(BATTLESCRIBE_ROSTER), "--database", url)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert {k: result[k] for k in ("name", "ruleset", "units", "models", "points",
                                   "points_limit", "warnings")} == {
        "name": REAL_NAME, "ruleset": "warhammer6", "units": 6, "models": 38, "points": 705,
        "points_limit": 1000, "warnings": [
            # The bundled library has no Bretonnia list (tests/test_cli_check.py).
            "the catalogue 'Bretonnia' is not an army list of the Warhammer Fantasy Battle "
            "6th edition library: choose one in Army Settings"]}
    code, out, err = run_cli(capsys, "armies", "--database", url)
    assert (code, err) == (0, "")
    (listed,) = json.loads(out)
    assert (listed["id"], listed["points"], listed["models"]) == (result["army"], 705, 38)


def test_cli_ruleset_override_reports_the_warning(capsys, tmp_path):
    url = f"sqlite:///{tmp_path / 'x.sqlite'}"
    code, out, err = run_cli(capsys, "import", str(BATTLESCRIBE_ROSTER), "--ruleset",
                             "breaks_pursues", "--database", url)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["ruleset"] == "breaks_pursues"
    assert result["points"] == 705
    assert len(result["warnings"]) == 2  # the second: no Breaks-or-Pursues list Bretonnia
    assert "as asked" in result["warnings"][0]


@pytest.mark.parametrize(("suffix", "slot_re", "unit_re", "clean"), [
    (".txt", TEXT_SLOT, TEXT_UNIT, str),
    (".md", MD_SLOT, MD_UNIT, unescape_markdown),
])
def test_cli_import_then_export(capsys, tmp_path, suffix, slot_re, unit_re, clean):
    url = f"sqlite:///{tmp_path / 'x.sqlite'}"
    code, out, _ = run_cli(capsys, "import", str(BATTLESCRIBE_ROSTER), "--database", url)
    assert code == 0
    target = tmp_path / f"out{suffix}"
    code, out, err = run_cli(capsys, "export", REAL_NAME, str(target), "--database", url)
    assert (code, err) == (0, "")
    assert json.loads(out)["points"] == 705
    headline, units = parse_export(target.read_text(encoding="utf-8"), slot_re, unit_re, clean)
    assert units == expected_listing()
    assert headline["points"] == "705"


CLI_HOSTILE = [case for case in HOSTILE if case.id in {
    "billion-laughs", "xxe-file-passwd", "plain-doctype", "zip-bomb", "header-lies-smaller",
    "zip-slip", "absolute-name", "control-characters-in-name", "zip-without-ros", "two-ros",
    "rosz-not-a-zip", "truncated-zip", "encrypted-member", "unknown-zip-version",
    "corrupt-deflate", "not-well-formed", "unknown-encoding", "wrong-root", "deep-selections",
    "file-over-the-size-limit", "cost-not-a-number", "cost-nan", "cost-infinite",
    "models-1e9", "models-negative", "points-limit-not-a-number"}]


def test_cli_hostile_selection_is_complete():
    assert len(CLI_HOSTILE) == 26


@pytest.mark.parametrize(("filename", "build", "fragments"), CLI_HOSTILE)
def test_cli_refuses_a_hostile_file_and_changes_nothing(capsys, tmp_path, filename, build,
                                                        fragments):
    database = tmp_path / "db" / "x.sqlite"
    database.parent.mkdir()
    url = f"sqlite:///{database}"
    code, _, _ = run_cli(capsys, "import", str(BATTLESCRIBE_ROSTER), "--database", url)
    assert code == 0
    code, out, _ = run_cli(capsys, "armies", "--database", url)
    armies_before = json.loads(out)
    hostile = write(tmp_path / "in", filename, build())
    # The database is closed: its main file (and any -wal left) is what is on disk.
    before = snapshot(tmp_path)
    assert any(name.endswith("x.sqlite") for name in before)

    code, out, err = run_cli(capsys, "import", str(hostile), "--database", url)

    assert code == 2
    assert out == ""
    assert err.endswith("\n")
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"rout import: {short_path(hostile)}: "), lines[0]
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in err
    assert snapshot(tmp_path) == before  # the database and the input file, byte for byte
    code, out, _ = run_cli(capsys, "armies", "--database", url)
    assert code == 0
    assert json.loads(out) == armies_before


def test_a_mounted_model_counts_rider_and_mount_for_unit_strength(real):
    army = real.army
    assert unit_named(army, "The Duc's Vanguard").profile.unit_strength == 2
    assert unit_named(army, "Duc d'Lorraine").profile.unit_strength == 2
    assert unit_named(army, "Hunters of Bordeleaux").profile.unit_strength == 1


def test_a_rosz_re_zipped_on_a_mac_keeps_only_the_real_roster(tmp_path):
    content = real_ros_bytes()
    path = tmp_path / "mac.rosz"
    path.write_bytes(zip_bytes([("army.ros", content),
                                ("__MACOSX/._army.ros", b"\x00\x05\x16\x07 resource fork"),
                                ("._army.ros", b"\x00\x05\x16\x07")]))
    imported = read_army_file(path)
    assert imported.army.points == 705 and len(imported.army.units) == 6


# ---------------------------------------------------------------------------------------------
# What is imported exports and imports again: the Rout JSON reader's limits at this door too


def _weapon(index: int) -> str:
    return profile_xml(f"Weapon {index}", [("Range", f"{index}\""), ("Strength", "3")],
                       type_name="Weapon")


def _gear(index: int) -> str:
    return selection_xml(f"Piece of equipment number {index:04}", kind="upgrade", pts=1)


@pytest.mark.parametrize(("unit", "game"), [
    pytest.param(selection_xml("Spearmen", slot="Core", profiles=(
        profile_xml("Spearman", W6_PAIRS), *(_weapon(i) for i in range(250))),
        children=(selection_xml("Spearman", kind="model", number=10, pts=50),)),
        W6_GAME, id="250-profile-notes"),
    pytest.param(spearmen(children=tuple(_gear(i) for i in range(300))), W6_GAME,
                 id="selections-note-of-12000-characters"),
    pytest.param(selection_xml("Spearmen", slot="Core", profiles=(
        profile_xml("Spearman", W6_PAIRS),),
        rules=tuple(f"Rule number {i}" for i in range(300)),
        children=(selection_xml("Spearman", kind="model", number=10, pts=50),)),
        W6_GAME, id="300-special-rules"),
    pytest.param(spearmen(), "Warhammer " + "x" * 10_000, id="game-system-of-10000"),
])
def test_an_imported_roster_exports_and_imports_again(capsys, tmp_path, unit, game):
    from desktop.engine.codec import MAX_NOTE_LENGTH, MAX_NOTES, army_from_json

    roster = write(tmp_path, "big.ros", roster_xml(unit, game=game))
    imported = read_army_file(roster)
    army = imported.army
    for item in (army, *army.units):
        assert len(item.notes) <= MAX_NOTES
        assert all(len(note) <= MAX_NOTE_LENGTH for note in item.notes)
    assert all(len(unit.profile.special_rules) <= MAX_NOTES for unit in army.units)
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    code, out, err = run_cli(capsys, "import", str(roster), "--database", url)
    assert (code, err) == (0, "")
    assert any("Rout keeps" in warning for warning in json.loads(out)["warnings"]) or (
        "x" * 100 in game)
    exported = tmp_path / "again.json"
    code, _, err = run_cli(capsys, "export", army.name, str(exported), "--database", url)
    assert (code, err) == (0, "")
    assert army_from_json(json.loads(exported.read_text(encoding="utf-8"))) == army
    code, _, err = run_cli(capsys, "import", str(exported), "--database", url)
    assert (code, err) == (0, "")


def test_a_roster_whose_points_no_database_holds_is_refused_by_name(tmp_path):
    from desktop.engine.codec import MAX_ARMY_POINTS

    units = [spearmen(pts=1_000_000)] * 1500
    roster = write(tmp_path, "rich.ros", roster_xml(*units))
    with pytest.raises(BadFileError, match=f"rich.ros: .*{MAX_ARMY_POINTS}") as caught:
        read_army_file(roster)
    assert "\n" not in str(caught.value)


# 5. Scale: the work a file within the limits causes grows with the file, no faster


def horde(profiles: int, characteristics: list[tuple[str, str]] | None = None) -> bytes:
    """One unit carrying `profiles` profiles of its own, each with two statistics."""
    pairs = characteristics or [("M", "4"), ("Ld", "7")]
    return roster_xml(selection_xml(
        "Horde", slot="Core",
        profiles=tuple(profile_xml(f"Champion {i}", pairs) for i in range(profiles)),
        children=(selection_xml("Orc", kind="model", number=10, pts=50),)))


def test_a_unit_with_ten_times_the_profiles_costs_ten_times_the_work():
    # Each profile was looked up in a list of all of them: 100x the work for 10x the file.
    small, large = horde(200), horde(2000)
    assert growth(lambda: read_ros(small, "small.ros"),
                  lambda: read_ros(large, "large.ros")) < 15


def test_ten_times_the_units_of_one_name_cost_ten_times_the_work():
    # Each id was found by trying "-2", "-3"... against every id given before.
    small = roster_xml(*[spearmen(models=1, pts=1)] * 200)
    large = roster_xml(*[spearmen(models=1, pts=1)] * 2000)
    assert growth(lambda: read_ros(small, "small.ros"),
                  lambda: read_ros(large, "large.ros")) < 15
    ids = [unit.id for unit in read_ros(large, "large.ros").army.units]
    assert ids[:3] == ["spearmen", "spearmen-2", "spearmen-3"]
    assert len(set(ids)) == 2000


def test_a_unit_keeps_as_many_notes_as_rout_json_holds_and_says_what_it_left_out():
    imported = read_ros(horde(MAX_NOTES + 50), "horde.ros")  # the first is its profile
    (unit,) = imported.army.units
    assert len(unit.notes) == MAX_NOTES
    # 249 notes (the first profile is the unit's own): the 50 from the 200th on in one.
    assert unit.notes[-1].count("; ") == 49
    assert ("'Horde': 249 notes is more than Rout keeps (200); the last ones are joined into "
            "one") in imported.warnings
    # What an import makes, Rout JSON holds: written out and read back, the army is the same.
    assert army_from_json(army_to_json(imported.army)) == imported.army


def test_a_note_longer_than_rout_json_holds_is_cut():
    pairs = [(f"Rule{i}", "x" * 40) for i in range(200)]  # nothing maps: all in one note
    imported = read_ros(horde(1, pairs), "long.ros")
    (unit,) = imported.army.units
    (note,) = [note for note in unit.notes if note.startswith(PROFILE_NOTE)]
    assert len(note) == MAX_NOTE_LENGTH and note.endswith("…")
    assert army_from_json(army_to_json(imported.army)) == imported.army


def test_warnings_are_bounded_however_many_the_file_earns():
    pairs = [("WS", "ten")] * 5000  # a warning each, and one for the statistics missing
    imported = read_ros(horde(1, pairs), "noisy.ros")
    assert len(imported.warnings) == MAX_WARNINGS
    assert imported.warnings[0] == "'Horde': WS 'ten' is not a number; Weapon Skill is 3"
    assert imported.warnings[-1] == f"{5001 - (MAX_WARNINGS - 1)} more warnings not shown"
