"""`rout data …`: game data in BattleScribe's format, kept in the database.

    rout data add PATH…        game systems and catalogues (files, folders, or a zip of a data
                               repository), checked and stored in one transaction
    rout data list             what is stored, as JSON
    rout data remove NAME|ID   a catalogue, or a game system with its catalogues (refused
                               while armies are built from it, unless --keep-armies keeps
                               them as plain units)
    rout data units CATALOGUE  the units a catalogue offers, with points, sizes and options

Each prints JSON; bad input is one line on stderr (exit status 2) and stores nothing.
"""

from __future__ import annotations

import argparse
from dataclasses import asdict
from typing import Any

from desktop.engine.bsdata.units import catalogue_units
from desktop.store.errors import NotFoundError
from desktop.store.gamedata import (
    AddReport,
    StoredData,
    add_data,
    check_new,
    collect,
    find,
    list_data,
    load_game_data,
    remove_data,
)
from desktop.store.store import Store


def _short(data: StoredData) -> dict[str, Any]:
    return {"id": data.id, "name": data.name, "kind": data.kind, "revision": data.revision,
            "game_system": data.game_system_id}


def _report(report: AddReport, where: str) -> dict[str, Any]:
    notes = [f"{new.name}: revision {new.revision} replaces the stored revision "
             f"{old.revision}" + (" (same revision, changed content)"
                                  if new.revision == old.revision else "")
             for old, new in report.replaced]
    notes += [f"{given}: revision of {old.name} older than the stored {old.revision}; the "
              "stored one is kept" for given, old in report.kept]
    return {"stored": [_short(d) for d in report.stored],
            "replaced": [_short(new) for _, new in report.replaced],
            "unchanged": [_short(d) for d in report.unchanged],
            "kept": [_short(old) for _, old in report.kept],
            "notes": notes, "warnings": report.warnings, "database": where}


def add_command(args: argparse.Namespace, missing: bool) -> dict[str, Any]:
    inputs = collect(args.paths)  # every file read before the database opens
    # ...and checked when the database is new, so that a refusal leaves none behind.
    read = check_new(inputs) if missing else None
    with Store.open(args.database) as store:
        report = add_data(store, inputs, read)
        where = store.describe()
    return _report(report, where)


def list_command(args: argparse.Namespace, missing: bool) -> dict[str, Any]:
    if missing:
        return {"game_systems": []}  # nothing stored yet; listing creates no database
    with Store.open(args.database) as store:
        stored = list_data(store)
    systems: list[dict[str, Any]] = []
    for system in (d for d in stored if d.kind == "gameSystem"):
        systems.append({**system.to_json(), "catalogues": [
            d.to_json() for d in stored
            if d.game_system_id == system.game_system_id and d.kind == "catalogue"]})
    return {"game_systems": systems}


def remove_command(args: argparse.Namespace) -> dict[str, Any]:
    with Store.open(args.database) as store:
        removed = remove_data(store, args.name, keep_armies=args.keep_armies)
        where = store.describe()
    return {"removed": [_short(d) for d in removed.gone],
            "armies_kept_as_plain_units": removed.unlinked, "database": where}


def units_command(args: argparse.Namespace, missing: bool) -> dict[str, Any]:
    if missing:
        raise NotFoundError(f"no catalogue named {args.catalogue!r}: no game data is stored")
    with Store.open(args.database) as store:
        catalogue = find(store, args.catalogue, kind="catalogue")
        data = load_game_data(store, catalogue.game_system_id, catalogue.id)
    units = catalogue_units(data, catalogue.id)
    return {"catalogue": {"id": catalogue.id, "name": catalogue.name,
                          "revision": catalogue.revision},
            "game_system": {"id": data.game_system.id, "name": data.game_system.name},
            "units": [asdict(unit) for unit in units]}


def data_command(args: argparse.Namespace, missing: bool) -> dict[str, Any]:
    """`missing`: the database is not there yet (reading commands must not create it)."""
    if args.data_command == "add":
        return add_command(args, missing)
    if args.data_command == "list":
        return list_command(args, missing)
    if args.data_command == "remove":
        if missing:
            raise NotFoundError(f"no game data named {args.name!r}: none is stored")
        return remove_command(args)
    return units_command(args, missing)
