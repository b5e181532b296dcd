"""Small helpers that write scenario data the way a player's file would.

Tests go through `load_scenario`, so every battle they build also exercises the file format.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import Polygon

from desktop.engine.dice import ScriptedRoller
from desktop.engine.events import Event, Movement, UnitLeftTable, fold
from desktop.engine.geometry import Footprint, Point, overlaps, swept_area
from desktop.engine.model import Army, Battle, Status, TroopType, Unit, UnitProfile
from desktop.engine.procedure import Roll, ScriptedAnswers, Session, run
from desktop.engine.scenario import Scenario, load_scenario

W6_PROFILE = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def w6_unit(unit_id: str, player: str, x: float, y: float, *, facing: float = 90,
            models: int = 10, files: int = 5, base: tuple[float, float] = (1.0, 1.0),
            **stats_and_fields: Any) -> dict[str, Any]:
    """A W6 unit on `base`-inch bases; keyword stats (M=, Ld=) go into its profile."""
    profile = dict(W6_PROFILE)
    fields: dict[str, Any] = {}
    for key, value in stats_and_fields.items():
        if key in profile:
            profile[key] = value
        else:
            fields[key] = value
    return {"id": unit_id, "name": unit_id.replace("_", " ").title(), "player": player,
            "profile": profile, "base": list(base), "models": models, "files": files,
            "position": [x, y], "facing": facing, **fields}


def scenario(units: list[dict[str, Any]], resolve: dict[str, Any], *,
             ruleset: str = "warhammer6", table: tuple[float, float] = (72, 48),
             **extra: Any) -> dict[str, Any]:
    return {"format": "rout-scenario", "version": 1, "ruleset": ruleset,
            "table": {"width": table[0], "depth": table[1]}, "units": units,
            "resolve": resolve, **extra}


def side(*units: str | dict[str, Any], **flags: Any) -> dict[str, Any]:
    entries = [{"unit": u} if isinstance(u, str) else u for u in units]
    return {"units": entries, **flags}


def aftermath(*combats: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    return {"procedure": "combat_aftermath",
            "combats": [{"id": f"combat {i + 1}", "sides": list(sides)}
                        for i, sides in enumerate(combats)]}


def play(data: dict[str, Any], dice: list[int], choices: dict[str, str] | None = None
         ) -> tuple[Scenario, Session, Battle]:
    """Run the scenario with these faces and choices; return it, the session and the end."""
    loaded = load_scenario(data)
    session = run(loaded.start(), ScriptedAnswers(ScriptedRoller(dice), choices or {}))
    assert session.events is not None
    return loaded, session, fold(loaded.battle, session.events)


def problems(battle: Battle) -> list[str]:
    """What is wrong with where the units stand: overlaps, off the table, in terrain."""
    found = []
    placed = list(battle.on_table())
    for index, uid in enumerate(placed):
        polygon = battle.footprint(uid).polygon
        if not battle.table.contains(battle.footprint(uid)):
            found.append(f"{uid} hangs off the table")
        found += [f"{uid} stands in {piece.id}" for piece in battle.terrain
                  if piece.impassable and overlaps(polygon, piece.polygon)]
        found += [f"{uid} overlaps {other}" for other in placed[index + 1:]
                  if overlaps(polygon, battle.footprint(other).polygon)]
    return found


def crossed(before: Battle, event: Event) -> list[str]:
    """Enemies and impassable terrain a move went through on its way (not just its end).

    Every segment of the path is checked with the shape the unit had on it: turned to its
    new facing when it turned before moving, as it stood when it turned after. An event
    that does not say (`turned` is "") is wrong only if neither shape had a clear path.
    """
    if not isinstance(event, Movement) or len(event.path) < 2:
        return []
    standing = before.footprint(event.unit)
    shapes = {"before": [standing.turned(event.facing)], "after": [standing]}.get(
        event.turned, [standing, standing.turned(event.facing)])
    blockers = [(uid, before.footprint(uid).polygon) for uid in before.enemies_of(event.unit)]
    blockers += [(piece.id, piece.polygon) for piece in before.terrain if piece.impassable]
    swept = [[_swept(shape, a, b) for a, b in zip(event.path, event.path[1:], strict=False)]
             for shape in shapes]
    return [f"{event.unit} went through {name}" for name, polygon in blockers
            if all(any(area is not None and overlaps(area, polygon) for area in areas)
                   for areas in swept)]


def _swept(shape: Footprint, a: Point, b: Point) -> Polygon | None:
    """The ground `shape`, centred at `a`, covers sliding to `b` (None if it stays put)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1e-9:
        return None
    at = shape.moved(a[0] - shape.center[0], a[1] - shape.center[1])
    return swept_area(at, ((b[0] - a[0]) / length, (b[1] - a[1]) / length), length)


