"""File dialogs that never open the files they list.

Qt's file dialog tells a file's type, for its icon and its Type column, by reading the
file's first bytes when its name does not say (rout.sqlite-wal, rout.sqlite-shm). Opening
and closing the database's own files in this process dropped SQLite's locks on them: POSIX
locks belong to a process, and any close of the file drops them. The next program to
close the database (`rout armies`, another window) then took itself for its last user and
deleted the write-ahead log the window was still writing to, so that the window's saves
went to a deleted file (a real-window try of issue 23, traced with strace). These dialogs
name types by the file's name alone; every file dialog of the window is made here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QFileInfo, QStandardPaths
from PySide6.QtGui import QAbstractFileIconProvider, QIcon
from PySide6.QtWidgets import QApplication, QFileDialog, QStyle, QWidget

FileMode = QFileDialog.FileMode
AcceptMode = QFileDialog.AcceptMode


class NamedTypes(QAbstractFileIconProvider):
    """Icons and types from a file's name and kind (folder or file), never its contents."""

    def icon(self, what: object) -> QIcon:  # Qt override (both overloads)
        style = QApplication.style()
        folder = (what.isDir() if isinstance(what, QFileInfo)
                  else what == QAbstractFileIconProvider.IconType.Folder)
        return style.standardIcon(QStyle.StandardPixmap.SP_DirIcon if folder
                                  else QStyle.StandardPixmap.SP_FileIcon)

    def type(self, info: QFileInfo) -> str:  # Qt override
        if info.isDir():
            return "Folder"
        suffix = info.suffix()
        return f"{suffix.upper()} file" if suffix else "File"


_NAMED_TYPES = NamedTypes()


def file_dialog(parent: QWidget | None, caption: str, directory: str = "",
                name_filter: str = "") -> QFileDialog:
    """A file dialog that reads nothing of the files it lists (see the module's text).
    A `directory` that is no folder of its own (a file name, or nothing) is taken in the
    player's Documents folder, not the folder Rout was started from."""
    dialog = QFileDialog(parent, caption, _in_documents(directory), name_filter)
    # Qt's own dialog, which takes an icon provider (a desktop's own may read files).
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setIconProvider(_NAMED_TYPES)
    return dialog


def _in_documents(directory: str) -> str:
    if directory and Path(directory).is_absolute():
        return directory
    documents = QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.DocumentsLocation)
    home = Path(documents) if documents and Path(documents).is_dir() else Path.home()
    return str(home / directory) if directory else str(home)


def _run(dialog: QFileDialog) -> list[str]:
    try:
        return dialog.selectedFiles() if dialog.exec() == QFileDialog.DialogCode.Accepted \
            else []
    finally:
        dialog.deleteLater()


def open_file_name(parent: QWidget | None, caption: str, directory: str = "",
                   name_filter: str = "") -> str:
    """The file chosen to open, or "" (as QFileDialog.getOpenFileName's first value)."""
    dialog = file_dialog(parent, caption, directory, name_filter)
    dialog.setFileMode(FileMode.ExistingFile)
    chosen = _run(dialog)
    return chosen[0] if chosen else ""


def open_file_names(parent: QWidget | None, caption: str, directory: str = "",
                    name_filter: str = "") -> Sequence[str]:
    dialog = file_dialog(parent, caption, directory, name_filter)
    dialog.setFileMode(FileMode.ExistingFiles)
    return _run(dialog)


def save_file_name(parent: QWidget | None, caption: str, directory: str = "",
                   name_filter: str = "") -> str:
    """The file chosen to write, or "" (the dialog asks before it is overwritten)."""
    dialog = file_dialog(parent, caption, directory, name_filter)
    dialog.setAcceptMode(AcceptMode.AcceptSave)
    dialog.setFileMode(FileMode.AnyFile)
    chosen = _run(dialog)
    return chosen[0] if chosen else ""


def existing_directory(parent: QWidget | None, caption: str, directory: str = "") -> str:
    dialog = file_dialog(parent, caption, directory)
    dialog.setFileMode(FileMode.Directory)
    dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
    chosen = _run(dialog)
    return chosen[0] if chosen else ""
