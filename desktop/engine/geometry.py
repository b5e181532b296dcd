"""Table geometry: unit footprints, distances, contact and swept straight moves.

Coordinates are table units (inches for Warhammer and Breaks-or-Pursues, centimetres for
Kensei) with x to the right and y up the table, origin at the bottom-left corner. A facing is
in degrees counter-clockwise from +x, so 90 faces up the table.

Shapely does the polygon work (distance, overlap, radius queries). What shapely does not have
is "how far can this shape slide before it touches that one", which every flee and pursuit
move needs; `contact_interval` computes it from vertex-to-edge ray hits, exact for polygons.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

from desktop.engine.lazy import shapely

if TYPE_CHECKING:
    from shapely import Polygon



Point = tuple[float, float]

# Units placed by hand never touch exactly; anything closer than this counts as contact.
CONTACT_TOLERANCE = 0.05
# Areas below this are rounding noise, not an overlap.
OVERLAP_AREA_TOLERANCE = 1e-6
_EPSILON = 1e-9
# Shapes that go no deeper into each other than this only touch.
_PENETRATION = 1e-9
# Something left behind within this distance was only touched, not crossed.
_BEHIND = 1e-6


def heading_vector(degrees: float) -> Point:
    radians = math.radians(degrees)
    return (math.cos(radians), math.sin(radians))


def heading_of(vector: Point) -> float:
    """Degrees in [0, 360) of a non-zero vector."""
    return math.degrees(math.atan2(vector[1], vector[0])) % 360.0


@dataclass(frozen=True)
class Footprint:
    """The rectangle a unit covers: `frontage` wide across its facing, `depth` deep along it."""

    center: Point
    facing: float
    frontage: float
    depth: float

    @cached_property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left."""
        fx, fy = heading_vector(self.facing)
        rx, ry = fy, -fx  # the unit's right hand
        cx, cy = self.center
        half_w, half_d = self.frontage / 2, self.depth / 2
        return (
            (cx + fx * half_d - rx * half_w, cy + fy * half_d - ry * half_w),
            (cx + fx * half_d + rx * half_w, cy + fy * half_d + ry * half_w),
            (cx - fx * half_d + rx * half_w, cy - fy * half_d + ry * half_w),
            (cx - fx * half_d - rx * half_w, cy - fy * half_d - ry * half_w),
        )

    @cached_property
    def polygon(self) -> Polygon:
        return shapely.Polygon(self.corners)

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """(min x, min y, max x, max y) of the corners: the polygon's bounds, without it."""
        xs, ys = [x for x, _ in self.corners], [y for _, y in self.corners]
        return (min(xs), min(ys), max(xs), max(ys))

    def __hash__(self) -> int:
        # Kept: remembered moves are found again by the footprints of the units they saw,
        # thousands of times in a forecast (a footprint never changes).
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash((self.center, self.facing, self.frontage,
                                                   self.depth))
        return found

    def moved(self, dx: float, dy: float) -> Footprint:
        return Footprint((self.center[0] + dx, self.center[1] + dy), self.facing,
                         self.frontage, self.depth)

    def turned(self, facing: float) -> Footprint:
        """The same rectangle turned about its centre."""
        return Footprint(self.center, facing % 360.0, self.frontage, self.depth)


