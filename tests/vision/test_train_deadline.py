"""make model keeps its hour by the clock: the dice model's minutes are what the deadline leaves."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from vision.train.deadline import AFTER_TRAINING, DEADLINE, training_minutes

REPO = Path(__file__).resolve().parents[2]


def test_an_early_run_trains_the_minutes_it_wants() -> None:
    assert training_minutes(35.0, DEADLINE, elapsed=10.0) == 35.0


def test_a_late_run_is_cut_to_end_by_the_deadline_with_time_to_measure() -> None:
    minutes = training_minutes(35.0, DEADLINE, elapsed=30.0)
    assert minutes == pytest.approx(DEADLINE - 30.0 - AFTER_TRAINING)
    assert 30.0 + minutes + AFTER_TRAINING == pytest.approx(DEADLINE)


def test_the_training_that_follows_is_kept_back_too() -> None:
    minutes = training_minutes(35.0, DEADLINE, elapsed=20.0, after=10.0)
    assert minutes == pytest.approx(DEADLINE - 20.0 - AFTER_TRAINING - 10.0)
    assert training_minutes(35.0, DEADLINE, elapsed=5.0, after=10.0) == 35.0


def test_a_run_already_past_its_deadline_still_trains_a_minute() -> None:
    assert training_minutes(35.0, DEADLINE, elapsed=DEADLINE + 5) == 1.0


def test_a_short_run_is_never_lengthened() -> None:
    assert training_minutes(0.05, DEADLINE, elapsed=DEADLINE + 5) == 0.05


def test_no_deadline_leaves_the_minutes_alone() -> None:
    assert training_minutes(35.0, 0.0, elapsed=500.0) == 35.0


def test_make_model_counts_the_hour_from_before_its_venv_and_installs() -> None:
    before = time.time()
    plan = subprocess.run(
        ["make", "-n", "model", "VENV=/nonexistent-venv"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout
    lines = plan.splitlines()
    venv = next(i for i, line in enumerate(lines) if "-m venv" in line)
    run = next(i for i, line in enumerate(lines) if "-m vision.train" in line)
    assert venv < run
    started = float(lines[run].split("--started", 1)[1].split()[0])
    assert before - 1 <= started <= time.time() + 1
