"""A scenario's combats copied side by side on a wider table (issue 24): N copies far
enough apart never meet, so their forecast is the product of one copy's; nearer, they may."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from desktop.engine.procedure import Resolution

SCENARIOS = Path(__file__).resolve().parents[1] / "resources" / "scenarios"


def side_by_side(name: str, copies: int, spacing: float, rise: float = 0.0) -> dict[str, Any]:
    """The bundled scenario `name` with its units and combats `copies` times, each copy
    `spacing` inches to the right of the one before and `rise` inches further back (the
    table grown to hold them)."""
    data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    units, combats, choices = [], [], {}
    for index in range(copies):
        def renamed(uid: str, index: int = index) -> str:
            return uid if index == 0 else f"{uid}_{index + 1}"

        for unit in data["units"]:
            moved = copy.deepcopy(unit)
            moved["id"] = renamed(unit["id"])
            if index:
                moved["name"] = f"{unit['name']} {index + 1}"
            moved["position"] = [unit["position"][0] + index * spacing,
                                 unit["position"][1] + index * rise]
            units.append(moved)
        for combat in data["resolve"]["combats"]:
            moved = copy.deepcopy(combat)
            moved["id"] = f"{combat['id']} {index + 1}"
            for side in moved["sides"]:
                for fighter in side["units"]:
                    fighter["unit"] = renamed(fighter["unit"])
            combats.append(moved)
        for key, value in data.get("answers", {}).get("choices", {}).items():
            kind, _, uid = key.partition(":")
            ids = {unit["id"] for unit in data["units"]}
            choices[f"{kind}:{renamed(uid)}"] = renamed(value) if value in ids else value
    data["units"] = units
    data["resolve"] = {**data["resolve"], "combats": combats}
    data["table"] = {**data["table"],
                     "width": data["table"]["width"] + (copies - 1) * spacing,
                     "depth": data["table"]["depth"] + (copies - 1) * rise}
    data["answers"] = {"dice": [], "choices": choices}
    return data


def whole_tree(resolution: Resolution) -> Resolution:
    """`resolution` as one tree: its combats neither split beforehand (`parts`) nor walked
    apart and proven apart afterwards (`pieces`), the oracle of both."""
    return replace(resolution, parts=None, pieces=(), alone=None)
