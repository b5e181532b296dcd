"""Sample battles bundled with Rout, one per ruleset, for a player's first look.

Each is the battle of an example scenario in resources/scenarios/ (units where the scenario
puts them, engaged as its combats say, terrain), without the resolution the scenario runs.
"""

from __future__ import annotations

from pathlib import Path

from desktop.bundled import resources_dir
from desktop.engine.errors import RuleError
from desktop.engine.scenario import load_scenario
from desktop.engine.setup import NewBattle
from desktop.store.errors import BadFileError
from desktop.store.files import parse_json, read_bytes, short_path

# Ruleset id -> the example scenario its sample battle comes from.
SAMPLE_SCENARIOS = {
    "warhammer6": "w6-four-units.json",
    "breaks_pursues": "bp-two-combats.json",
    "kensei1": "k1-ronin-run-through-ashigaru.json",
}

def scenarios_dir() -> Path:
    """resources/scenarios, in the installed package or the source checkout."""
    try:
        return resources_dir() / "scenarios"
    except FileNotFoundError as error:
        raise BadFileError(str(error)) from None


def read_scenario_battle(path: Path) -> NewBattle:
    """A scenario file's title and battle, or BadFileError naming the file."""
    name = short_path(path)
    try:
        scenario = load_scenario(parse_json(read_bytes(path, what="scenario"), name))
    except RuleError as error:
        raise BadFileError(f"{name}: {error}") from None
    return NewBattle(scenario.title, scenario.battle)


def sample_battles(folder: Path | None = None) -> list[NewBattle]:
    """(title, battle) for each ruleset, in SAMPLE_SCENARIOS order."""
    folder = folder or scenarios_dir()
    return [read_scenario_battle(folder / name) for name in SAMPLE_SCENARIOS.values()]
