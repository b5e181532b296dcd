"""Printing a roster: the HTML, an atomic A4 PDF, a printer set to PDF, the print dialog."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import needs
import pytest
from conftest import BATTLESCRIBE_ROSTER
from PySide6.QtCore import QTimer
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from desktop.engine.model import Army, TroopType, Unit, UnitProfile
from desktop.engine.roster import RosterProblem, Severity
from desktop.gui import file_dialogs, printing
from desktop.gui.main_window import MainWindow
from desktop.gui.printing import RosterPreview, print_roster, print_to, roster_html, write_pdf
from desktop.store.roster_sheet import formation
from desktop.store.store import Store

from builders import army


def two_slot_army() -> Army:
    base = army(units=4)
    slots = ("Core", "Special", "Core", "")
    return replace(base, units=tuple(replace(unit, slot=slot)
                                     for unit, slot in zip(base.units, slots, strict=True)))


def hostile_army() -> Army:
    profile = UnitProfile("<b>Knight</b>", {"M": 8, "Ld": 8}, troop_type=TroopType.CAVALRY)
    unit = Unit(id="x", name="<script>alert('x')</script>", player="Eve & Mallory",
                profile=profile, models=5, files=5, upgrades=frozenset({'"banner"'}),
                points=150, slot="<i>Heroes</i>")
    return Army(name="Army <of> 'Doom' & \"Gloom\"", player="Eve & Mallory",
                ruleset="warhammer6", units=(unit,), notes=("<img src=x>",))


def pdf_text(path: Path) -> str | None:
    """The PDF's text via pdftotext (poppler-utils), or None when it is not installed."""
    tool = shutil.which("pdftotext")
    if tool is None:
        return None
    return subprocess.run([tool, "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_html_lists_every_unit_by_slot():
    roster = two_slot_army()
    html = roster_html(roster)
    assert html.startswith("<!DOCTYPE html>")
    assert "<h1>Grimgor&#x27;s Boyz</h1>" in html
    assert "Warhammer" in html  # the ruleset's name, not its id
    assert "warhammer6" not in html
    assert "406 / 2000 points" in html
    for unit in roster.units:
        assert f"<b>{unit.name}</b>" in html
        assert unit.profile.name in html
        assert f">{unit.points}<" in html
        assert f">{unit.models} ({formation(unit)})<" in html
    assert html.count("<table") == 3
    # Slots in the order the roster first uses them; no slot goes under "Units".
    core, special, units = (html.index(f"<h2>{slot} — ") for slot in ("Core", "Special",
                                                                       "Units"))
    assert core < special < units
    assert "<h2>Core — 202 points</h2>" in html
    # Each statistic in its own cell under the ruleset's names.
    assert ('<th class="stat" width="5%">M</th><th class="stat" width="5%">WS</th>') in html
    first_row = html[html.index("<b>Unit 0</b>"):].split("</tr>")[0]
    assert re.findall(r">(\d+)</td>", first_row) == ["4", "3", "3", "3", "3", "1", "3", "1",
                                                      "5"]
    assert "Standard bearer, Musician" in html  # the ruleset's names, not "standard"
    assert "Special rules:</b> Stubborn" in html


def test_html_escapes_everything():
    html = roster_html(hostile_army())
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "<b>Knight</b>" not in html
    assert "<i>" not in html
    assert "<img" not in html
    assert "Army &lt;of&gt; &#x27;Doom&#x27; &amp; &quot;Gloom&quot;" in html
    assert "Eve &amp; Mallory" in html
    assert "&quot;banner&quot;" in html
    assert ("Eve &amp; Mallory · Warhammer Fantasy Battle 6th edition · 150 points · 1 unit · "
            "5 models<") in html  # no points limit, so no "/ 0"


def test_html_of_an_empty_army():
    html = roster_html(replace(army(units=0), notes=()))
    assert "No units yet." in html
    assert "<table" not in html
    assert "Notes" not in html


@pytest.mark.parametrize(("models", "files", "expected"), [
    (10, 5, "5 × 2"), (12, 5, "5 × 3"), (3, 5, "3 × 1"), (1, 1, "1 × 1"), (0, 5, "–"),
    (10, 0, "–"),
])
def test_formation(models, files, expected):
    unit = replace(army(units=1).units[0], models=models, files=files)
    assert formation(unit) == expected


def test_write_pdf(tmp_path):
    path = tmp_path / "roster.pdf"
    roster = two_slot_army()
    write_pdf(roster, path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(data) > 1024
    assert b"Grimgor" in data  # the title, in the document information
    # Only the PDF is left: the temporary file was renamed, not copied.
    assert [entry.name for entry in tmp_path.iterdir()] == ["roster.pdf"]


def test_write_pdf_contains_the_units(tmp_path):
    needs.program("pdftotext", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                  "the PDF's text is unread")
    path = tmp_path / "roster.pdf"
    roster = two_slot_army()
    write_pdf(roster, path)
    text = pdf_text(path)
    assert text is not None
    for unit in roster.units:
        assert unit.name in text
    assert "Grimgor's Boyz" in text
    # Markup in names is printed as typed.
    write_pdf(hostile_army(), path)
    assert "<script>alert('x')</script>" in (pdf_text(path) or "")


def test_write_pdf_is_a4_with_a_title(tmp_path):
    tool = needs.program("pdfinfo", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                         "the PDF's pages are unread")
    path = tmp_path / "roster.pdf"
    write_pdf(army(), path)
    info = subprocess.run([tool, str(path)], capture_output=True, text=True,
                          check=True).stdout
    assert "Title:           Grimgor's Boyz" in info
    assert "Creator:         Rout" in info
    assert "(A4)" in info
    assert "Pages:           1" in info


def test_write_pdf_replaces_an_old_file(tmp_path):
    path = tmp_path / "roster.pdf"
    path.write_bytes(b"old")
    write_pdf(army(), path)
    assert path.read_bytes().startswith(b"%PDF")


def test_write_pdf_to_a_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="cannot write the PDF"):
        write_pdf(army(), tmp_path / "no-such-folder" / "roster.pdf")
    assert list(tmp_path.iterdir()) == []


def test_failed_pdf_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "roster.pdf"
    path.write_bytes(b"old")

    def broken(*args: object) -> object:
        raise RuntimeError("layout failed")

    monkeypatch.setattr(printing, "roster_document", broken)
    with pytest.raises(RuntimeError, match="layout failed"):
        write_pdf(army(), path)
    assert path.read_bytes() == b"old"
    assert [entry.name for entry in tmp_path.iterdir()] == ["roster.pdf"]


def pdf_printer(path: Path) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(path))
    return printer


def test_print_to_a_pdf_printer(tmp_path):
    path = tmp_path / "printed.pdf"
    roster = two_slot_army()
    printer = pdf_printer(path)
    print_to(roster, printer)
    assert printer.docName() == roster.name
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(data) > 1024
    text = pdf_text(path)
    if text is not None:
        assert all(unit.name in text for unit in roster.units)


def test_print_roster_prints_what_the_dialog_chose(qtbot, tmp_path, monkeypatch):
    parent = QWidget()
    qtbot.addWidget(parent)
    path = tmp_path / "chosen.pdf"
    seen: list[tuple[QWidget | None, str]] = []

    def accept(dialog: QPrintDialog) -> int:
        # What a player does in the dialog: pick "Print to file" and a file name.
        seen.append((dialog.parentWidget(), dialog.windowTitle()))
        dialog.printer().setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        dialog.printer().setOutputFileName(str(path))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(printing.QPrintDialog, "exec", accept)
    assert print_roster(army(), parent)
    assert seen == [(parent, "Print Grimgor's Boyz")]
    assert path.read_bytes().startswith(b"%PDF")


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")
def test_print_roster_cancelled(qtbot, tmp_path):
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    qtbot.waitExposed(parent)
    dialogs: list[QWidget] = []

    def cancel() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QPrintDialog):
            QTimer.singleShot(10, cancel)
            return
        dialogs.append(dialog)
        dialog.reject()

    QTimer.singleShot(0, cancel)
    assert not print_roster(army(), parent)
    assert len(dialogs) == 1
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# What a player takes to the table: the real New Recruit roster, read back from the PDF


