"""What a battle may look like, whatever door it came in by: the one check of a battle's
state for battle files, scenarios and every event replayed onto them.

The engine never leaves a unit hanging off the table, overlapping another unit or standing
on impassable terrain: `moves.check` refuses a player's move that would, and the rules'
own moves stop short (movement.py). A file's events were made somewhere else, so what they
lead to is checked here instead, one event at a time: each unit an event moves (and each
piece of terrain it puts down) is checked against what stands around it, so a replay costs
the same per event on a table of 10 units and one of 5,000.

Limits (README, "Rout JSON"): a table is at most MAX_TABLE on a side (inches or
centimetres, as the ruleset counts: the window's New Battle dialog stops there too), holds
at most MAX_TERRAIN pieces of terrain of 3 to MAX_CORNERS corners each.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from desktop.engine import spatial
from desktop.engine.errors import ScenarioError
from desktop.engine.events import (
    Event,
    TerrainMoved,
    TerrainPlaced,
    TerrainRemoved,
    UnitReformed,
)
from desktop.engine.geometry import Table, overlaps
from desktop.engine.lazy import numpy, shapely
from desktop.engine.model import (
    MAX_FLAGS,
    MAX_MODIFIERS,
    Battle,
    Terrain,
    UnitState,
    prepare_terrain,
)

MAX_TABLE = 1000.0
# Each terrain event makes a new tuple of the pieces (in C, but still all of them), so
# the pieces times the events a file can hold (a 20 MB file: ~400,000) stay in seconds.
MAX_TERRAIN = 1_000
MAX_CORNERS = 100
MAX_MODELS = 10_000
_EDGE = 1e-9  # as the table's own contains() and moves.py allow


class ReplayError(ScenarioError):
    """An event of a replay that cannot be, `index` its place among the events."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


def table_problem(width: float, depth: float) -> str | None:
    """What is wrong with a table of this size, or None."""
    for name, value in (("width", width), ("depth", depth)):
        if not math.isfinite(value) or value <= 0:
            return f"the table's {name} must be a number greater than 0, not {value:g}"
        if value > MAX_TABLE:
            return (f"a table {value:g} wide or deep is larger than Rout plays on (at most "
                    f"{MAX_TABLE:g} on a side)")
    return None


def corners_problem(points: Sequence[tuple[float, float]]) -> str | None:
    """What is wrong with an outline of terrain, or None: 3 to MAX_CORNERS corners that
    enclose an area and do not cross themselves."""
    if len(points) < 3:
        return f"a piece of terrain needs at least three corner points, not {len(points)}"
    if len(points) > MAX_CORNERS:
        return f"a piece of terrain has at most {MAX_CORNERS} corners, not {len(points)}"
    polygon = shapely.Polygon(points)
    if not polygon.is_valid or polygon.area <= 0:
        return "not a proper outline: it crosses itself or encloses no area"
    return None


def outlines_problem(outlines: Sequence[Sequence[tuple[float, float]]]
                     ) -> tuple[int, str] | None:
    """The first of `outlines` that `corners_problem` refuses, and why, or None; the shapes
    are made and tested in one vectorised call (each of 3 to MAX_CORNERS corners)."""
    for index, points in enumerate(outlines):
        if not 3 <= len(points) <= MAX_CORNERS:
            return index, corners_problem(points) or ""
    if not outlines:
        return None
    rings = shapely.linearrings([point for points in outlines for point in points],
                                indices=[i for i, points in enumerate(outlines)
                                         for _ in points])
    polygons = shapely.polygons(rings)
    bad = numpy.flatnonzero(~shapely.is_valid(polygons) | (shapely.area(polygons) <= 0))
    if not len(bad):
        return None
    index = int(bad[0])
    return index, corners_problem(outlines[index]) or "not a proper outline"


def off_table(table: Table, points: Sequence[tuple[float, float]]) -> bool:
    return any(not (-_EDGE <= x <= table.width + _EDGE and -_EDGE <= y <= table.depth + _EDGE)
               for x, y in points)


