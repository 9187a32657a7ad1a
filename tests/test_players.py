"""Players' names: visible text only, no look-alikes of another player; the target is bounded;
a name that a spreadsheet would run as a formula is written to export.csv as text."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest
from table_support import GAME, PLAYERS, play, seat_to_move

from companion.history import History
from companion.table import SetupError, TableSession


@pytest.fixture
def table(tmp_path):
    return TableSession(History(tmp_path / "names.db"))


@pytest.mark.parametrize(("players", "error"), [
    (["An\x00n", "Bob"], "do not show (U+0000)"),
    (["\u200b", "Bob"], "do not show (U+200B)"),
    (["Ann", "\u202eboB"], "do not show (U+202E)"),
    (["Ann\nBob", "Cy"], "do not show (U+000A)"),
    (["Ann", "\u0410nn"], "look-alike names"),  # a Cyrillic А
    (["Bob", "B\u03bfb"], "look-alike names"),  # a Greek ο
    (["Ann", "Ａｎｎ"], "look-alike names"),  # full-width letters
    (["Zoe", "Zoë"], "look-alike names"),
    (["Ann", "ANN"], "the same name"),
])
def test_hidden_characters_and_lookalike_names_are_refused(table, players, error):
    with pytest.raises(SetupError, match=re.escape(error)):
        table.new_game(GAME, players)
    assert table.game_id is None


def test_ordinary_names_from_any_script_are_kept(table):
    table.new_game(GAME, ["José", "Ørjan", "李雷", "Dé-Ann O'Neil"])
    assert table.snapshot()["game"]["players"] == ["José", "Ørjan", "李雷", "Dé-Ann O'Neil"]


@pytest.mark.parametrize("target", [10**30, 1010, 0])
def test_a_target_the_game_could_never_reach_is_refused(table, target):
    with pytest.raises(SetupError, match="target"):
        table.new_game(GAME, PLAYERS, {"target": target})


def test_a_name_a_spreadsheet_would_run_is_exported_as_text(table):
    names = ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)"]
    table.new_game(GAME, names)
    play(table, random.Random(3), seat_to_move)
    table.confirm()  # the best move: a row whose player column holds a name
    rows = list(csv.reader(io.StringIO(table.history.export_csv(table.game_id))))
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
    assert {row[4] for row in rows[1:]} - {""} <= {"'" + n for n in names}
    assert rows[-1][4] in {"'" + n for n in names}
