"""What the engine looks at on the table while it works out a move.

A forecast may walk one total of a distance roll for several when the procedure says the
others would only have moved one unit elsewhere (`Roll.reads == "move"`). That holds when
every total of the class moves the unit alike (the same words: through whom, stopped by
whom, off the table or not) and nothing worked out after the move looks at any place where
one of those totals would have left it. Movement reports every part of the table it looks
at (`look`); a `Sight` set up for a run watches the ground such a unit might stand on and
notes each roll whose promise failed, so that the forecast walks its totals one by one.

The same fact lets a move be worked out once for many battles: `remember` keeps it with
the battle it was worked out on and, given a `Recall`, finds it again in any battle where
the units it saw stand as they stood and every other unit is out of its sight. Either way
what it looked at is looked at again, so a `Sight` checks it as if it were worked out anew.

A `Trace` keeps all of this for a whole walk of some of a resolution's combats, with what
the rules read through the spatial index (`read`) and what the walk's events changed: a
forecast multiplies the chances of combats walked apart when their traces prove that
neither saw the other (forecast._exact_proven).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from desktop.engine.geometry import (
    CONTACT_TOLERANCE,
    Footprint,
    Point,
    convex_hull,
    convex_overlap,
)
from desktop.engine.lazy import shapely
from desktop.engine.model import Battle

if TYPE_CHECKING:
    from shapely import STRtree

T = TypeVar("T")

# Ground is watched this much wider than the unit: far more than any tolerance movement uses
# to call two shapes touching or overlapping.
MARGIN = 2 * CONTACT_TOLERANCE

Box = tuple[float, float, float, float]


class _Look:
    """A part of the table looked at: the convex hull of `points`, boxed for quick tests."""

    __slots__ = ("_hull", "box", "points")

    def __init__(self, points: Sequence[Point]) -> None:
        xs, ys = [x for x, _ in points], [y for _, y in points]
        self.box: Box = (min(xs), min(ys), max(xs), max(ys))
        self.points = tuple(points)
        self._hull: tuple[Point, ...] | None = None

    def meets(self, box: Box, ground: Sequence[tuple[Point, ...]]) -> bool:
        """Whether it meets any of the (convex) `ground`, whose bounding box is `box`."""
        low_x, low_y, high_x, high_y = self.box
        if low_x > box[2] or high_x < box[0] or low_y > box[3] or high_y < box[1]:
            return False
        if self._hull is None:
            self._hull = convex_hull(self.points)
        # A point or a segment has no outline to test: count it as meeting.
        return len(self._hull) < 3 or any(convex_overlap(self._hull, g) for g in ground)


def _ground(footprints: Iterable[Footprint]) -> tuple[Box, list[tuple[Point, ...]]] | None:
    """The footprints grown by MARGIN, and their bounding box (None for none)."""
    grown: list[tuple[Point, ...]] = [
        Footprint(f.center, f.facing, f.frontage + 2 * MARGIN, f.depth + 2 * MARGIN).corners
        for f in footprints]
    if not grown:
        return None
    xs = [x for corners in grown for x, _ in corners]
    ys = [y for corners in grown for _, y in corners]
    return (min(xs), min(ys), max(xs), max(ys)), grown


_GROWN = "_sight_ground"  # where `_grown` keeps a footprint's ground


class _Watched(threading.local):
    """What movement reports to in this thread (a forecast walks in a window's worker while
    the window resolves): the run's `Sight`, the `Recall` of its walk, the looks and reads
    of the work being remembered, and the `Trace` of a walk of some combats. Plain
    attributes, set and put back around each step of a session: a forecast makes tens of
    thousands of steps."""

    sight: Sight | None = None
    recall: Recall | None = None
    memory: list[_Look] | None = None
    reads: list[Read] | None = None
    trace: Trace | None = None


_NOW = _Watched()


def look(points: Sequence[Point]) -> None:
    """Movement looked inside the convex hull of `points`: nothing outside it could change
    what it works out. Free unless a run is watched or a move is being remembered."""
    sight, memory, trace = _NOW.sight, _NOW.memory, _NOW.trace
    if sight is None and memory is None and trace is None:
        return
    looked = _Look(points)
    if memory is not None:
        memory.append(looked)
    if sight is not None:
        sight.seen(looked)
    if trace is not None:
        trace.saw(looked)


def look_around(points: Sequence[Point], reach: float) -> None:
    """Movement looked at everything within `reach` of the shape with these corners."""
    if _NOW.sight is None and _NOW.memory is None and _NOW.trace is None:
        return
    xs, ys = [x for x, _ in points], [y for _, y in points]
    look(_corners((min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)))


def _corners(box: Box) -> tuple[Point, ...]:
    low_x, low_y, high_x, high_y = box
    return (low_x, low_y), (high_x, low_y), (high_x, high_y), (low_x, high_y)


EVERYWHERE: Box = (-1e12, -1e12, 1e12, 1e12)  # a read of every unit (finite: shapely's tree)
Only = Callable[[str], bool]  # the units a read takes (see `read`)
Read = tuple[Box, Only | None]


def read(box: Box, only: Only | None = None) -> None:
    """A rule read every unit whose bounding box meets `box` (edges included), or only
    those `only` takes (the rest cannot change what it finds): the spatial index's queries
    report it. Kept with remembered work, given to a walk's `Trace`, and checked against a
    run's watched ground like a look (a rule may pick the closest enemy after a move whose
    totals were walked as one); free otherwise."""
    reads, trace, sight = _NOW.reads, _NOW.trace, _NOW.sight
    if reads is not None:
        reads.append((box, only))
    if trace is not None:
        trace.read(box)
    if sight is not None and sight.watches:
        sight.seen(_Look(_corners(box)), only)


# Ground watched for a promise: (its key, the unit that would stand there, the ground's
# bounding box and its convex parts).
_Watch = tuple[str, str, Box, tuple[tuple[Point, ...], ...]]
# What a Sight holds, as a value: (relied, broken, watched ground per promise).
SightState = tuple[frozenset[str], frozenset[str], tuple[_Watch, ...]]

_NOTHING: SightState = (frozenset(), frozenset(), ())


class Sight:
    """The checks of one run: which promises the forecast relies on, the ground watched
    for each, and the ones that failed (`broken`)."""

    def __init__(self, relied: Iterable[str] = ()) -> None:
        self.relied = set(relied)
        self.broken: set[str] = set()
        self._watched: list[_Watch] = []

    def state(self) -> SightState:
        """All it holds, as a value (a forecast resumes runs from it and compares them)."""
        if not (self.relied or self.broken or self._watched):
            return _NOTHING  # most phases of most runs: one value, not three new ones
        return frozenset(self.relied), frozenset(self.broken), tuple(self._watched)

    @classmethod
    def from_state(cls, state: SightState) -> Sight:
        relied, broken, watched = state
        sight = cls(relied)
        sight.broken = set(broken)
        sight._watched = list(watched)
        return sight

    def relies_on(self, key: str) -> bool:
        return key in self.relied and key not in self.broken

    def rely_on(self, key: str) -> None:
        self.relied.add(key)

    def doubt(self, key: str) -> None:
        self.broken.add(key)

    def watch(self, key: str, ground: Sequence[Footprint], unit: str = "") -> None:
        """From now on, looking at any of `ground` (where `unit` may stand) breaks the
        promise of `key`."""
        trace = _NOW.trace
        if trace is not None:  # where the totals walked as one would have left the unit
            for footprint in ground:
                trace.stood(footprint)
        grown = _ground(ground)
        if grown is not None:
            box, corners = grown
            self._watched.append((key, unit, box, tuple(corners)))

    @property
    def watches(self) -> bool:
        """Whether any ground is watched yet (before the first audited move, none is)."""
        return bool(self._watched)

    def seen(self, looked: _Look, only: Only | None = None) -> None:
        for key, unit, box, ground in self._watched:
            if key not in self.broken and (only is None or only(unit)) and looked.meets(
                    box, ground):
                self.broken.add(key)


class Recall:
    """Moves kept across the battles of many runs of one resolution (its table, terrain
    and roster never change): under each key, by the units each move saw (their footprints,
    and whether they are on the table) and what it looked at."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, dict[tuple[str, ...], dict[tuple[object, ...],
                                                               Work]]] = {}

    def find(self, battle: Battle, key: Hashable) -> Work | None:
        variants = self._kept.get(key)
        if not variants:
            return None
        for seen, kept_by_pose in variants.items():
            kept = kept_by_pose.get(_poses(battle, seen))
            if kept is None:
                continue
            for uid in battle.states:  # a plain loop: asked thousands of times a forecast
                if uid not in seen and kept.sees(battle.footprint(uid)):
                    break
            else:
                return kept
        return None

    def keep(self, battle: Battle, key: Hashable, mover: str, kept: Work) -> None:
        # Every unit, on the table or not: one off it may still be read by name (a source).
        seen = tuple(sorted(uid for uid in battle.states
                            if uid == mover or kept.sees(battle.footprint(uid))))
        self._kept.setdefault(key, {}).setdefault(seen, {})[_poses(battle, seen)] = kept


