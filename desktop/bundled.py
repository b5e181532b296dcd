"""Find the Designer forms (ui/) and data files (resources/) wherever Rout runs from.

In a source checkout they sit at the top of the repository, next to the `desktop` package.
A wheel cannot ship files outside its package, so pyproject.toml copies them into it
(`ui` -> `desktop/ui`, `resources` -> `desktop/resources`). The packaged copy wins when it
exists; an editable install or a plain checkout falls back to the repository root.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""The `desktop` package folder."""

SOURCE_ROOT = PACKAGE_DIR.parent
"""The repository root when running from a source checkout."""


def _data_dir(name: str) -> Path:
    """The first existing `name` folder: inside the installed package, then the checkout."""
    candidates = (PACKAGE_DIR / name, SOURCE_ROOT / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    searched = ", ".join(str(candidate) for candidate in candidates)
    raise FileNotFoundError(f"Rout's {name}/ folder is missing (looked in {searched}); "
                            "the installation is incomplete")


def ui_dir() -> Path:
    """The folder holding the Designer forms."""
    return _data_dir("ui")


def resources_dir() -> Path:
    """The folder holding icons, unit libraries and sample armies."""
    return _data_dir("resources")


def ui_path(name: str) -> Path:
    """Path of a Designer form, e.g. `ui_path("mainwindow")` or `ui_path("mainwindow.ui")`."""
    file_name = name if name.endswith(".ui") else f"{name}.ui"
    path = ui_dir() / file_name
    if not path.is_file():
        raise FileNotFoundError(f"no Designer form {path}")
    return path


def resource_path(*parts: str) -> Path:
    """Path of a bundled data file, e.g. `resource_path("icons", "rout.svg")`."""
    if not parts:
        raise ValueError("resource_path() needs at least one path part")
    path = resources_dir().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"no bundled resource {path}")
    return path
