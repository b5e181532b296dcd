"""A game system with its catalogues: ids resolved once, links followed, options laid out.

Ids are looked up within one game system only, and for a force within its own load set:
the force's catalogue, the catalogues it imports (`catalogueLink`, transitively), then the
game system. Two catalogues of one system may reuse each other's ids (they do in the real
data), so each load set has its own index.

An `Option` is an entry as it can be selected at one place of the tree: the definition
reached through zero or more entry links and groups. It carries the composite ids
BattleScribe writes into rosters (`link::link::entry`, see battlescribe-spec's
entry-id-construction): every link on the way contributes its id, except that a child
defined on a link itself (not on the link's target) does not take that link's id.
Options are built on demand and memoised, so a roster touches only what it uses.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.model import (
    GROUP,
    CategoryEntry,
    CategoryLink,
    Constraint,
    CostType,
    DataFile,
    Entry,
    ForceEntry,
    InfoGroup,
    InfoLink,
    Modifier,
    ModifierGroup,
    Profile,
    ProfileType,
    Publication,
    Query,
    Rule,
)
from desktop.engine.errors import quoted

MAX_OPTION_DEPTH = 64  # links nest 4 deep in real data; deeper means a cycle slipped by
# A modifier applies at most this often in one place (as many times as a roster holds
# selections): a repeat of 10,000,000 is a data error, not a request.
MAX_TIMES = 100_000
# What a modifier on an entry may change besides costs, characteristics and constraints.
FIELDS = frozenset({"name", "hidden", "category", "defaultSelectionEntryId", "defaultAmount",
                    "page", "publicationId", "annotation", "error", "warning", "info",
                    "description", "collective", "sortIndex"})


# What an info link of each kind must point at to be shown.
INFO_KINDS: dict[str, type] = {"profile": Profile, "rule": Rule, "infoGroup": InfoGroup}
# What a condition or repeat may count besides an id: every selection, or one type of them.
COUNTABLE = frozenset({"any", "unit", "model", "upgrade", "mount", "crew", "unit-group"})


def _name(data: DataFile) -> str:
    return data.source or data.name


def flatten_modifiers(modifiers: tuple[Modifier, ...], groups: tuple[ModifierGroup, ...],
                      gates: tuple[ModifierGroup, ...] = ()
                      ) -> list[tuple[Modifier, tuple[ModifierGroup, ...]]]:
    """An element's modifiers in document order, each with the groups that gate it."""
    found = [(modifier, gates) for modifier in modifiers]
    for group in groups:
        found.extend(flatten_modifiers(group.modifiers, group.groups, (*gates, group)))
    return found


def holder_queries(holder: Modifier | ModifierGroup) -> list[Query]:
    """What the conditions (in their groups too) and repeats of a modifier or a modifier
    group count."""
    queries = [c.query for c in holder.conditions] + [r.query for r in holder.repeats]
    stack = list(holder.condition_groups)
    while stack:
        group = stack.pop()
        queries += [c.query for c in group.conditions]
        stack.extend(group.groups)
    return queries


def _index_file(data: DataFile) -> dict[str, object]:
    """Every node with an id in one file, first one wins (ids are unique within a file)."""
    index: dict[str, object] = {}

    def add(node_id: str, node: object) -> None:
        index.setdefault(node_id, node)

    def info(profiles: tuple[Profile, ...], rules: tuple[Rule, ...],
             groups: tuple[InfoGroup, ...]) -> None:
        for profile in profiles:
            add(profile.id, profile)
        for rule in rules:
            add(rule.id, rule)
        for group in groups:
            add(group.id, group)
            info(group.profiles, group.rules, group.info_groups)

    def forces(entries: tuple[ForceEntry, ...]) -> None:
        for force in entries:
            add(force.id, force)
            info(force.profiles, force.rules, force.info_groups)
            forces(force.force_entries)

    for publication in data.publications:
        add(publication.id, publication)
    for cost_type in data.cost_types:
        add(cost_type.id, cost_type)
    for profile_type in data.profile_types:
        add(profile_type.id, profile_type)
    for category in data.category_entries:
        add(category.id, category)
        info(category.profiles, category.rules, category.info_groups)
    forces(data.force_entries)
    stack = list(data.selection_entries + data.entry_links + data.shared_selection_entries
                 + data.shared_selection_entry_groups)
    while stack:
        entry = stack.pop()
        if not entry.is_link:
            add(entry.id, entry)
        info(entry.profiles, entry.rules, entry.info_groups)
        stack.extend(entry.children())
    info(data.shared_profiles, data.shared_rules, data.shared_info_groups)
    info((), data.rules, ())
    return index


