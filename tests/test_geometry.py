"""Table geometry (desktop.engine.geometry) and straight moves (desktop.engine.movement).

Rules README, "Shared geometry decisions": footprints are rectangles from formation and base
size; distance is the shortest distance between footprints; "directly away" runs from one
centre through the other; a move is checked along its whole swept path.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Footprint,
    Obstacle,
    ObstacleKind,
    Table,
    contact_interval,
    direction_away,
    distance,
    heading_of,
    heading_vector,
    in_contact,
    overlaps,
    sweep,
    within_radius,
)
from desktop.engine.model import Battle
from desktop.engine.movement import STOP_GAP, flee_around, straight_move
from desktop.engine.scenario import load_scenario

from builders import aftermath, scenario, side, w6_unit

TABLE = Table(72.0, 48.0)


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """Corners of an axis-aligned rectangle, counter-clockwise."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def square(x0: float, y0: float, size: float = 2.0) -> Footprint:
    """An axis-aligned square footprint facing +x with its lower-left corner at (x0, y0)."""
    return Footprint((x0 + size / 2, y0 + size / 2), 0.0, size, size)


def battle(*units: dict, terrain: list[dict] | None = None,
           table: tuple[float, float] = (72, 48)) -> Battle:
    """A W6 battle through the scenario format; the resolve pairs the first unit with an enemy.

    The resolve is only there because a scenario needs one; the movement functions under test
    do not look at who is engaged with whom.
    """
    first = units[0]
    enemy = next(u for u in units if u["player"] != first["player"])
    data = scenario(list(units), aftermath((side(first["id"]), side(enemy["id"]))),
                    table=table, terrain=terrain or [])
    return load_scenario(data).battle


def block(unit_id: str, player: str, x: float, y: float, **fields) -> dict:
    """A 5-wide, 2-deep unit on 1" bases facing up the table (10 models)."""
    return w6_unit(unit_id, player, x, y, models=10, files=5, **fields)


def far_enemy() -> dict:
    return block("far", "Them", 66, 4)


# --- facing convention -----------------------------------------------------------------------


@pytest.mark.parametrize(("degrees", "vector"), [
    (0, (1.0, 0.0)), (90, (0.0, 1.0)), (180, (-1.0, 0.0)), (270, (0.0, -1.0)),
    (45, (math.sqrt(0.5), math.sqrt(0.5))), (-90, (0.0, -1.0))])
def test_facing_is_degrees_counter_clockwise_from_plus_x(degrees, vector):
    assert heading_vector(degrees) == pytest.approx(vector, abs=1e-12)


@pytest.mark.parametrize(("vector", "degrees"), [
    ((1, 0), 0.0), ((0, 1), 90.0), ((-1, 0), 180.0), ((0, -1), 270.0), ((1, -1), 315.0),
    ((-3, 3), 135.0), ((1, 1e-12), pytest.approx(0.0, abs=1e-9))])
def test_heading_of_is_in_0_to_360(vector, degrees):
    result = heading_of(vector)
    assert 0.0 <= result < 360.0
    assert result == degrees


def test_heading_of_inverts_heading_vector():
    for degrees in (0.0, 12.5, 90.0, 179.0, 181.0, 270.0, 359.5):
        assert heading_of(heading_vector(degrees)) == pytest.approx(degrees)


# --- footprints ----------------------------------------------------------------------------


def test_footprint_from_formation_is_files_by_base_width_and_ranks_by_base_depth():
    b = battle(w6_unit("cav", "Us", 20, 20, models=8, files=4, base=(1.0, 2.0)),
               w6_unit("inf", "Them", 40, 20, models=12, files=5, base=(0.8, 0.8)))
    cav = b.footprint("cav")
    assert (cav.frontage, cav.depth) == (4.0, 4.0)  # 4 files x 1", 2 ranks x 2"
    assert cav.center == (20, 20) and cav.facing == 90
    inf = b.footprint("inf")
    # 12 models 5 wide: 2 full ranks and a last rank of 2, which still takes a rank's depth.
    assert inf.frontage == pytest.approx(4.0)
    assert inf.depth == pytest.approx(2.4)
    assert inf.polygon.area == pytest.approx(4.0 * 2.4)


