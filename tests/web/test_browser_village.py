"""Village Attacks' table page on a phone (issue 54): what its players track, the Castle Heart,
Morale, the event dial, each Monster's health, experience and zone, its reserve dice and the
Villagers in each zone, is on the page and fits 360 px. The harness is test_browser's."""

from __future__ import annotations

import random

import pytest
import test_browser as harness
from panel_support import PLAYERS, play

from companion.history import History
from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser
PHONES = [{"width": 360, "height": 740}, {"width": 390, "height": 844}]


def monster_turn(tmp_path) -> dict:
    """A seeded game played on to a Monster's turn with Villagers on the board."""
    table = TableSession(History(tmp_path / "village.db"))
    table.new_game("village-attacks", PLAYERS)
    play(table, random.Random(5), lambda s: s["state"]["phase"] == "monster"
         and any(z["villagers"] for z in s["state"]["zones"]))
    return table


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_village_page_shows_what_its_players_track(browser, tmp_path, size):
    table = monster_turn(tmp_path)
    state = table.snapshot()["state"]
    errors: list[str] = []
    expect = sync_api.expect
    with harness.running(table) as server:
        page = harness.phone(browser, errors, viewport=size)
        harness.join(page, server)
        board = page.locator("#board")
        expect(board.locator(".stats-row")).to_contain_text(f"Castle Heart{state['castle_heart']}")
        expect(board.locator(".stats-row")).to_contain_text(f"Morale{state['morale']}")
        expect(board.locator(".stats-row")).to_contain_text(f"Event dial{state['event_dial']}")
        for m in state["players"]:
            monster = board.locator(f".monster[data-seat='{m['seat']}']")
            expect(monster).to_contain_text(f"{m['name']}: {m['monster']}")
            expect(monster).to_contain_text(f"Health{m['health']}/{m['max_health']}")
            expect(monster).to_contain_text(f"Experience{m['experience']}/{m['level_at']}")
            expect(monster).to_contain_text(f"in {m['zone']}" if m["zone"] else "slain")
            expect(monster).to_contain_text("Reserve")
        for z in state["zones"]:
            for kind, n in z["villagers"].items():
                expect(board.locator(f"tr[data-zone='{z['id']}']")).to_contain_text(f"{n} {kind}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
            "the page scrolls sideways"
        page.screenshot(path=str(harness.ARTIFACTS / f"village-{size['width']}x{size['height']}.png"),
                        full_page=True)
    assert errors == []
