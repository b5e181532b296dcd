"""Roster actions as pure functions: each takes a roster and returns a new one.

What a new force or selection must hold (entries with a minimum, a group's default entry)
is selected with it, as BattleScribe does when it creates them; nothing is re-added later
if the player removes it. Selecting an entry again under the same selection adds to its
count when everything below it is collective (so a unit's models are one selection with a
number), and makes a new selection otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal

from desktop.engine.bsdata.errors import RosterActionError
from desktop.engine.bsdata.evaluate import Evaluation, FNode, SNode
from desktop.engine.bsdata.gamedata import GameData, Option
from desktop.engine.bsdata.model import ForceEntry
from desktop.engine.bsdata.roster import (
    MAX_SELECTIONS,
    CategoryNote,
    Force,
    Roster,
    Selection,
    all_ids,
    find_force,
    find_selection,
    map_forces,
    map_selections,
    walk_forces,
    walk_selections,
)
from desktop.engine.errors import quoted


def new_roster(name: str, roster_id: str = "roster") -> Roster:
    return Roster(id=roster_id, name=name)


class _Ids:
    """Fresh ids for one action: `f1`, `s2`…, never one the roster already has."""

    def __init__(self, roster: Roster) -> None:
        self.taken = all_ids(roster)
        self.serial = roster.serial

    def new(self, prefix: str) -> str:
        while True:
            self.serial += 1
            candidate = f"{prefix}{self.serial}"
            if candidate not in self.taken:
                self.taken.add(candidate)
                return candidate


def _force_entry(data: GameData, force_entry_id: str, catalogue_id: str | None
                 ) -> tuple[ForceEntry, str | None]:
    catalogues: list[str | None] = [catalogue_id] if catalogue_id is not None else [
        c.id for c in data.catalogues.values() if not c.library] + [
        c.id for c in data.catalogues.values() if c.library] + [None]
    for candidate in catalogues:
        entry = data.context(candidate).find_force_entry(force_entry_id)
        if entry is not None:
            return entry, candidate
    raise RosterActionError(f"no force entry {quoted(force_entry_id, 40)} in "
                            f"{quoted(data.game_system.name, 60)}")


def _default_catalogue(data: GameData) -> str | None:
    for catalogue in data.catalogues.values():
        if not catalogue.library:
            return catalogue.id
    return None


def add_force(data: GameData, roster: Roster, force_entry_id: str,
              catalogue_id: str | None = None, parent_force_id: str | None = None
              ) -> tuple[Roster, str]:
    """A new force of `force_entry_id` from `catalogue_id` (a child of `parent_force_id`),
    with what it must hold selected; and the new force's id."""
    if catalogue_id is None and parent_force_id is not None:
        parent = find_force(roster, parent_force_id)
        if parent is not None:
            catalogue_id = parent.catalogue_id
    entry, found_in = _force_entry(data, force_entry_id, catalogue_id)
    if catalogue_id is None:
        catalogue_id = found_in if found_in is not None else _default_catalogue(data)
    if catalogue_id is not None and catalogue_id not in data.catalogues:
        raise RosterActionError(f"no catalogue {quoted(catalogue_id, 40)}")
    ids = _Ids(roster)
    force = Force(id=ids.new("f"), entry=entry, catalogue_id=catalogue_id)
    if parent_force_id is None:
        roster = replace(roster, forces=(*roster.forces, force))
    else:
        forces, found = map_forces(roster.forces, parent_force_id,
                                   lambda f: replace(f, forces=(*f.forces, force)))
        if not found:
            raise RosterActionError(f"no force {quoted(parent_force_id, 40)} in the roster")
        roster = replace(roster, forces=forces)
    roster = replace(roster, serial=ids.serial)
    return _auto_select(data, roster, [(force.id, None)]), force.id


