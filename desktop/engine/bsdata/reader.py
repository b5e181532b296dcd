"""Reading game systems and catalogues: bytes in, a `DataFile` tree out.

The caller hands over the bytes and a name for messages; nothing here touches the file
system. `.gstz`/`.catz` (a zip holding one file) are unpacked in memory with their sizes
bounded. The XML is parsed with defusedxml (no DTDs, entities or external references), tags
are matched by local name within BattleScribe's namespaces, and every number is checked.
Anything wrong is one `DataError` line naming the file and the problem.
"""

from __future__ import annotations

import io
import lzma
import re
import zipfile
import zlib
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import PurePosixPath
from typing import TypedDict, TypeVar
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

import defusedxml.ElementTree as SafeTree
from defusedxml import DefusedXmlException

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.model import (
    ENTRY,
    GROUP,
    LINK,
    CatalogueLink,
    CategoryEntry,
    CategoryLink,
    Characteristic,
    CharacteristicType,
    Condition,
    ConditionGroup,
    Constraint,
    Cost,
    CostType,
    DataFile,
    Entry,
    EntryKind,
    ForceEntry,
    InfoGroup,
    InfoLink,
    Modifier,
    ModifierGroup,
    Profile,
    ProfileType,
    Publication,
    Query,
    Repeat,
    Rule,
)
from desktop.engine.errors import quoted
from desktop.memory import bulk_reading

# XML is fed to its parser this many bytes at a time: one call parses a large catalogue in
# ~70 ms holding the GIL, and a worker doing so froze the window's thread that long.
PARSE_SLICE = 64 * 1024
MAX_FILE_BYTES = 64 * 1024 * 1024  # the largest real catalogue is 2.4 MB
MAX_COMPRESSION_RATIO = 200
MAX_DEPTH = 200  # elements nested deeper than this are not data anyone wrote
NAMESPACE = "http://www.battlescribe.net/schema/"
SCHEMAS = {"gameSystem": "gameSystemSchema", "catalogue": "catalogueSchema",
           "roster": "rosterSchema"}
DATA_SUFFIXES = (".gst", ".cat")

T = TypeVar("T")


class Published(TypedDict):
    hidden: bool
    publication_id: str | None
    page: str | None


class Infos(TypedDict):
    profiles: tuple[Profile, ...]
    rules: tuple[Rule, ...]
    info_groups: tuple[InfoGroup, ...]
    info_links: tuple[InfoLink, ...]


def unpack(data: bytes, name: str, suffixes: tuple[str, ...] = DATA_SUFFIXES, *,
           limit: int = MAX_FILE_BYTES, what: str = "data file") -> bytes:
    """The XML of a file: itself, or the one file inside it when it is a zip (`.gstz`,
    `.catz`, `.rosz`): see `unzip`."""
    if len(data) > limit:
        raise DataError(f"{name}: refused: {len(data)} bytes is larger than the "
                        f"{limit} bytes Rout reads")
    if not data.startswith(b"PK\x03\x04"):
        return data
    return unzip(data, name, suffixes, limit=limit, what=what)


