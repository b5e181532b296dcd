"""The database tables. Rows stay inside the store: callers get engine dataclasses.

Profiles, notes and events are JSON documents written by `desktop.engine.codec`, so a
profile reads the same from a file and from the database, and one ruleset's statistics do
not need columns of their own. A schema change here needs an Alembic migration
(`desktop/store/migrations`); `tests/test_store_database.py` fails until it has one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
)
from sqlmodel import Field, SQLModel

__all__ = ["ArmyRosterRow", "ArmyRow", "BattleEventRow", "BattleRow", "GameDataRow",
           "LibraryEntryRow", "LibraryRow", "PendingResolutionRow", "RosterEntryRow", "SQLModel"]

# Stable constraint names: SQLite migrations rebuild tables by name (render_as_batch).
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def _json() -> Any:
    return Field(sa_column=Column(JSON, nullable=False))


def _moment() -> Any:
    return Field(sa_column=Column(DateTime(), nullable=False))


class ArmyRow(SQLModel, table=True):
    __tablename__ = "army"

    id: str = Field(sa_column=Column(String(32), primary_key=True))
    name: str = Field(sa_column=Column(String(200), nullable=False, index=True))
    player: str = Field(sa_column=Column(String(200), nullable=False))
    ruleset: str = Field(sa_column=Column(String(40), nullable=False))
    points_limit: int
    notes: list[str] = _json()
    # Kept with the army so that listing a thousand armies reads one table.
    points: int
    unit_count: int
    model_count: int
    created: datetime = _moment()
    updated: datetime = _moment()
    # Revision 0004: the id of the library's army list ("" when none is chosen).
    army_list: str = Field(sa_column=Column(String(100), nullable=False))
    # Revision 0006: saves so far. A save names the version it started from and is refused
    # when the stored one moved on (someone else saved meanwhile).
    version: int


class ArmyRosterRow(SQLModel, table=True):
    """The BattleScribe roster behind an army built from game data (revision 0009): at
    most one per army, written in the same transaction as the army.

    `roster` is the roster document (desktop.engine.bsdata.document: entry ids, counts,
    costs, categories); `units` pairs each unit id with the root selection it came from;
    `problems` are the catalogue's limits the army breaks, as last checked, so that the
    armies can be shown (and marked) without reading any game data."""

    __tablename__ = "army_roster"
    __table_args__ = (Index("ix_army_roster_catalogue", "game_system_id", "catalogue_id"),)

    army_id: str = Field(sa_column=Column(String(32), ForeignKey("army.id", ondelete="CASCADE"),
                                          primary_key=True))
    game_system_id: str = Field(sa_column=Column(String(100), nullable=False))
    game_system_name: str = Field(sa_column=Column(String(300), nullable=False))
    catalogue_id: str = Field(sa_column=Column(String(100), nullable=False))
    catalogue_name: str = Field(sa_column=Column(String(300), nullable=False))
    catalogue_revision: int = Field(sa_column=Column(Integer, nullable=False))
    roster: dict[str, Any] = _json()
    units: list[Any] = _json()
    problems: list[Any] = _json()


class RosterEntryRow(SQLModel, table=True):
    __tablename__ = "roster_entry"

    army_id: str = Field(sa_column=Column(String(32), ForeignKey("army.id", ondelete="CASCADE"),
                                          primary_key=True))
    position: int = Field(primary_key=True)
    unit_id: str = Field(sa_column=Column(String(100), nullable=False))
    name: str = Field(sa_column=Column(String(200), nullable=False))
    profile: dict[str, Any] = _json()
    models: int
    files: int
    upgrades: list[str] = _json()
    character_wounds: int
    points: int
    slot: str = Field(sa_column=Column(String(100), nullable=False))
    notes: list[str] = _json()
    # Revision 0004: how the points follow the models. An imported unit's roster price
    # (NULL per model: none, the library prices it), and points the player typed.
    price_per_model: float | None = Field(default=None,
                                          sa_column=Column(Float, nullable=True))
    price_upgrades: int = 0
    points_typed: bool = Field(default=False, sa_column=Column(Boolean, nullable=False))


class LibraryEntryRow(SQLModel, table=True):
    __tablename__ = "library_entry"

    ruleset: str = Field(sa_column=Column(String(40), primary_key=True))
    position: int = Field(primary_key=True)
    profile: dict[str, Any] = _json()
    points_per_model: int
    slot: str = Field(sa_column=Column(String(100), nullable=False))
    models: int  # a new unit's size
    upgrade_costs: dict[str, int] = _json()  # revision 0002
    # Revision 0004: the army lists that take it ([] for any) and its limit, as
    # codec.entry_limit_to_json writes it (null for none).
    lists: list[str] = _json()
    entry_limit: dict[str, Any] | None = Field(sa_column=Column(JSON, nullable=True))


class LibraryRow(SQLModel, table=True):
    """What a library holds besides its entries (revision 0004), one row per ruleset:
    its army lists and the ruleset's composition, as the codec writes them."""

    __tablename__ = "library"

    ruleset: str = Field(sa_column=Column(String(40), primary_key=True))
    army_lists: list[dict[str, Any]] = _json()
    composition: dict[str, Any] = _json()
    version: int  # revision 0006, as ArmyRow.version


