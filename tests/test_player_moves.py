"""Player moves (desktop.engine.moves): events checked before they are accepted.

The hand-worked table (72x48, 1" bases, 10 models 5 wide = 5" x 2"):

    a  (Red)   centre (20, 20) facing up:    x 17.5..22.5, y 19..21
    f  (Red)   centre (30, 20) facing up:    x 27.5..32.5, y 19..21
    b  (Blue)  centre (20, 30) facing down:  x 17.5..22.5, y 29..31
    r  (Red)   in reserve
    rocks      impassable square x 40..44, y 30..34
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString

from desktop.engine import moves, spatial
from desktop.engine.errors import MoveRefused, RuleError
from desktop.engine.events import (
    CasualtiesRemoved,
    Event,
    TurnBegan,
    UnitCharged,
    UnitFled,
    UnitMoved,
    UnitsDisengaged,
    UnitsEngaged,
    UnitWheeled,
    event_from_json,
    fold,
)
from desktop.engine.geometry import CONTACT_TOLERANCE, in_contact, overlaps
from desktop.engine.model import Battle, Status
from desktop.engine.narrate import describe
from desktop.engine.scenario import load_scenario

from builders import aftermath, scenario, side, w6_unit

ROCKS = {"id": "rocks", "name": "Rocks", "impassable": True,
         "points": [[40, 30], [44, 30], [44, 34], [40, 34]]}


def table(*extra: dict) -> Battle:
    units = [w6_unit("a", "Red", 20, 20), w6_unit("f", "Red", 30, 20),
             w6_unit("b", "Blue", 20, 30, facing=270),
             w6_unit("r", "Red", 0, 0, status="reserve"), *extra]
    data = scenario(units, aftermath((side("a"), side("b"))), terrain=[ROCKS])
    battle = load_scenario(data).battle
    # The aftermath engages a and b; these tests start from units that are not fighting.
    return fold(battle, [UnitsDisengaged("a", "b")]) if "b" in battle.states[
        "a"].engaged_with else battle


@pytest.fixture
def battle() -> Battle:
    return table()


def refused(battle: Battle, event: Event, says: str) -> None:
    with pytest.raises(MoveRefused, match=says):
        moves.check(battle, event)


# --- reserve --------------------------------------------------------------------------------


def test_a_reserve_unit_is_in_the_battle_but_not_on_the_table(battle):
    assert battle.states["r"].status is Status.RESERVE
    assert "r" not in battle.on_table()
    assert "r" not in battle.enemies_of("b")
    assert "r" not in {o.id for o in battle.obstacles_for("a")}
    assert "r" not in spatial.units_within(battle, "a", 100)


def test_deploying_puts_a_reserve_unit_down_where_asked(battle):
    event = moves.deploy(battle, "r", (50, 10), 45)
    after = event.apply_to(battle)
    assert (after.states["r"].center, after.states["r"].facing) == ((50, 10), 45)
    assert after.states["r"].status is Status.READY
    assert "r" in after.on_table()
    assert "r" in spatial.units_within(after, "f", 30)


@pytest.mark.parametrize(("unit", "center", "says"), [
    ("r", (30, 21), r"'r' would overlap unit 'f' where it is deployed"),
    ("r", (42, 33), r"'r' would overlap impassable terrain 'rocks'"),
    ("r", (1, 10), r"'r' would go off the table at the left edge \(x = 0\)"),
    ("a", (50, 10), r"'a' is already on the table \(ready\): move it instead"),
    ("ghost", (50, 10), r"there is no unit 'ghost' in this battle"),
])
def test_deploying_is_refused_naming_what_is_in_the_way(battle, unit, center, says):
    with pytest.raises(MoveRefused, match=says):
        moves.deploy(battle, unit, center, 90)


def test_a_reserve_unit_must_be_deployed_before_it_moves(battle):
    with pytest.raises(MoveRefused, match="'r' is in reserve: deploy it first"):
        moves.move_to(battle, "r", (50, 10))


# --- moves ----------------------------------------------------------------------------------


def test_a_move_ends_where_asked_facing_as_before(battle):
    event = moves.move_to(battle, "a", (20, 24))
    assert event == UnitMoved("a", 0, ((20, 20), (20, 24)), 90.0, start_facing=90.0,
                              footprint=tuple(battle.footprint("a").moved(0, 4)
                                              .corners))
    assert event.apply_to(battle).states["a"].center == (20, 24)


def test_a_move_may_end_touching_another_unit(battle):
    moves.move_to(battle, "a", (20, 27))  # front at y 28... up to 29 is touching b


@pytest.mark.parametrize(("point", "facing", "says"), [
    ((20, 28.5), None, r"'a' would overlap unit 'b' where it ends"),
    ((20, 40), None, r"'a' would overlap unit 'b' on the way"),  # no jumping over it
    ((1, 20), None, r"'a' would go off the table at the left edge \(x = 0\)"),
    ((20, 0.5), None, r"'a' would go off the table at the bottom edge \(y = 0\)"),
    ((27, 20), 0, r"'a' would overlap unit 'f' where it ends"),  # side-on: x 26..28
])
def test_a_move_is_refused_naming_what_is_in_the_way(battle, point, facing, says):
    with pytest.raises(MoveRefused, match=says):
        moves.move_to(battle, "a", point, facing)


def test_moves_past_the_top_and_right_edges_name_them(battle):
    with pytest.raises(MoveRefused, match=r"'f' would go off the table at the top edge "
                       r"\(y = 48\)"):
        moves.move_to(battle, "f", (30, 47.5))
    with pytest.raises(MoveRefused, match=r"right edge \(x = 72\)"):
        moves.move_to(battle, "f", (70.5, 20))


def test_a_move_onto_impassable_terrain_names_it(battle):
    with pytest.raises(MoveRefused, match="'f' would overlap impassable terrain 'rocks'"):
        moves.move_to(battle, "f", (42, 30))


def test_a_path_with_several_points_goes_round_what_a_straight_move_would_hit(battle):
    around = moves.move_to(battle, "a", (20, 40), via=[(10, 20), (10, 40)])
    assert around.path == ((20, 20), (10, 20), (10, 40), (20, 40))
    assert around.apply_to(battle).states["a"].center == (20, 40)


def test_a_path_must_start_at_the_unit(battle):
    refused(battle, UnitMoved("a", 0, ((0, 0), (20, 24)), 90),
            r"must start at its centre \(20, 20\)")
    refused(battle, UnitMoved("a", 3, ((20, 20), (20, 24)), 90), "roll must be 0")


def test_an_engaged_unit_must_disengage_before_it_moves_or_wheels(battle):
    engaged = fold(battle, [UnitsEngaged("a", "b")])
    for attempt in (lambda: moves.move_to(engaged, "a", (20, 18)),
                    lambda: moves.wheel(engaged, "a", 30)):
        with pytest.raises(MoveRefused, match="'a' is engaged with 'b': disengage before"):
            attempt()
    with pytest.raises(MoveRefused, match="'a' would overlap unit 'b'"):
        moves.move_to(battle, "a", (20, 28.5))
    free = fold(engaged, [moves.disengage(engaged, "a", "b")])
    assert moves.move_to(free, "a", (20, 18)).path[-1] == (20, 18)


# --- wheels ---------------------------------------------------------------------------------


def test_a_clockwise_wheel_pivots_on_the_right_front_corner(battle):
    event = moves.wheel(battle, "a", 90)
    # Arc of the outer corner: a quarter turn on a 5" frontage.
    assert event.pivot == "right"
    assert event.arc == pytest.approx(math.pi / 2 * 5)
    state = event.apply_to(battle).states["a"]
    # The right front corner (22.5, 21) stays; the unit now faces right (0 degrees),
    # its frontage running up from the pivot and its depth behind it: x 20.5..22.5, y 21..26.
    assert state.facing == pytest.approx(0)
    assert state.center == pytest.approx((21.5, 23.5))


def test_a_counter_clockwise_wheel_pivots_on_the_left(battle):
    event = moves.wheel(battle, "a", -45)
    assert (event.pivot, event.angle) == ("left", -45)
    assert event.arc == pytest.approx(math.radians(45) * 5)
    after = event.apply_to(battle)
    assert after.states["a"].facing == pytest.approx(135)
    assert after.footprint("a").corners[0] == pytest.approx((17.5, 21))


def test_a_wheel_is_refused_when_it_sweeps_into_a_unit(battle):
    near = fold(battle, [moves.move_to(battle, "a", (20, 26))])
    with pytest.raises(MoveRefused, match="'a' would overlap unit 'b' as it wheels"):
        moves.wheel(near, "a", 90)


def test_a_wheel_must_pivot_on_its_inner_corner(battle):
    refused(battle, UnitWheeled("a", "left", 30), "inner, right front corner")
    refused(battle, UnitWheeled("a", "middle", 30), "'left' or 'right'")
    refused(battle, UnitWheeled("a", "right", 0), "more than 0")


# --- reforms --------------------------------------------------------------------------------


def test_a_reform_keeps_the_middle_of_the_front_edge(battle):
    wide = moves.reform(battle, "a", 10).apply_to(battle)
    assert wide.footprint("a").frontage == 10 and wide.footprint("a").depth == 1
    assert wide.states["a"].center == pytest.approx((20, 20.5))  # front still at y 21
    deep = moves.reform(battle, "a", 3).apply_to(battle)
    assert deep.states["a"].ranks == 4
    assert deep.states["a"].center == pytest.approx((20, 19))


def test_a_reform_is_refused_when_it_does_not_fit(battle):
    with pytest.raises(MoveRefused, match="1 to 10 files wide, not 11"):
        moves.reform(battle, "a", 11)
    near = fold(battle, [moves.move_to(battle, "f", (26, 20))])  # x 23.5..28.5
    with pytest.raises(MoveRefused, match="'f' would overlap unit 'a' once reformed"):
        moves.reform(near, "f", 10)  # x 21..31 reaches a at 22.5


def flanked() -> Battle:
    """a (x 17.5..22.5) with Blue e on its right flank (x 22.5..24.5, y 17.5..22.5, facing
    left) and Red g behind e (x 24.5..26.5), e fighting both."""
    battle = table(w6_unit("e", "Blue", 23.5, 20, facing=180),
                   w6_unit("g", "Red", 25.5, 20, facing=180))
    return fold(battle, [UnitsEngaged("a", "e")])


def test_a_narrowing_reform_moves_a_flank_enemy_up_into_contact():
    battle = flanked()
    event = moves.reform(battle, "a", 3)  # x 18.5..21.5, y 17..21: e is 1" off
    assert [uid for uid, _, _ in event.moved_up] == ["e"]
    after = event.apply_to(battle)
    assert after.states["e"].center == pytest.approx((22.5, 20))
    assert after.states["e"].facing == 180
    assert in_contact(after.footprint("a"), after.footprint("e"))
    assert "e" in after.states["a"].engaged_with
    assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
    assert fold(battle, [event]) == after
    assert describe(event, battle).endswith("; E move to stay in contact")


def test_a_flank_enemy_blocked_on_its_way_up_slides_back_along_the_flank():
    """The four units: swordsmen 5 wide (x 34.03..37.97, y 22.82..25.18, facing down), boyz
    in front of them, wolf riders on their left flank reaching past their front to y 21.54.
    Reformed 3 wide, the swordsmen span x 34.82..37.18 and y 22.82..26.76; the straight step
    right would put the wolf riders into the boyz, so they slide down the flank until they
    clear the boyz' edge at y 22.82, and touch the swordsmen again."""
    battle = load_scenario(json.loads(FOUR_UNITS.read_text(encoding="utf-8"))).battle
    event = moves.reform(battle, "swordsmen", 3)
    after = event.apply_to(battle)
    riders = after.footprint("wolf_riders")
    xs, ys = [x for x, _ in riders.corners], [y for _, y in riders.corners]
    assert max(xs) == pytest.approx(after.footprint("swordsmen").corners[1][0])
    assert min(ys) == pytest.approx(battle.footprint("boyz").corners[0][1], abs=0.01)
    assert after.states["wolf_riders"].facing == battle.states["wolf_riders"].facing
    assert sound(after) == []