def unzip(data: bytes, name: str, suffixes: tuple[str, ...] = DATA_SUFFIXES, *,
          limit: int = MAX_FILE_BYTES, what: str = "data file") -> bytes:
    """The one file ending in `suffixes` inside the zip `data`, read in memory: refused
    when it unpacks to more than `limit` bytes (whatever its header says) or far more than
    it takes zipped, or when the zip names a path outside itself. `what` is the file inside
    in messages ("roster")."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError) as error:
        raise DataError(f"{name}: not a valid zip file ({error})") from None
    except NotImplementedError as error:
        # A damaged or exotic header: zipfile refuses "zip file version 19.3" and the like.
        raise DataError(f"{name}: a zip file Rout cannot read ({error})") from None
    with archive:
        members = archive.infolist()
        for member in members:
            path = PurePosixPath(member.filename.replace("\\", "/"))
            if path.is_absolute() or ".." in path.parts or re.match(r"^[A-Za-z]:", str(path)):
                raise DataError(f"{name}: refused: the zip holds a path outside itself "
                                f"(an unsafe file name {quoted(member.filename)})")
        # macOS Finder adds "__MACOSX/._name.ros" resource forks when it re-zips a file.
        inside = [m for m in members if m.filename.lower().endswith(suffixes)
                  and not m.filename.startswith("__MACOSX/")
                  and not PurePosixPath(m.filename).name.startswith("._")]
        if len(inside) != 1:
            wanted = "/".join(suffixes)
            raise DataError(f"{name}: a zipped {what} holds exactly one {wanted} file; "
                            f"this one holds {len(inside)}")
        member = inside[0]
        if member.flag_bits & 0x1:
            # Checked here: zipfile's own error would show its ZipInfo's repr to the player.
            raise DataError(f"{name}: the {what} inside is encrypted (password-protected)")
        if member.file_size > limit:
            raise DataError(f"{name}: refused: the {what} inside unpacks to "
                            f"{member.file_size} bytes (limit {limit})")
        if (member.file_size > 1024 * 1024
                and member.file_size > MAX_COMPRESSION_RATIO * max(member.compress_size, 1)):
            # Under the size limit, but no XML compresses this well: a zip bomb.
            raise DataError(f"{name}: refused: the {what} inside unpacks from "
                            f"{member.compress_size} to {member.file_size} bytes (more than "
                            f"{MAX_COMPRESSION_RATIO} times; a zip bomb?)")
        try:
            with archive.open(member) as handle:
                content = handle.read(limit + 1)  # the header's size can lie
        # Damaged compressed data raises the decompressor's own error, not zipfile's.
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError,
                ValueError, zlib.error, lzma.LZMAError) as error:
            raise DataError(f"{name}: the {what} inside cannot be unpacked ({error})"
                            ) from None
    if len(content) > limit:
        raise DataError(f"{name}: refused: the {what} inside unpacks to more than "
                        f"{limit} bytes")
    return content


def parse_xml(data: bytes, name: str) -> Element:
    try:
        return safe_xml(data)
    except DefusedXmlException as error:
        feature = type(error).__name__.removesuffix("Forbidden").upper()
        raise DataError(f"{name}: refused: the XML declares {feature} (entity expansion or "
                        "external references), which BattleScribe's files never need"
                        ) from None
    except ParseError as error:
        raise DataError(f"{name}: not well-formed XML ({error})") from None
    # LookupError: an encoding Python does not know, named in the XML declaration.
    except (ValueError, LookupError, RecursionError) as error:
        raise DataError(f"{name}: cannot be read as XML ({error})") from None


def safe_xml(data: bytes) -> Element:
    """`data` parsed as defusedxml.ElementTree.fromstring parses it (no DTD, no entities,
    nothing external), in PARSE_SLICE slices so that other threads run in between."""
    parser = SafeTree.DefusedXMLParser(target=TreeBuilder(), forbid_dtd=True)
    for start in range(0, len(data), PARSE_SLICE):
        parser.feed(data[start:start + PARSE_SLICE])
    root: Element = parser.close()
    return root


def root_kind(root: Element, name: str, expected: tuple[str, ...]) -> str:
    """The document's kind (gameSystem, catalogue, roster), checked against its namespace."""
    tag = root.tag if isinstance(root.tag, str) else ""
    namespace, _, local = tag[1:].partition("}") if tag.startswith("{") else ("", "", tag)
    if local not in expected:
        shown = " or ".join(f"<{kind}>" for kind in expected)
        raise DataError(f"{name}: not BattleScribe data (the document is "
                        f"<{quoted(local, 40)[1:-1]}>, expected {shown})")
    wanted = NAMESPACE + SCHEMAS[local]
    if namespace != wanted:
        raise DataError(f"{name}: wrong namespace {quoted(namespace or '(none)')} for "
                        f"<{local}> (expected {wanted!r})")
    return local


