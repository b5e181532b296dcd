"""Check Rout's frozen build and its .deb: what packaging/check.sh runs after build.sh.

    build/pkg-venv/bin/python packaging/check_bundle.py [--dist DIST] [--build-seconds N]

Run it with the build venv's Python (it reads PyInstaller's archive, and compares with a
normal run of the same Rout). It looks at the folder PyInstaller made, unpacks the .deb into
a temporary root with `dpkg-deb -x`, and runs the frozen `rout` from there:

- every module of `desktop`, every module the Alembic scripts import and every module that
  is imported by name at run time is frozen (Picard's check-cli-bundle.py idea), and so is
  every module a normal install loads for the same commands;
- Qt is trimmed to contents.QT_MODULES and QT_PLUGINS, and no library left to the system is
  bundled; the migrations, libraries, scenarios and icons are where desktop.bundled looks;
- the .deb's fields and files, the .desktop file (desktop-file-validate), the AppStream
  metainfo (appstreamcli validate), the icons at every hicolor size, and a Depends: that
  brings in every library the frozen binaries load from the system;
- from the unpacked root: `import` of the BattleScribe roster into a fresh database (705
  points, migrated to the head revision), `check`, `resolve` on a bundled scenario, a
  scenario's battle imported, `--screenshot` (offscreen) of that army and battle, and the
  PostgreSQL driver present.

It ends with the build's size and time, and `packaging: N passed, N failed`.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

import contents
import icons
from qt_hooks import plugin_name

REPOSITORY = contents.REPOSITORY
ROSTER = REPOSITORY / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"
ROSTER_POINTS = 705
SCENARIO = "w6-goblins-vs-elves.json"
SCREENSHOT_SIZE = (1280, 800)
RUN_TIMEOUT = 120
INTERNAL = "_internal"
# Loaded by any Python at start-up or by the way these checks start Rout, not by Rout.
INTERPRETER_MODULES = {"__main__", "site", "sitecustomize", "usercustomize", "_sitebuiltins",
                       "_distutils_hack", "runpy", "pkgutil", "rlcompleter", "readline"}


class Check:
    """Runs named checks, each a function returning its problems, and counts them."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def __call__(self, name: str, function: Callable[[], list[str]]) -> bool:
        started = time.monotonic()
        try:
            problems = function()
        except (OSError, subprocess.SubprocessError, ValueError, KeyError,
                sqlite3.Error) as error:
            problems = [f"{type(error).__name__}: {error}"]
        seconds = time.monotonic() - started
        if problems:
            self.failed += 1
            print(f"FAIL {name} ({seconds:.1f} s)")
            for problem in problems:
                print(f"     - {problem}")
        else:
            self.passed += 1
            print(f"ok   {name} ({seconds:.1f} s)")
        return not problems


# What is in the frozen folder -------------------------------------------------------------

def frozen_modules(frozen: Path) -> set[str]:
    """Every module the frozen app can import: the PYZ archive inside the executable, the
    standard library's base_library.zip, and extension modules as files."""
    from PyInstaller.archive.readers import CArchiveReader

    executable = CArchiveReader(str(frozen / "rout"))
    names = set(executable.toc)  # the bootstrap modules, struct among them
    names.update(executable.open_embedded_archive("PYZ.pyz").toc)
    internal = frozen / INTERNAL
    with zipfile.ZipFile(internal / "base_library.zip") as library:
        for member in library.namelist():
            path = PurePosixPath(member)
            if path.suffix == ".pyc":
                parts = list(path.with_suffix("").parts)
                names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    for path in internal.rglob("*.so"):
        parts = list(path.relative_to(internal).parts)
        if "lib-dynload" in parts:
            parts = parts[parts.index("lib-dynload") + 1:]
        parts[-1] = parts[-1].split(".")[0]
        names.add(".".join(parts))
    return names


def source_qt_modules() -> dict[str, set[str]]:
    """PySide6 modules imported anywhere in desktop/, with the files importing each."""
    found: dict[str, set[str]] = {}
    for path in (REPOSITORY / "desktop").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                if name.startswith("PySide6.Qt"):
                    found.setdefault(name.split(".")[1], set()).add(
                        str(path.relative_to(REPOSITORY)))
    return found


