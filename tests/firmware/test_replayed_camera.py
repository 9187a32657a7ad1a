"""Whole turns of Against the Monstrous Horde on the buttons, read by the real reader and model
from a replayed camera. Each ROLL replays a tray frame of the very dice the game asked for
(drawn by the vision renderer, so the true faces are known); the players check the panel and
correct a misread there, as they would at the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import pytest
from conftest import Box
from firmware_helpers import FAST_HOLD, tap

from firmware.controller import TurnState
from firmware.devices import Light
from vision.capture import ReplaySource
from vision.classify import DEFAULT_MODEL
from vision.detect import skin_hand
from vision.reader import DiceReader
from vision.train.render import render_tray

pytestmark = pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="no shipped model yet")
P = FAST_HOLD


class ThrownTray:
    """The dice source: a rendered throw of the kinds asked for, replayed like a camera that
    watches them come to rest, read by the real DiceReader."""

    def __init__(self, folder: Path, on_settled: Callable[[], object]) -> None:
        self.reader = DiceReader()
        self.folder = folder
        self.on_settled = on_settled
        self.truth: list[list[tuple[str, int, tuple[int, int, int, int]]]] = []

    def __call__(self, expect: list[str] | None) -> Any:
        kinds = list(expect or [])
        for seed in range(len(self.truth) * 50, len(self.truth) * 50 + 50):
            frame, dice = render_tray(len(kinds), seed, kinds=kinds)
            # Every die placed, and no table patch the skin check takes for a hand (a wood table
            # now and then: the detector's own tests cover that; this test is about the turn).
            if sorted(d[0] for d in dice) == sorted(kinds) and not skin_hand(frame):
                break
        path = self.folder / f"throw-{len(self.truth)}.jpg"
        cv2.imwrite(str(path), frame)
        self.truth.append(dice)
        hold_frames = self.reader.settling.still_frames + 2
        with ReplaySource([path], hold=hold_frames) as camera:
            return self.reader.read_settled(camera, kinds, timeout=5,
                                            on_settled=self.on_settled)


def centre(box: Any) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def correct_from_the_phone(box: Box, truth: list[tuple[str, int, Any]]) -> int | None:
    """Set each misread die of the reading on show to its true face, kind by kind (the game
    takes the dice by kind); returns how many were set, or None when the kinds themselves are
    wrong, which only retyping the roll can fix."""
    shown = box.table.snapshot()["reading"]["dice"]
    fixed = 0
    for kind in {k for k, _, _ in truth}:
        want = [(v, b) for k, v, b in truth if k == kind]
        have = [(i, d) for i, d in enumerate(shown) if d["die"] == kind]
        if len(want) != len(have):
            return None
        for index, die in have:  # nearest true die of the kind first
            cx, cy = centre(die["box"])
            value, where = min(want, key=lambda w: (centre(w[1])[0] - cx) ** 2
                               + (centre(w[1])[1] - cy) ** 2)
            want.remove((value, where))
            if die["value"] != value:
                box.table.correct_die(index, value)
                fixed += 1
    return fixed


def faces(dice: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return sorted((d["die"], d["value"]) for d in dice)


def throw(box: Box, tray: ThrownTray) -> str:
    """Press ROLL; deal with the reading as players would. Returns how it went."""
    tap(box.factory, P.roll)
    box.controller.wait_idle(30)
    truth = tray.truth[-1]
    state = box.controller.state
    if state is TurnState.CHECK_READING:
        assert box.panel.shown.attention is Light.FAST and box.lit(P.reading) == 1
        assert box.table.snapshot()["reading"]["pending"]
        fixable = correct_from_the_phone(box, truth) is not None
        if fixable:
            tap(box.factory, P.confirm)
        if box.table.snapshot()["reading"]["pending"]:  # a die's kind was misread: retype it
            tap(box.factory, P.undo)
            box.table.type_roll(" ".join(f"{k}={v}" for k, v, _ in truth))
            return "typed"
        return "checked"
    assert state in (TurnState.MOVE_APPLIED, TurnState.NEXT_PLAYER), state
    assert box.panel.shown.attention is Light.OFF
    amended = correct_from_the_phone(box, truth)  # a sure misread is fixed on the panel too
    assert amended is not None  # an applied roll has the kinds the game asked for
    return "amended" if amended else "read"


@pytest.fixture
def tray(box: Box, tmp_path: Path) -> ThrownTray:
    thrown = ThrownTray(tmp_path, box.controller.dice_phase_reading)
    box.table.dice_source = thrown
    return thrown


def test_two_whole_turns_with_a_replayed_camera(box: Box, tray: ThrownTray) -> None:
    outcomes: list[str] = []
    last_seat, passes = None, 0
    for _ in range(80):
        snap = box.table.snapshot()
        seat = snap["current"]["seat"]
        if seat is not None:
            passes += last_seat is not None and seat != last_seat
            last_seat = seat
        if passes == 2:
            break
        assert not snap["game"]["over"]
        if snap["roll_wanted"]:
            outcomes.append(throw(box, tray))
            shown = box.table.snapshot()["reading"]
            assert faces(shown["dice"]) == sorted((k, v) for k, v, _ in tray.truth[-1])
        else:
            tap(box.factory, P.confirm)  # the top-ranked move (ending the turn when it is best)
        box.clock.advance(2.0)
        assert box.controller.refresh() is not TurnState.FAULT
    assert passes == 2, "the turn did not pass twice"
    assert len(outcomes) >= 4, outcomes  # enemy line-up, roll-off, a melee team per player
    assert box.table.snapshot()["faults"] == []
