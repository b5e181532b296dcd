"""The resolution wizard driven from the keyboard: typed digits, Tab and Enter.

Each walk is compared with the engine run directly on the same answers, so the wizard
can only pass by asking the engine's questions and handing it the players' answers.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QSpinBox, QWizard

from desktop.engine.dice import D2D6, ScriptedRoller, SeededRoller
from desktop.engine.events import (
    ModifierApplied,
    RallyTest,
    UnitCaught,
    UnitEscaped,
    UnitFled,
    UnitPursued,
)
from desktop.engine.procedure import ScriptedAnswers, run
from desktop.engine.scenario import Scenario, load_scenario
from desktop.gui.wizard import ResolutionWizard, combats_from_selection
from desktop.gui.wizard.step_pages import ChoicePage, RollPage, SummaryPage
from desktop.gui.wizard.wizard import DISCARD, SUMMARY_ID

SCENARIOS = Path(__file__).resolve().parents[1] / "resources" / "scenarios"


def scenario_data(name: str) -> dict:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def scenario(name: str) -> tuple[Scenario, dict]:
    data = scenario_data(name)
    return load_scenario(data), data["resolve"]


def open_wizard(qtbot, scene: Scenario, resolve: dict, seed: int = 7) -> ResolutionWizard:
    prepared = {k: v for k, v in resolve.items() if k != "procedure"}
    wizard = ResolutionWizard(scene.battle, scene.procedure.name, prepared, seed=seed)
    # Closed at the end without the question Cancel asks (a test that wants it asks).
    qtbot.addWidget(wizard, before_close_func=lambda w: w.leave(DISCARD) if w.isVisible()
                    else None)
    wizard.show()
    qtbot.waitExposed(wizard)
    wizard.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=2000)
    return wizard


def focused():
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def enter(qtbot, wizard: ResolutionWizard) -> None:
    """Enter on whatever has the focus: the wizard's default button (Next/Finish) takes it."""
    before = wizard.currentId()
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: wizard.currentId() != before or not wizard.isVisible(),
                    timeout=2000)


def type_roll(qtbot, wizard: ResolutionWizard, faces: Sequence[int]) -> None:
    """Digits into the focused die; Tab only where a digit could still follow (1 on a d10)."""
    page = wizard.currentPage()
    assert isinstance(page, RollPage), f"expected a roll, got {type(page).__name__}"
    qtbot.waitUntil(lambda: focused() is page.fields[0], timeout=2000)
    for index, face in enumerate(faces):
        qtbot.keyClicks(focused(), str(face))
        if face * 10 <= page.fields[index].sides and index + 1 < len(faces):
            qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    enter(qtbot, wizard)


def walk(qtbot, wizard: ResolutionWizard, dice: Sequence[int], choices: dict[str, str]
         ) -> list[str]:
    """Answer every page from the keyboard: dice in order, choices by key (else default)."""
    enter(qtbot, wizard)  # the first page as prepared
    remaining = list(dice)
    seen = []
    while wizard.currentId() != SUMMARY_ID:
        page = wizard.currentPage()
        if isinstance(page, RollPage):
            assert page.roll is not None
            seen.append(page.roll.key)
            count = page.roll.dice.count
            type_roll(qtbot, wizard, remaining[:count])
            del remaining[:count]
        else:
            assert isinstance(page, ChoicePage) and page.choice is not None
            seen.append(page.choice.key)
            wanted = choices.get(page.choice.key, page.choice.default)
            # Arrow keys move through the options; Enter takes the checked one.
            for _ in page.buttons:
                if page.group.checkedButton().property("option_id") == wanted:
                    break
                qtbot.keyClick(focused(), Qt.Key.Key_Down)
            assert page.group.checkedButton().property("option_id") == wanted
            enter(qtbot, wizard)
    assert not remaining, f"dice left over: {remaining}"
    return seen


def engine_events(scene: Scenario, dice: Sequence[int], choices: dict[str, str]) -> list:
    session = run(scene.start(), ScriptedAnswers(ScriptedRoller(dice), choices))
    return session.events


