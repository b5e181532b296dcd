"""Where the units are, fast: an STRtree over footprints, and the queries a window asks.

A battle never changes and every event makes a new one, so the tree of an ancestor battle is
kept (`Battle.with_state` hands it on) with a small overlay of the units that changed since;
those are checked directly. When the overlay outgrows `overlay_limit` the tree is rebuilt,
so a long sequence of moves costs a rebuild only every few dozen moves, not one per move.

Only units on the table are indexed: units in reserve, destroyed or gone are never found.
The rulesets ask it who touches a unit, who is nearest and who stands within a radius, and
get the answers a look at every unit would give, in the same (roster) order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from desktop.engine import sight
from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Footprint,
    Point,
    heading_vector,
    in_contact,
)
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle, UnitState

if TYPE_CHECKING:
    from shapely import STRtree
    from shapely.geometry.base import BaseGeometry


_KEY = "_unit_index"
_EPSILON = 1e-9
# Nearness is judged on distances rounded to this many places (ties go to the roster order).
_NEAR_PLACES = 6
_FIRST_REACH = 6.0  # how far `nearest` looks first, in table units; then twice as far...
# A battle of this many units or fewer is searched unit by unit, without the tree: for a
# handful of units a look at each box is far cheaper than a query (a forecast asks
# thousands), and it finds the same units.
LINEAR_UP_TO = 16
_BOXES_KEY = "_unit_boxes"


def overlay_limit(indexed: int) -> int:
    """How many changed units are checked directly before the tree is rebuilt.

    A query pays for the overlay, a rebuild for every unit: about sqrt(n) balances the two.
    """
    return max(32, int(2 * math.sqrt(indexed)))


@dataclass(frozen=True)
class UnitIndex:
    tree: STRtree
    ids: tuple[str, ...]  # tree position -> unit id
    changed: frozenset[str] = frozenset()  # units whose tree entry may no longer be true

    def after(self, old: UnitState | None, new: UnitState) -> UnitIndex:
        """The index of a battle in which `old` became `new`."""
        if old is not None and (old.center, old.facing, old.files, old.models,
                                old.status.on_table) == (new.center, new.facing, new.files,
                                                         new.models, new.status.on_table):
            return self  # same ground covered (a flag, a modifier, an engagement changed)
        return UnitIndex(self.tree, self.ids, self.changed | {new.unit_id})

    @property
    def stale(self) -> bool:
        return len(self.changed) > overlay_limit(len(self.ids))


def unit_index(battle: Battle) -> UnitIndex:
    """The battle's index, built on first use and rebuilt when its overlay grew too big."""
    found: UnitIndex | None = battle.__dict__.get(_KEY)
    if found is None or found.stale:
        ids = tuple(battle.on_table())
        found = UnitIndex(shapely.STRtree([battle.footprint(uid).polygon for uid in ids]), ids)
        battle.__dict__[_KEY] = found
    return found


def _changed_hits(battle: Battle, index: UnitIndex, shape: BaseGeometry,
                  reach: float) -> Iterator[str]:
    """Overlay units whose current footprint's bounding box comes within `reach` of `shape`."""
    min_x, min_y, max_x, max_y = shape.bounds
    for uid in index.changed:
        if not battle.states[uid].status.on_table:
            continue
        # From the corners: cheaper than building the shapely polygon of every changed unit.
        corners = battle.footprint(uid).corners
        f_min_x, f_max_x = min(x for x, _ in corners), max(x for x, _ in corners)
        f_min_y, f_max_y = min(y for _, y in corners), max(y for _, y in corners)
        if (f_min_x <= max_x + reach and f_max_x >= min_x - reach
                and f_min_y <= max_y + reach and f_max_y >= min_y - reach):
            yield uid


def candidates(battle: Battle, shape: BaseGeometry, reach: float = 0.0,
               only: sight.Only | None = None, *, report: bool = True) -> list[str]:
    """Units on the table whose bounding box comes within `reach` of `shape`'s bounding box.

    A superset of what touches `shape`: callers test the few candidates exactly (those
    `only` takes, when given: the read reports that the others do not matter). Without
    `report` the caller reports what its answer really rests on (`sight.read`).
    """
    min_x, min_y, max_x, max_y = shape.bounds
    box = (min_x - reach, min_y - reach, max_x + reach, max_y + reach)
    if _few(battle):
        return in_box(battle, box, only, report=report)
    if report:
        sight.read(box, only)
    index = unit_index(battle)
    if reach > 0:
        shape = shapely.box(*box)
    found = [index.ids[i] for i in index.tree.query(shape)
             if index.ids[i] not in index.changed]
    found.extend(_changed_hits(battle, index, shape, 0.0))  # shape already reaches out
    return found


