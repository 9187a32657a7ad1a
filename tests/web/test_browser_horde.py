"""Against the Monstrous Horde on a phone (issue 54): the roll-off says which d20 is whose, and
a move worth no points ranked above one that scores says why. The harness is test_browser's."""

from __future__ import annotations

import random

import pytest
import test_browser as harness
from panel_support import play
from phones import PHONES, SIZE_IDS, new_table, shot

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_the_roll_off_says_which_d20_is_whose(browser, tmp_path, size):
    table = new_table(tmp_path)
    table.type_roll(harness.LINE_UP)
    assert table.snapshot()["roll_wanted"]["reason"].startswith("Barbarian roll-off")
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        expect(page.locator("#whose")).to_contain_text("die 1 Ann's, die 2 Bob's")
        page.screenshot(path=shot("horde-rolloff", size))
        page.fill("#typed-roll", "d20=8 d20=19")
        page.click("text=Enter roll")
        expect(page.locator("#told")).to_contain_text("Ann 8, Bob 19")


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_move_worth_nothing_ranked_above_points_says_why(browser, tmp_path, size):
    table = new_table(tmp_path)
    snap = play(table, random.Random(3), lambda s: any(
        m["points"] == 0 and any(later["points"] > 0 for later in s["moves"][i + 1:])
        for i, m in enumerate(s["moves"])))
    first = next(m for i, m in enumerate(snap["moves"]) if m["points"] == 0
                 and any(later["points"] > 0 for later in snap["moves"][i + 1:]))
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        button = page.locator(f"#moves [data-move='{first['move']}']")
        expect(button.locator(".detail")).to_contain_text("Ranked above plays that score: ")
        button.scroll_into_view_if_needed()
        page.screenshot(path=shot("horde-why", size))
