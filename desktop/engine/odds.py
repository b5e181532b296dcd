"""Exact chances of the tests and contests the rules roll for. Never sampled.

Every function returns a `Fraction`; the callers turn it into a percentage for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from desktop.engine.dice import D2D6, Dice
from desktop.engine.errors import DiceError, RuleError

ZERO = Fraction(0)
ONE = Fraction(1)
# A unit has four sides; more pursuers than this is a typing slip. Each adds ~16 digits to
# the exact chance's denominator (12d20), and past 4,300 Python will not print it.
MAX_PURSUERS = 12


def chance_total_above(dice: Dice, threshold: int) -> Fraction:
    """Chance that the dice total is strictly greater than `threshold`."""
    return ONE - dice.cdf(threshold)


def chance_total_at_most(dice: Dice, threshold: int) -> Fraction:
    return dice.cdf(threshold)


def break_test_fails(
    leadership: int,
    difference: int,
    dice: Dice = D2D6,
    *,
    stubborn: bool = False,
    unbreakable: bool = False,
    double_one_holds: bool = False,
) -> Fraction:
    """Chance that a unit breaks: dice + difference > Ld (W6-BT-2, W6-BT-4).

    Stubborn tests on unmodified Ld, so the difference is not added. With the "double 1 always
    holds" option the all-ones roll holds whatever the total.
    """
    if difference < 0:
        raise RuleError(f"a score difference cannot be negative (got {difference})")
    if unbreakable:
        return ZERO
    modifier = 0 if stubborn else difference
    breaking = dice.outcomes - dice.ways_at_most(leadership - modifier)
    if double_one_holds and dice.count == 2 and dice.minimum + modifier > leadership:
        breaking -= 1  # the one roll of all ones holds
    return Fraction(breaking, dice.outcomes)


def attribute_test_fails(target: int, dice: Dice = D2D6, *, rerolls: int = 0) -> Fraction:
    """Chance of failing "roll `dice`, pass on a total <= target", re-rolling failures.

    This is the shape of Panic (W6-PT-2), Rally (W6-RA-1), Restraint (W6-PU-2) and, by
    default, Kensei's Honor test (K-HT-1, a Ronin re-roll being one re-roll).
    """
    fail_once = chance_total_above(dice, target)
    return fail_once ** (1 + rerolls)


def caught(flee: Dice, pursuers: Sequence[Dice], *, ties_caught: bool = True) -> Fraction:
    """Chance that a flee roll is beaten by the highest of the pursuit rolls.

    With `ties_caught` a pursuer that equals the flee roll catches it (W6-PU-1, BP-5).
    The highest pursuit is below a value v only if every pursuit is, so the chance of
    escaping a flee total f is the product of the pursuers' chances of rolling below f.
    """
    if not pursuers:
        return ZERO
    all_pursuits = 1
    for pursuit in pursuers:
        all_pursuits *= pursuit.outcomes
    caught_rolls = 0
    for flee_total, flee_ways in flee.ways().items():
        below = flee_total - 1 if ties_caught else flee_total
        escaping = 1
        for pursuit in pursuers:
            escaping *= pursuit.ways_at_most(below)
        caught_rolls += flee_ways * (all_pursuits - escaping)
    return Fraction(caught_rolls, flee.outcomes * all_pursuits)


def check_pursuers(count: int) -> None:
    """How many pursuers a player may ask about (the odds window, `rout odds catch`)."""
    if count < 1:
        raise DiceError("give the dice of at least one pursuer (e.g. 2D6 3D6)")
    if count > MAX_PURSUERS:
        raise DiceError(f"{count} pursuers is more than one unit can have (at most "
                        f"{MAX_PURSUERS})")


def catches(pursuit: Dice, flee_total: int, *, ties_caught: bool = True) -> Fraction:
    """Chance that one pursuer catches a flee roll already known."""
    return ONE - pursuit.cdf(flee_total - 1 if ties_caught else flee_total)


def percent(chance: Fraction) -> str:
    """A chance as people read it: `41.7%`, `<0.1%`, `100%`."""
    if chance == ONE:
        return "100%"
    if chance == ZERO:
        return "0%"
    value = float(chance) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"
