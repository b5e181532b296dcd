"""Right-click menus of the battlefield, built here so the window only has to show them.

On a unit: Select, Reform (a width per action, greyed with the engine's reason where it
would be refused), Disengage, Turn to face (an enemy), Charge
(an enemy). On the table: Fit table, the ruler and the select tool. Every action goes
through the scene (`reform_selected`, `disengage_selected`, `propose_moves`), which asks
the engine; nothing here decides a rule.
"""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QMenu

from desktop.engine import moves
from desktop.engine.errors import MoveRefused
from desktop.engine.geometry import heading_of

if TYPE_CHECKING:
    from desktop.engine.model import Battle
    from desktop.gui.battlefield.view import BattlefieldView

MAX_WIDTHS: Final = 12  # reform widths offered in the menu, nearest the current one first
MAX_ENEMIES: Final = 8  # enemies offered to face or charge: the nearest ones


def reform_widths(models: int, files: int) -> list[int]:
    """Widths worth offering a unit of `models` standing `files` wide: every width from 1
    to its models, the nearest to the current one first, at most MAX_WIDTHS, in order."""
    widths = sorted((width for width in range(1, models + 1) if width != files),
                    key=lambda width: (abs(width - files), width))
    return sorted(widths[:MAX_WIDTHS])


def nearest_enemies(battle: Battle, unit_id: str) -> list[str]:
    """Units of other players on the table, nearest centre first (at most MAX_ENEMIES)."""
    player, centre = battle.player_of(unit_id), battle.states[unit_id].center
    enemies = [uid for uid in battle.on_table() if battle.player_of(uid) != player]
    enemies.sort(key=lambda uid: math.dist(battle.states[uid].center, centre))
    return enemies[:MAX_ENEMIES]


def context_menu(view: BattlefieldView, scene_pos: QPointF) -> QMenu:
    """The menu for a right click at `scene_pos`: the unit's there, else the table's."""
    scene = view.battlefield
    menu = QMenu(view)
    menu.setObjectName("battlefieldMenu")
    item = scene.unit_at(scene_pos, view.viewportTransform())
    battle = scene.battle
    if item is None or battle is None:
        menu.addAction("Fit table", view.fit_table)
        ruler = menu.addAction("Ruler", lambda: view.set_tool("ruler"))
        ruler.setCheckable(True)
        ruler.setChecked(view.tool.name == "ruler")
        clear = getattr(view.tool, "clear", None)
        if clear is not None:
            menu.addAction("Clear ruler", clear)
        menu.addAction("Select and move", lambda: view.set_tool("select"))
        return menu
    uid = item.unit_id
    state, name = battle.states[uid], battle.unit(uid).name
    if uid not in scene.selected_units():
        scene.select_units([uid])  # the menu acts on this unit, as the user sees it
    menu.addAction(f"Select {name}", lambda: scene.select_units([uid]))
    menu.addSeparator()
    reform = menu.addMenu("Reform")
    reform.setObjectName("reformMenu")
    for width in reform_widths(state.models, state.files):
        ranks = math.ceil(state.models / width)
        action = reform.addAction(
            f"{width} file{'s' if width != 1 else ''} ({ranks} rank{'s' if ranks != 1 else ''})",
            partial(_reform, view, uid, width))
        action.setData(width)
        # A width the engine would refuse is shown greyed, with why, rather than refused
        # after the player picks it.
        try:
            moves.reform(battle, uid, width)
        except MoveRefused as refused:
            action.setEnabled(False)
            action.setToolTip(scene.readable(refused))
            action.setStatusTip(scene.readable(refused))
    reform.setToolTipsVisible(True)
    reform.setEnabled(not reform.isEmpty() and not scene.read_only)
    disengage = menu.addAction("Disengage", lambda: _disengage(view, uid))
    disengage.setEnabled(bool(state.engaged_with) and not scene.read_only)
    face = menu.addMenu("Turn to face")
    face.setObjectName("faceMenu")
    charge = menu.addMenu("Charge")
    charge.setObjectName("chargeMenu")
    for enemy in nearest_enemies(battle, uid):
        label = battle.unit(enemy).name
        face.addAction(label, partial(_face, view, uid, enemy)).setData(enemy)
        charge.addAction(label, partial(_charge, view, uid, enemy)).setData(enemy)
    face.setEnabled(not face.isEmpty() and not scene.read_only)
    charge.setEnabled(not charge.isEmpty() and not scene.read_only)
    return menu


def _reform(view: BattlefieldView, uid: str, files: int) -> None:
    view.battlefield.select_units([uid])
    view.battlefield.reform_selected(files)


def _disengage(view: BattlefieldView, uid: str) -> None:
    view.battlefield.select_units([uid])
    view.battlefield.disengage_selected()


def _face(view: BattlefieldView, uid: str, enemy: str) -> None:
    """Turn in place towards the enemy's centre (the engine checks the turn)."""
    scene, battle = view.battlefield, view.battlefield.battle
    if battle is None:
        return
    (x, y), (ex, ey) = battle.states[uid].center, battle.states[enemy].center
    try:
        scene.propose_moves([moves.move_to(battle, uid, (x, y),
                                           facing=heading_of((ex - x, ey - y)))])
    except MoveRefused as refused:
        scene.message.emit(scene.readable(refused))


def _charge(view: BattlefieldView, uid: str, enemy: str) -> None:
    scene, battle = view.battlefield, view.battlefield.battle
    if battle is None:
        return
    try:
        scene.propose_moves(list(moves.charge(battle, uid, enemy)))
    except MoveRefused as refused:
        scene.message.emit(scene.readable(refused))
