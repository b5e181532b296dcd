"""The "Breaks or Pursues" procedure (The 9th Age style): every BP-* clause, in order.

One resolution, `breaks_pursues`: combat scores and Break tests (BP-B), then, if anything
broke or was wiped out (BP-0), flee directions (BP-1), flee rolls (BP-2), pursuit and Overrun
declarations (BP-3, BP-3a), pursuit rolls (BP-4), catches (BP-5) and finally the moves (BP-6).
Nothing moves before every roll is on the table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace

from desktop.engine import odds, spatial
from desktop.engine.combat import (
    Combat,
    check_combats,
    engagements,
    independent_groups,
    parse_combats,
)
from desktop.engine.dice import Dice
from desktop.engine.events import (
    CasualtiesRemoved,
    PursuitDeclared,
    UnitDestroyed,
    UnitPursued,
)
from desktop.engine.model import Battle, Status
from desktop.engine.movement import (
    DEFLECTIONS,
    MovePlan,
    flee_around,
    heading_away,
    pursue_around,
)
from desktop.engine.procedure import (
    Answer,
    Choice,
    Option,
    Outcome,
    Phase,
    Procedure,
    Recorder,
    Request,
    Threshold,
    alike_totals,
    program,
)
from desktop.engine.rulesets.base import ProcedureKind
from desktop.engine.rulesets.catalogue import BREAKS_PURSUES as RULESET
from desktop.engine.rulesets.common import (
    audit_move,
    break_test,
    distance_roll,
    emit_flee,
    flee_source,
    move_outcome,
    outcomes_by_total,
    resolve_catches,
    score_combat,
    strongest_enemy,
)
from desktop.engine.sight import remember


def _dice_option(battle: Battle, name: str) -> Dice:
    return Dice.parse(str(RULESET.option(battle, name)))


def breaks_pursues(rec: Recorder, combats: Sequence[Combat]) -> Procedure:
    """Every BP step in order, as phases (see `procedure.Phase`)."""
    return program(rec, _Casualties(tuple(combats)))


@dataclass(frozen=True)
class _Casualties(Phase):
    """Casualties come off; a unit left with no models is wiped out (BP-0)."""

    combats: tuple[Combat, ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        check_combats(rec.battle, self.combats, fleeing_clause="BP-0")
        wiped_out: list[tuple[str, str]] = []  # (unit, combat)
        for combat in self.combats:
            for combatant in combat.combatants():
                if combatant.casualties:
                    rec.emit(CasualtiesRemoved.build(rec.battle, combatant.unit,
                                                     combatant.casualties, clause="BP-0"))
                    if rec.battle.states[combatant.unit].models == 0:
                        rec.emit(UnitDestroyed.build(rec.battle, combatant.unit,
                                                     "wiped out in combat", clause="BP-0"))
                        wiped_out.append((combatant.unit, combat.id))
        yield from ()
        return _BreakTests(self.combats, tuple(wiped_out))


@dataclass(frozen=True)
class _BreakTests(Phase):
    """Each combat's score, then a Break test for every unit of its losing side (BP-B),
    one test at a time; then flee directions, if anything broke or was wiped out (BP-0)."""

    combats: tuple[Combat, ...]
    wiped_out: tuple[tuple[str, str], ...]
    broken: tuple[tuple[str, Combat], ...] = ()
    scored: int = 0  # combats scored so far
    testing: tuple[tuple[str, int], ...] = ()  # (unit, difference) of the last one scored

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        scored, testing = self.scored, list(self.testing)
        while testing or scored < len(self.combats):
            if not testing:
                combat = self.combats[scored]
                scored += 1
                result, event = score_combat(rec.battle, combat, "BP-B")
                rec.emit(event)
                if result.loser is not None:
                    testing = [(uid, result.difference)
                               for uid in combat.side_of(result.loser).unit_ids]
                continue
            uid, difference = testing.pop(0)
            if rec.battle.states[uid].status != Status.READY:
                continue
            broken = self.broken
            if (yield from break_test(rec, uid, difference, clause="BP-B",
                                      waived_clause="BP-B", double_one_holds=False)):
                broken += ((uid, self.combats[scored - 1]),)
            return replace(self, broken=broken, scored=scored, testing=tuple(testing))
        if not self.broken and not self.wiped_out:
            return None  # BP-0: nothing broke and nothing was wiped out
        return _FleeDirections(self.combats, self.wiped_out, self.broken)


@dataclass(frozen=True)
class _FleeDirections(Phase):
    """BP-1: whom each broken unit flees from; then its flee roll (BP-2)."""

    combats: tuple[Combat, ...]
    wiped_out: tuple[tuple[str, str], ...]
    broken: tuple[tuple[str, Combat], ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        flee_from: list[tuple[str, str]] = []
        for uid, combat in self.broken:
            flee_from.append((uid, (yield from _flee_direction(rec, uid, combat))))
        headings = tuple((uid, heading_away(rec.battle, uid, rec.battle.states[source].center))
                         for uid, source in flee_from)
        return _FleeRolls(self.combats, self.wiped_out, tuple(flee_from), headings)


@dataclass(frozen=True)
class _FleeRolls(Phase):
    """BP-2: the next broken unit rolls its flee distance; nothing moves yet."""

    combats: tuple[Combat, ...]
    wiped_out: tuple[tuple[str, str], ...]
    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    flee_rolls: tuple[tuple[str, int], ...] = ()

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        done = len(self.flee_rolls)
        if done == len(self.flee_from):
            pursuits, overruns = yield from _declare(rec, self.combats, dict(self.wiped_out),
                                                     dict(self.flee_rolls))
            return _PursuitRolls(self.flee_from, self.headings, self.flee_rolls,
                                 tuple(pursuits.items()), tuple(overruns))
        uid = self.flee_from[done][0]
        flee_dice = _dice_option(rec.battle, "flee_dice")
        # Its odds are measured where it will move (issue 24, D2): after those before it.
        roll = yield from distance_roll(
            rec, uid, flee_dice, key=f"flee:{uid}", purpose="flee", clause="BP-2",
            why=(f"{rec.battle.roster[uid].name} roll {flee_dice} to flee. The dice are set "
                 f"beside the unit; nothing moves until every roll is made."),
            outcome_of=_flee_outcome(_battle_when_fleeing(rec.battle, self, uid), uid,
                                     dict(self.headings)[uid]))
        return replace(self, flee_rolls=(*self.flee_rolls, (uid, roll)))


def _battle_when_fleeing(battle: Battle, rolls: _FleeRolls, unit_id: str) -> Battle:
    """The battle as it will stand when `unit_id` flees (BP-6: after the catches, the units
    before it in `flee_from` move one by one, each its flee roll, known by now).

    Exact when nobody may pursue the units before it (BP-3: no unit touches them that
    touches only broken enemies). One that may be pursued waits on a declaration and dice
    still to come, caught or fled: it is taken where it stands, as in W6. Kept with the
    battle, for every total's odds."""
    def fled() -> Battle:
        scratch = Recorder(battle)
        flee_rolls, headings = dict(rolls.flee_rolls), dict(rolls.headings)
        for uid, source in rolls.flee_from:
            if uid == unit_id:
                break
            if _may_be_pursued(battle, uid) or scratch.battle.states[uid].status != Status.BROKEN:
                continue
            plan = flee_around(scratch.battle, uid, headings[uid], flee_rolls[uid])
            emit_flee(scratch, uid, plan, flee_rolls[uid], away_from=source, clause="BP-6",
                      left_clause="BP-6")
        return scratch.battle

    return remember(battle, ("fled before", unit_id, rolls), fled)


