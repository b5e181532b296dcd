"""Roster entries keep how their points follow their size: an imported unit's price from
its roster (per model, and its upgrades apart) and whether the player typed the points.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-12
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("roster_entry") as batch:
        # Units saved before had no roster price (NULL) and no typed points: they keep
        # their points and follow the library where it has them, as before.
        batch.add_column(sa.Column("price_per_model", sa.Float(), nullable=True))
        batch.add_column(sa.Column("price_upgrades", sa.Integer(), nullable=False,
                                   server_default=sa.text("0")))
        batch.add_column(sa.Column("points_typed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("roster_entry") as batch:
        batch.drop_column("points_typed")
        batch.drop_column("price_upgrades")
        batch.drop_column("price_per_model")
