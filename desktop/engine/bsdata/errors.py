"""What can go wrong with BattleScribe data and rosters, one class per kind.

Every message is one line for a player: the file (or the roster element) and what is wrong
with it. Text repeated from a file goes through `quoted`, so it stays short and printable.
"""

from __future__ import annotations

from desktop.engine.errors import RuleError


class DataError(ValueError):
    """A game system, catalogue or roster file that cannot be read: not XML, not
    BattleScribe's, unsafe (entities, a zip bomb), or holding values that mean nothing."""


class RosterActionError(RuleError):
    """A roster action that cannot be carried out: an unknown force or selection, an entry
    that cannot be selected there."""
