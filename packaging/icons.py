"""Rout's application icon as files for desktops, drawn from resources/icons/rout.svg by Qt's
own SVG renderer (PySide6's QtSvg: nothing to install beyond the build venv).

    python packaging/icons.py hicolor ROOT   ROOT/usr/share/icons/hicolor/*/apps/APP_ID.*
    python packaging/icons.py ico FILE       a Windows icon (256 px), for the spec on Windows
    python packaging/icons.py icns FILE      a macOS icon (512 px), for the spec on macOS
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from contents import APP_ID

if TYPE_CHECKING:
    from PySide6.QtGui import QGuiApplication, QImage

HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)
"""The sizes of the freedesktop hicolor theme that desktops look up for an application."""


def source_svg() -> Path:
    """The icon every size is drawn from."""
    from desktop.bundled import resource_path

    return resource_path("icons", "rout.svg")


_application: list[QGuiApplication] = []
"""The QGuiApplication that QPainter needs, kept alive while icons are drawn."""


def render(svg: Path, size: int) -> QImage:
    """The SVG drawn on a transparent square of `size` pixels."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if QGuiApplication.instance() is None:
        _application.append(QGuiApplication([]))
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"icons: {svg} is not an SVG image Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def save(image: QImage, path: Path, kind: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(path), kind):
        raise SystemExit(f"icons: Qt could not write {path} as {kind}")
    return path


def write_hicolor(root: Path) -> list[Path]:
    """The icon at every hicolor size, plus the SVG itself as the scalable one."""
    svg = source_svg()
    theme = root / "usr" / "share" / "icons" / "hicolor"
    written = [save(render(svg, size), theme / f"{size}x{size}" / "apps" / f"{APP_ID}.png",
                    "PNG") for size in HICOLOR_SIZES]
    scalable = theme / "scalable" / "apps" / f"{APP_ID}.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(svg, scalable)
    return [*written, scalable]


def main(arguments: list[str]) -> int:
    if len(arguments) != 2 or arguments[0] not in ("hicolor", "ico", "icns"):
        print(__doc__, file=sys.stderr)
        return 2
    kind, target = arguments[0], Path(arguments[1])
    if kind == "hicolor":
        written = write_hicolor(target)
    else:
        size = 256 if kind == "ico" else 512
        written = [save(render(source_svg(), size), target, kind.upper())]
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
