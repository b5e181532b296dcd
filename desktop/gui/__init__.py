"""The Qt desktop interface: main window, battlefield, roster panes and dialogs.

Everything here only shows state and forwards the player's actions; rules are decided by
`desktop.engine`.
"""
