"""Make the README's pictures with the app itself (offscreen):

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/make.py

A scratch database gets the sample armies and a battle in progress (both sides deployed,
terrain, a few moves and a charge, all checked by the engine), then the real main window
is pictured: the roster, and the battlefield with a selected unit's rings and a ruler.
The printout is page 1 of the PDF Rout prints for a real BattleScribe roster, drawn by
poppler's pdftoppm (`make.py printout` makes only that one; `make.py wizard` only the
wizard's three: its combat page, a roll page and the resolution finished).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def build_database(url: str) -> str:
    """Sample armies and one battle in progress; returns the battle's title."""
    from desktop.engine import moves
    from desktop.engine.events import Event, fold
    from desktop.engine.setup import deploy_army, new_battle
    from desktop.gui.army_files import sample_armies
    from desktop.store.store import Store

    armies = sample_armies()
    with Store.open(url) as store:
        for army in armies:
            store.save_army(army)
        fighting = [a for a in armies if a.ruleset == "warhammer6"]
        made = new_battle("warhammer6", fighting, title="Battle at the ford")
        battle = made.battle
        steps: list[list[Event]] = []

        def step(events: list[Event]) -> None:
            nonlocal battle
            battle = fold(battle, events)
            steps.append(events)

        for player in sorted({u.player for u in battle.roster.values()}):
            step(list(deploy_army(battle, player)))
        step([moves.place_terrain(battle, "ford-wood", [(28, 20), (39, 18), (42, 27), (31, 30)],
                                  name="Thorn wood")])
        step([moves.place_terrain(battle, "rocks", [(52, 16), (57, 15), (58, 20), (53, 21)],
                                  name="Standing stones", impassable=True)])
        by_name = {unit.name: uid for uid, unit in battle.roster.items()}
        for name, forward in (("Elf Wardens", 9.0), ("Elf Silver Riders", 14.0),
                              ("Hill Goblin Spearmen", 8.0), ("Orc Boar Riders", 12.0)):
            uid = by_name[name]
            x, y = battle.states[uid].center
            heading = 1.0 if battle.states[uid].facing == 90 else -1.0
            step([moves.move_to(battle, uid, (x, y + heading * forward))])
        step(list(moves.charge(battle, by_name["Elf Silver Riders"],
                               by_name["Orc Boar Riders"])))
        store.import_battle(made.battle, made.title, steps)
    return made.title


def window_on_battle(url: str, battle: str) -> tuple[Any, Any]:
    """The real main window at the README's size, on `url`, with `battle` (title or id)
    open on the battlefield; returns the application and the window."""
    from PySide6.QtWidgets import QApplication

    from desktop.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    window = MainWindow()
    window.exclusive = False
    window.resize(1280, 800)
    window.show()
    opened: list[bool] = []
    window.ready.connect(lambda: opened.append(True))
    window.open_database(url)
    while not opened:
        app.processEvents()
    window.battles.workspace.opened.connect(lambda battle_id: opened.append(True))
    window.battles.open_battle(window.battles.find_battle(battle))
    while len(opened) < 2:
        app.processEvents()
    return app, window


def picture_battle(url: str, title: str, path: Path) -> None:
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication


    app, window = window_on_battle(url, title)
    view, scene = window.battlefield_view, window.battlefield_scene
    view.fit_table()
    battle = window.battles.battle
    goblins = next(uid for uid, u in battle.roster.items() if u.name == "Hill Goblin Spearmen")
    wardens = next(uid for uid, u in battle.roster.items() if u.name == "Elf Wardens")
    scene.select_units([wardens])
    window.battles.tool_actions["ruler"].trigger()

    def send(kind: QEvent.Type, point: tuple[float, float], buttons: Qt.MouseButton) -> None:
        pixel = view.mapFromScene(QPointF(*point))
        event = QMouseEvent(kind, QPointF(pixel), QPointF(view.viewport().mapToGlobal(pixel)),
                            Qt.MouseButton.LeftButton, buttons, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(view.viewport(), event)

    start = battle.footprint(wardens).corners[0]
    end = battle.footprint(goblins).corners[1]
    send(QEvent.Type.MouseButtonPress, start, Qt.MouseButton.LeftButton)
    send(QEvent.Type.MouseMove, ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2),
         Qt.MouseButton.LeftButton)
    send(QEvent.Type.MouseMove, end, Qt.MouseButton.LeftButton)
    send(QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)
    for _ in range(5):
        app.processEvents()
    if not window.grab().save(str(path)):
        raise SystemExit(f"cannot write {path}")
    window.close()


