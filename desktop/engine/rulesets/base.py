"""What every ruleset declares: its statistics, options and procedures."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from desktop.engine.dice import Dice
from desktop.engine.errors import ScenarioError, StatError, quoted
from desktop.lazy import lazy_module

# Loaded on first use (desktop.lazy): a ruleset's procedures and events, loaded with the first
# battle, not with its declarations.
if TYPE_CHECKING:
    import desktop.engine.events as engine_events
    import desktop.engine.procedure as procedure
else:
    engine_events = lazy_module("desktop.engine.events")
    procedure = lazy_module("desktop.engine.procedure")

if TYPE_CHECKING:
    from desktop.engine.events import Event
    from desktop.engine.model import Battle, UnitProfile
    from desktop.engine.procedure import Procedure, Recorder


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


# Short words a rule's name keeps in lower case: "Immune to Psychology", "Knights of the Realm".
_SMALL_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or",
                          "the", "to", "with"})


def rule_label(rule: str) -> str:
    """A special rule's name as a rulebook prints it, from its id: `immune_to_psychology` is
    "Immune to Psychology". Profiles keep ids (the rules read them); people read names."""
    words = [word for word in re.split(r"[\s_]+", rule.strip()) if word]
    return " ".join(word if not word.islower() else
                    word if index and word in _SMALL_WORDS else word.capitalize()
                    for index, word in enumerate(words))


def slot_key(slot: str) -> str:
    """Slots compare ignoring case and spacing: "core" and " Core " are one slot."""
    return " ".join(slot.split()).casefold()


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
    # What a number field means, for the player who fills it in (with the clause).
    hints: Mapping[str, str] = field(default_factory=dict)
    # The input's parts whose resolutions can never meet (combats far apart), each an
    # input of its own: a forecast walks each alone (procedure.Resolution.parts). A kind
    # that splits takes a sequence of combats (desktop.engine.combat.Combat) as its input.
    split: Callable[[Battle, Any], Sequence[Any]] | None = None

    def setup_events(self, battle: Battle, procedure_input: Any) -> list[Event]:
        return list(self.setup(battle, procedure_input)) if self.setup is not None else []

    def prepared(self, battle: Battle, procedure_input: Any) -> Battle:
        """The battle the resolution starts from: `battle` after its setup events."""

        return engine_events.fold(battle, self.setup_events(battle, procedure_input))

    def resolution(self, battle: Battle, procedure_input: Any) -> procedure.Resolution:

        split = self.split

        def parts() -> tuple[procedure.Resolution, ...]:
            found = split(battle, procedure_input) if split is not None else ()
            if len(found) < 2:
                return ()
            return tuple(self.resolution(battle, part) for part in found)

        def alone(indices: tuple[int, ...]) -> procedure.Resolution:
            return self.resolution(battle, tuple(procedure_input[i] for i in indices))

        def begin(recorder: Recorder) -> Procedure:
            return self.start(recorder, procedure_input)

        if split is None:
            return procedure.Resolution(battle, begin)
        return procedure.Resolution(battle, begin, parts=parts,
                                    pieces=tuple(_held(battle, combat)
                                                 for combat in procedure_input),
                                    alone=alone)


def _held(battle: Battle, combat: Any) -> frozenset[str]:
    """The units of a combat and every unit engaged with them."""
    units = {combatant.unit for combatant in combat.combatants()}
    return frozenset(units.union(*(battle.states[uid].engaged_with for uid in units
                                   if uid in battle.states)))


class ProcedureTable(Mapping[str, ProcedureKind]):
    """A ruleset's procedures, from `load` the first time one is asked for: reading and
    showing armies needs a ruleset's statistics, not its combat rules and their imports."""

    def __init__(self, load: Callable[[], Mapping[str, ProcedureKind]]) -> None:
        self._load = load
        self._table: Mapping[str, ProcedureKind] | None = None

    def _procedures(self) -> Mapping[str, ProcedureKind]:
        if self._table is None:
            self._table = self._load()
        return self._table

    def __getitem__(self, name: str) -> ProcedureKind:
        return self._procedures()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._procedures())

    def __len__(self) -> int:
        return len(self._procedures())


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    distance_unit: str  # "in" or "cm"
    stats: tuple[StatSpec, ...]
    options: tuple[OptionSpec, ...] = ()
    procedures: Mapping[str, ProcedureKind] = field(default_factory=dict)
    upgrades: tuple[UpgradeSpec, ...] = ()
    # The army list's slots in the order an army list gives them (Lords, Heroes, Core...).
    slots: tuple[str, ...] = ()

    def slot_rank(self, slot: str) -> int:
        """Where units of `slot` go in a roster: the ruleset's slots in their order, then
        slots it does not know, then units without a slot."""
        key = slot_key(slot)
        if not key:
            return len(self.slots) + 1
        return next((index for index, known in enumerate(self.slots)
                     if slot_key(known) == key), len(self.slots))

    def stat(self, name: str) -> StatSpec:
        for spec in self.stats:
            if spec.name == name:
                return spec
        raise StatError(f"{self.name} has no statistic {quoted(name)}")

    def check_stat(self, name: str, value: object, where: str = "") -> int:
        prefix = f"{where}: " if where else ""
        try:
            spec = self.stat(name)
        except StatError as error:
            raise StatError(f"{prefix}{error} (it has "
                            f"{', '.join(s.name for s in self.stats)})") from None
        what = name if spec.label == name else f"{spec.label} ({name})"
        if isinstance(value, bool) or not isinstance(value, int):
            raise StatError(f"{prefix}{what} must be a whole number, not {quoted(value)}")
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
                f"{self.name} has no resolution {quoted(name)} "
                f"(it has {', '.join(sorted(self.procedures))})") from None
