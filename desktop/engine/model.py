"""The things a battle is made of, as frozen values.

`Unit` is what a roster says (profile, models, upgrades) and never changes during a battle;
`UnitState` is where the unit is and how it is doing, and changes only through events
(`desktop.engine.events.apply`). `Battle` holds both plus the table and terrain.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from desktop.engine.geometry import Footprint, Obstacle, ObstacleKind, Point, Table
from desktop.engine.lazy import shapely

if TYPE_CHECKING:
    from shapely import Polygon

# What one unit carries at most, as files give them: each FlagSet or ModifierApplied copies
# them all, so without a bound a long file's replay grew with the square of its events. The
# rulesets set two kinds of flag and a few modifiers a turn.
MAX_FLAGS = 100
MAX_MODIFIERS = 100
# Flags starting with this last until the next TurnBegan; others until their cause ends.
TURN_FLAG = "turn:"


class TroopType(StrEnum):
    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    MONSTER = "monster"
    LARGE = "large"  # Kensei's Large Creatures
    CHARIOT = "chariot"
    WAR_MACHINE = "war_machine"
    SWARM = "swarm"
    CHARACTER = "character"


class Status(StrEnum):
    READY = "ready"
    BROKEN = "broken"  # failed a Break or Panic test; has not moved yet
    FLEEING = "fleeing"  # W6/BP fleeing, Kensei Running Away
    DESTROYED = "destroyed"
    LEFT_TABLE = "left_table"
    RESERVE = "reserve"  # in the battle but not yet deployed (UnitDeployed puts it down)

    @property
    def on_table(self) -> bool:
        return self not in (Status.DESTROYED, Status.LEFT_TABLE, Status.RESERVE)


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy; a read-only view is kept as it is, for it is one made here (a
    battle's, a profile's): a new battle then shares its roster with the one it came from
    instead of copying every unit for every event."""
    if type(mapping) is MappingProxyType:
        return mapping
    return MappingProxyType(dict(mapping))


def _with_items(mapping: Mapping[str, Any], changes: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy with some items replaced. A view's `|` copies the dict underneath at
    C speed; `{**view, ...}` went through the view key by key, 25x slower."""
    if type(mapping) is MappingProxyType:
        return MappingProxyType(mapping | changes)
    return MappingProxyType({**mapping, **changes})


# A footprint is kept on the UnitState it was worked out from, with the Unit (and so the
# base) it was worked out for: a new battle then finds the footprints of every unit that did
# not change without copying a cache of them all.
_FOOTPRINT = "_footprint"
# Each unit's place in the roster, worked out once per battle and handed on to the battles
# made from it (their units are the same).
_UNIT_ORDER = "_unit_order"
# A battle being replayed (`Battle.replaying`): its mapping of states belongs to the replay.
_REPLAY = "_replay"


class ReplayStates:
    """The states of a battle while a replay folds events into it, changed in place.

    A battle is a frozen value, and a new one per event copied the whole mapping of states:
    O(units) an event, 5,000 units times half a million events. A replay (events.fold) only
    ever hands on its latest battle, so its battles may share one mapping that each event
    changes. It also keeps what a new turn drops (TurnBegan), so that a turn costs what it
    drops rather than a look at every unit: the units carrying a turn flag, and a heap of
    (the earliest turn a unit's modifiers run out after, unit) (entries may be stale: a
    TurnBegan looks again at the units it pops). Those are worked out at the first new turn
    (`for_new_turn`): a fold without one looks at no unit it does not change.
    """

    def __init__(self, states: Mapping[str, UnitState]) -> None:
        self.states: dict[str, UnitState] = dict(states)
        self.turn_flagged: set[str] = set()
        self.expiring: list[tuple[int, str]] = []
        self._tracking = False
        self._pieces: dict[str, Terrain] = {}
        self._terrain: tuple[Terrain, ...] | None = None  # what `_pieces` holds, in order

    def terrain_pieces(self, terrain: tuple[Terrain, ...]) -> dict[str, Terrain] | None:
        """The pieces of `terrain` by id, in order, for the replay's terrain events to change
        in place (then `terrain_after`): a rename or a move no longer looks at every piece.
        None when two pieces share an id (only a battle built by hand has them)."""
        if self._terrain is not terrain:
            pieces = {piece.id: piece for piece in terrain}
            if len(pieces) != len(terrain):
                return None
            self._pieces, self._terrain = pieces, terrain
        return self._pieces

    def terrain_after(self) -> tuple[Terrain, ...]:
        """The terrain once `terrain_pieces` was changed."""
        self._terrain = tuple(self._pieces.values())
        return self._terrain

    def for_new_turn(self) -> ReplayStates:
        """Itself, tracking what a new turn drops from now on (every unit looked at once)."""
        if not self._tracking:
            self._tracking = True
            for state in self.states.values():
                self.noted(None, state)
        return self

    def noted(self, old: UnitState | None, new: UnitState) -> None:
        """Keep track of what a new turn will look at in `new` (replacing `old`)."""
        if not self._tracking:
            return
        if new.flags and (old is None or new.flags is not old.flags) and any(
                flag.startswith(TURN_FLAG) for flag in new.flags):
            self.turn_flagged.add(new.unit_id)
        if new.modifiers and (old is None or new.modifiers is not old.modifiers):
            heapq.heappush(self.expiring, (min(m.expires_after_turn for m in new.modifiers),
                                           new.unit_id))


@dataclass(frozen=True)
class UnitProfile:
    """One model's rules: ruleset statistics, troop type, base and special rules."""

    name: str
    stats: Mapping[str, int]
    troop_type: TroopType = TroopType.INFANTRY
    base: tuple[float, float] = (1.0, 1.0)  # width, depth in table units
    unit_strength: int = 1  # per model (W6)
    wounds: int = 1  # per model
    special_rules: frozenset[str] = frozenset()
    flies: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "stats", _frozen(self.stats))

    def has(self, rule: str) -> bool:
        return rule in self.special_rules


