"""Battles: setting one up from armies, deploying a side, and keeping battles in the store.

Engine tests use hand-worked positions; store tests run on a SQLite file and on a real
PostgreSQL server (the `store` fixture in conftest.py).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop.bundled import resources_dir
from desktop.engine import moves
from desktop.engine.codec import army_from_json, battle_from_json, battle_to_json
from desktop.engine.errors import MoveRefused, ScenarioError
from desktop.engine.events import UnitDeployed, fold
from desktop.engine.geometry import Table, overlaps
from desktop.engine.model import Army, Battle, Status, Terrain, Unit, UnitProfile, Zone
from desktop.engine.setup import deploy_army, new_battle
from desktop.store.errors import AlreadyExistsError, NotFoundError
from desktop.store.files import read_json
from desktop.store.samples import SAMPLE_SCENARIOS, sample_battles

W6 = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
K1 = {"Mv": 10, "Init": 5, "Honor": 6, "W": 1, "AP": 2}
MAN = UnitProfile("Man", W6)  # 1" x 1" bases


def army(name: str, player: str, count: int, *, ruleset: str = "warhammer6",
         models: int = 10, files: int = 5, profile: UnitProfile = MAN) -> Army:
    """`count` units of `models` models `files` wide (5 x 2 inches by default)."""
    return Army(name, player, ruleset, tuple(
        Unit(f"u{i}", f"Unit {i}", player, profile, models, files) for i in range(count)))


def deployed(battle: Battle, *players: str) -> Battle:
    for player in players:
        battle = fold(battle, deploy_army(battle, player))
    return battle


def assert_legal(battle: Battle) -> None:
    """Every unit on the table is on it, off impassable terrain, and overlaps no other."""
    placed = list(battle.on_table())
    for uid in placed:
        assert battle.table.contains(battle.footprint(uid)), uid
        for piece in battle.terrain:
            if piece.impassable:
                assert not overlaps(battle.footprint(uid).polygon, piece.polygon), uid
    for index, first in enumerate(placed):
        for second in placed[index + 1:]:
            if second in battle.states[first].engaged_with:
                continue  # units in combat stand in contact
            assert not overlaps(battle.footprint(first).polygon,
                                battle.footprint(second).polygon), (first, second)


def assert_in_zone(battle: Battle, uid: str) -> None:
    zone = battle.zone_of(battle.player_of(uid))
    assert zone is not None
    x0, y0, x1, y1 = zone.rect
    for x, y in battle.footprint(uid).corners:
        assert x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9, (uid, x, y)


# --- setting up -------------------------------------------------------------------------------


def test_new_battle_puts_every_unit_in_reserve_and_prefixes_shared_ids():
    orcs = army("Orcs", "Alice", 3)
    elves = army("Elves", "Bob", 2)
    title, battle = new_battle("warhammer6", [orcs, elves])
    assert title == "Orcs vs Elves"
    # u0 and u1 are in both armies: prefixed in both; u2 only in the first: kept.
    assert list(battle.roster) == ["1-u0", "1-u1", "u2", "2-u0", "2-u1"]
    assert {battle.player_of(uid) for uid in ("1-u0", "u2")} == {"Alice"}
    assert battle.player_of("2-u1") == "Bob"
    assert all(state.status is Status.RESERVE for state in battle.states.values())
    assert list(battle.on_table()) == []
    assert battle.table == Table(72, 48)
    assert battle.zones == (Zone("Alice", (0, 0, 72, 12)), Zone("Bob", (0, 36, 72, 48)))


def test_a_prefixed_id_never_takes_an_id_another_army_uses():
    first = army("A", "Alice", 1)
    second = replace(army("B", "Bob", 1), units=(
        *army("B", "Bob", 1).units, replace(army("B", "Bob", 1).units[0], id="1-u0")))
    _, battle = new_battle("warhammer6", [first, second])
    assert sorted(battle.roster) == ["1-u0", "1-u0~2", "2-u0"]
    assert battle.player_of("1-u0") == "Bob" and battle.player_of("1-u0~2") == "Alice"


def test_kensei_battles_default_to_a_180_by_120_cm_table_with_30_cm_zones():
    samurai = UnitProfile("Samurai", K1, base=(2.5, 2.5))
    crane = army("Crane", "Crane Clan", 2, ruleset="kensei1", profile=samurai)
    shadow = army("Shadow", "Shadow Clan", 1, ruleset="kensei1", profile=samurai)
    _, battle = new_battle("kensei1", [crane, shadow], title="  Dawn raid ")
    assert battle.table == Table(180, 120)
    assert battle.zones == (Zone("Crane Clan", (0, 0, 180, 30)),
                            Zone("Shadow Clan", (0, 90, 180, 120)))
    battle = deployed(battle, "Crane Clan", "Shadow Clan")
    # 5 wide on 2.5 cm bases: 12.5 x 5 cm, front on the zone's front edge, 2.5 cm apart,
    # the line (27.5 cm) centred on the table; the Shadow Clan's one unit faces it.
    assert battle.states["1-u0"].center == (82.5, 27.5)
    assert battle.states["u1"].center == (97.5, 27.5)
    assert battle.states["2-u0"].center == (90.0, 92.5)
    assert battle.states["2-u0"].facing == 270


def test_three_armies_take_the_long_edges_in_turn_and_share_them():
    armies = [army("A", "Alice", 1), army("B", "Bob", 1), army("C", "Carol", 1)]
    title, battle = new_battle("warhammer6", armies)
    assert title == "A vs B vs C"
    assert battle.zones == (Zone("Alice", (0, 0, 36, 12)), Zone("Carol", (36, 0, 72, 12)),
                            Zone("Bob", (0, 36, 72, 48)))


def test_armies_of_one_player_name_become_different_sides():
    _, battle = new_battle("warhammer6", [army("Orcs", "Player", 1),
                                          army("Elves", "Player", 1)])
    assert battle.player_of("1-u0") == "Player"
    assert battle.player_of("2-u0") == "Elves"
    assert battle.enemies_of("1-u0") == []  # nothing on the table yet
    battle = deployed(battle, "Player", "Elves")
    assert battle.enemies_of("1-u0") == ["2-u0"]


@pytest.mark.parametrize(("armies", "zones", "message"), [
    ([army("Orcs", "Alice", 1)], None, "at least two armies, not 1"),
    ([army("Orcs", "Alice", 1), army("Samurai", "Bob", 1, ruleset="kensei1",
                                     profile=UnitProfile("S", K1))], None,
     "army 'Samurai' is for kensei1, not warhammer6"),
    ([army("Orcs", "Alice", 1), army("Elves", "Bob", 1)],
     [Zone("Alice", (0, 0, 80, 12))], "(0, 0, 80, 12) is not a rectangle on the 72x48 table"),
    ([army("Orcs", "Alice", 1), army("Elves", "Bob", 1)],
     [Zone("Carol", (0, 0, 72, 12))], "names 'Carol', who has no army here"),
    ([army("Orcs", "Alice", 1), army("Elves", "Bob", 1)],
     [Zone("Alice", (0, 0, 72, 12)), Zone("Alice", (0, 30, 72, 48))],
     "'Alice' has two deployment zones"),
])
def test_bad_set_ups_are_refused_with_the_reason(armies, zones, message):
    with pytest.raises(ScenarioError) as caught:
        new_battle("warhammer6", armies, zones=zones)
    assert message in str(caught.value)


def test_an_unknown_ruleset_is_named():
    with pytest.raises(ScenarioError, match="unknown ruleset 'warhammer8'"):
        new_battle("warhammer8", [army("A", "Alice", 1), army("B", "Bob", 1)])


# --- deploying ---------------------------------------------------------------------------------


def test_deploy_lines_units_up_left_to_right_facing_the_enemy():
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 3), army("Elves", "Bob", 2)])
    alice = deploy_army(battle, "Alice")
    # 5 x 2" units, front on the zone's front edge (y = 12), 1" apart: 17" of line centred
    # on the 72" zone (27.5 to 44.5).
    assert alice == [UnitDeployed("1-u0", (30.0, 11.0), 90.0),
                     UnitDeployed("1-u1", (36.0, 11.0), 90.0),
                     UnitDeployed("u2", (42.0, 11.0), 90.0)]
    battle = fold(battle, alice)
    bob = deploy_army(battle, "Bob")
    # Bob faces down the table: his left to right runs from x = 72 towards x = 0; his 11"
    # of line is centred too (41.5 to 30.5), facing Alice's.
    assert bob == [UnitDeployed("2-u0", (39.0, 37.0), 270.0),
                   UnitDeployed("2-u1", (33.0, 37.0), 270.0)]
    battle = fold(battle, bob)
    assert_legal(battle)
    assert deploy_army(battle, "Alice") == []  # nothing left in reserve


def test_a_full_line_starts_another_behind_it():
    zones = [Zone("Alice", (0, 0, 12, 12)), Zone("Bob", (0, 36, 72, 48))]
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 3), army("Elves", "Bob", 1)],
                           zones=zones)
    events = deploy_army(battle, "Alice")
    # The zone runs to the table's left edge: the line keeps 1" from it (1 to 12). Two fit
    # (1-6, 7-12); the third goes behind, centred, 1.5" back: turning in place a quarter
    # turn takes a 5 x 2" unit 1.5" back and forward.
    assert [event.center for event in events] == [(3.5, 11.0), (9.5, 11.0), (6.5, 7.5)]
def test_units_that_do_not_fit_are_named_and_nothing_is_deployed():
    zones = [Zone("Alice", (0, 0, 12, 4)), Zone("Bob", (0, 36, 72, 48))]
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 4), army("Elves", "Bob", 1)],
                           zones=zones)
    with pytest.raises(MoveRefused) as caught:
        deploy_army(battle, "Alice")
    assert str(caught.value) == ("2 of Alice's units do not fit in its 12x4 deployment zone: "
                                 "'u2', 'u3'")


def test_a_unit_wider_than_the_zone_is_named():
    zones = [Zone("Alice", (0, 0, 4, 12)), Zone("Bob", (0, 36, 72, 48))]
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 1), army("Elves", "Bob", 1)],
                           zones=zones)
    with pytest.raises(MoveRefused, match=r"1 of Alice's units do not fit .*'1-u0'"):
        deploy_army(battle, "Alice")


def test_deployment_steps_round_impassable_terrain_and_units_already_placed():
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 3), army("Elves", "Bob", 1)])
    rock = Terrain("rock", "Rock", ((30, 9), (32, 9), (32, 12), (30, 12)), impassable=True)
    battle = replace(battle, terrain=(rock,))
    # The player put one unit down by hand, further along the line.
    battle = fold(battle, [moves.deploy(battle, "u2", (40.0, 11.0), 90)])
    events = deploy_army(battle, "Alice")
    # The two left make 11" of line, centred from 30.5: 1-u0 slides in half-inch steps until
    # clear of the rock (left edge at x = 32); 1-u1 then starts 1" on at 38, runs into u2
    # (37.5-42.5) and slides to 42.5.
    assert [event.center for event in events] == [(34.5, 11.0), (45.0, 11.0)]
    assert_legal(fold(battle, events))


def first_moves_refused(battle: Battle) -> list[str]:
    """What stops a deployed unit's first move: its Move straight on, a wheel of 45 and of
    90 degrees either way, a quarter turn in place either way."""
    refused = []
    stat = "Mv" if battle.ruleset == "kensei1" else "M"
    for uid in battle.on_table():
        state = battle.states[uid]
        ahead = math.radians(state.facing)
        reach = battle.stat(uid, stat)
        tries: list[tuple[str, Callable[..., object], tuple[object, ...]]] = [
            ("move", moves.move_to, ((state.center[0] + math.cos(ahead) * reach,
                                      state.center[1] + math.sin(ahead) * reach),))]
        tries += [(f"wheel {angle}", moves.wheel, (angle,)) for angle in (45, -45, 90, -90)]
        tries += [(f"turn {turn}", moves.move_to, (state.center, state.facing + turn))
                  for turn in (90, -90)]
        for name, make, arguments in tries:
            try:
                make(battle, uid, *arguments)
            except MoveRefused as error:
                refused.append(f"{uid} {name}: {error}")
    return refused


@pytest.mark.parametrize("ruleset", ["warhammer6", "kensei1", "breaks_pursues"])
def test_a_deployed_sample_army_can_make_its_first_moves(ruleset):
    """Issue 20, item 10: Deploy Army left 1" between units, so a 4.7 x 3.9" regiment
    could not wheel 30 degrees without its far rear corner swinging into its neighbour,
    and the first unit of the line (a lone character) stood against the table's side."""
    armies = [army for path in sorted((resources_dir() / "armies").glob("*.json"))
              if (army := army_from_json(read_json(path))).ruleset == ruleset]
    battle = deployed(new_battle(ruleset, armies).battle,
                      *sorted({a.player for a in armies}))
    assert first_moves_refused(battle) == []
    gap = 2.5 if ruleset == "kensei1" else 1.0
    for uid in battle.on_table():
        xs = [x for x, _ in battle.footprint(uid).corners]
        assert min(xs) >= gap - 1e-9 and max(xs) <= battle.table.width - gap + 1e-9, uid