class BattleRow(SQLModel, table=True):
    __tablename__ = "battle"

    id: str = Field(sa_column=Column(String(32), primary_key=True))
    title: str = Field(sa_column=Column(String(200), nullable=False))
    ruleset: str = Field(sa_column=Column(String(40), nullable=False))
    # The battle before its first event, as codec.battle_to_json writes it.
    start: dict[str, Any] = _json()
    created: datetime = _moment()
    # Revision 0007: steps saved and taken off so far. A step names the version it was made
    # on and is refused when the stored one moved on (another window stepped meanwhile).
    version: int


class BattleEventRow(SQLModel, table=True):
    """Append-only: rows are inserted, never updated; one step commits all its rows."""

    __tablename__ = "battle_event"
    __table_args__ = (Index("ix_battle_event_step", "battle_id", "step"),)

    battle_id: str = Field(sa_column=Column(String(32),
                                            ForeignKey("battle.id", ondelete="CASCADE"),
                                            primary_key=True))
    sequence: int = Field(primary_key=True)
    step: int
    kind: str = Field(sa_column=Column(String(60), nullable=False))
    data: dict[str, Any] = _json()


class PendingResolutionRow(SQLModel, table=True):
    """A resolution begun and not finished (revision 0003): at most one per battle.

    Rewritten whole after every answer, so a wizard closed or killed half-way can carry on:
    replaying `answers` against the procedure rebuilds exactly where it stopped.
    """

    __tablename__ = "pending_resolution"

    battle_id: str = Field(sa_column=Column(String(32),
                                            ForeignKey("battle.id", ondelete="CASCADE"),
                                            primary_key=True))
    procedure: str = Field(sa_column=Column(String(80), nullable=False))
    # The scenario's "resolve" mapping (without "procedure"), as the ruleset parses it.
    procedure_input: dict[str, Any] = _json()
    answers: list[Any] = _json()  # desktop.engine.answers.answers_to_json
    title: str = Field(sa_column=Column(String(200), nullable=False))
    updated: datetime = _moment()
    # Revision 0007: the window answering it ('' for none: a CLI's, or an older Rout's).
    owner: str = Field(sa_column=Column(String(32), nullable=False))


class GameDataRow(SQLModel, table=True):
    """A game system or catalogue in BattleScribe's format (revision 0008), one row per
    file: its bytes as the player gave them and what Rout read from them.

    Ids are unique within one game system only (two data sets of one game reuse each
    other's catalogue ids), so a file is keyed by its game system and its own id."""

    __tablename__ = "game_data"

    game_system_id: str = Field(sa_column=Column(String(100), primary_key=True))
    file_id: str = Field(sa_column=Column(String(100), primary_key=True))
    kind: str = Field(sa_column=Column(String(20), nullable=False))  # gameSystem, catalogue
    name: str = Field(sa_column=Column(String(300), nullable=False, index=True))
    revision: int = Field(sa_column=Column(Integer, nullable=False))
    library: bool = Field(sa_column=Column(Boolean, nullable=False))
    file_name: str = Field(sa_column=Column(String(300), nullable=False))
    sha256: str = Field(sa_column=Column(String(64), nullable=False, index=True))
    size: int = Field(sa_column=Column(Integer, nullable=False))
    content: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    # What Rout read: counts, the imports, the problems it left out (one line each).
    summary: dict[str, Any] = _json()
    stored: datetime = _moment()