def test_a_reform_is_refused_when_an_engaged_enemy_cannot_follow():
    battle = fold(flanked(), [UnitsEngaged("g", "e")])
    with pytest.raises(MoveRefused, match="'a' would lose contact with 'e' once reformed, "
                       "and 'e' cannot make way without losing contact with 'g'"):
        moves.reform(battle, "a", 3)


def test_a_widening_reform_pushes_a_flank_enemy_out_until_they_touch():
    """a reformed 10 wide spans x 15..25 (front kept at y 21, one rank: y 20..21); e on its
    flank (x 22.5..24.5) is pushed 2.5" straight out to x 25..27, still facing left."""
    battle = fold(table(w6_unit("e", "Blue", 23.5, 20, facing=180)), [UnitsEngaged("a", "e")])
    event = moves.reform(battle, "a", 10)
    after = event.apply_to(battle)
    assert after.states["e"].center == pytest.approx((26, 20))
    assert after.states["e"].facing == 180
    assert in_contact(after.footprint("a"), after.footprint("e"))
    assert not overlaps(after.footprint("a").polygon, after.footprint("e").polygon)
    assert sound(after) == []


def test_a_widening_reform_is_refused_when_the_enemy_has_no_room_to_make_way():
    """As above, but Red g stands at x 25.5..27.5, y 21.5..26.5: e pushed to x 25..27 (y
    17.5..22.5) would overlap it."""
    battle = fold(table(w6_unit("e", "Blue", 23.5, 20, facing=180),
                        w6_unit("g", "Red", 26.5, 24, facing=180)), [UnitsEngaged("a", "e")])
    with pytest.raises(MoveRefused, match="'a' would overlap 'e' once reformed, and 'e' has "
                       "no room to make way"):
        moves.reform(battle, "a", 10)


