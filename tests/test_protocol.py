"""What a window reads from a running resolution (desktop.engine.procedure).

- every Roll and every Choice that leads to dice carries exact odds that add up to 1, and a
  test says what it needs as data (a threshold), not only in words;
- a Session shows the events so far and the battle after them while it runs;
- stepping back is replaying a prefix of answers; a preview is the answers so far and the
  defaults for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from conftest import SCENARIOS
from hypothesis import given
from hypothesis import strategies as st
from test_kensei_rules import CRANE, REACT, defeat, fight, k_unit
from test_properties import (
    PROPERTY_SETTINGS,
    as_breaks_pursues,
    as_charge_on_fleeing,
    as_kensei,
    as_kensei_reaction,
    as_kensei_regroup,
    as_later_turn,
    battles,
    choice_picker,
    load_placed,
)
from test_w6_rules import charge_on_fleeing, two_elf_units

from desktop.engine.dice import D2D6, Dice, SeededRoller
from desktop.engine.errors import AnswerError
from desktop.engine.events import BreakTest, UnitTurned, fold
from desktop.engine.narrate import describe
from desktop.engine.procedure import (
    Choice,
    Request,
    Resolution,
    Roll,
    Session,
    certainty,
    default_answer,
    run,
)
from desktop.engine.scenario import Scenario, load_scenario

from builders import aftermath, play, scenario, side, w6_unit

BUNDLED = sorted(SCENARIOS.glob("*.json"))
# Choices whose options lead to dice, by the first part of their key: each must say what
# the dice would do for at least one option.
LEADS_TO_DICE = {"pursue", "pursue_target", "flee_from", "overrun", "react", "regroup",
                 "chase", "free_attack"}
TESTS = {"break test", "panic test", "rally test", "restraint test", "honor test"}
# Every kind of roll, by the first part of its key.
ROLLS = {"break", "panic", "rally", "restraint", "flee", "pursue_roll", "honor_cv",
         "honor_honor", "honor_passed", "honor_shot", "honor_regroup", "run", "chase_roll"}


def request_problems(request: Request) -> list[str]:
    """What is missing or wrong in the odds and thresholds a request carries."""
    found = []
    if isinstance(request, Roll):
        total = sum(outcome.chance for outcome in request.odds)
        if total != 1:
            found.append(f"{request.key}: odds add up to {total}")
        if any(not 0 <= outcome.chance <= 1 for outcome in request.odds):
            found.append(f"{request.key}: a chance outside 0..1")
        if request.purpose in TESTS and request.threshold is None:
            found.append(f"{request.key}: a {request.purpose} without a threshold")
        if request.bands:
            covered = [t for band in request.bands for t in range(band.low, band.high + 1)]
            if covered != list(range(request.dice.minimum, request.dice.maximum + 1)):
                found.append(f"{request.key}: bands do not cover every total once")
        elif not request.given_odds:
            found.append(f"{request.key}: no outcome for any total")
        return found
    with_odds = [option for option in request.options if option.odds]
    for option in with_odds:
        total = sum(outcome.chance for outcome in option.odds)
        if total != 1:
            found.append(f"{request.key} / {option.id}: odds add up to {total}")
    if request.key.split(":")[0] in LEADS_TO_DICE and not with_odds:
        found.append(f"{request.key}: leads to dice but no option says what they would do")
    return found


def checking(answer: Callable[[Request], Any], seen: list[str],
             asked: list[Request] | None = None) -> Callable[[Request], Any]:
    def check_then_answer(request: Request) -> Any:
        seen.extend(request_problems(request))
        json.dumps(request.to_json())  # a window gets all of it as JSON too
        if asked is not None:
            asked.append(request)
        return answer(request)
    return check_then_answer


def seeded(seed: int, pick: int | None = None) -> Callable[[Request], Any]:
    roller = SeededRoller(seed)
    choose = choice_picker(pick) if pick is not None else None

    def answer(request: Request) -> Any:
        if isinstance(request, Roll):
            return roller.roll(request.dice, request.key)
        return choose(request) if choose else request.default
    return answer


def bundled(path: Any) -> Scenario:
    return load_scenario(json.loads(path.read_text()))


# --- odds on every request --------------------------------------------------------------


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", range(12))
def test_every_request_of_every_bundled_scenario_has_odds_summing_to_one(path, seed):
    loaded = bundled(path)
    seen: list[str] = []
    asked: list[Request] = []
    run(loaded.start(), checking(seeded(seed, pick=seed % 3), seen, asked))
    assert asked, "the scenario asked nothing"
    assert not seen, seen


def property_variants(data: dict[str, Any], difference: int) -> list[dict[str, Any]]:
    """One drawn battle resolved by every procedure a window can start on it (Kensei's
    new_turn asks nothing)."""
    def copy() -> dict[str, Any]:
        return json.loads(json.dumps(data))

    kensei = as_kensei(copy(), difference, 0)
    shot = json.loads(json.dumps(kensei))
    shot["resolve"] = {"procedure": "shooting", "unit": "loser", "wounds": difference + 1}
    return [copy(), as_later_turn(copy()), as_charge_on_fleeing(copy()),
            as_breaks_pursues(copy()), kensei, as_kensei_reaction(json.loads(json.dumps(kensei))),
            shot, as_kensei_regroup(json.loads(json.dumps(kensei)))]


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3),
       difference=st.integers(0, 8))
def test_every_request_of_the_property_battles_has_odds_summing_to_one(data, seed, pick,
                                                                       difference):
    for variant in property_variants(data, difference):
        loaded = load_placed(variant)
        seen: list[str] = []
        run(loaded.start(), checking(seeded(seed, pick), seen))
        assert not seen, (variant["resolve"]["procedure"], seen)


def hand_built() -> list[dict[str, Any]]:
    """Battles that ask what the bundled ones may not: a choice of fleeing units to pursue
    (W6-PU-2), a charge on a fleeing unit (W6-FL-8), a rally (W6-RA-1), Kensei shooting,
    charge reactions and regroups (K-RA-3, K-RA-4, K-RG-1)."""
    return [
        scenario(two_elf_units(), aftermath((side({"unit": "orcs", "wounds_caused": 6}),
                                             side("elves", "archers")))),
        charge_on_fleeing(2.0),
        scenario([w6_unit("elves", "Elves", 36, 30, status="fleeing"),
                  w6_unit("orcs", "Orcs", 10, 10)],
                 {"procedure": "start_of_turn", "player": "Elves"}),
        fight(defeat(3, 0)),
        fight(REACT),
        fight({"procedure": "shooting", "unit": "samurai", "wounds": 5}),
        regroup_battle(),
    ]


def test_the_odds_checks_meet_every_kind_of_request():
    """The checks above are not vacuous: across the bundled scenarios and these battles
    every kind of roll and every choice that leads to dice is asked, and passes them."""
    seen: list[str] = []
    kinds: set[str] = set()
    for data in [json.loads(path.read_text()) for path in BUNDLED] + hand_built():
        for seed in range(12):
            asked: list[Request] = []
            run(load_scenario(data).start(), checking(seeded(seed, pick=seed % 3), seen, asked))
            kinds |= {request.key.split(":")[0] for request in asked}
    assert not seen, seen
    assert not (LEADS_TO_DICE | ROLLS) - kinds, sorted((LEADS_TO_DICE | ROLLS) - kinds)


def _flee_near_the_top_edge(procedure: str) -> dict[str, Any]:
    """A unit 10 wide, 1 deep at (36, 44.5), 3" from the top edge, about to flee up it with
    nobody pursuing yet: broken by Elves below it (BP-2), or fleeing at the start of its
    turn (W6-FL-5: the top edge is its nearest)."""
    if procedure == "breaks_pursues":
        return scenario(
            [{**w6_unit("elves", "Elves", 36, 43.5, models=10, files=10),
              "profile": {"M": 5, "Ld": 7}},
             {**w6_unit("goblins", "Goblins", 36, 44.5, facing=270, models=10, files=10),
              "profile": {"M": 5, "Ld": 7}}],
            {"procedure": "breaks_pursues", "combats": [{"id": "c", "sides": [
                side({"unit": "elves", "wounds_caused": 3}),
                side({"unit": "goblins", "wounds_caused": 1})]}]},
            ruleset="breaks_pursues")
    return scenario([w6_unit("goblins", "Goblins", 36, 44.5, models=10, files=10,
                             status="fleeing"),
                     w6_unit("elves", "Elves", 10, 10)],
                    {"procedure": "start_of_turn", "player": "Goblins"})


@pytest.mark.parametrize("procedure", ["breaks_pursues", "start_of_turn"])
def test_a_flee_roll_with_no_pursuer_gives_the_chance_of_leaving_the_table(procedure):
    """BP-2 / W6-FL-5, by hand: 3" from the edge, 2D6 of 4 or more leaves the table
    (33/36); 2 or 3 stays on it."""
    _, session, _ = play(_flee_near_the_top_edge(procedure), [6, 6, 2, 2],
                         {"pursue:elves": "hold"})
    roll = next(step.request for step in session.steps
                if step.request.key == "flee:goblins")
    assert isinstance(roll, Roll)
    assert {o.label: o.chance for o in roll.odds} == {
        "moves the full distance": Fraction(3, 36), "leaves the table": Fraction(33, 36)}
    assert [(b.low, b.high, b.outcome) for b in roll.bands] == [
        (2, 3, "moves the full distance"), (4, 12, "leaves the table")]


@pytest.mark.parametrize("faces", [(a, b) for a in range(1, 7) for b in range(1, 7)])
def test_a_typed_roll_is_judged_by_the_threshold_as_the_engine_judges_it(faces):
    """W6-BT-2 with Ld 7, lost by 2: the line sits at a dice total of 5."""
    data = scenario([w6_unit("elves", "Elves", 36, 22, facing=90, Ld=7),
                     w6_unit("goblins", "Goblins", 36, 25, facing=270)],
                    {"procedure": "combat_aftermath", "combats": [{
                        "id": "c", "sides": [side({"unit": "goblins", "wounds_caused": 2}),
                                             side({"unit": "elves"})]}]})
    _, session, _ = play(data, [*faces, 3, 3, 3, 3, 3, 3])
    request = session.steps[0].request
    assert isinstance(request, Roll) and request.threshold is not None
    assert request.threshold.to_json()["passes_if"] == "total <= 5"
    band = next(b for b in request.bands if b.low <= sum(faces) <= b.high)
    test = next(e for e in session.events if isinstance(e, BreakTest))
    assert test.passed == request.threshold.holds(sum(faces)) == (band.outcome == "holds")
    assert dict((o.label, o.chance) for o in request.odds) == {
        "holds": D2D6.cdf(5), "breaks": 1 - D2D6.cdf(5)}


def lost_by_3_with_ld_8(**elves: Any) -> dict[str, Any]:
    """W6-BT-3's numbers: the Elves (Ld 8) lose by 3."""
    return scenario([w6_unit("elves", "Elves", 36, 22, facing=90, Ld=8, **elves),
                     w6_unit("goblins", "Goblins", 36, 25, facing=270)],
                    {"procedure": "combat_aftermath", "combats": [{
                        "id": "c", "sides": [side({"unit": "goblins", "wounds_caused": 3}),
                                             side({"unit": "elves"})]}]})