def test_footprint_follows_state_after_casualties_and_base_mm_scale():
    data = scenario([w6_unit("a", "Us", 20, 20, models=7, files=7),
                     w6_unit("b", "Them", 40, 20)],
                    aftermath((side("a"), side("b"))))
    del data["units"][0]["base"]
    data["units"][0]["base_mm"] = [25.4, 50.8]
    data["units"][0]["models_lost"] = 4  # 3 left: the unit narrows to 3 files, one rank
    b = load_scenario(data).battle
    fp = b.footprint("a")
    assert (fp.frontage, fp.depth) == pytest.approx((3.0, 2.0))


CORNERS_4_BY_2 = {
    # facing: front-left, front-right, rear-right, rear-left of a 4 wide, 2 deep unit at 0,0
    0: ((1, 2), (1, -2), (-1, -2), (-1, 2)),
    90: ((-2, 1), (2, 1), (2, -1), (-2, -1)),
    180: ((-1, -2), (-1, 2), (1, 2), (1, -2)),
    270: ((2, -1), (-2, -1), (-2, 1), (2, 1)),
}


@pytest.mark.parametrize("facing", sorted(CORNERS_4_BY_2))
def test_corners_are_front_left_front_right_rear_right_rear_left(facing):
    corners = Footprint((0.0, 0.0), facing, 4.0, 2.0).corners
    for got, expected in zip(corners, CORNERS_4_BY_2[facing], strict=True):
        assert got == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("facing", [0.0, 90.0, 180.0, 270.0, 33.0, 147.5, 301.0])
def test_front_edge_lies_towards_the_facing(facing):
    center, frontage, depth = (10.0, 7.0), 5.0, 3.0
    fl, fr, rr, rl = Footprint(center, facing, frontage, depth).corners
    hx, hy = heading_vector(facing)
    front_mid = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    rear_mid = ((rl[0] + rr[0]) / 2, (rl[1] + rr[1]) / 2)
    assert front_mid == pytest.approx((center[0] + hx * depth / 2, center[1] + hy * depth / 2))
    assert rear_mid == pytest.approx((center[0] - hx * depth / 2, center[1] - hy * depth / 2))
    # Front-right is on the unit's right hand: the heading turned 90 degrees clockwise.
    assert (fr[0] - fl[0], fr[1] - fl[1]) == pytest.approx((hy * frontage, -hx * frontage))
    assert math.dist(fr, rr) == pytest.approx(depth)


def test_moved_and_turned():
    fp = Footprint((1.0, 2.0), 90.0, 4.0, 2.0)
    assert fp.moved(3.0, -1.0) == Footprint((4.0, 1.0), 90.0, 4.0, 2.0)
    turned = fp.turned(450.0)
    assert turned.facing == 90.0 and turned.center == fp.center
    assert fp.turned(-90.0).facing == 270.0


# --- distance, contact, overlap ------------------------------------------------------------


def test_distance_touching_is_zero_and_gaps_are_exact():
    a = square(0, 0)
    assert distance(a, square(2, 0)) == 0.0
    assert distance(a, square(5, 0)) == pytest.approx(3.0)
    assert distance(a, square(0, 2.5)) == pytest.approx(0.5)
    # Corner to corner across a diagonal gap of 3 by 4.
    assert distance(a, square(5, 6)) == pytest.approx(5.0)
    assert distance(a, square(1, 1)) == 0.0  # overlapping


def _segment_point_distance(p, a, b) -> float:
    ax, ay = a
    ex, ey = b[0] - ax, b[1] - ay
    t = ((p[0] - ax) * ex + (p[1] - ay) * ey) / (ex * ex + ey * ey)
    t = min(max(t, 0.0), 1.0)
    return math.dist(p, (ax + t * ex, ay + t * ey))


def _independent_distance(a: Footprint, b: Footprint) -> float:
    """Distance between two disjoint convex polygons: the nearest vertex-to-edge pair."""
    def edges(points):
        return [(points[i], points[(i + 1) % 4]) for i in range(4)]
    return min(min(_segment_point_distance(p, *e) for p in a.corners for e in edges(b.corners)),
               min(_segment_point_distance(p, *e) for p in b.corners for e in edges(a.corners)))


