"""WarHub's battlescribe-spec roster specs, run against Rout's BattleScribe engine.

Each spec (YAML) holds setup data, actions and expected roster states. The runner writes
the setup as real `.gst`/`.cat` XML and reads it back through the engine's reader, drives
the engine's pure actions, and compares every expected state with what the engine shows
exactly as strictly as the suite's own runner (WarHub's `RosterRunner`, with
`docs/spec-schema.json` and `docs/error-assertions.md`): see "comparing" below. Per-engine
overrides apply only to an engine named `rout`.

    python -m tests.bsspec [FOLDER]

prints one line per failing spec and, last, `bsspec: N/M specs pass (K skipped: ...)`.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import yaml

from desktop.engine.bsdata import actions
from desktop.engine.bsdata.errors import DataError, RosterActionError
from desktop.engine.bsdata.evaluate import Evaluation, ValidationError
from desktop.engine.bsdata.gamedata import GameData
from desktop.engine.bsdata.reader import read_data_file
from desktop.engine.bsdata.roster import Roster
from desktop.engine.bsdata.rosterfile import read_roster, write_roster
from desktop.engine.bsdata.state import ForceState, RosterState, SelectionState, roster_state

REPO = Path(__file__).resolve().parents[2]
DEFAULT_FOLDER = REPO.parent / "shared" / "data" / "battlescribe-spec" / "specs"
ENGINE = "rout"
NAMESPACE = "http://www.battlescribe.net/schema/"

# YAML list keys → the XML element each item is.
SINGULAR = {
    "costTypes": "costType", "profileTypes": "profileType",
    "characteristicTypes": "characteristicType", "forceEntries": "forceEntry",
    "categoryEntries": "categoryEntry", "publications": "publication",
    "selectionEntries": "selectionEntry", "entryLinks": "entryLink", "rules": "rule",
    "infoLinks": "infoLink", "sharedSelectionEntries": "selectionEntry",
    "sharedSelectionEntryGroups": "selectionEntryGroup", "sharedRules": "rule",
    "sharedProfiles": "profile", "sharedInfoGroups": "infoGroup",
    "catalogueLinks": "catalogueLink", "costs": "cost", "constraints": "constraint",
    "modifiers": "modifier", "modifierGroups": "modifierGroup",
    "categoryLinks": "categoryLink", "selectionEntryGroups": "selectionEntryGroup",
    "profiles": "profile", "infoGroups": "infoGroup", "characteristics": "characteristic",
    "conditions": "condition", "conditionGroups": "conditionGroup", "repeats": "repeat",
}
TEMPLATE = re.compile(r"\$\{\{\s*steps\.([^.\s}]+)\.([^\s}]+)\s*\}\}")
SKIP_REASONS = {
    "dataSource": "needs game data from the network (real-world)",
    "expectedFile": "byte-compares another engine's exported roster file",
}


class SpecFailure(Exception):
    """A step whose outcome differs from the spec."""


class _Loader(yaml.SafeLoader):
    """YAML 1.2 booleans: `on:` (an error's owner) is a key, not True."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|"
                                                                   r"false|False|FALSE)$"),
                              list("tTfF"))


