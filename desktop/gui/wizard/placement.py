"""Where the resolution wizard opens: beside the table's centre, not over it.

The wizard draws its preview on the table (the units it moves, as ghosts); centred on the
main window it would hide exactly that. It goes to one side of the window instead, as wide
as it may be without reaching the table's centre, on the side away from the units the
resolution is about, and always within the screen (1280x800 and 1366x768 included).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QPoint, QRect, QSize

# What a window manager's frame may add to a dialog (width, height): before the first show
# Qt does not know it yet.
FRAME_ALLOWANCE: Final = QSize(8, 40)
CENTRE_CLEARANCE: Final = 40  # pixels kept clear on the wizard's side of the table's centre
TIE: Final = 0.05  # of the table's width: units this near its centre favour no side


def beside_the_table(*, window: QRect, table: QRect, units: Sequence[QPoint], screen: QRect,
                     wanted: QSize, least: QSize,
                     frame: QSize = FRAME_ALLOWANCE) -> QRect:
    """The wizard's place: the top left of its frame (what `move` takes) and the size of
    its contents (what `resize` takes). All rectangles are global (screen) pixels: the main
    window's frame, the battlefield's viewport, the screen's available area; `units` are the
    units the resolution is about, `wanted` the size the wizard would like and `least` the
    smallest it reads well at.

    On a tie it goes left, over the Armies and Battles docks, which a resolution does not
    use; the Unit dock on the right shows the unit a choice is about."""
    centre = table.center().x()
    if units:
        middle = sum(point.x() for point in units) / len(units)
        left = middle >= centre - TIE * table.width()
    else:
        left = True
    inner_left = max(window.left(), screen.left())
    inner_right = min(window.right(), screen.right()) + 1  # one past the last pixel
    if left:
        room = centre - CENTRE_CLEARANCE - inner_left
    else:
        room = inner_right - (centre + CENTRE_CLEARANCE)
    width = max(least.width(), min(wanted.width(), room - frame.width()))
    width = min(width, screen.width() - frame.width())
    height = min(max(wanted.height(), least.height()), screen.height() - frame.height())
    x = inner_left if left else inner_right - (width + frame.width())
    x = min(max(x, screen.left()), screen.right() + 1 - (width + frame.width()))
    y = min(max(window.top(), screen.top()), screen.bottom() + 1 - (height + frame.height()))
    return QRect(QPoint(x, y), QSize(width, height))
