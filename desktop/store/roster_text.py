"""A roster as text for forums and chat: plain text or Markdown.

Units are grouped by slot in the order the roster first uses them; each line carries the
unit's name, its profile, model count and points, then its statistics and notes.
"""

from __future__ import annotations

from collections.abc import Iterable

from desktop.engine.model import Army, Unit
from desktop.engine.rulesets import get_ruleset
from desktop.store.battlescribe import PROFILE_NOTE


def _line(text: str) -> str:
    """Text on one line: a name with a line break in it would split a unit's entry."""
    return " ".join(text.split())


def _groups(army: Army) -> list[tuple[str, list[Unit]]]:
    groups: dict[str, list[Unit]] = {}
    for unit in army.units:
        groups.setdefault(_line(unit.slot) or "Units", []).append(unit)
    return list(groups.items())


def _models(count: int) -> str:
    return f"{count} model" if count == 1 else f"{count} models"


def _stats(unit: Unit) -> str:
    return " ".join(f"{name}{value}" for name, value in unit.profile.stats.items())


def _headline(army: Army) -> str:
    limit = f" / {army.points_limit}" if army.points_limit else ""
    units = f"{len(army.units)} unit" + ("" if len(army.units) == 1 else "s")
    return (f"{get_ruleset(army.ruleset).name} · {army.points}{limit} points · {units} · "
            f"{_models(army.models)}")


def _details(unit: Unit) -> Iterable[str]:
    yield _stats(unit)
    if unit.upgrades:
        yield "Upgrades: " + ", ".join(sorted(unit.upgrades))
    if unit.profile.special_rules:
        yield "Special rules: " + ", ".join(sorted(unit.profile.special_rules))
    # Profile dumps from imports stay in the army file; a forum post does not need them.
    for note in unit.notes:
        if not note.startswith(PROFILE_NOTE):
            yield from filter(None, map(_line, note.splitlines()))


def roster_text(army: Army) -> str:
    lines = [_line(army.name), _headline(army)]
    for slot, units in _groups(army):
        lines += ["", f"{slot} ({sum(u.points for u in units)} points)"]
        for unit in units:
            lines.append(f"  {_line(unit.name)} [{_line(unit.profile.name)}], "
                         f"{_models(unit.models)}: {unit.points} points")
            lines += [f"      {detail}" for detail in _details(unit)]
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return "".join(f"\\{ch}" if ch in "\\`*_[]<>#|" else ch for ch in text)


def roster_markdown(army: Army) -> str:
    lines = [f"# {_escape(_line(army.name))}", "", f"*{_escape(_headline(army))}*"]
    for slot, units in _groups(army):
        lines += ["", f"## {_escape(slot)} — {sum(u.points for u in units)} points", ""]
        for unit in units:
            lines.append(f"- **{_escape(_line(unit.name))}** "
                         f"({_escape(_line(unit.profile.name))}) · "
                         f"{_models(unit.models)} · {unit.points} points")
            lines += [f"  - {_escape(detail)}" for detail in _details(unit)]
    return "\n".join(lines) + "\n"
