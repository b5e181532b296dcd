"""Where units stand after losses, and which table edge a fleeing unit makes for.

Casualties come off the rear rank (W6-CR-1, BP-0, K-RA-4): the front edge stays put, so a
unit that loses a rank is still touching the enemy in front of it. Positions are worked out by
hand in each test; bases are 1" (W6, BP) or 2.5 cm (Kensei) squares.
"""

from __future__ import annotations

import pytest
from test_bp_rules import LOSE, WIN, bp_unit

from desktop.engine.events import (
    CasualtiesRemoved,
    Event,
    PursuitDeclared,
    UnitBroke,
    UnitCaught,
    UnitDestroyed,
    UnitFled,
    UnitLeftTable,
    WoundsSuffered,
    event_from_json,
    fold,
)
from desktop.engine.geometry import Footprint, distance, in_contact
from desktop.engine.model import Battle
from desktop.engine.procedure import Choice
from desktop.engine.scenario import load_scenario

from builders import aftermath, events_of, play, scenario, side, w6_unit


def _battle(data: dict) -> Battle:
    return load_scenario(data).battle


def _turn(player: str) -> dict:
    """A resolution that needs no combat: these battles are only folded by hand."""
    return {"procedure": "start_of_turn", "player": player}


def _rounded(points: tuple) -> tuple:
    return tuple((round(x, 9), round(y, 9)) for x, y in points)


def _w6_block() -> Battle:
    """Swordsmen 5 wide, 3 deep at (36, 24) facing up: front edge y 25.5, x 33.5 to 38.5."""
    return _battle(scenario([w6_unit("swordsmen", "Empire", 36, 24, models=15),
                             w6_unit("orcs", "Orcs", 36, 26.5, facing=270, models=5)],
                            _turn("Empire")))


def _kensei_block() -> Battle:
    """Samurai 5 wide, 2 deep of 2-Wound models on 2.5 cm bases at (60, 60) facing up:
    front edge y 62.5, x 53.75 to 66.25."""
    unit = {"id": "samurai", "name": "Samurai", "player": "Clan",
            "profile": {"Mv": 10, "Init": 4, "Honor": 5, "W": 2, "AP": 2},
            "base": [2.5, 2.5], "models": 10, "files": 5, "position": [60, 60], "facing": 90}
    oni = {**unit, "id": "oni", "name": "Oni", "player": "Demons", "models": 5,
           "position": [60, 100], "facing": 270}
    return _battle(scenario([unit, oni], {"procedure": "new_turn"}, ruleset="kensei1",
                            table=(120, 120)))


@pytest.mark.parametrize("case", ["casualties", "wounds"])
def test_unit_losing_its_rear_rank_keeps_its_front_edge(case: str) -> None:
    """W6-CR-1 / K-RA-4: losses come off the back, the front edge does not move.

    Swordsmen 15 -> 10 models: 2 ranks, depth 2, front still at y 25.5, so the centre goes
    from (36, 24) to (36, 24.5). Samurai lose 11 Wounds = 5 models (1 Wound left on a sixth):
    1 rank of 2.5 cm, front still at y 62.5, centre from (60, 60) to (60, 61.25).
    """
    if case == "casualties":
        battle, unit = _w6_block(), "swordsmen"
        event: Event = CasualtiesRemoved.build(battle, unit, 5, clause="W6-CR-1")
        old: Event = CasualtiesRemoved(unit, 5)
        center, corners = (36.0, 24.5), ((33.5, 25.5), (38.5, 25.5), (38.5, 23.5), (33.5, 23.5))
    else:
        battle, unit = _kensei_block(), "samurai"
        event = WoundsSuffered.build(battle, unit, 11, clause="K-RA-4")
        old = WoundsSuffered(unit, 11)
        center, corners = (60.0, 61.25), ((53.75, 62.5), (66.25, 62.5), (66.25, 60.0),
                                           (53.75, 60.0))
    assert event.center == center  # type: ignore[attr-defined]
    assert _rounded(event.corners) == corners  # type: ignore[attr-defined]
    after = fold(battle, [event])
    assert after.state(unit).center == center
    assert _rounded(after.footprint(unit).corners) == corners
    # A battle saved before the fields existed reads the same.
    assert fold(battle, [event_from_json({"type": type(old).__name__, **old.to_json(),
                                          "center": None, "corners": []})]) == after
    assert fold(battle, [old]) == after


