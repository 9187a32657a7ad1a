"""The table in plain words: what each roll and move did is kept with its event and shown after
a restart; every legal move reaches the panel; past games are resumed exactly."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from table_support import GAME, LINE_UP, PLAYERS, chance, play, started

from companion.history import EventKind, History, NoSuchGame, Step, undone_line
from companion.table import SetupError, TableSession


@pytest.fixture
def table(tmp_path):
    return started(tmp_path / "t.db")


def test_each_roll_and_move_keeps_its_line_and_a_restart_shows_the_same(table):
    table.type_roll(LINE_UP.text())
    assert table.snapshot()["told"].startswith("The table rolled (enemy line-up): 5 12 3 9")
    play(table, random.Random(4), lambda s: len(table.history.events(table.game_id)) >= 12)
    events = table.history.events(table.game_id)
    told = [e.data["told"] for e in events if e.kind.value in ("roll", "move")]
    assert len(told) == len(events) and all(told)
    assert told[-1] == table.snapshot()["told"]
    again = TableSession(History(table.history.path))
    assert again.snapshot()["told"] == told[-1]  # read back from the event, not worked out


def test_an_undo_says_what_it_took_back(table):
    table.type_roll(LINE_UP.text())
    play(table, random.Random(2), lambda s: bool(s["moves"]))
    table.choose_move(table.snapshot()["moves"][0]["move"])
    played = table.snapshot()["told"]
    table.undo()
    assert table.snapshot()["told"] == f"Undone: the last step ({played})"
    steps = [Step(i, EventKind.MOVE, 0, 1, None, f"move {i}") for i in range(3)]
    assert undone_line(steps[:1]) == "Undone: the last step (move 0)"
    assert undone_line(steps) == "Undone: 3 steps"  # an undo of a turn: counted, not listed
    assert undone_line([replace(steps[0], told="")]) == "Undone: the last step"


def test_every_legal_move_reaches_the_panel_titled_and_grouped(table):
    table.type_roll(LINE_UP.text())
    snap = play(table, random.Random(1), lambda s: bool(s["moves"]))
    assert snap["moves_total"] == len(snap["moves"]) == 56  # all teams of 1-4 of six heroes
    assert [m["group"] for m in snap["moves"]][:15] == ["Teams of 4"] * 15
    assert snap["moves"][-1] == {**snap["moves"][-1], "group": "Teams of 1",
                                 "title": "Team of 1: Wizard", "move": "team wizard"}


def test_a_past_game_is_resumed_exactly_and_plays_on(table):
    table.type_roll(LINE_UP.text())
    play(table, random.Random(5), lambda s: len(table.history.events(table.game_id)) >= 9
         and chance(s))
    first, before = table.game_id, table.snapshot()
    table.new_game(GAME, ["Cy", "Di"])  # the first is kept, abandoned
    assert table.history.game(first).abandoned
    table.resume(first)
    after = table.snapshot()
    assert after["state"] == before["state"] and after["scores"] == before["scores"]
    assert not after["game"]["over"] and not table.history.game(first).abandoned
    assert TableSession(History(table.history.path)).game_id == first  # a restart keeps it
    play(table, random.Random(6), lambda s: len(table.history.events(first)) >= 14)
    assert table.game_id == first


def test_a_finished_game_cannot_be_resumed(tmp_path):
    table = started(tmp_path / "t.db")
    table.type_roll(LINE_UP.text())
    play(table, random.Random(3), lambda s: s["game"]["over"], limit=5000)
    won = table.game_id
    table.new_game(GAME, PLAYERS)
    with pytest.raises(SetupError, match="finished"):
        table.resume(won)
    with pytest.raises(NoSuchGame, match="no game 999"):
        table.resume(999)
