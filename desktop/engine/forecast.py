"""The chance of each whole outcome of a resolution, before (or part way through) the dice.

`forecast` walks the procedure's requests: at a roll it branches over what the roll can do,
with exact chances; at a choice it takes the answer given for that key, else the default.
A procedure is a generator and cannot be copied, so every branch but one replays the
answers from the start; what keeps that cheap is branching once per class of faces the
procedure reads (`Roll.reads`: a test branches per outcome, a distance per total) and
letting the last branch of each roll carry on the live session instead of replaying.
Replays share their battles and moves (`Shared`): what a battle keeps, and a move wherever
nothing it looked at differs, is worked out once for the whole walk.

A "move" roll (a distance that only sets how far one unit goes, beyond its threshold) is
walked once per outcome of its threshold, on trust: the run audits that every total of the
class would have moved the unit alike and that nothing afterwards looked where any of them
would have left it (desktop/engine/sight.py). Where the audit fails, that class is walked
again total by total, so the chances stay exact whichever way it goes.

A resolution of several combats is walked one combat at a time where it can be: combats
the table proves can never meet (`Resolution.parts`), and combats whose walks prove they
did not meet (`_exact_proven`); a whole outcome is then one outcome of each, its chance the
product of theirs.

Each finished run is summed up as plain words per unit ("breaks and escapes"), taken from
its events; the forecast adds their chances up per unit and per whole outcome. When the tree
is larger than the budget (found while walking it: the walk stops at its share of it), a
seeded sample of whole runs stands in for it, each chance with a 95% Wilson interval, and
the result says it is a sample.
"""

from __future__ import annotations

import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from desktop.engine.combat import components
from desktop.engine.dice import Dice, SeededRoller
from desktop.engine.errors import AnswerError, DiceError, RuleError
from desktop.engine.events import (
    BreakTest,
    ChargeFailed,
    ChaseCharged,
    ChaseReached,
    Event,
    HonorTest,
    PanicTest,
    PursuitDeclared,
    RallyTest,
    RestraintTest,
    RunnerLocked,
    UnitCaught,
    UnitCharged,
    UnitDestroyed,
    UnitEscaped,
    UnitFled,
    UnitLeftTable,
    UnitPursued,
)
from desktop.engine.model import Battle
from desktop.engine.odds import percent
from desktop.engine.procedure import (
    Answer,
    Checkpoint,
    Choice,
    Resolution,
    Roll,
    ScriptedAnswers,
    Session,
    Shared,
    run,
)
from desktop.engine.sight import Sight, Trace, tracing
from desktop.engine.wording import agree, plural

DEFAULT_BUDGET_SECONDS = 2.0
# The share of a forecast's budget the exact walk may take; a sample has the rest.
EXACT_SHARE = 0.75
DEFAULT_MAX_LEAVES = 50_000  # runs made to the end (a subtree met again costs none)
DEFAULT_SAMPLES = 1_000
MAX_SAMPLES = 1_000_000
# However many runs a sample is asked for, it stops after this long (and says so): one run
# on a crowded table can take a second, and a million of them would never answer.
SAMPLE_BUDGET_SECONDS = 10.0
UNAFFECTED = "unaffected"
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


class ForecastError(RuleError):
    """The answers given cannot be followed (the message says which one)."""


class ForecastCancelled(Exception):
    """The caller no longer wants this forecast (`cancelled` said so): a window whose input
    changed stops the old walk at its next run instead of waiting for it."""


UnitOutcome = tuple[tuple[str, str], ...]  # (unit id, what happened to it), in unit order