class Trace:
    """What a forecast's walk of some of a resolution's combats did, in every run of it
    (issue 24: combats walked apart, then proven apart): the parts of the table it looked
    at and read, the ground its changed units stood on at any moment (and where a roll
    walked as one class would have left them for its other totals), and which units it
    changed. Two walks such that neither looked at ground the other's units stood on, and
    that changed different units, run side by side in the whole resolution as they ran
    alone: each reads there only what it read alone (forecast.py)."""

    def __init__(self) -> None:
        self.looks: dict[tuple[Point, ...], _Look] = {}
        self.reads: set[Box] = set()
        self.ground: set[Box] = set()  # bounding boxes, grown by MARGIN
        self.changed: set[str] = set()
        self.everything = False  # a change beyond units' states: nothing can be proven apart
        self._shapes: list[object] | None = None
        self._tree: STRtree | None = None

    def saw(self, looked: _Look) -> None:
        self.looks.setdefault(looked.points, looked)
        self._shapes = None

    def read(self, box: Box) -> None:
        self.reads.add(box)
        self._shapes = None

    def stood(self, footprint: Footprint) -> None:
        low_x, low_y, high_x, high_y = footprint.bounds
        self.ground.add((low_x - MARGIN, low_y - MARGIN, high_x + MARGIN, high_y + MARGIN))
        self._tree = None

    def moved(self, before: Battle, after: Battle) -> None:
        """An event took `before` to `after`: the units whose state changed, and where they
        stood before and after (a move is one event: nobody reads a unit half-way)."""
        if after is before:
            return
        if (after.states is before.states or after.turn != before.turn
                or after.terrain is not before.terrain or after.options is not before.options
                or after.roster is not before.roster or after.zones is not before.zones):
            self.everything = True
            return
        old_states = before.states
        for uid, state in after.states.items():
            old = old_states.get(uid)
            if old is state:
                continue
            self.changed.add(uid)
            if old is not None and old.status.on_table:
                self.stood(before.footprint(uid))
            if state.status.on_table:
                self.stood(after.footprint(uid))
        if len(old_states) != len(after.states):
            self.changed.update(set(old_states) ^ set(after.states))

    def sees(self, other: Trace) -> bool:
        """Whether anything this walk looked at or read meets ground `other`'s units stood
        on (bounding boxes, edges included, as the spatial index reads them)."""
        if self.everything or other.everything:
            return True
        if not other.ground or not (self.looks or self.reads):
            return False
        hits = other._ground_tree().query(self._seen_shapes(), predicate="intersects")
        return bool(len(hits[0]))

    # Made on the first comparison after a change (a walk's trace is compared with every
    # other group's once the walk is over).
    def _seen_shapes(self) -> list[object]:
        if self._shapes is None:
            self._shapes = [shapely.MultiPoint(looked.points).convex_hull
                            for looked in self.looks.values()]
            self._shapes += [shapely.box(*box) for box in self.reads]
        return self._shapes

    def _ground_tree(self) -> STRtree:
        if self._tree is None:
            self._tree = shapely.STRtree([shapely.box(*box) for box in self.ground])
        return self._tree


