"""BattleScribe rosters (`.ros`, or `.rosz` zipped) read into, and written from, a Roster.

Reading links every selection to its option by the roster's entry-id paths (the composite
`link::entry` ids); costs are not taken from the file but worked out from the data, and
the file's own figures are kept beside the roster so that a caller can report where they
differ. Writing gives what BattleScribe writes: entry ids, numbers, costs, categories,
profiles and rules of every selection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape, quoteattr

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.evaluate import Evaluation, SNode
from desktop.engine.bsdata.gamedata import GameData, Option
from desktop.engine.bsdata.reader import parse_xml, root_kind, unpack
from desktop.engine.bsdata.roster import CategoryNote, Force, Roster, Selection
from desktop.engine.bsdata.state import ForceState, SelectionState, roster_state
from desktop.engine.errors import quoted

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
MAX_SELECTIONS = 100_000
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


def _local(element: Element) -> str:
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _children(element: Element, *path: str) -> list[Element]:
    found = [element]
    for name in path:
        found = [child for parent in found for child in parent if _local(child) == name]
    return found


def _number(element: Element, attribute: str, name: str, default: str = "0") -> Decimal:
    text = element.get(attribute, default)
    try:
        value = Decimal(text)
    except ArithmeticError:
        raise DataError(f"{name}: <{_local(element)}> {attribute} {quoted(text, 40)} is not "
                        "a number") from None
    if not value.is_finite():
        raise DataError(f"{name}: <{_local(element)}> {attribute} {quoted(text, 40)} is not "
                        "a usable number")
    return value


def load_roster(data: GameData, content: bytes, name: str) -> RosterFile:
    """A roster file read against `data`, with what could not be linked to it."""
    root = parse_xml(unpack(content, name, (".ros",)), name)
    root_kind(root, name, ("roster",))
    game_system_id = root.get("gameSystemId", "")
    result = RosterFile(Roster(id=root.get("id") or "roster",
                               name=root.get("name") or "Roster"), game_system_id)
    if game_system_id and game_system_id != data.game_system.id:
        raise DataError(f"{name}: the roster is for game system {quoted(game_system_id, 40)}"
                        f" ({quoted(root.get('gameSystemName', ''), 60)}), not "
                        f"{quoted(data.game_system.name, 60)}")
    for cost in _children(root, "costs", "cost"):
        result.roster_costs[cost.get("typeId", "")] = _number(cost, "value", name)
    limits = tuple((limit.get("typeId", ""), _number(limit, "value", name))
                   for limit in _children(root, "costLimits", "costLimit"))
    counter = [0]
    forces = tuple(_force(data, element, result, name, counter, 0)
                   for element in _children(root, "forces", "force"))
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
    for child in _children(element, "selections", "selection"):
        selection = _selection(child, context.root_selectable, 1, result, name, counter, 0)
        if selection is not None:
            selections.append(selection)
    notes = tuple(CategoryNote(c.get("entryId", ""), c.get("customName"),
                               c.get("customNotes"))
                  for c in _children(element, "categories", "category")
                  if c.get("customName") or c.get("customNotes"))
    counter[0] += 1
    return Force(
        id=element.get("id") or f"f{counter[0]}", entry=force_entry, catalogue_id=catalogue_id,
        selections=tuple(selections),
        forces=tuple(f for c in _children(element, "forces", "force")
                     if (f := _force(data, c, result, name, counter, depth + 1))),
        custom_name=element.get("customName"), custom_notes=element.get("customNotes"),
        category_notes=notes)


def _resolve(options: tuple[Option, ...], entry_id: str, group_id: str | None
             ) -> Option | None:
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
    option = _resolve(options, entry_id, element.get("entryGroupId"))
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
        (c.get("typeId", ""), _number(c, "value", name)) for c in _children(element, "costs",
                                                                           "cost"))))
    children = tuple(child for c in _children(element, "selections", "selection")
                     if (child := _selection(c, option.selectable, above * max(amount, 1),
                                             result, name, counter, depth + 1)))
    return Selection(id=selection_id, option=option, amount=amount, children=children,
                     custom_name=element.get("customName"),
                     custom_notes=element.get("customNotes"))


# -- writing -----------------------------------------------------------------------------
def _attributes(**values: object) -> str:
    return "".join(f" {key.replace('_', '')}={quoteattr(_text(value))}"
                   for key, value in values.items() if value is not None)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return str(int(value))
        return format(value.normalize(), "f")
    return str(value)


def write_roster(data: GameData, roster: Roster) -> bytes:
    """The roster as BattleScribe's `.ros` XML."""
    evaluation = Evaluation(data, roster)
    state = roster_state(data, roster, evaluation)
    system = data.game_system
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
    lines.append(f"<roster{_attributes(id=roster.id, name=roster.name)} "
                 f'battleScribeVersion="2.03"'
                 f"{_attributes(gameSystemId=system.id, gameSystemName=system.name)}"
                 f"{_attributes(gameSystemRevision=system.revision)}"
                 f"{_attributes(customNotes=roster.custom_notes)}"
                 f' xmlns="{NAMESPACE}">')
    lines.append("  <costs>")
    lines.extend(f"    <cost{_attributes(name=c.name, typeId=c.type_id, value=c.value)}/>"
                 for c in state.costs)
    lines.append("  </costs>")
    if state.cost_limits:
        lines.append("  <costLimits>")
        lines.extend(f"    <costLimit{_attributes(name=c.name, typeId=c.type_id, value=c.value)}/>"
                     for c in state.cost_limits)
        lines.append("  </costLimits>")
    lines.append("  <forces>")
    for force in state.forces:
        _write_force(data, force, lines, "    ")
    lines.append("  </forces>")
    lines.append("</roster>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def _write_force(data: GameData, force: ForceState, lines: list[str], indent: str) -> None:
    catalogue = data.catalogues.get(force.catalogue_id or "")
    lines.append(f"{indent}<force{_attributes(id=force.id, name=force.name)}"
                 f"{_attributes(entryId=force.entry_id, catalogueId=force.catalogue_id)}"
                 f"{_attributes(catalogueRevision=catalogue.revision if catalogue else None)}"
                 f"{_attributes(catalogueName=force.catalogue_name)}"
                 f"{_attributes(customName=force.custom_name)}"
                 f"{_attributes(customNotes=force.custom_notes)}>")
    if force.selections:
        lines.append(f"{indent}  <selections>")
        for selection in force.selections:
            _write_selection(selection, lines, indent + "    ")
        lines.append(f"{indent}  </selections>")
    lines.append(f"{indent}  <categories>")
    for category in force.categories:
        lines.append(f"{indent}    <category{_attributes(id=f'{force.id}-{category.id}')}"
                     f"{_attributes(name=category.name, entryId=category.id, primary=False)}"
                     f"{_attributes(customName=category.custom_name)}"
                     f"{_attributes(customNotes=category.custom_notes)}/>")
    lines.append(f"{indent}  </categories>")
    if force.forces:
        lines.append(f"{indent}  <forces>")
        for child in force.forces:
            _write_force(data, child, lines, indent + "    ")
        lines.append(f"{indent}  </forces>")
    lines.append(f"{indent}</force>")


def _write_selection(selection: SelectionState, lines: list[str], indent: str) -> None:
    lines.append(f"{indent}<selection{_attributes(id=selection.id, name=selection.name)}"
                 f"{_attributes(entryId=selection.entry_id)}"
                 f"{_attributes(entryGroupId=selection.entry_group_id)}"
                 f"{_attributes(number=selection.number, type=selection.type)}"
                 f"{_attributes(customName=selection.custom_name)}"
                 f"{_attributes(customNotes=selection.custom_notes)}>")
    if selection.rules:
        lines.append(f"{indent}  <rules>")
        for rule in selection.rules:
            lines.append(f"{indent}    <rule{_attributes(id=rule.id, name=rule.name)}"
                         f"{_attributes(publicationId=rule.publication_id, page=rule.page)}"
                         ' hidden="false">')
            lines.append(f"{indent}      <description>{escape(rule.description)}"
                         "</description>")
            lines.append(f"{indent}    </rule>")
        lines.append(f"{indent}  </rules>")
    if selection.profiles:
        lines.append(f"{indent}  <profiles>")
        for profile in selection.profiles:
            lines.append(f"{indent}    <profile{_attributes(id=profile.id, name=profile.name)}"
                         f"{_attributes(publicationId=profile.publication_id)}"
                         f"{_attributes(page=profile.page)} hidden=\"false\""
                         f"{_attributes(typeId=profile.type_id, typeName=profile.type_name)}>")
            lines.append(f"{indent}      <characteristics>")
            for value in profile.characteristics:
                lines.append(f"{indent}        <characteristic"
                             f"{_attributes(name=value.name, typeId=value.type_id)}>"
                             f"{escape(value.value)}</characteristic>")
            lines.append(f"{indent}      </characteristics>")
            lines.append(f"{indent}    </profile>")
        lines.append(f"{indent}  </profiles>")
    if selection.children:
        lines.append(f"{indent}  <selections>")
        for child in selection.children:
            _write_selection(child, lines, indent + "    ")
        lines.append(f"{indent}  </selections>")
    if selection.costs:
        lines.append(f"{indent}  <costs>")
        lines.extend(f"{indent}    <cost{_attributes(name=c.name, typeId=c.type_id)}"
                     f"{_attributes(value=c.value)}/>" for c in selection.costs)
        lines.append(f"{indent}  </costs>")
    if selection.categories:
        lines.append(f"{indent}  <categories>")
        for category in selection.categories:
            lines.append(f"{indent}    <category{_attributes(id=f'{selection.id}-{category.id}')}"
                         f"{_attributes(name=category.name, entryId=category.id)}"
                         f"{_attributes(primary=category.primary)}/>")
        lines.append(f"{indent}  </categories>")
    lines.append(f"{indent}</selection>")


__all__ = ["FileCosts", "RosterFile", "SNode", "load_roster", "read_roster", "write_roster"]