def test_w6_bt_2_one_wording_of_the_break_test_for_the_why_the_line_and_the_log():
    """The request's sentence, the numbers a chart draws and the log's sum all come from
    the threshold: 2D6 + 3 against Ld 8, never "holds if <= 5" on the dice alone."""
    _, session, _ = play(lost_by_3_with_ld_8(), [4, 4, 3, 3, 3, 3, 3, 3])
    request = session.steps[0].request
    assert isinstance(request, Roll) and request.threshold is not None
    threshold = request.threshold
    assert (threshold.modifier, threshold.target, threshold.value) == (3, 8, 5)
    assert threshold.ranges() == ("8 or less", "above 8")
    # In the words of the Elves (many models), as the log's "they break" (issue 20 item 6).
    assert "Roll 2D6 and add 3: above 8 break, 8 or less hold." in request.why
    assert threshold.rule(request.dice) == "Roll 2D6 and add 3: above 8 breaks, 8 or less holds."
    assert threshold.verdict((4, 4)) == "4 + 4 + 3 = 11, above Ld 8"
    assert threshold.verdict((2, 3)) == "2 + 3 + 3 = 8, not above Ld 8"
    assert threshold.to_json()["passes_if"] == "total <= 5"  # the protocol's dice line
    assert threshold.to_json()["target"] == 8 and threshold.to_json()["modifier"] == 3
    test = next(e for e in session.events if isinstance(e, BreakTest))
    assert describe(test, session.battle).startswith(
        "Elves take a Break test on 2D6: 4 + 4 + 3 = 11, above Ld 8 — they break")


