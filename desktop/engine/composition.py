"""Army composition: what an army may field, as warnings that never refuse anything.

Everything here reads data, never a rule written per ruleset: a library's army lists, the
limits declared on its entries ("0-1 per army", "one per Core unit") and the ruleset's
composition (the W6 army selection chart; percentages of the points limit a group may
declare for Kensei or Breaks-or-Pursues). What the data does not declare is not checked.

The army's size is its points limit, the game size agreed, not the points spent
(rules/composition.md); limits that go by the size are left out while there is none.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from desktop.engine.model import Army, ArmyList, LibraryEntry, Unit
from desktop.engine.roster import RosterProblem, Severity, problems
from desktop.engine.rulesets import get_ruleset
from desktop.engine.rulesets.base import slot_key

COMPOSITION_FIELD = "composition"  # RosterProblem.field of army-wide composition warnings
CATALOGUE_FIELD = "catalogue"  # RosterProblem.field of the army book's limits


@dataclass(frozen=True)
class Bound:
    """A least or most number of units: `fixed` whatever the size; or one value per chart
    row (`by_row`, then `then` more for each row past the last); or `percent` of the army's
    size, which bounds the units' points rather than their number."""

    fixed: int | None = None
    by_row: tuple[int, ...] = ()
    then: int = 0
    percent: int | None = None

    @property
    def needs_size(self) -> bool:
        return self.fixed is None


@dataclass(frozen=True)
class CompositionLimit:
    """One line of a composition: the units in `slots`, or those with `upgrade`, number
    (or cost, for a percentage) at least `least` and at most `most`."""

    label: str
    slots: frozenset[str] = frozenset()
    upgrade: str = ""
    least: Bound | None = None
    most: Bound | None = None

    def selects(self, unit: Unit) -> bool:
        if self.upgrade:
            return self.upgrade in unit.upgrades
        return slot_key(unit.slot) in {slot_key(slot) for slot in self.slots}


@dataclass(frozen=True)
class Composition:
    """A ruleset's composition limits; `rows` are the army sizes each chart row starts at
    (ascending, the first 0); past the last row a new one starts every `then_every` points."""

    source: str = ""  # where the rules are written (the rulebook's section)
    rows: tuple[int, ...] = ()
    then_every: int = 0
    limits: tuple[CompositionLimit, ...] = ()

    def row(self, size: int) -> int:
        """The chart row of an army of `size` points (W6: 1,999 is row 0, 2,000 row 1)."""
        if not self.rows:
            return 0
        index = max(bisect_right(self.rows, size) - 1, 0)
        last = len(self.rows) - 1
        if index == last and self.then_every > 0:
            index += (size - self.rows[last]) // self.then_every
        return index

    def value(self, bound: Bound, size: int) -> int | Fraction | None:
        """A bound for an army of `size` points: a number of units, or points for a
        percentage; None when it goes by the size and there is none."""
        if bound.fixed is not None:
            return bound.fixed
        if size <= 0:
            return None
        if bound.percent is not None:
            return Fraction(size * bound.percent, 100)
        if not bound.by_row:
            return None  # no value given at all (the codec refuses such a bound)
        row = self.row(size)
        past = row - (len(bound.by_row) - 1)
        return bound.by_row[-1] + past * bound.then if past > 0 else bound.by_row[row]


@dataclass(frozen=True)
class Library:
    """A ruleset's unit library: its entries, its army lists and its composition."""

    ruleset: str
    entries: tuple[LibraryEntry, ...] = ()
    army_lists: tuple[ArmyList, ...] = ()
    composition: Composition = Composition()
    version: int = 0  # the store's count of saves; 0 when none is stored (as Army.version)

    def army_list(self, list_id: str) -> ArmyList | None:
        return next((found for found in self.army_lists if found.id == list_id), None)

    def list_names(self, list_ids: Iterable[str]) -> list[str]:
        """Names of the lists (ids the library does not know are shown as they are)."""
        return [found.name if (found := self.army_list(list_id)) else list_id
                for list_id in sorted(list_ids)]


def in_list(entry: LibraryEntry, list_id: str) -> bool:
    """Whether an army of `list_id` takes the entry: it is in that list or in none."""
    return not entry.lists or list_id in entry.lists


def split_by_list(library: Library, list_id: str) -> tuple[list[LibraryEntry],
                                                            list[LibraryEntry]]:
    """(the entries an army of `list_id` takes, the other lists' entries), each in library
    order. With no list chosen every entry comes first."""
    if not list_id:
        return list(library.entries), []
    own = [entry for entry in library.entries if in_list(entry, list_id)]
    return own, [entry for entry in library.entries if not in_list(entry, list_id)]


def _name_key(name: str) -> str:
    # "Orcs & Goblins", "Orcs and Goblins" and "orcs-goblins" are one name.
    return " ".join(re.sub(r"[^\w]+", " ", name.casefold().replace("&", " and ")).split())


def list_for_catalogue(library: Library, catalogue: str) -> str:
    """The army list a BattleScribe catalogue name means ("" when none matches): by the
    list's name, id or one of its declared catalogue names."""
    wanted = _name_key(catalogue)
    if not wanted:
        return ""
    for found in library.army_lists:
        if wanted in {_name_key(name) for name in (found.name, found.id, *found.catalogues)}:
            return found.id
    return ""


def _entries_by_name(library: Library) -> dict[str, LibraryEntry]:
    """Entries by profile name, the first of a name winning (as roster.library_entry_for)."""
    found: dict[str, LibraryEntry] = {}
    for entry in library.entries:
        found.setdefault(entry.profile.name, entry)
    return found


def _points(value: int | Fraction) -> str:
    return f"{int(value):,}" if value == int(value) else f"{float(value):,.1f}"


