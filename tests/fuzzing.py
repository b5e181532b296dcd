"""Inputs for fuzzing the `rout` command, and the promise every run must keep.

Strategies make what a player or a file can hand the CLI: odds arguments, database URLs,
scenarios, Rout JSON armies and battles, BattleScribe rosters (XML and zip), each built from a
good input with a few parts changed, broken or replaced, so that most of them get far into the
readers. `check` holds a run to the promise (README, "Headless commands"): exit 0 or 2, at
most one line on stderr, no traceback, within a time and memory bound.

tests/test_fuzz_cli.py runs a few dozen examples of each; tests/bench/fuzz_cli.py runs many
more (ROUT_FUZZ_EXAMPLES).
"""

from __future__ import annotations

import io
import json
import os
import resource
import time
import warnings
import zipfile
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.rosterfile import write_roster

from bsdata_samples import CAT, GST, sample_data

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((REPO / "resources" / "scenarios").glob("*.json"))
ROSTER = REPO / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"

EXAMPLES = int(os.environ.get("ROUT_FUZZ_EXAMPLES", "25"))
SECONDS = 20.0  # one run, in the test process; most take milliseconds
MEMORY_MB = 512  # how far one run may raise the process's high-water mark


def fuzz_settings(share: float = 1.0) -> settings:
    return settings(max_examples=max(1, int(EXAMPLES * share)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ---------------------------------------------------------------------------------------------
# Running the command and the promise


@dataclass(frozen=True)
class Outcome:
    argv: tuple[str, ...]
    code: int
    out: str
    err: str
    seconds: float
    grown_mb: float


def _high_water_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_in_process(argv: Sequence[object]) -> Outcome:
    """`rout ARGV` through desktop.cli.main; an exception escaping it is the traceback a
    player would see, so it is not caught here."""
    from desktop.cli import main

    texts = tuple(str(arg) for arg in argv)
    out, err = io.StringIO(), io.StringIO()
    before, started = _high_water_mb(), time.perf_counter()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(texts))
        except SystemExit as done:  # argparse's --help: the real command exits the same way
            code = done.code if isinstance(done.code, int) else 1
    return Outcome(texts, code, out.getvalue(), err.getvalue(),
                   time.perf_counter() - started, _high_water_mb() - before)


def check(outcome: Outcome, seconds: float = SECONDS, memory_mb: float = MEMORY_MB) -> None:
    where = f"rout {' '.join(repr(a)[:60] for a in outcome.argv)[:400]}"
    assert outcome.code in (0, 2), f"{where}: exit {outcome.code}\n{outcome.err[-2000:]}"
    assert "Traceback" not in outcome.err, f"{where}:\n{outcome.err[-2000:]}"
    lines = outcome.err.splitlines()
    assert len(lines) <= 1, f"{where}: {len(lines)} lines on stderr: {outcome.err[:500]!r}"
    if outcome.code == 2:
        assert lines and outcome.out == "", where
        assert lines[0].isprintable() and len(lines[0]) <= 500, f"{where}: {lines[0]!r}"
    else:
        assert outcome.err == "", where
        if not {"-h", "--help"} & set(outcome.argv):  # help is text, not JSON
            json.loads(outcome.out)
    assert outcome.seconds < seconds, f"{where}: {outcome.seconds:.1f} s"
    assert outcome.grown_mb < memory_mb, f"{where}: {outcome.grown_mb:.0f} MB more"


# ---------------------------------------------------------------------------------------------
# Text and values


ODD_TEXT = ["", " ", "\n", "a\nb", "\x1b[31mred\x1b[0m", "\x00", "\udc80", "\ud800x", "\u2028",
            "é", "\U0001F600", "'", '"', "\\", "..", "../x", "9" * 5000, "x" * 100_000, "-1",
            "1e309", "NaN", "0x10", "١٢", "D6", "2D6+1", "12d20", "[", "{"]
# Any code point, lone surrogates (what "\udc80" in a JSON file becomes) and controls too.
odd_text = st.sampled_from(ODD_TEXT) | st.text(max_size=20) | st.text(
    st.characters(exclude_categories=()), max_size=20)
numbers = st.sampled_from([0, 1, -1, 2, 6, 10, 11, 12, 100, 10**6, 10**6 + 1, 2**31, 2**63,
                           10**4000]) | st.integers() | st.floats(allow_nan=False)
json_leaves = st.none() | st.booleans() | numbers | odd_text
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(odd_text, inner, max_size=3), max_leaves=8)