# -- setup: YAML → XML → the engine's reader ---------------------------------------------
def _attribute(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _element(tag: str, node: dict[str, Any], indent: str = "") -> str:
    attributes: list[str] = []
    children: list[str] = []
    text: str | None = None
    for key, value in node.items():
        if isinstance(value, list):
            item = SINGULAR.get(key, key.rstrip("s"))
            inner = "".join(_element(item, v, indent + "  ") for v in value)
            children.append(f"{indent}  <{key}>\n{inner}{indent}  </{key}>\n")
        elif key == "description":
            children.append(f"{indent}  <description>{escape(str(value))}</description>\n")
        elif key == "value" and tag == "characteristic":
            text = str(value)
        elif isinstance(value, dict):
            children.append(_element(key, value, indent + "  "))
        else:
            attributes.append(f" {key}={quoteattr(_attribute(value))}")
    opening = f"{indent}<{tag}{''.join(attributes)}"
    if text is not None:
        return f"{opening}>{escape(text)}</{tag}>\n"
    if not children:
        return f"{opening}/>\n"
    return f"{opening}>\n{''.join(children)}{indent}</{tag}>\n"


def _document(kind: str, node: dict[str, Any]) -> bytes:
    schema = "gameSystemSchema" if kind == "gameSystem" else "catalogueSchema"
    body = _element(kind, node)
    opening = body.split(">", 1)
    xml = (f'{opening[0]} xmlns="{NAMESPACE}{schema}">{opening[1]}'
           if not opening[0].endswith("/") else
           f'{opening[0][:-1]} xmlns="{NAMESPACE}{schema}"/>{opening[1]}')
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + xml).encode()


def build_data(setup: dict[str, Any]) -> GameData:
    system = dict(setup.get("gameSystem") or {})
    catalogues = [dict(c) for c in setup.get("catalogues") or []]
    system_id = system.get("id") or next(
        (c["gameSystemId"] for c in catalogues if c.get("gameSystemId")), "gs-spec")
    system.setdefault("id", system_id)
    system.setdefault("name", "Game System")
    system.setdefault("revision", 1)
    system.setdefault("battleScribeVersion", "2.03")
    game_system = read_data_file(_document("gameSystem", system), "setup.gst")
    files = []
    for catalogue in catalogues:
        catalogue.setdefault("name", catalogue["id"])
        catalogue.setdefault("revision", 1)
        catalogue.setdefault("battleScribeVersion", "2.03")
        catalogue.setdefault("gameSystemId", system_id)
        for link in catalogue.get("catalogueLinks") or []:
            link.setdefault("type", "catalogue")
        files.append(read_data_file(_document("catalogue", catalogue),
                                    f"{catalogue['id']}.cat"))
    return GameData(game_system, files)


# -- comparing ----------------------------------------------------------------------
# Exactly as strict as the suite's own runner (WarHub's RosterRunner): every field a spec
# names is compared; `hidden` of a force, selection, profile and rule is always compared
# (false when the spec says nothing); lists of costs, profiles, rules, categories and
# publications are matched by id or name and fail on any extra one; selections and forces
# in order; errors one assertion to one error, first match first, by the owner's kind and
# entry (a link-reached owner by its target, the last part of a `::` id) and the exact
# `from`; no error at all when a state names none.
def _for_engine(expected: dict[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in expected.items() if k != "engines"}
    override = (expected.get("engines") or {}).get(ENGINE)
    if override:
        merged.update({k: v for k, v in override.items() if v is not None})
    return merged


def _same_number(actual: Decimal | int, expected: Any) -> bool:
    return Decimal(str(expected)) == Decimal(actual)


@dataclass
class Mismatch:
    problems: list[str] = field(default_factory=list)

    def check(self, where: str, actual: Any, expected: Any) -> None:
        if isinstance(expected, (int, float)) and not isinstance(expected, bool) \
                and isinstance(actual, (int, Decimal)) and not isinstance(actual, bool):
            if not _same_number(actual, expected):
                self.problems.append(f"{where}: {actual} (expected {expected})")
        elif actual != expected:
            self.problems.append(f"{where}: {actual!r} (expected {expected!r})")

    def extra(self, where: str, actual: list[str], expected: int, what: str) -> None:
        if len(actual) > expected:
            self.problems.append(f"{where}: {len(actual)} {what} {actual} (expected "
                                 f"{expected})")


def _costs(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]) -> None:
    """Costs by type id (or name); more costs than the spec lists is a failure."""
    for cost in expected:
        if cost.get("typeId"):
            key, found = cost["typeId"], next((c for c in actual
                                               if c.type_id == cost["typeId"]), None)
        elif cost.get("name"):
            key, found = cost["name"], next((c for c in actual if c.name == cost["name"]),
                                            None)
        else:
            out.problems.append(f"{where}: a cost with neither typeId nor name")
            continue
        if found is None:
            out.problems.append(f"{where}: no cost of type {key}")
            continue
        if "value" in cost:
            out.check(f"{where}[{key}].value", found.value, cost["value"])
        if "hidden" in cost:
            out.check(f"{where}[{key}].hidden", found.hidden, cost["hidden"])
    out.extra(where, [f"{c.name}={_plain(c.value)}" for c in actual], len(expected), "costs")