def remove_force(roster: Roster, force_id: str) -> Roster:
    forces, found = map_forces(roster.forces, force_id, lambda f: None)
    if not found:
        raise RosterActionError(f"no force {quoted(force_id, 40)} in the roster")
    return replace(roster, forces=forces)


def _copy_selection(selection: Selection, ids: _Ids) -> Selection:
    return replace(selection, id=ids.new("s"),
                   children=tuple(_copy_selection(c, ids) for c in selection.children))


def _copy_force(force: Force, ids: _Ids) -> Force:
    return replace(force, id=ids.new("f"),
                   selections=tuple(_copy_selection(s, ids) for s in force.selections),
                   forces=tuple(_copy_force(f, ids) for f in force.forces))


def duplicate_force(roster: Roster, force_id: str) -> tuple[Roster, str]:
    """A deep copy of a force beside it; and the copy's id."""
    ids = _Ids(roster)
    copies: list[Force] = []

    def twin(force: Force) -> tuple[Force, ...]:
        copy = _copy_force(force, ids)
        copies.append(copy)
        return force, copy

    forces = _insert_after_force(roster.forces, force_id, twin)
    if not copies:
        raise RosterActionError(f"no force {quoted(force_id, 40)} in the roster")
    return replace(roster, forces=forces, serial=ids.serial), copies[0].id


def _insert_after_force(forces: tuple[Force, ...], force_id: str,
                        twin: Callable[[Force], tuple[Force, ...]]) -> tuple[Force, ...]:
    result: list[Force] = []
    for force in forces:
        if force.id == force_id:
            result.extend(twin(force))
        else:
            result.append(replace(force, forces=_insert_after_force(force.forces, force_id,
                                                                    twin)))
    return tuple(result)


def _candidates(options: tuple[Option, ...], entry_id: str) -> Iterator[Option]:
    """The options an action's entry id names, best match first: the composite id, then a
    link's id, then the definition's id."""
    tests: tuple[Callable[[Option], bool], ...] = (
                 lambda o: o.entry_id == entry_id,
                 lambda o: o.link is None and o.definition.id == entry_id,
                 lambda o: o.link is not None and o.link.id == entry_id,
                 lambda o: o.definition.id == entry_id,
                 lambda o: o.entry_id.endswith("::" + entry_id))
    for test in tests:
        yield from (option for option in options if test(option))


def find_option(options: tuple[Option, ...], entry_id: str) -> Option | None:
    return next(_candidates(options, entry_id), None)


def merges(data: GameData, option: Option, in_selection: bool) -> bool:
    """Whether repeated selections of `option` are one selection with a count."""
    if not in_selection or option.type == "unit":
        return False
    return data.collective_recursive(option.context, option)


def select_entry(data: GameData, roster: Roster, force_id: str, entry_id: str,
                 parent_selection_id: str | None = None) -> tuple[Roster, str]:
    """`entry_id` selected in the force (under `parent_selection_id`): the roster, and the
    selection that holds it (a new one, or the one whose count went up)."""
    force = find_force(roster, force_id)
    if force is None:
        raise RosterActionError(f"no force {quoted(force_id, 40)} in the roster")
    if parent_selection_id is None:
        options = data.context(force.catalogue_id).root_selectable
    else:
        found = find_selection(roster, parent_selection_id)
        if found is None:
            raise RosterActionError(f"no selection {quoted(parent_selection_id, 40)} in the "
                                    "roster")
        force = found[0]
        options = found[1].option.selectable
    option = find_option(options, entry_id)
    if option is None:
        where = "this force" if parent_selection_id is None else "this selection"
        raise RosterActionError(f"{quoted(entry_id, 40)} cannot be selected in {where}")
    roster, holder, created = _add(data, roster, force.id, parent_selection_id, option, 1)
    return _auto_select(data, roster, [(force.id, s) for s in created]), holder


# What one action adds: per force, per container (None: the force's root), the options and
# how many of each, in order.
Additions = dict[str, dict[str | None, list[tuple[Option, int]]]]


