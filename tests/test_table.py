"""The table session on the real game: readings, corrections, moves, undo, faults, resuming."""

from __future__ import annotations

import json
import random
import threading

import pytest
from table_support import (
    GAME,
    LINE_UP,
    PLAYERS,
    chance,
    fitting_roll,
    play,
    seat_to_move,
    started,
    tray,
)

from companion.history import History
from companion.reading import DieReading
from companion.rules.core import Roll
from companion.rules.errors import BadMoveText, BadRoll, NothingToUndo
from companion.table import SetupError, TableError, TableSession, unsure_summary


@pytest.fixture
def table(tmp_path):
    return started(tmp_path / "t.db")


def reopen(table: TableSession) -> TableSession:
    return TableSession(History(table.history.path))


def enemy_values(table: TableSession) -> list[int]:
    return sorted(e["d20"] for e in table.snapshot()["state"]["enemies"])


def kinds(table: TableSession) -> list[str]:
    return [e.kind.value for e in table.history.events(table.game_id)]


def test_a_sure_reading_is_applied_and_recorded_with_its_image(table):
    assert table.snapshot()["roll_wanted"]["reason"] == "enemy line-up"
    table.submit_reading(tray(LINE_UP))
    snap = table.snapshot()
    assert enemy_values(table) == [3, 5, 9, 12]
    assert snap["reading"]["pending"] is False
    assert snap["reading"]["dice"][1]["box"] == [80, 20, 140, 80]
    (event,) = table.history.events(table.game_id)
    assert (event.kind, event.text, event.has_image) == ("roll", LINE_UP.text(), True)
    assert table.history.image(event.id) == b"\xff\xd8tray"


def test_an_unsure_reading_waits_and_a_correction_then_confirm_applies_it(table):
    table.submit_reading(tray(LINE_UP, unsure=1))
    snap = table.snapshot()
    assert snap["reading"]["pending"] and "die 2 (d20) low confidence" in snap["reading"]["problem"]
    assert snap["roll_wanted"]["reason"] == "enemy line-up"  # nothing applied yet
    table.correct_die(1, "7")
    assert table.snapshot()["reading"]["dice"][1] | {"faces": None} == {
        "die": "d20", "value": 7, "confidence": 1.0, "box": [80, 20, 140, 80],
        "corrected": True, "dropped": False, "added": False, "faces": None,
        "crop": "/api/crops/1/1.jpg"}  # the close-up the reader kept
    table.confirm()
    assert enemy_values(table) == [3, 5, 7, 9]
    assert kinds(table) == ["reading", "correct", "roll"]


def test_a_reading_that_does_not_fit_is_held_with_the_reason(table):
    wrong = Roll.of(("d20", 5), ("d20", 12), ("d20", 3), ("d12", 9))
    table.submit_reading(tray(wrong))
    snap = table.snapshot()
    assert snap["reading"]["pending"]
    assert "wanted d20, d20, d20, d20, got d20, d20, d20, d12" in snap["reading"]["problem"]
    with pytest.raises(BadRoll):
        table.confirm()
    assert table.snapshot()["reading"]["pending"]
    table.discard_reading()
    assert table.snapshot()["reading"] is None and kinds(table) == ["reading", "discard"]


def test_a_typed_roll_that_does_not_fit_changes_nothing(table):
    with pytest.raises(BadRoll, match="no face 21"):
        table.type_roll("d20=21 d20=2 d20=3 d20=4")
    with pytest.raises(BadMoveText):
        table.type_roll("d20=")
    with pytest.raises(BadRoll, match=r"wanted 4 values \(d20 d20 d20 d20\), got 1"):
        table.type_roll("d20")  # a bare word is a face, and one face is not four
    assert kinds(table) == []
    table.type_roll(LINE_UP.text().removeprefix("roll "))
    assert enemy_values(table) == [3, 5, 9, 12]


def test_a_roll_typed_as_bare_faces_fills_the_dice_in_the_order_asked(table):
    with pytest.raises(BadRoll, match="no face 21"):
        table.type_roll("21 2 3 4")
    assert kinds(table) == []
    table.type_roll("roll 5 12 3 9")
    assert table.history.events(table.game_id)[-1].text == LINE_UP.text()
    assert enemy_values(table) == [3, 5, 9, 12]
    wanted = table.snapshot()["roll_wanted"]["dice"]  # the roll-off the line-up leads to
    with pytest.raises(BadRoll, match=rf"wanted {len(wanted)} values .*, got 1"):
        table.type_roll("4")


def test_the_last_roll_can_be_corrected_until_a_move_is_played_on_it(table):
    table.type_roll(LINE_UP.text())
    table.correct_die(0, 6)
    assert enemy_values(table) == [3, 6, 9, 12] and kinds(table) == ["roll", "amend"]
    snap = play(table, random.Random(2), seat_to_move)
    table.choose_move(snap["moves"][0]["move"])
    with pytest.raises(TableError, match="undo it first"):
        table.correct_die(0, 5)
    assert reopen(table).snapshot()["state"] == table.snapshot()["state"]


