"""Persistence: the tables (declared with sqlmodel in tables.py, read and written through the
Core tables generated from them in schema.py), migrations, import and export."""
