"""Reading plain data (parsed JSON) with error messages that say where the problem is.

`Reader(data, "units[2]").integer("models", minimum=1)` either returns the value or raises a
ScenarioError such as "units[2].models: -3 is below the minimum of 1".
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from desktop.engine.errors import ScenarioError, quoted

Choice = TypeVar("Choice", bound=StrEnum)


class _Missing:
    """Marks "no default": the key must be present."""


MISSING: Any = _Missing()


def found(value: object) -> str:
    """What a file holds where something else belongs, in a player's words: "nothing
    (null)", "the text \"twelve\"", "the number 4.5", "a list [1, 2]"."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return show(value)
    if isinstance(value, str):
        return f"the text {show(value)}" if value.strip() else "empty text"
    if isinstance(value, int | float):
        return f"the number {show(value)}"
    if isinstance(value, list):
        return f"a list {show(value)}"
    if isinstance(value, dict):
        return f"a group of fields {show(value)}"
    return show(value)


def needed(what: str, value: object) -> str:
    """ "a whole number is needed here, the file has nothing (null)"."""
    return f"{what} is needed here, the file has {found(value)}"


def show(value: object) -> str:
    """A value as it looks in the file, cut short if long (JSON escapes line breaks and
    terminal escapes, as `quoted` does for text)."""
    if isinstance(value, str | list):
        value = value[:40]  # the most a message shows: a long value is never copied whole
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = quoted(value, 40)
    return text if len(text) <= 40 else text[:37] + "..."


# How many entries a list of text may have (a unit's notes, upgrades, special rules).
MAX_ITEMS = 200
_UNWRITABLE = re.compile("[\x00\ud800-\udfff]")


def has_unwritable(text: str) -> bool:
    """Whether `text` holds a NUL or a lone surrogate (see text_problem)."""
    return _UNWRITABLE.search(text) is not None


def text_problem(text: str, max_length: int) -> str | None:
    """What a database or a file could not keep in `text`, or None: too long, a NUL
    (PostgreSQL refuses it), or broken Unicode (a lone surrogate, which no encoding writes).

    Every text Rout reads or keeps is checked here, whichever door it came in by.
    """
    if len(text) > max_length:
        return f"{len(text)} characters is longer than the {max_length} Rout keeps"
    found = _UNWRITABLE.search(text)
    if found is None:
        return None
    return ("contains a NUL character" if found.group() == "\x00" else
            "contains broken Unicode (an unpaired surrogate)")


def texts_problem(texts: Sequence[str], max_length: int = 200,
                  max_items: int = MAX_ITEMS) -> tuple[int | None, str] | None:
    """For a list of text: (which entry, what is wrong), None for the list as a whole."""
    if len(texts) > max_items:
        return None, f"{len(texts)} entries is more than Rout keeps ({max_items})"
    for index, text in enumerate(texts):
        problem = text_problem(text, max_length)
        if problem is not None:
            return index, problem
    return None


def check_text(node: Reader, text: str, max_length: int) -> str:
    problem = text_problem(text, max_length)
    if problem is not None:
        raise node.fail(problem)
    return text


def check_texts(node: Reader, texts: Sequence[str], max_length: int = 200,
                max_items: int = MAX_ITEMS) -> Sequence[str]:
    """A list of text (`node` is the list): at most `max_items`, each checked as above."""
    found = texts_problem(texts, max_length, max_items)
    if found is not None:
        raise node.fail(found[1], found[0])
    return texts


