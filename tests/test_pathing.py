"""The bent-path search (W6-FL-4's way round): A* over the visibility graph gives a path as
short as Dijkstra over every edge of that graph, and a legal one, on random rock fields."""

from __future__ import annotations

import heapq
import itertools
import math

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine import pathing
from desktop.engine.geometry import Footprint, Point, Table, swept_outline
from desktop.engine.model import Battle, Terrain, Unit, UnitProfile, UnitState
from desktop.engine.movement import flee_around
from desktop.engine.pathing import MARGIN, grown, shortest_path, visibility_graph

REGION = (0.0, 0.0, 40.0, 30.0)


def every_edge_dijkstra(nodes, tree) -> float:
    """The reference: every pair of corners tested, then plain Dijkstra."""
    edges: dict[int, list[tuple[int, float]]] = {i: [] for i in range(len(nodes))}
    for a in range(len(nodes)):
        for b in range(a + 1, len(nodes)):
            leg = shapely.LineString([nodes[a], nodes[b]])
            if tree is None or not len(tree.query(leg, predicate="intersects")):
                length = math.dist(nodes[a], nodes[b])
                edges[a].append((b, length))
                edges[b].append((a, length))
    best = {0: 0.0}
    queue = [(0.0, 0)]
    while queue:
        cost, node = heapq.heappop(queue)
        if node == 1:
            return cost
        if cost > best.get(node, math.inf):
            continue
        for other, length in edges[node]:
            if cost + length < best.get(other, math.inf):
                best[other] = cost + length
                heapq.heappush(queue, (cost + length, other))
    return math.inf


rocks = st.lists(st.tuples(st.floats(4, 36), st.floats(4, 26), st.floats(0.5, 3),
                           st.floats(0.5, 3)), min_size=0, max_size=7)


@settings(max_examples=60, deadline=None)
@given(rocks=rocks, goal=st.tuples(st.floats(2, 38), st.floats(2, 28)))
def test_the_bent_path_is_as_short_as_dijkstra_over_every_edge_and_clear(rocks, goal):
    shape = Footprint((2.0, 2.0), 0.0, 2.0, 1.0)  # a small unit, 2" wide
    start = (2.0, 2.0)
    obstacles = [((x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h))
                 for x, y, w, h in rocks]
    nodes, tree = visibility_graph(start, goal, shape, obstacles, REGION)
    found = shortest_path(start, goal, shape, obstacles, REGION)
    expected = every_edge_dijkstra(nodes, tree)
    if found is None:
        assert math.isinf(expected)
        return
    assert found[0] == start and found[-1] == goal
    length = sum(math.dist(a, b) for a, b in itertools.pairwise(found))
    assert math.isclose(length, expected, rel_tol=1e-9, abs_tol=1e-9)
    # Every leg keeps clear of every obstacle grown by the unit's shape.
    grown_rocks = [shapely.Polygon(grown(points, shape, MARGIN / 2)) for points in obstacles]
    for a, b in itertools.pairwise(found):
        leg = shapely.LineString([a, b])
        assert not any(leg.intersects(rock) for rock in grown_rocks)


# ---------------------------------------------------------------------------------------------
# Bounds (issue 21 item 10): a field of small rocks costs what its nearest few cost


def rock_field(count: int, spacing: float, size: float = 0.3) -> list[tuple[Point, ...]]:
    """`count` small triangles in rows `spacing` apart across the region."""
    columns = int(REGION[2] // spacing)
    return [((1 + spacing * (i % columns), 4 + spacing * (i // columns)),
             (1 + spacing * (i % columns) + size, 4 + spacing * (i // columns)),
             (1 + spacing * (i % columns), 4 + spacing * (i // columns) + size))
            for i in range(count)]


def test_the_plan_bends_at_the_corners_that_add_the_least_detour(monkeypatch):
    shape = Footprint((20.0, 1.0), 0.0, 0.5, 0.5)
    start, goal = (20.0, 1.0), (20.0, 28.0)
    rocks = rock_field(300, 2.0)
    every, _ = visibility_graph(start, goal, shape, rocks, REGION)
    monkeypatch.setattr(pathing, "MAX_OBSTACLES", len(rocks))
    monkeypatch.setattr(pathing, "MAX_CORNERS", 40)
    kept, _ = visibility_graph(start, goal, shape, rocks, REGION)
    assert len(every) > 42 and len(kept) == 42 and kept[:2] == [start, goal]
    detour = {node: math.dist(start, node) + math.dist(node, goal) for node in every[2:]}
    assert max(detour[node] for node in kept[2:]) <= min(
        detour[node] for node in set(every[2:]) - set(kept))
    assert kept[2:] == [node for node in every[2:] if node in set(kept)]  # in their order


def test_the_plan_is_made_round_the_obstacles_nearest_the_way(monkeypatch):
    rocks = rock_field(300, 2.0)
    start, goal = (20.0, 1.0), (20.0, 28.0)
    near = pathing.nearest_the_way(rocks, start, goal, 25)
    way = shapely.LineString([start, goal])
    gaps = sorted(shapely.Polygon(rock).distance(way) for rock in rocks)
    assert len(near) == 25 and max(shapely.Polygon(r).distance(way) for r in near) <= gaps[25]
    assert near == [rock for rock in rocks if rock in near]


def test_a_flee_planned_round_fewer_obstacles_never_goes_through_a_rock(monkeypatch):
    """What the plan leaves out, the walk still meets: a path through a rock it did not
    plan round is refused, and the unit goes another way or is stopped."""
    monkeypatch.setattr(pathing, "MAX_OBSTACLES", 4)
    monkeypatch.setattr(pathing, "MAX_CORNERS", 12)
    pieces = tuple(Terrain(f"r{i}", "Rock", points, impassable=True)
                   for i, points in enumerate(rock_field(150, 3.5, size=1.5)))
    profile = UnitProfile("Spearmen", {"M": 4, "Ld": 7}, base=(0.8, 0.8))
    unit = Unit("mover", "Mover", "Red", profile, models=4, files=2)
    bent = 0
    for x in (5.0, 7.5, 12.2, 16.0, 21.3):
        battle = Battle("warhammer6", Table(40, 30), {"mover": unit},
                        {"mover": UnitState("mover", (x, 1.5), 90.0, files=2, models=4)},
                        pieces)
        for heading in (60.0, 90.0, 120.0):
            plan = flee_around(battle, "mover", heading, 11.0)
            bent += bool(plan.bends)
            moving = plan.moving or battle.footprint("mover")
            for a, b in itertools.pairwise(plan.path):
                length = math.dist(a, b)
                if length < 1e-9:
                    continue
                here = moving.moved(a[0] - plan.start[0], a[1] - plan.start[1])
                leg = shapely.Polygon(swept_outline(here, ((b[0] - a[0]) / length,
                                                           (b[1] - a[1]) / length), length))
                assert not any(leg.intersection(piece.polygon).area > 1e-6
                               for piece in pieces), (x, heading, plan.path)
    assert bent, "some flee should bend round the rocks, or this proves nothing"
