"""Importing armies from files and exporting them, by file type.

Import: Rout JSON (`.json`), BattleScribe (`.ros`, `.rosz`). Export: Rout JSON, plain text
(`.txt`) and Markdown (`.md`). Reading never touches the database; the caller saves the
army in one transaction, so a bad file leaves nothing behind.
"""

from __future__ import annotations

import json
from pathlib import Path

from desktop.engine.codec import army_from_json, army_to_json
from desktop.engine.errors import RuleError
from desktop.engine.model import Army
from desktop.store.battlescribe import ImportedArmy, read_ros, read_rosz
from desktop.store.errors import BadFileError
from desktop.store.files import parse_json, read_bytes, short_path, write_atomically
from desktop.store.roster_text import roster_markdown, roster_text

IMPORT_SUFFIXES = (".json", ".ros", ".rosz")
EXPORT_FORMATS = {".json": "json", ".txt": "text", ".md": "markdown", ".markdown": "markdown"}


def read_army_file(path: Path, ruleset: str | None = None) -> ImportedArmy:
    """An army from a file, or BadFileError naming the file and what is wrong."""
    name = short_path(path)
    suffix = path.suffix.lower()
    if suffix not in IMPORT_SUFFIXES:
        raise BadFileError(f"{name}: Rout imports {', '.join(IMPORT_SUFFIXES)} files, not "
                           f"'{suffix or 'no extension'}'")
    data = read_bytes(path, what="roster")
    if suffix == ".json":
        try:
            army = army_from_json(parse_json(data, name))
        except RuleError as error:
            raise BadFileError(f"{name}: {error}") from None
        if ruleset is not None and ruleset != army.ruleset:
            raise BadFileError(f"{name}: the army is for {army.ruleset}, not {ruleset}")
        return ImportedArmy(army)
    if suffix == ".rosz":
        data = read_rosz(data, name)
    return read_ros(data, name, ruleset)


def army_document(army: Army, format_name: str) -> str:
    if format_name == "json":
        return json.dumps(army_to_json(army), indent=2, ensure_ascii=False) + "\n"
    if format_name == "markdown":
        return roster_markdown(army)
    if format_name == "text":
        return roster_text(army)
    raise BadFileError(f"unknown export format '{format_name}' (known: json, text, markdown)")


def export_format(path: Path, format_name: str | None = None) -> str:
    if format_name:
        return format_name
    found = EXPORT_FORMATS.get(path.suffix.lower())
    if found is None:
        raise BadFileError(f"{short_path(path)}: cannot tell the format from "
                           f"'{path.suffix or 'no extension'}' (use .json, .txt or .md)")
    return found


def write_army_file(army: Army, path: Path, format_name: str | None = None) -> str:
    """Write the army atomically; returns the format used."""
    chosen = export_format(path, format_name)
    write_atomically(path, army_document(army, chosen).encode("utf-8"))
    return chosen
