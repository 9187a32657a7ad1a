"""Village Attacks' table page on a phone (issue 54): what its players track, the Castle Heart,
Morale, the event dial, each Monster's health, level, experience and zone, its reserve dice and
the Villagers in each zone, is on the page and fits 360 px; the moves are grouped by what they
do, and a spawn card is entered as its counts. The harness is test_browser's."""

from __future__ import annotations

import pytest
import test_browser as harness
from phones import PHONES, SIZE_IDS, new_table, shot

from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser


def monster_turn(tmp_path) -> TableSession:
    """A seeded game played on to a Monster's turn with Villagers on the board."""
    return new_table(tmp_path, "village-attacks", seed=5,
                     until=lambda s: s["state"]["phase"] == "monster"
                     and any(z["villagers"] for z in s["state"]["zones"]))


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_the_village_page_shows_what_its_players_track(browser, tmp_path, size):
    table = monster_turn(tmp_path)
    state = table.snapshot()["state"]
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        board = page.locator("#board")
        expect(board.locator(".stats-row")).to_contain_text(f"Castle Heart{state['castle_heart']}")
        expect(board.locator(".stats-row")).to_contain_text(f"Morale{state['morale']}")
        expect(board.locator(".stats-row")).to_contain_text(f"Event dial{state['event_dial']}")
        for m in state["players"]:
            monster = board.locator(f".monster[data-seat='{m['seat']}']")
            expect(monster).to_contain_text(f"{m['name']}: {m['monster']}")
            expect(monster).to_contain_text(f"Health{m['health']}/{m['max_health']}")
            expect(monster).to_contain_text(f"Level{m['level']}")
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


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_cooperative_games_moves_are_grouped_by_what_they_do(browser, tmp_path, size):
    table = new_table(tmp_path, "village-attacks", seed=5,
                      until=lambda s: s["state"]["step"] == "spend" and len(s["moves"]) > 8
                      and any(m["move"].startswith(("melee", "ranged")) for m in s["moves"]))
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        groups = page.locator("#moves .move-group > summary")
        expect(groups.first).to_be_visible()
        names = [t.split(" (")[0] for t in groups.all_inner_texts()]
        assert "Attack" in names and "End the turn" in names, names
        assert not any("points" in n for n in names), names
        expect(page.locator("#moves .points").first).to_have_text("")  # ranks, not points
        page.screenshot(path=shot("village-moves", size), full_page=True)


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_spawn_card_is_entered_as_its_counts(browser, tmp_path, size):
    table = new_table(tmp_path, "village-attacks", seed=5,
                      until=lambda s: s["state"]["step"] == "spawn")
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        expect(page.locator("#spawn-enter")).to_be_visible()
        expect(page.locator("#moves button.move")).to_have_count(0)  # no button per count
        page.click("[aria-label='one Peasant more']")
        page.click("[aria-label='one Peasant more']")
        page.click("[aria-label='one Hunter more']")
        expect(page.locator("#spawn-enter")).to_have_text("Enter: 2 Peasants, 1 Hunter")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=shot("village-spawn", size))
        page.click("#spawn-enter")
        expect(page.locator("#spawn-enter")).to_have_count(0)
    moves = [e.text for e in table.history.events(table.game_id) if e.kind.value == "move"]
    assert "spawn 2 1" in moves
