"""The headless store commands: `rout import`, `rout export` and `rout armies`.

They run through `desktop.cli.main(argv)` against a real SQLite file in tmp_path, chosen with
`--database sqlite:///...` (before or after the command) or with ROUT_DATABASE. Good input
prints JSON and exits 0. Bad input exits 2 with one stderr line that starts with the command
("rout import: ...") and names the problem; the database and the input file are left exactly
as they were, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from desktop.engine.codec import army_from_json, army_to_json
from desktop.engine.model import Army, TroopType, Unit, UnitProfile
from desktop.store.files import MAX_INPUT_BYTES

from builders import assert_bad, run_cli

W6 = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}


def goblin_army(name: str = "Night Goblin Horde") -> Army:
    player = "Orcs & Goblins"
    goblin = UnitProfile("Night Goblin", {**W6, "WS": 2, "I": 2, "Ld": 5},
                         base=(0.7874, 0.7874), special_rules=frozenset({"hate_dwarfs"}))
    fanatic = UnitProfile("Fanatic", {**W6, "S": 5, "W": 1, "A": 0, "Ld": 10},
                          special_rules=frozenset({"unbreakable"}))
    giant = UnitProfile("Giant", {**W6, "M": 6, "S": 7, "T": 5, "W": 6, "A": 10, "Ld": 10},
                        troop_type=TroopType.MONSTER, base=(2.0, 2.0), unit_strength=6,
                        wounds=6)
    return Army(name, player, "warhammer6", (
        Unit("spears", "Night Goblin Spears", player, goblin, 30, 6,
             upgrades=frozenset({"standard", "musician"}), points=130, slot="Core",
             notes=("Netters",)),
        Unit("archers", "Night Goblin Archers", player, goblin, 20, 10, points=80,
             slot="Core"),
        Unit("fanatics", "Fanatics", player, fanatic, 3, 3, points=75, slot="Special"),
        Unit("giant", "Giant", player, giant, 1, 1, points=205, slot="Rare"),
    ), points_limit=1000, notes=("Friendly game",))


def elf_army() -> Army:
    player = "Crane Clan"
    samurai = UnitProfile("Samurai", {"Mv": 10, "Init": 5, "Honor": 6, "W": 1, "AP": 2},
                          base=(2.5, 2.5), special_rules=frozenset({"ronin"}))
    return Army("Crane vanguard", player, "kensei1", (
        Unit("samurai", "Samurai", player, samurai, 8, 4, points=96, slot="Bushi"),
    ))


# ---------------------------------------------------------------------------------------------
# Helpers


@dataclass(frozen=True)
class Database:
    path: Path

    @property
    def url(self) -> str:
        return f"sqlite:///{self.path}"

    def digest(self) -> str:
        """The main file's bytes (every command closes the store, so nothing is pending)."""
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


@pytest.fixture(autouse=True)
def _no_user_database(tmp_path, monkeypatch):
    """A command that forgets --database must not touch the user's own database."""
    monkeypatch.setenv("ROUT_DATABASE", f"sqlite:///{tmp_path / 'stray' / 'stray.sqlite'}")
    yield
    assert not (tmp_path / "stray").exists()


@pytest.fixture
def database(tmp_path) -> Database:
    return Database(tmp_path / "db" / "rout.sqlite")


