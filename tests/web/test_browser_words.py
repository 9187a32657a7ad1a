"""Issue 40 in a real browser (Debian chromium through Playwright), at phone sizes: moves and
events in plain words, every move reachable, the history without spikes, a new game that asks
first, resuming a past game, one colour per seat on every page, and no page wider than a phone.

Uses the harness of test_browser.py: its server over a painted tray, its phones, its browser.
"""

from __future__ import annotations

import random

import pytest
from panel_support import GAME, PLAYERS, roll_text
from test_browser import ARTIFACTS, PHONE, join, phone, sync_api

from companion.rules.core import Roll
from companion.table import TableSession

pytest_plugins = ["panel_fixtures", "test_browser"]  # its browser and server fixtures
pytestmark = pytest.mark.browser
LINE_UP = Roll.of(("d20", 5), ("d20", 12), ("d20", 3), ("d20", 9)).text()
SIZES = [{"width": 360, "height": 800}, {"width": 390, "height": 844}]


def to_team_step(table: TableSession) -> None:
    """A game of the Horde whose first player chooses a team (56 moves)."""
    table.new_game(GAME, PLAYERS)
    table.type_roll(LINE_UP)
    while not table.snapshot()["moves"]:
        table.type_roll(roll_text(table.snapshot(), seed=len(table.history.events(table.game_id))))


def width(page) -> int:  # type: ignore[no-untyped-def]
    """How wide the page's content is: more than the viewport means it scrolls sideways."""
    return int(page.evaluate("Math.max(document.documentElement.scrollWidth,"
                             " document.body.scrollWidth)"))


