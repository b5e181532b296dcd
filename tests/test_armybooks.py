"""Armies built from army books (desktop.store.armybooks): the roster behind them in the
store, the Rout units it becomes, and `rout export … .ros/.rosz` round trips.

- An army built from a catalogue keeps its roster (entry ids, counts, costs, categories)
  through the store, on SQLite and PostgreSQL, and loses it with the army.
- Its units are what an import of its own roster file gives (one reading for both), keep
  their ids and formations when the roster changes, and go with their selections.
- `rout export ARMY x.rosz` writes a roster that `rout import` brings back unchanged into a
  fresh database holding the same game data; the real New Recruit roster too.
- For an army with a book, the catalogue's limits are the warnings (no composition chart,
  no second points-limit warning).

The game data is the made-up one of bsdata_samples.py, and the shared real data where it
is present.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace
from decimal import Decimal

import pytest

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.composition import Library, army_problems
from desktop.engine.events import fold
from desktop.engine.model import Status, TroopType
from desktop.engine.roster import move_refusal
from desktop.engine.setup import deploy_army, new_battle
from desktop.store.armybooks import (
    book_roster,
    new_book_army,
    roster_file_bytes,
    unlinked,
    with_roster,
)
from desktop.store.battlescribe import read_ros
from desktop.store.gamedata import DataInput, add_data
from desktop.store.schema import ARMY_ROSTERS
from desktop.store.store import Store

from bsdata_samples import BSDATA, CAT, GST, ROSTER, need, sample_data
from builders import army as plain_army
from builders import assert_bad, run_cli

LEXICANUM = BSDATA / "lexicanum"
BRETONNIA = "Bretonnian Expedition (A Dark Conspiracy, prologue)"


def lances(data: GameData, limit: int = 500):
    """An army of Knights (5 at 24, their horse free) and a Paladin with the Sword."""
    built = new_book_army(data, "cat", "fe-army", "Lances", "Alice", limit)
    roster = book_roster(data, built.army).roster
    force = roster.forces[0].id
    roster, knights = actions.select_entry(data, roster, force, "knights")
    roster, paladin = actions.select_entry(data, roster, force, "paladin")
    paladin_option = next(s for s in roster.forces[0].selections if s.id == paladin).option
    sword_id = next(o.entry_id for o in paladin_option.selectable if o.name == "Sword of Tests")
    roster, _ = actions.select_entry(data, roster, force, sword_id, paladin)
    return with_roster(data, built.army, roster).army, knights, paladin


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'rout.sqlite'}"


def store_sample_data(url: str) -> None:
    with Store.open(url) as store:
        add_data(store, [DataInput("Test Battles.gst", GST.encode()),
                         DataInput("Knights.cat", CAT.encode())])


def test_an_army_built_from_a_catalogue_is_the_units_its_roster_gives():
    data = sample_data()
    army, knights, paladin = lances(data)
    assert army.ruleset == "breaks_pursues"  # "Test Battles" is no game Rout plays
    assert [(u.name, u.models, u.points, u.slot) for u in army.units] == [
        ("Knights", 5, 120, "Core"), ("Paladin", 1, 105, "Heroes")]
    assert army.points == 225 and army.points_limit == 500
    book = army.book
    assert book is not None
    assert (book.game_system_id, book.catalogue_id, book.catalogue_name,
            book.catalogue_revision) == ("gs", "cat", "Knights", 1)
    assert [selection for _, selection in book.units] == [knights, paladin]
    # The document keeps entry ids, counts, costs and categories of every selection.
    [force] = book.roster["forces"]
    by_id = {s["id"]: s for s in force["selections"]}
    assert by_id[knights]["entry_id"] == "knights"
    assert by_id[knights]["categories"] == [{"id": "cat-core", "name": "Core",
                                             "primary": True}]
    knight = next(c for c in by_id[knights]["children"] if c["name"] == "Knight")
    assert (knight["amount"], knight["number"], knight["costs"]) == (5, 5, {"pts": 120})
    assert book.roster["costs"] == [{"type_id": "pts", "name": "pts", "value": 225}]
    # The very units an import of the army's own roster file gives.
    imported = read_ros(roster_file_bytes(data, army), "lances.ros", army.ruleset)
    assert [replace(u, id="", player="") for u in imported.army.units] == [
        replace(u, id="", player="") for u in army.units]


def test_a_changed_roster_keeps_unit_ids_and_formations_and_drops_removed_units():
    data = sample_data()
    army, knights, paladin = lances(data)
    knights_unit = army.units[0]
    reformed = replace(army, units=(replace(knights_unit, files=3), army.units[1]))
    roster = book_roster(data, reformed).roster
    model = next(s for s in roster.forces[0].selections if s.id == knights).children
    knight = next(s for s in model if s.option.name == "Knight")
    roster = actions.set_count(roster, knight.id, 9)
    grown = with_roster(data, reformed, roster).army
    assert [(u.id, u.models, u.files, u.points) for u in grown.units] == [
        (knights_unit.id, 9, 3, 216), (army.units[1].id, 1, 1, 105)]
    without_paladin = with_roster(data, grown, actions.deselect(data, roster, paladin)).army
    assert [u.name for u in without_paladin.units] == ["Knights"]
    assert without_paladin.book is not None
    assert [s for _, s in without_paladin.book.units] == [knights]


def test_an_edit_reads_again_only_the_units_it_changes_and_equals_a_full_rebuild():
    data = sample_data()
    army, knights, paladin = lances(data)
    first = with_roster(data, army, book_roster(data, army).roster)
    assert first.state is not None
    base = replace(first.army, units=(replace(first.army.units[0], files=3),
                                      first.army.units[1]))
    roster = book_roster(data, base).roster
    model = next(s for s in roster.forces[0].selections if s.id == knights).children
    knight = next(s for s in model if s.option.name == "Knight")
    grown = actions.set_count(roster, knight.id, 9)
    quick = with_roster(data, base, grown, previous=first.state)
    assert quick.army == with_roster(data, base, grown).army
    # The Paladin did not change: his unit is the very one (the roster table repaints only
    # the rows whose unit is another object); the Knights are read again, formation kept.
    assert quick.army.units[1] is base.units[1]
    assert quick.army.units[0] is not base.units[0]
    assert (quick.army.units[0].models, quick.army.units[0].files) == (9, 3)
    # A unit added, one removed: the same as a full rebuild too.
    force = grown.forces[0].id
    more, _ = actions.select_entry(data, grown, force, "knights")
    added = with_roster(data, quick.army, more, previous=quick.state)
    assert added.army == with_roster(data, quick.army, more).army
    assert added.army.units[:2] == quick.army.units and len(added.army.units) == 3
    fewer = actions.deselect(data, more, paladin)
    dropped = with_roster(data, added.army, fewer, previous=added.state)
    assert dropped.army == with_roster(data, added.army, fewer).army
    # Two units of one entry are told apart (a real-window try of issue 23 met the note
    # "two units are called Knights of the Realm" on every such army).
    assert [u.name for u in dropped.army.units] == ["Knights", "Knights (2)"]


def test_units_not_of_the_roster_stay_where_they_are():
    data = sample_data()
    army, _, paladin = lances(data)
    plain = replace(army.units[0], id="ogre", name="Hired Ogre", price=None)
    mixed = replace(army, units=(plain, *army.units))
    roster = book_roster(data, mixed).roster
    changed = with_roster(data, mixed, actions.deselect(data, roster, paladin)).army
    assert [u.name for u in changed.units] == ["Hired Ogre", "Knights"]


def test_the_book_goes_through_the_store_and_with_its_army(database_url):
    data = sample_data()
    army, _, _ = lances(data)
    with Store.open(database_url) as store:
        saved = store.save_army(army)
        loaded = store.load_army(saved.id)
        assert loaded.book == army.book and loaded.units == saved.units
        assert [a.book for a in store.load_armies()] == [army.book]
        again = store.save_army(unlinked(loaded))  # kept as plain units
        assert store.load_army(saved.id).book is None
        assert store.load_army(saved.id).units == again.units
        relinked = store.save_army(replace(again, book=army.book))
        store.delete_army(relinked.id)
        assert store.read(lambda connection: connection.execute(
            ARMY_ROSTERS.select()).all()) == []


def test_the_catalogue_limits_are_the_warnings_of_an_army_with_a_book():
    data = sample_data()
    army, _, paladin = lances(data, limit=200)
    roster = book_roster(data, army).roster
    force = roster.forces[0].id
    paladin_option = next(s for s in roster.forces[0].selections if s.id == paladin).option
    sword = next(o.entry_id for o in paladin_option.selectable if o.name == "Sword of Tests")
    roster, second = actions.select_entry(data, roster, force, "paladin")
    roster, _ = actions.select_entry(data, roster, force, sword, second)
    broken = with_roster(data, army, roster).army
    messages = [(p.message, p.unit_id) for p in army_problems(broken, Library("breaks_pursues"))]
    assert broken.book is not None
    first_paladin = broken.book.unit_of(paladin)  # the engine names the first sword's
    assert ("The roster costs 330 pts, over its limit of 200", "") in messages
    assert ("The roster can have at most 1 Sword of Tests (has 2)", first_paladin) in messages
    assert not any("over the limit" in m for m, _ in messages)  # not a second time


def test_export_rosz_then_import_gives_the_same_army(capsys, url, tmp_path):
    data = sample_data()
    army, _, _ = lances(data)
    store_sample_data(url)
    with Store.open(url) as store:
        saved = store.save_army(army)
    target = tmp_path / "lances.rosz"
    code, out, err = run_cli(capsys, "export", "Lances", target, "--database", url)
    assert (code, err) == (0, ""), err
    assert json.loads(out)["format"] == "rosz"
    with zipfile.ZipFile(io.BytesIO(target.read_bytes())) as archive:
        assert archive.namelist() == ["Lances.ros"]
    fresh = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    store_sample_data(fresh)
    code, out, err = run_cli(capsys, "import", target, "--database", fresh)
    assert (code, err) == (0, ""), err
    assert json.loads(out)["game_data"]["army_book"] is True
    with Store.open(fresh) as store:
        back = store.find_army("Lances")
    # A roster file names no player: the import's is "Player"; the rest is as exported.
    assert back.player == "Player"
    assert back.units == tuple(replace(u, player="Player") for u in saved.units)
    assert back.book == saved.book
    assert (back.points, back.points_limit, back.ruleset) == (225, 500, saved.ruleset)


def test_a_ros_export_is_the_xml_itself(capsys, url, tmp_path):
    store_sample_data(url)
    with Store.open(url) as store:
        store.save_army(lances(sample_data())[0])
    code, _, err = run_cli(capsys, "export", "Lances", tmp_path / "lances.ros", "--database",
                           url)
    assert (code, err) == (0, ""), err
    text = (tmp_path / "lances.ros").read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<roster')
    assert 'entryId="knights"' in text and 'name="Sword of Tests"' in text
    assert 'group="Magic Items"' in text  # the group the sword was chosen from


def test_exporting_a_roster_of_an_army_without_a_book_or_its_data_is_refused(capsys, url,
                                                                               tmp_path):
    with Store.open(url) as store:
        store.save_army(plain_army("Grimgor's Boyz"))
        store.save_army(lances(sample_data())[0])
    assert_bad(capsys, ["export", "Grimgor's Boyz", tmp_path / "g.rosz", "--database", url],
               '"Grimgor\'s Boyz" is not built from an army book')
    assert_bad(capsys, ["export", "Lances", tmp_path / "l.rosz", "--database", url],
               "'Lances': its game data ('Knights', 'Test Battles') is not stored")
    assert not (tmp_path / "g.rosz").exists() and not (tmp_path / "l.rosz").exists()


def test_a_newer_revision_reads_the_kept_roster_and_names_what_it_lost():
    data = sample_data()
    army, _, _ = lances(data)
    newer = CAT.replace('revision="1"', 'revision="2"').replace(
        '<selectionEntry id="paladin" name="Paladin"', '<selectionEntry id="lord" name="Lord"')
    read = book_roster(sample_data(newer), army)
    assert read.problems == ["'Paladin': the catalogue no longer has this entry; left out "
                             "with what it holds"]
    assert [s.option.name for s in read.roster.forces[0].selections] == ["Knights"]
    knight = next(s for s in read.roster.forces[0].selections[0].children
                  if s.option.name == "Knight")
    assert read.kept_costs[knight.id] == {"pts": Decimal(120)}


def _stored_lexicanum(url: str) -> None:
    with Store.open(url) as store:
        add_data(store, [DataInput(p.name, p.read_bytes())
                         for p in sorted(LEXICANUM.iterdir()) if p.suffix in (".gst", ".cat")])


def test_the_new_recruit_roster_round_trips_through_rout(capsys, tmp_path):
    """The shared Bretonnian roster imported with lexicanum's data stored keeps its roster;
    its export imports unchanged into a fresh database, and its units take the field as
    the catalogue makes them: knights on warhorses with command, the General and the
    Battle Standard Bearer, the Knights' special rules."""
    need(ROSTER)
    need(LEXICANUM)
    first, second = (f"sqlite:///{tmp_path / name}" for name in ("a.sqlite", "b.sqlite"))
    for url in (first, second):
        _stored_lexicanum(url)
    code, out, err = run_cli(capsys, "import", ROSTER, "--database", first)
    assert (code, err) == (0, ""), err
    imported = json.loads(out)
    assert (imported["points"], imported["game_data"]["army_book"]) == (705, True)
    assert imported["warnings"] == []
    code, out, err = run_cli(capsys, "export", BRETONNIA, tmp_path / "army.rosz", "--database",
                             first)
    assert (code, err) == (0, ""), err
    code, out, err = run_cli(capsys, "import", tmp_path / "army.rosz", "--database", second)
    assert (code, err) == (0, ""), err
    with Store.open(first) as store:
        original = store.find_army(BRETONNIA)
    with Store.open(second) as store:
        back = store.find_army(BRETONNIA)
    assert back.units == original.units and back.book == original.book
    assert original.book is not None and original.book.problems == ()
    by_name = {u.name: u for u in original.units}
    duc = by_name["Duc d'Lorraine"]
    assert (duc.models, duc.points, duc.upgrades, duc.profile.troop_type) == (
        1, 134, frozenset({"general"}), TroopType.CAVALRY)
    assert duc.profile.stats["M"] == 8  # the warhorse's Move
    assert "Magic items: Sword of the Quest (50 pts)" in duc.notes
    assert by_name["Piere"].upgrades == frozenset({"battle_standard"})
    vanguard = by_name["The Duc's Vanguard"]
    assert (vanguard.models, vanguard.points, vanguard.upgrades) == (
        6, 168, frozenset({"champion", "musician", "standard"}))
    assert {"knights_vow", "purebreed_warhorse"} <= vanguard.profile.special_rules


