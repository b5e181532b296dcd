"""Warhammer Fantasy Battle 6th edition: what follows a lost combat (every W6-* clause).

Three resolutions:
- `combat_aftermath`: the scores of one or several combats of a turn, Break tests, Panic
  tests, pursuit declarations, flee and pursuit rolls, catches, then every move.
- `start_of_turn`: Rally tests for a player's fleeing units and the compulsory flee of the
  ones that fail.
- `charge_fleeing`: an enemy charges a unit that is already fleeing.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from desktop.engine import odds, spatial
from desktop.engine.combat import (
    Combat,
    check_combats,
    engagements,
    independent_groups,
    parse_combats,
)
from desktop.engine.dice import D2D6, D3D6, Dice
from desktop.engine.errors import RuleError, ScenarioError
from desktop.engine.events import (
    CasualtiesRemoved,
    ChargeFailed,
    PanicTest,
    PursuitDeclared,
    RallyTest,
    RestraintTest,
    TestWaived,
    UnitCaught,
    UnitCharged,
    UnitDestroyed,
    UnitPanicked,
    UnitPursued,
    UnitRallied,
)
from desktop.engine.geometry import Footprint, distance, heading_of, in_contact, within_radius
from desktop.engine.model import Battle, Status
from desktop.engine.movement import (
    WIDE_DEFLECTIONS,
    MovePlan,
    end_footprint,
    flee_around,
    gap_length,
    heading_away,
    pursue_around,
    straight_move,
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
    Roll,
    Threshold,
    alike_totals,
    program,
)
from desktop.engine.reading import Reader
from desktop.engine.rulesets.base import ProcedureKind
from desktop.engine.rulesets.catalogue import WARHAMMER6 as RULESET
from desktop.engine.rulesets.common import (
    audit_move,
    break_test,
    distance_roll,
    emit_flee,
    flee_source,
    move_outcome,
    nearest_enemy,
    resolve_catches,
    score_combat,
)
from desktop.engine.sight import remember
from desktop.engine.wording import plural, pronoun, verb

PANIC_RADIUS = 6.0  # W6-PT-1
NEAREST_TOLERANCE = 1e-6  # spatial.nearest takes distances this close as equal
KEEP_AWAY = 4.0  # W6-FL-5


def flee_dice(battle: Battle, unit_id: str) -> Dice:
    """W6-FL-3 and W6-PU-1: Move 6 or less rolls 2D6, faster units 3D6."""
    return D3D6 if battle.stat(unit_id, "M") > 6 else D2D6


def attribute_test(
    rec: Recorder, unit_id: str, *, key: str, purpose: str, reason: str, clause: str,
    pass_label: str, fail_label: str,
) -> Generator[Request, Answer, tuple[tuple[int, ...], int, bool]]:
    """A 2D6 roll that passes on a total of Leadership or less (Panic, Rally, Restraint);
    `reason` says why it is taken, the threshold words the rest."""
    battle = rec.battle
    leadership = battle.stat(unit_id, "Ld")
    threshold = Threshold.of_rule("<=", leadership, pass_label, fail_label,
                                  against=f"Ld {leadership}")
    faces = yield Roll(key=key, unit=unit_id, player=battle.player_of(unit_id), dice=D2D6,
                       purpose=purpose,
                       why=f"{reason} {threshold.rule(D2D6, plural(battle, unit_id))}",
                       clause=clause, threshold=threshold, reads="outcome")
    assert isinstance(faces, tuple)
    return faces, leadership, sum(faces) <= leadership


def combat_aftermath(rec: Recorder, combats: Sequence[Combat]) -> Procedure:
    """Everything from the combat scores to the last pursuit move of one turn's combats, as
    phases (see `procedure.Phase`): each keeps in its fields all it needs of what went
    before, so a forecast can resume at any of them."""
    return program(rec, _Aftermath(tuple(combats)))


@dataclass(frozen=True)
class _Fought:
    """What the rest of an aftermath reads of one combat's scores (W6-CR-1)."""

    combat: Combat
    winner: str | None
    loser: str | None
    difference: int


