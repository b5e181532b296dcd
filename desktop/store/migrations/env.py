"""Alembic environment. Rout runs migrations itself at start-up (desktop.store.database);
developers can also run `alembic` from the repository root (alembic.ini) against a scratch
database to write a new revision."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from desktop.store.tables import SQLModel

config = context.config
target_metadata = SQLModel.metadata


def run_with(connection: Connection) -> None:
    # SQLite cannot alter most columns in place: batch mode copies the table instead.
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run_with(connection)
else:
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///scratch.sqlite")
    with engine.begin() as opened:
        run_with(opened)
