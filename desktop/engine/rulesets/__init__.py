"""The rulesets Rout knows, by id."""

from __future__ import annotations

from desktop.engine.errors import ScenarioError, quoted
from desktop.engine.rulesets import breaks_pursues, kensei1, warhammer6
from desktop.engine.rulesets.base import (
    OptionSpec,
    ProcedureKind,
    Ruleset,
    StatSpec,
    UpgradeSpec,
    rule_label,
    slot_key,
)

RULESETS: dict[str, Ruleset] = {
    warhammer6.RULESET.id: warhammer6.RULESET,
    kensei1.RULESET.id: kensei1.RULESET,
    breaks_pursues.RULESET.id: breaks_pursues.RULESET,
}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise ScenarioError(f"unknown ruleset {quoted(ruleset_id)} "
                            f"(known: {', '.join(sorted(RULESETS))})") from None


__all__ = ["RULESETS", "OptionSpec", "ProcedureKind", "Ruleset", "StatSpec", "UpgradeSpec",
           "get_ruleset", "rule_label", "slot_key"]
