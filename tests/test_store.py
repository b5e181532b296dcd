"""The store against real databases: every test runs on a SQLite file and on PostgreSQL.

The `store` and `database_url` fixtures (conftest.py) give a fresh database of each kind;
the PostgreSQL server is a real one started on loopback for the test run.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from desktop.engine.composition import Library
from desktop.engine.dice import SeededRoller
from desktop.engine.events import (
    DiceRolled,
    Event,
    ModifierApplied,
    TurnBegan,
    UnitTurned,
    fold,
)
from desktop.engine.model import LibraryEntry, RosterPrice, TroopType, UnitProfile
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.roster import roster_price
from desktop.engine.scenario import load_scenario
from desktop.store.errors import NotFoundError
from desktop.store.store import Store

from builders import W6_STATS, army

REPO = Path(__file__).resolve().parents[1]
def test_save_gives_an_id_and_load_returns_the_same_army(store):
    saved = store.save_army(army())
    assert saved.id and saved == replace(army(), id=saved.id, version=1)
    assert store.load_army(saved.id) == saved


def test_saving_again_replaces_the_whole_roster(store):
    saved = store.save_army(army(units=5))
    smaller = replace(saved, name="Renamed", units=saved.units[3:] + saved.units[:1])
    assert store.save_army(smaller) == replace(smaller, version=2)
    assert store.load_army(saved.id) == replace(smaller, version=2)
    assert [s.units for s in store.list_armies()] == [3]


def test_roster_prices_and_typed_points_round_trip(store):
    """Stored in their own columns (revision 0004): a fraction per model stays exact enough
    that the points it gives come back the same."""
    base = army(units=3)
    priced = replace(base, units=(
        replace(base.units[0], price=RosterPrice(10 / 3, 7), points=17, models=3),
        replace(base.units[1], points_typed=True, points=90),
        base.units[2]))
    saved = store.save_army(priced)
    loaded = store.load_army(saved.id)
    assert loaded == saved
    assert loaded.units[0].price == RosterPrice(10 / 3, 7)
    assert (loaded.units[1].price, loaded.units[1].points_typed) == (None, True)
    assert roster_price(loaded.units[0].price, 7) == 30


def test_an_army_without_units_round_trips(store):
    empty = store.save_army(army(units=0))
    assert store.load_army(empty.id).units == ()


def test_load_armies_reads_every_army_whole_in_list_order(store):
    """What a window reads on opening: the same armies load_army gives, rosters in order,
    an army without units included."""
    saved = [store.save_army(replace(army(units=count), name=name))
             for name, count in (("Zulu", 3), ("alpha", 0), ("Mike", 5))]
    store.save_army(replace(saved[2], units=saved[2].units[::-1]))
    loaded = store.load_armies()
    assert [a.id for a in loaded] == [summary.id for summary in store.list_armies()]
    assert [a.name for a in loaded] == ["alpha", "Mike", "Zulu"]
    assert loaded == [store.load_army(a.id) for a in loaded]
    assert [unit.id for unit in loaded[1].units] == [u.id for u in saved[2].units[::-1]]
    assert loaded[0].units == ()


def test_list_armies_summarises_without_loading_rosters(store):
    first = store.save_army(army("Zulu", units=2))
    second = store.save_army(army("alpha", units=4, ruleset="breaks_pursues"))
    summaries = store.list_armies()
    # Grouped by ruleset, then by name ignoring case.
    assert [s.id for s in summaries] == [second.id, first.id]
    by_id = {s.id: s for s in summaries}
    assert by_id[first.id].points == first.points == 201
    assert by_id[first.id].units == 2 and by_id[first.id].models == first.models == 21
    assert by_id[second.id].ruleset == "breaks_pursues"
    assert by_id[first.id].points_limit == 2000


def test_find_army_by_id_or_by_name_ignoring_case(store):
    saved = store.save_army(army("Waaagh!"))
    assert store.find_army(saved.id) == saved
    assert store.find_army("waaagh!") == saved
    with pytest.raises(NotFoundError, match="no army named 'nobody'"):
        store.find_army("nobody")
    other = store.save_army(army("WAAAGH!"))
    with pytest.raises(NotFoundError, match="2 armies are named") as refused:
        store.find_army("Waaagh!")
    assert saved.id in str(refused.value) and other.id in str(refused.value)


def test_delete_army_removes_it_and_its_roster(store):
    kept = store.save_army(army("Kept"))
    gone = store.save_army(army("Gone"))
    store.delete_army(gone.id)
    assert [s.id for s in store.list_armies()] == [kept.id]
    with pytest.raises(NotFoundError):
        store.load_army(gone.id)
    with pytest.raises(NotFoundError):
        store.delete_army(gone.id)
    assert store.load_army(kept.id) == kept


def test_an_unknown_ruleset_is_refused_before_anything_is_written(store):
    from desktop.engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="unknown ruleset"):
        store.save_army(replace(army(), ruleset="warhammer40k"))
    assert store.list_armies() == []


def test_library_per_ruleset_round_trips_and_replaces(store):
    spear = UnitProfile("Spearmen", W6_STATS, base=(0.8, 0.8))
    knights = UnitProfile("Knights", {**W6_STATS, "M": 8}, troop_type=TroopType.CAVALRY,
                          base=(1.0, 2.0), special_rules=frozenset({"lance"}))
    entries = (LibraryEntry("warhammer6", spear, 5, "Core", 20),
               LibraryEntry("warhammer6", knights, 24, "Special", 5))
    first = store.save_library(Library("warhammer6", entries))
    store.save_library(Library("breaks_pursues", (LibraryEntry("breaks_pursues", UnitProfile(
        "Militia", {"M": 4, "Ld": 6}), 3),)))
    assert store.load_library("warhammer6") == Library("warhammer6", entries, version=1)
    store.save_library(replace(first, entries=entries[1:]))
    assert store.load_library("warhammer6").entries == entries[1:]
    assert len(store.load_library("breaks_pursues").entries) == 1
    assert store.load_library("kensei1") == Library("kensei1")


def resolved_scenario(name: str = "w6-four-units.json", seed: int = 7):
    scenario = load_scenario(json.loads((REPO / "resources" / "scenarios" / name).read_text()))
    session = run(scenario.start(), ScriptedAnswers(SeededRoller(seed), scenario.choices))
    assert session.events
    return scenario.battle, tuple(session.events)


def later_events(battle, count: int, seed: int = 1) -> list[Event]:
    """Events that fit any battle: turns, turning, dice and modifiers on units on the table."""
    rolls = random.Random(seed)
    units = list(battle.on_table())
    events: list[Event] = []
    turn = battle.turn
    for index in range(count):
        unit = rolls.choice(units)
        kind = index % 4
        if kind == 0:
            events.append(UnitTurned(unit, float(rolls.randrange(360)), clause="W6-FL-3"))
        elif kind == 1:
            events.append(ModifierApplied(unit, "Ld", rolls.choice((-1, 1)), turn + 2,
                                          f"source {index}"))
        elif kind == 2:
            faces = (rolls.randint(1, 6), rolls.randint(1, 6))
            events.append(DiceRolled(unit, "flee", "2D6", faces, sum(faces)))
        else:
            turn += 1
            events.append(TurnBegan(turn))
    return events


def test_a_thousand_events_reopen_to_the_same_state(database_url):
    start, resolution = resolved_scenario()
    more = later_events(fold(start, resolution), 1000 - len(resolution))
    steps = [list(resolution)] + [more[i:i + 37] for i in range(0, len(more), 37)]
    with Store.open(database_url) as store:
        battle_id = store.create_battle(start, "Four units")
        numbers = [store.append_step(battle_id, step) for step in steps]
    assert numbers == list(range(1, len(steps) + 1))
    with Store.open(database_url) as reopened:
        saved = reopened.load_battle(battle_id)
        [summary] = reopened.list_battles()
    everything = [event for step in steps for event in step]
    assert len(saved.events) == len(everything) == 1000
    assert saved.title == "Four units"
    assert saved.start == start
    assert [list(step) for step in saved.steps] == steps
    assert saved.events == tuple(everything)
    assert saved.state == fold(start, everything)
    assert (summary.id, summary.steps, summary.events) == (battle_id, len(steps), 1000)


def test_every_bundled_scenario_saves_and_folds_the_same(store):
    for path in sorted((REPO / "resources" / "scenarios").glob("*.json")):
        start, events = resolved_scenario(path.name, seed=3)
        battle_id = store.create_battle(start, path.stem)
        store.append_step(battle_id, events)
        saved = store.load_battle(battle_id)
        assert saved.state == fold(start, events), path.name


def test_an_empty_step_is_kept_as_a_step_number(store):
    start, _ = resolved_scenario()
    battle_id = store.create_battle(start)
    assert store.append_step(battle_id, []) == 1
    assert store.load_battle(battle_id).events == ()


def test_unknown_battle_is_named(store):
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.load_battle("nope")
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.append_step("nope", [])


# A child process writes steps of STEP_SIZE events; before the fourth step commits it stops
# inside its transaction, after its INSERT has run, and tells the parent, which kills it.
WRITER = textwrap.dedent("""
    import sys, time, json
    from sqlalchemy import event
    from desktop.engine.events import event_from_json
    from desktop.store.store import Store

    url, battle_id, events_file = sys.argv[1:4]
    steps = json.loads(open(events_file).read())
    store = Store.open(url)
    for number, step in enumerate(steps, start=1):
        if number == 4:
            @event.listens_for(store.engine, "after_cursor_execute")
            def pause(conn, cursor, statement, parameters, context, executemany):
                if "battle_event" in statement and statement.lstrip().upper().startswith("INSERT"):
                    print("IN STEP", number, flush=True)
                    time.sleep(600)
        store.append_step(battle_id, [event_from_json(e) for e in step])
        print("DONE", number, flush=True)
