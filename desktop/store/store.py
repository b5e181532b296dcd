"""The store: one object per open database, one short connection per action.

Callers hand in and get back engine dataclasses (`Army`, `Battle`, `Event`, ...); ORM rows
never leave this module. Every method is one transaction: it is all written or none of it.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import (
    Connection,
    Engine,
    String,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)

from desktop.engine.answers import answers_from_json, answers_to_json
from desktop.engine.codec import (
    army_lists_from_json,
    army_lists_to_json,
    battle_from_json,
    battle_to_json,
    check_army,
    check_readable,
    composition_from_json,
    composition_to_json,
    entry_limit_from_json,
    entry_limit_to_json,
    profile_from_json,
    profile_from_stored,
    profile_to_json,
)
from desktop.engine.composition import Library
from desktop.engine.errors import RuleError, ScenarioError, quoted
from desktop.engine.model import (
    Army,
    ArmyBook,
    Battle,
    BookProblem,
    LibraryEntry,
    RosterPrice,
    Unit,
)
from desktop.engine.reading import Reader
from desktop.engine.rulesets import get_ruleset
from desktop.lazy import lazy_module
from desktop.store.database import (
    create_database_engine,
    default_database_url,
    describe,
    prepare,
    sqlite_path,
    translate_errors,
)
from desktop.store.errors import (
    AlreadyExistsError,
    ConflictError,
    CorruptDatabaseError,
    DatabaseError,
    LockedDatabaseError,
    NotFoundError,
    ReadOnlyDatabaseError,
)
from desktop.store.files import load_json
from desktop.store.read_only import open_read_only, read_only_reason

# Queries go through SQLAlchemy Core on the tables (rows become engine dataclasses at once,
# so the ORM's identity map and unit of work would add only cost). schema.py is generated
# from the sqlmodel declarations in tables.py, so reading needs no sqlmodel, pydantic or ORM.
from desktop.store.schema import (
    ARMIES,
    ARMY_ROSTERS,
    BATTLES,
    EVENTS,
    LIBRARY,
    LIBRARY_HEAD,
    PENDING,
    ROSTER,
)
from desktop.store.sqlite_file import READ_ATTEMPTS, READ_RETRY_PAUSE, ImmutableConnection

# Loaded on first use (desktop.lazy): battles' events, with the first battle read (reading
# armies needs none).
if TYPE_CHECKING:
    import desktop.engine.events as engine_events
else:
    engine_events = lazy_module("desktop.engine.events")

if TYPE_CHECKING:
    # Battles' events and answers load with the first battle: reading armies needs neither.
    from desktop.engine.events import Event
    from desktop.engine.procedure import Answer


@dataclass(frozen=True)
class ArmySummary:
    """What a list of armies shows, without loading their rosters."""

    id: str
    name: str
    player: str
    ruleset: str
    points: int
    points_limit: int
    units: int
    models: int
    updated: datetime
    army_list: str = ""


@dataclass(frozen=True)
class BattleSummary:
    id: str
    title: str
    ruleset: str
    steps: int
    events: int
    created: datetime
    units: int = 0  # units in the battle's roster (on the table or not)
    version: int = 0  # Store.append_step: changes with every step saved or taken off


@dataclass(frozen=True)
class SavedBattle:
    """A battle as saved: how it started and every event since, step by step."""

    id: str
    title: str
    start: Battle
    steps: tuple[tuple[Event, ...], ...]
    created: datetime | None = None  # kept so that restoring a deleted battle keeps its place
    # One more with every step saved or taken off: a step made on this version is refused
    # once the stored battle has moved on (Store.append_step).
    version: int = 1

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(event for step in self.steps for event in step)

    @property
    def state(self) -> Battle:
        """The battle now: its start with every event applied (DESIGN: state = fold)."""

        return engine_events.fold(self.start, self.events)


@dataclass(frozen=True)
class PendingResolution:
    """A resolution begun and not finished: replaying `answers` in order on the ruleset's
    `procedure` with `procedure_input` brings it back to where it stopped."""

    battle_id: str
    procedure: str
    procedure_input: dict[str, Any]
    answers: tuple[Answer, ...]
    title: str
    updated: datetime
    owner: str = ""  # the window answering it (Store.save_pending); "" for nobody's


class _ChangedWhileRead(Exception):
    """A read without SQLite's locks met another program's write (Store._reading)."""


EVENT_BATCH = 10_000  # event rows written in one statement when a battle is imported
_P = ParamSpec("_P")
_R = TypeVar("_R")


def _read_again_if_changed(read: Callable[Concatenate[Store, _P], _R]
                           ) -> Callable[Concatenate[Store, _P], _R]:
    """A read that met another program's write is done again (a few times, then the player
    is asked to try again): never a mix of two versions, never a false "damaged"."""

    @functools.wraps(read)
    def again(store: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        for attempt in range(READ_ATTEMPTS):
            try:
                return read(store, *args, **kwargs)
            except _ChangedWhileRead:
                time.sleep(min(READ_RETRY_PAUSE, 0.02 * 2 ** attempt))
        raise LockedDatabaseError(f"{store.describe()} kept changing while Rout read it "
                                  "(another program is writing it); try again")

    return again


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def _new_id() -> str:
    # 128 random bits in hex, as uuid4().hex gave them (without importing uuid at start-up).
    return os.urandom(16).hex()


class Store:
    def __init__(self, engine: Engine, *, url: str | None = None, read_only: str = "",
                 copy_folder: Path | None = None) -> None:
        """`read_only`: why the database may only be read ('' when it may be changed);
        `copy_folder`: a private copy the engine reads, deleted on close."""
        self.engine = engine
        self.url = url or engine.url.render_as_string(hide_password=False)
        self.read_only_reason = read_only
        self._copy_folder = copy_folder
        # Writers take the lock up front: a step waits its turn rather than failing halfway.
        self._writer = engine.execution_options(sqlite_begin="BEGIN IMMEDIATE")
        # A read of an army and its roster must see one version of both; SQLite's read
        # transactions already do, PostgreSQL's default (read committed) does not.
        self._reader = (engine.execution_options(isolation_level="REPEATABLE READ")
                        if engine.dialect.name == "postgresql" else engine)

    @classmethod
    def open(cls, url: str | None = None, *, busy_timeout: float = 5.0,
             version_locations: Sequence[Path] = ()) -> Store:
        """Open (and create or migrate) a database; the default is the user's SQLite file.

        `version_locations` adds folders of Alembic revisions (tests use it to migrate past
        the shipped head).
        """
        chosen = url or default_database_url()
        engine = create_database_engine(chosen, busy_timeout)  # a bad URL is named first
        path = sqlite_path(chosen)
        reason = read_only_reason(path) if path is not None else ""
        if path is not None and reason:
            engine.dispose()
            opened = open_read_only(path, reason, busy_timeout, tuple(version_locations))
            return cls(opened.engine, url=chosen, read_only=opened.reason,
                       copy_folder=opened.copy_folder)
        try:
            prepare(engine, version_locations, busy_timeout)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine)

    @classmethod
    def open_read_only(cls, url: str, reason: str, *, busy_timeout: float = 5.0) -> Store:
        """A SQLite database Rout could write, opened to be read only, `reason` saying why
        (another program kept it locked): nothing is ever written through it."""
        path = sqlite_path(url)
        if path is None:
            raise DatabaseError(f"{describe(url)}: only a SQLite file is opened read-only")
        opened = open_read_only(path, reason, busy_timeout)
        return cls(opened.engine, url=url, read_only=opened.reason,
                   copy_folder=opened.copy_folder)

    @property
    def read_only(self) -> bool:
        return bool(self.read_only_reason)

    @property
    def shown_from_copy(self) -> bool:
        """A read-only database from an older Rout, read from a private up-to-date copy."""
        return self._copy_folder is not None

    def close(self) -> None:
        self.engine.dispose()
        if self._copy_folder is not None:
            shutil.rmtree(self._copy_folder, ignore_errors=True)
            self._copy_folder = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def describe(self) -> str:
        return describe(self.url)

    # One short transaction per action, on a plain connection (see ARMIES above).

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        try:
            with translate_errors(self.url), self._reader.connect() as connection:
                try:
                    yield connection
                except Exception:
                    self._trust_unlocked_read(connection)
                    raise
                self._trust_unlocked_read(connection)
        except (ValueError, TypeError) as error:  # a JSON column edited into nonsense
            raise CorruptDatabaseError(f"{self.describe()}: a row cannot be read "
                                       f"({error})") from None

    def _trust_unlocked_read(self, connection: Connection) -> None:
        """A read without SQLite's locks (desktop.store.read_only) counts only if the file
        did not change meanwhile: its answer, or its error, may mix two versions."""
        raw = connection.connection.dbapi_connection
        if isinstance(raw, ImmutableConnection) and raw.changed_since_open():
            raise _ChangedWhileRead from None

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        if self.read_only:
            raise ReadOnlyDatabaseError(f"{self.describe()} can only be read "
                                        f"({self.read_only_reason}): copy it where you may "
                                        "write to change it; nothing was changed")
        with translate_errors(self.url), self._writer.begin() as connection:
            yield connection

    # The same transactions for the store's modules that query tables of their own
    # (desktop.store.gamedata): `work` gets the connection.

    @_read_again_if_changed
    def read(self, work: Callable[[Connection], _R]) -> _R:
        """What `work` reads in one short read transaction; done again, like every read
        here, when it met another program's write (so `work` only reads)."""
        with self._reading() as connection:
            return work(connection)

    def write(self, work: Callable[[Connection], _R]) -> _R:
        """`work` in one write transaction: all of it is written, or (it raised) none."""
        with self._writing() as connection:
            return work(connection)

    # Armies

    @_read_again_if_changed
    def list_armies(self) -> list[ArmySummary]:
        """Every army, by ruleset and then name; names compare with Unicode case folding,
        which SQL's lower() does not do on SQLite."""
        columns = (ARMIES.c.id, ARMIES.c.name, ARMIES.c.player, ARMIES.c.ruleset,
                   ARMIES.c.points, ARMIES.c.points_limit, ARMIES.c.unit_count,
                   ARMIES.c.model_count, ARMIES.c.updated, ARMIES.c.army_list)
        with self._reading() as connection:
            rows = connection.execute(select(*columns)).all()
        summaries = [ArmySummary(row.id, row.name, row.player, row.ruleset, row.points,
                                 row.points_limit, row.unit_count, row.model_count,
                                 row.updated, row.army_list) for row in rows]
        summaries.sort(key=lambda s: (s.ruleset, s.name.casefold(), s.id))
        return summaries

    def save_army(self, army: Army) -> Army:
        """Insert or replace the army and its whole roster; returns it as saved, with its id
        and its new version.

        `army.version` is the stored version the edit started from (0: an army new to this
        database, under a new id or the id it had before it was deleted). A save from any
        other version than the stored one would drop what someone else saved meanwhile: it
        is refused with ConflictError and nothing is written; read the army again and redo
        the edit. (The check and the write are one UPDATE, so two savers of one version
        cannot both pass it, on SQLite or PostgreSQL.)

        ScenarioError, before anything is written, for an army past the limits every door
        applies (check_army): both databases then keep the same armies, and each of them
        exports and imports again.
        """
        get_ruleset(army.ruleset)
        check_army(army)
        saved = replace(army, id=army.id or _new_id(), version=army.version + 1)
        now = _now()
        values = {"name": saved.name, "player": saved.player, "ruleset": saved.ruleset,
                  "points_limit": saved.points_limit, "notes": list(saved.notes),
                  "points": saved.points, "unit_count": len(saved.units),
                  "model_count": saved.models, "updated": now, "army_list": saved.army_list,
                  "version": saved.version}
        with self._writing() as connection:
            if army.version:
                found = connection.execute(update(ARMIES).where(
                    ARMIES.c.id == saved.id, ARMIES.c.version == army.version).values(**values))
                if not found.rowcount:
                    raise self._army_conflict(connection, saved.id, army.name)
            else:
                if connection.execute(select(ARMIES.c.id).where(ARMIES.c.id == saved.id)
                                      ).first():
                    raise ConflictError(f"army {quoted(army.name)} is already in {self.describe()} "
                                        "(someone else saved it under this id); nothing was "
                                        "saved")
                connection.execute(insert(ARMIES).values(id=saved.id, created=now, **values))
            connection.execute(delete(ROSTER).where(ROSTER.c.army_id == saved.id))
            if saved.units:
                connection.execute(insert(ROSTER), [
                    _entry_row(saved.id, position, unit)
                    for position, unit in enumerate(saved.units)])
            connection.execute(delete(ARMY_ROSTERS).where(ARMY_ROSTERS.c.army_id == saved.id))
            if saved.book is not None:
                connection.execute(insert(ARMY_ROSTERS).values(_book_row(saved.id,
                                                                         saved.book)))
        return saved

    @_read_again_if_changed
    def load_army(self, army_id: str) -> Army:
        with self._reading() as connection:
            army = connection.execute(select(ARMIES).where(ARMIES.c.id == army_id)).one_or_none()
            if army is None:
                raise NotFoundError(f"no army with id {quoted(army_id)} in {self.describe()}")
            entries = connection.execute(
                select(ROSTER).where(ROSTER.c.army_id == army_id)
                .order_by(ROSTER.c.position)).all()
            book = connection.execute(select(ARMY_ROSTERS).where(
                ARMY_ROSTERS.c.army_id == army_id)).one_or_none()
        return _army(self.describe(), _army_header(army), entries, book)

    @_read_again_if_changed
    def load_armies(self) -> list[Army]:
        """Every army with its roster, in list_armies' order: one transaction and two
        queries, however many armies (what a window shows on opening a database)."""
        with self._reading() as connection:
            headers = connection.execute(select(ARMIES)).all()
            entries = connection.execute(
                select(ROSTER).order_by(ROSTER.c.army_id, ROSTER.c.position)).all()
            books = {row.army_id: row for row in connection.execute(select(ARMY_ROSTERS))}
        rosters: dict[str, list[Any]] = {}
        for entry in entries:
            rosters.setdefault(entry.army_id, []).append(entry)
        where = self.describe()
        armies = [_army(where, _army_header(header), rosters.get(header.id, ()),
                        books.get(header.id)) for header in headers]
        armies.sort(key=lambda army: (army.ruleset, army.name.casefold(), army.id))
        return armies

    def find_army(self, name_or_id: str) -> Army:
        """By id, else by name ignoring case (Unicode-aware); a name two armies share is
        refused."""
        return self.load_army(self._only(self.match_armies(name_or_id), name_or_id,
                                         "army", "armies"))

    def delete_army(self, army_id: str, version: int | None = None) -> None:
        """With `version` (the one the player saw), refused with ConflictError when someone
        else saved the army since: deleting it would drop their change unseen."""
        with self._writing() as connection:
            stored = connection.execute(select(ARMIES.c.name, ARMIES.c.version).where(
                ARMIES.c.id == army_id).with_for_update()).one_or_none()
            if stored is None:
                raise NotFoundError(f"no army with id {quoted(army_id)} in {self.describe()}")
            if version is not None and stored.version != version:
                raise ConflictError(f"army {quoted(stored.name)} was changed by someone else since "
                                    f"it was read (in {self.describe()}); nothing was deleted")
            connection.execute(delete(ROSTER).where(ROSTER.c.army_id == army_id))
            connection.execute(delete(ARMY_ROSTERS).where(ARMY_ROSTERS.c.army_id == army_id))
            connection.execute(delete(ARMIES).where(ARMIES.c.id == army_id))

    def _army_conflict(self, connection: Connection, army_id: str,
                       name: str) -> ConflictError:
        """Why a save from an older version found no army of that version."""
        found = connection.execute(select(ARMIES.c.id).where(ARMIES.c.id == army_id)).first()
        what = "changed" if found else "deleted"
        return ConflictError(f"army {quoted(name)} was {what} by someone else since it was "
                             f"read (in {self.describe()}); nothing was saved")

    # Unit libraries

    def save_library(self, library: Library) -> Library:
        """Replace a ruleset's library: entries, army lists and composition; returns it as
        saved, with its new version.

        As with armies, `library.version` is the version the change started from (0: none
        was stored) and a save from another version is refused with ConflictError.
        """
        get_ruleset(library.ruleset)
        ruleset = library.ruleset
        saved = replace(library, version=library.version + 1)
        head = {"army_lists": army_lists_to_json(library.army_lists),
                "composition": composition_to_json(library.composition),
                "version": saved.version}
        with self._writing() as connection:
            if library.version:
                found = connection.execute(update(LIBRARY_HEAD).where(
                    LIBRARY_HEAD.c.ruleset == ruleset,
                    LIBRARY_HEAD.c.version == library.version).values(**head)).rowcount
            else:
                found = not connection.execute(select(LIBRARY_HEAD.c.ruleset).where(
                    LIBRARY_HEAD.c.ruleset == ruleset)).first()
                if found:
                    connection.execute(insert(LIBRARY_HEAD).values(ruleset=ruleset, **head))
            if not found:
                raise ConflictError(f"the {ruleset} library was changed by someone else since "
                                    f"it was read (in {self.describe()}); nothing was saved")
            connection.execute(delete(LIBRARY).where(LIBRARY.c.ruleset == ruleset))
            if library.entries:
                connection.execute(insert(LIBRARY), [
                    {"ruleset": ruleset, "position": position,
                     "profile": profile_to_json(entry.profile),
                     "points_per_model": entry.points_per_model, "slot": entry.slot,
                     "models": entry.models, "upgrade_costs": dict(entry.upgrade_costs),
                     "lists": sorted(entry.lists),
                     "entry_limit": None if entry.limit is None
                     else entry_limit_to_json(entry.limit)}
                    for position, entry in enumerate(library.entries)])
        return saved

    @_read_again_if_changed
    def load_library(self, ruleset: str) -> Library:
        """A ruleset's library; one with no entries when none is stored."""
        rules = get_ruleset(ruleset)
        with self._reading() as connection:
            rows = connection.execute(
                select(LIBRARY.c.profile, LIBRARY.c.points_per_model, LIBRARY.c.slot,
                       LIBRARY.c.models, LIBRARY.c.upgrade_costs, LIBRARY.c.lists,
                       LIBRARY.c.entry_limit)
                .where(LIBRARY.c.ruleset == ruleset)
                .order_by(LIBRARY.c.position)).all()
            head = connection.execute(
                select(LIBRARY_HEAD.c.army_lists, LIBRARY_HEAD.c.composition,
                       LIBRARY_HEAD.c.version)
                .where(LIBRARY_HEAD.c.ruleset == ruleset)).one_or_none()
        with self._damage_reported("library"):
            entries = tuple(
                LibraryEntry(ruleset, profile_from_json(rules, Reader(profile)), points, slot,
                             models, {str(k): int(v) for k, v in costs.items()},
                             frozenset(map(str, lists)),
                             None if limit is None else entry_limit_from_json(Reader(limit)))
                for profile, points, slot, models, costs, lists, limit in rows)
            if head is None:
                return Library(ruleset, entries)
            return Library(ruleset, entries, army_lists_from_json(Reader(head.army_lists)),
                           composition_from_json(rules, Reader(head.composition)),
                           head.version)

    @_read_again_if_changed
    def library_rulesets(self) -> list[str]:
        """The rulesets that have a library stored (entries, or lists and composition)."""
        with self._reading() as connection:
            heads = connection.execute(select(LIBRARY_HEAD.c.ruleset)).scalars().all()
            entries = connection.execute(select(LIBRARY.c.ruleset).distinct()).scalars().all()
        return sorted({*heads, *entries})

    # Battles

    def create_battle(self, start: Battle, title: str = "") -> str:
        return self.import_battle(start, title)

    def import_battle(self, start: Battle, title: str = "",
                      steps: Sequence[Sequence[Event]] = ()) -> str:
        """A new battle with its steps so far, in one transaction; returns its id."""
        battle_id = _new_id()
        with self._writing() as connection:
            self._insert_battle(connection, battle_id, title, start, steps, _now())
        return battle_id

    def _insert_battle(self, connection: Connection, battle_id: str, title: str,
                       start: Battle, steps: Sequence[Sequence[Event]],
                       created: datetime, version: int = 1) -> None:
        title = title[:200]
        connection.execute(insert(BATTLES).values(
            id=battle_id, title=title, ruleset=start.ruleset,
            start=battle_to_json(start, title), created=created, version=version))
        # Written a batch at a time, in the one transaction: the rows of half a million
        # events at once held 300 MB more than the events themselves.
        events = ((number, event)
                  for number, step in enumerate((s for s in steps if s), start=1)
                  for event in step)
        for first in itertools.count(0, EVENT_BATCH):
            rows = [{"battle_id": battle_id, "sequence": first + index, "step": number,
                     "kind": type(event).__name__, "data": event.to_json()}
                    for index, (number, event) in enumerate(
                        itertools.islice(events, EVENT_BATCH))]
            if not rows:
                break
            connection.execute(insert(EVENTS), rows)

    def append_step(self, battle_id: str, events: Sequence[Event], *,
                    version: int | None = None) -> int:
        """Add one step's events in one transaction; returns the step's number (from 1).

        The rows are written together or not at all: a step is never half saved, even if
        the process is killed while writing it. `version` is the battle's version the step
        was made on (SavedBattle.version): when another window or program has saved or
        taken off a step since, the step may no longer fit the battle (a unit moved where
        it now stands, terrain placed on it), so it is refused with ConflictError and
        nothing is written. Saved, the battle is at `version + 1`.
        """
        with self._writing() as connection:
            self._step_battle(connection, battle_id, version, "saved")
            last_sequence, last_step = connection.execute(
                select(func.max(EVENTS.c.sequence), func.max(EVENTS.c.step))
                .where(EVENTS.c.battle_id == battle_id)).one()
            step = (last_step or 0) + 1
            first = 0 if last_sequence is None else last_sequence + 1
            if events:
                connection.execute(insert(EVENTS), [
                    {"battle_id": battle_id, "sequence": first + index, "step": step,
                     "kind": type(event).__name__, "data": event.to_json()}
                    for index, event in enumerate(events)])
        return step

    def _step_battle(self, connection: Connection, battle_id: str, version: int | None,
                     verb: str) -> None:
        """One more version of the battle, from `version` when it is given: NotFoundError
        when there is no such battle, ConflictError when it is at another version. The
        check and the count are one UPDATE, which also holds the battle's row until the
        transaction ends (two writers of one battle take turns, on SQLite and PostgreSQL)."""
        query = update(BATTLES).where(BATTLES.c.id == battle_id)
        if version is not None:
            query = query.where(BATTLES.c.version == version)
        if connection.execute(query.values(version=BATTLES.c.version + 1)).rowcount:
            return
        found = connection.execute(select(BATTLES.c.title).where(
            BATTLES.c.id == battle_id)).first()
        if found is None:
            raise self._no_battle(battle_id)
        raise ConflictError(f"battle {quoted(found.title or battle_id)} was changed by someone "
                            f"else (another window or program) since this one read it; "
                            f"nothing was {verb}")

    def _lock_battle(self, connection: Connection, battle_id: str) -> None:
        """NotFoundError unless the battle exists; holds its row until the transaction ends.

        FOR UPDATE: on PostgreSQL two writers of one battle take turns here, so they never
        pick the same sequence numbers (SQLite's BEGIN IMMEDIATE already does).
        """
        found = connection.execute(select(BATTLES.c.id).where(BATTLES.c.id == battle_id)
                                   .with_for_update())
        if not found.first():
            raise self._no_battle(battle_id)

    def _no_battle(self, battle_id: str) -> NotFoundError:
        return NotFoundError(f"no battle with id {quoted(battle_id)} in {self.describe()}")

    @_read_again_if_changed
    def load_battle(self, battle_id: str) -> SavedBattle:
        with self._reading() as connection:
            return self._load_battle(connection, battle_id)

    def _load_battle(self, connection: Connection, battle_id: str) -> SavedBattle:
        found = connection.execute(select(BATTLES.c.start, BATTLES.c.title, BATTLES.c.created,
                                          BATTLES.c.version)
                                   .where(BATTLES.c.id == battle_id)).one_or_none()
        if found is None:
            raise self._no_battle(battle_id)
        rows = connection.execute(
            select(EVENTS.c.step, EVENTS.c.data)
            .where(EVENTS.c.battle_id == battle_id)
            .order_by(EVENTS.c.sequence)).all()

        with self._damage_reported(f"battle {battle_id}"):
            _, start, _ = battle_from_json(found.start)
            steps: dict[int, list[Event]] = {}
            for step, data in rows:
                steps.setdefault(step, []).append(engine_events.event_from_json(data))
        # The title column is the one renamed; the copy inside `start` follows it.
        return SavedBattle(battle_id, found.title, start,
                           tuple(tuple(steps[key]) for key in sorted(steps)), found.created,
                           found.version)

    def find_battle(self, id_or_title: str) -> SavedBattle:
        """By id, else by title ignoring case (Unicode-aware); a title two battles share is
        refused."""
        return self.load_battle(self._only(self.match_battles(id_or_title), id_or_title,
                                           "battle", "battles"))

    def _only(self, found: Sequence[str], name: str, kind: str, kinds: str) -> str:
        """The one id a name matched, or NotFoundError saying there is none or several."""
        if not found:
            raise NotFoundError(f"no {kind} named {quoted(name)} in {self.describe()} (see "
                                f"`rout {kinds}`)")
        if len(found) > 1:
            raise NotFoundError(f"{len(found)} {kinds} are named {quoted(name)}; give the id "
                                f"instead ({', '.join(sorted(found))})")
        return found[0]

    @_read_again_if_changed
    def match_battles(self, id_or_title: str) -> list[str]:
        """Ids of the battle with this id, else of those with this title (ignoring case)."""
        wanted = id_or_title.casefold()
        with self._reading() as connection:
            rows = connection.execute(select(BATTLES.c.id, BATTLES.c.title)).all()
        return [battle_id for battle_id, _ in rows if battle_id == id_or_title] or [
            battle_id for battle_id, title in rows if title.casefold() == wanted]

    @_read_again_if_changed
    def match_armies(self, name_or_id: str) -> list[str]:
        """Ids of the army with this id, else of those with this name (ignoring case)."""
        wanted = name_or_id.casefold()
        with self._reading() as connection:
            rows = connection.execute(select(ARMIES.c.id, ARMIES.c.name)).all()
        return [army_id for army_id, _ in rows if army_id == name_or_id] or [
            army_id for army_id, name in rows if name.casefold() == wanted]

    def rename_battle(self, battle_id: str, title: str) -> None:
        title = title[:200]
        with self._writing() as connection:
            self._lock_battle(connection, battle_id)
            start = connection.execute(select(BATTLES.c.start).where(
                BATTLES.c.id == battle_id)).scalar_one()
            connection.execute(update(BATTLES).where(BATTLES.c.id == battle_id).values(
                title=title, start={**start, "title": title}))

    def duplicate_battle(self, battle_id: str, title: str) -> str:
        """A copy (its start and every step) under a new id and title; returns the id."""
        copy_id = _new_id()
        title = title[:200]
        with self._writing() as connection:
            self._lock_battle(connection, battle_id)
            row = connection.execute(select(BATTLES.c.ruleset, BATTLES.c.start).where(
                BATTLES.c.id == battle_id)).one()
            connection.execute(insert(BATTLES).values(
                id=copy_id, title=title, ruleset=row.ruleset,
                start={**row.start, "title": title}, created=_now()))
            # Copied inside the database: a long battle's events never travel to Python.
            connection.execute(insert(EVENTS).from_select(
                ["battle_id", "sequence", "step", "kind", "data"],
                select(literal(copy_id, String(32)), EVENTS.c.sequence, EVENTS.c.step,
                       EVENTS.c.kind, EVENTS.c.data)
                .where(EVENTS.c.battle_id == battle_id)))
        return copy_id

    def delete_battle(self, battle_id: str) -> SavedBattle:
        """Delete it and return it as it was, for `restore_battle` (undo)."""
        with self._writing() as connection:
            self._lock_battle(connection, battle_id)
            saved = self._load_battle(connection, battle_id)
            connection.execute(delete(EVENTS).where(EVENTS.c.battle_id == battle_id))
            connection.execute(delete(BATTLES).where(BATTLES.c.id == battle_id))
        return saved

    def restore_battle(self, saved: SavedBattle) -> None:
        """Put a deleted battle back under its own id (undo of `delete_battle`)."""
        with self._writing() as connection:
            taken = connection.execute(select(BATTLES.c.id).where(
                BATTLES.c.id == saved.id)).first()
            if taken:
                raise AlreadyExistsError(f"a battle with id '{saved.id}' is already in "
                                         f"{self.describe()}")
            # Its version too: it is the very battle a window may still show.
            self._insert_battle(connection, saved.id, saved.title, saved.start, saved.steps,
                                saved.created or _now(), saved.version)

    def remove_last_step(self, battle_id: str) -> tuple[Event, ...]:
        """Take the last step off, whoever made it; returns its events, () if none."""
        with self._writing() as connection:
            self._step_battle(connection, battle_id, None, "taken off")
            last = connection.execute(select(func.max(EVENTS.c.step)).where(
                EVENTS.c.battle_id == battle_id)).scalar_one_or_none()
            return () if last is None else self._take_off(connection, battle_id, last)

    def remove_step(self, battle_id: str, step: int, *,
                    version: int | None = None) -> tuple[Event, ...]:
        """Take off step number `step` (undo of the move that made it), from the battle at
        `version`; returns its events.

        Only that step: refused with ConflictError when the battle moved on since (a step
        made after it may build on it — a unit moved again, a charge from where it stood —
        and taking another window's step off unseen would undo their move), or when it is
        no longer there. Nothing is changed then. Done, the battle is at `version + 1`.
        Without `version`, only its being the last step is checked.
        """
        with self._writing() as connection:
            self._step_battle(connection, battle_id, version, "taken off")
            last = connection.execute(select(func.max(EVENTS.c.step)).where(
                EVENTS.c.battle_id == battle_id)).scalar_one_or_none()
            if last != step:
                raise ConflictError(f"step {step} of battle {quoted(battle_id)} is not its "
                                    "last step any more; nothing was taken off")
            return self._take_off(connection, battle_id, step)

    def _take_off(self, connection: Connection, battle_id: str, step: int
                  ) -> tuple[Event, ...]:

        rows = connection.execute(
            select(EVENTS.c.data).where(EVENTS.c.battle_id == battle_id, EVENTS.c.step == step)
            .order_by(EVENTS.c.sequence)).scalars().all()
        with self._damage_reported(f"battle {battle_id}"):
            events = tuple(engine_events.event_from_json(data) for data in rows)
        connection.execute(delete(EVENTS).where(EVENTS.c.battle_id == battle_id,
                                                EVENTS.c.step == step))
        return events

    @_read_again_if_changed
    def list_battles(self) -> list[BattleSummary]:
        counts = (select(EVENTS.c.battle_id,
                         func.count(func.distinct(EVENTS.c.step)).label("steps"),
                         func.count().label("events"))
                  .group_by(EVENTS.c.battle_id).subquery())
        # Counted by the database inside the stored start (SQLite's JSON1, PostgreSQL's
        # json functions): listing never reads a whole battle.
        units = func.json_array_length(BATTLES.c.start["units"])
        with self._reading() as connection:
            rows = connection.execute(
                select(BATTLES.c.id, BATTLES.c.title, BATTLES.c.ruleset,
                       func.coalesce(counts.c.steps, 0), func.coalesce(counts.c.events, 0),
                       BATTLES.c.created, func.coalesce(units, 0), BATTLES.c.version)
                .outerjoin(counts, counts.c.battle_id == BATTLES.c.id)
                .order_by(BATTLES.c.created, BATTLES.c.id)).all()
        return [BattleSummary(*row) for row in rows]

    # Resolutions begun and not finished

    def save_pending(self, battle_id: str, procedure: str, procedure_input: Mapping[str, Any],
                     answers: Sequence[object], title: str = "", *, owner: str = "") -> None:
        """Keep the resolution of `battle_id` as it stands, replacing what was kept before.

        Called after every answer: one transaction writes the whole row, so after a crash
        the row is this state or the one before, never a mix. Bad input (no such battle,
        an input JSON cannot hold, an answer of the wrong shape) changes nothing.

        A battle keeps one unfinished resolution. `owner` names the window answering it
        (any short id it picks): while one window's resolution is kept, another's is
        refused with ConflictError, so a second wizard never overwrites the first's answers
        (a first killed half-way then still has them to go on from). `claim_pending` takes
        one over, as a window that resumes it does.
        """
        if not procedure or len(procedure) > 80:
            raise ScenarioError(f"{quoted(procedure)} is not a procedure name (1 to 80 "
                                "characters)")
        stored_answers = answers_to_json(answers)  # AnswerError names a wrong one
        stored_input = _json_mapping(procedure_input)
        values = {"procedure": procedure, "procedure_input": stored_input,
                  "answers": stored_answers, "title": title[:200], "updated": _now(),
                  "owner": owner[:32]}
        with self._writing() as connection:
            self._lock_battle(connection, battle_id)  # also serialises two savers of one
            kept = connection.execute(select(PENDING.c.owner, PENDING.c.title).where(
                PENDING.c.battle_id == battle_id)).first()
            if kept is None:
                connection.execute(insert(PENDING).values(battle_id=battle_id, **values))
            elif kept.owner != owner[:32]:
                raise ConflictError(in_progress_message(kept.title))
            else:
                connection.execute(update(PENDING).where(PENDING.c.battle_id == battle_id)
                                   .values(**values))

    def claim_pending(self, battle_id: str, owner: str) -> PendingResolution | None:
        """Make the unfinished resolution of `battle_id` `owner`'s (a window resuming it,
        perhaps one a killed window left); returns it, None when there is none."""
        with self._writing() as connection:
            self._lock_battle(connection, battle_id)
            connection.execute(update(PENDING).where(PENDING.c.battle_id == battle_id)
                               .values(owner=owner[:32]))
            row = connection.execute(select(PENDING).where(PENDING.c.battle_id == battle_id)
                                     ).one_or_none()
        return None if row is None else self._pending(row)

    @_read_again_if_changed
    def load_pending(self, battle_id: str) -> PendingResolution | None:
        """The unfinished resolution of `battle_id`, None when there is none."""
        with self._reading() as connection:
            row = connection.execute(select(PENDING).where(PENDING.c.battle_id == battle_id)
                                     ).one_or_none()
        return None if row is None else self._pending(row)

    @_read_again_if_changed
    def list_pending(self) -> list[PendingResolution]:
        """Every unfinished resolution, the most recently answered first."""
        with self._reading() as connection:
            rows = connection.execute(select(PENDING).order_by(
                PENDING.c.updated.desc(), PENDING.c.battle_id)).all()
        return [self._pending(row) for row in rows]

    def drop_pending(self, battle_id: str, owner: str | None = None) -> None:
        """Forget the unfinished resolution of `battle_id` (finished or cancelled); there
        being none is not an error. With `owner`, only if it is that window's: finishing
        one's own resolution never drops another window's."""
        query = delete(PENDING).where(PENDING.c.battle_id == battle_id)
        if owner is not None:
            query = query.where(PENDING.c.owner == owner[:32])
        with self._writing() as connection:
            connection.execute(query)

    def _pending(self, row: Any) -> PendingResolution:
        with self._damage_reported(f"unfinished resolution of battle {row.battle_id}"):
            if not isinstance(row.procedure_input, dict):
                raise ValueError("its input is not a mapping")
            return PendingResolution(row.battle_id, row.procedure, dict(row.procedure_input),
                                     answers_from_json(row.answers), row.title, row.updated,
                                     row.owner)

    @contextmanager
    def _damage_reported(self, what: str) -> Iterator[None]:
        """Rows that no longer read as Rout data (edited by hand, say) name what broke."""
        try:
            yield
        except (RuleError, KeyError, TypeError, ValueError) as error:
            raise CorruptDatabaseError(f"{self.describe()}: the {what} cannot be read "
                                       f"({error})") from None


