"""Roster rules: what a unit costs and what in an army a player should look at again.

The roster panes call these and show the answers; they never decide them. Problems are
warnings, never refusals: a player may field an over-limit army in a friendly game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from desktop.engine.model import Army, LibraryEntry, RosterPrice, Unit
from desktop.engine.rulesets import Ruleset, get_ruleset

MAX_POINTS = 1_000_000  # any one unit's or army's; files and databases are held to it


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


def roster_price(price_of: RosterPrice, models: int) -> int:
    """Points for `models` at an imported roster's price; its upgrades cost what they did."""
    return min(max(round(price_of.per_model * models) + price_of.upgrades, 0), MAX_POINTS)


class PriceSource(StrEnum):
    LIBRARY = "library"  # the ruleset's unit library, found by the unit's profile name
    ROSTER = "roster"  # the army builder's roster the unit was imported from


@dataclass(frozen=True)
class Quote:
    """What a unit of this size with these upgrades costs, and who says so."""

    points: int
    source: PriceSource

    @property
    def label(self) -> str:
        return "the library price" if self.source is PriceSource.LIBRARY else \
            "the imported roster's price"


def library_entry_for(unit: Unit, library: Sequence[LibraryEntry]) -> LibraryEntry | None:
    """The library entry a unit was taken from, found by its profile's name."""
    return next((entry for entry in library if entry.profile.name == unit.profile.name), None)


def quote(unit: Unit, library: Sequence[LibraryEntry]) -> Quote | None:
    """The listed price of the unit as it is now; None when nothing prices it.

    An imported unit's own roster price comes first: its profile name finding a library
    entry is a guess, what the roster said is not.
    """
    if unit.price is not None:
        return Quote(roster_price(unit.price, unit.models), PriceSource.ROSTER)
    entry = library_entry_for(unit, library)
    if entry is None:
        return None
    return Quote(price(entry, unit.models, unit.upgrades), PriceSource.LIBRARY)


def unit_from_library(entry: LibraryEntry, unit_id: str, player: str,
                      name: str | None = None) -> Unit:
    """A new unit of the entry's usual size, priced, in a formation five wide at most."""
    models = max(entry.models, 1)
    return Unit(id=unit_id, name=name or entry.profile.name, player=player,
                profile=entry.profile, models=models, files=min(models, 5),
                points=price(entry, models, ()), slot=entry.slot)


def repriced(unit: Unit, library: Sequence[LibraryEntry]) -> Unit:
    """The unit at its listed price; unchanged when nothing prices it or its points were
    typed by the player (an override they chose is theirs to drop)."""
    listed = quote(unit, library)
    if listed is None or unit.points_typed:
        return unit
    return replace(unit, points=listed.points)


def with_models(unit: Unit, models: int, library: Sequence[LibraryEntry]) -> Unit:
    """The unit resized: files kept when they still fit, points following the size."""
    models = max(models, 1)
    return repriced(replace(unit, models=models, files=min(unit.files, models)), library)


def with_points(unit: Unit, points: int, library: Sequence[LibraryEntry]) -> Unit:
    """The unit with points the player typed: kept from now on, unless they are exactly the
    listed price (then nothing was overridden and the points go on following the size)."""
    points = min(max(points, 0), MAX_POINTS)
    listed = quote(unit, library)
    return replace(unit, points=points,
                   points_typed=listed is not None and listed.points != points)


def with_listed_price(unit: Unit, library: Sequence[LibraryEntry]) -> Unit:
    """For "Use the library price": typed points give way to the listed price again. Unchanged
    when nothing prices the unit, so the typed points are never lost for nothing."""
    if quote(unit, library) is None:
        return unit
    return repriced(replace(unit, points_typed=False), library)


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


def problems(army: Army, ruleset: Ruleset | None = None,
             library: Sequence[LibraryEntry] | None = None, *,
             points_limit: bool = True) -> list[RosterProblem]:
    """Everything worth a warning in the roster, army-wide first, then unit by unit.

    With the ruleset's `library`, points are checked too: typed points are noted beside
    the listed price, and a unit nothing prices is noted as keeping its points whatever
    its size. Without `points_limit`, the points limit is left to someone else (an army
    book's catalogue checks its own).
    """
    rules = ruleset or get_ruleset(army.ruleset)
    found: list[RosterProblem] = []
    if points_limit and army.points_limit and army.points > army.points_limit:
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
        if library is not None:
            found.extend(_price_notes(unit, library))
        if names[unit.name.casefold()] > 1:
            found.append(RosterProblem(f"two units are called {unit.name}: the battle log "
                                       "will not tell them apart", unit.id, "name",
                                       Severity.NOTE))
    return found


def _price_notes(unit: Unit, library: Sequence[LibraryEntry]) -> list[RosterProblem]:
    listed = quote(unit, library)
    if unit.points_typed:
        where = f"; {listed.label} is {listed.points}" if listed is not None else ""
        return [RosterProblem(f"{unit.name}: {unit.points} points typed by hand, kept when "
                              f"its size changes{where}", unit.id, "points", Severity.NOTE)]
    if listed is None:
        return [RosterProblem(f"{unit.name}: no library entry or imported price per model: "
                              f"its {unit.points} points stay as they are when its size "
                              "changes", unit.id, "points", Severity.NOTE)]
    return []


def units_by_slot(units: Sequence[Unit], ruleset: Ruleset) -> tuple[Unit, ...]:
    """The units in the ruleset's slot order (W6: Lords, Heroes, Core, Special, Rare); units
    of one slot keep the order they had, unknown slots follow, units without a slot last."""
    return tuple(sorted(units, key=lambda unit: ruleset.slot_rank(unit.slot)))


def join_refusal(source: Army, target: Army) -> str:
    """Why units of `source` may not join `target` ("" when they may): a profile's
    statistics are its ruleset's, which another ruleset's rules cannot read."""
    if source.ruleset == target.ruleset:
        return ""
    return (f"{target.name} is a {get_ruleset(target.ruleset).name} army: units from "
            f"{get_ruleset(source.ruleset).name} cannot join it, their profiles have other "
            "statistics")


def move_refusal(source: Army, target: Army, unit_ids: Iterable[str]) -> str:
    """Why these units may not move from `source` to `target` ("" when they may), besides
    join_refusal: a unit of an army book is its roster's selection, which another army's
    roster cannot hold, so it stays (a copy goes as a plain unit)."""
    book = source.book
    if source.id == target.id or book is None:
        return ""
    if any(book.selection_of(unit_id) for unit_id in unit_ids):
        return (f"units of {source.name} come from its army book ({book.catalogue_name}): "
                "copy them instead (hold Ctrl), or delete them there")
    return ""


def joined(army: Army, units: Sequence[Unit],
           position: int | None = None) -> tuple[Army, list[str]]:
    """`army` with `units` added at `position` (the end by default), and the ids they got.

    Each unit keeps its id when the army has none like it, else gets a fresh one; it takes
    the army's player, as every unit of an army does.
    """
    added: list[Unit] = []
    for unit in units:
        unit_id = unit.id
        if any(other.id == unit_id for other in (*army.units, *added)):
            stem, _, number = unit.id.rpartition("-")
            taken = replace(army, units=(*army.units, *added))
            unit_id = unique_unit_id(taken, stem if stem and number.isdigit() else unit.id)
        added.append(replace(unit, id=unit_id, player=army.player))
    at = len(army.units) if position is None else min(max(position, 0), len(army.units))
    return (replace(army, units=(*army.units[:at], *added, *army.units[at:])),
            [unit.id for unit in added])