def test_a_test_no_roll_can_pass_is_certain_and_one_that_may_is_not():
    """Lost by 7 with Ld 8 (the four-unit battle): even 1 + 1 + 7 = 9 breaks. With the
    double 1 option (W6-BT-4) a double 1 still holds, so the dice matter again."""
    data = lost_by_3_with_ld_8()
    data["resolve"]["combats"][0]["sides"][0]["units"][0]["wounds_caused"] = 7
    request = load_scenario(data).start().pending
    assert isinstance(request, Roll) and request.certain is not None
    assert request.certain.label == "breaks"
    assert certainty(request) == "whatever the dice: even 1 + 1 + 7 = 9 is above Ld 8"
    data["options"] = {"double_one_holds": True}
    lucky = load_scenario(data).start().pending
    assert isinstance(lucky, Roll) and lucky.certain is None
    # A roll whose total moves a unit is never certain, whatever its line says.
    _, session, _ = play(lost_by_3_with_ld_8(), [6, 6, 1, 1, 6, 6])
    pursuit = next(s.request for s in session.steps if s.request.key.startswith("pursue_roll"))
    assert isinstance(pursuit, Roll) and pursuit.certain is None


# --- live state, replay and preview -------------------------------------------------------


def answers_of(resolution: Resolution, answer: Callable[[Request], Any]) -> list[Any]:
    return list(run(resolution, answer).answers)