def test_distance_of_rotated_footprints():
    # A 45-degree square of side sqrt(2) is the diamond |x| + |y| <= 1.
    diamond = Footprint((0.0, 0.0), 45.0, math.sqrt(2), math.sqrt(2))
    assert distance(diamond, square(3, -1)) == pytest.approx(2.0)
    # Its upper-right edge x + y = 1 is 2/sqrt(2) from the corner (2, 2) of a square there.
    assert distance(diamond, square(2, 2)) == pytest.approx(3 / math.sqrt(2))
    for facing_a, facing_b, centre_b in [(30.0, 75.0, (6.0, 1.0)), (10.0, 200.0, (-2.0, 7.0)),
                                         (123.0, 0.0, (5.5, -4.0))]:
        a = Footprint((0.0, 0.0), facing_a, 4.0, 2.0)
        b = Footprint(centre_b, facing_b, 3.0, 1.5)
        assert distance(a, b) == pytest.approx(_independent_distance(a, b), abs=1e-9)
        assert distance(a, b) > 0.5


def test_in_contact_uses_a_small_tolerance():
    a = square(0, 0)
    assert in_contact(a, square(2, 0))
    assert in_contact(a, square(2 + CONTACT_TOLERANCE * 0.9, 0))
    assert not in_contact(a, square(2 + CONTACT_TOLERANCE * 1.1, 0))
    assert in_contact(a, square(2.3, 0), tolerance=0.3)
    assert not in_contact(a, square(2.3, 0), tolerance=0.2)


def test_overlaps_needs_shared_area_touching_is_not_overlapping():
    a = square(0, 0).polygon
    assert not overlaps(a, square(2, 0).polygon)  # shared edge
    assert not overlaps(a, square(2, 2).polygon)  # shared corner
    assert not overlaps(a, square(3, 0).polygon)
    assert overlaps(a, square(1.9, 0).polygon)
    assert overlaps(a, square(0.5, 0.5, size=0.5).polygon)  # wholly inside
    assert not overlaps(a, square(2 - 1e-8, 0).polygon)  # rounding noise


def test_within_radius_counts_exactly_6_inches_but_not_6_01():
    centre = square(0, 0)
    others = {
        "at6": square(8, 0),  # gap exactly 6
        "at601": square(8.01, 0),
        "diag": square(2 + 3.6, 2 + 4.8),  # corner to corner 6 across a 3.6 by 4.8 gap
        "inside": square(1, 1),
        "far": square(0, 20),
    }
    assert within_radius(centre, others, 6.0) == ["at6", "diag", "inside"]


def test_within_radius_measures_from_the_nearest_points_not_the_centres():
    centre = Footprint((0.0, 0.0), 90.0, 10.0, 2.0)  # x from -5 to 5
    # Its centre is 11.5 away, its nearest corner 5.5 away.
    other = Footprint((11.5, 0.0), 90.0, 2.0, 2.0)
    assert within_radius(centre, {"x": other}, 6.0) == ["x"]


def test_direction_away_runs_from_the_source_through_the_mover_centre():
    mover = Footprint((3.0, 4.0), 90.0, 2.0, 2.0)
    assert direction_away((0.0, 0.0), mover) == pytest.approx((0.6, 0.8))
    assert direction_away((3.0, 10.0), mover) == pytest.approx((0.0, -1.0))


def test_direction_away_with_coincident_centres_is_straight_back():
    mover = Footprint((3.0, 4.0), 30.0, 2.0, 2.0)
    hx, hy = heading_vector(30.0)
    assert direction_away((3.0, 4.0), mover) == pytest.approx((-hx, -hy))


# --- contact_interval -------------------------------------------------------------------------


def test_contact_interval_square_sliding_right():
    # Its right edge meets x = 5 after 3; its left edge leaves x = 7 after 7.
    assert contact_interval(box(0, 0, 2, 2), box(5, 0, 7, 2), (1.0, 0.0)) == (3.0, 7.0)
    # Partly level with it: still edge to edge.
    assert contact_interval(box(0, 0, 2, 2), box(5, 1, 7, 4), (1.0, 0.0)) == (3.0, 7.0)
    # Sliding away from it: the contact lies behind, at negative distances.
    assert contact_interval(box(0, 0, 2, 2), box(5, 0, 7, 2), (-1.0, 0.0)) == (-7.0, -3.0)


