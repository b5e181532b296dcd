"""Hostile inputs, made to size: battle and scenario files holding the same units, terrain
and table, long runs of events, fields of small rocks.

The reliability tests use them small (they must run fast); tests/bench/bench_hostile.py
uses them at the limits Rout states, to show each answers in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

W6_STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


@dataclass(frozen=True)
class Spec:
    """One unit as both formats can hold it: W6 statistics, `base` x `base` inch bases."""

    id: str
    player: str
    x: float
    y: float
    facing: float = 90.0
    models: int = 10
    files: int = 5
    base: float = 1.0
    status: str = "ready"


def battle_unit(spec: Spec) -> dict[str, Any]:
    return {"id": spec.id, "name": spec.id.title(), "player": spec.player,
            "profile": {"name": spec.id.title(), "stats": W6_STATS, "troop_type": "infantry",
                        "base": [spec.base, spec.base], "unit_strength": 1, "wounds": 1,
                        "special_rules": [], "flies": False},
            "models": spec.models, "files": spec.files, "upgrades": [], "character_wounds": 0,
            "points": 0, "slot": "", "notes": [],
            "state": {"center": [spec.x, spec.y], "facing": spec.facing, "files": spec.files,
                      "models": spec.models, "status": spec.status, "wounds_lost": 0,
                      "engaged_with": [], "modifiers": [], "flags": []}}


def scenario_unit(spec: Spec) -> dict[str, Any]:
    return {"id": spec.id, "name": spec.id.title(), "player": spec.player,
            "profile": W6_STATS, "base": [spec.base, spec.base], "models": spec.models,
            "files": spec.files, "position": [spec.x, spec.y], "facing": spec.facing,
            "status": spec.status}


def battle_document(units: list[Spec], *, table: tuple[float, float] = (72, 48),
                    terrain: list[dict[str, Any]] | None = None,
                    events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A `rout-battle` file (as `rout export` writes one) holding these."""
    return {"format": "rout-battle", "version": 1, "title": "Hostile", "ruleset": "warhammer6",
            "table": {"width": table[0], "depth": table[1]}, "turn": 1, "options": {},
            "terrain": terrain or [], "units": [battle_unit(spec) for spec in units],
            "events": events or []}


def scenario_document(units: list[Spec], *, table: tuple[float, float] = (72, 48),
                      terrain: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A `rout-scenario` file holding the same battle (its resolution a start of turn)."""
    return {"format": "rout-scenario", "version": 1, "title": "Hostile",
            "ruleset": "warhammer6", "table": {"width": table[0], "depth": table[1]},
            "terrain": terrain or [], "units": [scenario_unit(spec) for spec in units],
            "resolve": {"procedure": "start_of_turn", "player": units[0].player}}


def piece(piece_id: str, points: list[list[float]], *, impassable: bool = True
          ) -> dict[str, Any]:
    return {"id": piece_id, "name": piece_id.title(), "impassable": impassable,
            "points": points}


def grid(count: int, *, spacing: float = 2.0, models: int = 1) -> list[Spec]:
    """`count` one-model units on 1" bases in a square grid `spacing` apart, two sides."""
    side = math.ceil(math.sqrt(count))
    return [Spec(f"u{i}", "Alice" if i % 2 else "Bob", 1 + spacing * (i % side),
                 1 + spacing * (i // side), models=models, files=1) for i in range(count)]


def grid_table(count: int, spacing: float = 2.0) -> tuple[float, float]:
    side = math.ceil(math.sqrt(count))
    return (side * spacing + 2, side * spacing + 2)


def turns(count: int, first: int = 2) -> list[dict[str, Any]]:
    """`count` new turns in a row: the smallest event that changes the battle."""
    return [{"type": "TurnBegan", "turn": first + n} for n in range(count)]


def flagged(units: list[Spec], flag: str = "turn:ran_from_charge") -> list[dict[str, Any]]:
    """A flag on every unit (a turn flag: the next turn drops it)."""
    return [{"type": "FlagSet", "unit": spec.id, "flag": flag} for spec in units]


def lasting_modifiers(units: list[Spec], until: int) -> list[dict[str, Any]]:
    """A modifier on every unit that lasts until turn `until`."""
    return [{"type": "ModifierApplied", "unit": spec.id, "stat": "Ld", "delta": -1,
             "expires_after_turn": until, "source": "banner"} for spec in units]


def small_triangles(count: int, table: tuple[float, float], *, size: float = 0.3,
                    clear: tuple[float, float, float, float] = (0, 0, 0, 0)
                    ) -> list[dict[str, Any]]:
    """`count` impassable triangles `size` across, evenly over the table, none within
    half an inch of the `clear` rectangle (x0, y0, x1, y1)."""
    width, depth = table
    step = math.sqrt(width * depth / (count * 1.2))
    x0, y0, x1, y1 = clear
    found: list[dict[str, Any]] = []
    y = step / 2
    while y + size < depth and len(found) < count:
        x = step / 2
        while x + size < width and len(found) < count:
            if not (x0 - 0.5 <= x <= x1 + 0.5 and y0 - 0.5 <= y <= y1 + 0.5):
                found.append(piece(f"t{len(found)}", [[x, y], [x + size, y], [x, y + size]]))
            x += step
        y += step
    return found
