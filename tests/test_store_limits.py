"""The same limits at every door, on both databases.

What Rout keeps it must be able to export in every format and import again: a text field with
broken Unicode, an army whose points do not fit PostgreSQL's integer, a BattleScribe unit with
more notes than the Rout JSON reader takes. Each door (Rout JSON, BattleScribe, the store's
writer that the window uses) refuses the same things, before anything is written. Commands run
through `desktop.cli.main` against a real SQLite file and the real PostgreSQL server.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine.codec import (
    MAX_ARMY_POINTS,
    MAX_NOTES,
    MAX_POINTS,
    army_from_json,
    army_to_json,
    check_army,
    unit_fits,
)
from desktop.engine.errors import RuleError
from desktop.engine.model import Army, Unit, UnitProfile
from desktop.store.store import Store

from builders import assert_bad, run_cli

W6 = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
LONE = "\udc80"  # what "\udc80" in a JSON file becomes: no encoding can write it


def make_army(units: int = 2, points: int = 100, **unit_fields: Any) -> Army:
    profile = UnitProfile("Spearman", W6)
    return Army("Spears", "Alice", "warhammer6", tuple(
        Unit(f"u{index}", f"Unit {index}", "Alice", profile, 10, 5, points=points,
             **unit_fields)
        for index in range(units)))


def army_file(folder: Path, data: dict[str, Any], name: str = "army.json") -> Path:
    path = folder / name
    # ensure_ascii: the lone surrogate is written as the JSON escape a hostile file would use.
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def stored_armies(url: str) -> list[str]:
    with Store.open(url) as store:
        return [summary.name for summary in store.list_armies()]


def _unit_field(key: str, value: Any):
    def change(data: dict[str, Any]) -> None:
        data["units"][0][key] = value
    return change


def _profile_field(key: str, value: Any):
    def change(data: dict[str, Any]) -> None:
        data["units"][0]["profile"][key] = value
    return change


def _army_field(key: str, value: Any):
    def change(data: dict[str, Any]) -> None:
        data[key] = value
    return change


BROKEN_TEXT = [
    pytest.param(_unit_field("upgrades", ["standard", f"banner{LONE}"]), "units[0].upgrades[1]",
                 id="upgrade"),
    pytest.param(_profile_field("special_rules", [LONE]), "units[0].profile.special_rules[0]",
                 id="special-rule"),
    pytest.param(_unit_field("notes", ["fine", f"x{LONE}"]), "units[0].notes[1]", id="note"),
    pytest.param(_unit_field("slot", f"Core{LONE}"), "units[0].slot", id="slot"),
    pytest.param(_unit_field("name", f"Spears{LONE}"), "units[0].name", id="unit-name"),
    pytest.param(_army_field("notes", [f"{LONE}"]), "notes[0]", id="army-note"),
    pytest.param(_unit_field("upgrades", ["a\x00b"]), "units[0].upgrades[0]", id="nul"),
]


@pytest.mark.parametrize(("change", "where"), BROKEN_TEXT)
def test_broken_text_in_any_field_is_refused_on_import(capsys, database_url, tmp_path, change,
                                                       where):
    data = army_to_json(make_army())
    change(data)
    line = assert_bad(capsys, ["import", army_file(tmp_path, data), "--database",
                               database_url], where, prefix="rout import: ")
    assert "Unicode" in line or "NUL" in line
    assert stored_armies(database_url) == []


@pytest.mark.parametrize("field", ["upgrades", "special_rules", "notes"])
def test_a_list_of_text_is_bounded_like_notes(field):
    data = army_to_json(make_army())
    target = data["units"][0]["profile"] if field == "special_rules" else data["units"][0]
    target[field] = [f"item {index}" for index in range(MAX_NOTES + 1)]
    with pytest.raises(RuleError, match=f"more than Rout keeps \\({MAX_NOTES}\\)"):
        army_from_json(data)
    target[field] = target[field][:MAX_NOTES]
    assert army_from_json(data)


@pytest.mark.parametrize(("army", "says"), [
    (make_army(upgrades=frozenset({f"banner{LONE}"})), "units[0].upgrades"),
    (make_army(notes=("a" * 4001,)), "units[0].notes[0]"),
    (make_army(notes=tuple("n" for _ in range(MAX_NOTES + 1))), "units[0].notes"),
    (replace(make_army(), name="x" * 201), "name"),
    (replace(make_army(), notes=(f"{LONE}",)), "notes[0]"),
    (make_army(slot="s" * 101), "units[0].slot"),
    (make_army(points=MAX_POINTS + 1), "units[0].points"),
    (make_army(units=1001, points=MAX_POINTS), "points"),
])
def test_the_store_refuses_what_it_could_not_export_before_writing(database_url, army, says):
    """The window's door: `save_army` checks as the readers do, on both databases."""
    with Store.open(database_url) as store:
        with pytest.raises(RuleError, match=says.replace("[", r"\[").replace("]", r"\]")):
            store.save_army(army)
        assert store.list_armies() == []


