"""Shared by the panel tests: the game, the table PIN, a roll that fits what is wanted, and
the production server in a thread.

The fixtures live in panel_fixtures.py (loaded with `pytest_plugins`), not in a conftest.py:
other test folders import their own `conftest` by name, and two modules called `conftest`
would shadow each other in one pytest run.
"""

from __future__ import annotations

import contextlib
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from table_support import GAME, PLAYERS, fitting_roll, play  # noqa: F401 - shared

from companion.table import TableSession
from companion.web import create_app
from companion.web.server import make_server, stop

PIN = "2468"
__all__ = ["GAME", "PIN", "PLAYERS", "roll_text", "running"]


def roll_text(snapshot: dict, seed: int = 1) -> str:
    """A roll that fits what the game wants now, from a seeded roller."""
    return fitting_roll(snapshot, random.Random(seed)).text()


@contextlib.contextmanager
def running(table: TableSession, **config: object) -> Iterator[str]:
    """The panel over `table` (with more `config` if given), served by the production server in
    a thread on a free loopback port."""
    app = create_app({"TESTING": True, "TABLE": table, "PIN": PIN, "SSE_HEARTBEAT": 0.5,
                      "SSE_MAX_SECONDS": 2.0,  # streams drop every 2 s: phones must reconnect
                      **config})
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server)
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"
