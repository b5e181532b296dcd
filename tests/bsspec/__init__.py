"""WarHub's battlescribe-spec roster specs, run against Rout's BattleScribe engine.

Each spec (YAML) holds setup data, actions and expected roster states. The runner writes
the setup as real `.gst`/`.cat` XML and reads it back through the engine's reader, drives
the engine's pure actions, and compares every expected state with what the engine shows,
as the suite's own runner does (`docs/spec-schema.json`, `docs/error-assertions.md`):
lists of forces, selections and categories in order, profiles and rules in any order,
costs by type, validation errors as an exact set (or a subset, or a count), and no error
at all when a state names none. Per-engine overrides apply only to an engine named `rout`.

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
def _for_engine(expected: dict[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in expected.items() if k != "engines"}
    override = (expected.get("engines") or {}).get(ENGINE)
    if override:
        merged.update(override)
    return merged


def _same_number(actual: Decimal | int, expected: Any) -> bool:
    return abs(Decimal(str(expected)) - Decimal(actual)) <= Decimal("1e-9")


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


def _costs(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any],
           every: bool = True) -> None:
    """Costs by type; `every`: the expected list names all of them (a selection's)."""
    if every and len(actual) != len(expected):
        out.problems.append(f"{where}: {len(actual)} costs "
                            f"{[(c.type_id, str(c.value)) for c in actual]} "
                            f"(expected {len(expected)})")
        return
    by_type = {c.type_id: c for c in actual}
    for index, cost in enumerate(expected):
        found = by_type.get(cost["typeId"]) if "typeId" in cost else actual[index]
        if found is None:
            out.problems.append(f"{where}: no cost of type {cost['typeId']}")
            continue
        label = f"{where}[{cost.get('typeId', index)}]"
        if "value" in cost:
            out.check(f"{label}.value", found.value, cost["value"])
        if "name" in cost:
            out.check(f"{label}.name", found.name, cost["name"])
        if "hidden" in cost:
            out.check(f"{label}.hidden", found.hidden, cost["hidden"])


def _info_matches(actual: Any, expected: dict[str, Any]) -> bool:
    probe = Mismatch()
    for key, attribute in (("name", "name"), ("typeId", "type_id"), ("typeName", "type_name"),
                           ("hidden", "hidden"), ("page", "page"),
                           ("publicationId", "publication_id"),
                           ("description", "description")):
        if key in expected:
            probe.check(key, getattr(actual, attribute), expected[key])
    if "characteristics" in expected:
        values = list(actual.characteristics)
        wanted = expected["characteristics"]
        if len(values) != len(wanted):
            return False
        for value, want in zip(values, wanted, strict=True):
            for key, attribute in (("name", "name"), ("typeId", "type_id"),
                                   ("value", "value")):
                if key in want:
                    probe.check(key, getattr(value, attribute), str(want[key]))
    return not probe.problems


def _unordered(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]) -> None:
    if len(actual) != len(expected):
        out.problems.append(f"{where}: {[a.name for a in actual]} "
                            f"(expected {[e.get('name') for e in expected]})")
        return
    left = list(actual)
    for want in expected:
        match = next((a for a in left if _info_matches(a, want)), None)
        if match is None:
            out.problems.append(f"{where}: nothing like {want} among "
                                f"{[(a.name, a) for a in left]}")
            return
        left.remove(match)


def _categories(out: Mismatch, where: str, actual: tuple[Any, ...], expected: list[Any]
                ) -> None:
    if len(actual) != len(expected):
        out.problems.append(f"{where}: {[c.name for c in actual]} "
                            f"(expected {[c.get('name') for c in expected]})")
        return
    for index, (category, want) in enumerate(zip(actual, expected, strict=True)):
        label = f"{where}[{index}]"
        for key, attribute in (("name", "name"), ("entryId", "id"), ("primary", "primary"),
                               ("customName", "custom_name"),
                               ("customNotes", "custom_notes")):
            if key in want:
                out.check(f"{label}.{key}", getattr(category, attribute), want[key])
        for key in ("profiles", "rules"):
            if want.get(key):
                out.problems.append(f"{label}.{key}: categories show no {key}")


def _selections(out: Mismatch, where: str, actual: tuple[SelectionState, ...],
                expected: list[Any]) -> None:
    if len(actual) != len(expected):
        out.problems.append(f"{where}: {[s.name for s in actual]} "
                            f"(expected {[s.get('name') for s in expected]})")
        return
    for index, (selection, want) in enumerate(zip(actual, expected, strict=True)):
        _selection(out, f"{where}[{index}]", selection, want or {})


def _selection(out: Mismatch, where: str, selection: SelectionState, want: dict[str, Any]
               ) -> None:
    simple = (("name", "name"), ("type", "type"), ("number", "number"), ("hidden", "hidden"),
              ("page", "page"), ("publicationId", "publication_id"),
              ("publicationName", "publication_name"), ("entryGroupId", "entry_group_id"),
              ("entryId", "entry_id"), ("customName", "custom_name"),
              ("customNotes", "custom_notes"))
    for key, attribute in simple:
        if key in want:
            out.check(f"{where}.{key}", getattr(selection, attribute), want[key])
    if "childCount" in want:
        out.check(f"{where}.childCount", len(selection.children), want["childCount"])
    if "costs" in want:
        _costs(out, f"{where}.costs", selection.costs, want["costs"])
    if "children" in want:
        _selections(out, f"{where}.children", selection.children, want["children"])
    if "profiles" in want:
        _unordered(out, f"{where}.profiles", selection.profiles, want["profiles"])
    if "rules" in want:
        _unordered(out, f"{where}.rules", selection.rules, want["rules"])
    if "categories" in want:
        _categories(out, f"{where}.categories", selection.categories, want["categories"])


