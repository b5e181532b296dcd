"""Armies built from game data keep their BattleScribe roster: one row per such army with
the roster's selections (entry ids, counts, costs, categories), which unit each became and
the catalogue's limits it breaks. Armies stored before have none and stay as they are.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "army_roster",
        sa.Column("army_id", sa.String(32), nullable=False),
        sa.Column("game_system_id", sa.String(100), nullable=False),
        sa.Column("game_system_name", sa.String(300), nullable=False),
        sa.Column("catalogue_id", sa.String(100), nullable=False),
        sa.Column("catalogue_name", sa.String(300), nullable=False),
        sa.Column("catalogue_revision", sa.Integer(), nullable=False),
        sa.Column("roster", sa.JSON(), nullable=False),
        sa.Column("units", sa.JSON(), nullable=False),
        sa.Column("problems", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["army_id"], ["army.id"], ondelete="CASCADE",
                                name="fk_army_roster_army_id_army"),
        sa.PrimaryKeyConstraint("army_id", name="pk_army_roster"),
    )
    op.create_index("ix_army_roster_catalogue", "army_roster",
                    ["game_system_id", "catalogue_id"])


def downgrade() -> None:
    op.drop_index("ix_army_roster_catalogue", "army_roster")
    op.drop_table("army_roster")
