"""Dice expressions, their exact distributions, and the rollers that produce faces.

A roll is always recorded as its individual faces, never only as a total: rules such as
"double 1 always holds" look at the faces, and a player typing in the dice they rolled by hand
types faces.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Protocol

from desktop.engine.errors import DiceError, DiceExhaustedError, quoted

# The dice rank-and-flank games use; anything else is far more likely a typo than a real die.
SUPPORTED_SIDES = (3, 6, 8, 10, 12, 20)
MAX_DICE = 12
# A table is a few feet across: a fixed bonus past this is a typo, and it keeps every total
# (and every message that prints one) short.
MAX_MODIFIER = 100
# Longer numbers are refused as text, before int() reads them (Python refuses 4,300 digits).
_MAX_DIGITS = 6

_EXPRESSION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")

Pmf = Mapping[int, Fraction]


@dataclass(frozen=True, order=True)
class Dice:
    """`count` dice with `sides` faces each, plus a fixed `modifier` on the total."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.sides not in SUPPORTED_SIDES:
            raise DiceError(
                f"a die with {self.sides} sides is not supported "
                f"(use one of {', '.join(f'd{s}' for s in SUPPORTED_SIDES)})"
            )
        if not 1 <= self.count <= MAX_DICE:
            raise DiceError(f"{self.count} dice is not a roll Rout can take (1 to {MAX_DICE})")
        if not -MAX_MODIFIER <= self.modifier <= MAX_MODIFIER:
            raise DiceError(f"a modifier of {self.modifier:+d} is not one Rout can take "
                            f"(-{MAX_MODIFIER} to +{MAX_MODIFIER})")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read `D6`, `2D6`, `3d10`, `2D6+1`, `d10-2` (case of the `d` does not matter)."""
        match = _EXPRESSION.match(text)
        if match is None:
            raise DiceError(f"{quoted(text)} is not a dice expression (write it like 2D6, 3d10 "
                            "or 2D6+1)")
        count_text, sides_text, sign, amount = match.groups()
        if len(count_text) > _MAX_DIGITS:
            raise DiceError(f"{quoted(text)} has more dice than Rout can take (1 to "
                            f"{MAX_DICE})")
        if len(sides_text) > _MAX_DIGITS:
            raise DiceError(f"{quoted(text)}: a die with that many sides is not supported "
                            f"(use one of {', '.join(f'd{s}' for s in SUPPORTED_SIDES)})")
        if amount and len(amount) > _MAX_DIGITS:
            raise DiceError(f"{quoted(text)}: the modifier is not one Rout can take "
                            f"(-{MAX_MODIFIER} to +{MAX_MODIFIER})")
        count = int(count_text) if count_text else 1
        modifier = int(amount) if amount else 0
        return cls(count, int(sides_text), -modifier if sign == "-" else modifier)

    def __str__(self) -> str:
        # D6 games write a capital D and d10 games a small one; keep to what players read.
        letter = "D" if self.sides == 6 else "d"
        text = f"{self.count if self.count > 1 else ''}{letter}{self.sides}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.modifier

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.modifier

    @property
    def outcomes(self) -> int:
        """How many equally likely rolls there are: sides to the power of count."""
        return int(self.sides**self.count)

    def ways(self) -> Mapping[int, int]:
        """How many of the equally likely rolls give each total."""
        return _ways(self.count, self.sides, self.modifier)

    def ways_at_most(self, total: int) -> int:
        """How many rolls give a total of `total` or less."""
        if total < self.minimum:
            return 0
        if total >= self.maximum:
            return self.outcomes
        return _cumulative_ways(self.count, self.sides, self.modifier)[total - self.minimum]

    def pmf(self) -> Pmf:
        """Exact chance of every total."""
        return _pmf(self.count, self.sides, self.modifier)

    def cdf(self, total: int) -> Fraction:
        """Chance that the total is at most `total`."""
        return Fraction(self.ways_at_most(total), self.outcomes)

    def check_faces(self, faces: Sequence[int]) -> tuple[int, ...]:
        """The faces as a tuple, or a DiceError naming what is wrong with them."""
        faces = tuple(faces)
        if len(faces) != self.count:
            raise DiceError(
                f"{self} needs {self.count} {'die' if self.count == 1 else 'dice'}, "
                f"got {len(faces)}: {_listed(faces)}"
            )
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int):
                raise DiceError(f"{quoted(face)} is not a die face")
            if not 1 <= face <= self.sides:
                raise DiceError(f"{face} is not a face of a d{self.sides} (1 to {self.sides})")
        return faces

    def typical_faces(self) -> tuple[int, ...]:
        """Faces whose total is the middle of the range (rounded down), spread evenly.

        What a preview rolls when nobody has: 2D6 gives (3, 4), D6 gives (3,).
        """
        spare = (self.count * (self.sides + 1)) // 2 - self.count
        base, extra = divmod(spare, self.count)
        return tuple(1 + base + (1 if index >= self.count - extra else 0)
                     for index in range(self.count))

    def total(self, faces: Sequence[int]) -> int:
        return sum(self.check_faces(faces)) + self.modifier


# Counting rolls in integers and dividing once is far cheaper than adding Fractions.
@cache
def _ways(count: int, sides: int, modifier: int) -> Mapping[int, int]:
    ways = [1]  # ways[k]: rolls whose faces sum to k + the dice counted so far
    for _ in range(count):
        widened = [0] * (len(ways) + sides - 1)
        for offset, number in enumerate(ways):
            for face in range(sides):
                widened[offset + face] += number
        ways = widened
    return {count + modifier + offset: number for offset, number in enumerate(ways)}


@cache
def _cumulative_ways(count: int, sides: int, modifier: int) -> tuple[int, ...]:
    running, table = 0, []
    for number in _ways(count, sides, modifier).values():
        running += number
        table.append(running)
    return tuple(table)


@cache
def _pmf(count: int, sides: int, modifier: int) -> Pmf:
    outcomes = sides**count
    return {total: Fraction(number, outcomes)
            for total, number in _ways(count, sides, modifier).items()}


def _listed(faces: Sequence[object]) -> str:
    """Faces for a message: a few, not a pasted megabyte of them."""
    shown = ", ".join(quoted(face, 8) if not isinstance(face, int) else str(face)
                      for face in faces[:MAX_DICE])
    return (shown + (", …" if len(faces) > MAX_DICE else "")) or "none"


def parse_faces(text: str) -> list[int]:
    """Faces typed by a player: `6,1,4` or `6 1 4`."""
    parts = [part for part in re.split(r"[\s,]+", text.strip()) if part]
    faces = []
    for part in parts:
        if not re.fullmatch(rf"-?\d{{1,{_MAX_DIGITS}}}", part):
            raise DiceError(f"{quoted(part)} is not a die face (faces are whole numbers like "
                            "6,1,4)")
        faces.append(int(part))
    return faces


class Roller(Protocol):
    """Produces the faces for one roll of `dice`; `label` says which roll, for messages."""

    def roll(self, dice: Dice, label: str) -> tuple[int, ...]: ...


class SeededRoller:
    """Random faces, repeatable for a given seed."""

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def roll(self, dice: Dice, label: str) -> tuple[int, ...]:
        return tuple(self._random.randint(1, dice.sides) for _ in range(dice.count))


class TypicalRoller:
    """Rolls the middle of the dice every time: what a preview assumes nobody has rolled."""

    def roll(self, dice: Dice, label: str) -> tuple[int, ...]:
        return dice.typical_faces()


class ScriptedRoller:
    """Faces given in advance, one face per die in the order the rolls are asked for.

    When the script runs out it hands over to `then` if given (a seeded roller, say), which
    also completes a roll the script covers only in part; without `then` it raises
    DiceExhaustedError naming the roll that was left without dice.
    """

    def __init__(self, faces: Iterable[int], then: Roller | None = None) -> None:
        self._faces: Iterator[int] = iter(list(faces))
        self._then = then
        self.used = 0

    def roll(self, dice: Dice, label: str) -> tuple[int, ...]:
        taken: list[int] = []
        for face in self._faces:
            taken.append(face)
            if len(taken) == dice.count:
                break
        for face in taken:
            if isinstance(face, bool) or not isinstance(face, int) or not (
                    1 <= face <= dice.sides):
                raise DiceError(f"{face} is not a face of a d{dice.sides} (1 to {dice.sides}), "
                                f"given for {label}")
        if len(taken) < dice.count:
            if self._then is not None:
                # The rest of a roll typed in part comes from the fallback roller.
                self.used += len(taken)
                missing = Dice(dice.count - len(taken), dice.sides)
                return (*taken, *self._then.roll(missing, label))
            raise DiceExhaustedError(
                f"the scripted dice ran out at {label}: it needs {dice.count} "
                f"{'die' if dice.count == 1 else 'dice'} ({dice}), {len(taken)} left"
            )
        self.used += dice.count
        return dice.check_faces(taken)


D6 = Dice(1, 6)
D2D6 = Dice(2, 6)
D3D6 = Dice(3, 6)
D10 = Dice(1, 10)
D2D10 = Dice(2, 10)
D3D10 = Dice(3, 10)
