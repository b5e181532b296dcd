"""One player's program for the concurrency tests, run as a separate process:

    python tests/concurrency_worker.py reader URL ROUNDS
    python tests/concurrency_worker.py writer URL ROUNDS TAG

A reader opens the database and lists the armies, as `rout armies` does; a writer opens it
and adds an army, as `rout import` does; each round opens and closes the store, so that the
SQLite file goes through every state another program can find it in.

The last line of output is a JSON report the test reads.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

from desktop.engine.model import Army, TroopType, Unit, UnitProfile
from desktop.store.errors import CorruptDatabaseError, StoreError
from desktop.store.store import Store

STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def unit(unit_id: str) -> Unit:
    return Unit(id=unit_id, name=f"Regiment {unit_id}", player="Bench",
                profile=UnitProfile("Spearmen", STATS, troop_type=TroopType.INFANTRY,
                                    base=(0.8, 0.8)),
                models=20, files=5, points=100, slot="Core")


def army(name: str, units: int) -> Army:
    return Army(name=name, player="Bench", ruleset="warhammer6",
                units=tuple(unit(f"{name}-{index}") for index in range(units)))


PAUSE = 0.15  # seconds, at most, between two rounds


def pause() -> None:
    """Programs start and stop at odd moments: now and then nobody has the file open, and
    SQLite's WAL file is gone until the next one opens it."""
    time.sleep(random.uniform(0, PAUSE))


def reader(url: str, rounds: int) -> dict[str, Any]:
    damaged: list[str] = []
    errors: list[str] = []
    listed = 0
    for _ in range(rounds):
        pause()
        try:
            with Store.open(url) as store:
                listed += len(store.list_armies())
        except CorruptDatabaseError as error:
            damaged.append(str(error))
        except StoreError as error:
            errors.append(str(error))
    return {"rounds": rounds, "damaged": damaged, "errors": errors, "listed": listed}


def writer(url: str, rounds: int, tag: str) -> dict[str, Any]:
    errors: list[str] = []
    saved = 0
    for number in range(rounds):
        pause()
        try:
            with Store.open(url) as store:
                # Big enough that SQLite's WAL checkpoints write into the file as it goes.
                store.save_army(army(f"{tag} {number}", 300))
                saved += 1
        except StoreError as error:
            errors.append(str(error))
    return {"rounds": rounds, "saved": saved, "errors": errors}


def main(argv: list[str]) -> int:
    role, url, rounds = argv[0], argv[1], int(argv[2])
    report = reader(url, rounds) if role == "reader" else writer(url, rounds, argv[3])
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