def test_a_widening_reform_does_not_push_a_slanted_enemy_out_of_contact():
    """e stands at 30 degrees to a's right flank (x 38.5), touching it with one corner at y
    23.8. Reformed 10 wide, a stands in one rank (x 31..41, y 24..25) and overlaps e; pushed
    straight out until it clears x 41, e's corner would be at y 23.8, below a's flank: the
    two no longer touch, and a reform that leaves them fighting out of contact is refused."""
    units = [w6_unit("a", "Red", 36, 24, models=10, files=5),
             w6_unit("e", "Blue", 39.69, 22.75, facing=210, models=3, files=3)]
    battle = load_scenario(scenario(units, aftermath((side("a"), side("e"))))).battle
    assert battle.states["a"].engaged_with == {"e"}
    assert sound(battle) == []
    with pytest.raises(MoveRefused, match="'a' would overlap 'e' once reformed"):
        moves.reform(battle, "a", 10)


def test_an_enemy_at_an_angle_slid_along_a_narrowed_unit_does_not_end_inside_it():
    """a (20 models 14 wide: x 29..43, y 23..25) has e on its right flank at 30 degrees,
    touching it with a corner. Reformed 1 wide (x 35.5..36.5, y 5..25), a leaves e far off;
    e's straight step up is blocked by x, and e slides along the side it reaches: not into
    a, which its other corners would cross (then the reform is refused)."""
    units = [w6_unit("a", "Red", 36, 24, models=20, files=14),
             w6_unit("e", "Blue", 43.3, 26.55, facing=210, models=11, files=7),
             w6_unit("x", "Red", 39.4, 21.5, facing=180, models=1, files=1)]
    battle = load_scenario(scenario(units, aftermath((side("a"), side("e"))))).battle
    assert battle.states["a"].engaged_with == {"e"}
    assert sound(battle) == []
    try:
        after = moves.reform(battle, "a", 1).apply_to(battle)
    except MoveRefused:
        return  # no clear place along that side: refused, as the rules say
    assert not overlaps(after.footprint("a").polygon, after.footprint("e").polygon)
    assert sound(after) == []


