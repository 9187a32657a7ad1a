"""What a player meets on a phone when a turn ends, a typed roll is refused, a game is left
unfinished (issue 54): ending a turn with moves still open asks first, a refused roll keeps
its text to fix, the Games page and the History say "left unfinished" alike, and no page shows
a note meant for developers (a file name, "rules-notes"). The harness is test_browser's."""

from __future__ import annotations

import random
import re

import pytest
import test_browser as harness
from panel_support import GAME, PLAYERS, play
from phones import PHONES, SIZE_IDS, new_table, shot

from companion.history import History
from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser
DEVELOPERS = re.compile(r"\.(?:md|py|json)\b|rules-notes|shared/|docs/", re.IGNORECASE)


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_ending_a_turn_with_moves_open_asks_first(browser, tmp_path, size):
    table = new_table(tmp_path)
    snap = play(table, random.Random(2), lambda s: s["can_end_turn"] and s["end_turn_leaves"] > 0)
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        page.click("#end-turn")
        dialog = page.locator("#end-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text(f"{snap['current']['player']} still has "
                                       f"{snap['end_turn_leaves']} moves open")
        page.screenshot(path=shot("end-turn-asks", size))
        page.click("text=Keep playing")
        expect(dialog).to_be_hidden()
        assert table.snapshot()["version"] == snap["version"]  # nothing ended
        page.click("#end-turn")
        page.click("#end-anyway")
        expect(page.locator("#whose")).not_to_have_text(snap["current"]["text"])
        assert table.snapshot()["version"] > snap["version"]


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_refused_typed_roll_keeps_its_text(browser, tmp_path, size):
    table = new_table(tmp_path)
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        page.fill("#typed-roll", "d20=5 d20=12 d20=3")  # one die short of the line-up
        page.click("text=Enter roll")
        expect(page.locator("#toast")).to_be_visible()
        expect(page.locator("#typed-roll")).to_have_value("d20=5 d20=12 d20=3")
        page.fill("#typed-roll", "d20=5 d20=12 d20=3 d20=9")
        page.click("text=Enter roll")
        expect(page.locator("#typed-roll")).to_have_value("")  # taken: cleared for the next


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_games_and_history_call_a_game_left_unfinished_alike(browser, tmp_path, size):
    table = new_table(tmp_path)
    left = table.game_id
    table.new_game(GAME, PLAYERS)  # the first is left unfinished
    errors: list[str] = []
    expect = sync_api.expect
    with harness.running(table) as server:
        page = harness.phone(browser, errors, viewport=size)
        page.goto(f"{server}/games")
        expect(page.locator("#games li", has_text=f"#{left} ")).to_contain_text("left unfinished")
        page.goto(f"{server}/games/{left}")
        expect(page.locator("#history-meta")).to_contain_text("left unfinished")
        expect(page.locator(".timeline")).not_to_contain_text("abandon")
    assert errors == []


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_no_players_page_shows_notes_meant_for_developers(browser, tmp_path, size):
    table = TableSession(History(tmp_path / "notes.db"))
    errors: list[str] = []
    expect = sync_api.expect

    def shown() -> str:
        return page.evaluate("document.querySelector('main').textContent")

    with harness.running(table) as server:
        page = harness.phone(browser, errors, viewport=size)
        harness.join(page, server)
        for name in table.history.games_registry.game_names():
            table.new_game(name, PLAYERS)
            seen = {}
            page.goto(server)
            expect(page.locator("#readings li").first).to_be_attached()  # the rulebook's silences
            seen["table"] = shown()
            page.goto(f"{server}/cards")
            if page.locator(f"#game option[value='{name}']").count():
                page.select_option("#game", name)
                expect(page.locator("#import-hint")).not_to_be_empty()
                seen["cards"] = shown()
            page.goto(f"{server}/games")
            expect(page.locator("#games li").first).to_be_visible()
            seen["games"] = shown()
            page.goto(f"{server}/games/{table.game_id}")
            expect(page.locator("#history-meta")).not_to_be_empty()
            seen["history"] = shown()
            for where, text in seen.items():
                assert not DEVELOPERS.search(text), (name, where, DEVELOPERS.search(text))
    assert errors == []
