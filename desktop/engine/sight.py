"""What the engine looks at on the table while it works out a move.

A forecast may walk one total of a distance roll for several when the procedure says the
others would only have moved one unit elsewhere (`Roll.reads == "move"`). That holds when
every total of the class moves the unit alike (the same words: through whom, stopped by
whom, off the table or not) and nothing worked out after the move looks at any place where
one of those totals would have left it. Movement reports every part of the table it looks
at (`look`); a `Sight` set up for a run watches the ground such a unit might stand on and
notes each roll whose promise failed, so that the forecast walks its totals one by one.

`remember` keeps a move with the battle it was worked out on, together with what it looked
at, so a later run that finds it still sees (and checks) the same ground.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Footprint,
    Point,
    convex_hull,
    convex_overlap,
)
from desktop.engine.model import Battle

T = TypeVar("T")

# Ground is watched this much wider than the unit: far more than any tolerance movement uses
# to call two shapes touching or overlapping.
MARGIN = 2 * CONTACT_TOLERANCE

# A part of the table looked at: its bounding box, then the corners of a convex region that
# holds all of it (in any order; the hull is taken only when the boxes meet).
Region = tuple[float, float, float, float, tuple[Point, ...]]

_SIGHT: ContextVar[Sight | None] = ContextVar("sight", default=None)
_MEMORY: ContextVar[list[Region] | None] = ContextVar("sight_memory", default=None)


def look(points: Sequence[Point]) -> None:
    """Movement looked inside the convex hull of `points`: nothing outside it could change
    what it works out. Free unless a run is watched or a move is being remembered."""
    sight, memory = _SIGHT.get(), _MEMORY.get()
    if sight is None and memory is None:
        return
    xs, ys = [x for x, _ in points], [y for _, y in points]
    region = (min(xs), min(ys), max(xs), max(ys), tuple(points))
    if memory is not None:
        memory.append(region)
    if sight is not None:
        sight.seen(region)


def look_around(points: Sequence[Point], reach: float) -> None:
    """Movement looked at everything within `reach` of the shape with these corners."""
    if _SIGHT.get() is None and _MEMORY.get() is None:
        return
    xs, ys = [x for x, _ in points], [y for _, y in points]
    low_x, low_y, high_x, high_y = min(xs) - reach, min(ys) - reach, max(xs) + reach, \
        max(ys) + reach
    look(((low_x, low_y), (high_x, low_y), (high_x, high_y), (low_x, high_y)))


class Sight:
    """The checks of one run: which promises the forecast relies on, the ground watched
    for each, and the ones that failed (`broken`)."""

    def __init__(self, relied: Iterable[str] = ()) -> None:
        self.relied = set(relied)
        self.broken: set[str] = set()
        self._watched: list[tuple[str, tuple[float, float, float, float],
                                  list[tuple[Point, ...]]]] = []

    def relies_on(self, key: str) -> bool:
        return key in self.relied and key not in self.broken

    def rely_on(self, key: str) -> None:
        self.relied.add(key)

    def doubt(self, key: str) -> None:
        self.broken.add(key)

    def watch(self, key: str, ground: Sequence[Footprint]) -> None:
        """From now on, looking at any of `ground` breaks the promise of `key`."""
        grown: list[tuple[Point, ...]] = [
            Footprint(f.center, f.facing, f.frontage + 2 * MARGIN, f.depth + 2 * MARGIN).corners
            for f in ground]
        if not grown:
            return
        xs = [x for corners in grown for x, _ in corners]
        ys = [y for corners in grown for _, y in corners]
        self._watched.append((key, (min(xs), min(ys), max(xs), max(ys)), grown))

    def seen(self, region: Region) -> None:
        low_x, low_y, high_x, high_y, points = region
        hull: tuple[Point, ...] | None = None
        for key, (w_low_x, w_low_y, w_high_x, w_high_y), ground in self._watched:
            if key in self.broken or (low_x > w_high_x or high_x < w_low_x
                                      or low_y > w_high_y or high_y < w_low_y):
                continue
            if hull is None:
                hull = convex_hull(points)
            if len(hull) < 3 or any(convex_overlap(hull, corners) for corners in ground):
                self.broken.add(key)  # a point or a segment: no outline to test, so doubt


@contextmanager
def watching(sight: Sight | None) -> Iterator[None]:
    """Report what movement looks at to `sight` while the block runs."""
    token = _SIGHT.set(sight)
    try:
        yield
    finally:
        _SIGHT.reset(token)


def remember(battle: Battle, key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()` worked out once per battle (a battle never changes), kept with it; every
    use, first or later, looks again at what the work looked at."""
    cache: dict[Hashable, tuple[object, tuple[Region, ...]]] = (
        battle.__dict__.setdefault("_remembered", {}))
    found = cache.get(key)
    if found is not None:
        value, seen = found
        sight, memory = _SIGHT.get(), _MEMORY.get()
        if memory is not None:
            memory.extend(seen)
        if sight is not None:
            for region in seen:
                sight.seen(region)
        return value  # type: ignore[return-value]  # stored under this key by this call
    outer = _MEMORY.get()
    seen_now: list[Region] = []
    token = _MEMORY.set(seen_now)
    try:
        value = compute()
    finally:
        _MEMORY.reset(token)
    cache[key] = (value, tuple(seen_now))
    if outer is not None:
        outer.extend(seen_now)
    return value