@dataclass(frozen=True)
class Forecast:
    """The chances of a resolution's outcomes: exact, or from `samples` seeded runs.

    `outcomes` are whole outcomes (every unit something happened to, in words), most likely
    first; `by_unit` is the same per unit, with `UNAFFECTED` for runs that leave it alone.
    In a sample, each chance is the share of runs, with a 95% interval: `intervals` for
    each whole outcome's label, `unit_intervals` for each (unit, label) of `by_unit` (kept
    apart: a whole outcome's label can read like a unit's row, "s: runs away").
    """

    exact: bool
    outcomes: list[tuple[str, Fraction]]
    by_unit: dict[str, list[tuple[str, Fraction]]]
    leaves: int
    units: dict[str, UnitOutcome] = field(default_factory=dict)  # whole label -> per unit
    samples: int = 0
    seed: int | None = None
    intervals: dict[str, tuple[float, float]] = field(default_factory=dict)
    unit_intervals: dict[tuple[str, str], tuple[float, float]] = field(default_factory=dict)
    seconds: float = 0.0
    asked: int = 0  # the runs a sample was asked for: more than `samples` when time ran out
    apart: int = 1  # exact from this many parts that can never meet, walked one by one

    def chance(self, label: str, unit: str | None = None) -> Fraction:
        """The chance of one whole outcome, or of one unit's label (0 if it never happens)."""
        rows = self.outcomes if unit is None else self.by_unit.get(unit, [])
        return next((chance for name, chance in rows if name == label), Fraction(0))

    def to_json(self) -> dict[str, Any]:
        def row(label: str, chance: Fraction, unit: str | None) -> dict[str, Any]:
            data: dict[str, Any] = {"label": label}
            if self.exact:
                data |= {"chance": str(chance), "percent": percent(chance)}
            else:
                low, high = (self.intervals[label] if unit is None
                             else self.unit_intervals[unit, label])
                data |= {"share": str(chance), "percent": percent(chance),
                         "interval_95": [round(low, 4), round(high, 4)]}
            return data

        outcomes = []
        for label, chance in self.outcomes:
            data = row(label, chance, None)
            data["units"] = dict(self.units.get(label, ()))
            outcomes.append(data)
        method = "exact" if self.exact else f"sample of {self.samples} runs"
        if self.exact and self.apart > 1:
            method += f", {self.apart} groups of combats that never meet, walked apart"
        if self.asked > self.samples:
            method += f" (of {self.asked} asked: the time for a sample ran out)"
        return {
            "exact": self.exact,
            "method": method,
            "leaves": self.leaves,
            "samples": self.samples,
            "samples_asked": self.asked or self.samples,
            "seed": self.seed,
            "outcomes": outcomes,
            "by_unit": {uid: [row(label, chance, uid) for label, chance in rows]
                        for uid, rows in self.by_unit.items()},
        }


def forecast(
    resolution: Resolution,
    answers: Sequence[object] = (),
    choices: Mapping[str, str] | None = None,
    *,
    budget_seconds: float = DEFAULT_BUDGET_SECONDS,
    max_leaves: int = DEFAULT_MAX_LEAVES,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    cancelled: Callable[[], bool] | None = None,
) -> Forecast:
    """The outcomes of `resolution` once `answers` are given, choices from `choices` or
    their defaults: exact when the walk ends within `EXACT_SHARE` of `budget_seconds` and
    `max_leaves` runs, else a sample of `samples` runs rolled from `seed`, stopped when the
    budget is spent (after one run at least): a forecast answers within its budget.
    `cancelled` is asked after every run; once it says True, ForecastCancelled is raised."""
    choices = dict(choices or {})
    answers = tuple(answers)
    started = time.perf_counter()
    start = _follow(resolution, answers)
    if budget_seconds > 0 and max_leaves > 0:
        deadline = started + budget_seconds * EXACT_SHARE
        limits = _Limits(choices, deadline, max_leaves, cancelled)
        # Combats that cannot meet, or that are proven not to have met, are walked apart.
        parts = resolution.parts() if resolution.parts is not None else ()
        found = _exact_apart(resolution, parts, start, limits)
        if found is not None:
            return replace(_summarise(resolution.battle, found.chances, exact=True,
                                      seconds=time.perf_counter() - started),
                           leaves=found.runs, apart=found.groups)
    left = started + budget_seconds - time.perf_counter()
    return sample(resolution, answers, choices, samples=samples, seed=seed, started=started,
                  budget_seconds=max(left, 0.0), cancelled=cancelled)


def sample(
    resolution: Resolution,
    answers: Sequence[object] = (),
    choices: Mapping[str, str] | None = None,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    started: float | None = None,
    budget_seconds: float = SAMPLE_BUDGET_SECONDS,
    cancelled: Callable[[], bool] | None = None,
) -> Forecast:
    """`samples` whole runs after `answers`, the dice rolled from `seed` (repeatable), or
    as many as `budget_seconds` allows (at least one): the result says how many it made
    (`samples`) of how many were asked (`asked`)."""
    if samples < 1:
        raise ForecastError(f"a sample needs at least one run, not {samples}")
    if samples > MAX_SAMPLES:
        raise ForecastError(f"a sample is of at most {MAX_SAMPLES} runs, not {samples}")
    begun = time.perf_counter()
    started = begun if started is None else started
    answers = tuple(answers)
    _follow(resolution, answers)
    script = ScriptedAnswers(SeededRoller(seed), dict(choices or {}))
    counts: Counter[UnitOutcome] = Counter()
    asked, made = samples, 0
    while made < asked:
        if cancelled is not None and cancelled():
            raise ForecastCancelled
        session = run(resolution.replay(answers), script)
        counts[summarise(resolution.battle, session.events)] += 1
        made += 1
        if time.perf_counter() - begun > budget_seconds:
            break
    samples = made
    leaves = [(outcome, Fraction(count, samples)) for outcome, count in counts.items()]
    found = _summarise(resolution.battle, leaves, exact=False,
                       seconds=time.perf_counter() - started)
    intervals = {label: wilson(chance, samples) for label, chance in found.outcomes}
    unit_intervals = {(uid, label): wilson(chance, samples)
                      for uid, rows in found.by_unit.items() for label, chance in rows}
    return Forecast(exact=False, outcomes=found.outcomes, by_unit=found.by_unit,
                    leaves=samples, units=found.units, samples=samples, seed=seed,
                    intervals=intervals, unit_intervals=unit_intervals,
                    seconds=found.seconds, asked=asked)


