"""The table's memory in the reader: a die players corrected is read right the next time, a far
or empty memory changes nothing, a changed value is never sure, and forgetting undoes it."""

from __future__ import annotations

import time
from operator import attrgetter

import numpy as np
import pytest

from companion.dice_memory import DiceMemory
from companion.die_photos import LabelledDie
from vision.classify import DEFAULT_MODEL, Classifier
from vision.memory_key import MemoryKey
from vision.numerals import NOT_CLEAR, UNSTOOD
from vision.prototypes import decode_shot
from vision.reader import DiceReader, kept_crop
from vision.table_memory import (
    TURNS,
    Recall,
    Remembered,
    TableMemory,
    embedded,
    recall,
    remembered_reading,
    unit,
)
from vision.train.render import render_tray

AXES = np.eye(64, dtype=np.float32)


def memory_of(values: list[int], vectors: np.ndarray) -> Remembered:
    return Remembered(unit(vectors), tuple(values))


def test_an_empty_or_far_memory_changes_nothing():
    assert remembered_reading("d20", 5, 0.4, NOT_CLEAR, Recall({}, -1.0, 0)) == (
        5, 0.4, NOT_CLEAR)
    far = memory_of([3] * 8, np.tile(AXES[1], (8, 1)))  # at right angles to the die
    assert remembered_reading("d20", 5, 0.4, NOT_CLEAR, recall(far, AXES[0])) == (
        5, 0.4, NOT_CLEAR)


def test_a_near_memory_overturns_an_unclear_reading_and_is_never_sure():
    near = memory_of([3] * 8, np.tile(AXES[0], (8, 1)))
    value, confidence, why = remembered_reading("d20", 5, 0.4, NOT_CLEAR,
                                                recall(near, AXES[0]))
    assert value == 3 and confidence > 0.9
    assert why == "numeral not clear; value from the table's memory (read as 5)"


def test_a_sure_reading_keeps_its_value_against_the_memory_and_is_asked():
    """The reader's sure readings are right as measured; the nearest remembered dice may be
    the same die showing other faces. So the reading stands, and a player checks it."""
    near = recall(memory_of([3] * 8, np.tile(AXES[0], (8, 1))), AXES[0])
    assert remembered_reading("d20", 5, 0.97, "", near) == (
        5, 0.97, "the table's memory reads it as 3")
    agreeing = recall(memory_of([5] * 8, np.tile(AXES[0], (8, 1))), AXES[0])
    assert remembered_reading("d20", 5, 0.97, "", agreeing) == (5, 0.97, "")


def test_a_clear_reading_is_kept_against_one_remembered_die():
    one = memory_of([3], AXES[:1])
    assert remembered_reading("d8", 5, 0.99, "", recall(one, AXES[0])) == (5, 0.99, "")