def _plain(value: Decimal) -> str:
    return format(value.normalize(), "f") if value != value.to_integral_value() \
        else str(int(value))


def _by_name(actual: tuple[Any, ...], want: dict[str, Any], index: int) -> Any:
    if want.get("name") is not None:
        return next((a for a in actual if a.name == want["name"]), None)
    return actual[index] if index < len(actual) else None


def _each_found(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any],
                what: str, compare: Callable[[str, Any, dict[str, Any]], None], *,
                by_id: str | None = None, shown: Callable[[Any], str] = lambda a: a.name
                ) -> None:
    """`compare(label, found, want)` for each item a spec lists: found by its id when the
    spec gives one under `by_id` (its name then checked too), else by name or position. One
    not found is a failure, and so is any item more than the spec lists."""
    for index, want in enumerate(expected):
        want = want or {}
        key = want.get(by_id, want.get("name", index)) if by_id else want.get("name", index)
        label = f"{where}[{key}]"
        if by_id is not None and want.get(by_id) is not None:
            found = next((a for a in actual if a.id == want[by_id]), None)
        else:
            found = _by_name(actual, want, index)
        if found is None:
            out.problems.append(f"{label}: not found among {[shown(a) for a in actual]}")
            continue
        if by_id is not None and want.get("name") is not None and want.get(by_id) is not None:
            out.check(f"{label}.name", found.name, want["name"])
        compare(label, found, want)
    out.extra(where, [shown(a) for a in actual], len(expected), what)


def _profiles(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]
              ) -> None:
    def compare(label: str, profile: Any, want: dict[str, Any]) -> None:
        for key, attribute in (("typeName", "type_name"), ("typeId", "type_id")):
            if want.get(key) is not None:
                out.check(f"{label}.{key}", getattr(profile, attribute), want[key])
        out.check(f"{label}.hidden", profile.hidden, want.get("hidden") or False)
        for key, attribute in (("page", "page"), ("publicationId", "publication_id")):
            if want.get(key) is not None:
                out.check(f"{label}.{key}", getattr(profile, attribute) or "", want[key])
        for characteristic in want.get("characteristics") or []:
            name = characteristic.get("name")
            value = next((c for c in profile.characteristics if c.name == name), None) \
                if name is not None else None
            if value is None:
                out.problems.append(f"{label}.characteristic[{name}]: not found")
                continue
            if characteristic.get("value") is not None:
                out.check(f"{label}.characteristic[{name}].value", value.value,
                          str(characteristic["value"]))
            if characteristic.get("typeId") is not None:
                out.check(f"{label}.characteristic[{name}].typeId", value.type_id,
                          characteristic["typeId"])
    _each_found(out, where, actual, expected, "profiles", compare)


def _rules(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]) -> None:
    def compare(label: str, rule: Any, want: dict[str, Any]) -> None:
        if want.get("description") is not None:
            out.check(f"{label}.description", rule.description, want["description"])
        out.check(f"{label}.hidden", rule.hidden, want.get("hidden") or False)
        for key, attribute in (("page", "page"), ("publicationId", "publication_id")):
            if want.get(key) is not None:
                out.check(f"{label}.{key}", getattr(rule, attribute) or "", want[key])
    _each_found(out, where, actual, expected, "rules", compare)


