"""Right-click menus on the Armies tree, the roster table and the Battles list.

They offer the window's own actions (one shortcut, one enabled state, one check mark for
each) plus Copy to ▸ and Move to ▸ another army of the same ruleset. A right-click first
makes its row the current one, as a left click would, so every action acts on what the
player clicked. Building a menu and showing it are apart: tests build and grab menus (the
offscreen platform cannot show popups).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QObject, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QMenu

from desktop.gui.features import army_tree, rulesets

if TYPE_CHECKING:
    from desktop.gui.main_window import MainWindow


def _menu_text(name: str) -> str:
    return name.replace("&", "&&")  # an army called "Bread & Salt" is no mnemonic


class ContextMenus(QObject):
    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        for view, build in ((window.ui.armyTree, self.tree_menu),
                            (window.ui.rosterTable, self.roster_menu),
                            (window.ui.battleList, self.battle_menu)):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(
                lambda pos, view=view, build=build: self._popup(view, build(pos), pos))

    def _popup(self, view: QAbstractItemView, menu: QMenu | None, pos: QPoint) -> None:
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(view.viewport().mapToGlobal(pos))

    # The Armies tree

    def tree_menu(self, pos: QPoint) -> QMenu | None:
        """The menu for a right-click at `pos` in the tree's viewport."""

        window, ui = self.window, self.window.ui
        if window.workspace is None:
            return None
        index = ui.armyTree.indexAt(pos)
        army_id = index.data(army_tree.ARMY_ID_ROLE) if index.isValid() else None
        if not army_id:  # a ruleset row or the empty space below the armies
            return self._menu(ui.actionNewArmy, ui.actionImport, ui.actionOpenSamples)
        ui.armyTree.setCurrentIndex(index.siblingAtColumn(0))
        if index.data(army_tree.UNIT_ID_ROLE):
            return self._units_menu()
        window.ui.rosterTable.clearSelection()  # army-wide: no unit is meant
        return self._menu(ui.actionAddUnits, None, ui.actionArmySettings, ui.actionCloneArmy,
                          ui.actionSortBySlot, None, ui.actionExport, ui.actionExportPdf,
                          ui.actionPrint, None, ui.actionDeleteArmy)

    # The roster table

    def roster_menu(self, pos: QPoint) -> QMenu | None:
        """The menu for a right-click at `pos` in the roster's viewport."""
        window, ui = self.window, self.window.ui
        if window.current_army is None:
            return None
        view = ui.rosterTable
        index = view.indexAt(pos)
        army_wide = (ui.actionAddUnits, ui.actionSortBySlot, ui.actionGroupBySlot, None,
                     ui.actionArmySettings)
        if not index.isValid():
            return self._menu(*army_wide)
        selection = view.selectionModel()
        if not selection.isRowSelected(index.row(), index.parent()):
            # The press selects the row on most styles already; this makes sure of it.
            selection.select(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                             | QItemSelectionModel.SelectionFlag.Rows)
        menu = self._units_menu()
        menu.addSeparator()
        self._add(menu, army_wide)
        return menu

    # The Battles list

    def battle_menu(self, pos: QPoint) -> QMenu | None:
        """The menu for a right-click at `pos` in the Battles list's viewport: the battle's
        own actions on a battle (which it makes current), what makes a new one anywhere."""
        ui = self.window.ui
        making = (ui.actionNewBattle, ui.actionSampleBattles)
        index = ui.battleList.indexAt(pos)
        if not index.isValid():
            return self._menu(*making)
        ui.battleList.setCurrentIndex(index)
        menu = QMenu(self.window)
        opening = menu.addAction("Open")
        panel = self.window.battles
        opening.triggered.connect(lambda checked=False, row=index: panel.activate(row))
        menu.addSeparator()
        self._add(menu, (ui.actionRenameBattle, ui.actionDuplicateBattle,
                         ui.actionDeleteBattle, None, *making))
        return menu

    # Building

    def _units_menu(self) -> QMenu:
        """Edits of the selected units, and Copy to ▸ / Move to ▸ another army."""
        ui = self.window.ui
        menu = self._menu(ui.actionDuplicateUnit, ui.actionDeleteUnit, None)
        self._transfer_menu(menu, "&Copy to", copy=True)
        self._transfer_menu(menu, "&Move to", copy=False)
        return menu

    def _transfer_menu(self, menu: QMenu, title: str, *, copy: bool) -> None:
        window = self.window
        source = window.current_army
        units = [unit.id for unit in window.selected_units()]
        submenu = menu.addMenu(title)
        if source is None or window.workspace is None:
            return
        submenu.setEnabled(bool(units) and not window.workspace.read_only)
        targets = sorted((army for army in window.workspace.armies()
                          if army.ruleset == source.ruleset and army.id != source.id),
                         key=lambda army: (army.name.casefold(), army.id))
        for target in targets:
            action = submenu.addAction(_menu_text(target.name))
            # The ids are taken now: the selection may change before the click.
            action.triggered.connect(
                lambda checked=False, target_id=target.id: window.army_actions.transfer(
                    source.id, units, target_id, copy=copy))
        if not targets:
            none = submenu.addAction(f"No other {rulesets.get_ruleset(source.ruleset).name} army")
            none.setEnabled(False)

    def _menu(self, *actions: QAction | None) -> QMenu:
        menu = QMenu(self.window)
        self._add(menu, actions)
        return menu

    @staticmethod
    def _add(menu: QMenu, actions: tuple[QAction | None, ...]) -> None:
        for action in actions:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