def assert_sound_run(start: Battle, events: list[Event]) -> None:
    """After every event (not only the last): no move went through an enemy or impassable
    terrain, nothing overlaps, hangs off the table or stands in impassable terrain, and
    units leave the table only by UnitLeftTable."""
    battle, left = start, set()
    assert problems(battle) == []
    for number, event in enumerate(events):
        assert crossed(battle, event) == [], f"event {number}: {event}"
        battle = event.apply_to(battle)
        if isinstance(event, UnitLeftTable):
            left.add(event.unit)
        assert problems(battle) == [], f"after event {number}: {event}"
        for uid, state in battle.states.items():
            assert state.status != Status.LEFT_TABLE or uid in left, (
                f"{uid} left the table without a UnitLeftTable event")


def events_of(session: Session, kind: type[Event]) -> list[Any]:
    assert session.events is not None
    return [event for event in session.events if isinstance(event, kind)]


def roll_keys(session: Session) -> list[str]:
    return [step.request.key for step in session.steps if isinstance(step.request, Roll)]


def request_keys(session: Session) -> list[str]:
    return [step.request.key for step in session.steps]


# Armies for the store's tests.

W6_STATS = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def army(name: str = "Grimgor's Boyz", units: int = 3, ruleset: str = "warhammer6",
         player: str = "Alice") -> Army:
    stats = W6_STATS if ruleset == "warhammer6" else {"M": 5, "Ld": 8}
    return Army(
        name=name, player=player, ruleset=ruleset, points_limit=2000,
        notes=("painted", "Ünïcode ✓"),
        units=tuple(
            Unit(id=f"u{index}", name=f"Unit {index}", player=player,
                 profile=UnitProfile(f"Profile {index}", {**stats, "Ld": 5 + index % 5},
                                     troop_type=list(TroopType)[index % len(TroopType)],
                                     base=(0.8 + index / 100, 1.6), unit_strength=1 + index % 3,
                                     wounds=1 + index % 2,
                                     special_rules=frozenset({"stubborn"} if index % 2 else ()),
                                     flies=index % 4 == 0),
                 models=10 + index, files=5, upgrades=frozenset({"standard", "musician"}),
                 character_wounds=index % 3, points=100 + index, slot="Core",
                 notes=(f"note {index}",))
            for index in range(units)))


# The command line, as the CLI tests drive it.

def run_cli(capsys: Any, *argv: object) -> tuple[int, str, str]:
    from desktop.cli import main

    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_bad(capsys: Any, argv: list[object], *fragments: str, prefix: str = "") -> str:
    """Exit 2, nothing on stdout, one stderr line starting with `prefix` and containing
    every fragment."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2, (code, out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert err.endswith("\n")
    assert lines[0].startswith(prefix), lines[0]
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    return lines[0]


def wiped_out_combats(count: int, profile: dict[str, int] | None = None,
                      ruleset: str = "warhammer6") -> dict[str, Any]:
    """`count` combats 20" apart, in rows of ten: in each, Orcs wipe out the Elves they fight
    and lose two models, and a unit of Elves stands 3" behind (a W6 Panic test).

    Nothing moves afterwards, so the work is all in the tests and casualties, none in moves.
    """
    stats = profile if profile is not None else W6_PROFILE

    def unit(uid: str, player: str, x: float, y: float, facing: float,
             models: int) -> dict[str, Any]:
        return {"id": uid, "name": uid.replace("_", " ").title(), "player": player,
                "profile": dict(stats), "base": [1, 1], "models": models, "files": models,
                "position": [x, y], "facing": facing}

    units, combats = [], []
    for number in range(count):
        row, column = divmod(number, 10)
        x, y = 10.0 + column * 20, 5.0 + row * 20
        units += [unit(f"orcs_{number}", "Orcs", x, y, 90, 10),
                  unit(f"elves_{number}", "Elves", x, y + 1, 270, 10),
                  unit(f"guard_{number}", "Elves", x, y + 5, 270, 5)]
        combats.append((side({"unit": f"orcs_{number}", "wounds_caused": 10, "casualties": 2}),
                        side({"unit": f"elves_{number}", "wounds_caused": 2,
                              "casualties": 10})))
    resolve = aftermath(*combats)
    if ruleset == "breaks_pursues":
        resolve["procedure"] = "breaks_pursues"
    return scenario(units, resolve, ruleset=ruleset,
                    table=(210, 10 + 20 * math.ceil(count / 10)))