def _categories(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]
                ) -> None:
    def compare(label: str, category: Any, want: dict[str, Any]) -> None:
        if want.get("primary") is not None:
            out.check(f"{label}.primary", category.primary, want["primary"])
        # Rout shows no profiles or rules on a category: a spec naming some fails.
        if want.get("profiles") is not None:
            _profiles(out, f"{label}.profiles", (), want["profiles"])
        if want.get("rules") is not None:
            _rules(out, f"{label}.rules", (), want["rules"])
        for name, attribute in (("publicationId", "publication_id"), ("page", "page"),
                                ("customName", "custom_name"),
                                ("customNotes", "custom_notes")):
            if want.get(name) is not None:
                out.check(f"{label}.{name}", getattr(category, attribute, None) or "",
                          want[name])
    _each_found(out, where, actual, expected, "categories", compare, by_id="entryId")


def _in_order(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any],
              what: str, compare: Callable[[Mismatch, str, Any, dict[str, Any]], None],
              only: str) -> None:
    """`compare` for each item a spec lists and the one at its place; `only` says what
    there is when the spec lists more, and any item more than it lists is a failure."""
    for index, want in enumerate(expected):
        if index >= len(actual):
            out.problems.append(f"{where}[{index}]: expected, but there are only "
                                f"{len(actual)} {only}")
            continue
        compare(out, f"{where}[{index}]", actual[index], want or {})
    out.extra(where, [a.name for a in actual], len(expected), what)


def _selections(out: Mismatch, where: str, actual: tuple[SelectionState, ...],
                expected: list[Any]) -> None:
    _in_order(out, where, actual, expected, "selections", _selection,
              only=str([s.name for s in actual]))


def _selection(out: Mismatch, where: str, selection: SelectionState, want: dict[str, Any]
               ) -> None:
    for key, attribute in (("name", "name"), ("type", "type"), ("number", "number")):
        if want.get(key) is not None:
            out.check(f"{where}.{key}", getattr(selection, attribute), want[key])
    out.check(f"{where}.hidden", selection.hidden, want.get("hidden") or False)
    for key, attribute in (("entryId", "entry_id"), ("page", "page"),
                           ("publicationId", "publication_id"),
                           ("publicationName", "publication_name"),
                           ("entryGroupId", "entry_group_id"), ("customName", "custom_name"),
                           ("customNotes", "custom_notes")):
        if want.get(key) is not None:
            out.check(f"{where}.{key}", getattr(selection, attribute) or "", want[key])
    if want.get("costs") is not None:
        _costs(out, f"{where}.costs", selection.costs, want["costs"])
    if want.get("profiles") is not None:
        _profiles(out, f"{where}.profiles", selection.profiles, want["profiles"])
    if want.get("rules") is not None:
        _rules(out, f"{where}.rules", selection.rules, want["rules"])
    if want.get("categories") is not None:
        _categories(out, f"{where}.categories", selection.categories, want["categories"])
    if want.get("children") is not None:
        _selections(out, f"{where}.children", selection.children, want["children"])
    if want.get("childCount") is not None:
        out.check(f"{where}.childCount", len(selection.children), want["childCount"])


def _forces(out: Mismatch, where: str, actual: tuple[ForceState, ...], expected: list[Any]
            ) -> None:
    _in_order(out, where, actual, expected, "forces", _force, only="forces")


