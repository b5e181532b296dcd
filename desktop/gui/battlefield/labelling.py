"""Where the units' labels stand: each as near its unit as it can, clear of every other unit
and label, so that a label never hides a unit or takes its clicks.

A label stands in its unit's middle when it fits within the unit. Else, or if it would
cover another unit or a label already placed, it takes the nearest clear place around the
unit: rows above and below it (slid along by LABEL_SHIFTS of its width), or beside it. A
label off its unit gets a leader line to it, and that line too must cross no other unit or
label. Where no place is clear (a crowded corner, a table zoomed out past its fit) a label
still stands, at the place it covers least of the other labels and units (`least_covered`):
every unit is named, and a click on a footprint still finds that footprint's unit
(BattlefieldScene.unit_at asks footprints first). A label off its unit never stands nearer
another unit than its own while any other place is clear: it would be read as that unit's.
No label stands past `bounds` (the table) while a place within them exists.
A label that stood somewhere stays there while that place is still clear (`keep`), so
labels do not jump about as the selection changes. Rectangles are scene units (x0, y0,
x1, y1), y growing up the table as the view shows it; the places around a unit are tested
at once on numpy arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from desktop.engine.lazy import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1

# A label that does not fit on its unit goes in one of LABEL_ROWS rows above or below it,
# LABEL_GAP_PX pixels apart, slid along by LABEL_SHIFTS of its width, or beside it.
LABEL_ROWS: Final = 4
LABEL_GAP_PX: Final = 3.0
LABEL_SHIFTS: Final = (0.0, -0.2, 0.2, -0.4, 0.4, -0.6, 0.6, -0.8, 0.8)
# How much a label's slide along its row counts against a place, beside its distance.
SLIDE_WEIGHT: Final = 0.5
# The grid a label on its unit is checked in: cells this many pixels wide.
CELL_PX: Final = 120.0
# A leader line that is not there: a box no other box overlaps.
_NOWHERE: Final = (float("inf"), float("inf"), float("-inf"), float("-inf"))
# With no clear place, covering a label counts this many times covering as much of a unit:
# a label under a label cannot be read, a unit under a label still takes its own clicks.
LABEL_COVER_WEIGHT: Final = 4.0


@dataclass(frozen=True)
class Placement:
    """Where a label stands: `centre` (scene units), its leader line's end in pixels about
    the label (y down; None on the unit), and the rectangles it took (`box`, `line`)."""

    centre: tuple[float, float]
    end: tuple[float, float] | None
    box: Rect
    line: Rect | None


def _covered(boxes: NDArray[np.float64], others: NDArray[np.float64]) -> NDArray[np.float64]:
    """For each box, the area of it that `others` cover (summed over them)."""
    if not len(others):
        return np.zeros(len(boxes))
    a, b = boxes[:, None, :], others[None, :, :]
    wide = np.clip(np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]), 0, None)
    high = np.clip(np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]), 0, None)
    return np.asarray((wide * high).sum(axis=1))


def _distance(points: NDArray[np.float64], rects: NDArray[np.float64]) -> NDArray[np.float64]:
    """For each point, its distance to each rectangle (0 inside): points x rects."""
    px, py = points[:, 0][:, None], points[:, 1][:, None]
    dx = np.maximum(np.maximum(rects[None, :, 0] - px, px - rects[None, :, 2]), 0.0)
    dy = np.maximum(np.maximum(rects[None, :, 1] - py, py - rects[None, :, 3]), 0.0)
    return np.asarray(np.hypot(dx, dy))


def _someone_elses(places: NDArray[np.float64], own: Rect,
                   others: NDArray[np.float64]) -> NDArray[np.bool_]:
    """For each label centre, whether another unit is nearer it than its own: a label
    there would be read as that unit's (Elf Archers' name under the Oathsworn Guard)."""
    if not len(others):
        return np.zeros(len(places), dtype=bool)
    mine = _distance(places, np.array([own], dtype=float))[:, 0]
    return np.asarray((_distance(places, others) < mine[:, None]).any(axis=1))


def _overlapping(boxes: NDArray[np.float64], others: NDArray[np.float64]) -> NDArray[np.bool_]:
    """For each box, whether it shares area with any of `others` (touching is not)."""
    if not len(others):
        return np.zeros(len(boxes), dtype=bool)
    a, b = boxes[:, None, :], others[None, :, :]
    hits = ((a[..., 0] < b[..., 2]) & (a[..., 2] > b[..., 0])
            & (a[..., 1] < b[..., 3]) & (a[..., 3] > b[..., 1]))
    return np.asarray(hits.any(axis=1))


class LabelRoom:
    """The units' bounding boxes and the labels placed so far, for one zoom.

    A label on its unit is checked in a grid of cells (one look, thousands of units); the
    places around a unit, when it has no room, all at once on arrays.
    """

    def __init__(self, bodies: Sequence[Rect], fixed: Sequence[Rect], pixels: float,
                 bounds: Rect | None = None) -> None:
        self.pixels = pixels
        self.bodies = list(bodies)
        # Where labels may stand (the table): one past its edge is cut off by the view's
        # edge at the fitted zoom (a try read "Elf Arc…" under the table).
        self.bounds = bounds
        self.taken: list[Rect] = []  # labels' boxes and leader lines
        self.cell = CELL_PX / pixels
        self._cells: dict[tuple[int, int], list[tuple[Rect, int]]] = {}
        for index, body in enumerate(bodies):
            self._file(body, index)
        for rect in fixed:
            self._take(rect)

    def _keys(self, rect: Rect) -> list[tuple[int, int]]:
        cell = self.cell
        left, right = int(rect[0] // cell), int(rect[2] // cell)
        bottom, top = int(rect[1] // cell), int(rect[3] // cell)
        if left == right and bottom == top:
            return [(left, bottom)]
        return [(column, row) for column in range(left, right + 1)
                for row in range(bottom, top + 1)]

    def _file(self, rect: Rect, owner: int) -> None:
        for key in self._keys(rect):
            self._cells.setdefault(key, []).append((rect, owner))

    def _take(self, rect: Rect) -> None:
        """A label's box or leader line: nothing may overlap it from now on."""
        self.taken.append(rect)
        self._file(rect, -1)

    def _clear(self, rect: Rect, index: int) -> bool:
        """Whether `rect` overlaps no unit but the `index`th, and no label."""
        for key in self._keys(rect):
            for other, owner in self._cells.get(key, ()):
                if owner != index and other[0] < rect[2] and other[2] > rect[0] \
                        and other[1] < rect[3] and other[3] > rect[1]:
                    return False
        return True

    def place(self, index: int, width: float, height: float, *,
              around: bool = True) -> Placement | None:
        """Where the label (`width` x `height`) of the unit whose box is `bodies[index]`
        stands, and where its leader line ends; None if nowhere is clear. Only its unit's
        middle unless `around`; with `around`, on the unit only if it fits within it (it
        would hide a small unit)."""
        x0, y0, x1, y1 = self.bodies[index]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
        fits = width <= x1 - x0 and height <= y1 - y0
        if (fits or not around) and self._clear(box, index):
            self._take(box)
            return Placement((cx, cy), None, box, None)
        if not around:
            return None
        places = _around((x0, y0, x1, y1), width, height, LABEL_GAP_PX / self.pixels)
        return self._first_clear(index, places, width, height)

    def _outside(self, boxes: NDArray[np.float64]) -> NDArray[np.bool_]:
        """For each box, whether it reaches past `bounds`."""
        if self.bounds is None:
            return np.zeros(len(boxes), dtype=bool)
        x0, y0, x1, y1 = self.bounds
        return np.asarray((boxes[:, 0] < x0) | (boxes[:, 1] < y0) | (boxes[:, 2] > x1)
                          | (boxes[:, 3] > y1))

    def keep(self, index: int, placement: Placement) -> bool:
        """Take `placement` again if its box and leader line are still clear (of the units
        but the `index`th and the labels placed) and within bounds: a label stays where it
        stood while nothing makes it move."""
        rects = [placement.box] if placement.line is None else [placement.box, placement.line]
        if not all(self._clear(rect, index) for rect in rects):
            return False
        if self._outside(np.array([placement.box], dtype=float))[0]:
            return False
        others = np.array(self.bodies[:index] + self.bodies[index + 1:],
                          dtype=float).reshape(-1, 4)
        if placement.line is not None and _someone_elses(
                np.array([placement.centre], dtype=float), self.bodies[index], others)[0]:
            return False
        for rect in rects:
            self._take(rect)
        return True

    def claim(self, rect: Rect) -> bool:
        """Take `rect` (a label no unit owns) if it overlaps no unit and no label."""
        if not self._clear(rect, -2):
            return False
        self._take(rect)
        return True

    def least_covered(self, index: int, width: float, height: float) -> Placement:
        """With no clear place: the one on the unit's middle or around it whose label box
        covers least of the labels placed (LABEL_COVER_WEIGHT times) and of other units,
        nearest the unit among equals; taken, so later labels keep off it."""
        x0, y0, x1, y1 = self.bodies[index]
        places = np.concatenate([
            np.array([[(x0 + x1) / 2, (y0 + y1) / 2]]),
            _around((x0, y0, x1, y1), width, height, LABEL_GAP_PX / self.pixels)])
        boxes, ends, on_unit, lines = self._candidates(index, places, width, height)
        others = np.array(self.bodies[:index] + self.bodies[index + 1:],
                          dtype=float).reshape(-1, 4)
        taken = np.array(self.taken, dtype=float).reshape(-1, 4)
        over_labels = _covered(boxes, taken)
        cost = LABEL_COVER_WEIGHT * over_labels + _covered(boxes, others)
        # On the table, then over no label if it can be (a label under a label cannot be
        # read), then nearer its own unit than any other (else it is read as that one's),
        # then covering least.
        order = np.lexsort((cost, _someone_elses(places, self.bodies[index], others),
                            over_labels > 0, self._outside(boxes)))
        return self._taken_at(int(order[0]), places, boxes, ends, on_unit, lines)

    def _candidates(self, index: int, places: NDArray[np.float64], width: float,
                    height: float) -> tuple[NDArray[np.float64], NDArray[np.float64],
                                            NDArray[np.bool_], NDArray[np.float64]]:
        """For label centres `places`: the label boxes, the leader lines' ends on the unit,
        whether each stands on the unit (no leader), and the leader lines' boxes."""
        x0, y0, x1, y1 = self.bodies[index]
        boxes = np.column_stack([places[:, 0] - width / 2, places[:, 1] - height / 2,
                                 places[:, 0] + width / 2, places[:, 1] + height / 2])
        # The leader: from the nearest point of the unit's box to the label's box.
        ends = np.column_stack([np.clip(places[:, 0], x0, x1), np.clip(places[:, 1], y0, y1)])
        on_unit = (ends == places).all(axis=1)
        starts = np.column_stack([np.clip(ends[:, 0], boxes[:, 0], boxes[:, 2]),
                                  np.clip(ends[:, 1], boxes[:, 1], boxes[:, 3])])
        half = 0.5 / self.pixels
        lines = np.column_stack([np.minimum(starts, ends) - half, np.maximum(starts, ends) + half])
        lines[on_unit] = _NOWHERE
        return boxes, ends, on_unit, lines

    def _taken_at(self, chosen: int, places: NDArray[np.float64], boxes: NDArray[np.float64],
                  ends: NDArray[np.float64], on_unit: NDArray[np.bool_],
                  lines: NDArray[np.float64]) -> Placement:
        box = _rect(boxes[chosen])
        self._take(box)
        px, py = float(places[chosen, 0]), float(places[chosen, 1])
        if on_unit[chosen]:
            return Placement((px, py), None, box, None)
        line = _rect(lines[chosen])
        self._take(line)
        ex, ey = ends[chosen]
        return Placement((px, py), (float((ex - px) * self.pixels),
                                    float((py - ey) * self.pixels)), box, line)

    def _first_clear(self, index: int, places: NDArray[np.float64], width: float,
                     height: float) -> Placement | None:
        """The first of `places` (label centres) where the label and its leader line are
        clear, taken; or None."""
        boxes, ends, on_unit, lines = self._candidates(index, places, width, height)
        # Only what stands near these places can block them.
        drawn = lines[~on_unit]
        reach: Rect = (float(min(boxes[:, 0].min(), drawn[:, 0].min(initial=np.inf))),
                       float(min(boxes[:, 1].min(), drawn[:, 1].min(initial=np.inf))),
                       float(max(boxes[:, 2].max(), drawn[:, 2].max(initial=-np.inf))),
                       float(max(boxes[:, 3].max(), drawn[:, 3].max(initial=-np.inf))))
        others = _near(self.bodies[:index] + self.bodies[index + 1:], reach)
        taken = _near(self.taken, reach)
        blocked = (_overlapping(boxes, others) | _overlapping(boxes, taken)
                   | _overlapping(lines, others) | _overlapping(lines, taken)
                   | _someone_elses(places, self.bodies[index], others)
                   | self._outside(boxes))
        free = np.flatnonzero(~blocked)
        if not len(free):
            return None
        return self._taken_at(int(free[0]), places, boxes, ends, on_unit, lines)


