"""Library entries carry what each upgrade costs, so units added from a library are priced.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("library_entry") as batch:
        # Existing entries had no upgrade costs: an empty object keeps them free.
        batch.add_column(sa.Column("upgrade_costs", sa.JSON(), nullable=False,
                                   server_default=sa.text("'{}'")))


def downgrade() -> None:
    with op.batch_alter_table("library_entry") as batch:
        batch.drop_column("upgrade_costs")