def check_modules(frozen: Path) -> list[str]:
    from desktop.store.database import MIGRATIONS

    bundled = frozen_modules(frozen)
    ours = contents.package_modules(REPOSITORY / "desktop") - set(contents.NOT_FROZEN)
    migrations = frozen / INTERNAL / "desktop" / "store" / "migrations"
    wanted = {
        "a module of desktop/": ours,
        "imported by the Alembic scripts (run from files, unseen by PyInstaller)":
            contents.migration_imports(migrations if migrations.is_dir() else MIGRATIONS),
        "imported by name at run time (contents.DYNAMIC_IMPORTS)":
            set(contents.DYNAMIC_IMPORTS),
        "the PostgreSQL driver (the postgres extra)": {"psycopg", "psycopg_binary"},
    }
    return [f"{name} is not in the frozen build: {why}; add it to the hidden imports "
            "(packaging/contents.py)"
            for why, names in wanted.items() for name in sorted(names - bundled)]


def check_qt(frozen: Path) -> list[str]:
    problems = []
    kept = set(contents.QT_MODULES)
    for module, files in sorted(source_qt_modules().items()):
        if module not in kept:
            problems.append(f"{', '.join(sorted(files))} import PySide6.{module}, which the "
                            "build leaves out: add it to contents.QT_MODULES")
    qt = frozen / INTERNAL / "PySide6"
    bundled = {path.name.split(".")[0] for path in qt.glob("Qt*.so")}
    if bundled != kept:
        problems.append(f"PySide6 modules bundled {sorted(bundled)}, expected {sorted(kept)}")
    for module in sorted(kept):
        if not (contents.PACKAGING / "hooks" / f"hook-PySide6.{module}.py").is_file():
            problems.append(f"no trimming hook packaging/hooks/hook-PySide6.{module}.py")
    plugins = qt / "Qt" / "plugins"
    found: dict[str, set[str]] = {}
    for path in plugins.glob("*/*"):
        found.setdefault(path.parent.name, set()).add(plugin_name(path.name))
    for kind, names in sorted(found.items()):
        extra = names - set(contents.QT_PLUGINS.get(kind, ()))
        if extra:
            problems.append(f"Qt plugins not in contents.QT_PLUGINS: {kind}/{sorted(extra)}")
    for kind, name in (("platforms", "qxcb"), ("platforms", "qoffscreen"),
                       ("platforms", "qwayland"), ("iconengines", "qsvgicon"),
                       ("imageformats", "qsvg"), ("printsupport", "cupsprintersupport")):
        if name not in found.get(kind, set()):
            problems.append(f"the Qt plugin {kind}/{name} is missing")
    translations = qt / "Qt" / "translations"
    if translations.is_dir() and any(translations.iterdir()):
        problems.append(f"Qt translations are bundled in {translations}")
    return problems


def check_libraries(frozen: Path) -> list[str]:
    left = contents.system_libraries()
    return [f"{path.relative_to(frozen)} is bundled, but the .deb takes it from the system "
            f"({left[path.name]})" for path in sorted(frozen.rglob("*")) if path.name in left]


def check_data(frozen: Path) -> list[str]:
    from desktop.store.database import REVISIONS

    internal = frozen / INTERNAL / "desktop"
    problems = []
    versions = sorted((internal / "store" / "migrations" / "versions").glob("*.py"))
    if not (internal / "store" / "migrations" / "env.py").is_file():
        problems.append("the Alembic environment desktop/store/migrations/env.py is missing")
    if len(versions) != len(REVISIONS):
        problems.append(f"{len(versions)} migration scripts bundled, Rout knows "
                        f"{len(REVISIONS)} revisions")
    for folder in ("libraries", "armies", "scenarios", "icons"):
        source = sorted(path.relative_to(REPOSITORY / "resources" / folder)
                        for path in (REPOSITORY / "resources" / folder).rglob("*.*"))
        frozen_files = sorted(path.relative_to(internal / "resources" / folder)
                              for path in (internal / "resources" / folder).rglob("*.*"))
        if source != frozen_files:
            problems.append(f"resources/{folder} differs from the source: "
                            f"{sorted(set(source) ^ set(frozen_files))[:5]}")
    if not list((internal / "ui").glob("*.ui")):
        problems.append("the Designer forms (desktop/ui) are missing")
    return problems


