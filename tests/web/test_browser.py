"""The panel in a real browser (Debian chromium through Playwright), at phone size.

One table server runs in a thread on a free loopback port; two phone contexts join it: one
unlocked with the PIN through the QR link, one only watching.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from panel_support import GAME, PIN, PLAYERS, play, running

from companion.commands.serve import camera_dice_source, samples_dir
from companion.history import History
from companion.reading import DieReading, TrayReading
from companion.rules.dice import STANDARD
from companion.rules.registry import get_game
from companion.table import TableSession
from companion.web.plain_words import for_players
from companion.web.qr import qr_matrix

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
         "has_touch": True}
# How long a wait on a condition (a change on the other phone, a reading taken) may take before
# the test fails: a ceiling for a loaded machine, not a speed (bench/panel_bench.py measures how
# fast a change reaches the phones). Every expect() waits this long (set in `browser`).
WAIT_MS = 20_000
WAIT_S = WAIT_MS / 1000
LINE_UP = "d20=5 d20=12 d20=3 d20=9"


class PaintedTray:
    """A dice source that paints the roll wanted on a tray image (seeded values)."""

    def __init__(self, seed: int = 3) -> None:
        self.rng = random.Random(seed)

    def __call__(self, kinds: list[str] | None) -> TrayReading:
        frame = np.full((300, 400, 3), (40, 90, 50), np.uint8)
        dice = []
        for i, kind in enumerate(kinds or []):
            x, y = 30 + (i % 4) * 90, 60 + (i // 4) * 110
            value = self.rng.choice(STANDARD[kind].faces[1:] or STANDARD[kind].faces)
            cv2.rectangle(frame, (x, y), (x + 60, y + 60), (230, 230, 230), -1)
            cv2.putText(frame, str(value), (x + 12, y + 42), cv2.FONT_HERSHEY_SIMPLEX, 1,
                        (20, 20, 20), 2)
            dice.append(DieReading(kind, value, 0.96, (x, y, x + 60, y + 60)))
        jpeg = cv2.imencode(".jpg", frame)[1].tobytes()
        return TrayReading(tuple(dice), jpeg, 400, 300)


@pytest.fixture
def server(table):
    table.dice_source = PaintedTray()
    with running(table) as url:
        yield url


def wait_for_image(page, selector: str) -> None:
    """Wait up to 20 s for the image at `selector` to load with pixels (a visible <img> may
    still be loading on a busy machine); a timeout fails the test."""
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0; }",
        arg=selector, timeout=WAIT_MS)


def settled(page, look: Callable[[], Any], good: Callable[[Any], bool], tries: int = 25) -> Any:
    """What `look()` sees once `good` holds of it, looked at again every 200 ms for up to 5 s
    (the panel redraws as it polls: a look in the middle of a redraw on a loaded machine saw
    another layout); the last look if it never does, for the test to fail on."""
    seen = look()
    for _ in range(tries):
        if good(seen):
            break
        page.wait_for_timeout(200)
        seen = look()
    return seen


def phone(browser, errors: list[str], **options) -> sync_api.Page:
    """A phone-sized page whose script errors are collected (a test ends with none)."""
    page = browser.new_context(**{**PHONE, **options}).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def drawn_code(svg) -> list[list[bool]]:
    """The modules a QR code's <svg> shows on screen, sampled at their centres from a screenshot.

    Tests compare them with qr_matrix(text): an exact check of what the screen draws that does
    not hang on OpenCV's detector, which misses a few valid codes (about 1 in 80 join links,
    whose port is drawn at random here). test_qr.py decodes the encoder's output with OpenCV."""
    quiet = 4  # qr_svg's default margin, in modules
    modules = int(svg.get_attribute("viewBox").split()[2])
    shot = cv2.imdecode(np.frombuffer(svg.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    step = shot.shape[1] / modules
    centres = [int((i + 0.5) * step) for i in range(quiet, modules - quiet)]
    return [[bool(shot[y, x] < 128) for x in centres] for y in centres]


def join(page, server: str) -> None:
    """What scanning the QR code does: its link, then on to the table once the PIN is taken."""
    page.goto(f"{server}/join#pin={PIN}")
    page.wait_for_url(f"{server}/")


@contextlib.contextmanager
def joined(browser, table: TableSession, **options) -> Iterator[sync_api.Page]:
    """A phone's page (`options` for it) joined to the panel over `table`, served for as long
    as the block runs; a block that passes ends with no script error on the page."""
    errors: list[str] = []
    with running(table) as server:
        page = phone(browser, errors, **options)
        join(page, server)
        yield page
    assert errors == []


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make chromium)")
    sync_api.expect.set_options(timeout=WAIT_MS)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield browser
        browser.close()


def test_two_phones_play_a_turn_live(server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    me = phone(browser, errors)
    join(me, server)
    me.goto(f"{server}/new")
    expect(me.locator("#game option")).not_to_have_count(0)
    me.select_option("#game", GAME)
    names = me.locator("input[name=player]")
    for i, name in enumerate(PLAYERS):
        names.nth(i).fill(name)
    me.click("text=Start the game")
    me.wait_for_url(f"{server}/")  # the page moves on once the game is created
    expect(me.locator("#whose")).to_have_text(table.snapshot()["current"]["text"])
    assert table.snapshot()["game"]["players"] == PLAYERS

    other = phone(browser, errors)  # a phone without the PIN
    other.goto(server)
    expect(other.locator("#whose")).to_have_text(me.locator("#whose").inner_text())
    expect(other.locator("#read")).to_be_hidden()
    expect(other.locator("#lock")).to_be_visible()
    refused = other.evaluate("fetch('/api/undo', {method: 'POST'}).then(r => r.status)")
    assert refused == 403

    # Roll through the camera: the tray image with every die boxed and labelled.
    me.click("#read")
    expect(me.locator(".tray-image img")).to_be_visible()
    wanted = len(table.snapshot()["reading"]["dice"])
    expect(me.locator(".die")).to_have_count(wanted)
    expect(other.locator(".die")).to_have_count(wanted)

    # Correct a misread die: tap it, pick another face; the other phone sees it live.
    first = table.snapshot()["reading"]["dice"][0]
    faces = STANDARD[first["die"]].faces
    new_face = next(f for f in faces[len(faces) // 2:] if f != first["value"])
    me.locator(".die").first.click()
    me.locator("#faces button", has_text=str(new_face)).first.click()
    label = f"1: {first['die']} {new_face} ✎"
    expect(me.locator(".die-chip").first).to_have_text(label)
    expect(other.locator(".die-chip").first).to_have_text(label)
    assert table.snapshot()["reading"]["dice"][0]["value"] == new_face

    # Keep rolling through the camera until the game offers moves.
    reads = 1
    while not table.snapshot()["moves"]:
        assert reads < 8, "the game never offered a move"
        version = table.version
        me.click("#read")
        reads += 1
        assert table.wait_for_change(version, WAIT_S) != version
    expect(me.locator(".move").first).to_be_visible()

    # Choose the best move: scores and the other phone follow.
    moves_before = table.snapshot()["moves"]
    best = moves_before[0]["move"]
    me.locator(".move").first.click()
    expect(me.locator(".move-text", has_text=best)).to_have_count(0)
    scores = [str(s) for s in table.snapshot()["scores"]]
    expect(me.locator("#scores .score")).to_have_text(scores)
    expect(other.locator("#scores .score")).to_have_text(scores)
    expect(other.locator("#whose")).to_have_text(table.snapshot()["current"]["text"])

    # The history shows the game: a row per roll (its thumbnail, the correction folded in), the move.
    history = phone(browser, errors)
    history.goto(f"{server}/games/{table.game_id}")
    expect(history.locator(".event")).to_have_count(reads + 1)
    expect(history.locator(".event.roll img.thumb")).to_have_count(reads)
    expect(history.locator(".event.roll.amended .folded .amend")).to_have_count(1)
    expect(history.locator(".event.move").last).to_contain_text(best)
    expect(history.locator(".score-chart path")).to_have_count(len(PLAYERS))

    # Undo: the move comes back on both phones, and the history strikes it through live.
    me.click("#undo")
    expect(me.locator(".move-text").first).to_have_text(best)
    expect(other.locator(".move-text").first).to_have_text(best)
    expect(history.locator(".event.move.undone").last).to_contain_text(best)
    expect(history.locator(".event.undo")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    history.screenshot(path=str(ARTIFACTS / "history-phone.png"), full_page=True)

    # Past games and the players' statistics.
    history.goto(f"{server}/games")
    expect(history.locator("#games li")).to_have_count(1)
    expect(history.locator("#stats tr")).to_have_count(len(PLAYERS) + 1)

    me.screenshot(path=str(ARTIFACTS / "panel-phone.png"))
    me.screenshot(path=str(ARTIFACTS / "panel-phone-full.png"), full_page=True)
    assert errors == []


def test_a_phone_without_the_pin_can_unlock_with_it(server, browser, table):
    table.new_game(GAME, PLAYERS)
    page = browser.new_context(**PHONE).new_page()
    page.goto(server)
    sync_api.expect(page.locator("#read")).to_be_hidden()
    page.click("#lock")
    page.fill("#pin-input", "0000")
    page.click("text=Unlock")
    sync_api.expect(page.locator("#toast")).to_contain_text("wrong PIN")
    page.fill("#pin-input", PIN)
    page.click("text=Unlock")
    sync_api.expect(page.locator("#read")).to_be_visible()
    page.fill("#typed-roll", "d20=21 d20=3 d20=4 d20=5")
    page.click("text=Enter roll")
    sync_api.expect(page.locator("#toast")).to_contain_text("no face 21")
    assert table.history.events(table.game_id) == []


def test_a_phone_reconnects_by_itself_after_the_stream_drops(server, browser, table):
    table.new_game(GAME, PLAYERS)
    page = browser.new_context(**PHONE).new_page()
    drops = []
    page.on("requestfinished", lambda r: drops.append(r.url) if r.url.endswith("/events") else None)
    page.goto(server)
    sync_api.expect(page.locator("#whose")).to_have_text(table.snapshot()["current"]["text"])
    if not drops:  # the server ends each stream after SSE_MAX_SECONDS (2 s here)
        page.wait_for_event("requestfinished", lambda r: r.url.endswith("/events"))
    table.type_roll(LINE_UP)
    sync_api.expect(page.locator("#whose")).to_have_text(table.snapshot()["current"]["text"])
    assert drops, "the first stream should have been dropped by the server"
    sync_api.expect(page.locator("#live")).to_have_class("live on")


def test_the_tables_screen_shows_a_qr_code_that_unlocks_a_phone(server, browser, table):
    from urllib.parse import urlsplit

    table.new_game(GAME, PLAYERS)
    screen = browser.new_context(viewport={"width": 800, "height": 480}).new_page()
    screen.goto(f"{server}/panel")
    sync_api.expect(screen.locator("#pin")).to_have_text(PIN)
    sync_api.expect(screen.locator("#panel-whose")).to_have_text(table.snapshot()["current"]["text"])
    table.type_roll(LINE_UP)  # the screen follows the game live
    sync_api.expect(screen.locator("#panel-whose")).to_have_text(table.snapshot()["current"]["text"])
    shown = screen.locator(".url").inner_text()
    assert drawn_code(screen.locator(".qr svg")) == qr_matrix(shown)
    link = urlsplit(shown)
    assert link.path == "/join" and link.fragment == f"pin={PIN}" and not link.query
    phone = browser.new_context(**PHONE).new_page()
    requested: list[str] = []
    phone.on("request", lambda request: requested.append(request.url))
    phone.goto(f"{server}{link.path}#{link.fragment}")  # the phone's camera opened the link
    sync_api.expect(phone.locator("#read")).to_be_visible()
    assert phone.url == f"{server}/" and not any(PIN in url for url in requested)


def test_a_reading_of_the_replayed_tray_by_the_real_reader(browser, tmp_path):
    from vision.classify import DEFAULT_MODEL

    if not DEFAULT_MODEL.exists():
        pytest.skip("no shipped model yet")
    table = TableSession(History(tmp_path / "camera.db"),
                         camera_dice_source(f"replay:{samples_dir()}"))
    table.new_game(GAME, PLAYERS)
    with running(table) as server:
        page = browser.new_context(**PHONE).new_page()
        join(page, server)
        page.click("#read")
        sync_api.expect(page.locator(".tray-image img")).to_be_visible(timeout=WAIT_MS)
        shown = table.snapshot()["reading"]
        sync_api.expect(page.locator(".die")).to_have_count(len(shown["dice"]))
        wait_for_image(page, ".tray-image img")
        if shown["pending"]:  # what the tray shows is not the line-up wanted: fix it by hand
            said = for_players(table.snapshot())["reading"]["problem"]  # in a player's words
            sync_api.expect(page.locator("#problem > span").first).to_have_text(said)
            page.click("#discard")
            sync_api.expect(page.locator(".tray-image")).to_have_count(0)
            page.fill("#typed-roll", LINE_UP)
            page.click("text=Enter roll")
        sync_api.expect(page.locator("#whose")).not_to_contain_text("enemy line-up")
        assert table.snapshot()["roll_wanted"]["reason"] != "enemy line-up"


def test_an_unsure_die_is_flagged_then_corrected_and_confirmed(server, browser, table):
    from dataclasses import replace

    table.new_game(GAME, PLAYERS)
    painted = PaintedTray()(["d20"] * 4)
    dice = list(painted.dice)
    dice[1] = replace(dice[1], confidence=0.35, unsure=True, why_unsure="low confidence")
    table.submit_reading(replace(painted, dice=tuple(dice)))
    page = browser.new_context(**PHONE).new_page()
    join(page, server)
    expect = sync_api.expect
    expect(page.locator("#problem")).to_contain_text("Check the dice marked ?")
    expect(page.locator(".die.unsure")).to_have_count(1)
    expect(page.locator(".die-chip.unsure")).to_contain_text("the camera is not sure of this one")
    page.locator("#problem button.why").click()  # the reader's own words, on asking
    expect(page.locator("#problem .why-details")).to_contain_text("die 2 (d20) low confidence")
    expect(page.locator("#problem .why-details")).to_contain_text("at 35% confidence")
    page.locator(".die.unsure").click()
    page.locator("#faces button", has_text="7").first.click()
    expect(page.locator(".die.corrected")).to_have_count(1)
    expect(page.locator(".die-chip.corrected")).to_have_text("2: d20 7 ✎")
    page.click("#confirm-reading")
    expect(page.locator("#pending-actions")).to_be_hidden()
    expect(page.locator(".die-chip.confirmed")).to_have_count(3)  # checked, no "?NN%" left
    expect(page.locator(".die-chip", has_text="?")).to_have_count(0)
    enemies = sorted(e["d20"] for e in table.snapshot()["state"]["enemies"])
    assert 7 in enemies and table.snapshot()["reading"]["pending"] is False


def test_a_race_game_draws_its_board_and_a_hero_moves_on_it(server, browser, table):
    """Board Horde from the phone: set up with typed monster squares, rolls through the camera,
    and the move chosen shows its hero on the square the roll took it to."""
    expect = sync_api.expect
    errors: list[str] = []
    me = phone(browser, errors)
    join(me, server)
    me.goto(f"{server}/new")
    expect(me.locator("#game option")).not_to_have_count(0)
    me.select_option("#game", "board-horde")
    expect(me.locator("#readings li", has_text="Board B")).to_have_count(1)
    me.fill("#opt-monsters", "10 20")
    me.click("text=Start the game")
    me.wait_for_url(f"{server}/")
    expect(me.locator(".track .cell")).to_have_count(40)
    expect(me.locator("[data-square='20'] .mark")).to_have_attribute("title", "m2: monster")
    expect(me.locator(".chips-row .mark.hero")).to_have_count(6)  # every hero in the portal
    readings = get_game("board-horde").assumptions()
    expect(me.locator("#readings li")).to_have_count(len(readings))
    reads = 0
    while not table.snapshot()["moves"]:  # who goes first, then the first go's roll
        assert reads < 10, "the game never offered a move"
        version = table.version
        me.click("#read")
        reads += 1
        assert table.wait_for_change(version, WAIT_S) != version
    roll = table.snapshot()["reading"]["dice"][0]["value"]
    best = table.snapshot()["moves"][0]["move"]  # 'enter ROLE' onto the square rolled
    seat = table.snapshot()["current"]["seat"]
    me.locator(".move").first.click()
    hero = f"{('blue', 'red')[seat]}-{best.split()[1]}"
    expect(me.locator(f"[data-square='{roll}'] .mark.hero")).to_have_attribute("title", hero)
    expect(me.locator(".chips-row .mark.hero")).to_have_count(5)
    me.screenshot(path=str(ARTIFACTS / "board-horde-phone.png"), full_page=True)
    assert errors == []



def test_a_phone_chooses_the_network_the_table_joins_and_a_finished_game_goes_to_bgstats(
        server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    me = phone(browser, errors)
    me.goto(f"{server}/network")
    expect(me.locator("#join-form")).to_be_hidden()  # watching only, without the PIN
    join(me, server)
    me.goto(f"{server}/games")
    me.click("#network-link")
    me.fill("#join-ssid", "Club Wi-Fi")
    me.fill("#join-password", "12345678")
    me.click("text=Join it when in range")
    expect(me.locator("#known .ssid")).to_have_text(["Club Wi-Fi"])
    me.locator("#known .forget").click()
    expect(me.locator("#known .ssid")).to_have_count(0)
    assert table.history.path.with_name("wifi.json").exists()

    table.new_game(GAME, PLAYERS, {"target": 20})
    play(table, random.Random(4), lambda s: s["game"]["over"], limit=3000)
    me.goto(f"{server}/")
    link = me.locator("a.bgstats")
    expect(link).to_have_attribute("href", f"/games/{table.game_id}/bgstats")
    assert errors == []


def test_lists_that_cannot_be_read_say_why_instead_of_looking_empty(browser, tmp_path):
    from companion.history import HistoryError

    table = TableSession(History(tmp_path / "unreadable.db"))
    table.new_game(GAME, PLAYERS)

    def fails(*args, **kwargs):
        raise HistoryError("could not read the history: database disk image is malformed")

    table.history.games = fails
    table.history.player_stats = fails
    table.history.events = fails
    with running(table) as server:
        errors: list[str] = []
        page = phone(browser, errors)
        page.goto(f"{server}/games")
        sync_api.expect(page.locator("#games")).to_contain_text("disk image is malformed")
        sync_api.expect(page.locator("#stats")).to_contain_text("disk image is malformed")
        page.goto(f"{server}/games/{table.game_id}")
        sync_api.expect(page.locator("#timeline")).to_contain_text("disk image is malformed")
        assert not errors


def test_every_tap_carries_the_version_shown_and_a_stale_one_shows_the_table_again(
        server, browser, table):
    expect = sync_api.expect
    errors: list[str] = []
    table.new_game(GAME, PLAYERS)
    me = phone(browser, errors)
    sent: list[dict] = []
    me.on("request", lambda r: sent.append(json.loads(r.post_data or "{}"))
          if r.method == "POST" and "/api/" in r.url and "/api/pin" not in r.url else None)
    join(me, server)
    expect(me.locator("#whose")).to_have_text(table.snapshot()["current"]["text"])
    me.click("#read")
    expect(me.locator(".tray-image img")).to_be_visible()
    assert sent and all(body.get("version") is not None for body in sent)
    # A tap on what the phone showed before the table moved on (as a second tap would be). The
    # request's version is made stale on its way out: a late live update re-rendering the page
    # would undo a change to RS.shown and let the tap through.
    before = len(table.history.events(table.game_id))

    def stale(route) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "version": body["version"] - 1}))

    me.route("**/api/undo", stale)
    me.click("#undo")
    expect(me.locator("#toast")).to_contain_text("changed since your phone showed it")
    expect(me.locator(".tray-image img")).to_be_visible()  # nothing undone, the table shown
    assert len(table.history.events(table.game_id)) == before and not errors


def test_fantahzee_cards_entered_on_the_phone_then_a_game_up_to_the_roll(server, browser, table):
    """Fantahzee from the phone: a hero added on the Cards page, a game started with it, the
    cards of the setup entered by tapping them, the roll read, and the board view with the
    horde stacks, the party and the dice."""
    expect = sync_api.expect
    errors: list[str] = []
    me = phone(browser, errors)
    join(me, server)
    me.goto(f"{server}/cards")
    expect(me.locator("#source")).to_have_text("(placeholder deck and the book's cards)")
    me.select_option("#kind", "heroes")
    me.fill("[data-field=name]", "Ice Giant")
    me.fill("[data-field=strength]", "6")
    me.fill("[data-field=cost]", "6 6 6")
    me.fill("[data-field=effects]", "banish<=6")
    me.click("#save")
    expect(me.locator("#source")).to_have_text("(entered at this table)")
    expect(me.locator(".record[data-id=ice_giant]")).to_have_count(1)
    assert "ice_giant" in (table.history.table_data("fantahzee") or "")
    me.goto(f"{server}/new")
    expect(me.locator("#game option")).not_to_have_count(0)
    me.select_option("#game", "fantahzee")
    expect(me.locator("#opt-cards")).to_have_count(0)  # filled from the Cards page
    me.click("text=Start the game")
    me.wait_for_url(f"{server}/")
    expect(me.locator(".chips-row small", has_text="Horde")).to_have_count(1)
    for _ in range(60):  # the first-player roll, the stacks' tops, both hands, the recruits
        snap = table.snapshot()
        if snap["state"]["phase"] == "dice":
            break
        version = table.version
        if snap["roll_wanted"]:
            me.click("#read")
        else:
            if snap["state"]["asking"]:
                expect(me.locator("#wanted")).to_have_text(snap["state"]["asking"])
            if snap["state"]["phase"] == "card":  # the likeliest card, one tap
                expect(me.locator("#likely-card")).to_have_attribute("data-move", snap["moves"][0]["move"])
                me.click("#likely-card")
            else:
                expect(me.locator(".move-text").first).to_have_text(snap["moves"][0]["move"])
                me.locator(".move").first.click()
        assert table.wait_for_change(version, WAIT_S) != version, (
            [e.text for e in table.history.events(table.game_id)][-5:], snap["moves"][:2])
    assert table.snapshot()["state"]["phase"] == "dice"
    expect(me.locator(".chips-row small", has_text="Dice")).to_have_count(1)
    expect(me.locator(".chips-row .die-face")).to_have_count(5)
    assert "ice_giant" in table.snapshot()["game"]["options"]["cards"]
    me.screenshot(path=str(ARTIFACTS / "fantahzee-phone.png"), full_page=True)
    assert errors == []