def event_json(session: Session) -> list[dict[str, Any]]:
    return [event.to_json() for event in session.events]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_a_session_shows_the_events_so_far_and_the_battle_after_them(path):
    loaded = bundled(path)
    session = loaded.start()
    answer = seeded(7)
    seen_growth = []
    while not session.done:
        assert session.battle == fold(loaded.battle, session.events)
        seen_growth.append(len(session.events))
        assert session.pending is not None
        session.answer(answer(session.pending))
    assert session.battle == fold(loaded.battle, session.events)
    assert seen_growth == sorted(seen_growth)


def test_the_wizard_sees_where_a_runner_ended_before_the_chase_choice(scenario_path):
    """K-RA-7: the runner's move is an event already when the chaser is asked."""
    loaded = bundled(scenario_path("k1-ronin-run-through-ashigaru.json"))
    session = loaded.start()
    while not session.done and not (isinstance(session.pending, Choice)
                                    and session.pending.key.startswith("chase")):
        assert session.pending is not None
        session.answer(default_answer(session.pending) if isinstance(session.pending, Choice)
                       else session.pending.dice.typical_faces())
    if session.done:
        pytest.skip("this scenario asks for no chase with typical rolls")
    runner = session.pending.options[0].label.removeprefix("Chase ")
    moved = [e for e in session.events if type(e).__name__ in ("UnitFled", "UnitLeftTable")]
    assert moved and session.battle.roster[moved[-1].unit].name == runner
    assert session.battle.states[moved[-1].unit].center == moved[-1].path[-1]


