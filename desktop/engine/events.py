"""What happened, as values; `apply` folds them into the battle.

Battle state is the fold of its events, so undo, replay, crash recovery and the battle log
are one mechanism. Events that only record a roll or a test change no state; they are kept
so the log can say why things happened.
"""

from __future__ import annotations

import dataclasses
import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Self

from desktop.engine import spatial
from desktop.engine.errors import ScenarioError, quoted
from desktop.engine.geometry import Point
from desktop.engine.losses import rear_rank_off
from desktop.engine.model import TURN_FLAG, Battle, Modifier, Status, Terrain, UnitState

_EVENT_TYPES: dict[str, type[Event]] = {}


@dataclass(frozen=True)
class Event:
    """Base class. Subclasses are registered by class name for JSON round trips.

    `clause` names the rule (an id from rules/README.md) that made it happen.
    """

    clause: str = field(default="", kw_only=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _EVENT_TYPES[cls.__name__] = cls

    def apply_to(self, battle: Battle) -> Battle:
        return battle

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": type(self).__name__}
        for name in _field_names(type(self)):
            data[name] = _plain(getattr(self, name))
        return data


_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _field_names(kind: type[Event]) -> tuple[str, ...]:
    """An event class's fields, in order (dataclasses.fields costs, and a log has many)."""
    found = _FIELD_NAMES.get(kind)
    if found is None:
        found = _FIELD_NAMES[kind] = tuple(item.name for item in dataclasses.fields(kind))
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list | frozenset):
        items = sorted(value) if isinstance(value, frozenset) else value
        return [_plain(item) for item in items]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(item) for item in value)
    return value


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event written by `Event.to_json`."""
    kind = data.get("type")
    cls = _EVENT_TYPES.get(str(kind))
    if cls is None:
        raise ScenarioError(f"unknown event type {quoted(kind)}")
    names = _field_names(cls)
    try:
        return cls(**{k: _tupled(v) for k, v in data.items() if k in names})
    except TypeError as error:
        raise ScenarioError(f"event {quoted(kind)} is missing a field: {error}") from None


def apply(battle: Battle, event: Event) -> Battle:
    """The battle after `event`. Pure: `battle` is not changed."""
    return event.apply_to(battle)


def fold(battle: Battle, events: Iterable[Event]) -> Battle:
    """The battle after every event in turn. Linear in the events, whatever they are: the
    battles in between are never handed out, so they share one mapping of states that each
    event changes (Battle.replaying) instead of copying it."""
    replay: Battle | None = None
    for event in events:
        replay = event.apply_to(battle.replaying() if replay is None else replay)
    return battle if replay is None else replay.settled()


# Kensei K-RA-12: a runner that ran into an enemy loses its Initiative and Honor rolls for as
# long as it stays locked in that combat.
LOCKED_RUNNER = "locked_runner"
# A unit that charged into contact this turn (a charge move, or a pursuit into a fresh
# enemy, W6-PU-2): what a combat's "charged" starts from (desktop.engine.combat). A turn
# flag (model.TURN_FLAG): it lasts until the next TurnBegan.
CHARGED = TURN_FLAG + "charged"


def _disengage(battle: Battle, unit_id: str) -> Battle:
    """Free `unit_id` and everyone fighting it from that combat."""
    engaged = {other: battle.states[other].engaged_with - {unit_id}
               for other in battle.states[unit_id].engaged_with if other in battle.states}
    engaged[unit_id] = frozenset()
    return _set_engaged(battle, engaged)


def _set_engaged(battle: Battle, engaged: Mapping[str, frozenset[str]]) -> Battle:
    """Each unit now engaged with these enemies (one new battle for them all); one engaged
    with none is no longer a locked runner. Sets that stay as they were are not copied."""
    changed = {}
    for unit_id, enemies in engaged.items():
        state = battle.states[unit_id]
        flags = state.flags
        if not enemies and LOCKED_RUNNER in flags:
            flags = flags - {LOCKED_RUNNER}
        if flags is not state.flags or enemies != state.engaged_with:
            changed[unit_id] = state.changed(engaged_with=enemies, flags=flags)
    return battle.with_states(changed)


# --- records of rolls and tests (no change of state) ---------------------------------------


@dataclass(frozen=True)
class CombatResolved(Event):
    """W6-CR-1/2 and BP-B: the scores of one combat and who lost it."""

    combat: str
    scores: tuple[tuple[str, int], ...]
    breakdown: tuple[tuple[str, str, int], ...]  # (player, bonus, value)
    winner: str | None
    difference: int


@dataclass(frozen=True)
class TestTaken(Event):
    """A test rolled against a statistic: `passed` says whether the unit kept its nerve."""

    __test__ = False  # not a pytest test class, whatever its name

    unit: str
    dice: str
    faces: tuple[int, ...]
    modifier: int
    target: int
    passed: bool


@dataclass(frozen=True)
class BreakTest(TestTaken):
    """W6-BT-2 / BP-B: dice + difference against Ld."""


@dataclass(frozen=True)
class PanicTest(TestTaken):
    """W6-PT-2."""


@dataclass(frozen=True)
class RestraintTest(TestTaken):
    """W6-PU-2: holding a unit back from pursuit."""


@dataclass(frozen=True)
class RallyTest(TestTaken):
    """W6-RA-1."""


@dataclass(frozen=True)
class HonorTest(TestTaken):
    """K-HT-1. `attempt` counts from 0 out of `attempts`: Ronin have a second roll after a
    failed first one against Running Away, and the log names which roll this was."""

    attempt: int = field(default=0, kw_only=True)
    attempts: int = field(default=1, kw_only=True)


@dataclass(frozen=True)
class TestWaived(Event):
    """A unit that does not take a test it would otherwise take, and why."""

    __test__ = False  # not a pytest test class, whatever its name

    unit: str
    test: str
    reason: str


@dataclass(frozen=True)
class DiceRolled(Event):
    """A distance roll (flee, pursue, chase) made before anything moves."""

    unit: str
    purpose: str
    dice: str
    faces: tuple[int, ...]
    total: int


@dataclass(frozen=True)
class UnitEscaped(Event):
    unit: str
    flee_roll: int
    pursuit_rolls: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class PursuitDeclared(Event):
    unit: str
    target: str
    overrun: bool = False


# --- changes of state ------------------------------------------------------------------------


@dataclass(frozen=True)
class CasualtiesRemoved(Event):
    """Models come off the rear rank; the front edge stays where it was (`losses`).

    `center` and `corners` say where the unit then stands and `moved_up` which enemies were
    moved (to these centres) to keep their contact. Events saved before these fields existed
    lack them, and `apply_to` works them out the same way.
    """

    unit: str
    models: int
    center: Point | None = field(default=None, kw_only=True)
    corners: tuple[Point, ...] = field(default=(), kw_only=True)
    moved_up: tuple[tuple[str, float, float], ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, models: int, *, clause: str) -> Self:
        """The event with where everything ends filled in."""
        left = max(battle.states[unit].models - models, 0)
        losses = rear_rank_off(battle, unit, left, _files_left(battle, unit, left))
        return cls(unit, models, center=losses.center, corners=losses.corners,
                   moved_up=losses.moved_up, clause=clause)

    def apply_to(self, battle: Battle) -> Battle:
        left = max(battle.states[self.unit].models - self.models, 0)
        return _lose_models(battle, self.unit, left, self.center, self.moved_up)


def _files_left(battle: Battle, unit: str, models: int) -> int:
    # A unit with fewer models than files narrows to one rank of what is left.
    return max(min(battle.states[unit].files, models), 1)


def _lose_models(battle: Battle, unit: str, models: int, center: Point | None,
                 moved_up: tuple[tuple[str, float, float], ...], **changes: Any) -> Battle:
    """`unit` down to `models`, standing at `center`, with `moved_up` enemies moved.

    With no `center` (an event saved before it was recorded) they are worked out here.
    """
    files = _files_left(battle, unit, models)
    if center is None:
        losses = rear_rank_off(battle, unit, models, files)
        center, moved_up = losses.center, losses.moved_up
    battle = battle.update(unit, models=models, files=files, center=center, **changes)
    for enemy, x, y in moved_up:
        battle = battle.update(enemy, center=(x, y))
    return battle


@dataclass(frozen=True)
class UnitBroke(Event):
    unit: str

    def apply_to(self, battle: Battle) -> Battle:
        return battle.update(self.unit, status=Status.BROKEN)


@dataclass(frozen=True)
class UnitPanicked(Event):
    unit: str
    cause: str


    def apply_to(self, battle: Battle) -> Battle:
        return battle.update(self.unit, status=Status.BROKEN)


@dataclass(frozen=True)
class Movement(Event):
    """Base for moves: the unit ends at the last point of `path`, facing `facing`.

    The rest lets a window draw the move: `path` is every point the centre passed through
    (its first point and `start_facing` are the pose before), `turned` says whether the unit
    turned "before" moving or "after" it (or "" if it never turned), `through` lists each
    friend passed through with the points of the path where the unit entered and left it,
    and `footprint` is the four corners it ends on. Events saved before these fields
    existed read with their defaults.
    """

    unit: str
    roll: int
    path: tuple[Point, ...]
    facing: float
    start_facing: float = field(default=0.0, kw_only=True)
    turned: str = field(default="", kw_only=True)
    through: tuple[tuple[str, Point, Point], ...] = field(default=(), kw_only=True)
    footprint: tuple[Point, ...] = field(default=(), kw_only=True)

    def _moved(self, battle: Battle, *, charged: bool = False, **also: Any) -> Battle:
        """The battle with the unit where the move ends, and `also` changed in its state in
        the same copy (a flee's new status: a forecast applies thousands of flees)."""
        if charged:
            return battle.update(self.unit, center=self.path[-1], facing=self.facing,
                                 flags=battle.states[self.unit].flags | {CHARGED}, **also)
        return battle.update(self.unit, center=self.path[-1], facing=self.facing, **also)


@dataclass(frozen=True)
class UnitMoved(Movement):
    """A player's move (roll 0): along `path`, ending facing `facing`; checked by `moves`."""

    def apply_to(self, battle: Battle) -> Battle:
        return self._moved(battle)


@dataclass(frozen=True)
class UnitFled(Movement):
    away_from: str
    passed_through: tuple[str, ...] = ()
    blocked_by: str = ""

    def apply_to(self, battle: Battle) -> Battle:
        return _disengage(self._moved(battle, status=Status.FLEEING), self.unit)


@dataclass(frozen=True)
class UnitPursued(Movement):
    target: str
    charged: str = ""  # the fresh enemy it ran into, if any

    def apply_to(self, battle: Battle) -> Battle:
        battle = _disengage(self._moved(battle, charged=bool(self.charged)), self.unit)
        if self.charged:
            battle = UnitsEngaged(self.unit, self.charged).apply_to(battle)
        return battle


@dataclass(frozen=True)
class UnitLeftTable(Movement):

    def apply_to(self, battle: Battle) -> Battle:
        return _disengage(self._moved(battle, status=Status.LEFT_TABLE), self.unit)


@dataclass(frozen=True)
class UnitCharged(Movement):
    """A charge move; `reached` says whether it got to `target` (then it charged this turn)."""

    target: str
    reached: bool

    def apply_to(self, battle: Battle) -> Battle:
        return self._moved(battle, charged=self.reached)


@dataclass(frozen=True)
class UnitCaught(Event):
    """Caught where it stood: `corners` is that footprint (empty in older saves)."""

    unit: str
    by: tuple[str, ...]
    flee_roll: int
    pursuit_rolls: tuple[tuple[str, int], ...]
    corners: tuple[Point, ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, by: tuple[str, ...], flee_roll: int,
              pursuit_rolls: tuple[tuple[str, int], ...], *, clause: str) -> Self:
        return cls(unit, by, flee_roll, pursuit_rolls, corners=battle.footprint(unit).corners,
                   clause=clause)


@dataclass(frozen=True)
class UnitDestroyed(Event):
    """Off the table; `corners` is the footprint where it stood (empty in older saves)."""

    unit: str
    reason: str
    corners: tuple[Point, ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, reason: str, *, clause: str) -> Self:
        return cls(unit, reason, corners=battle.footprint(unit).corners, clause=clause)

    def apply_to(self, battle: Battle) -> Battle:
        battle = _disengage(battle, self.unit)
        return battle.update(self.unit, status=Status.DESTROYED)


@dataclass(frozen=True)
class UnitRallied(Event):
    unit: str

    def apply_to(self, battle: Battle) -> Battle:
        return battle.update(self.unit, status=Status.READY)


@dataclass(frozen=True)
class UnitsEngaged(Event):
    """Two units now fight each other (a pursuit into a fresh enemy, a lock in Kensei)."""

    unit: str
    enemy: str

    def apply_to(self, battle: Battle) -> Battle:
        first, second = battle.states[self.unit], battle.states[self.enemy]
        return _set_engaged(battle, {self.unit: first.engaged_with | {self.enemy},
                                     self.enemy: second.engaged_with | {self.unit}})


@dataclass(frozen=True)
class ChargeFailed(Event):
    unit: str
    target: str


@dataclass(frozen=True)
class TurnBegan(Event):
    """A new turn: modifiers that ran out with the last one are dropped, turn flags cleared."""

    turn: int

    def apply_to(self, battle: Battle) -> Battle:
        # Only the units with something to drop get a new state; the rest keep theirs (and
        # their footprints), and no unit's flags are copied unless one goes. A replay knows
        # which units those may be (ReplayStates); otherwise every unit is looked at.
        replay = battle.replay
        if replay is None:
            looked_at: Iterable[str] = battle.states
        else:
            replay = replay.for_new_turn()
            looked_at = replay.turn_flagged
            replay.turn_flagged = set()
            while replay.expiring and replay.expiring[0][0] < self.turn:
                looked_at.add(heapq.heappop(replay.expiring)[1])
        changed = {}
        for uid in looked_at:
            state = battle.states[uid]
            dropped = self._dropped(state)
            if dropped is not state:
                changed[uid] = dropped
        return battle.with_states(changed).with_fields(turn=self.turn)

    def _dropped(self, state: UnitState) -> UnitState:
        """`state` without its turn flags and the modifiers that ran out before this turn."""
        if not (state.flags or state.modifiers):
            return state
        flags, modifiers = state.flags, state.modifiers
        if any(flag.startswith(TURN_FLAG) for flag in flags):
            flags = frozenset(f for f in flags if not f.startswith(TURN_FLAG))
        if any(m.expires_after_turn < self.turn for m in modifiers):
            modifiers = tuple(m for m in modifiers if m.expires_after_turn >= self.turn)
        if flags is state.flags and modifiers is state.modifiers:
            return state
        return state.changed(flags=flags, modifiers=modifiers)


# Battles saved before the rename still say "TurnStarted".
_EVENT_TYPES["TurnStarted"] = TurnBegan


@dataclass(frozen=True)
class ModifierApplied(Event):
    unit: str
    stat: str
    delta: int
    expires_after_turn: int
    source: str

    def apply_to(self, battle: Battle) -> Battle:
        state = battle.states[self.unit]
        modifier = Modifier(self.stat, self.delta, self.expires_after_turn, self.source)
        return battle.update(self.unit, modifiers=(*state.modifiers, modifier))


@dataclass(frozen=True)
class FlagSet(Event):
    """A marker on a unit: `turn:` flags last until the next TurnBegan."""

    unit: str
    flag: str

    def apply_to(self, battle: Battle) -> Battle:
        flags = battle.states[self.unit].flags
        if self.flag in flags:
            return battle
        return battle.update(self.unit, flags=flags | {self.flag})


# --- Kensei ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WoundsSuffered(Event):
    """Damage to a unit: whole models come off its rear rank, the rest stays on a wounded
    model. `center`, `corners` and `moved_up` as for CasualtiesRemoved."""

    unit: str
    wounds: int
    center: Point | None = field(default=None, kw_only=True)
    corners: tuple[Point, ...] = field(default=(), kw_only=True)
    moved_up: tuple[tuple[str, float, float], ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, wounds: int, *, clause: str) -> Self:
        """The event with where everything ends filled in."""
        left, _ = cls(unit, wounds)._left(battle)
        losses = rear_rank_off(battle, unit, left, _files_left(battle, unit, left))
        return cls(unit, wounds, center=losses.center, corners=losses.corners,
                   moved_up=losses.moved_up, clause=clause)

    def _left(self, battle: Battle) -> tuple[int, int]:
        """Models left and wounds lost on the wounded one."""
        state = battle.states[self.unit]
        per_model = battle.roster[self.unit].profile.wounds
        total = state.wounds_lost + self.wounds
        models = max(state.models - total // per_model, 0)
        return models, total % per_model if models else 0

    def apply_to(self, battle: Battle) -> Battle:
        models, wounds_lost = self._left(battle)
        return _lose_models(battle, self.unit, models, self.center, self.moved_up,
                            wounds_lost=wounds_lost)


@dataclass(frozen=True)
class RunnerLocked(Event):
    """K-RA-12: a running unit ran into an enemy; both are now locked in combat.

    `corners` is the footprint where the runner stopped and `touching` every enemy it then
    touches (empty in older saves); only `enemy`, the one it ran into, is locked with it.
    """

    unit: str
    enemy: str
    corners: tuple[Point, ...] = field(default=(), kw_only=True)
    touching: tuple[str, ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, enemy: str, *, clause: str) -> Self:
        touching = tuple(spatial.touching_enemies(battle, unit))
        return cls(unit, enemy, corners=battle.footprint(unit).corners, touching=touching,
                   clause=clause)

    def apply_to(self, battle: Battle) -> Battle:
        battle = UnitsEngaged(self.unit, self.enemy).apply_to(battle)
        flags = battle.states[self.unit].flags
        return battle.update(self.unit, status=Status.READY,
                             flags=flags if LOCKED_RUNNER in flags else flags | {LOCKED_RUNNER})


@dataclass(frozen=True)
class UnitChased(Movement):
    """K-RA-7: a Chase move; `reached` is the unit it ran into, if any."""

    target: str
    reached: str = ""

    def apply_to(self, battle: Battle) -> Battle:
        return self._moved(battle)


@dataclass(frozen=True)
class ChaseReached(Event):
    """K-RA-8: the chaser caught up with the runner and makes a free attack."""

    unit: str
    target: str


@dataclass(frozen=True)
class ChaseCharged(Event):
    """K-RA-8: the chaser ran into another enemy: a successful Charge, fought next turn."""

    unit: str
    enemy: str

    def apply_to(self, battle: Battle) -> Battle:
        return UnitsEngaged(self.unit, self.enemy).apply_to(battle)


@dataclass(frozen=True)
class CommandPointSpent(Event):
    player: str
    unit: str
    purpose: str


@dataclass(frozen=True)
class UnitTurned(Event):
    """A turn about the centre where the unit stands (K-RG-1).

    Drawable like a move: `center` is where it turns, `start_facing` its facing before and
    `footprint` the corners it ends on (None / empty in older saves).
    """

    unit: str
    facing: float
    start_facing: float | None = field(default=None, kw_only=True)
    center: Point | None = field(default=None, kw_only=True)
    footprint: tuple[Point, ...] = field(default=(), kw_only=True)

    @classmethod
    def build(cls, battle: Battle, unit: str, facing: float, *, clause: str) -> Self:
        """The event with the pose before and the footprint after filled in."""
        standing = battle.footprint(unit)
        return cls(unit, facing, start_facing=standing.facing, center=standing.center,
                   footprint=standing.turned(facing).corners, clause=clause)

    def apply_to(self, battle: Battle) -> Battle:
        return battle.update(self.unit, facing=self.facing % 360.0)


# --- player moves (checked by desktop.engine.moves before they are accepted) ----------------


@dataclass(frozen=True)
class UnitDeployed(Event):
    """A unit in reserve is put on the table at `center`, facing `facing`."""

    unit: str
    center: Point
    facing: float

    def apply_to(self, battle: Battle) -> Battle:
        return battle.update(self.unit, center=self.center, facing=self.facing % 360.0,
                             status=Status.READY)


@dataclass(frozen=True)
class UnitWheeled(Event):
    """A wheel about a front corner: `pivot` "left" or "right", `angle` degrees clockwise.

    The pivot is the inner corner, so a clockwise (positive) wheel pivots on the right.
    `arc` is how far the outer front corner travelled: the angle in radians x frontage.
    """

    unit: str
    pivot: str
    angle: float
    arc: float = 0.0

    def apply_to(self, battle: Battle) -> Battle:
        center, facing = wheeled_pose(battle, self.unit, self.pivot, self.angle)
        return battle.update(self.unit, center=center, facing=facing)


def wheeled_pose(battle: Battle, unit_id: str, pivot: str, angle: float) -> tuple[Point, float]:
    """Centre and facing after a wheel of `angle` degrees clockwise about a front corner."""
    footprint = battle.footprint(unit_id)
    corner = footprint.corners[0] if pivot == "left" else footprint.corners[1]
    radians = math.radians(-angle)  # facings turn counter-clockwise; a wheel's angle clockwise
    cos, sin = math.cos(radians), math.sin(radians)
    dx, dy = footprint.center[0] - corner[0], footprint.center[1] - corner[1]
    return ((corner[0] + dx * cos - dy * sin, corner[1] + dx * sin + dy * cos),
            (footprint.facing - angle) % 360.0)


@dataclass(frozen=True)
class UnitReformed(Event):
    """A new number of files; ranks follow from the models. The front's middle stays put.

    `moved_up` says which engaged enemies were moved (to these centres) to stay in contact:
    up to a narrower unit, as for CasualtiesRemoved, or out of the way of a wider one;
    `moves.check` fills it in.
    """

    unit: str
    files: int
    moved_up: tuple[tuple[str, float, float], ...] = field(default=(), kw_only=True)

    def apply_to(self, battle: Battle) -> Battle:
        battle = battle.update(self.unit, files=self.files,
                               center=reformed_center(battle, self.unit, self.files))
        for enemy, x, y in self.moved_up:
            battle = battle.update(enemy, center=(x, y))
        return battle


def reformed_center(battle: Battle, unit_id: str, files: int) -> Point:
    """Where the centre goes when the unit reforms to `files` wide, its front's middle kept."""
    state, footprint = battle.states[unit_id], battle.footprint(unit_id)
    depth = max(math.ceil(state.models / files), 1) * battle.roster[unit_id].profile.base[1]
    fx, fy = math.cos(math.radians(state.facing)), math.sin(math.radians(state.facing))
    shift = (footprint.depth - depth) / 2  # forward when the unit gets shallower
    return (state.center[0] + fx * shift, state.center[1] + fy * shift)


@dataclass(frozen=True)
class UnitsDisengaged(Event):
    """Two units stop fighting each other (the player pulls them apart)."""

    unit: str
    enemy: str

    def apply_to(self, battle: Battle) -> Battle:
        first, second = battle.states[self.unit], battle.states[self.enemy]
        return _set_engaged(battle, {self.unit: first.engaged_with - {self.enemy},
                                     self.enemy: second.engaged_with - {self.unit}})


@dataclass(frozen=True)
class TerrainPlaced(Event):
    """A piece of terrain drawn on the table: its outline and whether units may enter it
    (`impassable`) or it is difficult ground (`difficult`; impassable wins)."""

    terrain: str
    name: str
    points: tuple[Point, ...]
    impassable: bool = False
    difficult: bool = False

    def apply_to(self, battle: Battle) -> Battle:
        piece = Terrain(self.terrain, self.name, self.points, self.impassable, self.difficult)
        pieces = _pieces(battle)
        if pieces is None or piece.id in pieces:
            return battle.with_fields(terrain=(*battle.terrain, piece))
        pieces[piece.id] = piece
        return _with_pieces(battle)


@dataclass(frozen=True)
class TerrainRemoved(Event):
    """A piece of terrain taken off the table (removing one that is not there changes nothing;
    `moves.check` refuses it as a player's move)."""

    terrain: str

    def apply_to(self, battle: Battle) -> Battle:
        pieces = _pieces(battle)
        if pieces is None:
            kept = tuple(piece for piece in battle.terrain if piece.id != self.terrain)
            return battle.with_fields(terrain=kept)
        pieces.pop(self.terrain, None)
        return _with_pieces(battle)


@dataclass(frozen=True)
class TerrainMoved(Event):
    """A piece of terrain slid by (dx, dy), keeping its place in the drawing order.

    One event rather than TerrainRemoved + TerrainPlaced: one undo step, one line in the log,
    and the piece stays under the pieces drawn after it."""

    terrain: str
    dx: float
    dy: float

    def apply_to(self, battle: Battle) -> Battle:
        pieces = _pieces(battle)
        if pieces is None:
            moved = tuple(self.moved(piece) if piece.id == self.terrain else piece
                          for piece in battle.terrain)
            return battle.with_fields(terrain=moved)
        if self.terrain in pieces:
            pieces[self.terrain] = self.moved(pieces[self.terrain])
        return _with_pieces(battle)

    def moved(self, piece: Terrain) -> Terrain:
        """`piece` where this event puts it."""
        return replace(piece, points=tuple((x + self.dx, y + self.dy) for x, y in piece.points))


@dataclass(frozen=True)
class TerrainRenamed(Event):
    """A piece of terrain given a new name (its id stays)."""

    terrain: str
    name: str

    def apply_to(self, battle: Battle) -> Battle:
        pieces = _pieces(battle)
        if pieces is None:
            renamed = tuple(replace(piece, name=self.name) if piece.id == self.terrain
                            else piece for piece in battle.terrain)
            return battle.with_fields(terrain=renamed)
        if self.terrain in pieces:
            pieces[self.terrain] = replace(pieces[self.terrain], name=self.name)
        return _with_pieces(battle)


def _pieces(battle: Battle) -> dict[str, Terrain] | None:
    """In a replay, the battle's pieces by id for a terrain event to change in place (a
    dict keeps their order; ReplayStates.terrain_pieces); otherwise None."""
    replay = battle.replay
    return None if replay is None else replay.terrain_pieces(battle.terrain)


def _with_pieces(battle: Battle) -> Battle:
    replay = battle.replay
    assert replay is not None
    return battle.with_fields(terrain=replay.terrain_after())


# Battles saved before the player-move events were named say "EngagedInCombat".
_EVENT_TYPES["EngagedInCombat"] = UnitsEngaged
