#!/usr/bin/env bash
# Build Rout's one-folder app (dist/rout/) with PyInstaller, then its .deb
# (dist/rout_VERSION_ARCH.deb) with dpkg-deb. Needs python3 (3.11 or newer, with its shared
# library, as Debian's and pyenv's are), python3-venv, binutils and dpkg; everything else
# comes from PyPI into a venv of its own, so the developer's .venv is left alone.
#
#   bash packaging/build.sh
#
# ROUT_BUILD_VENV picks that venv (default: build/pkg-venv). The PostgreSQL driver is
# bundled too (the `postgres` extra), so the frozen app opens club databases.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
venv=${ROUT_BUILD_VENV:-$repo/build/pkg-venv}

step() { printf '\n== %s\n' "$*"; }

SECONDS=0
step "build venv $venv: Rout (non-editable, with the postgres extra) and PyInstaller"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "$repo[postgres]" pyinstaller
# The same version number would leave an older copy of the package in place.
"$venv/bin/pip" install -q --no-deps --force-reinstall "$repo"
"$venv/bin/pip" list --format=freeze 2>/dev/null \
  | grep -iE '^(pyinstaller|pyinstaller-hooks-contrib|pyside6[-_]essentials|rout)==' | paste -sd' '
venv_seconds=$SECONDS

step "PyInstaller: dist/rout/"
SECONDS=0
cd "$repo"
"$venv/bin/pyinstaller" --noconfirm --log-level WARN --distpath "$repo/dist" \
  --workpath "$repo/build/pyinstaller" packaging/rout.spec
freeze_seconds=$SECONDS

step "dpkg-deb: the .deb"
SECONDS=0
deb=$("$venv/bin/python" packaging/build_deb.py --dist "$repo/dist")
deb_seconds=$SECONDS

echo "$deb"
echo "times: venv ${venv_seconds}s, PyInstaller ${freeze_seconds}s, .deb ${deb_seconds}s"
