"""The panel's polish in a real browser (issue 40): the table's own 800x480 screen with the PIN
and both QR codes in view, a favicon, page titles with the game's name, player statistics that
fit a phone, and the roll wanted said once.

Uses the harness of test_browser.py: its server over a painted tray, its phones, its browser.
"""

from __future__ import annotations

import random

import pytest
from panel_support import PIN, PLAYERS, play
from test_browser import ARTIFACTS, drawn_code, join, phone, sync_api

from companion.network import Network, WifiSettings, save_settings, settings_path
from companion.rules.registry import get_game
from companion.web.qr import qr_matrix

pytest_plugins = ["panel_fixtures", "test_browser"]  # its browser and server fixtures
pytestmark = pytest.mark.browser
SCREEN = {"width": 800, "height": 480}  # the Pi's own display
AP = Network("Rollscribe-AB12", "abcd-efgh-jkmn")


def inside(box: dict, size: dict) -> bool:
    return (box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
            and box["y"] + box["height"] <= size["height"])


@pytest.mark.parametrize("own_wifi", [True, False], ids=["own-wifi", "joined-wifi"])
def test_the_tables_screen_fits_800x480_with_the_pin_and_its_qr_codes(server, browser, table,
                                                                      own_wifi):
    if own_wifi:
        save_settings(settings_path(table.history.path), WifiSettings(AP))
    table.new_game("board-horde", [*PLAYERS, "Cy"])  # three rows of scores
    screen = browser.new_context(viewport=SCREEN).new_page()
    screen.goto(f"{server}/panel")
    expect = sync_api.expect
    expect(screen.locator(".qr svg")).to_have_count(2 if own_wifi else 1)
    expect(screen.locator("#panel-scores tr")).to_have_count(3)
    wide, high = screen.evaluate("[document.documentElement.scrollWidth,"
                                 " document.documentElement.scrollHeight]")
    assert wide <= SCREEN["width"] and high <= SCREEN["height"], f"it scrolls: {wide}x{high}"
    shown = ("#pin", "#panel-whose", "#panel-scores", *((".wifi-name", ".wifi-password")
                                                       if own_wifi else ()))
    for what in shown:
        assert inside(screen.locator(what).bounding_box(), SCREEN), f"{what} is out of view"
    for code in screen.locator(".qr").all():
        box = code.bounding_box()
        assert inside(box, SCREEN) and box["width"] >= 180, f"a QR code too small or cut: {box}"
    ARTIFACTS.mkdir(exist_ok=True)
    screen.screenshot(path=str(ARTIFACTS / f"panel-800x480-{own_wifi=}.png"))
    link = screen.locator(".url").inner_text()
    assert link.startswith("http://") and link.endswith(f"/join#pin={PIN}")
    wanted = [qr_matrix(link)]
    if own_wifi:
        wanted.insert(0, qr_matrix(f"WIFI:T:WPA;S:{AP.ssid};P:{AP.password};;", "L"))
    assert [drawn_code(svg) for svg in screen.locator(".qr svg").all()] == wanted


def test_every_page_has_the_favicon_and_the_game_in_its_title(server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    table.new_game("monstrous-horde", PLAYERS)
    page = phone(browser, errors)
    join(page, server)
    title = get_game("monstrous-horde").title  # "Against the Monstrous Horde"
    expect(page).to_have_title(f"{title}: Rollscribe")
    icon = page.locator("link[rel=icon]").get_attribute("href")
    answer = page.request.get(f"{server}{icon}")
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    # the browser draws the icon itself (a screenshot of the page would decode whatever it is)
    assert page.evaluate("""h => new Promise(done => { const i = new Image();
        i.onload = () => done(i.naturalWidth > 0); i.onerror = () => done(false); i.src = h; })""",
                         icon), f"{icon} is not an image the browser draws"
    page.goto(f"{server}/games/{table.game_id}")
    expect(page).to_have_title(f"Game {table.game_id}: {title}")
    expect(page.locator("#history-title")).to_have_text(f"Game {table.game_id}: {title}")
    page.goto(f"{server}/games")
    expect(page.locator("#games strong")).to_have_text(f"#{table.game_id} {title}")
    assert errors == []


def test_the_roll_wanted_is_said_once(server, browser, table):
    expect = sync_api.expect
    table.new_game("monstrous-horde", PLAYERS)
    page = phone(browser, [])
    join(page, server)
    expect(page.locator("#wanted")).to_have_text("Roll: 4 × d20")
    expect(page.locator("#whose")).to_have_text("Enemy line-up")
    assert page.locator("body").inner_text().count("d20") == 1


def test_the_players_statistics_fit_a_phone(server, browser, table):
    """Six players who rolled all six kinds of the Horde's dice: one row each, no sideways
    scroll, every kind's luck in its row, d4 before d20."""
    players = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
    table.new_game("monstrous-horde", players, {"target": 20})
    play(table, random.Random(4), lambda s: s["game"]["over"], limit=4000)
    page = phone(browser, [], viewport={"width": 360, "height": 740})
    page.goto(f"{server}/games")
    sync_api.expect(page.locator("#stats tr")).to_have_count(len(players) + 1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    stats = page.locator("#stats")
    assert stats.evaluate("t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right"), stats.evaluate("t => [t.scrollWidth, t.getBoundingClientRect().right, t.parentElement.getBoundingClientRect().right]")
    lucks = page.locator("#stats tr").nth(1).locator(".luck").all_inner_texts()
    kinds = [text.split()[0] for text in lucks]
    assert len(kinds) >= 4 and kinds == sorted(kinds, key=lambda k: int(k[1:]))
    page.screenshot(path=str(ARTIFACTS / "games-360x740.png"), full_page=True)
