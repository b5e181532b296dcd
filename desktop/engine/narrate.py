"""Events in plain words, for the battle log and the exported battle report.

`describe` turns one event into a sentence: units by name (never by id), the dice and
totals where the event has them, distances in the ruleset's unit (" or cm) and the clause
that made it happen in brackets. Player moves (clause "player") and new turns follow no
clause, so they carry no bracket. The words are Rout's own; rules/README.md has the ids.
A test is told as its request's threshold words it (`Threshold.verdict`), so the log and
the wizard give the same sum; verbs agree with the unit's name (desktop.engine.wording).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from desktop.engine import reach
from desktop.engine.dice import Dice
from desktop.engine.errors import DiceError
from desktop.engine.events import (
    BreakTest,
    CasualtiesRemoved,
    ChargeFailed,
    ChaseCharged,
    ChaseReached,
    CombatResolved,
    CommandPointSpent,
    DiceRolled,
    Event,
    FlagSet,
    HonorTest,
    ModifierApplied,
    Movement,
    PanicTest,
    PursuitDeclared,
    RallyTest,
    RestraintTest,
    RunnerLocked,
    TerrainMoved,
    TerrainPlaced,
    TerrainRemoved,
    TerrainRenamed,
    TestTaken,
    TestWaived,
    TurnBegan,
    UnitBroke,
    UnitCaught,
    UnitCharged,
    UnitChased,
    UnitDeployed,
    UnitDestroyed,
    UnitEscaped,
    UnitFled,
    UnitLeftTable,
    UnitMoved,
    UnitPanicked,
    UnitPursued,
    UnitRallied,
    UnitReformed,
    UnitsDisengaged,
    UnitsEngaged,
    UnitTurned,
    UnitWheeled,
    WoundsSuffered,
    fold,
)
from desktop.engine.model import Battle, Status
from desktop.engine.procedure import Threshold
from desktop.engine.rulesets import get_ruleset
from desktop.engine.wording import plural, pronoun, verb

# Clauses that are not rules: a player's own move.
NO_RULE = ("", "player")


class _Words:
    """What every sentence needs from the battle before the event: names and units."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        try:
            self.unit = get_ruleset(battle.ruleset).distance_unit
        except (KeyError, ValueError):
            self.unit = "in"

    def name(self, unit_id: str) -> str:
        unit = self.battle.roster.get(unit_id)
        return unit.name if unit is not None else unit_id

    def thing(self, thing_id: str) -> str:
        """A unit's or a terrain piece's name (what blocked a move may be either)."""
        if thing_id in self.battle.roster:
            return self.name(thing_id)
        return next((piece.name for piece in self.battle.terrain if piece.id == thing_id),
                    thing_id)

    def names(self, unit_ids: Sequence[str]) -> str:
        return _listed([self.name(uid) for uid in unit_ids])

    def many(self, unit_ids: str | Sequence[str]) -> bool:
        """Whether a subject of these units takes the plural (wording.plural)."""
        if isinstance(unit_ids, str):
            return plural(self.battle, unit_ids)
        return len(unit_ids) != 1 or plural(self.battle, unit_ids[0])

    def does(self, unit_ids: str | Sequence[str], word: str) -> str:
        """A plural verb as these units' name takes it: "flee", or "flees" for one model."""
        return verb(word, self.many(unit_ids))

    def their(self, unit_ids: str | Sequence[str], word: str = "their") -> str:
        return pronoun(word, self.many(unit_ids))

    def says(self, unit_id: str, word: str, rest: str = "") -> str:
        """"Orc Boyz flee 8\"": the unit's name, its verb agreeing, then the rest."""
        text = f"{self.name(unit_id)} {self.does(unit_id, word)}"
        return f"{text} {rest}" if rest else text

    def distance(self, value: float) -> str:
        shown = f"{round(value, 1):g}"
        return f'{shown}"' if self.unit == "in" else f"{shown} cm"

    def rolls(self, rolls: Sequence[tuple[str, int]]) -> str:
        return ", ".join(f"{self.name(uid)} {self.distance(total)}" for uid, total in rolls)


