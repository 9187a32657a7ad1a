"""The SQLite history: durable settings, exports, statistics, and refusing a log that lies."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3

import pytest
from table_support import GAME, LINE_UP, PLAYERS, play, seat_to_move, started

from companion.history import History, HistoryError, effective_steps
from companion.rules.core import Roll
from companion.table import TableSession


@pytest.fixture
def table(tmp_path):
    return started(tmp_path / "h.db")


def test_the_database_is_in_wal_mode_with_full_sync(table):
    db = table.history._db
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_export_json_and_csv_mark_what_was_undone(table):
    table.type_roll(LINE_UP.text())
    snap = play(table, random.Random(1), seat_to_move)
    table.choose_move(snap["moves"][0]["move"])
    table.undo()
    exported = table.history.export_json(table.game_id)
    assert exported["game"]["players"] == PLAYERS
    kinds = [(e["kind"], e["undone"]) for e in exported["events"]]
    assert kinds[0] == ("roll", False) and kinds[-2:] == [("move", True), ("undo", False)]
    rows = list(csv.DictReader(io.StringIO(table.history.export_csv(table.game_id))))
    assert len(rows) == len(exported["events"])
    assert rows[0]["text"] == LINE_UP.text() and rows[0]["player"] == ""
    assert rows[-2]["undone"] == "1" and rows[-1]["kind"] == "undo"
    assert [rows[-1]["score Ann"], rows[-1]["score Bob"]] == ["0", "0"]
    json.dumps(exported)  # plain JSON all the way down


def test_statistics_count_finished_games_and_the_dice_still_in_force(tmp_path):
    table = TableSession(History(tmp_path / "stats.db"))
    table.new_game(GAME, PLAYERS, {"target": 10, "ties": "shared"})
    end = play(table, random.Random(1), lambda s: s["game"]["over"], limit=2000)
    rolled: dict[str, dict[str, list[int]]] = {p: {} for p in PLAYERS}
    live = effective_steps(table.history.events(table.game_id))
    for e in table.history.events(table.game_id):
        if e.kind.value == "roll" and e.seat is not None and e.id in live:
            for die in Roll.parse(e.text).dice:
                rolled[PLAYERS[e.seat]].setdefault(die.kind, []).append(die.value)
    table.new_game(GAME, PLAYERS)  # unfinished: adds no game, no win, no score
    table.type_roll(LINE_UP.text())
    stats = {s["player"]: s for s in table.history.player_stats()}
    winners = end["game"]["outcome"]["winners"]
    for seat, name in enumerate(PLAYERS):
        s = stats[name]
        assert (s["games"], s["wins"], s["mean_score"]) == (1, int(seat in winners),
                                                             end["scores"][seat])
        assert {k: v["rolls"] for k, v in s["dice"].items()} == {
            k: len(v) for k, v in rolled[name].items()}
        for kind, values in rolled[name].items():
            expected = {"d4": 2.5, "d6": 3.5, "d8": 4.5, "d10": 5.5, "d12": 6.5, "d20": 10.5}[kind]
            assert s["dice"][kind]["luck"] == round(sum(values) / len(values) - expected, 3)


def test_undone_rolls_do_not_count_for_luck(table):
    table.type_roll(LINE_UP.text())
    play(table, random.Random(1), lambda s: s["roll_wanted"] and s["current"]["seat"] is not None
         and s["roll_wanted"]["player"] is not None)
    seat = table.snapshot()["current"]["seat"]
    table.type_roll(" ".join(f"{k}=1" for k in table.snapshot()["roll_wanted"]["dice"]))
    unlucky = {s["player"]: s["dice"] for s in table.history.player_stats()}[PLAYERS[seat]]
    assert unlucky and all(d["mean"] == 1 for d in unlucky.values())
    table.undo()
    assert {s["player"]: s["dice"] for s in table.history.player_stats()}[PLAYERS[seat]] == {}


def test_games_list_newest_first_and_only_the_newest_open_one_resumes(table):
    first = table.game_id
    second = table.new_game(GAME, ["Cy", "Di"])
    games = table.history.games()
    assert [g.id for g in games] == [second, first]
    assert games[1].abandoned and not games[0].over
    assert table.history.latest_open_game().id == second


def test_an_event_the_rules_reject_becomes_a_database_fault_not_a_crash(table):
    table.type_roll(LINE_UP.text())
    path = table.history.path
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO events (game_id, seq, at, kind, text) VALUES (?, 2, 0, 'move',"
                    " 'fly away')", (table.game_id,))
    again = TableSession(History(path))
    snap = again.snapshot()
    assert snap["game"] is None
    assert snap["faults"][0]["kind"] == "database"
    assert "event 2 (move 'fly away') does not replay" in snap["faults"][0]["message"]
    again.new_game(GAME, PLAYERS)  # the table stays usable
    assert again.snapshot()["game"]["id"] != table.game_id


def test_a_database_that_cannot_be_opened_is_a_clear_error(tmp_path):
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(HistoryError, match="cannot open the history database"):
        History(tmp_path / "dir.db")