@dataclass(frozen=True)
class RosterPrice:
    """What a unit costs by the army builder's roster it was imported from, split so that
    its points can follow its size: `per_model` for each model (the selection's own cost
    and its models' costs, divided by the models), `upgrades` for everything else (options,
    command, items, mounts), which does not change with the number of models."""

    per_model: float
    upgrades: int = 0


@dataclass(frozen=True)
class Unit:
    """A roster entry: a profile and how many models, in which formation, with what."""

    id: str
    name: str
    player: str
    profile: UnitProfile
    models: int
    files: int  # models in the front rank
    upgrades: frozenset[str] = frozenset()  # "standard", "musician", ...
    # Wounds on characters who lead the unit; Kensei leaves them out of the shooting trigger.
    character_wounds: int = 0
    # Roster bookkeeping: no rule reads these.
    points: int = 0
    slot: str = ""  # the army-list category, such as "Core" or "Heroes"
    notes: tuple[str, ...] = ()
    # How the points follow the models (desktop.engine.roster): a unit from a library has
    # no price of its own, an imported one has its roster's; `points_typed` marks points the
    # player typed, which then stay as typed until they ask for the listed price again.
    price: RosterPrice | None = None
    points_typed: bool = False

    def has(self, rule: str) -> bool:
        return rule in self.profile.special_rules or rule in self.upgrades

    @property
    def ranks(self) -> int:
        """Ranks of the roster formation; the last may be short (12 models 5 wide: 3)."""
        return math.ceil(self.models / self.files) if self.files > 0 else 0


@dataclass(frozen=True)
class BookProblem:
    """A limit of the army book that the army breaks, in the catalogue's words, as the
    engine found it when the army was last changed; `unit_id` the unit it concerns ("":
    the army as a whole)."""

    message: str
    unit_id: str = ""
    selection_id: str = ""


@dataclass(frozen=True)
class ArmyBook:
    """The BattleScribe roster behind an army built from a player's game data (an army
    book): which game system and catalogue (and its revision) it was built from, its
    selections as `desktop.engine.bsdata.document` writes them (entry ids, counts, costs,
    categories), which unit each root selection became, and the catalogue's limits it
    breaks. Kept with the army, so that showing it needs no game data; changing it does."""

    game_system_id: str
    game_system_name: str
    catalogue_id: str
    catalogue_name: str
    catalogue_revision: int
    roster: Mapping[str, Any]
    units: tuple[tuple[str, str], ...] = ()  # (unit id, the id of its root selection)
    problems: tuple[BookProblem, ...] = ()

    def selection_of(self, unit_id: str) -> str | None:
        return next((selection for unit, selection in self.units if unit == unit_id), None)

    def unit_of(self, selection_id: str) -> str | None:
        return next((unit for unit, selection in self.units if selection == selection_id),
                    None)


