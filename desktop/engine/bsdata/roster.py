"""A roster: forces holding selections, each selection an option of the game data.

Plain immutable values: an action (see `actions`) returns a new roster, so undo is the
previous value. A selection keeps its `amount`, the count a player set at its place; what
BattleScribe writes as its `number` is the amount times the amounts of the selections above
it (three troopers each with a rifle: rifle amount 1, number 3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from decimal import Decimal

from desktop.engine.bsdata.gamedata import Option
from desktop.engine.bsdata.model import ForceEntry

# The most selections one roster holds, and the largest count one selection has: the
# bound of every roster Rout reads (files, stored documents) or builds (actions).
MAX_SELECTIONS = 100_000


@dataclass(frozen=True)
class Selection:
    id: str
    option: Option
    amount: int = 1
    children: tuple[Selection, ...] = ()
    custom_name: str | None = None
    custom_notes: str | None = None


@dataclass(frozen=True)
class CategoryNote:
    """A player's name and notes for one category of a force."""

    category_id: str
    custom_name: str | None = None
    custom_notes: str | None = None


@dataclass(frozen=True)
class Force:
    id: str
    entry: ForceEntry
    catalogue_id: str | None
    selections: tuple[Selection, ...] = ()
    forces: tuple[Force, ...] = ()
    custom_name: str | None = None
    custom_notes: str | None = None
    category_notes: tuple[CategoryNote, ...] = ()


@dataclass(frozen=True)
class Roster:
    id: str
    name: str
    forces: tuple[Force, ...] = ()
    # Limits a player set, by cost type id; the others are the cost types' defaults.
    cost_limits: tuple[tuple[str, Decimal], ...] = ()
    serial: int = 0  # for new ids
    custom_notes: str | None = None

    def limit(self, type_id: str) -> Decimal | None:
        for limit_id, value in self.cost_limits:
            if limit_id == type_id:
                return value
        return None


def walk_forces(forces: tuple[Force, ...]) -> Iterator[Force]:
    for force in forces:
        yield force
        yield from walk_forces(force.forces)


def walk_selections(selections: tuple[Selection, ...]) -> Iterator[Selection]:
    for selection in selections:
        yield selection
        yield from walk_selections(selection.children)


def all_ids(roster: Roster) -> set[str]:
    ids = {roster.id}
    for force in walk_forces(roster.forces):
        ids.add(force.id)
        ids.update(s.id for s in walk_selections(force.selections))
    return ids


def find_force(roster: Roster, force_id: str) -> Force | None:
    return next((f for f in walk_forces(roster.forces) if f.id == force_id), None)


def find_selection(roster: Roster, selection_id: str) -> tuple[Force, Selection] | None:
    for force in walk_forces(roster.forces):
        for selection in walk_selections(force.selections):
            if selection.id == selection_id:
                return force, selection
    return None


def map_forces(forces: tuple[Force, ...], force_id: str,
               change: Callable[[Force], Force | None]) -> tuple[tuple[Force, ...], bool]:
    """`forces` with the force `force_id` (at any depth) changed, or removed when `change`
    returns None; and whether it was found."""
    result: list[Force] = []
    found = False
    for force in forces:
        if found:
            result.append(force)
            continue
        if force.id == force_id:
            found = True
            changed = change(force)
            if changed is not None:
                result.append(changed)
            continue
        children, found = map_forces(force.forces, force_id, change)
        result.append(replace(force, forces=children) if found else force)
    return tuple(result), found


def map_selections(selections: tuple[Selection, ...], selection_id: str,
                   change: Callable[[Selection], tuple[Selection, ...]]
                   ) -> tuple[tuple[Selection, ...], bool]:
    """`selections` with the selection `selection_id` (at any depth) replaced by what
    `change` returns (none: removed; two: duplicated)."""
    result: list[Selection] = []
    found = False
    for selection in selections:
        if found:
            result.append(selection)
            continue
        if selection.id == selection_id:
            found = True
            result.extend(change(selection))
            continue
        children, found = map_selections(selection.children, selection_id, change)
        result.append(replace(selection, children=children) if found else selection)
    return tuple(result), found