def check_battle(battle: Battle) -> None:
    """A battle as a file sets it up: a table Rout plays on, terrain on it, and every unit
    on the table fitting on it, clear of impassable terrain and of every other unit.
    ScenarioError names the first problem (the same one a look at every pair would)."""
    problem = table_problem(battle.table.width, battle.table.depth)
    if problem:
        raise ScenarioError(problem)
    if len(battle.terrain) > MAX_TERRAIN:
        raise ScenarioError(f"{len(battle.terrain)} pieces of terrain is more than a table "
                            f"holds (at most {MAX_TERRAIN})")
    ids: set[str] = set()
    for piece in battle.terrain:
        if piece.id in ids:
            raise ScenarioError(f"two pieces of terrain are called '{piece.id}'")
        ids.add(piece.id)
        if off_table(battle.table, piece.points):
            raise ScenarioError(f"terrain '{piece.id}' goes off the "
                                f"{battle.table.width:g}x{battle.table.depth:g} table")
    placed = list(battle.on_table())
    for uid in placed:
        if not battle.table.contains(battle.footprint(uid)):
            raise ScenarioError(f"unit '{uid}' does not fit on the "
                                f"{battle.table.width:g}x{battle.table.depth:g} table "
                                f"at {_shown(battle.states[uid].center)}")
    # The index finds the few units each shape might touch; they are checked in roster
    # order, so the first problem named is the one a look at every pair would name.
    index = spatial.unit_index(battle)  # its ids are `placed`, in the same order
    polygons = [battle.footprint(uid).polygon for uid in index.ids]
    impassable = [piece for piece in battle.terrain if piece.impassable]
    prepare_terrain(impassable)
    for piece in impassable:
        for i in sorted(index.tree.query(piece.polygon)):
            if overlaps(polygons[i], piece.polygon):
                raise ScenarioError(f"unit '{index.ids[i]}' stands on impassable terrain "
                                    f"'{piece.id}'")
    for i, polygon in enumerate(polygons):
        for j in sorted(j for j in index.tree.query(polygon) if j > i):
            if overlaps(polygon, polygons[j]):
                raise ScenarioError(f"units '{index.ids[i]}' and '{index.ids[j]}' overlap on "
                                    "the table")


def replay(battle: Battle, events: Sequence[Event]) -> Battle:
    """`battle` after `events`, each checked as it comes (ReplayError names the first that
    cannot be): it must apply, and leave every unit it touches in a state a battle can be
    in and every unit it moves, and every piece of terrain it puts down, where the engine
    would have let it be. `battle` itself must have passed `check_battle`.

    Linear in the events: a replay (Battle.replaying) changes one mapping of states in
    place, and each event is checked against what is near what it changed.
    """
    checker = _Checker(battle)
    current = battle.replaying()
    for index, event in enumerate(events):
        try:
            current = checker.step(current, event)
        except ScenarioError as error:
            raise ReplayError(index, str(error)) from None
        except KeyError as error:
            raise ReplayError(index, f"names {error}, which is not a unit of this battle"
                              ) from None
        except (IndexError, TypeError, ValueError, ArithmeticError) as error:
            raise ReplayError(index, f"cannot be applied to the battle: {error}") from None
    return current.settled()