def test_contact_interval_diagonal_and_rotated():
    s = math.sqrt(0.5)
    # Up and to the right at 45 degrees: the corner (2, 2) reaches (5, 5) after 3*sqrt(2).
    interval = contact_interval(box(0, 0, 2, 2), box(5, 5, 7, 7), (s, s))
    assert interval == pytest.approx((3 * math.sqrt(2), 7 * math.sqrt(2)))
    # A diamond |x| + |y| <= 1 sliding right towards a square at x 4..6, y -0.5..0.5:
    # its tip touches after 3; the diamond's left tip passes x = 6 after 7.
    diamond = Footprint((0.0, 0.0), 45.0, math.sqrt(2), math.sqrt(2)).corners
    assert contact_interval(diamond, box(4, -0.5, 6, 0.5), (1.0, 0.0)) == pytest.approx(
        (3.0, 7.0))
    # Same square lifted to y 0.5..1.5: the diamond's upper-right edge (x + y = 1) meets the
    # corner (4, 0.5) when x = 0.5, after 3.5; its upper-left edge leaves (6, 0.5) after 6.5.
    assert contact_interval(diamond, box(4, 0.5, 6, 1.5), (1.0, 0.0)) == pytest.approx(
        (3.5, 6.5))


def test_contact_interval_is_none_when_it_never_touches():
    assert contact_interval(box(0, 0, 2, 2), box(5, 3, 7, 5), (1.0, 0.0)) is None
    assert contact_interval(box(0, 0, 2, 2), box(0, 5, 2, 7), (1.0, 0.0)) is None


def _rectangle(data) -> tuple[tuple[float, float], ...]:
    return Footprint(data["center"], data["facing"], data["frontage"], data["depth"]).corners


coordinate = st.floats(-8.0, 8.0, allow_nan=False)
rectangles = st.fixed_dictionaries({
    "center": st.tuples(coordinate, coordinate),
    "facing": st.floats(0.0, 360.0, allow_nan=False),
    "frontage": st.floats(0.3, 5.0),
    "depth": st.floats(0.3, 5.0),
})
# Centres at most 16 * sqrt(2) apart and half-diagonals at most 5 * sqrt(2) / 2 each: every
# contact lies within 30 either way.
GRID_STEP = 0.02
GRID = np.arange(-30.0, 30.0 + GRID_STEP, GRID_STEP)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moving=rectangles, obstacle=rectangles, angle=st.floats(0.0, 360.0, allow_nan=False))
@example(moving={"center": (0.0, 0.0), "facing": 0.0, "frontage": 1.0, "depth": 1.0},
         obstacle={"center": (0.0, 1.0), "facing": 360.0, "frontage": 1.0, "depth": 1.0},
         angle=0.0)  # sliding along a shared edge
def test_contact_interval_agrees_with_a_brute_force_scan(moving, obstacle, angle):
    """Slide the moving rectangle along a fine grid of distances and ask shapely."""
    corners, other = _rectangle(moving), _rectangle(obstacle)
    direction = heading_vector(angle)
    interval = contact_interval(corners, other, direction)

    grid = GRID
    base = np.array(corners + corners[:1])
    shifts = np.stack([grid * direction[0], grid * direction[1]], axis=1)
    shapes = shapely.polygons(base[None, :, :] + shifts[:, None, :])
    target = Polygon(other)
    gaps = shapely.distance(shapes, target)
    # Shapes that only graze (a shared edge) can sit 1e-16 apart after rounding the corners
    # of a unit facing 360: that is contact too.
    touching = shapely.intersects(shapes, target) | (gaps < 1e-9)
    tolerance = 2 * GRID_STEP

    if interval is None:
        assert not touching.any()
        return
    enter, leave = interval
    assert enter <= leave
    # Where the scan sees contact, the interval must say contact.
    seen = grid[touching]
    if seen.size:
        assert enter - tolerance <= seen.min() and seen.max() <= leave + tolerance
    # Inside the interval the convex shapes touch (up to the grid's resolution) ...
    inside = (grid > enter + tolerance) & (grid < leave - tolerance)
    assert touching[inside].all()
    # ... and at its ends they are exactly in contact.
    for t in (enter, leave):
        moved = Polygon([(x + direction[0] * t, y + direction[1] * t) for x, y in corners])
        assert moved.distance(target) < 1e-6
    # Outside it, with some margin, they are apart.
    outside = (grid < enter - tolerance) | (grid > leave + tolerance)
    assert (gaps[outside] > 0).all()


