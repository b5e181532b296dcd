"""Replaces PyInstaller's hook for this Qt module: the same collection, trimmed by
rout.spec's hooksconfig["PySide6"] (packaging/qt_hooks.py)."""

from typing import Any

from qt_hooks import collect


def hook(hook_api: Any) -> None:
    collect(hook_api, __file__)
