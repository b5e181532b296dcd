"""Battle ▸ Export Battle Report: the battle in plain words, step by step, with a picture of
the table (desktop.engine.narrate writes the words).

Only the file the player chose is written, whole (a temporary file renamed into place): an
HTML report carries its picture inside, so the one file can be sent; a Markdown report
links a picture beside it, under a name no file has yet — nothing of the player's is
replaced or removed.
"""

from __future__ import annotations

import base64
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QImage

from desktop.engine.narrate import report_html, report_markdown
from desktop.gui.pictures import save_picture
from desktop.store.errors import StoreError
from desktop.store.files import short_path, write_atomically
from desktop.store.store import SavedBattle

MAX_NAMES = 1000  # free names tried for a Markdown report's picture


class ReportError(Exception):
    """The report could not be written; the message says what, for the status bar."""


def write_report(battle: SavedBattle, picture: QImage, path: Path) -> Path | None:
    """Write `battle`'s report to `path` (.md for Markdown, else HTML); returns the picture
    written beside it (Markdown), None when the picture is inside (HTML)."""
    beside: Path | None = None
    if path.suffix.lower() == ".md":
        beside = free_name(path.with_suffix(".png"))
        if not save_picture(picture, beside, "PNG"):
            raise ReportError(f"Cannot write the picture {short_path(beside)}")
        text = report_markdown(battle.title, battle.start, battle.steps, image=beside.name)
    else:
        text = report_html(battle.title, battle.start, battle.steps,
                           image=f"data:image/png;base64,{png_base64(picture)}")
    try:
        write_atomically(path, text.encode("utf-8"))
    except StoreError as error:
        if beside is not None:
            beside.unlink(missing_ok=True)  # ours, just written: no report links it
        raise ReportError(f"Cannot write the report: {error}") from None
    return beside


def free_name(wanted: Path) -> Path:
    """`wanted`, or `name-2.png`, `name-3.png`… the first no file has."""
    if not wanted.exists():
        return wanted
    for number in range(2, MAX_NAMES):
        candidate = wanted.with_name(f"{wanted.stem}-{number}{wanted.suffix}")
        if not candidate.exists():
            return candidate
    raise ReportError(f"No free name for the picture beside {short_path(wanted)}")


def png_base64(picture: QImage) -> str:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    picture.save(buffer, "PNG")  # type: ignore[call-overload]
    return base64.b64encode(bytes(buffer.data().data())).decode("ascii")