def test_a_reform_may_not_overlap_a_unit_it_is_not_fighting():
    battle = fold(table(), [moves.move_to(table(), "f", (26, 20))])  # f: x 23.5..28.5
    with pytest.raises(MoveRefused, match="'a' would overlap unit 'f' once reformed"):
        moves.reform(battle, "a", 10)


def test_enemies_moved_up_after_casualties_do_not_end_in_each_other():
    """a (12 models 4 wide: x 34..38, y 22.5..25.5) has e behind it (x 35.5..37.5, y
    21.5..22.5) and e2 on its right flank (x 38..39, y 20.5..24.5). Down to 2 models (x
    35..37, y 24.5..25.5), e moves up to y 23.5..24.5; e2's straight step is blocked by where
    e stood, and sliding up the flank it must not come to rest where e now stands."""
    units = [w6_unit("a", "Red", 36, 24, models=12, files=4),
             w6_unit("e", "Blue", 36.5, 22, models=2, files=2),
             w6_unit("e2", "Blue", 38.5, 22.5, facing=180, models=4, files=4)]
    battle = load_scenario(scenario(units, aftermath((side("a"), side("e", "e2"))))).battle
    assert battle.states["a"].engaged_with == {"e", "e2"}
    event = CasualtiesRemoved.build(battle, "a", 10, clause="test")
    after = event.apply_to(battle)
    assert "e" in [uid for uid, _, _ in event.moved_up]
    assert not overlaps(after.footprint("e").polygon, after.footprint("e2").polygon)
    assert fold(battle, [event]) == after


# --- charges --------------------------------------------------------------------------------


def front_on_edge(battle: Battle, unit: str, target: str) -> bool:
    """Flush: the unit squares up to a side of `target` (facings a multiple of 90 degrees
    apart), touches it without overlapping, and its front line lies along it for 1" or more
    (or the whole of the shorter front: a unit one model wide has less than 1" of front).
    """
    mover, other = battle.footprint(unit), battle.footprint(target)
    turn = (mover.facing - other.facing) % 90.0
    front = LineString(mover.corners[:2])
    along = front.intersection(other.polygon.buffer(CONTACT_TOLERANCE)).length
    sides = [edge.length for edge in spatial.edges(other)
             if spatial.front_gap(mover, edge)[0] <= CONTACT_TOLERANCE]
    needed = min([1.0, mover.frontage, *sides]) - 1e-9
    return (min(turn, 90.0 - turn) < 1e-6 and along >= needed
            and not overlaps(mover.polygon, other.polygon))