def _places(document: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON document, as the keys and indexes that lead to it."""
    found = [path]
    if isinstance(document, dict):
        for key, value in document.items():
            found += _places(value, (*path, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _places(value, (*path, index))
    return found


@st.composite
def changed(draw: st.DrawFn, document: Any, most: int = 3) -> Any:
    """`document` with one to `most` places replaced, removed, doubled or joined by a key."""
    document = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, most))):
        path = draw(st.sampled_from(_places(document)))
        if not path:
            if draw(st.integers(0, 9)) == 0:
                return draw(json_values)
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["same kind", "same kind", "replace", "remove", "double",
                                    "extra"]))
        if how == "same kind":  # keeps the document readable more often: deeper inputs
            old = parent[key]
            if isinstance(old, str):
                parent[key] = draw(odd_text)
            elif isinstance(old, bool) or not isinstance(old, int | float):
                continue
            else:
                kind = type(old)
                parent[key] = draw(numbers.filter(lambda n, kind=kind: type(n) is kind))
        elif how == "replace":
            parent[key] = draw(json_values)
        elif how == "remove":
            del parent[key]
        elif how == "double" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(parent[key])))
        elif isinstance(parent, dict):
            parent[draw(odd_text)] = draw(json_values)
    return document


@st.composite
def json_bytes(draw: st.DrawFn, name: str) -> bytes:
    """A good document (by name) as a file holds it, with a few changes: mostly JSON,
    sometimes with its bytes damaged."""
    text = json.dumps(draw(changed(documents()[name])), ensure_ascii=draw(st.booleans()))
    data = text.encode("utf-8", "surrogatepass")
    return draw(damaged(data)) if draw(st.integers(0, 5)) == 0 else data


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """A few bytes flipped, cut or inserted: what a bad download or disk does to a file."""
    buffer = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        if not buffer:
            break
        at = draw(st.integers(0, len(buffer) - 1))
        how = draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
        if how == "flip":
            buffer[at] ^= draw(st.integers(1, 255))
        elif how == "cut":
            del buffer[at:at + draw(st.integers(1, 64))]
        elif how == "insert":
            buffer[at:at] = draw(st.binary(min_size=1, max_size=16))
        else:
            del buffer[at:]
    return bytes(buffer)


# ---------------------------------------------------------------------------------------------
# Odds arguments

dice_text = st.from_regex(r"\A\s?\d{0,3}[dD]\d{0,3}(\s?[+-]\s?\d{0,4})?\s?\Z") | odd_text
number_text = st.integers(-20, 30).map(str) | st.sampled_from(["9" * 5000, "1e3", "x", ""])
ODDS_FLAGS = ["--ld", "--diff", "--dice", "--flee", "--pursue", "--honor", "--stubborn",
              "--double-one-holds", "--ties-escape", "--ronin", "--below", "-h"]


@st.composite
def odds_arguments(draw: st.DrawFn) -> list[str]:
    test = draw(st.sampled_from(["break", "panic", "catch", "honor"]) | odd_text)
    words: list[str] = ["odds", test]
    if test == "catch" and draw(st.booleans()):
        words += ["--flee", draw(dice_text), "--pursue",
                  *draw(st.lists(dice_text, min_size=0, max_size=14))]
    for _ in range(draw(st.integers(0, 5))):
        flag = draw(st.sampled_from(ODDS_FLAGS))
        words.append(flag)
        if flag in ("--ld", "--diff", "--honor"):
            words.append(draw(number_text))
        elif flag in ("--dice", "--flee", "--pursue"):
            words.append(draw(dice_text))
    if draw(st.integers(0, 9)) == 0:
        words.append(draw(odd_text))
    return words


# ---------------------------------------------------------------------------------------------
# Database URLs (never a host on the network: a fuzzed name could make a real DNS lookup)

SAFE_HOSTS = ["127.0.0.1", "[::1]", "localhost", ""]


@st.composite
def database_urls(draw: st.DrawFn, folder: Path) -> str:
    kind = draw(st.sampled_from(["sqlite", "postgresql", "other", "text"]))
    if kind == "text":
        return draw(odd_text | st.text(max_size=40))
    query = draw(st.lists(st.tuples(st.sampled_from(["timeout", "sslmode", "connect_timeout",
                                                    "application_name", "x", "password"]),
                                    odd_text.filter(lambda t: len(t) < 50)), max_size=2))
    tail = ("?" + "&".join(f"{key}={value}" for key, value in query)) if query else ""
    if kind == "sqlite":
        name = draw(st.text(st.characters(exclude_characters="/", codec="utf-8"),
                            max_size=30) | st.sampled_from(ODD_TEXT).filter(
                                lambda t: "/" not in t))
        user = draw(st.sampled_from(["", "", "user@", "user:pw@", ":pw@h", "host"]))
        return f"sqlite://{user}/{folder}/{name}{tail}"
    scheme = draw(st.sampled_from(["postgresql+psycopg", "postgresql", "postgres",
                                   "postgresql+nosuch", "mysql", "sqlite+x", "", "a b"])) \
        if kind == "other" else "postgresql+psycopg"
    user = draw(st.sampled_from(["", "rout@", "rout:secret@", ":secret@", "a@b:c@"]))
    host = draw(st.sampled_from([*SAFE_HOSTS, "[::1", "[zz]"]))
    port = draw(st.sampled_from(["", ":1", ":99999999", ":secret", ":-1", ":"]) | odd_text.map(
        lambda t: ":" + t[:20]))
    database = draw(st.sampled_from(["/rout", "/", "", "/a/b"]) | odd_text.map(
        lambda t: "/" + t[:20]))
    return f"{scheme}://{user}{host}{port}{database}{tail}"


def reaches_the_network(url: str) -> bool:
    """Whether connecting could look up a name elsewhere than this machine."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # not a URL: the command refuses it before connecting
        return False
    if not parsed.get_backend_name().startswith("postgres"):
        return False
    return (parsed.host or "") not in ("127.0.0.1", "::1", "localhost", "") or any(
        key in parsed.query for key in ("host", "hostaddr", "service"))


# ---------------------------------------------------------------------------------------------
# Scenarios, armies and battles


@cache
def documents() -> dict[str, Any]:
    """Good inputs to start from, by name (hypothesis then shows the name, not the data)."""
    found = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in SCENARIOS}
    found["army"], found["battle"] = army_document(), battle_document()
    return found


