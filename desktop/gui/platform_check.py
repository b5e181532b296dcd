"""Can Qt open a window here? Asked before the QApplication exists, because when it cannot,
Qt aborts the process (exit 134) with a message about "platform plugins" that tells a player
nothing about what to install.

Two cases are caught on Linux's X11 platform (`xcb`, Qt's choice without Wayland): no
display at all, and a library the xcb plugin needs that is missing or broken. The second is
found by loading the plugin the way Qt would (`dlopen` through ctypes), and the whole list
of what is missing by asking the loader (`ldd`), so that one message names every Debian
package to install. Other platforms (offscreen, Wayland, Windows, macOS) are left to Qt.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Final

from desktop.gui.features import ctypes, subprocess

# The Debian/Ubuntu package of each library Qt's xcb plugin loads (Qt's own list of
# requirements for X11, plus the GL/EGL and font libraries every Qt GUI needs).
PACKAGES: Final = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libdbus-1.so.3": "libdbus-1-3",
}
NO_DISPLAY: Final = (
    "Rout cannot open a window: no display is available (DISPLAY is not set). Start it from "
    "a desktop session; to make a picture without one, run "
    "QT_QPA_PLATFORM=offscreen rout --screenshot FILE.png")
_LOADER_ERROR = re.compile(r"error while loading shared libraries: ([^:\s]+)")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def _platform() -> str:
    """The platform Qt will use: QT_QPA_PLATFORM's first choice, else Qt's own default."""
    chosen = os.environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    return "wayland" if os.environ.get("WAYLAND_DISPLAY") else "xcb"


def missing_libraries(plugin: Path) -> list[str]:
    """Libraries `plugin` cannot load with, by file name; empty when it loads."""
    # Here, not at the top: only a start on X11 needs them (offscreen and tests do not).

    try:
        ctypes.CDLL(str(plugin))
    except OSError as error:
        first = Path(str(error).split(":", 1)[0].strip()).name
    else:
        return []
    # dlopen names only the first failure; the loader's trace names them all.
    try:
        trace = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True,
                               timeout=10, check=False)
        output = trace.stdout + trace.stderr
    except (OSError, subprocess.SubprocessError):
        output = ""
    found = [first] + _NOT_FOUND.findall(output) + [
        Path(path).name for path in _LOADER_ERROR.findall(output)]
    return list(dict.fromkeys(name for name in found if name))


def xcb_problem(missing: list[str]) -> str:
    """One message naming what to install for the `missing` libraries."""
    packages = list(dict.fromkeys(PACKAGES.get(name, name) for name in missing))
    return (f"Rout cannot open a window: Qt's X11 support needs {', '.join(missing)}, which "
            f"{'is' if len(missing) == 1 else 'are'} missing or broken. On Debian or Ubuntu "
            f"install it with: sudo apt install {' '.join(packages)}")


def platform_problem(plugins: Path) -> str | None:
    """Why Qt could not open a window here, or None when it should (or it is not ours to
    check). `plugins` is Qt's plugin folder."""
    if not sys.platform.startswith("linux") or _platform() != "xcb":
        return None
    if not os.environ.get("DISPLAY"):
        return NO_DISPLAY
    plugin = plugins / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return None  # a build without the plugin: Qt's own message is the right one
    missing = missing_libraries(plugin)
    if missing:
        return xcb_problem(missing)
    display = os.environ["DISPLAY"]
    if not display_reachable(display):
        return (f"Rout cannot open a window: the display {display[:40]!r} does not answer "
                "(is the X server running, and may this user use it?)")
    return None


def display_reachable(display: str) -> bool:
    """Whether an X server answers on `display`, asked the way Qt will (libxcb)."""

    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return True  # the plugin loaded, so libxcb is there under another name: let Qt try
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    connection = xcb.xcb_connect(display.encode(), None)
    try:
        return bool(connection) and xcb.xcb_connection_has_error(connection) == 0
    finally:
        if connection:
            xcb.xcb_disconnect(connection)  # an error connection must be freed too
