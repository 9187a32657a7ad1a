"""A history database that is read-only, damaged or not a database at all: the server starts,
every page shows the fault with advice, what can be read is served, and `doctor` says the same."""

from __future__ import annotations

import sqlite3

from panel_support import GAME, PLAYERS

from companion.cli import build_parser
from companion.commands.serve import build
from companion.history import History
from companion.web import create_app
from firmware.checks import check_database

PAGES = ["/", "/games", "/new", "/panel"]


def serve(db):
    table, _ = build(build_parser().parse_args(["serve", "--db", str(db), "--game", GAME]))
    return table, create_app({"TESTING": True, "TABLE": table}).test_client()


def with_a_game(db):
    history = History(db)
    history.create_game(GAME, PLAYERS, {})
    history.close()


def damage(db, rows: int = 2000) -> None:
    """A log with many rows, then a page in the middle of the file overwritten."""
    history = History(db)
    game = history.create_game(GAME, PLAYERS, {})
    with history._write() as conn:
        conn.executemany("INSERT INTO events (id, game_id, seq, at, kind, text) VALUES "
                         "(?, ?, ?, 0, 'move', ?)", [(i, game.id, i, "x" * 200)
                                                     for i in range(1, rows)])
    history.close()
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.seek(size // 2 // 4096 * 4096)
        f.write(b"\xff" * 4096)


def shows_the_fault(client, words: str) -> None:
    for page in PAGES:
        answer = client.get(page)
        assert answer.status_code == 200, page
        assert words in answer.text and "rollscribe doctor" in answer.text, page


def test_a_file_that_is_not_a_database_is_a_fault_not_a_traceback(tmp_path):
    db = tmp_path / "not.db"
    db.write_bytes(b"this is not sqlite" * 500)
    table, client = serve(db)
    (fault,) = table.snapshot()["faults"]
    assert fault["kind"] == "database" and "cannot be written" in fault["message"]
    shows_the_fault(client, "cannot be written")
    assert client.get("/api/games").json == {"games": []}
    doctor = check_database(db)
    assert (doctor.found, doctor.advice) == (fault["message"], fault["advice"])
    assert db.read_bytes() == b"this is not sqlite" * 500  # nothing written over it


def test_a_read_only_database_is_served_and_says_so(tmp_path, monkeypatch):
    db = tmp_path / "ro.db"
    with_a_game(db)

    def read_only(self, path):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(History, "_open", read_only)
    table, client = serve(db)  # with no --pin: the PIN and key are not written either
    assert "cannot be written" in table.snapshot()["faults"][0]["message"]
    shows_the_fault(client, "attempt to write a readonly database")
    assert [g["players"] for g in client.get("/api/games").json["games"]] == [PLAYERS]
    answer = client.post("/api/games", json={"game": GAME, "players": PLAYERS},
                         headers={"X-Table-Pin": client.application.extensions["rollscribe"].pin})
    assert answer.status_code == 503
    assert "cannot be written" in table.snapshot()["faults"][0]["message"]  # advice kept


def test_a_database_damaged_mid_file_is_found_at_start_up(tmp_path):
    db = tmp_path / "damaged.db"
    damage(db)
    table, client = serve(db)
    (fault,) = table.snapshot()["faults"]
    assert "damaged" in fault["message"]
    shows_the_fault(client, "is damaged")
    assert client.get("/api/games").status_code == 503
    doctor = check_database(db)
    assert doctor.failed and (doctor.found, doctor.advice) == (fault["message"], fault["advice"])


def test_a_failed_read_runs_the_integrity_check(tmp_path, monkeypatch):
    from companion.history import HistoryError

    table, client = serve(tmp_path / "fine.db")
    assert table.snapshot()["faults"] == []

    def fails(*args, **kwargs):
        raise HistoryError("could not read the history: database disk image is malformed")

    monkeypatch.setattr(table.history, "games", fails)
    monkeypatch.setattr(table.history, "check", lambda: "page 7: btreeInitPage() returns 11")
    assert client.get("/api/games").status_code == 503
    (fault,) = table.snapshot()["faults"]
    assert "damaged: page 7" in fault["message"]
    table.type_roll("d20=3 d20=5 d20=9 d20=12")  # a write that works does not mend the file
    assert table.snapshot()["faults"] == [fault]
