"""Breaks or Pursues: one or more tests per BP-* clause of rules/README.md."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest
from work import growth

from desktop.engine import odds
from desktop.engine.dice import Dice, ScriptedRoller
from desktop.engine.events import (
    BreakTest,
    DiceRolled,
    PursuitDeclared,
    UnitCaught,
    UnitEscaped,
    UnitFled,
    UnitPursued,
)
from desktop.engine.geometry import heading_of
from desktop.engine.model import Status
from desktop.engine.procedure import Choice, Roll, ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario

from builders import events_of, play, request_keys, scenario, side, wiped_out_combats

WIN, LOSE = "Elves", "Goblins"


def bp_unit(unit_id: str, player: str, x: float, y: float, *, facing: float = 90,
            models: int = 10, files: int = 10, M: int = 5, Ld: int = 7, **fields) -> dict:
    return {"id": unit_id, "name": unit_id.title(), "player": player,
            "profile": {"M": M, "Ld": Ld}, "base": [1, 1], "models": models, "files": files,
            "position": [x, y], "facing": facing, **fields}


def line_fight(*, extra: list | None = None, winner_units: tuple = ("elves",),
               loser: dict | None = None, **kwargs) -> dict:
    """Goblins (10 wide at y 30, facing down) lose to Elves (10 wide, in contact below)."""
    units = [bp_unit("elves", WIN, 36, 29),
             bp_unit("goblins", LOSE, 36, 30, facing=270, **(loser or {})), *(extra or [])]
    combat = {"id": "line", "sides": [
        side(*({"unit": u, "wounds_caused": 3 if u == "elves" else 0} for u in winner_units)),
        side({"unit": "goblins", "wounds_caused": 1})]}
    return scenario(units, {"procedure": "breaks_pursues", "combats": [combat]},
                    ruleset="breaks_pursues", **kwargs)


def test_bp_0_nothing_broke_nothing_wiped_out_ends_after_the_break_tests():
    _, session, battle = play(line_fight(), [1, 1])
    assert request_keys(session) == ["break:goblins"]
    assert events_of(session, BreakTest)[0].passed is True
    assert not events_of(session, DiceRolled)
    assert battle.states["elves"].center == (36, 29)


def test_bp_0_a_wipe_out_alone_still_runs_the_steps():
    data = line_fight()
    data["units"][0]["facing"] = 90
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["charged"] = True
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["casualties"] = 10
    _, session, battle = play(data, [3, 4])
    assert request_keys(session) == ["overrun:elves", "pursue_roll:elves"]
    assert battle.states["goblins"].status == Status.DESTROYED


@pytest.mark.parametrize(("faces", "broken"), [((3, 2), False), ((3, 3), True)])
def test_bp_b_break_test_is_2d6_plus_difference_against_discipline(faces, broken):
    # Elves 3 wounds against 1: difference 2; Ld 7. 5 + 2 = 7 holds, 6 + 2 = 8 breaks.
    _, session, _ = play(line_fight(), [*faces, 1, 1, 1, 1])
    test = events_of(session, BreakTest)[0]
    assert (test.modifier, test.target, test.passed, test.clause) == (2, 7, not broken, "BP-B")
    request = session.steps[0].request
    assert isinstance(request, Roll)
    assert request.clause == "BP-B"
    assert dict((o.label, o.chance) for o in request.odds)["breaks"] == odds.break_test_fails(
        7, 2)


def test_bp_1_one_enemy_in_contact_gives_the_direction():
    _, session, _ = play(line_fight(), [6, 6, 2, 2, 1, 1])
    assert not any(key.startswith("flee_from:") for key in request_keys(session))
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "elves"
    assert fled.facing == pytest.approx(90.0)


def test_bp_1_several_enemies_in_contact_their_owner_chooses():
    # Wolves on the Goblins' right flank (facing -x, touching x = 41).
    wolves = bp_unit("wolves", WIN, 41.5, 30, facing=180, models=3, files=3)
    data = line_fight(extra=[wolves], winner_units=("elves", "wolves"))
    _, session, _ = play(data, [6, 6, 2, 2], {"flee_from:goblins": "wolves",
                                              "pursue:elves": "hold", "pursue:wolves": "hold"})
    choice = next(s.request for s in session.steps if s.request.key == "flee_from:goblins")
    assert isinstance(choice, Choice)
    assert choice.player == WIN and choice.clause == "BP-1"
    assert {o.id for o in choice.options} == {"elves", "wolves"}
    fled = events_of(session, UnitFled)[0]
    assert fled.away_from == "wolves"
    (x0, y0), (x1, y1) = fled.path
    assert heading_of((x1 - x0, y1 - y0)) == pytest.approx(180.0)  # away from the wolves


def test_bp_2_every_flee_roll_is_made_before_anything_moves_or_pursues():
    data = line_fight(options={"flee_dice": "3D6"})
    _, session, _ = play(data, [6, 6, 1, 2, 3, 6, 6])
    keys = request_keys(session)
    assert keys.index("flee:goblins") < keys.index("pursue:elves") < keys.index(
        "pursue_roll:elves")
    flee = next(s.request for s in session.steps if s.request.key == "flee:goblins")
    assert flee.dice == Dice(3, 6)  # the ruleset option replaces "typically 2D6"
    kinds = [type(e).__name__ for e in session.events]
    assert kinds.index("DiceRolled") < kinds.index("PursuitDeclared")
    assert kinds.index("UnitCaught") < kinds.index("UnitPursued")


def test_bp_3_a_unit_touching_a_standing_enemy_may_not_pursue():
    # A second Goblin unit, still standing, touches the Elves' right end.
    guard = bp_unit("guard", LOSE, 42, 28, facing=180, models=6, files=3)
    data = line_fight(extra=[guard])
    _, session, _ = play(data, [6, 6, 2, 2])
    assert "pursue:elves" not in request_keys(session)
    assert not events_of(session, PursuitDeclared)


def test_bp_3_pursuer_declares_its_target_or_holds():
    _, session, _ = play(line_fight(), [6, 6, 2, 2], {"pursue:elves": "hold"})
    choice = next(s.request for s in session.steps if s.request.key == "pursue:elves")
    assert {o.id for o in choice.options} == {"goblins", "hold"}
    assert choice.clause == "BP-3"
    pursue = choice.option("goblins")
    assert dict((o.label, o.chance) for o in pursue.odds)["catches"] == odds.catches(
        Dice(2, 6), 4)
    assert choice.option("hold").odds == ()  # holding rolls nothing
    assert not events_of(session, UnitPursued)
    assert events_of(session, UnitFled)[0].unit == "goblins"


def test_bp_3a_a_charger_left_with_no_enemy_overruns_straight_forward():
    data = line_fight()
    data["units"][0]["facing"] = 80  # slightly turned: the Overrun follows its facing
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["charged"] = True
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["casualties"] = 10
    data["units"][1]["position"] = [36, 31]  # keep clear of the turned Elves
    _, session, _ = play(data, [4, 4])
    declared = events_of(session, PursuitDeclared)[0]
    assert declared.overrun is True and declared.clause == "BP-3a"
    moved = events_of(session, UnitPursued)[0]
    assert moved.facing == pytest.approx(80.0)
    (x0, y0), (x1, y1) = moved.path
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(8.0)


def test_bp_3a_overrun_odds_say_when_it_would_stop_at_the_table_edge():
    """The Elves' front is 8" from the top edge: an Overrun of 7 or less goes the full
    distance (21/36 on 2D6); 8 or more stops at the edge (15/36), 0.1" short of it."""
    data = line_fight()
    data["units"][0]["position"] = [36, 39.5]
    data["units"][1]["position"] = [36, 40.5]
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["charged"] = True
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["casualties"] = 10
    _, session, _ = play(data, [4, 4])
    expected = {"moves the full distance": Fraction(21, 36),
                "stops at the table edge": Fraction(15, 36)}
    choice = next(s.request for s in session.steps if s.request.key == "overrun:elves")
    assert {o.label: o.chance for o in choice.option("overrun").odds} == expected
    roll = next(s.request for s in session.steps if s.request.key == "pursue_roll:elves")
    assert {o.label: o.chance for o in roll.odds} == expected
    assert [(b.low, b.high) for b in roll.bands] == [(2, 7), (8, 12)]
    moved = events_of(session, UnitPursued)[0]
    assert moved.path[-1] == pytest.approx((36.0, 47.4))


