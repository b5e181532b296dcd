"""Where a unit stands after losing models: casualties come off its rear rank.

The front rank fights, so losses never move it: the midpoint of the front edge stays put and
the rear edge comes forward (a unit with fewer models than files also narrows, about that
same midpoint). The centre therefore moves forward by half of each rank lost.

An enemy that touched the unit before the losses and no longer does (one engaged in the
rear, or on a flank beside the ranks that went) is moved up by the shortest step that brings
it back into contact, as players do at the table. It keeps its facing. If that step would put
it into another unit, impassable terrain or off the table, it slides along the side it
touches to the nearest place that is clear; with no such place it stays where it is and the
contact is lost. Only enemies are moved, one step each, and nothing else is moved on to keep
their own contacts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from desktop.engine import spatial
from desktop.engine.geometry import Footprint, Point, heading_vector, in_contact, overlaps
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle

# A blocked enemy slides along the side it touches in steps this long (inches; a clear
# stretch shorter than a step may be passed over), then the nearest clear place is found to
# within SLIDE_STEP / 2**REFINE_HALVINGS. Coarse steps keep a resolution's casualties cheap.
SLIDE_STEP = 0.25
REFINE_HALVINGS = 12


@dataclass(frozen=True)
class Losses:
    """A unit's place after losses, and the enemies moved up to keep their contact."""

    center: Point
    corners: tuple[Point, ...]
    moved_up: tuple[tuple[str, float, float], ...]  # (enemy, new centre x, new centre y)