def resolutions() -> list[tuple[str, Resolution]]:
    return [(path.stem, bundled(path).resolution()) for path in BUNDLED]


@pytest.mark.parametrize(("name", "resolution"), resolutions(), ids=lambda v: str(v)[:24])
@pytest.mark.parametrize("seed", range(6))
def test_replaying_a_prefix_and_going_on_equals_running_straight_through(name, resolution,
                                                                          seed):
    answers = answers_of(resolution, seeded(seed, pick=seed % 2))
    straight = resolution.replay(answers)
    assert straight.done
    for cut in range(len(answers) + 1):
        session = resolution.replay(answers[:cut])
        assert session.done == (cut == len(answers))
        for answer in answers[cut:]:
            session.answer(answer)
        assert event_json(session) == event_json(straight), (name, cut)
        assert session.battle == straight.battle


@pytest.mark.parametrize(("name", "resolution"), resolutions(), ids=lambda v: str(v)[:24])
@pytest.mark.parametrize("seed", range(6))
def test_preview_equals_a_full_run_with_defaults_for_the_rest(name, resolution, seed):
    answers = answers_of(resolution, seeded(seed, pick=seed % 2))
    for cut in range(len(answers) + 1):
        preview = resolution.preview(answers[:cut])
        # The same by hand: the answers given, then a choice's default or a typical roll.
        session = resolution.session()
        given = iter(answers[:cut])
        while not session.done:
            request = session.pending
            assert request is not None
            answer = next(given, None)
            if answer is None:
                answer = (request.default if isinstance(request, Choice)
                          else request.dice.typical_faces())
            session.answer(answer)
        assert event_json(preview) == event_json(session), (name, cut)
        assert preview.battle == fold(resolution.battle, preview.events)


@PROPERTY_SETTINGS
@given(data=battles(), seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 3),
       cut=st.integers(0, 40), difference=st.integers(0, 8))
def test_property_battles_replay_and_preview_agree_with_straight_runs(data, seed, pick, cut,
                                                                      difference):
    for variant in property_variants(data, difference):
        resolution = load_placed(variant).resolution()
        answers = answers_of(resolution, seeded(seed, pick))
        cut = min(cut, len(answers))
        session = resolution.replay(answers[:cut])
        for answer in answers[cut:]:
            session.answer(answer)
        assert event_json(session) == event_json(resolution.replay(answers))
        preview = resolution.preview(answers[:cut])
        assert preview.done and preview.answers[:cut] == tuple(answers[:cut])
        rest = run(resolution.replay(answers[:cut]), default_answer)
        assert event_json(preview) == event_json(rest)


def test_a_wrong_answer_in_a_replay_names_the_request(scenario_path):
    resolution = bundled(scenario_path("w6-four-units.json")).resolution()
    with pytest.raises(AnswerError, match="a roll is answered with dice faces"):
        resolution.replay(["pursue"])


@pytest.mark.parametrize(("text", "faces"), [("D6", (3,)), ("2D6", (3, 4)),
                                             ("3D6", (3, 3, 4)), ("2d10", (5, 6)),
                                             ("D3+1", (2,))])
def test_a_preview_rolls_the_middle_of_the_dice(text, faces):
    dice = Dice.parse(text)
    assert dice.typical_faces() == faces
    assert dice.check_faces(faces) == faces
    # The middle total: at least half the rolls are at or below it.
    assert dice.cdf(dice.total(faces)) >= Fraction(1, 2) > dice.cdf(dice.total(faces) - 1)


# --- Kensei Regroup faces any way (K-RG-1) -------------------------------------------------


