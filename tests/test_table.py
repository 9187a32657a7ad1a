"""The table session: readings, corrections, moves, undo, faults, and resuming from the log."""

from __future__ import annotations

import threading

import pytest
from table_pig import games

from companion.history import History
from companion.reading import DieReading, TrayReading
from companion.rules.errors import BadMoveText, BadRoll, NothingToUndo
from companion.table import SetupError, TableError, TableSession


def reading(value: object, *, unsure: bool = False, die: str = "d6") -> TrayReading:
    why = "low confidence" if unsure else ""
    return TrayReading((DieReading(die, value, 0.4 if unsure else 0.97, (10, 20, 60, 70),
                                   unsure, why),), b"\xff\xd8jpeg", 200, 100)


@pytest.fixture
def table(tmp_path):
    session = TableSession(History(tmp_path / "t.db", games))
    session.new_game("pig", ["Ann", "Bob"], {"target": 10})
    return session


def reopen(table: TableSession) -> TableSession:
    return TableSession(History(table.history.path, games))


def test_sure_reading_is_applied_and_recorded_with_its_image(table):
    table.submit_reading(reading(4))
    snap = table.snapshot()
    assert snap["current"]["text"] == "Ann to play"
    assert snap["state"]["pot"] == 4
    assert snap["reading"]["pending"] is False
    assert snap["reading"]["dice"][0]["box"] == [10, 20, 60, 70]
    (event,) = table.history.events(table.game_id)
    assert (event.kind, event.text, event.has_image) == ("roll", "roll d6=4", True)
    assert table.history.image(event.id) == b"\xff\xd8jpeg"


def test_unsure_reading_waits_then_correction_and_confirm_apply_it(table):
    table.submit_reading(reading(5, unsure=True))
    snap = table.snapshot()
    assert snap["reading"]["pending"] and "die 1 (d6) low confidence" in snap["reading"]["problem"]
    assert snap["current"]["chance"] is True
    table.correct_die(0, "2")
    table.confirm()
    snap = table.snapshot()
    assert snap["state"]["pot"] == 2 and snap["reading"]["dice"][0]["corrected"] is True
    kinds = [e.kind for e in table.history.events(table.game_id)]
    assert kinds == ["reading", "correct", "roll"]


def test_reading_that_does_not_fit_is_held_with_the_reason(table):
    table.submit_reading(reading(7, die="d8"))
    snap = table.snapshot()
    assert snap["reading"]["pending"] and "wanted d6, got d8" in snap["reading"]["problem"]
    with pytest.raises(BadRoll):
        table.confirm()  # still a d8: refused, and the reading is still waiting
    assert table.snapshot()["reading"]["pending"]


def test_typed_roll_that_does_not_fit_changes_nothing(table):
    before = table.history.events(table.game_id)
    with pytest.raises(BadRoll):
        table.type_roll("d6=9")
    with pytest.raises(BadMoveText):
        table.type_roll("d6")
    assert table.history.events(table.game_id) == before
    table.type_roll("d6=3")
    assert table.snapshot()["state"]["pot"] == 3


def test_correcting_the_last_roll_replaces_it_until_a_move_is_played(table):
    table.submit_reading(reading(4))
    table.correct_die(0, 6)
    assert table.snapshot()["state"]["pot"] == 6
    table.choose_move("again")
    with pytest.raises(TableError, match="undo it first"):
        table.correct_die(0, 5)
    assert reopen(table).snapshot()["state"]["pot"] == 6


def test_moves_scores_and_end_of_turn(table):
    table.type_roll("d6=5")
    assert [m["move"] for m in table.snapshot()["moves"]] == ["end", "again"]
    table.confirm()  # the best-ranked move: bank
    snap = table.snapshot()
    assert snap["scores"] == [5, 0] and snap["current"]["text"] == "Bob rolls d6 (turn roll)"
    with pytest.raises(TableError, match="roll the dice first"):
        table.choose_move("end")
    table.type_roll("roll d6=6")
    table.end_turn()
    assert table.snapshot()["scores"] == [5, 6]
    table.type_roll("d6=2")
    with pytest.raises(TableError, match="no roll is wanted now: Ann to play"):
        table.type_roll("d6=2")
    with pytest.raises(BadMoveText):
        table.choose_move("pass")


def test_undo_is_an_event_and_undo_turn_takes_the_whole_turn_back(table):
    table.type_roll("d6=5")
    table.choose_move("again")
    table.type_roll("d6=4")
    table.undo()
    assert table.snapshot()["current"]["chance"] is True
    table.type_roll("d6=3")
    table.undo_turn()
    snap = table.snapshot()
    assert snap["state"]["pot"] == 0 and snap["can_undo"] is False
    with pytest.raises(NothingToUndo):
        table.undo()
    kinds = [e.kind.value for e in table.history.events(table.game_id)]
    assert kinds == ["roll", "move", "roll", "undo", "roll", "undo"]


def test_a_restart_resumes_exactly_the_committed_game(table):
    table.type_roll("d6=5")
    table.end_turn()
    table.submit_reading(reading(3, unsure=True))
    again = reopen(table)
    mine, theirs = table.snapshot(), again.snapshot()
    assert {**mine, "version": 0} == {**theirs, "version": 0}
    assert theirs["reading"]["pending"] is True


def test_new_game_validates_everything_before_changing_anything(table):
    gid = table.game_id
    for players, options, error in [
        (["Ann"], {}, "2-4 players"),
        (["Ann", "ann"], {}, "same name"),
        (["Ann", ""], {}, "needs a name"),
        ("Ann", {}, "non-empty list"),
        (["Ann", "Bob"], {"target": -1}, "target"),
    ]:
        with pytest.raises(SetupError, match=error):
            table.new_game("pig", players, options)
    with pytest.raises(KeyError):
        table.new_game("chess", ["Ann", "Bob"])
    assert table.game_id == gid
    new = table.new_game("pig", ["Cy", "Di", "Ed"])
    assert table.history.game(gid).abandoned and new != gid


def test_faults_show_and_clear(table):
    table.report_fault("camera", "camera gone", "check the cable")
    assert table.snapshot()["faults"] == [
        {"kind": "camera", "message": "camera gone", "advice": "check the cable"}]
    table.clear_fault("camera")
    assert table.snapshot()["faults"] == []


def test_read_dice_asks_for_the_kinds_wanted_and_turns_camera_errors_into_faults(table):
    asked = []

    def source(kinds):
        asked.append(kinds)
        if len(asked) == 2:
            raise RuntimeError("camera unplugged")
        return reading(6)

    table.dice_source = source
    table.read_dice()
    assert asked == [["d6"]] and table.snapshot()["state"]["pot"] == 6
    table.choose_move("again")
    with pytest.raises(TableError, match="camera unplugged"):
        table.read_dice()
    assert table.snapshot()["faults"][0]["kind"] == "camera"
    table.read_dice()
    assert table.snapshot()["faults"] == []


def test_wait_for_change_wakes_on_a_change(table):
    seen = []
    start = table.version
    waiter = threading.Thread(target=lambda: seen.append(table.wait_for_change(start, 5)))
    waiter.start()
    table.type_roll("d6=2")
    waiter.join(2)
    assert seen == [start + 1]
    assert table.wait_for_change(table.version, 0.01) == table.version


def test_no_game_is_a_clear_table_error(tmp_path):
    table = TableSession(History(tmp_path / "empty.db", games))
    assert table.snapshot()["game"] is None
    with pytest.raises(TableError, match="no game"):
        table.confirm()
