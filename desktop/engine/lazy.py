"""shapely, imported when geometry is first done rather than when the engine is.

Reading armies and libraries goes through the engine's model, codec and rulesets but does no
geometry; importing shapely (and numpy with it) cost a window about a fifth of the time it
took to show a player's armies. Engine modules write `from desktop.engine.lazy import
shapely` and use `shapely.Polygon`, `shapely.STRtree`… as they would the module itself
(numpy likewise); desktop.lazy is how.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as numpy
    import shapely as shapely
else:
    numpy = lazy_module("numpy")
    shapely = lazy_module("shapely")
