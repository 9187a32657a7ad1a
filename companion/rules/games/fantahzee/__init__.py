"""Fantahzee: Hordes & Heroes (shared/seeds/001_a7e4a81d51491a7c.txt): five d6, two rerolls,
heroes activated by dice patterns, the horde stacks fought with the party's strength.

Modules: `cards` (cards as data: JSON/CSV), `deck` (the book's cards and the placeholder deck),
`rules` (numbers, options, named assumptions), `setup` (stacks and decks), `position` (the
position as plain data), `moves` (move values and text), `activation` (which dice pay which
hero), `flow` (what the game waits for, chance steps, card entry, move dispatch), `agenda` (what
follows a step: setup cards, the phases after the attack, the next turn), `party` (Action Phase
and Roll Step moves), `attack` (Attack Step, damage, treasure, hand limit), `legal` (legal
moves), `ranking` (the panel's ranked moves and advice), `state` (the table's GameState and
`describe`).

`state.describe()` (the phone panel's view; keys are stable):
    game, phase (first|card|action|roll|dice|attack|damage|attach|limit|over), turn,
    current_player (seat | "chance" | null), roll_wanted, asking (what card the panel asks for),
    doom, doom_tokens, first_player, last_player, hand_limit,
    players: [{seat, name, xp, turns, active, last_player, hand (named for the player to act
               only), hand_size, party: [{id, name, strength, cost, active, treasure}],
               monsters, towns}],
    stacks: [{id (1 leftmost), label, vanguard, face_down, level}],
    decks: {hero, discard, town, treasure}, outcome, options,
    details: [{title, lines: [str]}] (the table as a player reads it: `words.details`),
    during a turn: dice {free, new, rerolls, shield, steam, strength, locked: [{hero, dice}]},
    tray and party (chips), activations (Roll Step: [{hero, ways: [{move, dice, detail}],
    best}]), attack (Attack Step: {strength_left, locked_into, plans}), damage ({source, total,
    shield, left, proposed_loss}).
"""

from __future__ import annotations

import json
from typing import Any

from ...core import JSON, Game
from . import flow
from .cards import card_set, card_set_from_text, cards_from_csv, form
from .position import Position
from .rules import ASSUMPTIONS, Options
from .setup import start_position
from .state import FantahzeeState


class Fantahzee(Game):
    """The rules: 2-5 players, the table's cards (or the placeholder deck), house rules."""

    name = "fantahzee"
    title = "Fantahzee: Hordes & Heroes"
    min_players, max_players = 2, 5
    options_type, position_type, state_type = Options, Position, FantahzeeState
    readings = ASSUMPTIONS
    turn_enders = frozenset({"stop"})
    table_data = "cards"
    score_floor = None  # SCORE_IS_XP: destroyed town cards can take a score below zero

    @classmethod
    def read_table_data(cls, data: Any, form: str = "json") -> str:
        """The table's cards (JSON-shaped, or CSV text) checked, as the `cards` option's text."""
        if form == "csv":
            data = cards_from_csv(str(data))
        text = json.dumps(card_set(data).to_json(), sort_keys=True)
        Options(cards=text).check()  # five bosses, some heroes
        return text

    @classmethod
    def default_table_data(cls) -> JSON:
        return card_set_from_text("").to_json()

    @classmethod
    def table_data_form(cls) -> JSON:
        return form()

    def start(self, names: list[str], options: Options) -> Position:
        return start_position(names, options, card_set_from_text(options.cards))


__all__ = ["Fantahzee", "flow"]
