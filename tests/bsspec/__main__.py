"""`python -m tests.bsspec [FOLDER]`: run battlescribe-spec roster specs against the engine."""

import sys

from tests.bsspec import main

sys.exit(main())
