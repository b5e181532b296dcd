"""Steps that Warhammer 6th edition and Breaks-or-Pursues share.

Both break on "2D6 + difference > Ld" and both catch a fleeing unit when a pursuit roll is at
least its flee roll; each ruleset supplies its own clause ids and words around them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from desktop.engine import spatial
from desktop.engine.combat import Combat, CombatSide
from desktop.engine.dice import D2D6, Dice
from desktop.engine.events import (
    BreakTest,
    CombatResolved,
    DiceRolled,
    TestWaived,
    UnitBroke,
    UnitCaught,
    UnitDestroyed,
    UnitEscaped,
    UnitFled,
    UnitLeftTable,
)
from desktop.engine.geometry import distance, in_contact
from desktop.engine.model import Battle
from desktop.engine.movement import MovePlan, end_footprint
from desktop.engine.procedure import (
    Answer,
    Outcome,
    Reads,
    Recorder,
    Request,
    Roll,
    Threshold,
    bands_of,
    odds_of_bands,
    with_odds,
)
from desktop.engine.wording import plural, pronoun, verb

# Rank bonus (W6-CR-2): a rank counts when it is full and at least this many models wide.
MIN_RANK_WIDTH = 4
RANK_BONUS_CAP = 3


def rank_bonus(battle: Battle, unit_id: str) -> int:
    state = battle.states[unit_id]
    if state.files < MIN_RANK_WIDTH or not state.status.on_table:
        return 0
    return min(max(state.full_ranks - 1, 0), RANK_BONUS_CAP)


@dataclass(frozen=True)
class CombatResult:
    combat: Combat
    scores: dict[str, int]
    winner: str | None
    loser: str | None
    difference: int


def score_combat(battle: Battle, combat: Combat, clause: str) -> tuple[CombatResult,
                                                                      CombatResolved]:
    """Combat score for both sides (W6-CR-1, W6-CR-2). Rank bonus: the best unit of a side."""
    parts: dict[str, list[tuple[str, int]]] = {}
    strength: dict[str, int] = {}
    for side in combat.sides:
        alive = [c.unit for c in side.units if battle.states[c.unit].status.on_table]
        strength[side.player] = sum(battle.unit_strength(uid) for uid in alive)
        parts[side.player] = _side_bonuses(battle, side, alive)
    first, second = (side.player for side in combat.sides)
    if strength[first] != strength[second]:
        bigger = first if strength[first] > strength[second] else second
        parts[bigger].append(("outnumber", 1))
    scores = {player: sum(value for _, value in items) for player, items in parts.items()}
    difference = abs(scores[first] - scores[second])
    winner = None if difference == 0 else max(scores, key=lambda p: scores[p])
    loser = None if winner is None else (second if winner == first else first)
    event = CombatResolved(
        combat=combat.id,
        scores=tuple(scores.items()),
        breakdown=tuple((player, label, value) for player, items in parts.items()
                        for label, value in items),
        winner=winner,
        difference=difference,
        clause=clause,
    )
    return CombatResult(combat, scores, winner, loser, difference), event


def _side_bonuses(battle: Battle, side: CombatSide, alive: Sequence[str]) -> list[tuple[str,
                                                                                        int]]:
    items = [("wounds", sum(c.wounds_caused for c in side.units))]
    ranks = max((rank_bonus(battle, uid) for uid in alive), default=0)
    if ranks:
        items.append(("ranks", ranks))
    if any(battle.roster[uid].has("standard") for uid in alive):
        items.append(("standard", 1))
    for flag, label, value in ((side.battle_standard, "battle standard", 1),
                               (side.flank, "flank", 1), (side.rear, "rear", 2),
                               (side.high_ground, "high ground", 1)):
        if flag:
            items.append((label, value))
    if side.other:
        items.append(("other", side.other))
    return items


def break_test(
    rec: Recorder,
    unit_id: str,
    difference: int,
    *,
    clause: str,
    waived_clause: str,
    double_one_holds: bool,
    dice: Dice = D2D6,
) -> Generator[Request, Answer, bool]:
    """Roll one Break test (W6-BT-2, W6-BT-4, BP-B); True when the unit breaks."""
    battle = rec.battle
    unit = battle.roster[unit_id]
    if unit.has("unbreakable"):
        rec.emit(TestWaived(unit_id, "break", "Unbreakable: it never breaks",
                            clause=waived_clause))
        return False
    leadership = battle.stat(unit_id, "Ld")
    stubborn = unit.has("stubborn")
    modifier = 0 if stubborn else difference
    threshold = Threshold.of_rule("<=", leadership, "holds", "breaks", modifier=modifier,
                                  against=f"Ld {leadership}")
    many = plural(battle, unit_id)
    how = (f"{unit.name} {verb('are', many)} Stubborn: {pronoun('they', many)} "
           f"{verb('test', many)} on {pronoun('their', many)} Leadership of {leadership} "
           f"without the difference of {difference}"
           if stubborn else
           f"{unit.name} lost the combat by {difference} and {verb('test', many)} on "
           f"{pronoun('their', many)} Leadership of {leadership}")
    why = f"{how}. {threshold.rule(dice, many)}"
    if double_one_holds:
        why += " A double 1 holds whatever the total (ruleset option)."
    holds_up_to = threshold.value  # in dice totals: the line a chart draws

    def outcome(total: int) -> str:
        # With the option, the one all-ones roll of two dice holds whatever the total.
        lucky = double_one_holds and dice.count == 2 and total == dice.minimum
        return "holds" if total <= holds_up_to or lucky else "breaks"

    request = Roll(key=f"break:{unit_id}", unit=unit_id, player=unit.player, dice=dice,
                   purpose="break test", why=why, clause=clause, threshold=threshold,
                   outcome_of=outcome if double_one_holds else None, reads="outcome")
    faces = yield request
    assert isinstance(faces, tuple)
    total = sum(faces) + dice.modifier + modifier
    broken = total > leadership
    if double_one_holds and len(faces) == 2 and all(face == 1 for face in faces):
        broken = False
    rec.emit(BreakTest(unit_id, str(dice), faces, modifier, leadership, not broken,
                       clause=clause))
    if broken:
        rec.emit(UnitBroke(unit_id, clause=clause))
    return broken


def strongest_enemy(battle: Battle, unit_id: str, enemies: Sequence[str]) -> str:
    """The enemy with the highest Unit Strength; equal ones by nearness, then list order."""
    fp = battle.footprint(unit_id)
    ranked = sorted(enumerate(enemies), key=lambda item: (
        -battle.unit_strength(item[1]), distance(fp, battle.footprint(item[1])), item[0]))
    return ranked[0][1]


def flee_source(battle: Battle, unit_id: str, enemies: Sequence[str]) -> str:
    """Whom a broken unit flees from, among the enemies of its combat (W6-FL-2).

    Of those touching it, the one with the highest Unit Strength; if none touches, of those
    still standing; if its combat left no enemy standing, the nearest of where they stood;
    failing that, the nearest enemy on the table. "" when there is no enemy at all.
    """
    standing = [e for e in enemies if battle.states[e].status.on_table]
    touching = [e for e in standing
                if in_contact(battle.footprint(unit_id), battle.footprint(e))]
    if touching or standing:
        return strongest_enemy(battle, unit_id, touching or standing)
    here = battle.states[unit_id].center
    fallen = sorted(enemies, key=lambda e: math.dist(here, battle.states[e].center))
    return fallen[0] if fallen else (nearest_enemy(battle, unit_id) or "")


def nearest_enemy(battle: Battle, unit_id: str,
                  prefer: Callable[[Battle, str], int] | None = None) -> str | None:
    """The closest enemy on the table; at equal distance the one `prefer` ranks highest,
    then the first in the roster."""
    player = battle.player_of(unit_id)
    closest = spatial.nearest(battle, unit_id, lambda uid: battle.player_of(uid) != player)
    if not closest:
        return None
    if prefer is None:
        return closest[0]
    return max(closest, key=lambda uid: prefer(battle, uid))  # the first of the best


def caught_by(flee_roll: int, pursuit_rolls: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """Pursuers whose roll reaches the flee roll (W6-PU-1, BP-5: ties are caught)."""
    return tuple(uid for uid, roll in pursuit_rolls if roll >= flee_roll)


def emit_flee(rec: Recorder, unit_id: str, plan: MovePlan, roll: int, *, away_from: str,
              clause: str, left_clause: str) -> None:
    """A flee move, or leaving the table when any corner crossed its edge."""
    if plan.left_table:
        rec.emit(UnitLeftTable(unit_id, roll, plan.path, plan.facing, clause=left_clause,
                               **plan.drawing()))
    else:
        rec.emit(UnitFled(unit_id, roll, plan.path, plan.facing, away_from=away_from,
                          passed_through=plan.passed_through, blocked_by=plan.blocked_by,
                          clause=clause, **plan.drawing()))


def move_outcome(battle: Battle, plan: MovePlan) -> str:
    """How a move would end, in the words every roll's odds use."""
    if plan.left_table:
        return "leaves the table"
    if plan.contacted_enemy:
        return f"runs into {battle.roster[plan.contacted_enemy].name}"
    if plan.passed_through:
        return "passes through friends"
    if plan.blocked_by:
        return "stops short"
    if plan.stopped_at_edge:
        return "stops at the table edge"
    return "moves the full distance"


