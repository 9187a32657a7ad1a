"""The turn-flow controller on real MockFactory pins and a real TableSession (Pig, one d6)."""

from __future__ import annotations

import pytest
from conftest import Box
from firmware_helpers import FAST_HOLD, d6, hold, tap, wait_for

from firmware.controller import PATTERNS, PLAYER_COLOURS, TurnState
from firmware.devices import Light

P = FAST_HOLD
RED, BLUE = PLAYER_COLOURS[0][1], PLAYER_COLOURS[1][1]


def roll(box: Box) -> None:
    tap(box.factory, P.roll)
    box.controller.wait_idle()


def settle_flash(box: Box) -> TurnState:
    box.clock.advance(2.0)
    return box.controller.refresh()


def test_a_whole_turn_on_the_buttons(box: Box) -> None:
    c = box.controller
    assert c.state is TurnState.WAITING_FOR_ROLL
    assert box.lit(P.ready) == 1 and box.lit(P.attention) == 0
    assert box.colour() == pytest.approx(RED)

    box.dice.script.append(d6(4))
    roll(box)
    assert box.dice.asked == [["d6"]]
    assert c.state is TurnState.MOVE_APPLIED
    assert settle_flash(box) is TurnState.CHOOSE_MOVE
    assert box.panel.shown.ready is Light.SLOW
    assert box.table.snapshot()["state"]["pot"] == 4

    tap(box.factory, P.confirm)  # the top-ranked move in Pig is banking the pot
    assert box.table.snapshot()["scores"] == [4, 0]
    assert c.state is TurnState.NEXT_PLAYER
    assert box.panel.shown.player is Light.FAST
    assert box.colour() == pytest.approx(BLUE) or box.colour() == pytest.approx((0, 0, 0))
    assert settle_flash(box) is TurnState.WAITING_FOR_ROLL
    assert box.colour() == pytest.approx(BLUE)


def test_an_unsure_die_waits_for_confirmation_with_the_attention_light(box: Box) -> None:
    box.dice.script.append(d6(5, unsure=True))
    roll(box)
    assert box.controller.state is TurnState.CHECK_READING
    assert box.panel.shown.attention is Light.FAST and box.lit(P.reading) == 1
    assert box.table.snapshot()["reading"]["pending"] is True

    box.dice.script.append(d6(3))  # ROLL again reads the tray again (a die was straightened)
    roll(box)
    assert box.table.snapshot()["state"]["pot"] == 3
    assert settle_flash(box) is TurnState.CHOOSE_MOVE


def test_confirm_accepts_a_pending_reading(box: Box) -> None:
    box.dice.script.append(d6(6, unsure=True))
    roll(box)
    tap(box.factory, P.confirm)
    assert box.table.snapshot()["state"]["pot"] == 6
    assert box.controller.state is TurnState.MOVE_APPLIED


def test_long_presses_end_the_turn_and_undo_the_whole_turn(box: Box) -> None:
    box.dice.script += [d6(4), d6(5)]
    roll(box)
    tap(box.factory, P.undo)  # short: takes back the roll
    assert box.table.snapshot()["current"]["chance"] is True
    roll(box)
    hold(box.factory, P.confirm, box.panel.confirm)  # long: end the turn (bank 5)
    assert box.table.snapshot()["scores"] == [5, 0]
    assert box.controller.state is TurnState.NEXT_PLAYER
    hold(box.factory, P.undo, box.panel.undo)  # long: undo Ann's whole turn
    snap = box.table.snapshot()
    assert snap["scores"] == [0, 0] and snap["current"]["seat"] == 0
    assert snap["state"]["pot"] == 0


def test_a_press_that_is_not_allowed_now_flashes_and_changes_nothing(box: Box) -> None:
    before = box.table.snapshot()
    tap(box.factory, P.confirm)  # nothing rolled yet: no move to play
    assert box.controller.state is TurnState.REFUSED
    assert box.panel.shown.attention is Light.FAST
    assert "roll the dice first" in box.controller.last_problem
    assert box.table.snapshot()["version"] == before["version"]
    assert settle_flash(box) is TurnState.WAITING_FOR_ROLL


def test_buttons_and_the_phone_never_disagree(box: Box) -> None:
    box.controller.start()
    box.table.type_roll("d6=2")  # a phone types the roll in
    wait_for(lambda: box.controller.view and box.controller.view.rolling is False)
    box.clock.advance(2.0)
    wait_for(lambda: box.controller.state is TurnState.CHOOSE_MOVE)
    box.table.end_turn()  # and ends the turn from the phone
    wait_for(lambda: box.controller.view.seat == 1)
    box.clock.advance(2.0)
    wait_for(lambda: box.colour() == pytest.approx(BLUE) and box.lit(P.ready) == 1)
    assert box.controller.state is TurnState.WAITING_FOR_ROLL


def test_game_over_shows_the_winner_and_menu_starts_a_rematch(box: Box) -> None:
    box.table.type_roll("d6=6")
    box.table.choose_move("again")
    box.table.type_roll("d6=5")
    tap(box.factory, P.confirm)  # bank 11: Ann reaches the target of 10
    assert box.controller.state is TurnState.GAME_OVER
    assert box.panel.shown.player is Light.SLOW and box.panel.shown.colour == RED
    first = box.table.game_id
    hold(box.factory, P.next, box.panel.next)
    snap = box.table.snapshot()
    assert box.table.game_id != first
    assert snap["game"]["players"] == ["Ann", "Bob"] and snap["game"]["options"] == {"target": 10}
    assert box.controller.state is TurnState.WAITING_FOR_ROLL


def test_menu_does_not_throw_away_a_running_game(box: Box) -> None:
    first = box.table.game_id
    hold(box.factory, P.next, box.panel.next)
    assert box.table.game_id == first
    assert box.controller.state is TurnState.REFUSED


def test_every_state_has_its_own_light_pattern() -> None:
    looks = {(p.ready, p.reading, p.attention, p.player) for p in PATTERNS.values()}
    assert set(PATTERNS) == set(TurnState)
    assert len(looks) == len(TurnState)
