"""Battles carry a version (revision 0007): two windows on one battle (issue 21).

A step is made on the battle a window shows; once another window or program has saved or
taken off a step, that step may no longer fit (a unit moved where it now stands, terrain
placed on it), so it is refused with "changed by someone else" and nothing is written. Undo
takes off the one step it made, never another's. One unfinished resolution per battle: a
second window's answers never overwrite the first's. Two stores are two windows; every test
runs on a SQLite file and on the PostgreSQL server (tests/test_gui_battle_versions.py runs
them as two processes).
"""

from __future__ import annotations

import pytest
from test_battles import army
from test_store_pending import scenario_parts

from desktop.engine import moves
from desktop.engine.events import fold
from desktop.engine.setup import deploy_army, new_battle
from desktop.store.errors import ConflictError, NotFoundError
from desktop.store.store import Store


@pytest.fixture
def two(database_url):
    first, second = Store.open(database_url), Store.open(database_url)
    yield first, second
    first.close()
    second.close()


@pytest.fixture
def deployed_battle(two):
    """A stored battle with Alice's army deployed (step 1), read by both windows."""
    mine, _ = two
    battle = new_battle("warhammer6", [army("A", "Alice", 2), army("B", "Bob", 2)]).battle
    alice = deploy_army(battle, "Alice")
    battle_id = mine.create_battle(battle, "Two windows")
    mine.append_step(battle_id, alice)
    return battle_id, fold(battle, alice)


def test_a_new_battle_is_version_one_and_each_step_saved_or_taken_off_adds_one(
        two, deployed_battle):
    mine, _ = two
    battle_id, battle = deployed_battle
    assert mine.load_battle(battle_id).version == 2  # created, then one step
    move = moves.move_to(battle, "1-u0", (battle.states["1-u0"].center[0], 20.0))
    mine.append_step(battle_id, [move], version=2)
    assert mine.load_battle(battle_id).version == 3
    assert mine.remove_step(battle_id, 2, version=3) == (move,)
    saved = mine.load_battle(battle_id)
    assert (saved.version, len(saved.steps)) == (4, 1)
    assert [s.version for s in mine.list_battles() if s.id == battle_id] == [4]


def test_a_step_made_on_a_battle_that_moved_on_is_refused_and_nothing_is_written(
        two, deployed_battle):
    mine, theirs = two
    battle_id, battle = deployed_battle
    seen = mine.load_battle(battle_id)
    # The other window moves the unit; ours still shows it where it was.
    x, _ = battle.states["1-u0"].center
    theirs.append_step(battle_id, [moves.move_to(battle, "1-u0", (x, 20.0))],
                       version=theirs.load_battle(battle_id).version)
    stale_move = moves.move_to(battle, "1-u0", (x, 30.0))
    with pytest.raises(ConflictError, match="changed by someone else"):
        mine.append_step(battle_id, [stale_move], version=seen.version)
    stored = mine.load_battle(battle_id)
    assert len(stored.steps) == 2 and stored.steps[-1][0].path[-1] == (x, 20.0)
    # Read again, the step is made on what is stored now, and lands.
    mine.append_step(battle_id, [moves.move_to(stored.state, "1-u0", (x, 30.0))],
                     version=stored.version)
    assert len(mine.load_battle(battle_id).steps) == 3


def test_two_stale_moves_of_one_unit_cannot_both_be_saved(two, deployed_battle):
    mine, theirs = two
    battle_id, battle = deployed_battle
    version = mine.load_battle(battle_id).version
    x, _ = battle.states["1-u0"].center
    mine.append_step(battle_id, [moves.move_to(battle, "1-u0", (x, 20.0))], version=version)
    with pytest.raises(ConflictError):
        theirs.append_step(battle_id, [moves.move_to(battle, "1-u0", (x, 30.0))],
                           version=version)
    assert len(mine.load_battle(battle_id).steps) == 2


def test_undo_takes_off_only_its_own_step_and_is_refused_after_anothers(
        two, deployed_battle):
    mine, theirs = two
    battle_id, battle = deployed_battle
    version = mine.load_battle(battle_id).version
    x, _ = battle.states["1-u0"].center
    my_move = moves.move_to(battle, "1-u0", (x, 20.0))
    my_step = mine.append_step(battle_id, [my_move], version=version)
    after_mine = fold(battle, [my_move])
    their_wheel = moves.wheel(after_mine, "1-u1", 10.0)
    theirs.append_step(battle_id, [their_wheel], version=version + 1)
    with pytest.raises(ConflictError, match="changed by someone else"):
        mine.remove_step(battle_id, my_step, version=version + 1)
    assert [step[0] for step in mine.load_battle(battle_id).steps[1:]] == [my_move, their_wheel]
    # Even from the battle as it is now, another's later step keeps ours in place.
    with pytest.raises(ConflictError, match="not its last step"):
        mine.remove_step(battle_id, my_step, version=version + 2)
    assert len(mine.load_battle(battle_id).steps) == 3


def test_a_step_on_a_battle_someone_deleted_says_so(two, deployed_battle):
    mine, theirs = two
    battle_id, _ = deployed_battle
    version = mine.load_battle(battle_id).version
    theirs.delete_battle(battle_id)
    with pytest.raises(NotFoundError):
        mine.append_step(battle_id, [], version=version)


def test_a_deleted_battle_restored_is_the_same_version_of_it(two, deployed_battle):
    mine, theirs = two
    battle_id, battle = deployed_battle
    removed = mine.delete_battle(battle_id)
    mine.restore_battle(removed)  # undo of the delete
    assert mine.load_battle(battle_id) == removed
    x, _ = battle.states["1-u0"].center
    theirs.append_step(battle_id, [moves.move_to(battle, "1-u0", (x, 20.0))],
                       version=removed.version)


def test_a_second_windows_answers_never_overwrite_the_first_ones(two):
    mine, theirs = two
    scenario, procedure, resolve, finished = scenario_parts()
    battle_id = mine.create_battle(scenario.battle, "Spear line")
    mine.save_pending(battle_id, procedure, resolve, finished.answers[:2], "A's combat",
                      owner="window-a")
    with pytest.raises(ConflictError, match="already under way in another window"):
        theirs.save_pending(battle_id, procedure, resolve, finished.answers[:1], "B's combat",
                            owner="window-b")
    theirs.drop_pending(battle_id, owner="window-b")  # B's Finish or Cancel
    kept = mine.load_pending(battle_id)
    assert kept is not None and kept.owner == "window-a"
    assert kept.answers == tuple(finished.answers[:2])
    # A killed: B takes over what A left, and goes on from there.
    claimed = theirs.claim_pending(battle_id, "window-b")
    assert claimed is not None and claimed.answers == tuple(finished.answers[:2])
    theirs.save_pending(battle_id, procedure, resolve, finished.answers[:3], "A's combat",
                        owner="window-b")
    with pytest.raises(ConflictError):
        mine.save_pending(battle_id, procedure, resolve, finished.answers[:3], "A's combat",
                          owner="window-a")
    mine.drop_pending(battle_id, owner="window-a")
    assert theirs.load_pending(battle_id) is not None
    theirs.drop_pending(battle_id, owner="window-b")
    assert theirs.load_pending(battle_id) is None
