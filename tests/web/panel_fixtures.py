"""Panel fixtures: a table over a fresh SQLite file, the app, and clients with and without
the PIN. Test modules load them with `pytest_plugins = ["panel_fixtures"]`."""

from __future__ import annotations

import pytest
from panel_support import PIN

from companion.history import History
from companion.table import TableSession
from companion.web import create_app


@pytest.fixture
def table(tmp_path):
    return TableSession(History(tmp_path / "panel.db"))


@pytest.fixture
def app(table):
    return create_app({"TESTING": True, "TABLE": table, "PIN": PIN})


@pytest.fixture
def watcher(app):
    return app.test_client()


@pytest.fixture
def player(app):
    client = app.test_client()
    assert client.post("/api/pin", json={"pin": PIN}).status_code == 200
    return client