def test_a_head_on_charge_ends_flush_and_centred_and_engages_both(battle):
    move, engaged = moves.charge(battle, "a", "b")
    assert move == UnitCharged("a", 0, ((20, 20), (20, 28)), 90.0, target="b", reached=True,
                               start_facing=90.0, footprint=move.footprint)
    assert tuple(fold(battle, [move]).footprint("a").corners) == move.footprint
    assert engaged == UnitsEngaged("a", "b")
    after = fold(battle, [move, engaged])
    assert front_on_edge(after, "a", "b")
    assert after.states["a"].engaged_with == {"b"}
    assert after.states["b"].engaged_with == {"a"}


def test_an_oblique_charge_turns_to_face_the_target_and_ends_flush(battle):
    start = fold(battle, [moves.move_to(battle, "a", (8, 38), 0)])
    after = fold(start, moves.charge(start, "a", "b"))
    assert front_on_edge(after, "a", "b")
    assert not overlaps(after.footprint("a").polygon, after.footprint("b").polygon)


def test_a_charge_slides_along_the_edge_when_the_middle_is_taken(battle):
    # g stands where a would be centred on b's front (x 13.5..18.5, y 27..29).
    crowded = table(w6_unit("g", "Red", 16, 28))
    start = fold(crowded, [moves.move_to(crowded, "a", (25, 20))])
    move, _ = moves.charge(start, "a", "b")
    assert move.path[-1] == pytest.approx((21, 28))  # its left side against g
    assert front_on_edge(move.apply_to(start), "a", "b")


@pytest.mark.parametrize(("unit", "target", "says"), [
    ("a", "f", "'f' is a friend of 'a', not an enemy"),
    ("a", "a", "cannot charge or fight itself"),
    ("a", "nobody", "there is no unit 'nobody'"),
    ("a", "r", r"'r' is not on the table \(reserve\)"),
])
def test_a_charge_is_refused_at_the_wrong_target(battle, unit, target, says):
    with pytest.raises(MoveRefused, match=says):
        moves.charge(battle, unit, target)


def test_a_charge_blocked_on_the_way_names_the_blocker(battle):
    walled = table(w6_unit("wall", "Red", 20, 25, files=10, models=10))
    with pytest.raises(MoveRefused, match="'a' would overlap unit 'wall' on the way"):
        moves.charge(walled, "a", "b")


def test_engaging_without_contact_is_refused(battle):
    refused(battle, UnitsEngaged("a", "b"), "'a' does not end flush with 'b': its front "
            "is 8.00 off the front edge of 'b'")
    refused(battle, UnitCharged("a", 0, ((20, 20), (20, 27)), 90, target="b", reached=True),
            "does not end flush with 'b'")


def test_disengaging_frees_both_and_is_refused_while_they_overlap(battle):
    fighting = fold(battle, moves.charge(battle, "a", "b"))
    apart = moves.disengage(fighting, "b", "a").apply_to(fighting)
    assert apart.states["a"].engaged_with == apart.states["b"].engaged_with == frozenset()
    with pytest.raises(MoveRefused, match="'a' is not engaged with 'b'"):
        moves.disengage(apart, "a", "b")
    # Units that fight cannot be moved into each other by a player; an unchecked event can.
    a = fighting.states["a"]
    into = fold(fighting, [UnitMoved("a", 0, (a.center, (20, 28.5)), a.facing)])
    with pytest.raises(MoveRefused, match="'a' overlaps 'b': move them apart"):
        moves.disengage(into, "a", "b")


# --- terrain and turns ----------------------------------------------------------------------


def test_terrain_is_placed_and_removed(battle):
    hill = moves.place_terrain(battle, "hill", [(50, 5), (60, 5), (55, 12)])
    with_hill = hill.apply_to(battle)
    assert [p.id for p in with_hill.terrain] == ["rocks", "hill"]
    assert with_hill.terrain[-1].name == "hill"
    gone = moves.remove_terrain(with_hill, "rocks").apply_to(with_hill)
    assert [p.id for p in gone.terrain] == ["hill"]
    moves.move_to(gone, "f", (42, 28))  # the rocks no longer block it