# --- the table -----------------------------------------------------------------------------


def test_table_contains_footprints_up_to_its_edges():
    table = Table(10.0, 5.0)
    assert table.contains(Footprint((1.0, 1.0), 90.0, 2.0, 2.0))  # corner on the origin
    assert table.contains(Footprint((9.0, 4.0), 0.0, 2.0, 2.0))  # corner on the far corner
    assert not table.contains(Footprint((0.99, 1.0), 90.0, 2.0, 2.0))
    assert not table.contains(Footprint((5.0, 4.5), 90.0, 2.0, 2.0))
    # A 45-degree square whose tips just reach the edges, and one that pokes over.
    assert table.contains(Footprint((1.0, 1.0), 45.0, math.sqrt(2), math.sqrt(2)))
    assert not table.contains(Footprint((0.9, 2.5), 45.0, math.sqrt(2), math.sqrt(2)))


def test_table_exit_distance():
    table = Table(10.0, 5.0)
    assert table.exit_distance([(1.0, 1.0)], (1.0, 0.0)) == pytest.approx(9.0)
    assert table.exit_distance([(1.0, 1.0)], (-1.0, 0.0)) == pytest.approx(1.0)
    assert table.exit_distance([(1.0, 1.0)], (0.0, -1.0)) == pytest.approx(1.0)
    # Diagonal: the top edge (4 up at 0.8 a unit) comes before the right edge (5 at 0.6).
    assert table.exit_distance([(5.0, 1.0)], (0.6, 0.8)) == pytest.approx(5.0)
    # Several points: the first to leave decides.
    assert table.exit_distance([(1.0, 1.0), (8.0, 1.0)], (1.0, 0.0)) == pytest.approx(2.0)
    # A point already off the table has left at once.
    assert table.exit_distance([(11.0, 1.0)], (1.0, 0.0)) == 0.0
    assert table.exit_distance([(1.0, 1.0)], (0.0, 0.0)) == math.inf


# --- sweep ---------------------------------------------------------------------------------


def test_sweep_reports_crossings_in_order_with_kind_and_interval():
    start = square(0, 0)  # x 0..2, y 0..2, moving right
    obstacles = [
        Obstacle("rock", ObstacleKind.IMPASSABLE, box(20, -1, 22, 5)),
        Obstacle("enemy", ObstacleKind.ENEMY, box(12, 1, 14, 3)),
        Obstacle("friend", ObstacleKind.FRIEND, box(5, -3, 8, 0.5)),
        Obstacle("aside", ObstacleKind.ENEMY, box(5, 4, 8, 6)),  # never in the path
    ]
    swept = sweep(start, (1.0, 0.0), 25.0, Table(72.0, 48.0), obstacles)
    got = [(c.id, c.kind, c.enter, c.leave) for c in swept.crossings]
    assert got == [
        ("friend", ObstacleKind.FRIEND, pytest.approx(3.0), pytest.approx(8.0)),
        ("enemy", ObstacleKind.ENEMY, pytest.approx(10.0), pytest.approx(14.0)),
        ("rock", ObstacleKind.IMPASSABLE, pytest.approx(18.0), pytest.approx(22.0)),
    ]
    assert swept.leaves_table_at is None
    assert swept.end() == square(25, 0)
    assert swept.end(4.0) == square(4, 0)


def test_sweep_ignores_what_lies_beyond_its_length():
    obstacles = [Obstacle("enemy", ObstacleKind.ENEMY, box(12, 0, 14, 2))]
    assert sweep(square(0, 0), (1.0, 0.0), 9.0, TABLE, obstacles).crossings == ()
    # Ending exactly in contact is not a crossing either.
    assert sweep(square(0, 0), (1.0, 0.0), 10.0, TABLE, obstacles).crossings == ()


