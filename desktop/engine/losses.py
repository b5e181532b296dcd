"""Where a unit stands after losing models: casualties come off its rear rank.

The front rank fights, so losses never move it: the midpoint of the front edge stays put and
the rear edge comes forward (a unit with fewer models than files also narrows, about that
same midpoint). The centre therefore moves forward by half of each rank lost.

An enemy that touched the unit before the losses and no longer does (one engaged in the
rear, or on a flank beside the ranks that went) is moved up by the shortest step that brings
it back into contact, as players do at the table. It keeps its facing. If that step would put
it into another unit, impassable terrain or off the table it stays where it is and the
contact is lost. Only enemies are moved, one step each, and nothing else is moved on to keep
their own contacts.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.engine import spatial
from desktop.engine.geometry import Footprint, Point, heading_vector, in_contact, overlaps
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle


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
    if models:
        for enemy in spatial.touching_enemies(battle, unit_id):
            theirs = battle.footprint(enemy)
            if in_contact(after, theirs):
                continue
            place = _moved_up(battle, unit_id, enemy, theirs, after)
            if place is not None:
                moved.append((enemy, *place.center))
    return Losses(center, after.corners, tuple(moved))


def _moved_up(battle: Battle, unit_id: str, enemy: str, theirs: Footprint,
              after: Footprint) -> Footprint | None:
    """The enemy moved by the shortest step that touches `after`; None if it has no room."""
    (source_x, source_y), (target_x, target_y) = shapely.shortest_line(
        theirs.polygon, after.polygon).coords
    place = theirs.moved(target_x - source_x, target_y - source_y)
    if not battle.table.contains(place):
        return None
    others = [battle.footprint(uid).polygon for uid in spatial.candidates(battle, place.polygon)
              if uid not in (unit_id, enemy)]
    others += [piece.polygon for piece in battle.terrain if piece.impassable]
    if any(overlaps(place.polygon, other) for other in others):
        return None
    return place
