"""The full check of a database (`rout check-database`, File ▸ Check Database).

Start-up reads only what it needs (desktop.store.sqlite_file), so that a big database opens
as fast as a small one. This reads everything: on SQLite every page (`PRAGMA
integrity_check`, and rows that point at nothing), and on any database every army, library,
battle and unfinished resolution as Rout reads them; every battle is replayed, each event
checked as an imported one is (desktop.engine.standing). It never writes, and it takes as
long as the database is big: the window runs it in a worker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop.engine.errors import quoted
from desktop.engine.model import Battle
from desktop.engine.standing import ReplayError, replay
from desktop.store.database import sqlite_path
from desktop.store.errors import CorruptDatabaseError, StoreError
from desktop.store.sqlite_file import full_check
from desktop.store.store import Store

LIMIT = 20  # problems reported at most: enough to judge the damage, short enough to read


@dataclass(frozen=True)
class DatabaseCheck:
    database: str
    problems: tuple[str, ...]  # [] when healthy
    pages: bool  # every page was read (SQLite); PostgreSQL keeps its own pages
    armies: int
    libraries: int
    battles: int
    unfinished: int

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self, shown: int = 3) -> str:
        """The problems on one line, for the CLI and the window's log."""
        more = len(self.problems) - shown
        listed = "; ".join(self.problems[:shown])
        return listed + (f" (and {more} more)" if more > 0 else "")


def check_database(store: Store, limit: int = LIMIT) -> DatabaseCheck:
    problems: list[str] = []
    path = sqlite_path(store.url)
    if path is not None:
        problems += [_one_line(problem) for problem in full_check(path, limit=limit)]
    # Damaged pages say it all (restore a copy); rows are read to find what pages cannot
    # show: data edited into something Rout no longer reads.
    where = f"{store.describe()}: "
    reading = not problems

    def read_all(ids: list[str], read: Callable[[str], object]) -> int:
        for item in ids:
            if not reading or len(problems) >= limit:
                break
            try:
                read(item)
            except StoreError as error:
                problems.append(str(error).removeprefix(where))
        return len(ids)

    def listed(list_ids: Callable[[], list[str]]) -> list[str]:
        if not reading:
            return []
        try:
            return list_ids()
        except StoreError as error:
            problems.append(str(error).removeprefix(where))
            return []

    armies = read_all(listed(lambda: [army.id for army in store.list_armies()]),
                      store.load_army)
    libraries = read_all(listed(store.library_rulesets), store.load_library)
    battles = read_all(listed(lambda: [battle.id for battle in store.list_battles()]),
                       lambda battle_id: replay_battle(store, battle_id))
    unfinished = len(listed(lambda: [pending.battle_id for pending in store.list_pending()]))
    return DatabaseCheck(store.describe(), tuple(problems[:limit]), path is not None, armies,
                         libraries, battles, unfinished)


def replay_battle(store: Store, battle_id: str) -> Battle:
    """The battle now, its every event replayed and checked; CorruptDatabaseError naming
    the first event that cannot be (a unit it names is not there, it leaves one off the
    table, ...)."""
    saved = store.load_battle(battle_id)
    events = saved.events
    try:
        return replay(saved.start, events)
    except ReplayError as error:
        kind = type(events[error.index]).__name__
        raise CorruptDatabaseError(
            f"{store.describe()}: the battle {quoted(saved.title)} ({battle_id}) cannot be "
            f"replayed: its event {error.index + 1} of {len(events)} ({kind}): "
            f"{error.message}") from None


def _one_line(problem: str) -> str:
    """SQLite's report starts with the schema's name and may span lines."""
    return " ".join(problem.replace("*** in database main ***", "").split())