def test_a_crowded_zone_keeps_room_to_wheel_and_turn_in_every_line():
    """Wide, deep and narrow units in three lines: each can turn in place, and nothing but
    the line ahead of it stops a wheel or a move (the front line goes first)."""
    deep = UnitProfile("Ogre", W6, base=(1.575, 1.575))
    specs = [(20, 5, MAN), (6, 2, deep), (1, 1, MAN), (12, 6, MAN), (9, 3, deep)] * 3
    units = tuple(Unit(f"u{i}", f"Unit {i}", "Alice", profile, models, files)
                  for i, (models, files, profile) in enumerate(specs))
    zones = [Zone("Alice", (0, 0, 36, 24)), Zone("Bob", (0, 36, 72, 48))]
    _, battle = new_battle("warhammer6", [Army("A", "Alice", "warhammer6", units),
                                          army("B", "Bob", 1)], zones=zones)
    battle = deployed(battle, "Alice")
    fronts = sorted({round(max(y for _, y in battle.footprint(uid).corners), 6)
                     for uid in battle.on_table() if battle.player_of(uid) == "Alice"})
    assert len(fronts) == 3

    def line_of(uid: str) -> int:
        front = round(max(y for _, y in battle.footprint(uid).corners), 6)
        return len(fronts) - 1 - fronts.index(front)  # 0: the front line

    for text in first_moves_refused(battle):
        uid, doing = text.split()[0], text.split()[1]
        blocker = text.split("overlap unit '")[-1].split("'")[0] if "overlap unit" in text \
            else ""
        assert doing != "turn", text
        assert blocker and line_of(blocker) == line_of(uid) - 1, text