def _forces(out: Mismatch, where: str, actual: tuple[ForceState, ...], expected: list[Any]
            ) -> None:
    if len(actual) != len(expected):
        out.problems.append(f"{where}: {[f.name for f in actual]} "
                            f"(expected {[f.get('name') for f in expected]})")
        return
    for index, (force, want) in enumerate(zip(actual, expected, strict=True)):
        _force(out, f"{where}[{index}]", force, want or {})


def _force(out: Mismatch, where: str, force: ForceState, want: dict[str, Any]) -> None:
    simple = (("name", "name"), ("hidden", "hidden"), ("publicationId", "publication_id"),
              ("page", "page"), ("entryId", "entry_id"), ("catalogueId", "catalogue_id"),
              ("catalogueName", "catalogue_name"), ("customName", "custom_name"),
              ("customNotes", "custom_notes"),
              ("availableEntryCount", "available_entry_count"))
    for key, attribute in simple:
        if key in want:
            out.check(f"{where}.{key}", getattr(force, attribute), want[key])
    if "selectionCount" in want:
        out.check(f"{where}.selectionCount", len(force.selections), want["selectionCount"])
    if "childForceCount" in want:
        out.check(f"{where}.childForceCount", len(force.forces), want["childForceCount"])
    if "categoryCount" in want:
        out.check(f"{where}.categoryCount", len(force.categories), want["categoryCount"])
    if "selections" in want:
        _selections(out, f"{where}.selections", force.selections, want["selections"])
    if "childForces" in want:
        _forces(out, f"{where}.childForces", force.forces, want["childForces"])
    if "profiles" in want:
        _unordered(out, f"{where}.profiles", force.profiles, want["profiles"])
    if "rules" in want:
        _unordered(out, f"{where}.rules", force.rules, want["rules"])
    if "categories" in want:
        _categories(out, f"{where}.categories", force.categories, want["categories"])
    if "publications" in want:
        shown = [(p.id, p.name) for p in force.publications]
        wanted = [(p.get("id"), p.get("name")) for p in want["publications"]]
        if len(shown) != len(wanted) or any(
                (w[0] is not None and w[0] != s[0]) or (w[1] is not None and w[1] != s[1])
                for s, w in zip(shown, wanted, strict=False)):
            out.problems.append(f"{where}.publications: {shown} (expected {wanted})")


def _error_matches(error: ValidationError, want: dict[str, Any]) -> bool:
    on = str(want.get("on", "")).split(None, 1)
    if on:
        if error.owner_kind != on[0]:
            return False
        if len(on) > 1:
            owner = error.owner_entry_id or ""
            if on[1] != owner and on[1] not in owner.split("::"):
                return False
    source = want.get("from")
    if source is not None:
        source = str(source)
        if error.source != source and not ("/" not in source
                                           and error.source.startswith(source + "/")):
            return False
    contains = want.get("messageContains")
    return contains is None or str(contains).lower() in error.message.lower()


def _match_all(errors: list[ValidationError], wanted: list[dict[str, Any]]) -> bool:
    """A one-to-one matching of every wanted error to a distinct actual one."""
    if not wanted:
        return True
    first, rest = wanted[0], wanted[1:]
    for index, error in enumerate(errors):
        if _error_matches(error, first) and _match_all(errors[:index] + errors[index + 1:],
                                                        rest):
            return True
    return False


def _errors(out: Mismatch, errors: tuple[ValidationError, ...], want: dict[str, Any]) -> None:
    shown = [f"{e.owner_kind} {e.owner_entry_id or ''} from {e.source}" for e in errors]
    if "errors" in want:
        wanted = want["errors"] or []
        if len(wanted) != len(errors) or not _match_all(list(errors), wanted):
            out.problems.append(f"errors: {shown} (expected {wanted})")
    elif "errorsContain" in want:
        if not _match_all(list(errors), want["errorsContain"] or []):
            out.problems.append(f"errors: {shown} (expected to contain "
                                f"{want['errorsContain']})")
    elif "errorCount" in want:
        if len(errors) != want["errorCount"]:
            out.problems.append(f"errorCount: {len(errors)} {shown} "
                                f"(expected {want['errorCount']})")
    elif errors:
        out.problems.append(f"errors: {shown} (expected none)")


def compare(state: RosterState, expected: dict[str, Any]) -> list[str]:
    want = _for_engine(expected)
    out = Mismatch()
    for key, attribute in (("name", "name"), ("gameSystemId", "game_system_id"),
                           ("gameSystemName", "game_system_name")):
        if key in want:
            out.check(key, getattr(state, attribute), want[key])
    if "forceCount" in want:
        out.check("forceCount", len(state.forces), want["forceCount"])
    if "selectionCount" in want:
        out.check("selectionCount", sum(len(f.selections) for f in state.forces),
                  want["selectionCount"])
    if "costCount" in want:
        out.check("costCount", len(state.costs), want["costCount"])
    if "costLimitCount" in want:
        out.check("costLimitCount", len(state.cost_limits), want["costLimitCount"])
    if "costs" in want:
        _costs(out, "costs", state.costs, want["costs"], every=False)
    if "costLimits" in want:
        _costs(out, "costLimits", state.cost_limits, want["costLimits"])
    if "forces" in want:
        _forces(out, "forces", state.forces, want["forces"])
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