@bulk_reading(keep=False)  # a tree of values, no cycles: the collector's passes are waste
def read_data_file(data: bytes, name: str) -> DataFile:
    """A game system or catalogue from the bytes of a `.gst`, `.cat`, `.gstz` or `.catz`."""
    root = parse_xml(unpack(data, name), name)
    kind = root_kind(root, name, ("gameSystem", "catalogue"))
    return _Reader(name).data_file(root, kind)


def local_name(element: Element) -> str:
    """An element's tag without its namespace ("" for a comment or processing
    instruction)."""
    tag = element.tag
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def elements_at(element: Element, *path: str) -> list[Element]:
    """The elements along `path` below `element`, matched by local name, whatever
    namespace the file uses: `elements_at(root, "forces", "force")`."""
    found = [element]
    for name in path:
        found = [child for parent in found for child in parent if local_name(child) == name]
    return found


class _Reader:
    """Turns the elements of one file into model nodes; `name` is for messages."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.prefix = ""  # the file's "{namespace}": tags compare whole, not split each time

    # -- attribute helpers ------------------------------------------------------------
    def _where(self, element: Element) -> str:
        ident = element.get("id")
        label = f"<{local_name(element)}"
        if ident:
            label += f" id={quoted(ident, 40)}"
        return label + ">"

    def fail(self, element: Element, problem: str) -> DataError:
        return DataError(f"{self.name}: {self._where(element)} {problem}")

    def text(self, element: Element, attribute: str, default: str = "") -> str:
        value = element.get(attribute)
        return default if value is None else value

    def optional(self, element: Element, attribute: str) -> str | None:
        value = element.get(attribute)
        return value if value else None

    def required(self, element: Element, attribute: str) -> str:
        value = element.get(attribute)
        if value is None or value == "":
            raise self.fail(element, f"has no {attribute}")
        return value

    def boolean(self, element: Element, attribute: str, default: bool) -> bool:
        value = element.get(attribute)
        if value is None or value == "":
            return default
        lowered = value.strip().lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
        raise self.fail(element, f"{attribute} {quoted(value, 40)} is not true or false")

    def number(self, element: Element, attribute: str, default: Decimal | None = None
               ) -> Decimal:
        value = element.get(attribute)
        if value is None or value.strip() == "":
            if default is None:
                raise self.fail(element, f"has no {attribute}")
            return default
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise self.fail(element, f"{attribute} {quoted(value, 40)} is not a number"
                            ) from None
        if not number.is_finite() or abs(number) > Decimal(10) ** 12:
            raise self.fail(element, f"{attribute} {quoted(value, 40)} is not a usable number")
        return number

    def integer(self, element: Element, attribute: str, default: int) -> int:
        number = self.number(element, attribute, Decimal(default))
        if number != number.to_integral_value():
            raise self.fail(element, f"{attribute} {quoted(element.get(attribute), 40)} is "
                            "not a whole number")
        return int(number)

    # -- structure helpers ----------------------------------------------------------
    def items(self, element: Element, container: str, item: str,
              build: Callable[[Element], T]) -> tuple[T, ...]:
        """`build` over the `<item>` children of the `<container>` children."""
        found: list[T] = []
        outer, inner = self.prefix + container, self.prefix + item
        for child in element:
            if child.tag == outer:
                for grandchild in child:
                    if grandchild.tag == inner:
                        found.append(build(grandchild))
        return tuple(found)

    def child_text(self, element: Element, tag: str) -> str:
        wanted = self.prefix + tag
        for child in element:
            if child.tag == wanted:
                return child.text or ""
        return ""

    # -- queries, modifiers ---------------------------------------------------------
    def query(self, element: Element, default_scope: str = "parent") -> Query:
        return Query(
            field=self.text(element, "field", "selections") or "selections",
            scope=self.text(element, "scope", default_scope) or default_scope,
            child_id=self.optional(element, "childId"),
            shared=self.boolean(element, "shared", True),
            include_child_selections=self.boolean(element, "includeChildSelections", False),
            include_child_forces=self.boolean(element, "includeChildForces", False),
            percent_value=self.boolean(element, "percentValue", False),
        )

    def constraint(self, element: Element) -> Constraint:
        kind = self.required(element, "type")
        if kind not in ("min", "max", "exactly"):
            raise self.fail(element, f"has an unknown type {quoted(kind, 40)}")
        return Constraint(id=self.required(element, "id"), kind=kind,
                          value=self.number(element, "value"), query=self.query(element))

    def condition(self, element: Element) -> Condition:
        return Condition(kind=self.required(element, "type"),
                         value=self.number(element, "value", Decimal(0)),
                         query=self.query(element))

    def condition_group(self, element: Element) -> ConditionGroup:
        return ConditionGroup(
            kind=self.text(element, "type", "and") or "and",
            conditions=self.items(element, "conditions", "condition", self.condition),
            groups=self.items(element, "conditionGroups", "conditionGroup",
                              self.condition_group))

    def repeat(self, element: Element) -> Repeat:
        return Repeat(value=self.number(element, "value", Decimal(1)),
                      repeats=self.integer(element, "repeats", 1),
                      round_up=self.boolean(element, "roundUp", False),
                      query=self.query(element))

    def modifier(self, element: Element) -> Modifier:
        return Modifier(
            kind=self.required(element, "type"),
            field=self.required(element, "field"),
            value=self.text(element, "value"),
            conditions=self.items(element, "conditions", "condition", self.condition),
            condition_groups=self.items(element, "conditionGroups", "conditionGroup",
                                        self.condition_group),
            repeats=self.items(element, "repeats", "repeat", self.repeat),
            join=element.get("join"),
        )

    def modifier_group(self, element: Element) -> ModifierGroup:
        return ModifierGroup(
            kind=self.text(element, "type", "and") or "and",
            conditions=self.items(element, "conditions", "condition", self.condition),
            condition_groups=self.items(element, "conditionGroups", "conditionGroup",
                                        self.condition_group),
            repeats=self.items(element, "repeats", "repeat", self.repeat),
            modifiers=self.items(element, "modifiers", "modifier", self.modifier),
            groups=self.items(element, "modifierGroups", "modifierGroup",
                              self.modifier_group),
        )

    def modifiers(self, element: Element) -> tuple[tuple[Modifier, ...],
                                                  tuple[ModifierGroup, ...]]:
        return (self.items(element, "modifiers", "modifier", self.modifier),
                self.items(element, "modifierGroups", "modifierGroup", self.modifier_group))

    # -- info -------------------------------------------------------------------------
    def characteristic(self, element: Element) -> Characteristic:
        return Characteristic(name=self.text(element, "name"),
                              type_id=self.text(element, "typeId"),
                              value=element.text or "")

    def published(self, element: Element) -> Published:
        """What most elements say of themselves besides their id and name."""
        return Published(hidden=self.boolean(element, "hidden", False),
                         publication_id=self.optional(element, "publicationId"),
                         page=self.optional(element, "page"))

    def infos(self, element: Element) -> Infos:
        """The profiles, rules and info groups an element holds, and its links to others."""
        return Infos(profiles=self.items(element, "profiles", "profile", self.profile),
                     rules=self.items(element, "rules", "rule", self.rule),
                     info_groups=self.items(element, "infoGroups", "infoGroup",
                                            self.info_group),
                     info_links=self.items(element, "infoLinks", "infoLink", self.info_link))

    def profile(self, element: Element) -> Profile:
        modifiers, groups = self.modifiers(element)
        return Profile(
            id=self.required(element, "id"), name=self.text(element, "name"),
            type_id=self.text(element, "typeId"), type_name=self.text(element, "typeName"),
            **self.published(element),
            characteristics=self.items(element, "characteristics", "characteristic",
                                       self.characteristic),
            modifiers=modifiers, modifier_groups=groups)

    def rule(self, element: Element) -> Rule:
        modifiers, groups = self.modifiers(element)
        return Rule(id=self.required(element, "id"), name=self.text(element, "name"),
                    description=self.child_text(element, "description"),
                    **self.published(element),
                    modifiers=modifiers, modifier_groups=groups)

    def info_link(self, element: Element) -> InfoLink:
        modifiers, groups = self.modifiers(element)
        kind = self.required(element, "type")
        if kind not in ("profile", "rule", "infoGroup"):
            raise self.fail(element, f"links to an unknown kind {quoted(kind, 40)}")
        return InfoLink(id=self.required(element, "id"), name=self.text(element, "name"),
                        target_id=self.required(element, "targetId"), kind=kind,
                        **self.published(element),
                        modifiers=modifiers, modifier_groups=groups)

    def info_group(self, element: Element) -> InfoGroup:
        modifiers, groups = self.modifiers(element)
        return InfoGroup(
            id=self.required(element, "id"), name=self.text(element, "name"),
            **self.published(element),
            **self.infos(element),
            modifiers=modifiers, modifier_groups=groups)

    # -- categories, forces, entries ---------------------------------------------------
    def category_link(self, element: Element) -> CategoryLink:
        modifiers, groups = self.modifiers(element)
        return CategoryLink(
            id=self.text(element, "id"), name=self.text(element, "name"),
            target_id=self.required(element, "targetId"),
            primary=self.boolean(element, "primary", False),
            hidden=self.boolean(element, "hidden", False),
            constraints=self.items(element, "constraints", "constraint", self.constraint),
            modifiers=modifiers, modifier_groups=groups)

    def category_entry(self, element: Element) -> CategoryEntry:
        modifiers, groups = self.modifiers(element)
        return CategoryEntry(
            id=self.required(element, "id"), name=self.text(element, "name"),
            **self.published(element),
            constraints=self.items(element, "constraints", "constraint", self.constraint),
            modifiers=modifiers, modifier_groups=groups,
            **self.infos(element))

    def force_entry(self, element: Element) -> ForceEntry:
        modifiers, groups = self.modifiers(element)
        return ForceEntry(
            id=self.required(element, "id"), name=self.text(element, "name"),
            **self.published(element),
            constraints=self.items(element, "constraints", "constraint", self.constraint),
            modifiers=modifiers, modifier_groups=groups,
            category_links=self.items(element, "categoryLinks", "categoryLink",
                                      self.category_link),
            force_entries=self.items(element, "forceEntries", "forceEntry", self.force_entry),
            **self.infos(element))

    def cost(self, element: Element) -> Cost:
        return Cost(type_id=self.required(element, "typeId"), name=self.text(element, "name"),
                    value=self.number(element, "value"))

    def entry(self, element: Element, kind: EntryKind, depth: int = 0) -> Entry:
        if depth > MAX_DEPTH:
            raise self.fail(element, f"is nested more than {MAX_DEPTH} levels deep")
        modifiers, groups = self.modifiers(element)
        target_id = link_type = None
        if kind == LINK:
            target_id = self.required(element, "targetId")
            link_type = self.text(element, "type", ENTRY) or ENTRY
            if link_type not in (ENTRY, GROUP):
                raise self.fail(element, f"links to an unknown kind {quoted(link_type, 40)}")
        sort_index = element.get("sortIndex")
        return Entry(
            kind=kind,
            id=self.required(element, "id"),
            name=self.text(element, "name"),
            type=self.text(element, "type", "upgrade") if kind == ENTRY else
            (link_type or "") if kind == LINK else "group",
            hidden=self.boolean(element, "hidden", False),
            collective=self.boolean(element, "collective", False),
            import_=self.boolean(element, "import", True),
            target_id=target_id,
            link_type=link_type,
            default_selection_entry_id=self.optional(element, "defaultSelectionEntryId"),
            publication_id=self.optional(element, "publicationId"),
            page=self.optional(element, "page"),
            sort_index=self.integer(element, "sortIndex", 0) if sort_index else None,
            costs=self.items(element, "costs", "cost", self.cost),
            constraints=self.items(element, "constraints", "constraint", self.constraint),
            modifiers=modifiers, modifier_groups=groups,
            category_links=self.items(element, "categoryLinks", "categoryLink",
                                      self.category_link),
            selection_entries=self.items(element, "selectionEntries", "selectionEntry",
                                         lambda e: self.entry(e, ENTRY, depth + 1)),
            selection_entry_groups=self.items(element, "selectionEntryGroups",
                                              "selectionEntryGroup",
                                              lambda e: self.entry(e, GROUP, depth + 1)),
            entry_links=self.items(element, "entryLinks", "entryLink",
                                   lambda e: self.entry(e, LINK, depth + 1)),
            **self.infos(element),
        )

    # -- the file -----------------------------------------------------------------------
    def cost_type(self, element: Element) -> CostType:
        return CostType(id=self.required(element, "id"), name=self.text(element, "name"),
                        default_cost_limit=self.number(element, "defaultCostLimit",
                                                       Decimal(-1)),
                        hidden=self.boolean(element, "hidden", False))

    def profile_type(self, element: Element) -> ProfileType:
        return ProfileType(
            id=self.required(element, "id"), name=self.text(element, "name"),
            characteristic_types=self.items(
                element, "characteristicTypes", "characteristicType",
                lambda e: CharacteristicType(self.required(e, "id"), self.text(e, "name"))))

    def publication(self, element: Element) -> Publication:
        return Publication(id=self.required(element, "id"), name=self.text(element, "name"),
                           short_name=self.optional(element, "shortName"))

    def catalogue_link(self, element: Element) -> CatalogueLink:
        return CatalogueLink(id=self.text(element, "id"), name=self.text(element, "name"),
                             target_id=self.required(element, "targetId"),
                             import_root_entries=self.boolean(element, "importRootEntries",
                                                              False))

    def data_file(self, root: Element, kind: str) -> DataFile:
        tag = root.tag if isinstance(root.tag, str) else ""
        self.prefix = tag[:tag.index("}") + 1] if tag.startswith("{") else ""
        game_system_revision = root.get("gameSystemRevision")
        try:
            return DataFile(
                kind=kind,
                id=self.required(root, "id"),
                name=self.text(root, "name"),
                revision=self.integer(root, "revision", 1),
                battle_scribe_version=self.text(root, "battleScribeVersion"),
                game_system_id=self.optional(root, "gameSystemId"),
                game_system_revision=(self.integer(root, "gameSystemRevision", 1)
                                      if game_system_revision else None),
                library=self.boolean(root, "library", False),
                source=self.name,
                publications=self.items(root, "publications", "publication",
                                        self.publication),
                cost_types=self.items(root, "costTypes", "costType", self.cost_type),
                profile_types=self.items(root, "profileTypes", "profileType",
                                         self.profile_type),
                category_entries=self.items(root, "categoryEntries", "categoryEntry",
                                            self.category_entry),
                force_entries=self.items(root, "forceEntries", "forceEntry", self.force_entry),
                selection_entries=self.items(root, "selectionEntries", "selectionEntry",
                                             lambda e: self.entry(e, ENTRY)),
                entry_links=self.items(root, "entryLinks", "entryLink",
                                       lambda e: self.entry(e, LINK)),
                shared_selection_entries=self.items(root, "sharedSelectionEntries",
                                                    "selectionEntry",
                                                    lambda e: self.entry(e, ENTRY)),
                shared_selection_entry_groups=self.items(root, "sharedSelectionEntryGroups",
                                                         "selectionEntryGroup",
                                                         lambda e: self.entry(e, GROUP)),
                shared_profiles=self.items(root, "sharedProfiles", "profile", self.profile),
                shared_rules=self.items(root, "sharedRules", "rule", self.rule),
                shared_info_groups=self.items(root, "sharedInfoGroups", "infoGroup",
                                              self.info_group),
                rules=self.items(root, "rules", "rule", self.rule),
                info_links=self.items(root, "infoLinks", "infoLink", self.info_link),
                catalogue_links=self.items(root, "catalogueLinks", "catalogueLink",
                                           self.catalogue_link),
            )
        except RecursionError:
            raise DataError(f"{self.name}: elements nested too deeply to be data") from None

