"""Armies and battles as plain JSON data, and back, without losing anything.

This is Rout's own file format (README, "Rout JSON") and also what the store keeps in its
JSON columns, so a profile reads the same from a file and from a database. Reading is strict:
an unknown field, a wrong type or a statistic out of its ruleset's range raises a
ScenarioError or StatError naming the place, e.g. "units[3].profile.stats.Ld: ...".
A battle's events are checked too: each must be a known event with fields of the right types,
and together they must apply to the battle they follow.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from desktop.engine.composition import Bound, Composition, CompositionLimit, Library
from desktop.engine.errors import RuleError, ScenarioError, quoted
from desktop.engine.geometry import Table
from desktop.engine.lazy import standing
from desktop.engine.model import (
    MAX_FLAGS,
    MAX_MODIFIERS,
    Army,
    ArmyList,
    Battle,
    EntryLimit,
    LibraryEntry,
    Modifier,
    RosterPrice,
    Status,
    Terrain,
    TroopType,
    Unit,
    UnitProfile,
    UnitState,
    Zone,
)
from desktop.engine.reading import (
    MAX_ITEMS,
    Reader,
    check_text,
    check_texts,
    found,
    has_unwritable,
    needed,
    text_problem,
    texts_problem,
)
from desktop.engine.roster import MAX_POINTS
from desktop.engine.rulesets import Ruleset, get_ruleset
from desktop.lazy import lazy_module

# Loaded on first use (desktop.lazy): battles' events, which reading armies (at start-up) never
# needs.
if TYPE_CHECKING:
    import desktop.engine.events as engine_events
else:
    engine_events = lazy_module("desktop.engine.events")

if TYPE_CHECKING:
    from desktop.engine.events import Event

ARMY_FORMAT = "rout-army"
BATTLE_FORMAT = "rout-battle"
LIBRARY_FORMAT = "rout-library"
VERSION = 1
# Battles with deployment zones are version 2: an older Rout says the file is newer rather
# than refusing "zones" as a misspelt field. Battles without zones stay version 1.
BATTLE_VERSION = 2
# Armies whose units carry a roster price or typed points, or that name their army list,
# are version 2, for the same reason; other armies stay version 1. Libraries with army lists
# or limits are version 2.
ARMY_VERSION = 2
LIBRARY_VERSION = 2
MAX_UNITS = 5000
MAX_MODELS = 10000
MAX_EVENTS = 1_000_000
# An army's points in all: what every database's whole-number column holds (PostgreSQL's
# integer stops at 2,147,483,647), checked before writing so both backends agree.
MAX_ARMY_POINTS = 1_000_000_000
MAX_NOTES = MAX_ITEMS
MAX_NOTE_LENGTH = 4000


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
    # Each statistic is named with its own place ("...stats.Ld"), as the module promises.
    stats = {name: ruleset.check_stat(name, value, stats_node.child(name).path)
             for name, value in stats_node.mapping().items()}
    troop_type = node.choice("troop_type", TroopType, TroopType.INFANTRY, "troop type")
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
    stats = data["stats"]
    if not isinstance(stats, Mapping):
        # Else .items() raises AttributeError, which the store would not report as damage.
        raise TypeError(f"stats should be an object, not {type(stats).__name__}")
    return UnitProfile(
        name=str(data["name"]),
        stats={str(name): int(value) for name, value in stats.items()},
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
        # Only when there is something to say: a unit without them reads in any version.
        **({"price": price_to_json(unit.price)} if unit.price is not None else {}),
        **({"points_typed": True} if unit.points_typed else {}),
    }


def price_to_json(price: RosterPrice) -> dict[str, Any]:
    return {"per_model": price.per_model, "upgrades": price.upgrades}


def _price(node: Reader) -> RosterPrice | None:
    if not node.has("price"):
        return None
    price = node.child("price").expect("per_model", "upgrades")
    per_model = price.number("per_model", minimum=0)
    if per_model > MAX_POINTS:
        raise price.fail(f"{per_model} is above the maximum of {MAX_POINTS}", "per_model")
    # Negative upgrades are real: army builders list discounts as negative costs.
    return RosterPrice(per_model, price.integer("upgrades", 0, minimum=-MAX_POINTS,
                                                maximum=MAX_POINTS))


def has_pricing(unit: Unit) -> bool:
    """Whether the unit needs army format version 2 (a roster price or typed points)."""
    return unit.price is not None or unit.points_typed


UNIT_FIELDS = ("id", "name", "player", "profile", "models", "files", "upgrades",
               "character_wounds", "points", "slot", "notes", "price", "points_typed")


def unit_from_json(ruleset: Ruleset, node: Reader, player: str | None = None,
                   extra_fields: Sequence[str] = ()) -> Unit:
    """`player` is the army's when units sit in an army document (they carry none)."""
    # In an army a unit's own "player" would be silently overridden: refuse it as unknown.
    fields = UNIT_FIELDS if player is None else tuple(f for f in UNIT_FIELDS if f != "player")
    node.expect(*fields, *extra_fields)
    models = node.integer("models", minimum=1, maximum=MAX_MODELS)
    files = node.integer("files", min(models, 5), minimum=1)
    if files > models:
        raise node.fail(f"{files} files is more than the {models} models of the unit", "files")
    return Unit(
        id=node.text("id", max_length=100),
        name=node.text("name"),
        player=player if player is not None else node.text("player"),
        profile=profile_from_json(ruleset, node.child("profile")),
        models=models,
        files=files,
        upgrades=frozenset(node.strings("upgrades")),
        character_wounds=node.integer("character_wounds", 0, minimum=0, maximum=100),
        points=node.integer("points", 0, minimum=0, maximum=MAX_POINTS),
        slot=optional_text(node, "slot", 100),
        notes=_notes(node),
        price=_price(node),
        points_typed=node.flag("points_typed"),
    )