def finish(qtbot, wizard: ResolutionWizard) -> None:
    with qtbot.waitSignal(wizard.accepted, timeout=2000):
        qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.result() == QWizard.DialogCode.Accepted


@pytest.mark.parametrize(("pursuit", "caught"), [((3, 3), False), ((6, 5), True)])
def test_w6_worked_example_elves_break_and_goblins_pursue(qtbot, pursuit, caught):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    dice = [3, 4, 5, 4, *pursuit]
    wizard = open_wizard(qtbot, scene, resolve)
    seen = walk(qtbot, wizard, dice, {})
    assert seen == ["break:elves", "pursue:goblins", "flee:elves", "pursue_roll:goblins"]
    summary = wizard.currentPage()
    assert isinstance(summary, SummaryPage)
    # The log's own sentences, clause ids included.
    assert any(line.startswith("Elf Archers are broken [W6-") for line in summary.lines)
    assert any(line.startswith("Goblin Spearmen pursue") and "catch Elf Archers" in line
               for line in summary.lines) == caught
    finish(qtbot, wizard)
    expected = engine_events(scene, dice, {})
    assert wizard.events == expected
    assert any(isinstance(e, UnitCaught) for e in wizard.events) == caught
    assert any(isinstance(e, UnitEscaped) for e in wizard.events) == (not caught)
    assert wizard.answers == [(3, 4), "pursue", (5, 4), pursuit]


