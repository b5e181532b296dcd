"""Shared test set-up: Qt runs offscreen, and paths to the data the tests read."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from needs import lacking
from read_only import nobodys_folder  # noqa: F401  (a fixture the store tests share)

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "resources" / "scenarios"
SHARED_DATA = REPO.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def private_default_database(tmp_path_factory, monkeypatch):
    """No test may open the user's own rout.sqlite: the default points at a scratch file."""
    folder = tmp_path_factory.mktemp("default-database")
    monkeypatch.setenv("ROUT_DATABASE", f"sqlite:///{folder / 'rout.sqlite'}")


@pytest.fixture(autouse=True)
def no_leaked_windows(request):
    """In the GUI tests: fail a test that leaves a top-level widget behind (dialogs too),
    and undo the application names run_app sets."""
    if not request.module.__name__.startswith("test_gui"):
        yield
        return
    from PySide6.QtCore import QCoreApplication, QEvent

    qapp = request.getfixturevalue("qapp")
    before = list(qapp.topLevelWidgets())
    names = qapp.organizationName(), qapp.applicationName()
    yield
    qapp.setOrganizationName(names[0])
    qapp.setApplicationName(names[1])
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    leaked = [widget for widget in qapp.topLevelWidgets() if widget not in before]
    assert not leaked, f"top-level widgets leaked: {leaked}"


@pytest.fixture
def scenario_path():
    """Path of a bundled example scenario by file name."""

    def find(name: str) -> Path:
        path = SCENARIOS / name
        assert path.is_file(), f"missing example scenario {path}"
        return path

    return find


BATTLESCRIBE_ROSTER = REPO / "tests" / "data" / "battlescribe" / "bretonnia-6th-newrecruit.rosz"


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server on loopback for this test run, or a skip saying why not."""
    import shutil
    import tempfile

    from postgres import Server

    try:
        import psycopg  # noqa: F401
    except ImportError:
        lacking("PostgreSQL tests need psycopg (pip install -e '.[test]')",
                "ROUT_REQUIRE_POSTGRES")
    # Not under pytest's tmp folder: that is private to root, and the server runs as postgres.
    folder = Path(tempfile.mkdtemp(prefix="rout-postgres-"))
    server = Server(folder)
    try:
        server.start()
    except RuntimeError as error:
        shutil.rmtree(folder, ignore_errors=True)
        lacking(f"no PostgreSQL server could be started: {error}", "ROUT_REQUIRE_POSTGRES")
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database: a SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'rout.sqlite'}"
    server = request.getfixturevalue("postgres_server")
    import psycopg

    name = f"t_{os.getpid()}_{abs(hash(request.node.nodeid)) % 10**12}"
    with psycopg.connect(server.url("postgres").replace("+psycopg", ""),
                         autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


@pytest.fixture
def store(database_url):
    from desktop.store.store import Store

    opened = Store.open(database_url)
    yield opened
    opened.close()
