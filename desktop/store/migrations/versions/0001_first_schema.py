"""First schema: armies and their rosters, unit libraries, battles and their events.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "army",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("points_limit", sa.Integer(), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("unit_count", sa.Integer(), nullable=False),
        sa.Column("model_count", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_army"),
    )
    op.create_index("ix_army_name", "army", ["name"])
    op.create_table(
        "roster_entry",
        sa.Column("army_id", sa.String(32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("unit_id", sa.String(100), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("profile", sa.JSON(), nullable=False),
        sa.Column("models", sa.Integer(), nullable=False),
        sa.Column("files", sa.Integer(), nullable=False),
        sa.Column("upgrades", sa.JSON(), nullable=False),
        sa.Column("character_wounds", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("slot", sa.String(100), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["army_id"], ["army.id"], ondelete="CASCADE",
                                name="fk_roster_entry_army_id_army"),
        sa.PrimaryKeyConstraint("army_id", "position", name="pk_roster_entry"),
    )
    op.create_table(
        "library_entry",
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("profile", sa.JSON(), nullable=False),
        sa.Column("points_per_model", sa.Integer(), nullable=False),
        sa.Column("slot", sa.String(100), nullable=False),
        sa.Column("models", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("ruleset", "position", name="pk_library_entry"),
    )
    op.create_table(
        "battle",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("start", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_battle"),
    )
    op.create_table(
        "battle_event",
        sa.Column("battle_id", sa.String(32), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(60), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["battle_id"], ["battle.id"], ondelete="CASCADE",
                                name="fk_battle_event_battle_id_battle"),
        sa.PrimaryKeyConstraint("battle_id", "sequence", name="pk_battle_event"),
    )
    op.create_index("ix_battle_event_step", "battle_event", ["battle_id", "step"])


def downgrade() -> None:
    op.drop_index("ix_battle_event_step", table_name="battle_event")
    op.drop_table("battle_event")
    op.drop_table("battle")
    op.drop_table("library_entry")
    op.drop_table("roster_entry")
    op.drop_index("ix_army_name", table_name="army")
    op.drop_table("army")