def _may_be_pursued(battle: Battle, unit_id: str) -> bool:
    """BP-3: whether a unit ready to pursue touches this broken unit and no enemy of its
    own that still stands (what `_declare` asks)."""
    return any(battle.states[uid].status == Status.READY
               and all(battle.states[e].status == Status.BROKEN
                       for e in spatial.touching_enemies(battle, uid))
               for uid in spatial.touching_enemies(battle, unit_id))


@dataclass(frozen=True)
class _PursuitRolls(Phase):
    """BP-4: the next pursuer or overrunning unit rolls; then catches and moves."""

    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    flee_rolls: tuple[tuple[str, int], ...]
    pursuits: tuple[tuple[str, str], ...]
    overruns: tuple[str, ...]
    pursuit_rolls: tuple[tuple[str, int], ...] = ()

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        rolling = [*(uid for uid, _ in self.pursuits), *self.overruns]
        done = len(self.pursuit_rolls)
        if done == len(rolling):
            yield from ()
            return _Moves(self.flee_from, self.headings, self.flee_rolls, self.pursuits,
                          self.overruns, self.pursuit_rolls)
        uid = rolling[done]
        target = dict(self.pursuits).get(uid)
        flee_rolls = dict(self.flee_rolls)
        pursue_dice = _dice_option(rec.battle, "pursue_dice")
        why = f"{rec.battle.roster[uid].name} roll {pursue_dice} "
        if target is None:
            why += "for their Overrun straight ahead."
            threshold, outcome_of = None, _overrun_outcome(rec.battle, uid)
        else:
            why += (f"to pursue {rec.battle.roster[target].name}, who rolled "
                    f"{flee_rolls[target]}: equal or more catches them.")
            threshold, outcome_of = _catches(flee_rolls[target]), None
        # Beyond catching or not, the roll only says how far the unit goes: it reads "move",
        # audited where the unit moves (the last moves of the resolution, see _Moves).
        roll = yield from distance_roll(
            rec, uid, pursue_dice, key=f"pursue_roll:{uid}", purpose="pursue", clause="BP-4",
            why=why, threshold=threshold, outcome_of=outcome_of, reads="move")
        return replace(self, pursuit_rolls=(*self.pursuit_rolls, (uid, roll)))


