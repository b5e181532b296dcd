"""Resolutions as generators: they ask for rolls and choices and end with events.

A procedure yields a `Roll` or a `Choice`, receives the answer (the faces rolled, or the id
of the option taken) and finally returns its events. Given the same battle and the same
answers it produces the same events; the wizard, the CLI and the tests differ only in who
answers. `Session` drives one procedure and checks every answer before the procedure sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from desktop.engine.dice import Dice, Roller
from desktop.engine.errors import AnswerError
from desktop.engine.events import Event
from desktop.engine.model import Battle
from desktop.engine.odds import percent


@dataclass(frozen=True)
class Outcome:
    """One way a roll can turn out, with its exact chance."""

    label: str
    chance: Fraction

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "chance": str(self.chance),
                "percent": percent(self.chance)}


@dataclass(frozen=True)
class Roll:
    """Roll `dice` for `unit`. `key` is stable across runs, so answers can be given by key."""

    key: str
    unit: str
    player: str
    dice: Dice
    purpose: str
    why: str
    clause: str
    odds: tuple[Outcome, ...] = ()

    def accept(self, answer: object) -> tuple[int, ...]:
        if not isinstance(answer, tuple | list):
            raise AnswerError(f"{self.key}: a roll is answered with dice faces, not '{answer}'")
        return self.dice.check_faces(answer)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "roll", "key": self.key, "unit": self.unit, "player": self.player,
                "dice": str(self.dice), "purpose": self.purpose, "why": self.why,
                "clause": self.clause, "odds": [o.to_json() for o in self.odds]}


@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class Choice:
    """`player` picks one of `options`; `default` is what happens if nobody says otherwise."""

    key: str
    player: str
    options: tuple[Option, ...]
    why: str
    clause: str
    default: str
    unit: str = ""
    odds: tuple[Outcome, ...] = ()

    def accept(self, answer: object) -> str:
        ids = [option.id for option in self.options]
        if answer not in ids:
            raise AnswerError(f"{self.key}: '{answer}' is not one of the options "
                              f"({', '.join(ids)})")
        return str(answer)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "choice", "key": self.key, "player": self.player, "unit": self.unit,
                "options": [{"id": o.id, "label": o.label} for o in self.options],
                "default": self.default, "why": self.why, "clause": self.clause,
                "odds": [o.to_json() for o in self.odds]}


Request = Roll | Choice
Answer = tuple[int, ...] | str
Procedure = Generator[Request, Answer, list[Event]]


@dataclass(frozen=True)
class Step:
    request: Request
    answer: Answer

    def to_json(self) -> dict[str, Any]:
        data = self.request.to_json()
        data["answer"] = list(self.answer) if isinstance(self.answer, tuple) else self.answer
        return data


class Session:
    """Drives one procedure: `pending` is what it asks now; `answer` gives it a reply.

    A rejected answer raises AnswerError/DiceError and leaves the session where it was.
    """

    def __init__(self, procedure: Procedure) -> None:
        self._procedure = procedure
        self.steps: list[Step] = []
        self.events: list[Event] | None = None
        self.pending: Request | None = None
        self._advance(None)

    @property
    def done(self) -> bool:
        return self.events is not None

    def _advance(self, answer: Answer | None) -> None:
        try:
            if answer is None:
                self.pending = next(self._procedure)
            else:
                self.pending = self._procedure.send(answer)
        except StopIteration as stop:
            self.pending = None
            self.events = list(stop.value)

    def answer(self, answer: object) -> None:
        request = self.pending
        if request is None:
            raise AnswerError("the resolution is finished; it asks for nothing more")
        accepted: Answer = request.accept(answer)
        self.steps.append(Step(request, accepted))
        self._advance(accepted)


@dataclass
class ScriptedAnswers:
    """Answers for a whole run: dice from a roller, choices by key (else their default)."""

    roller: Roller
    choices: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, request: Request) -> Answer:
        if isinstance(request, Roll):
            return self.roller.roll(request.dice, f"{request.purpose} for {request.unit}")
        return self.choices.get(request.key, request.default)


def run(procedure: Procedure, answer: Callable[[Request], Answer]) -> Session:
    """Answer every request of `procedure` with `answer` and return the finished session."""
    session = Session(procedure)
    while not session.done:
        assert session.pending is not None
        session.answer(answer(session.pending))
    return session


class Recorder:
    """The battle as a procedure sees it while it runs: every event is applied at once."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.events: list[Event] = []

    def emit(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.battle = event.apply_to(self.battle)


def with_odds(request: Roll, outcomes: Sequence[tuple[str, Fraction]]) -> Roll:
    return replace(request, odds=tuple(Outcome(label, chance) for label, chance in outcomes))
