"""Rout on a real X server (Xvfb) through Qt's xcb platform, not offscreen, and the one-line
messages it gives when Qt could not open a window there (no display, a display that does not
answer, a library of the xcb plugin missing or broken) instead of Qt's abort (exit 134).

Every run is a real `python -m desktop` process. The smoke test needs Xvfb, xdotool and
ImageMagick's `import`, and all but the no-display test need Qt's xcb libraries (README lists
them for a real window, not for the tests); without them they skip, unless
ROUT_REQUIRE_XVFB=1 (set by .ci/run) makes that a failure (tests/needs.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import needs
import pytest
from conftest import BATTLESCRIBE_ROSTER, SHARED_DATA
from PySide6.QtGui import QImage

TOOLS = ("Xvfb", "xdotool", "import")
LEXICANUM = SHARED_DATA / "bsdata" / "lexicanum"


def rout(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "desktop", *args], env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def environment(home: Path, **changes: str | None) -> dict[str, str]:
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
           "XDG_CONFIG_HOME": str(home / "config")}
    for name in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", "DISPLAY", "ROUT_DATABASE"):
        env.pop(name, None)
    for name, value in changes.items():
        if value is not None:
            env[name] = value
    return env


def rout_log(home: Path) -> str:
    log = home / "data" / "Rout" / "rout.log"
    return log.read_text(encoding="utf-8") if log.is_file() else ""


def assert_one_clean_line(result: subprocess.CompletedProcess, *words: str) -> str:
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "qt.qpa" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def test_no_display_says_so_instead_of_aborting(home, tmp_path):
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    for args in (("--database", url), ("--screenshot", str(tmp_path / "x.png"),
                                       "--database", url)):
        result = rout(*args, env=environment(home))
        line = assert_one_clean_line(result, "no display is available", "offscreen")
        assert line.removeprefix("rout: ") in rout_log(home)
    assert not (tmp_path / "x.png").exists()


def test_a_display_that_does_not_answer_says_so(home, tmp_path):
    needs.qt_xcb()  # without its libraries, their absence is what Rout must report
    # A display number nothing listens on.
    result = rout("--database", f"sqlite:///{tmp_path / 'rout.sqlite'}",
                  env=environment(home, DISPLAY=":97", QT_QPA_PLATFORM="xcb"))
    assert_one_clean_line(result, "':97' does not answer")


def test_a_broken_xcb_library_names_the_package_to_install(home, tmp_path):
    needs.qt_xcb()  # every other library there: the broken one is all the message names
    # A library of the xcb plugin shadowed by a broken file, as a half-installed system has.
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "libxcb-cursor.so.0").write_bytes(b"")
    result = rout("--database", f"sqlite:///{tmp_path / 'rout.sqlite'}",
                  env=environment(home, DISPLAY=":97", QT_QPA_PLATFORM="xcb",
                                  LD_LIBRARY_PATH=str(shadow)))
    line = assert_one_clean_line(result, "libxcb-cursor.so.0", "sudo apt install libxcb-cursor0")
    assert line.removeprefix("rout: ") in rout_log(home)


@pytest.fixture
def xvfb() -> Iterator[str]:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        needs.lacking(f"{', '.join(missing)} not installed: no real X server to try",
                      "ROUT_REQUIRE_XVFB")
    needs.qt_xcb()
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24",
                               "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()  # Xvfb writes its display number once it is ready
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_window_maps_on_a_real_x_server_with_the_armies(xvfb, home, tmp_path):
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    imported = rout("import", str(BATTLESCRIBE_ROSTER), "--database", url,
                    env=environment(home))
    assert imported.returncode == 0, imported.stderr
    env = environment(home, DISPLAY=xvfb, QT_QPA_PLATFORM="xcb")
    app = subprocess.Popen([sys.executable, "-m", "desktop", "--database", url], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The title names the army once the database has been read and the army shown.
        found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                                "Bretonnian Expedition .* Rout"], env=env, capture_output=True,
                               text=True, timeout=60, check=False)
        assert found.returncode == 0 and found.stdout.strip(), \
            f"no Rout window with the army mapped: {found.stderr} {app.poll()}"
        time.sleep(0.5)  # the first frames after mapping
        picture = tmp_path / "screen.png"
        subprocess.run(["import", "-window", "root", str(picture)], env=env, timeout=30,
                       check=True)
        image = QImage(str(picture))
        assert (image.width(), image.height()) == (1366, 768)
        colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
                   for y in range(0, image.height(), 7)}
        assert len(colours) > 20, "the screen is blank"
        assert app.poll() is None, app.stderr.read() if app.stderr else ""
    finally:
        app.send_signal(signal.SIGTERM)
        try:
            app.wait(timeout=20)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait()
    assert "qt.qpa" not in (app.stderr.read() if app.stderr else "")


def test_adding_game_data_on_a_real_x_server_gives_the_window_back(xvfb, home):
    """Issue 23: on xcb the window froze for good after adding game data (1 add in 3): a
    signal connected to an object the worker held the last reference to was disconnected on
    the pool thread under Qt's lock while the window thread held the GIL in close()."""
    if not LEXICANUM.is_dir():
        pytest.skip(f"no shared game data at {LEXICANUM}")
    env = environment(home, DISPLAY=xvfb, QT_QPA_PLATFORM="xcb")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             str(Path(__file__).with_name("window_game_data.py"))],
                            env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-3000:])
