"""Game data in BattleScribe's format, kept in the database (`rout data …`).

A player adds the files of a data repository: game systems (`.gst`/`.gstz`) and catalogues
(`.cat`/`.catz`), given one by one, as folders, or as a zip of the repository. Every file is
read and checked by the engine before anything is written, and one transaction stores them
all or none: their bytes (as given), ids, revisions and what Rout read from them. A newer
file replaces the stored one and says so; the same bytes again change nothing (and are not
even read). A catalogue whose game system is neither given nor stored is refused, naming it.

Reading is on demand: the table is never touched at start-up, and a roster or `rout data
units` reads only the files its catalogue needs (itself, what it imports, its game system).
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from sqlalchemy import Connection, and_, delete, insert, select, update

from desktop.engine.bsdata.errors import DataError
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.model import DataFile
from desktop.engine.bsdata.reader import MAX_COMPRESSION_RATIO, MAX_FILE_BYTES, read_data_file
from desktop.engine.errors import quoted
from desktop.memory import bulk_reading
from desktop.store.errors import BadFileError, ConflictError, NotFoundError
from desktop.store.files import read_bytes, short_path
from desktop.store.schema import ARMIES, ARMY_ROSTERS, GAME_DATA
from desktop.store.store import Store

SUFFIXES = (".gst", ".cat", ".gstz", ".catz")
MAX_FILES = 2000
MAX_TOTAL_BYTES = 512 * 1024 * 1024
# Everything but the bytes: what listing and finding read.
HEAD_COLUMNS = (GAME_DATA.c.game_system_id, GAME_DATA.c.file_id, GAME_DATA.c.kind,
                GAME_DATA.c.name, GAME_DATA.c.revision, GAME_DATA.c.library,
                GAME_DATA.c.file_name, GAME_DATA.c.sha256, GAME_DATA.c.size,
                GAME_DATA.c.summary, GAME_DATA.c.stored)


@dataclass(frozen=True)
class DataInput:
    """One file as given: a name for messages (its path, or the zip and the path in it)
    and its bytes."""

    name: str
    content: bytes

    @property
    def file_name(self) -> str:
        return PurePosixPath(self.name.replace("\\", "/")).name


@dataclass(frozen=True)
class StoredData:
    game_system_id: str
    id: str
    kind: str
    name: str
    revision: int
    library: bool
    file_name: str
    sha256: str
    size: int
    summary: dict[str, Any]
    stored: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind,
                "revision": self.revision, "library": self.library, "file": self.file_name,
                "size": self.size, "sha256": self.sha256,
                "stored": self.stored.isoformat(timespec="seconds"),
                **{k: v for k, v in self.summary.items() if k != "problems"},
                "problems": self.summary.get("problems", [])}


@dataclass
class AddReport:
    stored: list[StoredData] = field(default_factory=list)
    replaced: list[tuple[StoredData, StoredData]] = field(default_factory=list)
    unchanged: list[StoredData] = field(default_factory=list)
    kept: list[tuple[str, StoredData]] = field(default_factory=list)  # given older than stored
    warnings: list[str] = field(default_factory=list)


# What long work tells whoever waits for it: the file it is at. The callable may raise
# (a player cancelling) to stop the work before anything is written.
Progress = Callable[[str], None]


def _no_progress(_: str) -> None:
    return None


# -- collecting files ---------------------------------------------------------------------
def collect(paths: Sequence[Path], progress: Progress = _no_progress) -> list[DataInput]:
    """The game data files at `paths`: files, folders (searched below, hidden folders such
    as .git left out) and zips of a data repository."""
    found: list[DataInput] = []
    total = 0
    for path in paths:
        progress(f"Reading {short_path(path)}")
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.suffix.lower() in SUFFIXES
                           and p.is_file() and not any(part.startswith(".") for part in
                                                       p.relative_to(path).parts))
            if not files:
                raise BadFileError(f"{short_path(path)}: holds no game system or catalogue "
                                   "(.gst, .cat, .gstz, .catz)")
            # What the files say they hold is checked before any is read, what was read
            # after each one: no more than one file past the limit is ever in memory.
            _check_room(path, len(found) + len(files),
                        total + sum(_declared_size(p) for p in files))
            for p in files:
                found.append(DataInput(str(p), read_bytes(p, MAX_FILE_BYTES, "data file")))
                total += len(found[-1].content)
                _check_room(path, len(found), total)
        elif path.suffix.lower() == ".zip":
            found.extend(_from_zip(path, len(found), total))
        elif path.suffix.lower() in SUFFIXES:
            found.append(DataInput(str(path), read_bytes(path, MAX_FILE_BYTES, "data file")))
        elif not path.exists():
            raise BadFileError(f"{short_path(path)}: no such file or folder")
        else:
            raise BadFileError(f"{short_path(path)}: not game data (Rout reads .gst, .cat, "
                               ".gstz, .catz, folders of them, or a .zip of a repository)")
        total = sum(len(item.content) for item in found)
        _check_room(path, len(found), total)
    return found


def _declared_size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0  # reading it names the problem


def _check_room(path: Path, files: int, size: int) -> None:
    if files > MAX_FILES or size > MAX_TOTAL_BYTES:
        raise BadFileError(f"{short_path(path)}: more than {MAX_FILES} files or "
                           f"{MAX_TOTAL_BYTES} bytes of game data at once")


def _from_zip(path: Path, files_before: int, bytes_before: int) -> list[DataInput]:
    """The data files in the zip at `path`, refused when with what was collected before
    they are too many or too large: the sizes its members declare are summed before any is
    unpacked (a small zip can declare gigabytes), and what unpacking gives is counted too."""
    content = read_bytes(path, MAX_TOTAL_BYTES, "zip of game data")
    where = short_path(path)
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
    except (zipfile.BadZipFile, ValueError, EOFError, NotImplementedError) as error:
        raise BadFileError(f"{where}: not a zip file Rout can read ({error})") from None
    found: list[DataInput] = []
    with archive:
        members = archive.infolist()
        if len(members) > 50 * MAX_FILES:
            raise BadFileError(f"{where}: refused: {len(members)} entries in one zip")
        wanted = [m for m in members if _wanted(where, m)]
        _check_room(path, files_before + len(wanted),
                    bytes_before + sum(m.file_size for m in wanted))
        total = bytes_before
        for member in wanted:
            try:
                with archive.open(member) as handle:
                    data = handle.read(MAX_FILE_BYTES + 1)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError,
                    RuntimeError, NotImplementedError) as error:
                raise BadFileError(f"{where}: {quoted(member.filename)} cannot be unpacked "
                                   f"({error})") from None
            if len(data) > MAX_FILE_BYTES:
                raise BadFileError(f"{where}: refused: {quoted(member.filename)} unpacks to "
                                   f"more than {MAX_FILE_BYTES} bytes")
            total += len(data)
            _check_room(path, files_before + len(wanted), total)
            found.append(DataInput(f"{where}:{member.filename}", data))
    if not found:
        raise BadFileError(f"{where}: holds no game system or catalogue (.gst, .cat, .gstz, "
                           ".catz)")
    return found


def _wanted(where: str, member: zipfile.ZipInfo) -> bool:
    """Whether a zip's member is game data to read; refused when it is a path outside the
    zip, encrypted, or unpacks to too much."""
    inside = PurePosixPath(member.filename.replace("\\", "/"))
    if inside.is_absolute() or ".." in inside.parts or ":" in inside.parts[0]:
        raise BadFileError(f"{where}: refused: the zip holds a path outside itself "
                           f"{quoted(member.filename)}")
    if member.is_dir() or inside.suffix.lower() not in SUFFIXES or any(
            part.startswith((".", "__MACOSX")) for part in inside.parts):
        return False
    if member.flag_bits & 0x1:
        raise BadFileError(f"{where}: {quoted(member.filename)} is encrypted")
    if member.file_size > MAX_FILE_BYTES or (
            member.file_size > 1024 * 1024
            and member.file_size > MAX_COMPRESSION_RATIO * max(member.compress_size, 1)):
        raise BadFileError(f"{where}: refused: {quoted(member.filename)} unpacks to "
                           f"{member.file_size} bytes from {member.compress_size} "
                           "(too large, or a zip bomb)")
    return True


# -- reading what is stored ---------------------------------------------------------------
def _stored(row: Any) -> StoredData:
    return StoredData(row.game_system_id, row.file_id, row.kind, row.name, row.revision,
                      row.library, row.file_name, row.sha256, row.size, dict(row.summary),
                      row.stored)


def list_data(store: Store) -> list[StoredData]:
    """Every stored file (not its bytes): game systems first, then by name."""
    rows = store.read(lambda connection: connection.execute(select(*HEAD_COLUMNS)).all())
    found = [_stored(row) for row in rows]
    found.sort(key=lambda d: (d.game_system_id, d.kind != "gameSystem", d.name.casefold()))
    return found


def find(store: Store, name_or_id: str, *, kind: str | None = None) -> StoredData:
    """The one stored file with that id or name (case ignored), refused when there is none
    or more than one."""
    candidates = [d for d in list_data(store) if kind is None or d.kind == kind]
    system, slash, rest = name_or_id.partition("/")
    if slash and any(d.game_system_id == system for d in candidates):
        candidates = [d for d in candidates if d.game_system_id == system]  # SYSTEM/CATALOGUE
        name_or_id = rest
    folded = name_or_id.casefold()
    chosen = [d for d in candidates if d.id == name_or_id] or [
        d for d in candidates if d.name.casefold() == folded] or [
        d for d in candidates if folded in (d.file_name.casefold(),
                                            PurePosixPath(d.file_name).stem.casefold())]
    what = "catalogue" if kind == "catalogue" else "game data"
    if not chosen:
        raise NotFoundError(f"no {what} named {quoted(name_or_id)} in {store.describe()} "
                            "(see `rout data list`)")
    if len(chosen) > 1:
        systems = ", ".join(f"{d.game_system_id}/{d.id} ({d.file_name})" for d in chosen)
        raise NotFoundError(f"{quoted(name_or_id)} names more than one stored file: {systems}; "
                            "give one of those")
    return chosen[0]


def _read_rows(connection: Connection, game_system_id: str, ids: Iterable[str]
               ) -> dict[str, DataFile]:
    wanted = sorted(set(ids))
    rows = connection.execute(select(GAME_DATA.c.file_id, GAME_DATA.c.file_name,
                                     GAME_DATA.c.content).where(
        and_(GAME_DATA.c.game_system_id == game_system_id,
             GAME_DATA.c.file_id.in_(wanted)))).all()
    found: dict[str, DataFile] = {}
    for row in rows:
        try:
            found[row.file_id] = read_data_file(bytes(row.content), row.file_name)
        except DataError as error:
            raise BadFileError(f"stored game data is damaged: {error}") from None
    return found


@bulk_reading()
def load_game_data(store: Store, game_system_id: str, catalogue_id: str | None = None
                   ) -> GameData:
    """A stored game system with one catalogue and what it imports (all its catalogues
    when `catalogue_id` is None)."""
    heads = [d for d in list_data(store) if d.game_system_id == game_system_id]
    system = next((d for d in heads if d.kind == "gameSystem"), None)
    if system is None:
        raise NotFoundError(f"no game system {quoted(game_system_id)} in {store.describe()}")

    def read(connection: Connection) -> dict[str, DataFile]:
        if catalogue_id is None:
            return _read_rows(connection, game_system_id, [d.id for d in heads])
        files = _read_rows(connection, game_system_id, [system.id, catalogue_id])
        queue = [files[catalogue_id]] if catalogue_id in files else []
        while queue:
            current = queue.pop()
            missing = [link.target_id for link in current.catalogue_links
                       if link.target_id not in files]
            if missing:
                more = _read_rows(connection, game_system_id, missing)
                files.update(more)
                queue.extend(more.values())
        return files

    files = store.read(read)
    return GameData(files[system.id], [f for key, f in files.items() if key != system.id])


# -- adding -------------------------------------------------------------------------------
def _summary(data: GameData, file: DataFile) -> dict[str, Any]:
    """What Rout read from one file, kept with it."""
    root = file.root_entries()
    summary: dict[str, Any] = {
        "game_system": data.game_system.name,
        "root_entries": len(root),
        "shared_entries": len(file.shared_selection_entries),
        "shared_groups": len(file.shared_selection_entry_groups),
        "force_entries": len(file.force_entries),
        "imports": [link.target_id for link in file.catalogue_links],
    }
    if file.is_game_system:
        summary["cost_types"] = [c.name.strip() for c in file.cost_types]
    else:  # the units a player can pick from it (links resolved), for the Game Data dialog
        summary["units"] = sum(1 for option in data.context(file.id).root_selectable
                               if option.type in ("unit", "model") and not option.hidden)
    where = file.source
    summary["problems"] = [p for p in data.all_problems() if p.startswith(f"{where}:")]
    return summary


def check_new(inputs: Sequence[DataInput]) -> dict[str, DataFile]:
    """Everything `add_data` checks without a database: that each file reads, and that
    each catalogue comes with its game system (none is stored yet). Returns what was read,
    by the file's sha256, for `add_data` to store without reading it again."""
    fresh = [(item, hashlib.sha256(item.content).hexdigest(), _parse(item))
             for item in inputs]
    _check_keys(fresh)
    _check_systems(fresh, set())
    return {digest: parsed for _, digest, parsed in fresh}


