"""BattleScribe rosters (`.ros`, or `.rosz` zipped) read into, and written from, a Roster.

Reading links every selection to its option by the roster's entry-id paths (the composite
`link::entry` ids); costs are not taken from the file but worked out from the data, and
the file's own figures are kept beside the roster so that a caller can report where they
differ. Writing gives what BattleScribe writes: entry ids, numbers, costs, categories,
profiles and rules of every selection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from xml.etree.ElementTree import Element, SubElement, indent, tostring

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.evaluate import Evaluation, SNode
from desktop.engine.bsdata.gamedata import GameData, Option
from desktop.engine.bsdata.reader import elements_at, local_name, parse_xml, root_kind, unpack
from desktop.engine.bsdata.roster import MAX_SELECTIONS, CategoryNote, Force, Roster, Selection
from desktop.engine.bsdata.state import ForceState, RosterState, SelectionState, roster_state
from desktop.engine.errors import quoted

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
MAX_NESTING = 50  # forces in forces, selections in selections: real rosters nest 5 deep


@dataclass(frozen=True)
class FileCosts:
    """A selection's costs as the file gives them, for comparing with the data's."""

    selection_id: str
    name: str
    costs: tuple[tuple[str, Decimal], ...]


@dataclass
class RosterFile:
    roster: Roster
    game_system_id: str
    problems: list[str] = field(default_factory=list)
    file_costs: list[FileCosts] = field(default_factory=list)
    roster_costs: dict[str, Decimal] = field(default_factory=dict)


def _number(element: Element, attribute: str, name: str, default: str = "0") -> Decimal:
    text = element.get(attribute, default)
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise DataError(f"{name}: <{local_name(element)}> {attribute} {quoted(text, 40)} is not "
                        "a number") from None
    if not value.is_finite():
        raise DataError(f"{name}: <{local_name(element)}> {attribute} {quoted(text, 40)} is not "
                        "a usable number")
    return value


def load_roster(data: GameData, content: bytes, name: str) -> RosterFile:
    """A roster file read against `data`, with what could not be linked to it."""
    root = parse_xml(unpack(content, name, (".ros",), what="roster"), name)
    root_kind(root, name, ("roster",))
    game_system_id = root.get("gameSystemId", "")
    result = RosterFile(Roster(id=root.get("id") or "roster",
                               name=root.get("name") or "Roster"), game_system_id)
    if game_system_id and game_system_id != data.game_system.id:
        raise DataError(f"{name}: the roster is for game system {quoted(game_system_id, 40)}"
                        f" ({quoted(root.get('gameSystemName', ''), 60)}), not "
                        f"{quoted(data.game_system.name, 60)}")
    for cost in elements_at(root, "costs", "cost"):
        result.roster_costs[cost.get("typeId", "")] = _number(cost, "value", name)
    limits = tuple((limit.get("typeId", ""), _number(limit, "value", name))
                   for limit in elements_at(root, "costLimits", "costLimit"))
    counter = [0]
    forces = tuple(_force(data, element, result, name, counter, 0)
                   for element in elements_at(root, "forces", "force"))
    result.roster = Roster(id=result.roster.id, name=result.roster.name,
                           forces=tuple(f for f in forces if f is not None),
                           cost_limits=limits, serial=counter[0],
                           custom_notes=root.get("customNotes"))
    return result


def read_roster(data: GameData, content: bytes, name: str) -> Roster:
    return load_roster(data, content, name).roster


def _force(data: GameData, element: Element, result: RosterFile, name: str,
           counter: list[int], depth: int) -> Force | None:
    if depth > MAX_NESTING:
        raise DataError(f"{name}: forces nested more than {MAX_NESTING} deep")
    entry_id = element.get("entryId", "")
    catalogue_id = element.get("catalogueId") or None
    if catalogue_id is not None and catalogue_id not in data.catalogues:
        result.problems.append(f"force {quoted(element.get('name', entry_id), 60)}: its "
                               f"catalogue {quoted(element.get('catalogueName', catalogue_id))}"
                               " is not in the data; left out")
        return None
    context = data.context(catalogue_id)
    force_entry = context.find_force_entry(entry_id)
    if force_entry is None:
        result.problems.append(f"force {quoted(element.get('name', entry_id), 60)}: no force "
                               f"entry {quoted(entry_id, 40)} in the data; left out")
        return None
    selections: list[Selection] = []
    for child in elements_at(element, "selections", "selection"):
        selection = _selection(child, context.root_selectable, 1, result, name, counter, 0)
        if selection is not None:
            selections.append(selection)
    notes = tuple(CategoryNote(c.get("entryId", ""), c.get("customName"),
                               c.get("customNotes"))
                  for c in elements_at(element, "categories", "category")
                  if c.get("customName") or c.get("customNotes"))
    counter[0] += 1
    return Force(
        id=element.get("id") or f"f{counter[0]}", entry=force_entry, catalogue_id=catalogue_id,
        selections=tuple(selections),
        forces=tuple(f for c in elements_at(element, "forces", "force")
                     if (f := _force(data, c, result, name, counter, depth + 1))),
        custom_name=element.get("customName"), custom_notes=element.get("customNotes"),
        category_notes=notes)


def resolve_option(options: tuple[Option, ...], entry_id: str, group_id: str | None
                   ) -> Option | None:
    """The option a roster's entry id names among `options`: the composite id itself,
    else the entry's own id (narrowed by its group), else a link on its path."""
    for option in options:
        if option.entry_id == entry_id:
            return option
    last = entry_id.split("::")[-1]
    candidates = [o for o in options if o.definition.id == last]
    if group_id and len(candidates) > 1:
        narrowed = [o for o in candidates if o.entry_group_id == group_id
                    or (o.entry_group_id or "").split("::")[-1] == group_id.split("::")[-1]]
        candidates = narrowed or candidates
    if candidates:
        return candidates[0]
    segments = set(entry_id.split("::"))
    return next((o for o in options if o.link is not None and o.link.id in segments), None)