@dataclass(eq=False)
class Context:
    """The load set of one catalogue (or of the game system alone): where its ids resolve."""

    data: GameData
    files: tuple[DataFile, ...]  # catalogue, its imports, game system
    catalogue: DataFile | None
    problems: list[str] = field(default_factory=list)
    _broken: set[int] = field(default_factory=set)  # id() of links that cannot be followed

    def find(self, node_id: str) -> object | None:
        for data in self.files:
            node = self.data.index(data).get(node_id)
            if node is not None:
                return node
        return None

    def target(self, link: Entry) -> Entry | None:
        """The entry or group a link stands for, or None when it cannot be followed."""
        if id(link) in self._broken or link.target_id is None:
            return None
        node = self.find(link.target_id)
        if isinstance(node, Entry) and not node.is_link:
            wanted_group = link.link_type == GROUP
            if node.is_group == wanted_group:
                return node
        return None

    def category(self, category_id: str) -> CategoryEntry | None:
        node = self.find(category_id)
        return node if isinstance(node, CategoryEntry) else None

    def publication(self, publication_id: str | None) -> Publication | None:
        if publication_id is None:
            return None
        node = self.find(publication_id)
        return node if isinstance(node, Publication) else None

    def info_target(self, target_id: str) -> object | None:
        return self.find(target_id)

    @cached_property
    def cost_types(self) -> tuple[CostType, ...]:
        """The game system's cost types, then any a catalogue declares itself."""
        seen: dict[str, CostType] = {}
        for data in reversed(self.files):
            for cost_type in data.cost_types:
                seen.setdefault(cost_type.id, cost_type)
        return tuple(seen.values())

    @cached_property
    def cost_type_ids(self) -> frozenset[str]:
        return frozenset(cost_type.id for cost_type in self.cost_types)

    @cached_property
    def priced_cost_type_ids(self) -> frozenset[str]:
        """The cost types some entry of the load set has a cost of (0 included)."""
        found: set[str] = set()
        for data in self.files:
            stack = list(data.root_entries() + data.shared_selection_entries
                         + data.shared_selection_entry_groups)
            while stack:
                entry = stack.pop()
                found.update(cost.type_id for cost in entry.costs)
                stack.extend(entry.children())
        return frozenset(found)

    @cached_property
    def profile_types(self) -> dict[str, ProfileType]:
        found: dict[str, ProfileType] = {}
        for data in reversed(self.files):
            for profile_type in data.profile_types:
                found.setdefault(profile_type.id, profile_type)
        return found

    @cached_property
    def characteristic_type_ids(self) -> frozenset[str]:
        return frozenset(c.id for p in self.profile_types.values()
                         for c in p.characteristic_types)

    @cached_property
    def root_options(self) -> tuple[Option, ...]:
        """What a force of this catalogue can select at its root: the catalogue's root
        entries and links, those of catalogues it imports with `importRootEntries`, and the
        game system's."""
        options: list[Option] = []
        if self.catalogue is not None:
            options.extend(self._options(self.catalogue.root_entries()))
            for imported in self.data.imports(self.catalogue):
                if imported.importing:
                    options.extend(self._options(
                        e for e in imported.file.root_entries() if e.import_))
        options.extend(self._options(self.data.game_system.root_entries()))
        return tuple(options)

    def _options(self, entries: Iterable[Entry]) -> Iterator[Option]:
        for entry in entries:
            option = make_option(self, entry, None, ())
            if option is not None:
                yield option

    @cached_property
    def root_selectable(self) -> tuple[Option, ...]:
        return tuple(flatten(self.root_options))

    def find_force_entry(self, force_entry_id: str) -> ForceEntry | None:
        node = self.find(force_entry_id)
        return node if isinstance(node, ForceEntry) else None

    def check_links(self) -> None:
        """Record links to missing ids, and break circular links (an entry reached again
        through its own descendants), so that the tree below every option is finite."""
        state: dict[int, int] = {}  # id(entry) → 1 on the path, 2 done
        for data in self.files:
            self._check_force_references(_name(data), data)
            # A frame with no entry holds the file's roots, so that a root that is a link
            # is followed and checked as any link is. An explicit stack of (node, iterator
            # of its children, each with the file that holds it, which messages name) keeps
            # deep data off the C stack.
            stack: list[tuple[Entry | None, Iterator[tuple[Entry, str]]]] = [(None, iter([
                (root, _name(data)) for root in data.root_entries()
                + data.shared_selection_entries + data.shared_selection_entry_groups]))]
            while stack:
                node, children = stack[-1]
                child, where = next(children, (None, ""))
                if child is None:
                    if node is not None:
                        state[id(node)] = 2
                    stack.pop()
                    continue
                if state.get(id(child)) is not None:
                    continue  # done (a shared entry reached before), or a link on the path
                state[id(child)] = 1
                self._check_references(where, child)
                if not child.is_link:
                    stack.append((child, iter([(c, where) for c in child.children()])))
                    continue
                target = self.target(child)
                if target is None:
                    if id(child) not in self._broken:
                        self._broken.add(id(child))
                        self.problems.append(
                            f"{where}: link {quoted(child.id, 40)} ({quoted(child.name, 40)}) "
                            f"points at {quoted(child.target_id, 40)}, which does not exist "
                            f"(or is not a {child.link_type}); it is left out")
                    state[id(child)] = 2
                    continue
                if state.get(id(target)) == 1:
                    self._broken.add(id(child))
                    self.problems.append(
                        f"{where}: link {quoted(child.id, 40)} ({quoted(child.name, 40)}) "
                        f"leads back to {quoted(target.name, 40)}, which contains it "
                        "(circular links); it is left out")
                    state[id(child)] = 2
                    continue
                # The link's own children belong to the link, its target's to the target.
                stack.append((child, iter([*((c, where) for c in child.children()),
                                           (target, self._holder(target))])))

    def _check_references(self, where: str, entry: Entry) -> None:
        """Record what an entry names that is not there: a category it links to, a profile,
        rule or info group it links to, an id a condition or repeat of it counts."""
        for link in entry.category_links:
            self._check_category_link(where, entry.name, entry.id, link)
        self._check_info_links(where, entry.name, entry.id, entry.info_links,
                               entry.info_groups)
        known = self.data.known_ids
        stack: list[Modifier | ModifierGroup] = [*entry.modifiers, *entry.modifier_groups]
        while stack:
            item = stack.pop()
            for query in holder_queries(item):
                if query.child_id is not None and query.child_id not in known:
                    self.problems.append(
                        f"{where}: {quoted(entry.name, 40)} ({quoted(entry.id, 40)}) has a "
                        f"condition or repeat counting {quoted(query.child_id, 40)}, which "
                        "no file of the game system defines (is a catalogue missing?); it "
                        "counts nothing")
            if isinstance(item, ModifierGroup):
                stack.extend((*item.modifiers, *item.groups))

    def _holder(self, entry: Entry) -> str:
        """The name of the file of the load set that defines `entry`."""
        for data in self.files:
            if self.data.index(data).get(entry.id) is entry:
                return _name(data)
        return _name(self.files[0])

    def _check_force_references(self, where: str, data: DataFile) -> None:
        for category in data.category_entries:
            self._check_info_links(where, category.name, category.id, category.info_links,
                                   category.info_groups)
        forces = list(data.force_entries)
        while forces:
            force = forces.pop()
            forces.extend(force.force_entries)
            for link in force.category_links:
                self._check_category_link(where, force.name, force.id, link)
            self._check_info_links(where, force.name, force.id, force.info_links,
                                   force.info_groups)

    def _check_category_link(self, where: str, name: str, owner_id: str,
                             link: CategoryLink) -> None:
        if self.category(link.target_id) is None:
            self.problems.append(
                f"{where}: {quoted(name, 40)} ({quoted(owner_id, 40)}) has a category link "
                f"{quoted(link.id, 40)} to {quoted(link.target_id, 40)}, which is no "
                "category; it is left out")

    def _check_info_links(self, where: str, name: str, owner_id: str,
                          links: tuple[InfoLink, ...], groups: tuple[InfoGroup, ...]) -> None:
        pending = [(links, groups)]
        while pending:
            links, groups = pending.pop()
            pending.extend((g.info_links, g.info_groups) for g in groups)
            for link in links:
                wanted = INFO_KINDS.get(link.kind)
                if wanted is not None and not isinstance(self.find(link.target_id), wanted):
                    self.problems.append(
                        f"{where}: {quoted(name, 40)} ({quoted(owner_id, 40)}) has an info "
                        f"link {quoted(link.id, 40)} to {quoted(link.target_id, 40)}, which "
                        f"is no {link.kind}; it is left out")

    def check_modifiers(self) -> None:
        """Record modifiers on a field that is none of the entry's: not a field BattleScribe
        or New Recruit modifies, a cost type, a characteristic type, nor one of its (or its
        link target's) constraints. The engine ignores them."""
        known = FIELDS | self.cost_type_ids | self.characteristic_type_ids
        for data in self.files:
            roots = (data.root_entries() + data.shared_selection_entries
                     + data.shared_selection_entry_groups)
            stack = list(roots)
            while stack:
                entry = stack.pop()
                stack.extend(entry.children())
                own = {c.id for c in entry.constraints}
                if entry.is_link:
                    target = self.target(entry)
                    if target is not None:
                        own.update(c.id for c in target.constraints)
                for modifier, _ in flatten_modifiers(entry.modifiers, entry.modifier_groups):
                    if modifier.field not in known and modifier.field not in own \
                            and not modifier.field.startswith("limit::"):
                        self.problems.append(
                            f"{data.source or data.name}: {quoted(entry.name, 40)} "
                            f"({quoted(entry.id, 40)}) has a modifier on "
                            f"{quoted(modifier.field, 40)}, which is no field of it nor one "
                            "of its constraints; it is ignored")
                    if any(r.repeats > MAX_TIMES for r in modifier.repeats):
                        self.problems.append(
                            f"{data.source or data.name}: {quoted(entry.name, 40)} "
                            f"({quoted(entry.id, 40)}) has a modifier on "
                            f"{quoted(modifier.field, 40)} repeated more than {MAX_TIMES:,} "
                            f"times; it applies {MAX_TIMES:,} times at most")


