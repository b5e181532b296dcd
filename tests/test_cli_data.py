"""Game data in the database: `rout data add/list/remove/units` and desktop.store.gamedata.

The commands run through `desktop.cli.main(argv)` on a real SQLite file; the store functions
run on SQLite and on a real PostgreSQL server (the `database_url` fixture). The game system
and catalogue are the made-up ones of bsdata_samples.py. Bad input exits 2 with one
line and stores nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.reader import MAX_FILE_BYTES
from desktop.engine.bsdata.rosterfile import write_roster
from desktop.store.gamedata import DataInput, add_data, list_data, load_game_data
from desktop.store.store import Store

from bsdata_samples import BSDATA, CAT, GST, ROSTER, need, sample_data
from builders import assert_bad, run_cli


@pytest.fixture
def files(tmp_path):
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "Test Battles.gst").write_text(GST, encoding="utf-8")
    (folder / "Knights.cat").write_text(CAT, encoding="utf-8")
    (folder / ".git").mkdir()
    (folder / ".git" / "stale.cat").write_text("not even XML", encoding="utf-8")
    return folder


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'rout.sqlite'}"


def data_json(capsys, *argv):
    code, out, err = run_cli(capsys, "data", *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_a_folder_is_stored_listed_and_unchanged_files_are_not_stored_again(capsys, url,
                                                                           files):
    added = data_json(capsys, "add", files, "--database", url)
    assert [(d["name"], d["kind"]) for d in added["stored"]] == [
        ("Test Battles", "gameSystem"), ("Knights", "catalogue")]
    assert added["warnings"] == []
    listed = data_json(capsys, "list", "--database", url)
    [system] = listed["game_systems"]
    assert (system["name"], system["revision"], system["cost_types"]) == (
        "Test Battles", 3, ["pts"])
    assert [(c["name"], c["root_entries"], c["file"]) for c in system["catalogues"]] == [
        ("Knights", 2, "Knights.cat")]
    assert system["catalogues"][0]["sha256"] == hashlib.sha256(CAT.encode()).hexdigest()
    again = data_json(capsys, "add", files, "--database", url)
    assert (again["stored"], len(again["unchanged"])) == ([], 2)


def test_units_give_points_sizes_slots_and_options_from_the_catalogue(capsys, url, files):
    data_json(capsys, "add", files, "--database", url)
    found = data_json(capsys, "units", "Knights", "--database", url)
    assert found["catalogue"] == {"id": "cat", "name": "Knights", "revision": 1}
    assert found["game_system"] == {"id": "gs", "name": "Test Battles"}
    knights, paladin = found["units"]
    assert {k: knights[k] for k in ("name", "slot", "points_per_model", "base_points",
                                    "min_models", "max_models", "max_per_army")} == {
        "name": "Knights", "slot": "Core", "points_per_model": 24.0, "base_points": 120.0,
        "min_models": 5, "max_models": 15, "max_per_army": None}
    assert [(o["name"], o["points"], o["per_model"]) for o in knights["options"]] == [
        ("Stakes", 1.0, True), ("Warhorse", 0.0, False)]
    assert (paladin["slot"], paladin["points_per_model"], paladin["base_points"]) == (
        "Heroes", None, 60.0)
    items = {o["name"]: o for o in paladin["options"]}
    assert items["Sword of Tests"] == {
        "id": "p-items::l-sword::sword", "name": "Sword of Tests", "points": 45.0,
        "per_model": False, "group": "Magic Items", "group_points_limit": 50.0}
    assert items["Warhorse"]["points"] == 14.0  # the Paladin's link does not make it free


def test_a_newer_revision_replaces_the_stored_one_and_says_so(capsys, url, files):
    data_json(capsys, "add", files, "--database", url)
    newer = files.parent / "newer"
    newer.mkdir()
    (newer / "Knights.cat").write_text(CAT.replace('revision="1"', 'revision="2"'),
                                       encoding="utf-8")
    added = data_json(capsys, "add", newer, "--database", url)
    assert [d["revision"] for d in added["replaced"]] == [2]
    assert added["notes"] == ["Knights: revision 2 replaces the stored revision 1"]
    older = files.parent / "older"
    older.mkdir()
    (older / "Knights.cat").write_text(CAT.replace('revision="1"', 'revision="0"'),
                                       encoding="utf-8")
    kept = data_json(capsys, "add", older, "--database", url)
    assert kept["stored"] == [] and kept["replaced"] == []
    assert "the stored one is kept" in kept["notes"][0]
    catalogues = data_json(capsys, "list", "--database", url)["game_systems"][0]["catalogues"]
    assert [c["revision"] for c in catalogues] == [2]


def test_a_zip_of_a_repository_is_read(capsys, url, tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("repo-main/Test Battles.gst", GST)
        archive.writestr("repo-main/Knights.cat", CAT)
        archive.writestr("repo-main/README.md", "# data")
    (tmp_path / "repo.zip").write_bytes(buffer.getvalue())
    added = data_json(capsys, "add", tmp_path / "repo.zip", "--database", url)
    assert len(added["stored"]) == 2


def test_removing_a_game_system_removes_its_catalogues(capsys, url, files):
    data_json(capsys, "add", files, "--database", url)
    removed = data_json(capsys, "remove", "Test Battles", "--database", url)
    assert [d["name"] for d in removed["removed"]] == ["Test Battles", "Knights"]
    assert data_json(capsys, "list", "--database", url) == {"game_systems": []}


def test_a_catalogue_without_its_game_system_is_refused_naming_it(capsys, url, tmp_path):
    (tmp_path / "Knights.cat").write_text(CAT, encoding="utf-8")
    assert_bad(capsys, ["data", "add", tmp_path / "Knights.cat", "--database", url],
               "catalogue 'Knights' belongs to game system 'gs', which is neither given nor "
               "stored", prefix="rout data: ")
    assert not (tmp_path / "rout.sqlite").exists()  # nothing was written, not even a file


@pytest.mark.parametrize(("content", "says"), [
    ("<catalogue", "not well-formed XML"),
    (CAT.replace('value="24"', 'value="a lot"'), "<cost> value 'a lot' is not a number"),
    (CAT.replace("catalogueSchema", "otherSchema"), "wrong namespace"),
])
def test_one_bad_file_stores_nothing(capsys, url, files, content, says):
    data_json(capsys, "add", files / "Test Battles.gst", "--database", url)
    (files / "Broken.cat").write_text(content, encoding="utf-8")
    assert_bad(capsys, ["data", "add", files, "--database", url], "Broken.cat: ", says)
    listed = data_json(capsys, "list", "--database", url)
    assert listed["game_systems"][0]["catalogues"] == []


def test_a_zip_with_a_path_outside_itself_is_refused(capsys, url, tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../Knights.cat", CAT)
    (tmp_path / "evil.zip").write_bytes(buffer.getvalue())
    assert_bad(capsys, ["data", "add", tmp_path / "evil.zip", "--database", url],
               "evil.zip: refused: the zip holds a path outside itself '../Knights.cat'")


def test_units_of_an_unknown_or_ambiguous_catalogue(capsys, url, files):
    assert_bad(capsys, ["data", "units", "Knights", "--database", url],
               "no catalogue named 'Knights': no game data is stored")
    data_json(capsys, "add", files, "--database", url)
    assert_bad(capsys, ["data", "units", "Dwarfs", "--database", url],
               "no catalogue named 'Dwarfs'", "(see `rout data list`)")


def test_the_store_keeps_the_bytes_on_sqlite_and_postgresql(database_url):
    with Store.open(database_url) as store:
        report = add_data(store, [DataInput("Test Battles.gst", GST.encode()),
                                  DataInput("Knights.cat", CAT.encode())])
        assert len(report.stored) == 2
        assert [d.name for d in list_data(store)] == ["Test Battles", "Knights"]
        data = load_game_data(store, "gs", "cat")
    assert data.catalogues["cat"].name == "Knights"
    assert [e.name for e in data.catalogues["cat"].selection_entries] == ["Knights", "Paladin"]


def test_an_imported_roster_is_priced_from_the_stored_catalogue(capsys, url, files, tmp_path):
    data = sample_data()
    roster, force = actions.add_force(data, actions.new_roster("Lances"), "fe-army", "cat")
    roster, _ = actions.select_entry(data, roster, force, "paladin")
    roster, _ = actions.select_entry(data, roster, force, "knights")
    # The file says the Paladin costs 65 (an older book, a typo): the catalogue says 60.
    content = write_roster(data, roster).replace(b'value="60"', b'value="65"', 1)
    (tmp_path / "lances.ros").write_bytes(content)
    kept = data_json_import(capsys, tmp_path / "lances.ros", url)
    assert (kept["points"], "game_data" in kept) == (185, False)  # the file's figures
    data_json(capsys, "add", files, "--database", url)
    priced = data_json_import(capsys, tmp_path / "lances.ros", url)
    assert priced["points"] == 180
    assert priced["game_data"] == {"catalogue": "Knights", "game_system": "Test Battles",
                                   "linked_selections": 4, "costs": {"pts": 180.0},
                                   "errors": [], "army_book": True}
    assert "'Paladin': the roster says 65 pts, the catalogue gives 60; Rout uses the " \
           "catalogue's" in priced["warnings"]


def data_json_import(capsys, path, url):
    code, out, err = run_cli(capsys, "import", path, "--ruleset", "warhammer6", "--database",
                             url)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def test_the_new_recruit_roster_imports_at_705_points_from_the_stored_catalogue(capsys, url):
    """The acceptance roster (shared README): priced from lexicanum's Bretonnia catalogue,
    all 48 selections found, 705 pts, 2 Casting Dice, 2 Dispel Dice, no validation error."""
    need(ROSTER)
    folder = BSDATA / "lexicanum"
    need(folder)
    data_json(capsys, "add", folder / "Warhammer Fantasy Battles (6th definitive edition).gst",
              folder / "Bretonnia (6th definitive edition).cat",
              folder / "Mercenaries (6th definitive edition).cat", "--database", url)
    imported = data_json_import(capsys, ROSTER, url)
    assert imported["points"] == 705
    assert imported["game_data"] == {
        "catalogue": "Bretonnia", "game_system": "Warhammer Fantasy Battles (6th definitive "
        "edition)", "linked_selections": 48,
        "costs": {"pts": 705.0, "Casting Dice": 2.0, "Dispel Dice": 2.0}, "errors": [],
        "army_book": True}
    assert not any("catalogue gives" in w for w in imported["warnings"])



# `rout data add` in a process of its own that, done, writes the most memory it held: the
# high-water mark of its own memory since it started (ru_maxrss would not do: Linux carries
# it over from the process that started it, here pytest's).
PEAK_OF_DATA_ADD = """import sys
from desktop.cli import main
code = main(sys.argv[1:])
with open("/proc/self/status", encoding="ascii") as status:
    sys.stderr.write(next(line for line in status if line.startswith("VmHWM:")))
