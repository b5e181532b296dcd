"""The combats a selection of units stands in, as the "resolve" mapping a scenario holds.

No rule is decided here: which units fight whom is read from the battle's `engaged_with`,
who charged this turn, who fights a flank or a rear and who carries the battle standard from
the engine's `side_facts`; the engine's `parse` checks the mapping when the wizard starts.
Every tick stays the players' to change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from desktop.engine.combat import side_facts
from desktop.engine.model import Battle


def combats_from_selection(battle: Battle, unit_ids: Iterable[str]) -> dict[str, Any]:
    """`{"combats": [...]}`: one combat per connected group of engaged units that holds a
    selected unit, one side per player, units in roster order."""
    order = {uid: index for index, uid in enumerate(battle.roster)}
    seen: set[str] = set()
    combats: list[dict[str, Any]] = []
    for start in unit_ids:
        if start in seen or start not in battle.states:
            continue
        group: list[str] = []
        stack = [start]
        seen.add(start)
        while stack:  # walk engaged_with: everyone touching anyone in the group fights
            uid = stack.pop()
            group.append(uid)
            for other in battle.states[uid].engaged_with:
                if other not in seen and other in battle.states:
                    seen.add(other)
                    stack.append(other)
        players: dict[str, list[str]] = {}
        for uid in sorted(group, key=order.__getitem__):
            players.setdefault(battle.player_of(uid), []).append(uid)
        if len(players) < 2:
            continue  # a unit engaged with nobody is in no combat
        names = [battle.roster[uids[0]].name for uids in players.values()]
        sides = []
        for player, uids in players.items():
            enemies = [uid for other, them in players.items() if other != player
                       for uid in them]
            facts = side_facts(battle, uids, enemies)
            sides.append({"units": [{"unit": uid, "wounds_caused": 0, "casualties": 0,
                                     "charged": uid in facts.charged} for uid in uids],
                          "flank": bool(facts.flank), "rear": bool(facts.rear),
                          "high_ground": False,
                          "battle_standard": bool(facts.battle_standard), "other": 0})
        combats.append({"id": " vs ".join(names), "sides": sides})
    return {"combats": combats}
