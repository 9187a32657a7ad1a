"""The buttons on a Fantahzee table: ROLL reads the dice the game wants, OK never guesses a card
drawn (the press is refused and nothing changes), and plays the best move once the cards are
entered on a phone."""

from __future__ import annotations

from pathlib import Path

from conftest import Box
from firmware_helpers import FAST_HOLD, FakeClock, ScriptedDice, tap
from gpiozero.pins.mock import MockFactory

from companion.history import History
from companion.table import TableSession
from firmware.controller import TurnController, TurnState
from firmware.devices import Panel

P = FAST_HOLD


def test_fantahzee_on_the_buttons(factory: MockFactory, panel: Panel, db_path: Path,
                                  clock: FakeClock) -> None:
    dice = ScriptedDice()
    table = TableSession(History(db_path), dice)
    table.new_game("fantahzee", ["Ann", "Bob"])
    controller = TurnController(table, panel, clock=clock)
    box = Box(factory, panel, table, dice, clock, controller)
    try:
        while table.snapshot()["roll_wanted"]:  # one die each for the first player
            tap(factory, P.roll)
            controller.wait_idle()
        assert dice.asked[:2] == [["d6"], ["d6"]]
        clock.advance(2.0)
        assert controller.refresh() is TurnState.CHOOSE_MOVE
        events = len(table.history.events(table.game_id))
        tap(factory, P.confirm)  # a card to enter: the table cannot guess it
        assert controller.state is TurnState.REFUSED
        assert len(table.history.events(table.game_id)) == events
        while table.snapshot()["state"]["phase"] == "card":  # the cards, typed on a phone
            table.choose_move(table.snapshot()["moves"][0]["move"])
        assert table.snapshot()["state"]["phase"] == "action"
        best = table.snapshot()["moves"][0]["move"]
        clock.advance(2.0)
        controller.refresh()
        tap(factory, P.confirm)
        assert table.history.events(table.game_id)[-1].text == best
    finally:
        box.controller.close()
        table.history.close()
