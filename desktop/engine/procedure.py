"""Resolutions as generators: they ask for rolls and choices and end with events.

A procedure yields a `Roll` or a `Choice`, receives the answer (the faces rolled, or the id
of the option taken) and finally returns its events. Given the same battle and the same
answers it produces the same events; the wizard, the CLI and the tests differ only in who
answers. `Session` drives one procedure and checks every answer before the procedure sees it.

A procedure made of `Phase`s (see `program`) remembers nothing between them but the phase,
a value: where a phase begins, the battle and the phase are all that decides what follows
(a `Checkpoint`). A session can be resumed from any checkpoint without replaying the
answers before it, and two checkpoints with equal battles and equal phases lead to the same
requests and events, which is what lets a forecast work out each of them once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, cached_property
from typing import Any, Literal

from desktop.engine.dice import Dice, Roller
from desktop.engine.errors import AnswerError, quoted
from desktop.engine.events import Event
from desktop.engine.model import Battle
from desktop.engine.odds import percent
from desktop.engine.sight import (
    Recall,
    Sight,
    SightState,
    start_watching,
    stop_watching,
    traced,
)
from desktop.engine.wording import agree


@dataclass(frozen=True)
class Outcome:
    """One way a roll can turn out, with its exact chance."""

    label: str
    chance: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "chance": str(self.chance),
                "percent": percent(self.chance)}


_COMPARISONS: dict[str, Callable[[int, int], bool]] = {
    "<=": lambda total, value: total <= value,
    "<": lambda total, value: total < value,
    ">=": lambda total, value: total >= value,
    ">": lambda total, value: total > value,
}


# How a total stands to a test's target, in words, by comparison: (when it holds, when not).
_RELATIONS: dict[str, tuple[str, str]] = {
    "<=": ("not above", "above"),
    "<": ("below", "not below"),
    ">=": ("at least", "below"),
    ">": ("above", "not above"),
}
# The totals each side of the line takes, in words ("{}" is the target).
_RANGES: dict[str, tuple[str, str]] = {
    "<=": ("{} or less", "above {}"),
    "<": ("below {}", "{} or more"),
    ">=": ("{} or more", "below {}"),
    ">": ("above {}", "{} or less"),
}


@dataclass(frozen=True)
class Threshold:
    """What a test needs, as data: the roll `passes` when `total <comparison> value`.

    `total` is the dice total (faces plus the dice's own modifier), the number a chart of the
    roll shows, so a window can draw the line and judge a typed roll without reading `why`.

    The rule itself may add `modifier` to that total (a Break test adds the combat score
    difference) and compare the sum with `target` = value + modifier, named `against`
    ("Ld 8"). Every text about the test — the request's `why`, a window's chart, its result
    line, the battle log — is worded from here (`rule`, `ranges`, `verdict`), so they give
    the same numbers.
    """

    comparison: str
    value: int
    passes: str  # what the outcome is called when the comparison holds ("holds", "passes")
    fails: str
    modifier: int = 0
    against: str = ""  # the target in words ("Ld 8", "the flee roll of 7"); "" = its number

    def __post_init__(self) -> None:
        if self.comparison not in _COMPARISONS:
            raise ValueError(f"unknown comparison '{self.comparison}'")

    @classmethod
    def of_rule(cls, comparison: str, target: int, passes: str, fails: str, *,
                modifier: int = 0, against: str = "") -> Threshold:
        """A test as its rule says it: `dice total + modifier <comparison> target`."""
        return cls(comparison, target - modifier, passes, fails, modifier, against)

    @property
    def target(self) -> int:
        """What the dice total plus `modifier` is compared with (Ld for a Break test)."""
        return self.value + self.modifier

    def holds(self, total: int) -> bool:
        return _COMPARISONS[self.comparison](total, self.value)

    def outcome(self, total: int) -> str:
        return self.passes if self.holds(total) else self.fails

    def ranges(self) -> tuple[str, str]:
        """The totals (dice plus modifier) that pass and that fail: ("8 or less", "above 8")."""
        passing, failing = _RANGES[self.comparison]
        return passing.format(self.target), failing.format(self.target)

    def dice_text(self, dice: Dice) -> str:
        """The roll with what the rule adds: "2D6 and add 3", "2D6 and take away 1", "2D6"."""
        if self.modifier > 0:
            return f"{dice} and add {self.modifier}"
        if self.modifier < 0:
            return f"{dice} and take away {-self.modifier}"
        return str(dice)

    def rule(self, dice: Dice, many: bool = False) -> str:
        """The test in one sentence: "Roll 2D6 and add 3: above 8 breaks, 8 or less holds";
        the words agree with a unit of `many` models ("above 7 panic, 7 or less keep their
        nerve"), as its result line does."""
        passing, failing = self.ranges()
        return (f"Roll {self.dice_text(dice)}: {failing} {agree(self.fails, many)}, "
                f"{passing} {agree(self.passes, many)}.")

    def judged(self, faces: Sequence[int], dice_modifier: int = 0) -> tuple[str, bool, str]:
        """(the sum, whether it holds, how it stands to the target): ("4 + 4 + 3 = 11",
        False, "above Ld 8")."""
        total = sum(faces) + dice_modifier + self.modifier
        holds = _COMPARISONS[self.comparison](total, self.target)
        relation = _RELATIONS[self.comparison][0 if holds else 1]
        return (summed(faces, dice_modifier, self.modifier), holds,
                f"{relation} {self.against or self.target}")

    def verdict(self, faces: Sequence[int], dice_modifier: int = 0,
                passed: bool | None = None) -> str:
        """How one roll came out against the line: "4 + 4 + 3 = 11, above Ld 8".

        `passed` is what the procedure decided, when a rule beats the line (a double 1
        that holds whatever the total)."""
        summed, holds, stands = self.judged(faces, dice_modifier)
        text = f"{summed}, {stands}"
        if passed is not None and passed != holds:
            text += (", yet a double 1 holds" if len(faces) == 2 and set(faces) == {1}
                     else f", yet it {self.passes if passed else self.fails}")
        return text

    def to_json(self) -> dict[str, Any]:
        data = {"passes_if": f"total {self.comparison} {self.value}",
                "comparison": self.comparison, "value": self.value,
                "passes": self.passes, "fails": self.fails}
        if self.modifier or self.against:
            data |= {"modifier": self.modifier, "target": self.target,
                     "against": self.against or str(self.target)}
        return data


def summed(faces: Sequence[int], *added: int) -> str:
    """"4 + 4 + 3 = 11": the faces and the numbers added to them (none left out at 0), or
    the one face alone."""
    parts = [str(face) for face in faces] + [_signed(number) for number in added if number]
    total = sum(faces) + sum(added)
    return f"{_joined(parts)} = {total}" if len(parts) > 1 else str(total)


def _signed(number: int) -> str:
    return f"+ {number}" if number >= 0 else f"- {-number}"


def _joined(parts: Sequence[str]) -> str:
    """"4 + 4 + 3", "4 + 4 - 2": faces joined by plus, a signed number as it is."""
    text = parts[0] if parts else "0"
    for part in parts[1:]:
        text += f" {part}" if part[0] in "+-" else f" + {part}"
    return text


@dataclass(frozen=True)
class Band:
    """Every total from `low` to `high` (inclusive) leads to `outcome`."""

    low: int
    high: int
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "outcome": self.outcome}


def bands_of(dice: Dice, outcome_of: Callable[[int], str]) -> tuple[Band, ...]:
    """The totals of `dice` grouped into runs that lead to the same outcome."""
    bands: list[Band] = []
    for total in range(dice.minimum, dice.maximum + 1):
        label = outcome_of(total)
        if bands and bands[-1].outcome == label:
            bands[-1] = replace(bands[-1], high=total)
        else:
            bands.append(Band(total, total, label))
    return tuple(bands)


def odds_of_bands(dice: Dice, bands: Sequence[Band]) -> tuple[Outcome, ...]:
    """Exact chance of each outcome, in the order the outcomes first appear."""
    ways: dict[str, int] = {}
    for band in bands:
        count = dice.ways_at_most(band.high) - dice.ways_at_most(band.low - 1)
        ways[band.outcome] = ways.get(band.outcome, 0) + count
    return tuple(Outcome(label, Fraction(count, dice.outcomes)) for label, count in ways.items())


# How much of a roll's faces the procedure goes on to use, beyond recording them in an event:
# only which outcome they give (a test), their total (a distance), or the faces themselves;
# "move" is a total that is the length of one unit's move and is otherwise only compared
# with its threshold (see `alike_totals`). A forecast branches once per class, so a test
# costs two branches instead of eleven, and a move roll one per outcome of its threshold
# while the run's audit (desktop/engine/sight.py) finds the move did not matter beyond its
# words.
Reads = Literal["outcome", "total", "faces", "move"]


def alike_totals(dice: Dice, threshold: Threshold | None, total: int,
                 alike: Callable[[int], Hashable] | None = None) -> tuple[int, ...]:
    """The totals a "move" roll reads as it reads `total`: those its threshold judges the
    same (all of them when it has none) and, given `alike`, for which it gives the same
    value (how the move ends, in words). A forecast walks one of them for all; the
    procedure audits that every one of them would have moved its unit alike."""
    totals = _on_the_same_side(dice, threshold, total)
    if alike is None:
        return totals
    same = alike(total)
    return tuple(t for t in totals if alike(t) == same)


# Asked for every run of a forecast, of a handful of dice and lines (not with `alike`: a
# cache would keep every battle it reads alive).
@cache
def _on_the_same_side(dice: Dice, threshold: Threshold | None, total: int
                      ) -> tuple[int, ...]:
    totals = range(dice.minimum, dice.maximum + 1)
    if threshold is None:
        return tuple(totals)
    return tuple(t for t in totals if threshold.holds(t) == threshold.holds(total))


@dataclass(frozen=True)
class Roll:
    """Roll `dice` for `unit`. `key` is stable across runs, so answers can be given by key.

    What each total leads to is known in one of three ways: a `threshold` (a test), an
    `outcome_of` function of the total (a move measured on the table: computed only when a
    window asks, since a preview or a headless run never does), or `given_odds` when the
    outcome also hangs on dice not rolled yet (a flee roll against pursuers still to roll).
    `reads` is the procedure's promise of what it uses (see Reads); "outcome" is only for a
    roll whose `bands` are cheap (a threshold, or an `outcome_of` that measures nothing).
    A "move" roll's procedure calls `rulesets.common.audit_move` where the unit moves.
    """

    key: str
    unit: str
    player: str
    dice: Dice
    purpose: str
    why: str
    clause: str
    given_odds: tuple[Outcome, ...] = ()
    threshold: Threshold | None = None
    outcome_of: Callable[[int], str] | None = field(default=None, compare=False, repr=False)
    reads: Reads = "total"
    # A "move" roll's classes are split further by this (see `alike_totals`).
    alike: Callable[[int], Hashable] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def bands(self) -> tuple[Band, ...]:
        # outcome_of refines a threshold where one roll beats the line (a double 1 holds).
        judge = self.outcome_of or (self.threshold.outcome if self.threshold else None)
        return bands_of(self.dice, judge) if judge is not None else ()

    @cached_property
    def odds(self) -> tuple[Outcome, ...]:
        if self.given_odds:
            return self.given_odds
        if not self.bands:
            return (Outcome(f"rolls {self.dice}", Fraction(1)),)
        found = odds_of_bands(self.dice, self.bands)
        if self.threshold is None:
            return found
        # A test always names both ends, a certain one with 0 beside the other.
        chance = {outcome.label: outcome.chance for outcome in found}
        labels = (self.threshold.passes, self.threshold.fails)
        return tuple(Outcome(label, chance.pop(label, Fraction(0))) for label in labels) + \
            tuple(Outcome(label, value) for label, value in chance.items())

    @cached_property
    def certain(self) -> Outcome | None:
        """The outcome every roll gives, when the procedure reads nothing of the faces but
        their outcome (a test no roll can pass, or none can fail); else None. A window may
        roll such dice itself: whatever they show, the same follows."""
        if self.reads != "outcome":
            return None
        return next((outcome for outcome in self.odds if outcome.chance == 1), None)

    def accept(self, answer: object) -> tuple[int, ...]:
        if not isinstance(answer, tuple | list):
            raise AnswerError(f"{self.key}: a roll is answered with dice faces, not "
                              f"{quoted(answer)}")
        return self.dice.check_faces(answer)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
                "kind": "roll", "key": self.key, "unit": self.unit, "player": self.player,
                "dice": str(self.dice), "purpose": self.purpose, "why": self.why,
                "clause": self.clause, "odds": [o.to_json() for o in self.odds],
                "bands": [band.to_json() for band in self.bands]}
        if self.threshold is not None:
            data["threshold"] = self.threshold.to_json()
        return data


