"""What the table learnt, on the Dice page in a real browser: the line, and forgetting it."""

from __future__ import annotations

import json

import pytest
from panel_support import running
from test_browser import PHONE, browser, join  # noqa: F401 - the browser fixture
from test_memory_api import memory_file

from companion.dice_store import DiceStore, store_path
from companion.history import History
from companion.memory_file import import_memory
from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")


def test_the_dice_page_says_what_was_learnt_and_forgets_it(browser, tmp_path):  # noqa: F811
    memory = DiceStore(store_path(tmp_path / "t.db"))
    import_memory(memory, json.loads(
        memory_file([("d20", 1 + i % 20) for i in range(50)] + [("d12", 3)] * 2)))
    memory.add_shot("village", "Melee", b"\x89PNG shot")
    table = TableSession(History(tmp_path / "t.db"), memory=memory)
    with running(table, DICE_STORE=memory) as server:
        page = browser.new_context(**PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        join(page, server)
        page.goto(f"{server}/dice")
        learnt = page.locator("#learnt")
        sync_api.expect(learnt).to_have_text(
            "Knows 1 of your 3 dice well; the d12 and the village are still new.")
        sync_api.expect(page.locator("#learnt-kinds li[data-kind='d20']")).to_have_text(
            "d20: 50 dice of 20 values remembered ✓")
        sync_api.expect(page.locator("#learnt-kinds li[data-kind='d12']")).to_have_text(
            "d12: 2 dice of 1 value remembered")
        sync_api.expect(page.locator("#learnt-kinds li[data-kind='village']")).to_have_text(
            "village: 1 die of 1 value remembered, 1 taught")
        page.select_option("#die", "village")
        melee = page.locator("#faces li[data-face='Melee'] .shots")
        sync_api.expect(melee).to_have_text("1 of 5 shots, 4 to go")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#forget")
        sync_api.expect(learnt).to_have_text(
            "Knows 0 of your 1 dice well; the village is still new.")
        sync_api.expect(page.locator("#learnt-kinds li")).to_have_count(1)  # its taught shot
        sync_api.expect(melee).to_have_text("1 of 5 shots, 4 to go")  # a taught shot stays
        assert [(d.kind, d.how) for d in memory.dice()] == [("village", "taught")]
        assert not errors
