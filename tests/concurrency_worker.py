"""One player's program for the concurrency tests, run as a separate process:

    python tests/concurrency_worker.py reader URL ROUNDS
    python tests/concurrency_worker.py writer URL ROUNDS TAG
    python tests/concurrency_worker.py editor URL ROUNDS TAG ARMY_ID

A reader opens the database and lists the armies, as `rout armies` does; a writer opens it
and adds an army, as `rout import` does; each round opens and closes the store, so that the
SQLite file goes through every state another program can find it in. An editor adds one
unit a round to one army, as a window does (read, change, save the whole army); when the
save is refused because someone else changed the army, it reads the army again and redoes
the edit, as the player would.

The last line of output is a JSON report the test reads.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import replace
from typing import Any

from desktop.engine.model import Army, TroopType, Unit, UnitProfile
from desktop.store.errors import ConflictError, CorruptDatabaseError, StoreError
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


def editor(url: str, rounds: int, tag: str, army_id: str) -> dict[str, Any]:
    """Every unit this editor's saves kept, and how often a save was refused."""
    saved: list[str] = []
    refused: list[str] = []
    errors: list[str] = []
    with Store.open(url) as store:
        for number in range(rounds):
            unit_id = f"{tag}-{number}"
            for _ in range(200):  # redo the edit until it lands
                try:
                    before = store.load_army(army_id)
                    time.sleep(random.uniform(0, 0.004))  # the player's edit takes a moment
                    store.save_army(replace(before, units=(*before.units, unit(unit_id))))
                    saved.append(unit_id)
                    break
                except ConflictError as error:
                    refused.append(str(error))
                except StoreError as error:
                    errors.append(str(error))
                    break
    return {"rounds": rounds, "saved": saved, "refused": refused, "errors": errors}


def main(argv: list[str]) -> int:
    role, url, rounds = argv[0], argv[1], int(argv[2])
    if role == "reader":
        report = reader(url, rounds)
    elif role == "writer":
        report = writer(url, rounds, argv[3])
    else:
        report = editor(url, rounds, argv[3], argv[4])
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
