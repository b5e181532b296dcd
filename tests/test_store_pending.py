"""Unfinished resolutions in the store: kept after every answer, resumed after a crash.

Every test runs on a SQLite file and on PostgreSQL (the `store` / `database_url` fixtures).
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from test_store_database import database_at, sqlite_url

from desktop.engine.dice import SeededRoller
from desktop.engine.errors import AnswerError, ScenarioError
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario
from desktop.store import database
from desktop.store.errors import CorruptDatabaseError, NotFoundError
from desktop.store.store import Store

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "resources" / "scenarios" / "w6-goblins-vs-elves.json"


def scenario_parts():
    """The scenario, its "resolve" mapping without the procedure name, and a whole run."""
    data = json.loads(SCENARIO.read_text())
    resolve = dict(data["resolve"])
    procedure = resolve.pop("procedure")
    scenario = load_scenario(data)
    finished = run(scenario.start(), ScriptedAnswers(SeededRoller(3), scenario.choices))
    assert len(finished.answers) >= 3
    return scenario, procedure, resolve, finished


def test_a_resolution_kept_half_way_resumes_where_it_stopped(store):
    scenario, procedure, resolve, finished = scenario_parts()
    battle_id = store.create_battle(scenario.battle, "Spear line")
    half = finished.answers[:2]
    store.save_pending(battle_id, procedure, resolve, half, "Combat at the spear line")
    kept = store.load_pending(battle_id)
    assert kept is not None
    assert (kept.battle_id, kept.procedure, kept.procedure_input, kept.answers, kept.title) == (
        battle_id, procedure, resolve, half, "Combat at the spear line")
    # What a wizard does on resuming: the ruleset's procedure, fed the kept answers.
    kind = scenario.ruleset.procedure(kept.procedure)
    resumed = kind.resolution(scenario.battle,
                              kind.parse(scenario.battle, kept.procedure_input)).replay(
        kept.answers)
    assert resumed.answers == half
    assert resumed.pending == finished.steps[2].request
    assert resumed.events == finished.events[:len(resumed.events)]


def test_saving_again_replaces_the_row_and_list_shows_the_latest_first(store):
    scenario, procedure, resolve, finished = scenario_parts()
    first = store.create_battle(scenario.battle, "first")
    second = store.create_battle(scenario.battle, "second")
    store.save_pending(first, procedure, resolve, [], "first")
    time.sleep(0.01)
    store.save_pending(second, procedure, resolve, finished.answers[:1], "second")
    time.sleep(0.01)
    store.save_pending(first, procedure, resolve, finished.answers[:3], "first, later")
    listed = store.list_pending()
    assert [(p.battle_id, p.answers, p.title) for p in listed] == [
        (first, finished.answers[:3], "first, later"),
        (second, finished.answers[:1], "second")]
    assert listed[0].updated > listed[1].updated


def test_drop_forgets_it_and_dropping_nothing_is_fine(store):
    scenario, procedure, resolve, _ = scenario_parts()
    battle_id = store.create_battle(scenario.battle)
    store.save_pending(battle_id, procedure, resolve, ["pursue"])
    store.drop_pending(battle_id)
    assert store.load_pending(battle_id) is None
    store.drop_pending(battle_id)
    assert store.list_pending() == []


def test_deleting_the_battle_deletes_its_unfinished_resolution(store):
    scenario, procedure, resolve, _ = scenario_parts()
    battle_id = store.create_battle(scenario.battle)
    store.save_pending(battle_id, procedure, resolve, [[3, 4]])
    store.delete_battle(battle_id)
    assert store.load_pending(battle_id) is None
    assert store.list_pending() == []


def _nested(depth: int) -> list[object]:
    found: list[object] = []
    for _ in range(depth):
        found = [found]
    return found


@pytest.mark.parametrize(("battle", "procedure", "resolve", "answers", "error", "message"), [
    ("nope", "combat_aftermath", {}, [], NotFoundError, "no battle with id 'nope'"),
    (None, "", {}, [], ScenarioError, "not a procedure name"),
    (None, "combat_aftermath", [1, 2], [], ScenarioError, "must be a mapping, not list"),
    (None, "combat_aftermath", {"x": float("nan")}, [], ScenarioError, "cannot be kept as JSON"),
    (None, "combat_aftermath", {"x": object()}, [], ScenarioError, "cannot be kept as JSON"),
    # What could not be read back (files.MAX_JSON_DEPTH) is not written either.
    (None, "combat_aftermath", {"x": json.loads("[" * 70 + "]" * 70)}, [], ScenarioError,
     "nested more than 64 deep"),
    (None, "combat_aftermath", {"x": _nested(100_000)}, [], ScenarioError, "cannot be kept"),
    (None, "combat_aftermath", {}, [[3, 4], 7], AnswerError, "answer 2: expected dice faces"),
    (None, "combat_aftermath", {}, [[3, True]], AnswerError, "answer 1: the die face True"),
])
def test_bad_input_is_named_and_the_kept_state_stays(store, battle, procedure, resolve,
                                                     answers, error, message):
    scenario, name, good_input, finished = scenario_parts()
    battle_id = store.create_battle(scenario.battle)
    store.save_pending(battle_id, name, good_input, finished.answers[:2], "kept")
    before = store.load_pending(battle_id)
    with pytest.raises(error, match=message):
        store.save_pending(battle or battle_id, procedure, resolve, answers, "new")
    assert store.load_pending(battle_id) == before
    assert len(store.list_pending()) == 1


@pytest.mark.parametrize(("column", "value", "message"), [
    ("answers", '{"not": "a list"}', "answers must be a list, not a mapping"),
    ("answers", '[[3, 4], [0]]', "answer 2: the die face 0"),
    ("answers", '[[3, 4], 5]', "answer 2: expected dice faces"),
    ("procedure_input", '[1, 2]', "its input is not a mapping"),
])
def test_a_damaged_row_is_named_when_read(store, database_url, column, value, message):
    scenario, procedure, resolve, _ = scenario_parts()
    battle_id = store.create_battle(scenario.battle)
    store.save_pending(battle_id, procedure, resolve, [[3, 4]])
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:  # as someone editing the database by hand
            cast = "CAST(:value AS JSON)" if engine.dialect.name == "postgresql" else ":value"
            connection.execute(text(f"UPDATE pending_resolution SET {column} = {cast}"),
                               {"value": value})
    finally:
        engine.dispose()
    expected = f"unfinished resolution of battle {battle_id} cannot be read.*{message}"
    with pytest.raises(CorruptDatabaseError, match=expected):
        store.load_pending(battle_id)
    with pytest.raises(CorruptDatabaseError, match=expected):
        store.list_pending()


# The child saves a longer and longer resolution as fast as it can and says how far it got
# after each commit; the parent kills it at random moments, mid-transaction or not.
SAVER = textwrap.dedent("""
    import sys
    from desktop.store.store import Store

    url, battle_id, start = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = Store.open(url)
    number = start
    while True:
        number += 1
        # Every answer of state n is [n, k]: a mix of two states could not pass for one.
        answers = [[number, k % 6 + 1] for k in range(number % 40 + 1)]
        store.save_pending(battle_id, "combat_aftermath", {"state": number, "pad": "x" * 2000},
                           answers, f"state {number}")
        print(number, flush=True)