def optional_text(node: Reader, key: str, max_length: int = 200) -> str:
    """Text that may be empty (Reader.text refuses empty text)."""
    value = node.child(key, "").data
    if not isinstance(value, str):
        raise node.fail(needed("text", value), key)
    return check_text(node.child(key), value.strip(), max_length) if value else ""


def _notes(node: Reader) -> tuple[str, ...]:
    if node.count("notes") > MAX_NOTES:  # before a single note is looked at
        raise node.fail(f"{node.count('notes')} notes is more than Rout keeps ({MAX_NOTES})",
                        "notes")
    return tuple(node.strings("notes", max_length=MAX_NOTE_LENGTH, max_items=MAX_NOTES))


def check_army(army: Army) -> Army:
    """Refuse an army Rout could not keep, export and read back, whatever door it came by
    (the window, a BattleScribe roster): each field within the limits the Rout JSON reader
    applies, named by its place in the file, and the points in all within MAX_ARMY_POINTS.

    The store calls it before every write: places are worked out only for a refusal, so a
    big army is checked in well under a millisecond.
    """
    root = Reader(None)
    for key, text, limit in (("name", army.name, 200), ("player", army.player, 200),
                             ("army_list", army.army_list, 100)):
        check_text(root.at(key), text, limit)
    check_texts(root.at("notes"), army.notes, MAX_NOTE_LENGTH, MAX_NOTES)
    _check_whole(root, ("points_limit",), army.points_limit, 0, MAX_POINTS)
    if len(army.units) > MAX_UNITS:
        raise root.fail(f"{len(army.units)} units is more than Rout reads ({MAX_UNITS})",
                        "units")
    units = root.at("units")
    for index, unit in enumerate(army.units):
        _check_unit(units, index, unit)
    if army.points > MAX_ARMY_POINTS:
        raise root.fail(f"{army.points} points in all is more than an army can have (at most "
                        f"{MAX_ARMY_POINTS})", "units")
    return army


def check_readable(army: Army) -> Army:
    """What reading a kept army checks: every text is text that every export can write (no
    NUL, no lone surrogate, not a list where text goes). The limits are for writing
    (check_army): an army kept before they were checked still opens and exports."""
    found = army_texts(army)
    texts = [text for text in found if isinstance(text, str)]
    if len(texts) == len(found) and not has_unwritable("".join(texts)):
        return army
    for keys, text in _army_texts(army):  # the first that is wrong, with its place
        place = _place(Reader(None), keys)
        if not isinstance(text, str):
            raise place.fail(needed("text", text))
        problem = text_problem(text, len(text))
        if problem is not None:
            raise place.fail(problem)
    return army


Keys = tuple[str | int, ...]


def army_texts(army: Army) -> list[object]:
    """Every text of an army, as _army_texts lists them but without their places: reading
    an army checks these in one pass (a test holds the two lists together)."""
    texts: list[object] = [army.name, army.player, army.army_list, *army.notes]
    for unit in army.units:
        texts += (unit.id, unit.name, unit.slot, unit.profile.name,
                  *unit.profile.special_rules, *unit.upgrades, *unit.notes)
    return texts


