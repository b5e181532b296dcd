"""desktop/engine stays pure: no Qt, no database, no plotting (DESIGN.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "desktop" / "engine"
FORBIDDEN = ("PySide6", "shiboken6", "sqlmodel", "sqlalchemy", "pyqtgraph", "alembic",
             "desktop.gui", "desktop.store")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_engine_source_file_imports_qt_or_the_database():
    offenders = {}
    for path in sorted(ENGINE.rglob("*.py")):
        bad = {name for name in _imported_modules(path)
               if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)}
        if bad:
            offenders[str(path.relative_to(ENGINE))] = sorted(bad)
    assert offenders == {}
    assert len(list(ENGINE.rglob("*.py"))) >= 10  # the scan really looked at the engine


def test_importing_the_whole_engine_loads_none_of_them():
    modules = sorted(
        "desktop.engine." + ".".join(p.relative_to(ENGINE).with_suffix("").parts)
        for p in ENGINE.rglob("*.py") if p.name != "__init__.py")
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r} "
        f"or m.startswith(('desktop.gui', 'desktop.store'))]\n"
        "print(','.join(sorted(bad)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == ""
