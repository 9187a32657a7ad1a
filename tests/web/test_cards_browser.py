"""The Cards page in a real browser (Debian chromium through Playwright) for a game whose records
are not Fantahzee's: Village Attacks' Traps, Monster dashboards (each ability its own fields, no
JSON) and dice faces added, changed and removed through the form the game states, checked in
what the table stores; bad values refused with the record and the field named and nothing
stored changed; both games' pages 360 px wide, every record's change and remove buttons in
reach without sideways scroll."""

from __future__ import annotations

import json

import pytest
import test_browser as harness
from test_browser import join, phone

browser, server = harness.browser, harness.server  # the browser harness's fixtures, reused

pytest_plugins = ["panel_fixtures"]  # the table, app and client fixtures

pytestmark = pytest.mark.browser
sync_api = pytest.importorskip("playwright.sync_api")
GAME = "village-attacks"
HOWL = {"name": "Howl", "cost": "Magic Magic", "text": "Villagers in the zone flee"}


def stored(table) -> dict:
    return json.loads(table.history.table_data(GAME) or "null")


def save(page, fields: dict[str, str | bool]) -> None:
    """Fill the form's fields (a bool ticks or clears a box) and press Save."""
    for name, value in fields.items():
        box = page.locator(f"[data-field={name}]")
        if isinstance(value, bool):
            box.set_checked(value)
        else:
            box.fill(value)
    page.click("#save")


def fill_ability(page, fields: dict[str, str]) -> None:
    """Fill the form's first ability: its own fields, as a player types them."""
    ability = page.locator("[data-field=abilities] .nested-item").first
    for name, value in fields.items():
        ability.locator(f"[data-sub={name}]").fill(value)


def test_village_attacks_records_added_changed_and_removed_through_the_form(server, browser,
                                                                              table):
    expect = sync_api.expect
    errors: list[str] = []
    me = phone(browser, errors)
    join(me, server)
    me.goto(f"{server}/cards")
    expect(me.locator("#game option")).not_to_have_count(0)
    me.select_option("#game", GAME)
    expect(me.locator("#source")).to_have_text("(the template)")
    expect(me.locator("#forget")).to_have_text("Back to the template")  # not "the the"
    expect(me.locator("#kind option")).to_have_text(
        ["monsters", "traps", "events", "heroes", "scenarios", "dice"])
    expect(me.locator("#import-csv")).to_be_hidden()
    expect(me.locator("#import-hint")).to_contain_text('"dice": {...}')
    template = table.table_data(GAME)["data"]

    # A Trap: words, a number and a box, stored as the rules package reads them.
    me.select_option("#kind", "traps")
    expect(me.locator("#fields [data-field]")).to_have_count(8)
    save(me, {"name": "Bear Trap", "cost": "Melee Magic", "rooms": "corridor small",
              "damage": "2", "push": True})
    expect(me.locator("#source")).to_have_text("(entered at this table)")
    traps = stored(table)["traps"]
    assert [t["id"] for t in traps] == [t["id"] for t in template["traps"]] + ["bear_trap"]
    bear = traps[-1]
    assert (bear["cost"], bear["rooms"], bear["damage"], bear["push"], bear["source"]) == (
        ["Melee", "Magic"], ["corridor", "small"], 2, True, "table")
    assert stored(table)["monsters"] == template["monsters"]  # the rest kept as it was

    # A Monster dashboard with an ability entered in its own fields.
    me.select_option("#kind", "monsters")
    expect(me.locator("#fields textarea")).to_have_count(0)  # no JSON to type
    fill_ability(me, HOWL)
    save(me, {"name": "Werewolf", "type": "cursed", "health": "7", "experience": "5",
              "defence": "2", "reserve": "3", "movement": "2"})
    expect(me.get_by_label("change werewolf")).to_have_count(1)
    expect(me.locator(".record[data-id=werewolf] dd", has_text="Howl")).to_have_count(1)
    wolf = stored(table)["monsters"][-1]
    assert (wolf["id"], wolf["type"], wolf["health"], wolf["movement"]) == (
        "werewolf", "cursed", 7, 2)
    assert wolf["abilities"] == [{"id": "howl", "name": "Howl", "cost": ["Magic", "Magic"],
                                  "advanced_cost": ["Magic", "Magic"],
                                  "text": "Villagers in the zone flee"}]

    # Changed: the form is filled from the record; it keeps its place among the Traps.
    me.locator("details[data-kind=traps] summary").click()
    me.get_by_label("change spike_pit").click()
    expect(me.locator("#form-title")).to_have_text("Change spike_pit")
    expect(me.locator("[data-field=cost]")).to_have_value("Melee Defence")
    expect(me.locator("[data-field=copies]")).to_have_value("2")
    save(me, {"damage": "4", "rooms": "corridor large"})
    expect(me.locator("#form-title")).to_have_text("Add a record")
    traps = stored(table)["traps"]
    assert [t["id"] for t in traps] == [t["id"] for t in template["traps"]] + ["bear_trap"]
    pit = next(t for t in traps if t["id"] == "spike_pit")
    assert (pit["damage"], pit["rooms"], pit["copies"], pit["source"]) == (
        4, ["corridor", "large"], 2, "table")

    # The Night die's faces: a map of die name to a JSON list of faces.
    me.locator("details[data-kind=dice] summary").click()
    me.get_by_label("change village-night").click()
    night = ["Melee", "Melee", "Magic", "Magic", "blank", "Villager"]
    save(me, {"faces": json.dumps(night)})
    expect(me.locator("#form-title")).to_have_text("Add a record")
    assert stored(table)["dice"] == {**template["dice"], "village-night": night}

    # Bad values: refused with the record and the field named; nothing stored changes.
    before = table.history.table_data(GAME)
    me.get_by_label("change werewolf").click()
    save(me, {"health": "lots"})
    expect(me.locator("#form-error")).to_have_text("'werewolf': health is a whole number, "
                                                   "not 'lots'")
    expect(me.locator("#toast")).to_contain_text("'werewolf': health")
    expect(me.locator("[data-field=abilities] [data-sub=name]").first).to_have_value("Howl")
    fill_ability(me, {"cost": "Sword"})
    save(me, {"health": "7"})
    expect(me.locator("#form-error")).to_contain_text("'howl': cost 'Sword' is not a usable face")
    assert table.history.table_data(GAME) == before
    expect(me.locator("[data-field=name]")).to_have_value("Werewolf")  # the typing kept

    # Removed.
    me.get_by_label("remove bear_trap").click()
    expect(me.get_by_label("remove bear_trap")).to_have_count(0)
    assert "bear_trap" not in {t["id"] for t in stored(table)["traps"]}
    assert stored(table)["monsters"][-1]["id"] == "werewolf"
    assert errors == []