def _add(data: GameData, roster: Roster, force_id: str, parent_id: str | None,
         option: Option, count: int) -> tuple[Roster, str, list[str]]:
    """`count` more of `option` in a container: the roster, the selection holding them, and
    the selections created (new containers)."""
    roster, holders, created = _add_all(data, roster, _Ids(roster),
                                        {force_id: {parent_id: [(option, count)]}})
    return roster, holders[0], [selection_id for _, selection_id in created]


def _add_all(data: GameData, roster: Roster, ids: _Ids, additions: Additions
             ) -> tuple[Roster, list[str], list[tuple[str, str]]]:
    """Every addition made in one walk of the roster (a walk per addition made filling a
    large unit's minimums quadratic): the roster, the selection holding each addition, and
    the (force, selection) of each selection created, in the roster's order."""
    holders: list[str] = []
    created: list[tuple[str, str]] = []

    def grow(selections: tuple[Selection, ...], in_selection: bool, option: Option,
             count: int, force_id: str) -> tuple[Selection, ...]:
        if merges(data, option, in_selection):
            for index, existing in enumerate(selections):
                if existing.option is option:
                    holders.append(existing.id)
                    bumped = replace(existing, amount=existing.amount + count)
                    return (*selections[:index], bumped, *selections[index + 1:])
            fresh = [Selection(id=ids.new("s"), option=option, amount=count)]
        else:
            fresh = [Selection(id=ids.new("s"), option=option) for _ in range(count)]
        if len(ids.taken) > MAX_SELECTIONS:
            raise RosterActionError(f"more than {MAX_SELECTIONS} selections in one roster")
        holders.append(fresh[0].id)
        created.extend((force_id, s.id) for s in fresh)
        return (*selections, *fresh)

    def in_selections(selections: tuple[Selection, ...],
                      wanted: dict[str | None, list[tuple[Option, int]]], force_id: str
                      ) -> tuple[Selection, ...]:
        result: list[Selection] = []
        for selection in selections:
            children = in_selections(selection.children, wanted, force_id)
            for option, count in wanted.get(selection.id, ()):
                children = grow(children, True, option, count, force_id)
            result.append(selection if children is selection.children
                          else replace(selection, children=children))
        changed = any(a is not b for a, b in zip(result, selections, strict=True))
        return tuple(result) if changed else selections

    def in_forces(forces: tuple[Force, ...]) -> tuple[Force, ...]:
        result: list[Force] = []
        for force in forces:
            wanted = additions.get(force.id)
            changed = force
            if wanted:
                selections = in_selections(force.selections, wanted, force.id)
                for option, count in wanted.get(None, ()):
                    selections = grow(selections, False, option, count, force.id)
                changed = replace(changed, selections=selections)
            children = in_forces(force.forces)
            if children is not force.forces:
                changed = replace(changed, forces=children)
            result.append(changed)
        changed_any = any(a is not b for a, b in zip(result, forces, strict=True))
        return tuple(result) if changed_any else forces

    forces = in_forces(roster.forces)
    return replace(roster, forces=forces, serial=ids.serial), holders, created


def _auto_select(data: GameData, roster: Roster,
                 containers: list[tuple[str, str | None]]) -> Roster:
    """What new containers (a force: selection None) must hold, level by level: one
    evaluation and one walk of the roster per level."""
    pending = containers
    ids = _Ids(roster)
    while pending:
        evaluation = Evaluation(data, roster)
        additions: Additions = {}
        for force_id, selection_id in pending:
            container: SNode | FNode
            if selection_id is None:
                container = evaluation.by_force_id[force_id]
                options = container.context.root_options
            else:
                container = evaluation.by_selection_id[selection_id]
                options = container.option.children
            needs = evaluation.needed(container, options)
            if needs:
                additions.setdefault(force_id, {}).setdefault(selection_id, []).extend(needs)
        if not additions:
            break
        roster, _, created = _add_all(data, roster, ids, additions)
        pending = [(force_id, selection_id) for force_id, selection_id in created]
    return roster