def _army_texts(army: Army) -> Iterator[tuple[Keys, object]]:
    """Every text of an army, with the keys of its place in the Rout JSON file."""
    yield ("name",), army.name
    yield ("player",), army.player
    yield ("army_list",), army.army_list
    yield from ((("notes", index), note) for index, note in enumerate(army.notes))
    for at, unit in enumerate(army.units):
        yield ("units", at, "id"), unit.id
        yield ("units", at, "name"), unit.name
        yield ("units", at, "slot"), unit.slot
        yield ("units", at, "profile", "name"), unit.profile.name
        for key, texts in ((("profile", "special_rules"), sorted(unit.profile.special_rules)),
                           (("upgrades",), sorted(unit.upgrades)), (("notes",), unit.notes)):
            yield from ((("units", at, *key, index), text) for index, text in enumerate(texts))


def unit_fits(unit: Unit) -> bool:
    """The quick yes of _check_unit for the usual unit, as plain comparisons (a save checks
    every unit twice a second while a player types). It may say no to a unit that fits
    (then _check_unit looks again, field by field) but never yes to one that does not: a
    test holds the two together."""
    rules, upgrades, notes = unit.profile.special_rules, unit.upgrades, unit.notes
    return (len(unit.id) <= 100 and len(unit.name) <= 200 and len(unit.slot) <= 100
            and len(unit.profile.name) <= 200 and len(rules) <= MAX_ITEMS
            and len(upgrades) <= MAX_ITEMS and len(notes) <= MAX_NOTES
            and 1 <= unit.models <= MAX_MODELS and 1 <= unit.files <= MAX_MODELS
            and 0 <= unit.character_wounds <= 100 and 0 <= unit.points <= MAX_POINTS
            and max(map(len, rules), default=0) <= 200
            and max(map(len, upgrades), default=0) <= 200
            and max(map(len, notes), default=0) <= MAX_NOTE_LENGTH
            and not has_unwritable("".join((unit.id, unit.name, unit.slot, unit.profile.name,
                                            *rules, *upgrades, *notes))))


def _check_unit(units: Reader, index: int, unit: Unit) -> None:
    """Each field of a unit within the Rout JSON reader's limits, named by its place."""
    if unit_fits(unit):
        return
    rules, upgrades, notes = unit.profile.special_rules, unit.upgrades, unit.notes
    texts = ((("id",), unit.id, 100), (("name",), unit.name, 200),
             (("slot",), unit.slot, 100), (("profile", "name"), unit.profile.name, 200))
    lists = ((("profile", "special_rules"), rules, 200, MAX_ITEMS),
             (("upgrades",), upgrades, 200, MAX_ITEMS),
             (("notes",), notes, MAX_NOTE_LENGTH, MAX_NOTES))
    # Files wider than the unit are a roster warning, never a refusal (README): only the
    # range a database column and the reader's number check hold.
    numbers = ((("models",), unit.models, 1, MAX_MODELS), (("files",), unit.files, 1, MAX_MODELS),
               (("character_wounds",), unit.character_wounds, 0, 100),
               (("points",), unit.points, 0, MAX_POINTS))
    node = units.at(index)
    for keys, text, limit in texts:
        problem = text_problem(text, limit)
        if problem is not None:
            raise _place(node, keys).fail(problem)
    for keys, items, limit, most in lists:
        # Sorted as the file lists them, so that the index named is the one in the file.
        found = texts_problem(items if isinstance(items, tuple) else sorted(items), limit,
                              most)
        if found is not None:
            raise _place(node, keys).fail(found[1], found[0])
    for keys, value, low, high in numbers:
        _check_whole(node, keys, value, low, high)


def _place(node: Reader, keys: Sequence[str | int]) -> Reader:
    for key in keys:
        node = node.at(key)
    return node


def _check_whole(node: Reader, keys: Sequence[str], value: int, low: int, high: int) -> None:
    if value < low:
        raise _place(node, keys).fail(f"{value} is below the minimum of {low}")
    if value > high:
        raise _place(node, keys).fail(f"{value} is above the maximum of {high}")


def _check_header(root: Reader, expected: str, newest: int = VERSION) -> int:
    if not isinstance(root.data, dict):
        raise root.fail("the file should hold a group of fields in { } at the top, and has "
                        f"{found(root.data)}")
    kind = root.child("format", None).data
    if kind != expected:
        raise ScenarioError(f"this is not a Rout {expected.removeprefix('rout-')} file "
                            f"(its format should be '{expected}', the file has "
                            f"{found(kind)})")
    version = root.integer("version", minimum=1)
    if version > newest:
        raise root.fail(f"version {version} was written by a newer Rout; this one reads "
                        f"version {newest}", "version")
    return version


def army_to_json(army: Army) -> dict[str, Any]:
    priced = any(has_pricing(unit) for unit in army.units)
    document: dict[str, Any] = {
        "format": ARMY_FORMAT,
        "version": ARMY_VERSION if priced or army.army_list else VERSION,
        "name": army.name,
        "player": army.player,
        "ruleset": army.ruleset,
    }
    if army.army_list:
        document["army_list"] = army.army_list
    document |= {
        "points_limit": army.points_limit,
        "notes": list(army.notes),
        "units": [{key: value for key, value in unit_to_json(unit).items() if key != "player"}
                  for unit in army.units],
    }
    return document