def test_a_unit_down_to_fewer_models_than_files_narrows_about_its_front_middle() -> None:
    """W6-CR-1: 15 -> 3 swordsmen stand 3 wide, 1 deep, front midpoint still (36, 25.5)."""
    battle = _w6_block()
    after = fold(battle, [CasualtiesRemoved.build(battle, "swordsmen", 12, clause="W6-CR-1")])
    assert after.state("swordsmen").center == (36.0, 25.0)
    assert _rounded(after.footprint("swordsmen").corners) == (
        (34.5, 25.5), (37.5, 25.5), (37.5, 24.5), (34.5, 24.5))


def _bp_fight(goblins: dict, elves: dict, casualties: str) -> dict:
    """Goblins (10 wide, facing down) against Elves (10 wide, facing up), fronts at y 29.5.

    Elves cause 3 wounds, goblins 1, and the side named in `casualties` loses 10 models (a
    whole rank); 10 models face 10 either way, so the difference is 2."""
    units = [bp_unit("elves", WIN, 36, 29, **elves), bp_unit("goblins", LOSE, 36, 30,
                                                             facing=270, **goblins)]
    combat = {"id": "line", "sides": [
        side({"unit": "elves", "wounds_caused": 3,
              **({"casualties": 10} if casualties == "elves" else {})}),
        side({"unit": "goblins", "wounds_caused": 1,
              **({"casualties": 10} if casualties == "goblins" else {})})]}
    return scenario(units, {"procedure": "breaks_pursues", "combats": [combat]},
                    ruleset="breaks_pursues")


# Break test 6+6+2 > 7 breaks; flee 3+3 = 6; pursuit 4+4 = 8 catches.
_BP_DICE = [6, 6, 3, 3, 4, 4]


def _assert_pursuit_offered_and_made(data: dict, center: tuple[float, float]) -> None:
    _, session, battle = play(data, _BP_DICE, {"pursue:elves": "goblins"})
    # The front stayed put: still touching, with nobody moved up to keep the contact.
    removed = events_of(session, CasualtiesRemoved)[0]
    assert (removed.center, removed.moved_up) == (center, ())
    offered = [s.request for s in session.steps if isinstance(s.request, Choice)]
    assert [c.key for c in offered] == ["pursue:elves"]
    assert events_of(session, PursuitDeclared)[0].target == "goblins"
    assert events_of(session, UnitCaught)[0].by == ("elves",)
    assert not battle.states["goblins"].status.on_table


def test_bp_winner_is_offered_pursuit_after_the_loser_lost_a_rank() -> None:
    """BP-0, BP-3: goblins 20 models 2 deep at (36, 30.5) touch the elves at y 29.5. They
    lose 10: one rank, centre (36, 30), front still at 29.5 and touching, so the elves may
    pursue (about the centre the front would have gone back to 30, half an inch off)."""
    _assert_pursuit_offered_and_made(
        _bp_fight({"models": 20, "position": [36, 30.5]}, {}, "goblins"), (36.0, 30.0))


def test_bp_winner_is_offered_pursuit_after_it_lost_a_rank_itself() -> None:
    """BP-0, BP-3: elves 20 models 2 deep at (36, 28.5), front at 29.5, lose 10: centre
    (36, 29), front still at 29.5, still touching the broken goblins."""
    _assert_pursuit_offered_and_made(
        _bp_fight({}, {"models": 20, "position": [36, 28.5]}, "elves"), (36.0, 29.0))


