"""`python -m desktop` is the same as the `rout` command."""

from desktop.cli import run

run()