def in_box(battle: Battle, box: tuple[float, float, float, float],
           only: sight.Only | None = None, *, report: bool = True) -> list[str]:
    """Units on the table whose bounding box meets `box` (min x, min y, max x, max y), edges
    included, in roster order: what `candidates` finds for a box."""
    low_x, low_y, high_x, high_y = box
    if not _few(battle):
        return battle.in_roster_order(candidates(battle, shapely.box(*box), only=only,
                                                 report=report))
    if report:
        sight.read(box, only)
    return [uid for uid, (u_low_x, u_low_y, u_high_x, u_high_y) in _boxes(battle)
            if u_low_x <= high_x and u_high_x >= low_x and u_low_y <= high_y
            and u_high_y >= low_y]


def _few(battle: Battle) -> bool:
    return len(battle.states) <= LINEAR_UP_TO


def _boxes(battle: Battle) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each unit on the table with its footprint's bounding box, in roster order, kept with
    the battle (a battle never changes)."""
    found: list[tuple[str, tuple[float, float, float, float]]] | None = (
        battle.__dict__.get(_BOXES_KEY))
    if found is None:
        found = battle.__dict__[_BOXES_KEY] = [
            (uid, battle.footprint(uid).bounds) for uid in battle.on_table()]
    return found


def units_within(battle: Battle, unit_id: str, radius: float) -> list[str]:
    """Other units on the table whose footprint comes within `radius` of `unit_id`'s.

    Panic (W6-PT-1: 6") and keep-away (W6-FL-5: 4") radii. Nearest first, then by id.
    """
    if radius < 0 or not math.isfinite(radius):
        raise ValueError(f"a radius must be a distance of 0 or more, not {radius}")
    own = battle.footprint(unit_id).polygon
    near = []
    for uid in candidates(battle, own, radius):
        if uid == unit_id:
            continue
        gap = float(own.distance(battle.footprint(uid).polygon))
        if gap <= radius + _EPSILON:
            near.append((gap, uid))
    return [uid for _, uid in sorted(near)]


def touching_enemies(battle: Battle, unit_id: str) -> list[str]:
    """Enemies on the table in contact with the unit (within CONTACT_TOLERANCE), in roster
    order: what a look at each of `battle.enemies_of(unit_id)` finds."""
    here = battle.footprint(unit_id)
    player = battle.player_of(unit_id)
    return battle.in_roster_order(
        uid for uid in candidates(battle, here.polygon, CONTACT_TOLERANCE)
        if battle.player_of(uid) != player and in_contact(here, battle.footprint(uid)))


def nearest(battle: Battle, unit_id: str, accept: Callable[[str], bool]) -> list[str]:
    """The units on the table that `accept` takes, nearest to `unit_id`: every one at the
    least distance (rounded to 6 places), in roster order; none if `accept` takes none.

    The index is asked for units ever further out, twice as far each time, until the nearest
    found is nearer than the reach: no unit beyond it can then be as near. What it reports
    having read is only as far as the nearest (any other unit `accept` takes outside that
    box is further: the answer stands wherever it is).
    """
    own = battle.footprint(unit_id).polygon
    table = battle.table
    widest = 2 * math.hypot(table.width, table.depth)
    reach = _FIRST_REACH
    while reach < 2 * widest:
        found = [(round(float(own.distance(battle.footprint(uid).polygon)), _NEAR_PLACES), uid)
                 for uid in candidates(battle, own, reach, accept, report=False)
                 if uid != unit_id and accept(uid)]
        if found:
            best = min(gap for gap, _ in found)
            if best + 10.0 ** -_NEAR_PLACES <= reach:
                far = best + 10.0 * 10.0 ** -_NEAR_PLACES  # past the rounding of any gap
                low_x, low_y, high_x, high_y = own.bounds
                sight.read((low_x - far, low_y - far, high_x + far, high_y + far), accept)
                return battle.in_roster_order(uid for gap, uid in found if gap == best)
        reach *= 2
    # Nothing near enough within twice the table's diagonal: look at every unit.
    sight.read(sight.EVERYWHERE, accept)
    found = [(round(float(own.distance(battle.footprint(uid).polygon)), _NEAR_PLACES), uid)
             for uid in battle.on_table() if uid != unit_id and accept(uid)]
    least = min((gap for gap, _ in found), default=None)
    return battle.in_roster_order(uid for gap, uid in found if gap == least)


def edge_distance(battle: Battle, first: str, second: str) -> float:
    """Shortest distance between two units' footprints; 0 when they touch."""
    return float(battle.footprint(first).polygon.distance(battle.footprint(second).polygon))