def outcomes_by_total(dice: Dice, outcome_of: Callable[[int], str]) -> list[Outcome]:
    """Exact chance of each outcome when each total decides it (a move measured per total)."""
    return list(odds_of_bands(dice, bands_of(dice, outcome_of)))


def distance_roll(
    rec: Recorder, unit_id: str, dice: Dice, *, key: str, purpose: str, why: str,
    clause: str, outcomes: Sequence[tuple[str, Fraction]] = (),
    outcome_of: Callable[[int], str] | None = None, threshold: Threshold | None = None,
    reads: Reads = "total", alike: Callable[[int], Hashable] | None = None,
) -> Generator[Request, Answer, int]:
    """Ask for a flee, pursue or chase roll and record it; the total in inches or cm.

    What a total leads to comes as `threshold` (against a roll already made), `outcome_of`
    (measured on the table for each total), or `outcomes` (when dice not yet rolled decide).
    With `reads="move"` the caller audits the move the total makes (`audit_move`).
    """
    faces = yield with_odds(
        Roll(key=key, unit=unit_id, player=rec.battle.player_of(unit_id), dice=dice,
             purpose=f"{purpose} roll", why=why, clause=clause, threshold=threshold,
             outcome_of=outcome_of, reads=reads, alike=alike), outcomes)
    assert isinstance(faces, tuple)
    total = dice.total(faces)
    rec.emit(DiceRolled(unit_id, purpose, str(dice), faces, total, clause=clause))
    return total


