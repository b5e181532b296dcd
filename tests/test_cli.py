"""The headless `rout` command: `rout odds ...` and `rout resolve SCENARIO.json ...`.

Contract (DESIGN.md "Headless surfaces", desktop/cli.py): good input prints JSON on stdout and
exits 0; bad input prints exactly one line on stderr that names the problem and exits 2, never
a traceback.

Most tests call `desktop.cli.main([...])` in the test process (fast). A few run
`python -m desktop ...` in a subprocess to prove the real entry point behaves the same.

Every expected chance is counted here by enumerating dice faces with itertools; nothing calls
the engine's odds or distributions to produce an expected value.
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from desktop.cli import MAX_SCENARIO_BYTES, main

from builders import assert_bad, run_cli

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "resources" / "scenarios"
BUNDLED = sorted(SCENARIOS.glob("*.json"))
GOBLINS = SCENARIOS / "w6-goblins-vs-elves.json"
FOUR_UNITS = SCENARIOS / "w6-four-units.json"


# ---------------------------------------------------------------------------------------------
# Helpers


def ok_json(capsys: pytest.CaptureFixture[str], *argv: object) -> dict[str, Any]:
    code, out, err = run_cli(capsys, *argv)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def run_module(*argv: object) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "desktop", *map(str, argv)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def scenario_data(path: Path = GOBLINS) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def write_scenario(tmp_path: Path, data: object, name: str = "scenario.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def mutated(tmp_path: Path, mutate: Any, source: Path = GOBLINS) -> Path:
    data = copy.deepcopy(scenario_data(source))
    mutate(data)
    return write_scenario(tmp_path, data)


# ---------------------------------------------------------------------------------------------
# Brute-force odds, independent of desktop.engine


_DICE = re.compile(r"^(\d*)[dD](\d+)([+-]\d+)?$")


def dice_spec(text: str) -> tuple[int, int, int]:
    count, sides, modifier = _DICE.fullmatch(text).groups()
    return int(count or 1), int(sides), int(modifier or 0)


def rolls(text: str):
    count, sides, modifier = dice_spec(text)
    for faces in product(range(1, sides + 1), repeat=count):
        yield faces, sum(faces) + modifier


@cache
def total_ways(text: str) -> dict[int, int]:
    return dict(Counter(total for _, total in rolls(text)))


def outcomes(text: str) -> int:
    count, sides, _ = dice_spec(text)
    return sides**count


def brute_break(ld: int, diff: int, dice: str = "2D6", *, stubborn: bool = False,
                double_one_holds: bool = False) -> Fraction:
    breaks = 0
    for faces, total in rolls(dice):
        fails = total + (0 if stubborn else diff) > ld
        if double_one_holds and all(face == 1 for face in faces):
            fails = False
        breaks += fails
    return Fraction(breaks, outcomes(dice))


def brute_panic(ld: int, dice: str = "2D6") -> Fraction:
    return Fraction(sum(total > ld for _, total in rolls(dice)), outcomes(dice))


def brute_caught(flee: str, pursuers: list[str], *, ties_caught: bool = True) -> Fraction:
    """Enumerate the highest pursuit pair by pair, then compare with every flee total."""
    highest: dict[int | None, int] = {None: 1}  # None: no pursuer counted yet
    for pursuer in pursuers:
        combined: Counter[int | None] = Counter()
        for best, best_ways in highest.items():
            for total, ways in total_ways(pursuer).items():
                combined[total if best is None else max(best, total)] += best_ways * ways
        highest = dict(combined)
    caught = 0
    everything = outcomes(flee)
    for pursuer in pursuers:
        everything *= outcomes(pursuer)
    for flee_total, flee_ways in total_ways(flee).items():
        for best, best_ways in highest.items():
            assert best is not None
            if best > flee_total or (ties_caught and best == flee_total):
                caught += flee_ways * best_ways
    return Fraction(caught, everything)


def percent_text(chance: Fraction) -> str:
    """How the CLI documents a percentage: 41.7%, <0.1%, >99.9%, 0%, 100%."""
    if chance == 1:
        return "100%"
    if chance == 0:
        return "0%"
    if chance * 100 < Fraction(1, 10):
        return "<0.1%"
    if chance * 100 > Fraction(999, 10):
        return ">99.9%"
    return f"{float(chance) * 100:.1f}%"


def chance_json(chance: Fraction) -> dict[str, Any]:
    return {"chance": str(chance), "percent": percent_text(chance), "value": float(chance)}


# ---------------------------------------------------------------------------------------------
# rout odds break / panic / catch


def test_break_example_from_the_design(capsys):
    data = ok_json(capsys, "odds", "break", "--ld", 8, "--diff", 3)
    assert brute_break(8, 3) == Fraction(13, 18)
    assert data["breaks"] == {"chance": "13/18", "percent": "72.2%",
                              "value": float(Fraction(13, 18))}
    assert data["holds"] == {"chance": "5/18", "percent": "27.8%",
                             "value": float(Fraction(5, 18))}
    assert data["test"] == "break"
    assert data["ld"] == 8
    assert data["difference"] == 3
    assert data["dice"] == "2D6"
    assert data["stubborn"] is False
    assert data["double_one_holds"] is False


def test_break_every_leadership_and_difference(capsys):
    for ld in range(1, 11):
        for diff in (0, 1, 2, 3, 5, 9, 12):
            data = ok_json(capsys, "odds", "break", "--ld", ld, "--diff", diff)
            breaks = brute_break(ld, diff)
            assert data["breaks"] == chance_json(breaks), (ld, diff)
            assert data["holds"] == chance_json(1 - breaks), (ld, diff)


def test_break_difference_defaults_to_zero(capsys):
    data = ok_json(capsys, "odds", "break", "--ld", 7)
    assert data["difference"] == 0
    assert data["breaks"] == chance_json(brute_break(7, 0))


@pytest.mark.parametrize(("ld", "diff"), [(8, 3), (6, 6), (10, 0), (3, 1)])
def test_break_stubborn_ignores_the_difference(capsys, ld, diff):
    data = ok_json(capsys, "odds", "break", "--ld", ld, "--diff", diff, "--stubborn")
    assert data["stubborn"] is True
    assert data["breaks"] == chance_json(brute_break(ld, diff, stubborn=True))
    assert data["breaks"] == chance_json(brute_panic(ld))


@pytest.mark.parametrize(("ld", "diff"), [(8, 3), (1, 0), (2, 5), (10, 12), (6, 0)])
def test_break_double_one_holds(capsys, ld, diff):
    data = ok_json(capsys, "odds", "break", "--ld", ld, "--diff", diff, "--double-one-holds")
    breaks = brute_break(ld, diff, double_one_holds=True)
    assert data["double_one_holds"] is True
    assert data["breaks"] == chance_json(breaks)
    assert data["holds"] == chance_json(1 - breaks)


def test_break_double_one_holds_with_stubborn(capsys):
    data = ok_json(capsys, "odds", "break", "--ld", 1, "--diff", 4, "--stubborn",
                   "--double-one-holds")
    assert data["breaks"] == chance_json(brute_break(1, 4, stubborn=True,
                                                     double_one_holds=True))
    assert data["breaks"]["chance"] == "35/36"


@pytest.mark.parametrize("dice", ["3D6", "D6", "2D6+1", "d10", "2d10"])
def test_break_other_dice(capsys, dice):
    data = ok_json(capsys, "odds", "break", "--ld", 8, "--diff", 2, "--dice", dice)
    assert data["breaks"] == chance_json(brute_break(8, 2, dice))


def test_break_sure_things_print_0_and_100_percent(capsys):
    always = ok_json(capsys, "odds", "break", "--ld", 1, "--diff", 0)
    assert always["breaks"] == {"chance": "1", "percent": "100%", "value": 1.0}
    assert always["holds"] == {"chance": "0", "percent": "0%", "value": 0.0}
    never = ok_json(capsys, "odds", "break", "--ld", 10, "--diff", 0, "--dice", "D6")
    assert never["breaks"]["percent"] == "0%"


def test_break_huge_difference_is_a_sure_break(capsys):
    data = ok_json(capsys, "odds", "break", "--ld", 10, "--diff", 10**30)
    assert data["breaks"]["chance"] == "1"


def test_panic_example(capsys):
    data = ok_json(capsys, "odds", "panic", "--ld", 7)
    assert brute_panic(7) == Fraction(5, 12)
    assert data["flees"] == {"chance": "5/12", "percent": "41.7%",
                             "value": float(Fraction(5, 12))}
    assert data["passes"] == chance_json(Fraction(7, 12))
    assert data["test"] == "panic"
    assert data["ld"] == 7


def test_panic_every_leadership(capsys):
    for ld in range(1, 11):
        for dice in ("2D6", "3D6"):
            data = ok_json(capsys, "odds", "panic", "--ld", ld, "--dice", dice)
            assert data["flees"] == chance_json(brute_panic(ld, dice)), (ld, dice)
            assert data["passes"] == chance_json(1 - brute_panic(ld, dice)), (ld, dice)


def test_catch_two_d6_against_two_d6(capsys):
    data = ok_json(capsys, "odds", "catch", "--flee", "2D6", "--pursue", "2D6")
    # Counted by hand: a tie has 146/1296, so caught = (1 + 146/1296) / 2.
    assert brute_caught("2D6", ["2D6"]) == Fraction(721, 1296)
    assert data["caught"] == chance_json(Fraction(721, 1296))
    assert data["escapes"] == chance_json(Fraction(575, 1296))
    assert data["caught"]["percent"] == "55.6%"
    assert data["flee"] == "2D6"
    assert data["pursuers"] == ["2D6"]
    assert data["ties_caught"] is True


@pytest.mark.parametrize(("flee", "pursuers"), [
    ("2D6", ["2D6"]),
    ("2D6", ["3D6"]),
    ("3D6", ["2D6"]),
    ("2D6", ["2D6", "3D6"]),
    ("2D6", ["2D6", "3D6", "3D6", "3D6"]),
    ("3D6", ["2D6", "2D6", "2D6"]),
    ("2D6", ["D6+2"]),
    ("2d10", ["2d10", "3d10"]),
])
@pytest.mark.parametrize("ties_escape", [False, True])
def test_catch_mixes(capsys, flee, pursuers, ties_escape):
    argv = ["odds", "catch", "--flee", flee, "--pursue", *pursuers]
    if ties_escape:
        argv.append("--ties-escape")
    data = ok_json(capsys, *argv)
    caught = brute_caught(flee, pursuers, ties_caught=not ties_escape)
    assert data["caught"] == chance_json(caught)
    assert data["escapes"] == chance_json(1 - caught)
    assert data["ties_caught"] is (not ties_escape)
    assert len(data["pursuers"]) == len(pursuers)


def test_catch_ties_escape_lowers_the_chance(capsys):
    tie_caught = ok_json(capsys, "odds", "catch", "--flee", "2D6", "--pursue", "2D6")
    tie_escapes = ok_json(capsys, "odds", "catch", "--flee", "2D6", "--pursue", "2D6",
                          "--ties-escape")
    assert Fraction(tie_escapes["caught"]["chance"]) == Fraction(575, 1296)
    assert Fraction(tie_escapes["caught"]["chance"]) < Fraction(tie_caught["caught"]["chance"])


def test_catch_tiny_chances_print_as_below_and_above(capsys):
    data = ok_json(capsys, "odds", "catch", "--flee", "4D6", "--pursue", "D3+1")
    caught = brute_caught("4D6", ["D3+1"])
    assert caught == Fraction(1, 3888)
    assert data["caught"] == chance_json(caught)
    assert data["caught"]["percent"] == "<0.1%"
    assert data["escapes"]["percent"] == ">99.9%"


# ---------------------------------------------------------------------------------------------
# rout odds: bad input


@pytest.mark.parametrize(("argv", "fragments"), [
    (["odds", "catch", "--flee", "2D7", "--pursue", "2D6"], ["--flee", "7 sides"]),
    (["odds", "catch", "--flee", "2D6", "--pursue", "2D7"], ["--pursue", "7 sides"]),
    (["odds", "catch", "--flee", "2D6", "--pursue", "abc"], ["--pursue", "'abc'"]),
    (["odds", "catch", "--flee", "2D6", "--pursue", "2D6", "abc"], ["'abc'"]),
    (["odds", "catch", "--flee", "2D6", "--pursue"], ["--pursue"]),
    (["odds", "catch", "--flee", "2D6"], ["--pursue", "required"]),
    (["odds", "catch", "--pursue", "2D6"], ["--flee", "required"]),
    (["odds", "break", "--ld", "0"], ["Leadership", "0", "1 to 10"]),
    (["odds", "break", "--ld", "11"], ["Leadership", "11", "1 to 10"]),
    (["odds", "break", "--ld", "-3"], ["Leadership", "-3"]),
    (["odds", "panic", "--ld", "0"], ["Leadership", "0"]),
    (["odds", "panic", "--ld", "11"], ["Leadership", "11"]),
    (["odds", "break", "--ld", "eight"], ["--ld", "'eight'"]),
    (["odds", "break", "--ld", "8", "--diff", "-1"], ["--diff", "negative"]),
    (["odds", "break", "--ld", "8", "--diff", "x"], ["--diff", "'x'"]),
    (["odds", "break"], ["--ld", "required"]),
    (["odds", "panic"], ["--ld", "required"]),
    (["odds", "break", "--ld", "8", "--dice", "13D6"], ["--dice", "13 dice"]),
    (["odds", "break", "--ld", "8", "--dice", "2D7"], ["--dice", "7 sides"]),
    (["odds", "rally", "--ld", "7"], ["'rally'", "invalid choice"]),
    (["odds"], ["test", "required"]),
    (["frobnicate"], ["'frobnicate'", "invalid choice"]),
    (["odds", "break", "--ld", "8", "--bogus"], ["--bogus"]),
])
def test_odds_bad_input(capsys, argv, fragments):
    assert_bad(capsys, argv, *fragments)


# ---------------------------------------------------------------------------------------------
# rout resolve: the bundled scenarios


def flat_roll_answers(steps: list[dict[str, Any]]) -> list[int]:
    return [face for step in steps if step["kind"] == "roll" for face in step["answer"]]


def test_there_are_bundled_scenarios():
    assert len(BUNDLED) >= 2


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_resolve_bundled_scenario(capsys, path):
    source = scenario_data(path)
    data = ok_json(capsys, "resolve", path)
    assert {"steps", "events", "units"} <= data.keys()
    assert data["scenario"] == source["title"]
    assert data["ruleset"] == source["ruleset"]
    assert data["procedure"] == source["resolve"]["procedure"]
    assert set(data["units"]) == {unit["id"] for unit in source["units"]}
    for state in data["units"].values():
        assert {"status", "models", "position", "facing"} <= state.keys()
    assert data["steps"]
    for step in data["steps"]:
        assert step["kind"] in {"roll", "choice"}
        assert "key" in step
        assert "answer" in step
    assert data["events"]
    assert all("type" in event for event in data["events"])
    # The file's dice are used one face per die, in order, all of them.
    assert flat_roll_answers(data["steps"]) == source["answers"]["dice"]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.name)
def test_resolve_bundled_scenario_is_repeatable_with_a_seed(path, tmp_path):
    # Without the file's scripted dice every roll comes from the seed; two separate
    # processes with different hash seeds must still agree.
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("answers", None)
    unscripted = tmp_path / "unscripted.json"
    unscripted.write_text(json.dumps(data), encoding="utf-8")
    outputs = []
    for hash_seed in ("1", "2"):
        completed = subprocess.run(
            [sys.executable, "-m", "desktop", "resolve", str(unscripted), "--seed", "42"],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed})
        outputs.append(completed.stdout)
    assert outputs[0] == outputs[1]
    output = json.loads(outputs[0])
    assert output["seed"] == 42
    assert any(step["kind"] == "roll" for step in output["steps"])


def test_goblins_example_breaks_and_pursues(capsys):
    data = ok_json(capsys, "resolve", GOBLINS)
    types = [event["type"] for event in data["events"]]
    assert "BreakTest" in types
    assert "UnitBroke" in types
    assert "RestraintTest" not in types
    choice = next(s for s in data["steps"] if s["key"] == "pursue:goblins")
    assert choice["answer"] == "pursue"
    assert {o["id"] for o in choice["options"]} == {"pursue", "hold"}


def test_dice_option_overrides_the_file_dice(capsys):
    data = ok_json(capsys, "resolve", GOBLINS, "--dice", "1,1")
    assert data["steps"][0]["key"] == "break:elves"
    assert data["steps"][0]["answer"] == [1, 1]
    break_test = next(e for e in data["events"] if e["type"] == "BreakTest")
    assert break_test["faces"] == [1, 1]
    assert break_test["passed"] is True
    assert "UnitBroke" not in [event["type"] for event in data["events"]]


def test_dice_option_accepts_spaces_and_repeats(capsys):
    one = ok_json(capsys, "resolve", GOBLINS, "--dice", "3,4,5,4,3,3")
    spaced = ok_json(capsys, "resolve", GOBLINS, "--dice", "3 4 5", "--dice", "4,3", "--dice",
                     "3")
    from_file = ok_json(capsys, "resolve", GOBLINS)
    assert one == spaced == from_file


def test_choose_changes_a_choice(capsys):
    data = ok_json(capsys, "resolve", GOBLINS, "--choose", "pursue:goblins=hold",
                   "--dice", "3,4,1,1,5,4")
    choice = next(s for s in data["steps"] if s["key"] == "pursue:goblins")
    assert choice["answer"] == "hold"
    restraint = [e for e in data["events"] if e["type"] == "RestraintTest"]
    assert len(restraint) == 1
    assert restraint[0]["unit"] == "goblins"
    assert restraint[0]["faces"] == [1, 1]
    assert restraint[0]["passed"] is True


def test_choose_with_seed_rolls_the_restraint_test(capsys):
    data = ok_json(capsys, "resolve", GOBLINS, "--choose", "pursue:goblins=hold", "--seed", 3)
    assert "RestraintTest" in [event["type"] for event in data["events"]]
    assert [s["key"] for s in data["steps"]][:3] == ["break:elves", "pursue:goblins",
                                                     "restraint:goblins"]


def test_seed_rolls_the_dice_after_the_scripted_ones_run_out(capsys, tmp_path):
    path = mutated(tmp_path, lambda d: d["answers"].update(dice=[3, 4]))
    data = ok_json(capsys, "resolve", path, "--seed", 5)
    assert data["seed"] == 5
    assert data["steps"][0]["answer"] == [3, 4]
    later = [s for s in data["steps"][1:] if s["kind"] == "roll"]
    assert later, "the break test fails, so the elves flee and the goblins pursue"
    for step in later:
        assert len(step["answer"]) == int(step["dice"].split("D")[0] or 1)
        assert all(1 <= face <= 6 for face in step["answer"])
    again = ok_json(capsys, "resolve", path, "--seed", 5)
    assert again == data
    by_hand = ok_json(capsys, "resolve", GOBLINS, "--dice", "3,4", "--seed", 5)
    assert by_hand["steps"] == data["steps"]
    assert by_hand["events"] == data["events"]


def test_scenario_without_dice_is_repeatable_with_its_seed(capsys, tmp_path):
    path = mutated(tmp_path, lambda d: d.pop("answers"))
    first = ok_json(capsys, "resolve", path, "--seed", 11)
    second = ok_json(capsys, "resolve", path, "--seed", 11)
    assert first == second
    assert first["seed"] == 11
    unseeded = ok_json(capsys, "resolve", path)
    assert isinstance(unseeded["seed"], int)
    assert ok_json(capsys, "resolve", path, "--seed", unseeded["seed"]) == unseeded


# ---------------------------------------------------------------------------------------------
# rout resolve: files that are not scenarios


def test_truncated_json(capsys, tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(GOBLINS.read_text(encoding="utf-8")[:200], encoding="utf-8")
    assert_bad(capsys, ["resolve", path], str(path), "not valid JSON", "line")


def test_empty_file(capsys, tmp_path):
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert_bad(capsys, ["resolve", path], str(path), "not valid JSON")


def test_json_list_instead_of_an_object(capsys, tmp_path):
    path = write_scenario(tmp_path, [scenario_data()])
    assert_bad(capsys, ["resolve", path], "a group of fields in { }", "a list")


@pytest.mark.parametrize("raw", [bytes(range(256)) * 4, '{"title": "café"}'.encode("latin-1"),
                                 b"\xff\xfe{\x00}\x00"],
                         ids=["binary", "latin-1", "utf-16-bom"])
def test_not_utf8(capsys, tmp_path, raw):
    path = tmp_path / "garbage.json"
    path.write_bytes(raw)
    assert_bad(capsys, ["resolve", path], str(path), "UTF-8")


def test_file_not_found(capsys, tmp_path):
    path = tmp_path / "missing.json"
    assert_bad(capsys, ["resolve", path], str(path), "no such file")


def test_a_directory(capsys, tmp_path):
    assert_bad(capsys, ["resolve", tmp_path], str(tmp_path), "folder")


def test_file_over_the_size_limit(capsys, tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_SCENARIO_BYTES + 1)  # sparse: no need to write 10 MB
    assert_bad(capsys, ["resolve", path], str(path), "too large", str(MAX_SCENARIO_BYTES))


def test_file_at_the_size_limit_is_read(capsys, tmp_path):
    path = tmp_path / "padded.json"
    text = json.dumps(scenario_data())
    path.write_text(text + " " * (MAX_SCENARIO_BYTES - len(text.encode("utf-8"))),
                    encoding="utf-8")
    assert path.stat().st_size == MAX_SCENARIO_BYTES
    assert ok_json(capsys, "resolve", path)["events"]


@pytest.mark.parametrize("raw", ["[" * 100_000 + "]" * 100_000,
                                 '{"a":' * 100_000 + "1" + "}" * 100_000],
                         ids=["lists", "objects"])
def test_deeply_nested_json(capsys, tmp_path, raw):
    path = tmp_path / "deep.json"
    path.write_text(raw, encoding="utf-8")
    assert_bad(capsys, ["resolve", path], "JSON nested more than 64 deep")


def test_missing_scenario_argument(capsys):
    assert_bad(capsys, ["resolve"], "scenario", "required")


def test_path_through_a_file(capsys):
    assert_bad(capsys, ["resolve", GOBLINS / "x"], "x")


def test_file_name_too_long(capsys, tmp_path):
    assert_bad(capsys, ["resolve", tmp_path / ("a" * 5000)], "aaaa")


def test_symlink_loop(capsys, tmp_path):
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    assert_bad(capsys, ["resolve", loop], "loop.json")


def test_integer_with_too_many_digits(capsys, tmp_path):
    text = json.dumps(scenario_data()).replace('"models": 25', '"models": ' + "9" * 5000, 1)
    path = tmp_path / "digits.json"
    path.write_text(text, encoding="utf-8")
    assert_bad(capsys, ["resolve", path], "models")


# ---------------------------------------------------------------------------------------------
# rout resolve: scenarios that say something impossible


def _unit(index: int, **fields: Any):
    return lambda d: d["units"][index].update(fields)


def _stat(index: int, **stats: Any):
    return lambda d: d["units"][index]["profile"].update(stats)


def _drop_stat(index: int, name: str):
    return lambda d: d["units"][index]["profile"].pop(name)


def _combatant(side: int, **fields: Any):
    return lambda d: d["resolve"]["combats"][0]["sides"][side]["units"][0].update(fields)


def _same_player(d):
    d["units"][1]["player"] = d["units"][0]["player"]


BAD_SCENARIOS = {
    "wrong-format": (lambda d: d.update(format="some-other-app"),
                     ["format", "rout-scenario"]),
    "newer-version": (lambda d: d.update(version=2), ["version 2", "newer"]),
    "version-zero": (lambda d: d.update(version=0), ["version", "minimum of 1"]),
    "version-missing": (lambda d: d.pop("version"), ["version", "missing"]),
    "unknown-ruleset": (lambda d: d.update(ruleset="warhammer7"),
                        ["unknown ruleset 'warhammer7'", "warhammer6"]),
    "negative-models": (_unit(0, models=-3), ["units[0].models", "-3"]),
    "zero-models": (_unit(0, models=0), ["units[0].models", "minimum of 1"]),
    "files-over-models": (_unit(1, files=11), ["units[1].files", "11 files", "10 models"]),
    "ld-11-in-profile": (_stat(0, Ld=11), ["units[0].profile", "Leadership (Ld) 11"]),
    "ld-0-in-profile": (_stat(1, Ld=0), ["units[1].profile", "Leadership (Ld) 0"]),
    "missing-stat": (_drop_stat(0, "Ld"), ["units[0].profile", "no Leadership (Ld)"]),
    "unknown-stat": (_stat(0, Foo=3), ["statistic 'Foo'"]),
    "unknown-unit-in-combat": (_combatant(0, unit="orcs"),
                               ["resolve.combats[0].sides[0].units[0].unit", "no unit 'orcs'"]),
    "unknown-unit-engaged": (_unit(0, engaged_with=["orcs"]),
                             ["units[0].engaged_with", "no unit 'orcs'"]),
    "duplicate-id": (_unit(1, id="goblins"), ["units[1].id", "'goblins' is used twice"]),
    "overlap": (_unit(1, position=[36, 28]), ["'goblins'", "'elves'", "overlap"]),
    "off-table": (_unit(1, position=[200, 30]), ["'elves'", "does not fit", "72x48"]),
    "one-player-combat": (_same_player, ["sides", "one for each player"]),
    "unknown-procedure": (lambda d: d["resolve"].update(procedure="magic"),
                          ["no resolution 'magic'", "combat_aftermath"]),
    "unit-twice-in-combat": (lambda d: d["resolve"]["combats"][0]["sides"][1]["units"].append(
        {"unit": "goblins"}), ["'goblins' is already in spear line"]),
    "too-many-casualties": (_combatant(0, casualties=999), ["casualties", "999"]),
    "file-die-face-7": (lambda d: d["answers"].update(dice=[7, 4]), ["7 is not a face"]),
    "file-choice-bad-option": (lambda d: d["answers"]["choices"].update(
        {"pursue:goblins": "flee"}), ["pursue:goblins", "'flee' is not one of the options"]),
    "file-choice-number": (lambda d: d["answers"]["choices"].update({"pursue:goblins": 3}),
                           ["answers.choices"]),
    "dice-as-text": (lambda d: d["answers"].update(dice="3,4"), ["answers.dice"]),
    "nan-position": (_unit(1, position=[float("nan"), 30]),
                     ["units[1].position", "a point [x, y] is needed"]),
    "infinite-position": (_unit(1, position=[float("inf"), 30]),
                          ["units[1].position", "a point [x, y] is needed"]),
    "nan-facing": (_unit(1, facing=float("nan")), ["units[1].facing", "NaN"]),
    "string-models": (_unit(0, models="25"), ["units[0].models", 'text "25"']),
    "string-position": (_unit(0, position=["36", 27]), ["units[0].position"]),
    "string-width": (lambda d: d["table"].update(width="72"), ["table.width", "text"]),
    "string-ld": (_stat(0, Ld="6"), ["Leadership (Ld)", "'6'"]),
    "float-ld": (_stat(0, Ld=6.5), ["Leadership (Ld)", "'6.5'"]),
    "bool-models": (_unit(0, models=True), ["units[0].models", "the file has true"]),
    "bool-ld": (_stat(0, Ld=True), ["Leadership (Ld)", "whole number"]),
    "bool-position": (_unit(0, position=[True, 27]), ["units[0].position"]),
    "bool-width": (lambda d: d["table"].update(width=True), ["table.width", "the file has true"]),
    "bool-wounds": (_combatant(0, wounds_caused=False), ["wounds_caused", "the file has false"]),
    "null-title": (lambda d: d.update(title=None), ["title", "null"]),
    "units-object": (lambda d: d.update(units={}), ["units", "a list"]),
    "unit-number": (lambda d: d["units"].__setitem__(0, 5),
                    ["units[0]", "a group of fields in { }"]),
    "resolve-list": (lambda d: d.update(resolve=[]), ["resolve", "a group of fields in { }"]),
    "no-combats": (lambda d: d["resolve"].update(combats=[]), ["combats"]),
    "negative-width": (lambda d: d["table"].update(width=-72), ["table.width", "-72"]),
    "zero-base": (_unit(1, base_mm=[0, 20]), ["units[1].base", "positive"]),
    "unknown-status": (_unit(0, status="asleep"), ["units[0].status", "'asleep'"]),
    "unknown-troop-type": (_unit(0, troop_type="dragon"), ["troop_type", "'dragon'"]),
    "unknown-option": (lambda d: d.update(options={"foo": True}), ["options.foo"]),
    "option-wrong-type": (lambda d: d.update(options={"double_one_holds": 1}),
                          ["options.double_one_holds", "true or false"]),
    "self-crossing-terrain": (lambda d: d.update(
        terrain=[{"id": "wood", "points": [[0, 0], [4, 4], [4, 0], [0, 4]]}]),
                              ["terrain[0].points", "crosses itself"]),
}


@pytest.mark.parametrize(("mutate", "fragments"), list(BAD_SCENARIOS.values()),
                         ids=list(BAD_SCENARIOS))
def test_bad_scenario(capsys, tmp_path, mutate, fragments):
    path = mutated(tmp_path, mutate)
    assert_bad(capsys, ["resolve", path], *fragments)


@pytest.mark.parametrize(("old", "new", "fragments"), [
    ('"width": 72', '"width": 1e400', ["table.width", "too large"]),
    ('"models": 25', '"models": 1e400', ["units[0].models", "too large"]),
    ("[36, 30]", "[1e400, 30]", ["units[1].position", "a point [x, y] is needed"]),
    ("[36, 30]", "[NaN, 30]", ["units[1].position", "a point [x, y] is needed"]),
    ('"models": 25', '"models": ' + "9" * 400, ["units[0].models", "too large"]),
])
def test_bad_numbers_in_the_text(capsys, tmp_path, old, new, fragments):
    text = GOBLINS.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "numbers.json"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert_bad(capsys, ["resolve", path], *fragments)


# ---------------------------------------------------------------------------------------------
# rout resolve: bad answers on the command line


@pytest.mark.parametrize(("dice", "fragment"), [
    ("7,7", "7 is not a face of a d6"),
    ("0,3", "0 is not a face of a d6"),
    ("3,-1", "-1 is not a face of a d6"),
    ("3,x", "'x' is not a die face"),
    ("3.5,4", "'3.5' is not a die face"),
])
def test_dice_option_bad_faces(capsys, dice, fragment):
    assert_bad(capsys, ["resolve", GOBLINS, "--dice", dice], fragment)


@pytest.mark.parametrize("face", ["7", "0"])
def test_dice_option_single_bad_face_is_named(capsys, face):
    assert_bad(capsys, ["resolve", GOBLINS, "--dice", face], f"{face} is not a face")


def test_dice_option_single_bad_face_is_refused(capsys):
    assert_bad(capsys, ["resolve", GOBLINS, "--dice", "7"], "break test for elves")


def test_scripted_dice_run_out_without_seed(capsys, tmp_path):
    path = mutated(tmp_path, lambda d: d["answers"].update(dice=[3, 4]))
    assert_bad(capsys, ["resolve", path], "ran out", "flee roll for elves")


def test_dice_option_runs_out_without_seed(capsys):
    assert_bad(capsys, ["resolve", GOBLINS, "--dice", "3,4,5"], "ran out", "1 left")


@pytest.mark.parametrize(("choose", "fragments"), [
    ("pursue:goblins=flyaway", ["pursue:goblins", "'flyaway' is not one of the options",
                                "hold"]),
    ("pursue:goblins", ["KEY=OPTION", "'pursue:goblins'"]),
    ("=hold", ["KEY=OPTION"]),
    ("pursue:goblins=", ["KEY=OPTION"]),
])
def test_choose_bad(capsys, choose, fragments):
    assert_bad(capsys, ["resolve", GOBLINS, "--choose", choose], *fragments)


def test_seed_must_be_a_number(capsys):
    assert_bad(capsys, ["resolve", GOBLINS, "--seed", "abc"], "--seed", "'abc'")


# ---------------------------------------------------------------------------------------------
# The real entry point: python -m desktop


def test_module_odds_prints_json():
    result = run_module("odds", "break", "--ld", 8, "--diff", 3)
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout)["breaks"]["chance"] == "13/18"


def test_module_resolve_prints_json():
    result = run_module("resolve", FOUR_UNITS, "--seed", 1)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    data = json.loads(result.stdout)
    assert {"steps", "events", "units"} <= data.keys()


@pytest.mark.parametrize(("argv", "fragment"), [
    (["odds", "catch", "--flee", "2D7", "--pursue", "2D6"], "7 sides"),
    (["resolve", "does-not-exist.json"], "no such file"),
    (["resolve", GOBLINS, "--dice", "3,9"], "9 is not a face"),
], ids=["bad-dice", "missing-file", "bad-face"])
def test_module_bad_input_is_one_line(argv, fragment):
    result = run_module(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert fragment in result.stderr


def test_module_truncated_scenario_is_one_line(tmp_path):
    path = tmp_path / "cut.json"
    path.write_text(GOBLINS.read_text(encoding="utf-8")[:300], encoding="utf-8")
    result = run_module("resolve", path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "not valid JSON" in result.stderr


def test_module_path_through_a_file_is_one_line():
    result = run_module("resolve", GOBLINS / "x")
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1, result.stderr


# ---------------------------------------------------------------------------------------------
# rout odds honor (K-HT-1)


@pytest.mark.parametrize(("args", "runs_away"), [
    (["--honor", "5"], Fraction(5, 10)),
    (["--honor", "5", "--ronin"], Fraction(25, 100)),
    (["--honor", "5", "--below"], Fraction(6, 10)),
    (["--honor", "7", "--dice", "2D6"], Fraction(15, 36)),
])
def test_k_ht_1_honor_odds(capsys, args, runs_away):
    assert main(["odds", "honor", *args]) == 0
    output = json.loads(capsys.readouterr().out)
    assert Fraction(output["runs_away"]["chance"]) == runs_away
    assert Fraction(output["holds"]["chance"]) == 1 - runs_away
    assert output["clause"] == "K-HT-1"


@pytest.mark.parametrize("honor", ["0", "11"])
def test_k_ht_1_honor_out_of_range_is_one_line(capsys, honor):
    assert_bad(capsys, ["odds", "honor", "--honor", honor], "Honor", honor)


def test_choices_that_were_never_asked_are_reported(capsys, scenario_path):
    # The Elves hold their Break test (1, 1), so nobody is asked about pursuing.
    path = scenario_path("w6-goblins-vs-elves.json")
    assert main(["resolve", str(path), "--dice", "1,1", "--choose", "pursue:goblins=hold",
                 "--choose", "pursue:nobody=hold"]) == 0
    output = json.loads(capsys.readouterr().out)
    assert output["unused_choices"] == ["pursue:goblins", "pursue:nobody"]
    assert output["unused_dice"] == 0


# ---------------------------------------------------------------------------------------------
# rout resolve --preview: the answers given, then the middle of the dice and the defaults


def test_resolve_preview_matches_the_engine_preview_of_the_answers_given(capsys):
    from desktop.engine.scenario import load_scenario

    data = ok_json(capsys, "resolve", FOUR_UNITS, "--preview", "--dice", "6,6")
    assert data["preview"] is True and data["seed"] is None
    resolution = load_scenario(scenario_data(FOUR_UNITS)).resolution()
    preview = resolution.preview([(6, 6)])
    assert data["events"] == [event.to_json() for event in preview.events]
    # Every later roll is the middle of its dice: 2D6 -> 3 and 4, 3D6 -> 3, 3 and 4.
    later = [step["answer"] for step in data["steps"][1:] if step["kind"] == "roll"]
    assert later and all(sum(faces) == (7 if len(faces) == 2 else 10) for faces in later)


def test_resolve_preview_takes_choices_given_and_defaults_the_rest(capsys):
    held = ok_json(capsys, "resolve", FOUR_UNITS, "--preview", "--choose", "pursue:boyz=hold")
    answers = {step["key"]: step["answer"] for step in held["steps"]}
    assert answers["pursue:boyz"] == "hold"
    assert answers["pursue:wolf_riders"] == "pursue"  # its default


def test_resolve_steps_say_how_many_events_came_before_each_request(capsys):
    data = ok_json(capsys, "resolve", FOUR_UNITS, "--seed", "5")
    before = [step["events_before"] for step in data["steps"]]
    assert before == sorted(before) and before[-1] <= len(data["events"])
    assert any(step.get("threshold") for step in data["steps"])
    assert all(step["odds"] for step in data["steps"] if step["kind"] == "roll")


def test_resolve_preview_refuses_a_seed(capsys):
    code, out, err = run_cli(capsys, "resolve", FOUR_UNITS, "--preview", "--seed", "3")
    assert code == 2 and out == ""
    assert "--preview" in err and "--seed" in err