@dataclass(frozen=True)
class Army:
    name: str
    player: str
    ruleset: str
    units: tuple[Unit, ...]
    points_limit: int = 0  # 0: no limit
    notes: tuple[str, ...] = ()
    id: str = ""  # given by the store when the army is first saved
    army_list: str = ""  # the id of its library's army list ("": none chosen)
    # The store's count of saves, from 1; 0 for an army not yet saved. A save says which
    # version it started from, so one from an older version is refused, not silently lost.
    version: int = 0
    # Built from an army book (BattleScribe game data): its roster; None for an army made
    # of library units or imported as plain units.
    book: ArmyBook | None = None

    @property
    def points(self) -> int:
        return sum(unit.points for unit in self.units)

    @property
    def models(self) -> int:
        return sum(unit.models for unit in self.units)


@dataclass(frozen=True)
class ArmyList:
    """One army list of a library (Orcs & Goblins, a Kensei faction): the units an army of
    that list takes. `catalogues` are BattleScribe catalogue names that mean this list."""

    id: str
    name: str
    catalogues: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntryLimit:
    """How many units of one library entry an army may field: `most` per army ("0-1"),
    or `most` for every `per_points` of the army's size, or for every unit in `per_slot`
    ("one per Core unit"). At most one of `per_points` and `per_slot` is set."""

    most: int
    per_points: int = 0
    per_slot: str = ""


@dataclass(frozen=True)
class LibraryEntry:
    """A unit players add from a ruleset's library: its profile and what it usually costs."""

    ruleset: str
    profile: UnitProfile
    points_per_model: int = 0
    slot: str = ""
    models: int = 10  # a new unit's size
    upgrade_costs: Mapping[str, int] = field(default_factory=dict)  # per unit
    lists: frozenset[str] = frozenset()  # army list ids that take it; empty: any list
    limit: EntryLimit | None = None  # an army book's "0-1" and the like

    def __post_init__(self) -> None:
        object.__setattr__(self, "upgrade_costs", _frozen(self.upgrade_costs))


@dataclass(frozen=True)
class Modifier:
    """A change to a statistic, lasting until the end of turn `expires_after_turn`."""

    stat: str
    delta: int
    expires_after_turn: int
    source: str


@dataclass(frozen=True)
class UnitState:
    unit_id: str
    center: Point
    facing: float
    files: int
    models: int
    status: Status = Status.READY
    wounds_lost: int = 0
    engaged_with: frozenset[str] = frozenset()
    modifiers: tuple[Modifier, ...] = ()
    # Short-lived markers a ruleset needs, such as Kensei's "ran from a charge this turn".
    flags: frozenset[str] = frozenset()

    @property
    def ranks(self) -> int:
        return math.ceil(self.models / self.files) if self.models else 0

    @property
    def full_ranks(self) -> int:
        return self.models // self.files if self.files else 0

    def changed(self, **changes: Any) -> UnitState:
        """`dataclasses.replace`, 8x faster (a replay makes one per event), keeping the
        footprint worked out for this state when the unit still covers the same ground."""
        unknown = changes.keys() - _STATE_FIELDS
        if unknown:
            raise TypeError(f"UnitState has no field {sorted(unknown)[0]!r}")
        state = object.__new__(UnitState)
        fields = state.__dict__
        fields.update(self.__dict__)
        if not changes.keys().isdisjoint(_PLACING):
            fields.pop(_FOOTPRINT, None)
        fields.update(changes)
        return state


_STATE_FIELDS: Final = frozenset(item.name for item in dataclass_fields(UnitState))
_PLACING: Final = frozenset({"center", "facing", "files", "models"})  # what a footprint reads


TERRAIN_KINDS: Final = ("open", "difficult", "impassable")


def terrain_kind(impassable: bool, difficult: bool) -> str:
    return "impassable" if impassable else "difficult" if difficult else "open"


@dataclass(frozen=True)
class Terrain:
    """A piece of terrain: open ground, difficult ground or impassable (which wins over
    difficult). Difficult ground is recorded and drawn; no movement rule reads it yet."""

    id: str
    name: str
    points: tuple[Point, ...]
    impassable: bool = False
    difficult: bool = False

    @property
    def kind(self) -> str:
        """One of TERRAIN_KINDS; impassable wins over difficult."""
        return terrain_kind(self.impassable, self.difficult)

    @cached_property
    def polygon(self) -> Polygon:
        return shapely.Polygon(self.points)

    @cached_property
    def convex(self) -> bool:
        return abs(float(self.polygon.convex_hull.area) - float(self.polygon.area)) < 1e-9


