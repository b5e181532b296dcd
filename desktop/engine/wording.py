"""How Rout's sentences make a verb agree with a unit's name.

The rule: a unit of more than one model is a body of troops and takes the plural ("Elf
Silver Riders break", "Orc Boyz keep their nerve"); a unit of one model takes the singular
("Orc Warboss breaks"). It goes by the models the unit was raised with, so a unit cut down
to its last model keeps the number its name has.

Outcome labels are written for one ("breaks", "keeps its nerve", "caught"): `agree` turns a
label into what follows a unit's name. Sentences (desktop.engine.narrate) are written for
many ("flee", "are"): `verb` turns such a verb into the singular for a lone model.
"""

from __future__ import annotations

from desktop.engine.model import Battle, Unit

MODALS = frozenset({"will", "must", "can", "cannot", "may", "might", "would", "should"})
_TO_MANY = {"is": "are", "has": "have", "does": "do", "was": "were"}
_TO_ONE = {many: one for one, many in _TO_MANY.items()}
_PRONOUNS_TO_MANY = {"its": "their", "it": "them", "itself": "themselves"}
_PRONOUNS_TO_ONE = {"their": "its", "they": "it", "them": "it", "themselves": "itself"}
_SIBILANT = ("s", "sh", "ch", "x", "z", "o")


def many(unit: Unit) -> bool:
    """Whether `unit`'s name takes the plural: more than one model."""
    return unit.models > 1


def plural(battle: Battle, unit_id: str) -> bool:
    unit = battle.roster.get(unit_id)
    return unit is None or many(unit)


def _for_many(word: str) -> str | None:
    """A verb in the third person singular as its plural ("breaks" -> "break"); None for a
    word that is not one (a participle such as "caught")."""
    if word in MODALS:
        return word
    if word in _TO_MANY:
        return _TO_MANY[word]
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return None


def _for_one(word: str) -> str:
    """A plural verb in the third person singular ("flee" -> "flees", "rally" -> "rallies")."""
    if word in MODALS:
        return word
    if word in _TO_ONE:
        return _TO_ONE[word]
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(_SIBILANT):
        return word + "es"
    return word + "s"


def agree(label: str, many_models: bool) -> str:
    """An outcome label, written for one, as it follows a unit's name: "keeps its nerve"
    after "Orc Boyz" is "keep their nerve", "caught" is "are caught"."""
    words = label.split(" ")
    if not words or not words[0]:
        return label
    first = _for_many(words[0])
    if first is None:  # a participle: the unit "is" or "are" it
        return f"{'are' if many_models else 'is'} {label}"
    if not many_models:
        return label
    rest = [_PRONOUNS_TO_MANY.get(word, word) for word in words[1:]]
    return " ".join([first, *rest])


def verb(word: str, many_models: bool) -> str:
    """A plural verb ("flee", "are") as the subject's number takes it."""
    return word if many_models else _for_one(word)


def pronoun(word: str, many_models: bool) -> str:
    """"they", "their", "them" or "themselves", as the subject's number takes it."""
    return word if many_models else _PRONOUNS_TO_ONE.get(word, word)


def said(battle: Battle, unit_id: str, label: str) -> str:
    """`label` after the unit's name: "Elf Silver Riders break", "Orc Warboss breaks"."""
    unit = battle.roster.get(unit_id)
    name = unit.name if unit is not None else unit_id
    return f"{name} {agree(label, plural(battle, unit_id))}"
