"""Armies and battles as plain JSON data, and back, without losing anything.

This is Rout's own file format (README, "Rout JSON") and also what the store keeps in its
JSON columns, so a profile reads the same from a file and from a database. Reading is strict:
an unknown field, a wrong type or a statistic out of its ruleset's range raises a
ScenarioError or StatError naming the place, e.g. "units[3].profile.stats.Ld: ...".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from desktop.engine.errors import RuleError, ScenarioError
from desktop.engine.events import Event, event_from_json
from desktop.engine.geometry import Table
from desktop.engine.model import (
    Army,
    Battle,
    Modifier,
    Status,
    Terrain,
    TroopType,
    Unit,
    UnitProfile,
    UnitState,
)
from desktop.engine.reading import Reader
from desktop.engine.rulesets import Ruleset, get_ruleset

ARMY_FORMAT = "rout-army"
BATTLE_FORMAT = "rout-battle"
VERSION = 1
MAX_UNITS = 5000
MAX_MODELS = 10000
MAX_EVENTS = 1_000_000
MAX_POINTS = 1_000_000
MAX_NOTES = 200


def profile_to_json(profile: UnitProfile) -> dict[str, Any]:
    return {
        "name": profile.name,
        "stats": dict(profile.stats),
        "troop_type": profile.troop_type.value,
        "base": list(profile.base),
        "unit_strength": profile.unit_strength,
        "wounds": profile.wounds,
        "special_rules": sorted(profile.special_rules),
        "flies": profile.flies,
    }


def profile_from_json(ruleset: Ruleset, node: Reader) -> UnitProfile:
    node.expect("name", "stats", "troop_type", "base", "unit_strength", "wounds",
                "special_rules", "flies")
    stats_node = node.child("stats")
    stats = {name: ruleset.check_stat(name, value, stats_node.path)
             for name, value in stats_node.mapping().items()}
    troop_text = node.text("troop_type", TroopType.INFANTRY.value)
    try:
        troop_type = TroopType(troop_text)
    except ValueError:
        raise node.fail(f"unknown troop type '{troop_text}' (known: "
                        f"{', '.join(t.value for t in TroopType)})", "troop_type") from None
    width, depth = node.point("base")
    if not (0 < width <= 1000 and 0 < depth <= 1000):
        raise node.fail("a base must have a positive width and depth", "base")
    profile = UnitProfile(
        name=node.text("name"),
        stats=stats,
        troop_type=troop_type,
        base=(width, depth),
        unit_strength=node.integer("unit_strength", 1, minimum=0, maximum=100),
        wounds=node.integer("wounds", 1, minimum=1, maximum=100),
        special_rules=frozenset(node.strings("special_rules")),
        flies=node.flag("flies"),
    )
    ruleset.check_profile(profile, stats_node.path)
    return profile


def profile_from_stored(data: Mapping[str, Any]) -> UnitProfile:
    """A profile Rout wrote itself (a database row), without checking it again.

    Reading a stored army must be quick; malformed data still fails, with KeyError,
    TypeError or ValueError, which the store reports as a damaged database.
    """
    width, depth = data["base"]
    return UnitProfile(
        name=str(data["name"]),
        stats={str(name): int(value) for name, value in data["stats"].items()},
        troop_type=TroopType(data["troop_type"]),
        base=(float(width), float(depth)),
        unit_strength=int(data["unit_strength"]),
        wounds=int(data["wounds"]),
        special_rules=frozenset(map(str, data["special_rules"])),
        flies=bool(data["flies"]),
    )


def unit_to_json(unit: Unit) -> dict[str, Any]:
    return {
        "id": unit.id,
        "name": unit.name,
        "player": unit.player,
        "profile": profile_to_json(unit.profile),
        "models": unit.models,
        "files": unit.files,
        "upgrades": sorted(unit.upgrades),
        "character_wounds": unit.character_wounds,
        "points": unit.points,
        "slot": unit.slot,
        "notes": list(unit.notes),
    }


UNIT_FIELDS = ("id", "name", "player", "profile", "models", "files", "upgrades",
               "character_wounds", "points", "slot", "notes")


def unit_from_json(ruleset: Ruleset, node: Reader, player: str | None = None,
                   extra_fields: Sequence[str] = ()) -> Unit:
    """`player` is the army's when units sit in an army document (they carry none)."""
    node.expect(*UNIT_FIELDS, *extra_fields)
    models = node.integer("models", minimum=1, maximum=MAX_MODELS)
    files = node.integer("files", min(models, 5), minimum=1)
    if files > models:
        raise node.fail(f"{files} files is more than the {models} models of the unit", "files")
    return Unit(
        id=node.text("id"),
        name=node.text("name"),
        player=player if player is not None else node.text("player"),
        profile=profile_from_json(ruleset, node.child("profile")),
        models=models,
        files=files,
        upgrades=frozenset(node.strings("upgrades")),
        character_wounds=node.integer("character_wounds", 0, minimum=0, maximum=100),
        points=node.integer("points", 0, minimum=0, maximum=MAX_POINTS),
        slot=optional_text(node, "slot"),
        notes=_notes(node),
    )