def test_a_player_without_a_zone_is_told_so():
    _, battle = new_battle("warhammer6", [army("Orcs", "Alice", 1), army("Elves", "Bob", 1)])
    with pytest.raises(MoveRefused, match="'Carol' has no deployment zone"):
        deploy_army(battle, "Carol")


units_strategy = st.lists(
    st.tuples(st.integers(1, 40), st.integers(1, 10),
              st.sampled_from([(0.787, 0.787), (1.0, 1.0), (1.0, 2.0), (2.0, 2.0),
                               (1.575, 3.15)])),
    min_size=1, max_size=14)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=units_strategy, second=units_strategy, zone_depth=st.sampled_from([6.0, 12.0]))
def test_deployment_never_overlaps_and_stays_in_the_zone(first, second, zone_depth):
    def make(name: str, player: str, specs) -> Army:
        return Army(name, player, "warhammer6", tuple(
            Unit(f"u{i}", f"Unit {i}", player, UnitProfile("M", W6, base=base), models,
                 min(files, models))
            for i, (models, files, base) in enumerate(specs)))

    zones = [Zone("Alice", (0, 0, 72, zone_depth)), Zone("Bob", (0, 48 - zone_depth, 72, 48))]
    _, battle = new_battle("warhammer6", [make("A", "Alice", first), make("B", "Bob", second)],
                           zones=zones)
    for player in ("Alice", "Bob"):
        refused = ""
        try:
            events = deploy_army(battle, player)
        except MoveRefused as error:
            refused = str(error)
        if refused:
            # Only when something really cannot go in: the message names reserve units.
            assert "do not fit" in refused
            continue
        battle = fold(battle, events)
        assert {e.unit for e in events} == {uid for uid in battle.roster
                                            if battle.player_of(uid) == player}
        for event in events:
            assert_in_zone(battle, event.unit)
    assert_legal(battle)