@dataclass(frozen=True)
class Option:
    """One answer to a choice; `odds_of` gives the chances of what the dice it leads to do."""

    id: str
    label: str
    odds_of: Callable[[], Sequence[Outcome]] | None = field(default=None, compare=False,
                                                            repr=False)

    @cached_property
    def odds(self) -> tuple[Outcome, ...]:
        return tuple(self.odds_of()) if self.odds_of is not None else ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "label": self.label}
        if self.odds:
            data["odds"] = [o.to_json() for o in self.odds]
        return data


# A choice that also takes any facing: a number of degrees, 0 = east, counter-clockwise.
ANY_ANGLE = "angle"


@dataclass(frozen=True)
class Choice:
    """`player` picks one of `options`; `default` is what happens if nobody says otherwise.

    With `free == ANY_ANGLE` any angle in degrees is an answer too, given as a number or
    its text; it is passed on as text ("30").
    """

    key: str
    player: str
    options: tuple[Option, ...]
    why: str
    clause: str
    default: str
    unit: str = ""
    free: str = ""
    # Why a free answer cannot be taken here ("" when it can): no room to turn to it.
    refuse_free: Callable[[float], str] | None = field(default=None, compare=False,
                                                       repr=False)

    def accept(self, answer: object) -> str:
        ids = [option.id for option in self.options]
        if answer in ids:
            return str(answer)
        if self.free == ANY_ANGLE:
            angle = _angle(answer)
            if angle is not None:
                reason = self.refuse_free(angle) if self.refuse_free is not None else ""
                if reason:
                    raise AnswerError(f"{self.key}: {angle:g}° {reason}")
                return f"{angle:g}"
        also = " or any angle in degrees" if self.free == ANY_ANGLE else ""
        raise AnswerError(f"{self.key}: {quoted(answer)} is not one of the options "
                          f"({', '.join(ids)}){also}")

    def option(self, option_id: str) -> Option | None:
        return next((o for o in self.options if o.id == option_id), None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
                "kind": "choice", "key": self.key, "player": self.player, "unit": self.unit,
                "options": [o.to_json() for o in self.options],
                "default": self.default, "why": self.why, "clause": self.clause}
        if self.free:
            data["free"] = self.free
        return data