def _parse(item: DataInput) -> DataFile:
    try:
        return read_data_file(item.content, item.name)
    except DataError as error:
        raise BadFileError(str(error)) from None


@bulk_reading()
def add_data(store: Store, inputs: Sequence[DataInput],
             read: Mapping[str, DataFile] | None = None,
             progress: Progress = _no_progress) -> AddReport:
    """Check and store `inputs` in one transaction (see the module's docstring); `read`:
    files already read (check_new's answer), by sha256. `progress` hears of each file
    before it is read; raising there stops the work with nothing stored."""
    report = AddReport()
    existing = {(d.game_system_id, d.id): d for d in list_data(store)}
    by_sha = {d.sha256: d for d in existing.values()}
    fresh: list[tuple[DataInput, str, DataFile]] = []
    seen: dict[str, str] = {}
    for item in inputs:
        digest = hashlib.sha256(item.content).hexdigest()
        if digest in seen:
            continue  # the same file twice (a folder and a zip of it)
        seen[digest] = item.name
        if digest in by_sha:
            report.unchanged.append(by_sha[digest])
            continue
        known = read.get(digest) if read is not None else None
        if known is None:
            progress(f"Checking {item.file_name}")
        fresh.append((item, digest, known if known is not None else _parse(item)))
    _check_keys(fresh)
    _check_systems(fresh, {system for system, file_id in existing if system == file_id})
    systems = {_system_of(parsed) for _, _, parsed in fresh}
    given_systems = {parsed.id: parsed for _, _, parsed in fresh if parsed.is_game_system}
    rows = _rows(store, fresh, systems, given_systems, existing, report, progress)
    if rows:
        progress(f"Storing {len(rows)} file{'s' if len(rows) != 1 else ''}")
        store.write(lambda connection: _replace_rows(connection, rows))  # all or nothing
    order = {"gameSystem": 0, "catalogue": 1}
    report.stored.sort(key=lambda d: (d.game_system_id, order.get(d.kind, 2), d.name))
    report.unchanged.sort(key=lambda d: (d.game_system_id, order.get(d.kind, 2), d.name))
    return report