def _selection(element: Element, options: tuple[Option, ...], above: int,
               result: RosterFile, name: str, counter: list[int], depth: int
               ) -> Selection | None:
    if depth > MAX_NESTING:
        raise DataError(f"{name}: selections nested more than {MAX_NESTING} deep")
    counter[0] += 1
    if counter[0] > MAX_SELECTIONS:
        raise DataError(f"{name}: more than {MAX_SELECTIONS} selections")
    entry_id = element.get("entryId", "")
    label = element.get("name") or entry_id
    option = resolve_option(options, entry_id, element.get("entryGroupId"))
    if option is None:
        result.problems.append(f"selection {quoted(label, 60)}: entry {quoted(entry_id, 80)} "
                               "is not in the data; left out with what it holds")
        return None
    number = _number(element, "number", name, "1")
    if number != number.to_integral_value() or number < 0:
        raise DataError(f"{name}: the number of {quoted(label, 60)} is {number}; a count "
                        "is a whole number, not negative")
    if number > MAX_SELECTIONS:  # 1e100000 is a whole number too
        raise DataError(f"{name}: the number of {quoted(label, 60)} is "
                        f"{quoted(element.get('number', ''), 40)}, more than "
                        f"{MAX_SELECTIONS:,} of anything")
    amount, remainder = divmod(int(number), max(above, 1))
    if remainder:
        result.problems.append(f"selection {quoted(label, 60)}: {int(number)} is not a "
                               f"multiple of the {above} above it; read as {max(amount, 1)}")
    amount = max(amount, 1) if number else 0
    selection_id = element.get("id") or f"s{counter[0]}"
    result.file_costs.append(FileCosts(selection_id, label, tuple(
        (c.get("typeId", ""), _number(c, "value", name)) for c in elements_at(element, "costs",
                                                                           "cost"))))
    children = tuple(child for c in elements_at(element, "selections", "selection")
                     if (child := _selection(c, option.selectable, above * max(amount, 1),
                                             result, name, counter, depth + 1)))
    return Selection(id=selection_id, option=option, amount=amount, children=children,
                     custom_name=element.get("customName"),
                     custom_notes=element.get("customNotes"))


# -- writing -----------------------------------------------------------------------------
def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return str(int(value))
        return format(value.normalize(), "f")
    return str(value)


def _element(parent: Element | None, tag: str, **values: object) -> Element:
    """A child of `parent` (or a root) with the attributes that are not None, in order."""
    attributes = {key.replace("_", ""): _text(value) for key, value in values.items()
                  if value is not None}
    if parent is None:
        return Element(tag, attributes)
    return SubElement(parent, tag, attributes)