def _angle(answer: object) -> float | None:
    """A finite angle normalised to [0, 360), or None when `answer` is not one."""
    if isinstance(answer, bool):
        return None
    try:
        value = float(answer) if isinstance(answer, int | float | str) else math.nan
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    return round(value % 360.0, 6) % 360.0


Request = Roll | Choice
Answer = tuple[int, ...] | str
Procedure = Generator[Request, Answer, None]


@dataclass(frozen=True)
class Step:
    """One request and its answer; `events_before` events had happened when it was asked."""

    request: Request
    answer: Answer
    events_before: int = 0

    def to_json(self) -> dict[str, Any]:
        data = self.request.to_json()
        data["answer"] = list(self.answer) if isinstance(self.answer, tuple) else self.answer
        data["events_before"] = self.events_before
        return data


class Shared:
    """What many runs of one resolution (a forecast's) share: the battle each event leads
    to from each battle, so that runs replaying the same events meet the very same battle
    objects and what a battle keeps (footprints, remembered moves) is worked out once; and
    `recall`, the moves worked out on the way, found again in any battle where nothing they
    looked at differs.

    Battles are keyed by identity (hashing a whole battle would cost more than applying the
    event); each entry keeps its battle alive, so no identity is reused while it lasts.
    """

    def __init__(self) -> None:
        self._after: dict[tuple[int, Event], tuple[Battle, Battle]] = {}
        self.recall = Recall()

    def after(self, battle: Battle, event: Event) -> Battle:
        if type(event).apply_to is Event.apply_to:
            return battle  # a record (a roll, a test): the battle as it was, nothing to hash
        key = (id(battle), event)
        found = self._after.get(key)
        if found is None:
            found = self._after[key] = (battle, event.apply_to(battle))
        return found[1]


