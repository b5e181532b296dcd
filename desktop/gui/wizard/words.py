"""Events told in plain words for the wizard's last page ("Elves break and flee 7\"").

Only wording: what happened is the engine's events; this module decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from desktop.engine import events as ev
from desktop.engine.model import Battle
from desktop.engine.rulesets import get_ruleset


def _distance(battle: Battle, value: float) -> str:
    unit = get_ruleset(battle.ruleset).distance_unit
    return f'{value:g}"' if unit == "in" else f"{value:g} cm"


def _faces(test: ev.TestTaken) -> str:
    rolled = "+".join(map(str, test.faces))
    modifier = f"{test.modifier:+d}" if test.modifier else ""
    return f"rolled {rolled}{modifier} against {test.target}"


TEST_NAMES = {ev.BreakTest: "Break test", ev.PanicTest: "Panic test",
              ev.RestraintTest: "Restraint test", ev.RallyTest: "Rally test",
              ev.HonorTest: "Honor test"}


def sentence(battle: Battle, event: ev.Event) -> str | None:
    """One event as a sentence, or None for a record the other sentences already tell."""
    def name(uid: str) -> str:
        return battle.roster[uid].name if uid in battle.roster else uid

    def names(uids: Sequence[str]) -> str:
        return " and ".join(name(uid) for uid in uids)

    match event:
        case ev.CombatResolved():
            scores = " to ".join(str(score) for _, score in event.scores)
            if event.winner is None:
                return f"{event.combat}: a draw ({scores}); nobody tests"
            return f"{event.combat}: {event.winner} win by {event.difference} ({scores})"
        case ev.TestTaken():
            test = TEST_NAMES.get(type(event), "test")
            verdict = "pass" if event.passed else "fail"
            return f"{name(event.unit)} {verdict} their {test} ({_faces(event)})"
        case ev.TestWaived():
            return f"{name(event.unit)} take no {event.test}: {event.reason}"
        case ev.CasualtiesRemoved():
            return f"{name(event.unit)} lose {event.models} models"
        case ev.WoundsSuffered():
            return f"{name(event.unit)} suffer {event.wounds} wounds"
        case ev.UnitBroke():
            return f"{name(event.unit)} break"
        case ev.UnitPanicked():
            return f"{name(event.unit)} panic ({event.cause})"
        case ev.UnitLeftTable():
            return f"{name(event.unit)} flee {_distance(battle, event.roll)} off the table"
        case ev.UnitFled():
            text = f"{name(event.unit)} flee {_distance(battle, event.roll)}"
            if event.passed_through:
                text += f" through {names(event.passed_through)}"
            if event.blocked_by:
                text += f", stopped by {name(event.blocked_by)}"
            return text
        case ev.PursuitDeclared():
            if event.overrun:
                return f"{name(event.unit)} overrun"
            return f"{name(event.unit)} pursue {name(event.target)}"
        case ev.UnitPursued():
            text = f"{name(event.unit)} pursue {_distance(battle, event.roll)}"
            if event.charged:
                text += f" into {name(event.charged)}"
            return text
        case ev.UnitCaught():
            return (f"{names(event.by)} catch {name(event.unit)} "
                    f"(flee {event.flee_roll}, pursuit "
                    f"{', '.join(str(roll) for _, roll in event.pursuit_rolls)})")
        case ev.UnitEscaped():
            rolls = ", ".join(str(roll) for _, roll in event.pursuit_rolls)
            return (f"{name(event.unit)} escape (flee {event.flee_roll}"
                    + (f", pursuit {rolls})" if rolls else ")"))
        case ev.UnitDestroyed():
            return f"{name(event.unit)} are destroyed ({event.reason})"
        case ev.UnitRallied():
            return f"{name(event.unit)} rally"
        case ev.UnitChased():
            text = f"{name(event.unit)} chase {name(event.target)} {_distance(battle, event.roll)}"
            return text + (f" and reach {name(event.reached)}" if event.reached else "")
        case ev.UnitCharged():
            reached = "reach" if event.reached else "fall short of"
            return (f"{name(event.unit)} charge {_distance(battle, event.roll)} and "
                    f"{reached} {name(event.target)}")
        case ev.Movement():
            return f"{name(event.unit)} move {_distance(battle, event.roll)}"
        case ev.ChaseReached():
            return f"{name(event.unit)} catch up with {name(event.target)}: a free attack"
        case ev.ChaseCharged():
            return f"{name(event.unit)} run into {name(event.enemy)}: a charge"
        case ev.RunnerLocked():
            return f"{name(event.unit)} run into {name(event.enemy)} and are locked in combat"
        case ev.UnitsEngaged():
            return f"{name(event.unit)} engage {name(event.enemy)}"
        case ev.ChargeFailed():
            return f"{name(event.unit)} fail to charge {name(event.target)}"
        case ev.ModifierApplied():
            return (f"{name(event.unit)}: {event.stat} {event.delta:+d} until the end of turn "
                    f"{event.expires_after_turn} ({event.source})")
        case ev.TurnBegan():
            return f"Turn {event.turn} begins"
        case ev.CommandPointSpent():
            return f"{event.player} spend a Command Point: {name(event.unit)} {event.purpose}"
        case ev.UnitTurned():
            return f"{name(event.unit)} turn to face {event.facing:g}°"
        case ev.DiceRolled() | ev.FlagSet():
            return None  # the move or catch that follows says it
    return type(event).__name__


def summary(battle: Battle, events: Sequence[ev.Event]) -> list[str]:
    """Every event worth a line, in order; `battle` is where they start (for names)."""
    lines = [sentence(battle, event) for event in events]
    return [line for line in lines if line]