# --- zones in battle files -------------------------------------------------------------------


def test_zones_survive_the_battle_file_and_old_files_still_read():
    title, battle = new_battle("warhammer6", [army("Orcs", "Alice", 2), army("Elves", "Bob", 1)])
    document = json.loads(json.dumps(battle_to_json(battle, title)))
    assert document["version"] == 2
    assert document["zones"][0] == {"player": "Alice", "rect": [0.0, 0.0, 72.0, 12.0]}
    read_title, read, _ = battle_from_json(document)
    assert (read_title, read) == (title, battle)
    # A battle without zones is written as before (version 1) and read as before.
    plain = battle_to_json(replace(battle, zones=()), title)
    assert plain["version"] == 1 and "zones" not in plain
    assert battle_from_json(plain)[1].zones == ()
    with pytest.raises(ScenarioError, match="unknown field 'zones'"):
        battle_from_json({**document, "version": 1})
    bad = {**document, "zones": [{"player": "Alice", "rect": [0, 0, 100, 12]}]}
    with pytest.raises(ScenarioError, match=r"zones\[0\].rect: .*not a rectangle"):
        battle_from_json(bad)


# --- bundled samples ---------------------------------------------------------------------------


def test_one_sample_battle_per_ruleset_with_units_placed_legally():
    samples = sample_battles()
    assert [battle.ruleset for _, battle in samples] == list(SAMPLE_SCENARIOS)
    for title, battle in samples:
        assert title
        assert len(list(battle.on_table())) >= 3
        assert_legal(battle)
        # Every unit can still be moved by the player (the engine accepts where it stands).
        for uid in battle.on_table():
            state = battle.states[uid]
            if not state.engaged_with:
                assert moves.check(battle, moves.move_to(battle, uid, state.center))


