"""Where the database lives by default: no SQLAlchemy here, the GUI needs this before it paints."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from desktop.engine.errors import printable
from desktop.lazy import lazy_module
from desktop.store.errors import DatabaseError

# Loaded on first use (desktop.lazy): platformdirs, only when no database was named.
if TYPE_CHECKING:
    import platformdirs as platformdirs
else:
    platformdirs = lazy_module("platformdirs")

DATABASE_ENVIRONMENT = "ROUT_DATABASE"
# A scheme of two letters or more, then a colon: a URL (left to the store to judge), not a
# path (C:\ is a drive).
URL_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")


def default_database_path() -> Path:
    return platformdirs.user_data_path("Rout", appauthor=False) / "rout.sqlite"


def database_url_from(text: str) -> str:
    """A database URL from what a player gave (`--database`, ROUT_DATABASE, File ▸ Open
    Database): a URL as it is, a file path (relative, or with ~) as that SQLite file. Every
    command and the window read it through here, so they all take the same forms."""
    if "://" in text or URL_SCHEME.match(text):  # "postgresql:/x" is a mistyped URL
        return text
    try:
        return f"sqlite:///{Path(text).expanduser().resolve()}"
    except (ValueError, OSError, RuntimeError) as error:  # a NUL, a loop of links, no home
        raise DatabaseError(f"{printable(text[:80])!r} cannot name a database file: "
                            f"{error}") from None


def default_database_url() -> str:
    """`ROUT_DATABASE` (a URL or a path) if set, else a SQLite file in the user's data
    folder."""
    given = os.environ.get(DATABASE_ENVIRONMENT)
    return database_url_from(given) if given else f"sqlite:///{default_database_path()}"