def army_from_json(data: object) -> Army:
    """An army from a `rout-army` document. The id is left empty: the store gives one."""
    root = Reader(data)
    version = _check_header(root, ARMY_FORMAT, ARMY_VERSION)
    root.expect("format", "version", "name", "player", "ruleset", "points_limit", "notes",
                "units", *(("army_list",) if version >= 2 else ()))
    ruleset = _ruleset(root)
    player = root.text("player", "Player")
    _check_count(root, "units", MAX_UNITS)
    nodes = root.entries("units", required=False)
    units = tuple(unit_from_json(ruleset, node, player) for node in nodes)
    if version < ARMY_VERSION:
        for index, unit in enumerate(units):
            if has_pricing(unit):  # a version 1 reader would have refused these fields
                raise root.fail("a roster price or typed points need version "
                                f"{ARMY_VERSION}", f"units[{index}]")
    _check_unique_ids(root, units)
    return check_army(Army(name=root.text("name"), player=player, ruleset=ruleset.id,
                           units=units, points_limit=root.integer("points_limit", 0, minimum=0,
                                                                  maximum=MAX_POINTS),
                           notes=_notes(root), army_list=optional_text(root, "army_list", 100)))


def _check_count(root: Reader, key: str, most: int) -> None:
    """Refuse a list longer than `most` before reading any of it."""
    if root.count(key) > most:
        raise root.fail(f"{root.count(key)} {key} is more than Rout reads ({most})", key)


def _ruleset(root: Reader) -> Ruleset:
    # root.text already names the place; only get_ruleset's message needs it added.
    ruleset_id = root.text("ruleset")
    try:
        return get_ruleset(ruleset_id)
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


