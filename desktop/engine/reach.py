"""How far a unit may go in one player move under its ruleset, and whether a move is within it.

`moves.check` says whether a move can be made at all (the table, units, terrain). This says
whether the ruleset allows its length. The texts Rout follows cover fleeing and pursuit,
not a unit's own moves, so these are decisions (README, "the engine's own choices"):

- W6-MV-1: a unit moves up to its Move (M) and marches up to twice its Move; a wheel
  counts the distance its outer front corner travels (angle x frontage); turning in place
  costs nothing. W6-MV-2: a charge reaches twice the charger's Move, measured as the
  gap between the two units before it moves (as W6-FL-8's charge on a fleeing unit).
- BP-MV-1: Breaks or Pursues moves as W6-MV-1 and W6-MV-2 (its flees and pursuits follow
  the Warhammer movement rules already).
- K-MV-1: a Kensei unit moves its Move (Mv) for each Action Point it spends: one Action
  Point is a move, all of them (Mv x AP) is the most it goes in a turn; a charge reaches
  Mv x AP too.
- A move past its allowance is not refused: players move units for rules Rout does not
  know (scouts, magic, a move forgotten last turn) and the engine does not add up a unit's
  moves in a turn. The verdict says it is past, in words the window shows while the move
  is dragged and after it is made.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Final

from desktop.engine.events import Event, UnitCharged, UnitMoved, UnitWheeled
from desktop.engine.model import Battle
from desktop.engine.rulesets import get_ruleset
from desktop.engine.spatial import edge_distance
from desktop.engine.wording import plural, verb

# Within this much of the allowance counts as within it: a drag lands to the pixel, not to
# the thousandth of an inch.
SLACK: Final = 0.005

MOVE, MARCH, CHARGE, PAST = "move", "march", "charge", "past"


@dataclass(frozen=True)
class Allowance:
    """How far a unit may go in one move: `move` as a plain move, `march` at the most,
    `charge` the gap to the enemy a charge may close; `clause` is the decision's id."""

    move: float
    march: float
    charge: float
    clause: str
    charge_clause: str
    march_name: str  # "march" (W6, BP) or "move of 2 Action Points" (Kensei)
    march_short: str  # "march", "2 AP"


@dataclass(frozen=True)
class Verdict:
    """What the ruleset says of one move: how far it goes (`distance`; a charge: the gap it
    closes) against which `limit`, as a `kind` — "move", "march" or "charge" when within
    it, "past" when not — and in words for the player."""

    distance: float
    limit: float
    kind: str
    words: str
    label: str  # short, for beside the unit: 12.4" / 16" march


    @property
    def within(self) -> bool:
        return self.kind != PAST


def allowance(battle: Battle, unit_id: str) -> Allowance:
    """The unit's allowance this turn under the battle's ruleset (modifiers counted)."""
    if battle.ruleset == "kensei1":
        move = float(battle.stat(unit_id, "Mv"))
        most = move * max(battle.stat(unit_id, "AP"), 1)
        points = max(battle.stat(unit_id, "AP"), 1)
        return Allowance(move, most, most, "K-MV-1", "K-MV-1",
                         f"move of {points} Action Points", f"{points} AP")
    move = float(battle.stat(unit_id, "M"))
    clause = "BP-MV-1" if battle.ruleset == "breaks_pursues" else "W6-MV-1"
    charge_clause = "BP-MV-1" if battle.ruleset == "breaks_pursues" else "W6-MV-2"
    return Allowance(move, 2 * move, 2 * move, clause, charge_clause, "march", "march")


def distance_of(battle: Battle, event: Event) -> float:
    """How far a player's move takes the unit: its centre's path (UnitMoved), its outer
    corner's arc (UnitWheeled), the gap to its target before it moves (UnitCharged)."""
    if isinstance(event, UnitCharged):
        return edge_distance(battle, event.unit, event.target)
    if isinstance(event, UnitWheeled):
        frontage = battle.footprint(event.unit).frontage
        return math.radians(abs(event.angle)) * frontage
    if isinstance(event, UnitMoved):
        return sum(math.dist(a, b) for a, b in itertools.pairwise(event.path))
    raise TypeError(f"{type(event).__name__} is not a move with a length")


def _shown(value: float, unit: str) -> str:
    return f'{value:.1f}"' if unit == "in" else f"{value:.1f} cm"


def _whole(value: float, unit: str) -> str:
    return f'{value:g}"' if unit == "in" else f"{value:g} cm"


def charge_gap(battle: Battle, event: UnitCharged) -> str:
    """'3.0" away (reach 8")': how far the charged unit is before the charge against the
    charger's reach. This is the one measure of a charge that the ghost, the status bar and
    the battle log give (W6-MV-2 measures the gap; the charger's centre goes further as it
    lines up on the target's edge)."""
    unit = get_ruleset(battle.ruleset).distance_unit
    return (f"{_shown(distance_of(battle, event), unit)} away "
            f"(reach {_whole(allowance(battle, event.unit).charge, unit)})")


def judge(battle: Battle, event: Event) -> Verdict:
    """The ruleset's verdict on a player's move, charge or wheel (`battle` before it)."""
    unit_id = getattr(event, "unit", "")
    allowed = allowance(battle, unit_id)
    gone = distance_of(battle, event)
    unit = get_ruleset(battle.ruleset).distance_unit
    name = battle.roster[unit_id].name

    def shown(value: float) -> str:
        return _shown(value, unit)

    def whole(value: float) -> str:
        return _whole(value, unit)

    if isinstance(event, UnitCharged):
        target = battle.roster[event.target].name
        label = f"charge {target}: {charge_gap(battle, event)}"
        kind, side = (CHARGE, "within") if gone <= allowed.charge + SLACK else (PAST, "past")
        return Verdict(gone, allowed.charge, kind,
                       f"{target} {verb('are', plural(battle, event.target))} {shown(gone)} "
                       f"away, {side} the charge reach of {name} "
                       f"({whole(allowed.charge)}, {allowed.charge_clause})", label)
    if gone <= allowed.move + SLACK:
        return Verdict(gone, allowed.move, MOVE,
                       f"{shown(gone)}, within the Move of {name} ({whole(allowed.move)})",
                       f"{shown(gone)} / {whole(allowed.move)} Move")
    label = f"{shown(gone)} / {whole(allowed.march)} {allowed.march_short}"
    if gone <= allowed.march + SLACK:
        return Verdict(gone, allowed.march, MARCH,
                       f"{shown(gone)}: past the Move of {name} ({whole(allowed.move)}), "
                       f"within its {allowed.march_name} ({whole(allowed.march)}, "
                       f"{allowed.clause})", label)
    return Verdict(gone, allowed.march, PAST,
                   f"{shown(gone)} is past the {allowed.march_name} of {name} "
                   f"({whole(allowed.march)}, {allowed.clause})", label)
