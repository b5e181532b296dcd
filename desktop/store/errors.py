"""Exceptions the store raises, one class per kind of trouble.

Each message is for a player: it names the file or database and what is wrong with it. The
CLI prints it on one line (exit status 2); the GUI shows it in a dialog.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class: the database or a file cannot be used as asked. Nothing was changed."""


class BadFileError(StoreError):
    """An import file that is unreadable, malformed, hostile or too large."""


class DatabaseError(StoreError):
    """The database cannot be opened or used."""


class CorruptDatabaseError(DatabaseError):
    """The file is not a SQLite database, or a damaged one."""


class NotRoutDatabaseError(DatabaseError):
    """A healthy database that holds someone else's tables."""


class NewerDatabaseError(DatabaseError):
    """The schema was written by a newer Rout; this one must not touch it."""


class ReadOnlyDatabaseError(DatabaseError):
    """A change asked of a database Rout may only read (a read-only file or folder)."""


class LockedDatabaseError(DatabaseError):
    """Another program holds the database and did not let go in time."""


class NotFoundError(StoreError):
    """No army or battle by that id or name."""


class AlreadyExistsError(StoreError):
    """Something with that id is already in the database (restoring a battle twice)."""


class ConflictError(StoreError):
    """Someone else saved or deleted the army (or library) since this copy of it was read:
    a whole-army save would drop their change, so nothing was written."""
