"""Seeded games of Fantahzee played to the end on the placeholder deck (cards dealt at random,
choices mostly the top-ranked, some random), checking after every step: every card is in
exactly one place, strength is never negative, the doom tokens count the fallen bosses, and
each score is what the victory piles say."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from companion.rules.core import CHANCE, Roll
from companion.rules.games.fantahzee import Fantahzee
from companion.rules.games.fantahzee.cards import card_set_from_text

CARDS = card_set_from_text("")


def places(s: dict[str, Any]) -> Counter[str]:
    """Every card the table knows of, counted where it lies (face-down monsters by pool)."""
    found: Counter[str] = Counter()
    for pool in (s["deck"], s["towns"], s["treasures"], *s["unseen"].values()):
        found.update({card: n for card, n in pool.items() if n})
    for cards in (s["discard"], s["treasure_discard"], s["box"], s["turn"].get("aside", []),
                  *s["hands"]):
        found.update(cards)
    for party in s["party"]:
        for member in party:
            found[member["card"]] += 1
            if member["treasure"]:
                found[member["treasure"][0]] += 1
    for pile in s["victory"]:
        found.update(card for _, card in pile)
    found.update(st["top"] for st in s["stacks"] if st["top"])
    if s["step"]["kind"] == "attach":
        found[s["step"]["card"]] += 1
    return found


def check(state: Any) -> None:
    s = state.to_json()["position"]["s"]
    everything = Counter({c.id: c.copies for kind in ("heroes", "actions", "monsters", "towns",
                                                      "treasures")
                          for c in getattr(CARDS, kind).values()})
    assert places(s) == everything
    face_down = [sum(st[k] for st in s["stacks"]) for k in ("l1", "l2", "boss")]
    unseen = {k: sum(v.values()) for k, v in s["unseen"].items()}
    assert face_down == [unseen["1"], unseen["2"] + unseen["boss"], unseen["boss"]]
    turn = s["turn"]
    assert not turn or (turn["left"] >= 0 and turn["shield"] >= 0 and turn["rerolls"] >= 0)
    assert all(st["l1"] >= 0 and st["l2"] >= 0 for st in s["stacks"])
    bosses = sum(CARDS.monsters[c].boss for pile in s["victory"] for k, c in pile if k == "m")
    bosses += sum(CARDS.monsters[c].boss for c in turn.get("aside", []))
    assert s["doom"] == bosses
    for seat, pile in enumerate(s["victory"]):
        xp = sum(CARDS.monsters[c].xp if k == "m" else -CARDS.towns[c].xp for k, c in pile)
        assert state.scores()[seat] == xp + s["adjust"][seat]
    assert all(len(party) <= 5 for party in s["party"])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_games_keep_every_card_and_end(players: int) -> None:
    game = Fantahzee()
    for seed in range(2):
        rng = random.Random(f"{players}:{seed}")
        state = game.new_state([f"P{i}" for i in range(players)])
        steps = 0
        while state.current_player is not None:
            steps += 1
            assert steps < 20_000, "the game does not end"
            if state.current_player == CHANCE:
                state.apply(Roll.random(state.roll_wanted(), rng))
            else:
                move = state.dealt(rng)
                if move is None:
                    move = (rng.choice(state.legal_moves()) if rng.random() < 0.2
                            else state.best_move())
                state.apply(move)
            check(state)
        outcome = state.outcome
        assert outcome is not None and outcome.winners
        s = state.to_json()["position"]["s"]
        assert s["doom"] >= 3 and s["seat"] == s["last"]
        best = max(state.scores())
        assert all(state.scores()[w] == best for w in outcome.winners)