# The .deb --------------------------------------------------------------------------------

def deb_field(deb: Path, field: str) -> str:
    return subprocess.run(["dpkg-deb", "--field", str(deb), field], capture_output=True,
                          text=True, check=True).stdout.strip()


def check_deb(deb: Path, root: Path) -> list[str]:
    from desktop import __version__

    problems = []
    expected = {"Package": "rout", "Version": __version__,
                "Depends": ", ".join(contents.depends())}
    for field, value in expected.items():
        if deb_field(deb, field) != value:
            problems.append(f"{field}: {deb_field(deb, field)!r}, expected {value!r}")
    link = root / "usr" / "bin" / "rout"
    if not link.is_symlink() or os.readlink(link) != "/opt/rout/rout":
        problems.append("/usr/bin/rout is not a link to /opt/rout/rout")
    if not os.access(root / "opt" / "rout" / "rout", os.X_OK):
        problems.append("/opt/rout/rout is not an executable")
    theme = root / "usr" / "share" / "icons" / "hicolor"
    for size in icons.HICOLOR_SIZES:
        png = theme / f"{size}x{size}" / "apps" / f"{contents.APP_ID}.png"
        if not png.is_file():
            problems.append(f"no icon {png.relative_to(root)}")
        elif png_size(png) != (size, size):
            problems.append(f"{png.relative_to(root)} is {png_size(png)}, not {size} px")
    if not (theme / "scalable" / "apps" / f"{contents.APP_ID}.svg").is_file():
        problems.append("no scalable icon")
    if not (root / "usr" / "share" / "doc" / "rout" / "copyright").is_file():
        problems.append("no /usr/share/doc/rout/copyright")
    return problems


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    header = path.read_bytes()[:24]
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path} is not a PNG file")
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def check_desktop_entry(root: Path) -> list[str]:
    entry = root / "usr" / "share" / "applications" / f"{contents.APP_ID}.desktop"
    result = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True,
                            text=True, check=False)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if line]
    if result.returncode:
        problems.append(f"desktop-file-validate exited with {result.returncode}")
    text = entry.read_text(encoding="utf-8")
    for line in ("Exec=rout", f"Icon={contents.APP_ID}"):
        if line not in text.splitlines():
            problems.append(f"{entry.name} has no line {line}")
    return problems


def check_metainfo(root: Path) -> list[str]:
    from desktop import __version__

    metainfo = root / "usr" / "share" / "metainfo" / f"{contents.APP_ID}.metainfo.xml"
    result = subprocess.run(["appstreamcli", "validate", "--no-net", "--strict",
                             str(metainfo)], capture_output=True, text=True, check=False)
    problems = ([line for line in result.stdout.splitlines() if line.strip()]
                if result.returncode else [])
    releases = re.findall(r'<release version="([^"]+)"', metainfo.read_text(encoding="utf-8"))
    if not releases or releases[0] != __version__:
        problems.append(f"the newest <release> is {releases[:1]}, but Rout is {__version__}: "
                        "add a <release> to packaging/org.rout.Rout.metainfo.xml")
    captions = re.findall(r"<caption>", metainfo.read_text(encoding="utf-8"))
    screenshots = re.findall(r"<screenshot[ >]", metainfo.read_text(encoding="utf-8"))
    if not screenshots or len(captions) != len(screenshots):
        problems.append("every screenshot in the metainfo needs a caption")
    return problems


def elf_files(folder: Path) -> Iterator[Path]:
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            with path.open("rb") as handle:
                if handle.read(4) == b"\x7fELF":
                    yield path


def system_library_paths() -> dict[str, str]:
    """Library file name -> path, as the dynamic loader finds them (`ldconfig -p`)."""
    output = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True,
                            check=True).stdout
    found: dict[str, str] = {}
    for line in output.splitlines()[1:]:
        name, _, path = line.strip().partition(" => ")
        found.setdefault(name.split(" (")[0], path)
    return found


def owning_packages(paths: list[str]) -> dict[str, str]:
    """Path -> the installed Debian package that owns it (merged /usr tried both ways)."""
    owners: dict[str, str] = {}
    for path in paths:
        candidates = [path, os.path.realpath(path)]
        candidates += [c.replace("/usr/lib/", "/lib/", 1) if c.startswith("/usr/lib/")
                       else c.replace("/lib/", "/usr/lib/", 1) for c in list(candidates)]
        for candidate in candidates:
            result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True,
                                    check=False)
            if result.returncode == 0:
                owners[path] = result.stdout.split(":")[0].split(",")[0].strip()
                break
    return owners