@dataclass
class _Checker:
    """What a replay keeps to check each event against what is near it."""

    battle: Battle
    pieces: dict[str, Terrain] = field(default_factory=dict)  # id -> piece, terrain order
    rocks: _Boxes = field(default_factory=lambda: _Boxes())  # impassable pieces, by id
    units: _Boxes = field(default_factory=lambda: _Boxes())  # units on the table

    def __post_init__(self) -> None:
        self.pieces = {piece.id: piece for piece in self.battle.terrain}
        for piece in self.battle.terrain:
            if piece.impassable:
                self.rocks.put(piece.id, _bounds(piece.points))
        for uid, state in self.battle.states.items():  # a row each, in roster order
            self.units.put(uid, _bounds(self.battle.footprint(uid).corners)
                           if state.status.on_table else None)

    def step(self, battle: Battle, event: Event) -> Battle:
        self._before(battle, event)
        named = [uid for uid in _names(event) if uid in battle.states]
        before = {uid: battle.states[uid] for uid in named}  # the replay changes them in place
        after = event.apply_to(battle)
        for uid, old in before.items():
            new = after.states[uid]
            if new is not old:
                _check_state(after, new)
                if _placed_anew(old, new):
                    on_table = new.status.on_table
                    self.units.put(uid, _bounds(after.footprint(uid).corners) if on_table
                                   else None)
                    if on_table:
                        self._check_placed(after, uid)
        self._terrain_after(after, event)
        return after

    def _before(self, battle: Battle, event: Event) -> None:
        """What would make an event fail half-way, or put terrain where none may be."""
        if isinstance(event, UnitReformed):
            state = battle.states[event.unit]
            if not 1 <= event.files <= max(state.models, 1):
                raise ScenarioError(f"'{event.unit}' has {state.models} models: it can stand "
                                    f"1 to {max(state.models, 1)} files wide, not "
                                    f"{event.files}")
        elif isinstance(event, TerrainPlaced):
            problem = corners_problem(event.points)
            if problem:
                raise ScenarioError(f"terrain '{event.terrain}': {problem}")
            if event.terrain in self.pieces:
                raise ScenarioError(f"there is already a piece of terrain '{event.terrain}'")
            if len(self.pieces) >= MAX_TERRAIN:
                raise ScenarioError(f"a table holds at most {MAX_TERRAIN} pieces of terrain")

    def _terrain_after(self, after: Battle, event: Event) -> None:
        if isinstance(event, TerrainPlaced):
            piece = Terrain(event.terrain, event.name, event.points, event.impassable,
                            event.difficult)
        elif isinstance(event, TerrainMoved) and event.terrain in self.pieces:
            piece = event.moved(self.pieces[event.terrain])
        else:
            if isinstance(event, TerrainRemoved) and event.terrain in self.pieces:
                self.pieces.pop(event.terrain)
                self.rocks.put(event.terrain, None)
            return
        if off_table(after.table, piece.points):
            raise ScenarioError(f"terrain '{piece.id}' goes off the "
                                f"{after.table.width:g}x{after.table.depth:g} table")
        self.pieces[piece.id] = piece
        if piece.impassable:
            self.rocks.put(piece.id, _bounds(piece.points))
            for uid in self.units.meeting(_bounds(piece.points)):  # in roster order
                if overlaps(piece.polygon, after.footprint(uid).polygon):
                    raise ScenarioError(f"impassable terrain '{piece.id}' would cover unit "
                                        f"'{uid}'")

    def _check_placed(self, battle: Battle, unit_id: str) -> None:
        """The unit where it now stands: on the table, on no impassable terrain, over no
        other unit."""
        footprint = battle.footprint(unit_id)
        if not battle.table.contains(footprint):
            raise ScenarioError(f"'{unit_id}' would stand off the "
                                f"{battle.table.width:g}x{battle.table.depth:g} table at "
                                f"{_shown(footprint.center)}")
        bounds = _bounds(footprint.corners)
        for piece_id in self.rocks.meeting(bounds):
            if overlaps(footprint.polygon, self.pieces[piece_id].polygon):
                raise ScenarioError(f"'{unit_id}' would stand on impassable terrain "
                                    f"'{piece_id}'")
        for uid in self.units.meeting(bounds):  # in roster order
            if uid != unit_id and overlaps(footprint.polygon, battle.footprint(uid).polygon):
                raise ScenarioError(f"'{unit_id}' would overlap unit '{uid}'")


Bounds = tuple[float, float, float, float]


def _bounds(points: Sequence[tuple[float, float]]) -> Bounds:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


