"""The battlefield: a scene that shows a Battle, a view to look at it, tools to move units.

The scene follows the engine state one way (`BattlefieldScene.show_battle`); tools propose
engine-checked events with `movesProposed`; the owner of the battle applies them.
"""

from desktop.gui.battlefield.menus import context_menu
from desktop.gui.battlefield.replay import Replay, ReplayBar, ReplayHistory, no_full_collections
from desktop.gui.battlefield.scene import BattlefieldScene
from desktop.gui.battlefield.view import BattlefieldView

__all__ = ["BattlefieldScene", "BattlefieldView", "Replay", "ReplayBar", "ReplayHistory",
           "context_menu", "no_full_collections"]