class Phase:
    """One stretch of a procedure, from one of its requests (or its start) to the next
    phase: a frozen dataclass whose fields are all the procedure keeps from before it.

    `run` asks for what it needs and returns the next phase (None: the procedure is done).
    It reads the battle from the recorder and everything else from the phase's own fields,
    never from anything it was handed before: a phase resumed in another session, from an
    equal battle, must do exactly what it does here. Fields must hash (tuples, frozensets,
    frozen dataclasses), so that equal phases can be found again.
    """

    def run(self, rec: Recorder) -> Generator[Request, Answer, Phase | None]:
        raise NotImplementedError


def program(rec: Recorder, phase: Phase | None) -> Procedure:
    """A procedure that runs `phase` and each phase it leads to; the only thing carried from
    one to the next is the phase returned (the loop keeps nothing else)."""
    while phase is not None:
        rec.enter(phase)
        phase = yield from phase.run(rec)


@dataclass(frozen=True, eq=False)
class Checkpoint:
    """Where a phase began in a session: the phase and the battle then (everything the rest
    of the procedure depends on), how many events and answers came before it, and, in a
    forecast's run, what the run's `Sight` held then."""

    phase: Phase
    battle: Battle
    events: int
    steps: int
    sight: SightState | None


class Recorder:
    """The battle as a procedure sees it while it runs: every event is applied at once.

    `sight` is set when a forecast relies on the run's "move" rolls (see Reads) and
    `shared` when it shares battles and moves between runs. `checkpoint` is the last phase
    begun (None for a procedure that is not a `program`); `answered` is kept by the session.
    """

    def __init__(self, battle: Battle, *, sight: Sight | None = None,
                 shared: Shared | None = None) -> None:
        self.battle = battle
        self.events: list[Event] = []
        self.sight = sight
        self.shared = shared
        self.checkpoint: Checkpoint | None = None
        self.checkpoints = 0  # how many phases have begun
        self.answered = 0

    def enter(self, phase: Phase) -> None:
        self.checkpoint = Checkpoint(phase, self.battle, len(self.events), self.answered,
                                     self.sight.state() if self.sight is not None else None)
        self.checkpoints += 1

    def emit(self, *events: Event) -> None:
        trace = traced()
        for event in events:
            self.events.append(event)
            before = self.battle
            if self.shared is not None:
                self.battle = self.shared.after(before, event)
            else:
                self.battle = event.apply_to(before)
            if trace is not None:
                trace.moved(before, self.battle)


