"""Modules imported when first used rather than when their importer is: Rout's one way to
keep what the first screen does not need off the way to it (as SPEC 1's lazy_loader does).

A module that needs a heavy one says so at its top, where its other imports are:

    if TYPE_CHECKING:
        import shapely
    else:
        shapely = lazy_module("shapely")

and then uses `shapely.Polygon` as it would the module itself. The first attribute asked for
imports the module; from then on the stand-in is a plain module (its attributes copied), so
later look-ups take Python's fast path. desktop.engine.lazy (shapely, numpy) and
desktop.gui.features (the window's features) are the two places that list such modules.
"""

from __future__ import annotations

import importlib
import threading
import types
from typing import Any

# One lock for every lazy module: numpy imported on one thread while shapely (which imports
# numpy) is imported on another leaves numpy half made for the rest of the process.
_FIRST_IMPORT = threading.RLock()


class _LazyModule(types.ModuleType):
    """Stands for a module until an attribute is asked for, then imports it, takes its
    attributes and becomes a plain module."""

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


def lazy_module(name: str) -> types.ModuleType:
    """A stand-in for the module `name`, imported on the first use of one of its names."""
    return _LazyModule(name)
