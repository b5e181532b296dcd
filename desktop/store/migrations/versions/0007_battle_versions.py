"""Battles count their steps saved and taken off, and an unfinished resolution knows which
window it belongs to, so that two windows on one battle never save a step made on a battle
that has moved on, never undo each other's steps, and never overwrite each other's
unfinished resolution (issue 21).

What is stored already is version 1, its unfinished resolutions nobody's ('').

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False,
                                   server_default=sa.text("1")))
    with op.batch_alter_table("pending_resolution") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=False,
                                   server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("pending_resolution") as batch:
        batch.drop_column("owner")
    with op.batch_alter_table("battle") as batch:
        batch.drop_column("version")