def real_army(folder: Path) -> Army:
    """The Bretonnian roster imported from a copy in a folder named like a user's own."""
    from desktop.store.transfer import read_army_file

    private = folder / "home" / "someone-private" / "Downloads"
    private.mkdir(parents=True)
    copy = private / BATTLESCRIBE_ROSTER.name
    copy.write_bytes(BATTLESCRIBE_ROSTER.read_bytes())
    return read_army_file(copy).army


def pdf_of(army_: Army, folder: Path) -> str:
    needs.program("pdftotext", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                  "the PDF's text is unread")
    path = folder / "roster.pdf"
    write_pdf(army_, path)
    text = pdf_text(path)
    assert text is not None
    return text


def line_with(text: str, fragment: str) -> str:
    (found,) = [line for line in text.splitlines() if fragment in line]
    return found


def test_pdf_has_special_rules_wargear_and_magic_items(tmp_path):
    text = pdf_of(real_army(tmp_path), tmp_path)
    assert "Purebreed Warhorse" in text
    assert "Knights Vow" in text
    assert "Peasants Duty" in text
    assert "Sword of the Quest" in text
    assert "Lance" in text
    assert "Heavy Armour" in text


def test_pdf_prints_names_not_ids(tmp_path):
    text = pdf_of(real_army(tmp_path), tmp_path)
    assert "_" not in text  # battle_standard, purebreed_warhorse
    assert "Battle standard" in text
    assert "Standard bearer" in text


