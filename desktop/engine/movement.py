"""Moves on the table for fleeing, pursuing and chasing units: straight, or bent round friends.

The rulesets decide where a unit goes and how far; this module works out where it really ends
given the table edge, impassable terrain, friends and enemies in the way. Three policies
cover the rules we implement:

- friends: go round them if some nearby heading is clear, else along a path bent round them
  (`bend_round`, W6-FL-4), else pass through them and end beyond the last one (`beyond_gap`
  past its far side: W6-FL-4, K-RA-10);
- enemies and impassable terrain stop the move; the caller learns which enemy it touched
  (a pursuit into a fresh enemy, W6-PU-2; a lock in Kensei, K-RA-12);
- any corner leaving the table means the unit left it (W6-FL-6).

Every part of the table a move looks at is reported to `sight.look` (see desktop/engine/
sight.py): a forecast relies on what a move did not look at. A move asks for the obstacles
within the ground it looks at (`_Near`: the spatial index for units, an STRtree for terrain),
never for every obstacle on the table, and gets what a look at every one would find there.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, TypedDict

from desktop.engine import pathing, sight, spatial
from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Crossing,
    Footprint,
    Obstacle,
    ObstacleKind,
    Point,
    Sweep,
    direction_away,
    distance,
    heading_of,
    heading_vector,
    sweep,
    swept_outline,
)
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle, Terrain, prepare_terrain

if TYPE_CHECKING:
    from shapely import Polygon, STRtree


# Gap left in front of something a unit stops short of: it does not overlap it, and it is
# far enough not to count as contact (a pursuer that missed is not fighting its quarry).
STOP_GAP = 2 * CONTACT_TOLERANCE
# What a move reports as its blocker when the last guard had to pull it back.
CROWDED = "crowded"
TABLE_EDGE = "table edge"
# Headings tried, in order, when a fleeing unit goes round what is in its way (degrees).
DEFLECTIONS = (0.0, 10.0, -10.0, 20.0, -20.0, 30.0, -30.0, 45.0, -45.0)
# A bent flee must end at least this share of its length further along its heading: a
# detour that spends more of the roll going sideways runs along friends, not round them, and
# going through them is then the way of escape (W6-FL-4).
BENT_PROGRESS = 0.25
# Later turns may bend further to keep clear of enemies, as long as they head for the edge.
WIDE_DEFLECTIONS = (*DEFLECTIONS, 60.0, -60.0, 75.0, -75.0)
# False only in tests: every query then gets every obstacle, as `Battle.obstacles_for` lists
# them, the way moves were worked out before the indexes (the results must not change).
INDEXED = True

Box = tuple[float, float, float, float]
_TERRAIN_KEY = "_terrain_index"
_NEAR_KEY = "_near"
# Boxes are widened by this much: a hair more than the index needs, never less.
_BOX_SLACK = 1e-6


@dataclass(frozen=True)
class TerrainIndex:
    """The impassable pieces of a battle's terrain as obstacles, in terrain order, and an
    STRtree over them. The terrain never changes in a battle: built once, handed on."""

    terrain: tuple[Terrain, ...]
    obstacles: tuple[Obstacle, ...]
    tree: STRtree


def terrain_index(battle: Battle) -> TerrainIndex:
    found: TerrainIndex | None = battle.__dict__.get(_TERRAIN_KEY)
    if found is None or found.terrain is not battle.terrain:
        prepare_terrain(battle.terrain)
        obstacles = tuple(Obstacle(piece.id, ObstacleKind.IMPASSABLE, piece.points,
                                   piece.polygon, convex=piece.convex)
                          for piece in battle.terrain if piece.impassable)
        found = TerrainIndex(battle.terrain, obstacles,
                             shapely.STRtree([o.polygon for o in obstacles]))
        battle.__dict__[_TERRAIN_KEY] = found
    return found


def _box(points: Sequence[Point], reach: float = 0.0) -> Box:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    slack = reach + _BOX_SLACK
    return (min(xs) - slack, min(ys) - slack, max(xs) + slack, max(ys) + slack)


class _Near:
    """The obstacles to one unit's moves in one battle (`Battle.obstacles_for`), found by
    where they are: those whose bounding box meets a box, in the order `obstacles_for` lists
    them (units in roster order, then terrain). Every test a move makes against an obstacle
    fails at once for one whose bounding box is clear of the shape tested, so a move that
    asks only for those near what it tests works out what it did when it asked for all."""

    def __init__(self, battle: Battle, unit_id: str, ignore: frozenset[str]) -> None:
        self.battle, self.unit_id, self.ignore = battle, unit_id, ignore
        self.player = battle.player_of(unit_id)
        self._units: dict[str, Obstacle] = {}

    @cached_property
    def every(self) -> tuple[Obstacle, ...]:
        return self.battle.obstacles_for(self.unit_id, self.ignore)

    def _others(self, box: Box) -> list[str]:
        """Other units on the table, not ignored, whose bounding box meets `box`. Not
        reported as a read: every caller looks at what it tests (`sight.look`), and an
        obstacle clear of that cannot change a move."""
        return [uid for uid in spatial.in_box(self.battle, box, report=False)
                if uid != self.unit_id and uid not in self.ignore]

    def _unit(self, uid: str) -> Obstacle:
        found = self._units.get(uid)
        if found is None:
            footprint = self.battle.footprint(uid)
            kind = (ObstacleKind.FRIEND if self.battle.player_of(uid) == self.player
                    else ObstacleKind.ENEMY)
            found = self._units[uid] = Obstacle(uid, kind, footprint.corners,
                                                footprint.polygon, convex=True)
        return found

    def within(self, box: Box) -> Sequence[Obstacle]:
        if not INDEXED:
            return self.every
        found = [self._unit(uid) for uid in self._others(box)]
        terrain = terrain_index(self.battle)
        if terrain.obstacles:
            found.extend(terrain.obstacles[int(i)]
                         for i in sorted(terrain.tree.query(shapely.box(*box))))
        return found

    def around(self, points: Sequence[Point], reach: float = 0.0) -> Sequence[Obstacle]:
        """The obstacles whose bounding box comes within `reach` of these points' box."""
        return self.within(_box(points, reach))

    def enemies(self, points: Sequence[Point], reach: float) -> list[str]:
        """Enemies on the table, not ignored, that may come within `reach` of these points
        (every one when not `INDEXED`), in roster order."""
        battle = self.battle
        if not INDEXED:
            return [uid for uid in battle.enemies_of(self.unit_id) if uid not in self.ignore]
        return [uid for uid in self._others(_box(points, reach))
                if battle.player_of(uid) != self.player]