def state_from_json(unit: Unit, node: Reader, ruleset: Ruleset | None = None) -> UnitState:
    """`ruleset`, when given, checks that modifiers change statistics it has."""
    node.expect("center", "facing", "files", "models", "status", "wounds_lost",
                "engaged_with", "modifiers", "flags")
    status = node.choice("status", Status, Status.READY, "status")
    _check_count(node, "flags", MAX_FLAGS)
    _check_count(node, "modifiers", MAX_MODIFIERS)
    modifiers = []
    for item in node.entries("modifiers", required=False):
        item.expect("stat", "delta", "expires_after_turn", "source")
        stat = item.text("stat")
        if ruleset is not None and stat not in {spec.name for spec in ruleset.stats}:
            # A misspelt statistic ("LD") would otherwise never apply, silently.
            raise item.fail(f"{ruleset.name} has no statistic {quoted(stat)} (it has "
                            f"{', '.join(s.name for s in ruleset.stats)})", "stat")
        modifiers.append(Modifier(stat, item.integer("delta", minimum=-100, maximum=100),
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
        # Whole lost models come off (WoundsSuffered): the rest is less than one model's.
        wounds_lost=node.integer("wounds_lost", 0, minimum=0,
                                 maximum=unit.profile.wounds - 1),
        engaged_with=frozenset(node.strings("engaged_with")),
        modifiers=tuple(modifiers),
        flags=frozenset(node.strings("flags")),
    )


def battle_to_json(battle: Battle, title: str = "", events: Sequence[Event] = ()) -> dict[
        str, Any]:
    """A battle at one moment, and optionally the events that happened since."""
    document: dict[str, Any] = {
        "format": BATTLE_FORMAT,
        "version": BATTLE_VERSION if battle.zones else VERSION,
        "title": title,
        "ruleset": battle.ruleset,
        "table": {"width": battle.table.width, "depth": battle.table.depth},
        "turn": battle.turn,
        "options": dict(battle.options),
        "terrain": [terrain_to_json(piece) for piece in battle.terrain],
        "units": [{**unit_to_json(battle.roster[uid]),
                   "state": state_to_json(battle.states[uid])} for uid in battle.roster],
        "events": [event.to_json() for event in events],
    }
    if battle.zones:
        document["zones"] = [{"player": zone.player, "rect": list(zone.rect)}
                             for zone in battle.zones]
    return document


def battle_from_json(data: object) -> tuple[str, Battle, tuple[Event, ...]]:
    """(title, battle at the start, events since) from a `rout-battle` document."""
    root = Reader(data)
    version = _check_header(root, BATTLE_FORMAT, BATTLE_VERSION)
    root.expect("format", "version", "title", "ruleset", "table", "turn", "options", "terrain",
                "units", "events", *(("zones",) if version >= 2 else ()))
    ruleset = _ruleset(root)
    table = table_from_json(root.child("table"))
    _check_count(root, "units", MAX_UNITS)
    nodes = root.entries("units")
    roster: dict[str, Unit] = {}
    states: dict[str, UnitState] = {}
    for node in nodes:
        unit = unit_from_json(ruleset, node, extra_fields=("state",))
        if unit.id in roster:
            raise node.fail(f"the id '{unit.id}' is used twice", "id")
        roster[unit.id] = unit
        states[unit.id] = state_from_json(unit, node.child("state"), ruleset)
    for node in nodes:
        _check_engaged(node.child("state"), roster, node.text("id"))
    terrain = terrain_from_json(root)
    options = read_options(ruleset, root.child("options", {}))
    if root.count("events") > MAX_EVENTS:
        raise root.fail(f"more than {MAX_EVENTS} events", "events")
    event_nodes = root.entries("events", required=False)
    events = tuple(_event(node) for node in event_nodes)
    zones = tuple(_zone(node, table) for node in root.entries("zones", required=False))
    seen: set[str] = set()
    for index, zone in enumerate(zones):
        if zone.player in seen:
            raise root.fail(f"'{zone.player}' has two deployment zones", f"zones[{index}]")
        seen.add(zone.player)
    battle = Battle(ruleset=ruleset.id, table=table, roster=roster, states=states,
                    terrain=tuple(terrain), turn=root.integer("turn", 1, minimum=1),
                    options=options, zones=zones)
    try:
        standing.check_battle(battle)
        standing.replay(battle, events)
    except standing.ReplayError as error:
        raise event_nodes[error.index].fail(error.message) from None
    return optional_text(root, "title"), battle, events


def _check_engaged(node: Reader, roster: Mapping[str, Unit], unit_id: str) -> None:
    """A unit fights only enemies that are in the battle (events never engage friends)."""
    for other in node.strings("engaged_with"):
        if other not in roster:
            raise node.fail(f"no unit '{other}' in this battle", "engaged_with")
        if roster[other].player == roster[unit_id].player:
            raise node.fail(f"'{other}' is a friend, not an enemy to be engaged with",
                            "engaged_with")


def terrain_to_json(piece: Terrain) -> dict[str, Any]:
    """A piece as battle and scenario files hold it; `difficult` only when true, so files
    without difficult ground read and write exactly as before it existed."""
    data: dict[str, Any] = {"id": piece.id, "name": piece.name,
                            "points": [list(point) for point in piece.points],
                            "impassable": piece.impassable}
    if piece.difficult:
        data["difficult"] = True
    return data


def table_from_json(node: Reader) -> Table:
    """`{"width": w, "depth": d}`, each more than 0 and at most standing.MAX_TABLE."""
    node.expect("width", "depth")
    width, depth = node.number("width", positive=True), node.number("depth", positive=True)
    problem = standing.table_problem(width, depth)
    if problem:
        raise node.fail(problem)
    return Table(width, depth)


def terrain_from_json(root: Reader) -> tuple[Terrain, ...]:
    """The pieces under "terrain", as battle and scenario files hold them (at most
    standing.MAX_TERRAIN, counted before any is read)."""
    if root.count("terrain") > standing.MAX_TERRAIN:  # before reading any
        raise root.fail(f"{root.count('terrain')} pieces of terrain is more than a table "
                        f"holds (at most {standing.MAX_TERRAIN})", "terrain")
    nodes = root.entries("terrain", required=False)
    pieces = tuple(_terrain(node) for node in nodes)
    # Shapely answers nonsense for an outline that crosses itself: refused, as the moves of
    # a player are. All at once: one by one, a table of a thousand took a second.
    found = standing.outlines_problem([piece.points for piece in pieces])
    if found is not None:
        index, problem = found
        raise nodes[index].child("points").fail(problem)
    return pieces


def _terrain(node: Reader) -> Terrain:
    """A piece as it reads; terrain_from_json checks its outline."""
    node.expect("id", "name", "points", "impassable", "difficult")
    points_node = node.child("points")
    if isinstance(points_node.data, list) and len(points_node.data) > standing.MAX_CORNERS:
        raise points_node.fail(f"a piece of terrain has at most {standing.MAX_CORNERS} "
                               f"corners, not {len(points_node.data)}")  # before reading any
    points = tuple(_point(item) for item in points_node.items())
    if len(points) < 3:  # before any shape is made of it
        raise points_node.fail(standing.corners_problem(points) or "")
    return Terrain(node.text("id"), node.text("name", node.text("id")), points,
                   node.flag("impassable"), node.flag("difficult"))


def _zone(node: Reader, table: Table) -> Zone:
    node.expect("player", "rect")
    rect_node = node.child("rect")
    values = rect_node.data
    if not (isinstance(values, list) and len(values) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values)):
        raise rect_node.fail(needed("four numbers [x0, y0, x1, y1]", values))
    x0, y0, x1, y1 = (float(v) for v in values)
    if not (0 <= x0 < x1 <= table.width and 0 <= y0 < y1 <= table.depth):
        raise rect_node.fail(f"[{x0:g}, {y0:g}, {x1:g}, {y1:g}] is not a rectangle on the "
                             f"{table.width:g}x{table.depth:g} table")
    return Zone(node.text("player"), (x0, y0, x1, y1))