def optional_text(node: Reader, key: str) -> str:
    """Text that may be empty (Reader.text refuses empty text)."""
    value = node.child(key, "").data
    if not isinstance(value, str):
        raise node.fail("expected text", key)
    return value.strip()


def _notes(node: Reader) -> tuple[str, ...]:
    notes = node.strings("notes")
    if len(notes) > MAX_NOTES:
        raise node.fail(f"{len(notes)} notes is more than Rout keeps ({MAX_NOTES})", "notes")
    return tuple(notes)


def _check_header(root: Reader, expected: str) -> int:
    if not isinstance(root.data, dict):
        raise root.fail("expected a JSON object at the top of the file")
    found = root.child("format", None).data
    if found != expected:
        raise ScenarioError(f"this is not a Rout {expected.removeprefix('rout-')} file "
                            f"(format should be '{expected}', found {found!r})")
    version = root.integer("version", minimum=1)
    if version > VERSION:
        raise root.fail(f"version {version} was written by a newer Rout; this one reads "
                        f"version {VERSION}", "version")
    return version


def army_to_json(army: Army) -> dict[str, Any]:
    return {
        "format": ARMY_FORMAT,
        "version": VERSION,
        "name": army.name,
        "player": army.player,
        "ruleset": army.ruleset,
        "points_limit": army.points_limit,
        "notes": list(army.notes),
        "units": [{key: value for key, value in unit_to_json(unit).items() if key != "player"}
                  for unit in army.units],
    }


def army_from_json(data: object) -> Army:
    """An army from a `rout-army` document. The id is left empty: the store gives one."""
    root = Reader(data)
    _check_header(root, ARMY_FORMAT)
    root.expect("format", "version", "name", "player", "ruleset", "points_limit", "notes",
                "units")
    ruleset = _ruleset(root)
    player = root.text("player", "Player")
    nodes = root.entries("units", required=False)
    if len(nodes) > MAX_UNITS:
        raise root.fail(f"{len(nodes)} units is more than Rout reads ({MAX_UNITS})", "units")
    units = tuple(unit_from_json(ruleset, node, player) for node in nodes)
    _check_unique_ids(root, units)
    return Army(name=root.text("name"), player=player, ruleset=ruleset.id, units=units,
                points_limit=root.integer("points_limit", 0, minimum=0, maximum=MAX_POINTS),
                notes=_notes(root))


def _ruleset(root: Reader) -> Ruleset:
    try:
        return get_ruleset(root.text("ruleset"))
    except RuleError as error:
        raise root.fail(str(error), "ruleset") from None


def _check_unique_ids(root: Reader, units: Iterable[Unit]) -> None:
    seen: set[str] = set()
    for index, unit in enumerate(units):
        if unit.id in seen:
            raise root.fail(f"the unit id '{unit.id}' is used twice", f"units[{index}].id")
        seen.add(unit.id)


def state_to_json(state: UnitState) -> dict[str, Any]:
    return {
        "center": list(state.center),
        "facing": state.facing,
        "files": state.files,
        "models": state.models,
        "status": state.status.value,
        "wounds_lost": state.wounds_lost,
        "engaged_with": sorted(state.engaged_with),
        "modifiers": [{"stat": m.stat, "delta": m.delta,
                       "expires_after_turn": m.expires_after_turn, "source": m.source}
                      for m in state.modifiers],
        "flags": sorted(state.flags),
    }


