"""A roster as a player takes it to the table, for the text exports and the printout alike.

Slots come in the ruleset's order (W6: Lords, Heroes, Core, Special, Rare; slots it does not
know next, units without one last) with their totals. Each unit has its statistics in the
ruleset's order, its upgrades, wargear, magic items and special rules by name, and its own
notes. The warnings are the engine's (`desktop.engine.roster.problems`, or whatever list the
caller passes, such as the window's with composition limits), never decided here.

What an import recorded as bookkeeping stays in the army file: profile dumps, the command
selections behind the upgrades, and the file it came from (a folder of the player's machine
has no place on paper).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from desktop.engine.model import Army, Unit
from desktop.engine.roster import RosterProblem, Severity, problems, upgrade_labels
from desktop.engine.rulesets import Ruleset, get_ruleset, rule_label
from desktop.store.battlescribe import (
    COMMAND_NOTE,
    GAME_NOTE,
    IMPORT_NOTE,
    MAGIC_ITEMS_NOTE,
    PROFILE_NOTE,
    SELECTIONS_NOTE,
    UPGRADE_ALIASES,
    UPGRADE_RULES_NOTE,
    WARGEAR_NOTE,
)

NO_SLOT = "Units"
"""The heading for units without an army-list slot."""

# Army notes an import wrote for itself; unit notes that are bookkeeping (see the docstring).
_ARMY_BOOKKEEPING = (IMPORT_NOTE, GAME_NOTE)
_UNIT_BOOKKEEPING = (PROFILE_NOTE, COMMAND_NOTE)
_ITEM = re.compile(r"^(?:\d+x )?(?P<name>.*?)(?: \(\d+ pts\))?$")


def one_line(text: str) -> str:
    """Text on one line: a name with a line break in it would split a unit's entry."""
    return " ".join(text.split())


@dataclass(frozen=True)
class UnitSheet:
    name: str
    profile: str
    models: int
    formation: str  # files × ranks, "5 × 3"; "–" when there is none
    stats: tuple[tuple[str, str], ...]  # (name, value) in the ruleset's order
    points: int
    upgrades: tuple[str, ...]  # the ruleset's names for them
    wargear: str
    magic_items: str
    special_rules: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def stat_line(self) -> str:
        return " ".join(f"{name}{value}" for name, value in self.stats)


@dataclass(frozen=True)
class SlotSheet:
    name: str
    points: int
    units: tuple[UnitSheet, ...]


@dataclass(frozen=True)
class SheetWarning:
    message: str
    severity: Severity


@dataclass(frozen=True)
class RosterSheet:
    name: str
    player: str
    ruleset: str  # its name, for people
    stat_names: tuple[str, ...]
    points: int
    points_limit: int  # 0: none
    units: int
    models: int
    slots: tuple[SlotSheet, ...]
    warnings: tuple[SheetWarning, ...]
    notes: tuple[str, ...]

    @property
    def headline(self) -> str:
        limit = f" / {self.points_limit}" if self.points_limit else ""
        return (f"{self.ruleset} · {self.points}{limit} points · {plural(self.units, 'unit')} "
                f"· {plural(self.models, 'model')}")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def formation(unit: Unit) -> str:
    """Files × ranks, the last rank possibly short: 12 models 5 wide is "5 × 3"."""
    if unit.files <= 0 or unit.models <= 0:
        return "–"
    return f"{min(unit.files, unit.models)} × {math.ceil(unit.models / unit.files)}"


def _noted(unit: Unit, prefix: str) -> str:
    return ", ".join(one_line(note.removeprefix(prefix)) for note in unit.notes
                     if note.startswith(prefix))


def _item_names(*lists: str) -> set[str]:
    """Item names without counts and costs ("2x Spear (4 pts)" is "spear"), to compare."""
    return {match["name"].casefold() for items in lists for item in items.split(", ")
            if (match := _ITEM.match(item))}


def _wargear(unit: Unit) -> str:
    """The unit's wargear; an older import's one list of selections less its upgrades."""
    wargear = _noted(unit, WARGEAR_NOTE)
    selections = _noted(unit, SELECTIONS_NOTE)
    if selections:
        # Those selections held the command too ("General", "Musician (8 pts)"): the
        # upgrades line says them already.
        kept = [item for item in selections.split(", ")
                if (match := _ITEM.match(item)) is None
                or re.sub(r"[^a-z0-9]", "", match["name"].lower()) not in UPGRADE_ALIASES]
        wargear = ", ".join(filter(None, (wargear, ", ".join(kept))))
    return wargear


