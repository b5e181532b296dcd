"""The rules engine: pure Python, no Qt, no database, no I/O. Everything else calls it."""