@dataclass(frozen=True)
class Import:
    file: DataFile
    importing: bool  # importRootEntries


class GameData:
    """One game system and the catalogues that belong to it."""

    def __init__(self, game_system: DataFile, catalogues: Iterable[DataFile] = ()) -> None:
        if not game_system.is_game_system:
            raise DataError(f"{game_system.source or game_system.name}: is a catalogue, not a "
                            "game system")
        self.game_system = game_system
        self.catalogues: dict[str, DataFile] = {}
        self.problems: list[str] = []
        for catalogue in catalogues:
            where = catalogue.source or catalogue.name
            if catalogue.is_game_system:
                raise DataError(f"{where}: a second game system (only one per set of data)")
            if catalogue.game_system_id not in (None, game_system.id):
                raise DataError(f"{where}: belongs to game system "
                                f"{quoted(catalogue.game_system_id, 40)}, not "
                                f"{quoted(game_system.id, 40)} ({quoted(game_system.name, 60)})")
            if catalogue.id in self.catalogues:
                raise DataError(f"{where}: a second catalogue with id {quoted(catalogue.id, 40)}")
            self.catalogues[catalogue.id] = catalogue
        self._indexes: dict[int, dict[str, object]] = {}
        self._contexts: dict[str | None, Context] = {}
        self._collective: dict[int, bool] = {}

    def index(self, data: DataFile) -> dict[str, object]:
        found = self._indexes.get(id(data))
        if found is None:
            found = self._indexes[id(data)] = _index_file(data)
        return found

    def imports(self, catalogue: DataFile) -> list[Import]:
        """The catalogues `catalogue` imports, directly or through another import, once."""
        found: list[Import] = []
        seen = {catalogue.id}
        queue = [catalogue]
        while queue:
            current = queue.pop(0)
            for link in current.catalogue_links:
                target = self.catalogues.get(link.target_id)
                if target is None:
                    self.problems.append(f"{current.source or current.name}: imports catalogue "
                                         f"{quoted(link.target_id, 40)} "
                                         f"({quoted(link.name, 60)}), which is not there")
                    continue
                if target.id in seen:
                    continue
                seen.add(target.id)
                found.append(Import(target, link.import_root_entries))
                queue.append(target)
        return found

    def context(self, catalogue_id: str | None) -> Context:
        """The load set of a catalogue (None: the game system alone)."""
        found = self._contexts.get(catalogue_id)
        if found is not None:
            return found
        if catalogue_id is None:
            files: tuple[DataFile, ...] = (self.game_system,)
            catalogue = None
        else:
            catalogue = self.catalogues.get(catalogue_id)
            if catalogue is None:
                raise DataError(f"no catalogue {quoted(catalogue_id, 40)} in "
                                f"{quoted(self.game_system.name, 60)}")
            files = (catalogue, *(i.file for i in self.imports(catalogue)), self.game_system)
        context = Context(self, files, catalogue)
        context.check_links()
        context.check_modifiers()
        self.problems.extend(context.problems)  # all_problems() gives each once
        self._contexts[catalogue_id] = context
        return context

    @cached_property
    def known_ids(self) -> frozenset[str]:
        """Every id a condition or repeat may count in this game system's data: its
        files', entries', groups', links', categories' and forces' ids (those of any
        catalogue: a roster may hold forces of several), and the names of what counts
        every selection or one type of them."""
        found: set[str] = set(COUNTABLE)
        for data in (self.game_system, *self.catalogues.values()):
            found.add(data.id)
            found.update(self.index(data))
            stack = list(data.root_entries() + data.shared_selection_entries
                         + data.shared_selection_entry_groups)
            while stack:
                entry = stack.pop()
                found.add(entry.id)
                found.update(link.id for link in entry.category_links)
                stack.extend(entry.children())
        return frozenset(found)

    def all_problems(self) -> list[str]:
        """Every problem of every load set: dangling and circular links, missing imports."""
        for catalogue_id in [None, *self.catalogues]:
            self.context(catalogue_id)
        return list(dict.fromkeys(self.problems))

    def collective_recursive(self, context: Context, option: Option) -> bool:
        """Whether every entry below the option is collective: then repeated selections of
        it are one selection with a count (New Recruit's `collective_recursive`)."""
        key = id(option.definition) if option.link is None else id(option.link)
        found = self._collective.get(key)
        if found is None:
            found = self._collective[key] = all(
                (child.definition.collective or (child.link is not None
                                                 and child.link.collective))
                and self.collective_recursive(context, child)
                for child in option.selectable)
        return found