def _near(battle: Battle, unit_id: str, ignore: frozenset[str] = frozenset()) -> _Near:
    """The unit's `_Near`, made once per battle (a battle never changes)."""
    cache: dict[tuple[str, frozenset[str]], _Near] = battle.__dict__.setdefault(_NEAR_KEY, {})
    found = cache.get((unit_id, ignore))
    if found is None:
        found = cache[(unit_id, ignore)] = _Near(battle, unit_id, ignore)
    return found


@dataclass(frozen=True)
class MovePlan:
    start: Point
    end: Point
    facing: float  # where the unit faces once it stops
    travelled: float
    left_table: bool = False
    passed_through: tuple[str, ...] = ()
    blocked_by: str = ""
    blocked_kind: str = ""
    # The footprint it moved with (see `moving_footprint`), for checks on the whole path.
    moving: Footprint | None = field(default=None, compare=False, repr=False)
    start_facing: float = 0.0
    # Corners of a path bent round friends (see `pathing`), between start and end.
    bends: tuple[Point, ...] = ()
    # (friend, where on the path the unit starts to overlap it, where it stops overlapping).
    through: tuple[tuple[str, Point, Point], ...] = ()
    # A move told to stay on the table (a pursuit, an Overrun) that the edge cut short.
    stopped_at_edge: bool = False

    @property
    def path(self) -> tuple[Point, ...]:
        return (self.start, *self.bends, self.end)

    @property
    def turned(self) -> str:
        """"before" when it turned about its centre and then moved, "after" when it moved
        as it stood and turned at the end, "" when it kept its facing."""
        if self.moving is not None and not _same_facing(self.moving.facing, self.start_facing):
            return "before"
        if not _same_facing(self.facing, self.start_facing):
            return "after"
        return ""

    @property
    def footprint(self) -> tuple[Point, ...]:
        """The four corners the unit covers where it stops."""
        assert self.moving is not None
        return Footprint(self.end, self.facing, self.moving.frontage, self.moving.depth).corners

    def drawing(self) -> Drawing:
        """What a move event carries so that the whole move can be drawn."""
        return Drawing(start_facing=self.start_facing, turned=self.turned,
                       through=self.through, footprint=self.footprint)

    @cached_property
    def area(self) -> Polygon:
        """Everything the unit covered on the way."""
        return shapely.Polygon(self.outline)

    @cached_property
    def outline(self) -> tuple[Point, ...]:
        """The corners of `area`: enough for overlap tests against rectangles."""
        assert self.moving is not None
        return swept_outline(self.moving, heading_vector(self.facing_on_the_way),
                             self.travelled)

    @property
    def facing_on_the_way(self) -> float:
        dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
        return heading_of((dx, dy)) if (dx, dy) != (0.0, 0.0) else self.facing

    @property
    def contacted_enemy(self) -> str:
        return self.blocked_by if self.blocked_kind == ObstacleKind.ENEMY else ""