""")


def test_a_saver_killed_at_any_moment_leaves_a_whole_earlier_state(database_url):
    scenario, _, _, _ = scenario_parts()
    with Store.open(database_url) as store:
        battle_id = store.create_battle(scenario.battle)
    for round_number in range(6):
        saver = subprocess.Popen([sys.executable, "-c", SAVER, database_url, battle_id,
                                  str(round_number * 100_000)],
                                 stdout=subprocess.PIPE, text=True, cwd=REPO)
        try:
            committed = []
            for line in saver.stdout:  # type: ignore[union-attr]
                committed.append(int(line))
                if len(committed) >= 5 + 7 * round_number:
                    break
            saver.send_signal(signal.SIGKILL)
            saver.wait(timeout=30)
        finally:
            if saver.poll() is None:
                saver.kill()
                saver.wait()
        assert saver.returncode == -signal.SIGKILL
        with Store.open(database_url) as store:
            kept = store.load_pending(battle_id)
        assert kept is not None
        number = kept.procedure_input["state"]
        # The last state it reported or a later one it committed before the kill landed.
        assert number >= committed[-1]
        assert kept.title == f"state {number}"
        assert kept.answers == tuple((number, k % 6 + 1) for k in range(number % 40 + 1))


def test_a_database_from_before_revision_0003_migrates_and_keeps_its_battles(tmp_path):
    path = tmp_path / "old.sqlite"
    database_at(sqlite_url(path), "0002")
    scenario, procedure, resolve, finished = scenario_parts()
    # An older Rout's battle, written through the store of that schema (same tables).
    engine = create_engine(sqlite_url(path))
    try:
        with engine.begin() as connection:
            tables = {row[0] for row in connection.execute(text(
                "SELECT name FROM sqlite_master WHERE type = 'table'"))}
    finally:
        engine.dispose()
    assert "pending_resolution" not in tables and "battle" in tables
    from desktop.engine.codec import battle_to_json

    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO battle (id, title, ruleset, start, created) VALUES "
            "('old1', 'Old battle', 'warhammer6', ?, '2026-01-01 10:00:00')",
            (json.dumps(battle_to_json(scenario.battle, "Old battle")),))
    connection.close()
    with Store.open(sqlite_url(path)) as store:
        assert store.load_battle("old1").title == "Old battle"
        assert store.list_pending() == []
        store.save_pending("old1", procedure, resolve, finished.answers[:1], "resumable")
        assert store.load_pending("old1").answers == finished.answers[:1]
    [copy] = tmp_path.glob(f"old.before-{database.HEAD}.*.sqlite")
    with sqlite3.connect(copy) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0002",)]
        assert connection.execute("SELECT count(*) FROM battle").fetchone()[0] == 1


def test_a_postgresql_database_from_before_revision_0003_migrates(postgres_server):
    from test_store_database import fresh_postgres_database

    url = fresh_postgres_database(postgres_server, "before_pending")
    database_at(url, "0002")
    scenario, procedure, resolve, _ = scenario_parts()
    with Store.open(url) as store:
        battle_id = store.create_battle(scenario.battle)
        store.save_pending(battle_id, procedure, resolve, ["pursue"], "t")
        assert store.load_pending(battle_id).answers == ("pursue",)
