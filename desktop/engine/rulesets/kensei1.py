"""Kensei 1st edition: Running Away, Chase and Regroup (every K-* clause). Centimetres, d10.

Resolutions:
- `charge_reaction`: a charged unit runs away as its free reaction (K-RA-3).
- `shooting`: a round of shooting; half or more of the unit's Wounds lost means an Honor test
  or Running Away (K-RA-4).
- `combat`: a defeated unit tests against the Confrontation Value and against its Honor
  (K-RA-5, K-RA-6); a runner may be Chased (K-RA-7 to K-RA-9).
- `regroup`: a running unit spends a Command Point to try to stop (K-RG-1).
- `new_turn`: the turn counter moves on and two-turn penalties run out (K-RA-11).

Every run moves exactly away from the closest enemy (K-RA-1), 2d10 or 3d10 cm (K-RA-2),
straight through friends (K-RA-10), who may run too (K-RA-11), and stops at an enemy it runs
into, locking both in combat (K-RA-12).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from desktop.engine import odds, sight
from desktop.engine.dice import D2D10, D3D10, Dice
from desktop.engine.errors import ScenarioError
from desktop.engine.events import (
    LOCKED_RUNNER,
    ChaseCharged,
    ChaseReached,
    CommandPointSpent,
    FlagSet,
    HonorTest,
    ModifierApplied,
    RunnerLocked,
    TestWaived,
    TurnBegan,
    UnitChased,
    UnitDestroyed,
    UnitRallied,
    UnitTurned,
    WoundsSuffered,
)
from desktop.engine.geometry import heading_of
from desktop.engine.model import TURN_FLAG, Battle, Status, TroopType
from desktop.engine.movement import MovePlan, can_face, heading_away, straight_move
from desktop.engine.procedure import (
    ANY_ANGLE,
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
from desktop.engine.rulesets.catalogue import KENSEI1 as RULESET
from desktop.engine.rulesets.common import (
    audit_move,
    distance_roll,
    emit_flee,
    move_outcome,
    move_words,
    nearest_enemy,
    outcomes_by_total,
)
from desktop.engine.sight import Work, remember, work_out
from desktop.engine.wording import plural, pronoun, verb

RAN_FROM_CHARGE = TURN_FLAG + "ran_from_charge"  # K-RA-3: once per turn
BEYOND_FRIEND = 3.0  # K-RA-10: cm past a friend it could not clear
PENALTY_TURNS = 2  # K-RA-11
COMPASS = ((90, "up the table"), (0, "right"), (270, "down the table"), (180, "left"),
           (45, "up and right"), (135, "up and left"), (225, "down and left"),
           (315, "down and right"))


# --- Honor tests (K-HT-1) --------------------------------------------------------------------


def honor_dice(battle: Battle) -> Dice:
    return Dice.parse(str(RULESET.option(battle, "honor_dice")))


def honor_target(battle: Battle, unit_id: str) -> int:
    """The highest total that passes, by the ruleset option (K-HT-1)."""
    honor = battle.stat(unit_id, "Honor")
    return honor if RULESET.option(battle, "honor_test") == "roll_at_most_honor" else honor - 1


def loses_roll(battle: Battle, unit_id: str) -> bool:
    """K-RA-12: a runner that ran into an enemy loses every Initiative and Honor roll while
    it stays locked in that combat."""
    return LOCKED_RUNNER in battle.states[unit_id].flags


def honor_test(
    rec: Recorder, unit_id: str, *, key: str, reason: str, clause: str,
    against_running_away: bool = True,
) -> Generator[Request, Answer, bool]:
    """An Honor roll; True when it holds. Ronin re-roll a failure, but only of a roll against
    Running Away (K-HT-1), not of one to stop running (K-RG-1)."""
    battle = rec.battle
    unit = battle.roster[unit_id]
    if loses_roll(battle, unit_id):
        rec.emit(TestWaived(unit_id, "honor", "locked in combat after running into an enemy: "
                            "it loses every Honor roll", clause="K-RA-12"))
        return False
    dice = honor_dice(battle)
    target = honor_target(battle, unit_id)
    rerolls = 1 if unit.has("ronin") and against_running_away else 0
    fails = odds.attribute_test_fails(target, dice, rerolls=rerolls)
    many = plural(battle, unit_id)
    they = pronoun("they", many)
    honor = f"Honor {battle.stat(unit_id, 'Honor')}"
    # The reason (K-RA-4 to K-RA-6, K-RA-11, K-RG-1) is the clause of the first roll, on
    # the page and in the log alike; a Ronin's second roll is K-HT-1's own.
    why, roll_clause = f"{reason} An Honor test against {honor} (K-HT-1).", clause
    if rerolls:
        why += (f" {they.capitalize()} {verb('are', many)} Ronin: a failed roll is rolled "
                f"again ({odds.percent(odds.ONE - fails)} to hold with the second chance).")
    for attempt in range(1 + rerolls):
        # A Ronin's first failure is not yet running away: it is rolled again.
        failing = "rolls again" if attempt < rerolls else "runs away"
        threshold = Threshold("<=", target, "holds", failing)
        faces = yield Roll(key=key if attempt == 0 else f"{key}:reroll", unit=unit_id,
                           player=unit.player, dice=dice, purpose="honor test",
                           why=f"{why} {threshold.rule(dice, many)}", clause=roll_clause,
                           threshold=threshold, reads="outcome")
        assert isinstance(faces, tuple)
        passed = dice.total(faces) <= target
        rec.emit(HonorTest(unit_id, str(dice), faces, dice.modifier, target, passed,
                           attempt=attempt, attempts=1 + rerolls, clause=roll_clause))
        if passed:
            return True
        why = (f"The Ronin re-roll: the first Honor roll of {unit.name} was "
               f"{threshold.verdict(faces, dice.modifier)}. As Ronin {they} "
               f"{verb('roll', many)} it again (K-HT-1), and this roll decides.")
        roll_clause = "K-HT-1"
    return False


# --- Running Away (K-RA-1, K-RA-2, K-RA-10 to K-RA-12) --------------------------------------


def run_dice(battle: Battle, unit_id: str) -> Dice:
    """K-RA-2: cavalry, large creatures and flyers 3d10, the rest 2d10."""
    profile = battle.roster[unit_id].profile
    fast = profile.flies or profile.troop_type in (TroopType.CAVALRY, TroopType.LARGE,
                                                   TroopType.MONSTER)
    return D3D10 if fast else D2D10


def remaining_wounds(battle: Battle, unit_id: str) -> int:
    state = battle.states[unit_id]
    return state.models * battle.roster[unit_id].profile.wounds - state.wounds_lost


def closest_enemy(battle: Battle, unit_id: str) -> str | None:
    """K-RA-1: the closest enemy; at equal distance the one with the most Wounds."""
    return nearest_enemy(battle, unit_id, prefer=remaining_wounds)


def _run_heading(battle: Battle, unit_id: str) -> tuple[float, str]:
    """Away from the closest enemy (K-RA-1), and who that is ("" for none): kept with the
    battle, since a forecast resumes many runs from one battle and each asks, and by all it
    reads, since many runs of a forecast reach other battles with every unit where it was
    (445 asked, 73 distinct on the bundled Ronin run)."""
    def heading() -> tuple[float, str]:
        # Everything the closest enemy and the heading read: who is where, facing which way,
        # on the table or not, and with how many Wounds left (a tie goes to the most).
        key = (_Same(battle.roster), unit_id, tuple(
            (uid, state.center, state.facing, state.files, state.models,
             state.status.on_table, state.wounds_lost) for uid, state in battle.states.items()))
        found = _HEADINGS.get(key)
        if found is None:
            found = work_out(lambda: _heading_now(battle, unit_id))
            if len(_HEADINGS) >= _HEADINGS_KEPT:
                _HEADINGS.clear()
            _HEADINGS[key] = found
        else:
            found.look_again()  # a forecast's audit must see what it read in this run too
        return found.value  # type: ignore[return-value]  # kept by this function

    return remember(battle, ("run_heading", unit_id), heading)


def _heading_now(battle: Battle, unit_id: str) -> tuple[float, str]:
    source = closest_enemy(battle, unit_id)
    sight.look(battle.footprint(unit_id).corners)
    if source is None:
        return (battle.states[unit_id].facing + 180.0) % 360.0, ""
    sight.look(battle.footprint(source).corners)  # where both stand sets the heading
    return heading_away(battle, unit_id, battle.states[source].center), source


class _Same:
    """A roster compared by identity (a mapping does not hash; a resolution's battles all
    share one), kept alive by the key that holds it, so that its id is never reused."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