def test_w6_fl_3_loser_flees_from_its_unchanged_front() -> None:
    """W6-CR-1, W6-FL-3: elves 5 wide, 3 deep at (36, 25.5) facing down (front y 24) lose 5
    models to orcs touching them from below (5 wide, 2 deep at (36, 23)). Their centre moves
    to (36, 25) and the front stays at 24, in contact. Score: orcs 5 wounds + 1 rank, elves
    0 + 1 rank: they lose by 5, 3+3+5 > 7 breaks. Orcs hold (restraint 1+1). Flee 3+4 = 7
    straight up: the closest part ends 7" from the orcs' front at y 24, so the 2-deep elves
    end centred at (36, 32), not (36, 32.5)."""
    data = scenario(
        [w6_unit("elves", "Elves", 36, 25.5, facing=270, models=15),
         w6_unit("orcs", "Orcs", 36, 23, models=10)],
        aftermath((side({"unit": "orcs", "wounds_caused": 5}),
                   side({"unit": "elves", "casualties": 5}))))
    _, session, battle = play(data, [3, 3, 1, 1, 3, 4], {"pursue:orcs": "hold"})
    removed = events_of(session, CasualtiesRemoved)[0]
    assert removed.center == (36.0, 25.0)
    fled = events_of(session, UnitFled)[0]
    assert fled.roll == 7
    assert fled.path[0] == (36.0, 25.0)
    assert fled.path[-1] == pytest.approx((36.0, 32.0))
    assert distance(battle.footprint("elves"), battle.footprint("orcs")) == pytest.approx(7.0)


@pytest.mark.parametrize(("casualties", "tests"), [(0, True), (10, False)])
def test_w6_pt_1_panic_radius_is_measured_from_where_the_broken_unit_stands(
        casualties: int, tests: bool) -> None:
    """W6-CR-1, W6-PT-1: elves 10 wide, 2 deep at (36, 30.5) facing down span y 29.5 to
    31.5, their front touching the orcs below. Spearmen behind them (5 x 2 at (36, 38)) start
    at y 37: 5.5" from the elves' rear, so they test when the elves break (orcs 6 wounds
    against 1 + rank + outnumbering, or 1 alone after the losses). Losing 10 models
    (a rank) takes the rear to y 30.5, 6.5" away: no Panic test. (Shrunk about the centre,
    the rear would be at 31, exactly 6" away, and they would test.)"""
    data = scenario(
        [w6_unit("orcs", "Orcs", 36, 29, models=10, files=10),
         w6_unit("elves", "Elves", 36, 30.5, facing=270, models=20, files=10),
         w6_unit("spearmen", "Elves", 36, 38, facing=270, models=10, files=5)],
        aftermath((side({"unit": "orcs", "wounds_caused": 6}),
                   side({"unit": "elves", "wounds_caused": 1,
                         **({"casualties": casualties} if casualties else {})}))))
    _, session, _ = play(data, [6, 6, 1, 1, 1, 1, 3, 3, 3, 3], {"pursue:orcs": "hold"})
    assert events_of(session, UnitBroke)[0].unit == "elves"
    asked = [step.request.key for step in session.steps]
    assert ("panic:spearmen" in asked) is tests


def test_unit_engaged_in_its_rear_keeps_contact_when_it_loses_a_rank() -> None:
    """W6-CR-1: elves 5 wide, 3 deep at (36, 25.5) facing down span y 24 to 27; wolves
    (5 wide, 1 deep at (36, 27.5), facing down) touch their rear at y 27. The elves lose 5:
    the rear comes forward to y 26, and the wolves are moved up 1" to (36, 26.5) to stay in
    contact, as players do. The orcs in front (touching at y 24) do not move."""
    battle = _battle(scenario(
        [w6_unit("elves", "Elves", 36, 25.5, facing=270, models=15),
         w6_unit("orcs", "Orcs", 36, 23, models=10),
         w6_unit("wolves", "Orcs", 36, 27.5, facing=270, models=5)], _turn("Elves")))
    event = CasualtiesRemoved.build(battle, "elves", 5, clause="W6-CR-1")
    assert event.moved_up == (("wolves", 36.0, 26.5),)
    after = fold(battle, [event])
    assert after.state("wolves").center == (36.0, 26.5)
    assert after.state("orcs").center == (36.0, 23.0)
    assert in_contact(after.footprint("elves"), after.footprint("wolves"))
    assert in_contact(after.footprint("elves"), after.footprint("orcs"))
    assert fold(battle, [CasualtiesRemoved("elves", 5)]) == after  # older saves