def test_an_army_at_every_limit_is_kept_and_comes_back(database_url, tmp_path, capsys):
    units = MAX_ARMY_POINTS // MAX_POINTS
    army = make_army(units=units, points=MAX_POINTS)
    check_army(army)
    with Store.open(database_url) as store:
        saved = store.save_army(army)
        assert store.load_army(saved.id).points == MAX_ARMY_POINTS
    out = tmp_path / "army.json"
    code, _, err = run_cli(capsys, "export", saved.id, out, "--database", database_url)
    assert (code, err) == (0, "")
    assert army_from_json(json.loads(out.read_text(encoding="utf-8"))).points == MAX_ARMY_POINTS


def test_points_past_what_postgresql_holds_are_refused_on_both_databases(capsys, database_url,
                                                                         tmp_path):
    """2,148 units of 1,000,000 points: SQLite took them, PostgreSQL's integer did not."""
    data = army_to_json(make_army(units=2148, points=MAX_POINTS))
    assert_bad(capsys, ["import", army_file(tmp_path, data), "--database", database_url],
               "2148000000 points", f"{MAX_ARMY_POINTS}", prefix="rout import: ")
    assert stored_armies(database_url) == []


@pytest.mark.parametrize("fmt", ["json", "txt", "md"])
def test_whatever_the_store_kept_exports_in_every_format(capsys, database_url, tmp_path, fmt):
    """Text that is odd but whole (line breaks, escapes, astral characters) stays exportable."""
    odd = "Æthel\n\x1b[1m\U0001F600 \u2028"
    army = replace(make_army(upgrades=frozenset({odd}), notes=(odd,)), name="Odd" + odd[:10])
    with Store.open(database_url) as store:
        saved = store.save_army(army)
    out = tmp_path / f"army.{fmt}"
    code, _, err = run_cli(capsys, "export", saved.id, out, "--database", database_url)
    assert (code, err) == (0, "")
    if fmt == "json":
        assert army_from_json(json.loads(out.read_text(encoding="utf-8"))).units[0].upgrades == {
            odd}


def test_broken_text_in_a_battle_s_events_is_refused_on_import(capsys, database_url, tmp_path):
    from desktop.engine.codec import battle_to_json

    from builders import play

    scenario = json.loads((Path(__file__).parents[1] / "resources" / "scenarios" /
                           "w6-goblins-vs-elves.json").read_text(encoding="utf-8"))
    loaded, session, _ = play(scenario, [6, 6, 1, 1, 6, 6, 6])
    assert session.events
    data = battle_to_json(loaded.battle, "Broken", session.events)
    data["events"][0]["clause"] = f"W6{LONE}"
    assert_bad(capsys, ["import", army_file(tmp_path, data, "battle.json"), "--database",
                        database_url], "events[0].clause", "Unicode", prefix="rout import: ")
    with Store.open(database_url) as store:
        assert store.list_battles() == []


@pytest.mark.parametrize("column", ["upgrades", "notes"])
@pytest.mark.parametrize("value", ['["\\udc80"]', '[["a list, not text"]]', '["a\\u0000b"]'])
@pytest.mark.parametrize("fmt", ["json", "txt", "md"])
def test_a_row_another_program_broke_is_refused_on_export_in_one_line(
        capsys, database_url, tmp_path, column, value, fmt):
    """The store reads back with the same check it writes with."""
    from sqlalchemy import create_engine, text

    with Store.open(database_url) as store:
        saved = store.save_army(make_army())
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f"UPDATE roster_entry SET {column} = :value"),
                               {"value": value})
    finally:
        engine.dispose()
    out = tmp_path / f"army.{fmt}"
    assert_bad(capsys, ["export", saved.id, out, "--database", database_url],
               "cannot be read", prefix="rout export: ")
    assert not out.exists()