def closest_points(battle: Battle, first: str, second: str) -> tuple[Point, Point]:
    """The nearest point of each footprint to the other: where `edge_distance` is measured."""
    a, b = shapely.shortest_line(battle.footprint(first).polygon,
                                 battle.footprint(second).polygon).coords
    return (a[0], a[1]), (b[0], b[1])


def distance_to_point(battle: Battle, unit_id: str, point: Point) -> float:
    """From the nearest part of a unit to a point; 0 when the point is under the unit."""
    return float(battle.footprint(unit_id).polygon.distance(shapely.Point(point)))


# --- contact -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    """One side of a footprint: its ends (left to right seen from outside) and outward bearing."""

    name: str
    start: Point
    end: Point
    outward: float

    @property
    def length(self) -> float:
        return math.dist(self.start, self.end)

    @property
    def middle(self) -> Point:
        return ((self.start[0] + self.end[0]) / 2, (self.start[1] + self.end[1]) / 2)


def edges(footprint: Footprint) -> tuple[Edge, Edge, Edge, Edge]:
    """Front, right, rear and left edges; each runs left to right as seen from outside it."""
    front_left, front_right, rear_right, rear_left = footprint.corners
    facing = footprint.facing
    return (Edge("front", front_left, front_right, facing % 360.0),
            Edge("right", front_right, rear_right, (facing - 90.0) % 360.0),
            Edge("rear", rear_right, rear_left, (facing + 180.0) % 360.0),
            Edge("left", rear_left, front_left, (facing + 90.0) % 360.0))


def nearest_edges(mover: Footprint, target: Footprint) -> list[Edge]:
    """The target's edges, the one the mover is closest to first.

    Ties (a mover off a corner is as close to two edges) go to the edge its centre lies
    further out past.
    """
    mover_polygon = mover.polygon

    def rank(edge: Edge) -> tuple[float, float]:
        gap = float(mover_polygon.distance(shapely.LineString([edge.start, edge.end])))
        ox, oy = heading_vector(edge.outward)
        out = (mover.center[0] - edge.middle[0]) * ox + (mover.center[1] - edge.middle[1]) * oy
        return (round(gap, 6), -out)

    return sorted(edges(target), key=rank)


def nearest_edge(mover: Footprint, target: Footprint) -> Edge:
    return nearest_edges(mover, target)[0]


def flush_pose(mover: Footprint, edge: Edge, offset: float = 0.0) -> Footprint:
    """The mover facing `edge` with its front edge on it, its front's middle `offset` along it.

    `offset` runs left to right as seen by the mover (the edge's own direction reversed).
    """
    facing = (edge.outward + 180.0) % 360.0
    fx, fy = heading_vector(facing)
    rx, ry = fy, -fx  # the mover's right hand
    mx, my = edge.middle
    half_depth = mover.depth / 2
    return Footprint((mx - fx * half_depth + rx * offset, my - fy * half_depth + ry * offset),
                     facing, mover.frontage, mover.depth)


def front_gap(mover: Footprint, edge: Edge) -> tuple[float, float]:
    """(How far the mover's front corners are off the edge's line, how much of it they share).

    A front that lies on the edge has the first 0 and the second > 0.
    """
    front_left, front_right = mover.corners[0], mover.corners[1]
    ox, oy = heading_vector(edge.outward)
    off = max(abs((x - edge.start[0]) * ox + (y - edge.start[1]) * oy)
              for x, y in (front_left, front_right))
    length = edge.length
    ux, uy = (edge.end[0] - edge.start[0]) / length, (edge.end[1] - edge.start[1]) / length
    along = [(x - edge.start[0]) * ux + (y - edge.start[1]) * uy
             for x, y in (front_left, front_right)]
    return off, min(max(along), length) - max(min(along), 0.0)


def faces_edge(mover: Footprint, edge: Edge) -> bool:
    """Whether the mover faces towards `edge` rather than away (against its outward bearing)."""
    return abs((mover.facing - edge.outward) % 360.0 - 180.0) < 90.0