def _replace_rows(connection: Connection, rows: list[dict[str, Any]]) -> None:
    for row in rows:
        connection.execute(delete(GAME_DATA).where(and_(
            GAME_DATA.c.game_system_id == row["game_system_id"],
            GAME_DATA.c.file_id == row["file_id"])))
    connection.execute(insert(GAME_DATA), rows)


def _check_keys(fresh: list[tuple[DataInput, str, DataFile]]) -> None:
    keys: dict[tuple[str, str], str] = {}
    for item, _, parsed in fresh:
        key = (_system_of(parsed), parsed.id)
        if key in keys:
            raise BadFileError(f"{item.name}: {parsed.kind} {quoted(parsed.id, 40)} is also "
                               f"in {keys[key]}; give one of them")
        keys[key] = item.name


def _check_systems(fresh: list[tuple[DataInput, str, DataFile]], stored: set[str]) -> None:
    given = {parsed.id for _, _, parsed in fresh if parsed.is_game_system}
    for item, _, parsed in fresh:
        system_id = _system_of(parsed)
        if not parsed.is_game_system and system_id not in given and system_id not in stored:
            raise BadFileError(f"{item.name}: catalogue {quoted(parsed.name, 60)} belongs to "
                               f"game system {quoted(system_id, 40)}, which is neither given "
                               "nor stored: add its .gst too")


