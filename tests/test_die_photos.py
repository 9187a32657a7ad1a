"""The table's own dice photos: crops kept with each camera reading, labelled by what players did."""

from __future__ import annotations

import csv
import io
import random
import zipfile

import pytest
from table_support import GAME, LINE_UP, PLAYERS, chance, play, started, tray

from companion.cli import main
from companion.die_photos import export, export_zip, labelled_dice
from companion.reading import DieReading, TrayReading
from companion.rules.core import Roll, RollRequest
from companion.table import TableSession


@pytest.fixture
def table(tmp_path):
    return started(tmp_path / "p.db")


def labels(table: TableSession) -> list[tuple[str, int | str, str]]:
    return [(d.die, d.value, d.how) for d in labelled_dice(table.history)]


def next_roll(table: TableSession, seed: int) -> Roll:
    """Play on (typed rolls, moves) until a roll is wanted; the roll a seeded roller gives."""
    snap = play(table, random.Random(seed), chance)
    return Roll.random(RollRequest.from_json(snap["roll_wanted"]), random.Random(seed))


def test_the_crops_are_kept_with_the_reading_in_the_order_of_its_dice(table):
    table.submit_reading(tray(LINE_UP, unsure=2))
    (event,) = table.history.events(table.game_id)
    assert table.history.crops(event.id) == [f"crop of die {i}".encode() for i in range(4)]
    assert table.history.crops(event.id + 1) == []


def test_a_roll_applied_at_once_labels_its_dice_as_read(table):
    table.submit_reading(tray(LINE_UP))
    assert labels(table) == [("d20", 5, "read"), ("d20", 12, "read"), ("d20", 3, "read"),
                             ("d20", 9, "read")]
    first = next(labelled_dice(table.history))
    assert first.jpeg == b"crop of die 0" and first.confidence == 0.97


def test_a_held_reading_players_correct_and_confirm_labels_every_die(table):
    table.submit_reading(tray(LINE_UP, unsure=1))
    assert labels(table) == []  # waiting: nothing is known yet
    table.correct_die(1, 7)
    table.confirm()
    assert labels(table) == [("d20", 5, "checked"), ("d20", 7, "corrected"),
                             ("d20", 3, "checked"), ("d20", 9, "checked")]
    (crop,) = [d.jpeg for d in labelled_dice(table.history) if d.how == "corrected"]
    assert crop == b"crop of die 1"  # the corrected value goes with that die's own crop


def test_a_roll_corrected_after_it_was_applied_is_labelled_as_corrected(table):
    table.submit_reading(tray(LINE_UP))
    table.correct_die(3, 19)
    assert labels(table) == [("d20", 5, "checked"), ("d20", 12, "checked"),
                             ("d20", 3, "checked"), ("d20", 19, "corrected")]


def test_undone_discarded_and_typed_rolls_give_no_labels(table):
    table.submit_reading(tray(LINE_UP))
    table.undo()
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.discard_reading()
    table.type_roll(LINE_UP.text())
    assert labels(table) == []
    roll = next_roll(table, 3)
    table.submit_reading(tray(roll))
    assert [(die, value) for die, value, _ in labels(table)] == [
        (d.kind, d.value) for d in roll.dice]


def test_readings_without_crops_give_no_labels(table):
    """Rolls read before the reader kept crops (or by a source that has none) are skipped."""
    dice = tuple(DieReading(d.kind, d.value, 0.9, (0, 0, 9, 9)) for d in LINE_UP.dice)
    table.submit_reading(TrayReading(dice, b"\xff\xd8", 100, 100))
    assert labels(table) == []


def test_export_writes_the_crops_and_a_labels_file_and_can_run_again(table, tmp_path):
    table.submit_reading(tray(LINE_UP, unsure=0))
    table.correct_die(0, 20)
    table.confirm()
    out = tmp_path / "photos"
    for _ in range(2):  # a second run finds the same dice and rewrites the same rows
        counts = export(table.history, out)
        assert counts == {"corrected": 1, "checked": 3}
        with (out / "labels.csv").open(newline="") as fh:
            rows = list(csv.DictReader(fh))
        assert [(r["die"], r["top_value"], r["how"]) for r in rows] == [
            ("d20", "20", "corrected"), ("d20", "12", "checked"), ("d20", "3", "checked"),
            ("d20", "9", "checked")]
        assert {r["sequence"] for r in rows} == {f"game-{table.game_id}"}
        assert (out / rows[0]["path"]).read_bytes() == b"crop of die 0"
    assert sorted(p.name for p in out.iterdir()) == ["crops", "labels.csv"]  # no temp file left


def test_the_zip_streams_one_crop_at_a_time_and_holds_the_same_folder(table, tmp_path):
    table.submit_reading(tray(LINE_UP))
    chunks = list(export_zip(table.history))
    assert len(chunks) == 4 + 1 and all(chunks)  # a piece per die, then labels.csv
    export(table.history, tmp_path / "folder")
    with zipfile.ZipFile(io.BytesIO(b"".join(chunks))) as archive:
        assert archive.read("labels.csv") == (tmp_path / "folder/labels.csv").read_bytes()
        assert sorted(archive.namelist()) == sorted(
            ["labels.csv", *(f"crops/{p.name}" for p in (tmp_path / "folder/crops").iterdir())])


def test_the_photos_command_writes_the_folder_and_names_a_missing_history(table, tmp_path, capsys):
    table.submit_reading(tray(LINE_UP))
    db = str(table.history.path)
    assert main(["photos", str(tmp_path / "out"), "--db", db]) == 0
    assert "4 dice photos" in capsys.readouterr().out and (tmp_path / "out/labels.csv").is_file()
    assert main(["photos", str(tmp_path / "x"), "--db", str(tmp_path / "none.db")]) == 2
    assert "no history at" in capsys.readouterr().out
    assert not (tmp_path / "none.db").exists()


def test_a_game_started_anew_keeps_the_labels_of_the_one_left(table):
    table.submit_reading(tray(LINE_UP))
    table.new_game(GAME, PLAYERS)  # the first game is abandoned, its roll still stood
    table.submit_reading(tray(LINE_UP, unsure=3))
    table.confirm()
    found = list(labelled_dice(table.history))
    assert [d.how for d in found] == ["read"] * 4 + ["checked"] * 4
    assert found[0].game_id < found[-1].game_id
