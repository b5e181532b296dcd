"""desktop.memory.bulk_reading: the collector paused for a bulk read, and given back."""

from __future__ import annotations

import gc
import threading

import pytest

from desktop.memory import bulk_reading, let_go


@pytest.fixture(autouse=True)
def collector_back_on():
    yield
    gc.enable()
    let_go()


def test_the_collector_is_paused_while_reading_and_back_after():
    assert gc.isenabled()
    with bulk_reading():
        assert not gc.isenabled()
        with bulk_reading():  # a read within a read
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_failed_read_gives_the_collector_back():
    with pytest.raises(ValueError, match="a bad file"), bulk_reading():
        raise ValueError("a bad file")
    assert gc.isenabled()


def test_a_collector_the_program_turned_off_stays_off():
    gc.disable()
    with bulk_reading():
        pass
    assert not gc.isenabled()


def test_two_threads_reading_share_one_pause():
    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with bulk_reading():
            inside.set()
            leave.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(5)
    with bulk_reading():
        pass
    assert not gc.isenabled()  # the other thread still reads
    leave.set()
    thread.join(5)
    assert gc.isenabled()


@bulk_reading()
def _read() -> bool:
    return gc.isenabled()


def test_it_serves_as_a_decorator():
    assert _read() is False
    assert gc.isenabled()


def test_what_a_read_keeps_is_left_out_of_the_collectors_passes_until_let_go():
    """What a read keeps (a catalogue's data) is frozen at its end, so that the collector's
    later passes do not walk it while holding the GIL (40-70 ms each); let_go gives it back
    when the data is dropped, and its cycles are collected then."""
    let_go()

    class Node:
        def __init__(self) -> None:
            self.me = self  # a cycle: only the collector frees it

    with bulk_reading():
        kept = [Node() for _ in range(1000)]
    assert gc.get_freeze_count() >= 1000
    del kept
    gc.collect()
    assert gc.get_freeze_count() >= 1000  # frozen: not collected even when dropped
    let_go()
    assert gc.get_freeze_count() == 0
    assert gc.collect() >= 1000  # given back: the dropped cycles are collected


def test_a_read_whose_result_does_not_live_on_freezes_nothing():
    let_go()
    with bulk_reading(keep=False):
        assert not gc.isenabled()
        with bulk_reading():  # within it: the first block has the say
            pass
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
