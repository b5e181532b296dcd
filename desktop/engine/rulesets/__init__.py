"""The rulesets Rout knows, by id (their declarations: catalogue; their procedures load
when first asked for)."""

from __future__ import annotations

from desktop.engine.errors import ScenarioError, quoted
from desktop.engine.rulesets.base import (
    OptionSpec,
    ProcedureKind,
    Ruleset,
    StatSpec,
    UpgradeSpec,
    rule_label,
    slot_key,
)
from desktop.engine.rulesets.catalogue import BREAKS_PURSUES, KENSEI1, WARHAMMER6

RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset for ruleset in (WARHAMMER6, KENSEI1, BREAKS_PURSUES)}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise ScenarioError(f"unknown ruleset {quoted(ruleset_id)} "
                            f"(known: {', '.join(sorted(RULESETS))})") from None


__all__ = ["RULESETS", "OptionSpec", "ProcedureKind", "Ruleset", "StatSpec", "UpgradeSpec",
           "get_ruleset", "rule_label", "slot_key"]
