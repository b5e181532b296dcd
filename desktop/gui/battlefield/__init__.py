"""The battlefield: a scene that shows a Battle, a view to look at it, tools to move units.

The scene follows the engine state one way (`scene.BattlefieldScene.show_battle`); tools
propose engine-checked events with `movesProposed`; the owner of the battle applies them.
Import from the modules (scene, view, replay, menus, tools): the package imports nothing, so
that the battle list's replay history comes without the scene and its items.
"""
