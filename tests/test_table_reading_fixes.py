"""A reading that is not the roll wanted is put right on the phone (issue 40): a box of no die
dropped, a die the camera missed added, a die's kind changed; each an event that a restart
replays, and a confirmed roll shows as confirmed."""

from __future__ import annotations

import pytest
from table_support import LINE_UP, started, tray

from companion.die_photos import labelled_dice
from companion.history import History
from companion.rules.core import Roll
from companion.rules.errors import BadRoll
from companion.table import TableError, TableSession

FIVE = Roll.of(("d20", 5), ("d20", 12), ("d8", 6), ("d20", 3), ("d20", 9))  # a d8 among them


@pytest.fixture
def table(tmp_path):
    return started(tmp_path / "f.db")


def reading(table: TableSession) -> dict:
    return table.snapshot()["reading"]


def test_a_box_of_no_die_is_dropped_and_the_roll_then_fits(table):
    table.submit_reading(tray(FIVE))
    assert "wanted 4 dice (d20, d20, d20, d20), got 5" in reading(table)["problem"]
    with pytest.raises(BadRoll, match="got 5"):
        table.confirm()
    table.drop_die(2)
    shown = reading(table)
    assert shown["pending"] and shown["problem"] == ""
    assert [d["dropped"] for d in shown["dice"]] == [False, False, True, False, False]
    table.drop_die(2, dropped=False)  # a slip of the finger, taken back
    assert "got 5" in reading(table)["problem"]
    table.drop_die(2)
    with pytest.raises(TableError, match="already dropped"):
        table.drop_die(2)
    table.confirm()
    assert sorted(e["d20"] for e in table.snapshot()["state"]["enemies"]) == [3, 5, 9, 12]
    shown = reading(table)
    assert shown["confirmed"] and not shown["pending"] and len(shown["dice"]) == 5


def test_a_die_the_camera_missed_is_added(table):
    table.submit_reading(tray(Roll.of(*((d.kind, d.value) for d in LINE_UP.dice[:3]))))
    assert "got 3" in reading(table)["problem"]
    with pytest.raises(BadRoll, match="a d20 has no face 21"):
        table.add_die("d20", 21)
    with pytest.raises(BadRoll, match=r"'kind' must be a die this game rolls \(d4, .*not 'd7'"):
        table.add_die("d7", 3)
    table.add_die("d20", "9")
    shown = reading(table)
    assert shown["problem"] == "" and shown["dice"][3] == {
        **shown["dice"][3], "die": "d20", "value": 9, "added": True, "corrected": True}
    table.confirm()
    assert sorted(e["d20"] for e in table.snapshot()["state"]["enemies"]) == [3, 5, 9, 12]


def test_a_die_of_the_wrong_kind_gets_its_kind_changed(table):
    wrong = Roll.of(("d20", 5), ("d20", 12), ("d20", 3), ("d6", 4))
    table.submit_reading(tray(wrong))
    assert "wanted d20, d20, d20, d20, got d20, d20, d20, d6" in reading(table)["problem"]
    with pytest.raises(BadRoll, match="a d6 has no face 9"):
        table.correct_die(3, 9)  # the value alone cannot be 9 on a d6
    table.correct_die(3, 9, kind="d20")
    die = reading(table)["dice"][3]
    assert (die["die"], die["value"], die["corrected"], len(die["faces"])) == ("d20", 9, True, 20)
    table.confirm()
    assert sorted(e["d20"] for e in table.snapshot()["state"]["enemies"]) == [3, 5, 9, 12]


def test_fixes_are_events_a_restart_replays(table):
    table.submit_reading(tray(FIVE, unsure=0))
    table.drop_die(2)
    table.correct_die(0, 7, kind="d20")
    table.add_die("d4", 2)
    table.drop_die(5)
    before = reading(table)
    again = TableSession(History(table.history.path))
    assert reading(again) == before
    kinds = [e.kind.value for e in table.history.events(table.game_id)]
    assert kinds == ["reading", "drop", "correct", "add", "drop"]
    csv = table.history.export_csv(table.game_id)
    assert "die 3 (d8=6) dropped: no die there" in csv and "d4=2 added" in csv
    again.confirm()
    assert reading(again)["confirmed"]


def test_fixes_need_a_waiting_reading(table):
    with pytest.raises(TableError, match="no reading is waiting"):
        table.drop_die(0)
    with pytest.raises(TableError, match="no reading is waiting"):
        table.add_die("d20", 3)
    table.submit_reading(tray(FIVE))
    with pytest.raises(TableError, match="has dice 0 to 4"):
        table.drop_die(5)


def test_a_dropped_box_gives_no_photo_label_and_an_added_die_no_crop(table):
    table.submit_reading(tray(Roll.of(("d20", 5), ("d20", 12), ("d8", 6), ("d20", 3))))
    table.drop_die(2)
    table.add_die("d20", 9)
    table.confirm()
    labelled = list(labelled_dice(table.history))
    assert [(d.index, d.value, d.how) for d in labelled] == [
        (0, 5, "checked"), (1, 12, "checked"), (3, 3, "checked")]
    assert [d.jpeg for d in labelled] == [b"crop of die 0", b"crop of die 1", b"crop of die 3"]
