"""`python -m tests.bench`: every benchmark in one report (see runner.py)."""

from .runner import main

raise SystemExit(main())