def test_bp_3a_no_overrun_for_a_unit_that_did_not_charge():
    data = line_fight()
    data["resolve"]["combats"][0]["sides"][1]["units"][0]["casualties"] = 10
    _, session, _ = play(data, [])
    assert session.steps == []


def test_bp_4_pursue_rolls_come_after_all_declarations_with_exact_odds():
    data = line_fight(options={"pursue_dice": "3D6"})
    _, session, _ = play(data, [6, 6, 5, 4, 1, 1, 1])
    roll = next(s.request for s in session.steps if s.request.key == "pursue_roll:elves")
    assert roll.dice == Dice(3, 6)
    assert roll.clause == "BP-4"
    assert dict((o.label, o.chance) for o in roll.odds)["catches"] == odds.catches(
        Dice(3, 6), 9)


@pytest.mark.parametrize(("flee", "pursuits", "caught"), [
    ((3, 3), [(3, 3)], True),            # a tie is caught
    ((3, 4), [(3, 3)], False),           # greater than the only pursuit: away
    ((3, 4), [(1, 1), (4, 4)], True),    # one pursuer of two is enough
    ((5, 4), [(1, 1), (4, 4)], False),   # greater than every pursuit
])
def test_bp_5_escapes_only_when_greater_than_every_pursue_roll(flee, pursuits, caught):
    extra, winners = [], ("elves",)
    if len(pursuits) == 2:
        extra = [bp_unit("wolves", WIN, 41.5, 30, facing=180, models=3, files=3)]
        winners = ("elves", "wolves")
    dice = [6, 6, *flee] + [face for pair in pursuits for face in pair]
    _, session, battle = play(line_fight(extra=extra, winner_units=winners), dice,
                              {"flee_from:goblins": "elves"})
    if caught:
        assert events_of(session, UnitCaught)[0].clause == "BP-5"
        assert battle.states["goblins"].status == Status.DESTROYED
        assert not events_of(session, UnitFled)
    else:
        assert events_of(session, UnitEscaped)[0].unit == "goblins"
        assert battle.states["goblins"].status == Status.FLEEING


