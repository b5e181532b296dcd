"""shapely, imported when geometry is first done rather than when the engine is.

Reading armies and libraries goes through the engine's model, codec and rulesets but does no
geometry; importing shapely (and numpy with it) cost a window about a fifth of the time it
took to show a player's armies. Engine modules write `from desktop.engine.lazy import
shapely` and use `shapely.Polygon`, `shapely.STRtree`… as they would the module itself
(numpy likewise).
"""

from __future__ import annotations

import importlib
import types
from typing import TYPE_CHECKING, Any


class _LazyModule(types.ModuleType):
    """Stands for a module until an attribute is asked for, then imports it and takes its
    attributes, so later look-ups are plain attribute reads (movement's loops make many)."""

    def __getattr__(self, name: str) -> Any:
        # import_module holds the module's import lock: two threads asking at once get one
        # import, and copying the same attributes twice is harmless.
        module = importlib.import_module(self.__name__)
        self.__dict__.update({key: value for key, value in vars(module).items()
                              if not key.startswith("__")})
        return getattr(module, name)


if TYPE_CHECKING:
    import numpy as numpy
    import shapely as shapely
else:
    numpy = _LazyModule("numpy")
    shapely = _LazyModule("shapely")