def _poses(battle: Battle, units: Sequence[str]) -> tuple[object, ...]:
    """All movement reads of these units: where they stand and whether they are in play."""
    states = battle.states
    return tuple([(battle.footprint(uid), states[uid].status.on_table) for uid in units])


class Work:
    """A value worked out, what working it out looked at and what it read."""

    __slots__ = ("box", "looks", "reads", "value")

    def __init__(self, value: object, looks: Sequence[_Look], reads: Sequence[Read]) -> None:
        self.value = value
        self.looks = tuple(looks)
        self.reads = tuple(reads)
        # The box round every look: ground clear of it meets none of them (found again in
        # many battles, a move is asked of every unit whether it sees it).
        boxes = [looked.box for looked in self.looks]
        self.box: Box | None = (
            (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
             max(b[3] for b in boxes)) if boxes else None)

    def sees(self, footprint: Footprint) -> bool:
        if self.box is None:
            return False
        grown = _grown(footprint)
        (low_x, low_y, high_x, high_y), around = self.box, grown[0]
        if low_x > around[2] or high_x < around[0] or low_y > around[3] or high_y < around[1]:
            return False
        return any(looked.meets(*grown) for looked in self.looks)

    def look_again(self) -> None:
        sight, memory, reads, trace = _NOW.sight, _NOW.memory, _NOW.reads, _NOW.trace
        if memory is not None:
            memory.extend(self.looks)
        if reads is not None:
            reads.extend(self.reads)
        if sight is not None and sight.watches:
            for looked in self.looks:
                sight.seen(looked)
            for box, only in self.reads:
                sight.seen(_Look(_corners(box)), only)
        if trace is not None:
            for looked in self.looks:
                trace.saw(looked)
            for box, _ in self.reads:
                trace.read(box)