def _point(item: Reader) -> tuple[float, float]:
    """`item` itself as [x, y]; Reader.point reads a point under a key."""
    head, _, key = item.path.rpartition(".")
    return Reader({key: item.data}, head).point(key)


def read_options(ruleset: Ruleset, node: Reader) -> dict[str, Any]:
    """Options as the scenario reader takes them: known, of the default's type, checked.

    A wrong type must not slip through: "double_one_holds": "no" would count as true.
    """
    known = {spec.name: spec for spec in ruleset.options}
    options = {}
    for name, value in node.mapping().items():
        spec = known.get(name)
        if spec is None:
            raise node.fail(f"unknown option for {ruleset.name} "
                            f"(known: {', '.join(sorted(known)) or 'none'})", name)
        if type(value) is not type(spec.default):
            raise node.fail(needed(_kind_of(spec.default), value), name)
        if spec.check is not None:
            try:
                spec.check(value)
            except RuleError as error:
                raise node.fail(str(error), name) from None
        options[name] = value
    return options


def _kind_of(value: object) -> str:
    return {bool: "true or false", str: "text", int: "a whole number"}.get(type(value),
                                                                          type(value).__name__)


def _event(node: Reader) -> Event:

    data = node.mapping()  # names its own place when the entry is not an object
    try:
        event = engine_events.event_from_json(data)
    except ScenarioError as error:
        raise node.fail(str(error)) from None
    except (TypeError, ValueError) as error:
        raise node.fail(f"not an event Rout can read: {error}") from None
    # event_from_json drops fields its class does not have; here a typo must be refused.
    hints = _event_fields(type(event))
    if not data.keys() <= _event_keys(type(event)):
        node.expect("type", *hints)
    for name, hint in hints.items():
        value = getattr(event, name)
        if not _fits(value, hint):
            raise node.fail(needed(_hint_text(hint), data.get(name)), name)
        if not _texts_fine(value):
            _check_event_texts(node.at(name), value)
    return event


def _texts_fine(value: object) -> bool:
    """The quick yes of _check_event_texts, which builds the places only for a refusal (a
    log of half a million events is read here)."""
    if isinstance(value, str):
        return text_problem(value, MAX_NOTE_LENGTH) is None
    if isinstance(value, tuple):
        return all(_texts_fine(item) for item in value if isinstance(item, str | tuple))
    return True


def _check_event_texts(node: Reader, value: object) -> None:
    """Every text in an event (ids, clauses, lists of them) passes the one text check."""
    if isinstance(value, str):
        check_text(node, value, MAX_NOTE_LENGTH)
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            _check_event_texts(node.at(index), item)


_EVENT_KEYS: dict[type[Event], frozenset[str]] = {}


def _event_keys(kind: type[Event]) -> frozenset[str]:
    """The keys an event of `kind` may have in a file: "type" and its fields."""
    found = _EVENT_KEYS.get(kind)
    if found is None:
        found = _EVENT_KEYS[kind] = frozenset(("type", *_event_fields(kind)))
    return found


_EVENT_FIELDS: dict[type[Event], dict[str, Any]] = {}


def _event_fields(kind: type[Event]) -> dict[str, Any]:
    """Field name -> declared type; get_type_hints is slow, and a log has many events."""
    found = _EVENT_FIELDS.get(kind)
    if found is None:
        hints = typing.get_type_hints(kind)
        found = _EVENT_FIELDS[kind] = {item.name: hints[item.name]
                                       for item in dataclasses.fields(kind)}
    return found


def _fits(value: object, hint: Any) -> bool:
    """Whether a value read from JSON (lists already made tuples) has the declared type."""
    simple = _SIMPLE_FITS.get(hint)
    if simple is not None:
        return simple(value)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_fits(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_fits, value, args))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        # An int is a fine float (and math.isfinite would overflow on a huge one).
        if isinstance(value, float):
            return math.isfinite(value)
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    return False  # a field type this reader does not know yet: refuse rather than guess


