"""Scenario files: a battle at one moment plus the resolution to run on it.

This module reads already-parsed JSON (the CLI and the GUI do the file I/O). The format is
versioned: `{"format": "rout-scenario", "version": 1, ...}`; README.md documents it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from desktop.engine.codec import read_options, table_from_json, terrain_from_json
from desktop.engine.errors import RuleError, ScenarioError
from desktop.engine.model import (
    Battle,
    Status,
    TroopType,
    Unit,
    UnitProfile,
    UnitState,
)
from desktop.engine.procedure import Resolution, Session
from desktop.engine.reading import Reader
from desktop.engine.rulesets import Ruleset, get_ruleset
from desktop.engine.rulesets.base import ProcedureKind
from desktop.engine.standing import check_battle

FORMAT = "rout-scenario"
VERSION = 1
MM_PER_UNIT = {"in": 25.4, "cm": 10.0}
DEFAULT_BASE_MM = (20.0, 20.0)
MAX_UNITS = 5000
MAX_MODELS = 10000


@dataclass(frozen=True)
class Scenario:
    title: str
    ruleset: Ruleset
    battle: Battle
    procedure: ProcedureKind
    procedure_input: Any
    dice: tuple[int, ...] = ()
    choices: Mapping[str, str] = field(default_factory=dict)

    def resolution(self) -> Resolution:
        return self.procedure.resolution(self.battle, self.procedure_input)

    def start(self) -> Session:
        return self.resolution().session()


def load_scenario(data: object) -> Scenario:
    """Build a Scenario from parsed JSON, or raise a RuleError that says what is wrong."""
    root = Reader(data)
    root.expect("format", "version", "title", "ruleset", "table", "turn", "options", "units",
                "terrain", "resolve", "answers")
    if root.has("format") and root.child("format").data != FORMAT:
        raise root.fail(f"this is not a Rout scenario (format should be '{FORMAT}')", "format")
    version = root.integer("version", minimum=1)
    if version > VERSION:
        raise root.fail(f"version {version} was written by a newer Rout; this one reads "
                        f"version {VERSION}", "version")
    ruleset = get_ruleset(root.text("ruleset"))
    table = table_from_json(root.child("table"))
    options = read_options(ruleset, root.child("options", {}))
    roster: dict[str, Unit] = {}
    states: dict[str, UnitState] = {}
    if root.count("units") > MAX_UNITS:  # before reading any: a huge list costs nothing
        raise root.fail(f"{root.count('units')} units is more than Rout reads ({MAX_UNITS})",
                        "units")
    unit_nodes = root.entries("units")
    for node in unit_nodes:
        unit, state = _unit(ruleset, node)
        if unit.id in roster:
            raise node.fail(f"the id '{unit.id}' is used twice", "id")
        roster[unit.id] = unit
        states[unit.id] = state
    terrain = terrain_from_json(root)
    battle = Battle(ruleset=ruleset.id, table=table, roster=roster, states=states,
                    terrain=terrain, turn=root.integer("turn", 1, minimum=1), options=options)
    for node in unit_nodes:
        for other in node.strings("engaged_with"):
            if other not in roster:
                raise node.fail(f"no unit '{other}' in this battle", "engaged_with")
            if roster[other].player == roster[node.text("id")].player:
                raise node.fail(f"'{other}' is a friend, not an enemy to be engaged with",
                                "engaged_with")
    check_battle(battle)  # what a battle file's battle is checked for too

    resolve = root.child("resolve")
    kind = ruleset.procedure(resolve.text("procedure"))
    resolve.expect("procedure", *kind.fields)
    try:
        procedure_input = kind.parse(battle, resolve.mapping())
    except RuleError as error:
        raise ScenarioError(str(error)) from None
    battle = kind.prepared(battle, procedure_input)
    answers = root.child("answers", {}).expect("dice", "choices")
    dice = tuple(_faces(answers))
    choices = answers.child("choices", {}).mapping()
    if not all(isinstance(v, str) for v in choices.values()):
        raise answers.fail("choices map a request key to an option id (text)", "choices")
    return Scenario(
        title=root.text("title", "Untitled scenario"),
        ruleset=ruleset,
        battle=battle,
        procedure=kind,
        procedure_input=procedure_input,
        dice=dice,
        choices=dict(choices),
    )


UNIT_FIELDS = ("id", "name", "player", "profile", "profile_name", "troop_type", "base",
               "base_mm", "unit_strength", "wounds", "special_rules", "flies", "models",
               "files", "status", "upgrades", "character_wounds", "position", "facing",
               "models_lost", "wounds_lost", "engaged_with")


def _unit(ruleset: Ruleset, node: Reader) -> tuple[Unit, UnitState]:
    node.expect(*UNIT_FIELDS)
    unit_id = node.text("id")
    name = node.text("name", unit_id)
    profile_node = node.child("profile")
    stats = {}
    for stat_name, value in profile_node.mapping().items():
        stats[stat_name] = ruleset.check_stat(stat_name, value, f"{profile_node.path}")
    troop_type = node.choice("troop_type", TroopType, TroopType.INFANTRY, "troop type")
    if node.has("base"):
        width, depth = node.point("base")
    else:
        mm = node.point("base_mm") if node.has("base_mm") else DEFAULT_BASE_MM
        scale = MM_PER_UNIT[ruleset.distance_unit]
        width, depth = mm[0] / scale, mm[1] / scale
    if width <= 0 or depth <= 0:
        raise node.fail("a base must have a positive width and depth", "base")
    profile = UnitProfile(
        name=node.text("profile_name", name),
        stats=stats,
        troop_type=troop_type,
        base=(width, depth),
        unit_strength=node.integer("unit_strength", 1, minimum=0, maximum=100),
        wounds=node.integer("wounds", stats.get("W", 1), minimum=1, maximum=100),
        special_rules=frozenset(r.lower() for r in node.strings("special_rules")),
        flies=node.flag("flies"),
    )
    ruleset.check_profile(profile, profile_node.path)
    models = node.integer("models", minimum=1, maximum=MAX_MODELS)
    files = node.integer("files", min(models, 5), minimum=1)
    if files > models:
        raise node.fail(f"{files} files is more than the {models} models of the unit", "files")
    status = node.choice("status", Status, Status.READY, "status")
    unit = Unit(
        id=unit_id,
        name=name,
        player=node.text("player"),
        profile=profile,
        models=models,
        files=files,
        upgrades=frozenset(u.lower() for u in node.strings("upgrades")),
        character_wounds=node.integer("character_wounds", 0, minimum=0, maximum=100),
    )
    state = UnitState(
        unit_id=unit_id,
        center=node.point("position"),
        facing=node.number("facing", 90.0) % 360.0,
        files=files,
        # A unit still on the table keeps at least one model; a wounded model is still alive.
        models=models - node.integer("models_lost", 0, minimum=0,
                                     maximum=models - 1 if status.on_table else models),
        status=status,
        wounds_lost=node.integer("wounds_lost", 0, minimum=0, maximum=profile.wounds - 1),
        engaged_with=frozenset(node.strings("engaged_with")),
    )
    if state.models < state.files:
        state = replace(state, files=max(state.models, 1))
    return unit, state


def _faces(answers: Reader) -> list[int]:
    node = answers.child("dice", [])
    if not isinstance(node.data, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in node.data):
        raise node.fail("expected a list of die faces such as [3, 4, 6]")
    return list(node.data)