def ok(capsys, *argv: object) -> Any:
    code, out, err = run_cli(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def bad(capsys, argv: list[object], prefix: str, *fragments: str) -> str:
    return assert_bad(capsys, argv, *fragments, prefix=prefix)


def write_army(folder: Path, army: Army, name: str = "army.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(army_to_json(army), indent=2), encoding="utf-8")
    return path


def imported(capsys, database: Database, army: Army, folder: Path) -> dict[str, Any]:
    return ok(capsys, "import", write_army(folder, army, f"{army.name}.json"),
              "--database", database.url)


def armies(capsys, database: Database) -> list[dict[str, Any]]:
    return ok(capsys, "armies", "--database", database.url)


def digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


class Unchanged:
    """Snapshots of the database (listing and bytes) and an input file, to compare after."""

    def __init__(self, capsys, database: Database, *files: Path) -> None:
        self.capsys, self.database, self.files = capsys, database, files
        self.listing = armies(capsys, database)
        self.bytes = database.digest()
        self.inputs = [(path, digest(path), path.exists()) for path in files]

    def check(self) -> None:
        assert self.database.digest() == self.bytes
        assert armies(self.capsys, self.database) == self.listing
        for path, before, existed in self.inputs:
            assert path.exists() == existed
            assert digest(path) == before


@pytest.fixture
def stocked(capsys, database, tmp_path) -> Database:
    """A database that already holds an army, so that "unchanged" means something."""
    imported(capsys, database, elf_army(), tmp_path)
    return database


# ---------------------------------------------------------------------------------------------
# Import, list, export


def test_import_then_armies_lists_it(capsys, database, tmp_path):
    army = goblin_army()
    result = ok(capsys, "import", write_army(tmp_path, army), "--database", database.url)
    assert result["army"]
    assert {key: result[key] for key in ("name", "ruleset", "units", "models", "points",
                                         "points_limit", "warnings")} == {
        "name": "Night Goblin Horde", "ruleset": "warhammer6", "units": 4, "models": 54,
        "points": 490, "points_limit": 1000, "warnings": []}
    assert result["database"] == str(database.path)
    listed = armies(capsys, database)
    assert len(listed) == 1
    entry = listed[0]
    assert {key: entry[key] for key in ("id", "name", "player", "ruleset", "points",
                                        "points_limit", "units", "models")} == {
        "id": result["army"], "name": "Night Goblin Horde", "player": "Orcs & Goblins",
        "ruleset": "warhammer6", "points": army.points, "points_limit": 1000,
        "units": len(army.units), "models": army.models}
    assert entry["updated"]


def test_armies_on_a_new_database_is_an_empty_list_and_creates_nothing(capsys, database):
    assert armies(capsys, database) == []
    assert not database.path.exists()  # reading never leaves an empty database behind
    assert_bad(capsys, ["export", "Orcs", database.path.parent / "out.json", "--database",
                        database.url], "no army or battle named 'Orcs': there is no database at",
               prefix="rout export:")
    assert not database.path.exists()


def test_export_json_reads_back_as_the_same_army(capsys, database, tmp_path):
    army = goblin_army()
    imported(capsys, database, army, tmp_path)
    out = tmp_path / "out.json"
    result = ok(capsys, "export", army.name, out, "--database", database.url)
    assert (result["format"], result["file"], result["units"], result["points"]) == (
        "json", str(out), 4, 490)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == army_to_json(army)
    assert army_from_json(data) == replace(army, id="")


def test_an_exported_army_imports_again_and_exports_the_same_bytes(capsys, database, tmp_path):
    first = imported(capsys, database, goblin_army(), tmp_path)
    ok(capsys, "export", first["army"], tmp_path / "first.json", "--database", database.url)
    second = ok(capsys, "import", tmp_path / "first.json", "--database", database.url)
    assert second["army"] != first["army"]
    ok(capsys, "export", second["army"], tmp_path / "second.json", "--database", database.url)
    assert (tmp_path / "first.json").read_bytes() == (tmp_path / "second.json").read_bytes()


@pytest.mark.parametrize(("suffix", "entry"), [
    (".txt", "  {name} [{profile}], {models} models: {points} points"),
    (".md", "- **{name}** ({profile}) · {models} models · {points} points"),
    (".markdown", "- **{name}** ({profile}) · {models} models · {points} points"),
])
def test_text_exports_list_every_unit_with_models_and_points(capsys, database, tmp_path,
                                                             suffix, entry):
    army = goblin_army()
    imported(capsys, database, army, tmp_path)
    out = tmp_path / f"out{suffix}"
    result = ok(capsys, "export", army.name, out, "--database", database.url)
    assert result["format"] == ("text" if suffix == ".txt" else "markdown")
    lines = out.read_text(encoding="utf-8").splitlines()
    for unit in army.units:
        expected = entry.format(name=unit.name, profile=unit.profile.name,
                                models=unit.models, points=unit.points)
        assert expected.replace(" 1 models", " 1 model") in lines
    text = "\n".join(lines)
    assert "490 / 1000 points" in text
    for slot, points in (("Core", 210), ("Special", 75), ("Rare", 205)):
        assert f"{slot} ({points} points)" in text or f"{slot} — {points} points" in text


def test_markdown_export_escapes_markdown_in_names(capsys, database, tmp_path):
    army = goblin_army("Skarsnik's *Best* [Boyz]")
    imported(capsys, database, army, tmp_path)
    out = tmp_path / "out.md"
    ok(capsys, "export", army.name, out, "--database", database.url)
    assert out.read_text(encoding="utf-8").splitlines()[0] == (
        "# Skarsnik's \\*Best\\* \\[Boyz\\]")


def test_a_name_with_a_line_break_stays_on_its_line(capsys, database, tmp_path):
    army = goblin_army()
    unit = replace(army.units[0], name="Night Goblin\nSpears", notes=("two\nlines",))
    army = replace(army, units=(unit, *army.units[1:]))
    imported(capsys, database, army, tmp_path)
    ok(capsys, "export", army.name, tmp_path / "out.txt", "--database", database.url)
    lines = (tmp_path / "out.txt").read_text(encoding="utf-8").splitlines()
    assert "  Night Goblin Spears [Night Goblin], 30 models: 130 points" in lines
    assert "      two" in lines and "      lines" in lines


@pytest.mark.parametrize(("name", "option", "chosen", "starts"), [
    ("out.json", "text", "text", "Night Goblin Horde\n"),
    ("out.txt", "markdown", "markdown", "# Night Goblin Horde\n"),
    ("out.md", "json", "json", "{\n"),
    ("roster.dat", "text", "text", "Night Goblin Horde\n"),
    ("roster", "markdown", "markdown", "# Night Goblin Horde\n"),
])
def test_format_option_wins_over_the_extension(capsys, database, tmp_path, name, option,
                                               chosen, starts):
    imported(capsys, database, goblin_army(), tmp_path)
    out = tmp_path / name
    result = ok(capsys, "export", "Night Goblin Horde", out, "--format", option,
                "--database", database.url)
    assert result["format"] == chosen
    assert out.read_text(encoding="utf-8").startswith(starts)


def test_export_by_id(capsys, database, tmp_path):
    goblins = imported(capsys, database, goblin_army(), tmp_path)
    imported(capsys, database, elf_army(), tmp_path)
    out = tmp_path / "by-id.json"
    result = ok(capsys, "export", goblins["army"], out, "--database", database.url)
    assert (result["army"], result["name"]) == (goblins["army"], "Night Goblin Horde")
    assert army_from_json(json.loads(out.read_text())) == goblin_army()


@pytest.mark.parametrize("asked", ["night goblin horde", "NIGHT GOBLIN HORDE",
                                   "Night goblin Horde"])
def test_names_are_matched_ignoring_case(capsys, database, tmp_path, asked):
    made = imported(capsys, database, goblin_army(), tmp_path)
    result = ok(capsys, "export", asked, tmp_path / "out.json", "--database", database.url)
    assert result["army"] == made["army"]


def test_names_are_matched_ignoring_case_beyond_ascii(capsys, database, tmp_path):
    imported(capsys, database, goblin_army("Élite Orques"), tmp_path)
    ok(capsys, "export", "élite orques", tmp_path / "out.json", "--database", database.url)


def test_two_armies_with_one_name_are_refused_by_name_with_their_ids(capsys, database,
                                                                      tmp_path):
    first = imported(capsys, database, goblin_army(), tmp_path)
    second = imported(capsys, database, goblin_army("night goblin HORDE"), tmp_path)
    before = Unchanged(capsys, database, tmp_path / "out.json")
    line = bad(capsys, ["export", "Night Goblin Horde", tmp_path / "out.json",
                        "--database", database.url],
               "rout export: ", "2 armies are named 'Night Goblin Horde'", "give the id",
               first["army"], second["army"])
    assert line.index(min(first["army"], second["army"])) < line.index(
        max(first["army"], second["army"]))
    before.check()
    # Either one can still be had by its id.
    ok(capsys, "export", second["army"], tmp_path / "out.json", "--database", database.url)
    assert json.loads((tmp_path / "out.json").read_text())["name"] == "night goblin HORDE"


def test_export_replaces_an_older_file_and_leaves_nothing_else(capsys, database, tmp_path):
    imported(capsys, database, goblin_army(), tmp_path)
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "horde.txt"
    out.write_text("an old roster, much longer than the new one " * 100, encoding="utf-8")
    ok(capsys, "export", "Night Goblin Horde", out, "--database", database.url)
    assert out.read_text(encoding="utf-8").startswith("Night Goblin Horde\n")
    assert [p.name for p in folder.iterdir()] == ["horde.txt"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_exported_files_get_ordinary_permissions(capsys, database, tmp_path):
    """Not mkstemp's owner-only 0600: a new file follows the umask, a replaced one keeps its
    mode."""
    imported(capsys, database, goblin_army(), tmp_path)
    umask = os.umask(0o022)
    try:
        new = tmp_path / "new.md"
        ok(capsys, "export", "Night Goblin Horde", new, "--database", database.url)
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        old = tmp_path / "old.md"
        old.write_text("old", encoding="utf-8")
        old.chmod(0o640)
        ok(capsys, "export", "Night Goblin Horde", old, "--database", database.url)
        assert stat.S_IMODE(old.stat().st_mode) == 0o640
        assert old.read_text(encoding="utf-8").startswith("# Night Goblin Horde")
    finally:
        os.umask(umask)


def test_import_with_a_matching_ruleset(capsys, database, tmp_path):
    result = ok(capsys, "import", write_army(tmp_path, elf_army()), "--ruleset", "kensei1",
                "--database", database.url)
    assert result["ruleset"] == "kensei1"


# ---------------------------------------------------------------------------------------------
# Where the database is: --database before or after the command, or ROUT_DATABASE


def test_database_option_before_the_command(capsys, database, tmp_path):
    made = ok(capsys, "--database", database.url, "import", write_army(tmp_path, goblin_army()))
    listed = ok(capsys, "--database", database.url, "armies")
    assert [a["id"] for a in listed] == [made["army"]]
    assert armies(capsys, database) == listed
    out = tmp_path / "out.json"
    ok(capsys, "--database", database.url, "export", "Night Goblin Horde", out)
    assert army_from_json(json.loads(out.read_text())) == goblin_army()


def test_database_option_after_the_command_wins_over_the_one_before(capsys, database,
                                                                      tmp_path):
    other = Database(tmp_path / "other.sqlite")
    imported(capsys, database, goblin_army(), tmp_path)
    assert ok(capsys, "--database", other.url, "armies", "--database", database.url) != []
    assert armies(capsys, other) == []


def test_rout_database_environment_variable(capsys, database, tmp_path, monkeypatch):
    monkeypatch.setenv("ROUT_DATABASE", database.url)
    made = ok(capsys, "import", write_army(tmp_path, goblin_army()))
    assert made["database"] == str(database.path)
    listed = ok(capsys, "armies")
    assert [a["id"] for a in listed] == [made["army"]]
    ok(capsys, "export", "night goblin horde", tmp_path / "out.md")
    assert (tmp_path / "out.md").is_file()
    # --database still wins over the environment.
    other = Database(tmp_path / "other.sqlite")
    assert ok(capsys, "armies", "--database", other.url) == []
    assert ok(capsys, "--database", other.url, "armies") == []
    assert ok(capsys, "armies") == listed


# ---------------------------------------------------------------------------------------------
# Bad input: exit 2, one line, nothing changed


def _army_data() -> dict[str, Any]:
    return army_to_json(goblin_army())


def _json_file(change):
    def write(folder: Path) -> Path:
        data = _army_data()
        change(data)
        path = folder / "bad.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    return write


def _raw_file(data: bytes, name: str = "bad.json"):
    def write(folder: Path) -> Path:
        path = folder / name
        path.write_bytes(data)
        return path

    return write


def _folder(folder: Path) -> Path:
    path = folder / "folder.json"
    path.mkdir()
    return path


def _folder_without_extension(folder: Path) -> Path:
    path = folder / "armies"
    path.mkdir()
    return path


def _missing(folder: Path) -> Path:
    return folder / "missing.json"


def _too_large(folder: Path) -> Path:
    """One byte over the limit, as a sparse file: no 20 MB written to disk.

    (Monkeypatching files.MAX_INPUT_BYTES would not help: read_bytes binds it as a default
    argument when the module loads.)
    """
    path = folder / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)
    return path


def _huge_number(folder: Path) -> Path:
    data = _army_data()
    data["units"][0]["models"] = "HUGE"
    path = folder / "bad.json"
    path.write_text(json.dumps(data).replace('"HUGE"', "1e400"), encoding="utf-8")
    return path


def _long_number(folder: Path) -> Path:
    data = _army_data()
    data["points_limit"] = "LONG"
    path = folder / "bad.json"
    path.write_text(json.dumps(data).replace('"LONG"', "9" * 5000), encoding="utf-8")
    return path


def _pop(*path: str):
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[path[-1]]

    return change


def _put(value: Any, *path: str):
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[path[-1]] = value

    return change


BAD_IMPORTS = [
    (_json_file(_put("twenty", "units", "0", "models")), "units[0].models: a whole number is "
     "needed here, the file has the text \"twenty\""),
    (_json_file(_put(None, "units", "0", "models")), "units[0].models: a whole number is "
     "needed here, the file has nothing (null)"),
    (_json_file(_put(4.5, "units", "0", "models")), "units[0].models: a whole number is "
     "needed here, the file has the number 4.5"),
    (_json_file(_put([], "name")), "name: text is needed here, the file has a list []"),
    (_json_file(_put(" ", "name")), "name: text is needed here, the file has empty text"),
    (_json_file(_put({}, "units")), "units: a list is needed here, the file has a group of "
     "fields {}"),
    (_json_file(_put(["boyz"], "units")), "units[0]: a group of fields in { } is needed "
     "here, the file has the text \"boyz\""),
    (_json_file(_pop("format")), "this is not a Rout army file (its format should be "
     "'rout-army', the file has nothing (null))"),
    (_json_file(_put("5", "units", "1", "profile", "stats", "Ld")),
     "units[1].profile.stats.Ld: Leadership (Ld) must be a whole number"),
    (_json_file(_put(11, "units", "1", "profile", "stats", "Ld")),
     "units[1].profile.stats.Ld: Leadership (Ld) 11 is out of range 1 to 10"),
    (_json_file(_pop("units", "2", "profile", "stats", "Ld")),
     "units[2].profile.stats: the profile has no Leadership (Ld)"),
    (_json_file(_pop("name")), "name: is missing"),
    (_json_file(_pop("units", "0", "id")), "units[0].id: is missing"),
    (_json_file(_put(3, "units", "0", "wounds")), "units[0].wounds: unknown field 'wounds'"),
    (_json_file(_put("red", "colour")), "colour: unknown field 'colour'"),
    (_json_file(_put("spears", "units", "1", "id")), "units[1].id: the unit id 'spears' is "
     "used twice"),
    (_json_file(_put(99, "units", "0", "files")), "units[0].files: 99 files is more than the "
     "30 models"),
    (_json_file(_put(3, "version")), "version: version 3 was written by a newer Rout"),
    (_json_file(_put("warhammer9", "ruleset")), "ruleset: unknown ruleset 'warhammer9'"),
    # A battle document is read as a battle, and an army's fields do not belong in one.
    (_json_file(_put("rout-battle", "format")), "name: unknown field 'name'"),
    (_json_file(_put("rout-library", "format")), "this is not a Rout army file (its format "
     "should be 'rout-army', the file has the text \"rout-library\")"),
    (_huge_number, "units[0].models: the number is far too large"),
    (_long_number, "points_limit: the number is far too large"),
    (_raw_file(b"[1, 2, 3]"), "the file should hold a group of fields in { } at the top, and "
     "has a list [1, 2, 3]"),
    (_raw_file(b'{"format": "rout-army", "version": 1,'), "not valid JSON"),
    (_raw_file(b"not json at all"), "not valid JSON: a value was expected at line 1, column 1"),
    (_raw_file(b""), "not valid JSON"),
    (_raw_file(b"\xff\xfe{\x00}\x00"), "not a text file (expected UTF-8 JSON)"),
    (_raw_file(b'{"name": "Caf\xe9"}'), "not a text file"),
    (_raw_file(b"[" * 100_000), "JSON nested more than 64 deep"),
    (_folder, "is a folder, not a Rout JSON file"),
    (_missing, "no such file"),
    (_raw_file(b"{}", "army.xml"), "Rout imports .json, .ros and .rosz files, not a '.xml' file"),
    (_raw_file(b"{}", "army"), "not a name without an extension"),
    (_folder_without_extension, "is a folder, not a roster file (.json, .ros or .rosz)"),
    (_too_large, f"too large for a Rout JSON file (the limit is {MAX_INPUT_BYTES} bytes)"),
]


@pytest.mark.parametrize(("make", "says"), BAD_IMPORTS)
def test_bad_import_changes_nothing(capsys, stocked, tmp_path, make, says):
    path = make(tmp_path)
    before = Unchanged(capsys, stocked, path)
    line = bad(capsys, ["import", path, "--database", stocked.url], "rout import: ", says)
    if path.exists() or path.name == "missing.json":
        assert str(path) in line  # the file is named
    before.check()


def test_bad_import_does_not_create_a_database(capsys, database, tmp_path):
    path = _raw_file(b"not json")(tmp_path)
    bad(capsys, ["import", path, "--database", database.url], "rout import: ", "not valid JSON")
    assert not database.path.parent.exists()


def test_import_for_another_ruleset_is_refused(capsys, stocked, tmp_path):
    path = write_army(tmp_path, goblin_army())
    before = Unchanged(capsys, stocked, path)
    bad(capsys, ["import", path, "--ruleset", "kensei1", "--database", stocked.url],
        "rout import: ", "the army is for warhammer6, not kensei1")
    before.check()


def test_a_file_at_the_size_limit_is_read(capsys, database, tmp_path):
    text = json.dumps(army_to_json(goblin_army())).encode("utf-8")
    path = tmp_path / "padded.json"
    path.write_bytes(text + b" " * (MAX_INPUT_BYTES - len(text)))
    assert path.stat().st_size == MAX_INPUT_BYTES
    assert ok(capsys, "import", path, "--database", database.url)["units"] == 4


@pytest.mark.parametrize(("target", "says"), [
    ("nowhere/out.json", "cannot write there"),
    ("nowhere/deeper/out.md", "cannot write there"),
    ("out.pdf", "cannot tell the format from '.pdf' (use .json, .txt, .md, or .ros/.rosz"),
    ("out", "cannot tell the format from 'no extension'"),
])
def test_export_to_a_place_it_cannot_write_changes_nothing(capsys, stocked, tmp_path, target,
                                                           says):
    out = tmp_path / target
    before = Unchanged(capsys, stocked, out)
    line = bad(capsys, ["export", "Crane vanguard", out, "--database", stocked.url],
               "rout export: ", says)
    assert str(out) in line
    before.check()
    assert not (tmp_path / "nowhere").exists()


def test_export_onto_a_folder_is_refused_and_leaves_no_temporary_file(capsys, stocked,
                                                                      tmp_path):
    out = tmp_path / "folder.json"
    out.mkdir()
    before = Unchanged(capsys, stocked)
    bad(capsys, ["export", "Crane vanguard", out, "--database", stocked.url],
        "rout export: ", str(out), "cannot write it")
    before.check()
    assert out.is_dir() and list(out.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Crane vanguard.json", "db",
                                                          "folder.json"]


def test_export_of_an_unknown_army(capsys, stocked, tmp_path):
    out = tmp_path / "out.json"
    before = Unchanged(capsys, stocked, out)
    bad(capsys, ["export", "Dwarf Throng", out, "--database", stocked.url], "rout export: ",
        "no army or battle named 'Dwarf Throng'", str(stocked.path), "rout armies",
        "rout battles")
    before.check()


def test_export_with_an_unknown_format_option_is_refused(capsys, stocked, tmp_path):
    out = tmp_path / "out.json"
    before = Unchanged(capsys, stocked, out)
    bad(capsys, ["export", "Crane vanguard", out, "--format", "pdf", "--database",
                 stocked.url], "rout export: ", "invalid choice: 'pdf'")
    before.check()


@pytest.mark.parametrize(("url", "says"), [
    ("nosuchdriver://host/rout", "Rout has no driver for 'nosuchdriver' databases"),
    ("sqlite+nosuchdriver:///rout.sqlite", "no driver for 'sqlite+nosuchdriver'"),
])
@pytest.mark.parametrize("command", ["armies", "import", "export"])
def test_a_bad_database_url(capsys, stocked, tmp_path, url, says, command):
    army_file = write_army(tmp_path, goblin_army())
    out = tmp_path / "out.json"
    before = Unchanged(capsys, stocked, army_file, out)
    argv: list[object] = {"armies": ["armies"], "import": ["import", army_file],
                          "export": ["export", "Crane vanguard", out]}[command]
    bad(capsys, [*argv, "--database", url], f"rout {command}: ", says)
    bad(capsys, ["--database", url, *argv], f"rout {command}: ", says)
    before.check()
    assert not (tmp_path / "rout.sqlite").exists()


@pytest.mark.parametrize("form", ["absolute", "relative", "home"])
def test_every_command_takes_a_files_path_as_rout_does(capsys, stocked, tmp_path, monkeypatch,
                                                       form):
    """`rout --database PATH` opens a SQLite file by its path; so does every command (issue
    20, item 19: check-database refused one)."""
    monkeypatch.setenv("HOME", str(stocked.path.parent.parent))
    monkeypatch.chdir(stocked.path.parent.parent)
    given = {"absolute": str(stocked.path), "relative": str(stocked.path.relative_to(tmp_path)),
             "home": f"~/{stocked.path.relative_to(tmp_path)}"}[form]
    out = tmp_path / "out.json"
    for argv in (["armies"], ["battles"], ["check", "Crane vanguard"], ["check-database"],
                 ["export", "Crane vanguard", out]):
        by_url = ok(capsys, *argv, "--database", stocked.url)
        by_path = ok(capsys, *argv, "--database", given)
        assert by_path == by_url, argv
        assert ok(capsys, "--database", given, *argv) == by_url
    added = imported_by_path(capsys, tmp_path, given)
    assert added in [army["name"] for army in ok(capsys, "armies", "--database", stocked.url)]
    # ROUT_DATABASE takes the same forms.
    monkeypatch.setenv("ROUT_DATABASE", given)
    assert ok(capsys, "armies") == ok(capsys, "armies", "--database", stocked.url)


def imported_by_path(capsys, folder: Path, given: str) -> str:
    army = goblin_army("Path Goblins")
    ok(capsys, "import", write_army(folder, army, "path.json"), "--database", given)
    return army.name


# ---------------------------------------------------------------------------------------------
# A database file that is not one, or is damaged


def _corrupt(tmp_path: Path, kind: str, capsys) -> Path:
    path = tmp_path / "broken.sqlite"
    if kind == "random bytes":
        path.write_bytes(os.urandom(1) + bytes(range(256)) * 40)
    elif kind == "text file":
        path.write_text("my shopping list\n", encoding="utf-8")
    else:
        good = Database(tmp_path / "good.sqlite")
        imported(capsys, good, goblin_army(), tmp_path)
        data = good.path.read_bytes()
        assert not Path(f"{good.path}-wal").exists()
        path.write_bytes(data[:len(data) // 2])
    return path


@pytest.mark.parametrize(("kind", "says"), [
    ("random bytes", "is not a SQLite database"),
    ("text file", "is not a SQLite database"),
    ("truncated database", "is damaged"),
])
@pytest.mark.parametrize("command", ["armies", "import", "export"])
def test_a_corrupt_database_is_refused_and_left_as_it_is(capsys, tmp_path, kind, says,
                                                         command):
    path = _corrupt(tmp_path, kind, capsys)
    before = path.read_bytes()
    army_file = write_army(tmp_path, goblin_army(), "import-me.json")
    argv: list[object] = {"armies": ["armies"], "import": ["import", army_file],
                          "export": ["export", "Night Goblin Horde", tmp_path / "out.json"]
                          }[command]
    files = sorted(p.name for p in tmp_path.iterdir())
    line = bad(capsys, [*argv, "--database", f"sqlite:///{path}"], f"rout {command}: ",
               str(path), says, "Rout left it as it is")
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == files  # no -wal, -shm or backup
    assert not (tmp_path / "out.json").exists()
    assert "\n" not in line


def test_a_reader_that_stops_early_is_not_an_error(tmp_path):
    """`rout armies | head -1`: the closed pipe ends the output quietly, exit 0."""
    import subprocess
    import sys

    from desktop.store.store import Store

    url = f"sqlite:///{tmp_path / 'many.sqlite'}"
    with Store.open(url) as store:
        store.save_army(goblin_army())
    command = subprocess.Popen([sys.executable, "-m", "desktop", "armies", "--database", url],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert command.stdout is not None
    command.stdout.close()  # before the child writes anything: its print meets a closed pipe
    _, err = command.communicate(timeout=60)
    assert command.returncode == 0
    assert b"Traceback" not in err
