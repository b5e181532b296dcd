"""File ▸ Import Army, Export Army and Open Sample Armies: armies to and from files.

An import is read in a worker (a BattleScribe roster may be big) and the army arrives as
one undoable step; sample armies are one step together. What a file holds and how it is
written is the store's (desktop.store.transfer), imported when a file is read or written:
not before the first paint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject

from desktop.bundled import resources_dir
from desktop.engine.naming import numbered_name
from desktop.gui import file_dialogs
from desktop.gui.features import codec, files, roster_data, transfer
from desktop.store.errors import StoreError

if TYPE_CHECKING:
    from desktop.engine.model import Army
    from desktop.gui.main_window import MainWindow


ROSTER_SUFFIXES = (".ros", ".rosz")  # BattleScribe rosters


def sample_armies() -> list[Army]:

    return [codec.army_from_json(files.read_json(path))
            for path in sorted((resources_dir() / "armies").glob("*.json"))]


class ArmyFiles(QObject):
    """Import, export and the sample armies, for the window's database."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        window.ui.actionOpenSamples.triggered.connect(self.add_sample_armies)
        window.ui.actionImport.triggered.connect(self.choose_import)
        window.ui.actionExport.triggered.connect(self.choose_export)

    def add_sample_armies(self) -> None:
        window = self.window
        try:
            armies = sample_armies()
        except Exception as error:
            window.report_error("Cannot read the sample armies", error)
            return
        # Added again, a set gets names of its own: "Elf Marchwardens (2)".
        taken = {a.name for a in window.workspace.armies()} if window.workspace else set()
        window.undo_stack.beginMacro("Add sample armies")
        for army in armies:
            army = replace(army, name=numbered_name(army.name, taken))
            taken.add(army.name)
            window.push_army(None, army, f"Add {army.name}")
        window.undo_stack.endMacro()
        window.tell(f"Added {len(armies)} sample armies")

    def choose_import(self) -> None:
        path = file_dialogs.open_file_name(
            self.window, "Import Army", "", "Armies (*.json *.ros *.rosz);;All files (*)")
        if path:
            self.import_army(Path(path))

    def import_army(self, path: Path, on_finished: Callable[[], None] | None = None) -> None:
        """Read the file in a worker; the army then arrives as one undoable step."""

        window = self.window

        def done(imported: Any) -> None:
            if window.workspace is not None:  # a BattleScribe catalogue names its army list
                imported = transfer.with_army_list(imported,
                                          window.workspace.full_library(imported.army.ruleset))
                # Imported again (an export read back), it is told apart: "Lances (2)".
                taken = {army.name for army in window.workspace.armies()}
                imported = replace(imported, army=replace(
                    imported.army, name=numbered_name(imported.army.name, taken)))
            window.push_army(None, imported.army, f"Import {imported.army.name}")
            warnings = list(imported.warnings)
            if path.suffix.lower() in ROSTER_SUFFIXES and imported.army.book is None \
                    and imported.catalogue:
                # Read without its catalogue: its units are plain ones until the data is in.
                warnings.insert(0, f"the game data of {imported.catalogue} is not stored: "
                                   "add it (File ▸ Game Data…) and import again to edit "
                                   "the army's options")
            warned = "; ".join(warnings)
            window.tell(f"Imported {imported.army.name} from {path.name}"
                        + (f" — {warned}" if warned else ""))
            if on_finished:
                on_finished()

        def failed(error: BaseException) -> None:
            window.report_error("Cannot import", error)
            if on_finished:
                on_finished()

        store = window.store

        def read() -> Any:
            imported = transfer.read_army_file(path)
            if store is not None and path.suffix.lower() in ROSTER_SUFFIXES:
                # Priced from its stored catalogue; linked whole, it keeps its roster.
                imported, _ = roster_data.priced_from_stored_data(store, imported, path)
            return imported

        window.runner.run(read, done, failed,
                          progress_parent=window, label=f"Importing {path.name}…")

    def choose_export(self) -> None:
        army = self.window.current_army
        if army is None:
            return
        rosters = ";;BattleScribe roster (*.rosz);;BattleScribe roster, not zipped (*.ros)" \
            if army.book is not None else ""
        path = file_dialogs.save_file_name(
            self.window, "Export Army", f"{army.name}.json",
            "Rout JSON (*.json);;Text for forums (*.txt);;Markdown (*.md)" + rosters)
        if path:
            self.export_army(Path(path))

    def export_army(self, path: Path) -> bool:
        """Write the army on screen to `path`, in the format its suffix names."""

        army = self.window.current_army
        if army is None:
            return False
        if path.suffix.lower() in ROSTER_SUFFIXES:
            return self.window.army_books.export_roster(army, path)
        try:
            chosen = transfer.write_army_file(army, path)
        except StoreError as error:
            self.window.report_error("Cannot export", error)
            return False
        self.window.tell(f"Exported {army.name} to {path} ({chosen})")
        return True
