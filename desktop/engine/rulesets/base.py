"""What every ruleset declares: its statistics, options and procedures."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from desktop.engine.dice import Dice
from desktop.engine.errors import ScenarioError, StatError
from desktop.engine.events import Event, fold
from desktop.engine.model import Battle, UnitProfile
from desktop.engine.procedure import Procedure, Recorder, Resolution


@dataclass(frozen=True)
class StatSpec:
    name: str
    label: str
    minimum: int
    maximum: int
    # What a new or imported profile gets when no value is known (a plain trooper).
    default: int


def check_dice_option(value: Any) -> object:
    """For options that hold a dice expression: refuse one that is not."""
    return Dice.parse(str(value))


@dataclass(frozen=True)
class UpgradeSpec:
    """Something a unit can take that the rules read (a standard) or players expect to see."""

    name: str
    label: str
    clause: str = ""  # the rule that reads it, if any


@dataclass(frozen=True)
class OptionSpec:
    """A rule decision a player may want the other way (rules README, "Decision")."""

    name: str
    default: Any
    description: str
    clause: str
    # Raises a RuleError for a value of the right type that still makes no sense.
    check: Callable[[Any], object] | None = None


@dataclass(frozen=True)
class ProcedureKind:
    """A resolution a ruleset offers: how to read its input and how to start it.

    `fields` are the keys its part of a scenario may hold (besides "procedure");
    `setup` gives the events that set up the battle the input implies (units in a combat
    are engaged), so a window can store them with the resolution's own events.
    """

    name: str
    description: str
    fields: tuple[str, ...]
    parse: Callable[[Battle, Mapping[str, Any]], Any]
    start: Callable[[Recorder, Any], Procedure]
    setup: Callable[[Battle, Any], Sequence[Event]] | None = None

    def setup_events(self, battle: Battle, procedure_input: Any) -> list[Event]:
        return list(self.setup(battle, procedure_input)) if self.setup is not None else []

    def prepared(self, battle: Battle, procedure_input: Any) -> Battle:
        """The battle the resolution starts from: `battle` after its setup events."""
        return fold(battle, self.setup_events(battle, procedure_input))

    def resolution(self, battle: Battle, procedure_input: Any) -> Resolution:
        return Resolution(battle, lambda recorder: self.start(recorder, procedure_input))


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    distance_unit: str  # "in" or "cm"
    stats: tuple[StatSpec, ...]
    options: tuple[OptionSpec, ...] = ()
    procedures: Mapping[str, ProcedureKind] = field(default_factory=dict)
    upgrades: tuple[UpgradeSpec, ...] = ()

    def stat(self, name: str) -> StatSpec:
        for spec in self.stats:
            if spec.name == name:
                return spec
        raise StatError(f"{self.name} has no statistic '{name}'")

    def check_stat(self, name: str, value: object, where: str = "") -> int:
        prefix = f"{where}: " if where else ""
        try:
            spec = self.stat(name)
        except StatError as error:
            raise StatError(f"{prefix}{error} (it has "
                            f"{', '.join(s.name for s in self.stats)})") from None
        what = name if spec.label == name else f"{spec.label} ({name})"
        if isinstance(value, bool) or not isinstance(value, int):
            raise StatError(f"{prefix}{what} must be a whole number, not '{value}'")
        if not spec.minimum <= value <= spec.maximum:
            raise StatError(f"{prefix}{what} {value} is out of range "
                            f"{spec.minimum} to {spec.maximum}")
        return value

    def default_stats(self) -> dict[str, int]:
        return {spec.name: spec.default for spec in self.stats}

    def check_profile(self, profile: UnitProfile, where: str = "") -> None:
        """Raise StatError for a missing, unknown or out-of-range statistic."""
        prefix = f"{where}: " if where else f"{profile.name}: "
        known = {spec.name for spec in self.stats}
        unknown = sorted(set(profile.stats) - known)
        if unknown:
            raise StatError(f"{prefix}unknown statistic {', '.join(unknown)} for {self.name} "
                            f"(expected {', '.join(s.name for s in self.stats)})")
        for spec in self.stats:
            if spec.name not in profile.stats:
                raise StatError(f"{prefix}the profile has no {spec.label} ({spec.name})")
            self.check_stat(spec.name, profile.stats[spec.name], where or profile.name)

    def option(self, battle: Battle, name: str) -> Any:
        for spec in self.options:
            if spec.name == name:
                return battle.options.get(name, spec.default)
        raise KeyError(name)

    def procedure(self, name: str) -> ProcedureKind:
        try:
            return self.procedures[name]
        except KeyError:
            raise ScenarioError(
                f"{self.name} has no resolution '{name}' "
                f"(it has {', '.join(sorted(self.procedures))})") from None
