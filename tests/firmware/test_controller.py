"""The turn-flow controller on real MockFactory pins and a real TableSession playing
Against the Monstrous Horde, the dice read by a scripted camera."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Box
from firmware_helpers import FAST_HOLD, hold, tap, wait_for

from firmware.controller import PATTERNS, PLAYER_COLOURS, WHITE, TurnState
from firmware.devices import Light

P = FAST_HOLD


def roll(box: Box) -> None:
    tap(box.factory, P.roll)
    box.controller.wait_idle()


def after_flash(box: Box) -> TurnState:
    box.clock.advance(2.0)
    return box.controller.refresh()


def snap(box: Box) -> dict[str, Any]:
    return box.table.snapshot()


def set_up(box: Box) -> int:
    """Roll the enemy line-up and the roll-off on the ROLL button; returns the first seat."""
    roll(box)
    roll(box)
    assert after_flash(box) is TurnState.CHOOSE_MOVE
    seat = snap(box)["current"]["seat"]
    assert seat in (0, 1)
    return seat


def test_a_whole_turn_on_the_buttons(box: Box) -> None:
    c = box.controller
    assert c.state is TurnState.WAITING_FOR_ROLL
    assert box.lit(P.ready) == 1 and box.lit(P.attention) == 0 and box.lit(P.reading) == 0
    assert box.colour() == pytest.approx(WHITE)  # the enemy line-up is the whole table's roll

    roll(box)
    assert box.dice.asked == [["d20", "d20", "d20", "d20"]]
    assert c.state is TurnState.MOVE_APPLIED and box.panel.shown.ready is Light.FAST
    roll(box)  # the barbarian roll-off picks who starts
    seat = snap(box)["current"]["seat"]
    assert c.state is TurnState.NEXT_PLAYER
    assert after_flash(box) is TurnState.CHOOSE_MOVE
    assert box.panel.shown.ready is Light.SLOW
    assert box.colour() == pytest.approx(PLAYER_COLOURS[seat][1])

    top = snap(box)["moves"][0]["move"]
    tap(box.factory, P.confirm)  # plays the top-ranked melee team
    assert box.table.history.events(box.table.game_id)[-1].text == top
    assert after_flash(box) is TurnState.WAITING_FOR_ROLL
    wanted = snap(box)["roll_wanted"]
    assert wanted["player"] == seat and wanted["reason"] == "melee team"
    roll(box)
    assert box.dice.asked[-1] == wanted["dice"]
    assert after_flash(box) is TurnState.CHOOSE_MOVE
    tap(box.factory, P.confirm)  # keep the roll (or the best reroll)
    hold(box.factory, P.confirm, box.panel.confirm)  # long press: end the turn
    while snap(box)["current"]["seat"] == seat and snap(box)["roll_wanted"]:
        roll(box)  # defeated enemies are replaced before the turn passes
    other = snap(box)["current"]["seat"]
    assert other == 1 - seat
    assert c.state is TurnState.NEXT_PLAYER
    assert after_flash(box) is TurnState.CHOOSE_MOVE
    assert box.colour() == pytest.approx(PLAYER_COLOURS[other][1])


def test_an_unsure_die_waits_for_confirmation_with_the_attention_light(box: Box) -> None:
    box.dice.queued.append("unsure")
    roll(box)
    assert box.controller.state is TurnState.CHECK_READING
    assert box.panel.shown.attention is Light.FAST and box.lit(P.reading) == 1
    assert snap(box)["reading"]["pending"] is True and snap(box)["roll_wanted"]

    tap(box.factory, P.confirm)  # the players checked the die: accept the reading as it is
    assert snap(box)["reading"]["pending"] is False
    assert box.controller.state is TurnState.MOVE_APPLIED


def test_roll_reads_again_while_a_reading_is_checked(box: Box) -> None:
    box.dice.queued.append("unsure")
    roll(box)
    roll(box)  # a cocked die was straightened: read the tray again
    assert snap(box)["reading"]["pending"] is False
    assert len(box.dice.asked) == 2
    assert snap(box)["roll_wanted"]["reason"] != "enemy line-up"


def test_undo_and_the_long_undo_of_a_whole_turn(box: Box) -> None:
    seat = set_up(box)
    before = snap(box)
    tap(box.factory, P.confirm)
    roll(box)
    tap(box.factory, P.undo)  # short: takes back the melee roll
    assert snap(box)["roll_wanted"] is not None
    roll(box)
    tap(box.factory, P.confirm)
    hold(box.factory, P.undo, box.panel.undo)  # long: the whole turn of `seat`
    after = snap(box)
    assert after["current"]["seat"] == seat
    assert after["state"] == before["state"] and after["moves"] == before["moves"]


def test_a_press_that_is_not_allowed_now_flashes_and_changes_nothing(box: Box) -> None:
    before = snap(box)["version"]
    tap(box.factory, P.confirm)  # the enemies are not rolled yet: no move to play
    assert box.controller.state is TurnState.REFUSED
    assert box.panel.shown.attention is Light.FAST
    assert "roll the dice first" in box.controller.last_problem
    assert snap(box)["version"] == before
    assert after_flash(box) is TurnState.WAITING_FOR_ROLL


def test_buttons_and_the_phone_never_disagree(box: Box) -> None:
    box.controller.start()
    wanted = snap(box)["roll_wanted"]["dice"]
    box.table.type_roll(" ".join(f"{k}=5" for k in wanted))  # a phone types the roll in
    wait_for(lambda: box.controller.view.version == snap(box)["version"])
    assert box.controller.state is TurnState.WAITING_FOR_ROLL  # now the roll-off
    roll(box)
    box.clock.advance(2.0)
    wait_for(lambda: box.controller.state is TurnState.CHOOSE_MOVE)
    seat = snap(box)["current"]["seat"]
    box.table.choose_move(snap(box)["moves"][0]["move"])  # the phone picks the team
    wait_for(lambda: box.controller.state is TurnState.WAITING_FOR_ROLL)
    assert box.colour() == pytest.approx(PLAYER_COLOURS[seat][1])


def test_game_over_shows_the_winner_and_menu_starts_a_rematch(box: Box) -> None:
    for _ in range(300):
        if snap(box)["game"]["over"]:
            break
        roll(box) if snap(box)["roll_wanted"] else tap(box.factory, P.confirm)
    assert box.controller.state is TurnState.GAME_OVER
    winners = snap(box)["game"]["outcome"]["winners"]
    colour = PLAYER_COLOURS[winners[0]][1] if len(winners) == 1 else WHITE
    assert box.panel.shown.player is Light.SLOW and box.panel.shown.colour == colour
    assert box.lit(P.ready) == 1 and box.lit(P.reading) == 1
    first = box.table.game_id
    hold(box.factory, P.next, box.panel.next)
    assert box.table.game_id != first
    assert snap(box)["game"]["players"] == ["Ann", "Bob"]
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


def test_the_lights_follow_a_read_from_settling_to_reading(box: Box) -> None:
    seen: list[tuple[TurnState, float, float]] = []

    def look() -> None:
        seen.append((box.controller.state, box.lit(P.reading), box.lit(P.ready)))

    def source(expect: list[str] | None) -> Any:
        look()  # the dice are still rolling
        box.controller.dice_phase_reading()  # what read_settled's on_settled does
        look()
        return box.dice(expect)

    box.table.dice_source = source
    roll(box)
    assert [s for s, _, _ in seen] == [TurnState.SETTLING, TurnState.READING]
    assert seen[0][2] == 0 and seen[1] == (TurnState.READING, 1, 0)
    assert box.panel.shown.reading is Light.OFF  # done: the roll is applied