class _Boxes:
    """Things of a replay by the bounds of their outlines, a row each in one array kept up
    to date as they move, come and go: which meet a box is one vectorised comparison of the
    rows, so a move on a table of 5,000 units costs about what one on a table of 50 does,
    and no tree is rebuilt as they move (an STRtree query and its rebuilds cost more)."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.row: dict[str, int] = {}
        self.bounds = numpy.full((16, 4), numpy.nan)  # a row of NaN meets nothing

    def put(self, key: str, bounds: Bounds | None) -> None:
        """`key` now covers `bounds` (None: nothing, it is gone)."""
        row = self.row.get(key)
        if row is None:
            row = self.row[key] = len(self.keys)
            self.keys.append(key)
            if row == len(self.bounds):  # doubled: each row is copied a few times at most
                self.bounds = numpy.vstack([self.bounds, numpy.full_like(self.bounds,
                                                                         numpy.nan)])
        self.bounds[row] = numpy.nan if bounds is None else bounds

    def meeting(self, bounds: Bounds) -> list[str]:
        """The keys whose bounds meet `bounds`, in the order they first came."""
        if not self.keys:
            return []
        rows = self.bounds[:len(self.keys)]
        hit = ((rows[:, 0] <= bounds[2]) & (rows[:, 2] >= bounds[0])
               & (rows[:, 1] <= bounds[3]) & (rows[:, 3] >= bounds[1]))
        return [self.keys[int(i)] for i in numpy.flatnonzero(hit)]


def _names(event: Event) -> Iterator[str]:
    """Every text in an event's fields, lists of them included: the units it names are
    among them, and only units it names are moved by it (events.py)."""
    kind = type(event)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(item.name for item in dataclasses.fields(kind))
    for name in names:
        yield from _texts(getattr(event, name))


_FIELDS: dict[type[Event], tuple[str, ...]] = {}


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple) and value:
        first = value[0]
        if isinstance(first, float | int) or (isinstance(first, tuple) and first
                                              and isinstance(first[0], float | int)):
            return  # a point, or a list of them (a path, corners): no names in there
        for item in value:
            yield from _texts(item)


def _placed_anew(old: UnitState, new: UnitState) -> bool:
    return (old.center, old.facing, old.files, old.models, old.status.on_table) != (
        new.center, new.facing, new.files, new.models, new.status.on_table)


def _check_state(battle: Battle, state: UnitState) -> None:
    """A unit's state within what a battle file's state may hold (codec.state_from_json)."""
    uid, unit = state.unit_id, battle.roster[state.unit_id]
    if not 0 <= state.models <= unit.models:
        raise ScenarioError(f"'{uid}' would have {state.models} models (it has "
                            f"{unit.models})")
    if not 1 <= state.files <= MAX_MODELS:
        raise ScenarioError(f"'{uid}' would stand {state.files} files wide")
    if not 0 <= state.wounds_lost < unit.profile.wounds:
        raise ScenarioError(f"'{uid}' would have lost {state.wounds_lost} wounds on a model "
                            f"of {unit.profile.wounds}")
    if not (math.isfinite(state.facing) and all(map(math.isfinite, state.center))):
        raise ScenarioError(f"'{uid}' would stand nowhere on the table")
    if len(state.flags) > MAX_FLAGS:
        raise ScenarioError(f"'{uid}' would carry more than {MAX_FLAGS} flags")
    if len(state.modifiers) > MAX_MODIFIERS:
        raise ScenarioError(f"'{uid}' would carry more than {MAX_MODIFIERS} modifiers")
    player = unit.player
    for other in sorted(state.engaged_with):
        if other not in battle.roster:
            raise ScenarioError(f"'{uid}' would be engaged with '{other}', which is not a "
                                "unit of this battle")
        if battle.roster[other].player == player:
            raise ScenarioError(f"'{uid}' would be engaged with '{other}', a friend")


def _shown(point: tuple[float, float]) -> str:
    return f"({point[0]:g}, {point[1]:g})"