def test_every_move_is_reachable_in_words_grouped_and_found(server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    to_team_step(table)
    me = phone(browser, errors)
    join(me, server)
    expect(me.locator("#moves-total")).to_have_text("(56, best first)")
    groups = me.locator(".move-group")
    expect(groups.locator("summary")).to_have_text(
        ["Teams of 4 (15)", "Teams of 3 (20)", "Teams of 2 (15)", "Teams of 1 (6)"])
    expect(me.locator(".move-group[open]")).to_have_count(1)  # the best group only
    best = table.snapshot()["moves"][0]
    expect(me.locator(".move-title").first).to_have_text(best["title"])
    expect(me.locator(".move-text").first).to_have_text(best["move"])  # kept for typing

    me.fill("#move-filter", "wizard")  # 1 + 5 + 10 + 10 teams hold the Wizard
    expect(me.locator(".move")).to_have_count(26)
    me.fill("#move-filter", "")
    groups.nth(3).locator("summary").click()  # the last group, opened by hand, is reachable
    me.locator(".move", has_text="Team of 1: Wizard").click()
    player = table.snapshot()["current"]["player"]
    expect(me.locator("#told")).to_have_text(f"{player}: Team of 1: Wizard")
    me.locator("#typed-roll").fill("3")  # bare faces still fill the roll wanted
    me.click("text=Enter roll")
    expect(me.locator("#told")).to_have_text(f"{player} rolled (melee team): Wizard 3")
    assert errors == []


def test_history_says_what_happened_and_draws_no_spike_for_an_undone_move(server, browser,
                                                                         table):
    expect = sync_api.expect
    errors: list[str] = []
    table.new_game(GAME, PLAYERS)
    table.type_roll(LINE_UP)
    rng = random.Random(7)
    while not table.snapshot()["scores"] or not any(
            m["points"] for m in table.snapshot()["moves"]):  # on to a play that scores
        snap = table.snapshot()
        if snap["roll_wanted"]:
            table.type_roll(roll_text(snap, seed=rng.randrange(1000)))
        else:
            table.choose_move(snap["moves"][0]["move"])
    scoring = table.snapshot()["moves"][0]
    table.choose_move(scoring["move"])
    told = table.snapshot()["told"]
    table.undo()

    page = phone(browser, errors)
    page.goto(f"{server}/games/{table.game_id}")
    expect(page.locator(".event.move.undone .told")).to_have_text(told)
    steps = [e for e in table.history.export_json(table.game_id)["events"]
             if e["kind"] in ("roll", "move") and not e["undone"]]
    path = page.locator(".score-chart path").first.get_attribute("d") or ""
    assert path.count("L") == len(steps)  # a point per step in force: the undone one is not one
    expect(page.locator(".event.roll .told").first).to_contain_text("The table rolled")
    assert width(page) <= PHONE["viewport"]["width"]
    assert errors == []


def test_a_new_game_asks_first_and_the_old_one_resumes_exactly(server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    to_team_step(table)
    first, before = table.game_id, table.snapshot()
    me = phone(browser, errors)
    join(me, server)
    me.goto(f"{server}/new")
    expect(me.locator("#game option")).not_to_have_count(0)
    me.click("text=Start the game")
    expect(me.locator("#confirm-text")).to_contain_text(
        f"Against the Monstrous Horde (game {first}) with Ann, Bob is in play")
    me.click("text=Keep playing it")
    expect(me.locator("#confirm-new")).to_be_hidden()
    assert table.game_id == first
    me.click("text=Start the game")
    me.click("text=Start the new game")
    me.wait_for_url(f"{server}/")
    assert table.game_id != first

    me.goto(f"{server}/games")
    me.locator(f".resume[data-game='{first}']").click()
    me.wait_for_url(f"{server}/")
    after = table.snapshot()
    assert (after["game"]["id"], after["state"], after["scores"]) == (
        first, before["state"], before["scores"])
    expect(me.locator("#moves-total")).to_have_text("(56, best first)")
    me.locator(".move").first.click()  # it plays on from there
    # the click's request is answered in its own time: the page asks for a roll once it is in
    expect(me.locator("#wanted")).to_contain_text("Roll: ")
    expect(me.locator("#wanted")).to_have_text("Roll: " + ", ".join(  # a team: one die a hero
        table.snapshot()["roll_wanted"]["dice"]))
    assert errors == []


def test_a_seat_has_one_colour_on_every_page(server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    table.new_game("board-horde", PLAYERS)
    while not table.snapshot()["moves"]:
        table.type_roll(roll_text(table.snapshot(), seed=len(table.history.events(table.game_id))))
    blue, red = "rgb(79, 163, 224)", "rgb(224, 90, 79)"  # the teams of seats 0 and 1
    page = phone(browser, errors)
    page.goto(server)
    swatches = page.locator("#scores .swatch")
    expect(swatches.nth(0)).to_have_css("background-color", blue)
    expect(swatches.nth(1)).to_have_css("background-color", red)
    expect(page.locator(".mark.hero.team-blue").first).to_have_css("background-color", blue)
    page.goto(f"{server}/games/{table.game_id}")
    chart = page.locator(".score-chart path")
    expect(chart.nth(0)).to_have_attribute("stroke", "#4fa3e0")
    expect(chart.nth(1)).to_have_attribute("stroke", "#e05a4f")
    page.goto(f"{server}/panel")
    expect(page.locator("#panel-scores .swatch").nth(0)).to_have_css("background-color", blue)
    assert errors == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_no_page_scrolls_sideways_on_a_phone(server, browser, table, size):
    """Every page, with a game in play, its tray read through the camera, details open."""
    expect = sync_api.expect
    errors: list[str] = []
    to_team_step(table)
    table.choose_move(table.snapshot()["moves"][0]["move"])
    me = phone(browser, errors, viewport=size)
    join(me, server)
    me.click("#read")
    expect(me.locator(".tray-image img")).to_be_visible()
    me.locator("summary", has_text="Table details").click()
    expect(me.locator(".details h3").first).to_contain_text("Round 1")
    name = f"table-{size['width']}.png"
    me.screenshot(path=str(ARTIFACTS / name), full_page=True)
    assert width(me) <= size["width"], "the table page"
    # every link of the menu is whole on the screen, none cut or scrolled away
    assert me.locator(".bar nav a").evaluate_all(
        "links => links.every(a => a.getBoundingClientRect().right <= window.innerWidth"
        " && a.getBoundingClientRect().right <= a.parentElement.getBoundingClientRect().right)")
    for path in ("/games", f"/games/{table.game_id}", "/new", "/cards", "/dice", "/network", "/panel",
                 "/join"):
        me.goto(server + path)
        me.wait_for_load_state("networkidle")
        assert width(me) <= size["width"], path
    assert errors == []