def _listed(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _path_length(event: Movement) -> float:
    return sum(math.dist(a, b) for a, b in zip(event.path, event.path[1:], strict=False))


def _moved(event: Movement, words: _Words) -> str:
    """How far a move went (its roll when it had one, else the length of its path) and the
    friends it passed through on the way."""
    text = words.distance(event.roll if event.roll else _path_length(event))
    through = [uid for uid, _, _ in event.through
               if uid not in getattr(event, "passed_through", ())]
    if through:
        text += f", passing through {words.names(list(dict.fromkeys(through)))}"
    return text


def _moved_up(moved_up: Sequence[tuple[str, float, float]], words: _Words,
              how: str = "move up") -> str:
    if not moved_up:
        return ""
    units = [uid for uid, _, _ in moved_up]
    first, _, rest = how.partition(" ")
    return (f"; {words.names(units)} {words.does(units, first)}{' ' + rest if rest else ''} "
            "to stay in contact")


def _locked(event: RunnerLocked, words: _Words) -> str:
    text = (f"{words.says(event.unit, 'run', 'into')} {words.name(event.enemy)} and "
            f"{words.does(event.unit, 'are')} locked in combat with "
            f"{words.their(event.enemy, 'them')}")
    others = [uid for uid in event.touching if uid != event.enemy]
    if others:
        text += f" (also touching {words.names(others)}, not locked)"
    return text


def _dice_modifier(dice: str) -> int:
    try:
        return Dice.parse(dice).modifier
    except DiceError:
        return 0


# Each test's name and what passing and failing it does, for many: (verb, rest).
_TESTS: dict[type[TestTaken], tuple[str, tuple[str, str], tuple[str, str]]] = {
    BreakTest: ("a Break test", ("hold", ""), ("break", "")),
    PanicTest: ("a Panic test", ("keep", "their nerve"), ("panic", "")),
    RestraintTest: ("a Restraint test", ("are", "held back"),
                    ("cannot", "be held back and must pursue")),
    RallyTest: ("a Rally test", ("rally", ""), ("keep", "fleeing")),
    HonorTest: ("an Honor test", ("hold", ""), ("fail", "it")),
}


def _test(event: TestTaken, words: _Words) -> str:
    """"Elf Archers take a Break test on 2D6: 4 + 4 + 3 = 11, above Ld 8 — they break": the
    sum as the request's threshold words it. Every test passes on a total of its target or
    less; Kensei's event carries the dice's own modifier, the others the test's."""
    test, held, failed = _TESTS.get(type(event), ("a test", ("pass", ""), ("fail", "")))
    if isinstance(event, HonorTest):
        threshold = Threshold.of_rule("<=", event.target, "holds", "fails")
        dice_modifier = event.modifier
    else:
        threshold = Threshold.of_rule("<=", event.target, "holds", "fails",
                                      modifier=event.modifier, against=f"Ld {event.target}")
        dice_modifier = _dice_modifier(event.dice)
    sum_text = threshold.verdict(event.faces, dice_modifier, passed=event.passed)
    word, rest = held if event.passed else failed
    if isinstance(event, HonorTest) and event.attempts > 1:
        # K-HT-1: the Ronin's two rolls read as one test, the first failure not yet final.
        if event.attempt:
            test = "their Ronin re-roll of the Honor test"
        elif not event.passed:
            rest = "it and, as Ronin, roll again"
    rest = " ".join(words.their(event.unit, part) for part in rest.split(" ")) if rest else ""
    outcome = f"{words.their(event.unit, 'they')} {words.does(event.unit, word)}"
    outcome += f" {rest}" if rest else ""
    return f"{words.says(event.unit, 'take', test)} on {event.dice}: {sum_text} — {outcome}"


def _combat(event: CombatResolved, words: _Words) -> str:
    return f"The combat '{event.combat}': {scores(event)}"


def scores(event: CombatResolved) -> str:
    """"Orcs & Goblins 7 (wounds 3, ranks 3, outnumber 1); High Elves 4 (wounds 4) — Orcs &
    Goblins win by 3": every bonus the engine counted, as the log and the wizard give it."""
    parts = []
    for player, score in event.scores:
        bonuses = ", ".join(f"{bonus} {value}" for who, bonus, value in event.breakdown
                            if who == player)
        parts.append(f"{player} {score}" + (f" ({bonuses})" if bonuses else ""))
    result = (f"{event.winner} win by {event.difference}" if event.winner
              else "a draw, so nobody tests")
    return f"{'; '.join(parts)} — {result}"


def _fled(event: UnitFled, words: _Words) -> str:
    text = (f"{words.says(event.unit, 'flee', _moved(event, words))} away from "
            f"{words.name(event.away_from)}")
    if event.passed_through:
        text += f", passing through {words.names(event.passed_through)}"
    if event.blocked_by:
        text += f", stopped by {words.thing(event.blocked_by)}"
    return text


def _caught(event: UnitCaught, words: _Words) -> str:
    caught, by = words.name(event.unit), words.names(event.by)
    rolls = dict(event.pursuit_rolls)
    pursue, catch = words.does(event.by, "pursue"), words.does(event.by, "catch")
    if len(event.by) == 1 and event.by[0] in rolls:
        text = f"{by} {pursue} {words.distance(rolls[event.by[0]])} and {catch} {caught}"
    else:
        text = f"{by} {catch} {caught}"
    text += f", who fled {words.distance(event.flee_roll)}"
    others = [(uid, total) for uid, total in event.pursuit_rolls
              if not (len(event.by) == 1 and uid == event.by[0])]
    if others:
        text += f" (pursuit rolls: {words.rolls(others)})"
    return text


def _charged(event: UnitCharged, words: _Words) -> str:
    """A charge told by the gap it closes, as the ghost and the status bar give it
    (reach.charge_gap), not by the charger's path; a failed one also says how far it went."""
    target, unit = words.name(event.target), event.unit
    charged = f"{words.says(unit, 'charge', target)}, {reach.charge_gap(words.battle, event)},"
    if event.reached:
        # Made from past the reach, it stands as the players made it (a warning, not a
        # refusal) and says so; one that falls short is told by how far it went.
        if unit in words.battle.roster and not reach.judge(words.battle, event).within:
            clause = reach.allowance(words.battle, unit).charge_clause
            charged += f" past {words.their(unit)} charge reach ({clause}),"
        return f"{charged} and {words.does(unit, 'reach')} {words.their(event.target, 'them')}"
    return (f"{charged} but {words.does(unit, 'fall')} short after moving "
            f"{_moved(event, words)}")


def _player_moved(event: UnitMoved, words: _Words) -> str:
    """A player's move: how far, and the new facing when it turned (the Turn tool's move
    stays in place, so it reads as a turn, not as a move of 0")."""
    state = words.battle.states.get(event.unit)
    before = state.facing if state is not None else event.facing
    turned = abs((event.facing - before + 180.0) % 360.0 - 180.0) >= 0.5
    facing = f"{words.does(event.unit, 'turn')} to face {event.facing % 360:.0f}°"
    if turned and _path_length(event) < 0.05:
        return f"{words.name(event.unit)} {facing}"
    text = words.says(event.unit, "move", _moved(event, words))
    text = f"{text} and {facing}" if turned else text
    # A move past what the ruleset allows stands as the players made it, and says so.
    if event.unit in words.battle.roster:
        verdict = reach.judge(words.battle, event)
        if not verdict.within:
            allowed = reach.allowance(words.battle, event.unit)
            text += (f", past {words.their(event.unit)} {allowed.march_name} of "
                     f"{words.distance(verdict.limit)} ({allowed.clause})")
    return text


def _wheeled(event: UnitWheeled, words: _Words) -> str:
    way = "clockwise" if event.angle >= 0 else "anticlockwise"
    # Whole degrees, as the Wheel tool showed them while dragging.
    return (f"{words.says(event.unit, 'wheel')} {abs(event.angle):.0f}° {way} about "
            f"{words.their(event.unit)} {event.pivot} front corner (the outer corner travels "
            f"{words.distance(event.arc)})")


def _flag(flag: str) -> str:
    lasting = flag.startswith("turn:")
    text = flag.removeprefix("turn:").replace("_", " ")
    return f"{text} (this turn)" if lasting else text


def _terrain_name(words: _Words, terrain_id: str) -> str:
    return next((p.name for p in words.battle.terrain if p.id == terrain_id), terrain_id)


_SENTENCES: dict[type[Event], Callable[[Any, _Words], str]] = {
    CombatResolved: _combat,
    TestTaken: _test,
    TestWaived: lambda e, w: w.says(e.unit, "take", f"no {e.test} test: {e.reason}"),
    DiceRolled: lambda e, w: w.says(e.unit, "roll", (
        f"{e.dice} to {e.purpose}: {' + '.join(map(str, e.faces))} = {w.distance(e.total)}")),
    UnitEscaped: lambda e, w: (f"{w.says(e.unit, 'escape')}: {w.their(e.unit)} flee roll of "
                               f"{w.distance(e.flee_roll)} beats every pursuer ("
                               f"{w.rolls(e.pursuit_rolls)})"),
    PursuitDeclared: lambda e, w: (
        w.says(e.unit, "overrun", "straight ahead") if e.overrun and not e.target
        else w.says(e.unit, "overrun", f"into {w.name(e.target)}") if e.overrun
        else w.says(e.unit, "will", f"pursue {w.name(e.target)}")),
    CasualtiesRemoved: lambda e, w: (
        w.says(e.unit, "lose", f"{e.models} model{'s' if e.models != 1 else ''}")
        + _moved_up(e.moved_up, w)),
    UnitBroke: lambda e, w: w.says(e.unit, "are", "broken"),
    UnitPanicked: lambda e, w: w.says(e.unit, "panic", f"at the fate of {w.name(e.cause)} "
                                                       "and will flee"),
    Movement: lambda e, w: w.says(e.unit, "move", _moved(e, w)),
    UnitMoved: _player_moved,
    UnitFled: _fled,
    UnitPursued: lambda e, w: (
        (w.says(e.unit, "pursue", f"{w.name(e.target)} {_moved(e, w)}") if e.target
         else w.says(e.unit, "overrun", f"straight ahead {_moved(e, w)}"))
        + (f" and {w.does(e.unit, 'crash')} into {w.name(e.charged)}" if e.charged else "")),
    UnitLeftTable: lambda e, w: (f"{w.says(e.unit, 'flee', _moved(e, w))} off the table and "
                                 f"{w.does(e.unit, 'are')} gone"),
    UnitCharged: _charged,
    UnitCaught: _caught,
    UnitDestroyed: lambda e, w: w.says(e.unit, "are", f"destroyed ({e.reason})"),
    UnitRallied: lambda e, w: (f"{w.says(e.unit, 'rally')} and {w.does(e.unit, 'stop')} "
                               "fleeing"),
    UnitsEngaged: lambda e, w: f"{w.name(e.unit)} and {w.name(e.enemy)} are now in combat",
    ChargeFailed: lambda e, w: w.says(e.unit, "fail", f"to reach {w.name(e.target)}"),
    TurnBegan: lambda e, w: f"Turn {e.turn} begins",
    ModifierApplied: lambda e, w: w.says(e.unit, "get", (
        f"{e.stat} {e.delta:+d} until the end of turn {e.expires_after_turn} ({e.source})")),
    FlagSet: lambda e, w: w.says(e.unit, "are", f"marked: {_flag(e.flag)}"),
    WoundsSuffered: lambda e, w: (w.says(e.unit, "suffer", (
        f"{e.wounds} Wound{'s' if e.wounds != 1 else ''}")) + _moved_up(e.moved_up, w)),
    RunnerLocked: _locked,
    UnitChased: lambda e, w: (w.says(e.unit, "chase", f"{w.name(e.target)} {_moved(e, w)}")
                              + (f" and {w.does(e.unit, 'run')} into {w.name(e.reached)}"
                                 if e.reached else "")),
    ChaseReached: lambda e, w: (f"{w.says(e.unit, 'catch', 'up with')} {w.name(e.target)} "
                                f"and {w.does(e.unit, 'make')} a free attack"),
    ChaseCharged: lambda e, w: (f"{w.says(e.unit, 'run', 'into')} {w.name(e.enemy)}: a "
                                "successful charge, fought next turn"),
    CommandPointSpent: lambda e, w: (f"{e.player} spend a Command Point for "
                                     f"{w.name(e.unit)} to {e.purpose}"),
    UnitTurned: lambda e, w: w.says(e.unit, "turn", f"to face {e.facing % 360:g}°"),
    UnitDeployed: lambda e, w: w.says(e.unit, "deploy", (
        f"at ({e.center[0]:.1f}, {e.center[1]:.1f}) facing {e.facing % 360:g}°")),
    UnitWheeled: _wheeled,
    # A reform moves enemies up (it narrowed) or out of its way (it widened).
    UnitReformed: lambda e, w: (w.says(e.unit, "reform", f"{e.files} wide")
                                + _moved_up(e.moved_up, w, "move")),
    UnitsDisengaged: lambda e, w: (f"{w.name(e.unit)} and {w.name(e.enemy)} break off their "
                                   "combat"),
    TerrainPlaced: lambda e, w: (
        f"{e.name} placed on the table"
        + (" (impassable)" if e.impassable else " (difficult ground)" if e.difficult else "")),
    TerrainRemoved: lambda e, w: f"{_terrain_name(w, e.terrain)} taken off the table",
    TerrainMoved: lambda e, w: (f"{_terrain_name(w, e.terrain)} moved "
                                f"{w.distance(math.hypot(e.dx, e.dy))}"),
    TerrainRenamed: lambda e, w: f"{_terrain_name(w, e.terrain)} renamed {e.name}",
}


def describe(event: Event, battle_before: Battle) -> str:
    """One sentence for `event`, read against the battle as it was just before it."""
    words = _Words(battle_before)
    sentence = next((_SENTENCES[cls] for cls in type(event).__mro__ if cls in _SENTENCES),
                    None)
    text = (sentence(event, words) if sentence is not None
            else f"{type(event).__name__} (no words for this event yet)")
    if event.clause not in NO_RULE:
        text += f" [{event.clause}]"
    return text


def units_named(event: Event, battle_before: Battle) -> list[str]:
    """The units an event names (its unit, target, enemy, catchers…), in its order: what
    a click on its line in the battle log picks out on the table."""
    found: list[str] = []
    for value in vars(event).values():
        candidates = value if isinstance(value, tuple) else (value,)
        for candidate in candidates:
            if isinstance(candidate, str) and candidate in battle_before.roster \
                    and candidate not in found:
                found.append(candidate)
    return found


# --- battle reports --------------------------------------------------------------------------


def sentences(start: Battle, events: Sequence[Event]) -> tuple[list[str], Battle]:
    """A sentence per event, each read against the battle just before it, and the battle
    after the last."""
    lines = []
    battle = start
    for event in events:
        lines.append(describe(event, battle))
        battle = fold(battle, (event,))
    return lines, battle


def _sections(start: Battle, steps: Sequence[Sequence[Event]]
              ) -> list[tuple[int, list[tuple[int, list[str]]]]]:
    """(turn, [(step number, sentences)]) in order; a step belongs to the turn it began in."""
    turns: list[tuple[int, list[tuple[int, list[str]]]]] = []
    battle = start
    for number, step in enumerate(steps, start=1):
        if not step:
            continue
        if not turns or turns[-1][0] != battle.turn:
            turns.append((battle.turn, []))
        lines, battle = sentences(battle, step)
        turns[-1][1].append((number, lines))
    return turns


@dataclass(frozen=True)
class SideSummary:
    """How one side stands at the end of a report: its units and points, those lost
    (destroyed: caught, wiped out) and those fled (off the table, or still fleeing or
    broken on it: "Handgunners (fleeing)") by name."""

    player: str
    units: int
    points: int
    lost: tuple[str, ...]
    lost_points: int
    fled: tuple[str, ...]
    fled_points: int


def summary(start: Battle, steps: Sequence[Sequence[Event]]) -> tuple[int, list[SideSummary]]:
    """The turn the battle reached, and each side's summary, in the roster's order."""
    end = fold(start, [event for step in steps for event in step])
    sides: dict[str, list[str]] = {}
    for uid, unit in end.roster.items():
        sides.setdefault(unit.player, []).append(uid)
    found = []
    for player, units in sides.items():
        lost = [uid for uid in units if end.states[uid].status is Status.DESTROYED]
        fled = [uid for uid in units if end.states[uid].status in _FLED]
        found.append(SideSummary(
            player, len(units), sum(end.roster[uid].points for uid in units),
            tuple(end.roster[uid].name for uid in lost),
            sum(end.roster[uid].points for uid in lost),
            tuple(f"{end.roster[uid].name} ({_FLED[end.states[uid].status]})"
                  for uid in fled),
            sum(end.roster[uid].points for uid in fled)))
    return end.turn, found


_FLED = {Status.LEFT_TABLE: "off the table", Status.FLEEING: "fleeing",
         Status.BROKEN: "broken"}


def _casualties(names: Sequence[str], points: int) -> str:
    """"2 (176 points): Orc Boar Riders, River Trolls" (points when the units have any),
    or "none"."""
    if not names:
        return "none"
    worth = f" ({points} points)" if points else ""
    return f"{len(names)}{worth}: {', '.join(names)}"


def _summary_lines(start: Battle, steps: Sequence[Sequence[Event]]) -> tuple[str, list[
        tuple[str, str, str, str, str]]]:
    """The summary's opening sentence and its table rows (side, units, points, lost, fled)."""
    turn, sides = summary(start, steps)
    made = sum(1 for step in steps if step)
    opening = f"Turn {turn} reached, {made} step{'' if made == 1 else 's'}."
    # A battle set up from a scenario prices nothing: "—", not a side worth 0 points.
    rows = [(side.player, str(side.units), str(side.points) if side.points else "—",
             _casualties(side.lost, side.lost_points), _casualties(side.fled, side.fled_points))
            for side in sides]
    return opening, rows


_SUMMARY_HEADINGS = ("Side", "Units", "Points", "Lost (destroyed)", "Fled")
_MARKDOWN_SPECIAL = str.maketrans({c: f"\\{c}" for c in "\\`*_<>#|"})


def report_markdown(title: str, start: Battle, steps: Sequence[Sequence[Event]],
                    image: str | None = None) -> str:
    """The battle as Markdown: a heading per turn, one per step, a bullet per event.

    `image` (a path or a data URI of the battlefield) goes at the top.
    """
    out = [f"# {title.translate(_MARKDOWN_SPECIAL)}", "", "## Summary", ""]
    opening, rows = _summary_lines(start, steps)
    out += [opening, "", "| " + " | ".join(_SUMMARY_HEADINGS) + " |",
            "|" + "---|" * len(_SUMMARY_HEADINGS)]
    out += ["| " + " | ".join(cell.translate(_MARKDOWN_SPECIAL) for cell in row) + " |"
            for row in rows]
    out.append("")
    if image:
        out += [f"![The battlefield](<{image.replace('>', '%3E')}>)", ""]
    sections = _sections(start, steps)
    if not sections:
        out += ["Nothing has happened yet.", ""]
    for turn, numbered in sections:
        out += [f"## Turn {turn}", ""]
        for number, lines in numbered:
            out += [f"### Step {number}", ""]
            out += [f"- {line.translate(_MARKDOWN_SPECIAL)}" for line in lines]
            out.append("")
    return "\n".join(out)


def report_html(title: str, start: Battle, steps: Sequence[Sequence[Event]],
                image: str | None = None) -> str:
    """The battle as a standalone HTML page; every name is escaped."""
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{e(title)}</title>",
           "<style>body{font-family:sans-serif;max-width:50em;margin:auto}"
           "img{max-width:100%}table{border-collapse:collapse}"
           "th,td{border:1px solid #999;padding:.2em .5em;text-align:left}</style>",
           "</head>", "<body>", f"<h1>{e(title)}</h1>", "<h2>Summary</h2>"]
    opening, rows = _summary_lines(start, steps)
    out.append(f"<p>{e(opening)}</p>")
    out.append("<table><tr>" + "".join(f"<th>{e(cell)}</th>" for cell in _SUMMARY_HEADINGS)
               + "</tr>" + "".join("<tr>" + "".join(f"<td>{e(cell)}</td>" for cell in row)
                                   + "</tr>" for row in rows) + "</table>")
    if image:
        out.append(f'<p><img src="{e(image, quote=True)}" alt="The battlefield"></p>')
    sections = _sections(start, steps)
    if not sections:
        out.append("<p>Nothing has happened yet.</p>")
    for turn, numbered in sections:
        out.append(f"<h2>Turn {turn}</h2>")
        for number, lines in numbered:
            out.append(f"<h3>Step {number}</h3>")
            out.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in lines) + "</ul>")
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
