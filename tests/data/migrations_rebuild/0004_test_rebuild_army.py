"""A test-only revision that makes SQLite rebuild the army table (copy, drop, rename).

Dropping the old table must not cascade into the roster entries that refer to it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_rebuild"
down_revision = "0009"  # the shipped head
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("army", recreate="always") as batch:
        batch.alter_column("player", type_=sa.String(300), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("army", recreate="always") as batch:
        batch.alter_column("player", type_=sa.String(200), existing_nullable=False)