def test_sweep_reports_where_it_leaves_the_table():
    swept = sweep(square(60, 10), (1.0, 0.0), 20.0, TABLE, [])
    assert swept.leaves_table_at == pytest.approx(10.0)  # right edge x 62 -> 72
    up = sweep(square(60, 10), heading_vector(90), 20.0, TABLE, [])
    assert up.leaves_table_at is None
    assert sweep(square(60, 10), (1.0, 0.0), 10.0, TABLE, []).leaves_table_at is None


def test_sweep_ignores_an_obstacle_it_slides_alongside_while_touching():
    # The moving square's top edge runs along the wall's bottom edge: contact, no overlap.
    wall = Obstacle("wall", ObstacleKind.IMPASSABLE, box(3, 2, 9, 4))
    friend = Obstacle("friend", ObstacleKind.FRIEND, box(-1, -3, 15, 0))  # along its base
    swept = sweep(square(0, 0), (1.0, 0.0), 12.0, TABLE, [wall, friend])
    assert swept.crossings == ()
    assert contact_interval(square(0, 0).corners, wall.points, (1.0, 0.0)) is not None


def test_sweep_reports_an_obstacle_it_starts_in_with_enter_at_or_before_zero():
    inside = Obstacle("enemy", ObstacleKind.ENEMY, box(1, 0, 3, 2))  # overlaps x 1..2
    swept = sweep(square(0, 0), (1.0, 0.0), 5.0, TABLE, [inside])
    (crossing,) = swept.crossings
    assert crossing.id == "enemy" and crossing.enter <= 0.0
    assert crossing.enter == pytest.approx(-1.0) and crossing.leave == pytest.approx(3.0)


def test_sweep_leaves_behind_what_it_touches_at_the_start():
    behind = Obstacle("enemy", ObstacleKind.ENEMY, box(-2, 0, 0, 2))
    assert sweep(square(0, 0), (1.0, 0.0), 5.0, TABLE, [behind]).crossings == ()


# --- straight moves on small battles ----------------------------------------------------------
# The mover is 5 wide and 2 deep at (10, 10) facing up: x 7.5..12.5, y 9..11.

ROCK = {"id": "rock", "name": "Rock", "points": [[5, 15], [15, 15], [15, 17], [5, 17]],
        "impassable": True}
WOOD = {"id": "wood", "name": "Wood", "points": [[5, 15], [15, 15], [15, 17], [5, 17]]}


def test_straight_move_stops_short_of_impassable_terrain():
    b = battle(block("mover", "Us", 10, 10), far_enemy(), terrain=[ROCK])
    plan = straight_move(b, "mover", 90.0, 10.0, through_friends=False)
    assert plan.travelled == pytest.approx(4.0 - STOP_GAP)
    assert plan.end == pytest.approx((10.0, 10.0 + 4.0 - STOP_GAP))
    assert (plan.blocked_by, plan.blocked_kind, plan.contacted_enemy) == ("rock", "impassable", "")
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert not overlaps(end.polygon, Polygon(ROCK["points"]))
    assert plan.path == ((10, 10), plan.end) and not plan.left_table


def test_straight_move_crosses_terrain_that_is_not_impassable():
    b = battle(block("mover", "Us", 10, 10), far_enemy(), terrain=[WOOD])
    plan = straight_move(b, "mover", 90.0, 10.0, through_friends=False)
    assert plan.travelled == pytest.approx(10.0) and plan.blocked_by == ""


def test_straight_move_contacts_an_enemy_in_the_way():
    b = battle(block("mover", "Us", 10, 10), block("enemy", "Them", 11, 16, facing=270))
    plan = straight_move(b, "mover", 90.0, 10.0, through_friends=True)
    assert plan.travelled == pytest.approx(4.0)
    assert plan.contacted_enemy == "enemy" and plan.blocked_kind == "enemy"
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert distance(end, b.footprint("enemy")) < CONTACT_TOLERANCE
    assert not overlaps(end.polygon, b.footprint("enemy").polygon)


