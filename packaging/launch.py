"""The frozen app's entry point: the same as the `rout` command and `python -m desktop`."""

from desktop.cli import run

run()
