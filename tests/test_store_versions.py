"""Armies and libraries carry a version (revision 0006): two players on one database.

A whole-army save replaces the roster; one that started from an older version than the
stored one would drop what the other player saved meanwhile. Such a save is refused with
"changed by someone else" and nothing is written; reading the army again and redoing the
edit keeps both. Two stores are two players (two windows, two programs); tests/
test_store_concurrency.py runs them as separate processes.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import pytest
from test_store_database import database_at

from desktop.bundled import resources_dir
from desktop.engine.codec import library_from_json
from desktop.engine.errors import quoted
from desktop.store.errors import ConflictError, NotFoundError
from desktop.store.files import read_json
from desktop.store.libraries import store_bundled
from desktop.store.store import Store

from builders import army


@pytest.fixture
def two(database_url):
    first, second = Store.open(database_url), Store.open(database_url)
    yield first, second
    first.close()
    second.close()


def test_a_new_army_is_version_one_and_each_save_adds_one(store):
    saved = store.save_army(army())
    assert saved.version == 1
    assert store.load_army(saved.id) == saved
    again = store.save_army(replace(saved, name="Renamed"))
    assert again.version == 2
    assert store.load_army(saved.id) == again


def test_a_save_from_an_older_version_is_refused_and_redoing_it_keeps_both(two):
    mine, theirs = two
    start = mine.save_army(army(units=2))
    ours, their_copy = mine.load_army(start.id), theirs.load_army(start.id)
    (first, second) = ours.units
    theirs.save_army(replace(their_copy, units=(*their_copy.units, replace(first, id="new"))))
    edited = replace(ours, units=(first,))  # we deleted the second unit, from version 1
    with pytest.raises(ConflictError, match="changed by someone else") as refused:
        mine.save_army(edited)
    assert quoted(start.name) in str(refused.value)
    assert [unit.id for unit in mine.load_army(start.id).units] == ["u0", "u1", "new"]
    # Read again, the edit redone: both changes are kept.
    fresh = mine.load_army(start.id)
    redone = mine.save_army(replace(fresh, units=tuple(u for u in fresh.units
                                                        if u.id != second.id)))
    assert [unit.id for unit in theirs.load_army(start.id).units] == ["u0", "new"]
    assert redone.version == 3


def test_saving_an_army_someone_else_deleted_is_refused(two):
    mine, theirs = two
    start = mine.save_army(army())
    theirs.delete_army(start.id, version=start.version)
    with pytest.raises(ConflictError, match="deleted by someone else"):
        mine.save_army(replace(start, name="Renamed"))
    with pytest.raises(NotFoundError):
        mine.load_army(start.id)


def test_deleting_an_army_someone_else_changed_is_refused(two):
    mine, theirs = two
    start = mine.save_army(army())
    theirs.save_army(replace(start, name="Renamed"))
    with pytest.raises(ConflictError, match="changed by someone else"):
        mine.delete_army(start.id, version=start.version)
    assert mine.load_army(start.id).name == "Renamed"
    mine.delete_army(start.id)  # without a version: whatever is stored (rout, scripts)
    with pytest.raises(NotFoundError):
        mine.load_army(start.id)


def test_an_army_put_back_under_its_own_id_starts_again(store):
    """Undoing a deletion saves the army as new (version 0) under the id it had."""
    start = store.save_army(army())
    store.delete_army(start.id, version=start.version)
    back = store.save_army(replace(start, version=0))
    assert (back.id, back.version) == (start.id, 1)
    with pytest.raises(ConflictError, match="already"):
        store.save_army(replace(start, version=0))


def bundled(ruleset: str = "warhammer6"):
    return library_from_json(read_json(resources_dir() / "libraries" / f"{ruleset}.json"))


def test_a_library_saved_twice_at_once_is_refused_the_second_time(two):
    mine, theirs = two
    assert mine.load_library("warhammer6").version == 0
    library = bundled()
    stored = mine.save_library(library)
    assert stored.version == 1
    assert theirs.load_library("warhammer6") == stored
    # Both read version 1; each changes it; the second save started from an older version.
    first = theirs.save_library(replace(stored, entries=stored.entries[:3]))
    assert first.version == 2
    with pytest.raises(ConflictError, match="changed by someone else"):
        mine.save_library(replace(stored, entries=stored.entries[:5]))
    assert len(mine.load_library("warhammer6").entries) == 3
    # Storing a library where none was read: refused too when one was stored meanwhile.
    with pytest.raises(ConflictError, match="changed by someone else"):
        theirs.save_library(library)


def test_armies_of_a_database_from_before_versions_open_at_version_one(tmp_path):
    path = tmp_path / "old.sqlite"
    url = f"sqlite:///{path}"
    database_at(url, "0005")
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO army (id, name, player, ruleset, points_limit, notes, points, "
            "unit_count, model_count, created, updated, army_list) VALUES ('a1', 'Old', 'P', "
            "'warhammer6', 1000, '[]', 0, 0, 0, '2026-01-01 00:00:00', "
            "'2026-01-01 00:00:00', '')")
        connection.execute("INSERT INTO library (ruleset, army_lists, composition) VALUES "
                           "('warhammer6', '[]', '{}')")
    connection.close()
    with Store.open(url) as store:
        old = store.load_army("a1")
        assert old.version == 1
        assert store.save_army(replace(old, name="Saved")).version == 2
        assert store.load_library("warhammer6").version == 1


def test_two_routs_starting_at_once_store_the_bundled_library_once(two):
    """The window stores the bundled library in a database with none (read_database)."""
    mine, theirs = two
    seen_by_me, seen_by_them = mine.load_library("warhammer6"), theirs.load_library("warhammer6")
    assert seen_by_me.entries == seen_by_them.entries == ()
    stored = store_bundled(theirs, seen_by_them, bundled())
    assert store_bundled(mine, seen_by_me, bundled()) == stored
    assert mine.load_library("warhammer6") == stored == replace(bundled(), version=1)
