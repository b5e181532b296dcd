"""schema.py, the Core tables the store works through, is generated from tables.py (the
sqlmodel declarations): it must be current and give the same database, so that reading
armies needs neither sqlmodel, pydantic nor SQLAlchemy's ORM (issue 14)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from sqlalchemy import Column, Integer, MetaData, String, Table, func
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.schema import CreateIndex, CreateTable

from desktop.store import schema, schema_build
from desktop.store.tables import SQLModel

DIALECTS = {"sqlite": sqlite.dialect(), "postgresql": postgresql.dialect()}


def ddl(metadata: MetaData, dialect_name: str) -> dict[str, list[str]]:
    """Each table's CREATE TABLE and CREATE INDEX statements as `dialect_name` writes them."""
    dialect = DIALECTS[dialect_name]
    return {table.name: [str(CreateTable(table).compile(dialect=dialect)).strip(),
                         *sorted(str(CreateIndex(index).compile(dialect=dialect))
                                 for index in table.indexes)]
            for table in metadata.sorted_tables}


def test_schema_py_is_what_the_builder_makes_from_tables_py():
    assert not schema_build.stale(), "run: python -m desktop.store.schema_build"


@pytest.mark.parametrize("dialect_name", sorted(DIALECTS))
def test_both_declarations_create_the_same_tables(dialect_name):
    declared = ddl(SQLModel.metadata, dialect_name)
    assert ddl(schema.METADATA, dialect_name) == declared
    assert set(declared) == set(schema_build.TABLE_NAMES)


def test_the_store_knows_every_table_by_its_name():
    for table_name, variable in schema_build.TABLE_NAMES.items():
        assert getattr(schema, variable).name == table_name


def test_defaults_and_foreign_keys_come_across():
    roster = schema.ROSTER
    assert roster.c.price_upgrades.default.arg == 0
    (key,) = roster.c.army_id.foreign_keys
    assert (key.target_fullname, key.ondelete) == ("army.id", "CASCADE")
    assert [index.name for index in schema.EVENTS.indexes] == ["ix_battle_event_step"]


def test_a_stale_schema_py_is_found_and_rewritten(tmp_path, monkeypatch):
    target = tmp_path / "schema.py"
    target.write_text(schema_build.SCHEMA_PATH.read_text(encoding="utf-8").replace(
        '"army"', '"armies"'), encoding="utf-8")
    monkeypatch.setattr(schema_build, "SCHEMA_PATH", target)
    assert schema_build.stale()
    assert schema_build.main(["--check"]) == 1
    assert target.read_text(encoding="utf-8").count('"armies"') == 1  # --check writes nothing
    assert schema_build.main([]) == 0
    assert not schema_build.stale()


def test_declarations_schema_py_cannot_express_are_named():
    metadata = MetaData()
    Table("army", metadata, Column("id", String(32), primary_key=True),
          Column("stamp", Integer, default=func.now()))
    with pytest.raises(schema_build.SchemaError, match=r"army\.stamp has a computed default"):
        schema_build.render(metadata)
    other = MetaData()
    Table("scores", other, Column("id", Integer, primary_key=True))
    with pytest.raises(schema_build.SchemaError, match=r"name the table\(s\) scores"):
        schema_build.render(other)


def test_reading_the_store_imports_no_sqlmodel_pydantic_orm_or_battle_rules(tmp_path):
    """Armies read without sqlmodel, pydantic, the ORM or Alembic, and without the engine's
    events, procedures and movement: the rulesets' declarations are enough (catalogue.py)."""
    from desktop.store.store import Store

    from builders import army

    url = f"sqlite:///{tmp_path / 'rout.sqlite'}"
    with Store.open(url) as store:
        store.save_army(army(units=3))
    code = ("import sys; from desktop.store.store import Store\n"
            f"with Store.open({url!r}) as store: armies = store.load_armies()\n"
            "assert len(armies) == 1\n"
            "print(sorted(m for m in ('sqlmodel', 'pydantic', 'sqlalchemy.orm', 'alembic',"
            " 'desktop.engine.events', 'desktop.engine.procedure', 'desktop.engine.movement',"
            " 'desktop.engine.rulesets.warhammer6') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