def test_combat_page_scores_come_from_the_engine_and_follow_the_fields(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    score = wizard.input_page.findChild(QLabel, "combatScore0")
    # The log's words: the bonuses the engine counted (ranks and outnumbering from the table).
    assert score.text() == ("Orcs & Goblins 7 (wounds 3, ranks 3, outnumber 1); High Elves 4 "
                            "(wounds 4) — Orcs & Goblins win by 3")
    spin = wizard.input_page.findChild(QSpinBox, "wounds:elves")
    spin.setFocus()
    qtbot.waitUntil(lambda: focused() is spin)
    spin.selectAll()
    qtbot.keyClicks(focused(), "8")
    # A number counts once entered: moving on to the next field scores it.
    qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert score.text() == ("Orcs & Goblins 7 (wounds 3, ranks 3, outnumber 1); High Elves 8 "
                            "(wounds 8) — High Elves win by 1")
    # The engine now asks the Goblins to test, not the Elves.
    enter(qtbot, wizard)
    assert isinstance(wizard.currentPage(), RollPage)
    assert wizard.currentPage().roll.key == "break:goblins"


def test_wrong_face_is_refused_before_next(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    enter(qtbot, wizard)
    page = wizard.currentPage()
    assert isinstance(page, RollPage)
    qtbot.waitUntil(lambda: focused() is page.fields[0])
    qtbot.keyClicks(focused(), "7")
    assert page.fields[0].text() == ""
    assert "1 to 6" in page.error_label.text()
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    assert wizard.currentPage() is page  # Enter does nothing without all the dice
    qtbot.keyClicks(focused(), "3")
    assert focused() is page.fields[1]  # one digit fills a d6: on to the next die
    assert page.result_label.text() == ""
    qtbot.keyClicks(focused(), "4")
    # 3 + 4 + 3 (lost by 3) is above Ld 8, in the words of the page's sentence.
    assert page.result_label.text() == ("<b>3 + 4 + 3 = 10</b>, above Ld 8: "
                                        "<b>Elf Archers break</b>")
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_kensei_running_away_through_two_friends(qtbot):
    data = scenario_data("k1-ronin-run-through-ashigaru.json")
    data["units"].append({
        "id": "yari", "name": "Yari Ashigaru", "player": "Crane Clan",
        "profile": {"Mv": 10, "Init": 3, "Honor": 5, "W": 1, "AP": 2},
        "base_mm": [25, 25], "models": 6, "files": 6, "position": [60, 76], "facing": 270})
    scene = load_scenario(data)
    # Samurai fail twice and run 17 cm through both friends; the Ashigaru roll a 1 (a d10
    # face that takes Tab) and hold; the Yari roll 9 and run too, 10 + 9 cm.
    dice = [7, 9, 9, 8, 1, 9, 8, 9, 10, 9]
    wizard = open_wizard(qtbot, scene, data["resolve"])
    seen = walk(qtbot, wizard, dice, {})
    assert seen == ["honor_cv:samurai", "honor_cv:samurai:reroll", "run:samurai",
                    "honor_passed:ashigaru", "honor_passed:yari", "chase:oni",
                    "chase_roll:oni", "run:yari"]
    finish(qtbot, wizard)
    assert wizard.events == engine_events(scene, dice, {})
    fled = [e for e in wizard.events if isinstance(e, UnitFled)]
    assert [(e.unit, e.passed_through) for e in fled] == [
        ("samurai", ("ashigaru", "yari")), ("yari", ("samurai",))]
    assert {(e.unit, e.delta) for e in wizard.events if isinstance(e, ModifierApplied)} == {
        ("ashigaru", -1)}


def test_bp_combat_with_an_overrun(qtbot):
    scene, resolve = scenario("bp-two-combats.json")
    # The Goblins' Break test cannot hold (BP-B): the wizard rolls it and asks the rest.
    dice = [4, 3, 2, 2, 5, 2, 3, 3]
    wizard = open_wizard(qtbot, scene, resolve)
    highlighted: list[list[str]] = []
    wizard.highlightUnits.connect(highlighted.append)
    seen = walk(qtbot, wizard, dice, {})
    assert seen[:3] == ["flee_from:goblins", "flee:goblins", "overrun:silver_helms"]
    assert wizard.answers[0] == SeededRoller(7).roll(D2D6, "break test")
    assert highlighted[0][0] == "goblins" and "swordmasters" in highlighted[0]
    assert highlighted[-1] == []  # nothing stays lit once the choices are answered
    assert any("Silver Helms" in line and "pursue" in line
               for line in wizard.currentPage().lines)
    finish(qtbot, wizard)
    assert wizard.events == engine_events(scene, [*wizard.answers[0], *dice], scene.choices)
    overrun = [e for e in wizard.events if isinstance(e, UnitPursued) and not e.target]
    assert [e.unit for e in overrun] == ["silver_helms"]


def test_w6_start_of_turn_with_a_failed_rally(qtbot):
    data = scenario_data("w6-goblins-vs-elves.json")
    data["units"][1].update(status="fleeing", position=[36, 38])
    data["resolve"] = {"procedure": "start_of_turn", "player": "High Elves"}
    scene = load_scenario(data)
    wizard = open_wizard(qtbot, scene, data["resolve"])
    seen = walk(qtbot, wizard, [6, 5, 2, 3], {})
    assert seen == ["rally:elves", "flee:elves"]
    finish(qtbot, wizard)
    assert wizard.events == engine_events(scene, [6, 5, 2, 3], {})
    rally = next(e for e in wizard.events if isinstance(e, RallyTest))
    assert not rally.passed
    assert any(isinstance(e, UnitFled) and e.roll == 5 for e in wizard.events)


def back(qtbot, wizard: ResolutionWizard) -> None:
    before = wizard.currentId()
    qtbot.keyClick(focused(), Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: wizard.currentId() != before, timeout=2000)


def test_back_and_change_the_first_roll_rebuilds_what_follows(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    saved: list[list] = []
    wizard.answersChanged.connect(saved.append)
    enter(qtbot, wizard)
    type_roll(qtbot, wizard, [3, 4])  # 7 + 3 > Ld 8: the Elves break
    assert isinstance(wizard.currentPage(), ChoicePage)
    back(qtbot, wizard)
    page = wizard.currentPage()
    assert isinstance(page, RollPage) and [f.text() for f in page.fields] == ["3", "4"]
    qtbot.waitUntil(lambda: focused() is page.fields[0])
    page.fields[0].selectAll()
    type_roll(qtbot, wizard, [1, 1])  # 2 + 3 <= 8: they hold, nobody flees or pursues
    assert wizard.currentId() == SUMMARY_ID
    assert saved[-1] == [(1, 1)]
    assert wizard.events == engine_events(scene, [1, 1], {})
    last = wizard.currentPage().lines[-1]
    assert last.startswith("Elf Archers take a Break test on 2D6: 1 + 1 + 3 = 5, not above Ld 8")
    assert last.endswith("they hold [W6-BT-2]")
    back(qtbot, wizard)
    page = wizard.currentPage()
    qtbot.waitUntil(lambda: focused() is page.fields[0])
    page.fields[0].selectAll()
    type_roll(qtbot, wizard, [6, 6])
    choice = wizard.currentPage()
    assert isinstance(choice, ChoicePage) and choice.choice.key == "pursue:goblins"
    assert choice.group.checkedButton().property("option_id") == "pursue"  # the default
    assert saved[-1] == [(6, 6)]


def test_resume_lands_on_the_first_unanswered_page(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    wizard.resume([[3, 4], "pursue"])  # as JSON saved them
    page = wizard.currentPage()
    assert isinstance(page, RollPage) and page.roll.key == "flee:elves"
    assert wizard.answers == [(3, 4), "pursue"]
    type_roll(qtbot, wizard, [5, 4])
    type_roll(qtbot, wizard, [3, 3])
    assert wizard.events == engine_events(scene, [3, 4, 5, 4, 3, 3], {})


def test_roll_button_fills_valid_faces_from_the_shown_seed(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve, seed=1234)
    enter(qtbot, wizard)
    page = wizard.currentPage()
    qtbot.waitUntil(lambda: focused() is page.fields[0])
    for _ in page.fields:  # Tab past the dice to the Roll button, Space presses it
        qtbot.keyClick(focused(), Qt.Key.Key_Tab)
    assert focused() is page.roll_button
    qtbot.keyClick(focused(), Qt.Key.Key_Space)
    expected = SeededRoller(1234).roll(page.roll.dice, "break")
    assert page.faces() == expected
    assert all(1 <= face <= 6 for face in expected)
    assert "seed 1234" in page.seed_label.text()
    assert f"{sum(expected) + 3}</b>" in page.result_label.text()  # the sum, lost by 3
    enter(qtbot, wizard)
    assert wizard.answers == [expected]


def press_in_box(button: str, seen: list[str]) -> None:
    """When the next message box shows, note its text and press the button called
    `button` (a real click on it)."""
    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            QTimer.singleShot(10, poll)
            return
        seen.append(box.text())
        found = next(b for b in box.buttons() if b.text().replace("&", "") == button)
        QTest.mouseClick(found, Qt.MouseButton.LeftButton)

    QTimer.singleShot(10, poll)


def test_cancel_with_nothing_given_closes_at_once_and_changes_nothing(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    with qtbot.waitSignal(wizard.rejected, timeout=2000):
        qtbot.keyClick(focused(), Qt.Key.Key_Escape)
    assert not wizard.resolved and not wizard.keep_answers
    assert wizard.battle is scene.battle


def test_cancel_after_answers_asks_before_throwing_them_away(qtbot):
    """Escape, the Cancel button and the close button ask: go on, keep for later or
    discard; only the last two close the wizard, and nothing is applied either way."""
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    enter(qtbot, wizard)
    type_roll(qtbot, wizard, [6, 6])  # the Elves break: the pursue choice is next
    page = wizard.currentPage()
    seen: list[str] = []
    press_in_box("Go on", seen)
    qtbot.keyClick(focused(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: bool(seen), timeout=2000)
    assert seen[0].startswith("1 answer given so far")
    assert wizard.isVisible() and wizard.currentPage() is page  # nothing lost
    press_in_box("Discard", seen)
    cancel = wizard.button(QWizard.WizardButton.CancelButton)
    with qtbot.waitSignal(wizard.rejected, timeout=2000):
        QTest.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert not wizard.keep_answers and not wizard.resolved
    assert wizard.battle is scene.battle


def test_the_close_button_after_answers_can_keep_them_for_later(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    enter(qtbot, wizard)
    type_roll(qtbot, wizard, [6, 6])
    seen: list[str] = []
    press_in_box("Keep for later", seen)
    with qtbot.waitSignal(wizard.rejected, timeout=2000):
        wizard.close()  # what the window manager's close button asks for
    assert seen and wizard.keep_answers and wizard.answers == [(6, 6)]


def test_dice_typed_but_not_yet_taken_by_next_are_kept_when_leaving(qtbot):
    """Real dice were rolled and typed, the result shows, and the player presses Cancel
    before Next: the wizard asks, and Keep for later keeps those dice as the answer."""
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    enter(qtbot, wizard)
    page = wizard.currentPage()
    assert isinstance(page, RollPage)
    qtbot.waitUntil(lambda: focused() is page.fields[0], timeout=2000)
    for digit in "66":  # a face a d6 cannot add a digit to moves on to the next die
        qtbot.keyClicks(focused(), digit)
    assert page.faces() == (6, 6) and wizard.answers == []
    seen: list[str] = []
    press_in_box("Keep for later", seen)
    cancel = wizard.button(QWizard.WizardButton.CancelButton)
    with qtbot.waitSignal(wizard.rejected, timeout=2000):
        QTest.mouseClick(cancel, Qt.MouseButton.LeftButton)
    assert seen and seen[0].startswith("1 answer given so far")
    assert wizard.keep_answers and wizard.answers == [(6, 6)]


def test_typed_combat_results_are_not_thrown_away_without_asking(qtbot):
    scene, resolve = scenario("w6-goblins-vs-elves.json")
    wizard = open_wizard(qtbot, scene, resolve)
    spin = wizard.input_page.findChild(QSpinBox, "wounds:elves")
    spin.setFocus()
    qtbot.waitUntil(lambda: focused() is spin)
    spin.selectAll()
    qtbot.keyClicks(focused(), "6")
    seen: list[str] = []
    press_in_box("Go on", seen)
    qtbot.keyClick(focused(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: bool(seen), timeout=2000)
    assert "first page will be lost" in seen[0] and wizard.isVisible()


def test_combats_from_selection_follows_engagements():
    scene, _ = scenario("bp-two-combats.json")
    found = combats_from_selection(scene.battle, ["goblins"])
    assert len(found["combats"]) == 1
    sides = [[u["unit"] for u in side["units"]] for side in found["combats"][0]["sides"]]
    assert sorted(map(sorted, sides)) == [["goblins"], ["lions", "swordmasters"]]
    both = combats_from_selection(scene.battle, ["goblins", "silver_helms", "lions"])
    assert len(both["combats"]) == 2
    assert scene.procedure.parse(scene.battle, both)  # the engine reads it


def test_kensei_combat_page_says_what_its_numbers_are(qtbot):
    """A real-window retry of issue 20: Kensei's first page asked for a "Damage difference"
    and a "Confrontation value" with no word of what they are. Each says, with its clause,
    beside the field and in its tool tip."""
    scene, resolve = scenario("k1-ronin-run-through-ashigaru.json")
    wizard = open_wizard(qtbot, scene, resolve)
    page = wizard.currentPage()
    for name, clause in (("damage_difference", "K-RA-6"), ("confrontation_value", "K-RA-5")):
        note = page.findChild(QLabel, f"hint:{name}")
        assert note is not None and note.isVisible(), name
        assert clause in note.text()
        assert page.widgets[name].toolTip() == note.text()


def test_the_roll_button_stands_where_it_stood_whatever_the_dice(qtbot):
    """A real-window retry of issue 20: after 2D6 pages the Roll button moved right on a 3D6
    page, so a click where it had been landed in the third die."""
    scene, resolve = scenario("w6-four-units.json")
    wizard = open_wizard(qtbot, scene, resolve)
    enter(qtbot, wizard)
    where: dict[int, set[int]] = {}
    while wizard.currentId() != SUMMARY_ID and len(where) < 2:
        page = wizard.currentPage()
        if isinstance(page, RollPage):
            assert page.roll is not None
            button = page.roll_button
            where.setdefault(page.roll.dice.count, set()).add(
                button.mapTo(wizard, button.rect().topLeft()).x())
            type_roll(qtbot, wizard, [6] * page.roll.dice.count)
        else:
            enter(qtbot, wizard)
    assert set(where) == {2, 3}, where
    assert len(where[2] | where[3]) == 1, where