@dataclass(frozen=True)
class Table:
    width: float
    depth: float

    @cached_property
    def polygon(self) -> Polygon:
        return shapely.box(0.0, 0.0, self.width, self.depth)

    def contains(self, footprint: Footprint) -> bool:
        return all(
            -_EPSILON <= x <= self.width + _EPSILON and -_EPSILON <= y <= self.depth + _EPSILON
            for x, y in footprint.corners
        )

    def exit_distance(self, points: Iterable[Point], direction: Point) -> float:
        """How far `points` can slide along `direction` before the first one leaves the table."""
        dx, dy = direction
        best = math.inf
        for x, y in points:
            if dx > _EPSILON:
                best = min(best, (self.width - x) / dx)
            elif dx < -_EPSILON:
                best = min(best, -x / dx)
            if dy > _EPSILON:
                best = min(best, (self.depth - y) / dy)
            elif dy < -_EPSILON:
                best = min(best, -y / dy)
        return max(best, 0.0)

    def edge_headings(self, point: Point) -> list[tuple[float, float]]:
        """(distance, heading) to each table edge from `point`, nearest first."""
        x, y = point
        edges = [(x, 180.0), (self.width - x, 0.0), (y, 270.0), (self.depth - y, 90.0)]
        return sorted(edges)

    def nearest_edges(self, footprint: Footprint) -> list[tuple[float, float]]:
        """(distance, heading) to each table edge from the footprint's nearest corner,
        nearest first.

        Equal distances (within rounding) go to the edge nearer the centre, then by heading
        (right, up, left, down), so the answer never depends on float noise.
        """
        xs, ys = [x for x, _ in footprint.corners], [y for _, y in footprint.corners]
        centre = dict((heading, gap) for gap, heading in self.edge_headings(footprint.center))
        edges = [(min(xs), 180.0), (self.width - max(xs), 0.0), (min(ys), 270.0),
                 (self.depth - max(ys), 90.0)]
        edges.sort(key=lambda edge: (round(edge[0], 9), round(centre[edge[1]], 9), edge[1]))
        return edges


def distance(a: Footprint, b: Footprint) -> float:
    """Shortest distance between two footprints (0 when they touch or overlap)."""
    return float(a.polygon.distance(b.polygon))


def in_contact(a: Footprint, b: Footprint, tolerance: float = CONTACT_TOLERANCE) -> bool:
    return distance(a, b) <= tolerance


def overlaps(a: Polygon, b: Polygon) -> bool:
    """True when two shapes share area; shapes that only touch do not overlap."""
    return bool(a.intersects(b)) and float(a.intersection(b).area) > OVERLAP_AREA_TOLERANCE


# How many answers of each pure test below are kept: a forecast asks the same few (the same
# unit against the same obstacle, in many runs) thousands of times.
_KEPT = 4096


def convex_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """True when two convex polygons interpenetrate; touching is not overlapping.

    The separating-axis test in plain Python: units are rectangles, and this is asked far
    too often in a move to build shapely polygons each time (the answer is kept: a
    forecast asks the same unit against the same obstacle in many runs).
    """
    try:
        return _kept_overlap(tuple(a), tuple(b))
    except TypeError:  # points that do not hash (lists): worked out afresh
        return _convex_overlap(a, b)