def deselect(data: GameData, roster: Roster, selection_id: str) -> Roster:
    """One fewer: a count above one goes down by one when the selection counts merged
    items; otherwise the selection goes, with everything below it."""
    found = find_selection(roster, selection_id)
    if found is None:
        raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
    force, selection = found
    in_selection = selection not in force.selections

    def change(existing: Selection) -> tuple[Selection, ...]:
        if existing.amount > 1 and merges(data, existing.option, in_selection):
            return (replace(existing, amount=existing.amount - 1),)
        return ()
    return _change_selection(roster, force.id, selection_id, change)


def set_count(roster: Roster, selection_id: str, count: int) -> Roster:
    """The selection's count (per model of the selection above it); 0 removes it."""
    if count < 0:
        raise RosterActionError(f"a count cannot be negative ({count})")
    found = find_selection(roster, selection_id)
    if found is None:
        raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
    if count > MAX_SELECTIONS:
        raise RosterActionError(f"{count} is more than the {MAX_SELECTIONS} Rout counts")
    return _change_selection(roster, found[0].id, selection_id,
                             lambda s: (replace(s, amount=count),) if count else ())


def duplicate_selection(roster: Roster, selection_id: str) -> tuple[Roster, str]:
    found = find_selection(roster, selection_id)
    if found is None:
        raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
    ids = _Ids(roster)
    force, original = found
    copy = _copy_selection(original, ids)
    parent = next((s for s in walk_selections(force.selections)
                   if any(c.id == selection_id for c in s.children)), None)
    if parent is None:
        forces, _ = map_forces(roster.forces, force.id, lambda f: replace(
            f, selections=(*f.selections, copy)))
        roster = replace(roster, forces=forces)
    else:
        roster = _change_selection(roster, force.id, parent.id, lambda s: (
            replace(s, children=(*s.children, copy)),))
    return replace(roster, serial=ids.serial), copy.id


def _change_selection(roster: Roster, force_id: str, selection_id: str,
                      change: Callable[[Selection], tuple[Selection, ...]]) -> Roster:
    def update(force: Force) -> Force:
        selections, _ = map_selections(force.selections, selection_id, change)
        return replace(force, selections=selections)
    forces, _ = map_forces(roster.forces, force_id, update)
    return replace(roster, forces=forces)


def set_cost_limit(roster: Roster, type_id: str, value: Decimal) -> Roster:
    limits = tuple((k, v) for k, v in roster.cost_limits if k != type_id)
    return replace(roster, cost_limits=(*limits, (type_id, value)))


def customize(roster: Roster, *, force_id: str | None = None,
              selection_id: str | None = None, category_id: str | None = None,
              name: str | None = None, notes: str | None = None) -> Roster:
    """A player's own name and notes for a selection, a force's category, or a force."""
    if selection_id is not None:
        found = find_selection(roster, selection_id)
        if found is None:
            raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
        return _change_selection(
            roster, found[0].id, selection_id,
            lambda s: (replace(s, custom_name=name, custom_notes=notes),))
    if force_id is None:
        return replace(roster, custom_notes=notes, name=name or roster.name)
    if find_force(roster, force_id) is None:
        raise RosterActionError(f"no force {quoted(force_id, 40)} in the roster")
    if category_id is not None:
        def note(force: Force) -> Force:
            notes_left = tuple(n for n in force.category_notes if n.category_id != category_id)
            return replace(force, category_notes=(
                *notes_left, CategoryNote(category_id, name, notes)))
        forces, _ = map_forces(roster.forces, force_id, note)
    else:
        forces, _ = map_forces(roster.forces, force_id,
                               lambda f: replace(f, custom_name=name, custom_notes=notes))
    return replace(roster, forces=forces)


def forces_of(roster: Roster) -> list[Force]:
    return list(walk_forces(roster.forces))