def test_enemy_on_the_flank_beside_the_lost_rank_slides_along_the_flank() -> None:
    """W6-CR-1: the same elves (x 33.5 to 38.5, y 24 to 27); a boar (1" base at (39, 26.6),
    facing left) touches their right flank only beside the rear rank, y 26.1 to 27. With
    the rear rank gone the elves end at y 26, 0.1" short of the boar, which is moved 0.1"
    down the flank to (39, 26.5), still facing left."""
    battle = _battle(scenario(
        [w6_unit("elves", "Elves", 36, 25.5, facing=270, models=15),
         w6_unit("boar", "Orcs", 39, 26.6, facing=180, models=1, files=1)], _turn("Elves")))
    event = CasualtiesRemoved.build(battle, "elves", 5, clause="W6-CR-1")
    (unit, x, y), = event.moved_up
    assert (unit, x, y) == ("boar", pytest.approx(39.0), pytest.approx(26.5))
    after = fold(battle, [event])
    assert after.state("boar").facing == 180
    assert in_contact(after.footprint("elves"), after.footprint("boar"))


def test_destroyed_and_caught_events_say_where_the_unit_stood() -> None:
    """BP-5: the caught goblins' footprint is in UnitCaught and UnitDestroyed: 10 wide,
    1 deep at (36, 30) after losing a rank, x 31 to 41, y 29.5 to 30.5, facing down."""
    _, session, _ = play(_bp_fight({"models": 20, "position": [36, 30.5]}, {}, "goblins"),
                         _BP_DICE, {"pursue:elves": "goblins"})
    stood = Footprint((36.0, 30.0), 270.0, 10.0, 1.0).corners
    assert _rounded(events_of(session, UnitCaught)[0].corners) == _rounded(stood)
    assert _rounded(events_of(session, UnitDestroyed)[0].corners) == _rounded(stood)


def test_w6_fl_5_nearest_edge_is_measured_from_the_footprint() -> None:
    """W6-FL-5: a 20-wide, 1-deep unit at (13, 5) facing up covers x 3 to 23, y 4.5 to 5.5
    on a 72 x 48 table. Its centre is 5" from the bottom edge and 13" from the left, but the
    unit itself is 3" from the left edge and 4.5" from the bottom: it makes for the left.
    It cannot turn there (20" deep facing left would hang off the table) so it moves as it
    stands: fleeing 1+1 = 2" takes it to (11, 5)."""
    data = scenario(
        [w6_unit("goblins", "Goblins", 13, 5, models=20, files=20, status="fleeing"),
         w6_unit("elves", "Elves", 60, 40)],
        {"procedure": "start_of_turn", "player": "Goblins"})
    battle = _battle(data)
    assert battle.table.edge_headings(battle.states["goblins"].center)[0] == (5.0, 270.0)
    assert battle.table.nearest_edges(battle.footprint("goblins"))[0] == (3.0, 180.0)
    _, session, end = play(data, [6, 6, 1, 1])  # rally 12 fails; flee 2
    assert not events_of(session, UnitLeftTable)
    fled = events_of(session, UnitFled)[0]
    assert fled.clause == "W6-FL-5"
    assert fled.path[-1] == pytest.approx((11.0, 5.0))
    assert end.states["goblins"].center == pytest.approx((11.0, 5.0))


def test_nearest_edge_ties_go_to_the_edge_nearer_the_centre_then_by_heading() -> None:
    """W6-FL-5 tie-breaks. A 2 x 2 square at (2, 2) is 1" from the left and bottom edges and
    its centre 2" from both: the fixed order (right, up, left, down) puts left first. A 4 x 2
    block at (3, 2) (x 1 to 5, y 1 to 3) is also 1" from both, but its centre is 2" from the
    bottom and 3" from the left: the bottom edge wins."""
    table = _w6_block().table
    square = Footprint((2.0, 2.0), 90.0, 2.0, 2.0)
    assert [heading for _, heading in table.nearest_edges(square)] == [180, 270, 90, 0]
    block = Footprint((3.0, 2.0), 90.0, 4.0, 2.0)
    assert [heading for _, heading in table.nearest_edges(block)] == [270, 180, 90, 0]
    assert [gap for gap, _ in table.nearest_edges(block)] == pytest.approx([1, 1, 45, 67])
