"""The window's features that its first frame does not need, each loaded where it first
opens: one name per module, imported on the first use of one of its names (desktop.lazy).

A window module imports what it needs from here at its top (`from desktop.gui.features
import dialogs`) and writes `dialogs.NewArmyDialog(...)`: the dependency is in sight, and
the module loads only when a player first opens a dialog. What loads when:

- the first frame: the main window, its forms and docks, the Battles dock's list;
- the armies shown: the store (SQLAlchemy), the rulesets, the roster's models and charts;
- a battle opened: the battlefield, its tools and replay, the engine's events and moves;
- a resolution: the wizard; printing, the odds dialog, the dialogs: when first asked for;
- the army books (game data, their dock and dialogs): an army built from one shown, or
  File ▸ Game Data… / New Army from an Army Book… chosen.

tests/test_startup_imports.py holds the first frame to that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from desktop.lazy import lazy_module

__all__ = [
    "army_actions",
    "army_books",
    "army_tree",
    "battle_panel",
    "battle_report",
    "battle_setup",
    "battlefield_scene",
    "battlefield_tools",
    "battlefield_view",
    "battles",
    "bundled_samples",
    "chart",
    "checking",
    "codec",
    "columns",
    "commands",
    "composition",
    "crash",
    "ctypes",
    "databases",
    "delegates",
    "dialogs",
    "dice_rolls",
    "engine_events",
    "files",
    "forecasting",
    "geometry",
    "model",
    "moves",
    "narrate",
    "odds",
    "odds_chart",
    "odds_dialog",
    "pg",
    "placement",
    "platform_check",
    "platformdirs",
    "printing",
    "procedure",
    "replay",
    "resolution_wizard",
    "resolutions",
    "roster_data",
    "roster_table",
    "rosters",
    "rulesets",
    "scenarios",
    "spatial",
    "sqlalchemy_engine",
    "storage",
    "stored_libraries",
    "subprocess",
    "tasks",
    "terrain_tool",
    "transfer",
    "workspaces",
]

if TYPE_CHECKING:
    import ctypes
    import subprocess

    import platformdirs
    import pyqtgraph as pg
    import sqlalchemy.engine as sqlalchemy_engine

    import desktop.engine.dice as dice_rolls
    import desktop.engine.events as engine_events
    import desktop.engine.forecast as forecasting
    import desktop.engine.roster as rosters
    import desktop.engine.scenario as scenarios
    import desktop.engine.setup as battle_setup
    import desktop.gui.battlefield.scene as battlefield_scene
    import desktop.gui.battlefield.tools as battlefield_tools
    import desktop.gui.battlefield.view as battlefield_view
    import desktop.gui.wizard as resolution_wizard
    import desktop.gui.workspace as workspaces
    import desktop.store.database as databases
    import desktop.store.libraries as stored_libraries
    import desktop.store.samples as bundled_samples
    import desktop.store.store as storage
    from desktop.engine import (
        codec,
        composition,
        geometry,
        model,
        moves,
        narrate,
        odds,
        procedure,
        rulesets,
        spatial,
    )
    from desktop.gui import (
        army_actions,
        army_books,
        army_tree,
        battle_panel,
        battle_report,
        battles,
        chart,
        columns,
        commands,
        crash,
        delegates,
        dialogs,
        odds_dialog,
        platform_check,
        printing,
        resolutions,
        roster_table,
        tasks,
    )
    from desktop.gui.battlefield import replay, terrain_tool
    from desktop.gui.wizard import odds_chart, placement
    from desktop.store import checking, files, roster_data, transfer
else:
    army_actions = lazy_module("desktop.gui.army_actions")
    army_books = lazy_module("desktop.gui.army_books")
    army_tree = lazy_module("desktop.gui.army_tree")
    battle_panel = lazy_module("desktop.gui.battle_panel")
    battle_report = lazy_module("desktop.gui.battle_report")
    battle_setup = lazy_module("desktop.engine.setup")
    battlefield_scene = lazy_module("desktop.gui.battlefield.scene")
    battlefield_tools = lazy_module("desktop.gui.battlefield.tools")
    battlefield_view = lazy_module("desktop.gui.battlefield.view")
    battles = lazy_module("desktop.gui.battles")
    chart = lazy_module("desktop.gui.chart")
    checking = lazy_module("desktop.store.checking")
    codec = lazy_module("desktop.engine.codec")
    columns = lazy_module("desktop.gui.columns")
    commands = lazy_module("desktop.gui.commands")
    composition = lazy_module("desktop.engine.composition")
    crash = lazy_module("desktop.gui.crash")
    ctypes = lazy_module("ctypes")
    databases = lazy_module("desktop.store.database")
    delegates = lazy_module("desktop.gui.delegates")
    dialogs = lazy_module("desktop.gui.dialogs")
    dice_rolls = lazy_module("desktop.engine.dice")
    engine_events = lazy_module("desktop.engine.events")
    files = lazy_module("desktop.store.files")
    forecasting = lazy_module("desktop.engine.forecast")
    geometry = lazy_module("desktop.engine.geometry")
    stored_libraries = lazy_module("desktop.store.libraries")
    model = lazy_module("desktop.engine.model")
    moves = lazy_module("desktop.engine.moves")
    narrate = lazy_module("desktop.engine.narrate")
    odds = lazy_module("desktop.engine.odds")
    odds_chart = lazy_module("desktop.gui.wizard.odds_chart")
    odds_dialog = lazy_module("desktop.gui.odds_dialog")
    pg = lazy_module("pyqtgraph")
    placement = lazy_module("desktop.gui.wizard.placement")
    platform_check = lazy_module("desktop.gui.platform_check")
    platformdirs = lazy_module("platformdirs")
    printing = lazy_module("desktop.gui.printing")
    procedure = lazy_module("desktop.engine.procedure")
    replay = lazy_module("desktop.gui.battlefield.replay")
    resolutions = lazy_module("desktop.gui.resolutions")
    roster_data = lazy_module("desktop.store.roster_data")
    roster_table = lazy_module("desktop.gui.roster_table")
    rosters = lazy_module("desktop.engine.roster")
    rulesets = lazy_module("desktop.engine.rulesets")
    bundled_samples = lazy_module("desktop.store.samples")
    scenarios = lazy_module("desktop.engine.scenario")
    spatial = lazy_module("desktop.engine.spatial")
    sqlalchemy_engine = lazy_module("sqlalchemy.engine")
    storage = lazy_module("desktop.store.store")
    subprocess = lazy_module("subprocess")
    tasks = lazy_module("desktop.gui.tasks")
    terrain_tool = lazy_module("desktop.gui.battlefield.terrain_tool")
    transfer = lazy_module("desktop.store.transfer")
    resolution_wizard = lazy_module("desktop.gui.wizard")
    workspaces = lazy_module("desktop.gui.workspace")