def _grown(footprint: Footprint) -> tuple[Box, list[tuple[Point, ...]]]:
    """`_ground` of one footprint, kept with it: every remembered move found again asks it
    of every unit (a footprint never changes)."""
    found: tuple[Box, list[tuple[Point, ...]]] | None = footprint.__dict__.get(_GROWN)
    if found is None:
        found = footprint.__dict__[_GROWN] = _grown_at(footprint)
    return found


@lru_cache(maxsize=4096)  # and by value: the runs of a forecast put units in the same places
def _grown_at(footprint: Footprint) -> tuple[Box, list[tuple[Point, ...]]]:
    found = _ground((footprint,))
    assert found is not None
    return found


@contextmanager
def tracing(trace: Trace) -> Iterator[Trace]:
    """Give `trace` everything looked at, read and changed while the block runs."""
    before = _NOW.trace
    _NOW.trace = trace
    try:
        yield trace
    finally:
        _NOW.trace = before


def traced() -> Trace | None:
    """The trace being kept in this thread, if any (a recorder reports each event to it)."""
    return _NOW.trace


@contextmanager
def watching(sight: Sight | None, recall: Recall | None = None) -> Iterator[None]:
    """Report what movement looks at to `sight`, and find moves in `recall`, while the
    block runs."""
    tokens = start_watching(sight, recall)
    try:
        yield
    finally:
        stop_watching(tokens)


Tokens = tuple[Sight | None, Recall | None]  # what was watched before


def start_watching(sight: Sight | None, recall: Recall | None = None) -> Tokens:
    """`watching` without a context manager, for a session's every step (a forecast makes
    thousands): `stop_watching` with what this returns ends it."""
    before = _NOW.sight, _NOW.recall
    _NOW.sight, _NOW.recall = sight, recall
    return before


def stop_watching(tokens: Tokens) -> None:
    _NOW.sight, _NOW.recall = tokens


def remember(battle: Battle, key: Hashable, compute: Callable[[], T], *,
             mover: str = "") -> T:
    """`compute()` worked out once per battle (a battle never changes), kept with it, and
    with a `Recall` (for `mover`'s move) found again in other battles too; every use, first
    or later, looks again at what the work looked at."""
    cache: dict[Hashable, Work] = battle.__dict__.setdefault("_remembered", {})
    kept = cache.get(key)
    recall = _NOW.recall if mover else None
    if kept is None and recall is not None:
        kept = recall.find(battle, key)
        if kept is not None:
            cache[key] = kept
    if kept is not None:
        kept.look_again()
        return kept.value  # type: ignore[return-value]  # kept under this key by this call
    kept = cache[key] = work_out(compute)
    if recall is not None:
        recall.keep(battle, key, mover, kept)
    return kept.value  # type: ignore[return-value]


def work_out(compute: Callable[[], T]) -> Work:
    """`compute()`, with what working it out looked at and read, to be kept where a
    battle cannot keep it (`Work.look_again` reports them again wherever it is used)."""
    outer, outer_reads = _NOW.memory, _NOW.reads
    looks: list[_Look] = []
    reads: list[Read] = []
    _NOW.memory, _NOW.reads = looks, reads
    try:
        value = compute()
    finally:
        _NOW.memory, _NOW.reads = outer, outer_reads
    if outer is not None:
        outer.extend(looks)
    if outer_reads is not None:
        outer_reads.extend(reads)
    return Work(value, looks, reads)
