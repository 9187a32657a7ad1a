"""The die check's fitting: what counts as a die's box, one-to-one matching, the regression."""

from __future__ import annotations

import numpy as np

from vision.die_check import chance
from vision.train.die_check import Frame, fit, label, matched, tally

DIE = (100.0, 100.0, 200.0, 200.0)


def test_a_box_is_a_dies_when_it_overlaps_it_and_a_piece_of_it_is_none() -> None:
    assert label((105.0, 95.0, 205.0, 200.0), [DIE]) == 1  # the die's box
    assert label((80.0, 80.0, 230.0, 230.0), [DIE]) == 1  # loose, centred on it: IoU 0.44
    assert label((130.0, 130.0, 160.0, 160.0), [DIE]) == 0  # a pip or numeral on it
    assert label((300.0, 300.0, 400.0, 400.0), [DIE]) == 0
    assert label((130.0, 130.0, 160.0, 160.0), []) == 0


def test_each_die_is_matched_once() -> None:
    twice = [DIE, (102.0, 101.0, 201.0, 199.0)]
    assert matched(twice, [DIE]) == 1
    assert matched(twice, [DIE, (101.0, 100.0, 200.0, 201.0)]) == 2
    assert matched([], [DIE]) == 0


def test_the_regression_separates_what_a_feature_separates() -> None:
    rng = np.random.default_rng(0)
    x = np.column_stack([np.r_[rng.normal(-1, 0.3, 200), rng.normal(1, 0.3, 200)],
                         rng.normal(0, 1, 400)])  # the second feature is noise
    y = np.r_[np.zeros(200), np.ones(200)]
    fitted = fit(x, y)
    p = chance(fitted, x)
    assert ((p >= 0.5) == (y == 1)).mean() > 0.98
    assert abs(fitted["weights"][0]) > 5 * abs(fitted["weights"][1])


def test_the_tally_adds_the_peaks_the_check_takes_and_counts_what_they_are() -> None:
    weak_die, spot = (98.0, 99.0, 201.0, 202.0), (400.0, 400.0, 430.0, 430.0)
    # one feature: the peak's evidence; the check takes the first peak and leaves the second
    fitted = fit(np.array([[-2.0], [2.0]] * 20), np.array([0.0, 1.0] * 20))
    frame = Frame("rig", "photos", truth=[DIE], kept=[], spare=[weak_die, spot],
                  x=np.array([[2.0], [-2.0]]))
    empty = Frame("rig", "no die", truth=[], kept=[], spare=[spot], x=np.array([[2.0]]))
    assert tally([frame, empty], None) == {"dice": 1, "found": 0, "boxes": 0, "no_die": 0}
    assert tally([frame, empty], fitted) == {"dice": 1, "found": 1, "boxes": 2, "no_die": 1}
