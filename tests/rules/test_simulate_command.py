"""`rollscribe simulate`: the summary it prints and the errors it explains."""

from __future__ import annotations

import gc

import pytest

from companion.cli import main
from companion.rules import simulation
from companion.rules.simulation import simulate


def test_simulate_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "monstrous-horde", "--players", "3", "--games", "5",
                 "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for words in ("5 games, 3 players, policy greedy", "mean turns per game", "win rate by seat",
                  "mean score by seat", "games/s"):
        assert words in out


def test_simulation_is_seeded_and_counts_every_win() -> None:
    first = simulate("monstrous-horde", 4, 6, seed=7, policy="random")
    again = simulate("monstrous-horde", 4, 6, seed=7, policy="random")
    assert first.win_rate == again.win_rate and first.mean_score == again.mean_score
    assert sum(first.win_rate) == pytest.approx(1.0)
    assert first.mean_turns >= 4 and max(first.mean_score) >= 100 / 4


def test_simulate_explains_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "monstrous-horde", "--players", "7"]) == 2
    assert "2 to 6 players" in capsys.readouterr().out
    assert main(["simulate", "chess", "--games", "1"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().out


def test_worker_processes_play_the_same_games() -> None:
    alone = simulate("monstrous-horde", 2, 4, seed=3)
    split = simulate("monstrous-horde", 2, 4, seed=3, jobs=2)
    assert split.tally.wins == alone.tally.wins and split.tally.scores == alone.tally.scores
    assert split.mean_turns == alone.mean_turns


def test_simulation_leaves_the_garbage_collector_as_it_found_it() -> None:
    before = gc.get_threshold()
    simulate("monstrous-horde", 2, 2, seed=5)
    assert gc.get_threshold() == before


def test_simulate_plays_fantahzee_on_the_placeholder_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "fantahzee", "--players", "4", "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "fantahzee: 3 games, 4 players, policy greedy" in out
    again = simulate("fantahzee", 4, 3, seed=1)
    assert sum(again.win_rate) == pytest.approx(1.0) and again.mean_turns > 8


def test_simulate_plays_a_game_s_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`--option` plays a scenario or house rule; the game's own checks still apply."""
    assert main(["simulate", "monsters", "--players", "2", "--games", "3",
                 "--option", "scenario=wargame"]) == 0
    assert "monsters: 3 games, 2 players" in capsys.readouterr().out
    battle = simulate("monsters", 2, 3, seed=1)
    wargame = simulate("monsters", 2, 3, seed=1, options={"scenario": "wargame"})
    assert wargame.mean_turns != battle.mean_turns or wargame.mean_score != battle.mean_score
    for option, why in (("size=x", "size is a whole number"),
                        ("colour=red", "NAME one of size, monsters"),
                        ("scenario=chess", "scenario must be one of"),
                        ("quick=maybe", "quick is true or false")):
        assert main(["simulate", "monsters", "--players", "2", "--games", "1",
                     "--option", option]) == 2
        assert why in capsys.readouterr().out


def test_a_game_random_play_cannot_finish_is_counted_not_an_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Fantahzee ends only "after three Boss Monsters have been defeated"; random play may
    never get there. Such games are counted unfinished in plain words, not an error exit (here
    the step cap is cut to 200 so no game of two can end)."""
    monkeypatch.setattr(simulation, "MAX_STEPS", 200)
    assert main(["simulate", "fantahzee", "--players", "2", "--games", "2", "--seed", "1",
                 "--policy", "random"]) == 0
    out = capsys.readouterr().out
    assert "unfinished:          2 of 2 games had no end after 200 steps" in out
    assert "seat 1:  0.0%  seat 2:  0.0%" in out


def test_a_cooperative_table_that_nearly_always_wins_is_flagged() -> None:
    """Village Attacks is won or lost by the whole table: the summary gives the table's win
    rate and warns when it is 95% or more, too easy for the figures to say anything."""
    def text(wins: float) -> str:
        tally = simulation.Tally(10, (wins, wins), (0, 0), 100, 0.1)
        return simulation.Summary("village-attacks", 2, "greedy", 1, tally, 1.0).text()

    assert "table win rate:      95.0%" in text(4.75)
    assert "warning: the table wins 95.0%" in text(4.75)
    assert "table win rate:      90.0%" in text(4.5) and "warning" not in text(4.5)
    assert "table win rate" not in simulation.Summary(
        "monsters", 2, "greedy", 1, simulation.Tally(10, (5, 5), (0, 0), 100, 0.1), 1.0).text()