def picture_resolution(url: str, roll_path: Path, finished_path: Path) -> None:
    """The worked example (W6-BT-3) resolved in the window: a roll page with its chart,
    then the battlefield once Finish has applied the moves."""
    import json

    from desktop.engine.scenario import load_scenario
    from desktop.store.store import Store

    data = json.loads((REPO / "resources/scenarios/w6-goblins-vs-elves.json").read_text())
    scenario = load_scenario(data)
    with Store.open(url) as store:
        battle_id = store.import_battle(scenario.battle, "The spear line (W6-BT-3)")
    app, window = window_on_battle(url, battle_id)
    window.battlefield_view.fit_table()
    resolve = dict(data["resolve"])
    window.battles.resolve(resolve.pop("procedure"), resolve)
    wizard = window.battles.wizard
    forecast_view = wizard.forecast_view
    while forecast_view.forecast is None:
        app.processEvents()
    wizard.next()  # the combat page as the scenario gives it
    for field, face in zip(wizard.currentPage().fields, (5, 4), strict=True):
        field.setText(str(face))
    for _ in range(5):
        app.processEvents()
    if not wizard.grab().save(str(roll_path)):
        raise SystemExit(f"cannot write {roll_path}")
    for faces in ((5, 4), None, (4, 3), (6, 5)):  # break; pursue; flee 7; pursue 11
        if faces is not None:
            for field, face in zip(wizard.currentPage().fields, faces, strict=True):
                field.setText(str(face))
        wizard.next()
    wizard.accept()
    while window.battles.wizard is not None:
        app.processEvents()
    window.battlefield_scene.skip_animations()
    for _ in range(5):
        app.processEvents()
    if not window.grab().save(str(finished_path)):
        raise SystemExit(f"cannot write {finished_path}")
    window.close()


def picture_combat_page(url: str, path: Path) -> None:
    """The four-unit battle's first page as Resolve Combat opens it from the table, at the
    size the wizard takes beside a 1280x800 window: every unit's row, the ticks the table
    gave, the engine's score and the forecast below."""
    import json

    from PySide6.QtWidgets import QSpinBox

    from desktop.engine.scenario import load_scenario
    from desktop.store.store import Store

    data = json.loads((REPO / "resources/scenarios/w6-four-units.json").read_text())
    scenario = load_scenario(data)
    with Store.open(url) as store:
        battle_id = store.import_battle(scenario.battle, "Four units (W6)")
    app, window = window_on_battle(url, battle_id)
    window.battlefield_view.fit_table()
    window.battlefield_scene.select_units(["swordsmen"])
    window.ui.actionResolveCombat.trigger()
    wizard = window.battles.wizard
    page = wizard.input_page
    for name, value in (("wounds:boyz", 4), ("casualties:boyz", 3),
                        ("wounds:wolf_riders", 2), ("wounds:swordsmen", 3),
                        ("casualties:swordsmen", 6)):
        page.findChild(QSpinBox, name).setValue(value)
    view = wizard.forecast_view
    while view.forecast is None or view.updating:
        app.processEvents()
    for _ in range(5):
        app.processEvents()
    if not wizard.grab().save(str(path)):
        raise SystemExit(f"cannot write {path}")
    wizard.leave("discard")
    window.close()


PRINTED_ROSTER = REPO / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"


def picture_printout(path: Path, dpi: int = 110) -> None:
    """Page 1 of the PDF Rout prints for a real New Recruit roster (as imported), rendered
    by poppler's pdftoppm and cut below the last line of text (the rest of an A4 page is
    blank paper)."""
    import re
    import shutil

    from PySide6.QtWidgets import QApplication

    from desktop.gui.printing import write_pdf
    from desktop.store.transfer import read_army_file

    app = QApplication.instance() or QApplication(sys.argv[:1])
    tools = {name: shutil.which(name) for name in ("pdftoppm", "pdftotext")}
    if not all(tools.values()):
        raise SystemExit("the printout picture needs poppler-utils (pdftoppm, pdftotext)")
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "roster.pdf"
        write_pdf(read_army_file(PRINTED_ROSTER).army, pdf)
        boxes = subprocess.run([str(tools["pdftotext"]), "-f", "1", "-l", "1", "-bbox",
                                str(pdf), "-"], capture_output=True, text=True,
                               check=True).stdout
        # The page is in points (1/72"); keep the top margin's height below the text too.
        bottom = max(float(y) for y in re.findall(r'yMax="([\d.]+)"', boxes))
        top = min(float(y) for y in re.findall(r'yMin="([\d.]+)"', boxes))
        height = round((bottom + top) * dpi / 72)
        subprocess.run([str(tools["pdftoppm"]), "-png", "-r", str(dpi), "-f", "1", "-l", "1",
                        "-H", str(height), "-singlefile", str(pdf), str(path.with_suffix(""))],
                       check=True)
    del app


LEXICANUM = REPO.parent / "shared" / "data" / "bsdata" / "lexicanum"