def _special_rules(unit: Unit, items: set[str]) -> tuple[str, ...]:
    """The profile's rules and the upgrades' own, by name; a rule that only repeats an item
    listed already (a magic sword's rule is the sword) is left out."""
    names = {rule_label(rule) for rule in unit.profile.special_rules}
    upgrade_rules = _noted(unit, UPGRADE_RULES_NOTE)
    names |= {rule for rule in upgrade_rules.split(", ")
              if rule and rule.casefold() not in items}
    unique: dict[str, str] = {}
    for name in sorted(names, key=str.casefold):
        unique.setdefault(name.casefold(), name)
    return tuple(unique.values())


def _own_notes(unit: Unit) -> tuple[str, ...]:
    structured = (*_UNIT_BOOKKEEPING, WARGEAR_NOTE, SELECTIONS_NOTE, MAGIC_ITEMS_NOTE,
                  UPGRADE_RULES_NOTE)
    return tuple(line for note in unit.notes if not note.startswith(structured)
                 for line in map(one_line, note.splitlines()) if line)


def unit_sheet(unit: Unit, ruleset: Ruleset) -> UnitSheet:
    wargear, magic_items = _wargear(unit), _noted(unit, MAGIC_ITEMS_NOTE)
    stats = unit.profile.stats
    return UnitSheet(
        name=one_line(unit.name),
        profile=one_line(unit.profile.name),
        models=unit.models,
        formation=formation(unit),
        stats=tuple((spec.name, str(stats[spec.name]) if spec.name in stats else "–")
                    for spec in ruleset.stats),
        points=unit.points,
        upgrades=tuple(map(one_line, upgrade_labels(unit, ruleset))),
        wargear=wargear,
        magic_items=magic_items,
        special_rules=_special_rules(unit, _item_names(wargear, magic_items)),
        notes=_own_notes(unit),
    )


def slots_in_order(army: Army, ruleset: Ruleset) -> list[tuple[str, list[Unit]]]:
    """Units grouped by slot in the ruleset's order; slots it does not know in the order the
    roster first uses them, then the units without a slot."""
    groups: dict[str, list[Unit]] = {}
    names: dict[str, str] = {}
    for unit in army.units:
        slot = one_line(unit.slot)
        key = slot.casefold()
        names.setdefault(key, slot or NO_SLOT)
        groups.setdefault(key, []).append(unit)
    ordered = sorted(groups, key=ruleset.slot_rank)  # stable: first use breaks ties
    return [(names[key], groups[key]) for key in ordered]


def roster_sheet(army: Army, found: Sequence[RosterProblem] | None = None) -> RosterSheet:
    """The sheet of `army`; `found` are its problems when the caller knows more than the
    engine's roster rules alone (composition limits need the library)."""
    ruleset = get_ruleset(army.ruleset)
    if found is None:
        found = problems(army, ruleset)
    slots = tuple(SlotSheet(name, sum(unit.points for unit in units),
                            tuple(unit_sheet(unit, ruleset) for unit in units))
                  for name, units in slots_in_order(army, ruleset))
    return RosterSheet(
        name=one_line(army.name),
        player=one_line(army.player),
        ruleset=ruleset.name,
        stat_names=tuple(spec.name for spec in ruleset.stats),
        points=army.points,
        points_limit=army.points_limit,
        units=len(army.units),
        models=army.models,
        slots=slots,
        warnings=tuple(SheetWarning(one_line(problem.message), problem.severity)
                       for problem in found),
        notes=tuple(one_line(note) for note in army.notes
                    if note.strip() and not note.startswith(_ARMY_BOOKKEEPING)),
    )


def details(unit: UnitSheet) -> Iterable[tuple[str, str]]:
    """(label, text) of what a unit has besides its statistics, in the order printed."""
    if unit.upgrades:
        yield "Upgrades", ", ".join(unit.upgrades)
    if unit.wargear:
        yield "Wargear", unit.wargear
    if unit.magic_items:
        yield "Magic items", unit.magic_items
    if unit.special_rules:
        yield "Special rules", ", ".join(unit.special_rules)
    for note in unit.notes:
        yield "", note
