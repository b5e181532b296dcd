"""Army lists and composition limits in the store (revision 0005), on real databases.

An army keeps its army list; a library keeps its lists, its entries' limits and the
ruleset's composition. A database written before 0005 keeps opening: its armies are kept
(with no list chosen) and its library, a copy of the bundled one without lists, is dropped
so that the bundled library is stored again.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

import pytest
from test_store_database import database_at

from desktop.bundled import resource_path
from desktop.engine.codec import library_from_json
from desktop.engine.composition import Library
from desktop.store import database
from desktop.store.errors import CorruptDatabaseError
from desktop.store.store import Store

from builders import army


def bundled(ruleset: str) -> Library:
    return library_from_json(json.loads(resource_path("libraries", f"{ruleset}.json")
                                        .read_text(encoding="utf-8")))


@pytest.mark.parametrize("ruleset", ["warhammer6", "kensei1", "breaks_pursues"])
def test_a_bundled_library_round_trips_with_lists_limits_and_composition(store, ruleset):
    library = bundled(ruleset)
    saved = store.save_library(library)
    assert store.load_library(ruleset) == saved == replace(library, version=1)
    # Saving again replaces it all, the head row included.
    smaller = replace(saved, entries=library.entries[:2], army_lists=library.army_lists[:1])
    smaller = replace(smaller, entries=tuple(replace(e, lists=frozenset()) for e in
                                             smaller.entries))
    assert store.save_library(smaller) == replace(smaller, version=2)
    assert store.load_library(ruleset) == replace(smaller, version=2)


def test_an_army_keeps_its_list_and_the_summary_shows_it(store):
    saved = store.save_army(replace(army(), army_list="orcs-goblins"))
    assert store.load_army(saved.id).army_list == "orcs-goblins"
    assert [s.army_list for s in store.list_armies()] == ["orcs-goblins"]
    store.save_army(replace(saved, army_list=""))
    assert store.load_army(saved.id).army_list == ""


def test_a_damaged_composition_row_is_reported(tmp_path):
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    with Store.open(url) as store:
        store.save_library(bundled("warhammer6"))
    with sqlite3.connect(tmp_path / "rout.sqlite") as connection:
        connection.execute("UPDATE library SET composition = '{\"rows\": [5]}'")
    connection.close()
    with Store.open(url) as store, pytest.raises(CorruptDatabaseError,
                                                 match="the library cannot be read"):
        store.load_library("warhammer6")


def test_a_revision_0003_database_opens_with_its_armies_and_without_its_stale_library(
        tmp_path):
    path = tmp_path / "old.sqlite"
    url = f"sqlite:///{path}"
    with Store.open(url) as store:
        kept = store.save_army(army("Old army", units=5))
        store.save_library(bundled("warhammer6"))
    # Back to 0003, as a Rout before army lists left it (0005's downgrade is tested too).
    database_at(url, "0003", down=True)
    with sqlite3.connect(path) as connection:
        tables = {name for name, in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "library" not in tables
        assert connection.execute("SELECT count(*) FROM library_entry").fetchone()[0] == 14
    connection.close()

    with Store.open(url) as store:
        assert store.load_army(kept.id) == kept  # army_list "" as it had none
        assert store.load_library("warhammer6") == Library("warhammer6")
    [copy] = tmp_path.glob(f"old.before-{database.HEAD}.*.sqlite")
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT count(*) FROM library_entry").fetchone()[0] == 14
    connection.close()
