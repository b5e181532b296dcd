"""A long battle for benchmarks: 10,000 checked player moves, saved in a store.

    python tests/bench/battle_fixture.py [--database URL]

`build_long_battle(store)` sets up two armies, deploys both (two steps), then moves four
units forward and back 1" in turn, one event per step, every move built by `moves.move_to`
on the battle as it then stands (so each is accepted by `moves.check`). `main` prints how
long loading that battle from the store and folding its events take (the GUI benchmark
reopens a battle the same way).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from desktop.engine import moves
from desktop.engine.events import Event, fold
from desktop.engine.model import Army, Unit, UnitProfile
from desktop.engine.setup import deploy_army, new_battle
from desktop.store.store import Store

EVENTS = 10_000
MOVERS = 4
STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def _army(name: str, player: str, units: int) -> Army:
    profile = UnitProfile("Spearman", STATS, base=(1.0, 1.0))
    return Army(name, player, "warhammer6", tuple(
        Unit(f"{player.lower()}{i}", f"{name} {i}", player, profile, 20, 5)
        for i in range(units)))


def build_long_battle(store: Store, events: int = EVENTS) -> str:
    """A battle holding exactly `events` events; returns its id."""
    title, battle = new_battle("warhammer6", [_army("Orcs", "Alice", 8),
                                              _army("Elves", "Bob", 8)], title="Long battle")
    start = battle
    steps: list[list[Event]] = []
    for player in ("Alice", "Bob"):
        placed = deploy_army(battle, player)
        battle = fold(battle, placed)
        steps.append(list(placed))
    count = sum(len(step) for step in steps)
    movers = [uid for uid in battle.roster if battle.player_of(uid) == "Alice"][:MOVERS]
    home = {uid: battle.states[uid].center for uid in movers}
    turn = 0
    while count < events:
        uid = movers[turn % len(movers)]
        x, y = home[uid]
        # Alice's units face up the table: out 1" towards the enemy, then back home.
        forward = (turn // len(movers)) % 2 == 0
        event = moves.move_to(battle, uid, (x, y + 1.0) if forward else (x, y))
        battle = event.apply_to(battle)
        steps.append([event])
        count += 1
        turn += 1
    return store.import_battle(start, title, steps)


def time_reload(store: Store, battle_id: str) -> tuple[float, float, int]:
    """(seconds to load, seconds to fold, events) for the saved battle."""
    began = time.perf_counter()
    saved = store.load_battle(battle_id)
    loaded = time.perf_counter()
    fold(saved.start, saved.events)
    folded = time.perf_counter()
    return loaded - began, folded - loaded, len(saved.events)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="SQLAlchemy URL (default: a scratch SQLite file)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        with Store.open(url) as store:
            began = time.perf_counter()
            battle_id = build_long_battle(store)
            built = time.perf_counter() - began
            load, folding, count = time_reload(store, battle_id)
    print(f"built and saved {count} events in {built:.2f} s")
    print(f"store load: {load * 1000:.0f} ms, fold: {folding * 1000:.0f} ms, "
          f"together: {(load + folding) * 1000:.0f} ms ({count} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