# Run headings by what they read (see `_run_heading`), for every battle of every roster.
_HEADINGS: dict[tuple[object, ...], Work] = {}
_HEADINGS_KEPT = 4096


def _run_plan(battle: Battle, unit_id: str, heading: float, length: float) -> MovePlan:
    # Kept with the battle: a window's odds, the move and a forecast's runs all ask.
    return remember(battle, ("run", unit_id, heading, length), lambda: straight_move(
        battle, unit_id, heading, length, through_friends=True, beyond_gap=BEYOND_FRIEND),
        mover=unit_id)


def _words_of(plan_for: Callable[[int], MovePlan], total: int) -> tuple[object, ...]:
    """What a run or chase of `total` says (the totals that say the same are walked as
    one by a forecast, see `common.audit_move`)."""
    return move_words(plan_for(total))


def _chase_plan(battle: Battle, chaser: str, heading: float, length: float) -> MovePlan:
    return remember(battle, ("chase", chaser, heading, length), lambda: straight_move(
        battle, chaser, heading, length, through_friends=False, stay_on_table=True),
        mover=chaser)


def _run_outcome(battle: Battle, unit_id: str, heading: float) -> Callable[[int], str]:
    """What each possible total would do, measured on the table as it stands."""
    return lambda total: move_outcome(battle, _run_plan(battle, unit_id, heading, total))


