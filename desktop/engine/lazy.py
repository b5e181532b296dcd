"""shapely, imported when geometry is first done rather than when the engine is.

Reading armies and libraries goes through the engine's model, codec and rulesets but does no
geometry; importing shapely (and numpy with it) cost a window about a fifth of the time it
took to show a player's armies. Engine modules write `from desktop.engine.lazy import
shapely` and use `shapely.Polygon`, `shapely.STRtree`… as they would the module itself
(numpy likewise). `standing`, the checks of a battle's state, comes the same way: the codec
reads armies at start-up, and what a battle needs (events, the spatial index) waits for the
first battle read.
"""

from __future__ import annotations

import importlib
import threading
import types
from typing import TYPE_CHECKING, Any

# One lock for every lazy module: numpy imported on one thread while shapely (which imports
# numpy) is imported on another leaves numpy half made for the rest of the process.
_FIRST_IMPORT = threading.Lock()


class _LazyModule(types.ModuleType):
    """Stands for a module until an attribute is asked for, then imports it, takes its
    attributes and becomes a plain module, so later look-ups take Python's fast path
    (movement's loops make many)."""

    def __getattr__(self, name: str) -> Any:
        with _FIRST_IMPORT:
            module = importlib.import_module(self.__name__)
            if type(self) is _LazyModule:
                self.__dict__.update({key: value for key, value in vars(module).items()
                                      if not key.startswith("__")})
                # What was not there to copy (a submodule imported later) is still found.
                self.__dict__["__getattr__"] = lambda missing: getattr(module, missing)
                self.__class__ = types.ModuleType  # type: ignore[assignment]
        return getattr(module, name)


if TYPE_CHECKING:
    import numpy as numpy
    import shapely as shapely

    from desktop.engine import standing as standing
else:
    numpy = _LazyModule("numpy")
    shapely = _LazyModule("shapely")
    standing = _LazyModule("desktop.engine.standing")