class Drawing(TypedDict):
    start_facing: float
    turned: str
    through: tuple[tuple[str, Point, Point], ...]
    footprint: tuple[Point, ...]


def _same_facing(a: float, b: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) < 1e-9


def _touching(footprint: Footprint, obstacles: Sequence[Obstacle]) -> frozenset[str]:
    # Bounding boxes first: shapely's distance only for what could be within reach.
    sight.look_around(footprint.corners, CONTACT_TOLERANCE)
    xs, ys = [x for x, _ in footprint.corners], [y for _, y in footprint.corners]
    low_x, low_y = min(xs) - CONTACT_TOLERANCE, min(ys) - CONTACT_TOLERANCE
    high_x, high_y = max(xs) + CONTACT_TOLERANCE, max(ys) + CONTACT_TOLERANCE
    return frozenset(
        o.id for o in obstacles
        if o.bounds[0] <= high_x and o.bounds[2] >= low_x and o.bounds[1] <= high_y
        and o.bounds[3] >= low_y and o.polygon.distance(footprint.polygon) <= CONTACT_TOLERANCE)


def _fits(battle: Battle, footprint: Footprint, obstacles: Sequence[Obstacle] | _Near
          ) -> bool:
    """On the table and overlapping none of `obstacles`."""
    sight.look(footprint.corners)
    if not battle.table.contains(footprint):
        return False
    if isinstance(obstacles, _Near):
        obstacles = obstacles.around(footprint.corners)
    return not any(o.overlapped_by(footprint.corners) for o in obstacles)


def moving_footprint(battle: Battle, unit_id: str, heading: float,
                     ignore: frozenset[str] = frozenset()) -> Footprint:
    """The footprint a unit moves with: turned to `heading` about its centre when it can.

    Turning must not swing it over the table edge or into anything, not even what it
    touches; otherwise it keeps its facing while it moves, and turns at the end if there is
    room.
    """
    original = battle.footprint(unit_id)
    turned = original.turned(heading)
    return turned if _fits(battle, turned, _near(battle, unit_id, ignore)) else original


def can_face(battle: Battle, unit_id: str, facing: float) -> bool:
    """Whether the unit can turn about its centre to `facing` where it stands."""
    return _fits(battle, battle.footprint(unit_id).turned(facing), _near(battle, unit_id))