def _run_odds(battle: Battle, unit_id: str) -> Callable[[], list[Outcome]]:
    """The chances of a run not yet decided on (a reaction, a regroup refused)."""
    def chances() -> list[Outcome]:
        heading, _ = _run_heading(battle, unit_id)
        return outcomes_by_total(run_dice(battle, unit_id),
                                 _run_outcome(battle, unit_id, heading))
    return chances


def _honor_odds(battle: Battle, unit_id: str) -> Callable[[], list[Outcome]]:
    def chances() -> list[Outcome]:
        holds = honor_dice(battle).cdf(honor_target(battle, unit_id))
        return [Outcome("holds", holds), Outcome("runs on", odds.ONE - holds)]
    return chances


@dataclass
class _Runs:
    """Counts runs per unit so that each request key stays unique within a resolution."""

    count: dict[str, int]

    def key(self, prefix: str, unit_id: str) -> str:
        key = f"{prefix}:{unit_id}"
        self.count[key] = self.count.get(key, 0) + 1
        number = self.count[key]
        return key if number == 1 else f"{key}#{number}"

    def frozen(self) -> Counts:
        return tuple(sorted(self.count.items()))


Counts = tuple[tuple[str, int], ...]  # _Runs.count as a value, for a phase to keep
# One unit waiting to run away: (unit, why, the clause, who may chase it).
Runner = tuple[str, str, str, tuple[str, ...]]


def run_away(unit_id: str, *, why: str, clause: str, chasers: Sequence[str] = ()
             ) -> Phase:
    """The phase that runs one unit away, then everything that follows from it, in order."""
    return _RunAway(((unit_id, why, clause, tuple(chasers)),), ())


@dataclass(frozen=True)
class _RunAway(Phase):
    """The first unit of `queue` still on the table runs (K-RA-1, K-RA-2); friends it ran
    through test next (K-RA-11), then those who may chase it (K-RA-7)."""

    queue: tuple[Runner, ...]
    runs: Counts

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        queue = list(self.queue)
        while queue:
            runner, reason, cause, may_chase = queue.pop(0)
            if not rec.battle.states[runner].status.on_table:
                continue
            runs = _Runs(dict(self.runs))
            passed = yield from _one_run(rec, runner, reason, cause, runs)
            return _Passing(tuple(queue), runs.frozen(), runner, passed, may_chase)
        return None


