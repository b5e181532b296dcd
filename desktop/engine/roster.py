"""Roster rules: what a unit costs and what in an army a player should look at again.

The roster panes call these and show the answers; they never decide them. Problems are
warnings, never refusals: a player may field an over-limit army in a friendly game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from desktop.engine.model import Army, LibraryEntry, Unit
from desktop.engine.rulesets import Ruleset, get_ruleset


class Severity(StrEnum):
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True)
class RosterProblem:
    """One thing to look at; `unit_id` empty for the army as a whole, `field` the column."""

    message: str
    unit_id: str = ""
    field: str = ""
    severity: Severity = Severity.WARNING


def price(entry: LibraryEntry, models: int, upgrades: Iterable[str]) -> int:
    """Points for `models` of a library entry with `upgrades` (unknown upgrades are free)."""
    return entry.points_per_model * models + sum(entry.upgrade_costs.get(name, 0)
                                                 for name in set(upgrades))


def upgrade_labels(unit: Unit, ruleset: Ruleset) -> list[str]:
    """The unit's upgrades by the ruleset's names ("Battle standard"), in the ruleset's order;
    one the ruleset does not know (an imported one) keeps its own name."""
    known = {spec.name for spec in ruleset.upgrades}
    return ([spec.label for spec in ruleset.upgrades if spec.name in unit.upgrades]
            + sorted(name for name in unit.upgrades if name not in known))


def library_entry_for(unit: Unit, library: Sequence[LibraryEntry]) -> LibraryEntry | None:
    """The library entry a unit was taken from, found by its profile's name."""
    return next((entry for entry in library if entry.profile.name == unit.profile.name), None)


def unit_from_library(entry: LibraryEntry, unit_id: str, player: str,
                      name: str | None = None) -> Unit:
    """A new unit of the entry's usual size, priced, in a formation five wide at most."""
    models = max(entry.models, 1)
    return Unit(id=unit_id, name=name or entry.profile.name, player=player,
                profile=entry.profile, models=models, files=min(models, 5),
                points=price(entry, models, ()), slot=entry.slot)


def repriced(unit: Unit, library: Sequence[LibraryEntry]) -> Unit:
    """The unit with points from its library entry; unchanged when it has none (imports)."""
    entry = library_entry_for(unit, library)
    if entry is None:
        return unit
    return replace(unit, points=price(entry, unit.models, unit.upgrades))


def with_models(unit: Unit, models: int, library: Sequence[LibraryEntry]) -> Unit:
    """The unit resized: files kept when they still fit, points from the library."""
    models = max(models, 1)
    return repriced(replace(unit, models=models, files=min(unit.files, models)), library)


def with_stat(unit: Unit, ruleset: Ruleset, name: str, value: int) -> Unit:
    """The unit with one statistic changed, kept within the ruleset's range.

    Wounds is also the profile's wounds per model, which the rules read: both change together.
    """
    spec = ruleset.stat(name)
    number = min(max(value, spec.minimum), spec.maximum)
    profile = replace(unit.profile, stats={**unit.profile.stats, name: number})
    if name == "W":
        profile = replace(profile, wounds=number)
    return replace(unit, profile=profile)


def unique_unit_id(army: Army, stem: str) -> str:
    taken = {unit.id for unit in army.units}
    # Short enough for any database column (ids are at most 100 characters).
    base = "".join(ch if ch.isalnum() else "-" for ch in stem.lower()).strip("-")[:60] or "unit"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def problems(army: Army, ruleset: Ruleset | None = None) -> list[RosterProblem]:
    """Everything worth a warning in the roster, army-wide first, then unit by unit."""
    rules = ruleset or get_ruleset(army.ruleset)
    found: list[RosterProblem] = []
    if army.points_limit and army.points > army.points_limit:
        found.append(RosterProblem(f"{army.points} points is {army.points - army.points_limit} "
                                   f"over the limit of {army.points_limit}", field="points"))
    known_upgrades = {spec.name for spec in rules.upgrades}
    names: dict[str, int] = {}
    for unit in army.units:
        names[unit.name.casefold()] = names.get(unit.name.casefold(), 0) + 1
    for unit in army.units:
        for spec in rules.stats:
            value = unit.profile.stats.get(spec.name)
            if value is None:
                found.append(RosterProblem(f"{unit.name} has no {spec.label}", unit.id,
                                           spec.name))
            elif not spec.minimum <= value <= spec.maximum:
                found.append(RosterProblem(
                    f"{unit.name}: {spec.label} {value} is outside {spec.minimum} to "
                    f"{spec.maximum}", unit.id, spec.name))
        if unit.files > unit.models:
            found.append(RosterProblem(f"{unit.name}: {unit.files} files but only "
                                       f"{unit.models} models", unit.id, "formation"))
        odd = sorted(set(unit.upgrades) - known_upgrades)
        if odd:
            found.append(RosterProblem(f"{unit.name}: {', '.join(odd)} means nothing in "
                                       f"{rules.name}", unit.id, "upgrades", Severity.NOTE))
        if names[unit.name.casefold()] > 1:
            found.append(RosterProblem(f"two units are called {unit.name}: the battle log "
                                       "will not tell them apart", unit.id, "name",
                                       Severity.NOTE))
    return found
