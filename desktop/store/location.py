"""Where the database lives by default: no SQLAlchemy here, the GUI needs this before it paints."""

from __future__ import annotations

import os
from pathlib import Path

DATABASE_ENVIRONMENT = "ROUT_DATABASE"


def default_database_path() -> Path:
    from platformdirs import user_data_path

    return user_data_path("Rout", appauthor=False) / "rout.sqlite"


def default_database_url() -> str:
    """`ROUT_DATABASE` if set, else a SQLite file in the user's data folder."""
    return os.environ.get(DATABASE_ENVIRONMENT) or f"sqlite:///{default_database_path()}"
