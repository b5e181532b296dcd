"""A longer fuzz of the `rout` command than the test suite runs. Run

    python tests/bench/fuzz_cli.py [EXAMPLES]

Runs every test of tests/test_fuzz_cli.py with EXAMPLES examples each (default 1,000; the
suite runs 25): odds arguments, database URLs, scenarios, Rout JSON armies and battles,
BattleScribe rosters, and a fifth as many through `python -m desktop` in a subprocess. Each
run must exit 0 or 2 with at most one line on stderr and no traceback, within the time and
memory bounds of tests/fuzzing.py. Prints one line per input kind; exits 1 on the first
failure, with hypothesis's smallest failing example.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def main() -> int:
    examples = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    os.environ["ROUT_FUZZ_EXAMPLES"] = str(examples)  # read when fuzzing is imported
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(TESTS))
    import test_fuzz_cli

    names = [name for name in dir(test_fuzz_cli) if name.startswith("test_")]
    total = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # what the suite's scratch-folder fixture does
        for name in names:
            test = getattr(test_fuzz_cli, name)
            # Each test's own share of EXAMPLES (the subprocess runs take a fifth).
            count = getattr(getattr(test, "_hypothesis_internal_use_settings", None),
                            "max_examples", examples)
            started = time.perf_counter()
            try:
                test()
            except Exception:
                traceback.print_exc()
                print(f"bench fuzz {name}: FAILED")
                return 1
            print(f"bench fuzz {name}: up to {count} examples in "
                  f"{time.perf_counter() - started:.1f} s")
    print(f"bench fuzz: all passed in {time.perf_counter() - total:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
