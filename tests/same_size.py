"""Resolutions of the size issue 24 asks to forecast exactly within a second, made up from a
seed: one to four combats 12-20" apart and up to eight units under Warhammer and Breaks or
Pursues (foot rolling 2D6 to flee or pursue, cavalry winners 3D6), a Kensei combat with
friends behind the loser and enemies beside (2d10 runs and chases); a friend often stands
behind a loser, so flights go round or through friends. Friends' ids start with "friend"."""

from __future__ import annotations

import random
from typing import Any

from builders import scenario, side, w6_unit

PLAYERS = ("Greenskins", "Empire")
MOST_UNITS = 8
SEEDS = range(10)  # the made-up resolutions of each ruleset that the bench forecasts


def made_up(ruleset: str, seed: int, *, combats: int = 0,
            spacing: tuple[float, float] = (12.0, 20.0)) -> dict[str, Any]:
    """A scenario for `ruleset` ("warhammer6", "breaks_pursues" or "kensei1"); Warhammer's
    and Breaks or Pursues' with `combats` combats (else one to four) `spacing` apart."""
    rng = random.Random(f"{ruleset}:{seed}")
    if ruleset == "kensei1":
        return _kensei(rng)
    units: list[dict[str, Any]] = []
    fights: list[dict[str, Any]] = []
    count = rng.randint(1, 4)
    count = combats or count
    x = rng.uniform(8.0, 14.0)
    for index in range(count):
        room = MOST_UNITS - len(units) - 2 * (count - index - 1)
        fought, more = _w6_combat(rng, index, x, room)
        units.extend(more)
        fights.append(fought)
        x += rng.uniform(*spacing)
    table = (max(72.0, x + 8.0), 48.0)
    if ruleset == "breaks_pursues":
        for unit in units:
            unit["profile"] = {"M": unit["profile"]["M"], "Ld": unit["profile"]["Ld"]}
        return scenario(units, {"procedure": "breaks_pursues", "combats": fights},
                        ruleset=ruleset, table=table)
    return scenario(units, {"procedure": "combat_aftermath", "combats": fights},
                    table=table)


def _w6_combat(rng: random.Random, index: int, x: float, room: int
               ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A winner in front of a loser (facing the table's back edge), a friend of the loser
    behind it when there is room, and sometimes a second winner on the loser's flank."""
    winner_side, loser_side = rng.sample(PLAYERS, 2)
    loser_files, loser_ranks = rng.randint(4, 6), rng.randint(2, 4)
    loser = w6_unit(f"loser{index}", loser_side, x, 24.0, facing=270.0, files=loser_files,
                    models=loser_files * loser_ranks, M=rng.randint(3, 5),
                    Ld=rng.randint(5, 9))
    cavalry = rng.random() < 0.4
    winner_files = rng.randint(4, 5)
    winner = w6_unit(f"winner{index}", winner_side, x + rng.uniform(-1.0, 1.0),
                     24.0 - (loser_ranks + 2.0) / 2, facing=90.0, files=winner_files,
                     models=winner_files * (1 if cavalry else 2), M=8 if cavalry else 4,
                     Ld=rng.randint(6, 9),
                     **({"troop_type": "cavalry", "base": (1.0, 2.0)} if cavalry else {}))
    units = [loser, winner]  # the winner is 2" deep: two ranks of foot, one of cavalry
    if len(units) < room and rng.random() < 0.7:
        friend_files = rng.randint(3, 6)
        units.append(w6_unit(f"friend{index}", loser_side, x + rng.uniform(-2.0, 2.0),
                             24.0 + loser_ranks / 2 + rng.uniform(0.5, 3.0) + 1.0,
                             facing=270.0, files=friend_files, models=friend_files * 2,
                             M=rng.randint(3, 5), Ld=rng.randint(5, 9)))
    flank = len(units) < room and rng.random() < 0.3
    if flank:
        units.append(w6_unit(f"flanker{index}", winner_side,
                             x + loser_files / 2 + 1.0, 24.0, facing=180.0, files=2,
                             models=4, M=4, Ld=rng.randint(6, 9)))
    wounds = rng.randint(3, 7)
    winners = [{"unit": winner["id"], "wounds_caused": wounds, "charged": rng.random() < 0.5}]
    if flank:
        winners.append({"unit": f"flanker{index}", "wounds_caused": 1})
    fought = {"id": f"combat {index + 1}", "sides": [
        side(*winners, flank=flank),
        side({"unit": loser["id"], "wounds_caused": rng.randint(0, 2),
              "casualties": rng.randint(0, wounds)}),
    ]}
    return fought, units


def _kensei(rng: random.Random) -> dict[str, Any]:
    """A unit beaten in combat (K-CB) with friends behind it to run through and enemies
    beside, in centimetres on a 120 cm table."""
    def unit(uid: str, player: str, x: float, y: float, facing: float, files: int,
             ranks: int, **fields: Any) -> dict[str, Any]:
        return {"id": uid, "name": uid.replace("_", " ").title(), "player": player,
                "profile": {"Mv": rng.choice((8, 10, 12)), "Init": rng.randint(3, 5),
                            "Honor": rng.randint(3, 7), "W": 1, "AP": 2},
                "base_mm": [25, 25], "models": files * ranks, "files": files,
                "position": [x, y], "facing": facing, **fields}

    loser_side, winner_side = rng.sample(PLAYERS, 2)
    ranks = rng.randint(1, 3)
    units = [
        unit("loser", loser_side, 60.0, 60.0, 270.0, 5, ranks, engaged_with=["winner"]),
        unit("winner", winner_side, 60.0 + rng.uniform(-3.0, 3.0), 60.0 - 2.5 * (ranks + 2) / 2,
             90.0, 4, 2, engaged_with=["loser"]),
    ]
    for index in range(rng.randint(1, MOST_UNITS - 2)):
        behind = index % 2 == 0
        x = 60.0 + (rng.uniform(-6.0, 6.0) if behind else (-1) ** index * 25.0)
        y = 60.0 + 2.5 * ranks / 2 + rng.uniform(2.0, 8.0) + 2.5 + 12.0 * (index // 2)
        units.append(unit(f"friend{index}" if behind else f"enemy{index}",
                          loser_side if behind else winner_side, x, y, 270.0,
                          rng.randint(3, 6), 2))
    value = rng.randint(0, 2)  # a difference above the Confrontation Value calls a test
    return scenario(units, {"procedure": "combat", "unit": "loser",
                            "damage_difference": value + rng.randint(1, 3),
                            "confrontation_value": value},
                    ruleset="kensei1", table=(120, 120))