@dataclass(frozen=True)
class _Passing(Phase):
    """K-RA-11: the next friend `runner` ran through takes its Honor roll; one that fails
    runs too, after the runner's chase (K-RA-7)."""

    queue: tuple[Runner, ...]
    runs: Counts
    runner: str
    friends: tuple[str, ...]
    may_chase: tuple[str, ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        if not self.friends:
            yield from ()
            if self.may_chase:
                return _Chasing(self.queue, self.runs, self.runner, self.may_chase)
            return _RunAway(self.queue, self.runs)
        friend = self.friends[0]
        runs = _Runs(dict(self.runs))
        queue = self.queue
        if (yield from _passed_through(rec, friend, self.runner, runs)):
            queue += ((friend, f"{rec.battle.roster[self.runner].name} ran through them.",
                       "K-RA-11", ()),)
        return replace(self, queue=queue, runs=runs.frozen(), friends=self.friends[1:])


@dataclass(frozen=True)
class _Chasing(Phase):
    """K-RA-7 to K-RA-9: the next enemy that may chase `runner` chooses, rolls and moves;
    a runner that survives a free attack runs again first (K-RA-9), with no second chase."""

    queue: tuple[Runner, ...]
    runs: Counts
    runner: str
    chasers: tuple[str, ...]

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        runs = _Runs(dict(self.runs))
        outcome = yield from _chase(rec, self.runner, self.chasers[0], runs)
        if outcome == "go on" and self.chasers[1:]:
            return replace(self, runs=runs.frozen(), chasers=self.chasers[1:])
        queue = self.queue
        if outcome == "survived":  # K-RA-9
            queue = ((self.runner, "They survived the free attack.", "K-RA-9", ()), *queue)
        return _RunAway(queue, runs.frozen())


def _one_run(rec: Recorder, unit_id: str, reason: str, clause: str, runs: _Runs
             ) -> Generator[Request, Answer, tuple[str, ...]]:
    battle = rec.battle
    unit = battle.roster[unit_id]
    heading, source = _run_heading(battle, unit_id)
    dice = run_dice(battle, unit_id)
    away = f"directly away from {battle.roster[source].name}" if source else "straight back"
    kind = ("cavalry, large creatures and flyers roll 3d10" if dice == D3D10
            else "units on foot roll 2d10")
    key = runs.key("run", unit_id)
    plan_for = functools.partial(_run_plan, battle, unit_id, heading)
    alike = functools.partial(_words_of, plan_for)
    total = yield from distance_roll(
        rec, unit_id, dice, key=key, purpose="run", clause="K-RA-2",
        why=(f"{reason} {unit.name} run away {dice} cm {away}, the closest enemy ({kind}). "
             f"They go through friends in their way and stop at an enemy."),
        outcome_of=_run_outcome(battle, unit_id, heading), reads="move", alike=alike)
    plan = plan_for(total)
    audit_move(rec, key, unit_id, plan, alike_totals(dice, None, total, alike), plan_for)
    emit_flee(rec, unit_id, plan, total, away_from=source, clause=clause, left_clause="K-RA-1")
    if plan.contacted_enemy and not plan.left_table:
        rec.emit(RunnerLocked.build(rec.battle, unit_id, plan.contacted_enemy,
                                    clause="K-RA-12"))
    return plan.passed_through


def _passed_through(rec: Recorder, friend: str, runner: str, runs: _Runs
                    ) -> Generator[Request, Answer, bool]:
    """K-RA-11: a friend run through tests Honor unless it has a Bushi; True if it runs."""
    battle = rec.battle
    state = battle.states[friend]
    if state.status != Status.READY:
        return False
    unit = battle.roster[friend]
    if unit.has("bushi"):
        rec.emit(TestWaived(friend, "honor", "a Bushi hero steadies them", clause="K-RA-11"))
    else:
        held = yield from honor_test(
            rec, friend, key=runs.key("honor_passed", friend), clause="K-RA-11",
            reason=f"{battle.roster[runner].name} ran through {unit.name}.")
        if not held:
            return True
    until = battle.turn + PENALTY_TURNS - 1
    for stat in ("Honor", "Init"):
        rec.emit(ModifierApplied(friend, stat, -1, until, f"{runner} ran through",
                                 clause="K-RA-11"))
    return False


def _chase(rec: Recorder, runner: str, chaser: str, runs: _Runs
           ) -> Generator[Request, Answer, str]:
    """K-RA-7 to K-RA-9 for one chaser: "survived" when the runner survives a free attack,
    "ended" when nobody chases any more (the runner is out of reach of any chase, or was
    destroyed), "go on" when the next chaser may try."""
    battle = rec.battle
    if (battle.states[runner].status != Status.FLEEING
            or battle.states[chaser].status != Status.READY):
        return "ended"
    dice = run_dice(battle, chaser)
    heading = _heading_to(battle, chaser, runner)
    chase_outcome = _chase_outcome(battle, chaser, runner, heading)
    name, target = battle.roster[chaser].name, battle.roster[runner].name
    decision = yield Choice(
        key=runs.key("chase", chaser), player=battle.player_of(chaser), unit=chaser,
        options=(Option("chase", f"Chase {target}",
                        odds_of=functools.partial(outcomes_by_total, dice, chase_outcome)),
                 Option("stay", "Stay")),
        default="chase", clause="K-RA-7",
        why=(f"{target} ran from {name}. {name} may chase for free, rolling {dice} cm "
             f"as if running: reaching them gives a free attack; reaching another enemy "
             f"is a Charge on it, fought next turn."))
    if decision != "chase":
        return "go on"
    key = runs.key("chase_roll", chaser)
    plan_for = functools.partial(_chase_plan, battle, chaser, heading)
    alike = functools.partial(_words_of, plan_for)
    total = yield from distance_roll(
        rec, chaser, dice, key=key, purpose="chase",
        clause="K-RA-7", why=f"{name} chase {dice} cm towards {target}.",
        outcome_of=chase_outcome, reads="move", alike=alike)
    plan = plan_for(total)
    audit_move(rec, key, chaser, plan, alike_totals(dice, None, total, alike), plan_for)
    rec.emit(UnitChased(chaser, total, plan.path, plan.facing, target=runner,
                        reached=plan.contacted_enemy, clause="K-RA-7",
                        **plan.drawing()))
    if plan.contacted_enemy == runner:
        rec.emit(ChaseReached(chaser, runner, clause="K-RA-8"))
        outcome = yield Choice(
            key=runs.key("free_attack", runner), player=battle.player_of(chaser),
            unit=runner, default="survived", clause="K-RA-8",
            # Survivors run again (K-RA-9) from where they stand now.
            options=(Option("destroyed", f"{target} were destroyed"),
                     Option("survived", f"{target} survived",
                            odds_of=_run_odds(rec.battle, runner))),
            why=(f"{name} make a free attack on {target}. Fight it out, then say "
                 f"whether {target} survived: survivors run again, with no second "
                 f"Chase."))
        if outcome == "destroyed":
            rec.emit(UnitDestroyed.build(rec.battle, runner,
                                         "destroyed by a free attack after a chase",
                                         clause="K-RA-8"))
            return "ended"
        return "survived"  # K-RA-9
    if plan.contacted_enemy:
        rec.emit(ChaseCharged(chaser, plan.contacted_enemy, clause="K-RA-8"))
    return "go on"


def _chase_outcome(battle: Battle, chaser: str, runner: str, heading: float
                   ) -> Callable[[int], str]:
    """K-RA-7/8 for each total: reaching the runner, charging another enemy, or short."""
    def outcome(total: int) -> str:
        reached = _chase_plan(battle, chaser, heading, total).contacted_enemy
        if not reached:
            return "falls short"
        if reached == runner:
            return f"reaches {battle.roster[runner].name}"
        return f"charges {battle.roster[reached].name}"
    return outcome


def _heading_to(battle: Battle, unit_id: str, target: str) -> float:
    for uid in (unit_id, target):  # where both stand sets the heading
        sight.look(battle.footprint(uid).corners)
    (x0, y0), (x1, y1) = battle.states[unit_id].center, battle.states[target].center
    return heading_of((x1 - x0, y1 - y0)) if (x0, y0) != (x1, y1) else battle.states[
        unit_id].facing


# --- the resolutions -------------------------------------------------------------------------


@dataclass(frozen=True)
class ChargeReaction:
    unit: str
    charger: str


def charge_reaction(rec: Recorder, reaction: ChargeReaction) -> Procedure:
    """K-RA-3: run as a free reaction to a charge, once per turn."""
    return program(rec, _ChargeReaction(reaction))


@dataclass(frozen=True)
class _ChargeReaction(Phase):
    reaction: ChargeReaction

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        reaction = self.reaction
        battle = rec.battle
        _require_units(battle, reaction.unit, reaction.charger)
        if battle.player_of(reaction.unit) == battle.player_of(reaction.charger):
            raise ScenarioError(f"'{reaction.charger}' is not an enemy of "
                                f"'{reaction.unit}': only an enemy's charge can be run from")
        unit = battle.roster[reaction.unit]
        if RAN_FROM_CHARGE in battle.states[reaction.unit].flags:
            rec.emit(TestWaived(reaction.unit, "charge reaction",
                                "it already ran from a charge this turn", clause="K-RA-3"))
            return None
        if battle.states[reaction.unit].status != Status.READY:
            raise ScenarioError(f"'{reaction.unit}' cannot react: it is "
                                f"{battle.states[reaction.unit].status}")
        decision = yield Choice(
            key=f"react:{reaction.unit}", player=unit.player, unit=reaction.unit,
            options=(Option("run", "Run away (free, once this turn)",
                            odds_of=_run_odds(battle, reaction.unit)),
                     Option("stand", "Stand")),
            default="run", clause="K-RA-3",
            why=(f"{battle.roster[reaction.charger].name} charge {unit.name}. As their "
                 f"reaction they may run away: it costs no Action Points, they turn right "
                 f"round first, and they can do it only once a turn."))
        if decision == "run":
            rec.emit(FlagSet(reaction.unit, RAN_FROM_CHARGE, clause="K-RA-3"))
            return run_away(reaction.unit, clause="K-RA-3",
                            why=f"{unit.name} run from the charge.")
        return None


@dataclass(frozen=True)
class Shooting:
    unit: str
    wounds: int


def shooting(rec: Recorder, shot: Shooting) -> Procedure:
    """K-RA-4: half or more of the unit's Wounds lost to one round of shooting."""
    return program(rec, _Shooting(shot))


@dataclass(frozen=True)
class _Shooting(Phase):
    shot: Shooting

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        shot = self.shot
        battle = rec.battle
        _require_units(battle, shot.unit)
        unit = battle.roster[shot.unit]
        # Wounds of the rank and file only: characters are left out (K-RA-4).
        if RULESET.option(battle, "shooting_total") == "starting":
            before = unit.models * unit.profile.wounds
        else:
            before = remaining_wounds(battle, shot.unit)
        rec.emit(WoundsSuffered.build(rec.battle, shot.unit, shot.wounds, clause="K-RA-4"))
        if rec.battle.states[shot.unit].models == 0:
            rec.emit(UnitDestroyed.build(rec.battle, shot.unit, "shot down", clause="K-RA-4"))
            return None
        if battle.states[shot.unit].status != Status.READY or 2 * shot.wounds < before:
            return None
        held = yield from honor_test(
            rec, shot.unit, key=f"honor_shot:{shot.unit}", clause="K-RA-4",
            reason=(f"{unit.name} lost {shot.wounds} of their {before} Wounds to one round "
                    f"of shooting: half or more"
                    + (f" (their hero's {unit.character_wounds} Wounds do not count)."
                       if unit.character_wounds else ".")))
        if not held:
            return run_away(shot.unit, clause="K-RA-4",
                            why=f"{unit.name} break under the shooting.")
        return None


@dataclass(frozen=True)
class CombatDefeat:
    unit: str
    damage_difference: int
    confrontation_value: int


def combat_defeat(rec: Recorder, defeat: CombatDefeat) -> Procedure:
    """K-RA-5 and K-RA-6, each its own Honor test; failing one means Running Away."""
    return program(rec, _CombatDefeat(defeat))


@dataclass(frozen=True)
class _CombatDefeat(Phase):
    defeat: CombatDefeat

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        defeat = self.defeat
        battle = rec.battle
        _require_units(battle, defeat.unit)
        uid = defeat.unit
        unit = battle.roster[uid]
        if battle.states[uid].status != Status.READY:
            raise ScenarioError(f"'{uid}' is not fighting: it is "
                                f"{battle.states[uid].status}")
        enemies = [e for e in battle.states[uid].engaged_with
                   if battle.states[e].status.on_table]
        if not enemies:
            raise ScenarioError(f"'{uid}' is not engaged with any enemy (give engaged_with)")
        difference = defeat.damage_difference
        honor = unit.profile.stats["Honor"]
        triggers = []
        if difference > defeat.confrontation_value:
            triggers.append(("K-RA-5", f"honor_cv:{uid}",
                             f"{unit.name} lost by {difference}, more than the "
                             f"Confrontation Value of {defeat.confrontation_value}."))
        if difference > honor:
            triggers.append(("K-RA-6", f"honor_honor:{uid}",
                             f"{unit.name} lost by {difference}, more than their own Honor "
                             f"of {honor}."))
        for clause, key, reason in triggers:
            if not (yield from honor_test(rec, uid, key=key, reason=reason, clause=clause)):
                return run_away(uid, clause=clause, chasers=sorted(enemies),
                                why=f"{unit.name} give way.")
        return None


def regroup(rec: Recorder, unit_id: str) -> Procedure:
    """K-RG-1: a Command Point and an Honor roll stop a running unit; else it runs on."""
    return program(rec, _Regroup(unit_id))


@dataclass(frozen=True)
class _Regroup(Phase):
    unit_id: str

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        unit_id = self.unit_id
        battle = rec.battle
        _require_units(battle, unit_id)
        if battle.states[unit_id].status != Status.FLEEING:
            raise ScenarioError(f"'{unit_id}' is not running away")
        unit = battle.roster[unit_id]
        decision = yield Choice(
            key=f"regroup:{unit_id}", player=unit.player, unit=unit_id, default="regroup",
            options=(Option("regroup", "Spend 1 Command Point to regroup",
                            odds_of=_honor_odds(battle, unit_id)),
                     Option("run", "Keep running", odds_of=_run_odds(battle, unit_id))),
            clause="K-RG-1",
            why=(f"{unit.name} are running away. For 1 Command Point they may try to stop: an "
                 f"Honor roll; if it holds they lose 1 Action Point and may face any way. "
                 f"Otherwise all their Action Points go on running."))
        if decision == "regroup":
            rec.emit(CommandPointSpent(unit.player, unit_id, "regroup", clause="K-RG-1"))
            if (yield from honor_test(rec, unit_id, key=f"honor_regroup:{unit_id}",
                                      clause="K-RG-1", reason=f"{unit.name} try to regroup.",
                                      against_running_away=False)):
                rec.emit(UnitRallied(unit_id, clause="K-RG-1"),
                         ModifierApplied(unit_id, "AP", -1, battle.turn, "regrouped",
                                         clause="K-RG-1"))
                enemy = closest_enemy(rec.battle, unit_id)
                # Only facings it has room to turn to where it stands.
                options = [Option("keep", "Keep facing")]
                if enemy is not None and can_face(rec.battle, unit_id,
                                                  _heading_to(rec.battle, unit_id, enemy)):
                    options.append(Option("face_enemy", f"Face {battle.roster[enemy].name}"))
                options.extend(Option(str(degrees), f"Face {name} ({degrees}°)")
                               for degrees, name in COMPASS
                               if can_face(rec.battle, unit_id, float(degrees)))
                standing = rec.battle
                facing = yield Choice(
                    key=f"regroup_facing:{unit_id}", player=unit.player, unit=unit_id,
                    options=tuple(options), default=options[min(1, len(options) - 1)].id,
                    clause="K-RG-1", free=ANY_ANGLE,
                    refuse_free=lambda angle: "" if can_face(standing, unit_id, angle) else
                    "leaves no room to turn where they stand",
                    why=(f"{unit.name} stopped and may face any direction: the nearest enemy, a "
                         f"compass direction, any angle in degrees (counter-clockwise from the "
                         f"right-hand table edge), or as they are."))
                if facing == "face_enemy" and enemy is not None:
                    rec.emit(UnitTurned.build(rec.battle, unit_id,
                                              _heading_to(rec.battle, unit_id, enemy),
                                              clause="K-RG-1"))
                elif facing != "keep":
                    rec.emit(UnitTurned.build(rec.battle, unit_id, float(str(facing)),
                                              clause="K-RG-1"))
                return None
        return run_away(unit_id, clause="K-RG-1",
                        why=f"{unit.name} spend their Action Points running.")


def new_turn(rec: Recorder, _: object) -> Procedure:
    """The next turn: two-turn penalties and once-a-turn flags run out."""
    battle = rec.battle
    yield from ()  # a generator like every resolution, though it asks nothing
    rec.emit(TurnBegan(battle.turn + 1, clause="K-RA-11"))
    return


def _require_units(battle: Battle, *unit_ids: str) -> None:
    for uid in unit_ids:
        if uid not in battle.roster:
            raise ScenarioError(f"no unit '{uid}' in this battle")
        if not battle.states[uid].status.on_table:
            raise ScenarioError(f"'{uid}' is no longer on the table")


def _parse_reaction(battle: Battle, data: Mapping[str, Any]) -> ChargeReaction:
    reader = Reader(data, "resolve")
    return ChargeReaction(reader.text("unit"), reader.text("charger"))


def _parse_shooting(battle: Battle, data: Mapping[str, Any]) -> Shooting:
    reader = Reader(data, "resolve")
    return Shooting(reader.text("unit"), reader.integer("wounds", minimum=0, maximum=1000))


def _parse_defeat(battle: Battle, data: Mapping[str, Any]) -> CombatDefeat:
    reader = Reader(data, "resolve")
    return CombatDefeat(reader.text("unit"),
                        reader.integer("damage_difference", minimum=0, maximum=1000),
                        reader.integer("confrontation_value", minimum=0, maximum=1000))


def _parse_unit(battle: Battle, data: Mapping[str, Any]) -> str:
    return Reader(data, "resolve").text("unit")


PROCEDURES: dict[str, ProcedureKind] = {
    "charge_reaction": ProcedureKind(
        "charge_reaction", "Run away as a reaction to a charge", ("unit", "charger"),
        _parse_reaction, charge_reaction),
    "shooting": ProcedureKind(
        "shooting", "Wounds from one round of shooting", ("unit", "wounds"),
        _parse_shooting, shooting,
        hints={"wounds": "Lost to this round; half its Wounds or more (characters' left "
                         "out): a test (K-RA-4)"}),
    "combat": ProcedureKind(
        "combat", "A defeat in combat: Honor tests, Running Away and Chase",
        ("unit", "damage_difference", "confrontation_value"), _parse_defeat,
        combat_defeat,
        # One line each: the first page keeps its room for the forecast.
        hints={"damage_difference": "The winners' damage less this unit's; above the CV or "
                                    "its Honor: a test (K-RA-5, K-RA-6)",
               "confrontation_value": "The combat's CV; a damage difference above it calls "
                                      "for a test (K-RA-5)"}),
    "regroup": ProcedureKind(
        "regroup", "A running unit tries to regroup", ("unit",), _parse_unit, regroup),
    "new_turn": ProcedureKind("new_turn", "Start the next turn", (),
                              lambda battle, data: None, new_turn),
}
