"""The History on a phone (issue 54): one row per roll or move, the camera's reading and its
corrections folded into the roll they led to and shown on a tap, not one row per event.
The harness is test_browser's."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
import test_browser as harness
from panel_support import GAME, PLAYERS
from phones import PHONES, shot
from table_support import fitting_roll, tray

from companion.history import History
from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser


def played(tmp_path) -> TableSession:
    """A line-up read by the camera, one die unsure, corrected and a box dropped back in,
    confirmed; then typed rolls and moves, 14 events in all."""
    table = TableSession(History(tmp_path / "history.db"))
    table.new_game(GAME, PLAYERS)
    jpeg = cv2.imencode(".jpg", np.full((100, 300, 3), (40, 90, 50), np.uint8))[1].tobytes()
    table.submit_reading(tray(fitting_roll(table.snapshot(), random.Random(1)), unsure=1, jpeg=jpeg))
    table.correct_die(1, 7)
    table.drop_die(2)
    table.drop_die(2, dropped=False)
    table.confirm()
    rng = random.Random(3)
    while len(table.history.events(table.game_id)) < 14:
        snap = table.snapshot()
        if snap["roll_wanted"]:
            table.type_roll(fitting_roll(snap, rng).text())
        else:
            table.choose_move(snap["moves"][0]["move"])
    return table


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_history_has_a_row_per_roll_or_move_with_its_reading_folded_in(browser, tmp_path, size):
    table = played(tmp_path)
    events = table.history.events(table.game_id)
    steps = [e for e in events if e.kind.value in ("roll", "move")]
    assert len(steps) < len(events)  # the reading and its corrections are events of their own
    errors: list[str] = []
    expect = sync_api.expect
    with harness.running(table) as server:
        page = harness.phone(browser, errors, viewport=size)
        page.goto(f"{server}/games/{table.game_id}")
        expect(page.locator(".timeline .event")).to_have_count(len(steps))
        first = page.locator(".timeline .event.roll").first
        expect(first.locator("img.thumb")).to_have_count(1)  # the camera's tray, on the roll
        folded = first.locator(".folded")
        expect(folded).to_be_hidden()
        first.locator("button.fold").click()
        expect(folded).to_be_visible()
        expect(folded.locator("li")).to_have_count(4)  # the reading, a correction, two drops
        expect(folded).to_contain_text("die 2 ")
        expect(folded).to_contain_text("→ 7")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=shot("history", size), full_page=True)
    assert errors == []
