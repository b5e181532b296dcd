"""An imported BattleScribe roster priced from the game data in the database.

When the roster's catalogue is stored (`rout data add`), every selection is linked to its
entry by the roster's entry-id paths and every cost is worked out by the engine from the
catalogue; the file's own figures are kept only where no data is stored. Where the two
differ, the import says so, unit by unit; the catalogue's limits the roster breaks are
reported too. Nothing here decides a rule: the engine does (desktop/engine/bsdata).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from xml.etree.ElementTree import Element

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.evaluate import Evaluation, SNode
from desktop.engine.bsdata.reader import elements_at, parse_xml, unpack
from desktop.engine.bsdata.rosterfile import load_roster
from desktop.engine.bsdata.units import points_type
from desktop.engine.errors import quoted
from desktop.engine.model import RosterPrice, Unit
from desktop.store.armybooks import with_roster
from desktop.store.battlescribe import ImportedArmy
from desktop.store.errors import BadFileError
from desktop.store.files import read_bytes, short_path
from desktop.store.gamedata import list_data, load_game_data
from desktop.store.store import Store

UNIT_TYPES = ("unit", "model", None)


@dataclass
class DataPricing:
    """What the game data said about an imported roster."""

    catalogue: str = ""  # "" when no data is stored for it (the file's figures stand)
    game_system: str = ""
    linked: int = 0  # selections linked to their entries
    costs: dict[str, float] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    book: bool = False  # the army keeps the roster (every selection linked)

    def to_json(self) -> dict[str, object]:
        return {"catalogue": self.catalogue, "game_system": self.game_system,
                "linked_selections": self.linked, "costs": self.costs,
                "errors": self.errors, "army_book": self.book}


def _forces(element: Element) -> list[Element]:
    found = []
    for force in elements_at(element, "forces", "force"):
        found.append(force)
        found.extend(_forces(force))
    return found


def _unit_selection_ids(root: Element) -> list[str]:
    """The root selections that became units, in the order the roster import made them."""
    return [selection.get("id", "") for force in _forces(root)
            for selection in elements_at(force, "selections", "selection")
            if selection.get("type") in UNIT_TYPES]


def priced_from_stored_data(store: Store, imported: ImportedArmy, path: Path
                            ) -> tuple[ImportedArmy, DataPricing]:
    name = short_path(path)
    content = read_bytes(path, what="roster")
    try:
        xml = unpack(content, name, (".ros",), what="roster")
        root = parse_xml(xml, name)
    except DataError as error:
        raise BadFileError(str(error)) from None
    system_id = root.get("gameSystemId", "")
    catalogue_ids = {force.get("catalogueId", "") for force in _forces(root)}
    stored = [d for d in list_data(store) if d.game_system_id == system_id]
    stored_ids = {d.id for d in stored}
    pricing = DataPricing()
    missing = sorted(catalogue_ids - stored_ids) if system_id in stored_ids else [system_id]
    if not stored or missing:
        return imported, pricing  # no data: the roster's own figures stand
    only = next(iter(catalogue_ids)) if len(catalogue_ids) == 1 else None
    data = load_game_data(store, system_id, only)
    try:
        loaded = load_roster(data, xml, name)
    except DataError as error:
        raise BadFileError(str(error)) from None
    evaluation = Evaluation(data, loaded.roster)
    pts = points_type(evaluation.cost_types)
    pts_id = pts.id if pts is not None else ""
    warnings = list(imported.warnings)
    warnings.extend(f"{problem}; its points are the roster's" for problem in loaded.problems)
    file_costs = {c.selection_id: dict(c.costs) for c in loaded.file_costs}
    units = list(imported.army.units)
    for index, selection_id in enumerate(_unit_selection_ids(root)):
        node = evaluation.by_selection_id.get(selection_id)
        if node is None or index >= len(units):
            continue
        unit, from_data = units[index], _priced(evaluation, node, pts_id)
        file_points = sum((file_costs.get(n.selection.id, {}).get(pts_id, Decimal(0))
                           for n in _subtree(node)), Decimal(0))
        total = sum((evaluation.cost_of(n).get(pts_id, Decimal(0)) for n in _subtree(node)),
                    Decimal(0))
        if total != file_points:
            warnings.append(f"{quoted(unit.name)}: the roster says {_shown(file_points)} pts, "
                            f"the catalogue gives {_shown(total)}; Rout uses the catalogue's")
        units[index] = from_data(unit)
    pricing.catalogue = ", ".join(data.catalogues[c].name for c in sorted(catalogue_ids)
                                  if c in data.catalogues)
    pricing.game_system = data.game_system.name
    pricing.linked = len(evaluation.all_selections)
    pricing.costs = {t.name.strip(): float(v) for t in evaluation.cost_types
                     for k, v in evaluation.totals().items() if k == t.id}
    pricing.errors = [error.message for error in evaluation.errors()]
    warnings.extend(f"the catalogue's limits: {message}" for message in pricing.errors)
    army = replace(imported.army, units=tuple(units))
    if not loaded.problems and len(catalogue_ids) == 1:
        # Every selection linked: the army keeps its roster and is made of it, as one built
        # from the catalogue is (desktop.store.armybooks), so it can be edited like one.
        army = with_roster(data, replace(army, units=()), loaded.roster,
                           next(iter(catalogue_ids))).army
        # In the file's order, as the plain import has them (the roster's own is by id).
        rank = {selection: index for index, selection in enumerate(_unit_selection_ids(root))}
        book = army.book
        if book is not None:
            army = replace(army, units=tuple(sorted(
                army.units, key=lambda unit: rank.get(book.selection_of(unit.id) or "",
                                                      len(rank)))))
        pricing.book = True
    return replace(imported, army=army, warnings=tuple(warnings)), pricing


def _subtree(node: SNode) -> list[SNode]:
    found = [node]
    for child in node.children:
        found.extend(_subtree(child))
    return found


def _shown(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else str(value.normalize())


def _priced(evaluation: Evaluation, node: SNode, pts_id: str) -> Callable[[Unit], Unit]:
    """The unit with the catalogue's points: the selection's own cost and its models'
    follow the number of models, the rest are its upgrades."""
    everything = _subtree(node)
    total = sum((evaluation.cost_of(n).get(pts_id, Decimal(0)) for n in everything),
                Decimal(0))
    models = [n for n in node.children if n.option.type == "model"]
    per_models = evaluation.cost_of(node).get(pts_id, Decimal(0)) + sum(
        (evaluation.cost_of(n).get(pts_id, Decimal(0)) for n in models), Decimal(0))

    def apply(unit: Unit) -> Unit:
        count = max(unit.models, 1)
        points = max(round(total), 0)
        price = RosterPrice(per_model=float(max(per_models, Decimal(0))) / count,
                            upgrades=points - round(max(per_models, Decimal(0))))
        return replace(unit, points=points, price=price)
    return apply
