"""A roster as text for forums and chat: plain text or Markdown.

Both lay out the roster sheet (`desktop.store.roster_sheet`), as the printout does: slots
in the ruleset's order with their points; each unit's name, profile, model count and points,
then its statistics, upgrades, wargear, magic items, special rules and notes; then the
army's warnings.
"""

from __future__ import annotations

from collections.abc import Iterable

from desktop.engine.model import Army
from desktop.store.roster_sheet import RosterSheet, UnitSheet, details, plural, roster_sheet


def _details(unit: UnitSheet) -> Iterable[str]:
    yield unit.stat_line
    for label, text in details(unit):
        yield f"{label}: {text}" if label else text


def _warnings(sheet: RosterSheet) -> list[str]:
    return [warning.message for warning in sheet.warnings]


def roster_text(army: Army) -> str:
    sheet = roster_sheet(army)
    lines = [sheet.name, sheet.headline]
    for slot in sheet.slots:
        lines += ["", f"{slot.name} ({slot.points} points)"]
        for unit in slot.units:
            lines.append(f"  {unit.name} [{unit.profile}], {plural(unit.models, 'model')}: "
                         f"{unit.points} points")
            lines += [f"      {detail}" for detail in _details(unit)]
    if sheet.warnings:
        lines += ["", "Warnings", *(f"  {message}" for message in _warnings(sheet))]
    return "\n".join(lines) + "\n"


def _escape(text: str) -> str:
    return "".join(f"\\{ch}" if ch in "\\`*_[]<>#|" else ch for ch in text)


def roster_markdown(army: Army) -> str:
    sheet = roster_sheet(army)
    lines = [f"# {_escape(sheet.name)}", "", f"*{_escape(sheet.headline)}*"]
    for slot in sheet.slots:
        lines += ["", f"## {_escape(slot.name)} — {slot.points} points", ""]
        for unit in slot.units:
            lines.append(f"- **{_escape(unit.name)}** ({_escape(unit.profile)}) · "
                         f"{plural(unit.models, 'model')} · {unit.points} points")
            lines += [f"  - {_escape(detail)}" for detail in _details(unit)]
    if sheet.warnings:
        lines += ["", "## Warnings", "", *(f"- {_escape(message)}"
                                         for message in _warnings(sheet))]
    return "\n".join(lines) + "\n"
