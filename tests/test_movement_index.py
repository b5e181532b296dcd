"""Moves worked out through the indexes (desktop/engine/movement.py `_Near`) are the moves
worked out against every obstacle on the table, and look at the same ground.

`movement.INDEXED = False` is the old way: every query gets `Battle.obstacles_for` and every
enemy. Seeded random tables of units and terrain (convex and not, impassable or not); each
mover flees, pursues and moves straight as the rulesets ask, both ways, on fresh battles.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest

from desktop.engine import movement, sight
from desktop.engine.geometry import Point, Table
from desktop.engine.model import Battle, Terrain, Unit, UnitProfile, UnitState
from desktop.engine.movement import (
    DEFLECTIONS,
    WIDE_DEFLECTIONS,
    MovePlan,
    bend_round,
    can_face,
    flee_around,
    gap_length,
    pursue_around,
    straight_move,
)

RED, BLUE = "Red", "Blue"
PROFILE = UnitProfile("Spearmen", {"M": 4, "Ld": 7}, base=(1.0, 1.0))


def _piece(rng: random.Random, number: int) -> Terrain:
    x, y = rng.uniform(0, 72), rng.uniform(0, 48)
    angle = rng.uniform(0, math.tau)
    if rng.random() < 0.3:  # an L: not convex
        outline = [(0, 0), (4, 0), (4, 1.5), (1.5, 1.5), (1.5, 4), (0, 4)]
    else:
        w, d = rng.uniform(0.5, 6), rng.uniform(0.5, 6)
        outline = [(0, 0), (w, 0), (w, d), (0, d)]
    cos, sin = math.cos(angle), math.sin(angle)
    points = tuple((x + px * cos - py * sin, y + px * sin + py * cos) for px, py in outline)
    return Terrain(f"t{number}", f"piece {number}", points, impassable=rng.random() < 0.7,
                   difficult=rng.random() < 0.2)


def layout(seed: int) -> Battle:
    """A 72" x 48" table with a crowd of units of both sides and some terrain."""
    rng = random.Random(seed)
    roster, states = {}, {}
    for number in range(rng.randint(6, 30)):
        uid = f"u{number}"
        files = rng.randint(1, 6)
        models = files * rng.randint(1, 3)
        player = rng.choice((RED, BLUE))
        roster[uid] = Unit(uid, uid, player, PROFILE, models=models, files=files)
        states[uid] = UnitState(uid, (rng.uniform(4, 68), rng.uniform(4, 44)),
                                rng.uniform(0, 360), files=files, models=models)
    terrain = tuple(_piece(rng, number) for number in range(rng.randint(0, 25)))
    return Battle("warhammer6", Table(72, 48), roster, states, terrain)


Move = Callable[[Battle], Any]


def moves(battle: Battle, rng: random.Random) -> Iterator[tuple[str, Move]]:
    """Moves the rulesets make, for a few movers of the battle."""
    ids = list(battle.states)
    for mover in rng.sample(ids, min(4, len(ids))):
        heading = rng.uniform(0, 360)
        length = rng.choice((2.0, 5.5, 9.0, 14.0))
        enemies = battle.enemies_of(mover)
        source = enemies[0] if enemies else ""
        ignore = frozenset(rng.sample(ids, 1)) - {mover}
        keep_away = rng.choice((0.0, 4.0))
        wide = WIDE_DEFLECTIONS if rng.random() < 0.5 else DEFLECTIONS
        yield f"flee {mover}", lambda b, m=mover, h=heading, n=length, k=keep_away, d=wide: (
            flee_around(b, m, h, n, keep_away=k, deflections=d))
        if source:
            yield f"flee gap {mover}", lambda b, m=mover, h=heading, n=length, s=source, \
                k=keep_away, i=ignore: flee_around(b, m, h, gap_length(b, m, s, n),
                                                   keep_away=k, ignore=i - {s})
            yield f"pursue {mover}", lambda b, m=mover, h=heading, n=length, s=source: (
                pursue_around(b, m, h, n, halt_before=frozenset({s})))
        yield f"pursue free {mover}", lambda b, m=mover, h=heading, n=length: (
            pursue_around(b, m, h, n))
        for through in (False, True):
            yield f"straight {through} {mover}", lambda b, m=mover, h=heading, n=length, \
                t=through, i=ignore: straight_move(b, m, h, n, through_friends=t, ignore=i,
                                                   stay_on_table=n > 10)
        yield f"bend {mover}", lambda b, m=mover, h=heading, n=length, k=keep_away: (
            bend_round(b, m, h, n, keep_away=k))
        yield f"face {mover}", lambda b, m=mover, h=heading: can_face(b, m, h)


@contextmanager
def recording_looks() -> Iterator[list[tuple[str, Sequence[Point], float]]]:
    """Every `sight.look` and `sight.look_around` movement makes, in order."""
    looked: list[tuple[str, Sequence[Point], float]] = []
    look = sight.look

    def record_look(points: Sequence[Point]) -> None:
        looked.append(("look", tuple(points), 0.0))
        look(points)

    def record_around(points: Sequence[Point], reach: float) -> None:
        looked.append(("around", tuple(points), reach))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sight, "look", record_look)
        patch.setattr(sight, "look_around", record_around)
        yield looked


def worked_out(seed: int, indexed: bool) -> list[tuple[str, object, object, object]]:
    """Every move of the layout's movers, what each looked at, on a fresh battle."""
    battle = layout(seed)
    found = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(movement, "INDEXED", indexed)
        for name, move in moves(battle, random.Random(seed)):
            with recording_looks() as looked:
                result = move(battle)
            moving = result.moving if isinstance(result, MovePlan) else None
            found.append((name, result, moving, looked))
    return found


@pytest.mark.parametrize("seed", range(60))
def test_indexed_moves_are_the_moves_against_every_obstacle(seed: int) -> None:
    indexed, every = worked_out(seed, True), worked_out(seed, False)
    assert len(indexed) == len(every)
    for (name, result, moving, looked), (_, old_result, old_moving, old_looked) in zip(
            indexed, every, strict=True):
        assert result == old_result, name
        assert moving == old_moving, name
        assert looked == old_looked, name


def test_the_terrain_index_is_handed_on_to_later_battles() -> None:
    battle = layout(3)
    assert battle.terrain
    index = movement.terrain_index(battle)
    uid = next(iter(battle.states))
    later = battle.update(uid, center=(36.0, 24.0))
    assert movement.terrain_index(later) is index