def dependency_closure(packages: list[str]) -> set[str]:
    """The packages installing `packages` brings in (Depends and Pre-Depends, recursively,
    every alternative counted), as far as they are installed here."""
    closure: set[str] = set()
    pending = list(packages)
    while pending:
        package = pending.pop()
        if package in closure:
            continue
        closure.add(package)
        result = subprocess.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}",
                                 package], capture_output=True, text=True, check=False)
        for alternative in re.split(r"[,|]", result.stdout):
            name = alternative.strip().split(" ")[0].split(":")[0]
            if name:
                pending.append(name)
    return closure


def check_depends(root: Path) -> list[str]:
    """Every library a frozen binary links to is bundled, or comes with Depends:."""
    frozen = root / "opt" / "rout"
    bundled = {path.name for path in frozen.rglob("*")}
    system = system_library_paths()
    needs: dict[str, set[str]] = {}
    for binary in elf_files(frozen):
        for name in contents.needed_libraries(binary):
            if name not in bundled:
                needs.setdefault(name, set()).add(binary.name)
    problems = [f"{name}, needed by {sorted(users)[:3]}, is neither bundled nor on this "
                "system" for name, users in sorted(needs.items()) if name not in system]
    owners = owning_packages([system[name] for name in needs if name in system])
    brought = dependency_closure(contents.depends())
    for name in sorted(needs):
        if name not in system:
            continue
        package = owners.get(system[name])
        if package is None:
            problems.append(f"{name} ({system[name]}) belongs to no Debian package")
        elif package not in brought:
            problems.append(f"{name} (needed by {sorted(needs[name])[:3]}) comes from "
                            f"{package}, which Depends: does not bring in "
                            "(packaging/contents.py)")
    return problems


# Running the frozen app ------------------------------------------------------------------

