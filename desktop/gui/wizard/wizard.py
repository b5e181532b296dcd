"""ResolutionWizard: a QWizard whose pages are the engine's requests.

Page ids: INPUT_ID for the first page, ROLL_BASE + k / CHOICE_BASE + k for the request at
step k, SUMMARY_ID last. Pages are made when first needed and reused; which one follows
is decided by what the engine asks once an answer is given (nextId). Answers are a list:
changing answer k on the way back replays answers[:k] + [new] and drops the later ones,
so every later page is rebuilt from the requests the new answer leads to.

A roll whose outcome is certain (`Roll.certain`: a test no roll can pass or none can fail)
gets no page: the wizard rolls it with its seeded roller, records the faces like any answer
(so a replay or a resume gives the same events) and the next page says it was passed.

Cancel, Escape and the close button after answers ask first: keep the answers for later
(they are saved as they are given), throw them away, or go on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget, QWizard, QWizardPage

from desktop.engine.dice import SeededRoller
from desktop.engine.errors import RuleError
from desktop.engine.events import CombatResolved, Event
from desktop.engine.model import Battle
from desktop.engine.procedure import Answer, Request, Resolution, Roll, Session, certainty
from desktop.engine.rulesets import get_ruleset
from desktop.engine.wording import said
from desktop.gui.fields import DoubleSpinBox, SpinBox
from desktop.gui.tasks import TaskRunner
from desktop.gui.wizard.forecast_view import ForecastView
from desktop.gui.wizard.input_pages import CombatPage, FieldsPage, InputPage
from desktop.gui.wizard.step_pages import ChoicePage, RollPage, StepPage, SummaryPage, as_answer

log = logging.getLogger(__name__)

INPUT_ID = 0
ROLL_BASE = 1000
CHOICE_BASE = 2000
SUMMARY_ID = 9000
PREVIEW_DELAY_MS = 120
MAX_STEPS = ROLL_BASE  # ids of the two kinds of step page must not meet
# What the question on leaving answers with (Cancel, the close button, the main window).
KEEP, DISCARD, STAY = "keep", "discard", "stay"


class ResolutionWizard(QWizard):
    """Walks the players through one resolution; Finish leaves its events in `events`.

    `battle` is the battle now; `procedure` a name in the ruleset's procedures; `prepared`
    the procedure's input as a scenario's "resolve" holds it (see combats_from_selection).
    Nothing is applied to anything: the caller applies `events` when the wizard is accepted.
    """

    answersChanged = Signal(list)  # every accepted answer so far: save them for a resume
    previewChanged = Signal(object, list)  # (battle the events start from, events)
    highlightUnits = Signal(list)  # unit ids a choice is about; [] when it is answered
    inputChanged = Signal(dict)  # the first page's input as it is being filled in

    def __init__(self, battle: Battle, procedure: str,
                 prepared: Mapping[str, Any] | None = None, *, seed: int | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resolutionWizard")
        self.battle = battle
        self.kind = get_ruleset(battle.ruleset).procedure(procedure)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
        self.roller = SeededRoller(self.seed)
        log.info("Resolution wizard for %s rolls with seed %s", procedure, self.seed)
        self.setWindowTitle(f"Resolve: {self.kind.description}")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.start_battle = battle  # the battle with the procedure's input set up
        # The events that set it up (engagements): stored before the resolution's own.
        self.setup_events: list[Event] = []
        self._mapping: dict[str, Any] | None = None
        self._resolution: Resolution | None = None
        self._session: Session | None = None  # the session after the answers on the way
        self._answers: list[Answer] = []
        self._next_after: dict[int, int] = {}
        # Steps answered without a page (certain rolls): the request and the faces rolled.
        self._passed: dict[int, tuple[Roll, Answer]] = {}
        # Set when the players leave: whether the answers so far are kept for a resume.
        self.keep_answers = False
        self.forecast_view: ForecastView | None = None
        prepared = dict(prepared or {})
        self.input_page: InputPage = (CombatPage(self, prepared)
                                      if "combats" in self.kind.fields
                                      else FieldsPage(self, prepared))
        self._prepared_input = self.input_page.mapping()  # to tell what the players typed
        self.setPage(INPUT_ID, self.input_page)
        self.setPage(SUMMARY_ID, SummaryPage(self))
        self.setStartId(INPUT_ID)
        self.currentIdChanged.connect(self._focus_page)
        # The preview runs the rest of the procedure on defaults: after the page is up, and
        # once for a burst of answers (a resume gives many at once).
        self._trial: tuple[int, object] | None = None  # see try_answer
        self._preview_timer = QTimer(self)
        self._preview_timer.setSingleShot(True)
        self._preview_timer.setInterval(PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self.send_preview)
        self.resize(720, 660)

    # --- what the lead reads -------------------------------------------------------------

    @property
    def forecast_area(self) -> QWidget:
        """An empty widget on the first page for the forecast chart."""
        return self.input_page.forecast_area

    def resolution_for(self, mapping: Mapping[str, Any]) -> Resolution:
        """The resolution `mapping` starts (a RuleError if the engine refuses it): from the
        battle after the procedure's setup events (units in a combat engaged)."""
        parsed = self.kind.parse(self.battle, mapping)
        return self.kind.resolution(self.kind.prepared(self.battle, parsed), parsed)

    @property
    def resolution(self) -> Resolution | None:
        """The resolution being answered, once the first page has been accepted."""
        return self._resolution

    @property
    def procedure_input(self) -> dict[str, Any]:
        """The input the answers answer (as the first page last read it), for a resume."""
        return dict(self._mapping or {})

    @property
    def answers(self) -> list[Answer]:
        return list(self._answers)

    @property
    def events(self) -> list[Event]:
        """The events of the resolution as answered so far (all of them once it is done)."""
        return list(self._session.events) if self._session is not None else []

    @property
    def resolved(self) -> bool:
        """Every request answered (QDialog.done is taken)."""
        return self._session is not None and self._session.done

    def resume(self, answers: Iterable[object]) -> None:
        """Give saved answers (as answersChanged sent them, or JSON lists) and land on the
        first page not answered yet; a refused answer stops there, its error shown."""
        if self.currentId() == -1:
            self.restart()
        self._answers = [a for a in (as_answer(v) for v in answers) if a is not None]
        self._mapping = None  # the input page's mapping is taken as the one they answer
        wanted = len(self._answers)
        while self.currentId() != SUMMARY_ID:
            page = self.currentPage()
            if isinstance(page, StepPage) and page.step >= wanted:
                break
            before = self.currentId()
            self.next()
            if self.currentId() == before:
                break

    def add_forecast(self, runner: TaskRunner) -> ForecastView:
        """The forecast on the first page, following the input and then the answers; its
        walks run on `runner`'s threads."""
        view = ForecastView(runner, self.forecast_area)
        layout = self.forecast_area.layout()
        assert layout is not None
        layout.addWidget(view)
        self.forecast_view = view

        def input_changed(mapping: dict[str, Any]) -> None:
            try:
                view.ask(self.resolution_for(mapping))
            except RuleError as error:
                view.refuse(str(error))

        self.inputChanged.connect(input_changed)
        self.answersChanged.connect(lambda answers: view.ask(self.resolution, answers))
        input_changed(self.input_page.mapping())
        return view

    # --- leaving before the end --------------------------------------------------------------

    def ask_to_leave(self, title: str = "Leave the resolution?") -> str:
        """KEEP, DISCARD or STAY, asked of the players when something would be lost: answers
        (which may be kept to go on later) or only what was typed on the first page."""
        # A number still being typed counts as entered (the fields take it on Enter or
        # leaving, and leaving the wizard would otherwise drop it unseen).
        focused = QApplication.focusWidget()
        if isinstance(focused, SpinBox | DoubleSpinBox) and focused.window() is self:
            focused.interpretText()
        # So do dice typed in full on the roll not answered yet: real dice were rolled, and
        # they could not be rolled again the same.
        page = self.currentPage()
        if (isinstance(page, RollPage) and page.step == len(self._answers)
                and page.faces() is not None):
            page.validatePage()  # refused dice stay unanswered, their error on the page
        typed = self.input_page.mapping() != self._prepared_input
        if not self._answers and not typed:
            return DISCARD  # nothing to lose
        count = len(self._answers)
        if count:
            them = "them" if count != 1 else "it"
            text = (f"{count} answer{'s' if count != 1 else ''} given so far. Keep {them} to "
                    f"go on later, or throw {them} away?")
        else:
            text = "What you entered on the first page will be lost."
        box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=self)
        box.setObjectName("leaveResolution")
        keep = (box.addButton("&Keep for later", QMessageBox.ButtonRole.AcceptRole)
                if count else None)
        discard = box.addButton("&Discard", QMessageBox.ButtonRole.DestructiveRole)
        stay = box.addButton("&Go on", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep or stay)
        box.setEscapeButton(stay)
        if count:
            box.setInformativeText("Kept answers are offered again the next time this "
                                   "battle opens or resolves anything.")
        box.exec()
        clicked = box.clickedButton()
        if keep is not None and clicked is keep:
            return KEEP
        return DISCARD if clicked is discard else STAY

    def reject(self) -> None:  # Qt override: Cancel, Escape and the close button
        choice = self.ask_to_leave()
        if choice == STAY:
            return
        self.keep_answers = choice == KEEP
        super().reject()

    def leave(self, choice: str) -> None:
        """Close as the main window's question decided (KEEP or DISCARD)."""
        self.keep_answers = choice == KEEP
        super().reject()

    # --- the engine, for the pages -----------------------------------------------------------

    def start(self, mapping: dict[str, Any]) -> None:
        """Read the input (a RuleError if the engine refuses it) and begin the session."""
        resolution = self.resolution_for(mapping)
        session = resolution.session()  # raises for input the procedure cannot take
        if self._mapping is not None and mapping != self._mapping:
            self._answers.clear()  # another combat: the old answers answer nothing
        self._mapping = mapping
        self.setup_events = self.kind.setup_events(self.battle,
                                                   self.kind.parse(self.battle, mapping))
        self.start_battle = resolution.battle
        self._resolution = resolution
        self._session = session
        self._passed.clear()
        given = len(self._answers)
        self._next_after = {-1: self._id_for(0)}
        if self._passed and len(self._answers) > given:
            self.answersChanged.emit(list(self._answers))  # the dice Rout rolled
        self._schedule_preview()

    def combat_results(self, mapping: Mapping[str, Any]) -> list[CombatResolved]:
        """The engine's scores for the combats in `mapping` (casualties removed first)."""
        session = self.resolution_for(mapping).session()
        return [event for event in session.events if isinstance(event, CombatResolved)]

    def id_after_input(self) -> int:
        return self._next_after.get(-1, SUMMARY_ID)

    def id_after(self, step: int) -> int:
        return self._next_after.get(step, SUMMARY_ID)

    def session_at(self, step: int) -> Session:
        """The session after the first `step` answers (replayed if it is not that one)."""
        assert self._resolution is not None
        if self._session is None or len(self._session.steps) != step:
            self._session = self._resolution.replay(self._answers[:step])
        return self._session

    def request_at(self, step: int) -> Request:
        request = self.session_at(step).pending
        assert request is not None, f"the resolution asks nothing at step {step}"
        return request

    def answer_at(self, step: int) -> Answer | None:
        return self._answers[step] if step < len(self._answers) else None

    def give(self, step: int, answer: object) -> None:
        """Answer the request at `step` (AnswerError/DiceError if the engine refuses it)."""
        session = self.session_at(step)
        session.answer(answer)
        accepted = session.answers[-1]
        if self.answer_at(step) != accepted:
            self._answers = [*self._answers[:step], accepted]
        self._next_after[step] = self._id_for(step + 1)
        self._trial = None
        self.answersChanged.emit(list(self._answers))
        self._schedule_preview()

    def passed_before(self, step: int) -> list[tuple[Roll, Answer]]:
        """The certain rolls answered without a page just before the request at `step`."""
        found: list[tuple[Roll, Answer]] = []
        while step - 1 in self._passed:
            step -= 1
            found.insert(0, self._passed[step])
        return found

    def passed_lines(self, step: int) -> list[str]:
        """Each certain roll before `step` in words: "Empire Swordsmen break whatever the
        dice: even 1 + 1 + 7 = 9 is above Ld 8 (W6-BT-2); Rout rolled 4 and 3 for the log"."""
        lines = []
        for request, faces in self.passed_before(step):
            assert request.certain is not None
            rolled = " and ".join(str(face) for face in faces) if isinstance(faces, tuple) \
                else str(faces)
            lines.append(f"{said(self.battle, request.unit, request.certain.label)} "
                         f"{certainty(request)} ({request.purpose}, {request.clause}); "
                         f"nothing to roll — Rout rolled {rolled} for the log")
        return lines

    def _pass_certain(self, step: int) -> int:
        """Answer the certain rolls from `step` on (a saved answer if there is one, else the
        seeded roller's); the first step that needs the players."""
        assert self._session is not None
        session = self._session
        while isinstance(session.pending, Roll) and session.pending.certain is not None:
            request = session.pending
            certain = request.certain
            assert certain is not None
            given = self.answer_at(step)
            try:
                session.answer(given if given is not None else
                               self.roller.roll(request.dice, f"{request.purpose} for "
                                                              f"{request.unit}"))
            except RuleError:  # a saved answer that does not fit: roll afresh
                session.answer(self.roller.roll(request.dice, request.purpose))
            accepted = session.answers[-1]
            if given != accepted:
                self._answers = [*self._answers[:step], accepted]
            log.info("Passed %s for %s (certain: %s), rolled %s", request.purpose,
                     request.unit, certain.label, accepted)
            self._passed[step] = (request, accepted)
            step += 1
        return step

    def _id_for(self, step: int) -> int:
        """The page for what the session asks at `step`, made if it is not there yet."""
        assert self._session is not None
        for later in [k for k in self._passed if k >= step]:
            del self._passed[later]
        step = self._pass_certain(step)
        request = self._session.pending
        if request is None:
            return SUMMARY_ID
        if step >= MAX_STEPS:
            raise RuntimeError("a resolution with more steps than the wizard has pages")
        page_id = (ROLL_BASE if isinstance(request, Roll) else CHOICE_BASE) + step
        if self.page(page_id) is None:
            page: QWizardPage = (RollPage(self, step) if isinstance(request, Roll)
                                 else ChoicePage(self, step))
            self.setPage(page_id, page)
        return page_id

    def _focus_page(self, _page_id: int) -> None:
        # Forward and Back alike the keyboard starts on the page's first field; later than
        # the wizard's own focus, which goes to a button.
        page = self.currentPage()
        field = page.first_field() if isinstance(page, StepPage) else None
        if field is not None:
            QTimer.singleShot(0, field, field.setFocus)

    def _schedule_preview(self) -> None:
        self._preview_timer.start()

    def try_answer(self, step: int, answer: object | None) -> None:
        """The table previews `answer` to the request at `step` (dice typed or rolled on
        its page, before Next takes them); None: the answers given so far."""
        self._trial = (step, answer) if answer is not None else None
        self._schedule_preview()

    def send_preview(self) -> None:
        if self._resolution is None:
            return
        answers: list[object] = list(self._answers)
        if self._trial is not None and self._trial[0] <= len(answers):
            step, answer = self._trial
            answers = [*answers[:step], answer]
        try:
            preview = self._resolution.preview(answers)
        except RuleError:  # dice the engine will refuse on Next, and say why then
            preview = self._resolution.preview(self._answers)
        self.previewChanged.emit(self.start_battle, list(preview.events))
