"""A revision after the shipped head, for tests only: it adds a nullable column.

Tests pass this folder as an extra version location to see Rout migrate a database (taking a
copy first) and then refuse it as newer when opened without it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_test"
down_revision = "0009"  # the shipped head
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("army") as batch:
        batch.add_column(sa.Column("nickname", sa.String(100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("army") as batch:
        batch.drop_column("nickname")