def straight_move(
    battle: Battle,
    unit_id: str,
    heading: float,
    length: float,
    *,
    through_friends: bool,
    beyond_gap: float = STOP_GAP,
    ignore: frozenset[str] = frozenset(),
    halt_before: frozenset[str] = frozenset(),
    stay_on_table: bool = False,
) -> MovePlan:
    """Move `unit_id` up to `length` straight along `heading`, facing that way.

    What the unit merely touches where it stands and moves away from (typically the enemy
    it is running from) does not stop it; what it touches and moves into does. `ignore`
    lists units that are not obstacles at all; `halt_before` lists enemies the unit stops
    short of instead of contacting (the unit it pursued and missed). With `stay_on_table`
    the move ends at the table edge instead of leaving it.
    """
    original = battle.footprint(unit_id)
    obstacles = _near(battle, unit_id, ignore)
    footprint = moving_footprint(battle, unit_id, heading, ignore)
    direction = heading_vector(heading)
    rolled = length
    # Look a little past the roll; pushed beyond friends further than that, look again as
    # far as the push went, until it ends inside what was looked at: what lies beyond
    # cannot change the move (nor can anything far away: nothing else is read).
    reach = length + _diagonal(footprint.corners) + beyond_gap + 1.0
    while True:
        swept = _sweep(footprint, direction, reach, battle, obstacles)
        # Something it overlaps by a hair at the start (hand-placed contact) and leaves at
        # once is behind it; anything else counts from where it is met, even at distance 0.
        ahead = [replace(c, kind=ObstacleKind.IMPASSABLE) if c.id in halt_before else c
                 for c in swept.crossings
                 if not (c.enter < 0.0 and c.leave <= CONTACT_TOLERANCE)]
        friends_ahead = [c for c in ahead if c.kind == ObstacleKind.FRIEND]
        blocker = next((c for c in ahead
                        if c.kind != ObstacleKind.FRIEND or not through_friends), None)
        edge = swept.leaves_table_at
        length = rolled
        cut_at = math.inf  # where the edge stops a roll longer than that
        if stay_on_table and edge is not None and length > max(edge - STOP_GAP, 0.0):
            cut_at = length = max(edge - STOP_GAP, 0.0)
        stop_at = math.inf if blocker is None else _stop_before(blocker)
        if stay_on_table and edge is not None:
            stop_at = min(stop_at, max(edge - STOP_GAP, 0.0))
        travelled = min(length, stop_at)
        if through_friends:
            travelled = _clear_of(friends_ahead, travelled, beyond_gap)
        if travelled <= reach - 1.0:
            break
        reach = travelled + _diagonal(footprint.corners) + beyond_gap + 1.0
    if travelled > stop_at:
        # Beyond the friends lies something it cannot enter: it stays on the near side.
        travelled = _back_off(friends_ahead, stop_at)
    left = not stay_on_table and edge is not None and edge < travelled
    crowded = ""
    if left:
        assert edge is not None
        travelled, facing = edge, heading % 360.0
    else:
        wanted = travelled
        travelled, facing, crowded = _settle(battle, footprint, direction, travelled, heading,
                                             obstacles, original.facing)
        if travelled >= wanted - 1e-9:
            crowded = ""
    blocked_by, blocked_kind = "", ""
    if blocker is not None and not left and travelled >= _stop_before(blocker) - 1e-9:
        blocked_by, blocked_kind = blocker.id, str(blocker.kind)
    elif crowded:
        # Pulled back short by the last guard: say by what, without claiming contact.
        blocked_by, blocked_kind = crowded, CROWDED
    start = battle.states[unit_id].center

    def at(t: float) -> Point:
        return (start[0] + direction[0] * t, start[1] + direction[1] * t)

    crossed = [c for c in friends_ahead if c.enter < travelled]
    return MovePlan(
        start=start,
        end=at(travelled),
        facing=facing,
        travelled=travelled,
        left_table=left,
        passed_through=tuple(c.id for c in crossed),
        blocked_by=blocked_by,
        blocked_kind=blocked_kind,
        moving=footprint,
        start_facing=original.facing,
        through=tuple((c.id, at(max(c.enter, 0.0)), at(min(c.leave, travelled)))
                      for c in crossed),
        stopped_at_edge=travelled >= cut_at - 1e-9,
    )