@dataclass(frozen=True)
class _Aftermath(Phase):
    """Casualties and the combat scores; then the Break tests (W6-BT-1)."""

    combats: tuple[Combat, ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        check_combats(rec.battle, self.combats, fleeing_clause="W6-FL-7")
        # Footprints of units that fall, as they stood, for the 6" Panic radius (W6-PT-1).
        fallen: list[tuple[str, Footprint]] = []
        for combat in self.combats:
            for combatant in combat.combatants():
                if combatant.casualties:
                    before = rec.battle.footprint(combatant.unit)
                    rec.emit(CasualtiesRemoved.build(rec.battle, combatant.unit,
                                                     combatant.casualties, clause="W6-CR-1"))
                    if rec.battle.states[combatant.unit].models == 0:
                        rec.emit(UnitDestroyed.build(rec.battle, combatant.unit,
                                                     "wiped out in combat", clause="W6-PT-1"))
                        fallen.append((combatant.unit, before))
        fought = []
        for combat in self.combats:
            result, event = score_combat(rec.battle, combat, "W6-CR-1")
            rec.emit(event)
            fought.append(_Fought(combat, result.winner, result.loser, result.difference))
        # W6-BT-1: every unit of a losing side tests, in order.
        testing = tuple((uid, result.difference, result.combat.side_of(result.winner).unit_ids)
                        for result in fought if result.loser is not None
                        and result.winner is not None  # W6-CR-2: a draw, nobody tests
                        for uid in result.combat.side_of(result.loser).unit_ids)
        yield from ()
        return _BreakTests(tuple(fought), tuple(fallen), (), testing)


@dataclass(frozen=True)
class _BreakTests(Phase):
    """W6-BT-1/2: the next unit of a losing side tests; one that breaks will flee from the
    enemy with the highest Unit Strength (W6-FL-2)."""

    fought: tuple[_Fought, ...]
    fallen: tuple[tuple[str, Footprint], ...]  # in the order they fell
    flee_from: tuple[tuple[str, str], ...]  # (unit, whom it flees from), in order
    testing: tuple[tuple[str, int, tuple[str, ...]], ...]  # (unit, difference, winners)
    tested: int = 0  # how many of `testing` are done

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        for index in range(self.tested, len(self.testing)):
            uid, difference, winners = self.testing[index]
            if rec.battle.states[uid].status != Status.READY:
                continue
            double_one_holds = bool(RULESET.option(rec.battle, "double_one_holds"))
            if not (yield from break_test(rec, uid, difference, clause="W6-BT-2",
                                          waived_clause="W6-BT-4",
                                          double_one_holds=double_one_holds)):
                return replace(self, tested=index + 1)
            return replace(self, tested=index + 1,
                           fallen=(*self.fallen, (uid, rec.battle.footprint(uid))),
                           flee_from=(*self.flee_from,
                                      (uid, flee_source(rec.battle, uid, winners))))
        return _PanicTests.after(rec, self.fought, self.fallen, self.flee_from)


@dataclass(frozen=True)
class _PanicTests(Phase):
    """W6-PT-1/2: friends within 6" of a unit that broke or was wiped out test for Panic,
    one by one, before anything flees."""

    fought: tuple[_Fought, ...]
    flee_from: tuple[tuple[str, str], ...]
    skipped: frozenset[str]  # fallen, or in a combat: they do not test (W6-PT-2)
    # (unit, the fallen near it and where they stood), in roster order.
    testing: tuple[tuple[str, tuple[tuple[str, Footprint], ...]], ...]
    tested: int = 0
    panicked: tuple[tuple[str, str], ...] = ()  # (unit, whom it flees from)

    @classmethod
    def after(cls, rec: Recorder, fought: tuple[_Fought, ...],
              fallen: tuple[tuple[str, Footprint], ...], flee_from: tuple[tuple[str, str], ...]
              ) -> _PanicTests:
        # The index finds the friends near each fallen unit; they test in roster order, and
        # their causes are listed in the order the units fell.
        near: dict[str, dict[str, Footprint]] = {}
        for fallen_id, footprint in fallen:
            player = rec.battle.player_of(fallen_id)
            for uid in spatial.candidates(rec.battle, footprint.polygon, PANIC_RADIUS):
                if rec.battle.player_of(uid) == player:
                    near.setdefault(uid, {})[fallen_id] = footprint
        testing = tuple((uid, tuple(near[uid].items()))
                        for uid in rec.battle.in_roster_order(near))
        in_combat = {c.unit for result in fought for c in result.combat.combatants()}
        return cls(fought, flee_from, frozenset(in_combat | {uid for uid, _ in fallen}),
                   testing)

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        for index in range(self.tested, len(self.testing)):
            uid, near = self.testing[index]
            state = rec.battle.states[uid]
            if uid in self.skipped or state.engaged_with:
                continue  # W6-PT-2: engaged units do not test
            if state.status != Status.READY:
                continue  # W6-PT-2: fleeing units do not test
            causes = within_radius(rec.battle.footprint(uid), dict(near), PANIC_RADIUS)
            if not causes:
                continue
            unit = rec.battle.roster[uid]
            if unit.has("unbreakable") or unit.has("immune_to_psychology"):
                rec.emit(TestWaived(uid, "panic", "immune to psychology", clause="W6-PT-2"))
                continue
            cause = rec.battle.roster[causes[0]].name
            many = plural(rec.battle, uid)
            faces, target, passed = yield from attribute_test(
                rec, uid, key=f"panic:{uid}", purpose="panic test", clause="W6-PT-1",
                reason=(f"{cause} gave way within 6\" of {unit.name}, who "
                        f"{verb('flee', many)} if {pronoun('they', many)} "
                        f"{verb('panic', many)}."),
                pass_label="keeps its nerve", fail_label="panics")
            rec.emit(PanicTest(uid, "2D6", faces, 0, target, passed, clause="W6-PT-2"))
            panicked = self.panicked
            if not passed:
                rec.emit(UnitPanicked(uid, causes[0], clause="W6-PT-2"))
                panicked += ((uid, nearest_enemy(rec.battle, uid) or causes[0]),)
            return replace(self, tested=index + 1, panicked=panicked)
        return _Pursuits.after(self.fought, (*self.flee_from, *self.panicked))


def _fighting(battle: Battle, unit_id: str, enemies: Sequence[str]) -> list[str]:
    """The enemies of one combat this unit fights: those touching it, else all of them."""
    footprint = battle.footprint(unit_id)
    touching = [uid for uid in enemies if in_contact(footprint, battle.footprint(uid))]
    return touching or list(enemies)


@dataclass(frozen=True)
class _Pursuits(Phase):
    """W6-PU-2: the next winner whose every foe flees chooses to pursue, or tries to hold
    back; then the flee rolls."""

    flee_from: tuple[tuple[str, str], ...]
    asking: tuple[tuple[str, tuple[str, ...]], ...]  # (winner, the losers of its combat)
    asked: int = 0
    pursuits: tuple[tuple[str, str], ...] = ()  # (pursuer, target), in order

    @classmethod
    def after(cls, fought: tuple[_Fought, ...], flee_from: tuple[tuple[str, str], ...]
              ) -> _Pursuits:
        asking = tuple((uid, result.combat.side_of(result.loser).unit_ids)
                       for result in fought if result.winner is not None
                       and result.loser is not None
                       for uid in result.combat.side_of(result.winner).unit_ids)
        return cls(flee_from, asking)

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        for index in range(self.asked, len(self.asking)):
            uid, losers = self.asking[index]
            target = yield from _declare_pursuit(rec, uid, losers)
            if target is None:
                continue
            return replace(self, asked=index + 1, pursuits=(*self.pursuits, (uid, target)))
        # Where each runs to is fixed before anything moves, from where everyone stands now.
        headings = tuple((uid, _flee_heading(rec.battle, uid, source))
                         for uid, source in self.flee_from)
        return _FleeRolls(self.flee_from, headings, self.pursuits)


@dataclass(frozen=True)
class _FleeRolls(Phase):
    """W6-FL-3: the next broken or panicked unit rolls how far it flees; nothing moves
    yet. Then the pursuit rolls."""

    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    pursuits: tuple[tuple[str, str], ...]
    flee_rolls: tuple[tuple[str, int], ...] = ()

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        done = len(self.flee_rolls)
        if done == len(self.flee_from):
            yield from ()
            return _PursuitRolls(self.flee_from, self.headings, self.pursuits, self.flee_rolls)
        uid, source = self.flee_from[done]
        heading = dict(self.headings)[uid]
        # Its odds are measured where it will move (issue 24, D2): after those before it.
        battle = rec.battle
        roll = yield from _flee_roll(rec, uid, dict(self.pursuits), lambda total: _first_flee(
            _battle_when_fleeing(battle, self, uid), uid, source, heading, total))
        return replace(self, flee_rolls=(*self.flee_rolls, (uid, roll)))


def _battle_when_fleeing(battle: Battle, rolls: _FleeRolls, unit_id: str) -> Battle:
    """The battle as it will stand when `unit_id` flees (W6-FL-3: after the catches, the
    units before it in `flee_from` flee one by one, each by its roll, known by now).

    Exact when nobody pursues the units before it, as for a roll read "move" (its own unit
    is not pursued either). A pursued one waits on pursuit dice still to roll, caught or
    fled: it is taken where it stands. Kept with the battle, for every total's odds."""
    def fled() -> Battle:
        scratch = Recorder(battle)
        flee_rolls, headings = dict(rolls.flee_rolls), dict(rolls.headings)
        pursued = {target for _, target in rolls.pursuits}
        for uid, source in rolls.flee_from:
            if uid == unit_id:
                break
            if uid in pursued or scratch.battle.states[uid].status != Status.BROKEN:
                continue
            plan = _first_flee(scratch.battle, uid, source, headings[uid], flee_rolls[uid])
            emit_flee(scratch, uid, plan, flee_rolls[uid], away_from=source,
                      clause="W6-FL-3", left_clause="W6-FL-6")
        return scratch.battle

    return remember(battle, ("fled before", unit_id, rolls), fled)


@dataclass(frozen=True)
class _PursuitRolls(Phase):
    """W6-PU-1: the next pursuer rolls; then catches and every move."""

    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    pursuits: tuple[tuple[str, str], ...]
    flee_rolls: tuple[tuple[str, int], ...]
    pursuit_rolls: tuple[tuple[str, int], ...] = ()

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        done = len(self.pursuit_rolls)
        if done == len(self.pursuits):
            yield from ()
            return _Moves(self.flee_from, self.headings, self.pursuits, self.flee_rolls,
                          self.pursuit_rolls)
        pursuer, target = self.pursuits[done]
        roll = yield from _pursuit_roll(rec, pursuer, target, dict(self.flee_rolls)[target])
        return replace(self, pursuit_rolls=(*self.pursuit_rolls, (pursuer, roll)))


@dataclass(frozen=True)
class _Moves(Phase):
    """W6-PU-1 catches, then the flee moves (W6-FL-1/3) and the pursuit moves (W6-PU-2)."""

    flee_from: tuple[tuple[str, str], ...]
    headings: tuple[tuple[str, float], ...]
    pursuits: tuple[tuple[str, str], ...]
    flee_rolls: tuple[tuple[str, int], ...]
    pursuit_rolls: tuple[tuple[str, int], ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        flee_rolls, pursuits = dict(self.flee_rolls), dict(self.pursuits)
        pursuit_rolls, headings = dict(self.pursuit_rolls), dict(self.headings)
        resolve_catches(rec, flee_rolls, pursuits, pursuit_rolls, "W6-PU-1")
        # Rolls that read "move" are audited where their unit moves (see Reads); their dice
        # are the rolls' own, since nothing in an aftermath changes a unit's Move.
        for uid, source in self.flee_from:
            if rec.battle.states[uid].status != Status.BROKEN:
                continue
            battle, roll = rec.battle, flee_rolls[uid]
            plan = _first_flee(battle, uid, source, headings[uid], roll)
            if uid not in pursuits.values():
                audit_move(rec, f"flee:{uid}", uid, plan,
                           alike_totals(flee_dice(battle, uid), None, roll),
                           functools.partial(_first_flee, battle, uid, source, headings[uid]))
            emit_flee(rec, uid, plan, roll, away_from=source, clause="W6-FL-3",
                      left_clause="W6-FL-6")
        for pursuer, target in self.pursuits:
            battle, roll = rec.battle, pursuit_rolls[pursuer]
            plan = _pursuit_move(battle, pursuer, target, headings[target], roll)
            audit_move(rec, f"pursue_roll:{pursuer}", pursuer, plan,
                       alike_totals(flee_dice(battle, pursuer), _catches(flee_rolls[target]),
                                    roll),
                       functools.partial(_pursuit_move, battle, pursuer, target,
                                         headings[target]))
            rec.emit(UnitPursued(pursuer, roll, plan.path, plan.facing, target=target,
                                 charged=plan.contacted_enemy, clause="W6-PU-2",
                                 **plan.drawing()))
        yield from ()
        return None


def _first_flee(battle: Battle, unit_id: str, source: str, heading: float, roll: int
                ) -> MovePlan:
    """W6-FL-3: the roll counts from the enemy's edge it fled from (see gap_length)."""
    def plan() -> MovePlan:
        length = gap_length(battle, unit_id, source, roll) if source else float(roll)
        return flee_around(battle, unit_id, heading, length)

    # Kept with the battle: a window's odds, the move and a forecast's audit all ask.
    return remember(battle, ("flee", unit_id, source, heading, roll), plan, mover=unit_id)


def _pursuit_move(battle: Battle, pursuer: str, target: str, heading: float, roll: int
                  ) -> MovePlan:
    """W6-PU-2: the full roll after the fleeing unit, stopping short of it if missed."""
    return remember(battle, ("pursue", pursuer, target, heading, roll), lambda: pursue_around(
        battle, pursuer, heading, roll, halt_before=frozenset({target})), mover=pursuer)


def _flee_heading(battle: Battle, unit_id: str, source: str) -> float:
    """Directly away from `source`; with no enemy anywhere, straight back."""
    if not source:
        return (battle.states[unit_id].facing + 180.0) % 360.0
    return heading_away(battle, unit_id, battle.states[source].center)


def _declare_pursuit(rec: Recorder, uid: str, losers: Sequence[str]
                     ) -> Generator[Request, Answer, str | None]:
    """W6-PU-2 for one winner: the unit it pursues, or None (it may not, or held back)."""
    battle = rec.battle
    if battle.states[uid].status != Status.READY:
        return None
    fighting = _fighting(battle, uid, losers)
    if any(battle.states[e].status == Status.READY for e in fighting):
        return None
    fleeing = [e for e in fighting if battle.states[e].status == Status.BROKEN]
    if not fleeing:
        return None
    unit = battle.roster[uid]
    names = " and ".join(battle.roster[e].name for e in fleeing)
    leadership = battle.stat(uid, "Ld")
    decision = yield Choice(
        key=f"pursue:{uid}", player=unit.player, unit=uid,
        options=(Option("pursue", f"Pursue {names}",
                        odds_of=_catch_odds(battle, uid, fleeing[0])),
                 Option("hold", "Hold back (needs a Restraint test)",
                        odds_of=functools.partial(_restraint_odds, leadership))),
        default="pursue", clause="W6-PU-2",
        why=(f"Every enemy {unit.name} fought is running. They may pursue and destroy "
             f"a unit they catch, or try to hold their position: holding needs 2D6 "
             f"of {battle.stat(uid, 'Ld')} or less, otherwise they pursue anyway."))
    if decision == "hold":
        faces, leadership, passed = yield from attribute_test(
            rec, uid, key=f"restraint:{uid}", purpose="restraint test",
            clause="W6-PU-2",
            reason=(f"{unit.name} {verb('try', plural(battle, uid))} to hold back "
                    "instead of pursuing."),
            pass_label="holds back", fail_label="must pursue")
        rec.emit(RestraintTest(uid, "2D6", faces, 0, leadership, passed,
                               clause="W6-PU-2"))
        if passed:
            return None
    target = fleeing[0]
    if len(fleeing) > 1:
        picked = yield Choice(
            key=f"pursue_target:{uid}", player=unit.player, unit=uid,
            options=tuple(Option(e, rec.battle.roster[e].name,
                                 odds_of=_catch_odds(rec.battle, uid, e))
                          for e in fleeing),
            default=fleeing[0], clause="W6-PU-2",
            why=f"{unit.name} pursue one unit only: pick which.")
        target = str(picked)
    rec.emit(PursuitDeclared(uid, target, clause="W6-PU-2"))
    return target


def _restraint_odds(leadership: int) -> list[Outcome]:
    holds = D2D6.cdf(leadership)
    return [Outcome("holds back", holds), Outcome("must pursue", odds.ONE - holds)]


def _catch_odds(battle: Battle, pursuer: str, target: str) -> Callable[[], list[Outcome]]:
    """W6-PU-1 before either rolls: the pursuer's roll equal to or above the flee roll."""
    def chances() -> list[Outcome]:
        chance = odds.caught(flee_dice(battle, target), [flee_dice(battle, pursuer)])
        return [Outcome(f"catches {battle.roster[target].name}", chance),
                Outcome("misses", odds.ONE - chance)]
    return chances


def _flee_roll(rec: Recorder, unit_id: str, pursuits: Mapping[str, str],
               move: Callable[[int], MovePlan]) -> Generator[Request, Answer, int]:
    battle = rec.battle
    dice = flee_dice(battle, unit_id)
    unit = battle.roster[unit_id]
    chasers = [p for p, target in pursuits.items() if target == unit_id]
    chance = odds.caught(dice, [flee_dice(battle, p) for p in chasers])
    many = plural(battle, unit_id)
    why = (f"{unit.name} {verb('flee', many)} {dice}\" (Move {battle.stat(unit_id, 'M')}: "
           f"{'more than' if dice == D3D6 else 'up to'} 6\" rolls {dice}).")
    if chasers:
        pursuers = ' and '.join(battle.roster[p].name for p in chasers)
        why += (f" {pursuers} {verb('pursue', len(chasers) > 1 or plural(battle, chasers[0]))}"
                f"; any pursuit roll equal to or above this one catches and destroys "
                f"{pronoun('them', many)}.")
    if chasers:  # the pursuers' dice, still to roll, decide: no single line to draw
        return (yield from distance_roll(
            rec, unit_id, dice, key=f"flee:{unit_id}", purpose="flee", why=why,
            clause="W6-FL-3", outcomes=[("escapes", odds.ONE - chance), ("caught", chance)]))
    # Nobody compares this roll with anything: it only says how far the unit flees.
    return (yield from distance_roll(
        rec, unit_id, dice, key=f"flee:{unit_id}", purpose="flee", why=why, clause="W6-FL-3",
        outcome_of=lambda total: move_outcome(battle, move(total)), reads="move"))


def _pursuit_roll(rec: Recorder, unit_id: str, target: str, flee_roll: int
                  ) -> Generator[Request, Answer, int]:
    battle = rec.battle
    dice = flee_dice(battle, unit_id)
    unit = battle.roster[unit_id]
    many, them = plural(battle, unit_id), pronoun("them", plural(battle, target))
    why = (f"{unit.name} {verb('pursue', many)} {dice}\". {battle.roster[target].name} fled "
           f"{flee_roll}\": {flee_roll} or more catches {them}.")
    # A roll that cannot miss or cannot catch is still rolled: the pursuers move their
    # whole roll (W6-PU-2), so it says where they end up.
    certain = (f"No roll of {dice} reaches {flee_roll}, so this one cannot catch {them}"
               if dice.count * dice.sides + dice.modifier < flee_roll
               else f"Every roll of {dice} reaches {flee_roll}, so this one catches {them}"
               if dice.count + dice.modifier >= flee_roll else "")
    if certain:
        why += (f" {certain}; it is asked all the same because {unit.name} "
                f"{verb('move', many)} the whole of it (W6-PU-2): it says where "
                f"{pronoun('they', many)} end up.")
    return (yield from distance_roll(
        rec, unit_id, dice, key=f"pursue_roll:{unit_id}", purpose="pursue", clause="W6-PU-1",
        why=why, threshold=_catches(flee_roll), reads="move"))


def _catches(flee_roll: int) -> Threshold:
    """W6-PU-1: a pursuit roll equal to or above the flee roll catches."""
    return Threshold(">=", flee_roll, "catches", "misses",
                     against=f"the flee roll of {flee_roll}")


def start_of_turn(rec: Recorder, player: str) -> Procedure:
    """W6-RA-1 then W6-FL-5: each fleeing unit of `player` tries to rally, else flees on."""
    return program(rec, _StartOfTurn(player))


@dataclass(frozen=True)
class _StartOfTurn(Phase):
    player: str

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        battle = rec.battle
        if self.player not in {unit.player for unit in battle.roster.values()}:
            raise ScenarioError(f"no player '{self.player}' in this battle")
        fleeing = tuple(uid for uid in battle.on_table()
                        if battle.player_of(uid) == self.player
                        and battle.states[uid].status == Status.FLEEING)
        yield from ()
        return _Rally(fleeing) if fleeing else None


@dataclass(frozen=True)
class _Rally(Phase):
    """The first of `fleeing` tries to rally (W6-RA-1); failing, it flees on (W6-FL-5)."""

    fleeing: tuple[str, ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        uid, rest = self.fleeing[0], self.fleeing[1:]
        later = _Rally(rest) if rest else None
        unit = rec.battle.roster[uid]
        many = plural(rec.battle, uid)
        faces, target, passed = yield from attribute_test(
            rec, uid, key=f"rally:{uid}", purpose="rally test", clause="W6-RA-1",
            reason=(f"{unit.name} {verb('are', many)} fleeing; if {pronoun('they', many)} "
                    f"rally {pronoun('they', many)} stop and reform."),
            pass_label="rallies", fail_label="keeps fleeing")
        rec.emit(RallyTest(uid, "2D6", faces, 0, target, passed, clause="W6-RA-1"))
        if passed:
            rec.emit(UnitRallied(uid, clause="W6-RA-1"))
            return later
        dice = flee_dice(rec.battle, uid)
        total = yield from distance_roll(
            rec, uid, dice, key=f"flee:{uid}", purpose="flee", clause="W6-FL-5",
            why=(f"{unit.name} run {dice}\" towards the nearest table edge before anything "
                 f"else moves, staying 4\" from enemies if they can."),
            outcome_of=functools.partial(_compulsory_outcome, rec.battle, uid))
        plan = compulsory_flee(rec.battle, uid, total)
        emit_flee(rec, uid, plan, total, away_from="", clause="W6-FL-5",
                  left_clause="W6-FL-6")
        return later


def _compulsory_outcome(battle: Battle, unit_id: str, total: int) -> str:
    return move_outcome(battle, compulsory_flee(battle, unit_id, total))


def compulsory_flee(battle: Battle, unit_id: str, length: float) -> MovePlan:
    """W6-FL-5: towards the nearest table edge, keeping 4" from enemies unless it cannot.

    The edge nearest the unit, not its centre: a wide unit near a corner may have its centre
    nearer one edge and its flank nearer the other (`Table.nearest_edges`)."""
    _, heading = battle.table.nearest_edges(battle.footprint(unit_id))[0]
    return flee_around(battle, unit_id, heading, length, keep_away=KEEP_AWAY,
                       deflections=WIDE_DEFLECTIONS)


@dataclass(frozen=True)
class ChargeOnFleeing:
    charger: str
    target: str


def charge_fleeing(rec: Recorder, charge: ChargeOnFleeing) -> Procedure:
    """W6-FL-8: the charged unit flees again; the charger destroys it if it still reaches."""
    return program(rec, _ChargeOnFleeing(charge))


@dataclass(frozen=True)
class _ChargeOnFleeing(Phase):
    charge: ChargeOnFleeing

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        battle = rec.battle
        charger, target = self.charge.charger, self.charge.target
        for uid in (charger, target):
            if uid not in battle.roster:
                raise ScenarioError(f"no unit '{uid}' in this battle")
        if battle.states[target].status != Status.FLEEING:
            raise ScenarioError(f"'{target}' is not fleeing; a charge on it is an ordinary "
                                f"charge")
        if battle.player_of(charger) == battle.player_of(target):
            raise ScenarioError(f"'{charger}' and '{target}' are on the same side")
        if battle.states[charger].status != Status.READY:
            raise ScenarioError(f"'{charger}' cannot charge: it is "
                                f"{battle.states[charger].status}")
        reach = 2 * battle.stat(charger, "M")
        dice = flee_dice(battle, target)
        heading = heading_away(battle, target, battle.states[charger].center)

        def outcome(total: int) -> str:
            return ("caught" if _charge_reaches(battle, charger, target, heading, total, reach)
                    else "escapes")

        unit = battle.roster[target]
        roll = yield from distance_roll(
            rec, target, dice, key=f"flee:{target}", purpose="flee", clause="W6-FL-8",
            why=(f"{unit.name} are already fleeing and run from the charge: {dice}\" straight "
                 f"away from {battle.roster[charger].name}, who reach {reach}\" (twice their "
                 f"Move) and destroy them if that is enough."),
            outcome_of=outcome)
        plan = flee_around(rec.battle, target, heading,
                           gap_length(rec.battle, target, charger, roll))
        emit_flee(rec, target, plan, roll, away_from=charger, clause="W6-FL-8",
                  left_clause="W6-FL-6")
        gap = distance(rec.battle.footprint(charger), rec.battle.footprint(target))
        reached = not plan.left_table and gap <= reach
        if reached:
            rec.emit(UnitCaught.build(rec.battle, target, (charger,), roll, (),
                                      clause="W6-FL-8"),
                     UnitDestroyed.build(rec.battle, target,
                                         "caught by a charge while fleeing", clause="W6-FL-8"))
        else:
            rec.emit(ChargeFailed(charger, target, clause="W6-FL-8"))
        towards = rec.battle.states[target].center
        here = rec.battle.states[charger].center
        move = straight_move(rec.battle, charger, heading_of((towards[0] - here[0],
                                                              towards[1] - here[1])),
                             gap if reached else float(battle.stat(charger, "M")),
                             through_friends=False, halt_before=frozenset({target}),
                             stay_on_table=True)
        rec.emit(UnitCharged(charger, 0, move.path, move.facing, target=target,
                             reached=reached, clause="W6-FL-8", **move.drawing()))
        return None


def _charge_reaches(battle: Battle, charger: str, target: str, heading: float, roll: int,
                    reach: int) -> bool:
    plan = flee_around(battle, target, heading, gap_length(battle, target, charger, roll))
    if plan.left_table:
        return False
    return distance(battle.footprint(charger), end_footprint(battle, target, plan)) <= reach


def _parse_aftermath(battle: Battle, data: Mapping[str, Any]) -> tuple[Combat, ...]:
    return parse_combats(battle, data)


def _apart(battle: Battle, combats: Sequence[Combat]) -> list[tuple[Combat, ...]]:
    """Combats whose aftermaths cannot meet: no unit moves further than its flee dice
    (W6-FL-3, W6-PU-1: a pursuer rolls as it would flee), and nothing is looked for further
    than the Panic radius (W6-PT-1) — but a unit that panics flees from the nearest enemy on
    the table (W6-PT-2), which another combat's casualties may change: it is tied to every
    fighting enemy that could then be the nearest (`_panic_links`)."""
    try:
        links = _panic_links(battle, combats)
    except RuleError:  # input the procedure refuses: its own walk says why
        return [tuple(combats)]
    return independent_groups(battle, combats, move=lambda uid: flee_dice(battle, uid).maximum,
                              sense=PANIC_RADIUS, links=links)


def _panic_links(battle: Battle, combats: Sequence[Combat]) -> list[tuple[str, str]]:
    """(unit that may panic, enemy that may be the nearest when it does: it flees from
    it). A unit not fighting, near enough a fighting friend to test, may panic. Before
    anything moves only the fighting units change, by the casualties given (smaller, or
    wiped out), and a combat walked alone sees the others' units as they stand now: every
    enemy that is the nearest in one of those battles is tied to the unit. The nearest is
    never further than the least of the enemies' largest distances (one wiped out may be
    gone: no bound), so an enemy whose least distance is beyond that is never the
    nearest."""
    fighting = {c.unit for combat in combats for c in combat.combatants()}
    on_table = list(battle.on_table())
    fighters = [uid for uid in on_table if uid in fighting]
    if not fighters:
        return []
    after, wiped_out = battle, set()
    for combat in combats:
        for combatant in combat.combatants():
            if combatant.casualties:
                after = CasualtiesRemoved.build(after, combatant.unit, combatant.casualties,
                                                clause="W6-CR-1").apply_to(after)
                if after.states[combatant.unit].models == 0:
                    wiped_out.add(combatant.unit)
    widest = max(math.hypot(battle.footprint(uid).frontage, battle.footprint(uid).depth)
                 for uid in on_table)
    links = []
    for uid in on_table:
        if uid in fighting:
            continue
        own = battle.footprint(uid)
        if not any(distance(own, battle.footprint(f)) <= PANIC_RADIUS + widest
                   for f in fighters if battle.player_of(f) == battle.player_of(uid)):
            continue  # never near enough a friend that may give way: it never tests
        spans: dict[str, tuple[float, float]] = {}
        for enemy in on_table:
            if battle.player_of(enemy) == battle.player_of(uid):
                continue
            now = distance(own, battle.footprint(enemy))
            if enemy in wiped_out:
                spans[enemy] = (now, math.inf)
            elif enemy in fighting:
                then = distance(own, after.footprint(enemy))
                spans[enemy] = (min(now, then), max(now, then))
            else:
                spans[enemy] = (now, now)
        bound = min((high for _, high in spans.values()), default=math.inf)
        # Not only fighting ones: one standing by may panic too and flee first, and this
        # unit's flee is measured from where its nearest enemy is when it moves.
        links += [(uid, enemy) for enemy, (low, _) in spans.items()
                  if low <= bound + NEAREST_TOLERANCE]
    return links


def _parse_start_of_turn(battle: Battle, data: Mapping[str, Any]) -> str:
    return Reader(data, "resolve").text("player")


def _parse_charge(battle: Battle, data: Mapping[str, Any]) -> ChargeOnFleeing:
    reader = Reader(data, "resolve")
    return ChargeOnFleeing(reader.text("charger"), reader.text("target"))


PROCEDURES: dict[str, ProcedureKind] = {
    "combat_aftermath": ProcedureKind(
        "combat_aftermath", "Break tests, Panic, fleeing and pursuit after combat",
        ("combats",), _parse_aftermath, combat_aftermath, setup=engagements, split=_apart),
    "start_of_turn": ProcedureKind(
        "start_of_turn", "Rally tests and compulsory flee moves", ("player",),
        _parse_start_of_turn, start_of_turn),
    "charge_fleeing": ProcedureKind(
        "charge_fleeing", "A charge on a unit that is already fleeing",
        ("charger", "target"), _parse_charge, charge_fleeing),
}