def in_progress_message(title: str) -> str:
    return (f"a resolution of this battle ({title or 'unnamed'}) is already under way in "
            "another window, or was left unfinished; go on with it or drop it first — "
            "nothing was saved")


def _json_mapping(value: Mapping[str, Any]) -> dict[str, Any]:
    """`value` as plain JSON (a copy), or ScenarioError saying what JSON cannot hold."""
    if not isinstance(value, Mapping):
        raise ScenarioError(f"a procedure's input must be a mapping, not "
                            f"{type(value).__name__}")
    try:
        # load_json: what cannot be read back (nested past the bound) is not written either.
        stored = load_json(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError, RecursionError) as error:
        raise ScenarioError(f"the procedure's input cannot be kept as JSON ({error})"
                            ) from None
    return dict(stored)


def _entry_row(army_id: str, position: int, unit: Unit) -> dict[str, Any]:
    return {"army_id": army_id, "position": position, "unit_id": unit.id, "name": unit.name,
            "profile": profile_to_json(unit.profile), "models": unit.models,
            "files": unit.files, "upgrades": sorted(unit.upgrades),
            "character_wounds": unit.character_wounds, "points": unit.points,
            "slot": unit.slot, "notes": list(unit.notes),
            "price_per_model": unit.price.per_model if unit.price else None,
            "price_upgrades": unit.price.upgrades if unit.price else 0,
            "points_typed": unit.points_typed}


