"""Work counted rather than timed: how many lines of Python a call runs.

A count does not depend on the machine or on what else it is doing, so a test can say that
ten times the input costs about ten times the work (linear), not a hundred (quadratic).
Work done inside C (copying a set or a dict, parsing XML) is not counted: tests of that
check a structural property instead, such as an unchanged set being the same object.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any


def lines_run(work: Callable[[], object]) -> int:
    """Lines of Python executed by `work()`, in any module."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def entered(frame: FrameType, event: str, arg: Any) -> Any:
        return local

    previous = sys.gettrace()  # a coverage tool's tracer, say: put back afterwards
    sys.settrace(entered)
    try:
        work()
    finally:
        sys.settrace(previous)
    return count


def growth(small: Callable[[], object], large: Callable[[], object]) -> float:
    """The work of `large` over the work of `small`: about 10 for a linear cost and 10x the
    input, about 100 for a quadratic one.

    `small` runs once first, uncounted, so that work done only once (compiling a regular
    expression, filling a cache) is counted in neither.
    """
    small()
    return lines_run(large) / lines_run(small)