def _diagonal(points: Sequence[Point]) -> float:
    """The diagonal of the bounding box (read off the corners: no shapely polygon)."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return math.hypot(max(xs) - min(xs), max(ys) - min(ys))


def _sweep(footprint: Footprint, direction: Point, length: float, battle: Battle,
           obstacles: Sequence[Obstacle] | _Near) -> Sweep:
    """`sweep`, reporting the ground it covers: nothing outside it can be crossed."""
    covered = (footprint.corners
               + footprint.moved(direction[0] * length, direction[1] * length).corners)
    sight.look(covered)
    if isinstance(obstacles, _Near):
        obstacles = obstacles.around(covered)
    return sweep(footprint, direction, length, battle.table, obstacles)


# Steps by which a move that would end badly is shortened until it ends well.
_SETTLE_STEP = 0.25


def _settle(battle: Battle, footprint: Footprint, direction: Point, travelled: float,
            heading: float, obstacles: _Near, original_facing: float
            ) -> tuple[float, float, str]:
    """Where the move really ends, which way the unit faces there, and what pulled it back.

    It faces `heading` when there is room to; the rules above normally leave it clear, and
    this is the last guard: an end that would overlap something or hang off the table is
    pulled back along the path until it does not. Back at the start it keeps its old
    facing if it must: where it stood is always a legal place.
    """
    in_the_way = ""
    while True:
        end = footprint.moved(direction[0] * travelled, direction[1] * travelled)
        for facing in dict.fromkeys((heading % 360.0, end.facing)):
            if _fits(battle, end.turned(facing), obstacles):
                return travelled, facing, in_the_way
        in_the_way = in_the_way or _what_is_in_the_way(battle, end, obstacles)
        if travelled <= 0.0:
            return 0.0, original_facing, in_the_way
        travelled = max(travelled - _SETTLE_STEP, 0.0)


def _what_is_in_the_way(battle: Battle, footprint: Footprint, obstacles: _Near) -> str:
    if not battle.table.contains(footprint):
        return TABLE_EDGE
    sight.look(footprint.corners)
    return next((o.id for o in obstacles.around(footprint.corners)
                 if o.overlapped_by(footprint.corners)), "")


def end_footprint(battle: Battle, unit_id: str, plan: MovePlan) -> Footprint:
    """The unit's footprint where `plan` leaves it."""
    footprint = battle.footprint(unit_id)
    return Footprint(plan.end, plan.facing, footprint.frontage, footprint.depth)


def _stop_before(crossing: Crossing) -> float:
    # An enemy is met in contact (a charge or a lock); anything else is stopped short of.
    if crossing.kind == ObstacleKind.ENEMY:
        return max(crossing.enter, 0.0)
    return max(crossing.enter - STOP_GAP, 0.0)


def _clear_of(friends: Sequence[Crossing], travelled: float, gap: float) -> float:
    """Push an end position that lands inside a friend out beyond its far side."""
    moved = True
    while moved:
        moved = False
        for crossing in friends:
            if crossing.enter < travelled < crossing.leave:
                travelled = crossing.leave + gap
                moved = True
    return travelled


def _back_off(friends: Sequence[Crossing], travelled: float) -> float:
    """Pull an end position that lands inside a friend back to its near side."""
    moved = True
    while moved and travelled > 0.0:
        moved = False
        for crossing in friends:
            if crossing.enter < travelled < crossing.leave and crossing.enter > 0.0:
                travelled = max(crossing.enter - STOP_GAP, 0.0)
                moved = True
    return travelled


Length = float | Callable[[float], float]


