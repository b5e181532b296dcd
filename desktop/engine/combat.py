"""What a player enters about one close combat after its blows are struck.

Warhammer 6th edition and Breaks-or-Pursues both start from these: who fought on each side,
the wounds each unit caused, the models each lost, and the situational bonuses. What the
battle itself can tell of them (who charged this turn, who fights an enemy's flank or rear,
who carries the battle standard) is `side_facts`: a window fills its input from it, so a
forgotten tick does not silently change the score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.engine.errors import ScenarioError
from desktop.engine.events import CHARGED, UnitsEngaged
from desktop.engine.geometry import CONTACT_TOLERANCE, in_contact
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle, Status
from desktop.engine.reading import Reader
from desktop.engine.spatial import edges


@dataclass(frozen=True)
class Combatant:
    unit: str
    wounds_caused: int = 0
    casualties: int = 0  # models this unit lost in the combat round
    charged: bool = False  # it charged this turn (needed for BP-3a Overrun)


@dataclass(frozen=True)
class CombatSide:
    player: str
    units: tuple[Combatant, ...]
    flank: bool = False
    rear: bool = False
    high_ground: bool = False
    battle_standard: bool = False
    other: int = 0  # any further bonus the players agree on

    @property
    def unit_ids(self) -> tuple[str, ...]:
        return tuple(c.unit for c in self.units)


@dataclass(frozen=True)
class Combat:
    id: str
    sides: tuple[CombatSide, CombatSide]

    def side_of(self, player: str) -> CombatSide:
        return next(side for side in self.sides if side.player == player)

    def other_side(self, player: str) -> CombatSide:
        return next(side for side in self.sides if side.player != player)

    def combatants(self) -> Iterator[Combatant]:
        for side in self.sides:
            yield from side.units


def parse_combats(battle: Battle, data: Mapping[str, Any]) -> tuple[Combat, ...]:
    """Read `{"combats": [...]}`, checking that every unit exists and sides are opposed."""
    reader = Reader(data, "resolve")
    combats = []
    seen: dict[str, str] = {}
    for index, node in enumerate(reader.entries("combats")):
        node.expect("id", "sides")
        combat_id = node.text("id", f"combat {index + 1}")
        sides = []
        for side_node in node.entries("sides"):
            side_node.expect("units", "flank", "rear", "high_ground", "battle_standard",
                             "other")
            units = []
            for unit_node in side_node.entries("units"):
                unit_node.expect("unit", "wounds_caused", "casualties", "charged")
                unit_id = unit_node.text("unit")
                if unit_id not in battle.roster:
                    raise unit_node.fail(f"no unit '{unit_id}' in this battle", "unit")
                if unit_id in seen:
                    raise unit_node.fail(f"'{unit_id}' is already in {seen[unit_id]}", "unit")
                seen[unit_id] = combat_id
                units.append(Combatant(
                    unit=unit_id,
                    wounds_caused=unit_node.integer("wounds_caused", 0, minimum=0, maximum=999),
                    casualties=unit_node.integer(
                        "casualties", 0, minimum=0, maximum=battle.states[unit_id].models),
                    charged=unit_node.flag("charged"),
                ))
            if not units:
                raise side_node.fail("a side needs at least one unit", "units")
            players = {battle.player_of(c.unit) for c in units}
            if len(players) != 1:
                raise side_node.fail("units of one side must belong to one player")
            sides.append(CombatSide(
                player=players.pop(),
                units=tuple(units),
                flank=side_node.flag("flank"),
                rear=side_node.flag("rear"),
                high_ground=side_node.flag("high_ground"),
                battle_standard=side_node.flag("battle_standard"),
                other=side_node.integer("other", 0, minimum=-10, maximum=10),
            ))
        if len(sides) != 2 or sides[0].player == sides[1].player:
            raise node.fail("a combat has exactly two sides, one for each player", "sides")
        combats.append(Combat(combat_id, (sides[0], sides[1])))
    if not combats:
        raise reader.fail("lists no combats", "combats")
    return tuple(combats)


# Which edge of an enemy a unit fights against, most telling first where two share as much.
_EDGE_ORDER = {"front": 0, "left": 1, "right": 1, "rear": 2}
FLANKS = frozenset({"left", "right"})


def fought_edge(battle: Battle, unit_id: str, enemy_id: str) -> str:
    """The edge of `enemy_id`'s footprint that `unit_id` touches along the most of its
    length ("front", "left", "right" or "rear"), or "" when they do not touch or meet at a
    corner only."""
    mine, theirs = battle.footprint(unit_id), battle.footprint(enemy_id)
    if not in_contact(mine, theirs):
        return ""
    reach = mine.polygon.buffer(CONTACT_TOLERANCE)
    shared = [(float(reach.intersection(shapely.LineString([edge.start, edge.end])).length),
               -_EDGE_ORDER[edge.name], edge.name) for edge in edges(theirs)]
    length, _, name = max(shared)
    return name if length > 2 * CONTACT_TOLERANCE else ""


@dataclass(frozen=True)
class SideFacts:
    """What the battle says about one side of a combat, as its input would have it
    (W6-CR-2's bonuses, BP-3a's charge): each with the units that make it so."""

    player: str
    charged: tuple[str, ...] = ()  # its units that charged into contact this turn
    flank: tuple[tuple[str, str], ...] = ()  # (its unit, the enemy it fights in the flank)
    rear: tuple[tuple[str, str], ...] = ()  # (its unit, the enemy it fights in the rear)
    battle_standard: str = ""  # its unit that carries the army's battle standard

    def notes(self, battle: Battle) -> list[str]:
        """The facts in words, for a window to say where its ticks came from."""
        def name(uid: str) -> str:
            return battle.roster[uid].name

        lines = [f"{name(uid)} charged this turn" for uid in self.charged]
        lines += [f"{name(uid)} fight {name(enemy)} in the flank" for uid, enemy in self.flank]
        lines += [f"{name(uid)} fight {name(enemy)} in the rear" for uid, enemy in self.rear]
        if self.battle_standard:
            lines.append(f"{name(self.battle_standard)} carry the battle standard")
        return lines


def side_facts(battle: Battle, units: Sequence[str], enemies: Sequence[str]) -> SideFacts:
    """What the table tells of a side made of `units` fighting `enemies`: who charged this
    turn (a charge move, or a pursuit into a fresh enemy), who touches an enemy's side or
    rear edge, and who carries the battle standard."""
    standing = [uid for uid in units if battle.states[uid].status.on_table]
    foes = [uid for uid in enemies if battle.states[uid].status.on_table]
    flank: list[tuple[str, str]] = []
    rear: list[tuple[str, str]] = []
    for uid in standing:
        for enemy in foes:
            edge = fought_edge(battle, uid, enemy)
            if edge in FLANKS:
                flank.append((uid, enemy))
            elif edge == "rear":
                rear.append((uid, enemy))
    return SideFacts(
        player=battle.player_of(units[0]) if units else "",
        charged=tuple(uid for uid in standing if CHARGED in battle.states[uid].flags),
        flank=tuple(flank), rear=tuple(rear),
        battle_standard=next((uid for uid in standing
                              if "battle_standard" in battle.roster[uid].upgrades), ""))


def engagements(battle: Battle, combats: Sequence[Combat]) -> list[UnitsEngaged]:
    """Events that engage the two sides of each combat with each other (those not engaged
    yet): a resolution's setup, stored as events like everything else."""
    made: list[UnitsEngaged] = []
    seen: set[frozenset[str]] = set()
    for combat in combats:
        first, second = combat.sides
        for a in first.unit_ids:
            for b in second.unit_ids:
                pair = frozenset((a, b))
                if b not in battle.states[a].engaged_with and pair not in seen:
                    seen.add(pair)
                    made.append(UnitsEngaged(a, b))
    return made



