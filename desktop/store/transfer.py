"""Importing armies and battles from files and exporting them, by file type.

Import: Rout JSON (`.json`: an army, a battle, or a scenario, whose battle is taken without
its resolution), BattleScribe (`.ros`, `.rosz`). Export: armies as Rout JSON, plain text
(`.txt`) and Markdown (`.md`); battles as Rout JSON. Reading never touches the database;
the caller saves what was read in one transaction, so a bad file leaves nothing behind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from desktop.engine.codec import (
    BATTLE_FORMAT,
    army_from_json,
    army_to_json,
    battle_from_json,
    battle_to_json,
)
from desktop.engine.composition import Library, list_for_catalogue
from desktop.engine.errors import RuleError, quoted
from desktop.engine.events import Event
from desktop.engine.model import Army, Battle
from desktop.engine.rulesets import get_ruleset
from desktop.engine.scenario import FORMAT as SCENARIO_FORMAT
from desktop.engine.scenario import load_scenario
from desktop.store.battlescribe import ImportedArmy, read_ros, read_rosz
from desktop.store.errors import BadFileError
from desktop.store.files import parse_json, read_bytes, short_path, write_atomically
from desktop.store.roster_text import roster_markdown, roster_text

IMPORT_SUFFIXES = (".json", ".ros", ".rosz")
EXPORT_FORMATS = {".json": "json", ".txt": "text", ".md": "markdown", ".markdown": "markdown",
                  ".ros": "ros", ".rosz": "rosz"}
ROSTER_FORMATS = ("ros", "rosz")  # BattleScribe rosters: written from the army's book


@dataclass(frozen=True)
class ImportedBattle:
    """A battle read from a file: its start and the events since (one step when saved)."""

    title: str
    start: Battle
    events: tuple[Event, ...] = ()


def read_import_file(path: Path, ruleset: str | None = None) -> ImportedArmy | ImportedBattle:
    """An army or a battle from a file, or BadFileError naming the file and the problem.

    A `.json` file says what it is in its "format": `rout-army`, `rout-battle`, or
    `rout-scenario` (its battle, units and terrain as they stand, without the resolution).
    """
    if path.suffix.lower() != ".json":
        return read_army_file(path, ruleset)
    name = short_path(path)
    document = parse_json(read_bytes(path, what="Rout JSON file"), name)
    kind = document.get("format") if isinstance(document, dict) else None
    try:
        if kind == SCENARIO_FORMAT:
            scenario = load_scenario(document)
            found = ImportedBattle(scenario.title, scenario.battle)
        elif kind == BATTLE_FORMAT:
            found = ImportedBattle(*battle_from_json(document))
        else:
            return _army_document(document, name, ruleset)
    except RuleError as error:
        raise BadFileError(f"{name}: {error}") from None
    if ruleset is not None and ruleset != found.start.ruleset:
        raise BadFileError(f"{name}: the battle is for {found.start.ruleset}, not {ruleset}")
    return found


def read_army_file(path: Path, ruleset: str | None = None) -> ImportedArmy:
    """An army from a file, or BadFileError naming the file and what is wrong."""
    name = short_path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES and not path.is_dir():  # a folder: read_bytes says so
        what = f"a {quoted(suffix)} file" if suffix else "a name without an extension"
        raise BadFileError(f"{name}: Rout imports .json, .ros and .rosz files, not {what}")
    data = read_bytes(path, what="roster file (.json, .ros or .rosz)")
    if suffix == ".json":
        return _army_document(parse_json(data, name), name, ruleset)
    if suffix == ".rosz":
        data = read_rosz(data, name)
    return read_ros(data, name, ruleset)


def with_army_list(imported: ImportedArmy, library: Library) -> ImportedArmy:
    """The army in the army list its BattleScribe catalogue names, where one matches (the
    engine matches the names); a warning where none does. An army that already has a list
    (Rout JSON) or came without a catalogue is left as it is."""
    army = imported.army
    if army.army_list or army.book is not None or not imported.catalogue \
            or library.ruleset != army.ruleset:
        return imported  # an army built from its catalogue answers to it, not to a list
    found = list_for_catalogue(library, imported.catalogue)
    if found:
        return replace(imported, army=replace(army, army_list=found))
    return replace(imported, warnings=(
        *imported.warnings, f"the catalogue {quoted(imported.catalogue)} is not an army list of "
        f"the {get_ruleset(army.ruleset).name} library: choose one in Army Settings"))


def _army_document(document: Any, name: str, ruleset: str | None) -> ImportedArmy:
    try:
        army = army_from_json(document)
    except RuleError as error:
        raise BadFileError(f"{name}: {error}") from None
    if ruleset is not None and ruleset != army.ruleset:
        raise BadFileError(f"{name}: the army is for {army.ruleset}, not {ruleset}")
    return ImportedArmy(army)


def write_battle_file(path: Path, start: Battle, title: str, events: tuple[Event, ...],
                      format_name: str | None = None) -> str:
    """Write a battle (start and events) as Rout JSON, atomically; returns the format."""
    chosen = export_format(path, format_name)
    if chosen != "json":
        raise BadFileError(f"{short_path(path)}: a battle is written as Rout JSON (.json), "
                           f"not {chosen}")
    document = battle_to_json(start, title, events)
    write_atomically(path, (json.dumps(document, indent=2, ensure_ascii=False) + "\n")
                     .encode("utf-8"))
    return chosen


def army_document(army: Army, format_name: str) -> str:
    if format_name == "json":
        return json.dumps(army_to_json(army), indent=2, ensure_ascii=False) + "\n"
    if format_name == "markdown":
        return roster_markdown(army)
    if format_name == "text":
        return roster_text(army)
    if format_name in ROSTER_FORMATS:
        raise BadFileError("a BattleScribe roster is written from the army's book, with its "
                           "game data (desktop.store.armybooks.write_army_roster)")
    raise BadFileError(f"unknown export format {quoted(format_name)} (known: json, text, "
                       "markdown, ros, rosz)")


def export_format(path: Path, format_name: str | None = None) -> str:
    if format_name:
        return format_name
    found = EXPORT_FORMATS.get(path.suffix.lower())
    if found is None:
        raise BadFileError(f"{short_path(path)}: cannot tell the format from "
                           f"{quoted(path.suffix) if path.suffix else repr('no extension')} (use "
                           ".json, .txt, .md, or .ros/.rosz for an army built from an army "
                           "book)")
    return found


def write_army_file(army: Army, path: Path, format_name: str | None = None) -> str:
    """Write the army atomically; returns the format used."""
    chosen = export_format(path, format_name)
    write_atomically(path, army_document(army, chosen).encode("utf-8"))
    return chosen
