"""What goes into Rout's frozen build and its .deb, said once.

rout.spec, the Qt hooks in packaging/hooks/, build_deb.py and check_bundle.py all read this
module, so the list of Qt plugins that is bundled, the libraries that are left to Debian and
the `Depends:` that names them cannot drift apart. It needs only the standard library and
the `desktop` package (for the data folders and the list of Qt's X11 libraries).

    python3 packaging/contents.py depends     the .deb's Depends, one package a line
"""

from __future__ import annotations

import ast
import importlib.util
import logging
import subprocess
import sys
from pathlib import Path

PACKAGING = Path(__file__).resolve().parent
REPOSITORY = PACKAGING.parent

APP_ID = "org.rout.Rout"
"""The reverse-DNS id of the .desktop file, the metainfo and the icon."""

QT_MODULES = ("QtCore", "QtGui", "QtWidgets", "QtPrintSupport",
              # pyqtgraph's curves import these by name (importlib), OpenGL or not.
              "QtOpenGL", "QtOpenGLWidgets")
"""The PySide6 modules the app imports (tests/ also use QtTest; the app does not). Every
other PySide6 module is excluded from the build."""

OPTIONAL_IMPORTS = {
    "PySide6.QtSvg": "pyqtgraph's SVG export; Rout's charts have no export menu",
    "PySide6.QtTest": "pyqtgraph's qWait helper, for tests",
    "PySide6.support": "the package of PySide6.support.deprecated",
    "PySide6.support.deprecated": "empty since PySide6 6.11; shiboken imports it if present",
}
"""Modules that a normal install may load but the frozen app goes without, because their
importer expects that they may be missing (pyqtgraph turns each into a FailedImport)."""

QT_PLUGINS: dict[str, tuple[str, ...]] = {
    # Where windows open: X11, Wayland, none (--screenshot); Windows and macOS for the same
    # spec there.
    "platforms": ("qxcb", "qwayland", "qoffscreen", "qwindows", "qcocoa"),
    "xcbglintegrations": ("qxcb-glx-integration", "qxcb-egl-integration"),
    "wayland-shell-integration": ("xdg-shell",),
    "wayland-decoration-client": ("bradient", "adwaita"),
    "wayland-graphics-integration-client": ("qt-plugin-wayland-egl",),
    # Typing accents and input methods; the desktop portal's file dialogs.
    "platforminputcontexts": ("composeplatforminputcontextplugin",
                              "ibusplatforminputcontextplugin"),
    "platformthemes": ("qxdgdesktopportal",),
    # Rout's icons are SVG; --screenshot may write .jpg.
    "iconengines": ("qsvgicon",),
    "imageformats": ("qsvg", "qjpeg"),
    # Printing to real printers (PDF export needs no plugin).
    "printsupport": ("cupsprintersupport", "windowsprintersupport", "cocoaprintersupport"),
    "styles": ("qmodernwindowsstyle", "qwindowsvistastyle", "qmacstyle"),
}
"""Qt plugins kept, by type, named without `lib` and the file extension. Types not listed
(eglfs, evdev, VNC, networking, SQL drivers, GTK 3's theme, ...) are left out."""

QT_TRANSLATIONS: tuple[str, ...] = ()
"""Languages of Qt's own translations to bundle: none, Rout installs no QTranslator."""

NOT_FROZEN = {
    "desktop.__main__": "`python -m desktop`; packaging/launch.py is the frozen entry point",
    "desktop.gui.forms.build": "a developer tool that runs pyside6-uic on ui/*.ui",
    "desktop.store.schema_build": "a developer tool that writes store/schema.py from tables.py",
}
"""Modules of the `desktop` package that the frozen app does not need, and why."""

DYNAMIC_IMPORTS = (
    # SQLAlchemy finds a dialect and its driver by the URL's name.
    "sqlalchemy.dialects.sqlite.pysqlite",
    "sqlalchemy.dialects.postgresql.psycopg",
    # platformdirs picks its module for the platform at run time.
    "platformdirs.unix",
    # pyqtgraph.Qt.OpenGLHelpers: importlib.import_module(f"{QT_LIB}.QtOpenGL").
    "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets",
)
"""Modules imported by name at run time, which PyInstaller cannot see in the code. The
Alembic scripts are the other such case: see migration_imports()."""