@pytest.mark.parametrize(("terrain", "points", "impassable", "says"), [
    ("pond", [(18, 18), (22, 18), (20, 23)], True, "would cover unit 'a'"),
    ("rocks", [(50, 5), (60, 5), (55, 12)], False, "already a piece of terrain 'rocks'"),
    ("bow", [(50, 5), (60, 12), (60, 5), (50, 12)], False, "crosses itself"),
    ("edge", [(-1, 5), (5, 5), (2, 9)], False, r"off the table at the left edge"),
    ("line", [(1, 1), (2, 2)], False, "at least three corner points"),
])
def test_terrain_is_refused_when_it_does_not_fit(battle, terrain, points, impassable, says):
    with pytest.raises(MoveRefused, match=says):
        moves.place_terrain(battle, terrain, points, impassable=impassable)


def test_removing_absent_terrain_names_what_there_is(battle):
    with pytest.raises(MoveRefused, match=r"no terrain 'hill' to remove \(there is 'rocks'\)"):
        moves.remove_terrain(battle, "hill")


def test_difficult_ground_is_placed_and_impassable_wins_over_it(battle):
    wood = moves.place_terrain(battle, "wood", [(18, 18), (24, 18), (21, 23)], difficult=True,
                               name="Wood 1")
    assert (wood.difficult, wood.impassable, wood.name) == (True, False, "Wood 1")
    with_wood = wood.apply_to(battle)
    assert with_wood.terrain[-1].kind == "difficult"
    # Difficult ground may go under a unit, and it blocks nothing (no rule reads it yet).
    moves.move_to(with_wood, "f", (21, 16))
    both = moves.place_terrain(battle, "crag", [(50, 5), (60, 5), (55, 12)], impassable=True,
                               difficult=True)
    assert (both.impassable, both.difficult) == (True, False)
    assert both.apply_to(battle).terrain[-1].kind == "impassable"


def test_terrain_moves_by_the_offset_and_can_be_renamed(battle):
    moved = moves.move_terrain(battle, "rocks", 10, -5)
    after = moved.apply_to(battle)
    assert after.terrain[0].points == ((50, 25), (54, 25), (54, 29), (50, 29))
    moves.move_to(after, "f", (42, 28))  # the rocks are no longer there
    renamed = moves.rename_terrain(after, "rocks", "  Old Crag ")
    assert renamed.name == "Old Crag"
    assert renamed.apply_to(after).terrain[0].name == "Old Crag"


@pytest.mark.parametrize(("terrain", "dx", "dy", "says"), [
    ("rocks", -20, -10, r"impassable terrain 'rocks' would then cover unit 'a'"),
    ("rocks", 30, 0, r"terrain 'rocks' would then go off the table at the right edge"),
    ("rocks", 0, 0, r"terrain 'rocks' does not move"),
    ("hill", 1, 1, r"no terrain 'hill' to move \(there is 'rocks'\)"),
    ("rocks", math.nan, 0, r"a terrain move"),
])
def test_terrain_moves_are_refused_when_they_do_not_fit(battle, terrain, dx, dy, says):
    with pytest.raises(MoveRefused, match=says):
        moves.move_terrain(battle, terrain, dx, dy)


def test_renaming_terrain_needs_a_piece_and_a_new_name(battle):
    for terrain, name, says in (("hill", "Hill", r"no terrain 'hill' to rename"),
                                ("rocks", "  ", "needs a name"),
                                ("rocks", "Rocks", "already called 'Rocks'")):
        with pytest.raises(MoveRefused, match=says):
            moves.rename_terrain(battle, terrain, name)


def test_new_terrain_gets_the_first_free_name_of_its_kind(battle):
    assert moves.new_terrain_id(battle, "difficult") == ("wood-1", "Wood 1")
    with_wood = moves.place_terrain(battle, "wood-1", [(50, 5), (60, 5), (55, 12)],
                                    name="Wood 1").apply_to(battle)
    assert moves.new_terrain_id(with_wood, "difficult") == ("wood-2", "Wood 2")
    assert moves.new_terrain_id(with_wood, "impassable") == ("rocks-1", "Rocks 1")
    assert moves.new_terrain_id(with_wood, "open") == ("hill-1", "Hill 1")


def test_turns_follow_one_another(battle):
    assert moves.check(battle, moves.begin_turn(battle)) == TurnBegan(2)
    refused(battle, TurnBegan(3), "turn 1 is followed by turn 2, not 3")


def test_an_engine_move_is_not_a_players_move(battle):
    refused(battle, UnitFled("a", 3, ((20, 20), (20, 17)), 270, away_from="b"),
            "UnitFled is not a player's move")


def test_move_refused_is_a_rule_error():
    assert issubclass(MoveRefused, RuleError)


# --- geometry helpers the window calls ------------------------------------------------------


