"""Player moves: deploy, move, wheel, reform, charge, engage, terrain, new turn.

Each is an event (desktop.engine.events), so a battle stays the fold of its events and every
move can be stored, undone and replayed. `check(battle, event)` accepts a proposed event -
returning it with computed fields filled in (a wheel's arc, a normalised facing) - or raises
MoveRefused naming what is in the way: a table edge, a unit, a piece of impassable terrain.
The builders (`move_to`, `wheel`, `reform`, `charge`, ...) make the event and check it.

Decisions (rules/README.md "Shared geometry decisions"):
- A move turns first, in place, then slides along its path; every segment is swept, so a
  unit cannot jump over another. Units it is engaged with do not block it (players line
  units up in combat); a charge is not blocked by its target on the way.
- A wheel's angle is in degrees clockwise seen from above; the pivot is the inner front
  corner (the right one for a clockwise wheel). Its sweep is checked on poses a few degrees
  apart, close enough that the missed sliver is thinner than CONTACT_TOLERANCE.
- A reform keeps the middle of the front edge where it is; the ranks follow from the models.
  An engaged enemy the narrower unit no longer touches is moved up into contact, as after
  casualties, and one the wider unit would overlap is pushed straight out until they touch
  (`losses`); the reform is refused if it has no room.
- A charge ends with the charger's front flush on the target's nearest edge, centred on it
  if there is room, else slid along the edge to the nearest place that is clear and still
  shares MIN_CHARGE_FRONT of it (or the whole of the shorter front): a corner that only
  grazes the edge is no charge. With no such place, another edge as near as that one.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

from desktop.engine.errors import MoveRefused
from desktop.engine.events import (
    Event,
    TerrainMoved,
    TerrainPlaced,
    TerrainRemoved,
    TerrainRenamed,
    TurnBegan,
    UnitCharged,
    UnitDeployed,
    UnitMoved,
    UnitReformed,
    UnitsDisengaged,
    UnitsEngaged,
    UnitWheeled,
    reformed_center,
    wheeled_pose,
)
from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Footprint,
    Point,
    convex_hull,
    convex_overlap,
    heading_vector,
    in_contact,
    overlaps,
    swept_outline,
)
from desktop.engine.lazy import shapely
from desktop.engine.losses import moved_into_contact, pushed_clear
from desktop.engine.model import Battle, Status, Terrain, UnitState
from desktop.engine.rulesets import get_ruleset
from desktop.engine.spatial import (
    Edge,
    candidates,
    faces_edge,
    flush_pose,
    front_gap,
    nearest_edges,
)

if TYPE_CHECKING:
    from shapely import Polygon


PIVOTS = ("left", "right")
# A wheel is checked on poses this far apart at most (see `_wheel_step`).
MAX_WHEEL_STEP = 15.0
# A path may bend this many times: enough for any drawn route, and a bound on the work.
MAX_PATH_POINTS = 100
# Default names of new pieces by kind ("Hill 1", "Wood 2", "Rocks 3").
TERRAIN_STEMS = {"open": "Hill", "difficult": "Wood", "impassable": "Rocks"}
# A charger slid along its target's edge keeps at least this much front on it (per distance
# unit), or the whole of the shorter of the two fronts.
MIN_CHARGE_FRONT = {"in": 1.0, "cm": 2.5}
_SAME_POINT = 1e-6
_EDGE_TOLERANCE = 1e-9

Corners = Sequence[Point]


# --- the checks ------------------------------------------------------------------------


def check(battle: Battle, event: Event) -> Event:
    """The event as accepted (computed fields filled in), or MoveRefused saying why not."""
    checker = _CHECKS.get(type(event))
    if checker is None:
        names = ", ".join(sorted(cls.__name__ for cls in _CHECKS))
        raise MoveRefused(f"{type(event).__name__} is not a player's move (those are {names})")
    return checker(battle, event)


def _check_deployed(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitDeployed)
    state = _state(battle, event.unit)
    if state.status is not Status.RESERVE:
        raise MoveRefused(f"'{event.unit}' is already on the table ({state.status}): "
                          "move it instead of deploying it")
    center = _point(event.center, "a deployment's centre")
    facing = _bearing(event.facing)
    placed = _footprint_at(battle, event.unit, center, facing)
    _check_clear(battle, event.unit, [placed.corners], frozenset(), "where it is deployed")
    _check_on_table(battle, event.unit, placed)
    return replace(event, center=center, facing=facing)


def _check_moved(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitMoved | UnitCharged)
    state = _movable(battle, event.unit)
    _not_fighting(battle, event.unit, "charge" if isinstance(event, UnitCharged) else "move")
    if event.roll != 0:
        raise MoveRefused(f"a player's move is not rolled: roll must be 0, not {event.roll}")
    if not 2 <= len(event.path) <= MAX_PATH_POINTS:
        raise MoveRefused(f"a move's path runs from the unit's centre through 1 to "
                          f"{MAX_PATH_POINTS - 1} more points, not {len(event.path) - 1}")
    path = tuple(_point(point, "a path point") for point in event.path)
    if math.dist(path[0], state.center) > _SAME_POINT:
        raise MoveRefused(f"the path of '{event.unit}' must start at its centre "
                          f"{_shown(state.center)}, not {_shown(path[0])}")
    facing = _bearing(event.facing)
    ignore = state.engaged_with
    if isinstance(event, UnitCharged):
        if not event.reached:
            raise MoveRefused(f"a player's charge ends in contact: reached must be true "
                              f"for '{event.unit}' charging '{event.target}'")
        _check_target(battle, event.unit, event.target)
        ignore = ignore | {event.target}
    # It turns in place, then slides along each leg with its new facing.
    turned = _footprint_at(battle, event.unit, path[0], facing)
    shapes: list[Corners] = [turned.corners]
    for start, end in itertools.pairwise(path):
        length = math.dist(start, end)
        if length > _SAME_POINT:
            direction = ((end[0] - start[0]) / length, (end[1] - start[1]) / length)
            moving = _footprint_at(battle, event.unit, start, facing)
            shapes.append(swept_outline(moving, direction, length))
    final = _footprint_at(battle, event.unit, path[-1], facing)
    _check_clear(battle, event.unit, [final.corners], state.engaged_with, "where it ends")
    _check_clear(battle, event.unit, shapes, ignore, "on the way")
    _check_on_table(battle, event.unit, final, *shapes)
    if isinstance(event, UnitCharged):
        _check_flush(battle, event.unit, final, event.target)
    # What a window draws: where it stood, that it turned first, the shape it ends with.
    turned_first = "before" if abs(_turn_between(state.facing, facing)) > 1e-9 else ""
    return replace(event, path=path, facing=facing, start_facing=state.facing,
                   turned=turned_first, through=(), footprint=tuple(final.corners))


def _turn_between(start: float, end: float) -> float:
    return (end - start + 180.0) % 360.0 - 180.0


def _check_wheeled(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitWheeled)
    state = _movable(battle, event.unit)
    _not_fighting(battle, event.unit, "wheel")
    if event.pivot not in PIVOTS:
        raise MoveRefused(f"a wheel pivots on the 'left' or 'right' front corner, "
                          f"not '{event.pivot}'")
    angle = _number(event.angle, "a wheel's angle")
    if not 0 < abs(angle) <= 360:
        raise MoveRefused(f"a wheel turns by more than 0 and at most 360 degrees, not {angle:g}")
    inner = "right" if angle > 0 else "left"
    if event.pivot != inner:
        raise MoveRefused(f"a {'clockwise' if angle > 0 else 'counter-clockwise'} wheel "
                          f"pivots on its inner, {inner} front corner, not the {event.pivot}")
    start = battle.footprint(event.unit)
    steps = math.ceil(abs(angle) / _wheel_step(start))
    poses = [start]
    for step in range(1, steps + 1):
        center, facing = wheeled_pose(battle, event.unit, event.pivot, angle * step / steps)
        poses.append(Footprint(center, facing, start.frontage, start.depth))
    shapes = [convex_hull(a.corners + b.corners) for a, b in itertools.pairwise(poses)]
    _check_clear(battle, event.unit, shapes, state.engaged_with, "as it wheels")
    _check_on_table(battle, event.unit, poses[-1], *shapes)
    return replace(event, angle=angle, arc=math.radians(abs(angle)) * start.frontage)


def _wheel_step(footprint: Footprint) -> float:
    """Degrees between checked poses: the arc's bulge past a chord stays under the tolerance.

    A chord of angle a on radius r misses r(1 - cos(a/2)) ~ r a^2 / 8 of the arc.
    """
    radius = math.hypot(footprint.frontage, footprint.depth)
    step = math.degrees(math.sqrt(8 * CONTACT_TOLERANCE / max(radius, CONTACT_TOLERANCE)))
    return min(step, MAX_WHEEL_STEP)


def _check_reformed(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitReformed)
    state = _movable(battle, event.unit)
    if isinstance(event.files, bool) or not 1 <= event.files <= state.models:
        raise MoveRefused(f"'{event.unit}' has {state.models} models: it can stand 1 to "
                          f"{state.models} files wide, not {event.files}")
    if event.files == state.files:
        raise MoveRefused(f"'{event.unit}' already stands {state.files} files wide")
    center = reformed_center(battle, event.unit, event.files)
    placed = _footprint_at(battle, event.unit, center, state.facing, files=event.files)
    _check_clear(battle, event.unit, [placed.corners], state.engaged_with, "once reformed")
    _check_on_table(battle, event.unit, placed)
    return replace(event, moved_up=_kept_in_contact(battle, event.unit, placed))


def _kept_in_contact(battle: Battle, unit_id: str,
                     placed: Footprint) -> tuple[tuple[str, float, float], ...]:
    """Engaged enemies a reform leaves out of contact (it narrowed) or would overlap (it
    widened), moved to touch it again: up, as after casualties, or straight out. Refused
    when one has no room or would lose touch with another unit it fights."""
    moved: list[tuple[str, Footprint]] = []
    for enemy in sorted(battle.states[unit_id].engaged_with):
        if not battle.states[enemy].status.on_table:
            continue
        theirs = battle.footprint(enemy)
        if overlaps(placed.polygon, theirs.polygon):
            verb, place = "overlap", pushed_clear(battle, unit_id, enemy, placed)
        elif not in_contact(placed, theirs):
            verb, place = "lose contact with", moved_into_contact(battle, unit_id, enemy,
                                                                  placed)
        else:
            continue
        if place is None or any(overlaps(place.polygon, mine.polygon) for _, mine in moved):
            raise MoveRefused(f"'{unit_id}' would {verb} '{enemy}' once reformed, and "
                              f"'{enemy}' has no room to make way")
        for other in sorted(battle.states[enemy].engaged_with - {unit_id}):
            if not in_contact(place, battle.footprint(other)):
                raise MoveRefused(f"'{unit_id}' would {verb} '{enemy}' once reformed, and "
                                  f"'{enemy}' cannot make way without losing contact with "
                                  f"'{other}'")
        moved.append((enemy, place))
    return tuple((enemy, *place.center) for enemy, place in moved)


def _check_engaged(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitsEngaged)
    _movable(battle, event.unit)
    _check_target(battle, event.unit, event.enemy)
    if event.enemy in battle.states[event.unit].engaged_with:
        raise MoveRefused(f"'{event.unit}' and '{event.enemy}' are already engaged")
    _check_flush(battle, event.unit, battle.footprint(event.unit), event.enemy)
    return event


def _check_disengaged(battle: Battle, event: Event) -> Event:
    assert isinstance(event, UnitsDisengaged)
    state = _state(battle, event.unit)
    _state(battle, event.enemy)
    if event.enemy not in state.engaged_with:
        raise MoveRefused(f"'{event.unit}' is not engaged with '{event.enemy}'")
    if (battle.states[event.enemy].status.on_table and state.status.on_table
            and overlaps(battle.footprint(event.unit).polygon,
                         battle.footprint(event.enemy).polygon)):
        raise MoveRefused(f"'{event.unit}' overlaps '{event.enemy}': move them apart "
                          "before they stop fighting")
    return event


def _check_terrain_placed(battle: Battle, event: Event) -> Event:
    assert isinstance(event, TerrainPlaced)
    if not event.terrain.strip():
        raise MoveRefused("a piece of terrain needs an id")
    if any(piece.id == event.terrain for piece in battle.terrain):
        raise MoveRefused(f"there is already a piece of terrain '{event.terrain}'")
    if len(event.points) < 3:
        raise MoveRefused(f"terrain '{event.terrain}' needs at least three corner points, "
                          f"not {len(event.points)}")
    points = tuple(_point(point, "a terrain corner") for point in event.points)
    polygon = shapely.Polygon(points)
    if not polygon.is_valid or polygon.area <= 0:
        raise MoveRefused(f"terrain '{event.terrain}' is not a proper outline: it crosses "
                          "itself or encloses no area")
    _check_terrain_fits(battle, event.terrain, points, polygon, event.impassable, "would")
    # Impassable wins over difficult: the accepted event says only what counts.
    return replace(event, points=points, name=event.name or event.terrain,
                   difficult=event.difficult and not event.impassable)


def _check_terrain_fits(battle: Battle, terrain_id: str, points: Corners, polygon: Polygon,
                        impassable: bool, verb: str) -> None:
    """On the table and, if impassable, over no unit ("would cover" / "would end over")."""
    for x, y in points:
        edge = _edge_past(battle, x, y)
        if edge:
            raise MoveRefused(f"terrain '{terrain_id}' {verb} go off the table at the {edge}")
    if impassable:
        for uid in sorted(candidates(battle, polygon)):
            if overlaps(polygon, battle.footprint(uid).polygon):
                raise MoveRefused(f"impassable terrain '{terrain_id}' {verb} cover "
                                  f"unit '{uid}'")


def _piece(battle: Battle, terrain_id: str, doing: str) -> Terrain:
    found = next((piece for piece in battle.terrain if piece.id == terrain_id), None)
    if found is None:
        known = ", ".join(f"'{piece.id}'" for piece in battle.terrain) or "none"
        raise MoveRefused(f"there is no terrain '{terrain_id}' to {doing} (there is {known})")
    return found


def _check_terrain_removed(battle: Battle, event: Event) -> Event:
    assert isinstance(event, TerrainRemoved)
    _piece(battle, event.terrain, "remove")
    return event


def _check_terrain_moved(battle: Battle, event: Event) -> Event:
    assert isinstance(event, TerrainMoved)
    piece = _piece(battle, event.terrain, "move")
    dx, dy = _point((event.dx, event.dy), "a terrain move")
    if math.hypot(dx, dy) <= _SAME_POINT:
        raise MoveRefused(f"terrain '{event.terrain}' does not move: drag it somewhere else")
    points = tuple((x + dx, y + dy) for x, y in piece.points)
    _check_terrain_fits(battle, event.terrain, points, shapely.Polygon(points), piece.impassable,
                        "would then")
    return replace(event, dx=dx, dy=dy)


def _check_terrain_renamed(battle: Battle, event: Event) -> Event:
    assert isinstance(event, TerrainRenamed)
    piece = _piece(battle, event.terrain, "rename")
    name = event.name.strip()
    if not name:
        raise MoveRefused(f"terrain '{event.terrain}' needs a name")
    if name == piece.name:
        raise MoveRefused(f"terrain '{event.terrain}' is already called '{name}'")
    return replace(event, name=name)


def _check_turn(battle: Battle, event: Event) -> Event:
    assert isinstance(event, TurnBegan)
    if event.turn != battle.turn + 1:
        raise MoveRefused(f"turn {battle.turn} is followed by turn {battle.turn + 1}, "
                          f"not {event.turn}")
    return event


_CHECKS: dict[type[Event], Callable[[Battle, Event], Event]] = {
    UnitDeployed: _check_deployed,
    UnitMoved: _check_moved,
    UnitCharged: _check_moved,
    UnitWheeled: _check_wheeled,
    UnitReformed: _check_reformed,
    UnitsEngaged: _check_engaged,
    UnitsDisengaged: _check_disengaged,
    TerrainPlaced: _check_terrain_placed,
    TerrainRemoved: _check_terrain_removed,
    TerrainMoved: _check_terrain_moved,
    TerrainRenamed: _check_terrain_renamed,
    TurnBegan: _check_turn,
}


# --- pieces of the checks ------------------------------------------------------------------


def _state(battle: Battle, unit_id: str) -> UnitState:
    state = battle.states.get(unit_id)
    if state is None:
        raise MoveRefused(f"there is no unit '{unit_id}' in this battle")
    return state


def _movable(battle: Battle, unit_id: str) -> UnitState:
    state = _state(battle, unit_id)
    if state.status is Status.RESERVE:
        raise MoveRefused(f"'{unit_id}' is in reserve: deploy it first")
    if not state.status.on_table:
        raise MoveRefused(f"'{unit_id}' is no longer on the table ({state.status})")
    return state


def _not_fighting(battle: Battle, unit_id: str, doing: str) -> None:
    """A unit in combat stays there until the players say otherwise: leaving is an explicit
    UnitsDisengaged, never a drag that would leave it "engaged" across the table."""
    engaged = sorted(battle.states[unit_id].engaged_with)
    if engaged:
        names = ", ".join(f"'{other}'" for other in engaged)
        raise MoveRefused(f"'{unit_id}' is engaged with {names}: disengage before it can "
                          f"{doing}")


def _check_target(battle: Battle, unit_id: str, target: str) -> None:
    if target == unit_id:
        raise MoveRefused(f"'{unit_id}' cannot charge or fight itself")
    state = _state(battle, target)
    if not state.status.on_table:
        raise MoveRefused(f"'{target}' is not on the table ({state.status})")
    if battle.player_of(target) == battle.player_of(unit_id):
        raise MoveRefused(f"'{target}' is a friend of '{unit_id}', not an enemy")


def _check_flush(battle: Battle, unit_id: str, footprint: Footprint, target: str) -> None:
    """The unit's front edge lies on one of the target's edges and faces it."""
    ranked = nearest_edges(footprint, battle.footprint(target))
    for edge in ranked:
        off, shared = front_gap(footprint, edge)
        if off <= CONTACT_TOLERANCE and shared > CONTACT_TOLERANCE and faces_edge(footprint,
                                                                                  edge):
            return
    off, shared = front_gap(footprint, ranked[0])
    raise MoveRefused(f"'{unit_id}' does not end flush with '{target}': its front is "
                      f"{off:.2f} off the {ranked[0].name} edge of '{target}' and shares "
                      f"{max(shared, 0.0):.2f} of it")


def _check_clear(battle: Battle, unit_id: str, shapes: Iterable[Corners],
                 ignore: frozenset[str], where: str) -> None:
    """No shape overlaps another unit on the table (but `ignore`) or impassable terrain."""
    blocker = _first_blocker(battle, unit_id, shapes, ignore)
    if blocker is not None:
        kind, name = blocker
        raise MoveRefused(f"'{unit_id}' would overlap {kind} '{name}' {where}")


def _first_blocker(battle: Battle, unit_id: str, shapes: Iterable[Corners],
                   ignore: frozenset[str]) -> tuple[str, str] | None:
    """("unit" or "impassable terrain", id) of the first thing a shape overlaps, or None."""
    impassable = [piece for piece in battle.terrain if piece.impassable]
    for shape in shapes:
        xs, ys = [x for x, _ in shape], [y for _, y in shape]
        bounds = (min(xs), min(ys), max(xs), max(ys))
        for uid in sorted(candidates(battle, shapely.box(*bounds))):
            if uid != unit_id and uid not in ignore and convex_overlap(
                    shape, battle.footprint(uid).corners):
                return ("unit", uid)
        for piece in impassable:
            p_min_x, p_min_y, p_max_x, p_max_y = piece.polygon.bounds
            if p_min_x > bounds[2] or p_max_x < bounds[0] or p_min_y > bounds[3] \
                    or p_max_y < bounds[1]:
                continue
            hit = (convex_overlap(shape, piece.points) if piece.convex
                   else overlaps(shapely.Polygon(shape), piece.polygon))
            if hit:
                return ("impassable terrain", piece.id)
    return None


def _check_on_table(battle: Battle, unit_id: str, final: Footprint,
                    *shapes: Corners) -> None:
    for shape in (final.corners, *shapes):
        for x, y in shape:
            edge = _edge_past(battle, x, y)
            if edge:
                raise MoveRefused(f"'{unit_id}' would go off the table at the {edge}")


def _edge_past(battle: Battle, x: float, y: float) -> str:
    """The table edge a point lies beyond, or ''."""
    width, depth = battle.table.width, battle.table.depth
    if x < -_EDGE_TOLERANCE:
        return "left edge (x = 0)"
    if x > width + _EDGE_TOLERANCE:
        return f"right edge (x = {width:g})"
    if y < -_EDGE_TOLERANCE:
        return "bottom edge (y = 0)"
    if y > depth + _EDGE_TOLERANCE:
        return f"top edge (y = {depth:g})"
    return ""


def _footprint_at(battle: Battle, unit_id: str, center: Point, facing: float,
                  files: int | None = None) -> Footprint:
    state, unit = battle.states[unit_id], battle.roster[unit_id]
    files = state.files if files is None else files
    width, depth = unit.profile.base
    ranks = max(math.ceil(state.models / files), 1) if state.models else 1
    return Footprint(center, facing % 360.0, files * width, ranks * depth)


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not math.isfinite(value):
        raise MoveRefused(f"{what} must be a finite number, not {value!r}")
    return float(value)


def _point(point: object, what: str) -> Point:
    if not isinstance(point, tuple | list) or len(point) != 2:
        raise MoveRefused(f"{what} is an (x, y) pair, not {point!r}")
    return (_number(point[0], what), _number(point[1], what))


def _bearing(facing: object) -> float:
    return _number(facing, "a facing") % 360.0


def _shown(point: Point) -> str:
    return f"({point[0]:g}, {point[1]:g})"


# --- builders the window (and the CLI) call --------------------------------------------------


EventType = TypeVar("EventType", bound=Event)


def _checked(battle: Battle, event: EventType) -> EventType:
    """`check` for the builders below: the accepted event, of the kind they made."""
    accepted = check(battle, event)
    assert isinstance(accepted, type(event))
    return accepted


def deploy(battle: Battle, unit_id: str, center: Point, facing: float) -> UnitDeployed:
    return _checked(battle, UnitDeployed(unit_id, center, facing))


def move_to(battle: Battle, unit_id: str, point: Point, facing: float | None = None,
            via: Sequence[Point] = ()) -> UnitMoved:
    """A straight move (or one through `via`) to `point`; facing unchanged unless given."""
    state = _movable(battle, unit_id)
    return _checked(battle, UnitMoved(unit_id, 0, (state.center, *via, point),
                                    state.facing if facing is None else facing))


def wheel(battle: Battle, unit_id: str, angle: float) -> UnitWheeled:
    """Wheel `angle` degrees clockwise (negative: counter-clockwise) about the inner corner."""
    pivot = "right" if _number(angle, "a wheel's angle") > 0 else "left"
    return _checked(battle, UnitWheeled(unit_id, pivot, angle))


def reform(battle: Battle, unit_id: str, files: int) -> UnitReformed:
    return _checked(battle, UnitReformed(unit_id, files))


def charge(battle: Battle, unit_id: str, target: str) -> tuple[UnitCharged, UnitsEngaged]:
    """The charge move into flush contact with `target`, and the engagement it makes."""
    state = _movable(battle, unit_id)
    _check_target(battle, unit_id, target)
    if target in state.engaged_with:
        raise MoveRefused(f"'{unit_id}' is already engaged with '{target}'")
    end = contact_pose(battle, unit_id, target)
    move = check(battle, UnitCharged(unit_id, 0, (state.center, end.center), end.facing,
                                     target=target, reached=True))
    assert isinstance(move, UnitCharged)
    engaged = check(move.apply_to(battle), UnitsEngaged(unit_id, target))
    assert isinstance(engaged, UnitsEngaged)
    return move, engaged


def disengage(battle: Battle, unit_id: str, enemy: str) -> UnitsDisengaged:
    return _checked(battle, UnitsDisengaged(unit_id, enemy))


def place_terrain(battle: Battle, terrain_id: str, points: Sequence[Point], *,
                  impassable: bool = False, difficult: bool = False,
                  name: str = "") -> TerrainPlaced:
    return _checked(battle, TerrainPlaced(terrain_id, name, tuple(points), impassable,
                                        difficult))


def remove_terrain(battle: Battle, terrain_id: str) -> TerrainRemoved:
    return _checked(battle, TerrainRemoved(terrain_id))


def move_terrain(battle: Battle, terrain_id: str, dx: float, dy: float) -> TerrainMoved:
    return _checked(battle, TerrainMoved(terrain_id, dx, dy))


def rename_terrain(battle: Battle, terrain_id: str, name: str) -> TerrainRenamed:
    return _checked(battle, TerrainRenamed(terrain_id, name))


def new_terrain_id(battle: Battle, kind: str) -> tuple[str, str]:
    """A free (id, name) for a new piece of `kind`: ("wood-1", "Wood 1"), ("rocks-2", ...)."""
    stem = TERRAIN_STEMS.get(kind, "Terrain")
    used_ids = {piece.id for piece in battle.terrain}
    used_names = {piece.name for piece in battle.terrain}
    number = 1
    while f"{stem.lower()}-{number}" in used_ids or f"{stem} {number}" in used_names:
        number += 1
    return f"{stem.lower()}-{number}", f"{stem} {number}"


def begin_turn(battle: Battle) -> TurnBegan:
    return TurnBegan(battle.turn + 1)


# --- contact alignment ----------------------------------------------------------------------


def contact_pose(battle: Battle, unit_id: str, target: str) -> Footprint:
    """Where `unit_id` stands to charge `target`: its front flush on the target's nearest edge.

    Centred on that edge where there is room; else slid along it to the nearest clear place
    that still shares some front with it. With no clear place, the centred pose (the check
    then names what is in the way).
    """
    mover = battle.footprint(unit_id)
    ranked = nearest_edges(mover, battle.footprint(target))
    ignore = battle.states[unit_id].engaged_with | {target}
    closest = mover.polygon.distance(shapely.LineString([ranked[0].start, ranked[0].end]))
    for edge in ranked:
        # Only edges as near as the nearest: a mover off a corner may take either side.
        if mover.polygon.distance(shapely.LineString([edge.start, edge.end])) > closest \
                + CONTACT_TOLERANCE:
            break
        pose = _clear_pose_on(battle, unit_id, mover, edge, ignore)
        if pose is not None:
            return pose
    return flush_pose(mover, ranked[0])


def _clear_pose_on(battle: Battle, unit_id: str, mover: Footprint, edge: Edge,
                   ignore: frozenset[str]) -> Footprint | None:
    """The clear flush pose on `edge` nearest its middle that keeps the least front on it
    (`min_charge_front`), or None."""
    centred = flush_pose(mover, edge)
    if _pose_clear(battle, unit_id, centred, ignore):
        return centred
    reach = (mover.frontage + edge.length) / 2 - min_charge_front(battle, mover, edge)
    tried = sorted({offset for offset in _clearing_offsets(battle, unit_id, centred, edge,
                                                           ignore)
                    if abs(offset) <= reach}, key=abs)
    for offset in tried:
        pose = flush_pose(mover, edge, offset)
        if _pose_clear(battle, unit_id, pose, ignore):
            return pose
    return None


def min_charge_front(battle: Battle, mover: Footprint, edge: Edge) -> float:
    """How much of its front a charger keeps on the target's edge at least: MIN_CHARGE_FRONT,
    or the whole of the shorter of the two fronts."""
    least = MIN_CHARGE_FRONT[get_ruleset(battle.ruleset).distance_unit]
    return min(least, mover.frontage, edge.length)


def _pose_clear(battle: Battle, unit_id: str, pose: Footprint, ignore: frozenset[str]) -> bool:
    on_table = all(not _edge_past(battle, x, y) for x, y in pose.corners)
    return on_table and _first_blocker(battle, unit_id, [pose.corners], ignore) is None


def _clearing_offsets(battle: Battle, unit_id: str, centred: Footprint, edge: Edge,
                      ignore: frozenset[str]) -> list[float]:
    """Offsets along the edge that put the mover's side just clear of something near it."""
    rx, ry = heading_vector((centred.facing - 90.0) % 360.0)  # the mover's right hand
    cx, cy = centred.center
    half = centred.frontage / 2
    reach = centred.frontage + edge.length
    band = shapely.box(cx - reach, cy - reach, cx + reach, cy + reach)
    outlines: list[Corners] = [battle.footprint(uid).corners for uid in candidates(battle, band)
                if uid != unit_id and uid not in ignore]
    outlines += [piece.points for piece in battle.terrain if piece.impassable]
    # The table's edges limit the slide too (seen as the ground beyond them).
    outlines.append(((-1e9, -1e9), (0.0, -1e9), (0.0, 1e9), (-1e9, 1e9)))
    outlines.append(((battle.table.width, -1e9), (1e9, -1e9), (1e9, 1e9),
                     (battle.table.width, 1e9)))
    outlines.append(((-1e9, -1e9), (1e9, -1e9), (1e9, 0.0), (-1e9, 0.0)))
    outlines.append(((-1e9, battle.table.depth), (1e9, battle.table.depth), (1e9, 1e9),
                     (-1e9, 1e9)))
    offsets = []
    for points in outlines:
        along = [(x - cx) * rx + (y - cy) * ry for x, y in points]
        offsets += [min(along) - half, max(along) + half]
    return offsets
