"""Answers to a resolution's requests as JSON, and back.

A resolution is replayed from its answers (`Resolution.replay`), so keeping the answers is
keeping the resolution: the store writes them after every answer, and a wizard that was
closed (or killed) half-way reads them back to carry on. A roll's answer is its faces (a
list of whole numbers), a choice's answer is the id of the option taken (a string). Whether
the faces suit the dice, or the id is an option, is for the request to judge when the
answers are replayed; here only the shape is checked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from desktop.engine.errors import AnswerError

if TYPE_CHECKING:
    from desktop.engine.procedure import Answer

# More answers than any resolution asks for is a damaged or hostile document.
MAX_ANSWERS = 10_000
MAX_FACES = 100


def answers_to_json(answers: Iterable[object]) -> list[list[int] | str]:
    """`answers` (faces as tuples or lists, choices as strings) as a JSON list."""
    return [_answer(position, answer) for position, answer in enumerate(answers, start=1)]


def answers_from_json(data: object) -> tuple[Answer, ...]:
    """The engine's answers (faces as tuples) from what `answers_to_json` wrote.

    Anything else raises AnswerError naming the first answer that is wrong and why.
    """
    if not isinstance(data, list):
        raise AnswerError(f"answers must be a list, not {_kind(data)}")
    if len(data) > MAX_ANSWERS:
        raise AnswerError(f"{len(data)} answers is more than any resolution asks for "
                          f"(at most {MAX_ANSWERS})")
    return tuple(_answer(position, item) if isinstance(item, str)
                 else tuple(_answer(position, item))
                 for position, item in enumerate(data, start=1))


def _answer(position: int, answer: object) -> Any:
    if isinstance(answer, str):
        if not answer:
            raise AnswerError(f"answer {position}: a choice cannot be empty")
        return answer
    if not isinstance(answer, list | tuple):
        raise AnswerError(f"answer {position}: expected dice faces (a list of whole numbers) "
                          f"or the id of an option, not {_kind(answer)}")
    if not answer:
        raise AnswerError(f"answer {position}: a roll needs at least one die")
    if len(answer) > MAX_FACES:
        raise AnswerError(f"answer {position}: {len(answer)} dice is more than any roll has")
    for face in answer:
        # bool is an int to Python, but `true` is no die face.
        if isinstance(face, bool) or not isinstance(face, int) or face < 1:
            raise AnswerError(f"answer {position}: the die face {face!r} is not a whole "
                              "number from 1 up")
    return list(answer)


def _kind(value: object) -> str:
    names = {dict: "a mapping", bool: "true/false", int: "a number", float: "a number",
             type(None): "nothing (null)"}
    return names.get(type(value), f"a {type(value).__name__}")
