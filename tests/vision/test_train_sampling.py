"""Batch sampling: real kinds evenly; renders follow each kind's running value loss."""

import numpy as np

from vision.train.dataset import IGNORE
from vision.train.sampling import TABLE_SHARE, KindFocus, real_weights

# two kinds with 2 and 6 renders, and two empty crops (no kind)
KINDS = np.array([0, 0, 1, 1, 1, 1, 1, 1, IGNORE, IGNORE])


def kind_share(w: np.ndarray, kind: int) -> float:
    return float(w[KINDS == kind].sum())


def test_real_kinds_are_drawn_evenly_whatever_their_counts() -> None:
    w = real_weights(np.array([0, 1, 1, 1, 2, 2]))
    assert np.isclose(w.sum(), 1.0)
    assert np.allclose([w[:1].sum(), w[1:4].sum(), w[4:].sum()], 1 / 3)


def test_a_tables_own_photos_get_their_share_however_few() -> None:
    kinds = np.array([0, 0, 0, 1, 1, 1, 1, 0, 1])
    table = np.array([False] * 7 + [True] * 2)
    w = real_weights(kinds, table)
    assert np.isclose(w.sum(), 1.0)
    assert np.isclose(w[table].sum(), TABLE_SHARE)
    assert np.isclose(w[:3].sum(), w[3:7].sum())  # the shared photos' kinds still evenly
    assert np.isclose(w[7], w[8])
    assert np.allclose(real_weights(kinds, np.zeros(9, bool)), real_weights(kinds))


def test_focus_starts_even_per_kind_and_keeps_the_empty_crops_share() -> None:
    w = KindFocus(KINDS).weights()
    assert np.isclose(w.sum(), 1.0)
    assert np.isclose(kind_share(w, 0), kind_share(w, 1))
    assert np.isclose(kind_share(w, IGNORE), 2 / len(KINDS))


def test_focus_moves_renders_to_the_kind_read_worse_but_never_starves_one() -> None:
    focus = KindFocus(KINDS, evenly=0.5, memory=0.5)
    for _ in range(30):  # kind 1 keeps losing ten times more than kind 0
        focus.update(np.array([0, 1, 1]), np.array([0.1, 1.0, 1.0]))
    w = focus.weights()
    assert np.isclose(focus.loss[0], 0.1) and np.isclose(focus.loss[1], 1.0)
    assert kind_share(w, 1) > 2 * kind_share(w, 0)
    # half of the kinds' draws stay even: kind 0 keeps at least a quarter of them
    assert kind_share(w, 0) >= 0.25 * (1 - kind_share(w, IGNORE)) - 1e-9
