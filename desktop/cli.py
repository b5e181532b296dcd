"""The `rout` command: the GUI by default, and headless commands that print JSON.

    rout                                  start the app
    rout --screenshot FILE.png            save a picture of the main window and exit
    rout odds break --ld 8 --diff 3       exact odds of a test
    rout odds catch --flee 2D6 --pursue 2D6 3D6
    rout odds honor --honor 5 --ronin
    rout resolve SCENARIO.json [--dice 6,1,4] [--seed N] [--choose KEY=OPTION]
    rout forecast SCENARIO.json [--dice 6,1] [--choose KEY=OPTION] [--samples N --seed S]
    rout move SCENARIO.json --unit ID (--to X,Y [--facing D] | --wheel ANGLE
              | --charge TARGET | --reform FILES)   check one player move, print its events
    rout import FILE [--ruleset ID]       a .json, .ros or .rosz army, or a .json battle or
                                          scenario (its battle), into the database
    rout export NAME FILE [--format F]    an army (name or id) as .json, .txt or .md (one
                                          built from an army book also as .ros or .rosz),
                                          or a battle (title or id) as .json
    rout armies                           the armies in the database
    rout check ARMY                       an army's warnings (roster and composition)
    rout battles                          the battles in the database
    rout data add|list|remove|units …     game data in BattleScribe's format (cli_data.py)

`--database URL` picks the database, a URL or a SQLite file's path alike for every command
(default: $ROUT_DATABASE, else rout.sqlite in the user's data folder).

Bad input prints one line on stderr and exits with status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import os
import random
import re
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from desktop.engine.errors import QUOTED_LENGTH, RuleError, one_line, quoted
from desktop.engine.naming import numbered_name
from desktop.lazy import lazy_module
from desktop.store.errors import BadFileError, CorruptDatabaseError, NotFoundError, StoreError
from desktop.store.location import database_url_from

# Each command's modules load when it runs (desktop.lazy): `rout` with no command starts the
# GUI, which must paint before shapely, the rulesets or the database are imported.
if TYPE_CHECKING:
    import desktop.cli_data as cli_data
    import desktop.engine.composition as composition
    import desktop.engine.dice as dice_rolls
    import desktop.engine.events as engine_events
    import desktop.engine.forecast as forecasting
    import desktop.engine.moves as moves
    import desktop.engine.odds as odds
    import desktop.engine.procedure as procedure
    import desktop.engine.rulesets as rulesets
    import desktop.engine.scenario as scenarios
    import desktop.gui.app as gui_app
    import desktop.store.armybooks as armybooks
    import desktop.store.checking as checking
    import desktop.store.database as databases
    import desktop.store.files as files
    import desktop.store.libraries as libraries
    import desktop.store.roster_data as roster_data
    import desktop.store.store as storage
    import desktop.store.transfer as transfer
    from desktop.engine.dice import Roller
else:
    armybooks = lazy_module("desktop.store.armybooks")
    checking = lazy_module("desktop.store.checking")
    cli_data = lazy_module("desktop.cli_data")
    composition = lazy_module("desktop.engine.composition")
    databases = lazy_module("desktop.store.database")
    dice_rolls = lazy_module("desktop.engine.dice")
    engine_events = lazy_module("desktop.engine.events")
    files = lazy_module("desktop.store.files")
    forecasting = lazy_module("desktop.engine.forecast")
    gui_app = lazy_module("desktop.gui.app")
    libraries = lazy_module("desktop.store.libraries")
    moves = lazy_module("desktop.engine.moves")
    odds = lazy_module("desktop.engine.odds")
    procedure = lazy_module("desktop.engine.procedure")
    roster_data = lazy_module("desktop.store.roster_data")
    rulesets = lazy_module("desktop.engine.rulesets")
    scenarios = lazy_module("desktop.engine.scenario")
    storage = lazy_module("desktop.store.store")
    transfer = lazy_module("desktop.store.transfer")

EXIT_BAD_INPUT = 2
MAX_SCENARIO_BYTES = 10 * 1024 * 1024


class UsageError(Exception):
    """Bad command-line input; the message is printed as it is."""


# argparse repeats a wrong choice whole, as its repr: "invalid choice: 'x…' (choose from".
_INVALID_CHOICE = re.compile(r"(invalid choice: )('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")")


def _short_choice(found: re.Match[str]) -> str:
    shown = found.group(2)
    if len(shown) > QUOTED_LENGTH + 2:
        shown = f"{shown[:QUOTED_LENGTH]}…{shown[0]}"
    return found.group(1) + shown


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {_INVALID_CHOICE.sub(_short_choice, message)}")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        # argparse would repeat the extra arguments whole, however long.
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            shown = " ".join(quoted(text) for text in extra[:3])
            self.error(f"unrecognized arguments: {shown}{' …' if len(extra) > 3 else ''}")
        return parsed


def _chance(chance: Fraction) -> dict[str, Any]:

    return {"chance": str(chance), "percent": odds.percent(chance), "value": float(chance)}


def _dice(text: str) -> dice_rolls.Dice:

    try:
        return dice_rolls.Dice.parse(text)
    except RuleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a finite number")
    return value


# The most digits a whole number typed on the command line may have, as in files (a longer
# one there reads as too large): an error that repeats it stays short (a 5,000-digit --ld
# was echoed whole, 502 characters).
MAX_DIGITS = 64


def _whole(text: str) -> int:
    digits = text.strip().removeprefix("-").removeprefix("+")
    if not digits.isdigit() or not digits.isascii():
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a whole number")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is far too large (at most "
                                         f"{MAX_DIGITS} digits)")
    return int(text)


def _point(text: str) -> tuple[float, float]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a point X,Y such as 30,24.5")
    return (_finite(parts[0]), _finite(parts[1]))


def _build_parser() -> _Parser:
    parser = _Parser(prog="rout", description="Army and battle manager for rank-and-flank "
                     "miniatures games.")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="start the app, save a picture of the main window, exit")
    parser.add_argument("--database", metavar="URL",
                        help="a database URL, or a SQLite file's path")
    parser.add_argument("--army", metavar="NAME", help="with --screenshot: the army to show")
    parser.add_argument("--battle", metavar="NAME",
                        help="with --screenshot: the stored battle to show on the battlefield")
    parser.add_argument("--size", metavar="WxH", help="with --screenshot: the window size "
                        "(default 1280x800)")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    odds_parser = commands.add_parser("odds", help="exact odds of a test, printed as JSON")
    tests = odds_parser.add_subparsers(dest="test", required=True, parser_class=_Parser)
    break_parser = tests.add_parser("break", help="Break test (W6-BT-2)")
    break_parser.add_argument("--ld", type=_whole, required=True, help="Leadership")
    break_parser.add_argument("--diff", type=_whole, default=0, help="combat score difference")
    break_parser.add_argument("--dice", type=_dice, default="2D6")
    break_parser.add_argument("--stubborn", action="store_true")
    break_parser.add_argument("--double-one-holds", action="store_true",
                              help="a double 1 always holds (W6-BT-4 option)")
    panic_parser = tests.add_parser("panic", help="Panic test (W6-PT-2)")
    panic_parser.add_argument("--ld", type=_whole, required=True, help="Leadership")
    panic_parser.add_argument("--dice", type=_dice, default="2D6")
    catch_parser = tests.add_parser("catch", help="chance that pursuers catch a fleeing unit")
    catch_parser.add_argument("--flee", type=_dice, required=True, help="flee dice, e.g. 2D6")
    catch_parser.add_argument("--pursue", type=_dice, nargs="+", required=True,
                              help="one dice expression per pursuer, e.g. 2D6 3D6")
    catch_parser.add_argument("--ties-escape", action="store_true",
                              help="a tie lets the fleeing unit escape (default: caught)")

    honor_parser = tests.add_parser("honor", help="Kensei Honor test (K-HT-1)")
    honor_parser.add_argument("--honor", type=_whole, required=True, help="Honor")
    honor_parser.add_argument("--dice", type=_dice, default="1D10")
    honor_parser.add_argument("--below", action="store_true",
                              help="pass only on a roll below Honor (default: at most Honor)")
    honor_parser.add_argument("--ronin", action="store_true",
                              help="Ronin re-roll a failed Honor roll against Running Away")

    resolve_parser = commands.add_parser(
        "resolve", help="run a scenario file and print the requests and events as JSON")
    resolve_parser.add_argument("scenario", type=Path)
    resolve_parser.add_argument("--dice", action="append", default=[],
                                help="faces rolled by hand, in order: 6,1,4")
    resolve_parser.add_argument("--seed", type=_whole, help="roll the remaining dice from this "
                                "seed (repeatable)")
    resolve_parser.add_argument("--choose", action="append", default=[], metavar="KEY=OPTION",
                                help="answer a choice, e.g. pursue:goblins=hold")
    resolve_parser.add_argument("--preview", action="store_true",
                                help="what the answers given lead to when every later roll "
                                "is the middle of its dice and every later choice its "
                                "default (what the wizard draws before Finish)")

    forecast_parser = commands.add_parser(
        "forecast", help="the chance of each outcome of a scenario's resolution, as JSON")
    forecast_parser.add_argument("scenario", type=Path)
    forecast_parser.add_argument("--dice", action="append", default=[],
                                 help="faces already rolled, in order: 6,1,4")
    forecast_parser.add_argument("--choose", action="append", default=[],
                                 metavar="KEY=OPTION",
                                 help="answer a choice, e.g. pursue:goblins=hold")
    forecast_parser.add_argument("--samples", type=_whole, metavar="N",
                                 help="sample N seeded runs instead of the exact walk")
    forecast_parser.add_argument("--seed", type=_whole, default=0,
                                 help="the seed of a sample (default 0)")

    move_parser = commands.add_parser(
        "move", help="check one player move on a scenario's battle and print its events")
    move_parser.add_argument("scenario", type=Path)
    move_parser.add_argument("--unit", required=True, help="the id of the unit that moves")
    how = move_parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--to", type=_point, metavar="X,Y", help="move its centre here")
    how.add_argument("--wheel", type=_finite, metavar="ANGLE",
                     help="wheel this many degrees clockwise (negative: counter-clockwise)")
    how.add_argument("--charge", metavar="TARGET", help="charge this enemy unit")
    how.add_argument("--reform", type=_whole, metavar="FILES", help="reform this many wide")
    move_parser.add_argument("--facing", type=_finite, metavar="DEGREES",
                             help="with --to: the facing it ends with (default: as before)")

    database = _Parser(add_help=False)
    database.add_argument("--database", metavar="URL", default=argparse.SUPPRESS,
                          help="a database URL, or a SQLite file's path (default: the user's "
                          "rout.sqlite)")
    import_parser = commands.add_parser(
        "import", parents=[database],
        help="import an army (Rout JSON or BattleScribe roster) or a battle (Rout JSON "
        "battle or scenario)")
    import_parser.add_argument("file", type=Path, help=".json, .ros or .rosz")
    import_parser.add_argument("--ruleset", metavar="ID",
                               help="the ruleset to import for: warhammer6, kensei1 or "
                               "breaks_pursues (default: from the file)")
    export_parser = commands.add_parser("export", parents=[database],
                                        help="write an army or a battle to a file")
    export_parser.add_argument("name", metavar="ARMY_OR_BATTLE",
                               help="an army's name or id (see `rout armies`) or a battle's "
                               "title or id (see `rout battles`)")
    export_parser.add_argument("file", type=Path, help=".json, .txt, .md, or .ros/.rosz for "
                               "an army built from an army book (battles: .json)")
    export_parser.add_argument("--format", choices=("json", "text", "markdown", "ros", "rosz"),
                               help="default: from the file's extension")
    commands.add_parser("armies", parents=[database], help="list the armies as JSON")
    check_parser = commands.add_parser(
        "check", parents=[database],
        help="an army's warnings as JSON: what the window shows beside the roster (the "
        "points limit, profiles, composition); exit status 0 with or without warnings")
    check_parser.add_argument("army", metavar="ARMY",
                              help="an army's name or id (see `rout armies`)")
    commands.add_parser("battles", parents=[database], help="list the battles as JSON")
    data_parser = commands.add_parser("data", help="game data in BattleScribe's format")
    data_commands = data_parser.add_subparsers(dest="data_command", required=True,
                                               parser_class=_Parser)
    data_commands.add_parser("add", parents=[database], help="store game systems and "
                             "catalogues (files, folders, zips of a repository)").add_argument(
        "paths", type=Path, nargs="+", metavar="PATH")
    data_commands.add_parser("list", parents=[database], help="what is stored, as JSON")
    remove_parser = data_commands.add_parser(
        "remove", parents=[database], help="remove a catalogue, or a game system with its "
        "catalogues (refused while armies are built from it)")
    remove_parser.add_argument("name", metavar="NAME|ID")
    remove_parser.add_argument("--keep-armies", action="store_true",
                               help="armies built from it keep their units as plain units")
    data_commands.add_parser("units", parents=[database], help="a catalogue's units as "
                             "JSON").add_argument("catalogue", metavar="CATALOGUE")
    commands.add_parser(
        "check-database", parents=[database],
        help="read the whole database (every page of a SQLite file, every army, library and "
        "battle); JSON when healthy, else one line saying what is damaged (exit status 2)")
    return parser


def _leadership(value: int) -> int:

    return rulesets.get_ruleset("warhammer6").check_stat("Ld", value, "--ld")


def odds_command(args: argparse.Namespace) -> dict[str, Any]:

    if args.test == "break":
        leadership = _leadership(args.ld)
        if args.diff < 0:
            raise UsageError("rout odds break: --diff is the loser's margin and cannot be "
                             "negative")
        fails = odds.break_test_fails(leadership, args.diff, args.dice, stubborn=args.stubborn,
                                      double_one_holds=args.double_one_holds)
        return {"test": "break", "clause": "W6-BT-2", "ld": leadership,
                "difference": args.diff, "dice": str(args.dice), "stubborn": args.stubborn,
                "double_one_holds": args.double_one_holds,
                "breaks": _chance(fails), "holds": _chance(1 - fails)}
    if args.test == "panic":
        leadership = _leadership(args.ld)
        fails = odds.attribute_test_fails(leadership, args.dice)
        return {"test": "panic", "clause": "W6-PT-2", "ld": leadership,
                "dice": str(args.dice), "flees": _chance(fails), "passes": _chance(1 - fails)}
    if args.test == "honor":

        honor = rulesets.get_ruleset("kensei1").check_stat("Honor", args.honor, "--honor")
        fails = odds.attribute_test_fails(honor - 1 if args.below else honor, args.dice,
                                          rerolls=1 if args.ronin else 0)
        return {"test": "honor", "clause": "K-HT-1", "honor": honor, "dice": str(args.dice),
                "passes_on": "below Honor" if args.below else "Honor or less",
                "ronin": args.ronin, "runs_away": _chance(fails), "holds": _chance(1 - fails)}
    try:
        odds.check_pursuers(len(args.pursue))
    except RuleError as error:
        raise UsageError(f"rout odds catch: {error}") from None
    chance = odds.caught(args.flee, args.pursue, ties_caught=not args.ties_escape)
    return {"test": "catch", "clause": "W6-PU-1", "flee": str(args.flee),
            "pursuers": [str(d) for d in args.pursue], "ties_caught": not args.ties_escape,
            "caught": _chance(chance), "escapes": _chance(1 - chance)}


def _read_json(path: Path) -> Any:

    try:
        return files.read_json(path, MAX_SCENARIO_BYTES, "scenario")
    except BadFileError as error:
        raise UsageError(str(error)) from None


def resolve_command(args: argparse.Namespace) -> dict[str, Any]:

    scenario = scenarios.load_scenario(_read_json(args.scenario))
    faces: list[int] = []
    for text in args.dice:
        faces.extend(dice_rolls.parse_faces(text))
    script = faces if args.dice else list(scenario.dice)
    seed = args.seed
    fallback: Roller | None = None
    if args.preview:
        if seed is not None:
            raise UsageError("rout resolve: --preview rolls the middle of the dice; "
                             "it takes no --seed")
        fallback = dice_rolls.TypicalRoller()
    elif seed is not None or not script:
        seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        fallback = dice_rolls.SeededRoller(seed)
    roller = dice_rolls.ScriptedRoller(script, then=fallback)
    choices = dict(scenario.choices)
    choices.update(_choices(args.choose, "resolve"))
    session = procedure.run(scenario.start(), procedure.ScriptedAnswers(roller, choices))
    assert session.events is not None
    battle = engine_events.fold(scenario.battle, session.events)
    asked = {step.request.key for step in session.steps}
    return {
        "scenario": scenario.title,
        "ruleset": scenario.ruleset.id,
        "procedure": scenario.procedure.name,
        "preview": bool(args.preview),
        "seed": seed,
        "unused_dice": len(script) - roller.used if roller.used <= len(script) else 0,
        # Choices depend on the dice: one given but never asked is reported, not an error.
        "unused_choices": sorted(key for key in choices if key not in asked),
        "steps": [step.to_json() for step in session.steps],
        "events": [event.to_json() for event in session.events],
        "units": {uid: {"status": str(state.status), "models": state.models,
                        "position": [round(state.center[0], 3), round(state.center[1], 3)],
                        "facing": round(state.facing, 1)}
                  for uid, state in battle.states.items()},
    }


def _choices(texts: Sequence[str], command: str) -> dict[str, str]:
    choices = {}
    for text in texts:
        key, sep, option = text.partition("=")
        if not sep or not key or not option:
            raise UsageError(f"rout {command}: --choose takes KEY=OPTION, not {quoted(text)}")
        choices[key] = option
    return choices


def forecast_command(args: argparse.Namespace) -> dict[str, Any]:
    """Dice given are rolls already made; the file's scripted dice are not (a forecast
    looks ahead of them), but its choices are taken like `rout resolve` takes them."""

    scenario = scenarios.load_scenario(_read_json(args.scenario))
    faces: list[int] = []
    for text in args.dice:
        faces.extend(dice_rolls.parse_faces(text))
    choices = dict(scenario.choices) | _choices(args.choose, "forecast")
    resolution = scenario.resolution()
    answers = forecasting.answers_for(resolution, faces, choices)
    if args.samples is not None:
        found = forecasting.sample(resolution, answers, choices, samples=args.samples,
                                   seed=args.seed)
    else:
        found = forecasting.forecast(resolution, answers, choices, seed=args.seed)
    return {"scenario": scenario.title, "ruleset": scenario.ruleset.id,
            "procedure": scenario.procedure.name, "dice_given": faces,
            "choices": choices, **found.to_json()}


def move_command(args: argparse.Namespace) -> dict[str, Any]:

    scenario = scenarios.load_scenario(_read_json(args.scenario))
    battle = scenario.battle
    if args.facing is not None and args.to is None:
        raise UsageError("rout move: --facing goes with --to")
    events: list[engine_events.Event]
    if args.to is not None:
        events = [moves.move_to(battle, args.unit, args.to, args.facing)]
    elif args.wheel is not None:
        events = [moves.wheel(battle, args.unit, args.wheel)]
    elif args.charge is not None:
        events = list(moves.charge(battle, args.unit, args.charge))
    else:
        events = [moves.reform(battle, args.unit, args.reform)]
    state = engine_events.fold(battle, events).states[args.unit]
    return {"scenario": scenario.title, "unit": args.unit,
            "events": [event.to_json() for event in events],
            "position": [round(state.center[0], 3), round(state.center[1], 3)],
            "facing": round(state.facing, 1), "files": state.files}


def import_command(args: argparse.Namespace) -> dict[str, Any]:

    if args.ruleset is not None:

        rulesets.get_ruleset(args.ruleset)  # an unknown id is named before any file is read
    # Read and check the whole file before the database is opened: a bad file writes nothing.
    imported = transfer.read_import_file(args.file, args.ruleset)
    if isinstance(imported, transfer.ImportedBattle):
        with storage.Store.open(args.database) as store:
            # A file's events have no step boundaries: they come in as one step.
            # Imported again, a battle is told apart in the lists ("… (2)"), as in the window.
            title = numbered_name(imported.title, {b.title for b in store.list_battles()})
            battle_id = store.import_battle(imported.start, title, [imported.events])
            where = store.describe()
        return {"battle": battle_id, "title": title,
                "ruleset": imported.start.ruleset, "units": len(imported.start.roster),
                "terrain": len(imported.start.terrain), "events": len(imported.events),
                "database": where}
    with storage.Store.open(args.database) as store:
        game_data: dict[str, Any] = {}
        if args.file.suffix.lower() in (".ros", ".rosz"):  # priced from stored game data

            imported, pricing = roster_data.priced_from_stored_data(store, imported, args.file)
            game_data = pricing.to_json() if pricing.catalogue else {}
        library = libraries.library_for(store, imported.army.ruleset)
        imported = transfer.with_army_list(imported, library)
        army = store.save_army(imported.army)
        where = store.describe()
    return {"army": army.id, "name": army.name, "ruleset": army.ruleset,
            "army_list": army.army_list,
            "units": len(army.units), "models": army.models, "points": army.points,
            "points_limit": army.points_limit, "warnings": list(imported.warnings),
            **({"game_data": game_data} if game_data else {}), "database": where}


def _missing_database(url: str | None) -> str:
    """The SQLite file a read-only command would have to create, or ''."""

    chosen = url or databases.default_database_url()
    databases.create_database_engine(chosen).dispose()  # a bad URL or driver is named first
    path = databases.sqlite_path(chosen)
    # os.path.exists: a name the system refuses (too long, say) is a file that is not there.
    return str(path) if path is not None and not os.path.exists(path) else ""


def export_command(args: argparse.Namespace) -> dict[str, Any]:
    """NAME is looked up among armies (id, else name) and battles (id, else title); a name
    that fits both is refused, since writing the wrong one would go unnoticed."""

    chosen = transfer.export_format(args.file, args.format)
    missing = _missing_database(args.database)
    if missing:  # reading must not leave a new, empty database behind
        raise NotFoundError(f"no army or battle named {quoted(args.name)}: there is no "
                            f"database at {files.short_path(missing)}")
    with storage.Store.open(args.database) as store:
        armies, battles = store.match_armies(args.name), store.match_battles(args.name)
        if armies and battles:
            raise NotFoundError(
                f"{quoted(args.name)} names an army ({', '.join(sorted(armies))}) and a battle "
                f"({', '.join(sorted(battles))}); give the id instead")
        if not armies and not battles:
            raise NotFoundError(f"no army or battle named {quoted(args.name)} in "
                                f"{store.describe()} (see `rout armies` and `rout battles`)")
        if battles:
            saved = store.find_battle(args.name)
        else:
            army = store.find_army(args.name)
    if battles:
        transfer.write_battle_file(args.file, saved.start, saved.title, saved.events, chosen)
        return {"battle": saved.id, "title": saved.title, "file": str(args.file),
                "format": chosen, "units": len(saved.start.roster),
                "steps": len(saved.steps), "events": len(saved.events)}
    if chosen in transfer.ROSTER_FORMATS:
        with storage.Store.open(args.database) as store:
            armybooks.write_army_roster(store, army, args.file)
    else:
        transfer.write_army_file(army, args.file, chosen)
    return {"army": army.id, "name": army.name, "file": str(args.file), "format": chosen,
            "units": len(army.units), "points": army.points}


def armies_command(args: argparse.Namespace) -> list[dict[str, Any]]:

    if _missing_database(args.database):
        return []  # nothing saved yet; listing does not create the database
    with storage.Store.open(args.database) as store:
        summaries = store.list_armies()
    return [{"id": s.id, "name": s.name, "player": s.player, "ruleset": s.ruleset,
             "army_list": s.army_list,
             "points": s.points, "points_limit": s.points_limit, "units": s.units,
             "models": s.models, "updated": s.updated.isoformat(timespec="seconds")}
            for s in summaries]


def check_command(args: argparse.Namespace) -> dict[str, Any]:
    """The warnings and notes the window lists for the army, army-wide first. The library
    is the database's, else the bundled one: checking writes nothing."""

    missing = _missing_database(args.database)
    if missing:  # reading must not leave a new, empty database behind
        raise NotFoundError(f"no army named '{args.army}': there is no database at {missing}")
    with storage.Store.open(args.database) as store:
        army = store.find_army(args.army)
        library = libraries.library_for(store, army.ruleset)
    found = composition.army_problems(army, library)
    names = {unit.id: unit.name for unit in army.units}
    chosen = library.army_list(army.army_list)
    return {"army": army.id, "name": army.name, "ruleset": army.ruleset,
            "army_list": army.army_list, "army_list_name": chosen.name if chosen else "",
            "points": army.points, "points_limit": army.points_limit,
            "has_warnings": composition.has_warnings(found),
            "warnings": [{"severity": problem.severity.value, "message": problem.message,
                          "unit": problem.unit_id, "unit_name": names.get(problem.unit_id, ""),
                          "field": problem.field} for problem in found]}


