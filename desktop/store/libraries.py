"""The unit libraries bundled with Rout (resources/libraries, one Rout JSON file per
ruleset), and the library a headless command should use: the stored one, else the bundled.

The window stores the bundled library in a database that has none (database_open's
read_database); a command that only reads must not write, so it falls back instead.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from desktop.bundled import resources_dir
from desktop.engine.codec import library_from_json
from desktop.engine.composition import Library
from desktop.engine.errors import RuleError
from desktop.store.errors import BadFileError, ConflictError
from desktop.store.files import read_json, short_path
from desktop.store.store import Store


def libraries_dir() -> Path:
    """resources/libraries, in the installed package or the source checkout."""
    try:
        return resources_dir() / "libraries"
    except FileNotFoundError as error:
        raise BadFileError(str(error)) from None


def bundled_library(ruleset: str) -> Library:
    """The library Rout ships for a ruleset; one with no entries if it ships none."""
    path = libraries_dir() / f"{ruleset}.json"
    if not path.is_file():
        return Library(ruleset)
    try:
        return library_from_json(read_json(path))
    except RuleError as error:
        raise BadFileError(f"{short_path(path)}: {error}") from None


def library_for(store: Store, ruleset: str) -> Library:
    """The stored library of a ruleset, or the bundled one while none is stored."""
    stored = store.load_library(ruleset)
    return stored if stored.entries else bundled_library(ruleset)


def store_bundled(store: Store, stored: Library, bundled: Library) -> Library:
    """Store `bundled` in place of `stored`, a library with no entries; returns what is
    stored. When another Rout starting at the same time stored one first, the save is
    refused (the version moved on) and theirs is the one."""
    try:
        return store.save_library(replace(bundled, version=stored.version))
    except ConflictError:
        return store.load_library(bundled.ruleset)