@pytest.mark.parametrize("size", [(360, 740), (390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["fantahzee", GAME])
def test_the_cards_page_fits_a_phone(server, browser, game, size):
    expect = sync_api.expect
    errors: list[str] = []
    width, height = size
    me = phone(browser, errors, viewport={"width": width, "height": height})
    join(me, server)
    me.goto(f"{server}/cards")
    sync_api.expect(me.locator("#game option")).not_to_have_count(0)
    me.select_option("#game", game)
    sync_api.expect(me.locator("#kinds details")).not_to_have_count(0)
    me.evaluate("document.querySelectorAll('#kinds details').forEach((d) => { d.open = true; })")
    me.locator("#fields [data-field]").first.wait_for()
    assert me.evaluate("document.documentElement.scrollWidth") <= width
    buttons = me.locator("#kinds .record-actions button")
    assert buttons.count() > 0
    for box in buttons.evaluate_all("bs => bs.map(b => b.getBoundingClientRect().toJSON())"):
        assert box["right"] <= width and box["width"] > 0, box  # in reach, no sideways scroll
    if game == GAME:  # a dashboard's abilities: fields of their own, fitting too
        me.select_option("#kind", "monsters")
        expect(me.locator("[data-field=abilities] [data-sub=cost]")).to_have_count(1)
        assert me.evaluate("document.documentElement.scrollWidth") <= width
    me.screenshot(path=f"/tmp/ui-shots2/cards-{game}-{width}x{height}.png", full_page=True)
    assert errors == []


def test_what_is_typed_before_the_records_come_is_kept_and_saved_after_them(server, browser,
                                                                           table):
    """A slow answer for the chosen game's records: the form is there at once and keeps what is
    typed, Save waits for the records, then saves into this game."""
    expect = sync_api.expect
    me = phone(browser, [])
    join(me, server)
    me.goto(f"{server}/cards")
    expect(me.locator("#game option")).not_to_have_count(0)
    held = []
    me.route(f"**/api/table-data/{GAME}",
             lambda route: held.append(route) if route.request.method == "GET"
             else route.continue_())
    me.select_option("#game", GAME)
    me.select_option("#kind", "traps")
    expect(me.locator("#fields [data-field]")).to_have_count(8)
    for name, value in {"name": "Slow Trap", "cost": "Melee Magic", "rooms": "corridor",
                        "damage": "1"}.items():
        me.locator(f"[data-field={name}]").fill(value)
    expect(me.locator("#save")).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(me.locator("#save")).to_be_enabled()
    me.unroute(f"**/api/table-data/{GAME}")
    me.click("#save")
    expect(me.locator("#form-error")).to_have_text("")
    expect(me.locator("#source")).to_have_text("(entered at this table)")
    assert [t["name"] for t in stored(table)["traps"] if t["name"] == "Slow Trap"] == ["Slow Trap"]