def test_moves_are_checked_by_the_rules_and_the_turn_ends_with_end(table):
    with pytest.raises(TableError, match="roll the dice first"):
        table.choose_move("end")
    snap = play(table, random.Random(4), lambda s: s["can_end_turn"])
    with pytest.raises(BadMoveText):
        table.choose_move("fly away")
    with pytest.raises(TableError, match="no roll is wanted now"):
        table.type_roll("d20=4")
    seat = snap["current"]["seat"]
    table.end_turn()
    assert table.history.events(table.game_id)[-1].text == "end"
    after = table.snapshot()
    assert after["current"]["seat"] != seat or after["current"]["chance"]


def test_the_ok_button_plays_the_best_ranked_move(table):
    snap = play(table, random.Random(5), seat_to_move)
    table.confirm()
    assert table.history.events(table.game_id)[-1].text == snap["moves"][0]["move"]


def test_undo_and_undo_turn_are_events_that_restore_the_state(table):
    with pytest.raises(NothingToUndo):
        table.undo()
    rng = random.Random(6)
    before = play(table, rng, seat_to_move)
    table.choose_move(before["moves"][0]["move"])
    table.undo()
    assert table.snapshot()["state"] == before["state"]
    start = play(table, rng, lambda s: s["turn"] == 2)
    play(table, rng, lambda s: len([e for e in table.history.events(table.game_id)
                                    if e.turn == 2]) >= 3)
    turn_steps = [e for e in table.history.events(table.game_id) if e.turn == 2]
    table.undo_turn()
    assert table.snapshot()["state"] == start["state"]
    last = table.history.events(table.game_id)[-1]
    assert (last.kind, last.data["steps"], last.turn) == ("undo", len(turn_steps), 2)


def test_a_restart_resumes_exactly_the_committed_game(table):
    play(table, random.Random(8), lambda s: len(kinds(table)) >= 25 and chance(s))
    table.submit_reading(tray(fitting_roll(table.snapshot(), random.Random(1)), unsure=0))
    again = reopen(table)
    assert {**again.snapshot(), "version": 0} == {**table.snapshot(), "version": 0}
    assert again.snapshot()["reading"]["pending"] is True


def test_a_new_game_is_validated_before_anything_changes(table):
    gid = table.game_id
    for players, options, error in [
        (["Ann"], {}, "2-6 players"),
        (["Ann", "ann"], {}, "same name"),
        (["Ann", " "], {}, "needs a name"),
        ("Ann", {}, "non-empty list"),
        (PLAYERS, {"target": -5}, "target must be a positive score"),
        (PLAYERS, {"bogus": 1}, "unknown option"),
    ]:
        with pytest.raises(SetupError, match=error):
            table.new_game(GAME, players, options)
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        table.new_game("chess", PLAYERS)
    assert table.game_id == gid and not table.history.game(gid).over
    new = table.new_game(GAME, ["Cy", "Di", "Ed"], {"target": 200, "ties": "shared"})
    assert table.history.game(gid).abandoned and new != gid
    assert table.snapshot()["state"]["target"] == 200


def test_faults_show_until_cleared(table):
    table.report_fault("camera", "camera gone", "check the cable")
    assert table.snapshot()["faults"] == [
        {"kind": "camera", "message": "camera gone", "advice": "check the cable"}]
    table.clear_fault("camera")
    assert table.snapshot()["faults"] == []


def test_read_dice_asks_for_the_kinds_wanted_and_turns_camera_errors_into_faults(table):
    asked = []

    def camera(kinds: list[str] | None):
        asked.append(kinds)
        if len(asked) == 1:
            raise RuntimeError("camera unplugged")
        return tray(LINE_UP)

    table.dice_source = camera
    with pytest.raises(TableError, match="camera unplugged"):
        table.read_dice()
    assert table.snapshot()["faults"][0]["kind"] == "camera" and kinds(table) == []
    table.read_dice()
    assert asked == [["d20"] * 4] * 2
    assert table.snapshot()["faults"] == [] and enemy_values(table) == [3, 5, 9, 12]


def test_a_game_that_knows_its_dice_faces_hands_them_to_the_camera(table):
    """Monsters!' dice carry a few faces each: the camera gets them (the demo's tray throws
    them); a game of standard dice calls the camera with the kinds alone, as ever."""
    asked = []

    def camera(kinds: list[str] | None, faces=None):
        asked.append(faces)
        return tray(Roll.of(*[("monsters", f[0]) for f in faces]) if faces else LINE_UP)

    table.dice_source = camera
    table.read_dice()
    table.new_game("monsters", ["Ann", "Bob"], {"monsters": "\n".join(
        ["block plus"] * 16 + ["---"] + ["dodge minus"] * 16)})
    table.read_dice()
    assert asked[0] is None and asked[1] == (("block", "plus"),) * 16
    assert table.snapshot()["roll_wanted"]["faces"] == [["dodge", "minus"]] * 16  # Bob's, next


def test_wait_for_change_wakes_on_a_change(table):
    seen = []
    start = table.version
    waiter = threading.Thread(target=lambda: seen.append(table.wait_for_change(start, 5)))
    waiter.start()
    table.type_roll(LINE_UP.text())
    waiter.join(2)
    assert seen == [start + 1]
    assert table.wait_for_change(table.version, 0.01) == table.version