def flee_around(
    battle: Battle,
    unit_id: str,
    heading: float,
    length: Length,
    *,
    keep_away: float = 0.0,
    deflections: Sequence[float] = DEFLECTIONS,
    ignore: frozenset[str] = frozenset(),
) -> MovePlan:
    """A flee move that goes round what is in its way where it can (W6-FL-4, W6-FL-5).

    Tries headings near `heading`; takes the first that runs its full length (or off the
    table) touching nothing and, with `keep_away`, passing no nearer than that to any enemy
    it is not already nearer to. When none is clear it flees straight on through friends.
    `length` may depend on the heading (see `gap_length`).
    """
    # Straight and deflected headings come first: a straight move ends exactly the roll
    # further away (W6-FL-3, `gap_length`) facing the way it went, where a bent path spends
    # part of the roll on its detour. A bent path comes before going through friends, which
    # W6-FL-4 allows only when no other way of escape remains.
    plan = _first_clear(battle, unit_id, heading, length, deflections, keep_away=keep_away,
                        ignore=ignore)
    plan = plan or bend_round(battle, unit_id, heading, _length(length, heading),
                              keep_away=keep_away, ignore=ignore)
    return plan or straight_move(battle, unit_id, heading, _length(length, heading),
                                 through_friends=True, ignore=ignore)


def bend_round(battle: Battle, unit_id: str, heading: float, length: float, *,
               keep_away: float = 0.0, ignore: frozenset[str] = frozenset()
               ) -> MovePlan | None:
    """A flee move of `length` along the shortest path round what is in the way (W6-FL-4).

    The path leads to where the straight move would end (or the first free place beyond
    it); the unit walks `length` along it with the shape it moves with (see
    `moving_footprint`) and turns to `heading` at the end when there is room. None unless
    the whole walk is clear of friends, enemies (kept `keep_away` from, as far as it is not
    already nearer) and impassable terrain, stays on the table or leaves it (W6-FL-6), and
    ends at least `BENT_PROGRESS` of `length` further along `heading` than it began.
    """
    original = battle.footprint(unit_id)
    shape = moving_footprint(battle, unit_id, heading, ignore)
    start = original.center
    direction = heading_vector(heading)
    # Nothing further than this from the start can touch the walked part of the path.
    reach = length + _diagonal(shape.corners) + keep_away + 2 * pathing.MARGIN
    sight.look_around((start,), reach)  # everything below uses only what is near
    obstacles = _near(battle, unit_id, ignore).around((start,), reach)
    near = [obstacles[i] for i in pathing.nearby([o.polygon for o in obstacles], start,
                                                 reach)]
    # What it touches where it stands (the enemy it flees) is left out of the plan; the
    # checks below still refuse a walk into it.
    touching = _touching(original, near) | _touching(shape, near)
    kept = {o.id: min(keep_away, float(o.polygon.distance(original.polygon)))
            for o in near if o.kind == ObstacleKind.ENEMY}
    planned = [_kept_away(o, kept.get(o.id, 0.0)) for o in near if o.id not in touching]
    goal = pathing.free_goal((start[0] + direction[0] * length,
                              start[1] + direction[1] * length),
                             direction, shape, planned, reach)
    if goal is None:
        return None
    half_x = max(abs(x - start[0]) for x, _ in shape.corners)
    half_y = max(abs(y - start[1]) for _, y in shape.corners)
    table = battle.table
    route = pathing.shortest_path(start, goal, shape, planned,
                                  (half_x, half_y, table.width - half_x, table.depth - half_y))
    if route is None:
        return None
    walked, travelled, left = _walk_clear(battle, shape, pathing.walk(route, length), near,
                                          kept)
    if walked is None or (not left and travelled < length - 1e-6):
        return None
    end = walked[-1]
    away = (end[0] - start[0]) * direction[0] + (end[1] - start[1]) * direction[1]
    if away < BENT_PROGRESS * length - 1e-9:
        return None  # running along the friends rather than round them
    facing = heading % 360.0
    if not left:
        stopped = shape.moved(end[0] - start[0], end[1] - start[1])
        if not _fits(battle, stopped, near):
            return None
        if not _fits(battle, stopped.turned(heading), near):
            facing = shape.facing
    return MovePlan(start=start, end=end, facing=facing, travelled=travelled, left_table=left,
                    moving=shape, start_facing=original.facing, bends=walked[1:-1])