class Option:
    """An entry or group as it can be selected (or holds selections) at one place."""

    def __init__(self, context: Context, definition: Entry, link: Entry | None,
                 parent: Option | None, prefix: tuple[str, ...]) -> None:
        self.context = context
        self.definition = definition
        self.link = link
        self.parent = parent
        self.prefix = prefix
        self.depth: int = 0 if parent is None else parent.depth + 1
        own = (link.id,) if link is not None else ()
        self.entry_id = "::".join((*prefix, *own, definition.id))

    def __repr__(self) -> str:
        return f"Option({self.entry_id!r}, {self.definition.name!r})"

    @property
    def is_group(self) -> bool:
        return self.definition.is_group

    @property
    def name(self) -> str:
        return self.definition.name or (self.link.name if self.link else "")

    @property
    def type(self) -> str:
        return "group" if self.is_group else self.definition.type

    @property
    def hidden(self) -> bool:
        return self.definition.hidden or (self.link is not None and self.link.hidden)

    @property
    def collective(self) -> bool:
        return self.definition.collective or (self.link is not None and self.link.collective)

    @cached_property
    def children(self) -> tuple[Option, ...]:
        """Options directly below: the definition's, then those defined on the link."""
        if self.depth >= MAX_OPTION_DEPTH:
            return ()
        target_prefix = (*self.prefix, self.link.id) if self.link is not None else self.prefix
        found = [option for child in self.definition.children()
                 if (option := make_option(self.context, child, self, target_prefix))]
        if self.link is not None:
            found.extend(option for child in self.link.children()
                         if (option := make_option(self.context, child, self, self.prefix)))
        return tuple(found)

    @cached_property
    def selectable(self) -> tuple[Option, ...]:
        """The entries a selection of this option (or this group) can hold: its children,
        looking into groups."""
        return tuple(flatten(self.children))

    @cached_property
    def groups(self) -> tuple[Option, ...]:
        """The group options between this one and its holder, innermost first."""
        found: list[Option] = []
        parent = self.parent
        while parent is not None and parent.is_group:
            found.append(parent)
            parent = parent.parent
        return tuple(found)

    @cached_property
    def holder(self) -> Option | None:
        """The entry option whose selections hold selections of this one (None: a force)."""
        parent = self.parent
        while parent is not None and parent.is_group:
            parent = parent.parent
        return parent

    @property
    def constraints(self) -> tuple[Constraint, ...]:
        """The definition's constraints, then the link's."""
        own = self.definition.constraints
        return own + self.link.constraints if self.link is not None else own

    @property
    def entry_group_id(self) -> str | None:
        return self.groups[0].entry_id if self.groups else None

    @cached_property
    def category_links(self) -> tuple[CategoryLink, ...]:
        """The category links of the definition, the link and the groups it sits in."""
        links = list(self.definition.category_links)
        if self.link is not None:
            links.extend(self.link.category_links)
        for group in self.groups:
            links.extend(group.definition.category_links)
            if group.link is not None:
                links.extend(group.link.category_links)
        return tuple(links)

    def match_keys(self, shared: bool) -> frozenset[str]:
        """The ids a query's childId can name to count this option: the definition's and
        the link's (shared), or the composite ids (not shared)."""
        return self._shared_keys if shared else self._own_keys

    @cached_property
    def _shared_keys(self) -> frozenset[str]:
        keys = {self.definition.id}
        if self.link is not None:
            keys.add(self.link.id)
        for group in self.groups:
            keys.add(group.definition.id)
            if group.link is not None:
                keys.add(group.link.id)
        return frozenset(keys)

    @cached_property
    def _own_keys(self) -> frozenset[str]:
        keys = {self.entry_id}
        keys.update(group.entry_id for group in self.groups)
        return frozenset(keys)


def make_option(context: Context, entry: Entry, parent: Option | None,
                prefix: tuple[str, ...]) -> Option | None:
    if entry.is_link:
        target = context.target(entry)
        if target is None:
            return None
        return Option(context, target, entry, parent, prefix)
    return Option(context, entry, None, parent, prefix)


def flatten(options: Iterable[Option]) -> Iterator[Option]:
    """Entry options, looking into groups (depth first, in order)."""
    for option in options:
        if option.is_group:
            yield from flatten(option.children)
        else:
            yield option
