"""Exceptions the engine raises, one class per kind of bad input.

Every message is meant for a player: it names the thing that is wrong and, where it helps,
what would be right. Callers (CLI, GUI, store) show the message as it is. Whatever a message
repeats from a file or from what a player typed goes through `quoted`: a message must stay one
short line even when the input holds line breaks, terminal escape sequences or megabytes.
"""

from __future__ import annotations

QUOTED_LENGTH = 80


def quoted(text: object, limit: int = QUOTED_LENGTH) -> str:
    """Input repeated in a message: Python's repr (a line break shows as \\n, an escape
    sequence as \\x1b, never acting on the terminal), cut to about `limit` characters."""
    if not isinstance(text, str):
        text = str(text)
    # repr of a prefix only: a ten-megabyte argument is never copied whole.
    shown = repr(text[:limit])
    quote, body = shown[0], shown[1:-1]
    if len(text) > limit or len(body) > limit:
        body = body[:limit - 1] + "…"
    return f"{quote}{body}{quote}"


def printable(text: str) -> str:
    """`text` with every character a terminal would act on (a line break, an escape
    sequence, a bell) written as its Python escape, as `quoted` shows them."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def one_line(message: str, limit: int = 500) -> str:
    """A message as one line of printable text, however it was built: the last guard
    before a terminal (what a library or the operating system said is not quoted)."""
    shown = printable(message[:limit])
    return shown if len(shown) <= limit and len(message) <= limit else shown[:limit - 1] + "…"


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