def _limit_problems(army: Army, composition: Composition, size: int) -> list[RosterProblem]:
    found = []
    for limit in composition.limits:
        chosen = [unit for unit in army.units if limit.selects(unit)]
        for bound, too_few in ((limit.least, True), (limit.most, False)):
            if bound is None:
                continue
            value = composition.value(bound, size)
            if value is None:
                continue
            exact = (limit.least is not None and limit.most is not None
                     and limit.least == limit.most)
            word = "exactly" if exact else "at least" if too_few else "at most"
            if bound.percent is not None:
                spent = sum(unit.points for unit in chosen)
                if (spent < value) if too_few else (spent > value):
                    found.append(RosterProblem(
                        f"{limit.label}: {spent:,} points, should be {word} {bound.percent}% of "
                        f"{size:,} ({_points(value)} points)", field=COMPOSITION_FIELD))
                continue
            count = len(chosen)
            if (count < value) if too_few else (count > value):
                where = f" in a {size:,}-point army" if bound.needs_size else ""
                found.append(RosterProblem(f"{limit.label}: {count}, should be {word} "
                                           f"{value}{where}", field=COMPOSITION_FIELD))
    return found


def _entry_limit_problems(army: Army, library: Library, size: int) -> list[RosterProblem]:
    by_name = _entries_by_name(library)
    counts: dict[str, int] = {}
    for unit in army.units:
        if unit.profile.name in by_name:
            counts[unit.profile.name] = counts.get(unit.profile.name, 0) + 1
    found = []
    for name, count in counts.items():
        limit = by_name[name].limit
        if limit is None:
            continue
        if limit.per_slot:
            slot = slot_key(limit.per_slot)
            allowed = limit.most * sum(slot_key(unit.slot) == slot for unit in army.units)
            why = f"{limit.most} per {limit.per_slot} unit"
        elif limit.per_points:
            if size <= 0:
                continue
            allowed = limit.most * (size // limit.per_points)
            why = f"{limit.most} per {limit.per_points:,} points of {size:,}"
        else:
            allowed, why = limit.most, "per army"
        if count > allowed:
            text = f"at most {allowed} per army" if why == "per army" else \
                f"at most {allowed} ({why})"
            units = "unit" if count == 1 else "units"
            found.append(RosterProblem(f"{name}: {count} {units}, should be {text}",
                                       field=COMPOSITION_FIELD))
    return found


def _other_list_problems(army: Army, library: Library) -> list[RosterProblem]:
    chosen = library.army_list(army.army_list)
    if chosen is None:
        return []
    by_name = _entries_by_name(library)
    found = []
    for unit in army.units:
        entry = by_name.get(unit.profile.name)
        if entry is None or in_list(entry, chosen.id):
            continue
        who = unit.name if unit.name == entry.profile.name else \
            f"{unit.name} ({entry.profile.name})"
        lists = " or ".join(library.list_names(entry.lists))
        found.append(RosterProblem(f"{who} is from the {lists} list, not {chosen.name}",
                                   unit.id, "name"))
    return found


def _goes_by_size(library: Library) -> bool:
    bounds = [bound for limit in library.composition.limits
              for bound in (limit.least, limit.most) if bound is not None]
    return any(bound.needs_size for bound in bounds) or any(
        entry.limit is not None and entry.limit.per_points for entry in library.entries)


def composition_problems(army: Army, library: Library) -> list[RosterProblem]:
    """The army's composition warnings: the chart and other declared limits, the limits on
    library entries, and units from another army list than the army's."""
    if library.ruleset != army.ruleset:
        raise ValueError(f"a {library.ruleset} library cannot check a {army.ruleset} army")
    found: list[RosterProblem] = []
    if army.army_list and library.army_list(army.army_list) is None:
        found.append(RosterProblem(f"the army list '{army.army_list}' is not in the "
                                   f"{get_ruleset(army.ruleset).name} library",
                                   field=COMPOSITION_FIELD, severity=Severity.NOTE))
    size = army.points_limit
    if size <= 0 and _goes_by_size(library):
        source = f" ({library.composition.source})" if library.composition.source else ""
        found.append(RosterProblem(f"no points limit: the limits that go by the army's "
                                   f"size{source} are not checked", field=COMPOSITION_FIELD,
                                   severity=Severity.NOTE))
    found += _limit_problems(army, library.composition, size)
    found += _entry_limit_problems(army, library, size)
    found += _other_list_problems(army, library)
    return found


def book_problems(army: Army) -> list[RosterProblem]:
    """The limits of its army book that an army built from one breaks, as its catalogue
    said when the army was last changed (desktop.engine.bsdata checks them)."""
    if army.book is None:
        return []
    return [RosterProblem(problem.message, problem.unit_id, CATALOGUE_FIELD)
            for problem in army.book.problems]


def army_problems(army: Army, library: Library) -> list[RosterProblem]:
    """Everything the roster warns about (roster.problems and the composition), army-wide
    first, then unit by unit in roster order; in each, warnings before notes (a cell shows
    its first). What the window and `rout check` show.

    An army built from an army book is held to its catalogue's limits instead of the
    library's composition, points limit included, so that no limit is warned of twice."""
    if army.book is not None:
        found = (problems(army, get_ruleset(army.ruleset), library.entries,
                          points_limit=False) + book_problems(army))
    else:
        found = (problems(army, get_ruleset(army.ruleset), library.entries)
                 + composition_problems(army, library))
    order = {unit.id: number for number, unit in enumerate(army.units)}
    return sorted(found, key=lambda problem: (
        order.get(problem.unit_id, len(order)) if problem.unit_id else -1,
        problem.severity != Severity.WARNING))


def has_warnings(found: Sequence[RosterProblem]) -> bool:
    return any(problem.severity == Severity.WARNING for problem in found)