def _text_near(limit: int) -> st.SearchStrategy[str]:
    """Text around `limit` characters, sometimes with a character no file can hold."""
    return st.builds(lambda size, odd, where: ("x" * size)[:where] + odd + ("x" * size)[where:],
                     st.sampled_from([0, 1, limit - 1, limit, limit + 1]),
                     st.sampled_from(["", "", "", "é", "\x00", LONE, "\U0001F600"]),
                     st.integers(0, 5))


def _texts_near(limit: int, most: int) -> st.SearchStrategy[list[str]]:
    return st.builds(lambda count, odd: [f"t{i}" for i in range(count - len(odd))] + odd,
                     st.sampled_from([0, 1, most, most + 1]),
                     st.lists(_text_near(limit), max_size=2))


_units = st.builds(
    lambda id_, name, slot, profile_name, rules, upgrades, notes, models, files, wounds,
    points: Unit(id_, name, "Alice", UnitProfile(profile_name, W6,
                                                 special_rules=frozenset(rules)),
                 models, files, upgrades=frozenset(upgrades), character_wounds=wounds,
                 points=points, slot=slot, notes=tuple(notes)),
    _text_near(100), _text_near(200), _text_near(100), _text_near(200),
    _texts_near(200, MAX_NOTES), _texts_near(200, MAX_NOTES), _texts_near(4000, MAX_NOTES),
    st.sampled_from([0, 1, 10_000, 10_001]), st.sampled_from([0, 1, 5, 10_001]),
    st.sampled_from([-1, 0, 100, 101]), st.sampled_from([-1, 0, MAX_POINTS, MAX_POINTS + 1]))


@settings(max_examples=150, deadline=None)
@given(_units)
def test_the_quick_check_of_a_unit_agrees_with_the_field_by_field_one(unit):
    """`unit_fits` is what a save runs for every unit; the refusals come from check_army."""
    army = Army("Spears", "Alice", "warhammer6", (unit,))
    try:
        check_army(army)
    except RuleError:
        assert not unit_fits(unit)
    else:
        assert unit_fits(unit)


@pytest.mark.parametrize("fmt", ["json", "txt", "md"])
def test_an_army_kept_before_the_limits_still_opens_and_exports(capsys, database_url, tmp_path,
                                                                fmt):
    """A BattleScribe import used to keep 250 notes on a unit, and SQLite took names past
    200 characters: such an army reads and exports; only saving it again asks for the fix."""
    from sqlalchemy import create_engine, text

    with Store.open(database_url) as store:
        saved = store.save_army(make_army())
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE roster_entry SET notes = :notes"),
                               {"notes": json.dumps([f"note {i}" for i in range(250)])})
            if database_url.startswith("sqlite"):  # PostgreSQL's varchar(200) never took it
                connection.execute(text("UPDATE army SET name = :name"), {"name": "A" * 300})
    finally:
        engine.dispose()
    with Store.open(database_url) as store:
        army = store.load_army(saved.id)
        assert len(army.units[0].notes) == 250
        with pytest.raises(RuleError, match=r"^(name: 300 characters|units\[0\]\.notes: 250)"):
            store.save_army(army)
    out = tmp_path / f"army.{fmt}"
    code, _, err = run_cli(capsys, "export", saved.id, out, "--database", database_url)
    assert (code, err) == (0, "")
    assert "note 249" in out.read_text(encoding="utf-8")


@settings(max_examples=50, deadline=None)
@given(_units, st.lists(_text_near(200), max_size=3))
def test_reading_checks_every_text_the_file_holds(unit, army_notes):
    """army_texts (the quick pass on reading) lists every text _army_texts places."""
    from desktop.engine.codec import _army_texts, army_texts

    army = Army("Spears", "Alice", "warhammer6", (unit, unit), notes=tuple(army_notes))
    placed = [text for _, text in _army_texts(army)]
    assert sorted(map(str, army_texts(army))) == sorted(map(str, placed))
    assert len(placed) == 3 + len(army_notes) + 2 * (4 + len(unit.profile.special_rules)
                                                     + len(unit.upgrades) + len(unit.notes))
