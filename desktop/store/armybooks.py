"""Armies built from army books: a player's BattleScribe game data, a roster behind the army.

An army built from a catalogue keeps its roster (`Army.book`, desktop.engine.model.ArmyBook):
the selections with their entry ids and counts, and what the catalogue said of them. Its
units are what that roster becomes, by the very reading that imports a roster file
(`battlescribe.roster_units` on the element tree the engine writes for it), so an army built
here and one imported from New Recruit are the same kind of army, deploy the same way and
export the same way. Nothing here decides a rule: the engine (desktop.engine.bsdata) prices,
validates and writes the roster; this module only keeps the army in step with it.

What a unit keeps of its own when its roster changes: its id and its formation (files,
which BattleScribe does not know), clamped to its models. Units without a selection (added
from Rout's library) stay as they are, where they are.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.document import ReadDocument, read_document, roster_document
from desktop.engine.bsdata.errors import DataError, RosterActionError
from desktop.engine.bsdata.evaluate import Evaluation
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.roster import Force, Roster, Selection
from desktop.engine.bsdata.rosterfile import roster_bytes, roster_element
from desktop.engine.bsdata.state import ForceState, RosterState, SelectionState, roster_state
from desktop.engine.bsdata.units import points_type
from desktop.engine.errors import quoted
from desktop.engine.model import Army, ArmyBook, BookProblem, Unit
from desktop.engine.naming import numbered_name
from desktop.store.battlescribe import FALLBACK_RULESET, guess_ruleset, roster_units
from desktop.store.errors import BadFileError, NotFoundError
from desktop.store.files import short_path, write_atomically
from desktop.store.gamedata import load_game_data
from desktop.store.store import Store

ROSTER_SUFFIXES = (".ros", ".rosz")
UNIT_TYPES = ("unit", "model", None)  # the root selections a roster reading makes units of


@dataclass(frozen=True)
class Built:
    """An army as its roster makes it, and what the reading of its units warned of."""

    army: Army
    warnings: tuple[str, ...] = ()
    # What the engine said of its roster: given back to the next `with_roster` of this
    # army, it lets the units of the selections that did not change stay as they are.
    state: RosterState | None = None
    # The engine's evaluation of that roster (`.roster`): what shows the army's options
    # next asks it again instead of reading the stored document anew.
    evaluation: Evaluation | None = None


def book_ruleset(data: GameData) -> str:
    """The ruleset an army of this game system plays (as an import of its roster would)."""
    return guess_ruleset(data.game_system.name) or FALLBACK_RULESET


def points_type_id(data: GameData) -> str:
    found = points_type(data.context(None).cost_types)
    return found.id if found is not None else ""


def new_book_army(data: GameData, catalogue_id: str, force_entry_id: str, name: str,
                  player: str, points_limit: int = 0) -> Built:
    """A new army of one force of `catalogue_id`, with what the force must hold selected
    (the engine's add_force), its points limit as the roster's."""
    if catalogue_id not in data.catalogues:
        raise RosterActionError(f"no catalogue {quoted(catalogue_id, 40)} in the game data")
    roster = actions.new_roster(name)
    roster, _ = actions.add_force(data, roster, force_entry_id, catalogue_id)
    if points_limit:
        roster = actions.set_cost_limit(roster, points_type_id(data), Decimal(points_limit))
    army = Army(name=name, player=player, ruleset=book_ruleset(data), units=(),
                points_limit=points_limit)
    return with_roster(data, army, roster, catalogue_id)


def book_roster(data: GameData, army: Army) -> ReadDocument:
    """The army's roster linked to `data` (what the data no longer has is named)."""
    if army.book is None:
        raise RosterActionError(f"{quoted(army.name)} is not built from an army book")
    return read_document(data, army.book.roster, army.name)


def _root_of(roster: Roster) -> dict[str, str]:
    """Every selection id → the id of the root selection it sits under."""
    found: dict[str, str] = {}

    def walk(selections: tuple[Selection, ...], root: str) -> None:
        for selection in selections:
            found[selection.id] = root
            walk(selection.children, root)

    def forces(items: tuple[Force, ...]) -> None:
        for force in items:
            for selection in force.selections:
                found[selection.id] = selection.id
                walk(selection.children, selection.id)
            forces(force.forces)
    forces(roster.forces)
    return found


def _root_states(forces: tuple[ForceState, ...]) -> dict[str, SelectionState]:
    """Every force's root selections (its units, characters and the rest) by id."""
    found: dict[str, SelectionState] = {}
    for force in forces:
        found.update((selection.id, selection) for selection in force.selections)
        found.update(_root_states(force.forces))
    return found


def _only(forces: tuple[ForceState, ...], wanted: set[str]) -> tuple[ForceState, ...]:
    """The forces holding only the root selections in `wanted`."""
    return tuple(replace(force, selections=tuple(s for s in force.selections
                                                 if s.id in wanted),
                         forces=_only(force.forces, wanted)) for force in forces)


def _unit_order(forces: tuple[ForceState, ...], order: list[str]) -> list[str]:
    """The root selections that are units, in the order a roster file written with
    `order` lists them (rosterfile.roster_element): what a full reading gives."""
    rank = {selection_id: index for index, selection_id in enumerate(order)}
    found: list[str] = []
    for force in forces:
        ordered = sorted(enumerate(force.selections),
                         key=lambda pair: (rank.get(pair[1].id, len(rank)), pair[0]))
        found.extend(s.id for _, s in ordered if s.type in UNIT_TYPES)
        found.extend(_unit_order(force.forces, order))
    return found


def with_roster(data: GameData, army: Army, roster: Roster,
                catalogue_id: str | None = None, previous: RosterState | None = None
                ) -> Built:
    """`army` as `roster` makes it: its units, its points limit and its book.

    A unit the roster had before keeps its id and formation; a new one is appended; one
    whose selection is gone goes; units that are not the roster's stay where they are.
    `previous`: the state of the roster `army` was built from (Built.state); a root
    selection whose state is still that one keeps its unit as it is (the very object), and
    only the others are read again, so an edit costs what it changes. The reading's
    warnings are then those of the units read again.
    """
    book = army.book
    catalogue_id = catalogue_id or (book.catalogue_id if book else None)
    if catalogue_id is None or catalogue_id not in data.catalogues:
        raise RosterActionError(f"{quoted(army.name)}: its catalogue is not in the game data")
    roster = replace(roster, name=army.name)
    evaluation = Evaluation(data, roster)
    state = roster_state(data, roster, evaluation)
    linked_units = {selection: unit for unit, selection in book.units} if book else {}
    order = [previous_selection for unit in army.units
             if (previous_selection := book.selection_of(unit.id) if book else None)]
    old_units = {unit.id: unit for unit in army.units}
    kept = {selection: unit for selection, unit in linked_units.items()
            if unit in old_units}
    # A root selection whose evaluated state is what it was makes the same unit: the unit
    # reading sees nothing of a selection but its element, written from that state alone.
    before = _root_states(previous.forces) if previous is not None else {}
    now = _root_states(state.forces)
    same = {selection_id for selection_id, shown in now.items()
            if selection_id in kept and before.get(selection_id) == shown
            and old_units[kept[selection_id]].player == army.player}
    pairs: list[tuple[str, Unit]] = []
    warnings: list[str] = []
    if not same or any(now[selection_id].type in UNIT_TYPES for selection_id in now
                       if selection_id not in same):
        root = roster_element(data, roster, evaluation,
                              replace(state, forces=_only(state.forces, set(now) - same))
                              if same else state, order)
        pairs, warnings = roster_units(root, army.ruleset, f"{army.name} (its army book)",
                                       kept, taken=old_units)
    made: dict[str, Unit] = {}
    fresh: set[str] = set()  # the units read anew, by id
    links: list[tuple[str, str]] = []
    read = dict(pairs)
    for selection_id in _unit_order(state.forces, order):
        if selection_id in same:
            made[selection_id] = unit = old_units[kept[selection_id]]
            links.append((unit.id, selection_id))
            continue
        unit = read[selection_id]
        prior = old_units.get(kept.get(selection_id, ""))
        if prior is not None:
            unit = replace(unit, files=max(min(prior.files, unit.models), 1))
        unit = replace(unit, player=army.player)
        made[selection_id] = unit
        fresh.add(unit.id)
        links.append((unit.id, selection_id))
    linked_before = set(linked_units.values())
    units: list[Unit] = []
    for unit in army.units:
        linked = book.selection_of(unit.id) if book else None
        if linked is None and unit.id not in linked_before:
            units.append(unit)  # not the roster's: left as it is
        elif linked in made:
            units.append(made.pop(linked))
    units.extend(made.values())
    # Two selections of one entry make two units of one name (two Knights of the Realm):
    # one read anew takes a number when an earlier unit has its name, so that the roster,
    # the table and the battle log tell them apart (the roster keeps the entries' names).
    names: set[str] = set()
    for index, unit in enumerate(units):
        if unit.id in fresh and unit.name.casefold() in names:
            unit = units[index] = replace(unit, name=numbered_name(unit.name, names))
        names.add(unit.name.casefold())
    roots = _root_of(roster)
    by_selection = {selection: unit for unit, selection in links}
    problems = tuple(
        BookProblem(error.message,
                    by_selection.get(roots.get(error.selection_id or "", ""), ""),
                    error.selection_id or "")
        for error in state.errors)
    catalogue = data.catalogues[catalogue_id]
    limit = roster.limit(points_type_id(data))
    new_book = ArmyBook(
        game_system_id=data.game_system.id, game_system_name=data.game_system.name,
        catalogue_id=catalogue_id, catalogue_name=catalogue.name,
        catalogue_revision=catalogue.revision, roster=roster_document(roster, state),
        units=tuple(sorted(links, key=lambda pair: [u.id for u in units].index(pair[0]))),
        problems=problems)
    points_limit = int(limit) if limit is not None and limit >= 0 else 0
    return Built(replace(army, units=tuple(units), book=new_book, points_limit=points_limit),
                 tuple(warnings), state, evaluation)


def unlinked(army: Army) -> Army:
    """The army as plain units: what its roster made of them stays, its roster goes (the
    points then follow the models at the price the catalogue gave, as an import's do)."""
    return replace(army, book=None)


def roster_file_bytes(data: GameData, army: Army) -> bytes:
    """The army's roster as a BattleScribe `.ros` document, its units in the army's order."""
    read = book_roster(data, army)
    roster = replace(read.roster, name=army.name)
    order = [selection for unit in army.units
             if (selection := army.book.selection_of(unit.id) if army.book else None)]
    return roster_bytes(roster_element(data, roster, order=order))


def zipped_roster(ros: bytes, name: str) -> bytes:
    """A `.rosz`: a zip holding the one `.ros`, as BattleScribe and New Recruit write it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{_file_stem(name)}.ros", ros)
    return buffer.getvalue()


def _file_stem(name: str) -> str:
    cleaned = "".join("_" if ch in '/\\:*?"<>|\0' else ch for ch in name).strip(" .")
    return cleaned[:120] or "roster"


def write_roster_file(data: GameData, army: Army, path: Path) -> str:
    """Write the army's roster as `.ros` or `.rosz` (by the suffix), atomically; the
    format written."""
    suffix = path.suffix.lower()
    if suffix not in ROSTER_SUFFIXES:
        raise BadFileError(f"{short_path(path)}: a BattleScribe roster is .ros or .rosz")
    try:
        content = roster_file_bytes(data, army)
    except (DataError, RosterActionError) as error:
        raise BadFileError(f"{quoted(army.name)}: {error}") from None
    write_atomically(path, zipped_roster(content, army.name) if suffix == ".rosz"
                     else content)
    return suffix.lstrip(".")


def write_army_roster(store: Store, army: Army, path: Path) -> str:
    """Write an army built from an army book as a BattleScribe roster (`.ros`/`.rosz`),
    from the game data stored for it; one line saying why for any other army."""
    book = army.book
    if book is None:
        raise BadFileError(f"{quoted(army.name)} is not built from an army book: Rout writes "
                           "a BattleScribe roster (.ros, .rosz) for armies built from game "
                           "data or imported with their catalogue stored (export it as .json, "
                           ".txt or .md)")
    try:
        data = load_game_data(store, book.game_system_id, book.catalogue_id)
    except NotFoundError:
        raise BadFileError(f"{quoted(army.name)}: its game data ({quoted(book.catalogue_name)}"
                           f", {quoted(book.game_system_name)}) is not stored in "
                           f"{store.describe()}: add it again (rout data add)") from None
    return write_roster_file(data, army, path)


def armies_of(armies: Iterable[Army], game_system_id: str,
              catalogue_id: str | None = None) -> Iterator[Army]:
    """The armies built from a game system's data (from one of its catalogues)."""
    for army in armies:
        book = army.book
        if book is not None and book.game_system_id == game_system_id and (
                catalogue_id is None or book.catalogue_id == catalogue_id):
            yield army


def changed_costs(read: ReadDocument, evaluation: Evaluation) -> list[tuple[str, Decimal,
                                                                              Decimal]]:
    """Selections the data now prices otherwise than the roster kept (a newer revision):
    (selection id, kept, now) in points."""
    pts = points_type(evaluation.cost_types)
    if pts is None:
        return []
    found = []
    for node in evaluation.all_selections:
        kept = read.kept_costs.get(node.selection.id)
        if kept is None:
            continue
        before = kept.get(pts.id, Decimal(0))
        now = evaluation.cost_of(node).get(pts.id, Decimal(0))
        if before != now:
            found.append((node.selection.id, before, now))
    return found


def book_summary(book: ArmyBook) -> Mapping[str, object]:
    """What `rout armies` and exports say of an army's book."""
    return {"game_system": book.game_system_name, "catalogue": book.catalogue_name,
            "revision": book.catalogue_revision, "problems": len(book.problems)}