def wilson(share: Fraction, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share of `runs`: sound near 0 and 1, unlike p ± z·se."""
    p = float(share)
    centre = (p + z * z / (2 * runs)) / (1 + z * z / runs)
    half = z / (1 + z * z / runs) * math.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs))
    return max(0.0, centre - half), min(1.0, centre + half)


def answers_for(resolution: Resolution, faces: Sequence[int],
                choices: Mapping[str, str] | None = None) -> tuple[Answer, ...]:
    """The answers that use up `faces` (dice rolled so far, one face per die, in the order
    they are asked for), choices on the way taken from `choices` or their defaults."""
    choices = choices or {}
    session = resolution.session()
    left = list(faces)
    try:
        while left:
            request = session.pending
            if request is None:
                raise ForecastError(f"{len(left)} dice given after the last roll")
            if isinstance(request, Choice):
                session.answer(choices.get(request.key, request.default))
                continue
            if len(left) < request.dice.count:
                raise ForecastError(f"the dice given end part way through {request.key}: "
                                    f"{request.dice} needs {request.dice.count}, "
                                    f"{len(left)} left")
            session.answer(tuple(left[:request.dice.count]))
            del left[:request.dice.count]
    except ForecastError:
        raise
    except RuleError as error:
        raise ForecastError(str(error)) from None
    return session.answers


def _follow(resolution: Resolution, answers: Sequence[object]) -> Session:
    try:
        return resolution.replay(answers)
    except RuleError as error:
        raise ForecastError(f"answer {_where(resolution, answers)}: {error}") from None


def _where(resolution: Resolution, answers: Sequence[object]) -> str:
    """The number of the first answer the resolution refuses (1-based), for messages."""
    session = resolution.session()
    for index, answer in enumerate(answers, 1):
        try:
            session.answer(answer)
        except RuleError:
            return str(index)
    return str(len(answers))


class _OverBudget(Exception):
    """The walk went past its time or its leaves: the forecast falls back on a sample."""


class _Broken(Exception):
    """The audit of "move" rolls walked as one class failed (`keys`): whatever the rest of
    that class's walk finds is thrown away, so it stops here and the class is walked again
    total by total."""

    def __init__(self, keys: frozenset[str]) -> None:
        super().__init__(keys)
        self.keys = keys


@dataclass(frozen=True)
class Branch:
    """One class of faces a roll's procedure reads alike: the faces walked for all of them,
    how many of the roll's equally likely faces tuples fall in it, and their totals."""

    faces: tuple[int, ...]
    ways: int
    totals: tuple[int, ...]


# What has been said of each unit so far (see `summarise`), as a value: (unit, phrases).
_Said = tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class _Found:
    """What a node of the walk leads to: the chance of each outcome and how many runs a walk
    replaying every branch would make (a "move" roll's audit that fails below a node never
    returns one: it raises `_Broken`)."""

    chances: Mapping[UnitOutcome, Fraction]
    leaves: int


@dataclass(frozen=True)
class _Base:
    """Where a stretch of the walk begins: a checkpoint (the phase begun there and the
    battle then are all that the rest depends on, see `procedure.Phase`), or, for a
    procedure without phases, its start and the answers given from there."""

    checkpoint: Checkpoint | None
    answers: tuple[Answer, ...]
    said: _Said


@dataclass(frozen=True)
class _Mark:
    """Where a session stood when it reached its base: its answers, its events and the
    phases it had begun until then (what comes after is the stretch walked from the base)."""

    steps: int
    events: int
    checkpoints: int


class _Same:
    """A value compared by identity (a battle's terrain: one tuple for a whole walk)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


class _Walk:
    """The exact walk: depth first over the classes of every roll, each branch a subtree.

    Between checkpoints a branch is reached by resuming the session from the last one and
    giving the answers since (a few at most); at a checkpoint, the subtree is looked up by
    what it depends on — the battle, the phase, what was said of each unit and what the
    run's audit holds (`_key`) — and walked only the first time it is met.
    """

    def __init__(self, resolution: Resolution, choices: Mapping[str, str], *,
                 deadline: float, max_leaves: int,
                 cancelled: Callable[[], bool] | None = None) -> None:
        self.resolution = resolution
        self.cancelled = cancelled
        self.choices = choices
        self.deadline = deadline
        self.max_leaves = max_leaves
        self.walked = 0  # the runs really made to the end
        self.shared = Shared()
        self.known: dict[Hashable, _Found] = {}
        self.order = {uid: index for index, uid in enumerate(resolution.battle.roster)}

    def start(self, answers: tuple[Answer, ...]) -> _Found:
        session = self.resolution.replay(answers, sight=Sight(), shared=self.shared)
        return self.walk(_Base(None, answers, ()), session, _Mark(len(answers), 0, 0),
                         frozenset())

    def walk(self, base: _Base, session: Session, mark: _Mark, relied: frozenset[str]
             ) -> _Found:
        """What follows where `session` stands (its answers after `mark` given since
        `base`); the "move" rolls in `relied`, relied on since `base`, walked as classes."""
        sight = session.sight
        assert sight is not None
        while True:
            if sight.broken and not sight.broken.isdisjoint(sight.relied):
                raise _Broken(frozenset(sight.broken & sight.relied))
            if session.checkpoints != mark.checkpoints:
                return self._at(self._checkpoint(base, session, mark), session)
            if session.done:
                return self._leaf(base, session, mark)
            pending = session.pending
            if not isinstance(pending, Choice):
                break
            session.answer(self.choices.get(pending.key, pending.default))
        roll = pending
        assert isinstance(roll, Roll)
        here = session.answers[mark.steps:]
        found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
        leaves = 0
        branches = classes_of(roll)
        above = frozenset(sight.relied)  # the classes this one is walked within
        for index, branch in enumerate(branches):
            trusted = roll.reads == "move" and len(branch.totals) > 1
            keys = relied | {roll.key} if trusted else relied
            try:
                if index == len(branches) - 1:  # the last branch carries on the live session
                    child, child_mark = session, mark
                    if trusted:
                        sight.rely_on(roll.key)
                    session.answer(branch.faces)
                else:
                    child, child_mark = self._open(base, (*here, branch.faces), keys)
                below = self.walk(base, child, child_mark, keys)
            except _Broken as failed:
                # An audit that failed within a class walked above is that class's to redo.
                if not trusted or roll.key not in failed.keys or not above.isdisjoint(
                        failed.keys):
                    raise
                below = self._one_by_one(roll, base, here, branch, relied)
            share = Fraction(branch.ways, roll.dice.outcomes)
            for outcome, chance in below.chances.items():
                found[outcome] += share if chance == 1 else share * chance  # a run: 1
            leaves += below.leaves
        return _Found(found, leaves)

    def _one_by_one(self, roll: Roll, base: _Base, here: tuple[Answer, ...], branch: Branch,
                    relied: frozenset[str]) -> _Found:
        """A class whose audit failed, walked again one total at a time."""
        found: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
        leaves = 0
        ways = roll.dice.ways()
        for total in branch.totals:
            child, mark = self._open(base, (*here, faces_for(roll.dice, total)), relied)
            below = self.walk(base, child, mark, relied)
            share = Fraction(ways[total], branch.ways)
            for outcome, chance in below.chances.items():
                found[outcome] += share if chance == 1 else share * chance
            leaves += below.leaves
        return _Found(found, leaves)

    def _open(self, base: _Base, answers: tuple[Answer, ...], relied: frozenset[str]
              ) -> tuple[Session, _Mark]:
        """A session standing where `answers` lead from `base`, relying on `relied` too."""
        if base.checkpoint is None:
            session = self.resolution.replay((*base.answers, *answers), sight=Sight(relied),
                                             shared=self.shared)
            return session, _Mark(len(base.answers), 0, 0)
        assert base.checkpoint.sight is not None
        sight = Sight.from_state(base.checkpoint.sight)
        for key in relied:
            sight.rely_on(key)
        session = self.resolution.resume(base.checkpoint, sight=sight, shared=self.shared)
        for answer in answers:
            session.answer(answer)
        return session, _Mark(0, 0, 1)

    def _checkpoint(self, base: _Base, session: Session, mark: _Mark) -> _Base:
        checkpoint = session.checkpoint
        assert checkpoint is not None
        said = _said_after(self.resolution.battle, base.said,
                           session.events[mark.events:checkpoint.events])
        return _Base(checkpoint, (), said)

    def _at(self, base: _Base, session: Session) -> _Found:
        """The subtree from a checkpoint, walked once for every equal one."""
        checkpoint = base.checkpoint
        assert checkpoint is not None
        key = (_Same(checkpoint.battle.terrain), checkpoint.battle.turn,
               tuple(checkpoint.battle.states.items()), checkpoint.phase, base.said,
               checkpoint.sight)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self.walk(
                base, session, _Mark(checkpoint.steps, checkpoint.events, session.checkpoints),
                frozenset())
        return found

    def _leaf(self, base: _Base, session: Session, mark: _Mark) -> _Found:
        self.walked += 1
        if self.cancelled is not None and self.cancelled():
            raise ForecastCancelled
        if self.walked > self.max_leaves or time.perf_counter() > self.deadline:
            raise _OverBudget
        said = _said_after(self.resolution.battle, base.said, session.events[mark.events:])
        outcome = tuple((uid, _join(phrases))
                        for uid, phrases in sorted(said, key=lambda item: self.order[item[0]])
                        if phrases)
        return _Found({outcome: Fraction(1)}, 1)


@dataclass(frozen=True)
class _Walked:
    """An exact walk's result: each whole outcome's chance, how many runs a walk replaying
    every branch would make, and how many groups of combats were walked apart."""

    chances: list[tuple[UnitOutcome, Fraction]]
    runs: int
    groups: int = 1


@dataclass(frozen=True)
class _Limits:
    """What every walk of one forecast shares: the choices and the budget."""

    choices: Mapping[str, str]
    deadline: float
    max_leaves: int
    cancelled: Callable[[], bool] | None = None


def _exact(resolution: Resolution, start: Session, limits: _Limits) -> _Walked | None:
    """Each outcome's chance from where `start` stands (its answers given) and how many
    runs a replaying walk would make, or None past the budget."""
    walk = _Walk(resolution, limits.choices, deadline=limits.deadline,
                 max_leaves=limits.max_leaves, cancelled=limits.cancelled)
    try:
        found = walk.start(start.answers)
    except _OverBudget:
        return None
    return _Walked(list(found.chances.items()), found.leaves)


def _exact_apart(resolution: Resolution, parts: Sequence[Resolution], start: Session,
                 limits: _Limits) -> _Walked | None:
    """`_exact` of a resolution made of parts that can never meet: each part walked alone
    (N combats cost N walks of one, not the walk of their product; a part's own combats as
    `_exact_proven` finds them), then every whole outcome is one outcome of each part, its
    chance the product of theirs. The answers given so far go each to the part that asks
    for it, by its key."""
    if not parts:
        return _exact_proven(resolution, start, limits)
    given = _keyed(start)
    routed = [_routed(part, given) for part in parts] if given is not None else []
    starts = [found for found in routed if found is not None]
    if len(starts) != len(parts) or not _all_used(given, [used for _, used in starts]):
        return _exact(resolution, start, limits)
    walked: list[_Walked] = []
    for part, (part_start, _) in zip(parts, starts, strict=True):
        found = _exact_proven(part, part_start, limits)
        if found is None:
            return None
        walked.append(found)
    return _product(resolution.battle, walked, limits.max_leaves)


def _exact_proven(resolution: Resolution, start: Session, limits: _Limits) -> _Walked | None:
    """`_exact` of a resolution of several combats, each walked alone and then proven not
    to have met the others (issue 24): combats near enough that they might meet, which
    `Resolution.parts` cannot split, often do not.

    Each group of combats is walked with a `Trace`: what any of its runs looked at or read
    of the table, and the ground any unit it changed stood on. Two groups met if one
    looked where the other's units stood, or both changed (or spoke of) one unit; groups
    that met are joined and walked again together, until none meet, or all are one walk,
    the whole resolution's. Groups that did not meet run side by side in the whole
    resolution exactly as they ran alone: every rule reads the table through a look or a
    read of the spatial index, and each found there only units the other never moved; so
    the chances multiply. The answers given so far (`start`'s) go each to the group that
    asks for it, by its key; answers that do not fit the groups so are walked as one."""
    count = len(resolution.pieces)
    given = _keyed(start)
    if count < 2 or resolution.alone is None or given is None:
        return _exact(resolution, start, limits)
    # Combats that share a unit (or one engaged with both) are one group from the start.
    pieces = resolution.pieces
    groups = [tuple(members) for members in components(count, [
        (first, second) for first in range(count) for second in range(first + 1, count)
        if pieces[first] & pieces[second]])]
    walked: dict[tuple[int, ...], tuple[_Walked, Trace, frozenset[str], frozenset[str]]] = {}
    while True:
        for group in groups:
            if group in walked:
                continue
            if len(group) == count:  # all met: the whole walk
                return _exact(resolution, start, limits)
            part = resolution.alone(group)
            try:
                with tracing(Trace()) as trace:
                    routed = _routed(part, given)
                    found = None if routed is None else _exact(part, routed[0], limits)
            except AnswerError:  # a choice given for the whole that this part asks otherwise
                routed = None
            if routed is None:
                return _exact(resolution, start, limits)
            if found is None:
                return None
            # What it changed or spoke of, and every unit of its combats (or engaged with them)
            touched = frozenset(uid for outcome, _ in found.chances for uid, _ in outcome)
            touched |= trace.changed.union(*(pieces[index] for index in group))
            walked[group] = (found, trace, touched, routed[1])
        joined = _joined(groups, {group: (trace, touched)
                                  for group, (_, trace, touched, _) in walked.items()})
        if len(joined) == len(groups):
            break
        groups = joined
    if not _all_used(given, [walked[group][3] for group in groups]):
        return _exact(resolution, start, limits)
    product = _product(resolution.battle, [walked[group][0] for group in groups],
                       limits.max_leaves)
    return None if product is None else replace(product, groups=len(groups))


def _keyed(session: Session) -> dict[str, Answer] | None:
    """The answers given in `session` by the key of what they answered (None if a key was
    asked twice: they cannot be told apart by key)."""
    given = {step.request.key: step.answer for step in session.steps}
    return given if len(given) == len(session.steps) else None


def _routed(part: Resolution, given: Mapping[str, Answer]
            ) -> tuple[Session, frozenset[str]] | None:
    """A session of `part` that has been given, in its own order, the answers the whole
    resolution was given for the same keys, up to its first request without one; and the
    keys it took."""
    session = part.session()
    used: set[str] = set()
    while session.pending is not None and not session.done and session.pending.key in given:
        key = session.pending.key
        if key in used:
            return None
        try:
            session.answer(given[key])
        except (AnswerError, DiceError):  # the part asks it otherwise: the parts met
            return None
        used.add(key)
    return session, frozenset(used)


def _all_used(given: Mapping[str, Answer] | None, used: Sequence[frozenset[str]]) -> bool:
    """Whether the parts took every answer given, each answer once: the whole resolution
    asked for them in an order that mixes the parts' own."""
    return given is not None and sum(len(keys) for keys in used) == len(given) and \
        frozenset().union(*used) == frozenset(given)


def _joined(groups: Sequence[tuple[int, ...]],
            traces: Mapping[tuple[int, ...], tuple[Trace, frozenset[str]]]
            ) -> list[tuple[int, ...]]:
    """`groups` with every two that met joined (and groups joined through a third)."""
    met = []
    for first in range(len(groups)):
        trace, touched = traces[groups[first]]
        for second in range(first + 1, len(groups)):
            other, other_touched = traces[groups[second]]
            if touched & other_touched or trace.sees(other) or other.sees(trace):
                met.append((first, second))
    return [tuple(sorted(index for member in members for index in groups[member]))
            for members in components(len(groups), met)]


def _product(battle: Battle, walked: Sequence[_Walked], max_leaves: int) -> _Walked | None:
    """Walks of parts that never meet, as one: every whole outcome one outcome of each part,
    its chance the product of theirs (None: more whole outcomes than runs allowed)."""
    order = {uid: index for index, uid in enumerate(battle.roster)}
    whole: dict[UnitOutcome, Fraction] = {(): Fraction(1)}
    runs, groups = 1, 0
    for found in walked:
        if len(whole) * len(found.chances) > max_leaves:
            return None
        runs *= found.runs
        groups += found.groups
        joined: dict[UnitOutcome, Fraction] = defaultdict(Fraction)
        for before, chance in whole.items():
            for outcome, share in found.chances:
                merged = tuple(sorted((*before, *outcome), key=lambda said: order[said[0]]))
                joined[merged] += chance * share
        whole = joined
    return _Walked(list(whole.items()), runs, groups)


def branches_of(roll: Roll) -> list[tuple[tuple[int, ...], int]]:
    """One faces tuple per class the procedure tells apart, with how many rolls share it."""
    return [(branch.faces, branch.ways) for branch in classes_of(roll)]


def classes_of(roll: Roll) -> list[Branch]:
    """The classes of faces the procedure tells apart, lowest total first.

    By `roll.reads`: "outcome" groups the totals by the outcome their bands give (cheap for
    a test; a measured `outcome_of` is never read here), "move" by the outcome of the
    threshold alone (`alike_totals`; never measured either), "total" by total, "faces" keeps
    every faces tuple.
    """
    dice = roll.dice
    if roll.reads == "faces":
        return [Branch(faces, 1, (dice.total(faces),)) for faces in _all_faces(dice)]
    ways = dice.ways()
    if roll.reads == "move":  # as `alike_totals` groups them, each total judged once
        threshold, alike = roll.threshold, roll.alike
        groups: dict[tuple[object, ...], list[int]] = {}
        for total in ways:
            groups.setdefault((threshold.holds(total) if threshold else None,
                               alike(total) if alike else None), []).append(total)
        return [Branch(faces_for(dice, totals[0]), sum(ways[t] for t in totals), tuple(totals))
                for totals in groups.values()]
    if roll.reads == "total" or not roll.bands:
        return [Branch(faces_for(dice, total), count, (total,)) for total, count in ways.items()]
    by_outcome: dict[str, list[int]] = {}
    for band in roll.bands:
        by_outcome.setdefault(band.outcome, []).extend(range(band.low, band.high + 1))
    return [Branch(faces_for(dice, totals[0]), sum(ways[t] for t in totals), tuple(totals))
            for totals in by_outcome.values()]


def faces_for(dice: Dice, total: int) -> tuple[int, ...]:
    """Faces that make `total`, highest dice first (for 2D6 and 2: (1, 1))."""
    rest = total - dice.modifier
    faces = []
    for index in range(dice.count):
        face = min(dice.sides, rest - (dice.count - index - 1))
        faces.append(face)
        rest -= face
    return tuple(faces)


def _all_faces(dice: Dice) -> Iterable[tuple[int, ...]]:
    faces: list[tuple[int, ...]] = [()]
    for _ in range(dice.count):
        faces = [(*head, face) for head in faces for face in range(1, dice.sides + 1)]
    return faces


def _summarise(battle: Battle, leaves: Sequence[tuple[UnitOutcome, Fraction]], *,
               exact: bool, seconds: float) -> Forecast:
    """Whole outcomes and per-unit labels from the leaves, each most likely first."""
    # Summed as whole numbers over one denominator: combats walked apart give thousands of
    # leaves, each adding to a row of every unit, and a Fraction's sum reduces every time.
    denominator = math.lcm(*{chance.denominator for _, chance in leaves})
    whole: dict[str, int] = defaultdict(int)
    units: dict[str, UnitOutcome] = {}
    per_unit: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    pieces: dict[tuple[str, str], str] = {}  # combats walked apart repeat them in thousands
    for outcome, chance in leaves:
        label = outcome_label(battle, outcome, pieces)
        share = chance.numerator * (denominator // chance.denominator)
        whole[label] += share
        units[label] = outcome
        for uid, unit_label in outcome:
            per_unit[uid][unit_label] += share
    order = {uid: index for index, uid in enumerate(battle.roster)}
    by_unit = {}
    for uid in sorted(per_unit, key=order.__getitem__):
        rows = per_unit[uid]
        missing = denominator - sum(rows.values())  # 1, less the unit's rows
        if missing:
            rows[UNAFFECTED] += missing
        by_unit[uid] = _ranked({label: Fraction(share, denominator)
                                for label, share in rows.items()})
    return Forecast(exact=exact, outcomes=_ranked({label: Fraction(share, denominator)
                                                  for label, share in whole.items()}),
                    by_unit=by_unit, leaves=len(leaves), units=units, seconds=seconds)


def _ranked(chances: Mapping[str, Fraction]) -> list[tuple[str, Fraction]]:
    return sorted(chances.items(), key=lambda item: (-item[1], item[0]))


def outcome_label(battle: Battle, outcome: UnitOutcome,
                  pieces: dict[tuple[str, str], str] | None = None) -> str:
    """"Empire Handgunners: break and flee; Orc Warboss: catches them": each unit's label
    agreeing with its name (labels are written for one, desktop.engine.wording); `pieces`
    keeps each unit's part once written."""
    if not outcome:
        return "nothing happens"
    pieces = {} if pieces is None else pieces
    for said in outcome:
        if said not in pieces:
            uid, label = said
            pieces[said] = f"{battle.roster[uid].name}: {agreed(label, plural(battle, uid))}"
    return "; ".join(pieces[said] for said in outcome)


# The verbs `_describe`'s phrases begin with: where a joined label's phrases start.
_PHRASE_VERBS = frozenset({"holds", "breaks", "keeps", "panics", "rallies", "fails", "pursues",
                           "overruns", "is", "catches", "escapes", "leaves", "flees", "runs",
                           "chases"})


def agreed(label: str, many: bool) -> str:
    """A unit's label as it follows the unit's name, each of its phrases agreeing: "breaks
    and flees" after "Empire Handgunners" is "break and flee"."""
    parts = re.split(r"(, | and )", label)
    return "".join(agree(part, many) if part.split(" ")[0] in _PHRASE_VERBS else part
                   for part in parts)


# --- What happened to each unit, in words ----------------------------------------------------


class _Phrases:
    """The phrases said of each unit so far, in the order its events came."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.said: dict[str, list[str]] = defaultdict(list)

    def name(self, thing: str) -> str:
        if thing in self.battle.roster:
            return self.battle.roster[thing].name
        piece = next((t for t in self.battle.terrain if t.id == thing), None)
        return piece.name if piece is not None else "other units"

    def say(self, uid: str, phrase: str) -> None:
        said = self.said[uid]
        if not said or said[-1] != phrase:
            said.append(phrase)

    def settle(self, uid: str, phrase: str) -> None:
        """How a pursuit ended says all its declaration did: "catches X", not "pursues X"."""
        said = self.said[uid]
        if said and said[-1].startswith(("pursues", "overruns")):
            said.pop()
        self.say(uid, phrase)


_TESTS: dict[type[Event], tuple[str, str]] = {
    BreakTest: ("holds", "breaks"),
    PanicTest: ("keeps its nerve", "panics"),
    RestraintTest: ("holds back", "fails to hold back"),
    RallyTest: ("rallies", "keeps fleeing"),
}


def summarise(battle: Battle, events: Sequence[Event]) -> UnitOutcome:
    """Per unit something happened to, in roster order, a short phrase: "breaks and escapes".

    Only what the dice or the choices decide is said; the combat's own casualties are the
    same in every run and would only lengthen every label. Nothing may depend on how far a
    unit went or where it stopped: the totals of a "move" roll are walked as one when their
    moves agree in words only (see `rulesets.common.audit_move`).
    """
    book = _Phrases(battle)
    for event in events:
        _describe(event, book)
    order = {uid: index for index, uid in enumerate(battle.roster)}
    return tuple((uid, _join(book.said[uid]))
                 for uid in sorted(book.said, key=order.__getitem__) if book.said[uid])


def _said_after(battle: Battle, said: _Said, events: Sequence[Event]) -> _Said:
    """What is said of each unit once `events` follow what `said` holds (a value: the walk
    keys its subtrees by it)."""
    if not events:
        return said
    book = _Phrases(battle)
    book.said.update((uid, list(phrases)) for uid, phrases in said)
    for event in events:
        _describe(event, book)
    return tuple(sorted((uid, tuple(phrases)) for uid, phrases in book.said.items()
                        if phrases))


def _join(phrases: Sequence[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def _describe(event: Event, book: _Phrases) -> None:
    name = book.name
    test = _TESTS.get(type(event))
    if test is not None:
        assert isinstance(event, BreakTest | PanicTest | RestraintTest | RallyTest)
        book.say(event.unit, test[0] if event.passed else test[1])
    elif isinstance(event, HonorTest):
        if event.passed:  # a failure shows as the run that follows, or as a re-roll
            book.say(event.unit, "holds")
    elif isinstance(event, PursuitDeclared):
        verb = "overruns" if event.overrun else "pursues"
        book.say(event.unit, verb if event.target in ("", event.unit)
                 else f"{verb} {name(event.target)}")
    elif isinstance(event, UnitCaught):
        book.say(event.unit, "is caught")
        for uid, _ in event.pursuit_rolls:
            book.settle(uid, f"catches {name(event.unit)}" if uid in event.by
                        else f"fails to catch {name(event.unit)}")
    elif isinstance(event, UnitEscaped):
        book.say(event.unit, "escapes")
        for uid, _ in event.pursuit_rolls:
            book.settle(uid, f"fails to catch {name(event.unit)}")
    elif isinstance(event, UnitLeftTable):
        book.say(event.unit, "leaves the table")
    elif isinstance(event, UnitFled):
        verb = "runs away" if book.battle.ruleset == "kensei1" else "flees"
        detail = ""
        if event.passed_through:
            detail += " through " + " and ".join(name(u) for u in event.passed_through)
        if event.blocked_by:
            detail += f" and is stopped by {name(event.blocked_by)}"
        said = book.said[event.unit]
        # A runner reached by a chase runs again (K-RA-9): "runs away and then again".
        again = any(phrase.startswith(verb) for phrase in said)
        # A Kensei unit may hold one Honor test and fail the next (K-HT-1): it held, then
        # ran; "holds and runs away" read as if both were one test.
        after = "then " if said and said[-1] == "holds" and not again else ""
        if detail or not said or said[-1] != "escapes":  # escaping says it fled
            book.say(event.unit, ("then again" if again else after + verb) + detail)
    elif isinstance(event, UnitPursued):
        if event.charged:
            book.say(event.unit, f"runs into {name(event.charged)}")
    elif isinstance(event, UnitCharged):
        if event.reached:
            book.say(event.unit, f"catches {name(event.target)}")
    elif isinstance(event, ChargeFailed):
        book.say(event.unit, f"fails to reach {name(event.target)}")
    elif isinstance(event, ChaseReached):
        book.say(event.unit, f"chases down {name(event.target)}")
    elif isinstance(event, ChaseCharged):
        book.say(event.unit, f"chases into {name(event.enemy)}")
    elif isinstance(event, RunnerLocked):
        book.say(event.unit, f"is stopped by {name(event.enemy)}")
    elif isinstance(event, UnitDestroyed):
        said = book.said[event.unit]
        if not said or said[-1] != "is caught":  # caught already says destroyed
            book.say(event.unit, "is destroyed")