def _book_row(army_id: str, book: ArmyBook) -> dict[str, Any]:
    return {"army_id": army_id, "game_system_id": book.game_system_id,
            "game_system_name": book.game_system_name, "catalogue_id": book.catalogue_id,
            "catalogue_name": book.catalogue_name,
            "catalogue_revision": book.catalogue_revision,
            "roster": _json_mapping(book.roster),
            "units": [[unit, selection] for unit, selection in book.units],
            "problems": [{"message": p.message, "unit_id": p.unit_id,
                          "selection_id": p.selection_id} for p in book.problems]}


def _book(row: Any) -> ArmyBook:
    """An army's roster row as its ArmyBook; TypeError or ValueError when it is not one."""
    if not isinstance(row.roster, dict) or not isinstance(row.units, list) \
            or not isinstance(row.problems, list):
        raise TypeError("its army book roster is not a roster")
    units = tuple((str(unit), str(selection)) for unit, selection in row.units)
    problems = tuple(BookProblem(str(p["message"]), str(p.get("unit_id", "")),
                                 str(p.get("selection_id", ""))) for p in row.problems)
    return ArmyBook(str(row.game_system_id), str(row.game_system_name),
                    str(row.catalogue_id), str(row.catalogue_name),
                    int(row.catalogue_revision), row.roster, units, problems)