class Reader:
    def __init__(self, data: object, path: str = "") -> None:
        self.data = data
        self.path = path

    def _where(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        if len(key) > 40 or not key.isprintable():  # a key from the file, not a field name
            return f"{self.path}[{quoted(key, 40)}]"
        return f"{self.path}.{key}" if self.path else key

    def at(self, key: str | int) -> Reader:
        """The place `key` inside this one, to name in a message about data already read
        (an army being saved has no JSON, but its fields have the same places)."""
        return Reader(None, self._where(key))

    def fail(self, message: str, key: str | int | None = None) -> ScenarioError:
        where = self.path if key is None else self._where(key)
        return ScenarioError(f"{where}: {message}" if where else message)

    def mapping(self) -> Mapping[str, Any]:
        if not isinstance(self.data, dict):
            raise self.fail(needed("a group of fields in { }", self.data))
        return self.data

    def expect(self, *keys: str) -> Reader:
        """Refuse keys other than `keys`: a misspelt field must not be silently ignored."""
        unknown = sorted(set(self.mapping()) - set(keys))
        if unknown:
            raise self.fail(f"unknown field {quoted(unknown[0])} (expected "
                            f"{', '.join(sorted(keys))})", unknown[0])
        return self

    def has(self, key: str) -> bool:
        return key in self.mapping()

    def child(self, key: str, default: object = MISSING) -> Reader:
        data = self.mapping()
        if key not in data:
            if default is MISSING:
                raise self.fail("is missing", key)
            return Reader(default, self._where(key))
        return Reader(data[key], self._where(key))

    def items(self) -> Iterator[Reader]:
        if not isinstance(self.data, list):
            raise self.fail(needed("a list", self.data))
        for index, item in enumerate(self.data):
            yield Reader(item, self._where(index))

    def count(self, key: str) -> int:
        """How many items the list under `key` holds (0 when there is none): a limit is
        checked before any item is read, so a huge list costs nothing to refuse."""
        value = self.mapping().get(key)
        return len(value) if isinstance(value, list) else 0

    def entries(self, key: str, *, required: bool = True) -> list[Reader]:
        return list(self.child(key, MISSING if required else []).items())

    def text(self, key: str, default: Any = MISSING, *, max_length: int = 200) -> str:
        """Non-empty text of at most `max_length` characters (what every database stores)."""
        node = self.child(key, default)
        if not isinstance(node.data, str) or not node.data.strip():
            raise node.fail(needed("text", node.data))
        return check_text(node, node.data.strip(), max_length)

    def integer(self, key: str, default: Any = MISSING, *, minimum: int | None = None,
                maximum: int | None = None) -> int:
        node = self.child(key, default)
        value = node.data
        if isinstance(value, float) and math.isinf(value):
            raise node.fail("the number is far too large")
        if isinstance(value, bool) or not isinstance(value, int):
            raise node.fail(needed("a whole number", value))
        if minimum is not None and value < minimum:
            raise node.fail(f"{value} is below the minimum of {minimum}")
        if maximum is not None and value > maximum:
            raise node.fail(f"{value} is above the maximum of {maximum}")
        return value

    def number(self, key: str, default: Any = MISSING, *, minimum: float | None = None,
               positive: bool = False) -> float:
        node = self.child(key, default)
        value = node.data
        if isinstance(value, float) and math.isinf(value):
            raise node.fail("the number is far too large")
        if isinstance(value, float) and math.isnan(value):
            raise node.fail("NaN is not a number Rout can use")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise node.fail(needed("a number", value))
        if positive and value <= 0:
            raise node.fail(f"{value} must be greater than 0")
        if minimum is not None and value < minimum:
            raise node.fail(f"{value} is below the minimum of {minimum}")
        return float(value)

    def choice(self, key: str, kind: type[Choice], default: Choice, what: str) -> Choice:
        """One of an enumeration's values, e.g. a troop type; a wrong one lists the others."""
        text = self.text(key, default.value)
        try:
            return kind(text)
        except ValueError:
            raise self.fail(f"unknown {what} {quoted(text)} (known: "
                            f"{', '.join(member.value for member in kind)})", key) from None

    def flag(self, key: str, default: bool = False) -> bool:
        data = self.mapping()
        if key not in data:
            return default
        value = data[key]
        if not isinstance(value, bool):
            raise self.fail(needed("true or false", value), key)
        return value

    def point(self, key: str) -> tuple[float, float]:
        node = self.child(key)
        if (not isinstance(node.data, list) or len(node.data) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool)
                           and math.isfinite(v) for v in node.data)):
            raise node.fail(needed("a point [x, y]", node.data))
        return (float(node.data[0]), float(node.data[1]))

    def strings(self, key: str, *, max_length: int = 200,
                max_items: int = MAX_ITEMS) -> list[str]:
        """A list of text, each entry checked as `text` checks one (it may be empty)."""
        node = self.child(key, [])
        if isinstance(node.data, list) and len(node.data) > max_items:  # before any item
            raise node.fail(f"{len(node.data)} entries is more than Rout keeps ({max_items})")
        if not isinstance(node.data, list) or not all(isinstance(v, str) for v in node.data):
            raise node.fail(needed("a list of text", node.data))
        return list(check_texts(node, node.data, max_length, max_items))
