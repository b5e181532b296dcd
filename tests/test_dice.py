"""Dice expressions, their exact distributions and the rollers (desktop.engine.dice).

Expected distributions are either counted by hand in the test or enumerated here with
itertools.product over the faces; never taken from the module under test.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop.engine.dice import (
    D2D6,
    D2D10,
    D3D6,
    D3D10,
    D6,
    D10,
    MAX_DICE,
    MAX_MODIFIER,
    SUPPORTED_SIDES,
    Dice,
    ScriptedRoller,
    SeededRoller,
    parse_faces,
)
from desktop.engine.errors import DiceError, DiceExhaustedError, RuleError


def enumerate_pmf(count: int, sides: int, modifier: int = 0) -> dict[int, Fraction]:
    """Chance of every total, by listing every way the dice can land."""
    ways = Counter(sum(faces) + modifier for faces in product(range(1, sides + 1), repeat=count))
    outcomes = sides**count
    return {total: Fraction(n, outcomes) for total, n in ways.items()}


# ---------------------------------------------------------------------------------------------
# Parsing and printing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("D6", Dice(1, 6)),
        ("2D6", Dice(2, 6)),
        ("3D6", Dice(3, 6)),
        ("d10", Dice(1, 10)),
        ("2d10", Dice(2, 10)),
        ("3d10", Dice(3, 10)),
        ("2D6+1", Dice(2, 6, 1)),
        ("d10-2", Dice(1, 10, -2)),
        ("1D6", Dice(1, 6)),
        ("12D6", Dice(MAX_DICE, 6)),
        ("d20", Dice(1, 20)),
        ("4d8-0", Dice(4, 8)),
    ],
)
def test_parse_reads_count_sides_and_modifier(text, expected):
    dice = Dice.parse(text)
    assert dice == expected
    assert (dice.count, dice.sides, dice.modifier) == (
        expected.count,
        expected.sides,
        expected.modifier,
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2d6", Dice(2, 6)),
        ("d6", Dice(1, 6)),
        ("D10", Dice(1, 10)),
        ("3D10", Dice(3, 10)),
        ("  2D6  ", Dice(2, 6)),
        ("\t3d6\n", Dice(3, 6)),
        ("2 D 6", Dice(2, 6)),
        ("2D6 + 1", Dice(2, 6, 1)),
        (" d10 - 2 ", Dice(1, 10, -2)),
        ("2d6+1", Dice(2, 6, 1)),
    ],
)
def test_parse_accepts_whitespace_and_either_case(text, expected):
    assert Dice.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("D6", "D6"),
        ("1D6", "D6"),
        ("2D6", "2D6"),
        ("2d6", "2D6"),
        ("3D6", "3D6"),
        ("d10", "d10"),
        ("D10", "d10"),
        ("2d10", "2d10"),
        ("3D10", "3d10"),
        ("2D6+1", "2D6+1"),
        ("2D6 + 1", "2D6+1"),
        ("d10-2", "d10-2"),
        ("2D6+0", "2D6"),
        ("2d20-5", "2d20-5"),
    ],
)
def test_str_writes_the_usual_spelling_and_parses_back(text, printed):
    dice = Dice.parse(text)
    assert str(dice) == printed
    assert Dice.parse(str(dice)) == dice


@given(
    count=st.integers(1, MAX_DICE),
    sides=st.sampled_from(SUPPORTED_SIDES),
    modifier=st.integers(-20, 20),
)
def test_str_round_trips_for_any_dice(count, sides, modifier):
    dice = Dice(count, sides, modifier)
    assert Dice.parse(str(dice)) == dice


def test_named_dice_are_the_usual_rolls():
    named = [D6, D2D6, D3D6, D10, D2D10, D3D10]
    assert named == [Dice(1, 6), Dice(2, 6), Dice(3, 6), Dice(1, 10), Dice(2, 10), Dice(3, 10)]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("2D7", "7 sides"),
        ("0D6", "0 dice"),
        ("D", "'D'"),
        ("abc", "abc"),
        ("13D6", "13 dice"),
        ("", "2D6"),
        ("2D6+", "2D6+"),
        ("2D6*2", "2D6*2"),
        ("-1D6", "-1D6"),
        ("D6D6", "D6D6"),
        ("2.5D6", "2.5D6"),
        ("2D0", "0 sides"),
        ("2D1", "1 sides"),
    ],
)
def test_bad_expression_raises_dice_error_naming_it(text, named):
    with pytest.raises(DiceError) as caught:
        Dice.parse(text)
    assert named in str(caught.value)


def test_unsupported_die_message_lists_the_dice_that_work():
    with pytest.raises(DiceError, match=r"d6.*d10") as caught:
        Dice.parse("2D7")
    assert "7 sides" in str(caught.value)


def test_too_many_dice_message_gives_the_range():
    with pytest.raises(DiceError) as caught:
        Dice.parse("13D6")
    assert "13" in str(caught.value)
    assert str(MAX_DICE) in str(caught.value)


@pytest.mark.parametrize(("text", "named"), [
    ("9" * 5000 + "D6", "more dice than"),
    ("2D" + "9" * 5000, "not supported"),
    ("2D6+" + "9" * 5000, "modifier"),
    ("2D6-" + "9" * 5000, "modifier"),
    (f"2D6+{MAX_MODIFIER + 1}", str(MAX_MODIFIER)),
    (f"2D6-{MAX_MODIFIER + 1}", str(MAX_MODIFIER)),
])
def test_numbers_past_any_die_are_refused_before_python_reads_them(text, named):
    """A count or modifier of thousands of digits is refused by the dice, not by int()."""
    with pytest.raises(DiceError, match=named) as caught:
        Dice.parse(text)
    assert len(str(caught.value)) < 200


def test_the_largest_modifier_is_read():
    assert Dice.parse(f"2D6+{MAX_MODIFIER}").maximum == 12 + MAX_MODIFIER
    assert Dice(1, 6, -MAX_MODIFIER).minimum == 1 - MAX_MODIFIER


@pytest.mark.parametrize("text", ["9" * 5000, "1," + "9" * 100, "-" + "9" * 5000])
def test_typed_faces_past_any_die_are_refused_as_faces(text):
    with pytest.raises(DiceError, match="not a die face") as caught:
        parse_faces(text)
    assert len(str(caught.value)) < 200


def test_dice_error_is_a_rule_error():
    # Callers catch RuleError for every kind of bad input.
    with pytest.raises(RuleError):
        Dice(2, 7)


@pytest.mark.parametrize(
    ("dice", "faces", "named"),
    [
        (D6, [7], ("7", "d6")),
        (D2D6, [6, 7], ("7", "d6")),
        (D2D6, [0, 3], ("0", "d6")),
        (D10, [0], ("0", "d10")),
        (D2D10, [11, 1], ("11", "d10")),
        (D3D6, [1, 2, -1], ("-1", "d6")),
    ],
)
def test_face_the_die_does_not_have_is_refused(dice, faces, named):
    with pytest.raises(DiceError) as caught:
        dice.check_faces(faces)
    message = str(caught.value)
    for part in named:
        assert part in message


@pytest.mark.parametrize(
    ("dice", "faces", "named"),
    [
        (D2D6, [3], ("2D6", "2 dice", "got 1")),
        (D2D6, [3, 4, 5], ("2D6", "got 3")),
        (D3D6, [], ("3D6", "got 0", "none")),
        (D6, [1, 2], ("D6", "1 die", "got 2")),
        (D2D10, [10], ("2d10", "got 1")),
    ],
)
def test_wrong_number_of_dice_is_refused(dice, faces, named):
    with pytest.raises(DiceError) as caught:
        dice.check_faces(faces)
    message = str(caught.value)
    for part in named:
        assert part in message


@pytest.mark.parametrize("face", ["6", 2.0, True, None])
def test_face_that_is_not_a_whole_number_is_refused(face):
    with pytest.raises(DiceError):
        D6.check_faces([face])


def test_check_faces_returns_the_faces_as_a_tuple():
    assert D3D6.check_faces([6, 1, 4]) == (6, 1, 4)
    assert D10.check_faces(iter([10])) == (10,)


def test_total_adds_faces_and_modifier():
    assert D2D6.total([6, 1]) == 7
    assert Dice(2, 6, 1).total([6, 6]) == 13
    assert Dice(1, 10, -2).total([1]) == -1
    with pytest.raises(DiceError):
        D2D6.total([6, 7])


# ---------------------------------------------------------------------------------------------
# Exact distributions


@pytest.mark.parametrize(
    ("dice", "total", "chance"),
    [
        (D6, 1, Fraction(1, 6)),
        (D6, 6, Fraction(1, 6)),
        (D2D6, 2, Fraction(1, 36)),
        (D2D6, 7, Fraction(6, 36)),
        (D2D6, 12, Fraction(1, 36)),
        (D2D6, 8, Fraction(5, 36)),
        (D3D6, 3, Fraction(1, 216)),
        (D3D6, 10, Fraction(27, 216)),
        (D3D6, 11, Fraction(27, 216)),
        (D3D6, 18, Fraction(1, 216)),
        (D10, 10, Fraction(1, 10)),
        (D2D10, 11, Fraction(10, 100)),
        (D2D10, 2, Fraction(1, 100)),
        (D2D10, 20, Fraction(1, 100)),
        # 3d10 = 16: C(15, 2) - 3 * C(5, 2) = 105 - 30 = 75 ways.
        (D3D10, 16, Fraction(75, 1000)),
        (Dice(2, 6, 1), 8, Fraction(6, 36)),
        (Dice(1, 10, -2), -1, Fraction(1, 10)),
    ],
)
def test_pmf_matches_hand_counted_chances(dice, total, chance):
    value = dice.pmf()[total]
    assert isinstance(value, Fraction)
    assert value == chance


@pytest.mark.parametrize(
    "dice", [D6, D2D6, D3D6, D10, D2D10, D3D10, Dice(2, 6, 1), Dice(1, 10, -2)]
)
def test_pmf_matches_enumeration(dice):
    assert dict(dice.pmf()) == enumerate_pmf(dice.count, dice.sides, dice.modifier)


@pytest.mark.parametrize(
    ("dice", "low", "high"),
    [
        (D6, 1, 6),
        (D2D6, 2, 12),
        (D3D6, 3, 18),
        (D10, 1, 10),
        (D2D10, 2, 20),
        (D3D10, 3, 30),
        (Dice(2, 6, 1), 3, 13),
        (Dice(1, 10, -2), -1, 8),
    ],
)
def test_minimum_and_maximum(dice, low, high):
    assert (dice.minimum, dice.maximum) == (low, high)


@pytest.mark.parametrize(
    ("dice", "total", "chance"),
    [
        (D2D6, 7, Fraction(21, 36)),
        (D2D6, 6, Fraction(15, 36)),
        (D2D6, 2, Fraction(1, 36)),
        (D2D6, 1, Fraction(0)),
        (D2D6, -10, Fraction(0)),
        (D2D6, 12, Fraction(1)),
        (D2D6, 40, Fraction(1)),
        (D3D6, 10, Fraction(108, 216)),
        (D10, 4, Fraction(4, 10)),
        (D2D10, 11, Fraction(55, 100)),
        (Dice(2, 6, 1), 8, Fraction(21, 36)),
        (Dice(1, 10, -2), 0, Fraction(2, 10)),
        (Dice(1, 10, -2), -2, Fraction(0)),
    ],
)
def test_cdf_is_chance_of_at_most(dice, total, chance):
    assert dice.cdf(total) == chance


@pytest.mark.parametrize("dice", [D6, D2D6, D3D6, D2D10, Dice(2, 6, -3)])
def test_cdf_matches_enumeration_at_every_total(dice):
    pmf = enumerate_pmf(dice.count, dice.sides, dice.modifier)
    for total in range(dice.minimum - 3, dice.maximum + 4):
        expected = sum((p for t, p in pmf.items() if t <= total), Fraction(0))
        assert dice.cdf(total) == expected, total


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 5),
    sides=st.sampled_from(SUPPORTED_SIDES),
    modifier=st.integers(-5, 5),
)
def test_every_pmf_sums_to_one_over_minimum_to_maximum(count, sides, modifier):
    dice = Dice(count, sides, modifier)
    pmf = dice.pmf()
    assert sum(pmf.values(), Fraction(0)) == 1
    assert sorted(pmf) == list(range(dice.minimum, dice.maximum + 1))
    assert all(isinstance(p, Fraction) and p > 0 for p in pmf.values())
    assert dice.minimum == count + modifier
    assert dice.maximum == count * sides + modifier
    assert dice.cdf(dice.maximum) == 1
    assert dice.cdf(dice.minimum - 1) == 0


# ---------------------------------------------------------------------------------------------
# Rollers


def test_seeded_roller_repeats_for_the_same_seed():
    rolls = [D2D6, D3D6, D6, D2D10, D3D10] * 4
    first = SeededRoller(1234)
    second = SeededRoller(1234)
    a = [first.roll(dice, "roll") for dice in rolls]
    b = [second.roll(dice, "roll") for dice in rolls]
    assert a == b
    assert [len(faces) for faces in a] == [dice.count for dice in rolls]


def test_seeded_roller_differs_for_another_seed():
    one, two = SeededRoller(1), SeededRoller(2)
    assert [one.roll(D3D6, "r") for _ in range(20)] != [two.roll(D3D6, "r") for _ in range(20)]


@given(seed=st.integers(0, 2**32), sides=st.sampled_from(SUPPORTED_SIDES), count=st.integers(1, 6))
def test_seeded_faces_are_always_on_the_die(seed, sides, count):
    dice = Dice(count, sides)
    roller = SeededRoller(seed)
    for _ in range(5):
        faces = roller.roll(dice, "roll")
        assert isinstance(faces, tuple)
        assert len(faces) == count
        assert all(1 <= face <= sides for face in faces)


@pytest.mark.parametrize("sides", SUPPORTED_SIDES)
def test_seeded_roller_reaches_every_face(sides):
    roller = SeededRoller(7)
    seen = set()
    for _ in range(100):
        seen.update(roller.roll(Dice(MAX_DICE, sides), "roll"))
    assert seen == set(range(1, sides + 1))


def test_scripted_roller_hands_out_faces_in_order():
    roller = ScriptedRoller([6, 1, 4, 2, 3, 5])
    assert roller.roll(D2D6, "break test") == (6, 1)
    assert roller.roll(D6, "one die") == (4,)
    assert roller.roll(D3D6, "flee") == (2, 3, 5)
    assert roller.used == 6


def test_scripted_roller_runs_out_naming_the_roll():
    roller = ScriptedRoller([6, 1])
    roller.roll(D2D6, "Elves break test")
    with pytest.raises(DiceExhaustedError) as caught:
        roller.roll(D2D6, "Goblins flee roll")
    message = str(caught.value)
    assert "Goblins flee roll" in message
    assert "2D6" in message


def test_scripted_roller_short_of_dice_names_the_roll_and_what_is_left():
    roller = ScriptedRoller([4])
    with pytest.raises(DiceExhaustedError) as caught:
        roller.roll(D3D6, "pursuit by Knights")
    message = str(caught.value)
    assert "pursuit by Knights" in message
    assert "3D6" in message
    assert "1 left" in message


def test_scripted_roller_with_no_faces_and_no_fallback_errors():
    with pytest.raises(DiceExhaustedError, match="first roll"):
        ScriptedRoller([]).roll(D6, "first roll")


def test_scripted_roller_hands_over_to_then_when_out():
    roller = ScriptedRoller([5, 5], then=SeededRoller(99))
    reference = SeededRoller(99)
    assert roller.roll(D2D6, "scripted") == (5, 5)
    assert roller.roll(D3D6, "seeded") == reference.roll(D3D6, "seeded")
    assert roller.roll(D2D10, "seeded again") == reference.roll(D2D10, "seeded again")
    assert roller.used == 2


def test_scripted_roller_hands_over_to_another_script():
    roller = ScriptedRoller([1], then=ScriptedRoller([2, 3]))
    assert roller.roll(D6, "a") == (1,)
    assert roller.roll(D2D6, "b") == (2, 3)
    with pytest.raises(DiceExhaustedError, match="c"):
        roller.roll(D6, "c")


@pytest.mark.parametrize(
    ("dice", "faces", "named"),
    [
        (D2D6, [7, 1], ("7", "d6")),
        (D6, [0], ("0", "d6")),
        (D10, [0], ("0", "d10")),
        (D2D10, [3, 12], ("12", "d10")),
    ],
)
def test_scripted_roller_rejects_faces_not_on_the_die(dice, faces, named):
    roller = ScriptedRoller(faces)
    with pytest.raises(DiceError) as caught:
        roller.roll(dice, "typed roll")
    assert not isinstance(caught.value, DiceExhaustedError)
    for part in named:
        assert part in str(caught.value)


def test_scripted_roller_takes_a_copy_of_its_faces():
    faces = [3, 4]
    roller = ScriptedRoller(faces)
    faces[:] = [6, 6]
    assert roller.roll(D2D6, "r") == (3, 4)


# ---------------------------------------------------------------------------------------------
# Faces typed by a player


@pytest.mark.parametrize(
    ("text", "faces"),
    [
        ("6,1,4", [6, 1, 4]),
        ("6 1 4", [6, 1, 4]),
        (" 6, 1 ,4 ", [6, 1, 4]),
        ("6,\t1\n4", [6, 1, 4]),
        ("10", [10]),
        ("3,3", [3, 3]),
    ],
)
def test_parse_faces_reads_commas_and_spaces(text, faces):
    assert parse_faces(text) == faces


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("6,x,4", "x"),
        ("six", "six"),
        ("6.5", "6.5"),
        ("6;1", "6;1"),
        ("2D6", "2D6"),
    ],
)
def test_parse_faces_refuses_what_is_not_a_face(text, bad):
    with pytest.raises(DiceError) as caught:
        parse_faces(text)
    assert f"'{bad}'" in str(caught.value)


def test_parsed_faces_feed_the_checks():
    faces = parse_faces("6, 7")
    with pytest.raises(DiceError, match="7"):
        D2D6.check_faces(faces)
    assert D2D6.total(parse_faces("6 1")) == 7