def test_pdf_has_no_path_of_the_players_machine(tmp_path):
    text = pdf_of(real_army(tmp_path), tmp_path)
    assert "someone-private" not in text
    assert str(tmp_path) not in text
    assert ".rosz" not in text


def test_pdf_follows_the_rulesets_slot_order(tmp_path):
    base = army(units=5)
    slots = ("Rare", "Core", "Heroes", "My own slot", "Special")
    roster = replace(base, units=tuple(replace(unit, slot=slot)
                                       for unit, slot in zip(base.units, slots, strict=True)))
    text = pdf_of(roster, tmp_path)
    found = [text.index(f"{slot} — ") for slot in ("Heroes", "Core", "Special", "Rare",
                                                    "My own slot")]
    assert found == sorted(found)


def test_pdf_flags_an_army_over_its_limit(tmp_path):
    roster = replace(two_slot_army(), points_limit=300)
    text = pdf_of(roster, tmp_path)
    assert "406 points is 106 over the limit of 300" in text


def test_pdf_keeps_each_stat_line_and_heading_on_one_row(tmp_path):
    text = pdf_of(real_army(tmp_path), tmp_path)
    # Every heading whole, on the header's one line ("Formatio/n" was broken in two).
    for header in [line for line in text.splitlines() if line.lstrip().startswith("Unit")]:
        assert header.split() == ["Unit", "Models", "M", "WS", "BS", "S", "T", "W", "I", "A",
                                  "Ld", "Points"]
    for name in ("Duc d'Lorraine", "Piere", "Bowmen of Bordeleaux"):
        row = line_with(text, name)
        values = re.findall(r"\d+", row)
        assert len(values) >= 9, row  # M WS BS S T W I A Ld on the unit's own line
    # The Paladin's whole profile, in order, on its line.
    assert re.search(r"Duc d'Lorraine.*\b8\s+5\s+3\s+4\s+4\s+2\s+5\s+3\s+8\b",
                     line_with(text, "Duc d'Lorraine"))


def test_pdf_prints_the_warnings_it_is_given(tmp_path):
    """The window passes its own warnings (composition limits from the library) to print."""
    given = [RosterProblem("Rare units: 3, at most 1 in a 1,000-point army"),
             RosterProblem("Unit 1: an unknown upgrade", "u1", "upgrades", Severity.NOTE)]
    needs.program("pdftotext", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                  "the PDF's text is unread")
    path = tmp_path / "roster.pdf"
    write_pdf(army(), path, given)
    text = pdf_text(path) or ""
    assert "Warnings" in text
    assert "Rare units: 3, at most 1 in a 1,000-point army" in text
    assert "Unit 1: an unknown upgrade" in text
    assert text.index("Warnings") < text.index("Core — ")  # before the units


def test_a_long_army_keeps_each_unit_whole_on_one_page(tmp_path):
    """A unit's stat line and its special rules and notes below it are never split by a
    page break; each page of units starts with the table's header."""
    roster = army(units=40)
    text = pdf_of(roster, tmp_path)
    pages = text.split("\f")[:-1]
    assert len(pages) >= 3
    for index, unit in enumerate(roster.units):
        found = [page for page in pages if re.search(rf"^{unit.name}\b", page, re.M)]
        assert len(found) == 1, f"{unit.name} is split over {len(found)} pages"
        page = found[0]
        assert re.search(rf"^\s*note {index}$", page, re.M), (unit.name, page)
    with_units = [page for page in pages if "Unit 1" in page]
    for page in with_units:
        assert re.search(r"^Unit +Models +M +WS", page, re.M)


