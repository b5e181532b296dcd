"""shapely and numpy load on the engine's first geometry (desktop/engine/lazy.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FIRST_USE = """
import sys
from desktop.engine import lazy
assert "shapely" not in sys.modules and "numpy" not in sys.modules
assert type(lazy.shapely) is not type(sys)
square = lazy.shapely.box(0, 0, 1, 1)
assert type(lazy.shapely) is type(sys)  # a plain module from then on: fast look-ups
import shapely, shapely.ops
assert lazy.shapely.Polygon is shapely.Polygon
assert lazy.shapely.ops is shapely.ops  # imported after the copy: still found
print(square.area)
"""

# One thread's first geometry and another's first numpy call at the same moment: without
# one lock for both, numpy is left half imported for the rest of the process.
RACE = """
import threading
from desktop.engine.lazy import numpy, shapely
start, errors = threading.Barrier(2), []
def use(call):
    start.wait()
    try:
        call()
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=use, args=(lambda: shapely.Polygon([(0, 0), (1, 0), (1, 1)]),)),
           threading.Thread(target=use, args=(lambda: numpy.hypot(3, 4),))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(errors or "ok")
"""


def run(code: str) -> str:
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=environment, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_first_use_imports_shapely_and_the_module_turns_plain():
    assert run(FIRST_USE) == "1.0"


def test_first_uses_on_two_threads_at_once_import_cleanly():
    assert [run(RACE) for _ in range(6)] == ["ok"] * 6