def army_document() -> dict[str, Any]:
    from desktop.engine.codec import army_to_json
    from desktop.store.transfer import read_army_file

    return army_to_json(read_army_file(ROSTER).army)


def battle_document() -> dict[str, Any]:
    from desktop.engine.codec import battle_to_json
    from desktop.engine.dice import ScriptedRoller, SeededRoller
    from desktop.engine.procedure import ScriptedAnswers, run
    from desktop.engine.scenario import load_scenario

    scenario = load_scenario(json.loads(SCENARIOS[-1].read_text(encoding="utf-8")))
    roller = ScriptedRoller(scenario.dice, then=SeededRoller(7))
    session = run(scenario.start(), ScriptedAnswers(roller, scenario.choices))
    return battle_to_json(scenario.battle, scenario.title, session.events or ())


@st.composite
def scenario_commands(draw: st.DrawFn, path: Path) -> list[str]:
    path.write_bytes(draw(json_bytes(draw(st.sampled_from([p.stem for p in SCENARIOS])))))
    command = draw(st.sampled_from(["resolve", "forecast", "move"]))
    words = [command, str(path)]
    if command == "move":
        words += ["--unit", draw(st.sampled_from(["goblins", "elves", "handgunners"])
                                 | odd_text)]
        how = draw(st.sampled_from(["--to", "--wheel", "--charge", "--reform"]))
        words += [how, draw(st.sampled_from(["30,24", "0,0", "1e309,1", "10", "-45", "boyz",
                                             "3", "0"]) | odd_text)]
    else:
        for _ in range(draw(st.integers(0, 2))):
            words += [draw(st.sampled_from(["--dice", "--choose", "--seed"])),
                      draw(st.sampled_from(["6,6", "1,1,1", "pursue:goblins=hold", "7",
                                            "0", "-1"]) | odd_text)]
        if command == "resolve" and draw(st.booleans()):
            words.append("--preview")
        if command == "forecast" and draw(st.integers(0, 3)) == 0:
            words += ["--samples", draw(st.sampled_from(["1", "50", "0", "-1", "x"]))]
    return words