def check_combats(battle: Battle, combats: Sequence[Combat], *, fleeing_clause: str) -> None:
    """Refuse combats with units that are not on the table or are fleeing: a fleeing unit
    cannot fight (`fleeing_clause` names the rule that says so)."""
    for combat in combats:
        for combatant in combat.combatants():
            if combatant.unit not in battle.states:
                raise ScenarioError(f"{combat.id}: no unit '{combatant.unit}' in this battle")
            status = battle.states[combatant.unit].status
            if not status.on_table:
                raise ScenarioError(f"{combat.id}: '{combatant.unit}' is no longer on the table")
            if status in (Status.FLEEING, Status.BROKEN):
                raise ScenarioError(f"{combat.id}: '{combatant.unit}' is fleeing and cannot "
                                    f"fight ({fleeing_clause})")


def independent_groups(battle: Battle, combats: Sequence[Combat], *,
                       move: Callable[[str], float], sense: float,
                       links: Iterable[tuple[str, str]] = ()) -> list[tuple[Combat, ...]]:
    """The combats in groups whose consequences can never meet (issue 24): what one group's
    resolution can do nobody of another group can see, so each can be forecast alone and
    the chances multiplied. A group holds its combats in the order given.

    `move(unit)` is the farthest a unit may move in the resolution (its flee or pursuit
    dice at most) and `sense` the farthest any rule of it looks from a unit (W6's Panic
    radius). Every unit on the table, combatants and bystanders alike, gets a zone: its
    footprint widened by the farthest move of the resolution, twice the largest unit's
    diagonal (a unit turns; a flee measured as the gap to what it runs from growing by the
    roll travels up to a diagonal and a half further; one ending its move on another is put
    beyond it) and half of `sense`. Units whose zones touch are linked, so are the units of
    one combat however far apart, and combats linked through any chain of units (a friend
    who might panic and flee into another fight) form one group. Two units
    of different groups stand further apart than both of them can move and still be seen,
    whatever the dice do. `links` are pairs of units a rule ties together however far
    apart (one that flees from the nearest enemy on the table)."""
    if len(combats) < 2:
        return [tuple(combats)]
    ids = [uid for uid, state in battle.states.items() if state.status.on_table]
    if not ids:
        return [tuple(combats)]
    footprints = {uid: battle.footprint(uid) for uid in ids}
    widest = max(math.hypot(f.frontage, f.depth) for f in footprints.values())
    reach = max(move(uid) for uid in ids) + 2 * widest + sense / 2
    zones = [footprints[uid].polygon.buffer(reach) for uid in ids]
    tree = shapely.STRtree(zones)
    pairs: list[tuple[int, int]] = [
        (int(first), int(second))
        for first, second in zip(*tree.query(zones, predicate="intersects"), strict=True)]
    position = {uid: index for index, uid in enumerate(ids)}
    fought = [[c.unit for c in combat.combatants() if c.unit in position]
              for combat in combats]
    pairs += [(position[first_id], position[second_id])
              for first_id, second_id in (*links, *((units[0], uid) for units in fought
                                                    for uid in units[1:]))
              if first_id in position and second_id in position]
    linked = {index: number for number, members in enumerate(components(len(ids), pairs))
              for index in members}
    groups: dict[int, list[Combat]] = {}
    for combat, units in zip(combats, fought, strict=True):
        key = linked[position[units[0]]] if units else -1 - len(groups)
        groups.setdefault(key, []).append(combat)
    return [tuple(group) for group in groups.values()]


def components(count: int, links: Iterable[tuple[int, int]]) -> list[list[int]]:
    """The numbers 0 to `count` - 1 in groups, two numbers of a link (or of a chain of
    links) in one: each group in order, the groups in the order of their first number."""
    parent = list(range(count))

    def root(index: int) -> int:
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for first, second in links:
        parent[root(first)] = root(second)
    groups: dict[int, list[int]] = {}
    for index in range(count):
        groups.setdefault(root(index), []).append(index)
    return list(groups.values())
