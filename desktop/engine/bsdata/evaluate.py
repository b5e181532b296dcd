"""Evaluating a roster against its game data: modifiers, costs, categories, validation.

`Evaluation(data, roster)` lays the roster out once (each selection with its parent, force
and number) and answers everything lazily, memoising as it goes, so one evaluation costs
about one pass over the roster plus the queries the data asks. What it follows:

- Modifiers apply in document order (the entry's, then its link's; groups gate theirs with
  their own conditions and repeats). A repeat fires floor(value in scope / its value) times
  (ceil with roundUp), several repeats add up, and a modifier that fires 0 times is not
  applied.
- A cost on an entry link replaces its target's cost of the same type.
- A query counts the selections of `childId` in its scope: the scope's direct children, or
  everything below it with `includeChildSelections` (a constraint per force or per army
  counts everything below, as BattleScribe does for "one per army" items). `shared` counts
  by definition (through any link); not shared, by the composite id of one link's
  selections. Inside a selection, counts are per model of that selection.
- Costs whose modifiers count costs that depend on their own (directly or round a loop)
  keep their base values, and the roster gets one error per such loop.
- Errors follow where BattleScribe puts them: a minimum missed is the scope's (roster,
  force, the category of a force's entry, the parent selection), a maximum exceeded is the
  selection's when the scope is above selections.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from desktop.engine.bsdata.gamedata import (
    MAX_TIMES,
    Context,
    GameData,
    Option,
    flatten_modifiers,
    holder_queries,
)
from desktop.engine.bsdata.model import (
    CategoryEntry,
    Condition,
    ConditionGroup,
    Constraint,
    CostType,
    Entry,
    ForceEntry,
    InfoGroup,
    InfoLink,
    Modifier,
    ModifierGroup,
    Profile,
    Query,
    Repeat,
    Rule,
)
from desktop.engine.bsdata.roster import Force, Roster, Selection

ZERO = Decimal(0)
ONE = Decimal(1)
HUNDRED = Decimal(100)
NO_CATEGORY = "(No Category)"
UNCATEGORISED = "Uncategorised"
TYPES = frozenset({"unit", "model", "upgrade", "mount", "crew", "unit-group"})
TYPE_SCOPES = {"unit": ("unit",), "model": ("model",), "upgrade": ("upgrade",),
               "model-or-unit": ("model", "unit"), "unit-self": ("unit",)}
MAX_AUTO = 1000  # a minimum this high is a data error, not a request
MAX_TEXT = 10_000  # characters a name or characteristic can grow to by appending
MAX_NUMBER = Decimal(10) ** 15  # no cost, limit or characteristic of a game is larger


# -- the laid-out roster --------------------------------------------------------------
@dataclass(eq=False)
class FNode:
    force: Force
    parent: FNode | None
    context: Context
    index: int
    roots: list[SNode] = field(default_factory=list)
    children: list[FNode] = field(default_factory=list)

    @property
    def entry(self) -> ForceEntry:
        return self.force.entry


@dataclass(eq=False)
class SNode:
    selection: Selection
    option: Option
    parent: SNode | None
    force: FNode
    number: int
    index: int
    children: list[SNode] = field(default_factory=list)

    @property
    def container(self) -> SNode | FNode:
        return self.parent if self.parent is not None else self.force


class RosterScope:
    """The whole roster as a query scope."""


ROSTER = RosterScope()


@dataclass(frozen=True, eq=False)
class CategoryScope:
    force: FNode
    category_id: str


@dataclass(frozen=True, eq=False)
class CatalogueScope:
    catalogue_id: str | None


@dataclass(frozen=True, eq=False)
class Ancestors:
    nodes: tuple[SNode, ...]


Scope = SNode | FNode | RosterScope | CategoryScope | CatalogueScope | Ancestors | None


@dataclass(frozen=True, eq=False)
class Place:
    """Where something is evaluated: a selection (or an option not selected yet) in its
    container, or a force itself (`option` None)."""

    sel: SNode | None
    option: Option | None
    container: SNode | FNode
    force: FNode


# -- results ------------------------------------------------------------------------
@dataclass(frozen=True)
class CostValue:
    type_id: str
    name: str
    value: Decimal
    hidden: bool = False


@dataclass(frozen=True)
class CharacteristicView:
    name: str
    type_id: str
    value: str


@dataclass(frozen=True)
class ProfileView:
    id: str
    name: str
    type_id: str
    type_name: str
    hidden: bool
    page: str | None
    publication_id: str | None
    characteristics: tuple[CharacteristicView, ...]


@dataclass(frozen=True)
class RuleView:
    id: str
    name: str
    description: str
    hidden: bool
    page: str | None
    publication_id: str | None


@dataclass(frozen=True)
class CategoryView:
    id: str
    name: str
    primary: bool


@dataclass(frozen=True)
class ValidationError:
    """One thing wrong with a roster, in a player's words (`message`) and in the terms the
    conformance specs use: what owns it (`owner_kind` roster/force/category/selection with
    the entry id of the owner) and where it comes from (`source`: `entry/constraint`,
    `costLimits/type`, `entry/hidden`)."""

    owner_kind: str
    owner_entry_id: str | None
    source: str
    message: str
    force_id: str | None = None
    selection_id: str | None = None


@dataclass
class _Modifiers:
    """An element's modifiers in document order, each with the groups that gate it."""

    items: list[tuple[Modifier, tuple[ModifierGroup, ...]]]

    def for_field(self, name: str) -> Iterator[tuple[Modifier, tuple[ModifierGroup, ...]]]:
        return (item for item in self.items if item[0].field == name)


def _true(text: str) -> bool:
    return text.strip().lower() == "true"


def _number_text(value: Decimal) -> str:
    """A number as BattleScribe shows it in text: 7, not 7.0; 0.5 stays 0.5 (one past
    any count, 1E+40, stays short)."""
    if value.adjusted() > 30:
        return str(value.normalize())
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


def _to_decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text.strip())
    except (InvalidOperation, ValueError):
        return None
    return value if value.is_finite() else None


def apply_number(kind: str, current: Decimal, text: str, times: int) -> Decimal:
    """`current` modified `times` times (ArithmeticError when the result is too large)."""
    value = _to_decimal(text)
    if value is None:
        return current
    if kind == "set":
        return value
    if kind == "increment":
        return current + value * times
    if kind == "decrement":
        return current - value * times
    if kind == "multiply":
        return current * value ** times
    if kind == "divide" and value != 0:
        return current / value ** times
    if kind == "modulo" and value != 0:
        return current % value
    if kind in ("floor", "ceil"):
        rounded = math.floor(current) if kind == "floor" else math.ceil(current)
        return Decimal(rounded)
    return current


