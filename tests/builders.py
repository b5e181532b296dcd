"""Small helpers that write scenario data the way a player's file would.

Tests go through `load_scenario`, so every battle they build also exercises the file format.
"""

from __future__ import annotations

from typing import Any

from desktop.engine.dice import ScriptedRoller
from desktop.engine.events import Event, fold
from desktop.engine.model import Battle
from desktop.engine.procedure import Roll, ScriptedAnswers, Session, run
from desktop.engine.scenario import Scenario, load_scenario

W6_PROFILE = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def w6_unit(unit_id: str, player: str, x: float, y: float, *, facing: float = 90,
            models: int = 10, files: int = 5, base: tuple[float, float] = (1.0, 1.0),
            **stats_and_fields: Any) -> dict[str, Any]:
    """A W6 unit on `base`-inch bases; keyword stats (M=, Ld=) go into its profile."""
    profile = dict(W6_PROFILE)
    fields: dict[str, Any] = {}
    for key, value in stats_and_fields.items():
        if key in profile:
            profile[key] = value
        else:
            fields[key] = value
    return {"id": unit_id, "name": unit_id.replace("_", " ").title(), "player": player,
            "profile": profile, "base": list(base), "models": models, "files": files,
            "position": [x, y], "facing": facing, **fields}


def scenario(units: list[dict[str, Any]], resolve: dict[str, Any], *,
             ruleset: str = "warhammer6", table: tuple[float, float] = (72, 48),
             **extra: Any) -> dict[str, Any]:
    return {"format": "rout-scenario", "version": 1, "ruleset": ruleset,
            "table": {"width": table[0], "depth": table[1]}, "units": units,
            "resolve": resolve, **extra}


def side(*units: str | dict[str, Any], **flags: Any) -> dict[str, Any]:
    entries = [{"unit": u} if isinstance(u, str) else u for u in units]
    return {"units": entries, **flags}


def aftermath(*combats: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    return {"procedure": "combat_aftermath",
            "combats": [{"id": f"combat {i + 1}", "sides": list(sides)}
                        for i, sides in enumerate(combats)]}


def play(data: dict[str, Any], dice: list[int], choices: dict[str, str] | None = None
         ) -> tuple[Scenario, Session, Battle]:
    """Run the scenario with these faces and choices; return it, the session and the end."""
    loaded = load_scenario(data)
    session = run(loaded.start(), ScriptedAnswers(ScriptedRoller(dice), choices or {}))
    assert session.events is not None
    return loaded, session, fold(loaded.battle, session.events)


def events_of(session: Session, kind: type[Event]) -> list[Any]:
    assert session.events is not None
    return [event for event in session.events if isinstance(event, kind)]


def roll_keys(session: Session) -> list[str]:
    return [step.request.key for step in session.steps if isinstance(step.request, Roll)]


def request_keys(session: Session) -> list[str]:
    return [step.request.key for step in session.steps]