# The declared types most fields have, answered without looking into typing (a hint of
# one of these types is the type itself, which hashes).
_SIMPLE_FITS: dict[Any, Callable[[object], bool]] = {
    str: lambda value: isinstance(value, str),
    bool: lambda value: isinstance(value, bool),
    int: lambda value: isinstance(value, int) and not isinstance(value, bool),
    float: lambda value: (math.isfinite(value) if isinstance(value, float) else
                          isinstance(value, int) and not isinstance(value, bool)),
}


def _hint_text(hint: Any) -> str:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_hint_text(arg) for arg in typing.get_args(hint))
    if origin is tuple:
        return "a list"
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text",
            type(None): "nothing (null)"}.get(hint, str(hint))


def library_entry_to_json(entry: LibraryEntry) -> dict[str, Any]:
    """An entry; "lists" and "limit" only when set, so version 1 entries read back alike."""
    data: dict[str, Any] = {"profile": profile_to_json(entry.profile),
                            "points_per_model": entry.points_per_model, "slot": entry.slot,
                            "models": entry.models, "upgrade_costs": dict(entry.upgrade_costs)}
    if entry.lists:
        data["lists"] = sorted(entry.lists)
    if entry.limit is not None:
        data["limit"] = entry_limit_to_json(entry.limit)
    return data


def entry_limit_to_json(limit: EntryLimit) -> dict[str, Any]:
    data: dict[str, Any] = {"most": limit.most}
    if limit.per_points:
        data["per_points"] = limit.per_points
    if limit.per_slot:
        data["per_slot"] = limit.per_slot
    return data


def entry_limit_from_json(node: Reader) -> EntryLimit:
    node.expect("most", "per_points", "per_slot")
    limit = EntryLimit(most=node.integer("most", minimum=0, maximum=MAX_UNITS),
                       per_points=node.integer("per_points", 0, minimum=0, maximum=MAX_POINTS),
                       per_slot=optional_text(node, "per_slot", 100))
    if limit.per_points and limit.per_slot:
        raise node.fail("a limit goes per points or per unit of a slot, not both")
    return limit


def army_lists_to_json(army_lists: Sequence[ArmyList]) -> list[dict[str, Any]]:
    return [{"id": found.id, "name": found.name,
             **({"catalogues": list(found.catalogues)} if found.catalogues else {})}
            for found in army_lists]


def army_lists_from_json(node: Reader) -> tuple[ArmyList, ...]:
    found: dict[str, ArmyList] = {}
    for item in node.items():
        item.expect("id", "name", "catalogues")
        army_list = ArmyList(item.text("id", max_length=100), item.text("name"),
                             tuple(item.strings("catalogues")))
        if army_list.id in found:
            raise item.fail(f"the army list id '{army_list.id}' is used twice", "id")
        found[army_list.id] = army_list
    return tuple(found.values())


def _bound_to_json(bound: Bound) -> int | dict[str, Any]:
    if bound.fixed is not None:
        return bound.fixed
    if bound.percent is not None:
        return {"percent": bound.percent}
    return {"by_row": list(bound.by_row), "then": bound.then}


def _whole(item: Reader, maximum: int) -> int:
    """`item` itself as a whole number from 0 (Reader.integer reads one under a key)."""
    head, _, key = item.path.rpartition(".")
    return Reader({key: item.data}, head).integer(key, minimum=0, maximum=maximum)


def _bound_from_json(node: Reader, rows: int) -> Bound:
    """A bound: a number, {"by_row": [one per chart row], "then": n} or {"percent": p}."""
    if isinstance(node.data, int) and not isinstance(node.data, bool):
        return Bound(fixed=_whole(node, MAX_UNITS))
    if node.has("percent"):
        node.expect("percent")
        return Bound(percent=node.integer("percent", minimum=0, maximum=100))
    node.expect("by_row", "then")
    values = node.child("by_row")
    by_row = tuple(_whole(item, MAX_UNITS) for item in values.items())
    if len(by_row) != rows or not rows:
        raise values.fail(f"expected one number per row of the chart ({rows} rows), found "
                          f"{len(by_row)}")
    return Bound(by_row=by_row, then=node.integer("then", 0, minimum=0, maximum=MAX_UNITS))


def composition_to_json(composition: Composition) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if composition.source:
        data["source"] = composition.source
    if composition.rows:
        data["rows"] = list(composition.rows)
        data["then_every"] = composition.then_every
    limits = []
    for limit in composition.limits:
        item: dict[str, Any] = {"label": limit.label}
        if limit.upgrade:
            item["upgrade"] = limit.upgrade
        else:
            item["slots"] = sorted(limit.slots)
        for key, bound in (("least", limit.least), ("most", limit.most)):
            if bound is not None:
                item[key] = _bound_to_json(bound)
        limits.append(item)
    data["limits"] = limits
    return data