def test_distances_between_units_and_to_points(battle):
    assert spatial.edge_distance(battle, "a", "b") == pytest.approx(8)
    assert spatial.edge_distance(battle, "a", "f") == pytest.approx(5)
    assert spatial.distance_to_point(battle, "a", (20, 25)) == pytest.approx(4)
    assert spatial.distance_to_point(battle, "a", (20, 20)) == 0


def test_units_within_a_radius_nearest_first(battle):
    assert spatial.units_within(battle, "a", 8) == ["f", "b"]
    assert spatial.units_within(battle, "a", 6) == ["f"]
    assert spatial.units_within(battle, "a", 4.9) == []
    with pytest.raises(ValueError, match="radius"):
        spatial.units_within(battle, "a", -1)


def test_contact_pose_brings_the_front_flush_with_the_targets_nearest_edge(battle):
    """a faces b across 8": its front goes onto b's front (y 29), centred, facing up. c, 5"
    wide at (35, 33) and facing away, is nearest b's right flank (x 22.5, y 29 to 31): it
    turns to face it (180) and stands centred on that edge's middle, 2" deep behind it."""
    pose = moves.contact_pose(battle, "a", "b")
    assert (pose.center, pose.facing) == ((20.0, 28.0), 90.0)
    crowded = table(w6_unit("c", "Red", 35, 33, facing=0))
    pose = moves.contact_pose(crowded, "c", "b")
    assert (pose.center, pose.facing) == (pytest.approx((23.5, 30.0)), 180.0)
    assert [x for x, _ in pose.corners[:2]] == pytest.approx([22.5, 22.5])  # the front line
    assert not overlaps(pose.polygon, crowded.footprint("b").polygon)


def test_the_index_of_an_ancestor_battle_follows_moves(battle):
    spatial.unit_index(battle)  # built here, then carried through the events
    moved = fold(battle, [moves.move_to(battle, "f", (60, 20))])
    assert moved.__dict__["_unit_index"].tree is battle.__dict__["_unit_index"].tree
    assert spatial.units_within(moved, "a", 8) == ["b"]
    assert spatial.units_within(moved, "f", 1) == []
    deployed = fold(moved, [moves.deploy(moved, "r", (30, 20), 90)])
    assert spatial.units_within(deployed, "a", 8) == ["r", "b"]


def test_the_index_is_rebuilt_once_the_overlay_is_too_big(battle):
    tree = spatial.unit_index(battle).tree
    current = battle
    limit = spatial.overlay_limit(3)
    for step in range(limit + 1):
        event = moves.move_to(current, "f", (30 + (step % 2), 20))
        current = event.apply_to(current)
    # Only one unit changed: the overlay holds ids, so it never outgrows the limit here.
    assert spatial.unit_index(current).tree is tree
    assert spatial.unit_index(current).changed == {"f"}


# --- random sequences: only accepted moves are kept, the state stays sound -------------------


FOUR_UNITS = Path(__file__).resolve().parents[1] / "resources" / "scenarios" / "w6-four-units.json"
UNITS = ("boyz", "wolf_riders", "swordsmen", "handgunners")
# Charger and target: the Orcs & Goblins units against the Empire's, and back.
CHARGES = [(a, b) for a in UNITS[:2] for b in UNITS[2:]] + [
    (b, a) for a in UNITS[:2] for b in UNITS[2:]]


def sound(battle: Battle) -> list[str]:
    """What is wrong with the battle: off the table, overlapping, one-sided engagement."""
    found = []
    placed = list(battle.on_table())
    for index, uid in enumerate(placed):
        footprint = battle.footprint(uid)
        if not battle.table.contains(footprint):
            found.append(f"{uid} is off the table")
        for other in placed[index + 1:]:
            if other not in battle.states[uid].engaged_with and overlaps(
                    footprint.polygon, battle.footprint(other).polygon):
                found.append(f"{uid} overlaps {other}")
        found += [f"{uid} stands in {piece.id}" for piece in battle.terrain
                  if piece.impassable and overlaps(footprint.polygon, piece.polygon)]
        for enemy in battle.states[uid].engaged_with:
            if uid not in battle.states[enemy].engaged_with:
                found.append(f"{uid} fights {enemy} alone")
            if not in_contact(footprint, battle.footprint(enemy)):
                found.append(f"{uid} fights {enemy} out of contact")
    return found


def brute_within(battle: Battle, unit: str, radius: float) -> list[str]:
    own = battle.footprint(unit).polygon
    near = sorted((float(own.distance(battle.footprint(o).polygon)), o)
                  for o in battle.on_table() if o != unit)
    return [o for gap, o in near if gap <= radius + 1e-9]