# --- the store -------------------------------------------------------------------------------


@pytest.fixture
def two_sides() -> tuple[str, Battle]:
    return new_battle("warhammer6", [army("Orcs", "Alice", 3), army("Elves", "Bob", 2)])


def test_a_battle_with_its_deployment_is_saved_and_listed(store, two_sides):
    title, battle = two_sides
    battle_id = store.create_battle(battle, title)
    alice = deploy_army(battle, "Alice")
    store.append_step(battle_id, alice)
    store.append_step(battle_id, deploy_army(fold(battle, alice), "Bob"))
    saved = store.load_battle(battle_id)
    assert saved.start == battle and saved.start.zones == battle.zones
    assert len(list(saved.state.on_table())) == 5
    [summary] = store.list_battles()
    assert (summary.id, summary.title, summary.units, summary.steps, summary.events) == (
        battle_id, "Orcs vs Elves", 5, 2, 5)


def test_rename_changes_the_title_everywhere(store, two_sides):
    battle_id = store.create_battle(two_sides.battle, two_sides.title)
    store.rename_battle(battle_id, "Grudge match")
    assert store.load_battle(battle_id).title == "Grudge match"
    assert [s.title for s in store.list_battles()] == ["Grudge match"]
    assert store.find_battle("grudge MATCH").id == battle_id
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.rename_battle("nope", "x")


def test_duplicate_copies_start_and_steps_and_then_goes_its_own_way(store, two_sides):
    battle_id = store.create_battle(two_sides.battle, two_sides.title)
    store.append_step(battle_id, deploy_army(two_sides.battle, "Alice"))
    copy_id = store.duplicate_battle(battle_id, "Rematch")
    original, copy = store.load_battle(battle_id), store.load_battle(copy_id)
    assert copy_id != battle_id
    assert (copy.title, copy.start, copy.steps) == ("Rematch", original.start, original.steps)
    store.append_step(copy_id, deploy_army(copy.state, "Bob"))
    assert len(store.load_battle(copy_id).steps) == 2
    assert store.load_battle(battle_id).steps == original.steps
    assert [s.title for s in store.list_battles()] == ["Orcs vs Elves", "Rematch"]
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.duplicate_battle("nope", "x")


