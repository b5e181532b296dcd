"""BattleScribe rosters (`.ros` XML, `.rosz` zip), as written by BattleScribe and New Recruit.

What a roster says and what Rout makes of it:
- a `selection` of type "unit" or "model" directly in a force is one unit; its name is the
  player's `customName` when there is one;
- models: the `number` of its selections of type "model"; none (a character) is its own
  `number`;
- points: costs are totals per selection, so a unit's points are its own cost plus every
  cost below it; its own cost and its models' costs make the price per model (so the points
  follow its size in Rout), every other cost is its upgrades' and stays as it is;
- slot: the primary category ("Core", "Heroes"...);
- army list: the first force's `catalogueName`, kept as `ImportedArmy.catalogue` for the
  caller to match against its library's army lists (`transfer.with_army_list`);
- profiles: characteristics are matched to the ruleset's statistics by name through
  STAT_ALIASES (`Mv`/`M`, `US`/`Unit Strength`...). A second profile on an upgrade is a
  mount (its Move is the unit's; the unit is cavalry) or a champion; everything that does
  not map is kept in the unit's notes, so nothing the file said is lost.

The XML is parsed with defusedxml (no DTDs, entities or external references), the zip is
never extracted to disk, and every size is bounded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.reader import elements_at, local_name, parse_xml, unzip
from desktop.engine.codec import (
    MAX_NOTE_LENGTH,
    MAX_NOTES,
    army_from_json,
    army_to_json,
)
from desktop.engine.errors import RuleError, quoted
from desktop.engine.model import Army, RosterPrice, TroopType, Unit, UnitProfile
from desktop.engine.reading import MAX_ITEMS
from desktop.engine.rulesets import RULESETS, Ruleset
from desktop.engine.scenario import MM_PER_UNIT
from desktop.store.errors import BadFileError

MAX_ROSTER_BYTES = 20 * 1024 * 1024
MAX_DEPTH = 40
MAX_UNITS = 2000
MAX_MODELS = 10_000
MAX_POINTS = 1_000_000
MAX_WARNINGS = 100  # a file can earn one per characteristic: the rest are counted
FALLBACK_RULESET = "breaks_pursues"
# The notes an import writes, by what they start with; the roster sheet (exports, printout)
# reads them back. Profile notes keep characteristics word for word; exports leave them out.
PROFILE_NOTE = "Profile "
COMMAND_NOTE = "Command: "  # the selections behind a unit's upgrades (a Gallant is a champion)
WARGEAR_NOTE = "Wargear: "
MAGIC_ITEMS_NOTE = "Magic items: "
UPGRADE_RULES_NOTE = "Rules from upgrades: "
SELECTIONS_NOTE = "Selections: "  # all of them in one note, as earlier imports wrote them
IMPORT_NOTE = "Imported from "  # the file's name only: never a folder of the player's machine
GAME_NOTE = "Game system: "

# Characteristic names as army builders spell them → what the statistic means.
STAT_ALIASES: Mapping[str, str] = {
    "m": "move", "mv": "move", "move": "move", "movement": "move",
    "ws": "weapon_skill", "weaponskill": "weapon_skill",
    "bs": "ballistic_skill", "ballisticskill": "ballistic_skill",
    "s": "strength", "str": "strength", "strength": "strength",
    "t": "toughness", "toughness": "toughness",
    "w": "wounds", "wounds": "wounds",
    "i": "initiative", "ini": "initiative", "init": "initiative", "initiative": "initiative",
    "a": "attacks", "attacks": "attacks",
    "ld": "leadership", "leadership": "leadership", "disc": "leadership",
    "discipline": "leadership",
    "hon": "honor", "honor": "honor", "honour": "honor",
    "ap": "action_points", "actionpoints": "action_points",
    "us": "unit_strength", "unitstrength": "unit_strength",
    "base": "base", "basesize": "base",
}
# Which statistic each meaning is in each ruleset.
RULESET_STATS: Mapping[str, Mapping[str, str]] = {
    "warhammer6": {"move": "M", "weapon_skill": "WS", "ballistic_skill": "BS",
                   "strength": "S", "toughness": "T", "wounds": "W", "initiative": "I",
                   "attacks": "A", "leadership": "Ld"},
    "kensei1": {"move": "Mv", "initiative": "Init", "honor": "Honor", "wounds": "W",
                "action_points": "AP"},
    "breaks_pursues": {"move": "M", "leadership": "Ld"},
}
# Upgrades the rules read, by the names army builders give them.
UPGRADE_ALIASES: Mapping[str, str] = {
    "standardbearer": "standard", "standard": "standard", "musician": "musician",
    "battlestandardbearer": "battle_standard", "battlestandard": "battle_standard",
    "general": "general", "champion": "champion", "bushihero": "bushi", "bushi": "bushi",
}
MOUNT_WORDS = ("horse", "steed", "mount", "pegasus", "hippogryph", "griffon", "boar", "wolf",
               "dragon", "unicorn", "stag")
BASE_MM = {TroopType.CAVALRY: (25.0, 50.0), TroopType.MONSTER: (50.0, 50.0),
           TroopType.CHARIOT: (50.0, 100.0), TroopType.WAR_MACHINE: (50.0, 50.0)}


@dataclass(frozen=True)
class ImportedArmy:
    army: Army
    warnings: tuple[str, ...] = ()
    game_system: str = ""
    # The first force's BattleScribe catalogue ("Orcs & Goblins"): its army list, by name.
    catalogue: str = ""


def guess_ruleset(game_system: str) -> str | None:
    name = game_system.lower()
    if "kensei" in name:
        return "kensei1"
    if "warhammer" in name and "fantasy" in name and ("6th" in name or "sixth" in name):
        return "warhammer6"
    if "breaks or pursues" in name:
        return "breaks_pursues"
    return None


def read_rosz(data: bytes, name: str) -> bytes:
    """The one `.ros` inside a `.rosz`, read in memory with its size bounded (the engine's
    reader unzips it: desktop.engine.bsdata.reader.unzip)."""
    try:
        return unzip(data, name, (".ros",), limit=MAX_ROSTER_BYTES, what="roster")
    except DataError as error:
        raise BadFileError(str(error)) from None


def read_ros(data: bytes, name: str, ruleset_id: str | None = None) -> ImportedArmy:
    """An army from a `.ros` document; `ruleset_id` overrides the guess from its game."""
    root = _parse(data, name)
    if local_name(root) != "roster":
        raise BadFileError(f"{name}: not a BattleScribe roster (the document is "
                           f"<{local_name(root)[:40]}>, expected <roster>)")
    warnings: list[str] = []
    game = root.get("gameSystemName", "").strip()
    guessed = guess_ruleset(game)
    explicit = ruleset_id is not None
    if ruleset_id is None:
        ruleset_id = guessed or FALLBACK_RULESET
        if guessed is None:
            warnings.append(f"unknown game system {quoted(game) if game else '(none)'}: "
                            f"imported for "
                            f"{RULESETS[ruleset_id].name}; the profiles are kept as notes and "
                            "the statistics need checking")
    elif guessed is not None and guessed != ruleset_id:
        warnings.append(f"the roster is for {quoted(game)}; imported for "
                        f"{_ruleset(ruleset_id).name} as asked")
    ruleset = _ruleset(ruleset_id)
    # Characteristics are matched by name only when the ruleset is known to fit the game.
    reader = _RosterReader(ruleset, name, map_stats=guessed is not None or explicit,
                           warnings=warnings)
    units = reader.units(root)
    army = Army(
        name=_clean(root.get("name")) or "Imported roster",
        player="Player",
        ruleset=ruleset.id,
        units=tuple(units),
        points_limit=_points_limit(root, name),
        notes=tuple(note for note in (f"{IMPORT_NOTE}{_file_name(name)}",
                                      f"{GAME_NOTE}{_clean(game)}" if game else "")
                     if note),
    )
    declared = _declared_points(root, name)
    if declared is not None and declared != army.points:
        warnings.append(f"the roster says {declared} points but its units add up to "
                        f"{army.points}")
    catalogue = next((_clean(force.get("catalogueName")) for force in reader.forces(root)),
                     "")
    _check_round_trip(army, name)
    return ImportedArmy(army, _bounded_warnings(warnings), game, catalogue)


def roster_units(root: Element, ruleset_id: str, name: str,
                 kept: Mapping[str, str] | None = None, taken: Iterable[str] = ()
                 ) -> tuple[list[tuple[str, Unit]], list[str]]:
    """The units of a roster's element tree, each with the id of the root selection it
    comes from, and the warnings: the very reading `read_ros` gives a file, for a roster
    Rout built itself (desktop.store.armybooks). `kept`: selection id → the unit id it
    keeps; new unit ids avoid those and `taken`."""
    reader = _RosterReader(_ruleset(ruleset_id), name, map_stats=True)
    reader.ids.update(taken)
    return reader.selection_units(root, kept), reader.warnings


def _bounded_warnings(warnings: list[str]) -> tuple[str, ...]:
    if len(warnings) <= MAX_WARNINGS:
        return tuple(warnings)
    kept = MAX_WARNINGS - 1
    return (*warnings[:kept], f"{len(warnings) - kept} more warnings not shown")


def _check_round_trip(army: Army, name: str) -> None:
    """What is imported must export as Rout JSON and import again: the Rout JSON reader is
    the one check of every limit (an army's points in all, ids, ranges), at this door too."""
    try:
        army_from_json(army_to_json(army))
    except RuleError as error:
        raise BadFileError(f"{name}: {error}") from None


def _ruleset(ruleset_id: str) -> Ruleset:
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        raise BadFileError(f"unknown ruleset {quoted(ruleset_id)} (known: "
                           f"{', '.join(sorted(RULESETS))})")
    return ruleset


def _parse(data: bytes, name: str) -> Element:
    if len(data) > MAX_ROSTER_BYTES:
        raise BadFileError(f"{name}: larger than the {MAX_ROSTER_BYTES} bytes Rout reads")
    try:
        return parse_xml(data, name)
    except DataError as error:
        raise BadFileError(str(error)) from None


def _clean(text: str | None, limit: int = 200) -> str:
    return " ".join((text or "").split())[:limit]


def _number(text: str | None, what: str, name: str) -> float:
    try:
        value = float(text or 0)
    except ValueError:
        raise BadFileError(f"{name}: {what} {quoted(_clean(text), 40)} is not a number"
                           ) from None
    if not math.isfinite(value) or abs(value) > MAX_POINTS * 10:
        raise BadFileError(f"{name}: {what} {quoted(_clean(text), 40)} is not a usable number")
    return value


def _is_points(cost: Element) -> bool:
    return _clean(cost.get("name")).lower() in ("pts", "points", "pt")


def _declared_points(root: Element, name: str) -> int | None:
    for cost in elements_at(root, "costs", "cost"):
        if _is_points(cost):
            return round(_number(cost.get("value"), "the roster's points", name))
    return None


def _points_limit(root: Element, name: str) -> int:
    for limit in elements_at(root, "costLimits", "costLimit"):
        if _is_points(limit):
            value = round(_number(limit.get("value"), "the points limit", name))
            return min(max(value, 0), MAX_POINTS)
    return 0


@dataclass
class _Profile:
    name: str
    characteristics: list[tuple[str, str]]
    owner: Element  # the selection it belongs to


@dataclass
class _RosterReader:
    ruleset: Ruleset
    file_name: str
    map_stats: bool
    warnings: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    # The next number to try after each id stem: many units of one name must not try
    # "-2", "-3"... from the start each time.
    next_number: dict[str, int] = field(default_factory=dict)

    def units(self, root: Element) -> list[Unit]:
        return [unit for _, unit in self.selection_units(root)]

    def selection_units(self, root: Element, kept: Mapping[str, str] | None = None
                        ) -> list[tuple[str, Unit]]:
        """Each unit with the id of the root selection it comes from; `kept`: the unit ids
        some selections already have."""
        found: list[tuple[str, Unit]] = []
        kept = kept or {}
        self.ids.update(kept.values())
        for force in self.forces(root):
            for selection in elements_at(force, "selections", "selection"):
                if selection.get("type") in ("unit", "model", None):
                    selection_id = selection.get("id", "")
                    found.append((selection_id, self.unit(selection, kept.get(selection_id))))
                    if len(found) > MAX_UNITS:
                        raise BadFileError(f"{self.file_name}: more than {MAX_UNITS} units")
        if not found:
            self.warnings.append("the roster has no units")
        return found

    def forces(self, element: Element, depth: int = 0) -> Iterator[Element]:
        if depth > MAX_DEPTH:
            raise BadFileError(f"{self.file_name}: forces nested too deeply")
        for force in elements_at(element, "forces", "force"):
            yield force
            yield from self.forces(force, depth + 1)

    def _descendants(self, selection: Element, depth: int = 0) -> Iterator[Element]:
        if depth > MAX_DEPTH:
            raise BadFileError(f"{self.file_name}: selections nested too deeply")
        for child in elements_at(selection, "selections", "selection"):
            yield child
            yield from self._descendants(child, depth + 1)

    def unit(self, selection: Element, unit_id: str | None = None) -> Unit:
        entry_name = _clean(selection.get("name")) or "Unit"
        name = _clean(selection.get("customName")) or entry_name
        below = list(self._descendants(selection))
        everything = [selection, *below]
        total = sum(self._cost(item) for item in everything)
        model_selections = [item for item in below if item.get("type") == "model"]
        models = (sum(self._count(item) for item in model_selections) if model_selections
                  else self._count(selection))
        if not 1 <= models <= MAX_MODELS:
            raise BadFileError(f"{self.file_name}: unit {quoted(name)} has {models} models "
                               f"(Rout takes 1 to {MAX_MODELS})")
        # Costs are totals: the unit's own and its models' follow the number of models,
        # every other selection's (options, command, items, mounts) stays as it is.
        per_models = self._cost(selection) + sum(self._cost(item) for item in model_selections)
        points = min(max(round(total), 0), MAX_POINTS)
        price = RosterPrice(per_model=max(per_models, 0) / models,
                            upgrades=points - round(max(per_models, 0)))
        profiles = [_Profile(_clean(p.get("name")) or entry_name,
                             [(_clean(c.get("name"), 40), _clean(c.text, 40))
                              for c in elements_at(p, "characteristics", "characteristic")],
                             item)
                    for item in everything for p in elements_at(item, "profiles", "profile")]
        stat_profiles = [p for p in profiles if self._stat_count(p) >= 2]
        # Membership by identity, in sets: a unit may carry thousands of profiles, and
        # comparing them as values in lists made the import quadratic.
        stat_ids = {id(p) for p in stat_profiles}
        model_ids = {id(item) for item in model_selections}
        main = next((p for p in stat_profiles if p.owner is selection), None) or next(
            (p for p in stat_profiles if id(p.owner) in model_ids), None) or next(
            iter(stat_profiles), None)
        mount = next((p for p in stat_profiles if p is not main and _is_mount(p)), None)
        champions = [p for p in stat_profiles if p is not main and p is not mount
                     and p.owner.get("type") != "model"]
        notes: list[str] = []
        upgrades: set[str] = set()
        troop_type = TroopType.CAVALRY if mount else TroopType.INFANTRY
        stats, extras = self._stats(main, mount, name, notes)
        if champions:
            upgrades.add("champion")
        for profile in [mount, *champions]:
            if profile is not None:
                notes.append(f"{PROFILE_NOTE}{profile.name}: {_shown(profile.characteristics)}")
        for profile in profiles:
            if id(profile) not in stat_ids and profile.characteristics:
                notes.append(f"{PROFILE_NOTE}{profile.name}: {_shown(profile.characteristics)}")
        champion_owners = {id(profile.owner) for profile in champions}
        equipment: dict[str, list[str]] = {COMMAND_NOTE: [], WARGEAR_NOTE: [],
                                           MAGIC_ITEMS_NOTE: []}
        for item in below:
            if item.get("type") == "model":
                continue
            item_name = _clean(item.get("name"))
            alias = UPGRADE_ALIASES.get(_key(item_name))
            if alias:
                upgrades.add(alias)
            cost = self._cost(item)
            count = self._count(item)
            label = f"{count}x {item_name}" if count > 1 else item_name
            # The group is the entry group path in the army book, such as "Magic items and
            # Virtues::Magic Weapons"; it is what tells a magic sword from a plain one.
            group = (item.get("group") or "").casefold()
            kind = (COMMAND_NOTE if alias or "command" in group or id(item) in champion_owners
                    else MAGIC_ITEMS_NOTE if "magic" in group else WARGEAR_NOTE)
            equipment[kind].append(f"{label} ({round(cost)} pts)" if cost else label)
        notes[:0] = [prefix + ", ".join(items) for prefix, items in equipment.items() if items]
        rules = {_rule_name(rule.get("name")) for item in everything
                 if item is selection or item.get("type") == "model" or item is mount_owner(mount)
                 for rule in elements_at(item, "rules", "rule")}
        rules.discard("")
        if len(rules) > MAX_ITEMS:  # the rest stay in the notes, word for word
            kept = sorted(rules)[:MAX_ITEMS]
            notes.append("More special rules: " + ", ".join(sorted(rules - set(kept))))
            self.warnings.append(f"{quoted(name)}: {len(rules)} special rules is more than "
                                 f"Rout keeps ({MAX_ITEMS}); the rest are in its notes")
            rules = set(kept)
        item_rules = sorted({_clean(rule.get("name")) for item in below
                             if item.get("type") != "model" and item is not mount_owner(mount)
                             for rule in elements_at(item, "rules", "rule")} - {""})
        if item_rules:
            notes.append(UPGRADE_RULES_NOTE + ", ".join(item_rules))
        unit_profile = UnitProfile(
            name=entry_name,
            stats=stats,
            troop_type=troop_type,
            base=self._base(extras.get("base", ""), troop_type, name),
            unit_strength=self._unit_strength(extras, mount),
            wounds=stats.get("W", 1),
            special_rules=frozenset(rules),
        )
        return Unit(
            id=unit_id or self._unit_id(name),
            name=name,
            player="Player",
            profile=unit_profile,
            models=models,
            files=min(models, 5),
            upgrades=frozenset(upgrades),
            points=points,
            slot=_slot(selection),
            notes=self._fitted(notes, name),
            price=price,
        )

    def _fitted(self, notes: list[str], unit_name: str) -> tuple[str, ...]:
        """The notes within what Rout keeps of a unit (MAX_NOTES notes of MAX_NOTE_LENGTH
        characters): the surplus joined into the last note, a long note cut, with a
        warning; the roster file itself still has everything."""
        if len(notes) > MAX_NOTES:
            self.warnings.append(f"{quoted(unit_name)}: {len(notes)} notes is more than Rout "
                                 f"keeps ({MAX_NOTES}); the last ones are joined into one")
            notes = [*notes[:MAX_NOTES - 1], "; ".join(notes[MAX_NOTES - 1:])]
        if any(len(note) > MAX_NOTE_LENGTH for note in notes):
            self.warnings.append(f"{quoted(unit_name)}: a note longer than the "
                                 f"{MAX_NOTE_LENGTH} characters Rout keeps is cut short")
            notes = [note if len(note) <= MAX_NOTE_LENGTH else
                     note[:MAX_NOTE_LENGTH - 1] + "…" for note in notes]
        return tuple(notes)

    def _cost(self, selection: Element) -> float:
        """The selection's own points (a total for all its `number`)."""
        return sum(_number(cost.get("value"), "a cost", self.file_name)
                   for cost in elements_at(selection, "costs", "cost") if _is_points(cost))

    def _count(self, selection: Element) -> int:
        label = _clean(selection.get("customName") or selection.get("name"), 60) or "selection"
        value = _number(selection.get("number", "1"), f"the number of {quoted(label)}",
                        self.file_name)
        if value < 0:
            # Refused rather than read as 0: the message then names the number in the file.
            raise BadFileError(f"{self.file_name}: the number of {quoted(label)} is {value:g}; a "
                               "count cannot be negative")
        return int(value)

    def _stat_count(self, profile: _Profile) -> int:
        return sum(1 for name, _ in profile.characteristics
                   if STAT_ALIASES.get(_key(name)) in RULESET_STATS.get(self.ruleset.id, {}))

    def _unit_strength(self, extras: Mapping[str, str], mount: _Profile | None) -> int:
        """A rider and its mount count together (a 6th-edition cavalry model is US 2)."""
        rider = _small_int(extras.get("unit_strength"), 1)
        if mount is None:
            return rider
        mount_us = next((value for name, value in mount.characteristics
                         if STAT_ALIASES.get(_key(name)) == "unit_strength"), None)
        return min(rider + _small_int(mount_us, 1), 100)

    def _stats(self, main: _Profile | None, mount: _Profile | None, unit_name: str,
               notes: list[str]) -> tuple[dict[str, int], dict[str, str]]:
        """The ruleset's statistics from the main profile (Move from the mount)."""
        stats = self.ruleset.default_stats()
        extras: dict[str, str] = {}
        if main is None:
            self.warnings.append(f"'{unit_name}' has no profile Rout can read: it has the "
                                 "default statistics")
            return stats, extras
        meanings = RULESET_STATS.get(self.ruleset.id, {})
        unmapped: list[tuple[str, str]] = []
        found: set[str] = set()
        sources = [(main, name, value) for name, value in main.characteristics]
        if mount is not None:
            sources += [(mount, name, value) for name, value in mount.characteristics
                        if STAT_ALIASES.get(_key(name)) in ("move", "base")]
        for source, name, value in sources:
            meaning = STAT_ALIASES.get(_key(name))
            if meaning in ("unit_strength", "base"):
                if value and value != "-":
                    extras.setdefault(meaning, value)  # the rider's own base first
                continue
            stat = meanings.get(meaning or "") if self.map_stats else None
            if stat is None:
                if source is main and value:
                    unmapped.append((name, value))
                continue
            number = _leading_int(value)
            spec = self.ruleset.stat(stat)
            if number is None:
                if value not in ("", "-"):
                    self.warnings.append(f"'{unit_name}': {name} '{value}' is not a number; "
                                         f"{spec.label} is {stats[stat]}")
                    found.add(stat)  # warned about once here, not again as missing
                continue
            if not spec.minimum <= number <= spec.maximum:
                clamped = min(max(number, spec.minimum), spec.maximum)
                self.warnings.append(f"'{unit_name}': {name} {number} is outside "
                                     f"{spec.minimum} to {spec.maximum}; set to {clamped}")
                number = clamped
            stats[stat] = number
            found.add(stat)
        missing = [spec.name for spec in self.ruleset.stats if spec.name not in found]
        if self.map_stats and missing and found:
            self.warnings.append(f"'{unit_name}' has no {', '.join(missing)}: the default is "
                                 "used")
        if unmapped:
            notes.append(f"{PROFILE_NOTE}{main.name}: {_shown(unmapped)}")
        return stats, extras

    def _base(self, text: str, troop_type: TroopType, unit_name: str) -> tuple[float, float]:
        scale = MM_PER_UNIT[self.ruleset.distance_unit]
        match = re.match(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$", text)
        if match and 0 < float(match[1]) <= 500 and 0 < float(match[2]) <= 500:
            return (float(match[1]) / scale, float(match[2]) / scale)
        if text and text != "-":
            self.warnings.append(f"'{unit_name}': base '{text}' is not WIDTHxDEPTH in mm; "
                                 "the usual base is used")
        width, depth = BASE_MM.get(troop_type, (20.0, 20.0))
        return (width / scale, depth / scale)

    def _unit_id(self, name: str) -> str:
        stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "unit"
        number = self.next_number.get(stem, 1)
        candidate = stem if number == 1 else f"{stem}-{number}"
        while candidate in self.ids:
            number += 1
            candidate = f"{stem}-{number}"
        self.next_number[stem] = number + 1
        self.ids.add(candidate)
        return candidate


def mount_owner(mount: _Profile | None) -> Element | None:
    return mount.owner if mount else None


def _is_mount(profile: _Profile) -> bool:
    names = f"{profile.name} {profile.owner.get('name', '')}".lower()
    return profile.owner.get("type") != "model" and any(word in names for word in MOUNT_WORDS)


def _slot(selection: Element) -> str:
    categories = list(elements_at(selection, "categories", "category"))
    primary = [c for c in categories if c.get("primary") == "true"]
    chosen = primary or categories
    return _clean(chosen[0].get("name"), 100) if chosen else ""


def _file_name(name: str) -> str:
    """The last part of a path as the player gave it, whichever separator it uses."""
    return re.split(r"[\\/]", name)[-1] or name


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _rule_name(name: str | None) -> str:
    return re.sub(r"[^a-z0-9]+", "_", _clean(name).lower()).strip("_")[:60]


def _leading_int(text: str) -> int | None:
    """The whole number a value starts with (`8`, `8"`, `3+`, `-1`); a dice roll (`2D6`) is
    none."""
    match = re.match(r"^\s*(-?\d{1,9})(?!\d)(?!\s*[dD]\d)", text)
    return int(match[1]) if match else None


def _small_int(text: Any, default: int) -> int:
    number = _leading_int(text) if isinstance(text, str) else None
    return number if number is not None and 0 <= number <= 100 else default


def _shown(characteristics: list[tuple[str, str]]) -> str:
    return ", ".join(f"{name} {value}" for name, value in characteristics if value) or "-"