def state_from_json(unit: Unit, node: Reader) -> UnitState:
    node.expect("center", "facing", "files", "models", "status", "wounds_lost",
                "engaged_with", "modifiers", "flags")
    status_text = node.text("status", Status.READY.value)
    try:
        status = Status(status_text)
    except ValueError:
        raise node.fail(f"unknown status '{status_text}' (known: "
                        f"{', '.join(s.value for s in Status)})", "status") from None
    modifiers = []
    for item in node.entries("modifiers", required=False):
        item.expect("stat", "delta", "expires_after_turn", "source")
        modifiers.append(Modifier(item.text("stat"), item.integer("delta", minimum=-100,
                                                                   maximum=100),
                                  item.integer("expires_after_turn", minimum=0),
                                  item.text("source")))
    facing = node.number("facing")
    if not 0 <= facing < 360:
        raise node.fail(f"{facing} is not a bearing from 0 to 360", "facing")
    return UnitState(
        unit_id=unit.id,
        center=node.point("center"),
        facing=facing,
        files=node.integer("files", minimum=1, maximum=MAX_MODELS),
        models=node.integer("models", minimum=0, maximum=unit.models),
        status=status,
        wounds_lost=node.integer("wounds_lost", 0, minimum=0, maximum=100),
        engaged_with=frozenset(node.strings("engaged_with")),
        modifiers=tuple(modifiers),
        flags=frozenset(node.strings("flags")),
    )


def battle_to_json(battle: Battle, title: str = "", events: Sequence[Event] = ()) -> dict[
        str, Any]:
    """A battle at one moment, and optionally the events that happened since."""
    return {
        "format": BATTLE_FORMAT,
        "version": VERSION,
        "title": title,
        "ruleset": battle.ruleset,
        "table": {"width": battle.table.width, "depth": battle.table.depth},
        "turn": battle.turn,
        "options": dict(battle.options),
        "terrain": [{"id": piece.id, "name": piece.name,
                     "points": [list(point) for point in piece.points],
                     "impassable": piece.impassable} for piece in battle.terrain],
        "units": [{**unit_to_json(battle.roster[uid]),
                   "state": state_to_json(battle.states[uid])} for uid in battle.roster],
        "events": [event.to_json() for event in events],
    }


def battle_from_json(data: object) -> tuple[str, Battle, tuple[Event, ...]]:
    """(title, battle at the start, events since) from a `rout-battle` document."""
    root = Reader(data)
    _check_header(root, BATTLE_FORMAT)
    root.expect("format", "version", "title", "ruleset", "table", "turn", "options", "terrain",
                "units", "events")
    ruleset = _ruleset(root)
    table_node = root.child("table").expect("width", "depth")
    table = Table(table_node.number("width", positive=True),
                  table_node.number("depth", positive=True))
    nodes = root.entries("units")
    if len(nodes) > MAX_UNITS:
        raise root.fail(f"{len(nodes)} units is more than Rout reads ({MAX_UNITS})", "units")
    roster: dict[str, Unit] = {}
    states: dict[str, UnitState] = {}
    for node in nodes:
        unit = unit_from_json(ruleset, node, extra_fields=("state",))
        if unit.id in roster:
            raise node.fail(f"the id '{unit.id}' is used twice", "id")
        roster[unit.id] = unit
        states[unit.id] = state_from_json(unit, node.child("state"))
    for uid, state in states.items():
        for other in state.engaged_with:
            if other not in roster:
                raise ScenarioError(f"unit '{uid}' is engaged with '{other}', which is not in "
                                    "this battle")
    terrain = []
    for node in root.entries("terrain", required=False):
        node.expect("id", "name", "points", "impassable")
        points = [Reader({"p": item.data}, item.path).point("p")
                  for item in node.child("points").items()]
        if len(points) < 3:
            raise node.fail("a piece of terrain needs at least three corner points", "points")
        terrain.append(Terrain(node.text("id"), node.text("name", node.text("id")),
                               tuple(points), node.flag("impassable")))
    options = dict(root.child("options", {}).mapping())
    known = {spec.name for spec in ruleset.options}
    for name in options:
        if name not in known:
            raise root.fail(f"unknown option for {ruleset.name}", f"options.{name}")
    event_nodes = root.entries("events", required=False)
    if len(event_nodes) > MAX_EVENTS:
        raise root.fail(f"more than {MAX_EVENTS} events", "events")
    events = tuple(_event(node) for node in event_nodes)
    battle = Battle(ruleset=ruleset.id, table=table, roster=roster, states=states,
                    terrain=tuple(terrain), turn=root.integer("turn", 1, minimum=1),
                    options=options)
    return optional_text(root, "title"), battle, events


def _event(node: Reader) -> Event:
    try:
        return event_from_json(node.mapping())
    except ScenarioError as error:
        raise node.fail(str(error)) from None
    except (TypeError, ValueError) as error:
        raise node.fail(f"not an event Rout can read: {error}") from None