def rear_rank_off(battle: Battle, unit_id: str, models: int, files: int) -> Losses:
    """The unit with `models` left in `files` files, its front edge where it was."""
    before = battle.footprint(unit_id)
    base_w, base_d = battle.roster[unit_id].profile.base
    ranks = max(-(-models // files) if models else 0, 1)  # a wiped-out unit keeps one rank
    depth = ranks * base_d
    fx, fy = heading_vector(before.facing)
    # Front-edge midpoint, then back half the new depth from it.
    front = (before.center[0] + fx * before.depth / 2, before.center[1] + fy * before.depth / 2)
    center = (front[0] - fx * depth / 2, front[1] - fy * depth / 2)
    after = Footprint(center, before.facing, files * base_w, depth)
    moved: list[tuple[str, float, float]] = []
    places: list[Footprint] = []  # where the enemies moved so far now stand
    if models:
        for enemy in spatial.touching_enemies(battle, unit_id):
            theirs = battle.footprint(enemy)
            if in_contact(after, theirs):
                continue
            place = moved_into_contact(battle, unit_id, enemy, after, avoid=places)
            if place is not None:
                moved.append((enemy, *place.center))
                places.append(place)
    return Losses(center, after.corners, tuple(moved))


def moved_into_contact(battle: Battle, unit_id: str, enemy: str, after: Footprint,
                       avoid: Sequence[Footprint] = ()) -> Footprint | None:
    """`enemy` moved by the shortest step that touches `unit_id` standing at `after`; if that
    is blocked, slid along the side it touches to the nearest place that is clear. None when
    no such place is on the table, clear of other units (and of `avoid`: where enemies moved
    before it now stand) and of impassable terrain."""
    theirs = battle.footprint(enemy)
    (source_x, source_y), (target_x, target_y) = shapely.shortest_line(
        theirs.polygon, after.polygon).coords
    step = theirs.moved(target_x - source_x, target_y - source_y)
    if _has_room(battle, unit_id, enemy, step, avoid):
        return step
    # Slid along the side, an enemy at an angle to it could cross into the unit itself.
    avoid = (*avoid, after)
    along = _side_direction(after, (target_x, target_y), (target_x - source_x,
                                                          target_y - source_y))
    reach = max(after.frontage, after.depth) + max(theirs.frontage, theirs.depth)
    offsets = [SLIDE_STEP * index for index in range(1, math.ceil(reach / SLIDE_STEP) + 1)]
    for offset in offsets:
        touching, found = False, []
        for sign in (1.0, -1.0):
            place = step.moved(along[0] * offset * sign, along[1] * offset * sign)
            if not in_contact(place, after):
                continue
            touching = True
            if _has_room(battle, unit_id, enemy, place, avoid):
                found.append(_nearest_clear(battle, unit_id, enemy, step,
                                            (along[0] * sign, along[1] * sign), offset, avoid))
        if found:  # clear both ways within this step: the nearer one
            return min(found, key=lambda place: math.dist(place.center, step.center))
        if not touching:
            break  # slid past the end of the side both ways
    return None


def pushed_clear(battle: Battle, unit_id: str, enemy: str,
                 after: Footprint) -> Footprint | None:
    """`enemy`, which `unit_id` standing at `after` would overlap (a unit widening beside it),
    pushed straight out from the side of the unit it touched until the two only touch; None
    when that place is off the table, in another unit or in impassable terrain, or when it
    no longer touches the unit (an enemy at an angle whose nearest corner is past the
    unit's side once reformed)."""
    theirs, before = battle.footprint(enemy), battle.footprint(unit_id)
    fx, fy = heading_vector(after.facing)

    def reach(corners: tuple[Point, ...], axis: Point) -> list[float]:
        return [x * axis[0] + y * axis[1] for x, y in corners]

    pushes = []
    for axis in ((fx, fy), (-fx, -fy), (-fy, fx), (fy, -fx)):
        # How far the enemy stood out past the unit on this side before (0 where it touched)
        # and how far it must go now; it goes out from the side it touched.
        apart = min(reach(theirs.corners, axis)) - max(reach(before.corners, axis))
        length = max(reach(after.corners, axis)) - min(reach(theirs.corners, axis))
        pushes.append((-apart, length, axis))
    _, length, (dx, dy) = min(pushes)
    place = theirs.moved(dx * length, dy * length)
    if not in_contact(place, after):
        return None
    return place if _has_room(battle, unit_id, enemy, place) else None


def _side_direction(after: Footprint, touched: Point, step: Point) -> Point:
    """Unit vector along the side of `after` at `touched`: of the sides through that point,
    the one most square to the step (at a corner, the side the enemy came up against)."""
    corners = after.corners
    best: tuple[float, float, Point] | None = None
    for start, end in zip(corners, corners[1:] + corners[:1], strict=True):
        side = (end[0] - start[0], end[1] - start[1])
        length = math.hypot(*side)
        unit = (side[0] / length, side[1] / length)
        gap = abs((touched[0] - start[0]) * unit[1] - (touched[1] - start[1]) * unit[0])
        squareness = abs(unit[0] * step[0] + unit[1] * step[1])
        if best is None or (round(gap, 9), squareness) < best[:2]:
            best = (round(gap, 9), squareness, unit)
    assert best is not None
    return best[2]


def _nearest_clear(battle: Battle, unit_id: str, enemy: str, step: Footprint,
                   along: Point, clear_at: float, avoid: Sequence[Footprint]) -> Footprint:
    """The place nearest `step` along `along` that is clear, found between the last blocked
    offset (one SLIDE_STEP short of `clear_at`) and `clear_at` by halving."""
    blocked = clear_at - SLIDE_STEP
    for _ in range(REFINE_HALVINGS):
        middle = (blocked + clear_at) / 2
        if _has_room(battle, unit_id, enemy,
                     step.moved(along[0] * middle, along[1] * middle), avoid):
            clear_at = middle
        else:
            blocked = middle
    return step.moved(along[0] * clear_at, along[1] * clear_at)


def _has_room(battle: Battle, unit_id: str, enemy: str, place: Footprint,
              avoid: Sequence[Footprint] = ()) -> bool:
    if not battle.table.contains(place):
        return False
    others = [battle.footprint(uid).polygon for uid in spatial.candidates(battle, place.polygon)
              if uid not in (unit_id, enemy)]
    others += [piece.polygon for piece in battle.terrain if piece.impassable]
    others += [footprint.polygon for footprint in avoid]
    return not any(overlaps(place.polygon, other) for other in others)