def _kept_away(obstacle: Obstacle, gap: float) -> tuple[Point, ...]:
    """The obstacle's outline, pushed out by `gap` (an enemy to keep away from)."""
    if gap <= 0.0:
        return obstacle.points
    grown = obstacle.polygon.buffer(gap, join_style="mitre")
    return tuple((float(x), float(y)) for x, y in grown.exterior.coords[:-1])


def _walk_clear(battle: Battle, shape: Footprint, path: Sequence[Point],
                obstacles: Sequence[Obstacle], kept: dict[str, float]
                ) -> tuple[tuple[Point, ...] | None, float, bool]:
    """`path` checked leg by leg: (the points walked, how far, whether it left the table),
    or None for the points when a leg goes into something or nearer an enemy than `kept`."""
    start = path[0]
    walked, travelled = [start], 0.0
    enemies = [o for o in obstacles if kept.get(o.id, 0.0) > 0.0]
    for a, b in itertools.pairwise(path):
        step = math.dist(a, b)
        if step < 1e-12:
            continue
        direction = ((b[0] - a[0]) / step, (b[1] - a[1]) / step)
        here = shape.moved(a[0] - start[0], a[1] - start[1])
        swept = _sweep(here, direction, step, battle, obstacles)
        edge = swept.leaves_table_at
        stop = step if edge is None else edge
        if any(c.enter < stop and not (c.enter < 0.0 and c.leave <= CONTACT_TOLERANCE)
               for c in swept.crossings):
            return None, 0.0, False
        area = shapely.Polygon(swept_outline(here, direction, stop))
        if any(float(area.distance(o.polygon)) < kept[o.id] - 1e-9 for o in enemies):
            return None, 0.0, False
        walked.append((a[0] + direction[0] * stop, a[1] + direction[1] * stop))
        travelled += stop
        if edge is not None:
            return tuple(walked), travelled, True
    return tuple(walked), travelled, False


def gap_length(battle: Battle, unit_id: str, source: str, roll: float) -> Callable[[float],
                                                                                   float]:
    """How far to move so that the unit ends `roll` further from `source` (W6-FL-3).

    A unit in contact ends with its closest part `roll` away; one that was some way off
    adds `roll` to that gap. The gap grows steadily as the unit moves away (the distance
    between two convex shapes is convex along a straight move), so a bracketing root
    search finds it.
    """
    sight.look(battle.footprint(source).corners)  # where the source stands is read
    enemy = battle.footprint(source).polygon
    target = float(battle.footprint(unit_id).polygon.distance(enemy)) + roll

    def length_for(heading: float) -> float:
        # Measured with the shape it will end in: facing away if it has room to turn there,
        # else as it stands (see `moving_footprint`).
        turned = battle.footprint(unit_id).turned(heading)
        dx, dy = heading_vector(heading)
        length = _gap_travel(turned, (dx, dy), enemy, target, roll)
        moving = moving_footprint(battle, unit_id, heading)
        if moving.facing == turned.facing or _fits(
                battle, turned.moved(dx * length, dy * length), _near(battle, unit_id)):
            return length
        return _gap_travel(moving, (dx, dy), enemy, target, roll)

    return length_for


def _gap_travel(footprint: Footprint, direction: Point, enemy: Polygon, target: float,
                guess: float) -> float:
    """How far `footprint` slides along `direction` until it is `target` from `enemy`."""
    dx, dy = direction

    def shortfall(t: float) -> float:
        return float(footprint.moved(dx * t, dy * t).polygon.distance(enemy)) - target

    if abs(shortfall(guess)) < 1e-9:
        return guess  # the usual case: straight away from a parallel edge
    low, high = 0.0, guess
    below, above = shortfall(low), shortfall(high)
    if below >= 0.0:
        return 0.0
    while above < 0.0:
        low, below = high, above
        high = high * 2 + 1.0
        if high > 1e6:
            return guess  # moving this way never opens the gap: move the roll itself
        above = shortfall(high)
    return _root(shortfall, low, below, high, above)