def battles_command(args: argparse.Namespace) -> list[dict[str, Any]]:

    if _missing_database(args.database):
        return []  # nothing saved yet; listing does not create the database
    with storage.Store.open(args.database) as store:
        summaries = store.list_battles()
    return [{"id": s.id, "title": s.title, "ruleset": s.ruleset, "units": s.units,
             "steps": s.steps, "events": s.events,
             "created": s.created.isoformat(timespec="seconds")} for s in summaries]


def check_database_command(args: argparse.Namespace) -> dict[str, Any]:
    """The full check start-up leaves out (desktop.store.checking); it writes nothing."""

    missing = _missing_database(args.database)
    if missing:  # checking must not leave a new, empty database behind
        raise NotFoundError(f"there is no database at {missing}")
    with storage.Store.open(args.database) as store:
        report = checking.check_database(store)
    if not report.ok:
        raise CorruptDatabaseError(f"{report.database} is damaged: {report.summary()}; Rout "
                                   "left it as it is — restore a copy or open another "
                                   "database")
    return {"database": report.database, "ok": True, "problems": [],
            "pages": report.pages, "armies": report.armies, "libraries": report.libraries,
            "battles": report.battles, "unfinished": report.unfinished}


def data_command(args: argparse.Namespace) -> dict[str, Any]:

    return cli_data.data_command(args, bool(_missing_database(args.database)))


