"""Pictures are written whole or not at all (the screenshot, the first frame, PNG export)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from desktop.gui.pictures import save_picture


def picture(colour: str) -> QImage:
    image = QImage(40, 30, QImage.Format.Format_ARGB32)
    image.fill(QColor(colour))
    return image


def test_the_suffix_names_the_format_and_the_file_reads_back(qtbot, tmp_path):
    for name in ("shot.png", "shot.JPG"):
        assert save_picture(picture("#4a7ebb"), tmp_path / name)
        read = QImage(str(tmp_path / name))
        assert (read.width(), read.height()) == (40, 30)
    assert QImage(str(tmp_path / "shot.png")).pixelColor(5, 5).name() == "#4a7ebb"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["shot.JPG", "shot.png"]


def test_a_format_given_wins_over_a_missing_suffix(qtbot, tmp_path):
    assert not save_picture(picture("red"), tmp_path / "table")
    assert save_picture(picture("red"), tmp_path / "table", "PNG")
    assert QImage(str(tmp_path / "table"), "PNG").width() == 40


def test_a_failed_save_leaves_the_older_picture_and_no_scraps(qtbot, tmp_path):
    target = tmp_path / "shot.png"
    assert save_picture(picture("green"), target)
    before = target.read_bytes()
    assert not save_picture(picture("red"), target, "NO-SUCH-FORMAT")
    assert target.read_bytes() == before
    assert not save_picture(picture("red"), tmp_path / "missing" / "shot.png")
    assert [path.name for path in tmp_path.iterdir()] == ["shot.png"]