def test_an_army_from_its_book_deploys_like_any_other():
    """Units made from a roster take the table as imported ones do: in reserve with their
    models and formation, then lined up in their zone."""
    data = sample_data()
    lances_army = replace(lances(data)[0], ruleset="warhammer6", player="Alice")
    rebuilt = with_roster(data, replace(lances_army, units=()),
                          book_roster(data, lances_army).roster).army
    opponent = replace(plain_army("Grimgor's Boyz"), player="Bob")
    battle = new_battle("warhammer6", [rebuilt, opponent]).battle
    deployed = fold(battle, deploy_army(battle, "Alice"))
    knights = deployed.roster["knights"]
    assert (knights.models, knights.files, knights.profile.stats["M"]) == (5, 5, 4)
    assert deployed.states["knights"].status is Status.READY
    assert deployed.states["paladin"].status is Status.READY


def test_removing_the_data_an_army_is_built_from_is_refused_or_keeps_it_plain(capsys, url):
    store_sample_data(url)
    with Store.open(url) as store:
        saved = store.save_army(lances(sample_data())[0])
    assert_bad(capsys, ["data", "remove", "Knights", "--database", url],
               "'Knights' is the army book of 1 army ('Lances'); nothing was removed")
    assert_bad(capsys, ["data", "remove", "Test Battles", "--database", url],
               "'Test Battles' is the army book of 1 army ('Lances')")
    with Store.open(url) as store:
        assert store.load_army(saved.id).book is not None
    code, out, err = run_cli(capsys, "data", "remove", "Knights", "--keep-armies",
                             "--database", url)
    assert (code, err) == (0, ""), err
    assert json.loads(out)["armies_kept_as_plain_units"] == ["Lances"]
    with Store.open(url) as store:
        kept = store.load_army(saved.id)
    assert kept.book is None and kept.units == saved.units
    assert kept.version == saved.version + 1  # a window holding the old one must reload


def test_units_of_an_army_book_stay_in_their_army_and_copies_go_plain():
    army, _, _ = lances(sample_data())
    army = replace(army, id="a1")
    other = replace(plain_army("Grimgor's Boyz", ruleset=army.ruleset), id="a2")
    knights = army.units[0].id
    assert move_refusal(army, other, [knights]) == (
        "units of Lances come from its army book (Knights): copy them instead (hold Ctrl), "
        "or delete them there")
    assert move_refusal(army, army, [knights]) == ""  # a reorder
    assert move_refusal(other, army, [other.units[0].id]) == ""