def regroup_battle() -> dict[str, Any]:
    """Samurai running at (60, 80), the Oni 25 cm below them (test_kensei_rules' fight)."""
    data = fight({"procedure": "regroup", "unit": "samurai"},
                 samurai={"status": "fleeing", "engaged_with": []}, oni={"engaged_with": []})
    data["units"][0]["position"] = [60, 80]
    return data


@pytest.mark.parametrize("answer", ["30", 30, 30.0, 390, "-330"])
def test_k_rg_1_a_kensei_regroup_to_30_degrees(answer):
    resolution = load_scenario(regroup_battle()).resolution()
    session = resolution.session()
    while not session.done:
        request = session.pending
        assert request is not None
        if isinstance(request, Choice) and request.key.startswith("regroup_facing"):
            assert "30" not in {option.id for option in request.options}
            session.answer(answer)
        else:
            session.answer((4,) if isinstance(request, Roll) else request.default)
    turned = [e for e in session.events if isinstance(e, UnitTurned)]
    assert turned and turned[-1].facing == 30.0 and turned[-1].clause == "K-RG-1"
    assert session.battle.states["samurai"].facing == 30.0
    # A turn in place is drawable like a move: where it stood, the facing before, and the
    # footprint it ends on (12.5 x 5 cm about (60, 80), now facing 30°).
    assert turned[-1].center == (60.0, 80.0)
    assert turned[-1].start_facing == 270.0
    assert [c for xy in turned[-1].footprint for c in xy] == pytest.approx(
        [c for xy in session.battle.footprint("samurai").corners for c in xy])


def test_k_rg_1_the_regroup_keeps_its_quick_options():
    """K-RG-1: besides any angle, the nearest enemy, keeping its facing and the eight compass
    points are offered (the Samurai have room to turn every way)."""
    session = load_scenario(regroup_battle()).resolution().session()
    while not (isinstance(session.pending, Choice)
               and session.pending.key.startswith("regroup_facing")):
        assert session.pending is not None
        session.answer((4,) if isinstance(session.pending, Roll) else session.pending.default)
    choice = session.pending
    assert choice.free == "angle"
    ids = [option.id for option in choice.options]
    assert ids[:2] == ["keep", "face_enemy"]
    assert sorted(ids[2:], key=int) == [str(d) for d in range(0, 360, 45)]
    assert choice.default == "face_enemy"


@pytest.mark.parametrize("answer", ["north-ish", "", float("nan"), float("inf"), True, None])
def test_k_rg_1_a_facing_that_is_no_angle_is_refused_by_name(answer):
    session = load_scenario(regroup_battle()).resolution().session()
    while not (isinstance(session.pending, Choice)
               and session.pending.key.startswith("regroup_facing")):
        assert session.pending is not None
        session.answer((4,) if isinstance(session.pending, Roll) else session.pending.default)
    before = len(session.steps)
    with pytest.raises(AnswerError, match="or any angle in degrees"):
        session.answer(answer)
    assert len(session.steps) == before  # nothing was lost


def test_k_rg_1_an_angle_with_no_room_to_turn_is_refused():
    data = regroup_battle()
    # A 30 cm line with friends 1.5 cm behind it: turning side-on would overlap them.
    data["units"][0].update(models=12, files=12)
    data["units"].append(k_unit("behind", CRANE, 60, 84, facing=270, models=4, files=4))
    session = load_scenario(data).resolution().session()
    while not (isinstance(session.pending, Choice)
               and session.pending.key.startswith("regroup_facing")):
        assert session.pending is not None
        session.answer((4,) if isinstance(session.pending, Roll) else session.pending.default)
    with pytest.raises(AnswerError, match="no room to turn"):
        session.answer(0)
    session.answer(272)  # nearly as it stands: fine
    assert session.battle.states["samurai"].facing == 272.0


def test_odds_labels_are_exact_fractions_in_json():
    data = bundled(BUNDLED[0])
    session = run(data.start(), seeded(3))
    for step in session.steps:
        for outcome in step.to_json().get("odds", []):
            assert Fraction(outcome["chance"]) >= 0
