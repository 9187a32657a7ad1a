"""Real dice set on rendered surfaces: the die is kept, the photo's surface replaced."""

import numpy as np

from vision.train.backdrop import Backdrops
from vision.train.render import DieSpec, paste, render_die


def crop_of_a_die(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scene = np.full((96, 96, 3), (225, 228, 230), np.float32)
    scene += rng.normal(0, 2, scene.shape).astype(np.float32)
    paste(scene, render_die(DieSpec("d6", 4, 95, 0.3, 5.0, 0.0), rng), 48, 48)
    return np.clip(scene, 0, 255).astype(np.uint8)


def test_the_die_stays_and_the_surface_changes() -> None:
    images = np.stack([crop_of_a_die(3), crop_of_a_die(5)])
    backdrops = Backdrops(images)
    assert backdrops.cut.all()
    idx = np.array([0, 1])
    out = backdrops.apply(images[idx], idx, 1.0, np.random.default_rng(0))
    centre = (slice(40, 56), slice(40, 56))
    assert np.array_equal(out[:, centre[0], centre[1]], images[:, centre[0], centre[1]])
    corner_change = np.abs(out[:, :8, :8].astype(int) - images[:, :8, :8].astype(int)).mean()
    assert corner_change > 10


def test_no_share_or_no_cut_leaves_crops_as_they_are() -> None:
    plain = np.full((1, 96, 96, 3), 128, np.uint8)  # nothing to cut out
    images = np.concatenate([plain, crop_of_a_die(6)[None]])
    backdrops = Backdrops(images)
    assert backdrops.cut.tolist() == [False, True]
    idx = np.array([0, 1, 1])
    rng = np.random.default_rng(0)
    assert np.array_equal(backdrops.apply(images[idx], idx, 0.0, rng), images[idx])
    out = backdrops.apply(images[idx], idx, 1.0, rng)
    assert np.array_equal(out[0], plain[0])
    assert not np.array_equal(out[1], images[1])