def _rows(store: Store, fresh: list[tuple[DataInput, str, DataFile]], systems: set[str],
          given_systems: dict[str, DataFile], existing: dict[tuple[str, str], StoredData],
          report: AddReport, progress: Progress) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    now = datetime.now(UTC).replace(tzinfo=None)
    for system_id in sorted(systems):
        group = [(i, d, p) for i, d, p in fresh if _system_of(p) == system_id]
        progress(f"Linking {len(group)} file{'s' if len(group) != 1 else ''} of one game "
                 "system")
        data = _checked_data(store, system_id, [p for _, _, p in group], given_systems)
        report.warnings.extend(p for p in data.all_problems()
                               if any(p.startswith(f"{i.name}:") for i, _, _ in group))
        for item, digest, parsed in group:
            old = existing.get((system_id, parsed.id))
            if old is not None and parsed.revision < old.revision:
                report.kept.append((item.name, old))
                continue
            new = StoredData(system_id, parsed.id, parsed.kind, parsed.name, parsed.revision,
                             parsed.library, item.file_name[:300], digest, len(item.content),
                             _summary(data, parsed), now)
            rows.append({"game_system_id": system_id, "file_id": parsed.id,
                         "kind": parsed.kind, "name": parsed.name[:300],
                         "revision": parsed.revision, "library": parsed.library,
                         "file_name": new.file_name, "sha256": digest,
                         "size": new.size, "content": item.content,
                         "summary": new.summary, "stored": now})
            if old is not None:
                report.replaced.append((old, new))
            else:
                report.stored.append(new)
    return rows