def test_straight_move_turns_to_its_heading_about_its_centre():
    b = battle(block("mover", "Us", 10, 10), block("enemy", "Them", 30, 9.5, facing=270))
    # Turned to face +x its frontage runs along y and its 2" depth along x: front at x 11.
    # The enemy (y 9..11 over x 27.5..32.5) is met after 16.5.
    plan = straight_move(b, "mover", 0.0, 30.0, through_friends=False)
    assert plan.facing == 0.0
    assert plan.travelled == pytest.approx(16.5)
    assert plan.contacted_enemy == "enemy"


def test_straight_move_through_friends_ends_the_gap_beyond_the_far_side():
    b = battle(block("mover", "Us", 10, 10), block("friend", "Us", 10, 16), far_enemy())
    # 5 would end inside the friend (y 15..17): it is placed 3 beyond, its rear at y 20.
    plan = straight_move(b, "mover", 90.0, 5.0, through_friends=True, beyond_gap=3.0)
    assert plan.passed_through == ("friend",)
    assert plan.travelled == pytest.approx(11.0)
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert min(y for _, y in end.corners) == pytest.approx(17.0 + 3.0)
    assert plan.blocked_by == ""


def test_straight_move_through_a_friend_it_clears_keeps_its_roll():
    b = battle(block("mover", "Us", 10, 10), block("friend", "Us", 10, 16), far_enemy())
    plan = straight_move(b, "mover", 90.0, 12.0, through_friends=True, beyond_gap=3.0)
    assert plan.travelled == pytest.approx(12.0) and plan.passed_through == ("friend",)


def test_straight_move_not_through_friends_stops_short_of_one():
    b = battle(block("mover", "Us", 10, 10), block("friend", "Us", 10, 16), far_enemy())
    plan = straight_move(b, "mover", 90.0, 5.0, through_friends=False)
    assert plan.travelled == pytest.approx(4.0 - STOP_GAP)
    assert (plan.blocked_by, plan.blocked_kind, plan.contacted_enemy) == (
        "friend", "friend", "")


def test_straight_move_through_friends_stays_short_when_an_enemy_is_behind_them():
    # Beyond the friend (y 15..17) lies an enemy at y 18..20: no room to end past the friend.
    b = battle(block("mover", "Us", 10, 10), block("friend", "Us", 10, 16),
               block("enemy", "Them", 10, 19, facing=270))
    plan = straight_move(b, "mover", 90.0, 5.0, through_friends=True, beyond_gap=3.0)
    assert plan.travelled == pytest.approx(4.0 - STOP_GAP)
    assert plan.passed_through == ()
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert not overlaps(end.polygon, b.footprint("friend").polygon)


def test_straight_move_stay_on_table_stops_at_the_edge():
    b = battle(block("mover", "Us", 10, 40), far_enemy())
    # Front edge y 41 -> table edge 48 after 7.
    plan = straight_move(b, "mover", 90.0, 12.0, through_friends=True, stay_on_table=True)
    assert plan.travelled == pytest.approx(7.0 - STOP_GAP)
    assert not plan.left_table
    assert b.table.contains(b.footprint("mover").moved(0.0, plan.travelled))


def test_straight_move_reports_leaving_the_table():
    b = battle(block("mover", "Us", 10, 40), far_enemy())
    plan = straight_move(b, "mover", 90.0, 12.0, through_friends=True)
    assert plan.left_table
    assert plan.travelled == pytest.approx(7.0)
    assert plan.blocked_by == ""
    short = straight_move(b, "mover", 90.0, 6.0, through_friends=True)
    assert not short.left_table and short.travelled == pytest.approx(6.0)


def test_straight_move_halt_before_stops_short_of_the_named_enemy():
    b = battle(block("mover", "Us", 10, 10), block("enemy", "Them", 11, 16, facing=270))
    plan = straight_move(b, "mover", 90.0, 10.0, through_friends=False,
                         halt_before=frozenset({"enemy"}))
    assert plan.contacted_enemy == ""
    assert plan.blocked_by == "enemy"
    assert plan.travelled == pytest.approx(4.0 - STOP_GAP)
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert distance(end, b.footprint("enemy")) == pytest.approx(STOP_GAP)


