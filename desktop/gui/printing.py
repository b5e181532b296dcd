"""A roster on paper: HTML laid out by QTextDocument, printed or written to a PDF.

QTextDocument understands only a subset of HTML and CSS (tables, simple selectors, colours,
borders), so the document keeps to that subset; it looks the same in a PDF and on a printer.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
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
    QTextDocument,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import QDialog, QWidget

from desktop.engine.model import Army, Unit
from desktop.engine.rulesets import get_ruleset

PAGE_MARGIN_MM: Final = 15.0
PDF_CREATOR: Final = "Rout"
NO_SLOT: Final = "Units"
"""The heading for units without an army-list slot (as in the text roster)."""

STYLE: Final = """
body { font-family: sans-serif; font-size: 10pt; color: #000000; }
h1 { font-size: 18pt; margin-bottom: 2pt; }
h2 { font-size: 13pt; margin-top: 14pt; margin-bottom: 4pt; }
p.summary { color: #444444; margin-top: 0; }
table.slot { border-collapse: collapse; }
th { background-color: #e4e4e4; text-align: left; font-weight: bold; }
th, td { border: 1px solid #999999; padding: 3px; font-size: 9pt; }
td.number, th.number { text-align: right; }
td.notes { color: #444444; font-size: 9pt; }
"""

COLUMNS: Final = ("Unit", "Profile", "Models", "Formation", "Stats", "Upgrades", "Points")
NUMBER_COLUMNS: Final = frozenset({"Models", "Points"})


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _text(text: str) -> str:
    """Player text as HTML: escaped, quotes too, so nothing can become markup."""
    return escape(_one_line(text), quote=True)


def _slots(army: Army) -> list[tuple[str, list[Unit]]]:
    """Units grouped by slot, in the order the roster first uses each slot."""
    groups: dict[str, list[Unit]] = {}
    for unit in army.units:
        groups.setdefault(_one_line(unit.slot) or NO_SLOT, []).append(unit)
    return list(groups.items())


def formation(unit: Unit) -> str:
    """Files × ranks, the last rank possibly short: 12 models 5 wide is "5 × 3"."""
    if unit.files <= 0 or unit.models <= 0:
        return "–"
    return f"{min(unit.files, unit.models)} × {unit.ranks}"


def _stats(unit: Unit) -> str:
    return " ".join(f"{name}{value}" for name, value in unit.profile.stats.items())


def _cell(text: str, column: str) -> str:
    css = ' class="number"' if column in NUMBER_COLUMNS else ""
    return f"<td{css}>{text}</td>"


def _unit_row(unit: Unit) -> str:
    values = (
        f"<b>{_text(unit.name)}</b>",
        _text(unit.profile.name),
        str(unit.models),
        escape(formation(unit)),
        _text(_stats(unit)),
        _text(", ".join(sorted(unit.upgrades))) or "–",
        str(unit.points),
    )
    return "<tr>" + "".join(_cell(value, column)
                            for value, column in zip(values, COLUMNS, strict=True)) + "</tr>"


def _slot_table(units: Iterable[Unit]) -> str:
    header = "".join(f'<th class="number">{column}</th>' if column in NUMBER_COLUMNS
                     else f"<th>{column}</th>" for column in COLUMNS)
    rows = "".join(_unit_row(unit) for unit in units)
    # cellspacing/cellpadding as attributes: QTextDocument ignores them in CSS on tables.
    return (f'<table class="slot" width="100%" cellspacing="0" cellpadding="3">'
            f"<thead><tr>{header}</tr></thead><tbody>{rows}</tbody></table>")


def _summary(army: Army) -> str:
    limit = f" / {army.points_limit}" if army.points_limit else ""
    units = f"{len(army.units)} unit" + ("" if len(army.units) == 1 else "s")
    parts = [get_ruleset(army.ruleset).name, f"{army.points}{limit} points", units]
    if army.player:
        parts.insert(0, army.player)
    return " · ".join(_text(part) for part in parts)


def roster_html(army: Army) -> str:
    """The roster as a whole HTML document: a heading, then one table per slot."""
    title = _text(army.name)
    body = [f"<h1>{title}</h1>", f'<p class="summary">{_summary(army)}</p>']
    for slot, units in _slots(army):
        points = sum(unit.points for unit in units)
        body.append(f"<h2>{_text(slot)} — {points} points</h2>")
        body.append(_slot_table(units))
    if not army.units:
        body.append("<p>No units yet.</p>")
    notes = [_text(note) for note in army.notes if note.strip()]
    if notes:
        body.append("<h2>Notes</h2>")
        body.extend(f"<p>{note}</p>" for note in notes)
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{STYLE}</style></head>\n"
            f"<body>\n{chr(10).join(body)}\n</body></html>\n")


def roster_document(army: Army, parent: QObject | None = None) -> QTextDocument:
    """The roster as a QTextDocument, owned by `parent` (or by the caller if None)."""
    document = QTextDocument(parent)
    document.setHtml(roster_html(army))
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


def _print_document(document: QTextDocument, device: QPagedPaintDevice) -> None:
    """Print `document` filling the device's printable area (inside its page margins).

    A document without a page size would get QTextDocument.print's own 2 cm margins on top
    of the page margins; with one, print() only scales its pages to the paper.
    """
    dpi = _layout_dpi()
    printable = device.pageLayout().paintRect(QPageLayout.Unit.Inch)
    document.setPageSize(QSizeF(printable.width() * dpi, printable.height() * dpi))
    document.print_(device)


def _page_layout() -> QPageLayout:
    return QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                       QMarginsF(PAGE_MARGIN_MM, PAGE_MARGIN_MM, PAGE_MARGIN_MM,
                                 PAGE_MARGIN_MM), QPageLayout.Unit.Millimeter)


def write_pdf(army: Army, path: Path) -> None:
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
        _render_pdf(army, str(temporary))
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


def _render_pdf(army: Army, filename: str) -> None:
    """Lay out and write the PDF; the writer is gone, so the file is closed, on return."""
    writer = QPdfWriter(filename)
    writer.setPageLayout(_page_layout())
    writer.setTitle(army.name)
    writer.setCreator(PDF_CREATOR)
    _print_document(roster_document(army, writer), writer)


def print_to(army: Army, printer: QPrinter) -> None:
    """Print the roster on `printer` as it is set up (a real printer or a PDF file)."""
    printer.setDocName(army.name)
    printer.setCreator(PDF_CREATOR)
    document = roster_document(army)
    _print_document(document, printer)


def print_roster(army: Army, parent: QWidget) -> bool:
    """Ask for a printer with the system's print dialog and print; False if cancelled."""
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setPageLayout(_page_layout())
    printer.setDocName(army.name)
    dialog = QPrintDialog(printer, parent)
    dialog.setWindowTitle(f"Print {_one_line(army.name)}")
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
    finally:
        dialog.deleteLater()
    print_to(army, printer)
    return True