def _system_of(parsed: DataFile) -> str:
    return parsed.id if parsed.is_game_system else (parsed.game_system_id or "")


def _checked_data(store: Store, system_id: str, given: list[DataFile],
                  given_systems: dict[str, DataFile]) -> GameData:
    """The game system with the given files over the stored ones, checked as a whole: the
    engine refuses a catalogue of another system and finds links that lead nowhere."""
    stored = {d.id: d for d in list_data(store) if d.game_system_id == system_id}
    replaced = {f.id for f in given}
    keep = store.read(lambda connection: _read_rows(connection, system_id,
                                                    [i for i in stored if i not in replaced]))
    files = {**keep, **{f.id: f for f in given}}
    system = given_systems.get(system_id) or files.get(system_id)
    if system is None:
        raise BadFileError(f"game system {quoted(system_id, 40)} is neither given nor stored")
    try:
        return GameData(system, [f for key, f in files.items() if key != system_id])
    except DataError as error:
        raise BadFileError(str(error)) from None


@dataclass(frozen=True)
class Removed:
    """What a removal took away, and the armies it left as plain units."""

    gone: list[StoredData]
    unlinked: list[str] = field(default_factory=list)  # army names


def _using(connection: Connection, game_system_id: str, catalogue_ids: Iterable[str] | None
           ) -> list[tuple[str, str]]:
    condition = ARMY_ROSTERS.c.game_system_id == game_system_id
    if catalogue_ids is not None:
        condition = and_(condition, ARMY_ROSTERS.c.catalogue_id.in_(sorted(catalogue_ids)))
    rows = connection.execute(select(ARMIES.c.id, ARMIES.c.name).join(
        ARMY_ROSTERS, ARMY_ROSTERS.c.army_id == ARMIES.c.id).where(condition)).all()
    return sorted(((row.id, row.name) for row in rows), key=lambda pair: pair[1].casefold())


