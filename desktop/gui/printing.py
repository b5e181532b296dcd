"""A roster on paper: HTML laid out by QTextDocument, printed or written to a PDF.

QTextDocument understands only a subset of HTML and CSS (tables, simple selectors, colours,
borders), so the document keeps to that subset; it looks the same in a PDF and on a printer.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Final

from PySide6.QtCore import QCoreApplication, QMarginsF, QObject, QSizeF, Qt
from PySide6.QtGui import (
    QGuiApplication,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPdfWriter,
    QTextBlock,
    QTextDocument,
    QTextTable,
)
from PySide6.QtPrintSupport import (
    QPrintDialog,
    QPrinter,
    QPrintPreviewDialog,
    QPrintPreviewWidget,
)
from PySide6.QtWidgets import QDialog, QWidget

from desktop.engine.model import Army
from desktop.engine.roster import RosterProblem, Severity
from desktop.store.roster_sheet import (
    RosterSheet,
    UnitSheet,
    details,
    one_line,
    roster_sheet,
)

PAGE_MARGIN_MM: Final = 15.0
PDF_CREATOR: Final = "Rout"

STYLE: Final = """
body { font-family: sans-serif; font-size: 9pt; color: #000000; }
h1 { font-size: 16pt; margin-top: 0px; margin-bottom: 0px; }
h2 { font-size: 12pt; margin-top: 16px; margin-bottom: 4px; }
p.summary { color: #333333; margin-top: 2px; margin-bottom: 6px; }
td.warnings { border: 1px solid #b00000; background-color: #fff3f0; }
p.warning { color: #8a0000; font-weight: bold; margin-top: 2px; margin-bottom: 0px; }
p.note { color: #444444; margin-top: 2px; margin-bottom: 0px; }
table.slot { border-collapse: collapse; }
th { background-color: #e4e4e4; font-weight: bold; font-size: 8pt; }
th, td { border-left: 0px; border-right: 0px; border-top: 0px;
         border-bottom: 1px solid #999999; }
td.top { border-bottom: 0px; }
th.name { text-align: left; }
th.stat, th.number { text-align: center; white-space: nowrap; }
span.profile { color: #555555; font-size: 8pt; }
td.details { color: #222222; font-size: 8pt; padding-left: 8px; padding-bottom: 4px; }
"""
MODELS_WIDTH: Final = 11  # per cent of the page
POINTS_WIDTH: Final = 7
STATS_WIDTH: Final = 45  # at most, shared by the ruleset's statistics


def _text(text: str) -> str:
    """Player text as HTML: escaped, quotes too, so nothing can become markup."""
    return escape(text, quote=True)


def _header(sheet: RosterSheet) -> str:
    # Widths that add up to 100%: QTextDocument shrinks a table whose columns add up to less.
    stat_width = min(5, STATS_WIDTH // max(len(sheet.stat_names), 1))
    name_width = 100 - MODELS_WIDTH - POINTS_WIDTH - stat_width * len(sheet.stat_names)
    cells = [f'<th class="name" width="{name_width}%">Unit</th>',
             f'<th class="number" width="{MODELS_WIDTH}%">Models</th>',
             *(f'<th class="stat" width="{stat_width}%">{_text(name)}</th>'
               for name in sheet.stat_names),
             f'<th class="number" width="{POINTS_WIDTH}%">Points</th>']
    return "<tr>" + "".join(cells) + "</tr>"


def _models(unit: UnitSheet) -> str:
    # A unit's ranks matter on the table; a lone model's "1 × 1" says nothing.
    return str(unit.models) if unit.models <= 1 else f"{unit.models} ({unit.formation})"


def _unit_rows(unit: UnitSheet, columns: int) -> str:
    """The unit's stat line as one row (the profile's name under the unit's, in grey), then
    one cell across the table for what it has; a rule under the pair, none between them."""
    lines = [f"<b>{_text(label)}:</b> {_text(text)}" if label else _text(text)
             for label, text in details(unit)]
    top = ' class="top"' if lines else ""
    name = f"<b>{_text(unit.name)}</b>"
    if unit.profile.casefold() != unit.name.casefold():  # "Samurai Retainers" twice says less
        name += f'<br><span class="profile">{_text(unit.profile)}</span>'
    numbers = [_text(_models(unit)), *(_text(value) for _, value in unit.stats),
               f"<b>{unit.points}</b>"]
    cells = [f"<td{top}>{name}</td>",
             *(f'<td{top} align="center" style="white-space: nowrap">{number}</td>'
               for number in numbers)]
    rows = ["<tr>" + "".join(cells) + "</tr>"]
    if lines:
        rows.append(f'<tr><td class="details" colspan="{columns}">'
                    + "<br>".join(lines) + "</td></tr>")
    return "".join(rows)


def _slot_table(sheet: RosterSheet, units: Sequence[UnitSheet]) -> str:
    columns = len(sheet.stat_names) + 3
    rows = "".join(_unit_rows(unit, columns) for unit in units)
    # cellspacing/cellpadding as attributes: QTextDocument ignores them in CSS on tables.
    # A table split over pages repeats its <thead>.
    return (f'<table class="slot" width="100%" cellspacing="0" cellpadding="2">'
            f"<thead>{_header(sheet)}</thead><tbody>{rows}</tbody></table>")


Breaks = frozenset[tuple[int, int]]
"""(slot, unit) indexes that start a new page: unit 0 moves the slot's heading along."""


def _chunks(sheet: RosterSheet, breaks: Breaks) -> list[tuple[int, int, int]]:
    """(slot, first unit, end) of each slot table: a slot's units up to a page break."""
    found = []
    for index, slot in enumerate(sheet.slots):
        starts = sorted({0, *(unit for at, unit in breaks if at == index and unit > 0)})
        found += [(index, first, end) for first, end in zip(starts, [*starts[1:],
                                                                      len(slot.units)],
                                                            strict=True)]
    return found


def _summary(sheet: RosterSheet) -> str:
    parts = [sheet.player, sheet.headline] if sheet.player else [sheet.headline]
    return " · ".join(_text(part) for part in parts)


def _warnings(sheet: RosterSheet) -> str:
    lines = "".join(f'<p class="{"warning" if w.severity == Severity.WARNING else "note"}">'
                    f"{_text(w.message)}</p>" for w in sheet.warnings)
    return (f'<table class="warnings" width="100%" cellspacing="0" cellpadding="4"><tr>'
            f'<td class="warnings"><b>Warnings</b>{lines}</td></tr></table>')


def roster_html(army: Army, found: Sequence[RosterProblem] | None = None) -> str:
    """The roster as a whole HTML document: a heading, the warnings, one table per slot.

    `found` are the army's problems (the engine's roster rules when None)."""
    return _sheet_html(roster_sheet(army, found), frozenset())


def _sheet_html(sheet: RosterSheet, breaks: Breaks) -> str:
    title = _text(sheet.name)
    body = [f"<h1>{title}</h1>", f'<p class="summary">{_summary(sheet)}</p>']
    if sheet.warnings:
        body.append(_warnings(sheet))
    for index, first, end in _chunks(sheet, breaks):
        slot = sheet.slots[index]
        style = ' style="page-break-before: always"' if (index, first) in breaks else ""
        heading = (f"{_text(slot.name)} — {slot.points} points" if first == 0
                   else f"{_text(slot.name)} (continued)")
        body.append(f"<h2{style}>{heading}</h2>")
        body.append(_slot_table(sheet, slot.units[first:end]))
    if not sheet.slots:
        body.append("<p>No units yet.</p>")
    if sheet.notes:
        body.append("<h2>Notes</h2>")
        body.extend(f"<p>{_text(note)}</p>" for note in sheet.notes)
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{STYLE}</style></head>\n"
            f"<body>\n{chr(10).join(body)}\n</body></html>\n")


def _split_unit(document: QTextDocument, sheet: RosterSheet,
                breaks: Breaks) -> tuple[int, int] | None:
    """The first unit whose rows the pages split (its stat line on one page, its special
    rules on the next), or whose slot heading ends a page alone; None when there is none."""
    layout = document.documentLayout()
    height = document.pageSize().height()
    tables = [frame for frame in document.rootFrame().childFrames()
              if isinstance(frame, QTextTable) and frame.columns() == len(sheet.stat_names) + 3]

    def page(y: float) -> int:
        return int(y // height)

    def top(block: QTextBlock) -> float:
        return layout.blockBoundingRect(block).top()

    for table, (index, first, end) in zip(tables, _chunks(sheet, breaks), strict=True):
        row = 1  # below the header row
        heading = document.findBlock(table.firstPosition() - 1).previous()
        for number, unit in enumerate(sheet.slots[index].units[first:end], start=first):
            rows = 2 if any(details(unit)) else 1
            cells = [table.cellAt(r, c) for r in range(row, row + rows)
                     for c in range(table.columns()) if table.cellAt(r, c).row() == r
                     and table.cellAt(r, c).column() == c]
            start = top(cells[0].firstCursorPosition().block())
            bottom = max(layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom()
                         for cell in cells)
            orphan = number == first and heading.isValid() and page(top(heading)) != page(start)
            if (page(start) != page(bottom - 1) or orphan) and (index, number) not in breaks:
                # A heading left alone takes its first unit along; a split unit moves whole.
                return (index, first if orphan else number)
            row += rows
    return None


def roster_document(army: Army, parent: QObject | None = None,
                    found: Sequence[RosterProblem] | None = None,
                    page_size: QSizeF | None = None) -> QTextDocument:
    """The roster as a QTextDocument, owned by `parent` (or by the caller if None).

    Given a page size, it is laid out in pages that keep each unit whole: a unit the pages
    would split starts the next page under its slot's heading (the table's header repeats).
    """
    sheet = roster_sheet(army, found)
    breaks: Breaks = frozenset()
    # Each round moves one more unit; a roster cannot need more breaks than it has units.
    for _ in range(sum(len(slot.units) for slot in sheet.slots) + 1):
        document = QTextDocument()
        if page_size is not None:
            document.setPageSize(page_size)
        document.setHtml(_sheet_html(sheet, breaks))
        split = _split_unit(document, sheet, breaks) if page_size is not None else None
        if split is None:
            break
        breaks |= {split}
    document.setParent(parent)
    document.setMetaInformation(QTextDocument.MetaInformation.DocumentTitle, army.name)
    return document


def _layout_dpi() -> float:
    """Dots per inch of a QTextDocument laid out without a paint device (Qt's default DPI).

    The document's CSS lengths (padding, borders) are in these pixels; laying it out for the
    printer's own resolution would shrink a 3px padding to nothing at 1200 dpi.
    """
    app = QCoreApplication.instance()
    if app is not None and app.testAttribute(Qt.ApplicationAttribute.AA_Use96Dpi):
        return 96.0
    screen = QGuiApplication.primaryScreen()
    return float(round(screen.logicalDotsPerInchY())) if screen is not None else 100.0


def _page_size(device: QPagedPaintDevice) -> QSizeF:
    """The device's printable area (inside its page margins) in the document's pixels."""
    dpi = _layout_dpi()
    printable = device.pageLayout().paintRect(QPageLayout.Unit.Inch)
    return QSizeF(printable.width() * dpi, printable.height() * dpi)


def _print_roster(army: Army, device: QPagedPaintDevice, parent: QObject | None,
                  found: Sequence[RosterProblem] | None) -> None:
    """Print the roster filling the device's printable area.

    A document without a page size would get QTextDocument.print's own 2 cm margins on top
    of the page margins; with one, print() only scales its pages to the paper.
    """
    roster_document(army, parent, found, _page_size(device)).print_(device)


def _page_layout() -> QPageLayout:
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                       QMarginsF(PAGE_MARGIN_MM, PAGE_MARGIN_MM, PAGE_MARGIN_MM,
                                 PAGE_MARGIN_MM), QPageLayout.Unit.Millimeter)


def write_pdf(army: Army, path: Path, found: Sequence[RosterProblem] | None = None) -> None:
    """Write the roster to an A4 PDF at `path`, replacing it only once the PDF is whole.

    Raises OSError if the file cannot be written. Runs on the GUI thread (QTextDocument
    and QPdfWriter are Qt objects); a roster is a few pages, so this takes milliseconds.
    """
    # A hidden temporary file next to the target: os.replace is atomic only on one file
    # system, and a crash half-way must not leave a truncated PDF under the real name.
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        # Made here first so that an unwritable folder is a clear OSError, not a Qt warning.
        temporary.touch(exist_ok=False)
    except OSError as error:
        raise OSError(error.errno, f"cannot write the PDF {path} ({error.strerror})") from None
    try:
        _render_pdf(army, str(temporary), found)
        if temporary.stat().st_size == 0:
            raise OSError(f"cannot write the PDF {path}")
        with open(temporary, "r+b") as written:  # Windows cannot fsync a read-only file
            os.fsync(written.fileno())
        os.replace(temporary, path)
    finally:
        # After a failure the writer may still hold the file open (Windows refuses then);
        # the first error is the one to report.
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _render_pdf(army: Army, filename: str, found: Sequence[RosterProblem] | None) -> None:
    """Lay out and write the PDF; the writer is gone, so the file is closed, on return."""
    writer = QPdfWriter(filename)
    writer.setPageLayout(_page_layout())
    writer.setTitle(army.name)
    writer.setCreator(PDF_CREATOR)
    _print_roster(army, writer, writer, found)


def print_to(army: Army, printer: QPrinter,
             found: Sequence[RosterProblem] | None = None) -> None:
    """Print the roster on `printer` as it is set up (a real printer or a PDF file)."""
    printer.setDocName(army.name)
    printer.setCreator(PDF_CREATOR)
    _print_roster(army, printer, None, found)


def _printer(army: Army) -> QPrinter:
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(_page_layout())
    printer.setDocName(army.name)
    return printer


def print_roster(army: Army, parent: QWidget,
                 found: Sequence[RosterProblem] | None = None) -> bool:
    """Ask for a printer with the system's print dialog and print; False if cancelled."""
    printer = _printer(army)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(f"Print {one_line(army.name)}")
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
    finally:
        dialog.deleteLater()
    print_to(army, printer, found)
    return True


class RosterPreview(QPrintPreviewDialog):
    """The roster's pages as they will print; its Print button asks for a printer and prints.

    Qt's dialog asks for the pages through paintRequested whenever the preview changes
    (page set-up, orientation), so the printout is laid out again for the new paper.
    """

    def __init__(self, army: Army, parent: QWidget | None = None,
                 found: Sequence[RosterProblem] | None = None) -> None:
        printer = _printer(army)
        super().__init__(printer, parent)
        # The dialog does not own the printer: it lives as long as the dialog does.
        self._printer = printer
        self._army = army
        self._found = found
        self.setWindowTitle(f"Print Preview — {one_line(army.name)}")
        self.paintRequested.connect(self._paint)

    def _paint(self, printer: QPrinter) -> None:
        print_to(self._army, printer, self._found)

    def page_count(self) -> int:
        """Pages in the preview (0 until it has been shown once)."""
        preview = self.findChild(QPrintPreviewWidget)
        return preview.pageCount() if preview is not None else 0


def preview_roster(army: Army, parent: QWidget,
                   found: Sequence[RosterProblem] | None = None) -> None:
    """Show the print preview of the roster until the player closes it."""
    dialog = RosterPreview(army, parent, found)
    try:
        dialog.exec()
    finally:
        dialog.deleteLater()