class Session:
    """Drives one procedure: `pending` is what it asks now; `answer` gives it a reply.

    `events` and `battle` are the events so far and the battle after them, live while the
    procedure runs (a wizard shows where a runner ended before asking who chases it).
    A rejected answer raises AnswerError/DiceError and leaves the session where it was.
    """

    def __init__(self, procedure: Procedure, recorder: Recorder) -> None:
        self._procedure = procedure
        self._recorder = recorder
        self.steps: list[Step] = []
        self.pending: Request | None = None
        self.done = False
        self._advance(None)

    @property
    def events(self) -> list[Event]:
        return self._recorder.events

    @property
    def battle(self) -> Battle:
        return self._recorder.battle

    @property
    def answers(self) -> tuple[Answer, ...]:
        return tuple(step.answer for step in self.steps)

    @property
    def sight(self) -> Sight | None:
        return self._recorder.sight

    @property
    def checkpoint(self) -> Checkpoint | None:
        """The last phase begun (see `Phase`), None for a procedure without phases."""
        return self._recorder.checkpoint

    @property
    def checkpoints(self) -> int:
        """How many phases have begun in this session (a resumed one counts its first)."""
        return self._recorder.checkpoints

    def _advance(self, answer: Answer | None) -> None:
        sight, shared = self._recorder.sight, self._recorder.shared
        try:
            if sight is None and shared is None:
                self._step(answer)
            else:  # what movement looks at, and the moves it may find, while the run runs
                tokens = start_watching(sight, shared.recall if shared is not None else None)
                try:
                    self._step(answer)
                finally:
                    stop_watching(tokens)
        except StopIteration:
            self.pending = None
            self.done = True

    def _step(self, answer: Answer | None) -> None:
        if answer is None:
            self.pending = next(self._procedure)
        else:
            self.pending = self._procedure.send(answer)

    def answer(self, answer: object) -> None:
        request = self.pending
        if request is None:
            raise AnswerError("the resolution is finished; it asks for nothing more")
        accepted: Answer = request.accept(answer)
        self.steps.append(Step(request, accepted, len(self.events)))
        self._recorder.answered = len(self.steps)
        self._advance(accepted)