def _force(out: Mismatch, where: str, force: ForceState, want: dict[str, Any]) -> None:
    for key, attribute in (("name", "name"), ("entryId", "entry_id")):
        if want.get(key) is not None:
            out.check(f"{where}.{key}", getattr(force, attribute) or "", want[key])
    if want.get("selectionCount") is not None:
        out.check(f"{where}.selectionCount", len(force.selections), want["selectionCount"])
    if want.get("availableEntryCount") is not None:
        out.check(f"{where}.availableEntryCount", force.available_entry_count,
                  want["availableEntryCount"])
    out.check(f"{where}.hidden", force.hidden, want.get("hidden") or False)
    if want.get("childForceCount") is not None:
        out.check(f"{where}.childForceCount", len(force.forces), want["childForceCount"])
    if want.get("childForces") is not None:
        _forces(out, f"{where}.childForces", force.forces, want["childForces"])
    if want.get("selections") is not None:
        _selections(out, f"{where}.selections", force.selections, want["selections"])
    if want.get("profiles") is not None:
        _profiles(out, f"{where}.profiles", force.profiles, want["profiles"])
    if want.get("rules") is not None:
        _rules(out, f"{where}.rules", force.rules, want["rules"])
    if want.get("categoryCount") is not None:
        out.check(f"{where}.categoryCount", len(force.categories), want["categoryCount"])
    if want.get("categories") is not None:
        _categories(out, f"{where}.categories", force.categories, want["categories"])
    if want.get("publications") is not None:
        _publications(out, f"{where}.publications", force.publications,
                      want["publications"])
    for key, attribute in (("publicationId", "publication_id"), ("page", "page"),
                           ("catalogueName", "catalogue_name"),
                           ("catalogueId", "catalogue_id"), ("customName", "custom_name"),
                           ("customNotes", "custom_notes")):
        if want.get(key) is not None:
            out.check(f"{where}.{key}", getattr(force, attribute) or "", want[key])


def _publications(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]
                  ) -> None:
    _each_found(out, where, actual, expected, "publications", lambda *_: None, by_id="id",
                shown=lambda p: p.id)


def _target_entry(entry_id: str | None) -> str | None:
    """The entry a spec names an owner by: a link-reached one by its target entry."""
    return entry_id.split("::")[-1] if entry_id is not None else None


def _error_matches(error: ValidationError, want: dict[str, Any]) -> bool:
    kind, _, entry = str(want.get("on", "")).strip().partition(" ")
    if error.owner_kind != kind:
        return False
    if entry.strip() and _target_entry(error.owner_entry_id) != entry.strip():
        return False
    if error.source != str(want.get("from", "")):
        return False
    contains = want.get("messageContains")
    return contains is None or str(contains).lower() in error.message.lower()


def _shown(errors: tuple[ValidationError, ...]) -> list[str]:
    return [f"{e.owner_kind} {e.owner_entry_id or ''} from {e.source}" for e in errors]


def _match(out: Mismatch, errors: tuple[ValidationError, ...], wanted: list[dict[str, Any]],
           exact: bool) -> None:
    """Each assertion takes the first error it matches that no earlier one took."""
    taken: set[int] = set()
    for want in wanted:
        index = next((i for i, e in enumerate(errors)
                      if i not in taken and _error_matches(e, want)), None)
        if index is None:
            out.problems.append(f"errors: no {want} among {_shown(errors)}")
        else:
            taken.add(index)
    if exact and len(errors) != len(wanted):
        out.problems.append(f"errors: {len(errors)} {_shown(errors)} (expected "
                            f"{len(wanted)})")


def _errors(out: Mismatch, errors: tuple[ValidationError, ...], want: dict[str, Any]) -> None:
    exact, subset, count = (want.get("errors"), want.get("errorsContain"),
                            want.get("errorCount"))
    if exact is not None and subset is not None:
        out.problems.append("errors and errorsContain are mutually exclusive")
        return
    if exact is not None:
        _match(out, errors, exact, exact=True)
    if subset is not None:
        _match(out, errors, subset, exact=False)
    if count is not None and len(errors) != count:
        out.problems.append(f"errorCount: {len(errors)} {_shown(errors)} (expected {count})")
    if exact is None and subset is None and count is None and errors:
        out.problems.append(f"errors: {_shown(errors)} (expected none)")