@lru_cache(maxsize=_KEPT)
def _kept_overlap(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    return _convex_overlap(a, b)


def _convex_overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    for shape in (a, b):
        count = len(shape)
        for index in range(count):
            (x1, y1), (x2, y2) = shape[index], shape[(index + 1) % count]
            nx, ny = y1 - y2, x2 - x1
            length = math.hypot(nx, ny)
            if length < _EPSILON:
                continue
            nx, ny = nx / length, ny / length
            a_proj = [nx * x + ny * y for x, y in a]
            b_proj = [nx * x + ny * y for x, y in b]
            if (max(a_proj) - min(b_proj) <= _PENETRATION
                    or max(b_proj) - min(a_proj) <= _PENETRATION):
                return False
    return True


def within_radius(center: Footprint, others: Mapping[str, Footprint], radius: float) -> list[str]:
    """Ids of the footprints whose nearest point is within `radius` of `center`'s footprint."""
    return [key for key, other in others.items()
            if bool(shapely.dwithin(center.polygon, other.polygon, radius + _EPSILON))]


def direction_away(source: Point, mover: Footprint) -> Point:
    """Unit vector along the line from `source` through the mover's centre.

    When the two centres coincide there is no line; the mover then goes straight back.
    """
    dx, dy = mover.center[0] - source[0], mover.center[1] - source[1]
    length = math.hypot(dx, dy)
    if length < _EPSILON:
        bx, by = heading_vector(mover.facing)
        return (-bx, -by)
    return (dx / length, dy / length)


def _edges(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]


def _ray_segment(origin: Point, direction: Point, a: Point, b: Point) -> float | None:
    """Parameter t where origin + t*direction meets segment ab, for any real t."""
    ex, ey = b[0] - a[0], b[1] - a[1]
    dx, dy = direction
    denominator = dx * ey - dy * ex
    if abs(denominator) < _EPSILON:
        return None  # parallel: the neighbouring vertices' hits cover this case
    ox, oy = a[0] - origin[0], a[1] - origin[1]
    t = (ox * ey - oy * ex) / denominator
    s = (ox * dy - oy * dx) / denominator
    if -_EPSILON <= s <= 1 + _EPSILON:
        return t
    return None


def contact_interval(
    moving: Sequence[Point], obstacle: Sequence[Point], direction: Point
) -> tuple[float, float] | None:
    """The range of distances t for which `moving` slid by t*direction touches `obstacle`.

    Contact begins and ends with a vertex of one shape on an edge of the other, so the extremes
    of those vertex-edge hits bound the interval. None when the slide never touches it. (The
    answer is kept: moves in many runs of a forecast slide the same unit past the same
    obstacle.)
    """
    try:
        return _kept_interval(tuple(moving), tuple(obstacle), tuple(direction))
    except TypeError:  # points that do not hash (lists): worked out afresh
        return _contact_interval(moving, obstacle, direction)


@lru_cache(maxsize=_KEPT)
def _kept_interval(moving: tuple[Point, ...], obstacle: tuple[Point, ...], direction: Point
                   ) -> tuple[float, float] | None:
    return _contact_interval(moving, obstacle, direction)


def _contact_interval(
    moving: Sequence[Point], obstacle: Sequence[Point], direction: Point
) -> tuple[float, float] | None:
    hits: list[float] = []
    for vertex in moving:
        for a, b in _edges(obstacle):
            t = _ray_segment(vertex, direction, a, b)
            if t is not None:
                hits.append(t)
    backwards = (-direction[0], -direction[1])
    for vertex in obstacle:
        for a, b in _edges(moving):
            t = _ray_segment(vertex, backwards, a, b)
            if t is not None:
                hits.append(t)
    if not hits:
        return None
    return (min(hits), max(hits))


class ObstacleKind(StrEnum):
    FRIEND = "friend"
    ENEMY = "enemy"
    IMPASSABLE = "impassable"


@dataclass(frozen=True)
class Obstacle:
    id: str
    kind: ObstacleKind
    points: tuple[Point, ...]
    # The polygon when the caller already has it: building shapely polygons is not free.
    known_polygon: Polygon | None = field(default=None, compare=False, repr=False)
    convex: bool = False  # lets overlap tests skip shapely (units are rectangles)

    @cached_property
    def polygon(self) -> Polygon:
        if self.known_polygon is not None:
            return self.known_polygon
        return shapely.Polygon(self.points)

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [x for x, _ in self.points], [y for _, y in self.points]
        return (min(xs), min(ys), max(xs), max(ys))

    def overlapped_by(self, corners: Sequence[Point]) -> bool:
        # Bounding boxes apart: no shared area, whatever the shapes (the cheap test first).
        low_x, low_y, high_x, high_y = self.bounds
        if (max(x for x, _ in corners) < low_x or min(x for x, _ in corners) > high_x
                or max(y for _, y in corners) < low_y or min(y for _, y in corners) > high_y):
            return False
        if self.convex:
            return convex_overlap(corners, self.points)
        return overlaps(shapely.Polygon(corners), self.polygon)


@dataclass(frozen=True)
class Crossing:
    """An obstacle the swept move touches between `enter` and `leave` along its path."""

    id: str
    kind: ObstacleKind
    enter: float
    leave: float


@dataclass(frozen=True)
class Sweep:
    """A straight move of a footprint, and everything it meets on the way."""

    start: Footprint
    direction: Point
    length: float
    crossings: tuple[Crossing, ...]
    # Distance at which the first corner leaves the table; None if the move stays on it.
    leaves_table_at: float | None = None

    def end(self, travelled: float | None = None) -> Footprint:
        t = self.length if travelled is None else travelled
        return self.start.moved(self.direction[0] * t, self.direction[1] * t)

    @cached_property
    def area(self) -> Polygon:
        """All the ground the footprint covers on the way."""
        return swept_area(self.start, self.direction, self.length)


def swept_area(start: Footprint, direction: Point, length: float) -> Polygon:
    return shapely.Polygon(swept_outline(start, direction, length))


def swept_outline(start: Footprint, direction: Point, length: float) -> tuple[Point, ...]:
    """The corners of `swept_area`, in order, without building a shapely polygon."""
    end = start.moved(direction[0] * length, direction[1] * length)
    return convex_hull(start.corners + end.corners)


def convex_hull(points: Sequence[Point]) -> tuple[Point, ...]:
    """Andrew's monotone chain: the hull's corners counter-clockwise."""
    ordered = sorted(set(points))
    if len(ordered) <= 2:
        return tuple(ordered)

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for point in ordered:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], point) <= 0:
            lower.pop()
        lower.append(point)
    upper: list[Point] = []
    for point in reversed(ordered):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], point) <= 0:
            upper.pop()
        upper.append(point)
    return tuple(lower[:-1] + upper[:-1])