def armies_using(store: Store, data: StoredData) -> list[tuple[str, str]]:
    """(id, name) of the armies built from a stored file: a catalogue, or any catalogue
    of a game system (a catalogue another imports counts for its importers too)."""
    catalogues = _catalogues_of(store, data)
    return store.read(lambda connection: _using(connection, data.game_system_id, catalogues))


def _catalogues_of(store: Store, data: StoredData) -> list[str] | None:
    """The catalogues whose armies need `data`: None for a game system (all of them); a
    catalogue and those that import it."""
    if data.kind == "gameSystem":
        return None
    return [data.id] + [d.id for d in list_data(store)
                        if d.game_system_id == data.game_system_id
                        and data.id in d.summary.get("imports", [])]


def remove_data(store: Store, name_or_id: str, *, keep_armies: bool = False) -> Removed:
    """Remove a stored catalogue, or a game system with all its catalogues.

    Refused (ConflictError, nothing removed) while armies are built from it, naming them;
    with `keep_armies` those armies keep their units as plain units (their roster goes,
    and their version moves on, as any save of theirs would), in the same transaction."""
    chosen = find(store, name_or_id)
    if chosen.kind == "gameSystem":
        gone = [d for d in list_data(store) if d.game_system_id == chosen.game_system_id]
        condition = GAME_DATA.c.game_system_id == chosen.game_system_id
    else:
        gone = [chosen]
        condition = and_(GAME_DATA.c.game_system_id == chosen.game_system_id,
                         GAME_DATA.c.file_id == chosen.id)
    catalogues = _catalogues_of(store, chosen)

    def remove(connection: Connection) -> list[tuple[str, str]]:
        using = _using(connection, chosen.game_system_id, catalogues)
        if using and not keep_armies:
            names = ", ".join(quoted(name, 60) for _, name in using[:5])
            more = f" and {len(using) - 5} more" if len(using) > 5 else ""
            raise ConflictError(f"{quoted(chosen.name)} is the army book of {len(using)} "
                                f"arm{'y' if len(using) == 1 else 'ies'} ({names}{more}); "
                                "nothing was removed: keep those armies as plain units "
                                "(--keep-armies) or delete them first")
        ids = [army_id for army_id, _ in using]
        if ids:
            connection.execute(delete(ARMY_ROSTERS).where(ARMY_ROSTERS.c.army_id.in_(ids)))
            connection.execute(update(ARMIES).where(ARMIES.c.id.in_(ids)).values(
                version=ARMIES.c.version + 1))
        connection.execute(delete(GAME_DATA).where(condition))
        return using

    using = store.write(remove)
    return Removed(gone, [name for _, name in using])
