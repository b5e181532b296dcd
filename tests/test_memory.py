"""desktop.memory.bulk_reading: the collector paused for a bulk read, and given back."""

from __future__ import annotations

import gc
import threading

import pytest

from desktop.memory import bulk_reading


@pytest.fixture(autouse=True)
def collector_back_on():
    yield
    gc.enable()


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