def test_only_an_unclear_numeral_of_a_measured_kind_is_made_sure():
    near = recall(memory_of([4] * 8, np.tile(AXES[0], (8, 1))), AXES[0])
    assert remembered_reading("d20", 4, 0.6, NOT_CLEAR, near)[2] == ""
    assert remembered_reading("d4", 4, 0.6, UNSTOOD, near)[2]
    leaning = "numeral not seen (the die may be leaning)"
    assert remembered_reading("d20", 4, 0.6, leaning, near)[2] == leaning
    split = recall(memory_of([4] * 6 + [7] * 2, np.tile(AXES[0], (8, 1))), AXES[0])
    assert remembered_reading("d20", 4, 0.6, NOT_CLEAR, split)[2] == NOT_CLEAR


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet")
def test_a_die_corrected_once_is_read_right_after_and_forgetting_undoes_it(tmp_path):
    # a rendered tray whose d20 showing 3 the shipped reader misreads, unsure
    frame, truth = render_tray(3, 0, (1280, 960), ["d20", "d10", "d8"])
    expect = ["d20", "d10", "d8"]
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    reader = DiceReader(keep_crops=True)
    reader.memory = TableMemory(store, MemoryKey())
    first = reader.read_frame(frame, expect)
    at = next(i for i, d in enumerate(first.dice) if d.die == "d20")
    misread = first.dice[at].value
    assert misread != 3 and first.dice[at].unsure
    assert ("d20", 3) in [(kind, value) for kind, value, _ in truth]
    # the player corrects it to 3 and confirms: the table remembers that die
    store.learn(1, [LabelledDie(1, 7, at, "d20", 3, "corrected", 1.0, first.crops[at])],
                attrgetter("jpeg"))
    reader.memory.refresh()
    assert [d.model for d in store.dice()] == [MemoryKey().card["sha256"]]
    assert len(np.frombuffer(store.dice()[0].vectors, np.float32)) == TURNS * 320
    batches: list[int] = []  # the crops keyed in each run of the key while reading the frame
    embed = reader.memory.key.embed
    reader.memory.key.embed = lambda crops: batches.append(len(crops)) or embed(crops)
    again = reader.read_frame(frame, expect).dice[at]
    assert batches == [1]  # the d20 alone: the table remembers no d10 or d8 to read them by
    assert (again.value, again.unsure) == (3, True)
    assert f"value from the table's memory (read as {misread})" in again.why_unsure
    store.forget()
    reader.memory.refresh()
    assert reader.read_frame(frame, expect).dice[at].value == misread


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet")
def test_what_is_learnt_is_embedded_in_the_background(tmp_path):
    frame, [(_, value, box)] = render_tray(1, 3, (640, 480), ["d20"])
    crop = kept_crop(frame, box)
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    memory = TableMemory(store, MemoryKey())
    kept = decode_shot(crop)
    assert memory.keys([kept]) is None  # nothing remembered yet: no die is keyed
    assert not memory.remembers("d20")
    memory.follow()
    store.learn(1, [LabelledDie(1, 4, 0, "d20", value, "checked", 0.9, crop)],
                attrgetter("jpeg"))
    deadline = time.monotonic() + 60  # a ceiling for a loaded machine, not a speed
    while "d20" not in memory.kinds and time.monotonic() < deadline:
        time.sleep(0.05)
    assert memory.kinds["d20"].values == (value,) * TURNS  # no reading asked for it
    assert memory.remembers("d20") and not memory.remembers("d8")
    assert np.allclose(memory.keys([kept]), memory.kinds["d20"].vectors[:1], atol=1e-5)
    assert store.dice()[0].model == MemoryKey().card["sha256"]


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet")
def test_following_the_store_reads_only_the_images_of_new_crops(tmp_path, monkeypatch):
    """After each roll the memory is loaded again; the crops it embedded before come back as
    their keys, without their images (a full memory is thousands of JPEGs)."""
    frame, dice = render_tray(3, 5, (640, 480), ["d20", "d20", "d8"])
    crops = [kept_crop(frame, box) for _, _, box in dice]
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    memory = TableMemory(store, MemoryKey())
    asked: list[int] = []
    images_of = store.images_of
    monkeypatch.setattr(store, "images_of", lambda ids: images_of(asked.extend(ids) or ids))
    labels = [LabelledDie(1, 4, i, kind, value, "checked", 0.9, crop)
              for i, ((kind, value, _), crop) in enumerate(zip(dice, crops, strict=True))]
    store.learn(1, labels[:2], attrgetter("jpeg"))
    memory.refresh()
    first = sorted(asked)
    assert len(first) == 2 and len(memory.kinds["d20"].values) == 2 * TURNS
    asked.clear()
    store.learn(1, labels, attrgetter("jpeg"))
    memory.refresh()
    assert len(asked) == 1 and asked[0] not in first  # the new d8's crop only
    assert len(memory.kinds["d8"].values) == TURNS


def test_a_memory_that_cannot_be_read_leaves_the_reader_reading(tmp_path):
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    memory = TableMemory(store, key=object())  # type: ignore[arg-type] - never used
    store.close()
    memory.refresh()  # the table shows the store's fault; the reading goes on without it
    assert memory.kinds == {}
    assert memory.amend("d20", AXES[0], 5, 0.4, NOT_CLEAR) == (5, 0.4, NOT_CLEAR)


@pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="models/dice.onnx is not built yet")
def test_crops_a_table_keyed_with_the_classifier_are_keyed_again_by_the_memory_key(tmp_path):
    """A table from before the memory's own key kept its dice's classifier embeddings: they are
    keyed again from their crops when the memory loads, once, and read by the key."""
    frame, [(_, value, box)] = render_tray(1, 3, (640, 480), ["d20"])
    store = DiceMemory(tmp_path / "t.dice.sqlite")
    store.learn(1, [LabelledDie(1, 4, 0, "d20", value, "checked", 0.9, kept_crop(frame, box))],
                attrgetter("jpeg"))
    classifier = Classifier(threads=1)
    embedded(store, classifier, ["d20"])  # as the memory keyed it before
    assert store.dice()[0].model == classifier.card["sha256"]
    memory = TableMemory(store, MemoryKey())
    memory.refresh()
    die = store.dice()[0]
    assert die.model == memory.key.card["sha256"]
    keys = np.frombuffer(die.vectors, np.float32).reshape(TURNS, -1)
    assert keys.shape[1] == len(memory.key.embed([decode_shot(kept_crop(frame, box))])[0]) != 64
    assert np.allclose(memory.kinds["d20"].vectors, keys)
    assert memory.kinds["d20"].values == (value,) * TURNS