def apply_text(kind: str, current: str, text: str, times: int, join: str | None) -> str:
    if kind == "set":
        return text
    if kind in ("append", "prepend"):
        separator = " " if join is None else join
        # One join, never more pieces than fit in MAX_TEXT characters.
        pieces = min(max(times, 0), MAX_TEXT // max(len(text) + len(separator), 1) + 1)
        if not pieces:
            return current
        added = separator.join([text] * pieces)
        if current:
            added = f"{current}{separator}{added}" if kind == "append" \
                else f"{added}{separator}{current}"
        return added[:MAX_TEXT] if kind == "append" else added[-MAX_TEXT:]
    if kind == "replace":
        return text
    if kind in ("increment", "decrement", "multiply", "divide"):
        number = _to_decimal(current)
        if number is None:
            return current  # not a number: BattleScribe leaves it as it is
        return _number_text(apply_number(kind, number, text, times))
    return current


class Evaluation:
    """One roster laid out against its game data, evaluated on demand."""

    def __init__(self, data: GameData, roster: Roster) -> None:
        self.data = data
        self.roster = roster
        self.forces: list[FNode] = []
        self.all_forces: list[FNode] = []
        self.all_selections: list[SNode] = []
        self.by_selection_id: dict[str, SNode] = {}
        self.by_force_id: dict[str, FNode] = {}
        for force in roster.forces:
            self.forces.append(self._lay_force(force, None))
        # The game system's cost types, then those a force's catalogue declares itself.
        declared: dict[str, CostType] = {}
        for context in [data.context(None), *(f.context for f in self.all_forces)]:
            for cost_type in context.cost_types:
                declared.setdefault(cost_type.id, cost_type)
        self._cost_types = tuple(declared.values())
        self._modifier_cache: dict[tuple[int, ...], _Modifiers] = {}
        self._scope_cache: dict[tuple[object, bool, bool], list[tuple[SNode, Decimal]]] = {}
        self._key_cache: dict[tuple[object, bool, bool, bool], dict[str, Decimal]] = {}
        self._category_cache: dict[int, dict[str, bool]] = {}
        self._category_busy: set[int] = set()
        self._category_count_cache: dict[tuple[object, bool, bool, str], Decimal] = {}
        self._cost_cache: dict[int, dict[str, Decimal]] = {}
        self._cost_busy: set[int] = set()
        self._hidden_cache: dict[tuple[int, int, int], bool] = {}
        self._no_cost_queries: set[int] = set()
        self._number_errors: dict[int, ValidationError] = {}
        self.cycle_errors: list[ValidationError] = []
        self._find_cost_loops()

    # -- layout ---------------------------------------------------------------------
    def _lay_force(self, force: Force, parent: FNode | None) -> FNode:
        node = FNode(force, parent, self.data.context(force.catalogue_id),
                     len(self.all_forces))
        self.all_forces.append(node)
        self.by_force_id[force.id] = node
        for selection in force.selections:
            node.roots.append(self._lay_selection(selection, None, node, 1))
        for child in force.forces:
            node.children.append(self._lay_force(child, node))
        return node

    def _lay_selection(self, selection: Selection, parent: SNode | None, force: FNode,
                       above: int) -> SNode:
        node = SNode(selection, selection.option, parent, force, selection.amount * above,
                     len(self.all_selections))
        self.all_selections.append(node)
        self.by_selection_id[selection.id] = node
        for child in selection.children:
            node.children.append(self._lay_selection(child, node, force, node.number))
        return node

    @property
    def cost_types(self) -> tuple[CostType, ...]:
        return self._cost_types

    @property
    def shown_cost_types(self) -> tuple[CostType, ...]:
        """The cost types a roster's totals list: those its data prices anything in. As
        BattleScribe, which lists a type once a selection costing it is added, a type no
        entry costs (a game system's CP where the army has none) is not shown at 0."""
        contexts = [f.context for f in self.all_forces] or [self.data.context(None)]
        priced = frozenset().union(*(c.priced_cost_type_ids for c in contexts))
        return tuple(t for t in self.cost_types if t.id in priced)

    # -- places --------------------------------------------------------------------
    def place_of(self, node: SNode) -> Place:
        return Place(node, node.option, node.container, node.force)

    def virtual(self, option: Option, container: SNode | FNode) -> Place:
        force = container if isinstance(container, FNode) else container.force
        return Place(None, option, container, force)

    def force_place(self, force: FNode) -> Place:
        return Place(None, None, force, force)

    # -- modifiers -------------------------------------------------------------------
    def option_modifiers(self, option: Option) -> _Modifiers:
        key = (id(option.definition), id(option.link))
        found = self._modifier_cache.get(key)
        if found is None:
            items = flatten_modifiers(option.definition.modifiers,
                                      option.definition.modifier_groups)
            if option.link is not None:
                items += flatten_modifiers(option.link.modifiers, option.link.modifier_groups)
            found = self._modifier_cache[key] = _Modifiers(items)
        return found

    def element_modifiers(self, *elements: Entry | Profile | Rule | InfoLink | InfoGroup
                          | ForceEntry | CategoryEntry | object) -> _Modifiers:
        key = tuple(id(e) for e in elements)
        found = self._modifier_cache.get(key)
        if found is None:
            items: list[tuple[Modifier, tuple[ModifierGroup, ...]]] = []
            for element in elements:
                items += flatten_modifiers(getattr(element, "modifiers", ()),
                                           getattr(element, "modifier_groups", ()))
            found = self._modifier_cache[key] = _Modifiers(items)
        return found

    def times(self, modifier: Modifier, gates: tuple[ModifierGroup, ...], place: Place,
              skip_cost_queries: bool = False) -> int:
        """How many times a modifier applies at `place` (0: not at all)."""
        total = 1
        holders: tuple[Modifier | ModifierGroup, ...] = (*gates, modifier)
        for holder in holders:
            if skip_cost_queries and self._queries_costs(holder):
                return 0
            if not all(self.condition_holds(c, place) for c in holder.conditions):
                return 0
            if not all(self.group_holds(g, place) for g in holder.condition_groups):
                return 0
            if holder.repeats:
                total *= sum(self.repeat_times(r, place) for r in holder.repeats)
                if total <= 0:
                    return 0
        return min(total, MAX_TIMES)

    def _queries_costs(self, holder: Modifier | ModifierGroup) -> bool:
        types = self.data.context(None).cost_type_ids
        return any(q.field in types for q in holder_queries(holder))

    def repeat_times(self, repeat: Repeat, place: Place) -> int:
        if repeat.value == 0:
            return 0
        value = self.query_value(repeat.query, place)
        if value is None:
            return 0
        steps = value / repeat.value
        whole = math.ceil(steps) if repeat.round_up else math.floor(steps)
        return max(int(whole), 0) * repeat.repeats

    def modified_number(self, modifier: Modifier, current: Decimal, times: int, owner: str
                        ) -> Decimal:
        """A number with `modifier` applied; one whose result is too large for any number
        (a multiply repeated ten million times) is left out, and the roster says so."""
        try:
            value = apply_number(modifier.kind, current, modifier.value, times)
        except ArithmeticError:
            value = MAX_NUMBER + 1
        if abs(value) > MAX_NUMBER >= abs(current):
            self._too_large(modifier, owner)
            return current
        return value

    def modified_text(self, modifier: Modifier, current: str, times: int, owner: str) -> str:
        if modifier.kind in ("increment", "decrement", "multiply", "divide"):
            number = _to_decimal(current)
            if number is None:
                return current  # not a number: BattleScribe leaves it as it is
            return _number_text(self.modified_number(modifier, number, times, owner))
        return apply_text(modifier.kind, current, modifier.value, times, modifier.join)

    def _too_large(self, modifier: Modifier, owner: str) -> None:
        if id(modifier) not in self._number_errors:
            self._number_errors[id(modifier)] = ValidationError(
                "roster", None, "modifiers/too-large",
                f"A modifier of {owner} ({modifier.kind} {modifier.field} by "
                f"{modifier.value[:40]}) gives a number too large to use; it is left out")

    # -- conditions ------------------------------------------------------------------
    def group_holds(self, group: ConditionGroup, place: Place) -> bool:
        results = (self.condition_holds(c, place) for c in group.conditions)
        nested = (self.group_holds(g, place) for g in group.groups)
        if group.kind == "or":
            return any(results) or any(nested)
        if group.kind == "not":
            return not (all(results) and all(nested))
        return all(results) and all(nested)

    def condition_holds(self, condition: Condition, place: Place) -> bool:
        kind = condition.kind
        if kind == "always":
            return True
        if kind == "never":
            return False
        if kind in ("instanceOf", "notInstanceOf"):
            found = self.instance_of(condition.query, place)
            return found if kind == "instanceOf" else not found
        value = self.query_value(condition.query, place)
        if value is None:
            return False  # nothing to count (BattleScribe: not a number; never true)
        target = condition.value
        if kind == "atLeast":
            return value >= target
        if kind == "atMost":
            return value <= target
        if kind == "greaterThan":
            return value > target
        if kind == "lessThan":
            return value < target
        if kind == "equalTo":
            return value == target
        if kind == "notEqualTo":
            return value != target
        return False

    # -- scopes ----------------------------------------------------------------------
    def scope(self, scope: str, place: Place) -> Scope:
        container = place.container
        if scope == "self":
            return place.sel if place.option is not None else place.container
        if scope == "parent":
            return container
        if scope == "force":
            return place.force
        if scope == "roster":
            return ROSTER
        if scope == "ancestor":
            return Ancestors(tuple(self._ancestors(container)))
        if scope == "primary-category":
            category = self.primary_category(place)
            return CategoryScope(place.force, category) if category else None
        if scope == "primary-catalogue":
            return CatalogueScope(place.force.force.catalogue_id)
        if scope in TYPE_SCOPES or scope == "root-entry":
            chain = list(self._ancestors(container))
            if scope == "unit-self" and place.sel is not None:
                chain.insert(0, place.sel)
            if scope == "root-entry":
                if place.sel is not None and place.sel.parent is None:
                    return place.sel
                return chain[-1] if chain else None
            types = TYPE_SCOPES[scope]
            return next((n for n in chain if n.option.type in types), None)
        # An entry id: the nearest selection above (or this one) of that entry.
        chain = list(self._ancestors(container))
        if place.sel is not None:
            chain.insert(0, place.sel)
        found = next((n for n in chain if scope in n.option.match_keys(True)), None)
        if found is not None:
            return found
        if scope == place.force.entry.id:
            return place.force
        return None

    def _ancestors(self, container: SNode | FNode) -> Iterator[SNode]:
        node: SNode | None = container if isinstance(container, SNode) else None
        while node is not None:
            yield node
            node = node.parent

    def selections_in(self, scope: Scope, recursive: bool, child_forces: bool
                      ) -> list[tuple[SNode, Decimal]]:
        """The selections a query looks at within `scope`, each with its weight: its number,
        per model of the scope when the scope is a selection."""
        if scope is None:
            return []
        key = (_scope_key(scope), recursive, child_forces)
        found = self._scope_cache.get(key)
        if found is not None:
            return found
        result: list[tuple[SNode, Decimal]] = []
        if isinstance(scope, SNode):
            per = Decimal(max(scope.number, 1))
            for node in self.below(scope.children, recursive):
                result.append((node, Decimal(node.number) / per))
        elif isinstance(scope, FNode):
            for force in self._forces_from([scope], child_forces):
                result.extend((n, Decimal(n.number)) for n in self.below(force.roots,
                                                                          recursive))
        elif isinstance(scope, RosterScope):
            for force in self._forces_from(self.forces, child_forces):
                result.extend((n, Decimal(n.number)) for n in self.below(force.roots,
                                                                          recursive))
        elif isinstance(scope, CatalogueScope):
            forces = [f for f in self.all_forces
                      if f.force.catalogue_id == scope.catalogue_id]
            for force in forces:
                result.extend((n, Decimal(n.number)) for n in self.below(force.roots,
                                                                          recursive))
        elif isinstance(scope, CategoryScope):
            for node in self.below(scope.force.roots, recursive):
                if scope.category_id in self.categories(node):
                    result.append((node, Decimal(node.number)))
        elif isinstance(scope, Ancestors):
            result = [(n, ONE) for n in scope.nodes]
        self._scope_cache[key] = result
        return result

    def below(self, nodes: Iterable[SNode], recursive: bool) -> Iterator[SNode]:
        for node in nodes:
            yield node
            if recursive:
                yield from self.below(node.children, True)

    def _forces_from(self, forces: Iterable[FNode], child_forces: bool) -> Iterator[FNode]:
        for force in forces:
            yield force
            if child_forces:
                yield from self._forces_from(force.children, True)

    def key_counts(self, scope: Scope, recursive: bool, child_forces: bool, shared: bool
                   ) -> dict[str, Decimal]:
        key = (_scope_key(scope), recursive, child_forces, shared)
        found = self._key_cache.get(key)
        if found is None:
            found = {}
            for node, weight in self.selections_in(scope, recursive, child_forces):
                for name in node.option.match_keys(shared):
                    found[name] = found.get(name, ZERO) + weight
                found[node.option.type] = found.get(node.option.type, ZERO) + weight
                found["any"] = found.get("any", ZERO) + weight
            self._key_cache[key] = found
        return found

    def _is_category(self, context: Context, child_id: str) -> bool:
        return context.category(child_id) is not None

    def count(self, query: Query, place: Place, child: Option | str | None,
              recursive: bool) -> Decimal | None:
        """The selections (field `selections`) of `child` that the query sees."""
        scope = self.scope(query.scope, place)
        if isinstance(child, Option):
            key = child.definition.id if query.shared else child.entry_id
            return self.key_counts(scope, recursive, query.include_child_forces,
                                   query.shared).get(key, ZERO)
        if child is None:
            if isinstance(scope, Ancestors):
                return Decimal(len(scope.nodes))
            return None
        counts = self.key_counts(scope, recursive, query.include_child_forces, query.shared)
        if child in counts:
            return counts[child]
        if child == "any" or child in TYPES:
            return ZERO
        if self._is_category(place.force.context, child):
            cache_key = (_scope_key(scope), recursive, query.include_child_forces, child)
            found = self._category_count_cache.get(cache_key)
            if found is None:
                found = sum((w for n, w in self.selections_in(scope, recursive,
                                                               query.include_child_forces)
                             if child in self.categories(n)), ZERO)
                self._category_count_cache[cache_key] = found
            return found
        return ZERO

    def matching(self, query: Query, place: Place, child: Option | str | None,
                 recursive: bool) -> list[tuple[SNode, Decimal]]:
        """The selections themselves (for sums of costs)."""
        scope = self.scope(query.scope, place)
        pool = self.selections_in(scope, recursive, query.include_child_forces)
        if isinstance(child, Option):
            key = child.definition.id if query.shared else child.entry_id
            return [(n, w) for n, w in pool if key in n.option.match_keys(query.shared)]
        if child is None or child == "any":
            return pool
        return [(n, w) for n, w in pool
                if child in n.option.match_keys(query.shared) or child == n.option.type
                or (self._is_category(place.force.context, child)
                    and child in self.categories(n))]

    def query_value(self, query: Query, place: Place, child: Option | str | None = None,
                    constraint: bool = False) -> Decimal | None:
        """What a query counts at `place` (None when it counts nothing at all)."""
        target: Option | str | None = child if child is not None else query.child_id
        # A limit per force or per army counts the entry however deep it sits (one Sword
        # of the Quest per army, wherever a Paladin carries it); anything else looks below
        # its scope only with includeChildSelections.
        recursive = query.include_child_selections or (
            constraint and query.scope in ("force", "roster", "primary-catalogue"))
        field_name = query.field
        if field_name == "selections":
            value = self.count(query, place, target, recursive)
            if value is None or not query.percent_value:
                return value
            total = self.count(query, place, "any", recursive) or ZERO
            return HUNDRED * value / total if total else ZERO
        if field_name == "forces":
            return self.count_forces(query, place, target)
        if field_name.startswith("limit::"):
            return self.cost_limit(field_name.removeprefix("limit::"))
        if field_name in self.data.context(None).cost_type_ids \
                or field_name in place.force.context.cost_type_ids:
            matched = self.matching(query, place, target, recursive)
            value = self.costs_held(matched, field_name)
            if not query.percent_value:
                return value
            everything = self.matching(query, place, "any", recursive)
            total = self.costs_held(everything, field_name)
            return HUNDRED * value / total if total else ZERO
        return ZERO

    def held(self, matched: Iterable[tuple[SNode, Decimal]]) -> Iterator[SNode]:
        """The matched selections with everything they hold, each once (a selection
        inside another matched one is not counted again)."""
        seen: set[int] = set()
        for node, _ in matched:
            for inner in self.below((node,), True):
                if inner.index not in seen:
                    seen.add(inner.index)
                    yield inner

    def costs_held(self, matched: Iterable[tuple[SNode, Decimal]], field_name: str
                   ) -> Decimal:
        """A cost of the matched selections, what they hold included: a points limit on
        a container entry (a Grey Seer's Magic Selection, at most 100 pts) counts the items
        inside it, whose costs are theirs, not the container's."""
        return sum((self.cost_of(n).get(field_name, ZERO) for n in self.held(matched)), ZERO)

    def count_forces(self, query: Query, place: Place, child: Option | str | None
                     ) -> Decimal:
        scope = self.scope(query.scope, place)
        if isinstance(scope, RosterScope):
            forces = list(self._forces_from(self.forces, query.include_child_forces))
        elif isinstance(scope, FNode):
            forces = list(self._forces_from(scope.children, query.include_child_forces))
        else:
            return ZERO
        if isinstance(child, Option):
            return ZERO  # forces are never an entry's: BattleScribe counts none
        if child is None or child == "any":
            return Decimal(len(forces))
        return Decimal(sum(1 for f in forces if f.entry.id == child))

    def instance_of(self, query: Query, place: Place) -> bool:
        child = query.child_id
        if child is None:
            return False
        scope = query.scope
        if scope == "roster":
            return False
        if scope == "self":
            if place.option is None:
                return self._force_is(place.force, child)
            return self._is(place.sel, place.option, child)
        if scope == "parent":
            container = place.container
            if isinstance(container, FNode):
                return self._force_is(container, child)
            return self._is(container, container.option, child)
        if scope == "ancestor":
            if any(self._is(n, n.option, child) for n in self._ancestors(place.container)):
                return True
            return self._force_is(place.force, child)
        if scope == "force":
            return self._force_is(place.force, child)
        if scope == "primary-catalogue":
            return place.force.force.catalogue_id == child
        if scope == "primary-category":
            return self.primary_category(place) == child
        element = self.scope(scope, place)
        if isinstance(element, SNode):
            return self._is(element, element.option, child)
        if isinstance(element, FNode):
            return self._force_is(element, child)
        return False

    def _is(self, node: SNode | None, option: Option, child: str) -> bool:
        if child in option.match_keys(True) or child == option.entry_id:
            return True
        if child == option.type:
            return True
        if node is not None:
            return child in self.categories(node)
        return child in self.base_categories(option)

    def _force_is(self, force: FNode, child: str) -> bool:
        if child == force.entry.id:
            return True
        if force.context.category(child) is not None:
            return any(self.primary_category(self.place_of(n)) == child for n in force.roots)
        return False

    # -- effective values ------------------------------------------------------------
    def name(self, place: Place) -> str:
        assert place.option is not None
        value = place.option.name
        for modifier, gates in self.option_modifiers(place.option).for_field("name"):
            times = self.times(modifier, gates, place)
            if times:
                value = self.modified_text(modifier, value, times, place.option.name)
        return value

    def hidden(self, place: Place) -> bool:
        """Whether the option is hidden at `place` (its groups' hiding counts too)."""
        option = place.option
        assert option is not None
        key = (id(option), id(place.sel), id(place.container))
        found = self._hidden_cache.get(key)
        if found is not None:
            return found
        found = self.own_hidden(option, place)
        if not found:
            found = any(self.own_hidden(group, Place(place.sel, group, place.container,
                                                      place.force))
                        for group in option.groups)
        self._hidden_cache[key] = found
        return found

    def own_hidden(self, option: Option, place: Place) -> bool:
        return self._hidden_as_set(self.option_modifiers(option), place, option.hidden)

    def _hidden_as_set(self, modifiers: _Modifiers, place: Place, hidden: bool) -> bool:
        """`hidden` as the modifiers on it that apply at `place` set it, the last one last."""
        for modifier, gates in modifiers.for_field("hidden"):
            if modifier.kind == "set" and self.times(modifier, gates, place):
                hidden = _true(modifier.value)
        return hidden

    def base_categories(self, option: Option) -> dict[str, bool]:
        """The categories an option's links give it, id → primary (link's primary first)."""
        found: dict[str, bool] = {}
        own = [link for link in option.definition.category_links if not link.hidden]
        linked = ([link for link in option.link.category_links if not link.hidden]
                  if option.link is not None else [])
        link_primary = any(link.primary for link in linked)
        for link in own:
            found[link.target_id] = link.primary and not link_primary
        for link in linked:
            found[link.target_id] = link.primary or found.get(link.target_id, False)
        for group in option.groups:
            for link in group.definition.category_links:
                if not link.hidden:
                    found.setdefault(link.target_id, False)
        return found

    def categories(self, node: SNode) -> dict[str, bool]:
        found = self._category_cache.get(node.index)
        if found is not None:
            return found
        if node.index in self._category_busy:
            return self.base_categories(node.option)  # a category counted to decide itself
        self._category_busy.add(node.index)
        try:
            found = self._categories_at(self.place_of(node))
        finally:
            self._category_busy.discard(node.index)
        self._category_cache[node.index] = found
        return found

    def categories_at(self, place: Place) -> dict[str, bool]:
        if place.sel is not None:
            return self.categories(place.sel)
        return self._categories_at(place)

    def _categories_at(self, place: Place) -> dict[str, bool]:
        assert place.option is not None
        found = dict(self.base_categories(place.option))
        for modifier, gates in self.option_modifiers(place.option).for_field("category"):
            if not self.times(modifier, gates, place):
                continue
            category = modifier.value
            if modifier.kind == "add":
                found.setdefault(category, False)
            elif modifier.kind == "remove":
                found.pop(category, None)
            elif modifier.kind == "set-primary":
                found = {key: False for key in found}
                found[category] = True
            elif modifier.kind == "unset-primary" and category in found:
                found[category] = False
        return found

    def primary_category(self, place: Place) -> str | None:
        if place.option is None:
            return None
        node = place.sel
        while node is not None and node.parent is not None:
            node = node.parent  # a child selection counts in its root's category
        if node is not None:
            categories = self.categories(node)
        elif place.container is place.force:
            categories = self._categories_at(place)
        else:
            root = place.container
            while isinstance(root, SNode) and root.parent is not None:
                root = root.parent
            categories = self.categories(root) if isinstance(root, SNode) else {}
        return next((key for key, primary in categories.items() if primary), None)

    def constraint_value(self, constraint: Constraint, modifiers: _Modifiers,
                         place: Place) -> Decimal:
        value = constraint.value
        for modifier, gates in modifiers.for_field(constraint.id):
            times = self.times(modifier, gates, place)
            if times:
                value = self.modified_number(modifier, value, times, constraint.id)
        return value

    # -- costs -----------------------------------------------------------------------
    def base_costs(self, option: Option) -> dict[str, Decimal]:
        """The option's costs per item: its definition's, a link's cost replacing the one
        of the same type (New Recruit's `Link.getCosts`)."""
        found = {cost.type_id: cost.value for cost in option.definition.costs}
        if option.link is not None:
            for cost in option.link.costs:
                found[cost.type_id] = cost.value
        return found

    def unit_costs(self, place: Place, skip_cost_queries: bool = False) -> dict[str, Decimal]:
        """Costs of one of the option at `place`, its modifiers applied."""
        assert place.option is not None
        known = place.force.context.cost_type_ids
        found = {k: v for k, v in self.base_costs(place.option).items() if k in known}
        for modifier, gates in self.option_modifiers(place.option).items:
            if modifier.field not in known or modifier.field not in found:
                continue
            times = self.times(modifier, gates, place, skip_cost_queries)
            if times:
                found[modifier.field] = self.modified_number(
                    modifier, found[modifier.field], times, place.option.name)
        return found

    def cost_of(self, node: SNode) -> dict[str, Decimal]:
        """The selection's own costs (not its children's), for all of its number."""
        found = self._cost_cache.get(node.index)
        if found is not None:
            return found
        if node.index in self._cost_busy:
            return {}  # only reachable through a loop the pre-pass missed
        self._cost_busy.add(node.index)
        try:
            per_item = self.unit_costs(self.place_of(node),
                                       skip_cost_queries=node.index in self._no_cost_queries)
        finally:
            self._cost_busy.discard(node.index)
        found = {k: v * node.number for k, v in per_item.items()}
        self._cost_cache[node.index] = found
        return found

    def _find_cost_loops(self) -> None:
        """Selections whose cost modifiers count costs that (round a loop) count theirs:
        they keep their base costs, and each loop is one error."""
        types = self.data.context(None).cost_type_ids
        edges: dict[int, list[int]] = {}
        for node in self.all_selections:
            modifiers = self.option_modifiers(node.option).items
            cost_modifiers = [(m, g) for m, g in modifiers if m.field in types]
            if not cost_modifiers:
                continue
            place = self.place_of(node)
            targets: list[int] = []
            for modifier, gates in cost_modifiers:
                holders: tuple[Modifier | ModifierGroup, ...] = (*gates, modifier)
                for holder in holders:
                    for query in holder_queries(holder):
                        if query.field not in types:
                            continue
                        recursive = query.include_child_selections
                        matched = self.matching(query, place, query.child_id, recursive)
                        targets.extend(other.index for other in self.held(matched))
            if targets:
                edges[node.index] = targets
        if not edges:
            return
        for component in _loops(edges):
            self._no_cost_queries.update(component)
            names = sorted({self.all_selections[i].option.name for i in component})
            self.cycle_errors.append(ValidationError(
                "roster", None, "costs/loop",
                f"The costs of {', '.join(names)} count each other's costs in a loop; their "
                "cost modifiers that count costs are left out"))

    def cost_limit(self, type_id: str) -> Decimal | None:
        limit = self.roster.limit(type_id)
        if limit is not None:
            return limit
        for cost_type in self.cost_types:
            if cost_type.id == type_id:
                return cost_type.default_cost_limit
        return None

    def totals(self) -> dict[str, Decimal]:
        found = {cost_type.id: ZERO for cost_type in self.cost_types}
        for node in self.all_selections:
            for type_id, value in self.cost_of(node).items():
                found[type_id] = found.get(type_id, ZERO) + value
        return found

    def force_totals(self, force: FNode) -> dict[str, Decimal]:
        found: dict[str, Decimal] = {}
        for node in self.below(force.roots, True):
            for type_id, value in self.cost_of(node).items():
                found[type_id] = found.get(type_id, ZERO) + value
        return found

    # -- info ------------------------------------------------------------------------
    def profiles_and_rules(self, place: Place) -> tuple[list[ProfileView], list[RuleView]]:
        """The visible profiles and rules of an option at `place`: its own, its info
        groups', and those its info links reach (the definition's, then the link's)."""
        assert place.option is not None
        profiles: list[ProfileView] = []
        rules: list[RuleView] = []
        holders: list[Entry] = [place.option.definition]
        if place.option.link is not None:
            holders.append(place.option.link)
        context = place.force.context
        for holder in holders:
            self._collect_info(context, place, holder.profiles, holder.rules,
                               holder.info_groups, holder.info_links, profiles, rules, 0)
        return profiles, rules

    def force_profiles_and_rules(self, force: FNode) -> tuple[list[ProfileView],
                                                              list[RuleView]]:
        profiles: list[ProfileView] = []
        rules: list[RuleView] = []
        place = self.force_place(force)
        entry = force.entry
        self._collect_info(force.context, place, entry.profiles, entry.rules,
                           entry.info_groups, entry.info_links, profiles, rules, 0)
        for data in force.context.files:
            self._collect_info(force.context, place, (), data.rules, (), data.info_links,
                               profiles, rules, 0)
        return profiles, rules

    def _collect_info(self, context: Context, place: Place, own_profiles: tuple[Profile, ...],
                      own_rules: tuple[Rule, ...], groups: tuple[InfoGroup, ...],
                      links: tuple[InfoLink, ...], profiles: list[ProfileView],
                      rules: list[RuleView], depth: int) -> None:
        if depth > 16:
            return
        for profile in own_profiles:
            view = self._profile(profile, (profile,), place, profile.hidden)
            if not view.hidden:
                profiles.append(view)
        for rule in own_rules:
            rule_view = self._rule(rule, (rule,), place, rule.hidden)
            if not rule_view.hidden:
                rules.append(rule_view)
        for group in groups:
            if not self._info_hidden(group, (group,), place, group.hidden):
                self._collect_info(context, place, group.profiles, group.rules,
                                   group.info_groups, group.info_links, profiles, rules,
                                   depth + 1)
        for link in links:
            target = context.info_target(link.target_id)
            if link.kind == "profile" and isinstance(target, Profile):
                view = self._profile(target, (target, link), place,
                                     target.hidden or link.hidden)
                if not view.hidden:
                    profiles.append(view)
            elif link.kind == "rule" and isinstance(target, Rule):
                rule_view = self._rule(target, (target, link), place,
                                       target.hidden or link.hidden)
                if not rule_view.hidden:
                    rules.append(rule_view)
            elif (link.kind == "infoGroup" and isinstance(target, InfoGroup)
                  and not self._info_hidden(target, (target, link), place,
                                            target.hidden or link.hidden)):
                    self._collect_info(context, place, target.profiles, target.rules,
                                       target.info_groups, target.info_links, profiles,
                                       rules, depth + 1)

    def _info_hidden(self, element: object, owners: tuple[object, ...], place: Place,
                     hidden: bool) -> bool:
        return self._hidden_as_set(self.element_modifiers(*owners), place, hidden)

    def _profile(self, profile: Profile, owners: tuple[object, ...], place: Place,
                 hidden: bool) -> ProfileView:
        name = profile.name
        values = {c.type_id: c.value for c in profile.characteristics}
        for modifier, gates in self.element_modifiers(*owners).items:
            times = self.times(modifier, gates, place)
            if not times:
                continue
            if modifier.field == "name":
                name = self.modified_text(modifier, name, times, profile.name)
            elif modifier.field == "hidden" and modifier.kind == "set":
                hidden = _true(modifier.value)
            elif modifier.field in values:
                values[modifier.field] = self.modified_text(modifier, values[modifier.field],
                                                            times, profile.name)
        return ProfileView(
            id=profile.id, name=name, type_id=profile.type_id, type_name=profile.type_name,
            hidden=hidden, page=profile.page, publication_id=profile.publication_id,
            characteristics=tuple(CharacteristicView(c.name, c.type_id, values[c.type_id])
                                  for c in profile.characteristics))

    def _rule(self, rule: Rule, owners: tuple[object, ...], place: Place, hidden: bool
              ) -> RuleView:
        name, description = rule.name, rule.description
        for modifier, gates in self.element_modifiers(*owners).items:
            times = self.times(modifier, gates, place)
            if not times:
                continue
            if modifier.field == "name":
                name = self.modified_text(modifier, name, times, rule.name)
            elif modifier.field == "description":
                description = self.modified_text(modifier, description, times, rule.name)
            elif modifier.field == "hidden" and modifier.kind == "set":
                hidden = _true(modifier.value)
        return RuleView(rule.id, name, description, hidden, rule.page, rule.publication_id)

    # -- forces ----------------------------------------------------------------------
    def force_hidden(self, force: FNode) -> bool:
        return self._hidden_as_set(self.element_modifiers(force.entry),
                                   self.force_place(force), force.entry.hidden)

    def force_name(self, force: FNode) -> str:
        name = force.entry.name
        place = self.force_place(force)
        for modifier, gates in self.element_modifiers(force.entry).for_field("name"):
            times = self.times(modifier, gates, place)
            if times:
                name = self.modified_text(modifier, name, times, force.entry.name)
        return name

    def force_categories(self, force: FNode) -> list[tuple[str, str]]:
        """(category id, name) of a force's categories, "Uncategorised" first."""
        found = [(NO_CATEGORY, UNCATEGORISED)]
        for link in force.entry.category_links:
            category = force.context.category(link.target_id)
            name = category.name if category is not None else link.name
            found.append((link.target_id, name))
        return found

    def root_category(self, node: SNode, force_categories: set[str]) -> str:
        primary = next((k for k, v in self.categories(node).items() if v), None)
        return primary if primary in force_categories else NO_CATEGORY

    # -- validation ------------------------------------------------------------------
    def errors(self) -> list[ValidationError]:
        found: list[ValidationError] = []
        totals = self.totals()
        for cost_type in self.cost_types:
            limit = self.cost_limit(cost_type.id)
            total = totals.get(cost_type.id, ZERO)
            if limit is not None and limit >= 0 and total > limit:
                found.append(ValidationError(
                    "roster", None, f"costLimits/{cost_type.id}",
                    f"The roster costs {_number_text(total)}{_unit(cost_type.name)}, over its "
                    f"limit of {_number_text(limit)}"))
        found.extend(self.cycle_errors)
        # One constraint broken in one scope is one error, however many containers see it
        # (two squads, each with a special weapon over the force's limit).
        seen: set[tuple[int, object, str | None]] = set()
        for force in self.all_forces:
            if self.force_hidden(force) and not force.children:
                continue  # BattleScribe checks nothing in a hidden force of its own
            found.extend(self._force_errors(force))
            found.extend(self._container_errors(force, force.context.root_options,
                                                force.roots, seen))
            for node in self.below(force.roots, True):
                found.extend(self._container_errors(node, node.option.children,
                                                    node.children, seen))
        # Last: what was evaluated so far (costs, limits; a state's names) has been seen.
        found.extend(self._number_errors.values())
        return found

    def _force_errors(self, force: FNode) -> Iterator[ValidationError]:
        entry = force.entry
        place = self.force_place(force)
        modifiers = self.element_modifiers(entry)
        name = self.force_name(force)
        for constraint in entry.constraints:
            value = self.constraint_value(constraint, modifiers, place)
            query = constraint.query
            if query.field == "forces":
                scope_forces = (list(self._forces_from(self.forces, True))
                                if query.scope == "roster" or force.parent is None
                                else list(self._forces_from(force.parent.children,
                                                            query.include_child_forces)))
                count = Decimal(sum(1 for f in scope_forces if f.entry is entry))
            elif query.field == "selections":
                count = Decimal(len(force.roots))
            else:
                count = self.force_totals(force).get(query.field, ZERO)
            problem = _broken(constraint.kind, value, count)
            if problem:
                yield ValidationError(
                    "roster", None, f"{entry.id}/{constraint.id}",
                    f"The roster {problem} {name} forces (has {_number_text(count)})",
                    force_id=force.force.id)
        # Categories: the force's links and the categories' own constraints.
        for link in entry.category_links:
            category = force.context.category(link.target_id)
            holders: list[tuple[str, tuple[Constraint, ...], _Modifiers]] = [
                (link.id or link.target_id, link.constraints, self.element_modifiers(link))]
            if category is not None:
                # A force's link modifies its category's limits, as an entry link its
                # target's (Bretonnia: one more character than the game system's).
                holders.append((category.id, category.constraints,
                                self.element_modifiers(category, link)))
            category_name = category.name if category is not None else link.name
            for owner, constraints, owner_modifiers in holders:
                for constraint in constraints:
                    value = self.constraint_value(constraint, owner_modifiers, place)
                    count = self._category_count(constraint.query, place, link.target_id)
                    problem = _broken(constraint.kind, value, count)
                    if problem:
                        where = "The roster" if constraint.query.scope == "roster" else name
                        yield ValidationError(
                            "category", link.target_id, f"{owner}/{constraint.id}",
                            f"{where} {problem} {category_name} "
                            f"(has {_number_text(count)})", force_id=force.force.id)

    def _category_count(self, query: Query, place: Place, category_id: str) -> Decimal:
        field_name = query.field
        scope = self.scope(query.scope if query.scope != "parent" else "force", place)
        pool = self.selections_in(scope, query.include_child_selections,
                                  query.include_child_forces)
        members = [(n, w) for n, w in pool if category_id in self.categories(n)]
        if field_name == "selections":
            value = sum((w for _, w in members), ZERO)
            total = sum((w for _, w in pool), ZERO)
        else:
            value = self.costs_held(members, field_name)
            total = self.costs_held(pool, field_name)
        if query.percent_value:
            return HUNDRED * value / total if total else ZERO
        return value

    def _container_errors(self, container: SNode | FNode, children: tuple[Option, ...],
                          selections: list[SNode], seen: set[tuple[int, object, str | None]]
                          ) -> Iterator[ValidationError]:
        by_option: dict[int, list[SNode]] = {}
        in_group: dict[int, list[SNode]] = {}
        for node in selections:
            by_option.setdefault(id(node.option), []).append(node)
            for group in node.option.groups:
                in_group.setdefault(id(group), []).append(node)
        stack = list(reversed(children))
        while stack:
            option = stack.pop()
            if option.is_group:
                stack.extend(reversed(option.children))
                held = in_group.get(id(option), [])
            else:
                held = by_option.get(id(option), [])
            yield from self._option_errors(container, option, held, seen)

    def _option_errors(self, container: SNode | FNode, option: Option, held: list[SNode],
                       seen: set[tuple[int, object, str | None]]) -> Iterator[ValidationError]:
        constraints = option.constraints
        if not held and not any(c.kind in ("min", "exactly") for c in constraints):
            return
        place = (self.place_of(held[0]) if held and not option.is_group
                 else self.virtual(option, container))
        if option.is_group and held:
            place = Place(held[0], option, container,
                          container if isinstance(container, FNode) else container.force)
        if self.own_hidden(option, place):
            if held:
                yield self._hidden_error(container, option, held)
            return  # BattleScribe checks no constraint of a hidden entry
        if any(self.own_hidden(group, place) for group in option.groups):
            return  # the hidden group reports its selections
        modifiers = self.option_modifiers(option)
        for constraint in constraints:
            value = self.constraint_value(constraint, modifiers, place)
            if constraint.kind == "max" and (not held or value < 0):
                continue
            if constraint.kind in ("min", "exactly") and value <= 0 and not held:
                continue
            count = self.query_value(constraint.query, place, option, constraint=True)
            if count is None:
                continue
            problem = _broken(constraint.kind, value, count, constraint.query.percent_value)
            if not problem:
                continue
            # By what the scope stands for: a catalogue's or a category's scope is made
            # afresh per call, and its id() was another each time (one limit, two errors).
            key = (id(constraint), _scope_key(self.scope(constraint.query.scope, place)),
                   None if constraint.query.shared else option.entry_id)
            if key in seen:
                continue
            seen.add(key)
            owner = (option.definition.id if constraint in option.definition.constraints
                     else option.link.id if option.link is not None else option.definition.id)
            yield self._constraint_error(container, option, held, constraint, problem, count,
                                         f"{owner}/{constraint.id}")

    def _hidden_error(self, container: SNode | FNode, option: Option, held: list[SNode]
                      ) -> ValidationError:
        node = held[0]
        where = self._container_name(container)
        return ValidationError(
            "selection", node.option.entry_id, f"{option.definition.id}/hidden",
            f"{where} cannot have {option.name}: it is hidden here",
            force_id=node.force.force.id, selection_id=node.selection.id)

    def _container_name(self, container: SNode | FNode) -> str:
        if isinstance(container, FNode):
            return self.force_name(container)
        return container.selection.custom_name or self.name(self.place_of(container))

    def _constraint_error(self, container: SNode | FNode, option: Option, held: list[SNode],
                          constraint: Constraint, problem: str, count: Decimal, source: str
                          ) -> ValidationError:
        scope = constraint.query.scope
        force = container if isinstance(container, FNode) else container.force
        what = self._counted(constraint.query, option)
        shown = _number_text(count)
        if scope == "roster":
            owner_kind, owner_id, where = "roster", None, "The roster"
        elif scope in ("force", "primary-catalogue") or (
                scope == "parent" and isinstance(container, FNode)):
            owner_kind, owner_id = "force", force.entry.id
            where = self.force_name(force)
            if scope == "parent":
                category = self.primary_category(self.virtual(option, container)) \
                    if not option.is_group else None
                if category is not None and any(
                        link.target_id == category for link in force.entry.category_links):
                    owner_kind, owner_id = "category", category
        elif isinstance(container, SNode):
            owner_kind, owner_id = "selection", container.option.entry_id
            where = self._container_name(container)
        else:
            owner_kind, owner_id, where = "force", force.entry.id, self.force_name(force)
        selection_id = container.selection.id if isinstance(container, SNode) else None
        if constraint.kind == "max" and held and owner_kind != "selection":
            owner_kind, owner_id = "selection", held[0].option.entry_id
            selection_id = held[0].selection.id
        return ValidationError(owner_kind, owner_id, source,
                               f"{where} {problem} {what} (has {shown})",
                               force_id=force.force.id, selection_id=selection_id)

    def _counted(self, query: Query, option: Option) -> str:
        if query.field == "selections":
            return option.name
        if query.field == "forces":
            return f"forces of {option.name}"
        unit = next((c.name for c in self.cost_types if c.id == query.field), query.field)
        return f"{unit.strip()} of {option.name}"

    # -- auto-selection --------------------------------------------------------------
    def needed(self, container: SNode | FNode, options: tuple[Option, ...]
               ) -> list[tuple[Option, int]]:
        """What a new container must hold before a player chooses: each entry up to its
        minimum (selections, not percentages), and each group up to its minimum with its
        default entry. Hidden entries are left out, as New Recruit does: the real data hides
        options such as a campaign's rules behind a minimum of 1 until they apply, and
        selecting them would only make an error the player cannot act on."""
        wanted: list[tuple[Option, int]] = []
        if isinstance(container, FNode) and self.force_hidden(container):
            return wanted  # a hidden force gets nothing by itself
        stack = list(reversed(options))
        groups: list[Option] = []
        while stack:
            option = stack.pop()
            if option.is_group:
                groups.append(option)
                stack.extend(reversed(option.children))
                continue
            missing = self._missing(container, option, option)
            if missing > 0 and not self.hidden(self.virtual(option, container)):
                wanted.append((option, missing))
        for group in groups:
            missing = self._missing(container, group, group)
            if missing <= 0:
                continue
            already = sum(n for o, n in wanted if o in _members(group))
            if missing - already <= 0:
                continue
            default = self._default_entry(container, group)
            if default is not None and not self.hidden(self.virtual(default, container)):
                wanted.append((default, missing - already))
            elif default is None:
                wanted.extend(self._forced(container, group, missing - already, wanted))
        return wanted

    def _forced(self, container: SNode | FNode, group: Option, missing: int,
                wanted: list[tuple[Option, int]]) -> list[tuple[Option, int]]:
        """A group's minimum that only one choice meets: as many visible entries left, each
        taken once at most (a unit's four pieces of mandatory gear in a 4-of-4 group).
        Anything else is the player's choice."""
        taken = {id(o) for o, _ in wanted}
        left = [o for o in group.selectable if id(o) not in taken
                and not self.hidden(self.virtual(o, container))]
        if len(left) != missing:
            return []
        for option in left:
            place = self.virtual(option, container)
            limits = [self.constraint_value(c, self.option_modifiers(option), place)
                      for c in option.constraints
                      if c.kind == "max" and c.query.scope == "parent"]
            if not limits or min(limits) != 1:
                return []
        return [(option, 1) for option in left]

    def _missing(self, container: SNode | FNode, option: Option, counted: Option) -> int:
        constraints = option.constraints
        if not constraints:
            return 0
        place = self.virtual(option, container)
        modifiers = self.option_modifiers(option)
        missing = 0
        for constraint in constraints:
            query = constraint.query
            if constraint.kind not in ("min", "exactly") or query.field != "selections" \
                    or query.percent_value:
                continue
            value = self.constraint_value(constraint, modifiers, place)
            if value <= 0:
                continue
            count = self.query_value(query, place, counted, constraint=True) or ZERO
            missing = max(missing, math.ceil(value - count))
        return min(missing, MAX_AUTO)

    def _default_entry(self, container: SNode | FNode, group: Option) -> Option | None:
        default_id = group.definition.default_selection_entry_id
        if group.link is not None and group.link.default_selection_entry_id:
            default_id = group.link.default_selection_entry_id
        place = self.virtual(group, container)
        for modifier, gates in self.option_modifiers(group).for_field(
                "defaultSelectionEntryId"):
            if self.times(modifier, gates, place):
                default_id = modifier.value
        if not default_id:
            return None
        return next((member for member in group.selectable if is_named(member, default_id)),
                    None)


def is_named(option: Option, entry_id: str) -> bool:
    """Whether a group's default selection entry id (or any id naming an entry) is
    `option`: its definition, its full entry id or its link."""
    return entry_id in (option.definition.id, option.entry_id) or (
        option.link is not None and option.link.id == entry_id)


def _scope_key(scope: Scope) -> object:
    """What a scope is, for the caches: selections, forces and the roster live as long as
    the evaluation (their id is theirs); the other scopes are made per query, so they are
    keyed by what they stand for, never by an id a later object may reuse."""
    if isinstance(scope, CategoryScope):
        return ("category", id(scope.force), scope.category_id)
    if isinstance(scope, CatalogueScope):
        return ("catalogue", scope.catalogue_id)
    if isinstance(scope, Ancestors):
        return ("ancestors", *(id(node) for node in scope.nodes))
    return id(scope)


def _members(group: Option) -> tuple[Option, ...]:
    return group.selectable


def _unit(name: str) -> str:
    name = name.strip()
    return f" {name}" if name else ""


def _broken(kind: str, limit: Decimal, count: Decimal, percent: bool = False) -> str:
    """How a count breaks a constraint, in words ("" when it does not)."""
    shown = _number_text(limit) + ("%" if percent else "")
    if kind == "max":
        if limit >= 0 and count > limit:
            return f"can have at most {shown}"
    elif kind == "min":
        if count < limit:
            return f"must have at least {shown}"
    elif kind == "exactly" and limit >= 0 and count != limit:
        return f"must have exactly {shown}"
    return ""


def _loops(edges: dict[int, list[int]]) -> list[set[int]]:
    """Strongly connected components with a cycle (Tarjan, iterative)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    found: list[set[int]] = []
    counter = 0
    for start in list(edges):
        if start in index:
            continue
        work: list[tuple[int, Iterator[int]]] = [(start, iter(edges.get(start, ())))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            nxt = next(successors, None)
            if nxt is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component: set[int] = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges.get(node, ()):
                        found.append(component)
                continue
            if nxt not in index:
                index[nxt] = low[nxt] = counter
                counter += 1
                stack.append(nxt)
                on_stack.add(nxt)
                work.append((nxt, iter(edges.get(nxt, ()))))
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
    return found
