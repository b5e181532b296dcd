"""Pictures written whole: the screenshot, the first frame and the battlefield's PNG export."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QIODevice, QSaveFile
from PySide6.QtGui import QImage, QPixmap

# Qt turns a PNG's quality into zlib's level ((100 - quality) * 9 / 91): 70 is level 2,
# which writes a window's picture in two thirds of the default's time, no larger.
PNG_QUALITY = 70


def save_picture(picture: QImage | QPixmap, path: str | os.PathLike[str],
                 image_format: str = "") -> bool:
    """Save `picture` as `image_format`, else the format its file name's suffix names
    (.png, .jpg…).

    The file appears, or replaces an older one, only once the picture is whole (QSaveFile
    writes beside it and renames): a crash or a full disk never leaves half a picture, and
    whoever waits for the file may read it as soon as it is there. False when it cannot be
    written (no such folder, not writable, no format of that name); an older file then
    stays as it was.
    """
    image_format = image_format or Path(path).suffix.lstrip(".").upper()
    if not image_format:
        return False
    file = QSaveFile(os.fspath(path))
    if not file.open(QIODevice.OpenModeFlag.WriteOnly):
        return False
    # PySide6 takes the format as str at run time; its stubs say bytes.
    quality = PNG_QUALITY if image_format.upper() == "PNG" else -1
    if not picture.save(file, image_format, quality):  # type: ignore[call-overload]
        file.cancelWriting()
        return False
    return file.commit()
