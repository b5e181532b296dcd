"""A roster as a JSON document, for keeping it with an army (`desktop.engine.model.ArmyBook`).

The document holds what a player built: each force's entry and catalogue, each selection's
entry id (the composite `link::entry` path a roster file uses), its entry group, its count
and the player's own names; and beside them what the catalogue said when it was written
(names, numbers, costs, categories, the roster's totals), so that a list of armies can be
shown, and a newer revision of the catalogue compared, without reading the game data.

Reading it back links every selection to its option by its entry id exactly as a roster
file is linked (`rosterfile.resolve_option`); a selection the data no longer has is left
out with what it holds, and said so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeVar

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.evaluate import CostValue, ValidationError
from desktop.engine.bsdata.gamedata import GameData, Option
from desktop.engine.bsdata.roster import MAX_SELECTIONS, CategoryNote, Force, Roster, Selection
from desktop.engine.bsdata.rosterfile import resolve_option
from desktop.engine.bsdata.state import ForceState, RosterState, SelectionState
from desktop.engine.errors import quoted

_Item = TypeVar("_Item", Force, Selection)
FORMAT = "rout-roster"
VERSION = 1
MAX_DEPTH = 30


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _costs(costs: tuple[CostValue, ...]) -> dict[str, int | float]:
    return {cost.type_id: _number(cost.value) for cost in costs}


def roster_document(roster: Roster, state: RosterState) -> dict[str, Any]:
    """The roster and what its evaluation (`state`) says of it, as plain JSON."""
    forces = {f.id: f for f in _all_forces(state.forces)}
    selections = {s.id: s for f in forces.values() for s in _all_selections(f.selections)}
    return {
        "format": FORMAT, "version": VERSION, "id": roster.id, "name": roster.name,
        "custom_notes": roster.custom_notes,
        "cost_limits": {type_id: _number(value) for type_id, value in roster.cost_limits},
        "costs": [{"type_id": c.type_id, "name": c.name.strip(), "value": _number(c.value)}
                  for c in state.costs],
        "forces": [_force(force, forces, selections) for force in _by_id(roster.forces)],
        "errors": [_error(error) for error in state.errors],
    }


def _all_forces(forces: tuple[ForceState, ...]) -> list[ForceState]:
    found: list[ForceState] = []
    for force in forces:
        found.append(force)
        found.extend(_all_forces(force.forces))
    return found


def _all_selections(selections: tuple[SelectionState, ...]) -> list[SelectionState]:
    found: list[SelectionState] = []
    for selection in selections:
        found.append(selection)
        found.extend(_all_selections(selection.children))
    return found


def _force(force: Force, forces: Mapping[str, ForceState],
           selections: Mapping[str, SelectionState]) -> dict[str, Any]:
    shown = forces.get(force.id)
    return {
        "id": force.id, "entry_id": force.entry.id, "catalogue_id": force.catalogue_id,
        "name": shown.name if shown is not None else force.entry.name,
        "custom_name": force.custom_name, "custom_notes": force.custom_notes,
        "category_notes": [[n.category_id, n.custom_name, n.custom_notes]
                           for n in force.category_notes],
        "selections": [_selection(s, selections) for s in _by_id(force.selections)],
        "forces": [_force(child, forces, selections) for child in _by_id(force.forces)],
    }


def _selection(selection: Selection, shown: Mapping[str, SelectionState]) -> dict[str, Any]:
    state = shown.get(selection.id)
    return {
        "id": selection.id, "entry_id": selection.option.entry_id,
        "entry_group_id": selection.option.entry_group_id,
        "name": state.name if state is not None else selection.option.name,
        "type": selection.option.type, "amount": selection.amount,
        "number": state.number if state is not None else selection.amount,
        "costs": _costs(state.costs) if state is not None else {},
        "categories": [{"id": c.id, "name": c.name, "primary": c.primary}
                       for c in (state.categories if state is not None else ())],
        "custom_name": selection.custom_name, "custom_notes": selection.custom_notes,
        "children": [_selection(child, shown) for child in _by_id(selection.children)],
    }


def _by_id(items: tuple[_Item, ...]) -> list[_Item]:
    """In the order of their ids: a roster file lists selections in any order, so the same
    roster read from two files gives one document."""
    return sorted(items, key=lambda item: item.id)


def _error(error: ValidationError) -> dict[str, Any]:
    return {"message": error.message, "source": error.source, "owner": error.owner_kind,
            "owner_entry_id": error.owner_entry_id, "force_id": error.force_id,
            "selection_id": error.selection_id}


@dataclass
class ReadDocument:
    """A roster read back from its document, with what could not be linked to the data."""

    roster: Roster
    problems: list[str] = field(default_factory=list)
    # The selections' costs as the document kept them, by selection id.
    kept_costs: dict[str, dict[str, Decimal]] = field(default_factory=dict)


def _text(value: Any, where: str, what: str, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise DataError(f"{where}: {what} is not text")
    return value


def _items(value: Any, where: str, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise DataError(f"{where}: {what} is not a list")
    return value


def read_document(data: GameData, document: Mapping[str, Any], where: str) -> ReadDocument:
    """The roster a document holds, linked to `data` (DataError when it is not one)."""
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise DataError(f"{where}: not a Rout roster document")
    if document.get("version") != VERSION:
        raise DataError(f"{where}: roster document version {document.get('version')!r}, "
                        f"Rout reads version {VERSION}")
    read = ReadDocument(Roster(id=_text(document.get("id"), where, "the roster's id"),
                               name=_text(document.get("name"), where, "its name")))
    counter = [0]
    forces = tuple(force for item in _items(document.get("forces"), where, "forces")
                   if (force := _read_force(data, item, read, where, counter, 0)))
    limits = document.get("cost_limits") or {}
    if not isinstance(limits, Mapping):
        raise DataError(f"{where}: cost limits are not a mapping")
    # As a roster file is read (rosterfile.load_roster): new ids count on from there.
    read.roster = Roster(
        id=read.roster.id, name=read.roster.name, forces=forces,
        cost_limits=tuple((str(k), Decimal(str(v))) for k, v in limits.items()),
        serial=counter[0],
        custom_notes=_text(document.get("custom_notes"), where, "its notes", True))
    return read


def _read_force(data: GameData, item: Any, read: ReadDocument, where: str,
                counter: list[int], depth: int) -> Force | None:
    if not isinstance(item, Mapping) or depth > MAX_DEPTH:
        raise DataError(f"{where}: a force is not a mapping (or forces nest too deeply)")
    catalogue_id = _text(item.get("catalogue_id"), where, "a force's catalogue", True)
    name = str(item.get("name") or item.get("entry_id"))
    if catalogue_id is not None and catalogue_id not in data.catalogues:
        read.problems.append(f"force {quoted(name, 60)}: its catalogue is not in the data; "
                             "left out")
        return None
    context = data.context(catalogue_id)
    entry = context.find_force_entry(_text(item.get("entry_id"), where, "a force's entry"))
    if entry is None:
        read.problems.append(f"force {quoted(name, 60)}: the catalogue no longer has its "
                             "force entry; left out")
        return None
    selections = tuple(
        selection for child in _items(item.get("selections", []), where, "selections")
        if (selection := _read_selection(child, context.root_selectable, read, where,
                                         counter, 0)))
    counter[0] += 1
    notes = tuple(CategoryNote(str(n[0]), n[1], n[2])
                  for n in _items(item.get("category_notes", []), where, "category notes")
                  if isinstance(n, list) and len(n) == 3)
    return Force(
        id=_text(item.get("id"), where, "a force's id"), entry=entry,
        catalogue_id=catalogue_id, selections=selections,
        forces=tuple(force for child in _items(item.get("forces", []), where, "forces")
                     if (force := _read_force(data, child, read, where, counter,
                                              depth + 1))),
        custom_name=_text(item.get("custom_name"), where, "a force's name", True),
        custom_notes=_text(item.get("custom_notes"), where, "a force's notes", True),
        category_notes=notes)


def _read_selection(item: Any, options: tuple[Option, ...], read: ReadDocument, where: str,
                    counter: list[int], depth: int) -> Selection | None:
    if not isinstance(item, Mapping) or depth > MAX_DEPTH:
        raise DataError(f"{where}: a selection is not a mapping (or selections nest too "
                        "deeply)")
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise DataError(f"{where}: more than {MAX_SELECTIONS} selections")
    entry_id = _text(item.get("entry_id"), where, "a selection's entry")
    label = str(item.get("custom_name") or item.get("name") or entry_id)
    option = resolve_option(options, entry_id,
                            _text(item.get("entry_group_id"), where, "an entry group", True))
    if option is None:
        read.problems.append(f"{quoted(label, 60)}: the catalogue no longer has this entry; "
                             "left out with what it holds")
        return None
    amount = item.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount <= \
            MAX_SELECTIONS:
        raise DataError(f"{where}: the count of {quoted(label, 60)} is {amount!r}")
    selection_id = _text(item.get("id"), where, "a selection's id")
    costs = item.get("costs") or {}
    if isinstance(costs, Mapping):
        read.kept_costs[selection_id] = {str(k): Decimal(str(v)) for k, v in costs.items()
                                         if isinstance(v, int | float)}
    children = tuple(
        child for entry in _items(item.get("children", []), where, "a selection's children")
        if (child := _read_selection(entry, option.selectable, read, where, counter,
                                     depth + 1)))
    return Selection(id=selection_id, option=option, amount=amount, children=children,
                     custom_name=_text(item.get("custom_name"), where, "a name", True),
                     custom_notes=_text(item.get("custom_notes"), where, "notes", True))


__all__ = ["FORMAT", "VERSION", "ReadDocument", "read_document", "roster_document"]
