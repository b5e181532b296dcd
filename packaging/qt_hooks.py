"""Rout's PySide6 hooks: PyInstaller's own collection of a Qt module, then trimmed.

PyInstaller's stock Qt hooks take no options: for each Qt module they collect every plugin
of each type the module uses (all image formats, all platforms, GTK 3's theme, ...) and every
translation. The hooks in packaging/hooks/ (hook-PySide6.QtCore.py and the others, which
PyInstaller prefers to its stock hooks of the same name) call `collect`, which collects the
same way and keeps only what rout.spec's `hooksconfig["PySide6"]` allows:

    "modules":      the PySide6 modules a hook may pull in as hidden imports
    "plugins":      {plugin type: plugin names without `lib` and extension}; others dropped
    "translations": languages of Qt's translations to keep

A key left out keeps PyInstaller's default for it.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from PyInstaller.utils.hooks import get_hook_config
from PyInstaller.utils.hooks.qt import add_qt6_dependencies

CONFIG = "PySide6"


def plugin_name(file_name: str) -> str:
    """`libqxcb.so` -> `qxcb`, `qwindows.dll` -> `qwindows`, `libqcocoa.dylib` -> `qcocoa`."""
    stem = file_name.split(".")[0]
    return stem[3:] if stem.startswith("lib") else stem


def keep_binary(source: str, destination: str, plugins: dict[str, Any]) -> bool:
    """Whether a binary collected by a Qt hook is kept: anything but a plugin is."""
    parts = PurePath(destination).parts
    if "plugins" not in parts or parts.index("plugins") + 1 >= len(parts):
        return True
    plugin_type = parts[parts.index("plugins") + 1]
    return plugin_name(PurePath(source).name) in plugins.get(plugin_type, ())


def keep_translation(source: str, languages: list[str] | tuple[str, ...]) -> bool:
    """Whether a Qt translation (`qtbase_de.qm`) is in one of `languages`."""
    stem = PurePath(source).stem
    return "_" in stem and stem.split("_", 1)[1] in languages


def collect(hook_api: Any, hook_file: str) -> None:
    """Collect the hook's Qt module like PyInstaller does, trimmed by hooksconfig."""
    hiddenimports, binaries, datas = add_qt6_dependencies(hook_file)
    modules = get_hook_config(hook_api, CONFIG, "modules")
    plugins = get_hook_config(hook_api, CONFIG, "plugins")
    languages = get_hook_config(hook_api, CONFIG, "translations")
    if modules is not None:
        hiddenimports = [name for name in hiddenimports
                         if not name.startswith("PySide6.Qt")
                         or name.split(".")[1] in modules]
    if plugins is not None:
        binaries = [(source, destination) for source, destination in binaries
                    if keep_binary(source, destination, plugins)]
    if languages is not None:
        datas = [(source, destination) for source, destination in datas
                 if not source.endswith(".qm") or keep_translation(source, languages)]
    if hiddenimports:
        hook_api.add_imports(*hiddenimports)
    hook_api.add_binaries(binaries)
    hook_api.add_datas(datas)