""")
STEP_SIZE = 250


def test_a_step_killed_while_it_is_written_is_all_there_or_not_at_all(database_url,
                                                                      tmp_path):
    start, _ = resolved_scenario()
    events = later_events(start, STEP_SIZE * 5, seed=5)
    steps = [events[i:i + STEP_SIZE] for i in range(0, len(events), STEP_SIZE)]
    events_file = tmp_path / "steps.json"
    events_file.write_text(json.dumps([[e.to_json() for e in step] for step in steps]))
    with Store.open(database_url) as store:
        battle_id = store.create_battle(start, "killed")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, database_url, battle_id,
                               str(events_file)], stdout=subprocess.PIPE, text=True,
                              cwd=REPO)
    try:
        lines = []
        for line in writer.stdout:  # type: ignore[union-attr]
            lines.append(line.strip())
            if line.startswith("IN STEP"):
                break
        assert lines == ["DONE 1", "DONE 2", "DONE 3", "IN STEP 4"]
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
    assert writer.returncode == -signal.SIGKILL
    with Store.open(database_url) as reopened:
        saved = reopened.load_battle(battle_id)
        assert [list(step) for step in saved.steps] == steps[:3]
        assert saved.state == fold(start, [e for step in steps[:3] for e in step])
        # The database is fine afterwards: the next step gets the next number.
        assert reopened.append_step(battle_id, steps[3]) == 4
        assert len(reopened.load_battle(battle_id).events) == 4 * STEP_SIZE
