"""Fantahzee on a phone (issue 54): a card that comes up is entered in as few taps as can be
(the likeliest in one, the cards entered lately next, only cards that can still come up), and
the table reads in words ("Counterattack 0", "a pair of any number"), not "CA 0" or "[X X]".
The harness is test_browser's."""

from __future__ import annotations

import pytest
import test_browser as harness
from phones import PHONES, SIZE_IDS, new_table, shot

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser


def lately_asked(snap: dict) -> bool:
    """A card to enter, with one the table entered lately still able to come up."""
    return snap["state"]["phase"] == "card" and any(
        m["lately"] is not None and m is not snap["moves"][0] for m in snap["moves"])


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_card_that_comes_up_is_one_tap(browser, tmp_path, size):
    table = new_table(tmp_path, "fantahzee", seed=1, until=lately_asked)
    moves = table.snapshot()["moves"]
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        likely = page.locator("#likely-card")
        expect(likely).to_have_text(f"It is the {moves[0]['card']}")
        lately = sorted((m for m in moves if m["lately"] is not None and m is not moves[0]),
                        key=lambda m: m["lately"])
        expect(page.locator("#lately-cards button")).to_have_count(len(lately))
        assert page.locator("#lately-cards button").first.get_attribute("data-move") \
            == lately[0]["move"]
        # both places read in one task of the page: a re-render between two reads (the panel
        # redraws on every update) left one element detached, its box None, on a loaded machine
        assert page.evaluate("() => document.querySelector('#lately-cards')"
                             ".getBoundingClientRect().y < document.querySelector('#all-cards')"
                             ".getBoundingClientRect().y")
        offered = page.locator("#all-cards button").evaluate_all(
            "bs => bs.map(b => b.dataset.move)")
        assert offered == [m["move"] for m in moves]  # only the cards that can come up
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator(".moves-card").screenshot(path=shot("fantahzee-card", size))
        likely.click()
        expect(likely).not_to_have_attribute("data-move", moves[0]["move"])
    entered = [e.text for e in table.history.events(table.game_id) if e.kind.value == "move"]
    assert entered[-1] == moves[0]["move"]


def waiting_hero(snap: dict) -> bool:
    """The player to act has a hero in the party not yet activated, and a monster face up."""
    state = snap["state"]
    me = state["players"][state["turn"]]
    return any(not h["active"] for h in me["party"]) and any(
        "Counterattack" in st["label"] for st in state["stacks"])


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_the_table_reads_in_words(browser, tmp_path, size):
    table = new_table(tmp_path, "fantahzee", seed=1, until=waiting_hero)
    state = table.snapshot()["state"]
    hero = next(h for h in state["players"][state["turn"]]["party"] if not h["active"])
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        board = page.locator("#board")
        expect(board).to_contain_text("Counterattack")
        expect(board).to_contain_text(f"{hero['name']} {hero['strength']}: pay {hero['cost']}")
        shown = board.inner_text()
        assert "CA " not in shown and "[" not in shown and "*" not in shown, shown
        page.screenshot(path=shot("fantahzee-words", size))
