"""Persistence: sqlmodel tables, sessions, migrations, import/export (later issues)."""
