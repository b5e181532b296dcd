"""Resolutions from the battle panel: the wizard asks, the engine decides, Finish applies
every event as one undo step; each answer is saved so a resolution cut short can go on.

`Resolutions` belongs to a `BattlePanel` (desktop.gui.battle_panel) and works through it:
its battle, its workspace (the store), its scene and its status and log signals.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPointF, QRect
from PySide6.QtWidgets import QDialog, QMessageBox

from desktop.engine.answers import answers_to_json
from desktop.gui.features import moves, placement, resolution_wizard, rulesets
from desktop.store.errors import StoreError

if TYPE_CHECKING:
    from desktop.engine.events import Event
    from desktop.engine.model import Battle
    from desktop.gui.battle_panel import BattlePanel

# Which procedure each action runs, per ruleset (the first the ruleset has).
COMBAT_PROCEDURES = ("combat_aftermath", "breaks_pursues", "combat")
TURN_PROCEDURES = ("start_of_turn", "new_turn")


class Resolutions(QObject):
    """The resolution wizard of one battle panel, and the unfinished one to resume."""

    def __init__(self, panel: BattlePanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.wizard: Any = None  # the resolution wizard while one is open
        # This window's name for the unfinished resolution it keeps (Store.save_pending).
        self.owner = os.urandom(8).hex()

    # Resolutions: the wizard asks, the engine decides, one undo step applies it all

    def procedures(self) -> tuple[str, ...]:
        battle = self.panel.battle
        return tuple(rulesets.get_ruleset(battle.ruleset).procedures) if battle is not None else ()

    def resolve_combat(self) -> None:
        battle = self.panel.battle
        chosen = self.panel.scene.selected_units()
        if battle is None:
            return
        if not chosen or not any(battle.states[uid].engaged_with for uid in chosen):
            self.panel.status.emit("Select a unit in combat (engaged) to resolve its combat")
            return
        procedures = self.procedures()
        if "combat" in procedures:  # Kensei: one unit's defeat at a time
            engaged = next(uid for uid in chosen if battle.states[uid].engaged_with)
            self.resolve("combat", {"unit": engaged})
            return

        name = next(n for n in COMBAT_PROCEDURES if n in procedures)
        self.resolve(name, resolution_wizard.combats_from_selection(battle, chosen))

    def start_of_turn(self) -> None:
        procedures = self.procedures()
        name = next((n for n in TURN_PROCEDURES if n in procedures), "")
        if not name:
            self.panel.status.emit("This ruleset has nothing to resolve at the start of a turn")
            return
        self.resolve(name, {})

    def next_turn(self) -> None:
        """The next turn begins (what lasted a turn runs out), then its start is resolved."""

        battle = self.panel.battle
        if battle is None or self.panel.workspace is None:
            return
        if "new_turn" in self.procedures():  # Kensei's own resolution begins the turn
            self.resolve("new_turn", {})
            return
        # Its event is logged as every event is ("Turn 2 begins"), once.
        self.panel.workspace.apply([moves.begin_turn(battle)], f"Begin turn {battle.turn + 1}")
        if "start_of_turn" in self.procedures():
            self.start_of_turn()

    def _resolve_selected(self, procedure: str, fields: Sequence[str]) -> None:
        chosen = self.panel.scene.selected_units()
        self.resolve(procedure, dict(zip(fields, chosen, strict=False)))

    def resolve(self, procedure: str, prepared: Mapping[str, Any],
                answers: Sequence[object] = ()) -> None:
        """Open the resolution wizard, the window locked meanwhile; Finish applies its events
        as one step.

        With `answers` (a resumed resolution) it goes on from the first one not given."""
        battle = self.panel.battle
        if battle is None or self.panel.workspace is None or self.wizard is not None:
            return
        # Another window's unfinished resolution is not written over; this window's own,
        # kept for later, comes first: the players may go on with it instead.
        current = self.panel.workspace.current_id
        if not answers and current and (self._kept_elsewhere() or self.offer_resume(current)):
            return
        wizard = resolution_wizard.ResolutionWizard(battle, procedure, prepared,
                                                    parent=self.panel.window)
        self.panel.window.lock_while_open(wizard)
        wizard.previewChanged.connect(
            lambda start, events: self._preview(wizard, start, events))
        wizard.highlightUnits.connect(lambda ids: self.panel.scene.select_units(list(ids)))
        wizard.finished.connect(lambda result: self._resolved(wizard, result))
        wizard.answersChanged.connect(lambda answers: self._save_pending(wizard, answers))
        wizard.add_forecast(self.panel.workspace.runner)
        self.wizard = wizard
        self.panel.update_actions()
        self._place(wizard)
        wizard.show()  # not open(): that makes it window-modal
        # The keyboard goes to the wizard at once: digits and Enter alone walk it.
        wizard.activateWindow()
        if answers:
            wizard.resume(answers)

    def _preview(self, wizard: Any, start: Battle, events: Sequence[Event]) -> None:
        """The wizard's preview on the table, while it is open: one its timer sends after
        Finish or Cancel would cover the result (or the battle as it was) with ghosts."""
        if self.wizard is wizard:
            self.panel.scene.show_preview(start, events)

    def _place(self, wizard: Any) -> None:
        """Beside the table's centre rather than over it: its preview is drawn there."""


        window, view = self.panel.window, self.panel.view
        screen = window.screen()
        battle = self.panel.battle
        if screen is None or battle is None:
            return
        viewport = view.viewport()
        units = [viewport.mapToGlobal(view.mapFromScene(QPointF(*battle.states[uid].center)))
                 for uid in self.panel.scene.selected_units() if uid in battle.states]
        place = placement.beside_the_table(
            window=window.frameGeometry(),
            table=QRect(viewport.mapToGlobal(viewport.rect().topLeft()), viewport.size()),
            units=units, screen=screen.availableGeometry(), wanted=wizard.size(),
            least=wizard.sizeHint())
        wizard.resize(place.size())
        wizard.move(place.topLeft())

    def _resolved(self, wizard: Any, result: int) -> None:
        self.wizard = None
        battle = self.panel.battle
        self.panel.scene.show_battle(battle)  # the preview ends either way
        kept = result != QDialog.DialogCode.Accepted and wizard.keep_answers
        if not kept:
            self._drop_pending()
        self.panel.update_actions()
        if battle is None or self.panel.workspace is None:
            return
        if kept:
            count = len(wizard.answers)
            kept_what = "its answer is" if count == 1 else f"its {count} answers are"
            self.panel.status.emit(
                f"Resolution put aside: {kept_what} kept, and offered again the next time "
                "this battle resolves anything")
            return
        if result != QDialog.DialogCode.Accepted or not wizard.resolved:
            self.panel.status.emit("Resolution cancelled: nothing changed")
            return
        # The procedure's setup (its combats' engagements) is stored as events too, so the
        # stored battle stays the fold of its steps.
        events: list[Event] = [*wizard.setup_events, *wizard.events]
        title = wizard.kind.description
        self.panel.workspace.apply(events, f"Resolve: {title}", animate=True)

    # Every answer is saved at once: a resolution cut short by a crash can go on

    def _save_pending(self, wizard: Any, answers: Sequence[object]) -> None:
        if self.panel.workspace is None or not self.panel.workspace.current_id:
            return
        try:
            self.panel.workspace.store.save_pending(
                self.panel.workspace.current_id, wizard.kind.name, wizard.procedure_input,
                answers_to_json(answers), wizard.kind.description, owner=self.owner)
        except StoreError as error:  # the wizard goes on; only a resume would be lost
            self.panel.status.emit(f"Could not save the answers so far: {error}")

    def _drop_pending(self) -> None:
        if self.panel.workspace is not None and self.panel.workspace.current_id:
            try:
                self.panel.workspace.store.drop_pending(self.panel.workspace.current_id,
                                                        owner=self.owner)
            except StoreError as error:
                self.panel.status.emit(str(error))

    def offer_resume(self, battle_id: str) -> bool:
        """Offer to go on with the battle's unfinished resolution, if it has one; True when
        the players took it up (its wizard is open)."""
        if (self.panel.workspace is None or self.wizard is not None
                or self.panel.workspace.store.read_only):  # it could be neither kept nor dropped
            return False
        try:
            pending = self.panel.workspace.store.load_pending(battle_id)
        except StoreError as error:
            self.panel.report_failure(str(error))
            return False
        if pending is None or not pending.answers:
            return False
        answer = QMessageBox.question(
            self.panel.window, "Unfinished resolution",
            f"{pending.title or pending.procedure} was left after "
            f"{counted(len(pending.answers), 'answer')}. Go on from there? (No drops it.)")
        if answer == QMessageBox.StandardButton.Yes:
            self._take_over(battle_id)
            return self.wizard is not None
        try:
            self.panel.workspace.store.drop_pending(battle_id)
        except StoreError as error:
            self.panel.status.emit(str(error))
        return False

    def _kept_elsewhere(self) -> bool:
        """A battle keeps one unfinished resolution: when another window's (or one a killed
        window left) is kept, say so and offer to go on with it here instead of a new one."""
        workspace = self.panel.workspace
        if workspace is None or not workspace.current_id or workspace.store.read_only:
            return False
        try:
            pending = workspace.store.load_pending(workspace.current_id)
        except StoreError as error:
            self.panel.report_failure(str(error))
            return True
        if pending is None or pending.owner == self.owner:
            return False
        answer = QMessageBox.question(
            self.panel.window, "A resolution is under way",
            f"{pending.title or pending.procedure} was begun on this battle and not finished "
            f"({counted(len(pending.answers), 'answer')} so far) — perhaps in another window, "
            "perhaps in one that closed. A battle keeps one unfinished resolution. Go on with "
            "it here?")
        if answer == QMessageBox.StandardButton.Yes:
            self._take_over(workspace.current_id)
        else:
            self.panel.status.emit("The unfinished resolution is kept as it was; nothing new "
                                   "was begun")
        return True

    def _take_over(self, battle_id: str) -> None:
        assert self.panel.workspace is not None
        try:
            pending = self.panel.workspace.store.claim_pending(battle_id, self.owner)
        except StoreError as error:
            self.panel.report_failure(str(error))
            return
        if pending is not None:
            self.resolve(pending.procedure, pending.procedure_input, pending.answers)


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
