"""Answers as JSON (desktop.engine.answers): what the store keeps to resume a resolution."""

from __future__ import annotations

import json

import pytest
from conftest import SCENARIOS

from desktop.engine.answers import answers_from_json, answers_to_json
from desktop.engine.dice import SeededRoller
from desktop.engine.errors import AnswerError
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import load_scenario


@pytest.mark.parametrize("name", sorted(p.name for p in SCENARIOS.glob("*.json")))
def test_every_scenarios_answers_survive_json_and_replay_the_same(name):
    scenario = load_scenario(json.loads((SCENARIOS / name).read_text()))
    finished = run(scenario.start(), ScriptedAnswers(SeededRoller(11), scenario.choices))
    stored = json.loads(json.dumps(answers_to_json(finished.answers)))
    assert answers_from_json(stored) == finished.answers
    assert scenario.resolution().replay(answers_from_json(stored)).events == finished.events


@pytest.mark.parametrize(("data", "message"), [
    ({"a": 1}, "answers must be a list, not a mapping"),
    (None, "answers must be a list, not nothing"),
    ([[3, 4], 5], "answer 2: expected dice faces .* not a number"),
    ([[3, 4], None], "answer 2: expected dice faces .* not nothing"),
    ([[]], "answer 1: a roll needs at least one die"),
    ([[3, 0]], "answer 1: the die face 0 is not"),
    ([[3, True]], "answer 1: the die face True is not"),
    ([[3, 2.5]], "answer 1: the die face 2.5 is not"),
    ([[3, "4"]], "answer 1: the die face '4' is not"),
    (["pursue", ""], "answer 2: a choice cannot be empty"),
    ([[1] * 101], "answer 1: 101 dice"),
    ([["x"]] * 10_001, "10001 answers is more"),
])
def test_bad_answers_are_named(data, message):
    with pytest.raises(AnswerError, match=message):
        answers_from_json(data)


def test_answers_to_json_refuses_what_it_could_not_read_back():
    with pytest.raises(AnswerError, match="answer 1: expected dice faces"):
        answers_to_json([{"faces": [1]}])
    assert answers_to_json([(6, 1), "hold", [2]]) == [[6, 1], "hold", [2]]
