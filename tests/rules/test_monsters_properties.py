"""Seeded random battles played to the end, with monsters of random dice, equipment and kinds:
after every step health is never above the maximum, every die is in exactly one pool (a held
die in exactly one grapple), faces shown are faces the die carries, and the ranked moves are
the legal moves."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from monsters_helpers import GAME

from companion.rules.core import CHANCE
from companion.rules.games.monsters.rules import KINDS
from companion.rules.symbol_dice import BODY_PARTS, POSTURES

GEAR = ("axe", "dart", "scythe", "trident", "whip", "shield", "buckler", "staff", "wand")


def random_monster(rng: random.Random) -> str:
    """16 dice, each a body part and five postures; one weapon, one defence, one auxiliary."""
    mains = [rng.choice(BODY_PARTS) for _ in range(13)]
    mains += [rng.choice(GEAR[:5]), rng.choice(GEAR[5:7]), rng.choice(GEAR[7:])]
    return "\n".join(" ".join([main, *rng.sample(POSTURES, 5)]) for main in mains)


def check(state) -> None:  # type: ignore[no-untyped-def]
    view = state.describe()
    held = Counter((g["held"], g["die"]) for g in view["grapples"])
    held += Counter((g["holder"], g["tentacle"]) for g in view["grapples"])
    for p in view["players"]:
        assert p["health"] <= p["max_health"]
        assert sum(p["pools"].values()) == len(p["dice"]) == p["max_health"]
        for die in p["dice"]:
            assert held[(p["name"], die["die"])] == (die["pool"] == "grappled")
            assert die["showing"] is None or die["showing"] in die["faces"]
        assert p["out"] == (p["pools"]["aside"] == len(p["dice"]))
        assert p["out"] or p["health"] > 0 or p.get("exhausted")  # Invasion: a turn away
    if state.current_player not in (CHANCE, None):
        assert ({m.move.text() for m in state.ranked_moves()}
                == {m.text() for m in state.legal_moves()})


def play_out(state, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Random moves to the end, checking every step; nobody surrenders or ends a turn without
    attacking, so games end by health (or the Wargame's cards)."""
    steps = 0
    while state.current_player is not None:
        steps += 1
        assert steps < 20_000, "the game does not end"
        if state.current_player == CHANCE:
            state.apply(state.seeded_roll(rng))
        else:
            legal = state.legal_moves()
            moves = ([m for m in legal if m.text() not in ("surrender", "end")]
                     or [m for m in legal if m.text() != "surrender"] or legal)
            state.apply(state.dealt(rng) or rng.choice(moves))
        check(state)


@pytest.mark.parametrize("seed", range(12))
def test_random_battles_keep_health_and_pools_sound(seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + seed % 3
    names = [f"P{i}" for i in range(players)]
    kinds = "\n".join(rng.choice(KINDS) + ("+" + rng.choice(KINDS) if seed % 2 else "")
                      for _ in names) if seed % 4 else ""
    kinds = "\n".join(line if len(set(line.split("+"))) == len(line.split("+"))
                      else line.split("+")[0] for line in kinds.splitlines())
    options = {"monsters": "\n---\n".join(random_monster(rng) for _ in names), "kinds": kinds,
               "heal": ("health", "health-and-stun")[seed % 2],
               "grapple": ("next-turn", "until-gone")[seed // 6]}
    state = GAME.new_state(names, options)
    play_out(state, rng)
    outcome = state.outcome
    assert outcome is not None and len(outcome.winners) == 1
    assert "last monster standing" in outcome.reason
    assert sum(p["out"] for p in state.describe()["players"]) == players - 1
    assert not state.describe()["players"][outcome.winners[0]]["out"]


@pytest.mark.parametrize("seed", range(6))
def test_random_wargames_end_by_tally_or_last_standing_with_pools_sound(seed: int) -> None:
    rng = random.Random(f"wargame {seed}")
    names = [f"P{i}" for i in range(2 + seed % 3)]
    state = GAME.new_state(names, {"scenario": "wargame", "monsters": "\n---\n".join(
        random_monster(rng) for _ in names)})
    play_out(state, rng)
    view = state.describe()
    winner = state.outcome.winners[0]  # type: ignore[union-attr]
    if all(sq["label"].split(" · ")[0] != "face down" for sq in view["squares"]):
        standing = [p for p in view["players"] if not p["out"]]
        assert view["players"][winner]["tally"] == max(p["tally"] for p in standing)
    else:
        assert sum(p["out"] for p in view["players"]) == len(names) - 1


@pytest.mark.parametrize("seed", range(6))
def test_random_invasions_end_when_every_card_is_taken(seed: int) -> None:
    rng = random.Random(f"invasion {seed}")
    names = [f"P{i}" for i in range(2 + seed % 3)]
    state = GAME.new_state(names, {"scenario": "invasion", "quick": seed % 2 == 1,
                                   "monsters": "\n---\n".join(random_monster(rng) for _ in names)})
    play_out(state, rng)
    view = state.describe()
    assert all(section["label"].startswith("token") for section in view["sections"])
    totals = state.scores()
    assert sorted(state.outcome.winners) == [p for p, t in enumerate(totals)  # type: ignore
                                             if t == max(totals)]
