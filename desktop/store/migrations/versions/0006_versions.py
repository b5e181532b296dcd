"""Armies and libraries count their saves, so that a save from an older version is refused
instead of silently dropping what someone else saved meanwhile (two windows on one
PostgreSQL database, a script and a window).

What is stored already is version 1.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("army", "library"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("version", sa.Integer(), nullable=False,
                                       server_default=sa.text("1")))


def downgrade() -> None:
    for table in ("library", "army"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("version")
