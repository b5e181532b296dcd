"""Shortest bent paths for a rectangle that slides without turning (W6-FL-4).

A unit keeps its orientation while it moves, so where its centre may go is the plane minus
each obstacle grown by the unit's rectangle (the configuration space). For convex shapes
that growth is the convex hull of the sums of their corners; a concave piece of terrain is
grown from its hull, which only ever forbids a little more ground. The shortest path among
polygons bends only at their corners, so a visibility graph over the grown corners plus the
start and the goal, searched with Dijkstra, finds it.

Cost: only obstacles within reach of the move are grown (an STRtree finds them), and every
candidate edge from a corner the search reaches is tested in one vectorised call against
the union of the grown shapes, prepared: a leg stops at the first shape it meets. (Tested
against each shape whose box it crossed, as an STRtree query does, every long leg over a
field of small rocks met hundreds of them: 9,000 small triangles took 13 s, 1,000 took 9.)
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from desktop.engine.geometry import Footprint, Point, convex_hull
from desktop.engine.lazy import numpy as np
from desktop.engine.lazy import shapely

if TYPE_CHECKING:
    from shapely import Polygon, STRtree


# Clearance kept between the path and what it goes round: the planner's corners lie on
# shapes grown by MARGIN, its edges are tested against shapes grown by half of it, so an
# edge along a grown side is never mistaken for one through it.
MARGIN = 0.2
# What a bent path is planned round, at most: the obstacles nearest the way (the straight
# line from the start to the goal), and of their corners those that add the least detour
# (start-corner-goal). The search is quadratic in the corners and each leg it tries is
# tested against the obstacles; a table of ordinary terrain has a few dozen of either near
# any unit, and these bound a field of 10,000 tiny rocks to a second or two. A path found
# among fewer is still walked against everything near the unit (movement.bend_round), so
# a limit can only lose a way round, never let a unit through a rock.
MAX_OBSTACLES = 400
MAX_CORNERS = 1000

def nearby(polygons: Sequence[Polygon], centre: Point, reach: float) -> list[int]:
    """Indexes of the polygons that come within `reach` of `centre`."""
    if not polygons:
        return []
    tree = shapely.STRtree(list(polygons))
    found = tree.query(shapely.Point(centre), predicate="dwithin", distance=reach)
    return sorted(int(index) for index in found)


def grown(points: Sequence[Point], shape: Footprint, margin: float) -> tuple[Point, ...]:
    """Where the centre of `shape` (at its facing) cannot go without overlapping `points`.

    The rectangle is symmetric about its centre, so adding its corner offsets to the
    obstacle's corners is the Minkowski difference the configuration space needs.
    """
    wider = Footprint((0.0, 0.0), shape.facing, shape.frontage + 2 * margin,
                      shape.depth + 2 * margin)
    return convex_hull([(x + dx, y + dy) for x, y in points for dx, dy in wider.corners])


def shortest_path(
    start: Point,
    goal: Point,
    shape: Footprint,
    obstacles: Sequence[Sequence[Point]],
    region: tuple[float, float, float, float],
) -> tuple[Point, ...] | None:
    """The shortest polyline from `start` to `goal` along which `shape` overlaps none of
    `obstacles`, or None. Its corners stay inside `region` (min x, min y, max x, max y), the
    centres that keep the unit on the table; the goal itself may lie outside it.
    """
    return _search(*visibility_graph(start, goal, shape, obstacles, region))


def visibility_graph(
    start: Point,
    goal: Point,
    shape: Footprint,
    obstacles: Sequence[Sequence[Point]],
    region: tuple[float, float, float, float],
) -> tuple[list[Point], STRtree | None]:
    """The places a path may bend at (start and goal first, then the corners of the grown
    obstacles inside `region`, at most MAX_CORNERS of them), and an index of what a straight
    leg between two of them must not cross (None when nothing is in the way). Planned
    round the MAX_OBSTACLES obstacles nearest the way."""
    obstacles = nearest_the_way(obstacles, start, goal, MAX_OBSTACLES)
    outer = [shapely.Polygon(grown(points, shape, MARGIN)) for points in obstacles]
    inner = [shapely.Polygon(grown(points, shape, MARGIN / 2)) for points in obstacles]
    min_x, min_y, max_x, max_y = region
    nodes: list[Point] = [start, goal]
    nodes += [(x, y) for polygon in outer for x, y in polygon.exterior.coords[:-1]
              if min_x <= x <= max_x and min_y <= y <= max_y]
    tree = shapely.STRtree(inner)
    if inner and len(nodes) > 2:
        # Corners that lie inside another grown shape are not places to bend at.
        inside = tree.query(shapely.points(nodes[2:]), predicate="intersects")[0] + 2
        blocked_nodes = set(inside.tolist())
        nodes = [node for index, node in enumerate(nodes) if index not in blocked_nodes]
    if len(nodes) > MAX_CORNERS + 2:
        corners = np.array(nodes[2:], dtype=float)
        detour = (np.hypot(*(corners - np.array(start)).T)
                  + np.hypot(*(corners - np.array(goal)).T))
        kept = np.sort(np.argsort(detour, kind="stable")[:MAX_CORNERS])  # in their order
        nodes = [start, goal, *(nodes[2 + int(index)] for index in kept)]
    return nodes, tree if inner else None


def nearest_the_way(obstacles: Sequence[Sequence[Point]], start: Point, goal: Point,
                    most: int) -> Sequence[Sequence[Point]]:
    """At most `most` of `obstacles`, those nearest the segment from `start` to `goal`, in
    their own order."""
    if len(obstacles) <= most:
        return obstacles
    polygons = _polygons(obstacles)
    way = shapely.LineString([start, goal]) if start != goal else shapely.Point(start)
    gaps = shapely.distance(way, polygons)
    kept = np.sort(np.argsort(gaps, kind="stable")[:most])
    return [obstacles[int(index)] for index in kept]


def _polygons(outlines: Sequence[Sequence[Point]]) -> Any:
    """The outlines as an array of shapely polygons, made in one call."""
    rings = shapely.linearrings([point for points in outlines for point in points],
                                indices=[i for i, points in enumerate(outlines)
                                         for _ in points])
    return shapely.polygons(rings)


def _search(nodes: Sequence[Point], tree: STRtree | None) -> tuple[Point, ...] | None:
    """A* from node 0 to node 1 over the visibility graph of `nodes`, the straight line to
    node 1 as the (consistent) estimate, so the path is as short as Dijkstra's.

    Edges are looked at only from the corners the search reaches, in one vectorised query
    each: the whole graph (every pair of corners, hundreds of thousands of segments) made a
    long flee among many rocks spend most of its time proving edges it never used.
    """
    count = len(nodes)
    blocked = None
    if tree is not None:
        # A leg is clear when it meets none of the grown shapes: the same as meeting their
        # union, which a prepared geometry answers stopping at the first shape it meets.
        blocked = shapely.union_all(tree.geometries)
        shapely.prepare(blocked)
    coords = np.array(nodes, dtype=float)
    estimate = np.hypot(*(coords - coords[1]).T).tolist()
    best = np.full(count, math.inf)
    previous = [-1] * count
    done = np.zeros(count, dtype=bool)
    best[0] = 0.0
    queue = [(estimate[0], 0.0, 0)]
    while queue:
        _, cost, node = heapq.heappop(queue)
        if node == 1:
            break
        if done[node] or cost > best[node]:
            continue
        done[node] = True
        others = np.flatnonzero(~done)
        lengths = np.hypot(*(coords[others] - coords[node]).T)
        # Only legs that would shorten the way to their end are worth proving clear: in
        # open ground the corners seen from the start are never reached shorter again.
        shorter = cost + lengths < best[others]
        others, lengths = others[shorter], lengths[shorter]
        if not len(others):
            continue
        if blocked is not None:
            lines = shapely.linestrings(np.stack(
                [np.broadcast_to(coords[node], (len(others), 2)), coords[others]], axis=1))
            seen = ~shapely.intersects(blocked, lines)
            others, lengths = others[seen], lengths[seen]
        for other, length in zip(others.tolist(), lengths.tolist(), strict=True):
            best[other] = cost + length
            previous[other] = node
            heapq.heappush(queue, (cost + length + estimate[other], cost + length, other))
    if math.isinf(best[1]):
        return None
    path = [1]
    while path[-1] != 0:
        path.append(previous[path[-1]])
    return tuple(nodes[index] for index in reversed(path))


def free_goal(goal: Point, direction: Point, shape: Footprint,
              obstacles: Sequence[Sequence[Point]], beyond: float) -> Point | None:
    """`goal`, or the first point past it along `direction` (within `beyond`) where the
    unit would overlap none of `obstacles`; None if there is none."""
    ray = shapely.LineString([goal, (goal[0] + direction[0] * beyond,
                                     goal[1] + direction[1] * beyond)])
    covered: list[tuple[float, float]] = []
    # Only what comes within the unit's half diagonal (and the margin) of the ray can cover
    # it once grown: the rest is never grown (hulls in Python cost, on a crowded table).
    reach = math.hypot(shape.frontage, shape.depth) / 2 + 2 * MARGIN
    if obstacles:
        near = shapely.dwithin(_polygons(obstacles), ray, reach)
        obstacles = [points for points, keep in zip(obstacles, near.tolist(), strict=True)
                     if keep]
    for points in obstacles:
        polygon = shapely.Polygon(grown(points, shape, MARGIN))
        part = ray.intersection(polygon)
        if part.is_empty:
            continue
        along = [ray.project(shapely.Point(xy)) for xy in _coords(part)]
        covered.append((min(along), max(along)))
    free = 0.0
    for low, high in sorted(covered):
        if low > free:
            break
        free = max(free, high + 1e-6)
    if free > beyond:
        return None
    return (goal[0] + direction[0] * free, goal[1] + direction[1] * free)


def _coords(geometry: shapely.Geometry) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in shapely.get_coordinates(geometry)]


def walk(path: Sequence[Point], length: float) -> tuple[Point, ...]:
    """The first `length` of `path` (all of it if it is shorter)."""
    walked = [path[0]]
    left = length
    for a, b in itertools.pairwise(path):
        step = math.dist(a, b)
        if step >= left:
            if left > 1e-9:
                share = left / step
                walked.append((a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share))
            return tuple(walked)
        walked.append(b)
        left -= step
    return tuple(walked)
