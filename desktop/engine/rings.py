"""Range rings: the distances a player measures from a unit, per ruleset.

The battlefield draws these around the selected unit; which distances matter (and how far
they reach) is a rule, so it lives here. Each ring is measured from the unit's edge, in the
ruleset's distance unit (inches for W6 and BP, centimetres for Kensei).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop.engine.model import Battle
from desktop.engine.rulesets.warhammer6 import KEEP_AWAY, PANIC_RADIUS

MARCH_FACTOR = 2  # W6 and BP: a march is twice the Move


@dataclass(frozen=True)
class Ring:
    label: str
    radius: float


def _warhammer6(battle: Battle, unit_id: str) -> tuple[Ring, ...]:
    move = battle.stat(unit_id, "M")
    return (Ring(f'Move {move:g}"', move), Ring(f'March {MARCH_FACTOR * move:g}"',
                                                 MARCH_FACTOR * move),
            Ring(f'Panic {PANIC_RADIUS:g}"', PANIC_RADIUS),  # W6-PT-1
            Ring(f'Keep away {KEEP_AWAY:g}"', KEEP_AWAY))  # W6-FL-5


def _breaks_pursues(battle: Battle, unit_id: str) -> tuple[Ring, ...]:
    move = battle.stat(unit_id, "M")
    return (Ring(f'Move {move:g}"', move),
            Ring(f'March {MARCH_FACTOR * move:g}"', MARCH_FACTOR * move))


def _kensei1(battle: Battle, unit_id: str) -> tuple[Ring, ...]:
    move = battle.stat(unit_id, "Mv")
    return (Ring(f"Move {move:g} cm", move),)


_RINGS: dict[str, Callable[[Battle, str], tuple[Ring, ...]]] = {
    "warhammer6": _warhammer6,
    "breaks_pursues": _breaks_pursues,
    "kensei1": _kensei1,
}


def rings(battle: Battle, unit_id: str) -> tuple[Ring, ...]:
    """The rings to draw around `unit_id`, smallest first; none for an unknown ruleset."""
    found = _RINGS.get(battle.ruleset)
    if found is None:
        return ()
    return tuple(sorted((ring for ring in found(battle, unit_id) if ring.radius > 0),
                        key=lambda ring: ring.radius))
