"""Setting up a battle: armies into reserve, deployment zones, and lining a side up.

Decisions (README, "Battles"):
- Every unit starts in RESERVE; `deploy_army` (or the player, unit by unit) puts it down.
- A unit id two armies share gets the army's place as a prefix in both ("1-spears",
  "2-spears"), so events name one unit; ids only one army uses are kept.
- Two armies whose player is the same name (both "Player", say) would be one side: the
  second and later take their army's name as player instead (else "Player (2)").
- Default table: 72x48" for warhammer6 and breaks_pursues; 180x120 cm for kensei1 (the
  rules here give no size; that is the 6x4 ft table in centimetres).
- Default zones: each side a strip along its own long table edge, 12" deep (30 cm for
  Kensei), at most a third of the table's depth. With more than two armies they take the
  bottom and top edges in turn, and the armies on one edge share its strip in equal parts,
  left to right.
- `deploy_army` puts a player's reserve in its zone facing the enemy's edge (the zone's
  back is to the table edge nearest it; the long edges win a tie). Units go in roster
  order, left to right as the player sees it, front line first (the zone's edge nearest the
  enemy), each line centred in the zone, a new line behind when one is full. Every
  placement is checked by `moves.check`, so the events are always accepted.
- The gaps let every unit make its first move without touching a neighbour: beside it, at
  least GAP (1", 2.5 cm) and as much as its wheel swings out (a wheel about one front
  corner swings the far rear corner out by up to the diagonal less the frontage); between
  lines, at least GAP and as much as turning in place takes a unit back or forward (half
  its frontage less its depth). A zone that runs to the table's side keeps GAP clear of
  that edge, so no unit (a lone character, say) stands against it and cannot wheel.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from desktop.engine import moves
from desktop.engine.errors import MoveRefused, ScenarioError
from desktop.engine.events import UnitDeployed
from desktop.engine.geometry import Point, Table
from desktop.engine.model import Army, Battle, Status, Unit, UnitState, Zone
from desktop.engine.rulesets import get_ruleset

# Per distance unit: table (width, depth), zone depth, the least gap between deployed units
# (and from a table edge the zone runs to), and the step by which a blocked unit is slid
# along its line to find a clear place (gaps are rounded up to it).
DEFAULT_TABLE = {"in": (72.0, 48.0), "cm": (180.0, 120.0)}
ZONE_DEPTH = {"in": 12.0, "cm": 30.0}
GAP = {"in": 1.0, "cm": 2.5}
SLIDE_STEP = {"in": 0.5, "cm": 1.25}
MAX_ID = 100

# Exact right-hand and forward vectors per axis facing: cos/sin would leave 1e-16 crumbs
# that push a unit flush with a table edge just past it.
_AXES: dict[int, tuple[Point, Point]] = {
    0: ((0.0, -1.0), (1.0, 0.0)),
    90: ((1.0, 0.0), (0.0, 1.0)),
    180: ((0.0, 1.0), (-1.0, 0.0)),
    270: ((-1.0, 0.0), (0.0, -1.0)),
}


class NewBattle(NamedTuple):
    title: str
    battle: Battle


def new_battle(ruleset_id: str, armies: Sequence[Army], *, table: Table | None = None,
               zones: Sequence[Zone] | None = None, zone_depth: float | None = None,
               title: str = "") -> NewBattle:
    """A battle with every army's units in reserve, and where each side deploys.

    Without `zones`, each side gets a strip `zone_depth` deep (the ruleset's default) along
    its own edge. `title` defaults to the armies' names ("Orcs vs Elves").
    """
    ruleset = get_ruleset(ruleset_id)
    if len(armies) < 2:
        raise ScenarioError(f"a battle needs at least two armies, not {len(armies)}")
    for army in armies:
        if army.ruleset != ruleset.id:
            raise ScenarioError(f"army '{army.name}' is for {army.ruleset}, not "
                                f"{ruleset.id}")
    unit = ruleset.distance_unit
    table = table or Table(*DEFAULT_TABLE[unit])
    players = _players(armies)
    if zones is None:
        zones = default_zones(table, players, zone_depth or ZONE_DEPTH[unit])
    _check_zones(table, zones, players)
    roster: dict[str, Unit] = {}
    states: dict[str, UnitState] = {}
    shared = _shared_ids(armies)
    every_id = {entry.id for army in armies for entry in army.units}
    for index, (army, player) in enumerate(zip(armies, players, strict=True)):
        for entry in army.units:
            unit_id = entry.id
            if unit_id in shared:
                unit_id = _unique(f"{index + 1}-{entry.id}", roster, every_id)
            # Prices are the army's bookkeeping: a battle's files stay readable by a Rout
            # that never knew them.
            roster[unit_id] = replace(entry, id=unit_id, player=player, price=None,
                                      points_typed=False)
            # Where a reserve unit "stands" is never drawn or checked; deploying sets it.
            states[unit_id] = UnitState(unit_id, (0.0, 0.0), 90.0, entry.files, entry.models,
                                        status=Status.RESERVE)
    battle = Battle(ruleset=ruleset.id, table=table, roster=roster, states=states,
                    zones=tuple(zones))
    return NewBattle(title.strip() or " vs ".join(army.name for army in armies), battle)


def default_zones(table: Table, players: Sequence[str], depth: float) -> tuple[Zone, ...]:
    """Strips along the bottom and top edges, taken in turn; sides of one edge share it."""
    depth = min(depth, table.depth / 3)
    edges: tuple[list[str], list[str]] = ([], [])
    for index, player in enumerate(players):
        edges[index % 2].append(player)
    zones = []
    for edge, on_edge in enumerate(edges):
        y0, y1 = (0.0, depth) if edge == 0 else (table.depth - depth, table.depth)
        part = table.width / max(len(on_edge), 1)
        for index, player in enumerate(on_edge):
            x1 = table.width if index == len(on_edge) - 1 else (index + 1) * part
            zones.append(Zone(player, (index * part, y0, x1, y1)))
    return tuple(zones)


def deploy_army(battle: Battle, player: str) -> list[UnitDeployed]:
    """Every reserve unit of `player` lined up in its zone; MoveRefused naming any that do
    not fit (then nothing is deployed)."""
    zone = battle.zone_of(player)
    if zone is None:
        known = ", ".join(f"'{z.player}'" for z in battle.zones) or "none"
        raise MoveRefused(f"'{player}' has no deployment zone (zones: {known})")
    waiting = [uid for uid, state in battle.states.items()
               if state.status is Status.RESERVE and battle.player_of(uid) == player]
    facing = facing_from(zone, battle.table)
    right, forward = _AXES[facing]
    # The zone in the player's own frame: `a` runs left to right, `b` towards the enemy.
    xs, ys = (zone.rect[0], zone.rect[2]), (zone.rect[1], zone.rect[3])
    a_values = [x * right[0] + y * right[1] for x in xs for y in ys]
    b_values = [x * forward[0] + y * forward[1] for x in xs for y in ys]
    a_min, a_max = min(a_values), max(a_values)
    b_min, b_max = min(b_values), max(b_values)
    unit_kind = get_ruleset(battle.ruleset).distance_unit
    gap, step = GAP[unit_kind], SLIDE_STEP[unit_kind]
    # Where the zone runs to the table's side, the line keeps `gap` clear of that edge.
    table_a = [x * right[0] + y * right[1] for x in (0.0, battle.table.width)
               for y in (0.0, battle.table.depth)]
    if a_min <= min(table_a) + 1e-9:
        a_min += gap
    if a_max >= max(table_a) - 1e-9:
        a_max -= gap
    sizes = {}
    for uid in waiting:
        state, base = battle.states[uid], battle.roster[uid].profile.base
        sizes[uid] = (state.files * base[0], max(state.ranks, 1) * base[1])
    spacing = _Spacing(sizes, gap, step)

    events: list[UnitDeployed] = []
    left_out: list[str] = []
    pending = list(waiting)
    line_front = b_max
    line = spacing.line(pending, a_max - a_min)
    while pending:
        if not line:  # the first waiting unit is wider than the zone
            left_out.append(pending.pop(0))
            line = spacing.line(pending, a_max - a_min)
            continue
        line_depth = max(sizes[uid][1] for uid in line)
        if line_front - line_depth < b_min - 1e-9:
            break  # no line left in the zone that is deep enough
        cursor = a_min + (a_max - a_min - spacing.width(line)) / 2
        before = ""
        for uid in line:
            if before:
                cursor += spacing.between(before, uid)
            placed = _place_in_line(battle, uid, facing, right, forward, sizes[uid],
                                    line_front, cursor, a_max, step)
            if placed is None:
                continue  # pushed past the line's end by what stands in it: the next line
            event, start = placed
            events.append(event)
            battle = event.apply_to(battle)
            pending.remove(uid)
            cursor, before = start + sizes[uid][0], uid
        upcoming = spacing.line(pending, a_max - a_min)
        line_front -= line_depth + spacing.behind(line, upcoming)
        line = upcoming
    left_out += pending
    if left_out:
        names = ", ".join(f"'{uid}'" for uid in left_out)
        raise MoveRefused(f"{len(left_out)} of {player}'s units do not fit in its "
                          f"{zone.width:g}x{zone.depth:g} deployment zone: {names}")
    return events


class _Spacing:
    """The room deployed units keep from each other to make their first moves."""

    def __init__(self, sizes: dict[str, tuple[float, float]], gap: float, step: float) -> None:
        self.sizes, self.gap, self.step = sizes, gap, step

    def _rounded(self, room: float) -> float:
        """At least the ruleset's gap, else the room rounded up to a whole slide step."""
        return max(self.gap, math.ceil(room / self.step - 1e-9) * self.step)

    def wheel_room(self, uid: str) -> float:
        """How far a wheel about one front corner swings the other side out, at most: the
        far rear corner reaches the diagonal from the pivot."""
        width, depth = self.sizes[uid]
        return math.hypot(width, depth) - width

    def turn_room(self, uid: str) -> float:
        """How far turning in place a quarter turn takes a wide unit back (and forward)."""
        width, depth = self.sizes[uid]
        return max(width - depth, 0.0) / 2

    def between(self, left: str, right: str) -> float:
        return self._rounded(max(self.wheel_room(left), self.wheel_room(right)))

    def behind(self, line: Sequence[str], upcoming: Sequence[str]) -> float:
        return self._rounded(max((self.turn_room(uid) for uid in (*line, *upcoming)),
                                 default=0.0))

    def width(self, line: Sequence[str]) -> float:
        return sum(self.sizes[uid][0] for uid in line) + sum(
            self.between(a, b) for a, b in itertools.pairwise(line))

    def line(self, pending: Sequence[str], room: float) -> list[str]:
        """The first pending units, in order, that fit side by side in `room`."""
        taken: list[str] = []
        for uid in pending:
            if self.width([*taken, uid]) > room + 1e-9:
                break
            taken.append(uid)
        return taken


def _place_in_line(battle: Battle, unit_id: str, facing: int, right: Point, forward: Point,
                   size: tuple[float, float], front: float, cursor: float, a_max: float,
                   step: float) -> tuple[UnitDeployed, float] | None:
    """The unit at the first clear place from `cursor` along the line, and where its left
    edge is; None when the line has no room left."""
    width, depth = size
    start = cursor
    while start + width <= a_max + 1e-9:
        a, b = start + width / 2, front - depth / 2
        center = (a * right[0] + b * forward[0], a * right[1] + b * forward[1])
        try:
            return moves.deploy(battle, unit_id, center, facing), start
        except MoveRefused:
            start += step  # something stands here (terrain, a unit placed by hand)
    return None


def default_table(ruleset_id: str) -> tuple[float, float]:
    return DEFAULT_TABLE[get_ruleset(ruleset_id).distance_unit]


def default_zone_depth(ruleset_id: str) -> float:
    return ZONE_DEPTH[get_ruleset(ruleset_id).distance_unit]


def deploy_facing(battle: Battle, player: str) -> int:
    """Where a unit of `player` faces when deployed: away from its zone's own edge, or up
    the table when the battle has no zones."""
    zone = battle.zone_of(player)
    return facing_from(zone, battle.table) if zone is not None else 90


def facing_from(zone: Zone, table: Table) -> int:
    """The axis facing (0, 90, 180, 270) away from the table edge nearest the zone: its own
    edge (the long edges win a tie, so a corner zone faces up or down the table)."""
    x0, y0, x1, y1 = zone.rect
    edges = ((y0, 90), (table.depth - y1, 270), (x0, 0), (table.width - x1, 180))
    return min(edges, key=lambda edge: edge[0])[1]


def _players(armies: Sequence[Army]) -> list[str]:
    players: list[str] = []
    for index, army in enumerate(armies):
        for candidate in (army.player, army.name, f"{army.player} ({index + 1})"):
            if candidate not in players:
                players.append(candidate)
                break
        else:
            raise ScenarioError(f"army '{army.name}' cannot be told apart from another "
                                "army: give it another player name")
    return players


def _shared_ids(armies: Sequence[Army]) -> set[str]:
    seen: set[str] = set()
    shared: set[str] = set()
    for army in armies:
        ids = {unit.id for unit in army.units}
        shared |= ids & seen
        seen |= ids
    return shared


def _unique(wanted: str, roster: dict[str, Unit], reserved: set[str]) -> str:
    candidate, number = wanted[:MAX_ID], 2
    while candidate in roster or candidate in reserved:
        suffix = f"~{number}"
        candidate, number = wanted[:MAX_ID - len(suffix)] + suffix, number + 1
    return candidate


def _check_zones(table: Table, zones: Sequence[Zone], players: Sequence[str]) -> None:
    seen: set[str] = set()
    for zone in zones:
        x0, y0, x1, y1 = zone.rect
        if not all(math.isfinite(v) for v in zone.rect) or not (
                0 <= x0 < x1 <= table.width and 0 <= y0 < y1 <= table.depth):
            raise ScenarioError(f"the deployment zone of '{zone.player}' ({x0:g}, {y0:g}, "
                                f"{x1:g}, {y1:g}) is not a rectangle on the "
                                f"{table.width:g}x{table.depth:g} table")
        if zone.player not in players:
            raise ScenarioError(f"a deployment zone names '{zone.player}', who has no army "
                                f"here (players: {', '.join(players)})")
        if zone.player in seen:
            raise ScenarioError(f"'{zone.player}' has two deployment zones")
        seen.add(zone.player)
