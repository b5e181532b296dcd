"""Every benchmark in one report (runner.py); the benches run alone too."""
