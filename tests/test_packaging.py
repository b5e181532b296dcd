"""The packaging's lists against the code, in seconds: a new Qt module, a migration's new
import or a new version number shows here before packaging/check.sh builds anything.
packaging/contents.py needs only the standard library and `desktop`, so it is loaded from
its file."""

from __future__ import annotations

import ast
import importlib.util
import re
from configparser import ConfigParser

import pytest
from conftest import REPO

from desktop import __version__
from desktop.gui.platform_check import PACKAGES
from desktop.store.database import MIGRATIONS


@pytest.fixture(scope="module")
def contents():
    spec = importlib.util.spec_from_file_location("rout_packaging_contents",
                                                  REPO / "packaging" / "contents.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def imported_qt_modules() -> set[str]:
    found = set()
    for path in (REPO / "desktop").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("PySide6.Qt"):
                found.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                found.update(alias.name.split(".")[1] for alias in node.names
                             if alias.name.startswith("PySide6.Qt"))
    return found


def test_every_qt_module_rout_imports_is_kept_in_the_frozen_build(contents):
    assert imported_qt_modules() <= set(contents.QT_MODULES)
    hooks = {path.name for path in (REPO / "packaging" / "hooks").glob("hook-PySide6.*.py")}
    assert hooks == {f"hook-PySide6.{module}.py" for module in contents.QT_MODULES}


def test_the_migrations_imports_are_found_for_pyinstaller(contents):
    modules = contents.migration_imports(MIGRATIONS)
    assert {"alembic", "alembic.op", "alembic.context", "sqlalchemy",
            "desktop.store.tables"} <= modules
    assert "sqlalchemy.create_engine" not in modules  # a name inside a module, not a module


def test_the_data_folders_are_bundled_where_the_app_looks(contents):
    places = {place for _, place in contents.data_folders()}
    assert places == {"desktop/resources", "desktop/ui", "desktop/store/migrations"}
    files = {source for source, _ in contents.data_files()}
    assert str(MIGRATIONS / "env.py") in files
    assert not any("__pycache__" in source for source in files)


def test_the_deb_depends_on_every_library_qts_x11_plugin_needs(contents):
    assert set(PACKAGES.values()) <= set(contents.depends())
    assert {"libxcb-cursor0", "libxkbcommon-x11-0", "libgl1", "libegl1", "libfontconfig1",
            "libglib2.0-0", "libdbus-1-3"} <= set(contents.depends())


def test_the_metainfo_has_a_release_for_this_version_and_captions(contents):
    text = (REPO / "packaging" / f"{contents.APP_ID}.metainfo.xml").read_text(encoding="utf-8")
    assert re.findall(r'<release version="([^"]+)"', text)[0] == __version__
    assert text.count("<screenshot") - text.count("<screenshots>") == text.count("<caption>")
    for name in re.findall(r"/screenshots/([\w-]+\.png)</image>", text):
        assert (REPO / "docs" / "screenshots" / name).is_file()


def test_the_desktop_entry_starts_rout_with_its_icon(contents):
    entry = ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(REPO / "packaging" / f"{contents.APP_ID}.desktop", encoding="utf-8")
    assert entry["Desktop Entry"]["Exec"] == "rout"
    assert entry["Desktop Entry"]["Icon"] == contents.APP_ID
