"""Monsters!' table page on a phone (issue 54): each monster's health, its stunned and wounded
dice, bank and tokens are on the page, and the Invasion and Wargame grids are drawn cell by
cell like Board Horde's board, each monster where it stands; a move's words number a die as the
tray's chips do. The harness is test_browser's."""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import test_browser as harness
from panel_support import PLAYERS
from phones import PHONES, SIZE_IDS, shot
from table_support import fitting_roll

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from monsters_helpers import MINUS_AT_4_AND_7, WOUNDER  # the rules tests' monsters

from companion.history import History
from companion.table import TableSession

pytestmark = pytest.mark.browser
sync_api = harness.sync_api
browser = harness.browser


def played(tmp_path, options: dict, until: Callable[[dict], bool]) -> TableSession:
    """A seeded game of Monsters! with `options`, rolled (each die one of its own faces) and
    played (one of the best three moves, none a surrender) until `until(state)` holds."""
    table = TableSession(History(tmp_path / "monsters.db"))
    table.new_game("monsters", PLAYERS, options)
    rng = random.Random(4)
    for _ in range(300):
        snap = table.snapshot()
        if until(snap["state"]):
            return table
        if snap["roll_wanted"]:
            table.type_roll(fitting_roll(snap, rng).text())
        else:
            fighting = [m for m in snap["moves"] if not m["move"].startswith("surrender")]
            table.choose_move(rng.choice(fighting[:3])["move"])
    raise AssertionError("never reached")


def hurt(state: dict) -> bool:
    return any(p["pools"]["stunned"] and p["pools"]["wounded"] for p in state["players"])


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
        "the page scrolls sideways"


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_each_monsters_health_hurt_dice_bank_and_tokens_show(browser, tmp_path, size):
    table = played(tmp_path, {"kinds": "flame+void, pain"}, hurt)
    state = table.snapshot()["state"]
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        for m in state["players"]:
            card = page.locator(f"#board .monster[data-seat='{m['seat']}']")
            expect(card).to_contain_text(f"Health{m['health']}/{m['max_health']}")
            for pool in ("stunned", "wounded", "bank"):
                expect(card).to_contain_text(f"{pool.title()}{m['pools'][pool]}")
            expect(card).to_contain_text(f"{m['kind']} tokens{m['tokens']['primary']}")
            for pool in ("stunned", "wounded"):
                faces = [d["showing"] for d in m["dice"] if d["pool"] == pool]
                if faces:
                    expect(card.locator(f"[data-pool='{pool}']")).to_contain_text(", ".join(faces))
        expect(page.locator("#board .monster[data-seat='0']")).to_contain_text("void tokens")
        fits(page)
        page.locator("#board").screenshot(path=shot("monsters-battle", size))


@pytest.mark.parametrize("scenario,rows", [("invasion", 3), ("wargame", 4)])
@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_the_scenarios_grid_is_drawn_cell_by_cell(browser, tmp_path, size, scenario, rows):
    table = played(tmp_path, {"scenario": scenario},
                   lambda s: scenario == "wargame" or any(c["seats"] for c in s["board"]["cells"]))
    board = table.snapshot()["state"]["board"]
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        cells = page.locator("#board .grid-board .cell")
        expect(cells).to_have_count(rows * 4)
        # Every cell measured in one look (the panel redraws the board as it polls, and a cell
        # measured one by one can be gone between two looks), until the grid settles.
        grid = ("cells => { const at = cells.map(c => c.getBoundingClientRect());"
                " return [new Set(at.map(r => Math.round(r.y))).size,"
                " new Set(at.map(r => Math.round(r.x))).size]; }")
        shape = harness.settled(page, lambda: cells.evaluate_all(grid),
                                lambda seen: seen == [rows, 4])
        assert shape == [rows, 4], f"drawn as a grid of {shape[1]} columns and {shape[0]} rows"
        for cell in board["cells"]:
            drawn = page.locator(f"#board .cell[data-cell='{cell['n']}']")
            expect(drawn.locator(".seat-mark")).to_have_count(len(cell["seats"]))
            if cell["card"]:
                expect(drawn).to_contain_text(cell["card"])
        fits(page)
        page.locator("#board").screenshot(path=shot(f"monsters-{scenario}", size))


def throw(table: TableSession, *faces: str) -> None:
    """Type the roll wanted: `faces` first, in the tray's order, the rest showing Block."""
    count = len(table.snapshot()["roll_wanted"]["dice"])
    shown = [*faces, *["block"] * (count - len(faces))]
    table.type_roll(" ".join(f"monsters={face}" for face in shown))


@pytest.mark.parametrize("size", PHONES, **SIZE_IDS)
def test_a_moves_die_numbers_are_the_trays_chips(browser, tmp_path, size):
    """Bob's Minus dice are his monster's 4th and 7th, thrown 1st and 2nd: the words of his
    defence name the chips that read Minus."""
    table = TableSession(History(tmp_path / "chips.db"))
    table.new_game("monsters", PLAYERS, {"monsters": f"{WOUNDER}\n---\n{MINUS_AT_4_AND_7}"})
    throw(table, "plus")  # initiative: Ann's one Plus against none
    throw(table)
    throw(table, "arm", "wound")
    table.choose_move("attack 2")
    throw(table, "minus", "minus")
    table.choose_move("hit 2")
    table.choose_move("defend 4+7")  # the command keeps the monster's own numbers
    expect = sync_api.expect
    with harness.joined(browser, table, viewport=size) as page:
        told = page.locator("#told")
        expect(told).to_contain_text("Bob defends with Minus (die ")
        chips = re.findall(r"Minus \(die (\d+)\)", told.inner_text())
        assert len(chips) == 2
        for n in chips:
            expect(page.locator(f".die-chip[data-index='{int(n) - 1}']")).to_contain_text("minus")
        page.screenshot(path=shot("monsters-chips", size))