def picture_army_book(path: Path) -> None:
    """A Bretonnian army built from lexicanum's catalogue (the shared game data), its
    Paladin's options in the Army Book dock: the Grail Vow and the Sword of the Quest
    chosen, what the 50 points of magic items no longer allow greyed, and the catalogue's
    limits the army breaks below."""
    from desktop.engine.bsdata import choices
    from desktop.gui.army_books import _forces
    from desktop.gui.book_dialogs import tree_items
    from desktop.store.gamedata import add_data, collect

    if not LEXICANUM.is_dir():
        raise SystemExit(f"no shared game data at {LEXICANUM}")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'books.sqlite'}"
        from desktop.store.store import Store
        with Store.open(url) as store:
            add_data(store, collect([LEXICANUM]))
        from PySide6.QtWidgets import QApplication

        from desktop.gui.main_window import MainWindow
        app = QApplication.instance() or QApplication(sys.argv[:1])
        window = MainWindow()
        window.exclusive = False
        window.resize(1280, 800)
        window.show()
        opened: list[bool] = []
        window.ready.connect(lambda: opened.append(True))
        window.open_database(url)
        while not opened:
            app.processEvents()
        books = window.army_books
        book = next(b for b in books.book_choices() if b.catalogue_name == "Bretonnia")
        loaded: list[Any] = []
        books.load(book, loaded.append)
        books.wait_for_books()
        while not loaded:
            app.processEvents()
        from desktop.store import armybooks
        built = armybooks.new_book_army(loaded[0].data, book.catalogue_id,
                                        _forces(loaded[0])[0].id, "Bretonnian Expedition",
                                        "Player", 705)
        army = books._push(None, built.army, "New army")
        assert army is not None
        window.select_army(army.id)
        entries = {row.name: row.entry_id for row in loaded[0].units}

        def change(data: Any, roster: Any) -> Any:
            force = roster.forces[0].id
            roster, paladin = choices.add_unit(data, roster, force, entries["Paladin"])
            shown = choices.unit_choices(data, roster, paladin)

            def entry(name: str, found: Any = shown.choices) -> str:
                for choice in found:
                    if choice.name == name:
                        return str(choice.entry_id)
                    inner = entry(name, choice.children) if choice.children else ""
                    if inner:
                        return inner
                return ""
            roster = choices.choose(data, roster, paladin, entry("Grail Vow"))
            return choices.choose(data, roster, paladin, entry("Sword of the Quest"))
        army = books.edit(army, "Add a Paladin", change)
        assert army is not None
        window.select_units([army.units[-1].id])
        books.show_dock()
        for _ in range(10):
            app.processEvents()
        tree = books.panel.ui.optionTree
        for _, item in tree_items(tree):
            if item.text(0).startswith("Magic Weapons (BR-AB)"):
                item.setExpanded(True)
        tree.scrollToItem(books.panel.option_item("Sword of the Quest"))
        for _ in range(5):
            app.processEvents()
        if not window.grab().save(str(path)):
            raise SystemExit(f"cannot write {path}")
        window.close()


def main() -> int:
    if sys.argv[1:] == ["printout"]:  # only the printout: no database, no window
        picture_printout(HERE / "printout.png")
        print(f"wrote printout.png in {HERE}")
        return 0
    if sys.argv[1:] == ["armybook"]:  # only the Army Book dock's
        picture_army_book(HERE / "army-book.png")
        print(f"wrote army-book.png in {HERE}")
        return 0
    if sys.argv[1:] == ["wizard"]:  # only the wizard's pictures
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'readme.sqlite'}"
            build_database(url)
            picture_combat_page(f"sqlite:///{Path(folder) / 'combat.sqlite'}",
                                HERE / "wizard-combat.png")
            picture_resolution(url, HERE / "wizard-roll.png", HERE / "resolved.png")
        print(f"wrote wizard-combat.png, wizard-roll.png and resolved.png in {HERE}")
        return 0
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'readme.sqlite'}"
        title = build_database(url)
        rout = [sys.executable, "-m", "desktop", "--database", url]
        subprocess.run([*rout, "--screenshot", str(HERE / "main-window.png"),
                        "--army", "Hill Goblin Warband"], check=True, cwd=REPO)
        picture_battle(url, title, HERE / "battle.png")
        picture_combat_page(f"sqlite:///{Path(folder) / 'combat.sqlite'}",
                            HERE / "wizard-combat.png")
        picture_resolution(url, HERE / "wizard-roll.png", HERE / "resolved.png")
    picture_printout(HERE / "printout.png")
    picture_army_book(HERE / "army-book.png")
    print(f"wrote main-window.png, battle.png, wizard-combat.png, wizard-roll.png, "
          f"resolved.png, printout.png and army-book.png in {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