def roster_element(data: GameData, roster: Roster, evaluation: Evaluation | None = None,
                   state: RosterState | None = None, order: Sequence[str] = ()) -> Element:
    """The roster as BattleScribe's `.ros` document, an element tree: what `write_roster`
    writes, and what a roster import reads (so a roster built here becomes Rout units by
    the very reading that imports a file). `order`: root selection ids to write first, in
    that order (an army's own order of its units); the rest follow as the builders list
    them."""
    evaluation = evaluation or Evaluation(data, roster)
    state = state or roster_state(data, roster, evaluation)
    system = data.game_system
    root = _element(None, "roster", id=roster.id, name=roster.name,
                    battleScribeVersion="2.03", gameSystemId=system.id,
                    gameSystemName=system.name, gameSystemRevision=system.revision,
                    customNotes=roster.custom_notes, xmlns=NAMESPACE)
    costs = _element(root, "costs")
    for cost in state.costs:
        _element(costs, "cost", name=cost.name, typeId=cost.type_id, value=cost.value)
    if state.cost_limits:
        limits = _element(root, "costLimits")
        for cost in state.cost_limits:
            _element(limits, "costLimit", name=cost.name, typeId=cost.type_id,
                     value=cost.value)
    forces = _element(root, "forces")
    rank = {selection_id: index for index, selection_id in enumerate(order)}
    for force in state.forces:
        _force_element(data, force, forces, rank)
    return root


def write_roster(data: GameData, roster: Roster) -> bytes:
    """The roster as BattleScribe's `.ros` XML."""
    return roster_bytes(roster_element(data, roster))


def roster_bytes(root: Element) -> bytes:
    indent(root, "  ")
    text = tostring(root, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text + "\n"
            ).encode("utf-8")


def _force_element(data: GameData, force: ForceState, parent: Element,
                   rank: dict[str, int]) -> None:
    catalogue = data.catalogues.get(force.catalogue_id or "")
    element = _element(parent, "force", id=force.id, name=force.name, entryId=force.entry_id,
                       catalogueId=force.catalogue_id,
                       catalogueRevision=catalogue.revision if catalogue else None,
                       catalogueName=force.catalogue_name, customName=force.custom_name,
                       customNotes=force.custom_notes)
    if force.selections:
        selections = _element(element, "selections")
        ordered = sorted(enumerate(force.selections), key=lambda pair: (
            rank.get(pair[1].id, len(rank)), pair[0]))
        for _, selection in ordered:
            selection_element(selection, selections)
    categories = _element(element, "categories")
    for category in force.categories:
        _element(categories, "category", id=f"{force.id}-{category.id}", name=category.name,
                 entryId=category.id, primary=False, customName=category.custom_name,
                 customNotes=category.custom_notes)
    if force.forces:
        children = _element(element, "forces")
        for child in force.forces:
            _force_element(data, child, children, rank)


def selection_element(selection: SelectionState, parent: Element | None = None) -> Element:
    """One selection (and everything below it) as a roster file holds it."""
    element = _element(parent, "selection", id=selection.id, name=selection.name,
                       entryId=selection.entry_id, entryGroupId=selection.entry_group_id,
                       number=selection.number, type=selection.type,
                       customName=selection.custom_name, customNotes=selection.custom_notes,
                       group=selection.group)
    if selection.rules:
        rules = _element(element, "rules")
        for rule in selection.rules:
            item = _element(rules, "rule", id=rule.id, name=rule.name,
                            publicationId=rule.publication_id, page=rule.page, hidden=False)
            _element(item, "description").text = rule.description
    if selection.profiles:
        profiles = _element(element, "profiles")
        for profile in selection.profiles:
            item = _element(profiles, "profile", id=profile.id, name=profile.name,
                            publicationId=profile.publication_id, page=profile.page,
                            hidden=False, typeId=profile.type_id, typeName=profile.type_name)
            characteristics = _element(item, "characteristics")
            for value in profile.characteristics:
                _element(characteristics, "characteristic", name=value.name,
                         typeId=value.type_id).text = value.value
    if selection.children:
        children = _element(element, "selections")
        for child in selection.children:
            selection_element(child, children)
    if selection.costs:
        costs = _element(element, "costs")
        for cost in selection.costs:
            _element(costs, "cost", name=cost.name, typeId=cost.type_id, value=cost.value)
    if selection.categories:
        categories = _element(element, "categories")
        for category in selection.categories:
            _element(categories, "category", id=f"{selection.id}-{category.id}",
                     name=category.name, entryId=category.id, primary=category.primary)
    return element


__all__ = ["FileCosts", "RosterFile", "SNode", "load_roster", "read_roster", "resolve_option",
           "roster_bytes", "roster_element", "selection_element", "write_roster"]