def test_a_slot_heading_never_ends_a_page_alone(tmp_path):
    # Twelve Heroes fill the first page to just above where the Rare heading would fit.
    base = army(units=15)
    slots = ["Heroes"] * 12 + ["Rare"] * 3
    roster = replace(base, units=tuple(replace(unit, slot=slot)
                                       for unit, slot in zip(base.units, slots, strict=True)))
    pages = pdf_of(roster, tmp_path).split("\f")
    (page,) = [page for page in pages if "Rare — 339 points" in page]
    assert re.search(r"^Unit 12\b", page, re.M)  # the first Rare unit, under its heading


# ---------------------------------------------------------------------------------------------
# Print preview


def test_preview_shows_the_rosters_pages(qtbot, tmp_path):
    parent = QWidget()
    qtbot.addWidget(parent)
    roster = real_army(tmp_path)
    dialog = RosterPreview(roster, parent)
    qtbot.addWidget(dialog)
    painted: list[QPrinter] = []
    dialog.paintRequested.connect(painted.append)
    dialog.open()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: dialog.page_count() > 0)
    assert dialog.page_count() == 1
    assert painted and painted[0].docName() == roster.name
    assert dialog.windowTitle() == f"Print Preview — {roster.name}"
    assert dialog.parentWidget() is parent
    dialog.close()


def test_preview_of_a_long_army_has_the_pdfs_pages(qtbot, tmp_path):
    tool = needs.program("pdfinfo", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                         "the PDF's pages are unread")
    roster = army(units=40)
    write_pdf(roster, tmp_path / "roster.pdf")
    info = subprocess.run([tool, str(tmp_path / "roster.pdf")], capture_output=True,
                          text=True, check=True).stdout
    (pages,) = re.findall(r"^Pages: +(\d+)$", info, re.M)
    dialog = RosterPreview(roster)
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.page_count() > 0)
    assert dialog.page_count() == int(pages) >= 3
    dialog.close()


# ---------------------------------------------------------------------------------------------
# From the main window: File > Print Preview, and the window's warnings on paper


def window_on(qtbot, tmp_path: Path, roster: Army) -> tuple[MainWindow, Army]:
    """A shown main window on a database holding `roster`, which it shows."""
    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    with Store.open(url) as store:
        saved = store.save_army(roster)
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.ready, timeout=20_000):
        window.open_database(url)
    window.select_army(saved.id)
    assert window.current_army == saved
    return window, saved


def test_print_preview_from_the_file_menu_and_toolbar(qtbot, tmp_path):
    window, roster = window_on(qtbot, tmp_path, real_army(tmp_path))
    action = window.ui.actionPrintPreview
    assert action in window.ui.menuFile.actions()
    assert action in window.ui.mainToolBar.actions()
    assert action.shortcut().toString() == "Ctrl+Shift+P"
    assert action.isEnabled()
    seen: list[tuple[str, int, QWidget | None]] = []

    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, RosterPreview) or dialog.page_count() == 0:
            QTimer.singleShot(10, look)
            return
        seen.append((dialog.windowTitle(), dialog.page_count(), dialog.parentWidget()))
        dialog.close()

    QTimer.singleShot(0, look)
    action.trigger()  # returns once the preview is closed
    assert seen == [(f"Print Preview — {roster.name}", 1, window)]


def test_no_print_preview_without_an_army(qtbot, tmp_path):
    window, _ = window_on(qtbot, tmp_path, army(units=1))
    window.select_army("")
    assert window.current_army is None
    assert not window.ui.actionPrintPreview.isEnabled()
    window.preview_roster()  # from a stale shortcut: nothing opens


def test_the_pdf_from_the_window_has_the_windows_warnings(qtbot, tmp_path, monkeypatch):
    needs.program("pdftotext", "poppler-utils", "ROUT_REQUIRE_POPPLER",
                  "the PDF's text is unread")
    over = replace(real_army(tmp_path), points_limit=500)
    window, roster = window_on(qtbot, tmp_path, over)
    path = tmp_path / "from-the-window.pdf"
    # The player's answer in the save dialog.
    monkeypatch.setattr(file_dialogs, "save_file_name", lambda *args, **kwargs: str(path))
    window.ui.actionExportPdf.trigger()
    text = pdf_text(path) or ""
    assert window.workspace is not None
    shown = [problem.message for problem in window.workspace.problems(roster)]
    assert shown and "705 points is 205 over the limit of 500" in shown
    for message in shown:
        assert message in text


def test_a_profile_named_like_its_unit_is_printed_once():
    roster = army(units=2)
    named = replace(roster.units[0], name="Profile 0")
    html = roster_html(replace(roster, units=(named, roster.units[1])))
    assert html.count("Profile 0") == 1
    assert '<span class="profile">Profile 1</span>' in html
