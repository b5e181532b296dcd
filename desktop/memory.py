"""Python's cyclic garbage collector and bulk reading.

Reading game data makes hundreds of thousands of objects that stay alive until the read
is done. Each of the collector's full passes meanwhile walks all of them while holding the
GIL: adding the shared data took six such passes of up to 130 ms each, and a worker doing
it froze the window's thread for as long (issue 23: no frame over 100 ms). What is read
holds no reference cycles (trees of values), so nothing is lost by not collecting while it
is read: `bulk_reading` pauses the collector for the length of the work, in whichever
thread, and restores it when the last such work ends.

What a read keeps (a catalogue's data, while its army is open: some 100,000 objects) would
then be walked by the collector's next pass of each generation, 40–70 ms each, whichever
thread set it off. The read's end freezes what is alive (gc.freeze), so that later passes
leave it out; `let_go` gives it back when that data is dropped, so that what of it is
cyclic (about a quarter of a catalogue's data) is collected, not kept for good.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_readers = 0
_was_enabled = True
_keep = True


@contextmanager
def bulk_reading(keep: bool = True) -> Iterator[None]:
    """The collector paused while the block runs (nested and concurrent blocks share one
    pause); its automatic passes resume after the last block. With `keep` (the first
    block's say), what is alive then is frozen out of the collector's passes: a read whose
    result lives on (a window's game data) says so; one read alone (a data file parsed)
    does not."""
    global _readers, _was_enabled, _keep
    with _lock:
        if _readers == 0:
            _was_enabled = gc.isenabled()
            _keep = keep
            gc.disable()
        _readers += 1
    try:
        yield
    finally:
        with _lock:
            _readers -= 1
            if _readers == 0:
                if _keep:
                    gc.freeze()  # what the read keeps: out of the collector's passes
                if _was_enabled:
                    gc.enable()


def let_go() -> None:
    """What bulk reads kept goes back to the collector: the data kept is dropped now
    (another database, newer game data), and what of it is cyclic is collected again."""
    gc.unfreeze()