def compare(state: RosterState, expected: dict[str, Any]) -> list[str]:
    want = _for_engine(expected)
    out = Mismatch()
    if want.get("forceCount") is not None:
        out.check("forceCount", len(state.forces), want["forceCount"])
    if want.get("costCount") is not None:
        out.check("costCount", len(state.costs), want["costCount"])
    if want.get("costs") is not None:
        _costs(out, "costs", state.costs, want["costs"])
    if want.get("costLimitCount") is not None:
        out.check("costLimitCount", len(state.cost_limits), want["costLimitCount"])
    if want.get("costLimits") is not None:
        _costs(out, "costLimits", state.cost_limits, want["costLimits"])
    for key, attribute in (("gameSystemName", "game_system_name"),
                           ("gameSystemId", "game_system_id"), ("name", "name")):
        if want.get(key) is not None:
            out.check(key, getattr(state, attribute) or "", want[key])
    if want.get("forces") is not None:
        _forces(out, "forces", state.forces, want["forces"])
    if want.get("selectionCount") is not None:
        out.check("selectionCount", sum(len(f.selections) for f in state.forces),
                  want["selectionCount"])
    _errors(out, state.errors, want)
    return out.problems


# -- running ----------------------------------------------------------------------
@dataclass
class Outcome:
    spec_id: str
    passed: bool
    skipped: str | None = None
    problem: str = ""


