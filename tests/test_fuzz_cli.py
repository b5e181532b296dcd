"""Fuzzing the `rout` command: whatever it is handed, it answers with JSON and exit 0, or
with one line on stderr and exit 2; never a traceback, never stuck, never a memory blow-up.

Inputs come from tests/fuzzing.py: odds arguments, database URLs, scenarios for `resolve`,
`forecast` and `move`, Rout JSON armies and battles, BattleScribe rosters as XML and zip.
Each test runs desktop.cli.main in this process (ROUT_FUZZ_EXAMPLES examples, 25 by default);
a few run `python -m desktop` in a subprocess under an address-space limit. A longer run:
`python tests/bench/fuzz_cli.py`.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from fuzzing import (
    REPO,
    Outcome,
    check,
    data_file_bytes,
    database_urls,
    fuzz_settings,
    json_bytes,
    mutated_xml,
    odds_arguments,
    reaches_the_network,
    roster_bytes,
    rosz_bytes,
    run_in_process,
    sample_roster_xml,
    scenario_commands,
)


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path, monkeypatch):
    """Relative paths a fuzzed argument names land in a scratch folder."""
    monkeypatch.chdir(tmp_path)


@fuzz_settings()
@given(odds_arguments())
def test_odds_arguments(argv):
    check(run_in_process(argv))


@fuzz_settings()
@given(st.data())
def test_database_urls(data):
    with tempfile.TemporaryDirectory() as folder:
        url = data.draw(database_urls(Path(folder)))
        assume(not reaches_the_network(url))
        command = data.draw(st.sampled_from(["armies", "battles", "export"]))
        argv = [command, "--database", url]
        if command == "export":
            argv[1:1] = ["Some army", str(Path(folder) / "out.json")]
        check(run_in_process(argv))


@fuzz_settings()
@given(st.data())
def test_scenarios(data):
    with tempfile.TemporaryDirectory() as folder:
        argv = data.draw(scenario_commands(Path(folder) / "scenario.json"))
        check(run_in_process(argv))


def _import_then_round_trip(path: Path, folder: Path) -> None:
    """Import; what was imported exports in every format and its JSON imports again."""
    url = f"sqlite:///{folder / 'rout.sqlite'}"
    imported = run_in_process(["import", path, "--database", url])
    check(imported)
    if imported.code != 0:
        return
    found = json.loads(imported.out)
    name = found.get("army") or found["battle"]
    for suffix in ([".json", ".txt", ".md"] if "army" in found else [".json"]):
        exported = folder / f"exported{suffix}"
        done = run_in_process(["export", name, exported, "--database", url])
        check(done)
        assert done.code == 0, done.err
    again = run_in_process(["import", folder / "exported.json", "--database", url])
    check(again)
    assert again.code == 0, again.err


@fuzz_settings()
@given(st.data())
def test_rout_json_armies_and_battles(data):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "in.json"
        path.write_bytes(data.draw(json_bytes(data.draw(st.sampled_from(["army", "battle"])))))
        _import_then_round_trip(path, folder)


@fuzz_settings()
@given(st.data())
def test_battlescribe_rosters(data):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        zipped = data.draw(st.booleans())
        path = folder / ("in.rosz" if zipped else "in.ros")
        path.write_bytes(data.draw(rosz_bytes() if zipped else roster_bytes()))
        _import_then_round_trip(path, folder)


@fuzz_settings()
@given(st.data())
def test_game_data(data):
    """`rout data add` of a changed game system and catalogue, then `rout data units` and an
    import priced from what was stored: exit 0 or one line, never a traceback."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "repo").mkdir()
        (folder / "repo" / "test.gst").write_bytes(data.draw(data_file_bytes("gst")))
        (folder / "repo" / "test.cat").write_bytes(data.draw(data_file_bytes("cat")))
        database = f"sqlite:///{folder / 'rout.sqlite'}"
        added = run_in_process(["data", "add", folder / "repo", "--database", database])
        check(added)
        if added.code == 0:
            check(run_in_process(["data", "units", data.draw(st.sampled_from(
                ["Knights", "cat", "gs/cat", "nothing"])), "--database", database]))
            check(run_in_process(["data", "list", "--database", database]))
            path = folder / "in.ros"
            path.write_bytes(data.draw(mutated_xml(sample_roster_xml())))
            check(run_in_process(["import", path, "--database", database]))


# ---------------------------------------------------------------------------------------------
# The real command, in a subprocess with its memory bounded

ADDRESS_SPACE = 2 * 1024**3  # bytes; the CLI without the GUI maps about 200 MB


def _can_pass(text: str) -> bool:
    try:
        return b"\x00" not in os.fsencode(text)
    except UnicodeEncodeError:
        return False


def run_module(argv: list[object]) -> Outcome:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "desktop", *map(str, argv)], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, errors="backslashreplace", timeout=120, check=False,
                          preexec_fn=limit)
    return Outcome(tuple(map(str, argv)), done.returncode, done.stdout, done.stderr,
                   time.perf_counter() - started, 0.0)


@fuzz_settings(share=0.2)
@given(st.data())
def test_the_real_command(data):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        kind = data.draw(st.sampled_from(["odds", "url", "army", "roster"]))
        if kind == "odds":
            argv: list[object] = data.draw(odds_arguments())
        elif kind == "url":
            url = data.draw(database_urls(folder))
            assume(not reaches_the_network(url))
            argv = ["armies", "--database", url]
        else:
            path = folder / ("in.json" if kind == "army" else "in.rosz")
            path.write_bytes(data.draw(json_bytes("army") if kind == "army"
                                       else rosz_bytes()))
            argv = ["import", path, "--database", f"sqlite:///{folder / 'rout.sqlite'}"]
        # Arguments a process cannot be given (a NUL, a lone surrogate the file system
        # encoding cannot write) are the shell's refusal, not Rout's.
        assume(all(_can_pass(str(arg)) for arg in argv))
        check(run_module(argv), seconds=60)
