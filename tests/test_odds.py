"""Exact odds of the tests and contests (desktop.engine.odds) against brute force.

Every expected chance here is counted independently of the engine: itertools.product over
the faces of the dice, integer counts of outcomes, one Fraction at the end. Nothing here
calls Dice.pmf/cdf or the odds module to produce an expected value.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine import odds
from desktop.engine.dice import D2D6, D2D10, D3D6, D3D10, D6, D10, Dice
from desktop.engine.errors import RuleError

# ---------------------------------------------------------------------------------------------
# Brute force, written without the engine's distributions


def all_rolls(dice: Dice):
    """Every way the dice can land, each equally likely."""
    return product(range(1, dice.sides + 1), repeat=dice.count)


def outcomes(dice: Dice) -> int:
    return dice.sides**dice.count


@cache
def total_ways(dice: Dice) -> tuple[tuple[int, int], ...]:
    """(total, number of face combinations giving it), counted face by face."""
    ways = Counter(sum(faces) + dice.modifier for faces in all_rolls(dice))
    return tuple(sorted(ways.items()))


def enumerate_break(
    leadership: int,
    difference: int,
    dice: Dice,
    *,
    stubborn: bool = False,
    unbreakable: bool = False,
    double_one_holds: bool = False,
) -> Fraction:
    """W6-BT-2 / W6-BT-4 counted roll by roll."""
    if unbreakable:
        return Fraction(0)
    broken = 0
    for faces in all_rolls(dice):
        if double_one_holds and all(face == 1 for face in faces):
            continue  # the all-ones roll holds whatever the total
        score = sum(faces) + dice.modifier + (0 if stubborn else difference)
        if score > leadership:  # greater than Ld breaks; equal holds
            broken += 1
    return Fraction(broken, outcomes(dice))


def enumerate_attribute_fail(target: int, dice: Dice, rerolls: int = 0) -> Fraction:
    """Fail "total <= target", re-rolling failures: fails only if every attempt fails."""
    attempts = 1 + rerolls
    failed = 0
    every = 0
    for rolls in product(list(all_rolls(dice)), repeat=attempts):
        every += 1
        if all(sum(faces) + dice.modifier > target for faces in rolls):
            failed += 1
    return Fraction(failed, every)


@cache
def highest_pursuit_ways(pursuers: tuple[Dice, ...]) -> tuple[tuple[int, int], ...]:
    """Distribution (as counts) of the highest total among the pursuers.

    Enumerates every combination of the pursuers' totals (each total weighted by the number
    of face combinations giving it), which is the same as listing every face of every die.
    """
    highest: Counter[int] = Counter()
    for combo in product(*(total_ways(p) for p in pursuers)):
        top = max(total for total, _ in combo)
        highest[top] += prod(ways for _, ways in combo)
    return tuple(sorted(highest.items()))


def enumerate_caught(flee: Dice, pursuers: tuple[Dice, ...], ties_caught: bool = True) -> Fraction:
    caught = 0
    for flee_total, flee_ways in total_ways(flee):
        for top, top_ways in highest_pursuit_ways(pursuers):
            if top > flee_total or (ties_caught and top == flee_total):
                caught += flee_ways * top_ways
    return Fraction(caught, outcomes(flee) * prod(outcomes(p) for p in pursuers))


def enumerate_caught_face_by_face(flee: Dice, pursuers: tuple[Dice, ...]) -> Fraction:
    """The plainest form, every face of every die at once (only for small rolls)."""
    caught = every = 0
    for flee_faces in all_rolls(flee):
        for pursuit_faces in product(*(list(all_rolls(p)) for p in pursuers)):
            every += 1
            rolled = zip(pursuit_faces, pursuers, strict=True)
            highest = max(sum(faces) + p.modifier for faces, p in rolled)
            if highest >= sum(flee_faces) + flee.modifier:
                caught += 1
    return Fraction(caught, every)


def test_brute_force_helpers_count_known_values():
    # Guard the helpers themselves with hand-counted numbers.
    assert dict(total_ways(D2D6))[7] == 6
    assert dict(total_ways(D3D6))[10] == 27
    assert enumerate_break(7, 0, D2D6) == Fraction(15, 36)
    assert enumerate_caught(D6, (D6,)) == Fraction(21, 36)
    assert enumerate_caught(D6, (D6,), ties_caught=False) == Fraction(15, 36)


# ---------------------------------------------------------------------------------------------
# Break tests (W6-BT-2, W6-BT-3, W6-BT-4)

LEADERSHIPS = range(1, 11)
DIFFERENCES = range(0, 9)
BREAK_DICE = [pytest.param(D2D6, id="2D6"), pytest.param(D3D6, id="3D6")]


@pytest.mark.parametrize("dice", BREAK_DICE)
@pytest.mark.parametrize("difference", DIFFERENCES)
@pytest.mark.parametrize("leadership", LEADERSHIPS)
def test_w6_bt_2_break_odds_match_enumeration(leadership, difference, dice):
    chance = odds.break_test_fails(leadership, difference, dice)
    assert isinstance(chance, Fraction)
    assert chance == enumerate_break(leadership, difference, dice)


def test_w6_bt_2_break_test_uses_2d6_by_default():
    for leadership in LEADERSHIPS:
        assert odds.break_test_fails(leadership, 2) == enumerate_break(leadership, 2, D2D6)


@pytest.mark.parametrize(
    ("leadership", "difference", "chance"),
    [
        (7, 0, Fraction(15, 36)),  # 8..12 break: 5+4+3+2+1; a 7 equals Ld and holds
        (12, 0, Fraction(0)),  # 12 is not greater than 12
        (11, 0, Fraction(1, 36)),  # only double six
        (10, 2, Fraction(10, 36)),  # total + 2 > 10 means 9..12: 4+3+2+1
        (8, 6, Fraction(35, 36)),  # total + 6 > 8 means 3+; only double one (2 + 6 = 8) holds
        (9, 8, Fraction(1)),  # total + 8 > 9 means 2+: even double one breaks
        (1, 0, Fraction(1)),  # every 2D6 total is above 1
    ],
)
def test_w6_bt_2_equal_holds_greater_breaks(leadership, difference, chance):
    assert odds.break_test_fails(leadership, difference, D2D6) == chance


def test_w6_bt_3_worked_example_odds():
    # Goblins: 3 wounds + 3 extra ranks + 1 outnumber = 7; Elves 4; difference 3; Elves Ld 8.
    difference = (3 + 3 + 1) - 4
    # The Elves break on any 2D6 total above 8 - 3 = 5: 36 - (1 + 2 + 3 + 4) = 26 rolls.
    assert odds.break_test_fails(8, difference) == Fraction(26, 36)
    # (The text's roll of 7 breaking is a procedure test; this module only gives the odds.)
    assert enumerate_break(8, difference, D2D6) == Fraction(26, 36)


@pytest.mark.parametrize("dice", BREAK_DICE)
@pytest.mark.parametrize("leadership", LEADERSHIPS)
def test_w6_bt_4_stubborn_ignores_the_difference(leadership, dice):
    unmodified = enumerate_break(leadership, 0, dice)
    for difference in DIFFERENCES:
        chance = odds.break_test_fails(leadership, difference, dice, stubborn=True)
        assert chance == unmodified, difference
        assert chance == enumerate_break(leadership, difference, dice, stubborn=True)


@pytest.mark.parametrize("dice", BREAK_DICE)
def test_w6_bt_4_unbreakable_never_breaks(dice):
    for leadership, difference in product(range(0, 11), range(0, 20)):
        assert odds.break_test_fails(leadership, difference, dice, unbreakable=True) == 0
        assert (
            odds.break_test_fails(
                leadership, difference, dice, unbreakable=True, stubborn=True, double_one_holds=True
            )
            == 0
        )


@pytest.mark.parametrize("difference", DIFFERENCES)
@pytest.mark.parametrize("leadership", LEADERSHIPS)
def test_w6_bt_4_double_one_holds(leadership, difference):
    chance = odds.break_test_fails(leadership, difference, D2D6, double_one_holds=True)
    assert chance == enumerate_break(leadership, difference, D2D6, double_one_holds=True)


@pytest.mark.parametrize("leadership", LEADERSHIPS)
def test_w6_bt_4_double_one_holds_when_stubborn(leadership):
    for difference in DIFFERENCES:
        chance = odds.break_test_fails(
            leadership, difference, D2D6, stubborn=True, double_one_holds=True
        )
        assert chance == enumerate_break(
            leadership, difference, D2D6, stubborn=True, double_one_holds=True
        )


def test_w6_bt_4_double_one_option_is_off_by_default():
    # Ld 5, difference 8: every roll breaks, the all-ones roll included (2 + 8 = 10 > 5) ...
    assert odds.break_test_fails(5, 8) == 1
    # ... unless the option is on, when double one holds.
    assert odds.break_test_fails(5, 8, double_one_holds=True) == Fraction(35, 36)
    # When double one would hold anyway the option changes nothing.
    assert odds.break_test_fails(9, 0, double_one_holds=True) == odds.break_test_fails(9, 0)


@pytest.mark.parametrize("difference", [-1, -3])
def test_w6_bt_2_negative_difference_is_refused(difference):
    with pytest.raises(RuleError, match=str(difference)):
        odds.break_test_fails(8, difference)


@settings(max_examples=80, deadline=None)
@given(
    leadership=st.integers(-2, 20),
    difference=st.integers(0, 12),
    dice=st.sampled_from([D2D6, D3D6, Dice(2, 6, 1), Dice(2, 6, -1), D2D10]),
    stubborn=st.booleans(),
    unbreakable=st.booleans(),
    double_one=st.booleans(),
)
def test_w6_bt_2_break_odds_match_enumeration_property(
    leadership, difference, dice, stubborn, unbreakable, double_one
):
    double_one = double_one and dice.count == 2  # "double 1" is a two-dice rule
    flags = {"stubborn": stubborn, "unbreakable": unbreakable, "double_one_holds": double_one}
    chance = odds.break_test_fails(leadership, difference, dice, **flags)
    assert chance == enumerate_break(leadership, difference, dice, **flags)
    assert 0 <= chance <= 1


# ---------------------------------------------------------------------------------------------
# Attribute tests: Panic, Rally, Restraint, Honor (W6-PT-2, W6-RA-1, W6-PU-2, K-HT-1)


@pytest.mark.parametrize("leadership", range(0, 14))
def test_w6_pt_2_panic_odds(leadership):
    # Panic, Rally (W6-RA-1) and Restraint (W6-PU-2): 2D6, pass on a total <= Ld.
    chance = odds.attribute_test_fails(leadership, D2D6)
    assert isinstance(chance, Fraction)
    assert chance == enumerate_attribute_fail(leadership, D2D6)
    assert odds.attribute_test_fails(leadership) == chance  # 2D6 is the default


@pytest.mark.parametrize(
    ("leadership", "chance"),
    [(7, Fraction(15, 36)), (2, Fraction(35, 36)), (12, Fraction(0)), (1, Fraction(1))],
)
def test_w6_pt_2_panic_pass_on_equal(leadership, chance):
    assert odds.attribute_test_fails(leadership, D2D6) == chance


@pytest.mark.parametrize("honor", range(0, 12))
def test_k_ht_1_honor_test_odds(honor):
    assert odds.attribute_test_fails(honor, D10) == enumerate_attribute_fail(honor, D10)
    assert odds.attribute_test_fails(honor, D10) == Fraction(10 - min(max(honor, 0), 10), 10)


@pytest.mark.parametrize("honor", range(0, 12))
def test_k_ht_1_ronin_reroll_squares_failure(honor):
    once = odds.attribute_test_fails(honor, D10)
    twice = odds.attribute_test_fails(honor, D10, rerolls=1)
    assert twice == once**2
    assert twice == enumerate_attribute_fail(honor, D10, rerolls=1)


@pytest.mark.parametrize("leadership", [4, 7, 9])
def test_w6_pt_2_rerolls_with_2d6_match_enumeration(leadership):
    assert odds.attribute_test_fails(leadership, D2D6, rerolls=1) == enumerate_attribute_fail(
        leadership, D2D6, rerolls=1
    )


def test_k_ht_1_two_rerolls_match_enumeration():
    for honor in range(0, 11):
        assert odds.attribute_test_fails(honor, D10, rerolls=2) == enumerate_attribute_fail(
            honor, D10, rerolls=2
        )


# ---------------------------------------------------------------------------------------------
# Pursuit (W6-PU-1, BP-5, K-RA-7)

PURSUIT_KINDS = (D2D6, D3D6, D6, D2D10)
PURSUER_MIXES = [
    pytest.param(mix, id="+".join(map(str, mix)))
    for size in (1, 2, 3)
    for mix in combinations_with_replacement(PURSUIT_KINDS, size)
]
FLEE_DICE = [pytest.param(D2D6, id="flee2D6"), pytest.param(D3D6, id="flee3D6")]


@pytest.mark.parametrize("ties_caught", [True, False], ids=["ties-caught", "ties-escape"])
@pytest.mark.parametrize("pursuers", PURSUER_MIXES)
@pytest.mark.parametrize("flee", FLEE_DICE)
def test_w6_pu_1_caught_matches_enumeration(flee, pursuers, ties_caught):
    chance = odds.caught(flee, list(pursuers), ties_caught=ties_caught)
    assert isinstance(chance, Fraction)
    assert chance == enumerate_caught(flee, pursuers, ties_caught)


@pytest.mark.parametrize(
    ("flee", "pursuers"),
    [
        (D2D6, (D2D6,)),
        (D2D6, (D2D6, D6)),
        (D3D6, (D6, D6)),
        (D2D6, (D6, D6, D6)),
    ],
)
def test_w6_pu_1_caught_matches_face_by_face_enumeration(flee, pursuers):
    assert odds.caught(flee, list(pursuers)) == enumerate_caught_face_by_face(flee, pursuers)


def test_w6_pu_1_one_pursuer_hand_counted():
    # 2D6 against 2D6: a tie has chance (1+4+9+16+25+36+25+16+9+4+1)/1296 = 146/1296, and
    # by symmetry the rest splits evenly between higher and lower.
    assert odds.caught(D2D6, [D2D6]) == Fraction(1296 + 146, 2 * 1296)
    assert odds.caught(D2D6, [D2D6], ties_caught=False) == Fraction(1296 - 146, 2 * 1296)


def test_bp_5_ties_are_caught_by_default():
    for flee in (D2D6, D3D6):
        for pursuers in ([D2D6], [D3D6, D2D6]):
            assert odds.caught(flee, pursuers) == odds.caught(flee, pursuers, ties_caught=True)
            assert odds.caught(flee, pursuers) > odds.caught(flee, pursuers, ties_caught=False)


def test_k_ra_7_chase_with_the_same_dice():
    for dice in (D2D10, D3D10):
        assert odds.caught(dice, [dice]) == enumerate_caught(dice, (dice,))


@pytest.mark.parametrize("ties_caught", [True, False])
@pytest.mark.parametrize("flee", [D6, D2D6, D3D6, D2D10])
def test_w6_pu_1_no_pursuers_never_catch(flee, ties_caught):
    assert odds.caught(flee, [], ties_caught=ties_caught) == 0


def test_w6_pu_1_pursuer_order_does_not_matter():
    mix = [D6, D3D6, D2D10]
    expected = odds.caught(D2D6, mix)
    for order in ([D3D6, D6, D2D10], [D2D10, D3D6, D6]):
        assert odds.caught(D2D6, order) == expected


@settings(max_examples=25, deadline=None)
@given(
    flee=st.sampled_from([D6, D2D6, D3D6, D2D10, D3D10, Dice(2, 6, 1)]),
    pursuers=st.lists(
        st.sampled_from([D6, D2D6, D3D6, D2D10, Dice(2, 6, 1), Dice(3, 6, -1)]),
        min_size=1,
        max_size=3,
    ),
    ties_caught=st.booleans(),
)
def test_w6_pu_1_caught_matches_enumeration_property(flee, pursuers, ties_caught):
    chance = odds.caught(flee, pursuers, ties_caught=ties_caught)
    assert chance == enumerate_caught(flee, tuple(pursuers), ties_caught)
    assert 0 <= chance <= 1


@pytest.mark.parametrize("ties_caught", [True, False])
@pytest.mark.parametrize("pursuit", [D6, D2D6, D3D6, D2D10, D3D10])
def test_w6_pu_1_catches_a_known_flee_roll(pursuit, ties_caught):
    for flee_total in range(pursuit.minimum - 2, pursuit.maximum + 3):
        reached = sum(
            1
            for faces in all_rolls(pursuit)
            if sum(faces) > flee_total or (ties_caught and sum(faces) == flee_total)
        )
        expected = Fraction(reached, outcomes(pursuit))
        assert odds.catches(pursuit, flee_total, ties_caught=ties_caught) == expected, flee_total


def test_w6_pu_1_catches_hand_counted():
    assert odds.catches(D2D6, 7) == Fraction(21, 36)  # 7..12: 6+5+4+3+2+1
    assert odds.catches(D2D6, 7, ties_caught=False) == Fraction(15, 36)
    assert odds.catches(D3D6, 3) == 1
    assert odds.catches(D3D6, 19) == 0


# ---------------------------------------------------------------------------------------------
# Plain totals


@pytest.mark.parametrize("dice", [D2D6, D3D6, D10, Dice(2, 6, 1)])
def test_chance_total_above_and_at_most_match_enumeration(dice):
    for threshold in range(dice.minimum - 2, dice.maximum + 3):
        above = sum(1 for faces in all_rolls(dice) if sum(faces) + dice.modifier > threshold)
        assert odds.chance_total_above(dice, threshold) == Fraction(above, outcomes(dice))
        assert odds.chance_total_at_most(dice, threshold) == Fraction(
            outcomes(dice) - above, outcomes(dice)
        )


# ---------------------------------------------------------------------------------------------
# Percentages for people


@pytest.mark.parametrize(
    ("chance", "text"),
    [
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(5, 12), "41.7%"),
        (Fraction(1, 2), "50.0%"),
        (Fraction(26, 36), "72.2%"),
        (Fraction(1, 36), "2.8%"),
        (Fraction(1, 10_000), "<0.1%"),
        (Fraction(1, 46656), "<0.1%"),
        (Fraction(9_999, 10_000), ">99.9%"),
        (Fraction(2, 1000), "0.2%"),
    ],
)
def test_percent_formats_for_people(chance, text):
    assert odds.percent(chance) == text
