"""The bent-path search (W6-FL-4's way round): A* over the visibility graph gives a path as
short as Dijkstra over every edge of that graph, and a legal one, on random rock fields."""

from __future__ import annotations

import heapq
import itertools
import math

import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine.geometry import Footprint
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