def _passes_through(start: Footprint, direction: Point, enter: float, leave: float,
                    obstacle: Obstacle) -> bool:
    if obstacle.convex:
        # Overlap of convex shapes along a slide is one stretch: its middle decides.
        middle = (enter + leave) / 2
        return obstacle.overlapped_by(
            start.moved(direction[0] * middle, direction[1] * middle).corners)
    # A concave outline (a U of rocks) may be touched at both ends and missed between.
    entering = start.moved(direction[0] * enter, direction[1] * enter)
    return overlaps(swept_area(entering, direction, leave - enter), obstacle.polygon)


def sweep(
    start: Footprint,
    direction: Point,
    length: float,
    table: Table,
    obstacles: Iterable[Obstacle],
) -> Sweep:
    """Slide `start` along `direction` by `length` and report what it crosses, in order.

    Obstacles the footprint already overlaps at the start are reported with enter <= 0.
    """
    end = start.moved(direction[0] * length, direction[1] * length)
    points = start.corners + end.corners
    min_x, max_x = min(x for x, _ in points), max(x for x, _ in points)
    min_y, max_y = min(y for _, y in points), max(y for _, y in points)
    crossings = []
    for obstacle in obstacles:
        o_min_x, o_min_y, o_max_x, o_max_y = obstacle.bounds
        if o_min_x > max_x or o_max_x < min_x or o_min_y > max_y or o_max_y < min_y:
            continue  # nowhere near the path
        interval = contact_interval(start.corners, obstacle.points, direction)
        if interval is None:
            continue
        enter, leave = interval
        if leave <= _BEHIND or enter >= length - _EPSILON:
            continue  # touches only at the very start (it is moving away) or at the end
        if not _passes_through(start, direction, enter, leave, obstacle):
            continue  # slides along it, touching but never overlapping
        crossings.append(Crossing(obstacle.id, obstacle.kind, enter, leave))
    crossings.sort(key=lambda crossing: (crossing.enter, crossing.id))
    exit_at = table.exit_distance(start.corners, direction)
    return Sweep(
        start=start,
        direction=direction,
        length=length,
        crossings=tuple(crossings),
        leaves_table_at=exit_at if exit_at < length - _EPSILON else None,
    )
