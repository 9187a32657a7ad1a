"""Per-player figures kept game by game (companion.stats): a call reads only the games that
changed since the last, callers at once share one working-out, writes from another connection
are seen, and only the newest MAX_GAMES games count."""

from __future__ import annotations

import random
import threading

import pytest
from table_support import GAME, PLAYERS, play, started

import companion.stats
from companion.history import History
from companion.table import TableSession


def three_games(path) -> TableSession:
    """A finished game, an abandoned one and one in play, each with rolls."""
    table = started(path)
    assert play(table, random.Random(1), lambda s: s["game"]["over"], limit=2000)["game"][
        "outcome"]
    for seed in (2, 3):
        table.new_game(GAME, PLAYERS)
        play(table, random.Random(seed), lambda s: s["turn"] >= 3)
    return table


def reads_of(history: History) -> list[int]:
    """The game ids whose events `history` is asked for from now on, in order."""
    asked: list[int] = []
    events = history.events
    history.events = lambda game_id: asked.append(game_id) or events(game_id)  # type: ignore
    return asked


def test_a_call_reads_only_the_games_that_changed(tmp_path):
    table = three_games(tmp_path / "s.db")
    asked = reads_of(table.history)
    first = table.history.player_stats()
    assert sorted(asked) == [1, 2, 3]
    assert table.history.player_stats() == first and len(asked) == 3  # nothing read again
    play(table, random.Random(4), lambda s: s["turn"] >= 5)
    changed = table.history.player_stats()
    assert asked[3:] == [table.game_id]  # the game in play only
    assert changed != first and changed == History(tmp_path / "s.db").player_stats()


def test_callers_at_once_share_one_working_out(tmp_path):
    three_games(tmp_path / "s.db")
    history = History(tmp_path / "s.db")
    asked = reads_of(history)
    together = threading.Barrier(10)
    answers: list[list] = []

    def caller() -> None:
        together.wait()
        answers.append(history.player_stats())

    callers = [threading.Thread(target=caller) for _ in range(10)]
    for c in callers:
        c.start()
    for c in callers:
        c.join()
    assert sorted(asked) == [1, 2, 3]  # each game read once, not once per caller
    assert len(answers) == 10 and all(a == answers[0] for a in answers)


def test_a_roll_written_by_another_connection_is_counted(tmp_path):
    table = three_games(tmp_path / "s.db")
    before = table.history.player_stats()
    other = TableSession(History(tmp_path / "s.db"))  # the game in play, resumed
    play(other, random.Random(5), lambda s: s["turn"] >= 5)
    assert table.history.player_stats() == other.history.player_stats() != before


def test_only_the_newest_games_count(tmp_path, monkeypatch):
    three_games(tmp_path / "s.db")
    monkeypatch.setattr(companion.stats, "MAX_GAMES", 2)
    history = History(tmp_path / "s.db")
    asked = reads_of(history)
    players = history.player_stats()
    assert sorted(asked) == [2, 3]
    assert all(p["games"] == 0 for p in players)  # game 1, the finished one, is too old


@pytest.mark.parametrize("limit", [1, 3])
def test_the_event_counts_are_the_games_newest_first(tmp_path, limit):
    table = three_games(tmp_path / "s.db")
    counts = table.history.event_counts(limit)
    assert list(counts) == [3, 2, 1][:limit]
    assert all(n == len(table.history.events(g)) for g, n in counts.items())