def test_straight_move_ignore_removes_a_unit_from_the_way():
    b = battle(block("mover", "Us", 10, 10), block("enemy", "Them", 11, 16, facing=270))
    plan = straight_move(b, "mover", 90.0, 10.0, through_friends=False,
                         ignore=frozenset({"enemy"}))
    assert plan.travelled == pytest.approx(10.0) and plan.blocked_by == ""


def test_straight_move_runs_free_of_the_enemy_it_starts_overlapping():
    # Facing +x the mover is x 9..11, y 7.5..12.5; the enemy beside it is x 11.5..16.5.
    # Turned to face up it is x 7.5..12.5 and overlaps the enemy, which does not stop it.
    b = battle(block("mover", "Us", 10, 10, facing=0), block("enemy", "Them", 14, 10))
    assert not overlaps(b.footprint("mover").polygon, b.footprint("enemy").polygon)
    assert overlaps(b.footprint("mover").turned(90.0).polygon, b.footprint("enemy").polygon)
    plan = straight_move(b, "mover", 90.0, 5.0, through_friends=False)
    assert plan.travelled == pytest.approx(5.0) and plan.blocked_by == ""


def test_straight_move_does_not_pass_through_an_enemy_it_touches_ahead():
    # mover y 9..11, enemy y 11..13 directly in front: in base contact, no overlap. The sweep
    # meets it at enter == 0.0, which is "in the way", not "already overlapped".
    b = battle(block("mover", "Us", 10, 10), block("enemy", "Them", 10, 12, facing=270))
    assert distance(b.footprint("mover"), b.footprint("enemy")) == 0.0
    plan = straight_move(b, "mover", 90.0, 5.0, through_friends=False)
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert not overlaps(end.polygon, b.footprint("enemy").polygon)
    assert plan.contacted_enemy == "enemy" and plan.travelled == pytest.approx(0.0)


def test_flee_around_goes_round_a_friend_in_the_way():
    # A 3-wide friend right ahead: a slightly deflected heading clears it.
    friend = w6_unit("friend", "Us", 10, 16, models=3, files=3)
    b = battle(block("mover", "Us", 10, 10), friend, far_enemy())
    plan = flee_around(b, "mover", 90.0, 10.0)
    assert plan.facing != 90.0
    assert abs(plan.facing - 90.0) <= 45.0
    assert plan.travelled == pytest.approx(10.0)
    assert plan.passed_through == () and plan.blocked_by == ""
    swept = sweep(b.footprint("mover").turned(plan.facing), heading_vector(plan.facing),
                  plan.travelled, b.table, [])
    assert not overlaps(swept.area, b.footprint("friend").polygon)


def test_flee_around_goes_through_friends_when_no_heading_is_clear():
    # A line of friends far wider than any deflection can get round.
    # The line is one rank, y 13.5..14.5; 4 would end inside it, so the mover (rear at y 9)
    # ends just beyond its far side.
    friends = w6_unit("line", "Us", 36, 14, models=60, files=60)
    b = battle(block("mover", "Us", 36, 10), friends, far_enemy())
    plan = flee_around(b, "mover", 90.0, 4.0)
    assert plan.facing == 90.0
    assert plan.passed_through == ("line",)
    assert plan.travelled == pytest.approx(5.5 + STOP_GAP)
    end = b.footprint("mover").moved(0.0, plan.travelled)
    assert not overlaps(end.polygon, b.footprint("line").polygon)


def test_flee_around_keeps_away_from_enemies_when_asked():
    # Mover x 33.5..38.5, y 9..11; an enemy up ahead and just to the right, x 39..44,
    # y 19..21: fleeing straight up passes 0.5 from it; keeping 4 away bends the path left.
    b = battle(block("mover", "Us", 36, 10), block("enemy", "Them", 41.5, 20, facing=270))
    straight = flee_around(b, "mover", 90.0, 10.0)
    assert straight.facing == 90.0
    kept = flee_around(b, "mover", 90.0, 10.0, keep_away=4.0)
    assert kept.facing > 90.0
    swept = sweep(b.footprint("mover").turned(kept.facing), heading_vector(kept.facing),
                  kept.travelled, b.table, [])
    assert swept.area.distance(b.footprint("enemy").polygon) >= 4.0 - 1e-9