class Runner:
    """Runs `rout` with a private home (settings, data folder, logs) and the offscreen
    platform, and keeps what each run took."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = {key: value for key, value in os.environ.items()
                    if not key.startswith(("ROUT_", "QT_", "XDG_"))}
        home = tmp / "home"
        self.env.update({"HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
                         "XDG_CONFIG_HOME": str(home / ".config"),
                         "XDG_DATA_HOME": str(home / ".local" / "share"),
                         "XDG_CACHE_HOME": str(home / ".cache"),
                         "XDG_STATE_HOME": str(home / ".local" / "state")})
        self.times: dict[str, float] = {}
        self.shown: dict[str, str] = {}
        """--army and --battle for the screenshots: ids from the imports."""

    def run(self, label: str, command: list[str]) -> subprocess.CompletedProcess[str]:
        started = time.monotonic()
        result = subprocess.run(command, capture_output=True, text=True, env=self.env,
                                cwd=self.tmp, timeout=RUN_TIMEOUT, check=False)
        self.times[label] = time.monotonic() - started
        return result


def shown_options(runner: Runner) -> list[str]:
    return [part for option in runner.shown.items() for part in option]


def failed(result: subprocess.CompletedProcess[str], what: str) -> list[str]:
    """A problem for a run that exited non-zero or printed a traceback."""
    if result.returncode == 0 and "Traceback" not in result.stderr:
        return []
    tail = "\n       ".join((result.stderr or result.stdout).strip().splitlines()[-12:])
    return [f"{what} exited with {result.returncode}:\n       {tail}"]


def check_frozen_runs(root: Path, runner: Runner, database: Path) -> list[str]:
    from desktop.store.database import HEAD

    rout = str(root / "opt" / "rout" / "rout")
    url = f"sqlite:///{database}"
    imported = runner.run("import", [rout, "import", str(ROSTER), "--database", url])
    problems = failed(imported, "rout import (roster)")
    if problems:
        return problems
    army = json.loads(imported.stdout)
    if army.get("points") != ROSTER_POINTS:
        problems.append(f"the roster imported with {army.get('points')} points, "
                        f"not {ROSTER_POINTS}")
    with sqlite3.connect(database) as connection:
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    if revision != [(HEAD,)]:
        problems.append(f"the fresh database is at revision {revision}, not {HEAD}")
    checked = runner.run("check", [rout, "check", army["army"], "--database", url])
    problems += failed(checked, "rout check")
    scenario = root / "opt" / "rout" / INTERNAL / "desktop" / "resources" / "scenarios" / SCENARIO
    resolved = runner.run("resolve", [rout, "resolve", str(scenario), "--seed", "1"])
    problems += failed(resolved, "rout resolve (bundled scenario)")
    if not problems and not json.loads(resolved.stdout).get("events"):
        problems.append("rout resolve printed no events")
    battle = runner.run("import battle", [rout, "import", str(scenario), "--database", url])
    problems += failed(battle, "rout import (scenario)")
    if problems:
        return problems
    runner.shown = {"--army": army["army"], "--battle": json.loads(battle.stdout)["battle"]}
    shot = runner.tmp / "frozen.png"
    screenshot = runner.run("screenshot", [rout, "--screenshot", str(shot), "--database", url,
                                           *shown_options(runner)])
    problems += failed(screenshot, "rout --screenshot")
    if not problems and png_size(shot) != SCREENSHOT_SIZE:
        problems.append(f"the screenshot is {png_size(shot)}, not {SCREENSHOT_SIZE}")
    postgres = runner.run("postgresql", [rout, "armies", "--database",
                                         "postgresql+psycopg://rout@127.0.0.1:9/rout"])
    if postgres.returncode != 2 or re.search("not installed|no driver", postgres.stderr):
        problems.append(f"a PostgreSQL URL gave {postgres.returncode}: "
                        f"{postgres.stderr.strip()[:200]}")
    return problems


# The modules loaded from files: not aliases (os.path), nor modules made in C
# (pyexpat.errors), nor shiboken's embedded support code.
def check_xcb_window(root: Path, runner: Runner, database: Path) -> list[str]:
    """On an X server (Xvfb): Qt's xcb plugin loads with the system's libraries."""
    shot = runner.tmp / "xcb.png"
    command = ["xvfb-run", "--auto-servernum", "--server-args=-screen 0 1600x1000x24",
               str(root / "opt" / "rout" / "rout"), "--screenshot", str(shot),
               "--database", f"sqlite:///{database}", *shown_options(runner)]
    saved = runner.env["QT_QPA_PLATFORM"]
    runner.env["QT_QPA_PLATFORM"] = "xcb"
    try:
        problems = failed(runner.run("xcb screenshot", command), "rout --screenshot on Xvfb")
    finally:
        runner.env["QT_QPA_PLATFORM"] = saved
    if not problems and png_size(shot) != SCREENSHOT_SIZE:
        problems.append(f"the X11 screenshot is {png_size(shot)}, not {SCREENSHOT_SIZE}")
    return problems


MODULE_DUMP = """\
import atexit, os, runpy, sys
def dump():
    names = [name for name, module in list(sys.modules.items())
             if getattr(module, "__name__", None) == name
             and os.path.isfile(getattr(module, "__file__", None) or "")]
    with open({output!r}, "w") as out:
        out.write("\\n".join(sorted(names)))