@dataclass(frozen=True)
class _Moves(Phase):
    """BP-5 catches, then BP-6: fleeing units move, then pursuers and overrunning units."""

    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    flee_rolls: tuple[tuple[str, int], ...]
    pursuits: tuple[tuple[str, str], ...]
    overruns: tuple[str, ...]
    pursuit_rolls: tuple[tuple[str, int], ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        flee_rolls, pursuits = dict(self.flee_rolls), dict(self.pursuits)
        pursuit_rolls, headings = dict(self.pursuit_rolls), dict(self.headings)
        resolve_catches(rec, flee_rolls, pursuits, pursuit_rolls, "BP-5")
        for uid, source in self.flee_from:
            if rec.battle.states[uid].status != Status.BROKEN:
                continue
            plan = flee_around(rec.battle, uid, headings[uid], flee_rolls[uid])
            emit_flee(rec, uid, plan, flee_rolls[uid], away_from=source, clause="BP-6",
                      left_clause="BP-6")
        pursue_dice = _dice_option(rec.battle, "pursue_dice")
        for uid in [*pursuits, *self.overruns]:
            target = pursuits.get(uid, "")
            battle, roll = rec.battle, pursuit_rolls[uid]
            heading = headings[target] if target else battle.states[uid].facing
            plan = _pursuit_move(battle, uid, target, heading, roll)
            threshold = _catches(flee_rolls[target]) if target else None
            audit_move(rec, f"pursue_roll:{uid}", uid, plan,
                       alike_totals(pursue_dice, threshold, roll),
                       functools.partial(_pursuit_move, battle, uid, target, heading))
            rec.emit(UnitPursued(uid, pursuit_rolls[uid], plan.path, plan.facing,
                                 target=target, charged=plan.contacted_enemy, clause="BP-6",
                                 **plan.drawing()))
        yield from ()
        return None


def _catches(flee_roll: int) -> Threshold:
    """BP-5: a pursuit roll equal to or above the flee roll catches."""
    return Threshold(">=", flee_roll, "catches", "misses",
                     against=f"the flee roll of {flee_roll}")


def _pursuit_move(battle: Battle, unit_id: str, target: str, heading: float, roll: int
                  ) -> MovePlan:
    """BP-6: the full roll after `target`, stopping short of it; with no target an Overrun,
    always straight forward (BP-3a). Kept with the battle: the move and a forecast's audit
    of the totals read alike both ask."""
    return remember(battle, ("pursue", unit_id, target, heading, roll), lambda: pursue_around(
        battle, unit_id, heading, roll, halt_before=frozenset({target} - {""}),
        deflections=DEFLECTIONS if target else (0.0,)), mover=unit_id)


def _flee_direction(rec: Recorder, unit_id: str, combat: Combat
                    ) -> Generator[Request, Answer, str]:
    """BP-1: away from an enemy in contact; the enemies' owner picks if there are several."""
    battle = rec.battle
    touching = spatial.touching_enemies(battle, unit_id)
    if len(touching) <= 1:
        # One enemy in contact, or none left standing there: where it stood will do.
        return touching[0] if touching else flee_source(
            battle, unit_id, combat.other_side(battle.player_of(unit_id)).unit_ids)
    default = strongest_enemy(battle, unit_id, touching)
    owner = battle.player_of(touching[0])
    dice = _dice_option(battle, "flee_dice")

    def away_from(enemy: str) -> Option:
        heading = heading_away(battle, unit_id, battle.states[enemy].center)
        return Option(enemy, f"Away from {battle.roster[enemy].name}",
                      odds_of=lambda: outcomes_by_total(
                          dice, _flee_outcome(battle, unit_id, heading)))

    picked = yield Choice(
        key=f"flee_from:{unit_id}", player=owner, unit=unit_id,
        options=tuple(away_from(uid) for uid in touching),
        default=default, clause="BP-1",
        why=(f"{battle.roster[unit_id].name} are in contact with several of your units; "
             f"you choose which one they flee directly away from."))
    return str(picked)


def _declare(
    rec: Recorder, combats: Sequence[Combat], wiped_out: Mapping[str, str],
    flee_rolls: Mapping[str, int],
) -> Generator[Request, Answer, tuple[dict[str, str], list[str]]]:
    """BP-3 and BP-3a: who pursues which broken unit, and which chargers Overrun."""
    battle = rec.battle
    pursuits: dict[str, str] = {}
    overruns: list[str] = []
    pursue_dice = _dice_option(battle, "pursue_dice")
    charged = {c.unit for combat in combats for c in combat.combatants() if c.charged}
    # Only units touching a broken enemy may pursue, and only chargers Overrun: the index
    # finds the first; they are asked in roster order, as a look at every unit would.
    broken = [uid for uid in battle.on_table() if battle.states[uid].status == Status.BROKEN]
    asked = {uid for unit_id in broken for uid in spatial.touching_enemies(battle, unit_id)}
    for uid in battle.in_roster_order(asked | (charged & set(battle.on_table()))):
        if battle.states[uid].status != Status.READY:
            continue
        enemies = spatial.touching_enemies(battle, uid)
        standing = [e for e in enemies if battle.states[e].status != Status.BROKEN]
        fleeing = [e for e in enemies if battle.states[e].status == Status.BROKEN]
        name = battle.roster[uid].name
        if fleeing and not standing:
            options = [Option(e, f"Pursue {battle.roster[e].name}",
                              odds_of=_catch_odds(pursue_dice, flee_rolls[e]))
                       for e in fleeing]
            options.append(Option("hold", "Hold"))
            picked = yield Choice(
                key=f"pursue:{uid}", player=battle.player_of(uid), unit=uid,
                options=tuple(options), default=fleeing[0], clause="BP-3",
                why=(f"{name} touch only broken enemies. They may pursue one of them "
                     f"(their flee rolls are known) or hold."))
            if picked != "hold":
                pursuits[uid] = str(picked)
                rec.emit(PursuitDeclared(uid, str(picked), clause="BP-3"))
        elif (uid in charged and not enemies
              and _lost_its_foes(battle, uid, combats, wiped_out)):
            picked = yield Choice(
                key=f"overrun:{uid}", player=battle.player_of(uid), unit=uid,
                options=(Option("overrun", "Overrun straight ahead",
                                odds_of=_overrun_odds(battle, uid, pursue_dice)),
                         Option("hold", "Hold")),
                default="overrun", clause="BP-3a",
                why=(f"{name} charged and wiped out everything in front of them. They may "
                     f"Overrun: a pursue move straight forward."))
            if picked == "overrun":
                overruns.append(uid)
                rec.emit(PursuitDeclared(uid, "", overrun=True, clause="BP-3a"))
    return pursuits, overruns


def _lost_its_foes(battle: Battle, unit_id: str, combats: Sequence[Combat],
                   wiped_out: Mapping[str, str]) -> bool:
    """BP-3a: an enemy of this unit's combat was wiped out (not merely a friend)."""
    player = battle.player_of(unit_id)
    for combat in combats:
        if unit_id in combat.side_of(player).unit_ids:
            return any(uid in wiped_out for uid in combat.other_side(player).unit_ids)
    return False


def _catch_odds(dice: Dice, flee_roll: int) -> Callable[[], list[Outcome]]:
    def chances() -> list[Outcome]:
        chance = odds.catches(dice, flee_roll)
        return [Outcome("catches", chance), Outcome("misses", odds.ONE - chance)]
    return chances


def _flee_outcome(battle: Battle, unit_id: str, heading: float) -> Callable[[int], str]:
    """BP-6 measured now, for each flee total: where the dice would take the unit."""
    return lambda total: move_outcome(battle, flee_around(battle, unit_id, heading, total))


def _overrun_outcome(battle: Battle, unit_id: str) -> Callable[[int], str]:
    heading = battle.states[unit_id].facing
    return lambda total: move_outcome(battle, pursue_around(battle, unit_id, heading, total,
                                                            deflections=(0.0,)))


def _overrun_odds(battle: Battle, unit_id: str, dice: Dice) -> Callable[[], list[Outcome]]:
    return lambda: outcomes_by_total(dice, _overrun_outcome(battle, unit_id))


def _apart(battle: Battle, combats: Sequence[Combat]) -> list[tuple[Combat, ...]]:
    """Combats whose resolutions cannot meet: a unit moves at most its flee or pursuit dice
    (BP-2, BP-4, an Overrun included), and every other rule looks at units in contact."""
    farthest = max(_dice_option(battle, "flee_dice").maximum,
                   _dice_option(battle, "pursue_dice").maximum)
    return independent_groups(battle, combats, move=lambda uid: farthest, sense=0.0)


PROCEDURES: dict[str, ProcedureKind] = {
    "breaks_pursues": ProcedureKind(
        "breaks_pursues", "Break tests, flee and pursue rolls, catches, then moves",
        ("combats",), parse_combats, breaks_pursues, setup=engagements, split=_apart),
}
