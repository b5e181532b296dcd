"""Army lists and composition limits: an army's list, library entries' lists and limits,
and a table for each library's army lists and composition.

The library rows are emptied: until now they were only ever a copy of the bundled library
files taken at first start (Rout has no way to edit them), and that copy has no army lists
or limits. The next start stores the bundled libraries again, lists and limits included.
Armies keep everything; their list is "" (none chosen) until the player picks one.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-13
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("army") as batch:
        batch.add_column(sa.Column("army_list", sa.String(100), nullable=False,
                                   server_default=""))
    op.execute(sa.text("DELETE FROM library_entry"))
    with op.batch_alter_table("library_entry") as batch:
        batch.add_column(sa.Column("lists", sa.JSON(), nullable=False,
                                   server_default=sa.text("'[]'")))
        batch.add_column(sa.Column("entry_limit", sa.JSON(), nullable=True))
    op.create_table(
        "library",
        sa.Column("ruleset", sa.String(40), nullable=False),
        sa.Column("army_lists", sa.JSON(), nullable=False),
        sa.Column("composition", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("ruleset", name="pk_library"),
    )


def downgrade() -> None:
    op.drop_table("library")
    with op.batch_alter_table("library_entry") as batch:
        batch.drop_column("entry_limit")
        batch.drop_column("lists")
    with op.batch_alter_table("army") as batch:
        batch.drop_column("army_list")