def _army_header(row: Any) -> tuple[Any, ...]:
    return (row.id, row.name, row.player, row.ruleset, row.points_limit, row.notes,
            row.army_list, row.version)


def _army(where: str, header: tuple[Any, ...], entries: Sequence[Any],
          book: Any = None) -> Army:
    army_id, name, player, ruleset_id, points_limit, stored_notes, army_list, version = header
    try:
        notes = tuple(str(note) for note in stored_notes)
        get_ruleset(ruleset_id)
        units = tuple(
            Unit(id=row.unit_id, name=row.name, player=player,
                 profile=profile_from_stored(row.profile), models=row.models, files=row.files,
                 upgrades=frozenset(row.upgrades), character_wounds=row.character_wounds,
                 points=row.points, slot=row.slot, notes=tuple(row.notes),
                 price=(None if row.price_per_model is None else
                        RosterPrice(float(row.price_per_model), int(row.price_upgrades))),
                 points_typed=bool(row.points_typed))
            for row in entries)
        # A row another program changed (text no file can hold, a list where text goes) is
        # refused here, not mid-export; limits are checked on saving (an army kept before
        # they were still opens).
        return check_readable(Army(name=name, player=player, ruleset=ruleset_id, units=units,
                               points_limit=points_limit, notes=notes, id=army_id,
                               army_list=army_list, version=version,
                               book=_book(book) if book is not None else None))
    except (RuleError, KeyError, TypeError, ValueError) as error:
        raise CorruptDatabaseError(f"{where}: army {quoted(name)} cannot be read ({error})"
                                   ) from None
