"""Game data in BattleScribe's format: one row per game system or catalogue a player added
(`rout data add`), with its bytes and what Rout read from it. Nothing stored before changes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_data",
        sa.Column("game_system_id", sa.String(100), nullable=False),
        sa.Column("file_id", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("name", sa.String(300), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("library", sa.Boolean(), nullable=False),
        sa.Column("file_name", sa.String(300), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.Column("stored", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("game_system_id", "file_id", name="pk_game_data"),
    )
    op.create_index("ix_game_data_name", "game_data", ["name"])
    op.create_index("ix_game_data_sha256", "game_data", ["sha256"])


def downgrade() -> None:
    op.drop_index("ix_game_data_sha256", "game_data")
    op.drop_index("ix_game_data_name", "game_data")
    op.drop_table("game_data")
