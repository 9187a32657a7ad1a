"""The Dice page in a real browser: a die made on the page, then taught from the tray through
the table's camera (replayed rendered frames at the camera boundary) with the shipped models."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from test_browser import (  # noqa: F401 - the browser fixture
    PHONE,
    browser,
    join,
    running,
    wait_for_image,
)

from companion.dice_store import DiceStore
from companion.history import History
from companion.table import TableSession
from vision.table_camera import TableCamera
from vision.train.render import DieStyle, render_tray

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
SIZE = (1280, 960)
SYMBOLS = ("circle", "cross", "triangle", "star")
STYLE = DieStyle(font=0, thickness=3, glyph_scale=1.0, pips=False, edge_read=False,
                 six_nine_mark="underline", symbols=True, symbol_faces=SYMBOLS,
                 plastic=((40.0, 40.0, 200.0), (245.0, 245.0, 245.0)))


def _tray_frames(folder: Path) -> str:
    """The camera's frames, in order: the die alone, two dice, an empty tray. Returns the face
    the die shows alone."""
    alone, [(_, value, _)] = render_tray(1, 13, SIZE, ["d6"], [STYLE])
    two, dice = render_tray(2, 12, SIZE, ["d6", "d6"], [STYLE, STYLE])
    empty, _ = render_tray(0, 11, SIZE)
    assert len(dice) == 2
    for i, frame in enumerate((alone, two, empty)):
        cv2.imwrite(str(folder / f"{i}.png"), frame)
    return SYMBOLS[(value - 1) % len(SYMBOLS)]


def test_a_die_made_on_the_page_is_taught_from_the_tray(browser, tmp_path):  # noqa: F811
    from vision.classify import DEFAULT_MODEL

    if not DEFAULT_MODEL.exists():
        pytest.skip("no shipped model yet")
    frames = tmp_path / "frames"
    frames.mkdir()
    face = _tray_frames(frames)
    store = DiceStore(tmp_path / "t.dice.sqlite")
    camera = TableCamera(f"replay:{frames}", store=store)
    table = TableSession(History(tmp_path / "t.db"), camera.read)
    with running(table, DICE_STORE=store, TEACHER=camera.teacher) as server:
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        join(page, server)
        page.goto(f"{server}/games")
        page.click("#dice-link")
        # the page fills the form with the first die once its list has come: type after that
        sync_api.expect(page.locator("#def-name")).not_to_have_value("")
        page.fill("#def-name", "sigils")
        page.fill("#def-title", "Sigil die")
        page.fill("#def-faces", "\n".join(f"{s}, 1" for s in SYMBOLS[:3]) + f"\n{SYMBOLS[3]}, 3")
        page.click("#define button[type=submit]")
        sync_api.expect(page.locator("#die")).to_have_value("sigils")
        sync_api.expect(page.locator("#faces li")).to_have_count(4)
        assert store.definition("sigils").faces[3].count == 3
        # the die alone: its crop is shown and the player taps its face
        page.click("#read")
        sync_api.expect(page.locator("#verdict")).to_contain_text("Which face is up?",
                                                                  timeout=30_000)
        wait_for_image(page, "#crop")
        sync_api.expect(page.locator("#face-buttons button")).to_have_count(4)
        page.click(f"#face-buttons button[data-face='{face}']")
        sync_api.expect(page.locator("#verdict")).to_have_text(
            f"Kept as {face}. Roll again and read the tray.")
        sync_api.expect(page.locator(f"#faces li[data-face='{face}'] .shots")).to_have_text(
            "1 of 5 shots, 4 to go")
        assert store.shot_counts("sigils")[face] == 1
        # the shot is in the table's one memory, listed with what it learnt from play
        sync_api.expect(page.locator("#learnt-kinds li[data-kind='sigils']")).to_have_text(
            "sigils: 1 die of 1 value remembered, 1 taught")
        # two dice, then an empty tray: asked again, nothing kept
        page.click("#read")
        sync_api.expect(page.locator("#verdict")).to_have_text(
            "Not kept: 2 dice in the tray: leave only the die being taught.", timeout=30_000)
        sync_api.expect(page.locator("#face-buttons button")).to_have_count(0)
        page.click("#read")
        sync_api.expect(page.locator("#verdict")).to_contain_text("no die", timeout=30_000)
        assert sum(store.shot_counts("sigils").values()) == 1
        # the game's camera reads the taught die at once, from the same store
        reading = camera.read(None)
        assert [(d.die, d.value) for d in reading.dice] == [("sigils", face)]
        assert not errors