def test_bp_6_survivors_then_move_flee_and_pursue_distances():
    _, session, battle = play(line_fight(), [6, 6, 4, 4, 3, 3])
    fled = events_of(session, UnitFled)[0]
    pursued = events_of(session, UnitPursued)[0]
    assert (fled.clause, pursued.clause) == ("BP-6", "BP-6")
    assert battle.states["goblins"].center == pytest.approx((36.0, 38.0))
    assert battle.states["elves"].center == pytest.approx((36.0, 35.0))  # along the flee line
    assert pursued.facing == pytest.approx(fled.facing)


def test_bp_example_scenario_through_rout_resolve(scenario_path):
    completed = subprocess.run(
        [sys.executable, "-m", "desktop", "resolve", str(scenario_path("bp-two-combats.json"))],
        capture_output=True, text=True, check=True)
    output = json.loads(completed.stdout)
    kinds = [e["type"] for e in output["events"]]
    assert kinds.count("UnitDestroyed") == 2  # the archers wiped out, the goblins caught
    caught = next(e for e in output["events"] if e["type"] == "UnitCaught")
    assert caught["by"] == ["lions"] and caught["flee_roll"] == 7
    overrun = next(e for e in output["events"] if e["type"] == "PursuitDeclared"
                   and e["overrun"])
    assert overrun["unit"] == "silver_helms"
    assert output["units"]["silver_helms"]["position"] == [12.0, 34.5]
    assert Fraction(output["steps"][0]["odds"][1]["chance"]) == 1  # lost by 6 against Ld 6


def test_bp_1_with_the_enemy_wiped_out_it_still_flees():
    data = line_fight(extra=[bp_unit("wolves", WIN, 20, 29, models=5, files=5)])
    data["units"][0].update(models=1, files=1)
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["casualties"] = 1
    _, session, battle = play(data, [6, 6, 2, 2])
    assert events_of(session, UnitFled)[0].away_from == "elves"
    assert battle.states["goblins"].status == Status.FLEEING


