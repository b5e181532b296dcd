"""Exceptions the engine raises, one class per kind of bad input.

Every message is meant for a player: it names the thing that is wrong and, where it helps,
what would be right. Callers (CLI, GUI, store) show the message as it is.
"""

from __future__ import annotations


class RuleError(ValueError):
    """Base class: the input cannot be played under the rules."""


class DiceError(RuleError):
    """A dice expression or a set of rolled faces that the dice cannot produce."""


class DiceExhaustedError(DiceError):
    """A scripted roller was asked for more dice than it was given."""


class StatError(RuleError):
    """A profile statistic outside the range a ruleset allows, or a missing one."""


class ScenarioError(RuleError):
    """A battle description that is malformed or refers to things that do not exist."""


class AnswerError(RuleError):
    """An answer to a request that the request does not accept."""


class MoveRefused(RuleError):
    """A player's move (deploy, move, wheel, reform, charge, terrain) the table does not allow.

    The message names what is in the way: the table edge, a unit, a piece of terrain.
    """