atexit.register(dump)
sys.argv = ["rout", *{arguments!r}]
runpy.run_module("desktop", run_name="__main__")
"""


def check_normal_run_modules(frozen: Path, runner: Runner, database: Path) -> list[str]:
    """Modules that the same commands load from a normal install must all be frozen."""
    scenario = str(frozen / INTERNAL / "desktop" / "resources" / "scenarios" / SCENARIO)
    url = f"sqlite:///{database}"
    runs = {"import": ["import", str(ROSTER), "--database", url],
            "resolve": ["resolve", scenario, "--seed", "1"],
            "screenshot": ["--screenshot", str(runner.tmp / "normal.png"), "--database", url,
                           *shown_options(runner)]}
    loaded: set[str] = set()
    problems = []
    for label, arguments in runs.items():
        output = runner.tmp / f"modules-{label}.txt"
        result = runner.run(f"normal {label}", [sys.executable, "-c", MODULE_DUMP.format(
            output=str(output), arguments=arguments)])
        problems += failed(result, f"the normal install's rout {label}")
        if output.is_file():
            loaded.update(output.read_text(encoding="utf-8").split())
    missing = sorted(
        name for name in loaded - frozen_modules(frozen)
        if name not in sys.builtin_module_names and not name.startswith("_frozen")
        and name not in INTERPRETER_MODULES and name not in contents.NOT_FROZEN
        and name not in contents.OPTIONAL_IMPORTS)
    problems += [f"{name} is loaded by a normal install but not frozen (imported by name? "
                 "add it to contents.DYNAMIC_IMPORTS)" for name in missing]
    return problems


# Size and time ---------------------------------------------------------------------------

def folder_bytes(folder: Path) -> int:
    return sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_dir())


def megabytes(count: int) -> str:
    return f"{count / 1e6:.0f} MB"


def report(frozen: Path, deb: Path, build_seconds: float | None,
           times: dict[str, float]) -> None:
    internal = frozen / INTERNAL
    parts = sorted(((folder_bytes(path) if path.is_dir() else path.lstat().st_size, path.name)
                    for path in internal.iterdir()), reverse=True)
    files = sum(1 for path in frozen.rglob("*") if not path.is_dir())
    print(f"\nfrozen build: {megabytes(folder_bytes(frozen))} in {files} files "
          f"({frozen}); .deb {megabytes(deb.stat().st_size)} ({deb.name})")
    print("largest parts: " + ", ".join(f"{name} {megabytes(size)}"
                                         for size, name in parts[:8]))
    if build_seconds is not None:
        print(f"build time: {build_seconds:.0f} s (venv, PyInstaller and the .deb)")
    print("frozen runs: " + ", ".join(f"{label} {seconds:.1f} s"
                                      for label, seconds in times.items()))


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=REPOSITORY / "dist")
    parser.add_argument("--build-seconds", type=float,
                        help="how long packaging/build.sh took, for the report")
    args = parser.parse_args(arguments)
    from desktop import __version__

    frozen = args.dist.resolve() / "rout"
    debs = sorted(args.dist.resolve().glob(f"rout_{__version__}_*.deb"))
    if not (frozen / "rout").is_file() or len(debs) != 1:
        print(f"check_bundle: no frozen build and single .deb in {args.dist} "
              "(run packaging/build.sh)", file=sys.stderr)
        return 1
    deb = debs[0]
    check = Check()
    check("frozen modules: desktop/, the Alembic scripts' imports, imports by name",
          lambda: check_modules(frozen))
    check("Qt trimmed to contents.QT_MODULES and QT_PLUGINS, no translations",
          lambda: check_qt(frozen))
    check("no library that the .deb takes from the system", lambda: check_libraries(frozen))
    check("migrations, libraries, armies, scenarios, icons and forms bundled",
          lambda: check_data(frozen))
    with tempfile.TemporaryDirectory(prefix="rout-check-") as temporary:
        tmp = Path(temporary)
        root = tmp / "root"
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
        check(f"{deb.name}: fields, files, icons at {len(icons.HICOLOR_SIZES)} sizes",
              lambda: check_deb(deb, root))
        check("desktop-file-validate", lambda: check_desktop_entry(root))
        check("appstreamcli validate --strict, release and captions",
              lambda: check_metainfo(root))
        check("Depends: brings every system library the frozen binaries link to",
              lambda: check_depends(root))
        runner = Runner(tmp)
        database = tmp / "fresh.sqlite"
        if check("frozen rout from the unpacked .deb: import (705 points, migrated), check, "
                 "resolve, --screenshot, PostgreSQL driver",
                 lambda: check_frozen_runs(root, runner, database)):
            # SQLite's backup, not a file copy: the last writes may still be in the WAL.
            with (sqlite3.connect(database) as source,
                  sqlite3.connect(tmp / "normal.sqlite") as copy):
                source.backup(copy)
            check("every module a normal install loads for the same commands is frozen",
                  lambda: check_normal_run_modules(root / "opt" / "rout", runner,
                                                   tmp / "normal.sqlite"))
            if shutil.which("xvfb-run"):
                check("a real X11 window (xcb, on Xvfb) from the unpacked .deb",
                      lambda: check_xcb_window(root, runner, database))
            else:
                print("skip a real X11 window: no xvfb-run (Debian's xvfb)")
        report(frozen, deb, args.build_seconds, runner.times)
    print(f"packaging: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
