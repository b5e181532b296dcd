"""Make the .deb from PyInstaller's one-folder build, with dpkg-deb.

    python packaging/build_deb.py [--dist DIST]     DIST/rout/ -> DIST/rout_VERSION_ARCH.deb

Run it with the build venv's Python (packaging/build.sh does): the icons are drawn with
PySide6. The package holds

    /opt/rout/                      the frozen app (the `rout` executable and _internal/)
    /usr/bin/rout                   a link to /opt/rout/rout
    /usr/share/applications/        org.rout.Rout.desktop
    /usr/share/metainfo/            org.rout.Rout.metainfo.xml (AppStream)
    /usr/share/icons/hicolor/       the icon at every hicolor size, and the SVG
    /usr/share/doc/rout/copyright

and depends on the desktop's own libraries that the build left out (contents.depends()).
Debian's triggers refresh the icon cache and the menus: no maintainer scripts are needed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import contents
import icons

PACKAGE = "rout"
MAINTAINER = "Rout developers <rout@rout.example.org>"
SUMMARY = "army and battle manager for rank-and-flank miniatures games"
DESCRIPTION = """\
Rout builds army rosters for rank-and-flank miniatures games, puts the units on
a picture of the table, and when a combat is lost walks the players through
Break and Panic tests, fleeing, pursuit, Running Away and Chase, with the exact
odds of every roll and every move drawn on the battlefield. It knows Warhammer
Fantasy Battle 6th edition, Kensei 1st edition and the generic "Breaks or
Pursues" procedure, and imports BattleScribe and New Recruit rosters.
.
This package holds a self-contained build (Python, Qt and the other libraries
Rout uses) under /opt/rout."""

COPYRIGHT = """\
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Rout

Files: *
Copyright: Rout developers
License: MIT

Files: opt/rout/_internal/*
Copyright: the authors of each bundled library
License: various
 /opt/rout/_internal holds Python and the libraries Rout runs on, as published on
 PyPI: PySide6 and Qt (LGPL-3.0), shiboken6, SQLAlchemy, SQLModel, Alembic, Mako,
 pydantic, pyqtgraph, NumPy, Shapely (with GEOS), platformdirs, defusedxml and
 psycopg. Each one's licence is in its *.dist-info folder there, where the
 package ships it.
"""


def architecture() -> str:
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()


def folder_size_kib(folder: Path) -> int:
    """Installed-Size: the files' sizes in KiB, as dpkg counts them."""
    total = sum(path.lstat().st_size for path in folder.rglob("*") if not path.is_dir())
    return (total + 1023) // 1024


def control(version: str, arch: str, installed_kib: int) -> str:
    long_description = "\n".join(f" {line}" for line in DESCRIPTION.splitlines())
    return (f"Package: {PACKAGE}\n"
            f"Version: {version}\n"
            f"Architecture: {arch}\n"
            f"Maintainer: {MAINTAINER}\n"
            f"Installed-Size: {installed_kib}\n"
            f"Depends: {', '.join(contents.depends())}\n"
            "Section: games\n"
            "Priority: optional\n"
            f"Description: {SUMMARY}\n{long_description}\n")


def stage(frozen: Path, root: Path, version: str, arch: str) -> None:
    """Lay out the package's files under `root` (the future /)."""
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(frozen, root / "opt" / PACKAGE, symlinks=True)
    binary = root / "usr" / "bin" / PACKAGE
    binary.parent.mkdir(parents=True)
    binary.symlink_to(f"/opt/{PACKAGE}/{PACKAGE}")
    for name, folder in ((f"{contents.APP_ID}.desktop", "applications"),
                         (f"{contents.APP_ID}.metainfo.xml", "metainfo")):
        target = root / "usr" / "share" / folder / name
        target.parent.mkdir(parents=True)
        shutil.copyfile(contents.PACKAGING / name, target)
    icons.write_hicolor(root)
    doc = root / "usr" / "share" / "doc" / PACKAGE
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(COPYRIGHT, encoding="utf-8")
    # dpkg keeps the modes it finds: files readable by all, programs and folders executable.
    for path in root.rglob("*"):
        if path.is_symlink():
            continue
        executable = path.is_dir() or os.access(path, os.X_OK)
        path.chmod(0o755 if executable else 0o644)
    debian = root / "DEBIAN"
    debian.mkdir(mode=0o755)
    (debian / "control").write_text(control(version, arch, folder_size_kib(root)),
                                    encoding="utf-8")


def build(dist: Path) -> Path:
    from desktop import __version__

    frozen = dist / PACKAGE
    if not (frozen / PACKAGE).is_file():
        raise SystemExit(f"build_deb: no frozen build in {frozen} (run PyInstaller first)")
    arch = architecture()
    name = f"{PACKAGE}_{__version__}_{arch}"
    root = dist.parent / "build" / "deb" / name
    stage(frozen, root, __version__, arch)
    deb = dist / f"{name}.deb"
    # zstd: 2 s here for 88 MB, where xz takes 25-55 s for 74 MB (level 1) or over 3 min
    # (level 6). Every dpkg that can run this build reads it: the bundled Python needs
    # glibc 2.35 (Debian 12, Ubuntu 22.04), and their dpkg reads zstd.
    subprocess.run(["dpkg-deb", "--root-owner-group", "-Zzstd", "--build", str(root),
                    str(deb)], check=True, stdout=subprocess.DEVNULL)
    return deb


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=contents.REPOSITORY / "dist",
                        help="the folder holding PyInstaller's rout/ (default: dist/)")
    args = parser.parse_args(arguments)
    print(build(args.dist.resolve()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