def test_bp_3a_no_overrun_when_only_a_friend_was_wiped_out():
    # The Goblins charged and lost a friend unit in the same combat: no Overrun for them.
    runt = bp_unit("runts", LOSE, 20, 30, facing=270, models=2, files=2)
    data = line_fight(extra=[runt])
    data["resolve"]["combats"][0]["sides"][1]["units"] = [
        {"unit": "goblins", "wounds_caused": 5, "charged": True},
        {"unit": "runts", "casualties": 2}]
    _, session, _ = play(data, [1, 1])
    assert not any(key.startswith("overrun:") for key in request_keys(session))


def test_bp_0_a_fleeing_unit_cannot_be_one_of_the_fighters():
    from desktop.engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="fleeing"):
        play(line_fight(loser={"status": "fleeing"}), [])


# ---------------------------------------------------------------------------------------------
# Scale: a table of ten times the units and combats costs about ten times the work


def test_ten_times_the_combats_and_units_cost_ten_times_the_work():
    # Every unit on the table looked for the enemies it touches among all the enemies.
    small, large = (load_scenario(wiped_out_combats(count, {"M": 5, "Ld": 7},
                                                    "breaks_pursues")) for count in (10, 100))

    def resolve(loaded: Scenario) -> None:
        session = run(loaded.start(), ScriptedAnswers(ScriptedRoller([])))
        assert session.done and not session.steps

    assert growth(lambda: resolve(small), lambda: resolve(large)) < 15


def flee_across_a_friend() -> dict:
    """The Winners are wiped out as they win: nobody may pursue the Losers (20 wide), who
    break and flee north; the Friends, broken in another combat by an Enemy well away to
    their east (nobody touches them either), flee west across where a middling roll leaves
    the Losers."""
    units = [bp_unit("winners", WIN, 36, 21, models=5, files=5),
             bp_unit("losers", LOSE, 36, 22, facing=270, models=20, files=20, Ld=2),
             bp_unit("friends", LOSE, 50, 27, models=10, files=5, Ld=2),
             bp_unit("enemy", WIN, 70, 27, facing=180, models=10, files=5)]
    combats = [{"id": "left", "sides": [side({"unit": "winners", "wounds_caused": 9,
                                              "casualties": 5}),
                                        side({"unit": "losers", "wounds_caused": 0})]},
               {"id": "right", "sides": [side({"unit": "enemy", "wounds_caused": 3}),
                                         side({"unit": "friends", "wounds_caused": 0})]}]
    return scenario(units, {"procedure": "breaks_pursues", "combats": combats},
                    ruleset="breaks_pursues")


@pytest.mark.parametrize("losers_flee", [(1, 1), (3, 2), (3, 3), (6, 6)])
def test_bp_6_a_later_flee_rolls_odds_see_the_units_fled_before_it(losers_flee):
    """Issue 24, D2: every flee roll is made before anything moves (BP-2), and the Friends'
    odds were measured on the table as it stood then, so "moves the full distance" while
    the Losers, moving first (BP-6), ended in their way. Each total's words must be what
    that total then does."""
    resolution = load_scenario(flee_across_a_friend()).resolution()
    given = [(6, 6), (6, 6), losers_flee]  # both break (Ld 2), the Losers' flee
    flee = resolution.replay(given).pending
    assert isinstance(flee, Roll) and flee.key == "flee:friends" and flee.outcome_of
    through = set()
    for total in range(2, 13):
        faces = (min(6, total - 1), total - min(6, total - 1))
        session = run(resolution.replay([*given, faces]), ScriptedAnswers(ScriptedRoller([])))
        [fled] = [e for e in session.events if isinstance(e, UnitFled) and e.unit == "friends"]
        expected = "passes through friends" if fled.passed_through else "moves the full distance"
        assert flee.outcome_of(total) == expected, total
        if fled.passed_through:
            through.add(total)
    shown = dict((o.label, o.chance) for o in flee.odds)
    assert shown.get("passes through friends", 0) == sum(
        (p for total, p in Dice(2, 6).pmf().items() if total in through), Fraction(0))
    if losers_flee == (3, 2):
        assert through  # the case in point: the Losers stop in the Friends' way
