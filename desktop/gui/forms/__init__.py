"""Python modules generated from the Designer forms in ui/.

The chosen way: the modules are generated with `pyside6-uic` and committed, so the app and
the tests run without a build step. After editing a form in ui/, regenerate them with

    python -m desktop.gui.forms.build

`python -m desktop.gui.forms.build --check` (run by tests/test_gui_main_window.py) fails when
a committed module no longer matches its form. Never edit the `ui_*.py` files by hand.
"""