def test_without_a_game_actions_are_a_clear_table_error(tmp_path):
    table = TableSession(History(tmp_path / "empty.db"))
    assert table.snapshot()["game"] is None
    for action in (table.confirm, table.undo, lambda: table.type_roll("d6=1")):
        with pytest.raises(TableError, match="no game"):
            action()


def test_a_write_that_fails_is_a_fault_and_the_table_shows_only_what_is_committed(table):
    import sqlite3

    from companion.history import HistoryError

    table.type_roll(LINE_UP.text())
    committed = table.snapshot()["state"]
    blocker = sqlite3.connect(table.history.path)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the database
    table.history._db.execute("PRAGMA busy_timeout = 50")
    with pytest.raises(HistoryError, match="could not write"):
        table.type_roll("d20=4 d20=16")
    snap = table.snapshot()
    assert snap["faults"][0]["kind"] == "database" and snap["state"] == committed
    blocker.rollback()
    table.type_roll("d20=4 d20=16")
    assert table.snapshot()["faults"] == []
    table.undo()
    table.history._db.close()  # now the database is gone altogether
    with pytest.raises(HistoryError):
        table.type_roll("d20=4 d20=16")
    assert table.snapshot()["state"] == committed
    assert reopen(table).snapshot()["state"] == committed


def test_dice_that_do_not_settle_refuse_the_read_without_a_fault(table):
    def restless(kinds: list[str] | None):
        raise TimeoutError("a hand is over the tray")

    table.dice_source = restless
    with pytest.raises(TableError, match="hand is over the tray.*ROLL again"):
        table.read_dice()
    assert table.snapshot()["faults"] == [] and kinds(table) == []


def test_dice_flagged_for_the_same_reason_are_named_together() -> None:
    check = ("d20 values by the classifier alone are checked (sure ones 56% right on a rig it "
             "never saw)")
    dice = [
        DieReading("d20", 7, 0.41, (0, 0, 9, 9), True, f"low confidence; {check}"),
        DieReading("d20", 2, 0.95, (0, 0, 9, 9), True, check),
        DieReading("d20", 12, 0.88, (0, 0, 9, 9), True, check),
        DieReading("d8", 5, 0.97, (0, 0, 9, 9)),
        DieReading("d6", 3, 0.35, (0, 0, 9, 9), True, "low confidence"),
        DieReading("d20", 9, 0.9, (0, 0, 9, 9), True, check),
    ]
    assert unsure_summary(dice) == (
        f"unsure: dice 1, 5 (d20, d6) low confidence | dice 1-3, 6 (d20) {check}"
    )
    assert unsure_summary(dice[4:5]) == "unsure: die 1 (d6) low confidence"


def test_a_roll_no_hero_can_use_is_passed_by_ending_the_turn(table):
    """Board Horde's `pass` is its way to end a turn: End turn and the NEXT button play it."""
    table.new_game("board-horde", ["Ann", "Bob"], {"monsters": "10 11 12 13 14 15 16 17"})
    snap = play(table, random.Random(0),  # a seed whose game meets such a roll (305 steps in)
                lambda s: [m["move"] for m in s["moves"]] == ["pass"], limit=3000)
    assert snap["can_end_turn"]
    table.end_turn()
    assert table.history.events(table.game_id)[-1].text == "pass"


def test_a_game_won_in_this_session_stays_won_when_the_next_starts(tmp_path):
    table = TableSession(History(tmp_path / "won.db"))
    table.new_game(GAME, PLAYERS, {"target": 10, "final_round": "finish", "ties": "shared"})
    won = table.game_id
    play(table, random.Random(5), lambda s: s["game"]["over"], limit=3000)
    table.new_game(GAME, PLAYERS)
    record = table.history.game(won)
    assert record.outcome is not None and not record.abandoned
    assert [e.kind.value for e in table.history.events(won)][-1] != "abandon"


def test_a_won_game_recorded_as_abandoned_by_the_old_bug_reads_as_won(tmp_path):
    table = TableSession(History(tmp_path / "old.db"))
    table.new_game(GAME, PLAYERS, {"target": 10, "final_round": "finish", "ties": "shared"})
    won = table.game_id
    play(table, random.Random(5), lambda s: s["game"]["over"], limit=3000)
    table._pos.abandoned = False  # what the old new_game did: abandon a game already won
    from companion.history import EventKind, PlannedEvent

    with table._lock:
        table._play(PlannedEvent(EventKind.ABANDON))
    record = table.history.game(won)
    assert record.outcome is not None and not record.abandoned


def test_the_live_streams_text_is_the_snapshot_serialized_once_per_version(table):
    version, text = table.snapshot_text()
    assert version == table.version and json.loads(text) == table.snapshot()
    assert table.snapshot_text()[1] is text  # every phone's stream sends the same text
    table.type_roll(LINE_UP.text())
    version2, text2 = table.snapshot_text()
    assert version2 > version and json.loads(text2) == table.snapshot()