@dataclass(frozen=True)
class Resolution:
    """A procedure not yet started: a battle and how to begin resolving it.

    Every session it gives starts from the same battle, so stepping back is replaying a
    prefix of the answers, and a preview is the answers so far plus defaults for the rest.
    """

    battle: Battle
    begin: Callable[[Recorder], Procedure]
    # Resolutions whose outcomes, taken together, are this one's and which can never meet
    # (e.g. combats far apart): each can be forecast alone. None, or () when there are none.
    parts: Callable[[], tuple[Resolution, ...]] | None = field(default=None, compare=False)
    # The combats it resolves side by side, each as the units it holds and those engaged
    # with them, and the resolution of only some of them (their indices, in order): a
    # forecast walks them apart and then proves whether they met (forecast.py). () and None
    # for a procedure that is not made of combats.
    pieces: tuple[frozenset[str], ...] = field(default=(), compare=False)
    alone: Callable[[tuple[int, ...]], Resolution] | None = field(default=None, compare=False)

    def session(self, *, sight: Sight | None = None, shared: Shared | None = None
                ) -> Session:
        recorder = Recorder(self.battle, sight=sight, shared=shared)
        return Session(self.begin(recorder), recorder)

    def replay(self, answers: Iterable[object], *, sight: Sight | None = None,
               shared: Shared | None = None) -> Session:
        """A session that has been given `answers` in order (an AnswerError if one is wrong)."""
        session = self.session(sight=sight, shared=shared)
        for answer in answers:
            session.answer(answer)
        return session

    def resume(self, checkpoint: Checkpoint, *, sight: Sight | None = None,
               shared: Shared | None = None) -> Session:
        """A session that starts where `checkpoint` stands (a phase of a session of this
        resolution), with none of the events and answers before it."""
        recorder = Recorder(checkpoint.battle, sight=sight, shared=shared)
        return Session(program(recorder, checkpoint.phase), recorder)

    def preview(self, answers: Iterable[object] = ()) -> Session:
        """The finished session for `answers`, then every later request's default answer."""
        return run(self.replay(answers), default_answer)


def certainty(roll: Roll) -> str:
    """Why a certain roll (`Roll.certain`) needs no dice, in the words of its threshold:
    "whatever the dice: even 1 + 1 + 7 = 9 is above Ld 8" (the roll nearest the other
    outcome)."""
    threshold, certain = roll.threshold, roll.certain
    if threshold is None or certain is None:
        return "whatever the dice"
    passes = certain.label == threshold.passes
    low_passes = threshold.comparison in ("<=", "<")
    dice = roll.dice
    faces = (1,) * dice.count if low_passes != passes else (dice.sides,) * dice.count
    summed, _, stands = threshold.judged(faces, dice.modifier)
    return f"whatever the dice: even {summed} is {stands}"


def default_answer(request: Request) -> Answer:
    """What a request gets when nobody answers: a choice's default, a roll's typical faces."""
    if isinstance(request, Roll):
        return request.dice.typical_faces()
    return request.default


@dataclass
class ScriptedAnswers:
    """Answers for a whole run: dice from a roller, choices by key (else their default)."""

    roller: Roller
    choices: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, request: Request) -> Answer:
        if isinstance(request, Roll):
            return self.roller.roll(request.dice, f"{request.purpose} for {request.unit}")
        return self.choices.get(request.key, request.default)


def run(start: Session | Resolution, answer: Callable[[Request], object]) -> Session:
    """Answer every request of a session (a new one for a resolution) and return it done."""
    session = start.session() if isinstance(start, Resolution) else start
    while not session.done:
        assert session.pending is not None
        session.answer(answer(session.pending))
    return session


def with_odds(request: Roll, outcomes: Sequence[tuple[str, Fraction]]) -> Roll:
    if not outcomes and not request.given_odds:
        return request  # nothing to give: the same roll (a forecast asks thousands)
    return replace(request, given_odds=tuple(Outcome(label, chance)
                                             for label, chance in outcomes))
