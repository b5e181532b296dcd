"""A roster as a player sees it: one evaluated, plain snapshot of everything.

Forces are listed by name (child forces in the order their entries are defined), a force's
selections by category (its entry's categories in order, uncategorised first) and then by
name, a selection's children by name, as the roster builders print them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from desktop.engine.bsdata.evaluate import (
    NO_CATEGORY,
    CategoryView,
    CostValue,
    Evaluation,
    FNode,
    ProfileView,
    RuleView,
    SNode,
    ValidationError,
)
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.roster import Roster

UNSORTED = 10_000


@dataclass(frozen=True)
class SelectionState:
    id: str
    entry_id: str
    entry_group_id: str | None
    name: str
    type: str
    number: int
    hidden: bool
    costs: tuple[CostValue, ...]
    categories: tuple[CategoryView, ...]
    profiles: tuple[ProfileView, ...]
    rules: tuple[RuleView, ...]
    page: str | None
    publication_id: str | None
    publication_name: str | None
    custom_name: str | None
    custom_notes: str | None
    children: tuple[SelectionState, ...]
    # The groups it was chosen from, outer first ("Magic Items::Magic Weapons"), as New
    # Recruit writes them: what tells a magic sword from a plain one in a roster file.
    group: str | None = None


@dataclass(frozen=True)
class CategoryState:
    id: str
    name: str
    primary: bool
    custom_name: str | None
    custom_notes: str | None


@dataclass(frozen=True)
class PublicationState:
    id: str
    name: str


@dataclass(frozen=True)
class ForceState:
    id: str
    entry_id: str
    name: str
    hidden: bool
    catalogue_id: str | None
    catalogue_name: str | None
    publication_id: str | None
    page: str | None
    custom_name: str | None
    custom_notes: str | None
    profiles: tuple[ProfileView, ...]
    rules: tuple[RuleView, ...]
    categories: tuple[CategoryState, ...]
    publications: tuple[PublicationState, ...]
    available_entry_count: int
    selections: tuple[SelectionState, ...]
    forces: tuple[ForceState, ...]
    costs: tuple[CostValue, ...]


@dataclass(frozen=True)
class RosterState:
    id: str
    name: str
    game_system_id: str
    game_system_name: str
    costs: tuple[CostValue, ...]
    cost_limits: tuple[CostValue, ...]
    forces: tuple[ForceState, ...]
    errors: tuple[ValidationError, ...]


def roster_state(data: GameData, roster: Roster, evaluation: Evaluation | None = None
                 ) -> RosterState:
    evaluation = evaluation or Evaluation(data, roster)
    totals = evaluation.totals()
    costs = tuple(CostValue(t.id, t.name, totals.get(t.id, Decimal(0)), t.hidden)
                  for t in evaluation.shown_cost_types)
    limits = []
    for cost_type in evaluation.cost_types:
        limit = evaluation.cost_limit(cost_type.id)
        if limit is not None and limit >= 0:
            limits.append(CostValue(cost_type.id, cost_type.name, limit, cost_type.hidden))
    forces = sorted(evaluation.forces, key=lambda f: evaluation.force_name(f).casefold())
    return RosterState(
        id=roster.id, name=roster.name, game_system_id=data.game_system.id,
        game_system_name=data.game_system.name, costs=costs, cost_limits=tuple(limits),
        forces=tuple(_force(evaluation, f) for f in forces),
        errors=tuple(evaluation.errors()))


def _force(evaluation: Evaluation, node: FNode) -> ForceState:
    force = node.force
    context = node.context
    notes = {n.category_id: n for n in force.category_notes}
    categories = evaluation.force_categories(node)
    states = tuple(CategoryState(cid, name, False,
                                 notes[cid].custom_name if cid in notes else None,
                                 notes[cid].custom_notes if cid in notes else None)
                   for cid, name in categories)
    order = {cid: index for index, (cid, _) in enumerate(categories)}
    known = set(order)
    roots = sorted(node.roots, key=lambda n: (
        order.get(evaluation.root_category(n, known), 0), _sort_key(evaluation, n)))
    entry_order = {id(e): i for i, e in enumerate(node.entry.force_entries)}
    children = sorted(node.children, key=lambda f: entry_order.get(id(f.entry), UNSORTED))
    profiles, rules = evaluation.force_profiles_and_rules(node)
    publications: list[PublicationState] = []
    for data in context.files:
        publications.extend(PublicationState(p.id, p.name) for p in data.publications)
    catalogue = context.catalogue
    # The entries a force offers at its root, visible here; a group's entries are listed
    # apart (BattleScribe counts none of them).
    available = sum(1 for option in context.root_options if not option.is_group
                    and not evaluation.hidden(evaluation.virtual(option, node)))
    totals = evaluation.force_totals(node)
    return ForceState(
        id=force.id, entry_id=force.entry.id, name=evaluation.force_name(node),
        hidden=evaluation.force_hidden(node),
        catalogue_id=force.catalogue_id,
        catalogue_name=catalogue.name if catalogue is not None else None,
        publication_id=force.entry.publication_id, page=force.entry.page,
        custom_name=force.custom_name, custom_notes=force.custom_notes,
        profiles=tuple(profiles), rules=tuple(rules), categories=states,
        publications=tuple(publications),
        available_entry_count=available,
        selections=tuple(_selection(evaluation, n) for n in roots),
        forces=tuple(_force(evaluation, f) for f in children),
        costs=tuple(CostValue(t.id, t.name, totals.get(t.id, Decimal(0)), t.hidden)
                    for t in evaluation.shown_cost_types))


def _sort_key(evaluation: Evaluation, node: SNode) -> tuple[int, str]:
    index = node.option.definition.sort_index
    if index is None and node.option.link is not None:
        index = node.option.link.sort_index
    return (UNSORTED if index is None else index,
            evaluation.name(evaluation.place_of(node)).casefold())


def _selection(evaluation: Evaluation, node: SNode) -> SelectionState:
    place = evaluation.place_of(node)
    option = node.option
    context = node.force.context
    known = {t.id: t for t in evaluation.cost_types}
    costs = evaluation.cost_of(node)
    base = evaluation.base_costs(option)
    cost_values = tuple(CostValue(t.id, t.name, costs.get(t.id, Decimal(0)), t.hidden)
                        for t in evaluation.cost_types if t.id in base and t.id in known)
    categories = evaluation.categories(node)
    category_views = []
    for category_id, primary in categories.items():
        category = context.category(category_id)
        category_views.append(CategoryView(category_id, category.name if category else
                                           category_id, primary))
    category_views.sort(key=lambda c: c.name.casefold())
    profiles, rules = evaluation.profiles_and_rules(place)
    publication_id = option.definition.publication_id or (
        option.link.publication_id if option.link is not None else None)
    page = option.definition.page or (option.link.page if option.link is not None else None)
    publication = context.publication(publication_id)
    children = sorted(node.children, key=lambda n: _sort_key(evaluation, n))
    groups = [evaluation.name(evaluation.virtual(group, node.container))
              for group in reversed(option.groups)]
    return SelectionState(
        id=node.selection.id, entry_id=option.entry_id, entry_group_id=option.entry_group_id,
        name=evaluation.name(place), type=option.type, number=node.number,
        hidden=evaluation.hidden(place), costs=cost_values,
        categories=tuple(category_views), profiles=tuple(profiles), rules=tuple(rules),
        page=page, publication_id=publication_id,
        publication_name=publication.name if publication is not None else None,
        custom_name=node.selection.custom_name, custom_notes=node.selection.custom_notes,
        children=tuple(_selection(evaluation, n) for n in children),
        group="::".join(groups) if groups else None)


__all__ = ["NO_CATEGORY", "CategoryState", "ForceState", "RosterState", "SelectionState",
           "roster_state"]
