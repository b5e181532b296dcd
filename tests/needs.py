"""Tests that need something the README does not list for the tests: a program or a system
library. On a machine without it they skip, saying what to install; where CI has installed
it (its variable set to 1 by .ci/run), its absence fails the test instead, so that a broken
install can never pass as a skip.

    ROUT_REQUIRE_POSTGRES  a PostgreSQL server (conftest.postgres_server)
    ROUT_REQUIRE_XVFB      Xvfb, xdotool, ImageMagick and Qt's xcb libraries
    ROUT_REQUIRE_POPPLER   poppler-utils (pdftotext, pdfinfo), to read printed PDFs
"""

from __future__ import annotations

import os
import shutil
from functools import cache
from pathlib import Path
from typing import NoReturn

import pytest
from PySide6.QtCore import QLibraryInfo

from desktop.gui.platform_check import PACKAGES, missing_libraries


def lacking(reason: str, required_by: str) -> NoReturn:
    """Skip for `reason`, or fail when `required_by` says CI installed what is lacking."""
    if os.environ.get(required_by) == "1":
        pytest.fail(f"{required_by}=1 but {reason}")
    pytest.skip(reason)


def program(name: str, package: str, required_by: str, why: str) -> str:
    """The path of program `name`; else skip (or fail) naming the Debian `package`."""
    found = shutil.which(name)
    if found is None:
        lacking(f"{name} ({package}) is not installed, so {why}", required_by)
    return found


@cache
def _xcb_missing() -> tuple[str, ...]:
    plugins = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    plugin = plugins / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return ("Qt's xcb platform plugin",)
    return tuple(missing_libraries(plugin))


def qt_xcb(required_by: str = "ROUT_REQUIRE_XVFB") -> None:
    """Qt's X11 platform plugin loads here: every library it needs is installed."""
    missing = _xcb_missing()
    if missing:
        packages = " ".join(dict.fromkeys(PACKAGES.get(name, name) for name in missing))
        lacking(f"Qt's X11 platform cannot load here ({', '.join(missing)} missing; "
                f"apt install {packages})", required_by)
