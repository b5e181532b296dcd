"""The units a catalogue offers, as a player reads an army book: slot, points, sizes,
profile and options with their costs and allowances.

Worked out by the engine itself: each unit is selected into a force of the catalogue, with
what it must hold (its smallest legal form), and evaluated; options are read at the unit's
place. So link costs, per-model repeats and modifiers count as they do in a roster.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.evaluate import Evaluation, FNode, SNode, apply_number
from desktop.engine.bsdata.gamedata import Context, GameData, Option
from desktop.engine.bsdata.model import CostType, ForceEntry
from desktop.engine.bsdata.roster import Roster

UNIT_TYPES = ("unit", "model")
# How deep `rout data units` looks into entries inside entries for options (deeper ones
# are not listed); not gamedata.MAX_OPTION_DEPTH, the bound on following links.
MAX_LISTED_DEPTH = 6


@dataclass(frozen=True)
class OptionSummary:
    id: str
    name: str
    points: float
    per_model: bool
    group: str
    group_points_limit: float | None


@dataclass(frozen=True)
class UnitSummary:
    id: str
    name: str
    slot: str
    points_per_model: float | None
    base_points: float
    min_models: int
    max_models: int | None
    max_per_army: int | None
    profile: dict[str, str]
    options: tuple[OptionSummary, ...]


def _number(value: Decimal) -> float:
    return float(value)


def points_type(types: tuple[CostType, ...]) -> CostType | None:
    """The cost type of points: the one named pts or points, else the first."""
    for cost_type in types:
        if cost_type.name.strip().lower() in ("pts", "points", "pt", "point"):
            return cost_type
    return types[0] if types else None


def _force_entry(context: Context) -> ForceEntry | None:
    for data in context.files:
        if data.force_entries:
            return data.force_entries[0]
    return None


def catalogue_units(data: GameData, catalogue_id: str) -> list[UnitSummary]:
    context = data.context(catalogue_id)
    entry = _force_entry(context)
    if entry is None:
        return []
    base, force_id = actions.add_force(data, actions.new_roster("units"), entry.id,
                                       catalogue_id)
    pts = points_type(context.cost_types)
    evaluation = Evaluation(data, base)
    force = evaluation.by_force_id[force_id]
    slots = _slot_categories(context)
    found: list[UnitSummary] = []
    seen: set[str] = set()
    for option in context.root_selectable:
        if option.type not in UNIT_TYPES or option.entry_id in seen:
            continue
        seen.add(option.entry_id)
        if evaluation.hidden(evaluation.virtual(option, force)):
            continue
        found.append(_unit(data, base, force_id, option, pts, slots))
    return found


def _slot_categories(context: Context) -> set[str]:
    """The slots (Lord, Core...): categories that are some root unit's primary one and
    carry a limit (on the category or on a force's link to it). Not the ones across slots
    (Characters is nobody's primary) or beside them (Special Characters limits nothing)."""
    limited = {c.id for data in context.files for c in data.category_entries if c.constraints}
    for data in context.files:
        stack = list(data.force_entries)
        while stack:
            force = stack.pop()
            limited.update(link.target_id for link in force.category_links if link.constraints)
            stack.extend(force.force_entries)
    slots: set[str] = set()
    for option in context.root_selectable:
        for link in (*option.definition.category_links,
                     *(option.link.category_links if option.link else ())):
            if link.primary and option.type in UNIT_TYPES and link.target_id in limited:
                slots.add(link.target_id)
    return slots


def _unit(data: GameData, base: Roster, force_id: str, option: Option,
          pts: CostType | None, slots: set[str]) -> UnitSummary:
    roster, selection_id = actions.select_entry(data, base, force_id, option.entry_id)
    evaluation = Evaluation(data, roster)
    node = evaluation.by_selection_id[selection_id]
    place = evaluation.place_of(node)
    pts_id = pts.id if pts is not None else ""
    base_points = sum((evaluation.cost_of(n).get(pts_id, Decimal(0))
                       for n in evaluation.below([node], True)), Decimal(0))
    model = model_option(option)
    per_model: float | None = None
    low, high = 1, 1
    own_cost = evaluation.unit_costs(place).get(pts_id, Decimal(0))
    if model is not None:
        model_place = evaluation.virtual(model, node)
        model_cost = evaluation.unit_costs(model_place).get(pts_id, Decimal(0))
        # Free crew with a priced war machine: the points are the machine's, not per model.
        per_model = None if model_cost == 0 and own_cost > 0 else _number(model_cost)
        low, high_or_none = unit_sizes(evaluation, model, node)
        high = high_or_none if high_or_none is not None else -1
    categories = evaluation.categories(node)
    slot = _slot(evaluation, node, categories, slots)
    return UnitSummary(
        id=option.entry_id, name=evaluation.name(place), slot=slot,
        points_per_model=per_model, base_points=_number(base_points),
        min_models=low, max_models=None if high < 0 else high,
        max_per_army=_max_per_army(evaluation, option, node.force),
        profile=_profile(evaluation, node, model),
        options=tuple(_options(evaluation, node, option.children, pts_id, (), None, 0,
                               model)))


def model_option(option: Option) -> Option | None:
    """The entry a unit is made of: its model child, else a priced child that is bought
    several times (Kislev's Horse Archers are typed upgrade) or a priced unit inside the
    unit, more than one allowed (the Fenbeasts' Fenbeast, one to three)."""
    children = option.selectable
    models = [c for c in children if c.type == "model"]
    if models:
        return models[0]
    for child in children:
        limits = [c for c in child.definition.constraints if c.query.field == "selections"]
        least = max((c.value for c in limits if c.kind == "min"), default=Decimal(0))
        most = max((c.value for c in limits if c.kind == "max" and c.query.scope == "parent"),
                   default=Decimal(0))
        if child.definition.costs and (least >= 2 or (child.type == "unit" and most >= 2)):
            return child
    return None


def unit_sizes(evaluation: Evaluation, model: Option, node: SNode) -> tuple[int, int | None]:
    """The smallest and largest number of models (None: no limit): the model's own limits,
    else those of the group it sits in (Slayers)."""
    for holder in (model, *model.groups):
        place = evaluation.virtual(holder, node)
        modifiers = evaluation.option_modifiers(holder)
        constraints = holder.constraints
        mins, maxes = [], []
        for constraint in constraints:
            if constraint.query.field != "selections" or constraint.query.scope != "parent":
                continue
            value = evaluation.constraint_value(constraint, modifiers, place)
            if constraint.kind in ("min", "exactly"):
                mins.append(value)
            if constraint.kind in ("max", "exactly") and value >= 0:
                maxes.append(value)
        if mins or maxes:
            low = int(max(mins)) if mins else 1
            return max(low, 1), int(min(maxes)) if maxes else None
    return 1, None


def _slot(evaluation: Evaluation, node: SNode, categories: dict[str, bool],
          slots: set[str]) -> str:
    context = node.force.context
    primary = next((k for k, v in categories.items() if v), None)
    chosen = primary
    if primary not in slots:
        chosen = next((k for k in categories if k in slots), primary)
    if chosen is None:
        return ""
    category = context.category(chosen)
    return category.name if category is not None else chosen


def _max_per_army(evaluation: Evaluation, option: Option, force: FNode) -> int | None:
    place = evaluation.virtual(option, force)
    modifiers = evaluation.option_modifiers(option)
    limits = []
    for constraint in option.constraints:
        if constraint.kind == "max" and constraint.query.scope in ("roster", "force") \
                and constraint.query.field == "selections":
            value = evaluation.constraint_value(constraint, modifiers, place)
            if value >= 0:
                limits.append(int(value))
    return min(limits) if limits else None


def _profile(evaluation: Evaluation, node: SNode, model: Option | None) -> dict[str, str]:
    profiles = list(evaluation.profiles_and_rules(evaluation.place_of(node))[0])
    wanted = [evaluation.name(evaluation.place_of(node))]
    if model is not None:
        model_profiles = evaluation.profiles_and_rules(evaluation.virtual(model, node))[0]
        profiles = list(model_profiles) + profiles
        wanted.insert(0, model.name)
    if not profiles:
        return {}
    chosen = next((p for name in wanted for p in profiles if p.name == name), None)
    if chosen is None:
        chosen = max(profiles, key=lambda p: len(p.characteristics))
    return {c.name: c.value.strip() for c in chosen.characteristics}


def _group_limit(evaluation: Evaluation, group: Option, node: SNode, pts_id: str
                 ) -> float | None:
    """The points cap a group, or a container entry, puts on what it holds."""
    place = evaluation.virtual(group, node)
    modifiers = evaluation.option_modifiers(group)
    limits = [evaluation.constraint_value(c, modifiers, place)
              for c in group.constraints
              if c.kind == "max" and c.query.field == pts_id]
    limits = [v for v in limits if v >= 0]
    return _number(min(limits)) if limits else None


def per_model_increment(evaluation: Evaluation, option: Option, pts_id: str
                         ) -> Decimal | None:
    """The points per model of an option priced by the number of models: a cost increment
    repeated per so many models of the unit (Peasant Bowmen's stakes: 0 pts, +1 per model;
    +1 per 2 models is half a point per model)."""
    for modifier, _ in evaluation.option_modifiers(option).for_field(pts_id):
        if modifier.kind != "increment" or modifier.conditions or modifier.condition_groups:
            continue
        for repeat in modifier.repeats:
            child = repeat.query.child_id or ""
            if repeat.query.scope in ("parent", "unit", "model-or-unit") and (
                    child == "model" or child not in ("", "any", "upgrade", "unit")) \
                    and repeat.value > 0:
                step = apply_number("increment", Decimal(0), modifier.value, 1)
                return step * repeat.repeats / repeat.value
    return None


def _options(evaluation: Evaluation, node: SNode, children: tuple[Option, ...], pts_id: str,
             path: tuple[str, ...], limit: float | None, depth: int, model: Option | None
             ) -> list[OptionSummary]:
    found: list[OptionSummary] = []
    if depth > MAX_LISTED_DEPTH:
        return found
    for child in children:
        place = evaluation.virtual(child, node)
        if evaluation.own_hidden(child, place):
            continue
        name = evaluation.name(place)
        if child.is_group:
            own = _group_limit(evaluation, child, node, pts_id)
            found.extend(_options(evaluation, node, child.children, pts_id, (*path, name),
                                  own if own is not None else limit, depth, model))
            continue
        if model is not None and child is model:
            if child.type == "unit":  # a unit inside the unit holds the unit's options
                found.extend(_options(evaluation, node, child.children, pts_id, path, limit,
                                      depth + 1, None))
            continue
        increment = per_model_increment(evaluation, child, pts_id)
        points = (increment if increment is not None
                  else evaluation.unit_costs(place).get(pts_id, Decimal(0)))
        found.append(OptionSummary(child.entry_id, name, _number(points),
                                   increment is not None, " > ".join(path), limit))
        # A container entry (a Grey Seer's Magic Selection) may cap the points of what it
        # holds, as a group does.
        own = _group_limit(evaluation, child, node, pts_id)
        found.extend(_options(evaluation, node, child.children, pts_id, (*path, name),
                              own if own is not None else limit, depth + 1, None))
    return found
