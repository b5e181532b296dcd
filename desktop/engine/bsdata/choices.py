"""What a player may choose, and what it costs, before choosing it: the answers a roster
builder's panes show (Rout's Add Units and options panes read them and decide nothing).

- `unit_choices`: a selection's option tree as its catalogue defines it (groups with their
  points caps, entries with the price of one *before* it is ticked, "+1 per model" for an
  option priced per model), how many are chosen, the bounds of each, whether a group
  takes one (radio behaviour), and why a choice cannot be added now (a limit it would
  break) or taken away (a minimum). The unit's models are apart: a count with its bounds.
- `unit_offers`: the root entries of a force with the reason one cannot be added now (an
  army-wide "0-1" already taken, a slot full).
- `choose`, `unchoose`, `set_amount`: the edits those panes make, as pure roster actions
  (a choice in a group that takes one replaces the other).

A "why not" is worked out from the limits in force where the choice would go: each max
constraint of the entry and of the groups it sits in, and for a unit the force's limits on
its categories, counting what is there and adding what the choice would bring. The roster
is never changed to find out, so a pane of fifty choices costs one evaluation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.errors import RosterActionError
from desktop.engine.bsdata.evaluate import (
    Evaluation,
    FNode,
    SNode,
    ValidationError,
    _Modifiers,
    is_named,
)
from desktop.engine.bsdata.gamedata import GameData, Option
from desktop.engine.bsdata.model import CategoryEntry, CategoryLink, Constraint, CostType
from desktop.engine.bsdata.roster import Roster, find_selection
from desktop.engine.bsdata.units import (
    model_option,
    per_model_increment,
    points_type,
    unit_sizes,
)
from desktop.engine.errors import quoted

ZERO = Decimal(0)
MAX_DEPTH = 6


def _shown(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value.normalize())


@dataclass(frozen=True)
class Choice:
    """One entry or group at one place of a unit, as a player reads it in the army book."""

    entry_id: str
    name: str
    is_group: bool
    depth: int
    container_id: str  # the selection the choice goes under
    points: Decimal = ZERO  # of one, at this place, its modifiers applied
    per_model: bool = False  # `points` for each model of the unit
    other_costs: tuple[tuple[str, Decimal], ...] = ()  # Casting Dice and the like
    count: int = 0  # chosen at this place
    selection_ids: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int | None = None  # None: no limit
    exclusive: bool = False  # in a group that takes one: choosing it replaces the other
    blocked: str = ""  # why one more cannot be chosen now ("" when it can)
    required: str = ""  # why it cannot be taken away ("" when it can)
    points_limit: Decimal | None = None  # a group's cap (magic items up to 50)
    points_used: Decimal = ZERO  # a group's: what its choices cost now
    children: tuple[Choice, ...] = ()

    @property
    def price_text(self) -> str:
        """The price beside the choice: "+8", "+1 per model", "free"."""
        parts = []
        if self.points:
            parts.append(f"+{_shown(self.points)}" + (" per model" if self.per_model else ""))
        parts.extend(f"+{_shown(value)} {name}" for name, value in self.other_costs if value)
        return ", ".join(parts) if parts else ("" if self.is_group else "free")


@dataclass(frozen=True)
class ModelCount:
    """How many models a unit has, and how many it may have."""

    entry_id: str
    name: str
    selection_id: str  # "" when none is chosen yet
    count: int
    minimum: int
    maximum: int | None
    points_each: Decimal

    @property
    def within_size(self) -> bool:
        """Whether the count keeps the unit's size (the roster may hold one outside it: the
        validation names it)."""
        return self.minimum <= self.count and (self.maximum is None or
                                               self.count <= self.maximum)


@dataclass(frozen=True)
class UnitChoices:
    selection_id: str
    name: str
    points: Decimal  # the unit's, everything in it
    models: ModelCount | None
    choices: tuple[Choice, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class UnitOffer:
    """A root entry of a force: whether one more can be added now, and why not."""

    entry_id: str
    name: str
    blocked: str = ""


def _points_id(evaluation: Evaluation) -> str:
    found: CostType | None = points_type(evaluation.cost_types)
    return found.id if found is not None else ""


def _constraints(option: Option) -> tuple[Constraint, ...]:
    return option.definition.constraints + (option.link.constraints
                                            if option.link is not None else ())


def _parent_bounds(evaluation: Evaluation, option: Option, container: SNode | FNode
                   ) -> tuple[int, int | None]:
    place = evaluation.virtual(option, container)
    modifiers = evaluation.option_modifiers(option)
    low, high = 0, None
    for constraint in _constraints(option):
        query = constraint.query
        if query.field != "selections" or query.scope != "parent" or query.percent_value:
            continue
        value = evaluation.constraint_value(constraint, modifiers, place)
        if constraint.kind in ("min", "exactly"):
            low = max(low, int(value))
        if constraint.kind in ("max", "exactly") and value >= 0:
            high = int(value) if high is None else min(high, int(value))
    return low, high


def _holder_name(evaluation: Evaluation, holder: Option, container: SNode | FNode) -> str:
    return evaluation.name(evaluation.virtual(holder, container)).strip()


def _where(evaluation: Evaluation, scope: str, container: SNode | FNode) -> str:
    if scope == "roster":
        return "in the army"
    if scope in ("force", "primary-catalogue"):
        force = container if isinstance(container, FNode) else container.force
        return f"in {evaluation.force_name(force)}"
    if isinstance(container, SNode):
        shown = container.selection.custom_name or evaluation.name(
            evaluation.place_of(container))
        return f"in {shown}"
    return "here"


def blocked(evaluation: Evaluation, option: Option, container: SNode | FNode,
            adding: dict[str, Decimal] | None = None, replaces: Option | None = None) -> str:
    """Why one more of `option` cannot be chosen in `container` now ("" when it can): the
    first max limit, of the entry or a group it sits in, that one more would break.
    `adding`: what one more brings by cost type (default: the entry's own costs there).
    `replaces`: a group that takes one, whose other choice `choose` takes away first: the
    swap keeps the count of choices of that group and of the groups around it, so those
    grey nothing."""
    place = evaluation.virtual(option, container)
    brings = adding if adding is not None else evaluation.unit_costs(place)
    kept_by_swap: set[int] = set()
    freed: dict[str, Decimal] = {}  # what the choice swapped out costs, by cost type
    if replaces is not None and replaces in option.groups and isinstance(container, SNode):
        members = {id(member) for member in replaces.selectable}
        swapped = [node for node in container.children
                   if id(node.option) in members and node.option is not option]
        if swapped:
            outward = option.groups[option.groups.index(replaces):]
            kept_by_swap = {id(group) for group in outward}
        for node in swapped:
            for cost, value in evaluation.unit_costs(
                    evaluation.virtual(node.option, container)).items():
                freed[cost] = freed.get(cost, ZERO) + value * node.selection.amount
    for holder in (option, *option.groups):
        holder_place = evaluation.virtual(holder, container)
        modifiers = evaluation.option_modifiers(holder)
        for constraint in _constraints(holder):
            if constraint.kind not in ("max", "exactly") or constraint.query.percent_value:
                continue
            limit = evaluation.constraint_value(constraint, modifiers, holder_place)
            if limit < 0:
                continue
            query = constraint.query
            if query.field == "selections" and id(holder) in kept_by_swap:
                continue
            if query.field == "selections":
                more = Decimal(1)
            else:
                more = brings.get(query.field, ZERO)
                if id(holder) in kept_by_swap:
                    more -= freed.get(query.field, ZERO)
                if more <= 0:
                    continue
            count = evaluation.query_value(query, holder_place, holder, constraint=True)
            if count is None or count + more <= limit:
                continue
            return _reason(evaluation, option, holder, container, query.field, query.scope,
                           limit, count, more)
    return ""


def _reason(evaluation: Evaluation, option: Option, holder: Option,
            container: SNode | FNode, field_name: str, scope: str, limit: Decimal,
            count: Decimal, more: Decimal) -> str:
    where = _where(evaluation, scope, container)
    if field_name == "selections":
        if limit == 0:
            return "the army book allows none here as the army stands"
        name = _holder_name(evaluation, holder, container)
        if holder is option:
            return f"at most {_shown(limit)} {where} ({_shown(count)} taken)"
        return f"{name}: at most {_shown(limit)} {where} ({_shown(count)} taken)"
    unit = next((c.name.strip() for c in evaluation.cost_types if c.id == field_name),
                field_name)
    name = _holder_name(evaluation, holder, container)
    return (f"{name}: at most {_shown(limit)} {unit} {where}; {_shown(count)} used, this "
            f"costs {_shown(more)}")


def _required(evaluation: Evaluation, option: Option, container: SNode | FNode,
              count: int) -> str:
    """Why one of `option` cannot be taken away (a minimum it would break), or ""."""
    if count <= 0:
        return ""
    for holder in (option, *option.groups):
        place = evaluation.virtual(holder, container)
        modifiers = evaluation.option_modifiers(holder)
        for constraint in _constraints(holder):
            query = constraint.query
            if constraint.kind not in ("min", "exactly") or query.field != "selections" \
                    or query.scope != "parent" or query.percent_value:
                continue
            least = evaluation.constraint_value(constraint, modifiers, place)
            held = evaluation.query_value(query, place, holder, constraint=True) or ZERO
            if least > 0 and held - 1 < least:
                if holder is option:
                    return f"the army book asks for at least {_shown(least)}"
                name = _holder_name(evaluation, holder, container)
                return f"{name}: the army book asks for at least {_shown(least)}"
    return ""


def _group_cap(evaluation: Evaluation, group: Option, container: SNode | FNode,
               pts_id: str) -> tuple[Decimal | None, Decimal]:
    place = evaluation.virtual(group, container)
    modifiers = evaluation.option_modifiers(group)
    caps = [evaluation.constraint_value(c, modifiers, place) for c in _constraints(group)
            if c.kind == "max" and c.query.field == pts_id and not c.query.percent_value]
    caps = [value for value in caps if value >= 0]
    if not caps:
        return None, ZERO
    query = next(c.query for c in _constraints(group) if c.query.field == pts_id)
    used = evaluation.query_value(query, place, group, constraint=True) or ZERO
    return min(caps), used


def _exclusive(evaluation: Evaluation, group: Option, container: SNode | FNode) -> bool:
    _, high = _parent_bounds(evaluation, group, container)
    return high == 1


def _taking_one(evaluation: Evaluation, option: Option, container: SNode | FNode
                ) -> Option | None:
    """The group that takes one whose choice `option` would replace (as `choose` does)."""
    return next((g for g in option.groups if _exclusive(evaluation, g, container)), None)


def _choices(evaluation: Evaluation, options: Iterable[Option], container: SNode,
             depth: int, pts_id: str, skip: Option | None, exclusive: bool
             ) -> list[Choice]:
    found: list[Choice] = []
    if depth > MAX_DEPTH:
        return found
    held: dict[int, list[SNode]] = {}
    for child in container.children:
        held.setdefault(id(child.option), []).append(child)
    for option in options:
        if option is skip:
            continue
        place = evaluation.virtual(option, container)
        if evaluation.own_hidden(option, place):
            continue
        name = evaluation.name(place).strip()
        if option.is_group:
            cap, used = _group_cap(evaluation, option, container, pts_id)
            members = _choices(evaluation, option.children, container, depth + 1, pts_id,
                               skip, _exclusive(evaluation, option, container))
            if not members:
                continue
            low, high = _parent_bounds(evaluation, option, container)
            found.append(Choice(option.entry_id, name, True, depth, container.selection.id,
                                minimum=low, maximum=high, points_limit=cap,
                                points_used=used, children=tuple(members)))
            continue
        nodes = held.get(id(option), [])
        count = sum(node.selection.amount for node in nodes)
        costs = evaluation.unit_costs(place)
        increment = per_model_increment(evaluation, option, pts_id)
        points = increment if increment is not None else costs.get(pts_id, ZERO)
        others = tuple((c.name.strip(), costs.get(c.id, ZERO)) for c in evaluation.cost_types
                       if c.id != pts_id and costs.get(c.id, ZERO))
        low, high = _parent_bounds(evaluation, option, container)
        children: tuple[Choice, ...] = ()
        if len(nodes) == 1:
            children = tuple(_choices(evaluation, option.children, nodes[0], depth + 1,
                                      pts_id, None, False))
        found.append(Choice(
            option.entry_id, name, False, depth, container.selection.id, points=points,
            per_model=increment is not None, other_costs=others, count=count,
            selection_ids=tuple(node.selection.id for node in nodes), minimum=low,
            maximum=high, exclusive=exclusive,
            blocked=blocked(evaluation, option, container,
                            replaces=_taking_one(evaluation, option, container) if exclusive
                            and not count else None),
            required=_required(evaluation, option, container, count), children=children))
    return found


def unit_choices(data: GameData, roster: Roster, selection_id: str,
                 evaluation: Evaluation | None = None) -> UnitChoices:
    """The options of one selection (a unit), as the panes show them."""
    evaluation = evaluation or Evaluation(data, roster)
    node = evaluation.by_selection_id.get(selection_id)
    if node is None:
        raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
    pts_id = _points_id(evaluation)
    model = model_option(node.option)
    models: ModelCount | None = None
    if model is not None:
        chosen = [child for child in node.children if child.option is model]
        low, high = unit_sizes(evaluation, model, node)
        place = evaluation.virtual(model, node)
        models = ModelCount(model.entry_id, evaluation.name(place).strip(),
                            chosen[0].selection.id if chosen else "",
                            sum(child.selection.amount for child in chosen), low, high,
                            evaluation.unit_costs(place).get(pts_id, ZERO))
    choices = _choices(evaluation, node.option.children, node, 0, pts_id,
                       model if model is not None and model.type == "model" else None, False)
    points = sum((evaluation.cost_of(n).get(pts_id, ZERO)
                  for n in evaluation.below([node], True)), ZERO)
    return UnitChoices(selection_id, node.selection.custom_name
                       or evaluation.name(evaluation.place_of(node)).strip(), points, models,
                       tuple(choices))


def unit_offers(data: GameData, roster: Roster, force_id: str,
                base_points: dict[str, Decimal] | None = None,
                evaluation: Evaluation | None = None) -> list[UnitOffer]:
    """Each root entry of the force, with why one more cannot be added now: its own
    limits (an army-wide 0-1) and the force's limits on its categories (a slot full).
    `base_points`: by entry id, the points of its smallest unit (rout data units'), for a
    limit on a category's points."""
    evaluation = evaluation or Evaluation(data, roster)
    force = evaluation.by_force_id.get(force_id)
    if force is None:
        raise RosterActionError(f"no force {quoted(force_id, 40)} in the roster")
    pts_id = _points_id(evaluation)
    inner = _limited_categories(force)
    broken_now: set[tuple[str, str | None, str | None]] | None = None
    offers = []
    for option in force.context.root_selectable:
        place = evaluation.virtual(option, force)
        if evaluation.hidden(place):
            continue
        brings = dict(evaluation.unit_costs(place))
        if base_points is not None and option.entry_id in base_points:
            brings[pts_id] = base_points[option.entry_id]
        reason = blocked(evaluation, option, force, brings) or _slot_full(
            evaluation, option, force, brings)
        if not reason and _brings_inside(evaluation, option, inner):
            if broken_now is None:
                broken_now = {_error_key(error) for error in evaluation.errors()}
            reason = _breaks_when_added(data, roster, force_id, option, broken_now)
        offers.append(UnitOffer(option.entry_id, evaluation.name(place).strip(), reason))
    return offers


def _category_caps(force: FNode) -> Iterator[tuple[CategoryLink, CategoryEntry | None,
                                                   tuple[Constraint, ...]]]:
    """The force's category links with a cap (a max or an exact count): the link, its
    category, and the capping constraints, the link's own first, then the category's."""
    for link in force.entry.category_links:
        category = force.context.category(link.target_id)
        caps = tuple(constraint for constraint in (
            *link.constraints, *(category.constraints if category else ()))
            if constraint.kind in ("max", "exactly"))
        if caps:
            yield link, category, caps


def _limited_categories(force: FNode) -> set[str]:
    """The categories the force caps."""
    return {link.target_id for link, _, _ in _category_caps(force)}


def _brings_inside(evaluation: Evaluation, option: Option, categories: set[str]) -> bool:
    """Whether a new unit of `option` may bring from inside it something the army caps (a
    Battle Standard Bearer's banner, "at most 1" in the roster; a category the force caps,
    or one a modifier gives): what `blocked` and `_slot_full`, which read the unit's own
    entry and categories, cannot see."""
    stack, seen = [option], set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current is not option and (
                any(link.target_id in categories for link in current.category_links)
                or any(constraint.kind in ("max", "exactly")
                       and constraint.query.scope != "parent"
                       for constraint in current.constraints)):
            return True
        if categories and any(modifier.value in categories for modifier, _ in
                              evaluation.option_modifiers(current).for_field("category")):
            return True
        stack.extend(child for child in current.children if _comes_with(child))
    return False


def _comes_with(option: Option) -> bool:
    """Whether a new unit may hold `option` from the start: a group (its members are looked
    at), a choice the unit must have, or a group's default; an option the player ticks
    later is greyed by `blocked` then. Generous: a minimum a modifier may lift counts."""
    if option.is_group:
        return True
    if any(constraint.kind in ("min", "exactly") and constraint.query.scope == "parent"
           for constraint in option.constraints):
        return True
    group = option.groups[0] if option.groups else None
    if group is None:
        return False
    defaults = (group.definition.default_selection_entry_id,
                group.link.default_selection_entry_id if group.link else None)
    return any(default and is_named(option, default) for default in defaults)


def _error_key(error: ValidationError) -> tuple[str, str | None, str | None]:
    return error.source, error.owner_entry_id, error.force_id


def _breaks_when_added(data: GameData, roster: Roster, force_id: str, option: Option,
                       broken_now: set[tuple[str, str | None, str | None]]) -> str:
    """The army-wide limit one more unit of `option` would break, found by adding it to a
    copy of the roster and validating that ("" when none): the exact answer for what a
    unit brings from inside it."""
    try:
        added, _ = add_unit(data, roster, force_id, option.entry_id)
    except RosterActionError:
        return ""
    for error in Evaluation(data, added).errors():
        if _error_key(error) in broken_now or error.source.startswith("costLimits/"):
            continue  # broken already, or the points limit (a total, not a count)
        if error.owner_kind in ("category", "selection") and (
                "at most" in error.message or "exactly" in error.message):
            return f"one more would break: {error.message}"
    return ""


def _slot_full(evaluation: Evaluation, option: Option, force: FNode,
               brings: dict[str, Decimal]) -> str:
    place = evaluation.virtual(option, force)
    categories = evaluation.categories_at(place)
    for link, category, caps in _category_caps(force):
        if link.target_id not in categories:
            continue
        own = set(map(id, link.constraints))
        link_modifiers = evaluation.element_modifiers(link)
        category_modifiers = (evaluation.element_modifiers(category, link)
                              if category is not None else link_modifiers)
        name = category.name if category is not None else link.name
        for constraint in caps:
            modifiers = link_modifiers if id(constraint) in own else category_modifiers
            limit = evaluation.constraint_value(constraint, modifiers,
                                                evaluation.force_place(force))
            if limit < 0:
                continue
            query = constraint.query
            more = Decimal(1) if query.field == "selections" else brings.get(
                query.field, ZERO)
            if more <= 0:
                continue
            count = _category_total(evaluation, query.field, query.scope, force,
                                    link.target_id)
            if query.percent_value:
                total = _category_total(evaluation, query.field, query.scope, force,
                                        None)
                share = Decimal(100) * (count + more) / (total + more)
                if share > limit:
                    return (f"{name.strip()}: at most {_shown(limit)}% of the army "
                            f"({_shown(count)} of {_shown(total)} now)")
                continue
            if count + more > limit:
                what = "" if query.field == "selections" else " " + next(
                    (c.name.strip() for c in evaluation.cost_types
                     if c.id == query.field), query.field)
                size = (" at this points limit"
                        if _by_points_limit(modifiers, constraint) else "")
                return (f"the {name.strip()} slot is full{size}: at most "
                        f"{_shown(limit)}{what} ({_shown(count)} taken)")
    return ""


def _by_points_limit(modifiers: _Modifiers, constraint: Constraint) -> bool:
    """Whether a limit grows with the army's points limit (the army selection chart)."""
    for modifier, gates in modifiers.for_field(constraint.id):
        queries = [r.query for r in modifier.repeats] + [c.query for c in modifier.conditions]
        for gate in gates:
            queries += [r.query for r in gate.repeats] + [c.query for c in gate.conditions]
        if any(q.field.startswith("limit::") for q in queries):
            return True
        stack = [*modifier.condition_groups, *(g for gate in gates
                                               for g in gate.condition_groups)]
        while stack:
            group = stack.pop()
            if any(c.query.field.startswith("limit::") for c in group.conditions):
                return True
            stack.extend(group.groups)
    return False


def _category_total(evaluation: Evaluation, field_name: str, scope: str, force: FNode,
                    category_id: str | None) -> Decimal:
    """What a force's limit on a category counts now (None: everything in its scope)."""
    place = evaluation.force_place(force)
    where = evaluation.scope(scope if scope != "parent" else "force", place)
    pool = evaluation.selections_in(where, True, False)
    members = [(n, w) for n, w in pool
               if category_id is None or category_id in evaluation.categories(n)]
    if field_name == "selections":
        return sum((w for n, w in members if n.parent is None or category_id is None), ZERO)
    return sum((evaluation.cost_of(n).get(field_name, ZERO) for n, _ in members), ZERO)


# -- the edits ---------------------------------------------------------------------------
def _container(roster: Roster, container_id: str) -> str:
    found = find_selection(roster, container_id)
    if found is None:
        raise RosterActionError(f"no selection {quoted(container_id, 40)} in the roster")
    return found[0].id


def _held(data: GameData, roster: Roster, container_id: str, entry_id: str
          ) -> tuple[Evaluation, SNode, Option, list[SNode]]:
    evaluation = Evaluation(data, roster)
    container = evaluation.by_selection_id.get(container_id)
    if container is None:
        raise RosterActionError(f"no selection {quoted(container_id, 40)} in the roster")
    option = actions.find_option(container.option.selectable, entry_id)
    if option is None:
        raise RosterActionError(f"{quoted(entry_id, 40)} cannot be chosen in "
                                f"{quoted(container.option.name, 60)}")
    return evaluation, container, option, [n for n in container.children
                                           if n.option is option]


def choose(data: GameData, roster: Roster, container_id: str, entry_id: str) -> Roster:
    """One more of `entry_id` in the selection `container_id`; in a group that takes one,
    the other choice of that group goes first."""
    evaluation, container, option, _ = _held(data, roster, container_id, entry_id)
    for group in option.groups:
        if _exclusive(evaluation, group, container):
            members = {id(member) for member in group.selectable}
            for node in container.children:
                if id(node.option) in members and node.option is not option:
                    roster = _remove_all(data, roster, node.selection.id)
            break
    roster, _ = actions.select_entry(data, roster, _container(roster, container_id),
                                     option.entry_id, container_id)
    return roster


def _remove_all(data: GameData, roster: Roster, selection_id: str) -> Roster:
    return actions.set_count(roster, selection_id, 0)


def unchoose(data: GameData, roster: Roster, container_id: str, entry_id: str) -> Roster:
    """Every `entry_id` chosen in `container_id` taken away."""
    _, _, _, nodes = _held(data, roster, container_id, entry_id)
    for node in nodes:
        roster = _remove_all(data, roster, node.selection.id)
    return roster


def set_amount(data: GameData, roster: Roster, container_id: str, entry_id: str,
               amount: int) -> Roster:
    """`amount` of `entry_id` in `container_id` (the unit's models, a count of an item)."""
    if amount < 0:
        raise RosterActionError(f"a count cannot be negative ({amount})")
    _, _, option, nodes = _held(data, roster, container_id, entry_id)
    if not nodes:
        if amount == 0:
            return roster
        roster, held = actions.select_entry(data, roster, _container(roster, container_id),
                                            option.entry_id, container_id)
        return actions.set_count(roster, held, amount)
    first, *rest = nodes
    for node in rest:
        roster = _remove_all(data, roster, node.selection.id)
    return actions.set_count(roster, first.selection.id, amount)


def add_unit(data: GameData, roster: Roster, force_id: str, entry_id: str
             ) -> tuple[Roster, str]:
    """A new unit of `entry_id` in the force, with what it must hold."""
    return actions.select_entry(data, roster, force_id, entry_id)


def remove_unit(roster: Roster, selection_id: str) -> Roster:
    """A unit (a root selection) and everything it holds taken away."""
    return actions.set_count(roster, selection_id, 0)


def duplicate(roster: Roster, selection_id: str) -> Roster:
    """A copy of a selection beside it, with everything it holds."""
    return actions.duplicate_selection(roster, selection_id)[0]


def rename(roster: Roster, selection_id: str, name: str) -> Roster:
    """The player's own name for a selection (its notes stay)."""
    found = find_selection(roster, selection_id)
    if found is None:
        raise RosterActionError(f"no selection {quoted(selection_id, 40)} in the roster")
    return actions.customize(roster, selection_id=selection_id, name=name or None,
                             notes=found[1].custom_notes)


def with_points_limit(data: GameData, roster: Roster, points: int) -> Roster:
    """The roster's points limit (0: none, the cost type's own default)."""
    found = points_type(data.context(None).cost_types)
    if found is None:
        return roster
    if points > 0:
        return actions.set_cost_limit(roster, found.id, Decimal(points))
    return replace(roster, cost_limits=tuple((k, v) for k, v in roster.cost_limits
                                             if k != found.id))


__all__ = ["Choice", "ModelCount", "UnitChoices", "UnitOffer", "add_unit", "blocked",
           "choose", "duplicate", "model_option", "remove_unit", "rename", "set_amount",
           "unchoose", "unit_choices", "unit_offers", "with_points_limit"]