def test_delete_then_restore_gives_the_same_battle_in_the_same_place(store, two_sides):
    first = store.create_battle(two_sides.battle, "First")
    second = store.create_battle(two_sides.battle, "Second")
    store.append_step(second, deploy_army(two_sides.battle, "Alice"))
    store.append_step(second, [])  # a step with no events is not kept
    store.append_step(second, deploy_army(two_sides.battle, "Bob"))
    third = store.create_battle(two_sides.battle, "Third")
    before = store.load_battle(second)
    listed = store.list_battles()

    removed = store.delete_battle(second)
    assert removed == before
    assert [s.id for s in store.list_battles()] == [first, third]
    with pytest.raises(NotFoundError, match=f"no battle with id '{second}'"):
        store.load_battle(second)

    store.restore_battle(removed)
    assert store.load_battle(second) == before
    assert store.list_battles() == listed
    with pytest.raises(AlreadyExistsError, match=f"a battle with id '{second}' is already"):
        store.restore_battle(removed)
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.delete_battle("nope")


def test_remove_last_step_takes_back_one_step_at_a_time(store, two_sides):
    battle = two_sides.battle
    battle_id = store.create_battle(battle, "Undo")
    assert store.remove_last_step(battle_id) == ()
    alice = deploy_army(battle, "Alice")
    store.append_step(battle_id, alice)
    battle = fold(battle, alice)
    charge = moves.move_to(battle, "1-u0", (2.5, 20.0))
    store.append_step(battle_id, [charge])

    assert store.remove_last_step(battle_id) == (charge,)
    assert store.load_battle(battle_id).state == battle
    # The next step takes the freed number: steps stay 1, 2, ... with no gap.
    assert store.append_step(battle_id, [charge]) == 2
    assert store.remove_last_step(battle_id) == (charge,)
    assert store.remove_last_step(battle_id) == tuple(alice)
    assert store.load_battle(battle_id).steps == ()
    assert store.remove_last_step(battle_id) == ()
    with pytest.raises(NotFoundError, match="no battle with id 'nope'"):
        store.remove_last_step("nope")


def test_find_battle_by_id_or_title_and_refuse_a_shared_title(store, two_sides):
    first = store.create_battle(two_sides.battle, "Ambush")
    second = store.create_battle(two_sides.battle, "Ambush")
    third = store.create_battle(two_sides.battle, "Élan")
    assert store.find_battle(first).id == first
    assert store.find_battle("ÉLAN").id == third
    with pytest.raises(NotFoundError) as caught:
        store.find_battle("ambush")
    assert str(caught.value) == (f"2 battles are named 'ambush'; give the id instead "
                                 f"({', '.join(sorted([first, second]))})")
    with pytest.raises(NotFoundError, match=r"no battle named 'Siege' in .*rout battles"):
        store.find_battle("Siege")


def test_import_battle_keeps_steps_in_one_transaction(store, two_sides):
    alice = deploy_army(two_sides.battle, "Alice")
    battle_id = store.import_battle(two_sides.battle, "Imported", [alice[:1], [], alice[1:]])
    saved = store.load_battle(battle_id)
    assert saved.steps == (tuple(alice[:1]), tuple(alice[1:]))
    assert [s.steps for s in store.list_battles()] == [2]


def test_sample_battles_save_and_reload(store):
    for title, battle in sample_battles():
        battle_id = store.create_battle(battle, title)
        assert store.load_battle(battle_id).start == battle
    assert [s.units for s in store.list_battles()] == [4, 5, 3]


def test_the_benchmark_battle_is_all_accepted_moves(store):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent / "bench" / "battle_fixture.py"
    spec = importlib.util.spec_from_file_location("battle_fixture", path)
    assert spec is not None and spec.loader is not None
    fixture = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixture)
    battle_id = fixture.build_long_battle(store, events=120)
    saved = store.load_battle(battle_id)
    assert len(saved.events) == 120
    battle = saved.start
    for event in saved.events:
        assert moves.check(battle, event) == event  # each was a legal player move
        battle = event.apply_to(battle)
    assert_legal(battle)