# ---------------------------------------------------------------------------------------------
# BattleScribe rosters


@cache
def roster_xml() -> bytes:
    with zipfile.ZipFile(ROSTER) as archive:
        [member] = [m for m in archive.namelist() if m.endswith(".ros")]
        return archive.read(member)


XML_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                   max_size=30) | st.sampled_from(["-1", "1e309", "NaN", "9" * 400,
                                                   "100000000", "25x50", "2D6", "", " "])


@st.composite
def roster_bytes(draw: st.DrawFn) -> bytes:
    """The real roster with attributes and texts changed, elements cut or repeated; or its
    bytes damaged."""
    return draw(mutated_xml(roster_xml()))


@st.composite
def data_file_bytes(draw: st.DrawFn, kind: str) -> bytes:
    """The made-up game system or catalogue of the engine's tests (bsdata_samples), changed
    as rosters are: attributes (ids, links, numbers), texts, elements cut or repeated."""
    return draw(mutated_xml((GST if kind == "gst" else CAT).encode()))


@cache
def sample_roster_xml() -> bytes:
    """A roster of the made-up catalogue, as the engine writes it."""
    data = sample_data()
    roster, force = actions.add_force(data, actions.new_roster("Lances"), "fe-army", "cat")
    roster, paladin = actions.select_entry(data, roster, force, "paladin")
    roster, _ = actions.select_entry(data, roster, force, "l-sword", paladin)
    roster, _ = actions.select_entry(data, roster, force, "knights")
    return write_roster(data, roster)


@st.composite
def mutated_xml(draw: st.DrawFn, xml: bytes) -> bytes:
    """`xml` with attributes and texts changed, elements cut or repeated; or its bytes
    damaged."""
    if draw(st.integers(0, 4)) == 0:
        return draw(damaged(xml))
    root = ElementTree.fromstring(xml)
    elements = list(root.iter())
    for _ in range(draw(st.integers(1, 4))):
        element = draw(st.sampled_from(elements))
        how = draw(st.sampled_from(["attribute", "attribute", "text", "repeat", "drop"]))
        if how == "attribute":
            names = [*element.attrib, "number", "name", "value", "type", "customName",
                     "targetId", "id", "field", "scope", "childId"]
            element.set(draw(st.sampled_from(names)), draw(XML_TEXT))
        elif how == "text":
            element.text = draw(XML_TEXT)
        else:
            parent = next((p for p in elements if element in list(p)), None)
            if parent is None:
                continue
            if how == "drop":
                parent.remove(element)
            else:
                for _ in range(draw(st.integers(1, 30))):
                    parent.append(ElementTree.fromstring(ElementTree.tostring(element)))
    return ElementTree.tostring(root, encoding="utf-8")


@st.composite
def rosz_bytes(draw: st.DrawFn) -> bytes:
    """A zip around a roster: odd member names, several members, or damaged bytes."""
    names = draw(st.lists(st.sampled_from(["army.ros", "a/b.ros", "../evil.ros", "/abs.ros",
                                           "x.txt", "__MACOSX/._army.ros", "C:/x.ros"])
                          | odd_text.map(lambda t: t[:40] + ".ros"), min_size=1,
                          max_size=3))
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", draw(st.sampled_from(
            [zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]))) as archive:
        warnings.simplefilter("ignore")  # two members of one name: wanted here
        for name in names:
            try:
                archive.writestr(name, draw(roster_bytes()))
            except (ValueError, UnicodeEncodeError, IndexError):  # a name zip cannot hold
                continue
    data = buffer.getvalue()
    return draw(damaged(data)) if draw(st.integers(0, 3)) == 0 else data
