"""The training arrays: picking rows, by index or by the dice's kind."""

import numpy as np

from vision.train.dataset import IGNORE, Arrays, _render_chunk
from vision.train.labels import KINDS


def arrays() -> Arrays:
    kinds = np.array([KINDS.index("d4"), KINDS.index("d20"), IGNORE, KINDS.index("d4")])
    return Arrays(
        images=np.arange(4, dtype=np.uint8).reshape(4, 1, 1, 1) * np.ones((4, 2, 2, 3), np.uint8),
        kinds=kinds,
        values=np.array([0, 50, IGNORE, 3]),
        states=np.array([0, 0, 2, 1]),
        level=np.array([True, False, False, False]),
    )


def test_take_keeps_every_column_of_the_chosen_rows_together() -> None:
    data = arrays()
    picked = data.take(np.array([3, 0]))
    assert len(picked) == 2
    assert picked.images[:, 0, 0, 0].tolist() == [3, 0]
    assert picked.values.tolist() == [3, 0]
    assert picked.states.tolist() == [1, 0]
    assert picked.level.tolist() == [False, True]


def test_of_kinds_marks_the_dice_of_those_kinds_and_never_an_empty_crop() -> None:
    data = arrays()
    assert data.of_kinds(("d4",)).tolist() == [True, False, False, True]
    assert data.of_kinds(("d4", "d20")).tolist() == [True, True, False, True]
    assert data.of_kinds(("d6",)).tolist() == [False] * 4


def test_renders_can_be_drawn_of_chosen_kinds_alone() -> None:
    _, labels = _render_chunk((5, 12, 32), kinds=("d4",))
    drawn = set(labels[:, 0].tolist())
    assert KINDS.index("d4") in drawn
    assert drawn <= {KINDS.index("d4"), IGNORE}  # empty crops have no kind


def test_renders_take_every_kind_in_turn_by_default() -> None:
    _, labels = _render_chunk((0, 14, 32))
    assert set(labels[:, 0].tolist()) - {IGNORE} == set(range(len(KINDS)))