class Run:
    """One spec's steps against the engine."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.data = build_data(spec["setup"])
        self.roster = actions.new_roster(spec["id"])
        self.outputs: dict[str, dict[str, Any]] = {}

    def substitute(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value

        def lookup(match: re.Match[str]) -> str:
            step, path = match.group(1), match.group(2).split(".")
            found: Any = self.outputs.get(step)
            for part in path:
                if not isinstance(found, dict) or part not in found:
                    raise SpecFailure(f"no {match.group(0)} (step outputs: "
                                      f"{self.outputs.get(step)})")
                found = found[part]
            return str(found)
        return TEMPLATE.sub(lookup, value)

    def step_inputs(self, step: dict[str, Any]) -> dict[str, Any]:
        inputs = {k: self.substitute(v) for k, v in step.items()
                  if k not in ("engines", "expectedState", "expectedFile")}
        override = (step.get("engines") or {}).get(ENGINE)
        if override:
            inputs.update({k: self.substitute(v) for k, v in override.items()})
        return inputs

    def act(self, step: dict[str, Any]) -> dict[str, Any]:
        inputs = self.step_inputs(step)
        action = inputs["action"]
        data, roster = self.data, self.roster
        output: dict[str, Any] = {}
        if action in ("addForce", "addChildForce"):
            parent = inputs.get("forceId") if action == "addChildForce" else None
            roster, force_id = actions.add_force(data, roster, inputs["forceEntryId"],
                                                 inputs.get("catalogueId"), parent)
            output["forceId"] = force_id
            output["selections"] = self._auto_selected(roster, force_id)
        elif action == "removeForce":
            roster = actions.remove_force(roster, inputs["forceId"])
        elif action == "duplicateForce":
            roster, force_id = actions.duplicate_force(roster, inputs["forceId"])
            output["forceId"] = force_id
        elif action in ("selectEntry", "selectChildEntry"):
            parent = inputs.get("selectionId") if action == "selectChildEntry" else None
            roster, selection_id = actions.select_entry(data, roster, inputs["forceId"],
                                                        inputs["entryId"], parent)
            output["selectionId"] = selection_id
        elif action == "deselectSelection":
            roster = actions.deselect(data, roster, inputs["selectionId"])
        elif action == "setSelectionCount":
            roster = actions.set_count(roster, inputs["selectionId"], int(inputs["count"]))
        elif action == "duplicateSelection":
            roster, selection_id = actions.duplicate_selection(roster, inputs["selectionId"])
            output["selectionId"] = selection_id
        elif action == "setCostLimit":
            roster = actions.set_cost_limit(roster, inputs["costTypeId"],
                                            Decimal(str(inputs["value"])))
        elif action == "setCustomization":
            roster = actions.customize(roster, force_id=inputs.get("forceId"),
                                       selection_id=inputs.get("selectionId"),
                                       category_id=inputs.get("categoryEntryId"),
                                       name=inputs.get("customName"),
                                       notes=inputs.get("customNotes"))
        elif action == "reload":
            roster = read_roster(data, write_roster(data, roster), "reload.ros")
        elif action == "loadRoster":
            roster = read_roster(data, inputs["content"].encode(), "loadRoster.ros")
        elif action == "dump":
            pass
        else:
            raise SpecFailure(f"unknown action {action!r}")
        self.roster = roster
        return output

    def _auto_selected(self, roster: Roster, force_id: str) -> dict[str, str]:
        found: dict[str, str] = {}
        force = next(f for f in actions.forces_of(roster) if f.id == force_id)
        for selection in force.selections:
            option = selection.option
            for key in (option.entry_id, option.definition.id,
                        option.link.id if option.link is not None else None):
                if key is not None:
                    found.setdefault(key, selection.id)
        return found

    def run(self) -> Outcome:
        spec_id = self.spec["id"]
        skipped: str | None = None
        for number, step in enumerate(self.spec["steps"], start=1):
            if ENGINE in (step.get("skipEngines") or []):
                continue
            label = f"step {number}"
            try:
                if "action" in step:
                    output = self.act(step)
                    if step.get("id"):
                        self.outputs[step["id"]] = output
                elif "expectedState" in step:
                    state = roster_state(self.data, self.roster,
                                         Evaluation(self.data, self.roster))
                    problems = compare(state, step["expectedState"] or {})
                    if problems:
                        return Outcome(spec_id, False, None,
                                       f"{label}: {'; '.join(problems[:3])}")
                elif "expectedFile" in step:
                    skipped = SKIP_REASONS["expectedFile"]
            except (RosterActionError, DataError, SpecFailure, KeyError) as error:
                return Outcome(spec_id, False, None, f"{label}: {type(error).__name__}: "
                                                     f"{error}")
        return Outcome(spec_id, True, skipped)


def spec_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.yaml") if p.is_file())


def run_spec(path: Path) -> Outcome:
    spec = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    spec_id = spec.get("id", path.stem)
    if (spec.get("engines") or {}).get(ENGINE) == "skip":
        return Outcome(spec_id, False, f"the spec skips {ENGINE}")
    if "dataSource" in (spec.get("setup") or {}):
        return Outcome(spec_id, False, SKIP_REASONS["dataSource"])
    try:
        return Run(spec).run()
    except (DataError, RosterActionError, SpecFailure) as error:
        return Outcome(spec_id, False, None, f"setup: {error}")
    except Exception as error:  # one spec's crash must not hide the rest
        return Outcome(spec_id, False, None, f"crash: {type(error).__name__}: {error}")


def run_folder(folder: Path) -> list[Outcome]:
    return [run_spec(path) for path in spec_files(folder)]


def summary(outcomes: list[Outcome]) -> str:
    skipped = [o for o in outcomes if o.skipped]
    passed = sum(1 for o in outcomes if o.passed and not o.skipped)
    reasons: dict[str, int] = {}
    for outcome in skipped:
        assert outcome.skipped is not None
        reasons[outcome.skipped] = reasons.get(outcome.skipped, 0) + 1
    why = ", ".join(f"{count} {reason}" for reason, count in reasons.items())
    return (f"bsspec: {passed}/{len(outcomes)} specs pass ({len(skipped)} skipped"
            + (f": {why})" if why else ")"))


def failures(outcomes: list[Outcome]) -> Iterator[str]:
    for outcome in outcomes:
        if not outcome.passed and not outcome.skipped:
            yield f"FAIL {outcome.spec_id}: {outcome.problem}"


def main(argv: list[str] | None = None, write: Callable[[str], object] = print) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    folder = Path(arguments[0]) if arguments else DEFAULT_FOLDER
    if not folder.is_dir():
        write(f"bsspec: no folder of specs at {folder}")
        return 2
    outcomes = run_folder(folder)
    for line in failures(outcomes):
        write(line)
    write(summary(outcomes))
    return 0 if all(o.passed or o.skipped for o in outcomes) else 1