def resolve_catches(
    rec: Recorder, flee_rolls: Mapping[str, int], pursuits: Mapping[str, str],
    pursuit_rolls: Mapping[str, int], clause: str,
) -> None:
    """Caught when any pursuit roll against a unit is at least its flee roll; else escaped."""
    for uid, flee_roll in flee_rolls.items():
        rolls = tuple((p, pursuit_rolls[p]) for p, target in pursuits.items() if target == uid)
        if not rolls:
            continue
        catchers = caught_by(flee_roll, rolls)
        if catchers:
            rec.emit(UnitCaught.build(rec.battle, uid, catchers, flee_roll, rolls,
                                      clause=clause),
                     UnitDestroyed.build(rec.battle, uid, "caught by pursuers",
                                         clause=clause))
        else:
            rec.emit(UnitEscaped(uid, flee_roll, rolls, clause=clause))


def audit_move(rec: Recorder, key: str, unit_id: str, plan: MovePlan, alike: Sequence[int],
               plan_for: Callable[[int], MovePlan]) -> None:
    """The move of the "move" roll `key` (its total made `plan`; `alike` are the totals the
    roll reads the same, see `procedure.alike_totals`). When a forecast walked one of them
    for all, every one must move the unit alike, and nothing worked out afterwards may look
    where any of them would leave it (desktop/engine/sight.py); otherwise the run says so.

    Sound only while everything after the move reads other units through movement, which
    reports what it looks at: true of the moves that end a W6 aftermath and a Breaks or
    Pursues resolution.
    """
    sight = rec.sight
    if sight is None or not sight.relies_on(key):
        return
    plans = [plan_for(total) for total in alike]
    if any(move_words(other) != move_words(plan) for other in plans):
        sight.doubt(key)  # a forecast must tell these totals apart
    elif not plan.left_table:  # off the table, it is nowhere for anything to meet
        sight.watch(key, [end_footprint(rec.battle, unit_id, p) for p in (plan, *plans)],
                    unit_id)


def move_words(plan: MovePlan) -> tuple[bool, tuple[str, ...], str, str]:
    """All a move's events say of it beyond where it ends (what a forecast tells apart)."""
    return plan.left_table, plan.passed_through, plan.blocked_by, plan.blocked_kind
