"""Resolutions begun and not finished, one per battle at most, so they can be resumed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pending_resolution",
        sa.Column("battle_id", sa.String(32), nullable=False),
        sa.Column("procedure", sa.String(80), nullable=False),
        sa.Column("procedure_input", sa.JSON(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["battle_id"], ["battle.id"], ondelete="CASCADE",
                                name="fk_pending_resolution_battle_id_battle"),
        sa.PrimaryKeyConstraint("battle_id", name="pk_pending_resolution"),
    )


def downgrade() -> None:
    op.drop_table("pending_resolution")