def composition_from_json(ruleset: Ruleset, node: Reader) -> Composition:
    """A composition: the chart rows (army sizes each starts at) and the limits."""
    node.expect("source", "rows", "then_every", "limits")
    rows_node = node.child("rows", [])
    rows = tuple(_whole(item, MAX_POINTS) for item in rows_node.items())
    if rows and (rows[0] != 0 or any(b <= a for a, b in itertools.pairwise(rows))):
        raise rows_node.fail("the rows' sizes must start at 0 and grow")
    known_upgrades = {spec.name for spec in ruleset.upgrades}
    limits = []
    for item in node.entries("limits", required=False):
        item.expect("label", "slots", "upgrade", "least", "most")
        upgrade = optional_text(item, "upgrade", 100)
        slots = frozenset(" ".join(slot.split()) for slot in item.strings("slots"))
        if bool(upgrade) == bool(slots):
            raise item.fail("a limit counts the units of some slots or those with an "
                            "upgrade: give one of 'slots' and 'upgrade'")
        if upgrade and upgrade not in known_upgrades:
            raise item.fail(f"{ruleset.name} has no upgrade {quoted(upgrade)} (it has "
                            f"{', '.join(sorted(known_upgrades))})", "upgrade")
        least, most = (_bound_from_json(item.child(key), len(rows)) if item.has(key) else None
                       for key in ("least", "most"))
        if least is None and most is None:
            raise item.fail("a limit needs 'least', 'most' or both")
        limits.append(CompositionLimit(item.text("label", max_length=100), slots, upgrade,
                                       least, most))
    return Composition(source=optional_text(node, "source"), rows=rows,
                       then_every=node.integer("then_every", 0, minimum=0,
                                               maximum=MAX_POINTS),
                       limits=tuple(limits))


def library_to_json(library: Library) -> dict[str, Any]:
    """A `rout-library` document; version 1 (no army lists, composition or limits) when
    nothing needs version 2, so older files are written back unchanged."""
    entries = [library_entry_to_json(entry) for entry in library.entries]
    newer = bool(library.army_lists or library.composition != Composition()
                 or any(entry.lists or entry.limit for entry in library.entries))
    document: dict[str, Any] = {"format": LIBRARY_FORMAT,
                                "version": LIBRARY_VERSION if newer else VERSION,
                                "ruleset": library.ruleset}
    if newer:
        document["army_lists"] = army_lists_to_json(library.army_lists)
        document["composition"] = composition_to_json(library.composition)
    document["entries"] = entries
    return document


def library_from_json(data: object) -> Library:
    """A `rout-library` document: the units players add, their army lists and limits, and
    the ruleset's composition (version 2)."""
    root = Reader(data)
    version = _check_header(root, LIBRARY_FORMAT, LIBRARY_VERSION)
    root.expect("format", "version", "ruleset", "entries",
                *(("army_lists", "composition") if version >= 2 else ()))
    ruleset = _ruleset(root)
    army_lists = army_lists_from_json(root.child("army_lists", []))
    list_ids = {found.id for found in army_lists}
    composition = composition_from_json(ruleset, root.child("composition", {}))
    known_upgrades = {spec.name for spec in ruleset.upgrades}
    entries = []
    for node in root.entries("entries"):
        node.expect("profile", "points_per_model", "slot", "models", "upgrade_costs",
                    *(("lists", "limit") if version >= 2 else ()))
        costs_node = node.child("upgrade_costs", {})
        costs = {}
        for name in costs_node.mapping():
            if name not in known_upgrades:
                raise costs_node.fail(f"{ruleset.name} has no upgrade {quoted(name)} (it has "
                                      f"{', '.join(sorted(known_upgrades))})", name)
            costs[name] = costs_node.integer(name, minimum=0, maximum=MAX_POINTS)
        lists = frozenset(node.strings("lists"))
        unknown = sorted(lists - list_ids)
        if unknown:
            raise node.fail(f"no army list {quoted(unknown[0])} in this library (it has "
                            f"{', '.join(sorted(list_ids)) or 'none'})", "lists")
        entries.append(LibraryEntry(
            ruleset=ruleset.id, profile=profile_from_json(ruleset, node.child("profile")),
            points_per_model=node.integer("points_per_model", 0, minimum=0,
                                          maximum=MAX_POINTS),
            slot=optional_text(node, "slot", 100),
            models=node.integer("models", 10, minimum=1, maximum=MAX_MODELS),
            upgrade_costs=costs, lists=lists,
            limit=entry_limit_from_json(node.child("limit")) if node.has("limit") else None))
    return Library(ruleset.id, tuple(entries), army_lists, composition)
