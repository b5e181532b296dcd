"""Straight moves on the table for fleeing, pursuing and chasing units.

The rulesets decide where a unit goes and how far; this module works out where it really ends
given the table edge, impassable terrain, friends and enemies in the way. Three policies
cover the rules we implement:

- friends: go round them if some nearby heading is clear (W6-FL-4), or pass through them and
  end beyond the last one (`beyond_gap` past its far side: W6-FL-4, K-RA-10);
- enemies and impassable terrain stop the move; the caller learns which enemy it touched
  (a pursuit into a fresh enemy, W6-PU-2; a lock in Kensei, K-RA-12);
- any corner leaving the table means the unit left it (W6-FL-6).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Crossing,
    Footprint,
    ObstacleKind,
    Point,
    direction_away,
    distance,
    heading_of,
    heading_vector,
    overlaps,
    sweep,
)
from desktop.engine.model import Battle

if TYPE_CHECKING:
    from shapely.geometry import Polygon

# Gap left in front of something a unit stops short of: it does not overlap it, and it is
# far enough not to count as contact (a pursuer that missed is not fighting its quarry).
STOP_GAP = 2 * CONTACT_TOLERANCE
# How far two shapes may interpenetrate and still count as merely touching.
_TOUCH = 1e-9
# Headings tried, in order, when a fleeing unit goes round what is in its way (degrees).
DEFLECTIONS = (0.0, 10.0, -10.0, 20.0, -20.0, 30.0, -30.0, 45.0, -45.0)
# Later turns may bend further to keep clear of enemies, as long as they head for the edge.
WIDE_DEFLECTIONS = (*DEFLECTIONS, 60.0, -60.0, 75.0, -75.0)


@dataclass(frozen=True)
class MovePlan:
    start: Point
    end: Point
    facing: float
    travelled: float
    left_table: bool = False
    passed_through: tuple[str, ...] = ()
    blocked_by: str = ""
    blocked_kind: str = ""

    @property
    def path(self) -> tuple[Point, ...]:
        return (self.start, self.end)

    @property
    def contacted_enemy(self) -> str:
        return self.blocked_by if self.blocked_kind == ObstacleKind.ENEMY else ""


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
    start: Footprint | None = None,
) -> MovePlan:
    """Turn `unit_id` to `heading` about its centre and move it up to `length` straight on.

    Things the turned footprint already overlaps (typically the enemy it is running from) do
    not stop it. `ignore` lists units that are not obstacles at all; `halt_before` lists
    enemies the unit stops short of instead of contacting (the unit it pursued and missed).
    With `stay_on_table` the move ends at the table edge instead of leaving it.
    """
    footprint = (start or battle.footprint(unit_id)).turned(heading)
    direction = heading_vector(heading)
    obstacles = battle.obstacles_for(unit_id, ignore)
    # Look past the roll: a unit ending inside a friend is placed beyond it.
    reach = length + sum(max(footprint.frontage, footprint.depth) for _ in obstacles) + 1.0
    swept = sweep(footprint, direction, reach, battle.table, obstacles)
    crossings = [replace(c, kind=ObstacleKind.IMPASSABLE) if c.id in halt_before else c
                 for c in swept.crossings]
    # What the turned footprint already overlaps it leaves behind; that never stops it.
    # Something it only touches ahead (enter 0) is in its way like anything else.
    started_in = [c for c in crossings if c.enter < -_TOUCH]
    ahead = [c for c in crossings if c.enter >= -_TOUCH]
    friends_ahead = [c for c in ahead if c.kind == ObstacleKind.FRIEND]
    blocker = next((c for c in ahead if c.kind != ObstacleKind.FRIEND or not through_friends),
                   None)
    if stay_on_table and swept.leaves_table_at is not None:
        length = min(length, max(swept.leaves_table_at - STOP_GAP, 0.0))
    stop_at = math.inf if blocker is None else _stop_before(blocker)
    passable = started_in + (friends_ahead if through_friends else [])
    travelled = _clear_of(passable, min(length, stop_at), beyond_gap)
    if travelled > stop_at:
        # Beyond the friends lies something it cannot enter: it stays on the near side.
        travelled = _back_off(friends_ahead, stop_at)
    blocked = blocker is not None and travelled >= stop_at - 1e-9
    left = swept.leaves_table_at is not None and swept.leaves_table_at < travelled
    if left:
        assert swept.leaves_table_at is not None
        travelled = swept.leaves_table_at
    passed = tuple(c.id for c in friends_ahead if c.enter < travelled)
    end_point = (footprint.center[0] + direction[0] * travelled,
                 footprint.center[1] + direction[1] * travelled)
    return MovePlan(
        start=battle.states[unit_id].center,
        end=end_point,
        facing=heading % 360.0,
        travelled=travelled,
        left_table=left,
        passed_through=passed,
        blocked_by=blocker.id if blocked and blocker and not left else "",
        blocked_kind=str(blocker.kind) if blocked and blocker and not left else "",
    )


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


def flee_around(
    battle: Battle,
    unit_id: str,
    heading: float,
    length: float,
    *,
    keep_away: float = 0.0,
    deflections: Sequence[float] = DEFLECTIONS,
    ignore: frozenset[str] = frozenset(),
) -> MovePlan:
    """A flee move that goes round what is in its way where it can (W6-FL-4, W6-FL-5).

    Tries headings near `heading`; takes the first that runs its full length (or off the
    table) touching nothing and, with `keep_away`, passing no nearer than that to any enemy
    it is not already nearer to. When none is clear it flees straight on through friends.
    """
    plan = _first_clear(battle, unit_id, heading, length, deflections, keep_away=keep_away,
                        ignore=ignore)
    return plan or straight_move(battle, unit_id, heading, length, through_friends=True,
                                 ignore=ignore)


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
    battle: Battle, unit_id: str, heading: float, length: float, deflections: Sequence[float],
    *, keep_away: float = 0.0, ignore: frozenset[str] = frozenset(),
    halt_before: frozenset[str] = frozenset(), stay_on_table: bool = False,
    enemy_contact_ok: bool = False,
) -> MovePlan | None:
    """The first heading of `deflections` whose whole path is clear, or None."""
    footprint = battle.footprint(unit_id)
    enemies = [(battle.footprint(uid).polygon, min(keep_away, distance(footprint,
                                                                       battle.footprint(uid))))
               for uid in battle.enemies_of(unit_id) if uid not in ignore]
    # Turning about its centre may swing the unit into a neighbour: such a path is not clear.
    # What it already touches (the enemy it runs from) does not count.
    others = [o for o in battle.obstacles_for(unit_id, ignore)
              if o.polygon.distance(footprint.polygon) > CONTACT_TOLERANCE]
    for deflection in deflections:
        plan = straight_move(battle, unit_id, heading + deflection, length,
                             through_friends=False, ignore=ignore, halt_before=halt_before,
                             stay_on_table=stay_on_table)
        if plan.blocked_by and not (enemy_contact_ok and plan.contacted_enemy):
            continue
        area = _swept_area(battle, unit_id, plan)
        if any(overlaps(area, other.polygon) for other in others):
            continue
        if keep_away and not all(float(area.distance(enemy)) >= required - 1e-9
                                 for enemy, required in enemies):
            continue
        return plan
    return None


def _swept_area(battle: Battle, unit_id: str, plan: MovePlan) -> Polygon:
    footprint = battle.footprint(unit_id).turned(plan.facing)
    return sweep(footprint, heading_vector(plan.facing), plan.travelled, battle.table, []).area


def heading_away(battle: Battle, unit_id: str, source: Point) -> float:
    """Heading from `source` through the unit's centre (rules README, shared geometry)."""
    return heading_of(direction_away(source, battle.footprint(unit_id)))