STORE_COMMANDS = {"import": import_command, "export": export_command,
                  "armies": armies_command, "battles": battles_command,
                  "check": check_command, "check-database": check_database_command,
                  "data": data_command}


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _build_parser().parse_args(arguments)
        if getattr(args, "database", None):  # the same forms for every command: see there
            try:
                args.database = database_url_from(args.database)
            except StoreError as error:
                raise UsageError(f"rout: --database: {error}") from None
        if args.command == "odds":
            result = odds_command(args)
        elif args.command == "resolve":
            result = resolve_command(args)
        elif args.command == "forecast":
            result = forecast_command(args)
        elif args.command == "move":
            result = move_command(args)
        elif args.command in STORE_COMMANDS:
            result = _store_command(args)
        else:
            return gui_app.run_app(screenshot=args.screenshot, database=args.database,
                                   army=args.army, battle=args.battle, size=args.size)
    except (UsageError, RuleError) as error:
        # one_line: what a library or the system said may hold anything a player typed.
        print(one_line(f"rout: {error}" if isinstance(error, RuleError) else str(error)),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    # ASCII escapes: the output survives any terminal encoding and broken Unicode in names.
    try:
        print(json.dumps(result, indent=2))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (`rout armies | head`): not an error; keep Python from
        # complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _store_command(args: argparse.Namespace) -> Any:

    try:
        return STORE_COMMANDS[args.command](args)
    except StoreError as error:
        raise UsageError(f"rout {args.command}: {error}") from None


def run() -> NoReturn:
    """The `rout` command: `main`, then the process ends as soon as its work is done.

    Everything that must outlive the process is already on disk when `main` returns
    (databases closed, pictures and exports renamed into place, the window's settings
    synced); what is left is the interpreter freeing every Qt object and module one by one,
    a third of a second after a window closes. Output and logs are flushed first.
    """
    status = main()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed or broken pipe
            stream.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
