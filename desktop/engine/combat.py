"""What a player enters about one close combat after its blows are struck.

Warhammer 6th edition and Breaks-or-Pursues both start from these: who fought on each side,
the wounds each unit caused, the models each lost, and the situational bonuses.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.engine.errors import ScenarioError
from desktop.engine.events import UnitsEngaged
from desktop.engine.model import Battle, Status
from desktop.engine.reading import Reader


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