def _root(f: Callable[[float], float], low: float, f_low: float, high: float, f_high: float
          ) -> float:
    """The root of `f` between `low` (f < 0) and `high` (f >= 0): regula falsi, Illinois
    variant, a few evaluations where bisection would need dozens."""
    side = 0
    for _ in range(100):
        middle = (low * f_high - high * f_low) / (f_high - f_low)
        f_middle = f(middle)
        if abs(f_middle) < 1e-9 or high - low < 1e-9:
            return middle
        if f_middle > 0.0:
            high, f_high = middle, f_middle
            if side == 1:
                f_low /= 2
            side = 1
        else:
            low, f_low = middle, f_middle
            if side == -1:
                f_high /= 2
            side = -1
    return high


def _length(length: Length, heading: float) -> float:
    return length(heading) if callable(length) else length


def pursue_around(
    battle: Battle,
    unit_id: str,
    heading: float,
    length: float,
    *,
    halt_before: frozenset[str] = frozenset(),
    deflections: Sequence[float] = DEFLECTIONS,
) -> MovePlan:
    """A pursuit move: the full roll, round friends where it can, never off the table.

    Meeting an enemy is not a reason to turn aside: the pursuer stops in contact (a charge).
    With no way round, it goes straight and stops short of whatever is in the way.
    """
    plan = _first_clear(battle, unit_id, heading, length, deflections,
                        halt_before=halt_before, stay_on_table=True, enemy_contact_ok=True)
    return plan or straight_move(battle, unit_id, heading, length, through_friends=False,
                                 halt_before=halt_before, stay_on_table=True)


def _first_clear(
    battle: Battle, unit_id: str, heading: float, length: Length,
    deflections: Sequence[float], *, keep_away: float = 0.0,
    ignore: frozenset[str] = frozenset(), halt_before: frozenset[str] = frozenset(),
    stay_on_table: bool = False, enemy_contact_ok: bool = False,
) -> MovePlan | None:
    """The first heading of `deflections` whose whole path is clear, or None."""
    footprint = battle.footprint(unit_id)
    near = _near(battle, unit_id, ignore)
    # How near each enemy may come: `keep_away`, or as near as it is already.
    required: dict[str, float] = {}

    def kept_away(plan: MovePlan) -> bool:
        for uid in near.enemies(plan.outline, keep_away):
            if uid not in required:
                required[uid] = min(keep_away, distance(footprint, battle.footprint(uid)))
            if float(plan.area.distance(battle.footprint(uid).polygon)) < required[uid] - 1e-9:
                return False
        return True

    if keep_away:  # only then are enemies kept away from (no shapely work otherwise)
        sight.look_around(footprint.corners, keep_away)
    # What it already touches (the enemy it runs from) does not make a path unclear: the
    # move itself refuses to go into it.
    touching = _touching(footprint, near.around(footprint.corners, CONTACT_TOLERANCE))
    for deflection in deflections:
        wanted = _length(length, heading + deflection)
        plan = straight_move(battle, unit_id, heading + deflection, wanted,
                             through_friends=False, ignore=ignore, halt_before=halt_before,
                             stay_on_table=stay_on_table)
        if plan.blocked_by and not (enemy_contact_ok and plan.contacted_enemy):
            continue
        if not plan.left_table and not plan.blocked_by and (
                plan.travelled < wanted - 1e-6 and not stay_on_table):
            continue  # pulled back short of its roll
        sight.look(plan.outline)
        if any(other.overlapped_by(plan.outline) for other in near.around(plan.outline)
               if other.id not in touching):
            continue
        if keep_away:
            sight.look_around(plan.outline, keep_away)
        if keep_away and not kept_away(plan):
            continue
        return plan
    return None


def heading_away(battle: Battle, unit_id: str, source: Point) -> float:
    """Heading from `source` through the unit's centre (rules README, shared geometry)."""
    return heading_of(direction_away(source, battle.footprint(unit_id)))