_X11_EXTRA = {
    # Libraries that Qt's wheel loads from the system besides those in
    # desktop.gui.platform_check.PACKAGES (the X11 ones, GL, fontconfig, GLib, D-Bus).
    "libfreetype.so.6": "libfreetype6",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libgio-2.0.so.0": "libglib2.0-0",
    "libgmodule-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libOpenGL.so.0": "libopengl0",
    "libGLX.so.0": "libglx0",
    "libwayland-client.so.0": "libwayland-client0",
    "libwayland-cursor.so.0": "libwayland-cursor0",
    "libwayland-egl.so.1": "libwayland-egl1",
    "libcups.so.2": "libcups2",
    # The C and C++ runtimes: the system's, so that its graphics drivers (which use
    # libstdc++ too) never meet an older copy from the build machine.
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
    "libc.so.6": "libc6",
    "libm.so.6": "libc6",
}


def system_libraries() -> dict[str, str]:
    """Libraries left out of the Linux build, by file name, with the Debian package of each.

    They belong to the desktop the app runs on (the X server's and Wayland's client
    libraries, GL, fonts, D-Bus, CUPS, the C/C++ runtime): the .deb depends on them instead.
    """
    from desktop.gui.platform_check import PACKAGES

    return {**PACKAGES, **_X11_EXTRA}


def depends() -> list[str]:
    """The .deb's Depends: the packages of every library left to the system."""
    return sorted(set(system_libraries().values()))


def needed_libraries(binary: Path) -> list[str]:
    """The libraries an ELF file links to directly (its DT_NEEDED entries, from objdump).

    Not `ldd`, which lists everything loaded in the end, their own dependencies included.
    """
    result = subprocess.run(["objdump", "-p", str(binary)], capture_output=True, text=True,
                            check=False)
    return [line.split()[1] for line in result.stdout.splitlines()
            if line.strip().startswith("NEEDED")]


def data_folders() -> list[tuple[Path, str]]:
    """(folder, place in the bundle) for the data Rout reads at run time.

    They go where they sit in an installed wheel, next to the package's modules, so that
    desktop.bundled and desktop.store.database find them in a frozen build as they do in
    site-packages (PyInstaller gives frozen modules a __file__ inside the bundle).
    """
    from desktop import bundled
    from desktop.store.database import MIGRATIONS

    return [(bundled.resources_dir(), "desktop/resources"),
            (bundled.ui_dir(), "desktop/ui"),
            (MIGRATIONS, "desktop/store/migrations")]


def data_files() -> list[tuple[str, str]]:
    """The files of data_folders() as PyInstaller `datas` (file, destination folder),
    without Python's caches."""
    files = []
    for folder, destination in data_folders():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                parent = Path(destination, path.relative_to(folder)).parent
                files.append((str(path), parent.as_posix()))
    return files


def migration_imports(migrations: Path) -> set[str]:
    """Every module that Alembic's env.py and revision scripts in `migrations` import.

    Alembic runs those scripts from their files (script_location), so PyInstaller never
    sees their imports: they are added as hidden imports and checked in the build.
    """
    # Finding out imports Alembic, which logs each plugin it sets up.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    modules: set[str] = set()
    for script in [migrations / "env.py", *sorted((migrations / "versions").glob("*.py"))]:
        tree = ast.parse(script.read_text(encoding="utf-8"), filename=str(script))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
            elif (isinstance(node, ast.ImportFrom) and node.module and node.level == 0
                  and node.module != "__future__"):
                modules.add(node.module)
                # `from alembic import op`: op may be a module of its own.
                modules.update(name for alias in node.names
                               if _is_module(name := f"{node.module}.{alias.name}"))
    return modules


def _is_module(name: str) -> bool:
    """Whether `name` is an importable module (rather than a name inside one)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


def package_modules(package_dir: Path, package: str = "desktop") -> set[str]:
    """The dotted names of every module in a package folder."""
    names = set()
    for path in package_dir.rglob("*.py"):
        relative = path.relative_to(package_dir).with_suffix("")
        parts = [package, *relative.parts]
        if parts[-1] == "__init__":
            parts.pop()
        if "migrations" in parts:
            continue  # run by Alembic from their files, not imported
        names.add(".".join(parts))
    return names


if __name__ == "__main__":
    sys.path.insert(0, str(REPOSITORY))
    if sys.argv[1:] == ["depends"]:
        print("\n".join(depends()))
    else:
        sys.exit(__doc__.split("\n\n")[-1])