def prepare_terrain(pieces: Sequence[Terrain]) -> None:
    """Work out the shapely polygon and convexity of many pieces at once, as `polygon` and
    `convex` would one by one (the same GEOS calls, vectorised): a table of thousands."""
    todo = [piece for piece in pieces if "polygon" not in piece.__dict__]
    if len(todo) < 2:
        return
    rings = shapely.linearrings([point for piece in todo for point in piece.points],
                                indices=[i for i, piece in enumerate(todo)
                                         for _ in piece.points])
    polygons = shapely.polygons(rings)
    hull_areas = shapely.area(shapely.convex_hull(polygons))
    areas = shapely.area(polygons)
    for piece, polygon, hull_area, area in zip(todo, polygons, hull_areas, areas, strict=True):
        piece.__dict__["polygon"] = polygon
        if "convex" not in piece.__dict__:
            piece.__dict__["convex"] = abs(float(hull_area) - float(area)) < 1e-9


@dataclass(frozen=True)
class Zone:
    """Where one player deploys: an axis-aligned rectangle (x0, y0, x1, y1) on the table."""

    player: str
    rect: tuple[float, float, float, float]

    @property
    def width(self) -> float:
        return self.rect[2] - self.rect[0]

    @property
    def depth(self) -> float:
        return self.rect[3] - self.rect[1]

    @property
    def center(self) -> Point:
        return ((self.rect[0] + self.rect[2]) / 2, (self.rect[1] + self.rect[3]) / 2)