sys.exit(code)
"""


def peak_of_data_add(path, url):
    """`rout data add PATH`'s exit code, its last line before the peak, and its peak
    resident memory in MiB."""
    done = subprocess.run([sys.executable, "-c", PEAK_OF_DATA_ADD, "data", "add", str(path),
                           "--database", url], capture_output=True, text=True, cwd=REPO,
                          check=False)
    *lines, peak = done.stderr.splitlines()
    return done.returncode, lines[-1], int(peak.split()[1]) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_a_small_zip_declaring_too_much_is_refused_before_unpacking(url, tmp_path):
    # 513 members of 1 MiB of zeros: a 0.5 MB zip, each member within every limit of its
    # own, together past the 512 MiB Rout reads at once. Unpacking them all and then
    # counting held 513 MiB at once.
    buffer = io.BytesIO()
    zeros = bytes(1024 * 1024)
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number in range(513):
            archive.writestr(f"repo/army{number}.cat", zeros)
    (tmp_path / "bomb.zip").write_bytes(buffer.getvalue())
    code, line, peak = peak_of_data_add(tmp_path / "bomb.zip", url)
    assert (code, line) == (2, f"rout data: {tmp_path / 'bomb.zip'}: more than 2000 files "
                               "or 536870912 bytes of game data at once")
    assert peak < 200, peak


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_a_folder_of_files_too_large_together_is_refused_before_reading(url, tmp_path):
    # Nine sparse 64 MiB files (the most one file may hold): 576 MiB together. Reading
    # them all and then counting held 576 MiB at once.
    folder = tmp_path / "repo"
    folder.mkdir()
    for number in range(9):
        with (folder / f"army{number}.cat").open("wb") as handle:
            handle.truncate(MAX_FILE_BYTES)
    code, line, peak = peak_of_data_add(folder, url)
    assert (code, line) == (2, f"rout data: {folder}: more than 2000 files or 536870912 "
                               "bytes of game data at once")
    assert peak < 200, peak