def _rect(row: NDArray[np.float64]) -> Rect:
    return (float(row[0]), float(row[1]), float(row[2]), float(row[3]))


def _near(rects: Sequence[Rect], reach: Rect) -> NDArray[np.float64]:
    """The rectangles that reach into `reach` at all, as an array."""
    found = [rect for rect in rects if rect[0] < reach[2] and rect[2] > reach[0]
             and rect[1] < reach[3] and rect[3] > reach[1]]
    return np.array(found, dtype=float).reshape(-1, 4)


def _around(body: Rect, width: float, height: float, gap: float) -> NDArray[np.float64]:
    """The places about a unit's box for a label off it (centres, one a row), nearest the
    unit first."""
    x0, y0, x1, y1 = body
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    rows = np.arange(LABEL_ROWS) * (height + gap)
    above, below = y1 + gap + height / 2 + rows, y0 - gap - height / 2 - rows
    xs = cx + np.array(LABEL_SHIFTS) * width
    in_rows = np.stack(np.broadcast_arrays(xs[None, None, :],
                                           np.stack([above, below], axis=1)[:, :, None]),
                       axis=-1).reshape(-1, 2)
    side_ys = cy + np.array([0.0, 1.0, -1.0]) * (height + gap)
    beside = np.array([(x, y) for x in (x1 + gap + width / 2, x0 - gap - width / 2)
                       for y in side_ys])
    places = np.concatenate([in_rows, beside])
    dx = np.maximum(np.abs(places[:, 0] - cx) - (width + x1 - x0) / 2, 0.0)
    dy = np.maximum(np.abs(places[:, 1] - cy) - (height + y1 - y0) / 2, 0.0)
    # A label slid along its row drifts towards the neighbours: half its slide counts too,
    # so a row further out, square on its unit, comes before a long slide.
    slide = SLIDE_WEIGHT * np.abs(places[:, 0] - cx)
    return np.asarray(places[np.argsort(np.hypot(dx, dy) + slide, kind="stable")])