@dataclass(frozen=True)
class Battle:
    ruleset: str
    table: Table
    roster: Mapping[str, Unit]
    states: Mapping[str, UnitState]
    terrain: tuple[Terrain, ...] = ()
    turn: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)
    zones: tuple[Zone, ...] = ()  # deployment zones; none for a battle set up by hand

    def zone_of(self, player: str) -> Zone | None:
        return next((zone for zone in self.zones if zone.player == player), None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "roster", _frozen(self.roster))
        object.__setattr__(self, "states", _frozen(self.states))
        object.__setattr__(self, "options", _frozen(self.options))

    # Queries used by every ruleset. Rules themselves live in the ruleset modules.

    def unit(self, unit_id: str) -> Unit:
        return self.roster[unit_id]

    def state(self, unit_id: str) -> UnitState:
        return self.states[unit_id]

    def with_state(self, state: UnitState) -> Battle:
        return self.with_states({state.unit_id: state})

    def with_states(self, states: Mapping[str, UnitState]) -> Battle:
        """New states for some units, in one copy of the mapping of states.

        The other fields are shared, not copied, and the new battle is made without
        `dataclasses.replace`, which costs 5x as much: a replay makes one per event. The
        footprints of the units that did not change stay on their states; the spatial index
        (desktop.engine.spatial) carries over, noting what changed, and so does the terrain's
        (desktop.engine.movement).
        """
        if not states:
            return self
        battle = object.__new__(Battle)
        battle.__dict__.update({name: self.__dict__[name] for name in _BATTLE_FIELDS})
        if _UNIT_ORDER in self.__dict__:  # the same units, in the same order
            battle.__dict__[_UNIT_ORDER] = self.__dict__[_UNIT_ORDER]
        terrain = self.__dict__.get("_terrain_index")  # desktop.engine.movement: same terrain
        if terrain is not None:
            battle.__dict__["_terrain_index"] = terrain
        index = self.__dict__.get("_unit_index")
        if index is not None:
            for state in states.values():
                index = index.after(self.states.get(state.unit_id), state)
            # A stale index is rebuilt at its next query anyway; carried on, its list of the
            # units moved since would grow with every event of a replay nobody queries.
            if not index.stale:
                battle.__dict__["_unit_index"] = index
        replay: ReplayStates | None = self.__dict__.get(_REPLAY)
        if replay is None:
            battle.__dict__["states"] = _with_items(self.states, states)
        else:  # the replay's own mapping: changed in place, handed on (ReplayStates)
            for unit_id, state in states.items():
                replay.noted(replay.states.get(unit_id), state)
            replay.states.update(states)
            battle.__dict__[_REPLAY] = replay
        return battle

    def with_fields(self, **changes: Any) -> Battle:
        """`dataclasses.replace` for the fields an event changes besides the states (the turn,
        the terrain), 5x faster, keeping what is kept on a battle for its units (their
        index and order, the replay it is part of): none of them moved."""
        unknown = changes.keys() - {"turn", "terrain"}
        if unknown:
            raise TypeError(f"with_fields changes the turn and the terrain, not "
                            f"{sorted(unknown)[0]!r}")
        battle = object.__new__(Battle)
        battle.__dict__.update({name: self.__dict__[name] for name in _BATTLE_FIELDS})
        battle.__dict__.update(changes)
        for key in (*_HANDED_ON, _REPLAY):
            if key in self.__dict__ and not (key == "_terrain_index" and "terrain" in changes):
                battle.__dict__[key] = self.__dict__[key]
        return battle

    def replaying(self) -> Battle:
        """This battle with a mapping of states of its own, which `with_states` changes in
        place (ReplayStates): for a fold that hands on only its latest battle. The battles
        it made before are not to be used again; `settled` ends it."""
        replay = ReplayStates(self.states)
        battle = object.__new__(Battle)
        battle.__dict__.update({name: self.__dict__[name] for name in _BATTLE_FIELDS})
        for key in _HANDED_ON:  # what does not change with the states it is kept for
            if key in self.__dict__:
                battle.__dict__[key] = self.__dict__[key]
        battle.__dict__["states"] = MappingProxyType(replay.states)
        battle.__dict__[_REPLAY] = replay
        return battle

    def settled(self) -> Battle:
        """A battle from `replaying` as a value again: nothing changes its states now."""
        self.__dict__.pop(_REPLAY, None)
        return self

    @property
    def replay(self) -> ReplayStates | None:
        """The replay this battle is part of (`replaying`), or None."""
        found: ReplayStates | None = self.__dict__.get(_REPLAY)
        return found

    def update(self, unit_id: str, **changes: Any) -> Battle:
        return self.with_state(self.states[unit_id].changed(**changes))

    def player_of(self, unit_id: str) -> str:
        return self.roster[unit_id].player

    def footprint(self, unit_id: str) -> Footprint:
        # A state never changes, so its footprint (and its shapely polygon) can be kept.
        state, unit = self.states[unit_id], self.roster[unit_id]
        kept = state.__dict__.get(_FOOTPRINT)
        if kept is not None and kept[0] is unit:
            found: Footprint = kept[1]
            return found
        base_w, base_d = unit.profile.base
        found = Footprint(state.center, state.facing, state.files * base_w,
                          max(state.ranks, 1) * base_d)
        state.__dict__[_FOOTPRINT] = (unit, found)
        return found

    def on_table(self) -> Iterator[str]:
        """Ids of the units still on the table, in roster order."""
        return (uid for uid, state in self.states.items() if state.status.on_table)

    def in_roster_order(self, unit_ids: Iterable[str]) -> list[str]:
        """These units in roster order, as `on_table` lists them, each once: what the spatial
        index finds comes in the order a look at every unit would have found it."""
        order: dict[str, int] | None = self.__dict__.get(_UNIT_ORDER)
        if order is None:
            order = self.__dict__[_UNIT_ORDER] = {uid: i for i, uid in enumerate(self.states)}
        return sorted(set(unit_ids), key=order.__getitem__)

    def enemies_of(self, unit_id: str) -> list[str]:
        player = self.player_of(unit_id)
        return [uid for uid in self.on_table() if self.player_of(uid) != player]

    def stat(self, unit_id: str, name: str) -> int:
        """A statistic with the modifiers still running this turn."""
        base = self.roster[unit_id].profile.stats[name]
        return base + sum(m.delta for m in self.states[unit_id].modifiers
                          if m.stat == name and m.expires_after_turn >= self.turn)

    def unit_strength(self, unit_id: str) -> int:
        return self.states[unit_id].models * self.roster[unit_id].profile.unit_strength

    def obstacles_for(self, unit_id: str,
                      ignore: frozenset[str] = frozenset()) -> tuple[Obstacle, ...]:
        """Every other unit on the table and every impassable piece of terrain."""
        cache: dict[tuple[str, frozenset[str]], tuple[Obstacle, ...]] = (
            self.__dict__.setdefault("_obstacles", {}))
        found = cache.get((unit_id, ignore))
        if found is None:
            player = self.player_of(unit_id)
            units = [
                Obstacle(uid, ObstacleKind.FRIEND if self.player_of(uid) == player
                         else ObstacleKind.ENEMY, self.footprint(uid).corners,
                         self.footprint(uid).polygon, convex=True)
                for uid in self.on_table() if uid != unit_id and uid not in ignore
            ]
            terrain = [Obstacle(piece.id, ObstacleKind.IMPASSABLE, piece.points, piece.polygon,
                                convex=piece.convex)
                       for piece in self.terrain if piece.impassable]
            found = cache[(unit_id, ignore)] = (*units, *terrain)
        return found


_BATTLE_FIELDS: Final = tuple(item.name for item in dataclass_fields(Battle))
# Kept on a battle and handed to the battles made from it: the roster order, the terrain's
# index (desktop.engine.movement) and the units' (desktop.engine.spatial, which notes what
# moved since).
_HANDED_ON: Final = (_UNIT_ORDER, "_terrain_index", "_unit_index")
