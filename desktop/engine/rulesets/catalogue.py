"""What each ruleset declares: its statistics, options, army-list slots and upgrades.

Reading and showing armies needs only these. Each ruleset's procedures (the rules of what
follows a combat, with the events, movement and odds they use) stay in its own module
(warhammer6, kensei1, breaks_pursues) and load the first time a procedure is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from desktop.engine.errors import RuleError, quoted
from desktop.engine.rulesets.base import (
    OptionSpec,
    ProcedureKind,
    ProcedureTable,
    Ruleset,
    StatSpec,
    UpgradeSpec,
    check_dice_option,
)
from desktop.lazy import lazy_module

# Loaded on first use (desktop.lazy): each ruleset's procedures, when a battle first asks for them.
if TYPE_CHECKING:
    import desktop.engine.rulesets.breaks_pursues as breaks_pursues
    import desktop.engine.rulesets.kensei1 as kensei1
    import desktop.engine.rulesets.warhammer6 as warhammer6
else:
    breaks_pursues = lazy_module("desktop.engine.rulesets.breaks_pursues")
    kensei1 = lazy_module("desktop.engine.rulesets.kensei1")
    warhammer6 = lazy_module("desktop.engine.rulesets.warhammer6")

# K-HT-1: how a Kensei Honor roll compares with Honor (the "honor_test" option).
HONOR_RULES = {
    "roll_at_most_honor": "a roll equal to or below Honor passes",
    "roll_below_honor": "a roll below Honor passes",
}


def check_honor_rule(value: Any) -> object:
    if value not in HONOR_RULES:
        raise RuleError(f"{quoted(value)} is not an Honor rule (use {', '.join(HONOR_RULES)})")
    return value


def check_shooting_total(value: Any) -> object:
    if value not in ("remaining", "starting"):
        raise RuleError(f"{quoted(value)} is not a shooting total (use remaining or "
                        "starting)")
    return value


def _warhammer6_procedures() -> Mapping[str, ProcedureKind]:

    return warhammer6.PROCEDURES


def _kensei1_procedures() -> Mapping[str, ProcedureKind]:

    return kensei1.PROCEDURES


def _breaks_pursues_procedures() -> Mapping[str, ProcedureKind]:

    return breaks_pursues.PROCEDURES


WARHAMMER6 = Ruleset(
    id="warhammer6",
    name="Warhammer Fantasy Battle 6th edition",
    distance_unit="in",
    stats=(
        StatSpec("M", "Movement", 0, 10, 4),
        StatSpec("WS", "Weapon Skill", 0, 10, 3),
        StatSpec("BS", "Ballistic Skill", 0, 10, 3),
        StatSpec("S", "Strength", 0, 10, 3),
        StatSpec("T", "Toughness", 0, 10, 3),
        StatSpec("W", "Wounds", 1, 10, 1),
        StatSpec("I", "Initiative", 0, 10, 3),
        StatSpec("A", "Attacks", 0, 10, 1),
        StatSpec("Ld", "Leadership", 1, 10, 7),
    ),
    options=(
        OptionSpec("double_one_holds", False,
                   "A Break test of double 1 always holds (later editions' Insane Courage).",
                   "W6-BT-4"),
    ),
    slots=("Lords", "Heroes", "Core", "Special", "Rare"),
    upgrades=(
        UpgradeSpec("standard", "Standard bearer", "W6-CR-2"),
        UpgradeSpec("musician", "Musician"),
        UpgradeSpec("champion", "Champion"),
        UpgradeSpec("battle_standard", "Battle standard", "W6-CR-2"),
        UpgradeSpec("general", "General"),
    ),
    procedures=ProcedureTable(_warhammer6_procedures),
)


KENSEI1 = Ruleset(
    id="kensei1",
    name="Kensei 1st edition",
    distance_unit="cm",
    stats=(
        StatSpec("Mv", "Move (cm)", 0, 60, 10),
        StatSpec("Init", "Initiative", 0, 10, 3),
        StatSpec("Honor", "Honor", 1, 10, 5),
        StatSpec("W", "Wounds", 1, 20, 1),
        StatSpec("AP", "Action Points", 0, 6, 2),
    ),
    options=(
        OptionSpec("honor_dice", "D10", "Dice rolled for an Honor test (K-HT-1).", "K-HT-1",
                   check_dice_option),
        OptionSpec("shooting_total", "remaining",
                   "Half of which Wounds a round of shooting must take for a test: the unit's "
                   "remaining Wounds (remaining) or all it started the battle with (starting).",
                   "K-RA-4", check_shooting_total),
        OptionSpec("honor_test", "roll_at_most_honor",
                   "How the roll compares: roll_at_most_honor or roll_below_honor.", "K-HT-1",
                   check_honor_rule),
    ),
    slots=("Hero", "Troops", "Support"),
    upgrades=(
        UpgradeSpec("bushi", "Bushi hero", "K-RA-11"),
        UpgradeSpec("standard", "Standard (nobori)"),
        UpgradeSpec("musician", "Musician (drum)"),
    ),
    procedures=ProcedureTable(_kensei1_procedures),
)


BREAKS_PURSUES = Ruleset(
    id="breaks_pursues",
    name="Breaks or Pursues",
    distance_unit="in",
    stats=(
        StatSpec("M", "Move", 0, 20, 4),
        StatSpec("Ld", "Discipline", 1, 10, 7),
    ),
    options=(
        OptionSpec("flee_dice", "2D6", "Dice for a flee distance (BP-2 says typically 2D6).",
                   "BP-2", check_dice_option),
        OptionSpec("pursue_dice", "2D6", "Dice for a pursue distance (BP-4: typically 2D6).",
                   "BP-4", check_dice_option),
    ),
    slots=("Leaders", "Line", "Elite", "Support"),
    upgrades=(
        UpgradeSpec("standard", "Standard", "BP-B"),
        UpgradeSpec("musician", "Musician"),
        UpgradeSpec("champion", "Champion"),
    ),
    procedures=ProcedureTable(_breaks_pursues_procedures),
)

