"""BattleScribe game data as one typed, immutable tree.

A game system (`.gst`) and its catalogues (`.cat`) hold the same kinds of nodes: entries
and groups a player selects, links to shared ones, costs, constraints, modifiers with their
conditions and repeats, categories, force entries, profiles and rules. Each class here is
one XML element of BattleScribe's schema (v2.03) or of New Recruit's additions; attributes
keep their XML meaning and defaults. Nodes compare by identity: the tree is built once by
the reader and never changed, so a node can key a dictionary cheaply.

Numbers are `Decimal`, as the files write them: 0.1 + 0.2 is 0.3 here, as in the books.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

EntryKind = Literal["selectionEntry", "selectionEntryGroup", "entryLink"]
ENTRY: Literal["selectionEntry"] = "selectionEntry"
GROUP: Literal["selectionEntryGroup"] = "selectionEntryGroup"
LINK: Literal["entryLink"] = "entryLink"


@dataclass(frozen=True, eq=False)
class Query:
    """What a constraint, condition or repeat counts: `field` (selections, forces, a cost
    type id, `limit::<cost type id>`) of `child_id` within `scope`."""

    field: str = "selections"
    scope: str = "parent"
    child_id: str | None = None
    shared: bool = True
    include_child_selections: bool = False
    include_child_forces: bool = False
    percent_value: bool = False


@dataclass(frozen=True, eq=False)
class Constraint:
    id: str
    kind: str  # min, max, exactly
    value: Decimal
    query: Query


@dataclass(frozen=True, eq=False)
class Condition:
    kind: str  # atLeast, atMost, greaterThan, lessThan, equalTo, notEqualTo, instanceOf, ...
    value: Decimal
    query: Query


@dataclass(frozen=True, eq=False)
class ConditionGroup:
    kind: str  # and, or, not
    conditions: tuple[Condition, ...] = ()
    groups: tuple[ConditionGroup, ...] = ()


@dataclass(frozen=True, eq=False)
class Repeat:
    value: Decimal
    repeats: int
    round_up: bool
    query: Query


# The attributes and child lists many elements share, as keyword-only bases: a node's own
# fields stay first and positional; the shared ones follow, always given by name.
@dataclass(frozen=True, eq=False, kw_only=True)
class Conditional:
    """When a modifier applies, and how often."""

    conditions: tuple[Condition, ...] = ()
    condition_groups: tuple[ConditionGroup, ...] = ()
    repeats: tuple[Repeat, ...] = ()


@dataclass(frozen=True, eq=False)
class Modifier(Conditional):
    kind: str  # set, increment, decrement, append, prepend, add, remove, set-primary, ...
    field: str
    value: str
    join: str | None = None  # New Recruit: the separator of append/prepend


@dataclass(frozen=True, eq=False)
class ModifierGroup(Conditional):
    kind: str = "and"
    modifiers: tuple[Modifier, ...] = ()
    groups: tuple[ModifierGroup, ...] = ()


@dataclass(frozen=True, eq=False, kw_only=True)
class Modified:
    """An element that modifiers change."""

    modifiers: tuple[Modifier, ...] = ()
    modifier_groups: tuple[ModifierGroup, ...] = ()


@dataclass(frozen=True, eq=False, kw_only=True)
class Published(Modified):
    """What most elements say of themselves besides their id and name."""

    hidden: bool = False
    publication_id: str | None = None
    page: str | None = None


@dataclass(frozen=True, eq=False, kw_only=True)
class Constrained:
    constraints: tuple[Constraint, ...] = ()


@dataclass(frozen=True, eq=False, kw_only=True)
class Informed:
    """The profiles, rules and info groups an element holds, and its links to others."""

    profiles: tuple[Profile, ...] = ()
    rules: tuple[Rule, ...] = ()
    info_groups: tuple[InfoGroup, ...] = ()
    info_links: tuple[InfoLink, ...] = ()


@dataclass(frozen=True, eq=False)
class Cost:
    type_id: str
    name: str
    value: Decimal


@dataclass(frozen=True, eq=False)
class Characteristic:
    name: str
    type_id: str
    value: str


@dataclass(frozen=True, eq=False)
class Profile(Published):
    id: str
    name: str
    type_id: str
    type_name: str
    characteristics: tuple[Characteristic, ...] = ()


@dataclass(frozen=True, eq=False)
class Rule(Published):
    id: str
    name: str
    description: str = ""


@dataclass(frozen=True, eq=False)
class InfoLink(Published):
    id: str
    name: str
    target_id: str
    kind: str  # profile, rule, infoGroup


@dataclass(frozen=True, eq=False)
class InfoGroup(Published, Informed):
    id: str
    name: str


@dataclass(frozen=True, eq=False)
class CategoryLink(Modified, Constrained):
    id: str
    name: str
    target_id: str
    primary: bool = False
    hidden: bool = False


@dataclass(frozen=True, eq=False)
class CategoryEntry(Published, Constrained, Informed):
    id: str
    name: str


@dataclass(frozen=True, eq=False)
class ForceEntry(Published, Constrained, Informed):
    id: str
    name: str
    category_links: tuple[CategoryLink, ...] = ()
    force_entries: tuple[ForceEntry, ...] = ()


@dataclass(frozen=True, eq=False)
class Entry(Published, Constrained, Informed):
    """A `selectionEntry`, a `selectionEntryGroup` or an `entryLink` (`kind` says which):
    they share nearly every attribute and child list, so they are one class."""

    kind: EntryKind
    id: str
    name: str
    type: str = "upgrade"  # unit, model, upgrade (+ New Recruit: unit-group, mount, crew)
    collective: bool = False
    import_: bool = True
    target_id: str | None = None  # links only
    link_type: str | None = None  # links only: selectionEntry or selectionEntryGroup
    default_selection_entry_id: str | None = None  # groups
    sort_index: int | None = None
    costs: tuple[Cost, ...] = ()
    category_links: tuple[CategoryLink, ...] = ()
    selection_entries: tuple[Entry, ...] = ()
    selection_entry_groups: tuple[Entry, ...] = ()
    entry_links: tuple[Entry, ...] = ()

    @property
    def is_group(self) -> bool:
        return self.kind == GROUP

    @property
    def is_link(self) -> bool:
        return self.kind == LINK

    def children(self) -> tuple[Entry, ...]:
        """Entries, groups and links below, in the order BattleScribe lists them."""
        return self.selection_entries + self.selection_entry_groups + self.entry_links


@dataclass(frozen=True, eq=False)
class CostType:
    id: str
    name: str
    default_cost_limit: Decimal = Decimal(-1)
    hidden: bool = False


@dataclass(frozen=True, eq=False)
class CharacteristicType:
    id: str
    name: str


@dataclass(frozen=True, eq=False)
class ProfileType:
    id: str
    name: str
    characteristic_types: tuple[CharacteristicType, ...] = ()


@dataclass(frozen=True, eq=False)
class Publication:
    id: str
    name: str
    short_name: str | None = None


@dataclass(frozen=True, eq=False)
class CatalogueLink:
    id: str
    name: str
    target_id: str
    import_root_entries: bool = False


@dataclass(frozen=True, eq=False)
class DataFile:
    """A game system (`kind` "gameSystem") or a catalogue ("catalogue")."""

    kind: str
    id: str
    name: str
    revision: int = 1
    battle_scribe_version: str = ""
    game_system_id: str | None = None  # catalogues
    game_system_revision: int | None = None
    library: bool = False
    source: str = ""  # the file name it was read from, for messages
    publications: tuple[Publication, ...] = ()
    cost_types: tuple[CostType, ...] = ()
    profile_types: tuple[ProfileType, ...] = ()
    category_entries: tuple[CategoryEntry, ...] = ()
    force_entries: tuple[ForceEntry, ...] = ()
    selection_entries: tuple[Entry, ...] = ()
    entry_links: tuple[Entry, ...] = ()
    shared_selection_entries: tuple[Entry, ...] = ()
    shared_selection_entry_groups: tuple[Entry, ...] = ()
    shared_profiles: tuple[Profile, ...] = ()
    shared_rules: tuple[Rule, ...] = ()
    shared_info_groups: tuple[InfoGroup, ...] = ()
    rules: tuple[Rule, ...] = ()
    info_links: tuple[InfoLink, ...] = ()
    catalogue_links: tuple[CatalogueLink, ...] = ()

    @property
    def is_game_system(self) -> bool:
        return self.kind == "gameSystem"

    def root_entries(self) -> tuple[Entry, ...]:
        return self.selection_entries + self.entry_links