coordinates = st.tuples(st.floats(0, 72), st.floats(0, 48))
steps = st.one_of(
    st.tuples(st.just("deploy"), st.just("wolf_riders"), coordinates, st.floats(0, 359)),
    st.tuples(st.just("move"), st.sampled_from(UNITS), coordinates,
              st.one_of(st.none(), st.floats(0, 359))),
    # A step of a few inches, as players mostly move: far moves are mostly refused.
    st.tuples(st.just("step"), st.sampled_from(UNITS), st.floats(-6, 6), st.floats(-6, 6),
              st.one_of(st.none(), st.floats(0, 359))),
    st.tuples(st.just("wheel"), st.sampled_from(UNITS), st.floats(-180, 180)),
    st.tuples(st.just("reform"), st.sampled_from(UNITS), st.integers(1, 20)),
    st.tuples(st.just("charge"), st.sampled_from(CHARGES)),
    st.tuples(st.just("disengage"), st.sampled_from(UNITS), st.sampled_from(UNITS)),
    st.tuples(st.just("terrain"), coordinates, st.booleans()),
    st.tuples(st.just("unterrain"), st.integers(0, 5)),
    st.tuples(st.just("shift"), st.integers(0, 5), st.floats(-20, 20), st.floats(-20, 20)),
    st.tuples(st.just("undo")),
)


def proposed(battle: Battle, step: tuple, made: int) -> list[Event]:
    kind = step[0]
    if kind == "deploy":
        return [moves.deploy(battle, step[1], step[2], step[3])]
    if kind == "move":
        return [moves.move_to(battle, step[1], step[2], step[3])]
    if kind == "step":
        x, y = battle.states[step[1]].center
        return [moves.move_to(battle, step[1], (x + step[2], y + step[3]), step[4])]
    if kind == "wheel":
        return [moves.wheel(battle, step[1], step[2])]
    if kind == "reform":
        return [moves.reform(battle, step[1], step[2])]
    if kind == "charge":
        return list(moves.charge(battle, *step[1]))
    if kind == "disengage":
        return [moves.disengage(battle, step[1], step[2])]
    if kind == "terrain":
        (x, y), impassable = step[1], step[2]
        return [moves.place_terrain(battle, f"t{made}",
                                    [(x, y), (x + 3, y), (x + 1.5, y + 2)],
                                    impassable=impassable)]
    # Mostly a piece that is there; now and then one that is not.
    ids = [piece.id for piece in battle.terrain] + ["nowhere"]
    if kind == "shift":
        return [moves.move_terrain(battle, ids[step[1] % len(ids)], step[2], step[3])]
    return [moves.remove_terrain(battle, ids[step[1] % len(ids)])]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(steps, min_size=1, max_size=30))
# A reform narrowed the boyz and left the handgunners on their flank engaged out of contact.
@example([("charge", ("handgunners", "boyz")), ("reform", "boyz", 1)])
# Narrowed, then widened back: the enemies moved up make way again.
@example([("charge", ("handgunners", "boyz")), ("reform", "swordsmen", 3),
          ("reform", "boyz", 1), ("reform", "swordsmen", 5), ("reform", "boyz", 10)])
# The Boyz' front was mostly taken by the Swordsmen: the charger slid along it until only a
# corner (0.39") touched. Now it keeps 1" of front on the edge, so it takes their left flank.
@example([("reform", "boyz", 6), ("move", "handgunners", (10.0, 47.0), None),
          ("charge", ("handgunners", "boyz"))])
# One model wide, the charger has less than 1" of front: all of it is on the edge.
@example([("reform", "handgunners", 1), ("charge", ("handgunners", "boyz"))])
def test_random_player_moves_keep_the_battle_sound_and_replayable(sequence):
    loaded = load_scenario(json.loads(FOUR_UNITS.read_text(encoding="utf-8")))
    # The wolf riders wait in reserve; the handgunners stand free to charge from the start.
    start = fold(loaded.battle, [UnitsDisengaged("wolf_riders", "swordsmen")]).update(
        "wolf_riders", status=Status.RESERVE)
    kept: list[list[Event]] = []
    battle = start
    for made, step in enumerate(sequence):
        if step[0] == "undo":
            if kept:
                kept.pop()
                battle = fold(start, [e for group in kept for e in group])
        else:
            try:
                events = proposed(battle, step, made)
            except MoveRefused:
                continue
            for event in events:
                battle = event.apply_to(battle)
            kept.append(events)
            if step[0] == "charge":
                assert front_on_edge(battle, *step[1])
        flat = [e for group in kept for e in group]
        assert sound(battle) == []
        assert battle == fold(start, flat)
        for event in flat:
            assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
        for unit in battle.on_table():
            assert spatial.units_within(battle, unit, 6) == brute_within(battle, unit, 6)
